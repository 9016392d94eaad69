"""Every fast path pinned to the reference path: identical ids, tokens, offsets, masks, word ids.

``Tokenizer.fast = False`` runs the reference pipeline (Piece objects through every stage, the
per-span original-offsets mapper); the fast one (``tokcore.fast.encode``: one regex pass and a
cache of finished words) must give the same ``EncodeResult`` on any text, cold cache or warm,
after an option changes, on every reference file and on hand-built variants of each plan.
No timings here (see ``bench/run.py``).
"""

from __future__ import annotations

import copy

import pytest
from fast_pairs import pair_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_data import require_shared

import tokcore
from tokcore.core.normalized import NormalizedString
from tokcore.core.offsets import char_to_byte_table
from tokcore.fast.encode import word_plan
from tokcore.normalizers.sentencepiece import SentencePieceWhitespace
from tokcore.parallel.batch import drop_pool

HF_FILES = ["gpt2/tokenizer.json", "minilm/tokenizer.json", "trained/t5_style_unigram.json",
            "trained/bert_cased_wordpiece.json", "trained/llama_style_bpe.json", "trained/roberta_bytelevel.json",
            "trained/wordlevel_whitespace.json"]
SP_FILES = ["botchan_en_unigram_1000.model", "botchan_en_bpe_1000.model", "kyoto_ja_unigram_8000.model"]
TK_FILES = ["gpt2.tiktoken", "multilingual.tiktoken"]

# Characters that stress every split rule: spaces of several kinds, newlines, punctuation,
# apostrophes, digits, accents (combining and precomposed), CJK, emoji, the Metaspace and
# byte-level stand-ins, controls, and pieces of special tokens.
ALPHABET = list("aZé e\u0301 \t\n\r  '’s.,!?-_09٣中文ア😀▁Ġ\u00a0\u2003\u200b\x00\x85\ufeffß") + [
    "<|endoftext|>", "[CLS]", "[SEP]", "[MASK]", "</s>", "<unk>", "'s", "  ", "\n\n", "hello", "Hello", "world"]
texts = st.lists(st.sampled_from(ALPHABET), max_size=24).map("".join) | st.text(max_size=30)

def same(fast, ref, text, **kw):
    a = fast.encode_result(text, return_offsets=True, return_masks=True, **kw)
    b = ref.encode_result(text, return_offsets=True, return_masks=True, **kw)
    assert a == b, (text, kw)
    return a


ALL = [("hf", n) for n in HF_FILES] + [("sentencepiece", n) for n in SP_FILES] + [("tiktoken", n) for n in TK_FILES]


@pytest.mark.parametrize("kind,name", ALL)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_fast_equals_reference_on_reference_files(kind, name, text):
    fast, ref = pair_for(kind, name)
    same(fast, ref, text)
    same(fast, ref, text)  # again, now from the warm word cache
    same(fast, ref, text, add_special_tokens=False)
    # Without offsets the fast path skips the spans; everything else must still match.
    assert fast.encode_result(text, return_masks=True) == ref.encode_result(text, return_masks=True)


@pytest.mark.parametrize("kind,name", [("hf", "gpt2/tokenizer.json"), ("hf", "minilm/tokenizer.json"),
                                       ("hf", "trained/t5_style_unigram.json"),
                                       ("sentencepiece", "botchan_en_unigram_1000.model")])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=texts, second=texts)
def test_pairs_and_assume_normalized(kind, name, first, second):
    fast, ref = pair_for(kind, name)
    same(fast, ref, first, text_pair=second)
    view = ref.tokenization_view(first)
    same(fast, ref, view, assume_normalized=True)
    same(fast, ref, first, split_special_tokens=True)


@pytest.mark.parametrize("kind,name", ALL)
def test_fast_equals_reference_on_corpus_lines(kind, name):
    fast, ref = pair_for(kind, name)
    corpora = require_shared("corpora")
    text = (corpora / "botchan.txt").read_text(encoding="utf-8")[:6000] + (corpora / "inaugural.txt").read_text(
        encoding="utf-8")[:4000]
    assert word_plan(fast) is not None, "every reference pipeline should have a fast plan"
    same(fast, ref, text)
    for line in text.splitlines()[:80]:
        same(fast, ref, line)


# ----------------------------------------------------------------------------- every plan, hand-built

