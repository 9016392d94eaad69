"""``build_result``: a finished ``Encoding`` and its alignments as the frozen ``EncodeResult``.

Spans become contract offsets in the tokenization text (1-based, ``(0, 0)`` for inserted tokens)
and, through each sequence's mapper (``OriginalMapper``), in the raw input; overflowing windows
become results of their own, sharing the mappers. Every result is made here, by
``EncodeResult._from_state`` over ``result_state``; the single-text lane (``tokcore.fast.lane``)
calls ``result_state`` on first read of a lazy result's lists.

Left out: how the ``Encoding`` is made (``tokcore.core.tokenizer``).
"""

from __future__ import annotations

from . import spans as _spans
from .encoding import EncodeResult, contract_offsets
from .normalized import NormalizedString
from .offsets import SENTINEL
from .optional_ints import WordIds, word_ids_of_list
from .original_offsets import OriginalMapper
from .spans import SpanColumn, Spans, settled

_IDENTITY = OriginalMapper(NormalizedString(""))  # see _mapper


def build_result(enc, ns_a, ns_b, raw_a, raw_b, *, fast: bool, return_offsets: bool, return_masks: bool,
                 mappers=None, own: bool = False) -> EncodeResult:
    """The result of ``enc`` (sequences normalized as ``ns_a``/``ns_b`` from ``raw_a``/``raw_b``).

    ``fast`` allows the identity and whole-list mapping shortcuts (``Tokenizer.fast``); ``own``
    says nobody else holds ``enc``, so its lists are handed over instead of copied; ``mappers``
    (for sequence 0 and 1) map spans to the raw inputs, ``OriginalMapper`` of ``ns_a``/``ns_b``
    when not given.
    """
    return EncodeResult._from_state(result_state(enc, ns_a, ns_b, raw_a, raw_b, fast=fast, return_offsets=return_offsets,
                                                 return_masks=return_masks, mappers=mappers, own=own))


def result_state(enc, ns_a, ns_b, raw_a, raw_b, *, fast: bool, return_offsets: bool, return_masks: bool,
                 mappers=None, own: bool = False, one_text: bool = False) -> dict:
    """The fields of ``build_result``'s result, as a dict (every field of ``EncodeResult``).
    ``one_text``: the caller knows ``enc`` holds one text's tokens (no sequence id 1), as the lane does."""
    offsets = original = later = None
    if return_offsets:
        spans = enc.spans
        if mappers is None:  # built once, shared by the overflowing windows
            mappers = (_mapper(ns_a, fast), _mapper(ns_b, fast) if ns_b is not None else None)
        map_a, map_b = mappers
        base = enc.spans_base
        # One text's tokens only (read once: each ``in`` pass compares every sequence id).
        one_text = one_text or (map_b is None and 1 not in enc.sequence_ids)
        if base and not (fast and map_a.identity and one_text and type(spans) is list):
            # Spans counted from 1 that a mapper or a column must take: back to 0 first (the
            # lane counts from 1 only where they are the offsets as they are).
            spans, base = [None if s is None else (s[0] - base, s[1] - base) for s in spans], 0
        # Built straight from the encoding's spans: no list of tuples on the way (a long text's
        # column is taken over as it is when nobody else holds the encoding).
        identity = fast and map_a.identity and (map_b.identity if map_b is not None else one_text)
        if type(spans) is list and len(spans) <= _spans.COMPACT_FROM:
            if identity or base:
                # The common case first, inline: a plain list of tuples (counted from 1 already,
                # the lane's, or from 0).
                offsets = contract_offsets(spans, base)
            else:
                # Mapped offsets are what most callers read (HF's offsets are those): the
                # tokenization text's are made on their own first read (EncodeResult.__getattr__),
                # saving a tuple per token for the collector until then.
                later = (spans if own else list(spans), base)
        elif own and type(spans) is SpanColumn:
            offsets = settled(spans.freeze())
        else:
            offsets = settled(Spans.from_encoding(spans))
        if identity:
            # Identity alignment: the same spans; one object when immutable, else a copy.
            original = list(offsets) if type(offsets) is list else offsets
        elif fast and one_text:
            original = _as_result(map_a.map_all(spans))
        else:
            by_seq = {0: map_a, 1: map_b}
            mapped = []
            for span, seq in zip(spans, enc.sequence_ids):
                mapper = by_seq.get(seq if seq is not None else 0)
                mapped.append(SENTINEL if span is None or mapper is None else mapper.map(span))
            original = _as_result(mapped)
    overflowing = [
        build_result(o, ns_a, ns_b, raw_a, raw_b, fast=fast, return_offsets=return_offsets,
                     return_masks=return_masks, mappers=mappers)
        for o in enc.overflowing
    ] if enc.overflowing else []
    words = enc.word_ids
    if type(words) is list:
        wids = (words if own else list(words)) if len(words) <= _spans.COMPACT_FROM else word_ids_of_list(words if own else list(words))
    else:  # a long text's column
        wids = settled(words.freeze() if own else WordIds.from_encoding(words))
    if return_masks:
        # A long text's lane encoding holds these as columns: the result's are lists.
        special, attention, type_ids = _list(enc.special, own), _list(enc.attention, own), _list(enc.type_ids, own)
    else:
        special = attention = type_ids = None
    state = {
        # Nobody else holds enc when own: its lists are handed over.
        "ids": enc.ids if own else list(enc.ids),
        "tokens": enc.tokens if own else list(enc.tokens),
        "offsets": offsets,
        "original_offsets": original,
        "special_tokens_mask": special,
        "attention_mask": attention,
        "token_type_ids": type_ids,
        "word_ids": wids,
        "sequence_ids": enc.sequence_ids if own else list(enc.sequence_ids),
        "overflowing": overflowing,
        "tokenization_text": ns_a.normalized,
        "tokenization_text_pair": None if ns_b is None else ns_b.normalized,
        "raw_text": raw_a,
        "raw_text_pair": raw_b,
    }
    if later is not None:
        del state["offsets"]
        state["_offsets"] = later
    return state



def _mapper(ns, fast: bool) -> OriginalMapper:
    """``OriginalMapper(ns, fast=fast)``, one shared object for a text without an alignment: an
    identity mapper reads nothing of its text, and most results' texts are so.
    ``_mapper(NormalizedString("ab"), True).identity`` is ``True``."""
    return _IDENTITY if ns.is_identity else OriginalMapper(ns, fast=fast)


def _list(items, own: bool) -> list:
    """``items`` as the result's list: itself when owned, else a copy. ``_list((1, 0), True) == [1, 0]``."""
    return items if own and type(items) is list else list(items)


def _as_result(mapped):
    """A mapper's answer (a list of contract spans, or already ``Spans``) as a result holds it
    (``tokcore.core.spans.settled``). ``_as_result([(1, 2)]) == [(1, 2)]``."""
    if type(mapped) is list:
        return mapped if len(mapped) <= _spans.COMPACT_FROM else Spans._of_list(mapped)
    return settled(mapped)

