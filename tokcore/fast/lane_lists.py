"""The lists of a fast-lane result, made on first read by the encode core's own steps.

``tokcore.fast.lane`` finds a text's words and their cached ids at once and hands the result a
``LaneLists``: the ids come from the words' ids alone; every other list (tokens, offsets, word
ids, masks) comes together, when one is first read, from ``emit_words`` into an ``Encoding``, the
post-processor (``build_single`` or ``post_process``) and ``result_state``, as the core makes them.
Where the tokens' texts are the view end to end the original offsets are mapped from the ids
(``ShiftMapper.map_ids``) and the view's own spans wait for their first read (``_view_offsets``).

Left out: deciding whether the lane applies and finding the words (``tokcore.fast.lane``).
"""

from __future__ import annotations

from array import array
from functools import partial
from itertools import chain, repeat
from operator import itemgetter

from ..core.encoding import Encoding
from ..core.normalized import NormalizedString
from ..core.offsets import SENTINEL
from ..core.optional_ints import WordColumn
from ..core.result_build import result_state
from ..core.spans import SpanColumn
from ..processors.merge import build_single, trim_offsets
from ..processors.standard import post_process
from .encode import _NBYTES, document_entries, emit_words, spaced_entries, word_ids_of
from .views import PlainLineMapper, escape

_IDS_OF = itemgetter(0)
_NO_MAPPER = (lambda raw: None)  # noqa: E731 - a deferred view without an arithmetic mapper

# Past this many characters a result's spans and word ids are built as columns (see ``fields``).
_COLUMN_CHARS = 1 << 15
_EMIT_WORDS = 1 << 16  # words per emit_words call in a long text (see _emit)
_TAKEN = object()  # LaneLists.found once fields has emitted the words (the ids are set by then)
DEFERRED = object()  # LaneLists.moved: the lane's private normalizer aligns the raw text on first read
PLAIN = object()  # LaneLists.moved: a .model's plain line, whose alignment is arithmetic (PlainLineMapper)