BYTE_LEVEL_OPTIONS = [dict(add_prefix_space=p, use_regex=r) for p in (False, True) for r in (True, False)]
METASPACE_OPTIONS = [dict(prepend_scheme=s, split=sp) for s in ("always", "first", "never") for sp in (True, False)]


def _variant(kind, name, pre_tokenizer):
    fast, _ = pair_for(kind, name)
    a = copy.deepcopy(fast)
    a.pre_tokenizer = pre_tokenizer
    a.__dict__.pop("_word_plan", None)
    b = copy.deepcopy(a)
    b.fast = False
    return a, b


@pytest.mark.parametrize("options", BYTE_LEVEL_OPTIONS, ids=str)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_byte_level_variants(options, text):
    from tokcore.pre_tokenizers.standard import ByteLevel

    a, b = _variant_of(("bl", str(options)), lambda: _variant("hf", "gpt2/tokenizer.json", ByteLevel(**options)))
    same(a, b, text)


@pytest.mark.parametrize("options", METASPACE_OPTIONS, ids=str)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_metaspace_variants(options, text):
    from tokcore.pre_tokenizers.standard import Metaspace

    a, b = _variant_of(("ms", str(options)), lambda: _variant("hf", "trained/t5_style_unigram.json",
                                                              Metaspace(**options)))
    same(a, b, text)


@pytest.mark.parametrize("pre", ["BertPreTokenizer", "Whitespace", "WhitespaceSplit", None])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_whitespace_family_and_no_pre_tokenizer(pre, text):
    from tokcore.pre_tokenizers import standard as pre_tokenizers

    component = getattr(pre_tokenizers, pre)() if pre else None
    a, b = _variant_of(("ws", pre), lambda: _variant("hf", "minilm/tokenizer.json", component))
    same(a, b, text)


# A lone Split over a Llama-style BPE (Gemma's is String " " after its normalizer wrote spaces as
# "▁"): texts it leaves whole take the merge-cut words, with a quick no-match test in front.
SPLIT_ALONE = [(" ", False, True), (" ", False, False), ("▁", False, True), ("é", False, True), ("l", False, True),
               ("[0-9]", True, True), ("\\s", True, False)]


@pytest.mark.parametrize("pattern,is_regex,normalized", SPLIT_ALONE, ids=str)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_split_alone_over_line_bpe(pattern, is_regex, normalized, text):
    from tokcore.pre_tokenizers.split import Split

    def make():
        a, b = _variant("hf", "trained/llama_style_bpe.json", Split(pattern, "MergedWithPrevious", regex=is_regex))
        if not normalized:
            a.normalizer = b.normalizer = None
            a.__dict__.pop("_word_plan", None)
        assert word_plan(a).one_word  # the merge-cut plan, not the general one
        return a, b

    a, b = _variant_of(("split", pattern, is_regex, normalized), make)
    same(a, b, text)


_VARIANTS: dict = {}


def _variant_of(key, make):
    """The (fast, reference) pair for ``key``, made once per test session (deep copies of a whole
    tokenizer: ``setdefault`` would make them again for every example)."""
    if key not in _VARIANTS:
        _VARIANTS[key] = make()
    return _VARIANTS[key]


def test_changed_options_rebuild_the_plan():
    fast, ref = pair_for("hf", "gpt2/tokenizer.json")
    a, b = copy.deepcopy(fast), copy.deepcopy(ref)
    text = "Hello world, 'twas\n\n  x"
    same(a, b, text)
    plan = word_plan(a)
    for t in (a, b):
        t.pre_tokenizer.add_prefix_space = True
    assert word_plan(a) is not plan
    same(a, b, text)
    a.model.dropout = b.model.dropout = 0.5
    assert word_plan(a) is None  # dropout: every encode draws again, nothing may be cached


def test_parallel_batch_equals_single_process():
    fast, _ = pair_for("hf", "gpt2/tokenizer.json")
    lines = ["Hello world", "", "a <|endoftext|> b", "héllo  there\n", "x" * 50] * 3
    one = fast.encode_batch(lines, return_offsets=True, return_masks=True)
    two = fast.encode_batch(lines, return_offsets=True, return_masks=True, processes=2)
    drop_pool(fast)  # the shared tokenizer keeps no worker processes past this test
    assert one == two
    with pytest.raises(tokcore.WrongTypeError):
        fast.encode_batch(lines, processes=0)


