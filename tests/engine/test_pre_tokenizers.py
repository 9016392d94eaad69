"""Pre-tokenizers against HF tokenizers: same pieces and character offsets, exact byte bounds.

Every configuration is built in tokcore, serialized with ``to_dict``, and the same dict is loaded
by HF tokenizers (so the dict is HF's format by construction), then both pre-tokenize the same
text. The one allowed difference: a piece made only of inserted characters (a ByteLevel prefix space
that ends up alone) has an empty span in tokcore (it has no source) where HF lends it the span of
the next character.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_data import require_shared

from tokcore.core.components import build, piece_from_text
from tokcore.core.errors import ConfigurationError, TokenizerFileError
from tokcore.pre_tokenizers.split import BEHAVIORS
from tokcore.pre_tokenizers.standard import (
    BertPreTokenizer,
    ByteLevel,
    CharDelimiterSplit,
    Digits,
    FixedLength,
    Metaspace,
    Punctuation,
    Sequence,
    Split,
    UnicodeScripts,
    Whitespace,
    WhitespaceSplit,
)
from tokcore.text.byte_level import (
    ALPHABET,
    BYTE_TO_UNICODE,
    CL100K_PATTERN,
    GPT2_PATTERN,
    O200K_PATTERN,
    R50K_PATTERN,
    UNICODE_TO_BYTE,
    bytes_to_chars,
    chars_to_bytes,
    text_to_chars,
)

tokenizers = pytest.importorskip("tokenizers")

LLAMA3_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"
    r"|\s+(?!\S)|\s+"
)

FAMILIES: dict[str, list] = {
    "Whitespace": [Whitespace()],
    "WhitespaceSplit": [WhitespaceSplit()],
    "BertPreTokenizer": [BertPreTokenizer()],
    "UnicodeScripts": [UnicodeScripts()],
    "Punctuation": [Punctuation(b) for b in BEHAVIORS],
    "Digits": [Digits(individual_digits=False), Digits(individual_digits=True)],
    "CharDelimiterSplit": [CharDelimiterSplit("-"), CharDelimiterSplit(" "), CharDelimiterSplit("é")],
    "FixedLength": [FixedLength(length=1), FixedLength(length=3), FixedLength()],
    "Metaspace": [
        Metaspace(replacement=r, prepend_scheme=p, split=s)
        for r in ("▁", "_")
        for p in ("always", "never", "first")
        for s in (True, False)
    ],
    "ByteLevel": [
        ByteLevel(add_prefix_space=a, trim_offsets=t, use_regex=u)
        for a in (True, False)
        for u in (True, False)
        for t in (True, False)
    ],
    "SplitString": [
        Split(p, b, invert=i) for p in ("-", " ", "ab", "▁", "") for b in BEHAVIORS for i in (False, True)
    ],
    "SplitRegex": [
        Split(p, b, invert=i, regex=True)
        for p in (r"\s+", r"\d", r"\p{L}+", "a*", r"(?=a)", "x|", LLAMA3_PATTERN)
        for b in BEHAVIORS
        for i in (False, True)
    ],
    "Sequence": [
        Sequence([Split(LLAMA3_PATTERN, "Isolated", regex=True), ByteLevel(add_prefix_space=False, use_regex=False)]),
        Sequence([WhitespaceSplit(), Metaspace(prepend_scheme="first")]),
        Sequence([Split("x", "Removed"), Metaspace(prepend_scheme="first")]),
        Sequence([Punctuation(), Digits(individual_digits=True)]),
        Sequence([Whitespace(), ByteLevel()]),
        Sequence([Metaspace(), ByteLevel()]),
        Sequence([ByteLevel(use_regex=False), Metaspace(prepend_scheme="first")]),
        Sequence([UnicodeScripts(), BertPreTokenizer(), Digits()]),
        Sequence([]),
    ],
}
ALL = [(name, pt) for name, items in FAMILIES.items() for pt in items]
IDS = [f"{name}-{i}" for i, (name, _) in enumerate(ALL)]


def hf_of(pt):
    """HF's pre-tokenizer loaded from tokcore's dict (inside a minimal tokenizer.json)."""
    doc = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": pt.to_dict(),
        "post_processor": None,
        "decoder": None,
        "model": {"type": "WordLevel", "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"},
    }
    return tokenizers.Tokenizer.from_str(json.dumps(doc)).pre_tokenizer


_HF_CACHE: dict[int, object] = {}


def hf_cached(pt):
    key = id(pt)
    if key not in _HF_CACHE:
        _HF_CACHE[key] = hf_of(pt)
    return _HF_CACHE[key]


LONE_PREFIX = {"count": 0}


def compare(pt, text: str) -> None:
    """tokcore's pieces equal HF's (up to a lone ByteLevel prefix space's empty span) and bounds are exact."""
    ours = pt.pre_tokenize_str(text)
    theirs = hf_cached(pt).pre_tokenize_str(text)
    if ours != theirs:
        assert len(ours) == len(theirs), (text, ours, theirs)
        for (a, (s, e)), (b, (hs, he)) in zip(ours, theirs):
            if (a, s, e) == (b, hs, he):
                continue
            # The one documented difference: a piece made only of inserted characters (a lone
            # prefix space) has an empty span; HF lends it the span of the next character.
            assert a == b and s == e == hs and he >= hs, (text, ours, theirs)
            LONE_PREFIX["count"] += 1
    check_bounds(pt, text)


def _rewriters(pt) -> tuple[bool, set]:
    """(does a ByteLevel run, characters a Metaspace writes for a space) somewhere in ``pt``."""
    items = pt.pretokenizers if isinstance(pt, Sequence) else [pt]
    byte_level = any(isinstance(p, ByteLevel) for p in items)
    reps = {p.replacement for p in items if isinstance(p, Metaspace)}
    return byte_level, reps


def check_bounds(pt, text: str) -> None:
    """Every character's bounds hold exactly the bytes it came from; inserted characters are empty."""
    view = text.encode("utf-8")
    byte_level, reps = _rewriters(pt)
    pieces = pt.pre_tokenize([piece_from_text(text)])
    last = 0
    for p in pieces:
        b = list(p.bounds)
        assert len(b) == len(p.text) + 1 and (p.text or not text), (text, p)
        assert all(x <= y for x, y in zip(b, b[1:])) and b[0] >= last and b[-1] <= len(view), (text, p)
        last = b[-1]
        for i, ch in enumerate(p.text):
            src = view[b[i] : b[i + 1]]
            if src == ch.encode("utf-8"):
                continue
            if byte_level and ch in UNICODE_TO_BYTE and src == bytes([UNICODE_TO_BYTE[ch]]):
                continue
            if ch in reps and src == b" ":
                continue
            if byte_level and src == b" " and any(ch in text_to_chars(r) for r in reps):
                continue  # Metaspace's replacement then ByteLevel: its bytes share the space
            if src == b"" and (ch in reps or ch in (" ", "Ġ") or (byte_level and reps)):
                continue  # inserted: a prefix space or replacement has no source byte
            raise AssertionError(f"{text!r}: piece {p.text!r} char {i} {ch!r} came from {src!r}")


# ------------------------------------------------------------------------------------ texts


def _udhr_lines() -> list[str]:
    folder = require_shared("corpora", "udhr")
    langs = [
        "eng", "fra", "deu", "spa", "rus", "arb", "cmn_hans", "jpn", "kor", "hin", "ben", "tha", "heb",
        "ell", "tur", "vie", "pol", "fin", "hun", "amh", "tam", "kat", "hye", "zul", "yor", "ukr",
    ]
    out = []
    for lang in langs:
        matches = sorted(folder.glob(f"{lang}*.txt"))
        if not matches:
            continue
        lines = [ln for ln in matches[0].read_text(encoding="utf-8").splitlines() if ln.strip()]
        out.extend(lines[:4] + lines[10:12])
    return out


@pytest.fixture(scope="module")
def corpus_texts(edge_cases) -> list[str]:
    botchan = require_shared("corpora", "botchan.txt").read_text(encoding="utf-8").splitlines()
    udhr = _udhr_lines()
    assert len({t for t in udhr}) > 60
    return [c["text"] for c in edge_cases] + udhr + botchan[:40] + ["\n".join(botchan[100:160])]


@pytest.mark.parametrize("pt", [pt for _, pt in ALL], ids=IDS)
def test_same_as_hf_on_reference_texts(pt, corpus_texts):
    if isinstance(pt, Split):  # many variants of one algorithm: the edge cases and a sixth of the rest
        corpus_texts = corpus_texts[:40] + corpus_texts[40::6]
    for text in corpus_texts:
        compare(pt, text)


SPECIAL_CHARS = " \t\n\r\u00a0\u3000\u2028\u0085-_'!?.,0123456789¹½٣aAzéßİ日本ーカ한▁Ġ\u0301\u200d\u061c\U0001F600\x1c\x1f"
texts = st.text(alphabet=st.sampled_from(list(SPECIAL_CHARS)) | st.characters(exclude_categories=("Cs",)), max_size=40)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_same_as_hf_on_random_unicode(family):
    configs = FAMILIES[family]

    @settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.sampled_from(configs), texts)
    def run(pt, text):
        compare(pt, text)

    run()


