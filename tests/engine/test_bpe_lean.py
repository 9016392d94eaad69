"""The BPE fast paths pinned to the reference path: merge cuts of pre-tokenizer-less BPE, lean word
entries (``tokcore.fast.entries._lean_entry``), one-for-one ``Replace`` and ``Prepend`` alignments,
and ``OriginalMapper.map_all`` around inserted special tokens.

Each fast result is compared with what the general code gives for the same input: the reference
pipeline (``Tokenizer.fast = False``), the general ``_entry`` (``plan.lean`` off), ``rebuild``,
a regex ``Replace`` and the mapper's per-span ``map``.
"""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import require_shared

import tokcore
from tokcore.core.normalized import NormalizedString
from tokcore.core.offsets import SENTINEL
from tokcore.core.original_offsets import OriginalMapper
from tokcore.fast.plan import _entry, word_plan
from tokcore.models.bpe import BPE, byte_token
from tokcore.normalizers.standard import Prepend, Replace
from tokcore.normalizers.standard import Sequence as NormSeq

SEP = "\u2581"
# Scripts, spaces, the separator, an emoji (bytes), a character outside every vocabulary here.
_SCRIPTS = "abcdeinorst ,.'" + SEP + "éαβγдж日本🙂\n\t" + "\u0301"


def _same(fast, ref, text):
    a = fast.encode_result(text, return_offsets=True, return_masks=True)
    b = ref.encode_result(text, return_offsets=True, return_masks=True)
    assert (a.ids, a.tokens, a.offsets, a.original_offsets, a.word_ids) == (
        b.ids, b.tokens, b.offsets, b.original_offsets, b.word_ids), text


def _pair(tok):
    ref = copy.deepcopy(tok)
    ref.fast = False
    return tok, ref


def _random_bpe(seed: int, *, byte_fallback: bool, unk: bool) -> tokcore.Tokenizer:
    """A BPE whose merges join random neighbours of a random text, crossing "▁" freely (multi-character
    sides on both ends of the separator), on the Llama normalizer without a pre-tokenizer."""
    rng = random.Random(seed)
    alphabet = list("abcdeinorst" + SEP + "éα,")
    corpus = "".join(rng.choice(alphabet) for _ in range(400))
    vocab = {c: i for i, c in enumerate(alphabet)}
    if byte_fallback:
        for b in range(256):
            vocab[byte_token(b)] = len(vocab)
    if unk:
        vocab["<unk>"] = len(vocab)
    symbols = list(corpus)
    merges = []
    for _ in range(60):
        i = rng.randrange(len(symbols) - 1)
        a, b = symbols[i], symbols[i + 1]
        if (a, b) in merges or a + b in vocab and (a, b) not in merges and rng.random() < 0.5:
            continue
        merges.append((a, b))
        vocab.setdefault(a + b, len(vocab))
        j, out = 0, []
        while j < len(symbols):  # apply the merge everywhere, so longer sides come up
            if j + 1 < len(symbols) and symbols[j] == a and symbols[j + 1] == b:
                out.append(a + b)
                j += 2
            else:
                out.append(symbols[j])
                j += 1
        symbols = out
    model = BPE(vocab, merges, byte_fallback=byte_fallback, unk_token="<unk>" if unk else None, fuse_unk=unk)
    tok = tokcore.Tokenizer(model)
    tok.normalizer = NormSeq([Prepend(SEP), Replace(" ", SEP)])
    return tok


_RANDOM = {(s, bf, unk): _pair(_random_bpe(s, byte_fallback=bf, unk=unk))
           for s in range(4) for bf in (True, False) for unk in (True, False)}


def _mixed_text(draw_pieces, vocab_tokens):
    return st.lists(st.one_of(st.text(alphabet=_SCRIPTS, max_size=6), st.sampled_from(vocab_tokens)),
                    max_size=draw_pieces).map("".join)