# ----------------------------------------------------------------------------- helpers


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40) | st.lists(st.sampled_from(ALPHABET)).map("".join))
def test_byte_table_equals_reference(text):
    # Lone surrogates (the contract's surrogatepass) included: 3 bytes each.
    text = text + "\ud800" if len(text) % 3 == 1 else text
    reference = [len(text[:i].encode("utf-8", "surrogatepass")) for i in range(len(text) + 1)]
    assert char_to_byte_table(text) == reference


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([" ", "  ", "a", "bc", "▁", "é", "\n", "\u3000"]), max_size=12).map("".join),
       st.booleans())
def test_sentencepiece_whitespace_runs_equal_characters(text, pre_normalized):
    ws = SentencePieceWhitespace()
    ns = NormalizedString(text)
    if pre_normalized:  # an alignment that is not the identity, as after the charsmap
        ns = ns.map_chars(lambda c: "xx" if c == "é" else c)
    fast, ref = ws.normalize(ns), ws._normalize_chars(ns)
    assert (fast.normalized, fast.alignments(), fast.original) == (ref.normalized, ref.alignments(), ref.original)


# ----------------------------------------------------------------------------- post-processors, one sequence

_SPECIAL = st.sampled_from([("[CLS]", 101), ("[SEP]", 102), ("<s>", 0), ("</s>", 2)])


def _processors():
    from tokcore.processors import standard as pp

    template_piece = st.sampled_from(["$A", "$A:1", "$0", "$2", "[CLS]", "[SEP]:1", "[X]", "[X]:3"])
    templates = st.lists(template_piece, max_size=5).map(" ".join)
    template = st.builds(
        lambda single: pp.TemplateProcessing(single=single or "$A", pair="$A $B", _check_pair=False,
                                             special_tokens=[("[CLS]", 101), ("[SEP]", 102),
                                                             {"id": "[X]", "ids": [7, 8], "tokens": ["x", "y"]}]),
        templates)
    flags = st.booleans()
    return st.one_of(
        template,
        st.builds(lambda s, c: pp.BertProcessing(sep=s, cls=c), _SPECIAL, _SPECIAL),
        st.builds(lambda s, c, t, p: pp.RobertaProcessing(sep=s, cls=c, trim_offsets=t, add_prefix_space=p),
                  _SPECIAL, _SPECIAL, flags, flags),
        st.builds(lambda t, p: pp.ByteLevel(trim_offsets=t, add_prefix_space=p), flags, flags),
    )


def _encoding(draw_tokens):
    from tokcore.core.encoding import Encoding

    enc = Encoding()
    pos = 0
    for i, (tok, special, spaced) in enumerate(draw_tokens):
        span = (pos, pos + len(tok.encode()))
        pos = span[1] + spaced
        enc.append(i, tok, span, special=special, word=i // 2, seq=0)
    return enc


@settings(max_examples=300, deadline=None)
@given(_processors(),
       st.lists(st.tuples(st.sampled_from(["a", "Ġb", " c", "d ", "Ġ", "é", "\u3000x"]), st.integers(0, 1),
                          st.integers(0, 1)), max_size=6),
       st.booleans())
def test_single_sequence_post_processing_equals_reference(processor, tokens, add_special_tokens):
    fast = processor.process(_encoding(tokens), add_special_tokens=add_special_tokens)
    ref = processor.process_reference(_encoding(tokens), add_special_tokens=add_special_tokens)
    assert fast == ref
    assert fast.__dict__.get("hf_ranges") == ref.__dict__.get("hf_ranges")


# ----------------------------------------------------------------------------- normalizer shortcuts


def _ns_state(ns):
    return ns.original, ns.normalized, ns.alignments()


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30) | st.lists(st.sampled_from(ALPHABET + ["ΣA", "İ", "Ǆ", "ABC"])).map("".join),
       st.booleans())
def test_lowercase_shortcut_equals_per_character_mapping(text, touched):
    from tokcore.normalizers.standard import lowercase

    ns = NormalizedString(text)
    if touched:  # not the identity any more
        ns = ns.map_chars(lambda c: "xY" if c == "é" else c)
    assert _ns_state(lowercase(ns)) == _ns_state(ns.map_chars(str.lower))


