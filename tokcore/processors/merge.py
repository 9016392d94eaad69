"""HF's ``Encoding`` operations that post-processing needs: sequence ranges, merge, offset trimming.

HF combines a pair of encodings (and their overflowing windows) by *merging*: ``merge_with``
concatenates two encodings and builds every combination of their windows, nested windows
included. HF reads sequence ids from ``sequence_ranges``, a ``{sequence_id: (start, stop)}``
map per encoding (kept here in ``enc.__dict__["hf_ranges"]``; absent means empty, as a fresh
or truncated HF encoding has). ``Encoding.sequence_ids`` meanwhile holds each token's true
sequence (``None`` for inserted tokens); ``finalize_sequence_ids`` keeps that for real tokens
and takes HF's reading for the others, so pads and specials get HF's ids, quirks included
(an encoding without a range for sequence 0 reads 0 everywhere, pads too).

One deliberate difference: in a pair's overflowing windows *without* a post-processor, HF
reports the second text's tokens as sequence 0 or ``None`` (its ranges are lost in the
merge); tokcore keeps 1, because the sequence id is how a span is tied to its text.

Left out: the processors themselves (``tokcore.post_processors``), truncation and padding
(``tokcore.truncation``).
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import is_
from typing import Iterable, Optional

from ..core.encoding import Encoding

# Rust's char::is_whitespace (the White_Space property); str.isspace also accepts U+001C..U+001F.
_WHITESPACE = frozenset("\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000") | frozenset(
    chr(c) for c in range(0x2000, 0x200B)
)
_SPACE_BYTE_CHAR = "Ġ"  # the byte-level alphabet's stand-in for b" "


def ranges_of(enc: Encoding) -> dict[int, tuple[int, int]]:
    """HF's ``sequence_ranges`` of ``enc`` (empty unless a post-processing step set them)."""
    return enc.__dict__.get("hf_ranges") or {}


def set_ranges(enc: Encoding, ranges: dict[int, tuple[int, int]]) -> None:
    """Give ``enc`` these HF sequence ranges (its ``sequence_ids`` are settled by ``finalize_sequence_ids``)."""
    enc.__dict__["hf_ranges"] = dict(ranges)


def hf_sequence_ids(ranges: dict[int, tuple[int, int]], n: int) -> list[Optional[int]]:
    """HF's ``get_sequence_ids``. ``hf_sequence_ids({0: (1, 3)}, 4) == [None, 0, 0, None]``.

    HF reads ids ``0..len(ranges)-1`` and takes the whole encoding for a missing one, so ``{}``
    and ``{1: (0, 2)}`` both read as all zeros.
    """
    out: list[Optional[int]] = [None] * n
    for sid in range(len(ranges) or 1):
        start, stop = ranges.get(sid, (0, n))
        out[start:stop] = [sid] * (stop - start)
    return out


def finalize_sequence_ids(enc: Encoding) -> None:
    """Real tokens keep their sequence; inserted ones (``None``) take HF's reading. Recursive.

    ``Encoding.sequence_ids`` ``[None, 0, None]`` with ranges ``{0: (1, 2)}`` stays as it is;
    a pad appended to an encoding without ranges reads 0, as in HF.
    """
    # Every token with a sequence of its own (a single text without a processor): nothing to take.
    if None in enc.sequence_ids:
        hf = hf_sequence_ids(ranges_of(enc), len(enc))
        enc.sequence_ids = [own if own is not None else theirs for own, theirs in zip(enc.sequence_ids, hf)]
    for o in enc.overflowing:
        finalize_sequence_ids(o)


def shift_ranges(enc: Encoding, by: int) -> None:
    """Move every range ``by`` tokens right, as HF does when it pads on the left."""
    set_ranges(enc, {sid: (a + by, b + by) for sid, (a, b) in ranges_of(enc).items()})


def set_sequence_id(enc: Encoding, sid: int) -> None:
    """HF's ``set_sequence_id``: one range ``sid`` over the whole encoding (other ranges stay)."""
    ranges = dict(ranges_of(enc))
    ranges[sid] = (0, len(enc))
    set_ranges(enc, ranges)


