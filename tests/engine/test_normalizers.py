"""Normalizers: text parity with HF tokenizers, exact alignments, serialization, sentencepiece charsmaps.

Alignment oracle: an HF Tokenizer with the normalizer under test, a pre-tokenizer isolating every
character and a WordLevel model over the normalized characters reports, per normalized
character, its span in the original text. (The brief's ``(?s).`` is not Oniguruma syntax; there
``(?m)`` makes the dot match newlines.)

Where HF's alignment is approximate, ours is exact and differs in one of two documented ways,
checked position by position (``_check_alignment``):
- "empty": a character inserted without a source (Prepend's prefix, BertNormalizer's spaces
  around CJK, Replace on an empty match) has an empty span; HF gives it a neighbour's span.
- "whole": a character rewritten from several source characters (an NFC/NFKC composition, a
  reordering of combining marks, a multi-character Replace match, a Precompiled rule over a
  grapheme cluster) spans all of them; HF's span is one of them (first or last), so ours contains it.
"""

from __future__ import annotations

import base64
import json
import unicodedata
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_data import require_shared

import tokcore.normalizers.standard as T
from tokcore.core.components import build
from tokcore.core.errors import ConfigurationError, TokenizerFileError
from tokcore.core.normalized import NormalizedString
from tokcore.normalizers.precompiled import Precompiled, split_charsmap
from tokcore.normalizers.unicode_pieces import COMPOSES_BACKWARD, normalize_pieces
from tokcore.text.onig_regex import compile_onig, find_matches, translate
from tokcore.text.unicode_tables import WHITE_SPACE, is_bert_control, is_mark, is_nonspacing_mark, lower

tokenizers = pytest.importorskip("tokenizers")
H = tokenizers.normalizers
Regex = tokenizers.Regex

UDHR_LANGS = [
    "eng", "fra", "deu", "pol", "tur", "vie", "yor", "rus", "ell_monotonic", "ell_polytonic", "heb", "arb",
    "pes_1", "urd", "hin", "ben", "tam", "tha", "khm", "mya", "kat", "hye", "amh", "cmn_hans", "cmn_hant",
    "jpn", "kor",
]  # fmt: skip
TRICKY = [
    "e\u0301x", "a\u0301\u0323b", "\u1100\u1161\u11a8", "\uac00\u11a8", "\u0b47\u0b3e", "a\u0f73", "ｶﾞｷﾞ",
    "\ufb01\u0301", "a\u0301\u0302", "\u200bab", "aaa", "  x  ", "中国", "İΣ", "\U0001fbf0\u0301", "a\u1ac0\u0323",
    "\u11935\u11930", "\x00\ufffd\x85\x0b", "Ａ\u0301", "ǅ", "ﬀ\u0327",
]  # fmt: skip


def _botchan_charsmap() -> bytes:
    pb = pytest.importorskip("sentencepiece.sentencepiece_model_pb2")
    m = pb.ModelProto()
    m.ParseFromString(require_shared("reference", "sentencepiece", "botchan_en_unigram_1000.model").read_bytes())
    return m.normalizer_spec.precompiled_charsmap