@settings(max_examples=200, deadline=None)
@given(key=st.sampled_from(sorted(_RANDOM)), data=st.data())
def test_merge_cuts_of_random_crossing_merges_equal_the_whole_line(key, data):
    fast, ref = _RANDOM[key]
    pieces = sorted(t for t in fast.model.vocab if not t.startswith("<"))
    text = data.draw(_mixed_text(14, [p.replace(SEP, " ") for p in pieces] + pieces))
    _same(fast, ref, text)
    _same(fast, ref, text)  # again, from the caches (words, lines seen)


def test_merge_cuts_are_used_on_a_random_model():
    fast, _ = _RANDOM[(0, True, True)]
    plan = word_plan(fast)
    assert plan is not None and plan.one_word and plan.lean is not None
    view = fast.normalize("abc de nor sti")
    words = plan.words(view)[0]
    assert "".join(words) == view


LLAMA = ("reference", "hf", "trained", "llama_style_bpe.json")


def _llama_pair():
    try:
        return _pair(tokcore.load(require_shared(*LLAMA)))
    except BaseException:  # skipped at collection: the test itself reports it
        return None, None


_LLAMA = _llama_pair()
_LLAMA_PIECES = sorted(t for t in (_LLAMA[0].model.vocab if _LLAMA[0] else {}) if not t.startswith("<"))[:800]


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_llama_style_merge_cuts_equal_the_whole_line_on_its_own_pieces(data):
    require_shared(*LLAMA)
    fast, ref = _LLAMA
    text = data.draw(_mixed_text(16, _LLAMA_PIECES + [p.replace(SEP, " ") for p in _LLAMA_PIECES]))
    _same(fast, ref, text)


def test_llama_style_lines_are_cut_finer_than_at_the_separator():
    require_shared(*LLAMA)
    fast, _ = _LLAMA
    view = fast.normalize("The quick brown fox jumps over the lazy dog, and the dog sleeps.")
    words = word_plan(fast).words(view)[0]
    assert "".join(words) == view and len(words) > view.count(SEP)


# -- lean entries against the general entry -------------------------------------------------------

def _entries_agree(tok, words, first=False):
    plan = word_plan(tok)
    assert plan is not None and plan.lean is not None
    general = copy.copy(plan)
    general.lean, general.cache, general.first = None, {}, {}
    lean = copy.copy(plan)
    lean.cache, lean.first = {}, {}
    for w in words:
        origin = 0 if first else 1
        assert _entry(lean, w, first, origin) == _entry(general, w, first, origin), w


@settings(max_examples=100, deadline=None)
@given(words=st.lists(st.text(alphabet=_SCRIPTS + "€\x00 ", min_size=1, max_size=12), max_size=8))
def test_lean_entries_equal_the_general_entries(words):
    for parts, first in ((("reference", "hf", "gpt2", "tokenizer.json"), False),
                         (("reference", "hf", "trained", "roberta_bytelevel.json"), True),
                         (("reference", "hf", "trained", "roberta_bytelevel.json"), False), (LLAMA, False)):
        _entries_agree(_loaded(parts), words, first)
    _entries_agree(_RANDOM[(1, True, False)][0], words)


_TOKS: dict = {}


def _loaded(parts):
    if parts not in _TOKS:
        _TOKS[parts] = tokcore.load(require_shared(*parts))
    return _TOKS[parts]


# -- normalizers and the mapper ---------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=_SCRIPTS + "x ", max_size=30), old=st.sampled_from([" ", "a", "é", "🙂"]),
       new=st.sampled_from([SEP, "b", "🙂"]), lower_first=st.booleans())
