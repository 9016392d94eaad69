"""Training pages fed what users really bring: files saved by Windows editors, UTF-16 or binary files, an empty
paste box, a many-script upload on the Unigram page, a vocabulary smaller than the corpus alphabet."""

from __future__ import annotations

import pytest
from shared_data import ROOT
from streamlit.testing.v1 import AppTest

from tokapp import training as T
from tokapp.training import defaults as D

# 300 distinct CJK characters, each word five of them, every word seen twice: an alphabet over the
# Unigram page's fallback size of 200.
MANY_SCRIPTS = "\n".join(" ".join("".join(chr(0x4E00 + (w * 5 + i) % 300) for i in range(5)) for w in range(60))
                         for _ in range(2)).encode("utf-8")


def page(name: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / name), default_timeout=60)
    at.run()
    return at


def upload(at: AppTest, prefix: str, name: str, data: bytes) -> AppTest:
    at.selectbox(key=f"{prefix}_corpus").set_value("upload").run()
    at.file_uploader(key=f"{prefix}_upload").set_value((name, data, "text/plain")).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_byte_order_mark_is_not_a_corpus_character():
    corpus = T.upload_corpus("notepad.txt", "\ufeffhug pug\nhug".encode("utf-8"))
    assert corpus.lines == ("hug pug", "hug")
    assert T.word_counts(corpus, "whitespace") == {"hug": 2, "pug": 1}


@pytest.mark.parametrize("data", ["hug pug".encode("utf-16-le"), b"PK\x03\x04\x00\x00abc"])
def test_utf16_and_binary_files_are_refused_with_what_to_do(data):
    with pytest.raises(ValueError, match="NUL characters.*save it as UTF-8"):
        T.upload_corpus("export.txt", data)


@pytest.mark.parametrize("text", ["", "  \n\t\n"])
def test_an_empty_corpus_is_an_error_on_every_page(text):
    with pytest.raises(ValueError, match="no text"):
        T.text_corpus(text)
    for name, prefix in (("5_Train_BPE.py", "tb"), ("7_Train_Unigram.py", "tu")):
        at = page(name)
        at.selectbox(key=f"{prefix}_corpus").set_value("paste").run()
        at.text_area(key=f"{prefix}_text").input(text).run()
        assert not at.exception
        assert any("no text" in e.value and "sentences" in e.value for e in at.error), name
        at = upload(page(name), prefix, "empty.txt", text.encode())
        assert any("no text" in e.value for e in at.error), name


def test_unigram_defaults_rise_above_an_uploaded_alphabet():
    corpus = T.upload_corpus("cjk.txt", MANY_SCRIPTS)
    floor = D.unigram_floor(T.word_counts(corpus, "metaspace"))
    assert floor == 302  # 300 characters, the metaspace mark and [UNK]
    chosen = D.unigram_defaults_for(corpus)
    assert chosen.vocab_size > floor and chosen.seed_size > chosen.vocab_size
    assert D.unigram_defaults_for(T.builtin_corpus("classic")).vocab_size == 8  # the course keeps its size


def test_unigram_page_trains_a_many_script_upload_at_its_defaults():
    at = upload(page("7_Train_Unigram.py"), "tu", "cjk.txt", MANY_SCRIPTS)
    assert not at.error, [e.value for e in at.error]
    assert at.number_input(key="tu_vocab").value > 302
    assert any("at least 302 tokens" in c.value for c in at.sidebar.caption)


def test_unigram_vocab_below_the_alphabet_says_how_far_to_raise_it():
    at = page("7_Train_Unigram.py")
    at.number_input(key="tu_vocab").set_value(5).run()
    assert not at.exception
    [error] = [e.value for e in at.error]
    assert "raise the vocabulary size to 8 or more" in error and "limit_alphabet" not in error


def test_unigram_seed_table_names_the_fate_of_every_seed_piece():
    run = T.train(T.builtin_corpus("english"), T.Settings("unigram", 100, "metaspace", seed_size=1000,
                                                           shrinking_factor=0.8))
    fates = T.seed_fates(run)
    assert len(fates) == run.result.details["seed_size"]
    cut = [f for f in fates if f["fate"] == "cut to reach the vocabulary size"]
    assert cut and len(cut) + 99 == run.steps[-1].vocab_size - len(run.result.details["final_dropped"])


def test_saving_twice_under_one_name_keeps_one_entry():
    at = page("5_Train_BPE.py")
    at.button(key="tb_save").click().run()
    at.button(key="tb_save").click().run()  # the same run again: nothing new
    assert any("already saved" in i.value for i in at.info)
    at.number_input(key="tb_vocab").set_value(12).run()
    at.text_input(key="tb_save_name").input("bpe-30").run()
    at.button(key="tb_save").click().run()  # another run under the same name replaces the first
    entries = list(at.session_state["tokapp_session_tokenizers"].values())
    assert [e.label for e in entries] == ["Trained: bpe-30"] and entries[0].tokenizer.vocab_size == 12