# ---------------------------------------------------------------------- every code point


def _code_points(full: bool) -> list[str]:
    if full:
        return [chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000]
    # All of the BMP, and a sample of the other planes dense enough to cross every range edge of note.
    bmp = [chr(c) for c in range(0x10000) if not 0xD800 <= c < 0xE000]
    return bmp + [chr(c) for c in range(0x10000, 0x40000, 7)] + [chr(c) for c in range(0xE0000, 0xE0200)]


SWEEPS = [
    (Whitespace(), "!"),
    (Whitespace(), "a"),
    (BertPreTokenizer(), "a"),
    (Punctuation(), "a"),
    (Digits(individual_digits=True), "a"),
    (UnicodeScripts(), "a"),
    (UnicodeScripts(), "1"),
    (ByteLevel(add_prefix_space=False), "1"),
    (ByteLevel(add_prefix_space=False), "a"),
    (WhitespaceSplit(), "a"),
    (Split(r"\p{L}+|\p{N}|\p{Han}", "Isolated", regex=True), "!"),
]


@pytest.mark.parametrize("pt,sep", SWEEPS, ids=[f"{type(p).__name__}-{s}" for p, s in SWEEPS])
def test_every_code_point_splits_as_in_hf(pt, sep):
    """Each code point between separators: catches any character whose class differs from HF's.

    Set TOKCORE_FULL_UNICODE=1 for every code point of every plane (slower).
    """
    text = sep.join(_code_points(os.environ.get("TOKCORE_FULL_UNICODE") == "1"))
    assert pt.pre_tokenize_str(text) == hf_cached(pt).pre_tokenize_str(text)


