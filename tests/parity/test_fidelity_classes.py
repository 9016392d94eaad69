"""Issue 19: one parity test per class of difference found on real pretrained files, against the peer.

Fixtures are built here from each class's description: tiny sentencepiece models trained on botchan
(user-defined symbols, whitespace options, a denormalizer), a hand-written ``.model`` for float32
ties, hand-written ``tokenizer.json`` dicts for added tokens with ``lstrip``/``rstrip``, GPT-2's
``vocab.json`` + ``merges.txt`` and the two ``.tiktoken`` files of the reference data. Class 9 (the
offsets contract's deliberate differences) is pinned as documented behaviour at the end.
"""

from __future__ import annotations

import json

import pytest
from shared_data import require_shared

import tokcore

spm = pytest.importorskip("sentencepiece")
tokenizers = pytest.importorskip("tokenizers")

SAMPLE_TEXTS = ["Hello world", "Hello  world  ", " leading space", "It's 42 o'clock\n\tnext line", "naïve café 中文 😀",
                "a (b) c", "[CLS] hello [SEP]"]


def char_offsets(res, text: str) -> list[tuple[int, int]]:
    """tokcore's ``original_offsets`` as HF's 0-based character spans (the sentinel as (0, 0))."""
    out = []
    for o in res.original_offsets:
        span = tokcore.byte_span_to_char_span(text, o)
        out.append((0, 0) if span is None else tuple(span))
    return out


def botchan_lines(n: int = 40) -> list[str]:
    lines = require_shared("corpora", "botchan.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip()][:: max(1, len(lines) // n)][:n]


# -- class 1: GPT-2 vocab.json + merges.txt --------------------------------------------------------


def test_gpt2_vocab_and_merges_keep_offsets_untrimmed_as_hf():
    folder = require_shared("reference", "hf", "gpt2")
    oracle = tokenizers.ByteLevelBPETokenizer(str(folder / "vocab.json"), str(folder / "merges.txt"))
    tok = tokcore.load(folder / "merges.txt")
    for text in SAMPLE_TEXTS + botchan_lines():
        enc = oracle.encode(text)
        res = tok.encode_result(text, return_offsets=True)
        assert (res.ids, res.tokens) == (enc.ids, enc.tokens), text
        assert char_offsets(res, text) == [tuple(o) for o in enc.offsets], text
    # The example: "Ġworld" spans its space, (5, 11) in characters.
    assert char_offsets(tok.encode_result("Hello world", return_offsets=True), "Hello world")[1] == (5, 11)


# -- class 2: added tokens with lstrip / rstrip ----------------------------------------------------


def _word_level_with_stripping_tokens() -> dict:
    vocab = {"[UNK]": 0, "a": 1, "b": 2, "<|user|>": 3, "<mask>": 4, "<both>": 5}
    added = [("<|user|>", 3, False, True, True), ("<mask>", 4, True, False, True), ("<both>", 5, True, True, False)]
    return {"version": "1.0", "truncation": None, "padding": None,
            "added_tokens": [{"id": i, "content": c, "single_word": False, "lstrip": ls, "rstrip": rs,
                              "normalized": not special, "special": special} for c, i, ls, rs, special in added],
            "normalizer": None, "pre_tokenizer": {"type": "WhitespaceSplit"}, "post_processor": None, "decoder": None,
            "model": {"type": "WordLevel", "vocab": vocab, "unk_token": "[UNK]"}}


@pytest.mark.parametrize("case", ["phi3_style", "roberta"])
def test_added_tokens_absorb_whitespace_into_the_token_string_as_hf(case):
    if case == "roberta":
        path = require_shared("reference", "hf", "trained", "roberta_bytelevel.json")
        oracle, tok = tokenizers.Tokenizer.from_file(str(path)), tokcore.load(path)
        texts = ["is <mask>.", "is   <mask>  x", " <mask>", "a\n<mask>\tb", "<mask>"]
    else:
        data = _word_level_with_stripping_tokens()
        oracle, tok = tokenizers.Tokenizer.from_str(json.dumps(data)), tokcore.Tokenizer.from_dict(data)
        texts = ["<|user|>\na", "a <mask> b", "a\t <mask>", "a  <both>\n b", "<both>", "a \u3000<mask>"]
    for text in texts:
        enc = oracle.encode(text)
        res = tok.encode_result(text, return_offsets=True)
        assert (res.ids, res.tokens) == (enc.ids, enc.tokens), text  # e.g. ' <mask>', '<|user|>\n'
        got, want = char_offsets(res, text), [tuple(o) for o in enc.offsets]
        # A lone inserted "Ġ" has an empty span here, HF lends it a neighbour's (class 9).
        keep = [i for i, t in enumerate(enc.tokens) if not (t == "Ġ" and got[i][0] == got[i][1])]
        assert [got[i] for i in keep] == [want[i] for i in keep], text
