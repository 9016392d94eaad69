"""The WordPiece model: HF's greedy longest-match-first, its unknown-word rules, ``explain``, parity.

Parity: ``WordPiece.from_dict(model_section).tokenize(word)`` against HF tokenizers'
``Tokenizer.from_file(path).model.tokenize(word)`` on thousands of words (cut by HF's own
normalizer and pre-tokenizer), long and unknown words included. HF reports byte offsets,
tokcore character offsets; the test converts ours to bytes and compares ids, values, offsets.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import require_shared

from tokcore.core.components import build
from tokcore.core.errors import ConfigurationError
from tokcore.models.wordpiece import WordPiece

tokenizers = pytest.importorskip("tokenizers")

BANANA = {"##na": 0, "ba": 1, "[UNK]": 2}


def as_bytes(word: str, tokens) -> list[tuple]:
    """Our (id, value, char_start, char_stop) as HF's (id, value, (byte_start, byte_stop))."""
    return [(i, v, (len(word[:s].encode()), len(word[:e].encode()))) for i, v, s, e in tokens]


def hf_tokens(model, word: str) -> list[tuple]:
    return [(t.id, t.value, t.offsets) for t in model.tokenize(word)]


# ------------------------------------------------------------------ behaviour


def test_greedy_longest_match_first():
    m = WordPiece(BANANA)
    assert m.tokenize("banana") == [(1, "ba", 0, 2), (0, "##na", 2, 4), (0, "##na", 4, 6)]
    # "na" is only a continuation: an unmatched start makes the whole word unknown.
    assert m.tokenize("nanana") == [(2, "[UNK]", 0, 6)]
    # Longest first, even when a shorter start would have let the rest match.
    m2 = WordPiece({"ab": 0, "a": 1, "##bc": 2, "##c": 3, "[UNK]": 4})
    assert m2.tokenize("abc") == [(0, "ab", 0, 2), (3, "##c", 2, 3)]
    assert m2.tokenize("abd") == [(4, "[UNK]", 0, 3)]


def test_unknown_rules_and_limits():
    vocab = {"a": 0, "##a": 1, "[UNK]": 2}
    m = WordPiece(vocab, max_input_chars_per_word=5)
    assert m.tokenize("aaaaa") == [(0, "a", 0, 1)] + [(1, "##a", i, i + 1) for i in range(1, 5)]
    assert m.tokenize("aaaaaa") == [(2, "[UNK]", 0, 6)]  # 6 characters > 5
    assert m.tokenize("ééé") == [(2, "[UNK]", 0, 3)]  # spans are characters, not bytes
    assert m.tokenize("") == []
    assert WordPiece(vocab, max_input_chars_per_word=0).tokenize("a") == [(2, "[UNK]", 0, 1)]


def test_missing_unknown_token_is_an_actionable_error():
    m = WordPiece({"a": 0})
    assert m.tokenize("a") == [(0, "a", 0, 1)]
    with pytest.raises(ConfigurationError, match="unk_token"):
        m.tokenize("b")


def test_custom_prefix_and_empty_prefix():
    m = WordPiece({"x": 0, "@@y": 1, "[UNK]": 2}, continuing_subword_prefix="@@")
    assert m.tokenize("xy") == [(0, "x", 0, 1), (1, "@@y", 1, 2)]
    m = WordPiece({"x": 0, "yz": 1, "[UNK]": 2}, continuing_subword_prefix="")
    assert m.tokenize("xyz") == [(0, "x", 0, 1), (1, "yz", 1, 3)]


def test_cache_returns_fresh_lists():
    m = WordPiece(BANANA)
    first = m.tokenize("banana")
    first.append("junk")
    assert m.tokenize("banana") == [(1, "ba", 0, 2), (0, "##na", 2, 4), (0, "##na", 4, 6)]


def test_explain_lists_every_attempt():
    m = WordPiece({"hug": 0, "h": 1, "##s": 2, "##gs": 3, "[UNK]": 4})
    ex = m.explain("hugs")
    assert ex["attempts"] == [
        {"position": 0, "candidates": ["hugs", "hug"], "match": "hug", "span": (0, 3)},
        {"position": 3, "candidates": ["##s"], "match": "##s", "span": (3, 4)},
    ]
    assert ex["tokens"] == [(0, "hug", 0, 3), (2, "##s", 3, 4)] and not ex["unknown"]
    ex = m.explain("hx")
    assert ex["unknown"] and ex["tokens"] == [(4, "[UNK]", 0, 2)]
    assert ex["attempts"][-1] == {"position": 1, "candidates": ["##x"], "match": None, "span": None}
    assert "character 1" in ex["reason"]
    long = WordPiece({"a": 0, "[UNK]": 1}, max_input_chars_per_word=3).explain("aaaa")
    assert long["unknown"] and long["attempts"] == [] and "max_input_chars_per_word" in long["reason"]
    json.dumps(ex)  # plain data


