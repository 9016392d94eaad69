"""Converters (char_to_token, token_to_chars, word_to_tokens) against HF, position ids, and batch exports."""

from __future__ import annotations

import csv
import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import ROOT, require_shared

import tokcore
from tokcore.core.result_views import batch_to_arrays, batch_to_csv, batch_to_json

tokenizers = pytest.importorskip("tokenizers")

TEXTS = [
    ("Héllo wörld, unbelievable tokenizers!", "second één text"),
    ("The quick brown fox.", None),
    ("日本語のテキストと English mixed", "x"),
    ("", "only the pair"),
]


@pytest.fixture(scope="module")
def pair_of_minilm():
    path = require_shared("reference", "hf", "minilm", "tokenizer.json")
    hf = tokenizers.Tokenizer.from_file(str(path))
    hf.no_padding()
    hf.no_truncation()
    return hf, tokcore.load(path)


@pytest.mark.parametrize("text, pair", TEXTS)
def test_converters_match_hf(pair_of_minilm, text, pair):
    hf, tk = pair_of_minilm
    e = hf.encode(text, pair) if pair is not None else hf.encode(text)
    r = tk.encode_result(text, text_pair=pair, return_offsets=True, return_masks=True, padding=False, truncation=False)
    assert r.tokens == e.tokens
    for s, t in ((0, text), (1, pair)):
        if t is None:
            continue
        for i in range(len(t) + 1):
            assert r.char_to_token(i, sequence_index=s) == e.char_to_token(i, s), (s, i)
        for w in range(len(t.split()) + 3):
            assert r.word_to_tokens(w, sequence_index=s) == e.word_to_tokens(w, s), (s, w)
    for i in range(len(e.ids)):
        assert r.token_to_chars(i) == e.token_to_chars(i)
        assert r.token_to_word(i) == e.word_ids[i]


def test_converters_need_offsets(pair_of_minilm):
    _, tk = pair_of_minilm
    r = tk.encode_result("hello", padding=False)
    with pytest.raises(ValueError, match="return_offsets=True"):
        r.char_to_token(0)


def test_position_ids_skip_pads_on_either_side(pair_of_minilm):
    _, tk = pair_of_minilm
    right = tk.encode_batch(["a b c", "a"], padding="longest", return_masks=True, truncation=False)
    left = tk.encode_batch(["a b c", "a"], padding="longest", padding_side="left", return_masks=True, truncation=False)
    assert right[1].attention_mask == [1, 1, 1, 0, 0]
    assert right[1].position_ids == [0, 1, 2, 0, 0]
    assert left[1].attention_mask == [0, 0, 1, 1, 1]
    assert left[1].position_ids == [0, 0, 0, 1, 2]
    assert right[0].position_ids == [0, 1, 2, 3, 4]


def test_batch_exports(pair_of_minilm):
    np = pytest.importorskip("numpy")
    _, tk = pair_of_minilm
    batch = tk.encode_batch(["Hello there", "A much longer sentence than the first"], padding="longest",
                            return_masks=True, return_offsets=True, truncation=False)
    arrays = batch_to_arrays(batch)
    ids = np.asarray(arrays["ids"])
    assert ids.shape == (2, len(batch[1].ids))
    assert np.asarray(arrays["attention_mask"]).sum() == sum(sum(r.attention_mask) for r in batch)
    assert np.asarray(arrays["word_ids"]).dtype.kind == "i"  # None became -1
    data = json.loads(batch_to_json(batch))
    assert [d["ids"] for d in data] == [r.ids for r in batch]
    assert data[0]["offsets"][0] == [0, 0]  # [CLS] is the sentinel
    rows = list(csv.DictReader(io.StringIO(batch_to_csv(batch))))
    assert len(rows) == sum(len(r.ids) for r in batch)
    assert rows[1]["token"] == batch[0].tokens[1] and rows[1]["start"] == str(batch[0].offsets[1][0])


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab é🙂 .\u0301日")), max_size=20))
def test_char_to_token_inverts_token_to_chars(text):
    tok = tokcore.CharTokenizer()
    r = tok.encode_result(text, return_offsets=True)
    for i in range(len(r.ids)):
        span = r.token_to_chars(i)
        if span is not None:
            assert r.char_to_token(span[0]) == i


def _char_to_token_by_spans(r, char_index):
    """``char_to_token`` by each token's character span (what it did before it compared bytes)."""
    for i in range(len(r.ids)):
        span = r.token_to_chars(i)
        if span is not None and span[0] <= char_index < span[1]:
            return i
    return None


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab é🙂 .\u0301日the")), max_size=24))
def test_char_to_token_compares_bytes_as_token_to_chars_widens(text):
    """A byte-level tokenizer cuts characters into byte tokens: the first token that touches a
    character's bytes is the one whose widened span holds it, for every character and past the end."""
    tok = tokcore.load(ROOT / "sample_vocabs" / "english_bytelevel_bpe.json")
    r = tok.encode_result(text, return_offsets=True)
    for c in range(-1, len(text) + 1):
        assert r.char_to_token(c) == _char_to_token_by_spans(r, c), (text, c)
