"""Decoders: parity with HF ``tokenizers.decoders`` token list by token list, and their JSON.

Every tokcore decoder is built from the same ``tokenizer.json`` dict as its HF twin, then both
decode the same tokens: hand-picked lists that hit each rule, and hypothesis lists drawn from
an alphabet full of the characters the decoders care about (``▁``, ``Ġ``, ``##``, ``<0x..>``,
``</w>``, pads, delimiters, multi-byte text).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import require_shared

from tokcore.core.components import build
from tokcore.core.errors import ConfigurationError, TokenizerFileError
from tokcore.decoders import standard as D

tk = pytest.importorskip("tokenizers")
hd = tk.decoders

# (HF decoder, its tokenizer.json dict) — tokcore builds from the dict.
CASES = {
    "bytelevel": hd.ByteLevel(),
    "wordpiece": hd.WordPiece(),
    "wordpiece_nocleanup": hd.WordPiece(prefix="@@", cleanup=False),
    "metaspace": hd.Metaspace(),
    "metaspace_first": hd.Metaspace(replacement="_", prepend_scheme="first"),
    "metaspace_never": hd.Metaspace(prepend_scheme="never", split=False),
    "bpe": hd.BPEDecoder(),
    "bpe_suffix": hd.BPEDecoder(suffix="_"),
    "bytefallback": hd.ByteFallback(),
    "fuse": hd.Fuse(),
    "strip": hd.Strip(" ", 1, 0),
    "strip_both": hd.Strip("a", 2, 3),
    "replace": hd.Replace("▁", " "),
    "replace_multi": hd.Replace("ab", "X"),
    "replace_regex": hd.Replace(tk.Regex(r"\s+"), "_"),
    "replace_regex_empty": hd.Replace(tk.Regex("a*"), "-"),
    "ctc": hd.CTC(),
    "ctc_nocleanup": hd.CTC(pad_token="[PAD]", word_delimiter_token="|", cleanup=False),
    "llama": hd.Sequence([hd.Replace("▁", " "), hd.ByteFallback(), hd.Fuse(), hd.Strip(" ", 1, 0)]),
}


def hf_dict(dec) -> dict:
    return json.loads(dec.__getstate__())


def ours(name: str):
    return build("decoder", hf_dict(CASES[name]))


FIXED_TOKENS = [
    [],
    [""],
    ["Hello", "Ġworld", "Ġ", "!"],
    ["Ã©", "Ġ", "ðŁ", "ĺ", "Ģ"],  # "é 😀" split across tokens
    ["ðŁ", "Ġx"],  # a cut character: replacement characters
    ["un", "##aff", "##able", "!", "do", "n't", "I", "'m", "a", ".", "x", "'", "s"],
    ["▁Hey", "▁friend", "▁", "!", "▁a▁b"],
    ["_a_b", "_c"],
    ["hel", "lo</w>", "you</w>", "</w>", "a_"],
    ["<0xE2>", "<0x82>", "<0xAC>", "x", "<0xFF>", "<0x41>", "<0x+A>", "<0x-1>", "<0xg1>", "<0x4>"],
    ["<0xE2>", "<0x82>"],
    ["  hi  ", " ", "a", "aaxaa", "aaa", "aa"],
    ["▁ab▁", "ab", "abab", "aab"],
    ["a  b", " ", "\t\n", "aaa", "baab"],
    ["<pad>", "h", "h", "<pad>", "e", "|", "l", "l", "<pad>", "l", "o", "[PAD]", "|", " ."],
]


@pytest.mark.parametrize("name", sorted(CASES))
def test_dict_round_trip_matches_hf(name):
    dec = ours(name)
    assert dec.to_dict() == hf_dict(CASES[name])
    assert build("decoder", dec.to_dict()) == dec


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("tokens", FIXED_TOKENS, ids=range(len(FIXED_TOKENS)))
def test_fixed_token_lists_match_hf(name, tokens):
    try:
        want = CASES[name].decode(tokens)
    except BaseException:  # HF's Strip panics (slice out of range) when stop exceeds the token
        assert name.startswith("strip")
        want = None
    got = ours(name).decode(tokens)
    if want is not None:
        assert got == want


ALPHABET = st.sampled_from(
    ["a", "b", " ", "▁", "_", "Ġ", "Ċ", "#", "##", "<0x41>", "<0xE2>", "<0x82>", "<0xAC>", "<0xFF>", "</w>",
     "<pad>", "|", "'", "n't", ".", ",", "é", "Ã", "©", "ðŁ", "😀", "\n"]
)
TOKENS = st.lists(st.lists(ALPHABET, max_size=4).map("".join), max_size=8)


@settings(max_examples=150, deadline=None)
@given(tokens=TOKENS, name=st.sampled_from(sorted(n for n in CASES if not n.startswith("strip"))))
def test_random_token_lists_match_hf(tokens, name):
    assert ours(name).decode(tokens) == CASES[name].decode(tokens)


@settings(max_examples=100, deadline=None)
@given(tokens=TOKENS, start=st.integers(0, 3), stop=st.integers(0, 3))
def test_strip_matches_hf_where_hf_does_not_panic(tokens, start, stop):
    hf = hd.Strip(" ", start, stop)
    try:
        want = hf.decode(tokens)
    except BaseException:  # pyo3's PanicException derives from BaseException
        want = None
    got = build("decoder", hf_dict(hf)).decode(tokens)  # never raises
    if want is not None:
        assert got == want


def test_decode_chain_is_per_token():
    assert D.WordPiece().decode_chain(["a", "##b", "c"]) == ["a", "b", " c"]
    assert D.Metaspace().decode_chain(["▁a▁b", "▁c"]) == ["ab", " c"]
    assert D.ByteFallback().decode_chain(["<0x61>", "b", "<0xFF>"]) == ["a", "b", "\ufffd"]
    assert D.CTC().decode_chain(["a", "a", "<pad>", "a"]) == ["a", "a"]


def test_byte_level_bytes_helpers():
    assert D.token_bytes("Ġhi") == b" hi"
    assert D.token_bytes("<s>") == b"<s>"
    assert D.ByteLevel().decode_bytes(["ðŁ", "ĺ", "Ģ"]) == "😀".encode()
    assert D.ByteLevel().decode(["ðŁ"]) == "\ufffd"  # two bytes of a four-byte character: one U+FFFD
    assert D.byte_token_value("<0x41>") == 65 and D.byte_token_value("<0x4>") is None


def test_reference_decoders_match_hf():
    """The decoder sections of the reference tokenizer.json files, on their own vocabularies."""
    for rel in ("trained/llama_style_bpe.json", "trained/t5_style_unigram.json", "trained/roberta_bytelevel.json",
                "trained/bert_cased_wordpiece.json", "gpt2/tokenizer.json"):
        path = require_shared("reference", "hf", *rel.split("/"))
        data = json.loads(path.read_text(encoding="utf-8"))
        hf = tk.Tokenizer.from_file(str(path)).decoder
        dec = build("decoder", data["decoder"])
        model_vocab = data["model"]["vocab"]
        vocab = [v[0] for v in model_vocab] if isinstance(model_vocab, list) else list(model_vocab)
        for start in range(0, min(len(vocab), 3000), 37):
            tokens = vocab[start:start + 23]
            assert dec.decode(tokens) == hf.decode(tokens), (rel, tokens)


@pytest.mark.parametrize(
    "data",
    [
        {"type": "Metaspace", "replacement": "▁▁"},
        {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "sometimes"},
        {"type": "Strip", "content": "ab", "start": 1, "stop": 0},
        {"type": "Strip", "content": " ", "start": -1, "stop": 0},
        {"type": "Replace", "pattern": {"Glob": "*"}, "content": ""},
        {"type": "Replace", "pattern": {"Regex": "("}, "content": ""},
        {"type": "Sequence", "decoders": {"type": "Fuse"}},
        {"type": "Nope"},
    ],
)
def test_malformed_decoder_dicts_raise_file_errors(data):
    with pytest.raises(TokenizerFileError):
        build("decoder", data, source="tok.json")


def test_replace_needs_one_pattern():
    with pytest.raises(ConfigurationError):
        D.Replace("a", "b", regex="c")
    with pytest.raises(ConfigurationError):
        D.Replace(content="b")