def _pairs(charsmap: bytes | None = None) -> dict[str, tuple]:
    """Our normalizer and HF's equivalent, by name."""
    pairs = {
        "NFC": (T.NFC(), H.NFC()),
        "NFD": (T.NFD(), H.NFD()),
        "NFKC": (T.NFKC(), H.NFKC()),
        "NFKD": (T.NFKD(), H.NFKD()),
        "Lowercase": (T.Lowercase(), H.Lowercase()),
        "StripAccents": (T.StripAccents(), H.StripAccents()),
        "ReplaceString": (T.Replace(" ", "▁"), H.Replace(" ", "▁")),
        "ReplaceMulti": (T.Replace("th", "TH"), H.Replace("th", "TH")),
        "ReplaceEmpty": (T.Replace("", "|"), H.Replace("", "|")),
        "ReplaceRegex": (T.Replace({"Regex": r"\s+"}, "_"), H.Replace(Regex(r"\s+"), "_")),
        "ReplaceRegexEmpty": (T.Replace({"Regex": "a*|^"}, "-"), H.Replace(Regex("a*|^"), "-")),
        "Prepend": (T.Prepend("▁"), H.Prepend("▁")),
        "Strip": (T.Strip(), H.Strip()),
        "StripLeft": (T.Strip(strip_right=False), H.Strip(right=False)),
        "StripRight": (T.Strip(strip_left=False), H.Strip(left=False)),
        "Bert": (T.BertNormalizer(), H.BertNormalizer()),
        "BertCased": (T.BertNormalizer(lowercase=False), H.BertNormalizer(lowercase=False)),
        "BertAccents": (T.BertNormalizer(lowercase=False, strip_accents=True), H.BertNormalizer(lowercase=False, strip_accents=True)),
        "BertRaw": (
            T.BertNormalizer(clean_text=False, handle_chinese_chars=False, strip_accents=False),
            H.BertNormalizer(clean_text=False, handle_chinese_chars=False, strip_accents=False),
        ),
        "Nmt": (T.Nmt(), H.Nmt()),
        "ByteLevel": (T.ByteLevel(), H.ByteLevel()),
        "SeqAccents": (T.Sequence([T.NFD(), T.StripAccents(), T.Lowercase()]), H.Sequence([H.NFD(), H.StripAccents(), H.Lowercase()])),
        "SeqLlama": (T.Sequence([T.Prepend("▁"), T.Replace(" ", "▁")]), H.Sequence([H.Prepend("▁"), H.Replace(" ", "▁")])),
    }
    if charsmap is not None:
        pairs["Precompiled"] = (T.Precompiled(charsmap), H.Precompiled(charsmap))
    return pairs


@pytest.fixture(scope="module")
def pairs():
    return _pairs(_botchan_charsmap())


@pytest.fixture(scope="module")
def texts(edge_cases):
    out = [c["text"] for c in edge_cases] + TRICKY
    for lang in UDHR_LANGS:
        lines = [x for x in require_shared("corpora", "udhr", f"{lang}.txt").read_text(encoding="utf-8").splitlines() if x.strip()]
        out += lines[3:6]
    return out


def hf_alignment(hf_normalizer, text: str) -> tuple[str, list[tuple[int, int]]]:
    """HF's normalized text and, per normalized character, its 0-based character span in ``text``."""
    out = hf_normalizer.normalize_str(text)
    vocab = {"[UNK]": 0}
    for ch in out:
        vocab.setdefault(ch, len(vocab))
    tok = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab, unk_token="[UNK]"))
    tok.normalizer = hf_normalizer
    tok.pre_tokenizer = tokenizers.pre_tokenizers.Split(Regex("(?m)."), "isolated")
    enc = tok.encode(text, add_special_tokens=False)
    if "".join(enc.tokens) != out:
        raise AssertionError(f"the oracle did not isolate characters: {enc.tokens!r} vs {out!r}")
    return out, list(enc.offsets)


def _check_alignment(ours: NormalizedString, hf_spans, counts: Counter | None = None) -> None:
    spans = ours.alignments()
    assert len(spans) == len(hf_spans) == len(ours.normalized)
    for i, (o, h) in enumerate(zip(spans, hf_spans)):
        if o == h:
            continue
        if o[0] == o[1]:
            kind = "empty"  # inserted text: no source, HF lends it a neighbour's span
        elif o[0] <= h[0] and h[1] <= o[1]:
            kind = "whole"  # rewritten run: ours covers every source character, HF's one of them
        else:
            raise AssertionError(f"char {i} {ours.normalized[i]!r} of {ours.original!r}: ours {o}, HF {h}")
        if counts is not None:
            counts[kind] += 1


def _check_shape(ns: NormalizedString) -> None:
    spans = ns.alignments()
    assert len(spans) == len(ns.normalized)
    n = len(ns.original)
    for (s, e), (s2, e2) in zip(spans, spans[1:]):
        assert s <= s2 and e <= e2, spans
    for s, e in spans:
        assert 0 <= s <= e <= n


# ---------------------------------------------------------------------------------------------
# Text and alignment parity on real text


def test_normalize_str_matches_hf_everywhere(pairs, texts):
    for name, (ours, hf) in pairs.items():
        bad = [t for t in texts if ours.normalize_str(t) != hf.normalize_str(t)]
        assert not bad, f"{name}: {len(bad)} texts differ, first {bad[0]!r}"


