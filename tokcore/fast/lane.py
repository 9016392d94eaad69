"""The single-text fast lane of ``encode_result``: the words' tokens now, every list on first read.

Most calls encode one plain text: no pair, nothing to truncate or pad, no added token inside,
a normalizer whose text ``tokcore.fast.views`` can give without an alignment, a pre-tokenizer and
model with a word plan (``tokcore.fast.plan``) and a post-processor that only puts special
tokens around the sequence and may trim byte-level spans. For such a call the ids are the
cached ids of the text's words between the template's special ids: one regex pass (or for
Metaspace, one ``str.split``) and one dict lookup per word. The lane does that at once and keeps
what it found per word; the result builds its lists on first read, as HF tokenizers builds its
Python lists on first access: the ids alone from the words' ids, and the other lists together
by the encode core's own steps after the model (``emit_words`` into an ``Encoding``, the
post-processor, ``result_state``): the lane is a cache in front of the core, not a copy of it.
``tests/engine/test_fast_lane.py`` compares lane results with the reference path's on random text.

Left out: pairs, windows, padding, added tokens in the text, dropout; those take the core
directly (``tokcore.core.tokenizer``).
"""

from __future__ import annotations

import copy
from array import array
from functools import partial
from itertools import chain, repeat
from operator import itemgetter

from ..core.encoding import EncodeResult, Encoding
from ..core.errors import check_text
from ..core.normalized import NormalizedString
from ..core.offsets import SENTINEL
from ..core.optional_ints import WordColumn
from ..core.result_build import result_state
from ..core.spans import SpanColumn
from ..models.bpe import BPE, byte_token
from ..processors.merge import ByteLevelTrim, build_single, single_around, trim_offsets
from ..processors.standard import post_process
from .encode import (
    _NBYTES,
    CHUNK_CHARS,
    document_entries,
    emit_words,
    spaced_cached_entries,
    spaced_entries,
    word_ids_of,
    word_plan,
)
from .views import (
    PlainLineMapper,
    SentencePieceText,
    _ascii_view,
    deferred_view_for,
    escape,
    plain_line,
    same_place_view,
)

_IDS_OF = itemgetter(0)
_NO_MAPPER = (lambda raw: None)  # noqa: E731 - a deferred view without an arithmetic mapper


# -- the lane ------------------------------------------------------------------------------------


