"""Training pages: the pure timeline helpers (word counts, replay, partial tokenizers, tables), the
figures, and each page under AppTest, stepping the timeline."""

from __future__ import annotations

import math

import pytest
from shared_data import ROOT
from streamlit.testing.v1 import AppTest

import tokcore
from tokapp import train_figures as F
from tokapp import train_html
from tokapp import training as T
from tokapp.training.replay import _merge_word

COURSE = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}


@pytest.fixture(scope="module")
def classic():
    return T.builtin_corpus("classic")


@pytest.fixture(scope="module")
def bpe_run(classic):
    return T.train(classic, T.Settings("bpe", 30, "whitespace"))


@pytest.fixture(scope="module")
def wp_run(classic):
    return T.train(classic, T.Settings("wordpiece", 100, "whitespace"))


# ----------------------------------------------------------------------------- corpora
def test_corpora_and_keys(tmp_path):
    c = T.builtin_corpus("classic")
    assert c.counts == COURSE and c.key.startswith("builtin:classic:")
    assert T.word_counts(c, "whitespace") == COURSE
    assert T.word_counts(c, "metaspace") == {"▁" + w: n for w, n in COURSE.items()}
    eng = T.builtin_corpus("english")
    assert eng.lines and T.word_counts(eng, "whitespace")["the"] > 3
    a, b = T.text_corpus("hug pug"), T.text_corpus("hug pug ")
    assert a.key != b.key and a.key == T.text_corpus("hug pug").key
    up = T.upload_corpus("c.json", b'{"words": {"ab": 3}}')
    assert up.counts == {"ab": 3} and up.key.startswith("upload:")
    with pytest.raises(ValueError, match="over the 2 MB"):
        T.upload_corpus("big.txt", b"a" * (T.MAX_CORPUS_BYTES + 1))
    with pytest.raises(ValueError, match="not UTF-8"):
        T.upload_corpus("bad.txt", b"\xff\xfe")
    with pytest.raises(ValueError, match="word: count|word}"):
        T.upload_corpus("c.json", b'{"words": {"ab": "x"}}')
    s = T.Settings("bpe", 30, "whitespace")
    assert T.run_key(c, s) == f"{c.key}||bpe|v30|whitespace|b0|m1"
    assert T.run_key(c, s) != T.run_key(c, T.Settings("bpe", 31, "whitespace"))


# ----------------------------------------------------------------------------- BPE timeline
def test_bpe_run_matches_the_trainer_and_the_course(bpe_run):
    assert [s.merged for s in bpe_run.steps] == ["ug", "un", "hug", "pun", "pug", "hugs", "bun"]
    direct = tokcore.train_bpe(COURSE, 30, unk_token="[UNK]")
    assert bpe_run.steps == direct.steps
    assert bpe_run.result.details["word_counts"] == bpe_run.words == COURSE


def test_replay_segmentations_and_compression_curve(bpe_run):
    r = bpe_run.replay
    assert r.segmentation("hug", 0) == ("h", "u", "g")
    assert r.segmentation("hug", 1) == ("h", "ug") == r.segmentation("hug", 2)
    assert r.segmentation("hug", 3) == ("hug",)
    assert r.segmentation("hugs", 7) == ("hugs",)
    # 36 words, 113 characters; every merge saves its count (no overlapping pairs here).
    assert r.total_words == 36 and r.tokens[0] == 113
    assert list(r.tokens) == [113, 93, 77, 62, 50, 45, 40, 36]
    assert r.curve()[-1] == 1.0 and len(r.curve()) == len(bpe_run.steps) + 1


def test_replay_equals_naive_resegmentation_on_english():
    run = T.train(T.builtin_corpus("english"), T.Settings("bpe", 200, "whitespace"))
    steps = run.steps
    for k in (0, 1, 17, len(steps)):
        total = 0
        for w, c in run.words.items():
            syms = list(w)
            for s in steps[:k]:
                syms = _merge_word(syms, s.left, s.right, s.merged)
            total += c * len(syms)
            if w in run.replay.history:
                assert run.replay.segmentation(w, k) == tuple(syms)
        assert run.replay.tokens[k] == total


