"""Fast paths of the encoding pipeline: one regex pass over the text and a cache of finished words.

When the pre-tokenizer's pieces are substrings of the tokenization text ("words") whose model
tokens and byte spans depend on the word alone, a word's result can be kept relative to its
first byte and reused wherever the word appears again. That holds, by construction, for the
pre-tokenizers listed in ``word_plan`` on a model whose ``tokenize`` is a pure function of its
input (no dropout). For those, ``encode_words`` replaces Piece objects, per-piece splitting and
per-token span mapping with a dict lookup per word. The slow path (``Tokenizer`` without this
module) stays the reference: ``tests/test_fast_paths.py`` pins both to identical results.

Also here: ``byte_table``, a faster ``char_to_byte_table`` for mostly-ASCII text.

Left out: the word finders (``tokcore.fast_words``), normalization (it runs as usual before),
post-processing, anything with dropout or a pre-tokenizer not listed in ``word_plan`` (those
take the slow path).
"""

from __future__ import annotations

import re
from itertools import accumulate, chain, repeat
from operator import add, itemgetter

from .components import Piece, piece_from_text
from .fast_words import _NON_SPACE_RUNS, _bytelevel_words, _gpt2_cut, _isolated_words, _whole

WORD_CACHE_CAPACITY = 200_000  # distinct words kept per tokenizer; past this new words are not cached
_MAX_CACHED_CHARS = 256  # long words rarely repeat
_CONTINUATION = re.compile(rb"[\x80-\xbf]+")


def byte_table(text: str) -> list[int]:
    """0-based byte offset of every character boundary. ``byte_table("aé") == [0, 1, 3]``."""
    if text.isascii():
        return list(range(len(text) + 1))
    data = text.encode("utf-8", "surrogatepass")
    # Each character is one lead byte plus its continuation bytes: count the continuations
    # that follow every lead byte, in C, then accumulate.
    sizes = bytearray(b"\x01") * len(text)
    lead = 0  # character index of the next lead byte
    pos = 0
    for m in _CONTINUATION.finditer(data):
        s, e = m.span()
        lead += s - pos - 1  # lead bytes between runs are one character each
        sizes[lead] = 1 + e - s
        lead += 1
        pos = e
    return [0, *accumulate(sizes)]


class WordPlan:
    """How one (pre-tokenizer, model) pair splits a segment into words and tokenizes a word.

    ``words(text)`` gives the words' ``(start, stop)`` character spans in order (``None``: use the
    slow path). On a cache miss, ``pieces(piece)`` runs the real pre-tokenizer components on the
    word alone, which is only done for words whose pieces do not depend on their neighbours.
    ``prefix`` is the character a byte-level pre-tokenizer inserts before a segment (with an empty
    span) when ``needs_prefix(segment)``; ``origin_matters`` says a word's pieces depend on whether
    it starts the tokenization text (Metaspace's ``prepend_scheme="first"``).
    """

    __slots__ = ("cache", "cut", "first", "needs_prefix", "origin_matters", "pieces", "prefix", "replacement",
                 "separators", "tokenize", "words")

    def __init__(self, words, pieces, tokenize, *, prefix=None, needs_prefix=None, origin_matters=False, cut=None,
                 replacement=None):
        self.words = words
        self.pieces = pieces
        self.tokenize = tokenize
        self.prefix = prefix
        self.needs_prefix = needs_prefix
        self.origin_matters = origin_matters
        self.cache: dict[str, tuple] = {}
        self.first: dict[str, tuple] = {}  # words carrying the inserted prefix, or at the text's start
        self.cut = cut  # (text, at) -> first index >= at where the text can be cut between words, or None
        # Metaspace's split: a word starts at " " and at its replacement (see spaced_entries); per
        # separator, the entry of separator + chunk and its ids, keyed by the chunk alone.
        self.replacement = replacement
        self.separators = None if replacement is None else {" ": ({}, {}), replacement: ({}, {})}


def _deterministic(model) -> bool:
    from .loaders.rank_bpe import RankBPE
    from .loaders.sentencepiece_build import SentencePieceUnigram
    from .models.bpe import BPE
    from .models.unigram import Unigram
    from .models.word_level import WordLevel
    from .models.wordpiece import WordPiece

    t = type(model)
    if t is BPE:
        return not model.dropout
    return t in (WordPiece, Unigram, RankBPE, SentencePieceUnigram, WordLevel)


def _snapshot(component):
    """The options of ``component`` (and of a Sequence's children), compared by value or identity."""
    if component is None:
        return None
    state = dict(component.__dict__)
    children = state.get("pretokenizers")
    if isinstance(children, list):
        state["pretokenizers"] = [(c, _snapshot(c)) for c in children]
    return state