def test_alignment_matches_hf_or_is_exact(pairs, texts):
    differences = {}
    for name, (ours, hf) in pairs.items():
        counts: Counter = Counter()
        for t in texts:
            ns = ours.normalize(NormalizedString(t))
            out, hf_spans = hf_alignment(hf, t)
            assert ns.normalized == out
            _check_shape(ns)
            _check_alignment(ns, hf_spans, counts)
        differences[name] = dict(counts)
    # Normalizers that only map, drop or expand characters agree with HF exactly.
    for name in ("Lowercase", "StripAccents", "ReplaceString", "Strip", "StripLeft", "StripRight", "BertRaw", "Nmt", "ByteLevel"):
        assert differences[name] == {}, (name, differences[name])
    # The documented kinds, where expected.
    assert differences["Prepend"].get("empty") and not differences["Prepend"].get("whole")
    assert differences["Bert"].get("empty")  # spaces around CJK
    assert differences["NFC"].get("whole") and not differences["NFC"].get("empty")
    assert differences["ReplaceMulti"].get("whole")


def test_real_tokenizer_json_normalizers(texts):
    for name in ("hf/trained/bert_cased_wordpiece.json", "hf/trained/llama_style_bpe.json",
                 "hf/trained/t5_style_unigram.json", "hf/minilm/tokenizer.json"):  # fmt: skip
        path = require_shared("reference", *name.split("/"))
        spec = json.loads(path.read_text(encoding="utf-8"))["normalizer"]
        ours = build("normalizer", spec, source=path)
        assert ours.to_dict() == spec
        hf = tokenizers.Tokenizer.from_file(str(path)).normalizer
        for t in texts:
            assert ours.normalize_str(t) == hf.normalize_str(t), (name, t)


# ---------------------------------------------------------------------------------------------
# Exact semantics, one by one (each the reason for a documented difference)


def test_unicode_forms_align_each_piece_to_its_source():
    ns = T.NFC().normalize(NormalizedString("e\u0301x"))
    assert ns.normalized == "éx" and ns.alignments() == [(0, 2), (2, 3)]  # HF: é -> (0, 1)
    ns = T.NFD().normalize(NormalizedString("a\u0301\u0323b"))  # marks reordered: both span both
    assert ns.normalized == "a\u0323\u0301b"
    assert ns.alignments() == [(0, 1), (1, 3), (1, 3), (3, 4)]  # HF: positional (1, 2), (2, 3)
    ns = T.NFKC().normalize(NormalizedString("ｶﾞ!"))
    assert ns.normalized == "ガ!" and ns.alignments() == [(0, 2), (2, 3)]
    ns = T.NFKD().normalize(NormalizedString("ﬁ"))
    assert ns.alignments() == [(0, 1), (0, 1)]  # expansions: every piece from its one source
    assert normalize_pieces("NFC", "abc") is None and normalize_pieces("NFD", "é") == [("e\u0301", 0, 1)]


def test_unicode_forms_keep_hf_unicode_9_view():
    # U+1FBF0 (Unicode 13) has an NFKC mapping HF does not know; a mark after it stays separate.
    assert T.NFKC().normalize_str("\U0001fbf0") == "\U0001fbf0" == H.NFKC().normalize_str("\U0001fbf0")
    assert T.NFC().normalize_str("\U00011935\U00011930") == "\U00011935\U00011930"
    with pytest.raises(ValueError):
        normalize_pieces("NFX", "é")


def test_lowercase_and_strip_accents_odd_cases():
    assert T.Lowercase().normalize_str("İ") == "i\u0307"  # two characters, both aligned to İ
    assert T.Lowercase().normalize(NormalizedString("İ")).alignments() == [(0, 1), (0, 1)]
    assert T.Lowercase().normalize_str("ΑΣ") == "ασ"  # no final sigma: HF lowercases char by char
    assert T.StripAccents().normalize_str("e\u0301\u0903é") == "eé"  # all marks (Mn, Mc, Me); no decomposition
    assert T.StripAccents().normalize_str("ग\u0903") == H.StripAccents().normalize_str("ग\u0903") == "ग"


def test_prepend_strip_nmt_bytelevel():
    assert T.Prepend("▁").normalize_str("") == ""
    ns = T.Prepend("▁").normalize(NormalizedString("ab"))
    assert ns.normalized == "▁ab" and ns.alignments() == [(0, 0), (0, 1), (1, 2)]  # HF: ▁ -> (0, 1)
    assert T.Strip().normalize_str(" \u3000a\x1c ") == "a\x1c"  # U+001C is not White_Space in Rust
    assert T.Strip().normalize_str("  ") == ""
    assert T.Nmt().normalize_str("a\x01\x00b\u200bc\u2581") == "a\x00b c "
    ns = T.ByteLevel().normalize(NormalizedString("é "))
    assert ns.normalized == "Ã©Ġ" and ns.alignments() == [(0, 1), (0, 1), (1, 2)]


