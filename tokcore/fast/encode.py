"""Fast paths of the encoding pipeline: one regex pass over the text and a cache of finished words.

When the pre-tokenizer's pieces are substrings of the tokenization text ("words") whose model
tokens and byte spans depend on the word alone, a word's result can be kept relative to its
first byte and reused wherever the word appears again. That holds, by construction, for the
pre-tokenizers listed in ``word_plan`` on a model whose ``tokenize`` is a pure function of its
input (no dropout). For those, ``encode_words`` replaces Piece objects, per-piece splitting and
per-token span mapping with a dict lookup per word. The slow path (``Tokenizer`` without this
module) stays the reference: ``tests/engine/test_fast_paths.py`` pins both to identical results.

Left out: the word plans and their caches (``tokcore.fast.plan``), the word finders
(``tokcore.fast.words``), normalization (it runs as usual before), post-processing, anything
with dropout or a pre-tokenizer not listed in ``word_plan`` (those take the slow path).
"""

from __future__ import annotations

from itertools import accumulate, chain, islice, repeat
from operator import add, itemgetter, mul, sub

from ..core.offsets import char_to_byte_table
from ..processors.merge import trim_spans
from .plan import WordPlan, _entry, word_plan

__all__ = ["CHUNK_CHARS", "document_entries", "emit_words", "encode_words", "entry_starts", "entry_stops",
           "spaced_cached_entries", "spaced_entries", "word_entries", "word_ids_of", "word_plan"]



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
                      need_spans, plan.one_word)


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
    # A miss reads as the empty tuple, not None: ``() in ents`` compares tuples with tuples (the
    # empty one first by identity), where ``None in ents`` took the slow rich compare per entry.
    ents = list(map(plan.cache.get, found_words, repeat(_MISS)))
    if _MISS in ents:  # cache misses
        ents = [e or _entry(plan, w, False, 1) for e, w in zip(ents, found_words)]
    if not ents:
        pass
    elif prefixed:
        ents[0] = _entry(plan, found_words[0][1:], True, 0)
    elif plan.origin_matters and byte_start == 0 and (starts is None or starts[0] == 0):
        ents[0] = plan.first.get(found_words[0]) or _entry(plan, found_words[0], True, 0)
    return ents, found_words, starts, prefixed


def spaced_entries(plan: WordPlan, seg: str, byte_start: int) -> list | None:
    """The entries of ``seg``'s words for a Metaspace plan when ``seg`` holds only one of its two
    separators (``" "`` and the replacement), else ``None``. The words are then the text before
    the first separator and each separator with the chunk after it, which ``str.split`` finds
    faster than the regex.

    ``"Hi there"`` -> the entries of ``"Hi"`` (the first word) and ``" there"``.
    """
    sep = _separator(plan, seg)
    if sep is None:
        return None
    chunks = seg.split(sep)
    got = list(map(plan.separators[sep].get, chunks, repeat(_MISS)))
    if _MISS in got:  # cache misses (the first chunk is done below)
        for i, g in enumerate(got):
            if not g and i:
                got[i] = _mirrored(plan, sep, chunks[i])
    head = chunks[0]
    at_origin = plan.origin_matters and byte_start == 0
    if head:
        if at_origin:
            got[0] = plan.first.get(head) or _entry(plan, head, True, 0)
        else:
            got[0] = plan.cache.get(head) or _entry(plan, head, False, 1)
    else:
        del got[0]
        if got and at_origin:
            word = sep + chunks[1]
            got[0] = plan.first.get(word) or _entry(plan, word, True, 0)
    return got