def mark_sequence(enc: Encoding, sid: int) -> None:
    """Every token of ``enc`` and of its windows truly belongs to sequence ``sid``."""
    enc.sequence_ids = [sid] * len(enc)
    for o in enc.overflowing:
        mark_sequence(o, sid)


def clone(enc: Encoding) -> Encoding:
    """A deep copy, windows and ranges included (spans are immutable tuples, shared)."""
    out = enc.slice(0, len(enc))
    out.overflowing = [clone(o) for o in enc.overflowing]
    if "hf_ranges" in enc.__dict__:
        out.__dict__["hf_ranges"] = dict(enc.__dict__["hf_ranges"])
    return out


def merge_with(enc: Encoding, pair: Encoding) -> None:
    """HF's ``Encoding::merge_with`` (offsets not shifted): append ``pair`` and combine windows.

    New windows, in HF's order: each own window + ``pair`` (``pair``'s windows nest inside it),
    each own window + each ``pair`` window, then ``enc`` + each ``pair`` window.
    """
    windows = []
    for own in enc.overflowing:
        n = clone(own)
        merge_with(n, clone(pair))
        windows.append(n)
        for other in pair.overflowing:
            n = clone(own)
            merge_with(n, clone(other))
            windows.append(n)
    for other in pair.overflowing:
        n = clone(enc)
        merge_with(n, clone(other))
        windows.append(n)
    shift = len(enc)
    ranges = dict(ranges_of(enc))
    for sid, (start, stop) in ranges_of(pair).items():
        ranges[sid] = (start + shift, stop + shift)
    enc.extend(pair)
    enc.overflowing = windows
    set_ranges(enc, ranges)


def merge(encodings: Iterable[Encoding]) -> Encoding:
    """HF's ``Encoding::merge``: merge every encoding, in order, into an empty one."""
    out = Encoding()
    for enc in encodings:
        merge_with(out, enc)
    return out


def build_single(enc: Encoding, parts: list[tuple], around: tuple | None = None, *, masks: bool = True) -> Encoding:
    """What ``process`` + ``merge`` + ``finalize_sequence_ids`` make of one sequence, built directly.

    Only for ``enc`` without windows or ranges. ``parts`` in order: ``("A", type_id)`` for the
    sequence, ``("special", ids, tokens, type_id)`` for inserted tokens. The sequence's tokens read
    sequence 0 and the result's range is the last copy's; inserted ones read ``None``, or 0 when
    no part is the sequence (HF then has no range and reads 0 everywhere). ``around``:
    ``single_around(parts)``, made once by a caller that builds many results from the same parts.
    ``masks=False``: nobody reads the special-token and attention masks or the type ids; with
    ``around`` they are left as ``enc`` has them (the caller may hold ``None`` there) instead of built.
    ``build_single(e, [("special", [101], ["[CLS]"], 0), ("A", 0)])`` is ``[CLS]`` + ``e``.
    """
    if not parts:
        return Encoding()  # as ``merge([])``: no ranges at all
    n = len(enc)
    # Lists; a long text's lane encoding (tokcore.fast.lane) brings compact columns instead,
    # kept in kind (they take += of lists), and no list of n is made on the way.
    compact = type(enc.word_ids) is not list
    if not compact:
        if around is None:
            around = single_around(parts)
        if around is not None:
            return _around(enc, around, masks)
    ids: list = []
    tokens: list = []
    spans, words = (enc.spans[:0], enc.word_ids[:0]) if compact else ([], [])
    special, type_ids, attention = (enc.special[:0], enc.type_ids[:0], enc.attention[:0]) if compact else ([], [], [])
    seqs: list = []
    start = None
    for part in parts:
        if part[0] == "A":
            start = len(ids)
            ids += enc.ids
            tokens += enc.tokens
            spans += enc.spans
            special += enc.special
            type_ids += repeat(part[1], n) if compact else [part[1]] * n
            words += enc.word_ids
            seqs += repeat(0, n) if compact else [0] * n
            attention += enc.attention
        else:
            k = len(part[1])
            ids += part[1]
            tokens += part[2]
            spans += [None] * k
            special += [1] * k
            type_ids += [part[3]] * k
            words += [None] * k
            seqs += [None] * k
            attention += [1] * k
    if start is None:
        seqs = [0] * len(ids)
    out = Encoding(ids, tokens, spans, special, type_ids, words, seqs, attention)
    out.__dict__["hf_ranges"] = {} if start is None else {0: (start, start + n)}
    return out