# ------------------------------------------------------------------------------ details


def test_bytelevel_pieces_and_bounds():
    pt = ByteLevel()
    assert pt.pre_tokenize_str("Hello wörld!") == [("ĠHello", (0, 5)), ("ĠwÃ¶rld", (5, 11)), ("!", (11, 12))]
    (p,) = pt.pre_tokenize([piece_from_text("é", 10)])
    assert p.text == "ĠÃ©" and list(p.bounds) == [10, 10, 11, 12]
    # A lone prefix space has an empty span; HF lends it the next character's.
    assert pt.pre_tokenize_str("\u3000x")[0] == ("Ġ", (0, 0))
    assert hf_of(pt).pre_tokenize_str("\u3000x")[0] == ("Ġ", (0, 1))


def test_metaspace_bounds_and_first_scheme():
    pt = Metaspace(prepend_scheme="first")
    pieces = pt.pre_tokenize([piece_from_text("a b")])
    assert [(p.text, list(p.bounds)) for p in pieces] == [("▁a", [0, 0, 1]), ("▁b", [1, 2, 3])]
    # A piece not at the start of the text (e.g. after an added token) gets no replacement.
    assert [p.text for p in pt.pre_tokenize([piece_from_text("ab", 3)])] == ["ab"]
    assert [p.text for p in Metaspace().pre_tokenize([piece_from_text("ab", 3)])] == ["▁ab"]


def test_split_behaviors_match_hf_docs():
    expect = {
        "Removed": ["the", "final", "countdown"],
        "Isolated": ["the", "-", "final", "-", "-", "countdown"],
        "MergedWithPrevious": ["the-", "final-", "-", "countdown"],
        "MergedWithNext": ["the", "-final", "-", "-countdown"],
        "Contiguous": ["the", "-", "final", "--", "countdown"],
    }
    for behavior, pieces in expect.items():
        assert [p for p, _ in Split("-", behavior).pre_tokenize_str("the-final--countdown")] == pieces


def test_empty_text_gives_no_pieces():
    for _, pt in ALL:
        # As in HF, only a Sequence of nothing hands the empty text on untouched.
        assert pt.pre_tokenize_str("") == ([("", (0, 0))] if pt == Sequence([]) else [])


@pytest.mark.parametrize("pt", [pt for _, pt in ALL], ids=IDS)
def test_dict_round_trip_and_hf_format(pt):
    data = pt.to_dict()
    assert build("pre_tokenizer", json.loads(json.dumps(data))) == pt
    assert json.loads(hf_cached(pt).__getstate__()) == data