def test_replace_semantics():
    r = T.Replace("aa", "b")
    ns = r.normalize(NormalizedString("aaa"))
    assert ns.normalized == "ba" and ns.alignments() == [(0, 2), (2, 3)]  # HF: b -> (1, 2), the match's last char
    assert T.Replace("", "-").normalize_str("ab") == "-a-b-" and T.Replace("", "-").normalize_str("") == ""
    ns = T.Replace({"Regex": "x*"}, "-").normalize(NormalizedString("abxc"))
    assert ns.normalized == "-a-b-c-"  # no empty match right after "x"
    assert ns.alignments() == [(0, 0), (0, 1), (1, 1), (1, 2), (2, 3), (3, 4), (4, 4)]
    assert T.Replace({"Regex": "^a|b$"}, "#").normalize_str("ab\nab") == "##\n##"  # line anchors, as Oniguruma
    assert T.Replace("ab", "XY").normalize(NormalizedString("ab")).alignments() == [(0, 2), (0, 2)]
    with pytest.raises(ConfigurationError):
        T.Replace({"Regex": "("}, "x")
    with pytest.raises(ConfigurationError):
        T.Replace({"Glob": "*"}, "x")


def test_bert_normalizer_semantics():
    bert = T.BertNormalizer()
    ns = bert.normalize(NormalizedString("a\x00b\tc中d\u0301É\ufffd"))
    assert ns.normalized == "ab c 中 de"
    assert ns.alignments() == [(0, 1), (2, 3), (3, 4), (4, 5), (5, 5), (5, 6), (6, 6), (6, 7), (8, 9)]
    assert T.BertNormalizer(lowercase=False).normalize_str("Éa") == "Éa"  # strip_accents follows lowercase
    assert T.BertNormalizer(lowercase=False, strip_accents=True).normalize_str("Éa\u0903") == "Ea\u0903"  # Mn only
    assert T.BertNormalizer().normalize_str("\U0002b820\U0002b81f") == "\U0002b820 \U0002b81f "  # HF's CJK ranges


@pytest.mark.parametrize(
    "pattern, expected",
    [("(?m)a.b", "(?s)a.b"), (r"\h+", "[0-9a-fA-F]+"), (r"[\h_]", "[0-9a-fA-F_]"), (r"a\Z", r"a(?=\n?\Z)"),
     (r"a\z", r"a\Z"), ("[^]a]", r"[^\]a]"), ("(?i:x)", "(?i:x)"), ("^a", r"(?:^(?!\Z))a")],
)  # fmt: skip
def test_onig_translation(pattern, expected):
    assert translate(pattern) == expected


@pytest.mark.parametrize("pattern", ["a*", "(?=a)", "a|", "|a", "^", "$", r"\Z", r"\z", r"\s", r"\h", "(?m).", ".", r"\b", "[[:alpha:]]+", " {2,}"])
def test_onig_matches_like_hf(pattern):
    for text in ["baac", "a\nb\n", "aa\na\n", "a  \u3000b\x1c\x85\xa0x", "1٣ aé中 f0g_", "\r\n\r"]:
        ours = T.Replace({"Regex": pattern}, "#").normalize_str(text)
        assert ours == H.Replace(Regex(pattern), "#").normalize_str(text), (pattern, text)
    assert list(find_matches(compile_onig("a*"), "baac")) == [(0, 0), (1, 3), (4, 4)]


# ---------------------------------------------------------------------------------------------
# HF's Unicode tables, measured over every code point

ALL = [cp for cp in range(1, 0x110000) if not 0xD800 <= cp < 0xE000]


def _per_char(normalizer, cps, sep="\x00"):
    text = sep + sep.join(map(chr, cps)) + sep
    parts = normalizer.normalize_str(text).split(sep)[1:-1]
    assert len(parts) == len(cps)
    return dict(zip(cps, parts))