def test_serialization_uses_hf_keys_and_round_trips():
    m = WordPiece(BANANA, max_input_chars_per_word=7)
    d = m.to_dict()
    assert list(d) == ["type", "unk_token", "continuing_subword_prefix", "max_input_chars_per_word", "vocab"]
    assert list(d["vocab"].values()) == [0, 1, 2]
    again = build("model", json.loads(json.dumps(d)))
    assert isinstance(again, WordPiece) and again == m
    # Old files without "type" are recognised by their keys, as HF does.
    assert isinstance(build("model", {k: v for k, v in d.items() if k != "type"}), WordPiece)


def test_bad_configuration_raises():
    with pytest.raises(ConfigurationError):
        WordPiece(["a"])  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError):
        WordPiece({"a": 0}, max_input_chars_per_word=-1)
    with pytest.raises(ValueError):
        build("model", {"type": "WordPiece", "vocab": {"a": "0"}})


# ------------------------------------------------------------------ parity with HF


def _words_for(path, edge_cases) -> list[str]:
    """Distinct words of several corpora after the file's own HF normalizer and pre-tokenizer."""
    hf = tokenizers.Tokenizer.from_file(str(path))
    texts = [require_shared("corpora", "botchan.txt").read_text(encoding="utf-8")[:120_000]]
    for name in ("deu", "rus", "cmn_hans", "arb", "hin", "kor", "vie", "ell_monotonic"):
        texts.append(require_shared("corpora", "udhr", f"{name}.txt").read_text(encoding="utf-8")[:6000])
    texts.extend(case["text"] for case in edge_cases)
    words: dict[str, None] = {}
    for text in texts:
        for w, _ in hf.pre_tokenizer.pre_tokenize_str(hf.normalizer.normalize_str(text)):
            words.setdefault(w)
    rng = random.Random(7)
    base = [w for w in words if w.isalpha()]
    for _ in range(300):  # long words around the limit, and made-up words
        joined = "".join(rng.choice(base) for _ in range(rng.randint(5, 40)))
        words.setdefault(joined)
        words.setdefault(joined[:100])
        words.setdefault(joined[:101])
        words.setdefault("".join(rng.choice("qxzjkéß한中\u0301") for _ in range(rng.randint(1, 8))))
    return list(words)


@pytest.mark.parametrize("parts", [("reference", "hf", "minilm", "tokenizer.json"),
                                   ("reference", "hf", "trained", "bert_cased_wordpiece.json")])
def test_model_parity_with_hf(parts, edge_cases):
    path = require_shared(*parts)
    data = json.loads(path.read_text(encoding="utf-8"))
    ours = WordPiece.from_dict(data["model"])
    hf = tokenizers.Tokenizer.from_file(str(path)).model
    words = _words_for(path, edge_cases)
    assert len(words) > 3000
    n_unknown = n_long = 0
    for w in words:
        got = as_bytes(w, ours.tokenize(w))
        assert got == hf_tokens(hf, w), w
        n_unknown += got[0][1] == "[UNK]"
        n_long += len(w) > 100
    assert n_unknown > 50 and n_long > 50  # the unknown-word rules really were exercised
    assert ours.to_dict()["vocab"] == data["model"]["vocab"]


VOCAB_CHARS = "abc"
small_vocab = st.dictionaries(
    st.builds(lambda cont, s: ("##" if cont else "") + s, st.booleans(), st.text(VOCAB_CHARS, min_size=1, max_size=4)),
    st.just(0), min_size=1, max_size=25,
)


@settings(max_examples=300, deadline=None)
@given(small_vocab, st.lists(st.text(VOCAB_CHARS + "#d", min_size=0, max_size=14), min_size=1, max_size=8),
       st.integers(0, 12), st.sampled_from(["##", "", "#"]))
def test_random_vocabularies_match_hf(vocab, words, max_chars, prefix):
    vocab = {t: i for i, t in enumerate(vocab)}
    vocab["[UNK]"] = len(vocab)
    ours = WordPiece(vocab, continuing_subword_prefix=prefix, max_input_chars_per_word=max_chars)
    hf = tokenizers.models.WordPiece(vocab, unk_token="[UNK]", continuing_subword_prefix=prefix,
                                     max_input_chars_per_word=max_chars)
    for w in words:
        assert as_bytes(w, ours.tokenize(w)) == hf_tokens(hf, w)
        ex = ours.explain(w)
        assert ex["tokens"] == ours.tokenize(w)
        if not ex["unknown"]:
            assert [a["match"] for a in ex["attempts"]] == [t[1] for t in ex["tokens"]]


@settings(max_examples=150, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_offsets_contract_in_a_full_tokenizer(text):
    import tokcore
    from tokcore.core.tokenizer import Tokenizer
    from tokcore.pre_tokenizers.standard import WhitespaceSplit

    vocab = {"[UNK]": 0, "a": 1, "##a": 2, "é": 3, "##é": 4, "ab": 5, "##b": 6}
    tok = Tokenizer(WordPiece(vocab, max_input_chars_per_word=6), pre_tokenizer=WhitespaceSplit())
    res = tok.encode_result(text, return_offsets=True)
    assert tokcore.validate_offsets_contract(text, res.offsets, require_string_boundaries=True)
    for token, off in zip(res.tokens, res.offsets):
        piece = tokcore.try_span_substring(text, off)
        assert piece  # a real, non-empty slice of the text
        if token != "[UNK]":
            assert piece == token.removeprefix("##")