def test_partial_tokenizer_as_of_step(bpe_run):
    tok3 = T.tokenizer_at(bpe_run, 3)
    assert tok3.encode_result("hug bug mug hugs", add_special_tokens=False).tokens == \
        ["hug", "b", "ug", "[UNK]", "ug", "hug", "s"]
    ids = tok3.get_vocab()
    assert ids["hug"] == bpe_run.tokenizer.get_vocab()["hug"] and "pun" not in ids
    tok0 = T.tokenizer_at(bpe_run, 0)
    assert tok0.encode_result("hug", add_special_tokens=False).tokens == ["h", "u", "g"]
    assert T.tokenizer_at(bpe_run, 7) is bpe_run.tokenizer


def test_byte_level_run_round_trips():
    run = T.train(T.builtin_corpus("multilingual"), T.Settings("bpe", 400, "whitespace", byte_level=True))
    text = "Die Katze schläft 🙂"
    for k in (0, 10, len(run.steps)):
        tok = T.tokenizer_at(run, k)
        assert tok.decode(tok.encode(text)) == text
    assert run.replay.curve()[0] > run.replay.curve()[-1]


def test_tables_and_ties(bpe_run, wp_run):
    rows = T.merge_table(bpe_run, 3)
    assert [r["new token"] for r in rows] == ["ug", "un", "hug"] and rows[2]["count"] == 15
    assert T.top_pairs(bpe_run, 0)[:3] == [("u", "g", 20), ("p", "u", 17), ("u", "n", 16)]
    assert T.ties_of(T.top_pairs(bpe_run, 4), 2) == [("hug", "s", 5)]
    assert T.top_pairs(bpe_run, 99) == []
    wp_rows = T.merge_table(wp_run, 3)
    assert wp_rows[2]["new token"] == "hugs" and wp_rows[2]["f(left)"] == 15 and wp_rows[2]["f(right)"] == 5
    scores = T.score_rows(wp_run, 2)
    assert scores[0]["pair"] == "hu + ##gs" and scores[0]["score as fraction"] == "5/(15×5)"
    assert [r["pair"] for r in T.score_rows(wp_run, 1)][:1] == ["h + ##u"]
    assert len(T.ties_of(T.top_pairs(wp_run, 1), 5)) == 5  # six pairs tie at 1/36


def test_wordpiece_replay_and_partial_tokenizer(wp_run):
    assert wp_run.replay.segmentation("hugs", 0) == ("h", "##u", "##g", "##s")
    assert wp_run.replay.segmentation("hugs", 1) == ("h", "##u", "##gs")
    assert wp_run.replay.segmentation("hugs", 3) == ("hugs",)
    tok = T.tokenizer_at(wp_run, 3)
    assert [t[1] for t in tok.model.explain("hug")["tokens"]] == ["hu", "##g"]


def test_course_notes_only_where_they_apply(classic):
    assert any("`hugs` is the third merge" in n for n in T.course_notes("wordpiece", classic, 3))
    assert T.course_notes("wordpiece", classic, 1) == []
    assert len(T.course_notes("unigram", classic)) == 2
    assert T.course_notes("wordpiece", T.builtin_corpus("english"), 3) == []


# ----------------------------------------------------------------------------- Unigram helpers
def test_unigram_curve_fates_and_the_classroom_table(classic):
    run = T.train(classic, T.Settings("unigram", 8, "whitespace"))
    sizes, losses = T.unigram_curve(run)
    assert sizes[0] == run.result.details["seed_size"] and sizes[1:] == [s.vocab_size for s in run.steps]
    assert len(losses) == len(sizes) and losses[-1] == run.result.details["final_loss"]
    fates = {f["piece"]: f["fate"] for f in T.seed_fates(run)}
    assert fates["hugs"] == "pruned in round 1" and fates["u"] == "kept"
    probs = T.course_seed_probs(COURSE)
    assert round(probs["hug"], 6) == 0.071429 and sum(probs.values()) == pytest.approx(1.0)
    base, rows = T.removal_table(probs, COURSE)
    assert round(base, 1) == 169.8
    hug = next(r for r in rows if r["piece"] == "hug")
    assert round(hug["increase"], 1) == 23.5
    assert rows[0]["increase"] == 0.0 and rows[-1]["piece"] == "hug"  # the costliest removal
    _, with_chars_only = T.removal_table({"a": 0.5, "b": 0.5}, {"ab": 1})
    assert all(math.isinf(r["increase"]) for r in with_chars_only)
    assert T.first_piece(T.train(classic, T.Settings("unigram", 10, "metaspace")).tokenizer, "hug") == "▁hug"