def single_around(parts: list[tuple]) -> tuple | None:
    """What ``_around`` puts around a sequence for ``build_single`` parts holding it once, read
    from the parts once (``None`` when the sequence is not there exactly once): the sequence's type
    id, then the ids, tokens, type ids, ``None`` and ``1`` fillers of the inserted tokens before
    it, then of those after it.
    ``single_around([("special", [101], ["[CLS]"], 0), ("A", 0)])[1:4] == ((101,), ("[CLS]",), (0,))``."""
    kinds = [p[0] for p in parts]
    if kinds.count("A") != 1:
        return None
    at = kinds.index("A")
    return (parts[at][1], *_inserted(parts[:at]), *_inserted(parts[at + 1:]))


def _around(enc: Encoding, around: tuple, masks: bool = True) -> Encoding:
    """``build_single`` for a template with the sequence once (``around``: ``single_around``'s):
    each of the sequence's lists (``enc`` is the result; nobody else holds it after
    post-processing) is rebuilt once with the inserted tokens around it, and its type and
    sequence ids are made anew, as ``build_single`` makes them. Without ``masks`` the masks and
    type ids stay as they are (``build_single``)."""
    n = len(enc.ids)
    type_id, ids, tokens, types, nones, ones, ids_after, tokens_after, types_after, nones_after, ones_after = around
    if not ids:  # inserted tokens after the sequence only (or none): its lists grow in place
        if ids_after:
            enc.ids += ids_after
            enc.tokens += tokens_after
            enc.spans += nones_after
            enc.word_ids += nones_after
            if masks:
                enc.special += ones_after
                enc.attention += ones_after
        if masks:
            enc.type_ids = [*repeat(type_id, n), *types_after]
        enc.sequence_ids = [*repeat(0, n), *nones_after]
        enc.__dict__["hf_ranges"] = {0: (0, n)}
        return enc
    enc.ids = [*ids, *enc.ids, *ids_after]
    enc.tokens = [*tokens, *enc.tokens, *tokens_after]
    enc.spans = [*nones, *enc.spans, *nones_after]
    enc.word_ids = [*nones, *enc.word_ids, *nones_after]
    if masks:
        enc.special = [*ones, *enc.special, *ones_after]
        enc.attention = [*ones, *enc.attention, *ones_after]
        enc.type_ids = [*types, *repeat(type_id, n), *types_after]
    enc.sequence_ids = [*nones, *repeat(0, n), *nones_after]
    enc.__dict__["hf_ranges"] = {0: (len(ids), len(ids) + n)}
    return enc


def _inserted(parts: list[tuple]) -> tuple[tuple, tuple, tuple, tuple, tuple]:
    """(ids, tokens, type ids, ``None`` and ``1`` fillers) of consecutive inserted parts.
    ``_inserted([("special", [101], ["[CLS]"], 0)]) == ((101,), ("[CLS]",), (0,), (None,), (1,))``."""
    ids, tokens, types = [], [], []
    for _, part_ids, part_tokens, type_id in parts:
        ids += part_ids
        tokens += part_tokens
        types += [type_id] * len(part_ids)
    k = len(ids)
    return tuple(ids), tuple(tokens), tuple(types), (None,) * k, (1,) * k


def special_encoding(ids: list[int], tokens: list[str], type_id: int) -> Encoding:
    """Inserted tokens: span ``None``, special mask 1, no word, no sequence range."""
    n = len(ids)
    return Encoding(list(ids), list(tokens), [None] * n, [1] * n, [type_id] * n, [None] * n, [None] * n, [1] * n)