def test_unicode_tables_match_hf_on_every_code_point():
    hf = _per_char(H.StripAccents(), ALL)
    assert [c for c in ALL if (hf[c] == "") != is_mark(chr(c))] == []
    hf_nfd = _per_char(H.NFD(), ALL)
    stable = [c for c in ALL if hf_nfd[c] == chr(c)]
    hf = _per_char(H.BertNormalizer(clean_text=False, handle_chinese_chars=False, strip_accents=True, lowercase=False), stable)
    assert [c for c in stable if (hf[c] == "") != is_nonspacing_mark(chr(c))] == []
    no_x = [c for c in ALL if c != ord("x")]
    hf = _per_char(H.BertNormalizer(clean_text=True, handle_chinese_chars=False, strip_accents=False, lowercase=False), no_x, "x")
    assert [c for c in no_x if (hf[c] == "") != is_bert_control(chr(c))] == []
    assert [c for c in no_x if (hf[c] == " ") != (chr(c) in WHITE_SPACE and not is_bert_control(chr(c)))] == []
    spacey = [c for c in ALL if unicodedata.category(chr(c)) in ("Zs", "Zl", "Zp", "Cc", "Cf")]
    strip = H.Strip()
    assert [c for c in spacey if (strip.normalize_str("x" + chr(c)) == "x") != (chr(c) in WHITE_SPACE)] == []
    hf = _per_char(H.Lowercase(), ALL)
    assert [c for c in ALL if lower(chr(c)) != hf[c]] == []  # Rust's case mapping, newer capitals included
    assert _per_char(T.Lowercase(), ALL) == hf


def test_composes_backward_table_is_complete():
    # Second halves of every two-character canonical decomposition, plus Hangul V and T jamo.
    found = {chr(c) for c in range(0x1161, 0x1176)} | {chr(c) for c in range(0x11A8, 0x11C3)}
    for cp in ALL:
        d = unicodedata.decomposition(chr(cp))
        if d and d[0] != "<" and len(d.split()) == 2:
            found.add(chr(int(d.split()[1], 16)))
    assert found == COMPOSES_BACKWARD


def test_unicode_forms_match_hf_on_every_decomposable_or_combining_character():
    cands = [c for c in ALL if unicodedata.decomposition(chr(c)) or unicodedata.combining(chr(c))]
    for form in ("NFC", "NFD", "NFKC", "NFKD"):
        ours, hf = getattr(T, form)(), getattr(H, form)()
        assert _per_char(ours, cands) == _per_char(hf, cands), form
    # Reordering against a combining class on either side, and every canonical pair composing.
    marks = [c for c in cands if unicodedata.combining(chr(c))]
    probes = ["a\u0345" + chr(c) + "\u0334\u0301" for c in marks]
    pairs = []
    for c in cands:
        d = unicodedata.decomposition(chr(c))
        if d and d[0] != "<" and len(d.split()) == 2:
            pairs.append("".join(chr(int(x, 16)) for x in d.split()))
    for form in ("NFC", "NFD"):
        ours, hf = getattr(T, form)(), getattr(H, form)()
        for batch in (probes, pairs):
            text = "\x00".join(batch)
            assert ours.normalize_str(text) == hf.normalize_str(text), form


# ---------------------------------------------------------------------------------------------
# Random text

INTERESTING = list("\u0301\u0323\u0345\u0f73\u1161\u11a8\u0b3e\u0b47\uac00\u1100ｶﾞﾞ\ufb01İΣσ中\u3000\u00a0\x85\x0b\t\n\r\x00\ufffd \u200b\u2581éeaA")
_chars = st.one_of(st.characters(exclude_categories=("Cs", "Cn")), st.sampled_from(INTERESTING))
_text = st.text(_chars, max_size=24)