class LaneLists:
    """The lists of a lane result other than ids, made on first read from the result's texts:
    the words' entries (``found``, or ``None``: found again), the normalization (``moved``:
    ``None``, ``DEFERRED``, ``PLAIN`` or the alignment) and the options. They are made by the
    core's own steps after the model: the words' tokens as an ``Encoding``, the post-processor
    (``post_process``, as ``Tokenizer._post_process``), then ``result_state``."""

    __slots__ = ("add", "found", "lane", "masks", "moved", "offsets")

    def __init__(self, lane, found, moved, add, offsets, masks):
        self.lane, self.found, self.moved = lane, found, moved
        self.add, self.offsets, self.masks = add, offsets, masks

    def ids(self, result: dict) -> list:
        """The result's ids: the template's special ids around the words' ids."""
        before, after = self.lane.with_specials if self.add else self.lane.without_specials
        found = self.found
        if found is _TAKEN:  # fields has begun, after the ids were set
            if "ids" in result:
                return result["ids"]
            found = document_entries(self.lane.plan, result["tokenization_text"])
        if found is not None:
            flat = chain.from_iterable(map(_IDS_OF, found[0]))
        else:
            words = result.get("_words")
            if words is None:  # another thread has filled every list meanwhile
                return result["ids"]
            flat = chain.from_iterable(map(_IDS_OF, words))
        return list(chain(before, flat, after))

    def view(self, result: dict) -> str:
        """The tokenization text of a plain line's result (``_plain_line`` leaves it out)."""
        return escape(result["raw_text"])

    def fields(self, result: dict) -> dict:
        view = result.get("tokenization_text")
        if view is None:
            view = self.view(result)
        lane, need, raw = self.lane, self.offsets, result["raw_text"]
        found = self.found
        if found is None:  # the words' entries, found by str.split when the text was encoded
            words = result.get("_words")
            if words is None:  # another thread has emitted them meanwhile: found again
                words = spaced_entries(lane.plan, view, 0)
            found = (words, None, None, False)
        elif found is _TAKEN:  # another thread is reading this result's lists: find them again
            found = document_entries(lane.plan, view)
        else:
            self.found = _TAKEN  # this result's own: let the words' entries go once emitted
        long = len(view) > _COLUMN_CHARS
        # Characters in place and a short text: the offsets in the view are the original ones and
        # the spans themselves, so they are emitted counted from 1, the contract's base, and
        # result_state takes them as they are (Encoding.spans_base).
        base = 1 if self.moved is None and need and not long else 0
        # A long text's spans and word ids go straight into compact form: no tuple per token, no
        # int per word on the way (tokcore.core.spans, tokcore.core.optional_ints).
        # A short text's word ids wait for their own first read (most callers read ids, tokens and
        # offsets only): the encoding carries Nones in their place, filled from the entries then.
        # A plain line's mapper reads them, so it has them now.
        lazy_words = not long and self.moved is not PLAIN
        tokens, spans = [], SpanColumn() if long and need else []
        words = WordColumn() if long else None if lazy_words else []
        # The result has its ids (EncodeResult reads them first, from the words' ids: ``LaneLists.ids``):
        # they are not emitted again, and the encoding carries placeholders instead (the processors
        # copy ids, never read them).
        ids = result.get("ids")
        if ids is None:
            ids = result.setdefault("ids", self.ids(result))
        # The original offsets straight from the ids where the tokens' texts are the view end to end
        # (Llama's Prepend + Replace, a sentencepiece line): the view's own spans wait for their
        # first read (_view_offsets), most callers reading the original offsets only.
        mapper = mapped = None
        by_ids = need and not long and self.moved is DEFERRED and lane.raw_lengths is not None and lane.trim is None
        if by_ids:
            mapper = lane.deferred_view.mapper(raw, ids, lane.raw_lengths)
            if mapper is not None:
                before, after = lane.with_specials if self.add else lane.without_specials
                mapped = mapper.map_ids(len(before), len(ids) - len(after))
        # A byte-level model's spans are made trimmed (ByteLevelTrim), but a long text's.
        trim = lane.byte_trim if need and not long else None
        if long and found[1] is None and found[2] is None and len(found[0]) > _EMIT_WORDS:
            _emit_slices(found, tokens, spans, words, need, lane.plan.one_word)
        else:
            emit_words(found, view, base, None, 0, view.isascii(), None, tokens, spans, words, 0,
                       need and mapped is None, lane.plan.one_word, trim)
        ents = found[0]
        later = None if mapped is None else partial(_view_offsets, found, view, lane.plan.one_word)
        del found
        n = len(tokens)
        if lazy_words:
            words = [None] * n
        if long and lane.processor is not None:
            # Columns (the processor's build_single keeps their kind; it makes sequence ids anew).
            zeros = WordColumn.filled(0, n, "b")
            enc = Encoding(array("b", bytes(n)), tokens, spans, zeros, WordColumn.filled(0, n), words, zeros,
                           WordColumn.filled(1, n, "b"))
        elif not self.masks and (lane.parts is not None or lane.processor is not None) and lane.around[self.add]:
            # Masks and type ids nobody reads: build_single leaves them out (masks=False).
            enc = Encoding([0] * n, tokens, spans, None, None, words, [0] * n, None)
        else:
            enc = Encoding(array("b", bytes(n)) if long else [0] * n, tokens, spans, [0] * n, [0] * n, words, [0] * n,
                           [1] * n)
        enc.spans_base = base
        if lane.byte_trim is not None and need and long:  # without offsets the spans are None: nothing to trim
            trim_offsets(enc, lane.trim)
        # What post_process builds (the processor's fast path), with the template's parts read at the
        # lane's start; a processor that trims offsets does so in place as it gives its parts.
        if lane.parts is not None:
            enc = build_single(enc, lane.parts[self.add], lane.around[self.add], masks=self.masks)
        elif lane.processor is not None:
            enc = build_single(enc, lane.processor._single_parts(enc, self.add), lane.around[self.add], masks=self.masks)
        else:
            enc = post_process(None, enc, None, self.add)
        moved, mappers = self.moved, None
        if moved is DEFERRED and need:
            # A view that maps its spans by arithmetic (views.PrefixReplaceText) needs no alignment.
            if mapped is not None:  # mapped from the ids above
                mapper = _Mapped(mapped)
            elif by_ids:  # the ids declined (a byte token, a raw "▁"): the view's spans, by arithmetic
                mapper = mapper and lane.deferred_view.mapper(raw)
            elif lane.raw_lengths is not None:  # the tokens map from their ids (ShiftMapper._from_ids)
                mapper = lane.deferred_view.mapper(raw, ids, lane.raw_lengths)
            else:
                mapper = getattr(lane.deferred_view, "mapper", _NO_MAPPER)(raw)
            if mapper is not None:
                ns, mappers = NormalizedString(raw, view), (mapper, None)
            else:
                ns = lane.deferred.normalize(NormalizedString(raw))
        elif moved is None or moved is DEFERRED or moved is PLAIN:
            ns = NormalizedString(raw, view)  # characters in place: offsets map to themselves
            if moved is PLAIN and need:
                mappers = (PlainLineMapper(enc.word_ids), None)
        else:
            ns = moved
        state = result_state(enc, ns, None, raw, None, fast=True, return_offsets=need, return_masks=self.masks,
                             mappers=mappers, own=True, one_text=True)
        state["ids"] = ids
        if later is not None or lazy_words:
            # The sequence's tokens (sequence id 0) stand together among the inserted ones (None):
            # the lane's template holds the sequence once. Both makers put those around the words'.
            seqs = state["sequence_ids"]
            at = seqs.index(0) if n else len(seqs)
            after = len(seqs) - at - n
            if later is not None:  # the view's offsets, made on first read
                state["_offsets"] = partial(later, at, after)
            if lazy_words:
                del state["word_ids"]
                state["_word_ids"] = partial(_word_ids, ents, lane.plan.one_word, at, after)
        return state