def wrap(enc: Encoding, before: list[tuple[int, str]], after: list[tuple[int, str]], type_ids: list[int], sid: int) -> Encoding:
    """``before + enc + after`` as HF's Bert and Roberta processors build it.

    The sequence's tokens keep their special mask (HF resets it to 0, but the offsets contract
    marks special tokens matched in the text) and get attention 1; the result's only range is
    ``sid`` over the sequence's tokens; its windows are not carried over.
    """
    n, k = len(enc), len(before)
    out = Encoding(
        ids=[i for i, _ in before] + enc.ids + [i for i, _ in after],
        tokens=[t for _, t in before] + enc.tokens + [t for _, t in after],
        spans=[None] * k + enc.spans + [None] * len(after),
        special=[1] * k + enc.special + [1] * len(after),
        type_ids=list(type_ids),
        word_ids=[None] * k + enc.word_ids + [None] * len(after),
        sequence_ids=[None] * k + enc.sequence_ids + [None] * len(after),
        attention=[1] * (n + k + len(after)),
    )
    set_ranges(out, {sid: (k, k + n)})
    return out


def trim_offsets(enc: Encoding, add_prefix_space: bool) -> None:
    """HF's ``process_offsets``: move each span past its token's leading and trailing spaces.

    ``Ġ`` counts as one space byte, another whitespace character as its UTF-8 length. A first
    token (index 0, or starting at byte 0) keeps a single leading space when
    ``add_prefix_space``, since that space was added. Spans are bytes counted from
    ``enc.spans_base`` (0, or the lane's 1); ``None`` stays.
    Token ``"Ġhi"`` at ``(3, 6)`` becomes ``(4, 6)``.
    """
    trim_spans(enc.spans, enc.tokens, enc.spans_base, add_prefix_space)


def trim_spans(spans, tokens: list, base: int, add_prefix_space: bool) -> None:
    """``trim_offsets`` on the spans (changed in place) and tokens of an encoding whose spans count
    from ``base``. ``s = [(3, 6)]; trim_spans(s, ["Ġhi"], 0, False)`` leaves ``s == [(4, 6)]``."""
    # Most tokens neither start nor end with a space: find the others with one C-level pass
    # over a cache of each token's runs (``False`` for "nothing to trim"). A token not cached yet
    # raises KeyError, so a line of cached tokens needs no ``None in runs`` pass (each False or
    # runs tuple compared with None by the rich compare fallbacks: ~10% of the trim).
    try:
        runs = list(map(_RUNS.__getitem__, tokens))
    except KeyError:
        runs = list(map(_RUNS.get, tokens))
        for i, r in enumerate(runs):
            if r is None:
                runs[i] = _runs_of(tokens[i])
    for i in compress(range(len(runs)), runs):
        span = spans[i]
        if span is None:
            continue
        r = runs[i]
        start, stop = span
        if r is _LEAD_ONE and i and start != base:
            # The byte-level common case ("Ġword" inside the text): one space byte off the start.
            spans[i] = (start + 1 if start + 1 < stop else stop, stop)
            continue
        lead, trail = r
        if lead is not None:
            count, size = lead
            if (i == 0 or start == base) and add_prefix_space and count == 1:
                size = 0  # the prefix space was added by the pre-tokenizer: keep it
            start = start + size if start + size < stop else stop
        if trail is not None and stop >= trail[1]:
            stop = stop - trail[1] if stop - trail[1] > start else start
        spans[i] = (start, stop)


