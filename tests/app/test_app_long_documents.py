"""Long documents on the Offsets inspector, Compare and the Playground (AppTest): the whole text is checked, one window drawn,
the window moves, the caps are stated, and the downloads are built only when clicked."""

from __future__ import annotations

from app_pages import open_page

from tokapp import windows

TEXT = ("The cat sat on the mat, naïve café 🙂 e\u0301 👩\u200d💻. " * 1200)[:60_000]


def _metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_the_inspector_counts_the_whole_text_and_draws_one_window():
    at = open_page("2_Offsets_inspector.py")
    at.text_area(key="oi_text").set_value(TEXT).run()
    assert not at.exception and not at.error
    total = int(_metrics(at)["Tokens"])
    assert total > 10 * windows.WINDOW_TOKENS
    window = at.number_input(key="oi_window")
    assert window.value == 1 and window.max == windows.window_count(total, windows.WINDOW_TOKENS)
    lanes = next(h.value for h in at.html if 'class="oi-lanes' in h.value)
    assert f"{total - windows.WINDOW_TOKENS} more tokens not drawn" in lanes
    window.set_value(3).run()
    lanes = next(h.value for h in at.html if 'class="oi-lanes' in h.value)
    assert f"{2 * windows.WINDOW_TOKENS} tokens before" in lanes and not at.exception
    assert any(f"{windows.MAX_TEXT_CHARS:,} characters" in c.value for c in at.caption)


def test_the_inspector_token_table_holds_the_window_rows():
    at = open_page("2_Offsets_inspector.py")
    at.text_area(key="oi_text").set_value(TEXT).run()
    at.number_input(key="oi_window").set_value(2).run()
    frames = [d.value for d in at.dataframe if "#" in d.value.columns]
    assert frames and list(frames[0]["#"])[:1] == [windows.WINDOW_TOKENS] and len(frames[0]) == windows.WINDOW_TOKENS


def test_compare_draws_the_same_stretch_for_every_tokenizer():
    at = open_page("3_Compare.py")
    at.text_area(key="cmp_text").set_value(TEXT).run()
    assert not at.exception and not at.error
    window = at.number_input(key="cmp_window")
    assert window.max == windows.window_count(len(TEXT), windows.WINDOW_CHARS)
    window.set_value(4).run()
    strips = [h.value for h in at.html if "cmp-strip" in h.value]
    assert len(strips) == 2 and all("tokens before" in s for s in strips)
    minimap = next(h.value for h in at.html if "win-map" in h.value)
    assert f'data-lo="{3 * windows.WINDOW_CHARS}"' in minimap


def test_the_text_areas_take_a_hundred_thousand_characters():
    # No max_chars: the browser would cut a longer paste silently. The page cuts at MAX_TEXT_CHARS and says so
    # (tests/app/test_teaching_finish.py::test_text_over_the_cap_is_cut_with_a_warning).
    at = open_page("2_Offsets_inspector.py")
    assert not at.text_area(key="oi_text").max_chars  # 0: no limit
    assert not open_page("3_Compare.py").text_area(key="cmp_text").max_chars
    assert windows.MAX_TEXT_CHARS == 100_000


def test_the_playground_sends_one_page_of_its_token_table_and_offers_every_row_as_csv():
    text = "a, b\n" * 600  # 3,000 one-character tokens with the default tokenizer
    at = open_page("1_Playground.py")
    at.text_area(key="pg_text").input(text).run()
    assert not at.exception and not at.error
    frame = at.dataframe[0].value
    assert len(frame) == windows.TABLE_ROWS and list(frame["#"])[:1] == [0]
    page = at.number_input(key="pg_table_page")
    assert page.value == 1 and page.max == windows.window_count(3000, windows.TABLE_ROWS)
    page.set_value(3).run()
    frame = at.dataframe[0].value
    assert list(frame["#"]) == list(range(2 * windows.TABLE_ROWS, 3 * windows.TABLE_ROWS))
    assert any("Rows 1,000–1,499 of 3,000" in c.value for c in at.caption)
    assert at.get("download_button")[0].label == "Download the whole table (CSV)"
    at.text_area(key="pg_text").input(text[:700]).run()  # fewer pages now: the last one, not an error
    assert not at.exception and at.number_input(key="pg_table_page").value == 2
    assert list(at.dataframe[0].value["#"]) == list(range(windows.TABLE_ROWS, 700))
    at.text_area(key="pg_text").input("short").run()
    assert not at.exception and len(at.dataframe[0].value) == 5 and not at.number_input