# ----------------------------------------------------------------------------- figures and HTML
def test_bar_colours_mark_winner_and_ties():
    assert F.bar_colors([5, 5, 4]) == ([F.WINNER, F.TIE, F.OTHER], ["winner", "tie", ""])
    fig = F.candidate_bars([("p", "ug", 5), ("hug", "s", 5), ("b", "un", 4)])
    bar = fig.data[0]
    assert list(bar.y) == ["b + un", "hug + s", "p + ug"]  # winner drawn on top
    assert list(bar.marker.color) == [F.OTHER, F.TIE, F.WINNER]
    assert "5 winner" in bar.text and "5 tie" in bar.text


def test_candidate_chart_draws_the_current_step(bpe_run):
    # The chart's own slider and play buttons went (issue 21: the page's step control is the one control);
    # tests/app/test_teaching_training.py checks the page drives it.
    tables = bpe_run.result.details["pair_counts_top"]
    fig = F.candidate_chart(tables, 2)
    assert fig.data[0].y[-1] == "h + ug"  # merge 3's winner
    assert fig.layout.title.text == "Candidates before merge 3"
    assert F.candidate_chart(tables, 99).layout.title.text == f"Candidates before merge {len(tables)}"


def test_curves_and_unigram_figures():
    fig = F.compression_curve([3.0, 2.0, 1.5], 1)
    assert list(fig.data[0].y) == [3.0, 2.0, 1.5] and list(fig.data[1].x) == [1]
    em = F.em_loss_figure([10.0, 8.0, 9.0, 7.0], 2)
    assert len(em.layout.shapes) == 1
    pr = F.pruning_figure([19, 11, 8], [63.2, 119.2, 151.6], 1)
    assert list(pr.data[0].y) == [63.2, 119.2] and pr.data[1].yaxis == "y2" and list(pr.layout.xaxis.range) == [-0.3, 2.3]
    rm = F.removed_figure([("hugs", 0.16), ("bun", 0.56)])
    assert list(rm.data[0].y) == ["bun", "hugs"]


def test_lattice_lanes_and_figure():
    assert F.lattice_lanes([{"start": 0, "stop": 2}, {"start": 1, "stop": 2}, {"start": 2, "stop": 3}]) == [0, 1, 0]
    model = T.train(T.builtin_corpus("classic"), T.Settings("unigram", 10, "whitespace")).tokenizer.model
    ex = model.explain("hugs")
    fig = F.lattice_figure(ex)
    path_traces = [t for t in fig.data if t.line is not None and t.line.color == F.PATH]
    assert len(path_traces) == len(ex["path"]) == len(model.tokenize("hugs"))
    assert "best path" in fig.layout.title.text
    texts = [a.text for a in fig.layout.annotations]
    assert any("<b>hug</b>" in t for t in texts)
    tricky = F.lattice_figure({"text": "<a", "nodes": [{"start": 0, "stop": 2, "piece": "<a", "score": -1.0}],
                               "path": [0], "score": -1.0})
    assert all("<a" not in a.text.replace("<b>", "").replace("</b>", "") for a in tricky.layout.annotations)


def test_training_html_escapes_and_highlights():
    out = train_html.words_html([("hug", 10, ("h", "ug")), ("<b>", 1, ("<b>",))], "ug")
    assert out.count("tr-new") == 1 and "&lt;b&gt;" in out and "<b>" not in out
    trace = train_html.wordpiece_trace_html({"attempts": [{"position": 0, "candidates": ["hugs", "hug"],
                                                            "match": "hug", "span": (0, 3)}], "reason": None})
    assert 'tr-hit">hug<' in trace and 'tr-miss">hugs<' in trace


# ----------------------------------------------------------------------------- the pages
def page(name: str, **query) -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / name), default_timeout=120)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def headings(at) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith("### ")]


def test_bpe_page_steps_through_the_timeline():
    at = page("5_Train_BPE.py", tb_step="0")
    assert at.title[0].value == "Train BPE"
    assert headings(at) == ["### Before any merge: every word is split into single symbols"]
    for want in ("Merge 1: `u` + `g`", "Merge 2: `u` + `n`", "Merge 3: `h` + `ug` → `hug`"):
        at.button(key="tb_next").click().run()
        assert not at.exception and want in headings(at)[0]
    assert at.slider(key="tb_step").value == 3
    words = next(h.value for h in at.html if "tr-words" in h.value and "tr-count" in h.value)
    assert words.count('tr-sym tr-new">hug<') == 2  # hug x10 and hugs x5
    assert at.dataframe[0].value["new token"].tolist() == ["ug", "un", "hug"]
    at.button(key="tb_prev").click().run()
    assert "Merge 2" in headings(at)[0]
    at.slider(key="tb_step").set_value(5).run()
    assert "Merge 5: `p` + `ug`" in headings(at)[0]
    assert any("Tie at count 5" in w.value for w in at.warning)


