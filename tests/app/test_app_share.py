"""Share links: the pure encoding (tokapp.share) and pages reopened from a link under AppTest."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from app_pages import open_page

from tokapp import share

INSPECTOR, COMPARE, LOAD = "2_Offsets_inspector.py", "3_Compare.py", "4_Load_and_export.py"
SCHEMA = (share.Option("coords", ("view", "original"), "view"), share.Option("special", (True, False), True))
KNOWN = ["builtin:ascii-char", "file:english_bytelevel_bpe.json", "file:english_wordpiece.json"]


def test_encode_then_decode_gives_the_same_state():
    params = share.encode_state("oi", text="a🙂b & c", tokenizers="builtin:ascii-char",
                                options={"coords": "original", "special": False}, schema=SCHEMA)
    assert params == {"oi_text": "a🙂b & c", "oi_tok": "builtin:ascii-char", "oi_coords": "original",
                      "oi_special": "false"}
    # Through a real URL and back, as a browser would send it.
    url = share.share_url("http://host:1/offsets_inspector", params)
    back = parse_qs(urlsplit(url).query)
    state = share.decode_state("oi", back, known_tokenizers=KNOWN, schema=SCHEMA)
    assert state.text == "a🙂b & c"
    assert state.tokenizers == ["builtin:ascii-char"]
    assert state.options == {"coords": "original", "special": False}
    assert state.notes == []


def test_defaults_are_left_out_of_the_link():
    params = share.encode_state("oi", text="x", tokenizers="builtin:ascii-char",
                                options={"coords": "view", "special": True}, schema=SCHEMA)
    assert params == {"oi_text": "x", "oi_tok": "builtin:ascii-char"}


def test_long_text_is_left_out_with_a_note():
    long = "y" * (share.TEXT_LIMIT + 1)
    assert "oi_text" not in share.encode_state("oi", text=long)
    assert share.text_note(long) and "1,500" in share.text_note(long)
    assert share.text_note("y" * share.TEXT_LIMIT) is None
    assert share.encode_state("oi", text="y" * share.TEXT_LIMIT)["oi_text"] == "y" * share.TEXT_LIMIT
    state = share.decode_state("oi", {"oi_text": [long]})
    assert state.text is None and state.notes


def test_several_tokenizers_travel_as_repeated_parameters():
    params = share.encode_state("cmp", tokenizers=KNOWN + KNOWN + ["file:x.json", "file:y.json"])
    assert params["cmp_toks"] == KNOWN + ["file:x.json"]  # unique, at most four
    assert share.query_string({"cmp_toks": ["a", "b"]}) == "cmp_toks=a&cmp_toks=b"
    state = share.decode_state("cmp", {"cmp_toks": params["cmp_toks"]}, known_tokenizers=KNOWN, multiple=True)
    assert state.tokenizers == KNOWN
    assert len(state.notes) == 1 and "file:x.json" in state.notes[0]


def test_untrusted_values_fall_back_with_notes():
    state = share.decode_state(
        "oi", {"oi_tok": "upload:abc", "oi_coords": "sideways", "oi_special": "maybe"},
        known_tokenizers=KNOWN, schema=SCHEMA)
    assert state.tokenizers == [] and state.options == {}
    assert len(state.notes) == 3
    assert "another session" in state.notes[0]


def test_share_url_replaces_any_old_query():
    assert share.share_url("http://h/p?old=1#x", {"a": "1 2"}) == "http://h/p?a=1+2"
    assert share.share_url("http://h/p", {}) == "http://h/p"


# ---------------------------------------------------------------- pages reopened from a link
def _open(page: str, **params):
    return open_page(page, **params)


def test_inspector_link_restores_text_tokenizer_and_options():
    at = _open(INSPECTOR, oi_text="héllo 🙂", oi_tok="builtin:ascii-char", oi_coords="original",
               oi_special="false")
    assert at.text_area(key="oi_text").value == "héllo 🙂"
    assert at.selectbox(key="oi_tok").value == "builtin:ascii-char"
    assert at.radio(key="oi_coords").value == "original"
    assert at.toggle(key="oi_special").value is False
    # The page keeps the URL current: the same parameters come back out.
    assert at.query_params["oi_text"] in ("héllo 🙂", ["héllo 🙂"])
    at.text_area(key="oi_text").input("z" * (share.TEXT_LIMIT + 5)).run()
    assert "oi_text" not in at.query_params
    assert any("not put in the link" in c.value or "a link carries" in c.value for c in at.caption)


def test_compare_link_restores_the_chosen_tokenizers():
    keys = ["builtin:ascii-char", "file:english_wordpiece.json", "file:english_unigram.json"]
    at = _open(COMPARE, cmp_toks=keys, cmp_text="same text", cmp_ring="false")
    assert at.multiselect(key="cmp_toks").value == keys
    assert at.text_area(key="cmp_text").value == "same text"
    assert at.toggle(key="cmp_ring").value is False


def test_a_link_naming_a_missing_tokenizer_says_so_and_uses_the_default():
    at = _open(INSPECTOR, oi_tok="upload:0123456789abcdef")
    assert at.selectbox(key="oi_tok").value == "file:english_bytelevel_bpe.json"
    assert any("another session" in i.value for i in at.info)
    assert not at.error


def test_load_page_link_restores_format_and_tokenizer():
    at = _open(LOAD, le_tok="builtin:toy-word-level", le_format="tokcore")
    assert at.selectbox(key="le_tok").value == "builtin:toy-word-level"
    assert at.radio(key="le_format").value == "tokcore"