@pytest.mark.parametrize("name", ["minilm/tokenizer.json", "trained/t5_style_unigram.json"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_view_of_one_segment_equals_concat(name, text):
    fast, _ = pair_for("hf", name)
    ns, _segs = fast._view(text, assume_normalized=False, split_special=False)
    part = fast.normalizer.normalize(NormalizedString(text)) if fast.normalizer is not None else NormalizedString(text)
    if not any(t is not None for *_, t in _segs):
        assert _ns_state(ns) == _ns_state(NormalizedString.concat([part]))


def test_marks_are_never_ascii():
    from tokcore.text.unicode_tables import is_mark, is_nonspacing_mark

    assert not any(is_nonspacing_mark(chr(c)) or is_mark(chr(c)) for c in range(128))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30) | st.lists(st.sampled_from(ALPHABET + ["e\u0301\u0301", "\u0345", "\U0001d167"])).map("".join),
       st.booleans())
def test_drop_chars_skipping_ascii_equals_full_scan(text, touched):
    from tokcore.normalizers.standard import drop_chars
    from tokcore.text.unicode_tables import is_nonspacing_mark

    ns = NormalizedString(text)
    if touched:
        ns = ns.map_chars(lambda c: "x\u0301" if c == "é" else c)
    fast = drop_chars(ns, is_nonspacing_mark, never_ascii=True)
    assert _ns_state(fast) == _ns_state(drop_chars(ns, is_nonspacing_mark))


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=30) | st.lists(st.sampled_from(ALPHABET + [" ", " ", "ab", "\u3000", "\x1c"])).map("".join))
def test_non_space_runs_shortcut_equals_match_spans(text):
    from tokcore.fast.words import _non_space_runs, _non_space_runs_reference

    assert _non_space_runs(text) == _non_space_runs_reference(text)


_WS = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000" + "".join(chr(c) for c in range(0x2000, 0x200B))


def _trim_one(token, span, first, add_prefix_space):
    """HF's process_offsets for one token, written out plainly (the test's own reference)."""
    def run(chars):
        count = size = 0
        for ch in chars:
            if ch == "Ġ":
                size += 1
            elif ch in _WS:
                size += len(ch.encode())
            else:
                break
            count += 1
        return count, size

    if span is None:
        return None
    start, stop = span
    count, size = run(token)
    if count:
        if (first or start == 0) and add_prefix_space and count == 1:
            size = 0
        start = min(start + size, stop)
    count, size = run(reversed(token))
    if count and stop >= size:
        stop = max(stop - size, start)
    return (start, stop)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Ġ", "Ġa", "ĠĠb", "a", "aĠ", " a ", "Ġ\u3000", "\u2000x", "ĠxĠ", "é"]),
                          st.integers(0, 4), st.integers(0, 4), st.booleans()), max_size=8),
       st.booleans(), st.sampled_from([0, 1]))
def test_trim_offsets_equals_plain_rules(items, add_prefix_space, base):
    """Also with the spans counted from 1 (the fast lane's ``Encoding.spans_base``): the same
    trimming, counted from 1 (a first token at byte 0 is the one at ``base``)."""
    from tokcore.core.encoding import Encoding
    from tokcore.processors.merge import trim_offsets

    enc = Encoding()
    enc.spans_base = base
    for i, (tok, start, width, none) in enumerate(items):
        enc.append(i, tok, None if none else (start + base, start + width + base))
    zero_based = [None if s is None else (s[0] - base, s[1] - base) for s in enc.spans]
    expected = [_trim_one(t, s, i == 0, add_prefix_space) for i, (t, s) in enumerate(zip(enc.tokens, zero_based))]
    trim_offsets(enc, add_prefix_space)
    assert enc.spans == [None if s is None else (s[0] + base, s[1] + base) for s in expected]


# ----------------------------------------------------------------------------- sentencepiece charsmap scan

_CHARSMAP_TEXT = st.lists(st.sampled_from(["a", "A", " ", "e", "\u0301", "ﬁ", "①", "\ufeff", "Ａ", "ｶ", "\uff9e",
                                           "x" * 20, "\u3000", "é", "\x00", "\t"]), max_size=30).map("".join)