def word_plan(tokenizer) -> WordPlan | None:
    """The fast plan for this tokenizer's pre-tokenizer and model, or ``None`` (slow path).

    The plan (and its word cache) is rebuilt when the pre-tokenizer or the model is replaced or
    an option of the pre-tokenizer or the model's dropout changes.
    """
    pre, model = tokenizer.pre_tokenizer, tokenizer.model
    old = tokenizer.__dict__.get("_word_plan")
    if (old is not None and old[0] is pre and old[1] is model and old[2] == getattr(model, "dropout", None)
            and old[3] == _snapshot(pre)):
        return old[4]
    try:
        plan = _build_plan(pre, model) if _deterministic(model) else None
    except (ImportError, AttributeError):  # a stage module without the pieces a plan needs
        plan = None
    tokenizer.__dict__["_word_plan"] = (pre, model, getattr(model, "dropout", None), _snapshot(pre), plan)
    return plan


def _build_plan(pre, model) -> WordPlan | None:
    from . import pre_tokenizers as pt
    from .pre_tokenizers_split import Split

    tok = model.tokenize
    t = type(pre)
    if pre is None:
        return WordPlan(_whole, lambda p: [p], tok)
    if t is pt.ByteLevel:
        plain = pt.ByteLevel(add_prefix_space=False, trim_offsets=pre.trim_offsets, use_regex=False).pre_tokenize
        words = _bytelevel_words() if pre.use_regex else _whole
        return WordPlan(words, lambda p: plain([p]), tok, prefix=" " if pre.add_prefix_space else None,
                        needs_prefix=lambda text: not text.startswith(" "), cut=_gpt2_cut if pre.use_regex else None)
    if t in (pt.BertPreTokenizer, pt.Whitespace, pt.WhitespaceSplit):
        # These drop whitespace and never join across it: a run of non-space characters is
        # pre-tokenized on its own exactly as inside the text.
        return WordPlan(_NON_SPACE_RUNS, lambda p: pre.pre_tokenize([p]), tok)
    if t is pt.Metaspace:
        rep = pre.replacement
        if pre.split and rep != " ":
            cls = re.escape(" " + rep)
            rx = re.compile(f"[^{cls}]+|[{cls}][^{cls}]*")

            def words(text):
                return rx.findall(text), None
        else:
            words = _whole
        return WordPlan(words, lambda p: pre.pre_tokenize([p]), tok, origin_matters=True,
                        replacement=rep if pre.split and rep != " " else None)
    if t is pt.Sequence and len(pre.pretokenizers) == 2:
        split, bl = pre.pretokenizers
        if (type(split) is Split and split.behavior == "Isolated" and not split.invert and split._rx is not None
                and type(bl) is pt.ByteLevel and not bl.use_regex and not bl.add_prefix_space):
            classes = getattr(split, "_classes", None)  # Split runs its regex on a class view of the text
            view_of = None
            if classes is not None:
                from .pre_tokenizers_tables import ascii_view

                def view_of(text):
                    return ascii_view(text, classes)
            return WordPlan(_isolated_words(split._rx, view_of), lambda p: bl.pre_tokenize([p]), tok)
    return None


# -- the word loop ---------------------------------------------------------------------------------


def _entry(plan: WordPlan, word: str, first: bool, origin: int) -> tuple:
    """(ids, tokens, spans relative to the word's first byte, word offset per token, pieces, tokens,
    UTF-8 length of the word, the spans' starts, their stops) of one word; the prefix a pre-tokenizer inserts has no bytes."""
    cache = plan.first if first else plan.cache
    hit = cache.get(word)
    if hit is not None:
        return hit
    from .tokenizer import _byte_fallback_span
    piece = piece_from_text(word, origin)
    if first and plan.prefix is not None:
        piece = Piece(plan.prefix + piece.text, [origin, *piece.bounds])
    ids, toks, rel, wofs = [], [], [], []
    k = 0
    tokenize = plan.tokenize
    for p in plan.pieces(piece):
        if not p.text:
            continue
        bounds = p.bounds
        for t in tokenize(p.text):
            ids.append(t[0])
            toks.append(t[1])
            if len(t) == 4:
                s, e = bounds[t[2]], bounds[t[3]]
            else:
                s, e = _byte_fallback_span(bounds, t[2], t[4])
            rel.append((s - origin, e - origin))
            wofs.append(k)
        k += 1
    nbytes = len(word) if word.isascii() else len(word.encode("utf-8", "surrogatepass"))
    out = (tuple(ids), tuple(toks), tuple(rel), tuple(wofs), k, len(ids), nbytes,
           tuple(r[0] for r in rel), tuple(r[1] for r in rel))
    if len(word) < _MAX_CACHED_CHARS and len(cache) < WORD_CACHE_CAPACITY:
        cache[word] = out
    return out


