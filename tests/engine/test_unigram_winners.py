"""HF Unigram's forward pass gathered per end position (``forward_gathered`` over ``end_trie``).

At each end the pass walks back through a trie of the pieces' reversed texts and keeps one winner
per position (its piece's length, id, text and UTF-8 length); ``Unigram.word_columns`` reads a
word's ids, tokens and byte lengths off the winners in one walk back, and the plan's cold entries
take them (``plan.by_word``). Pinned here against:

- ``pushed_segments`` below: the forward pass it replaced (``forward_pushed``, each start pushing
  its candidates forward, HF's ``encode_optimized`` order), kept in the engine for models with a
  non-finite score and used here as the slow reference, with ``_emit``'s unknown-run fusing;
- HF tokenizers' own Unigram, on random tie-prone vocabularies (the unknown id anywhere, its
  text a piece that words spell), on models trained at test time with ``tokenizers`` on texts full
  of ties and unknown characters, and on T5's ``tokenizer.json`` in the shared data.

Left out: the plan's per-word loop (``test_wpuni_cold_entries.py`` pins the entries to the general ones).
"""

from __future__ import annotations

import json
import math

import pytest
from fast_pairs import entries_agree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_data import require_shared

import tokcore
from tokcore.fast.plan import word_plan
from tokcore.models.unigram import Unigram, backtrack
from tokcore.models.unigram_forward import forward_pushed
from tokcore.pre_tokenizers.standard import Metaspace

tokenizers = pytest.importorskip("tokenizers")

SEP = "\u2581"
_LETTERS = "ab" + SEP + "é日"
# Scores where sums of two equal a third, so that paths tie at many positions.
_SCORES = st.sampled_from([-1.0, -2.0, -3.0, -0.5, -1.5, -4.0])
_pieces = st.text(alphabet=_LETTERS, min_size=1, max_size=4)
_vocab = st.lists(st.tuples(_pieces, _SCORES), min_size=0, max_size=16, unique_by=lambda p: p[0])
# "x" and "😀" are in no piece: unknown runs; "<u>" spells the unknown piece itself.
_words = st.lists(st.sampled_from(["a", "b", "ab", "ba", SEP, "é", "日", "x", "😀", "<u>"]), min_size=1, max_size=9).map("".join)


def pushed_segments(model: Unigram, text: str) -> list[tuple[int, int, int]]:
    """The best path as the forward pass pushed from each start finds it (the engine's pass before the
    gathered one): ``(start, stop, id)`` per node."""
    from_, ids = forward_pushed(model._piece_trie().get, (None, model._unk_marker, model.unk_score), text)
    return backtrack(from_, ids, len(text))


def reference_tokens(model: Unigram, text: str) -> list:
    return model._emit(text, pushed_segments(model, text))


def _model(vocab, unk_at: int) -> tuple[Unigram, list]:
    entries = list(vocab)
    entries.insert(min(unk_at, len(entries)), ("<u>", -2.0))
    unk_id = min(unk_at, len(vocab))
    return Unigram(entries, unk_id=unk_id), entries


def _hf_tokens(hf, text: str) -> list:
    return [(t.id, t.value, t.offsets) for t in hf.tokenize(text)]


def _as_bytes(text: str, tokens) -> list:
    return [(t[0], t[1], (len(text[: t[2]].encode()), len(text[: t[3]].encode()))) for t in tokens]


@settings(max_examples=400, deadline=None)
@given(vocab=_vocab, unk_at=st.integers(0, 16), words=st.lists(_words, min_size=1, max_size=6))
def test_gathered_winners_equal_the_pushed_pass_and_hf(vocab, unk_at, words):
    model, entries = _model(vocab, unk_at)
    hf = tokenizers.models.Unigram(entries, unk_id=model.unk_id, byte_fallback=False)
    for w in words:
        segs = pushed_segments(model, w)
        assert model._viterbi_segments(w) == segs, w
        tokens = reference_tokens(model, w)
        assert model._best_tokens(w) == tokens, w
        ids, texts, lens = model.word_columns(w)
        assert list(zip(ids, texts)) == [t[:2] for t in tokens], w
        assert lens == tuple(len(t.encode()) for t in texts), w
        assert _as_bytes(w, tokens) == _hf_tokens(hf, w), w


def test_a_tie_goes_to_the_earliest_start_and_unknown_runs_fuse_across_the_unknown_piece():
    # "a" + "bc" and "ab" + "c" score as "abc": the earliest start ("abc" from 0) stays.
    model = Unigram([("<unk>", 0.0), ("a", -1.0), ("ab", -1.0), ("abc", -3.0), ("bc", -2.0), ("c", -2.0)], unk_id=0)
    assert model.word_columns("abc") == ((3,), ("abc",), (3,))
    # A matched "<unk>" piece has the unknown id: it joins the unknown characters around it.
    assert model.word_columns("xé<unk>yab") == ((0, 2), ("xé<unk>y", "ab"), (9, 2))
    hf = tokenizers.models.Unigram([("<unk>", 0.0), ("a", -1.0), ("ab", -1.0), ("abc", -3.0), ("bc", -2.0), ("c", -2.0)],
                                   unk_id=0, byte_fallback=False)
    assert [t.value for t in hf.tokenize("xé<unk>yab")] == ["xé<unk>y", "ab"]