@pytest.mark.parametrize("name", ["botchan_en_unigram_1000.model", "kyoto_ja_unigram_8000.model"])
@settings(max_examples=200, deadline=None)
@given(text=_CHARSMAP_TEXT)
def test_charsmap_scan_of_non_ascii_stretches_equals_full_scan(name, text):
    fast, _ = pair_for("sentencepiece", name)
    parts = getattr(fast.normalizer, "normalizers", [fast.normalizer])
    (pre,) = [p for p in parts if type(p).__name__ == "Precompiled"]
    assert pre.sentencepiece_semantics and not pre._ascii_rules
    assert pre._spm_pieces(text) == pre._spm_pieces_reference(text)


@settings(max_examples=500, deadline=None)
@given(text=st.text(st.characters(max_codepoint=127), max_size=40)
       | st.lists(st.sampled_from(["'s", "'ll", "'", " ", "  ", "\t", "\n ", "a", "Z", "9", "!", "\x1c", "\x0b", "_"]),
                  max_size=16).map("".join))
def test_gpt2_ascii_twin_finds_what_the_unicode_pattern_finds(text):
    from tokcore.fast.words import GPT2_ASCII
    from tokcore.text.byte_level import GPT2_REGEX

    assert GPT2_ASCII.findall(text) == GPT2_REGEX.findall(text)


def test_gpt2_ascii_twin_classes_are_the_unicode_patterns_classes():
    import regex

    from tokcore.fast.words import _ASCII_SPACE

    ascii_chars = [chr(c) for c in range(128)]
    assert {c for c in ascii_chars if regex.match(r"\s", c)} == set(_ASCII_SPACE)
    assert "".join(c for c in ascii_chars if regex.match(r"\p{L}", c)) == "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    assert "".join(c for c in ascii_chars if regex.match(r"\p{N}", c)) == "0123456789"


def _mapper_normalizers():
    from tokcore.normalizers import standard as N

    sp = pair_for("sentencepiece", "botchan_en_unigram_1000.model")[0].normalizer
    return [N.NFKC(), N.Lowercase(), N.BertNormalizer(), N.Sequence([N.NFD(), N.StripAccents()]),
            N.Replace("  ", " "), sp, SentencePieceWhitespace()]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=30) | st.lists(st.sampled_from(ALPHABET)).map("".join),
       which=st.integers(0, 6), cuts=st.lists(st.tuples(st.integers(0, 200), st.integers(0, 200)), max_size=12))
def test_mapping_a_list_of_spans_equals_mapping_each(text, which, cuts):
    # OriginalMapper.map_all maps a list in C-level passes when every span is non-empty and on
    # character boundaries, else span by span; both must equal map() on each span.
    from tokcore.core.original_offsets import OriginalMapper

    ns = _mapper_normalizers()[which].normalize(NormalizedString(text))
    mapper = OriginalMapper(ns)
    table = char_to_byte_table(ns.normalized)
    size = table[-1]
    spans = [tuple(sorted((a % (size + 1), b % (size + 1)))) for a, b in cuts]
    on_chars = [(table[a % len(table)], table[b % len(table)]) for a, b in cuts]
    on_chars = [(a, b) for a, b in on_chars if b > a]
    for batch in (spans, on_chars):
        assert mapper.map_all(batch) == [mapper.map(s) for s in batch]


# ----------------------------------------------------------------------------- spans counted from 1


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["a", "ﬁ", "é", "Ａ", " ", "x"]), min_size=1, max_size=12).map("".join),
       st.booleans(), st.booleans())
def test_result_state_takes_spans_counted_from_one_as_from_zero(raw, nfkc, fast):
    """``Encoding.spans_base`` 1 gives the result that the same spans counted from 0 give, with
    an identity alignment (taken as they are) and with one that moves characters (mapped)."""
    from tokcore.core.encoding import Encoding
    from tokcore.core.result_build import result_state
    from tokcore.normalizers.standard import NFKC

    ns = NFKC().normalize(NormalizedString(raw)) if nfkc else NormalizedString(raw)
    cuts = char_to_byte_table(ns.normalized)
    zero = [None, *zip(cuts, cuts[1:]), None]  # one token per character between two inserted ones
    states = []
    for base in (0, 1):
        enc = Encoding()
        enc.spans_base = base
        for i, span in enumerate(zero):
            enc.append(i, "t", None if span is None else (span[0] + base, span[1] + base), word=i)
        states.append(result_state(enc, ns, None, raw, None, fast=fast, return_offsets=True, return_masks=True,
                                   own=True))
    assert states[0] == states[1]