def encode_words(plan: WordPlan, seg: str, byte_start: int, table, char_start: int, view_ascii: bool,
                 ids: list, values: list, spans: list, words: list, word: int, need_spans: bool = True) -> int | None:
    """Append the tokens of segment ``seg`` (view characters from ``char_start``, first byte
    ``byte_start``; ``table`` maps view characters to bytes, or is ``None`` for an ASCII view
    (``view_ascii``) or a view that is this one segment).

    Returns the next word index, or ``None`` (nothing appended) when the fast path does not apply.
    """
    found = word_entries(plan, seg, byte_start)
    if found is None:
        return None
    return emit_words(found, seg, byte_start, table, char_start, view_ascii, ids, values, spans, words, word,
                      need_spans)


def word_entries(plan: WordPlan, seg: str, byte_start: int) -> tuple | None:
    """``(entries, words, starts, prefixed)`` of segment ``seg`` (first byte ``byte_start``), or
    ``None`` when the fast path does not apply. ``starts`` is ``None`` when the words cover the
    segment from its start; ``prefixed`` says the pre-tokenizer inserted its prefix character."""
    if plan.separators is not None:
        ents = spaced_entries(plan, seg, byte_start)
        if ents is not None:
            return ents, None, None, False
    prefixed = plan.prefix is not None and plan.needs_prefix(seg)
    # An inserted prefix character takes part in the split (it can change the first word), so the
    # finder sees it; every position then moves back by one and the first word carries it.
    found = plan.words(plan.prefix + seg if prefixed else seg)
    if found is None:
        return None
    found_words, starts = found
    ents = list(map(plan.cache.get, found_words))
    if None in ents:  # cache misses
        ents = [e or _entry(plan, w, False, 1) for e, w in zip(ents, found_words)]
    if not ents:
        pass
    elif prefixed:
        ents[0] = _entry(plan, found_words[0][1:], True, 0)
    elif plan.origin_matters and byte_start == 0 and (starts is None or starts[0] == 0):
        ents[0] = plan.first.get(found_words[0]) or _entry(plan, found_words[0], True, 0)
    return ents, found_words, starts, prefixed


def spaced_entries(plan: WordPlan, seg: str, byte_start: int, ids: bool = False) -> list | None:
    """The entries (or with ``ids``, the token ids) of ``seg``'s words for a Metaspace plan
    when ``seg`` holds only one of its two separators (``" "`` and the replacement), else ``None``.
    The words are then the text before the first separator and each separator with the chunk
    after it, which ``str.split`` finds faster than the regex.

    ``"Hi there"`` -> the entries of ``"Hi"`` (the first word) and ``" there"``.
    """
    sep = _separator(plan, seg)
    if sep is None:
        return None
    chunks = seg.split(sep)
    got = list(map(plan.separators[sep][ids].get, chunks))
    if None in got:  # cache misses (the first chunk is done below)
        for i, g in enumerate(got):
            if g is None and i:
                e = _mirrored(plan, sep, chunks[i])
                got[i] = e[0] if ids else e
    head = chunks[0]
    at_origin = plan.origin_matters and byte_start == 0
    if head:
        if at_origin:
            e = plan.first.get(head) or _entry(plan, head, True, 0)
        else:
            e = plan.cache.get(head) or _entry(plan, head, False, 1)
        got[0] = e[0] if ids else e
    else:
        del got[0]
        if got and at_origin:
            word = sep + chunks[1]
            e = plan.first.get(word) or _entry(plan, word, True, 0)
            got[0] = e[0] if ids else e
    return got


def spaced_word_ids(plan: WordPlan, text: str, *, escaped: bool = False) -> list | None:
    """``spaced_entries(plan, text, 0, ids=True)`` when every word of the tokenization text
    ``text`` is cached already, else ``None``: the common case in one pass. With ``escaped``,
    ``text`` is the raw line whose tokenization text is ``fast_views.escaped_line(text)``.
    ``spaced_word_ids(plan, "Hi there") == [<ids of "Hi" first>, <ids of " there">]``.
    """
    if escaped:  # "▁" + the line with its spaces as "▁": the line's chunks, each after a "▁"
        sep = plan.replacement
        chunks = text.split(" ")
        first = plan.first.get(sep + chunks[0])
    else:
        sep = _separator(plan, text)
        if sep is None:
            return None
        chunks = text.split(sep)
        head = chunks[0]
        if head:
            first = plan.first.get(head)
        elif len(chunks) > 1:
            del chunks[0]
            first = plan.first.get(sep + chunks[0])
        else:
            return None
    if first is None or not plan.origin_matters:
        return None
    words = list(map(plan.separators[sep][1].get, chunks))
    words[0] = first[0]
    # A miss is None; an empty tuple (a word without tokens) also takes the complete path.
    return words if all(words) else None