def test_bpe_page_settings_and_byte_level():
    at = page("5_Train_BPE.py", tb_step="10")
    assert "Merge 7" in headings(at)[0]  # a step past the end is clamped to the last merge
    at.selectbox(key="tb_corpus").set_value("english").run()
    at.number_input(key="tb_vocab").set_value(120).run()
    at.slider(key="tb_step").set_value(10).run()
    assert "Merge 10" in headings(at)[0]
    at.radio(key="tb_level").set_value("bytes").run()
    assert not at.exception and not at.error
    at.number_input(key="tb_vocab").set_value(300).run()
    assert not at.exception and at.metric[1].value == str(300 - 256)  # 256 byte symbols, no [UNK]


def test_bpe_classroom_hides_then_reveals_and_scores():
    at = page("5_Train_BPE.py")
    at.toggle(key="tb_class").set_value(True).run()
    assert any("Merge 1 is hidden" in m.value for m in at.markdown)
    assert not [h for h in headings(at) if "Merge 1" in h]
    at.text_input(key="tb_guess").input("u + g")
    at.button[0].click().run()  # "Check my guess" (the form's first submit button)
    assert not at.exception
    assert any("Right! Merge 1: u + g → ug" in s.value for s in at.success)
    assert any("score **1 / 1**" in m.value for m in at.markdown)
    at.button(key="tb_advance").click().run()
    assert any("Merge 2 is hidden" in m.value for m in at.markdown)
    assert "Merge 1" in headings(at)[0]


def test_bpe_save_for_the_session_and_export():
    at = page("5_Train_BPE.py")
    at.text_input(key="tb_save_name").input("my toy bpe")
    at.button(key="tb_save").click().run()
    entries = at.session_state["tokapp_session_tokenizers"]
    assert [e.label for e in entries.values()] == ["Trained: my toy bpe"]
    tok = next(iter(entries.values())).tokenizer
    assert tok.encode_result("hugs", add_special_tokens=False).tokens == ["hugs"]


def test_wordpiece_page_scores_course_note_and_trace():
    at = page("6_Train_WordPiece.py", tw_step="3")
    assert "Merge 3: `hu` + `##gs` → `hugs` (score 5/(15×5)" in headings(at)[0]
    assert any("`hugs` is the third merge" in i.value for i in at.info)
    scores = at.dataframe[0].value
    assert scores["pair"].tolist()[0] == "hu + ##gs"
    at.text_input(key="tw_word").input("bugs").run()
    trace = next(h.value for h in at.html if "tr-trace" in h.value)
    assert 'tr-hit">b<' in trace and 'tr-hit">##gs<' in trace  # "bu" is merged only at step 6
    at.button(key="tw_next").click().run()
    assert "Merge 4: `hu` + `##g` → `hug`" in headings(at)[0]


def test_unigram_page_rounds_lattice_and_classroom():
    at = page("7_Train_Unigram.py", tu_vocab="8", tu_shrink="0.75")
    assert at.title[0].value == "Train Unigram"
    assert headings(at)[0].startswith("### Round 0:")  # the loop starts at the seed (issue 21)
    at.slider(key="tu_step").set_value(2).run()
    assert headings(at)[0].startswith("### Round 2:")
    assert any("Loss now: **169.80**" in m.value for m in at.markdown)
    assert len([i for i in at.info if "P(p) = 17/210" in i.value]) == 1
    at.button(key="tu_prev").click().run()
    assert headings(at)[0].startswith("### Round 1: 3 pieces pruned")
    at.selectbox(key="tu_corpus").set_value("english").run()
    assert not at.exception and at.number_input(key="tu_vocab").value == 100  # the English default
    at.toggle(key="tu_class").set_value(True).run()
    assert any("Round 1 is hidden" in m.value for m in at.markdown)


def test_training_errors_are_messages_not_tracebacks():
    at = page("7_Train_Unigram.py", tu_vocab="3")
    assert not at.exception
    assert any("cannot hold" in e.value for e in at.error)