@pytest.mark.parametrize("bad", [float("-inf"), float("inf"), float("nan")])
def test_a_non_finite_score_keeps_the_pushed_pass(bad):
    vocab = [("<unk>", 0.0), ("a", -1.0), ("ab", bad), ("b", -1.0), ("ba", -2.5)]
    model = Unigram(vocab, unk_id=0)
    assert model._end_trie() is None
    for w in ("abab", "bax", "ab", "xxab"):
        assert model._best_tokens(w) == reference_tokens(model, w), w
        assert model.word_columns(w)[1] == tuple(t[1] for t in reference_tokens(model, w)), w


def _trained(corpus: list[str], vocab_size: int, path):
    hf = tokenizers.Tokenizer(tokenizers.models.Unigram())
    hf.pre_tokenizer = tokenizers.pre_tokenizers.Metaspace()
    trainer = tokenizers.trainers.UnigramTrainer(vocab_size=vocab_size, unk_token="<unk>", special_tokens=["<unk>"],
                                                 show_progress=False, max_piece_length=4)
    hf.train_from_iterator(corpus, trainer)
    hf.save(str(path))
    return hf, path


def _loaded(path):
    tok = tokcore.load(path)
    tok.truncation = tok.padding = None
    return tok


# Repeated halves and mirrored words: many pieces of equal count, so equal scores and tied paths.
_CORPORA = {
    "ties": ["ab ba abab baba aabb bbaa " * 3, "ab ab ba ba abba baab", "aa bb aabb bbaa abab"],
    "scripts": ["日本 本日 日日 本本 é日 日é ab 日ab", "жы ыж жжыы ab ba 日本", "éé ée eé ab ba ée"],
}


@pytest.fixture(scope="module", params=sorted(_CORPORA))
def trained(request, tmp_path_factory):
    hf, path = _trained(_CORPORA[request.param], 40, tmp_path_factory.mktemp("trained") / "tokenizer.json")
    return hf, path, _loaded(path)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.lists(st.sampled_from(["ab", "ba", "a", "b", " ", "日", "本", "é", "ж", "x", "😀", "  ", "<unk>"]),
                     min_size=1, max_size=14).map("".join))
def test_models_trained_by_hf_encode_as_hf(trained, text):
    hf, path, ours = trained
    assert word_plan(ours).by_word is not None
    fresh = _loaded(path)  # a cold object: every word new
    ref = _loaded(path)
    ref.fast = False
    want = hf.encode(text)
    expected = ref.encode_result(text, return_offsets=True)
    # (A token that is only the prepended "▁" has an empty span: the offsets contract, as the reference path.)
    assert (expected.ids, expected.tokens) == (want.ids, want.tokens), text
    for tok in (fresh, ours):  # first as a new word, then kept
        assert tok.encode_result(text, return_offsets=True) == expected, text


def test_t5_style_lines_encode_as_hf_and_the_pushed_pass():
    path = require_shared("reference", "hf", "trained", "t5_style_unigram.json")
    ours, ref = _loaded(path), _loaded(path)
    ref.fast = False
    hf = tokenizers.Tokenizer.from_file(str(path))
    hf.no_truncation()
    hf.no_padding()
    lines = require_shared("corpora", "botchan.txt").read_text(encoding="utf-8").splitlines()[::40]
    lines += ["Ünïcödé ☃ 日本語 العربية x<unk>y ▁▁ a\u0301b", "(ab)-[cd] 1,234.5 😀😀 tab\there"]
    model = ours.model
    for line in lines:
        got = ours.encode_result(line, return_offsets=True)
        want = hf.encode(line)
        assert (got.ids, got.tokens) == (want.ids, want.tokens), line
        assert got == ref.encode_result(line, return_offsets=True), line
        for word in [SEP + w for w in line.split()]:
            assert model._best_tokens(word) == reference_tokens(model, word), word


@pytest.mark.parametrize("scheme", ["always", "first", "never"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(vocab=_vocab, unk_at=st.integers(0, 16), words=st.lists(_words, min_size=1, max_size=5))
def test_metaspace_entries_from_word_columns_equal_the_general_ones(scheme, vocab, unk_at, words):
    model, _ = _model(vocab, unk_at)
    tok = tokcore.Tokenizer(model)
    tok.pre_tokenizer = Metaspace(prepend_scheme=scheme, split=True)
    assert word_plan(tok).by_word == model.word_columns
    entries_agree(tok, words + [" " + w for w in words] + [SEP + w for w in words])


def test_the_plan_takes_word_columns_only_where_they_hold():
    plain = Unigram([("<unk>", 0.0), ("a", -1.0)], unk_id=0)
    tok = tokcore.Tokenizer(plain)
    tok.pre_tokenizer = Metaspace()
    assert word_plan(tok).by_word == plain.word_columns
    for model in (Unigram([("a", -1.0)]), Unigram([("<unk>", 0.0), ("a", -1.0), ("a", -2.0)], unk_id=0),
                  Unigram([("<unk>", 0.0), ("a", -1.0), ("<0x78>", -1.0)], unk_id=0, byte_fallback=True)):
        tok = tokcore.Tokenizer(model)
        tok.pre_tokenizer = Metaspace()
        assert word_plan(tok).by_word is None, model.vocab
    assert math.isfinite(plain.unk_score) and json.loads(json.dumps(plain.to_dict()))["unk_id"] == 0