def _separator(plan: WordPlan, text: str) -> str | None:
    """The one Metaspace separator in ``text`` (``" "`` when neither is), or ``None`` when both are."""
    if plan.replacement not in text:
        return " "
    return plan.replacement if " " not in text else None


def _mirrored(plan: WordPlan, sep: str, chunk: str) -> tuple:
    """The entry of ``sep + chunk``, also kept by ``chunk`` (with its ids) when the plan caches it."""
    word = sep + chunk
    entry = plan.cache.get(word) or _entry(plan, word, False, 1)
    if word in plan.cache:
        entries, ids = plan.separators[sep]
        entries[chunk] = entry
        ids[chunk] = entry[0]
    return entry


CHUNK_CHARS = 1 << 18  # a long text's words are found this many characters at a time (memory)


def document_entries(plan: WordPlan, view: str) -> tuple | None:
    """``word_entries(plan, view, 0)``, found chunk by chunk in a long text so that only one
    chunk's word strings are alive at a time; the words are then left out of the result
    (``None``: ``emit_words`` places the entries by their byte lengths, as the words cover the text).
    """
    n = len(view)
    if n <= CHUNK_CHARS or plan.cut is None or plan.prefix is not None or plan.origin_matters:
        return word_entries(plan, view, 0)
    ents: list = []
    pos = 0
    while pos < n:
        end = plan.cut(view, pos + CHUNK_CHARS) if pos + CHUNK_CHARS < n else n
        found = word_entries(plan, view[pos:end], pos)
        if found is None or found[2] is not None:  # words that do not cover the chunk: no chunking
            return word_entries(plan, view, 0)
        ents += found[0]
        pos = end
    return ents, None, None, False


def emit_words(found: tuple, seg: str, byte_start: int, table, char_start: int, view_ascii: bool,
               ids: list, values: list, spans: list, words: list, word: int, need_spans: bool = True) -> int:
    """Append the tokens of ``word_entries``' result for ``seg`` (arguments as ``encode_words``);
    returns the next word index."""
    ents, found_words, starts, prefixed = found
    if not ents:
        return word
    if starts is None and found_words is not None and (prefixed or view_ascii or table is not None) and len(ents) > 1:
        starts = list(accumulate(map(len, found_words), initial=0))
        starts.pop()
    if prefixed and starts is not None:
        starts = [0, *[x - 1 for x in starts[1:]]]
    if need_spans:
        # Byte where each word starts.
        if starts is None:
            if len(ents) == 1:
                bases = [byte_start]
            else:  # words cover the segment: add up their byte lengths
                bases = list(accumulate(map(_NBYTES, ents), initial=byte_start))
                bases.pop()
        elif table is not None:
            bases = [table[char_start + x] for x in starts]
        elif view_ascii:
            bases = [byte_start + x for x in starts] if byte_start else starts
        else:
            local = byte_table(seg)
            bases = [byte_start + local[x] for x in starts]
    counts = list(map(_N, ents))
    ids.extend(chain.from_iterable(map(_IDS, ents)))
    values.extend(chain.from_iterable(map(_TOKS, ents)))
    if need_spans:
        # base + relative start, base + relative stop, pairwise: all in C (no per-token bytecode).
        token_bases = list(chain.from_iterable(map(repeat, bases, counts)))
        spans.extend(zip(map(add, token_bases, chain.from_iterable(map(_STARTS, ents))),
                         map(add, token_bases, chain.from_iterable(map(_STOPS, ents)))))
    else:
        spans.extend(repeat(None, sum(counts)))
    ks = list(map(_K, ents))
    n_words = sum(ks)
    if n_words == len(ents):  # one piece per word (the common case)
        words.extend(chain.from_iterable(map(repeat, range(word, word + n_words), counts)))
    else:
        firsts = accumulate(ks, initial=word)
        token_firsts = chain.from_iterable(map(repeat, firsts, counts))
        words.extend([f + o for f, o in zip(token_firsts, chain.from_iterable(map(_WOFS, ents)))])
    return word + n_words


_IDS, _TOKS, _REL, _WOFS, _K, _N, _NBYTES, _STARTS, _STOPS = (itemgetter(i) for i in range(9))