def test_a_long_word_draws_the_start_of_its_lattice():
    at = page("7_Train_Unigram.py")
    at.text_input(key="tu_word").input("hug" * 1000).run()
    assert not at.exception
    assert any("first 64 of its 3000 characters" in c.value for c in at.caption)
    assert at.dataframe  # the n-best list and the samples still come from the whole word


@pytest.fixture
def one_call_figures(monkeypatch):
    """Plotly's add_trace / add_annotation / add_vline copy every earlier element per call: quadratic in a figure with
    many (a 400-character lattice took 80 s, 60 pruning rounds 1 s a rerun). Figures that grow with the input must
    hand their elements over at once."""
    import plotly.graph_objects as go

    def refuse(*args, **kwargs):
        raise AssertionError("element added one by one")

    for name in ("add_trace", "add_annotation", "add_vline", "add_shape"):
        monkeypatch.setattr(go.Figure, name, refuse)


def test_figures_that_grow_with_the_input_are_built_at_once(one_call_figures):
    from tokapp import train_figures as F

    em = F.em_loss_figure([float(i) for i in range(122)], 2)
    assert [s.x0 for s in em.layout.shapes] == [r + 0.5 for r in range(2, 122, 2)]
    nodes = [{"start": i, "stop": i + 1, "piece": "x", "score": -1.0} for i in range(200)]
    lattice = F.lattice_figure({"text": "x" * 200, "nodes": nodes, "path": list(range(200)), "score": -200.0})
    assert len(lattice.data) == 201 and len(lattice.layout.annotations) == 400


@pytest.mark.parametrize("name, prefix", [("5_Train_BPE.py", "tb"), ("6_Train_WordPiece.py", "tw")])
def test_a_run_that_stops_short_of_its_size_says_why(name, prefix):
    at = page(name)
    at.number_input(key=f"{prefix}_minf").set_value(1000).run()
    assert any("no pair occurs 1000 times or more. Lower the minimum pair count" in i.value for i in at.info)
    at.number_input(key=f"{prefix}_minf").set_value(1).run()
    at.number_input(key=f"{prefix}_vocab").set_value(500).run()
    assert any("short of the 500 asked for: every corpus word is a single token" in i.value for i in at.info)


def test_the_wordpiece_trace_matches_the_tokenizer_on_a_word_with_punctuation():
    at = page("6_Train_WordPiece.py")
    at.selectbox(key="tw_corpus").set_value("english").run()
    at.slider(key="tw_step").set_value(at.slider(key="tw_step").max).run()
    at.text_input(key="tw_word").input("students,").run()
    [tokens] = [m.value for m in at.markdown if m.value.startswith("Tokens:")]
    assert "[UNK]" not in tokens and "`s`" in tokens  # as the trained tokenizer cuts "students" (the comma apart)
    assert any("The model sees `students`" in c.value for c in at.caption)


def test_the_unigram_loss_metric_says_which_vocabulary_it_measured():
    at = page("7_Train_Unigram.py")
    at.selectbox(key="tu_corpus").set_value("english").run()
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Final vocabulary"] == "100"  # the size asked for, after the cut
    assert "Final loss" not in metrics and "Loss of the last EM run" in metrics  # measured on the 110 pieces before it


def test_an_uploaded_corpus_stays_selectable_after_switching_to_a_builtin_and_back():
    at = upload(page("5_Train_BPE.py"), "tb", "mine.txt", b"zig zag zig\nzag zug")
    first = T.upload_corpus("mine.txt", b"zig zag zig\nzag zug")
    corpus_metric = lambda: next(m.value for m in at.metric if m.label == "Corpus")  # noqa: E731
    assert corpus_metric() == "3 words" and at.selectbox(key="tb_upload_pick").value == first.key
    at.selectbox(key="tb_corpus").set_value("english").run()
    assert not at.exception and corpus_metric() != "3 words"
    at.selectbox(key="tb_corpus").set_value("upload").run()
    assert not at.exception and not at.error
    assert not any("Upload a text file" in i.value for i in at.info)
    assert at.selectbox(key="tb_upload_pick").value == first.key and corpus_metric() == "3 words"
    at.file_uploader(key="tb_upload").set_value(("other.txt", b"one two three four", "text/plain")).run()
    pick = at.selectbox(key="tb_upload_pick")
    assert pick.value != first.key and corpus_metric() == "4 words"
    assert pick.options[1].startswith("mine.txt")  # the earlier upload, still offered
    pick.set_value(first.key).run()
    assert corpus_metric() == "3 words"


def test_a_deeply_nested_json_corpus_is_an_error_not_a_traceback():
    with pytest.raises(ValueError, match="nested too deeply"):
        T.upload_corpus("deep.json", b"[" * 100_000)
    at = upload(page("5_Train_BPE.py"), "tb", "deep.json", b"[" * 100_000)
    assert any("nested too deeply" in e.value for e in at.error)