class Lane:
    """What one tokenizer's fast lane needs, built once per configuration (see ``lane_for``)."""

    __slots__ = ("around", "byte_trim", "deferred", "deferred_view", "escaped", "normalizer", "parts", "plan", "processor",
                 "raw_lengths", "same_place", "scans", "sources", "trim", "with_specials", "without_specials")

    def __init__(self, tok, plan, parts: dict, trim):
        self.normalizer = tok.normalizer
        # A private copy: results read later are post-processed as when they were encoded.
        self.processor = copy.deepcopy(tok.post_processor)
        # Whether same_place_view can ever give a view (a normalizer it knows from end to end).
        self.same_place = tok.normalizer is None or _ascii_view(tok.normalizer, "a") is not None
        # A normalizer whose text deferred_view_for knows: the view now, the alignment from a private
        # copy of it when a result's offsets are first read.
        self.deferred_view = self.deferred = None
        if tok.normalizer is not None:
            self.deferred_view = deferred_view_for(tok.normalizer)
        if self.deferred_view is not None:
            self.deferred = copy.deepcopy(tok.normalizer)
        # Token id -> raw length when the tokens' texts are the view end to end: no pre-tokenizer
        # to insert or drop text, and a model whose tokens are their own text (_covering_tokens).
        self.raw_lengths = None
        if hasattr(self.deferred_view, "raw_lengths") and _keeps_the_text(tok.pre_tokenizer):
            found = _covering_tokens(tok.model)
            if found is not None:
                self.raw_lengths = self.deferred_view.raw_lengths(*found)
        # Whether plain lines take _plain_line: sentencepiece's view split by Metaspace at its
        # "▁" gives the raw line's chunks (fast_encode.spaced_cached_entries).
        self.escaped = type(self.deferred_view) is SentencePieceText and plan.replacement == "\u2581"
        self.plan = plan
        # The template's special ids before and after the sequence (add_special_tokens True/False),
        # for results whose ids alone are read; whether it trims byte-level spans (None, or
        # add_prefix_space) decides how a plain line's offsets map back.
        self.trim = trim
        self.with_specials, self.without_specials = (_ends(parts[True]), _ends(parts[False]))
        # The processor's build_single parts when they depend on nothing of the text (no offsets
        # to trim): read once here instead of once per result.
        # A byte-level model's trimming is done in C-level passes (ByteLevelTrim) before the parts
        # are used, so they too are read once.
        self.byte_trim = None
        if trim is not None and plan.lean is not None and plan.lean[4]:
            self.byte_trim = ByteLevelTrim(trim)
        self.parts = parts if (trim is None or self.byte_trim is not None) and tok.post_processor is not None else None
        self.around = {add: single_around(p) for add, p in parts.items()}  # read from the parts once
        # The added-token searches (raw text, view) for split_special_tokens False and True;
        # a new added vocabulary replaces the tokenizer's attribute, which drops this lane.
        av = tok.added_vocabulary
        self.scans = {flag: (av._matcher(False, flag).rx, av._matcher(True, flag).rx) for flag in (False, True)}
        self.sources: dict = {}  # the shared _Rest per set of options

    def encode(self, tok, text: str, return_offsets: bool, return_masks: bool, add_special_tokens: bool,
               assume_normalized: bool, split_special_tokens: bool) -> EncodeResult | None:
        """The result for ``text`` (a ``str``), or ``None`` when the lane does not apply to it."""
        if self.escaped and not assume_normalized and plain_line(text):
            res = self._plain_line(text, return_offsets, return_masks, add_special_tokens, split_special_tokens)
            if res is not None:
                return res
        if not text.isascii():  # ASCII is valid Unicode
            check_text(text)
        moved = None
        if assume_normalized:
            view = text
        elif self.same_place:
            view = same_place_view(self.normalizer, text)
        else:
            view = None
        if view is None and self.deferred_view is not None:
            view = self.deferred_view(text)
            if view is not None:
                # Its alignment is the normalizer's business, on first read (a private copy).
                moved = _DEFERRED
        if view is None:
            # Normalization moves characters: run it (and the added-token split) as the general
            # path does; the result maps its offsets back through this alignment on first read.
            moved, segs = tok._view(text, assume_normalized=False, split_special=split_special_tokens)
            view = moved.normalized
            if len(segs) != 1 or segs[0] != (0, len(view), None):
                return None
        else:
            # Any added token in the text sends it down the general path.
            raw_rx, norm_rx = self.scans[split_special_tokens]
            if raw_rx is not None and raw_rx.search(text) is not None:
                return None
            if norm_rx is not None and norm_rx.search(view) is not None:
                return None
        if not view:
            return None
        plan = self.plan
        words = None  # the words' entries, when found by str.split
        if plan.separators is not None and len(view) <= CHUNK_CHARS:
            words = spaced_cached_entries(plan, view)
            if words is None:  # a word not cached yet, or both separators in the text
                words = spaced_entries(plan, view, 0)
        if words is not None:
            if moved is None or moved is _DEFERRED:
                # Nothing of its own to keep: one shared source per set of options (fewer objects).
                key = (moved, add_special_tokens, return_offsets, return_masks)
                source = self.sources.get(key) or self.sources.setdefault(key, _Rest(self, None, *key))
            else:
                source = _Rest(self, None, moved, add_special_tokens, return_offsets, return_masks)
            eager = {"tokenization_text": view, "raw_text": text, "_source": source, "_words": words}
        else:
            found = document_entries(plan, view)
            if found is None:
                return None
            source = _Rest(self, found, moved, add_special_tokens, return_offsets, return_masks)
            eager = {"tokenization_text": view, "raw_text": text, "_source": source}
        # Every list, ids too, is made on first read (ids alone from the words' ids); the pair
        # fields keep their class defaults (None).
        return EncodeResult._from_state(eager)

    def _plain_line(self, text: str, offsets: bool, masks: bool, add: bool, split: bool) -> EncodeResult | None:
        """``encode`` for a sentencepiece ``.model``'s most common input, a plain ASCII line
        (``fast_views.plain_line``): the words are the line's own chunks, so neither the view nor
        its alignment is made until a result's lists or text are read."""
        raw_rx, norm_rx = self.scans[split]
        if norm_rx is not None or (raw_rx is not None and raw_rx.search(text) is not None) or len(text) >= CHUNK_CHARS:
            return None  # an added token to look for in the view, or one in the text; a long text
        words = spaced_cached_entries(self.plan, text, escaped=True)
        if words is None:  # a word not cached yet: found (and cached) as encode finds it in the view
            words = spaced_entries(self.plan, escape(text), 0)
            if words is None:
                return None
        # Without trimming its spans stay 1-based from the start; plain_line_originals maps them.
        key = (_PLAIN if self.trim is None else _DEFERRED, add, offsets, masks)
        source = self.sources.get(key) or self.sources.setdefault(key, _Rest(self, None, *key))
        return EncodeResult._from_state({"raw_text": text, "_source": source, "_words": words})


# Past this many characters a result's spans and word ids are built as columns (see ``fields``).
_COLUMN_CHARS = 1 << 15
_EMIT_WORDS = 1 << 16  # words per emit_words call in a long text (see _emit)
_TAKEN = object()  # _Rest.found once fields has emitted the words (the ids are set by then)
_DEFERRED = object()  # _Rest.moved: the lane's private normalizer aligns the raw text on first read
_PLAIN = object()  # _Rest.moved: a .model's plain line, whose alignment is arithmetic (PlainLineMapper)