def spaced_cached_entries(plan: WordPlan, text: str, *, escaped: bool = False) -> list | None:
    """``spaced_entries(plan, text, 0)`` when every word of the tokenization text ``text`` is
    cached already, else ``None``: the common case in one pass, each word looked up once (the
    result's ids and its other lists are both read from these entries). With ``escaped``,
    ``text`` is a plain line (``fast_views.plain_line``), whose tokenization text is ``fast_views.escape(text)``.
    ``spaced_cached_entries(plan, "Hi there") == [<entry of "Hi" first>, <entry of " there">]``.
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
    words = list(map(plan.separators[sep].get, chunks, repeat(_MISS)))
    words[0] = first
    return None if _MISS in words else words


def _separator(plan: WordPlan, text: str) -> str | None:
    """The one Metaspace separator in ``text`` (``" "`` when neither is), or ``None`` when both are."""
    if plan.replacement not in text:
        return " "
    return plan.replacement if " " not in text else None


def _mirrored(plan: WordPlan, sep: str, chunk: str) -> tuple:
    """The entry of ``sep + chunk``, also kept by ``chunk`` when the plan caches it."""
    word = sep + chunk
    entry = plan.cache.get(word) or _entry(plan, word, False, 1)
    if word in plan.cache:
        plan.separators[sep][chunk] = entry
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
               ids: list | None, values: list, spans: list, words: list | None, word: int, need_spans: bool = True,
               one_word: bool = False, trim=None) -> int:
    """Append the tokens of ``word_entries``' result for ``seg`` (arguments as ``encode_words``);
    returns the next word index. ``one_word``: the words are cuts of one pre-tokenizer word (a plan
    without a pre-tokenizer, ``WordPlan.one_word``), so every token gets word index ``word``.
    ``ids`` may be ``None`` when the caller has them already; ``words`` ``None`` when the caller
    makes the word ids later (``word_ids_of``), the returned index then being ``word``. ``trim``:
    a ``ByteLevelTrim`` whose trimming the spans get as they are made (``byte_start`` is the
    encoding's first byte; ``trim_offsets``' rule token by token when a token needs it)."""
    ents, found_words, starts, prefixed = found
    if not ents:
        return word
    counts = list(map(_N, ents))
    if ids is not None:
        ids.extend(chain.from_iterable(map(_IDS, ents)))
    at = len(values)
    values.extend(chain.from_iterable(map(_TOKS, ents)))
    if not need_spans:
        spans.extend(repeat(None, sum(counts)))
    elif trim is None:
        _emit_spans(ents, found_words, starts, prefixed, seg, byte_start, table, char_start, view_ascii, counts, spans)
    else:
        tokens = values[at:] if at else values
        leads = trim.leads(tokens, prefixed)
        first = len(spans)
        _emit_spans(ents, found_words, starts, prefixed, seg, byte_start, table, char_start, view_ascii, counts, spans,
                    leads or None)
        if leads is None:  # a token for the rule: trimmed token by token
            if first:
                own = spans[first:]
                trim_spans(own, tokens, byte_start, trim.add_prefix_space)
                spans[first:] = own
            else:
                trim_spans(spans, tokens, byte_start, trim.add_prefix_space)
    if words is None:
        return word
    return _emit_word_ids(ents, counts, words, word, one_word)


def word_ids_of(ents: list, one_word: bool) -> list:
    """The word ids of ``emit_words`` for entries ``ents`` from word 0, made apart (a lane result
    makes them on their first read): a word of 2 tokens, then one of 1,
    ``word_ids_of([((5, 6), ("a", "bc"), (1, 2), (0, 0), 1, 2, 3, None, None), ((7,), ("d",), (1,), (0,), 1, 1, 1, None, None)], False) == [0, 0, 1]``."""
    words: list = []
    if ents:
        _emit_word_ids(ents, list(map(_N, ents)), words, 0, one_word)
    return words


def _emit_word_ids(ents: list, counts: list, words: list, word: int, one_word: bool) -> int:
    """Append the word ids of ``ents`` (token counts ``counts``) from word ``word``; the next word index."""
    if one_word:
        words.extend(repeat(word, sum(counts)))
        return word + 1
    ks = list(map(_K, ents))
    n_words = sum(ks)
    if n_words == len(ents):  # one piece per word (the common case)
        try:
            # Each word's tokens as a 1 (its first) and 0s: their running sum after ``word - 1`` is
            # the tokens' word ids, with no iterator made per word (repeat parses its arguments).
            # A word without tokens (None: it would not advance the sum) or with very many declines.
            flags = list(chain.from_iterable(map(_FIRST_FLAGS.__getitem__, counts)))
        except (IndexError, TypeError):
            words.extend(chain.from_iterable(map(repeat, range(word, word + n_words), counts)))
        else:
            ids_of_words = accumulate(flags, initial=word - 1)
            next(ids_of_words)
            words.extend(ids_of_words)
    else:
        firsts = accumulate(ks, initial=word)
        token_firsts = chain.from_iterable(map(repeat, firsts, counts))
        words.extend(map(add, token_firsts, chain.from_iterable(map(_WOFS, ents))))
    return word + n_words


def _emit_spans(ents, found_words, starts, prefixed, seg, byte_start, table, char_start, view_ascii, counts,
                spans, leads=None) -> None:
    """``emit_words``' spans: each word's base byte plus its tokens' spans within the word. An entry
    whose tokens cover the word end to end keeps only their byte lengths (``_LENS``), the spans
    within it being their running sum; another keeps its spans (``_STARTS``, ``_STOPS``). Each
    token's start moves by its ``leads`` value when given."""
    # Words that cover the segment, each with tokens that cover the word: the spans are the
    # running sum of the tokens' byte lengths, found without a base per word. An entry without
    # lengths (None) stops the sum with a TypeError, which saves a ``None in lens`` pass (a slow
    # rich compare per entry).
    whole = starts is None and table is None
    try:
        ends = list(accumulate(chain.from_iterable(map(_LENS, ents)), initial=byte_start if whole else 0))
    except TypeError:
        ends = None  # an entry keeps its spans (``_STARTS``, ``_STOPS``), not lengths
    if ends is not None and whole:
        spans.extend(zip(ends if leads is None else map(add, ends, leads), islice(ends, 1, None)))
        return
    if leads is not None:  # the other layouts, then each start moved (rarer: no need to fold it in)
        at = len(spans)
        _emit_spans(ents, found_words, starts, prefixed, seg, byte_start, table, char_start, view_ascii, counts,
                    spans)
        moved = spans[at:]
        spans[at:] = zip(map(add, map(_FIRST, moved), leads), map(_SECOND, moved))
        return
    if starts is None and found_words is not None and (prefixed or view_ascii or table is not None) and len(ents) > 1:
        starts = list(accumulate(map(len, found_words), initial=0))
        starts.pop()
    if prefixed and starts is not None:
        starts = [0, *[x - 1 for x in starts[1:]]]
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
        local = char_to_byte_table(seg)
        bases = [byte_start + local[x] for x in starts]
    if ends is not None:
        # One running sum over every token; each word's tokens shift by its base less the sum at
        # its first token. All in C (no per-token bytecode); a word's shift is repeated for its
        # tokens as a 1-tuple times its count (``repeat`` parses keyword arguments per word).
        shifts = map(sub, bases, map(ends.__getitem__, accumulate(counts, initial=0)))
        token_shifts = list(chain.from_iterable(map(mul, zip(shifts), counts)))
        spans.extend(zip(map(add, token_shifts, ends), map(add, token_shifts, islice(ends, 1, None))))
        return
    # base + relative start, base + relative stop, pairwise.
    token_bases = list(chain.from_iterable(map(mul, zip(bases), counts)))
    spans.extend(zip(map(add, token_bases, chain.from_iterable(map(entry_starts, ents))),
                     map(add, token_bases, chain.from_iterable(map(entry_stops, ents)))))


def entry_starts(entry: tuple) -> tuple:
    """A word entry's token starts within the word (from its byte lengths when it keeps none).
    ``entry_starts(((5, 6), ("a", "bc"), (1, 2), (0, 0), 1, 2, 3, None, None)) == (0, 1)``."""
    if entry[7] is not None:
        return entry[7]
    return tuple(accumulate(entry[2][:-1], initial=0))


def entry_stops(entry: tuple) -> tuple:
    """A word entry's token stops within the word.
    ``entry_stops(((5, 6), ("a", "bc"), (1, 2), (0, 0), 1, 2, 3, None, None)) == (1, 3)``."""
    if entry[8] is not None:
        return entry[8]
    return tuple(accumulate(entry[2]))


_IDS, _TOKS, _LENS, _WOFS, _K, _N, _NBYTES = (itemgetter(i) for i in range(7))
_FIRST, _SECOND = _IDS, _TOKS  # a span's start and stop
_MISS = ()  # a word cache's answer for a word it does not hold (entries are never empty)
# Per token count: a word's first-token flags, (1, 0, ..., 0); None for a word without tokens.
_FIRST_FLAGS = [None, *((1,) + (0,) * (n - 1) for n in range(1, 64))]