class ByteLevelTrim:
    """``trim_offsets`` for byte-level tokens as amounts each token's start moves: the bytes of its
    leading spaces, which its text alone decides (``Ġ`` is one byte; the span of a token with text
    after its spaces is at least that wide, so no move is clamped). A lone ``Ġ`` moves by its one
    byte too: its span is that byte, and the rule's trailing trim then leaves it empty at its end.
    A token with trailing spaces, other spaces only or a wider space character leaves the encoding
    to ``trim_offsets``, token by token; so does a first lone ``Ġ`` whose space was inserted (no
    byte) or is kept (``add_prefix_space``).
    The fast lane of a byte-level model moves the starts as it makes the spans (no second tuple per
    token). ``ByteLevelTrim(False).leads(["Hi", "Ġthere"]) == [0, 1]``."""

    def __init__(self, add_prefix_space: bool):
        self.add_prefix_space = add_prefix_space
        self._leads: dict[str, int | None] = {}  # token -> bytes its start moves (None: the rule)

    def leads(self, tokens: list, prefixed: bool = False) -> list | bool | None:
        """The move of each token's start, ``False`` when none moves, or ``None`` when a token needs
        ``trim_offsets``' rule. With ``add_prefix_space`` the first token keeps its one space;
        ``prefixed``: the first token's leading space was inserted by the pre-tokenizer (no byte)."""
        try:
            leads = list(map(self._leads.__getitem__, tokens))
        except KeyError:  # tokens met for the first time: only those take the Python step
            leads = list(map(self._leads.get, tokens, repeat(_UNSEEN)))
            for i in compress(range(len(leads)), map(is_, leads, repeat(_UNSEEN))):
                leads[i] = self._lead_of(tokens[i])
        try:
            moved = sum(leads)  # a token for the rule (None) raises: cheaper than comparing each with None
        except TypeError:
            return None
        if moved and tokens[0] == _SPACE_BYTE_CHAR and (prefixed or self.add_prefix_space):
            return None  # a first lone space without its byte, or one the rule keeps: the rule decides
        if self.add_prefix_space and leads and leads[0] == 1:
            leads[0] = 0  # the first token keeps the one space the pre-tokenizer added
            moved -= 1
        return leads if moved else False

    def _lead_of(self, token: str) -> int | None:
        """The bytes ``token``'s start moves, kept (``None``: ``trim_offsets``' rule decides).
        ``ByteLevelTrim(False)._lead_of("Ġthe") == 1``."""
        runs = _RUNS.get(token)
        if runs is None:
            runs = _runs_of(token)
        if runs is False:
            lead = 0
        elif token == _SPACE_BYTE_CHAR:
            # Its one-byte span: the start moves to the stop, where the trailing trim leaves the
            # stop (not before the start). Non-Latin words start with it (GPT-2 merges no "Ġ" with
            # their first byte): without this, most such lines took the rule token by token.
            lead = 1
        else:
            first, trail = runs
            lead = first[1] if trail is None and first[0] == first[1] else None
        if len(self._leads) < 1_000_000:
            self._leads[token] = lead
        return lead


_UNSEEN = object()  # ByteLevelTrim: a token whose move is not known yet
_LEAD_ONE = ((1, 1), None)  # runs of a token with one leading one-byte space and no trailing one
_RUNS: dict[str, object] = {}  # token -> (lead, trail) runs, or False when it has neither


def _runs_of(token: str):
    """``(lead, trail)`` space runs of ``token`` (``False`` when both are ``None``), cached."""
    lead, trail = _space_run(token), _space_run(reversed(token))
    out = False if lead is None and trail is None else (lead, trail)
    if out == _LEAD_ONE:
        out = _LEAD_ONE  # one shared object, so trim_offsets can tell it by identity
    if len(_RUNS) < 1_000_000:
        _RUNS[token] = out
    return out


def _space_run(chars) -> tuple[int, int] | None:
    """(count, bytes) of the whitespace run that starts ``chars``, or ``None``."""
    count = size = 0
    for ch in chars:
        if ch == _SPACE_BYTE_CHAR:
            size += 1
        elif ch in _WHITESPACE:
            size += len(ch.encode("utf-8"))
        else:
            break
        count += 1
    return (count, size) if count else None


def trim_all(encodings: list[Encoding], add_prefix_space: bool) -> None:
    """``trim_offsets`` on each encoding and each of its windows (each window on its own)."""
    for enc in encodings:
        trim_offsets(enc, add_prefix_space)
        for o in enc.overflowing:
            trim_offsets(o, add_prefix_space)