class _Rest:
    """The lists of a lane result other than ids, made on first read from the result's texts:
    the words' entries (``found``, or ``None``: found again), the normalization (``moved``:
    ``None``, ``_DEFERRED``, ``_PLAIN`` or the alignment) and the options. They are made by the
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
        lazy_words = not long and self.moved is not _PLAIN
        tokens, spans = [], SpanColumn() if long and need else []
        words = WordColumn() if long else None if lazy_words else []
        # The result has its ids (EncodeResult reads them first, from the words' ids: ``_Rest.ids``):
        # they are not emitted again, and the encoding carries placeholders instead (the processors
        # copy ids, never read them).
        ids = result.get("ids")
        if ids is None:
            ids = result.setdefault("ids", self.ids(result))
        # The original offsets straight from the ids where the tokens' texts are the view end to end
        # (Llama's Prepend + Replace, a sentencepiece line): the view's own spans wait for their
        # first read (_view_offsets), most callers reading the original offsets only.
        mapper = mapped = None
        by_ids = need and not long and self.moved is _DEFERRED and lane.raw_lengths is not None and lane.trim is None
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
        if moved is _DEFERRED and need:
            # A view that maps its spans by arithmetic (fast_views.PrefixReplaceText) needs no alignment.
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
        elif moved is None or moved is _DEFERRED or moved is _PLAIN:
            ns = NormalizedString(raw, view)  # characters in place: offsets map to themselves
            if moved is _PLAIN and need:
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


def lane_for(tok) -> Lane | None:
    """The tokenizer's lane (``None``: no lane for this pipeline), built on first use and kept in
    ``tok._lane``. The tokenizer drops it when a stage is replaced or an option of any of its
    stages is set (``tokcore.core.components.watch``). An in-place edit of a stage's inner list
    (``seq.normalizers.append(...)``) is not seen: set the attribute or replace the stage instead."""
    d = tok.__dict__
    if "_lane" in d:
        return d["_lane"]
    lane = _build(tok)
    d["_lane"] = lane
    return lane


def _build(tok) -> Lane | None:
    from ..processors import standard as pp

    plan = word_plan(tok)
    if plan is None:
        return None
    processor = tok.post_processor
    if processor is None:  # HF's default for one sequence: nothing added, type and sequence 0
        return Lane(tok, plan, {True: [("A", 0)], False: [("A", 0)]}, None)
    if type(processor) not in (pp.TemplateProcessing, pp.BertProcessing, pp.RobertaProcessing, pp.ByteLevel):
        return None
    parts = {}
    for add in (True, False):
        found = processor._single_parts(Encoding(), add)  # on an empty encoding: no trimming to undo
        if found is None or [p[0] for p in found].count("A") != 1:
            return None
        parts[add] = [p if p[0] == "A" else ("special", list(p[1]), list(p[2]), p[3]) for p in found]
    trim = None
    if type(processor) in (pp.ByteLevel, pp.RobertaProcessing) and processor.trim_offsets:
        trim = processor.add_prefix_space
    return Lane(tok, plan, parts, trim)


def _keeps_the_text(pre) -> bool:
    """Whether the pre-tokenizer's pieces are the text end to end: none, or one that only cuts and
    drops nothing (Gemma's Split on " ", MergedWithPrevious). ``_keeps_the_text(None) is True``."""
    from ..pre_tokenizers.split import Digits, Punctuation, Split

    return pre is None or (type(pre) in (Split, Punctuation, Digits) and pre.behavior != "Removed")


def _covering_tokens(model) -> tuple | None:
    """``(id -> token text, hidden ids)`` for a model whose tokens' texts are the text they cover
    end to end, but for the ``hidden`` ids (bytes, the unknown token): plain BPE without affixes
    and a sentencepiece ``.model``'s Unigram (its BPE has a pre-tokenizer: plain lines map by
    ``PlainLineMapper``); ``None`` for any other model."""
    from ..models.sentencepiece_unigram import SentencePieceUnigram

    kind = type(model)
    if kind is BPE and not model.continuing_subword_prefix and not model.end_of_word_suffix:
        hidden = {i for i in (model._byte_ids or ()) if i is not None}
        if model.unk_token is not None and model.unk_token in model.vocab:
            hidden.add(model.vocab[model.unk_token])
        return model._inverse.get, hidden
    if kind is SentencePieceUnigram:
        # sentencepiece names its byte pieces <0x00>..<0xFF>; without byte fallback none is a byte.
        hidden = set(map(model.token_to_id, map(byte_token, range(256)))) - {None} if model.byte_fallback else set()
        if model.unk_id is not None:
            hidden.add(model.unk_id)
        return model.id_to_token, hidden
    return None


def _ends(parts: list) -> tuple[tuple, tuple]:
    """(ids before, ids after) the sequence in ``build_single`` parts."""
    at = next(i for i, p in enumerate(parts) if p[0] == "A")
    return (tuple(chain.from_iterable(p[1] for p in parts[:at])),
            tuple(chain.from_iterable(p[1] for p in parts[at + 1:])))