@pytest.mark.parametrize("name", list(_pairs()) + ["Precompiled"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_text)
def test_random_text_matches_hf_with_exact_alignment(name, text, pairs):
    ours, hf = pairs[name]
    ns = ours.normalize(NormalizedString(text))
    out, hf_spans = hf_alignment(hf, text)
    assert ns.normalized == out
    _check_shape(ns)
    _check_alignment(ns, hf_spans)
    if name in ("NFC", "NFD", "NFKC", "NFKD"):
        # Exactness: every run of characters sharing a span is what that span normalizes to.
        spans = ns.alignments()
        i = 0
        while i < len(spans):
            j = i
            while j < len(spans) and spans[j] == spans[i]:
                j += 1
            s, e = spans[i]
            assert hf.normalize_str(text[s:e]) == ns.normalized[i:j], (text, spans[i])
            i = j


# ---------------------------------------------------------------------------------------------
# Serialization


def test_to_dict_matches_hf_serialization_and_round_trips(pairs):
    for name, (ours, hf) in pairs.items():
        tok = tokenizers.Tokenizer(tokenizers.models.WordLevel({"a": 0}, unk_token="a"))
        tok.normalizer = hf
        hf_dict = json.loads(tok.to_str())["normalizer"]
        assert ours.to_dict() == hf_dict, name
        again = build("normalizer", json.loads(json.dumps(ours.to_dict())))
        assert again == ours and again.normalize_str("Héllo  wörld 中") == ours.normalize_str("Héllo  wörld 中")
    policy = T.AsciiPolicy("?")
    assert build("normalizer", policy.to_dict()) == policy
    assert T.Sequence([policy]).to_hf_dict()["normalizers"][0]["type"] == "Replace"
    assert build("normalizer", {"type": "BertNormalizer"}) == T.BertNormalizer()


def test_malformed_dicts_raise_file_errors():
    with pytest.raises(TokenizerFileError):
        build("normalizer", {"type": "Replace", "pattern": {"Regex": "("}, "content": "x"}, source="t.json")
    with pytest.raises(TokenizerFileError):
        build("normalizer", {"type": "Precompiled", "precompiled_charsmap": "not base64!"}, source="t.json")
    with pytest.raises(TokenizerFileError):
        build("normalizer", {"type": "Precompiled", "precompiled_charsmap": base64.b64encode(b"\xff\xff\x00\x00abcd").decode()})
    with pytest.raises(TokenizerFileError):
        build("normalizer", {"type": "Prepend"})
    assert T.Precompiled(None).normalize_str("ｶﾞ") == "ｶﾞ"  # no rules: identity


# ---------------------------------------------------------------------------------------------
# Precompiled: sentencepiece's charsmap from a real .model file


def _spm_charsmap_only(charsmap: bytes):
    """A sentencepiece processor that applies only the charsmap (no dummy prefix, spaces untouched)."""
    spm = pytest.importorskip("sentencepiece")
    pb = pytest.importorskip("sentencepiece.sentencepiece_model_pb2")
    m = pb.ModelProto()
    m.ParseFromString(require_shared("reference", "sentencepiece", "botchan_en_unigram_1000.model").read_bytes())
    m.normalizer_spec.add_dummy_prefix = False
    m.normalizer_spec.remove_extra_whitespaces = False
    m.normalizer_spec.escape_whitespaces = False
    return spm.SentencePieceProcessor(model_proto=m.SerializeToString())


def test_precompiled_from_real_model(texts):
    charsmap = _botchan_charsmap()
    units, strings = split_charsmap(charsmap)
    assert len(units) * 4 + len(strings) + 4 == len(charsmap)
    botchan = require_shared("corpora", "botchan.txt").read_text(encoding="utf-8").splitlines()[:300]
    sample = texts + botchan + ["①②ｶﾞ\ufb01", "\ufb01\u0301", "a\u0301\u0302", "Ａ\u0301"]
    hf_semantics, hf = T.Precompiled(charsmap), H.Precompiled(charsmap)
    spm_semantics, sp = T.Precompiled(charsmap, sentencepiece_semantics=True), _spm_charsmap_only(charsmap)
    assert [t for t in sample if hf_semantics.normalize_str(t) != hf.normalize_str(t)] == []
    assert [t for t in sample if spm_semantics.normalize_str(t) != sp.normalize(t)] == []
    # HF's quirk, kept for parity: a short grapheme cluster is replaced whole by its shortest rule.
    assert hf_semantics.normalize_str("\ufb01\u0301") == "fi" and spm_semantics.normalize_str("\ufb01\u0301") == "fi\u0301"
    ns = hf_semantics.normalize(NormalizedString("xa\u0301\u0302"))
    assert ns.normalized == "xá" and ns.alignments() == [(0, 1), (1, 4)]  # HF: á -> (1, 2)
    # The charsmap travels as base64 in tokenizer.json and survives the trip.
    data = hf_semantics.to_dict()
    assert data == {"type": "Precompiled", "precompiled_charsmap": base64.b64encode(charsmap).decode()}
    assert build("normalizer", data).normalize_str("①ｶﾞ") == hf.normalize_str("①ｶﾞ") == "1\u30ab\u3099"  # 6-byte cluster: per char
    assert build("normalizer", spm_semantics.to_dict()).sentencepiece_semantics
    assert Precompiled(charsmap, sentencepiece_semantics=True).to_hf_dict() == data