def test_one_for_one_replace_and_prepend_align_as_rebuild(text, old, new, lower_first):
    import regex

    ns = NormalizedString(text)
    if lower_first:  # an alignment that is no longer the identity
        ns = ns.rebuild([("", 0, min(1, len(text))), (text[1:], min(1, len(text)), len(text))]) if text else ns
    fast = Replace(old, new).normalize(ns)
    slow = Replace({"Regex": regex.escape(old)}, new).normalize(ns)
    assert (fast.normalized, fast.alignments()) == (slow.normalized, slow.alignments())
    got = Prepend(SEP).normalize(ns)
    if ns.normalized:
        want = ns.rebuild([(SEP, 0, 0), (ns.normalized, 0, len(ns.normalized))])
        assert (got.normalized, got.alignments()) == (want.normalized, want.alignments())
    else:
        assert got is ns


def test_map_all_around_inserted_specials_equals_per_span_mapping():
    ns = NormSeq([Prepend(SEP), Replace(" ", SEP)]).normalize(NormalizedString("ab cé d"))
    mapper = OriginalMapper(ns)
    spans = [None, (0, 3), (3, 5), (5, 8), (8, 9), (9, 11), None, (11, 14), (14, 15), None]
    assert mapper.map_all(spans) == [SENTINEL if s is None else mapper.map(s) for s in spans]


def _trim_reference(tokens, spans, add_prefix_space):
    """HF's process_offsets, token by token (the loop trim_offsets had before its batch step)."""
    from tokcore.processors.merge import _runs_of

    out = list(spans)
    for i, (tok, span) in enumerate(zip(tokens, spans)):
        r = _runs_of(tok)
        if not r or span is None:
            continue
        (lead, trail), (start, stop) = r, span
        if lead is not None:
            count, size = lead
            if (i == 0 or start == 0) and add_prefix_space and count == 1:
                size = 0
            start = start + size if start + size < stop else stop
        if trail is not None and stop >= trail[1]:
            stop = stop - trail[1] if stop - trail[1] > start else start
        out[i] = (start, stop)
    return out


@settings(max_examples=300, deadline=None)
@given(items=st.lists(st.tuples(st.sampled_from(["\u0120a", "\u0120", "a", "\u0120\u0120b", "b\u0120", "\u0120ab",
                                                 "\u00a0x", "<s>"]),
                                st.one_of(st.none(), st.tuples(st.integers(0, 5), st.integers(0, 6)))),
                      max_size=12),
       add_prefix_space=st.booleans())
def test_trim_offsets_equals_the_token_by_token_rule(items, add_prefix_space):
    from tokcore.core.encoding import Encoding
    from tokcore.processors.merge import trim_offsets

    tokens = [t for t, _ in items]
    spans = [None if s is None else (s[0], s[0] + s[1]) for _, s in items]
    enc = Encoding(ids=list(range(len(tokens))), tokens=tokens, spans=list(spans))
    trim_offsets(enc, add_prefix_space)
    assert enc.spans == _trim_reference(tokens, spans, add_prefix_space)


def _split_bytelevel_pair():
    """GPT-2's model behind Llama 3's pre-tokenizer shape: Split (Isolated) then ByteLevel without regex."""
    from tokcore.pre_tokenizers.split import Split
    from tokcore.pre_tokenizers.standard import ByteLevel
    from tokcore.pre_tokenizers.standard import Sequence as PreSeq

    tok = copy.deepcopy(_loaded(("reference", "hf", "gpt2", "tokenizer.json")))
    tok.pre_tokenizer = PreSeq([Split(r"\p{L}+| ?\p{N}{1,3}|\s+|[^\s\p{L}\p{N}]+", "Isolated", regex=True),
                                ByteLevel(add_prefix_space=False, use_regex=False)])
    return _pair(tok)


@settings(max_examples=100, deadline=None)
@given(text=st.text(alphabet=_SCRIPTS + "x1 2€", max_size=40))
def test_split_then_bytelevel_lean_entries_equal_the_reference(text):
    require_shared("reference", "hf", "gpt2", "tokenizer.json")
    if "split" not in _TOKS:
        _TOKS["split"] = _split_bytelevel_pair()
    fast, ref = _TOKS["split"]
    assert word_plan(fast).lean is not None
    _same(fast, ref, text)