class _Mapped:
    """A result's original offsets made already (``ShiftMapper.map_ids``), as ``result_state``'s mapper."""

    identity = False
    __slots__ = ("mapped",)

    def __init__(self, mapped: list):
        self.mapped = mapped

    def map_all(self, spans: list) -> list:
        return self.mapped


def _view_offsets(found: tuple, view: str, one_word: bool, before: int, after: int) -> list:
    """The contract offsets in the view of a lane result whose original ones came from its ids, on
    their first read: ``before`` and ``after`` inserted tokens' sentinels around the words' spans."""
    spans: list = []
    emit_words(found, view, 1, None, 0, view.isascii(), None, [], spans, None, 0, True, one_word)
    return [*repeat(SENTINEL, before), *spans, *repeat(SENTINEL, after)]


def _word_ids(ents: list, one_word: bool, before: int, after: int) -> list:
    """A lane result's word ids: ``before`` and ``after`` inserted tokens' ``None`` around the words'.
    ``_word_ids([], False, 1, 1) == [None, None]``."""
    return [*repeat(None, before), *word_ids_of(ents, one_word), *repeat(None, after)]


def _emit_slices(found: tuple, tokens: list, spans, words, need: bool, one_word: bool) -> None:
    """``emit_words`` (without the ids: the result has them) for a long text whose words are placed
    by their byte lengths (no word strings or starts kept), a slice of words at a time, so that its
    per-token scratch lists (bases, counts) stay small. Each slice starts where the last one's bytes end."""
    ents, prefixed = found[0], found[3]
    byte = word = 0
    for at in range(0, len(ents), _EMIT_WORDS):
        part = ents[at:at + _EMIT_WORDS]
        # The text is not read when the words are placed by their byte lengths: "" stands for it.
        after = emit_words((part, None, None, prefixed), "", byte, None, 0, False, None, tokens, spans, words, word,
                           need, one_word)
        byte += sum(map(_NBYTES, part))
        if not one_word:  # one word throughout: every slice's tokens keep word 0
            word = after
