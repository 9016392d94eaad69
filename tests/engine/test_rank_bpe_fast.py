"""``RankBPE``'s short-word merge (rescanning the pairs) against the heap merge, and its word loop.

Both implement "merge the lowest-ranked adjacent pair, leftmost first, until none is ranked";
these tests compare them on random rank tables dense with ties and with merges that rank below
the merge that made them possible.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tokcore.models import rank_bpe
from tokcore.models.rank_bpe import RankBPE, _heap_merge, _scan_merge

_ALPHABET = "abcé▁"
_TOKENS = st.text(alphabet=_ALPHABET, min_size=2, max_size=5)


@settings(max_examples=500, deadline=None)
@given(word=st.text(alphabet=_ALPHABET, max_size=60), ranks=st.dictionaries(_TOKENS, st.integers(0, 6), max_size=40))
def test_scan_merge_equals_heap_merge(word, ranks):
    symbols = list(word)
    if len(symbols) < 2:
        return
    assert _scan_merge(list(symbols), ranks.get) == _heap_merge(symbols, ranks.get)


@settings(max_examples=300, deadline=None)
@given(word=st.text(alphabet=_ALPHABET + "xyz", max_size=70), ranks=st.dictionaries(_TOKENS, st.integers(0, 6), max_size=40),
       fallback=st.booleans())
def test_the_word_loop_equals_the_heap_path(word, ranks, fallback):
    vocab = {c: i for i, c in enumerate(_ALPHABET)}
    vocab.update({t: 100 + i for i, t in enumerate(ranks)})
    vocab["<unk>"] = 99
    if fallback:
        vocab.update({f"<0x{b:02X}>": 1000 + b for b in range(256)})
    model = RankBPE(vocab, ranks=ranks, unk_token="<unk>", byte_fallback=fallback, fuse_unk=True, unk_keeps_text=True)
    fast = model.tokenize(word)
    saved = rank_bpe.SCAN_MAX
    try:
        rank_bpe.SCAN_MAX = 0  # every word by the heap
        model._cache.clear()
        assert model.tokenize(word) == fast
    finally:
        rank_bpe.SCAN_MAX = saved


# -- tiktoken's GPT-2 split on ASCII text by the standard library's twin ----------------------------

_ASCII_TEXT = st.lists(st.sampled_from(list("ab Z9'sldvtmre \t\n\r\x0b\x0c.,!-_") + ["'s", "'ll", "  ", "\n\n"]),
                       max_size=40).map("".join)


@settings(max_examples=500, deadline=None)
@given(text=_ASCII_TEXT)
def test_the_ascii_twin_matches_tiktokens_r50k_pattern(text):
    import regex

    from tokcore.fast.words import GPT2_ASCII, ascii_twin
    from tokcore.text.byte_level import R50K_PATTERN

    rx = regex.compile(R50K_PATTERN)
    assert ascii_twin(rx) is GPT2_ASCII
    assert GPT2_ASCII.findall(text) == rx.findall(text)


@settings(max_examples=200, deadline=None)
@given(text=_ASCII_TEXT | st.text(max_size=40), extra=st.sampled_from(["", "\ufeff", "é", "\u3000", "😀", "٣"]))
def test_tiktoken_words_equal_the_reference_path(text, extra):
    from shared_data import require_shared


    path = require_shared("reference", "tiktoken", "gpt2.tiktoken")
    fast, ref = _tiktoken_pair(path)
    for t in (text, extra + text, text + extra + text):
        assert fast.encode(t) == ref.encode(t)


_PAIRS: dict = {}


def _tiktoken_pair(path):
    import tokcore

    if path not in _PAIRS:
        fast, ref = tokcore.load(path), tokcore.load(path)
        ref.fast = False
        _PAIRS[path] = fast, ref
    return _PAIRS[path]


_SPARSE_EXTRA = st.sampled_from(["\ufeff", "é", "\u3000", "😀", "٣", "’", "\u0301", "\u2028", "é é", "\ufeff\ufeff"])


@settings(max_examples=60, deadline=None)
@given(chunk=_ASCII_TEXT.filter(bool), inserts=st.lists(st.tuples(st.integers(0, 10**6), _SPARSE_EXTRA), max_size=6),
       hf=st.booleans())
def test_sparse_non_ascii_documents_split_as_the_whole_view(chunk, inserts, hf):
    # A long text with a few non-ASCII runs: the regex pattern around each, the ASCII twin between.
    from tokcore.fast import words as w
    from tokcore.fast.plan import word_plan
    from tokcore.text.char_classes import ascii_view

    text = (chunk * (5000 // len(chunk) + 1))[:6000]
    for at, extra in sorted(inserts, reverse=True):
        at %= len(text) + 1
        text = text[:at] + extra + text[at:]
    if hf:
        from tokcore.text.byte_level import GPT2_REGEX as rx
        from tokcore.text.onig_classes import ONIG_CLASSES

        view_of = lambda t: ascii_view(t, ONIG_CLASSES)  # noqa: E731
        words = w._bytelevel_words()
    else:
        from shared_data import require_shared

        tok = _tiktoken_pair(require_shared("reference", "tiktoken", "gpt2.tiktoken"))[0]
        split = tok.pre_tokenizer.pretokenizers[0]
        rx, classes = split._rx, split._classes
        view_of = lambda t: ascii_view(t, classes)  # noqa: E731
        words = word_plan(tok).words
    want = [text[s:e] for s, e in w._isolated_spans([m.span() for m in rx.finditer(view_of(text))], len(text))]
    assert words(text) == (want, None)


def _reference_word(model, text):
    """RankBPE's word loop as first written: unknown runs fused by re-cutting the text per symbol."""
    vocab, out, pos, unk_run = model.vocab, [], 0, False
    for s in _heap_merge(list(text), model._rank.get) if len(text) > 1 else list(text):
        n = len(s)
        if s in vocab:
            out.append((vocab[s], s, pos, pos + n))
        elif model.byte_fallback and all(f"<0x{b:02X}>" in vocab for b in s.encode("utf-8")):
            data = s.encode("utf-8")
            out += [(vocab[f"<0x{b:02X}>"], f"<0x{b:02X}>", pos, pos + 1, (k, len(data))) for k, b in enumerate(data)]
        else:
            unk_id = vocab[model.unk_token]
            if model.fuse_unk and unk_run and out[-1][3] == pos:
                start = out[-1][2]
                out[-1] = (unk_id, text[start:pos + n] if model.unk_keeps_text else model.unk_token, start, pos + n)
            else:
                out.append((unk_id, s if model.unk_keeps_text else model.unk_token, pos, pos + n))
            unk_run = True
            pos += n
            continue
        unk_run = False
        pos += n
    return out


@settings(max_examples=300, deadline=None)
@given(word=st.text(alphabet="abé▁xy😀", max_size=70), ranks=st.dictionaries(_TOKENS, st.integers(0, 6), max_size=30),
       fallback=st.booleans(), fuse=st.booleans(), keeps=st.booleans())
def test_unknown_runs_fuse_as_first_written(word, ranks, fallback, fuse, keeps):
    vocab = {c: i for i, c in enumerate("abé▁")}
    vocab.update({t: 100 + i for i, t in enumerate(ranks)})
    vocab["<unk>"] = 99
    if fallback:  # bytes of "x" and "é" only: other characters stay unknown
        vocab.update({f"<0x{b:02X}>": 1000 + b for b in b"x\xc3\xa9"})
    model = RankBPE(vocab, ranks=ranks, unk_token="<unk>", byte_fallback=fallback, fuse_unk=fuse, unk_keeps_text=keeps)
    assert model.tokenize(word) == _reference_word(model, word)