@pytest.mark.parametrize(
    "data",
    [
        {"type": "Metaspace", "replacement": "▁", "add_prefix_space": True},
        {"type": "Metaspace", "replacement": "▁", "add_prefix_space": True, "prepend_scheme": "first"},
        {"type": "Metaspace", "replacement": "▁", "add_prefix_space": True, "str_rep": "▁"},
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True},
        {"type": "Punctuation"},
    ],
)
def test_legacy_and_partial_dicts_load_as_in_hf(data):
    ours = build("pre_tokenizer", data)
    doc = {"version": "1.0", "added_tokens": [], "pre_tokenizer": data,
           "model": {"type": "WordLevel", "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"}}
    theirs = tokenizers.Tokenizer.from_str(json.dumps(doc)).pre_tokenizer
    for text in ["Hello there  friend", " lead", "x"]:
        assert ours.pre_tokenize_str(text) == theirs.pre_tokenize_str(text)


def test_legacy_add_prefix_space_false_means_never():
    # HF 0.23 rejects this old form (its default scheme "always" contradicts it); tokcore reads it
    # as the files that carry it meant.
    data = {"type": "Metaspace", "replacement": "▁", "add_prefix_space": False}
    assert build("pre_tokenizer", data) == Metaspace(prepend_scheme="never")


def test_bad_configurations_raise_actionable_errors():
    with pytest.raises(ConfigurationError, match="behavior"):
        Split("-", "sideways")
    with pytest.raises(ConfigurationError, match="does not compile"):
        Split("(", regex=True)
    with pytest.raises(ConfigurationError, match="one character"):
        Metaspace(replacement="ab")
    with pytest.raises(ConfigurationError, match="prepend_scheme"):
        Metaspace(prepend_scheme="sometimes")
    with pytest.raises(ConfigurationError, match="positive"):
        FixedLength(length=0)
    with pytest.raises(ConfigurationError, match="single character"):
        CharDelimiterSplit("--")
    with pytest.raises(TokenizerFileError, match="contradicts"):
        build("pre_tokenizer", {"type": "Metaspace", "replacement": "▁", "add_prefix_space": False,
                                "prepend_scheme": "always"}, source="tok.json")
    with pytest.raises(TokenizerFileError, match="tok.json"):
        build("pre_tokenizer", {"type": "Split", "pattern": {"Regex": "("}, "behavior": "Isolated",
                                "invert": False}, source="tok.json")
    with pytest.raises(TokenizerFileError, match="pattern"):
        build("pre_tokenizer", {"type": "Split", "pattern": "x", "behavior": "Isolated", "invert": False})


# ------------------------------------------------------------------------ byte alphabet


def test_byte_alphabet_is_gpt2s():
    assert len(ALPHABET) == 256 and set(ALPHABET) == set(tokenizers.pre_tokenizers.ByteLevel.alphabet())
    assert BYTE_TO_UNICODE[32] == "Ġ" and BYTE_TO_UNICODE[10] == "Ċ" and BYTE_TO_UNICODE[ord("a")] == "a"
    assert bytes_to_chars(bytes(range(256))) == "".join(ALPHABET)
    assert chars_to_bytes("".join(ALPHABET)) == bytes(range(256))
    assert chars_to_bytes(" ") is None and chars_to_bytes("€") is None


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(exclude_categories=("Cs",))))
def test_byte_chars_round_trip(text):
    assert chars_to_bytes(text_to_chars(text)) == text.encode("utf-8")


def test_tiktoken_patterns_are_tiktokens(monkeypatch):
    pytest.importorskip("tiktoken")
    from tiktoken_ext import openai_public as op

    monkeypatch.setattr(op, "load_tiktoken_bpe", lambda *a, **k: {})  # the ranks are not needed
    monkeypatch.setattr(op, "data_gym_to_mergeable_bpe_ranks", lambda *a, **k: {})
    assert op.gpt2()["pat_str"] == R50K_PATTERN and op.r50k_base()["pat_str"] == R50K_PATTERN
    assert op.cl100k_base()["pat_str"] == CL100K_PATTERN
    assert op.o200k_base()["pat_str"] == O200K_PATTERN
    assert "'s|'t|'re|'ve|'m|'ll|'d" in GPT2_PATTERN


def test_lone_prefix_difference_is_rare(corpus_texts):
    # Counted over the reference texts (see the module docstring); report figure.
    LONE_PREFIX["count"] = 0
    for text in corpus_texts:
        compare(ByteLevel(), text)
    assert LONE_PREFIX["count"] <= 5
