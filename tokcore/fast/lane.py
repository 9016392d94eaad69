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
post-processor, ``result_state``; ``tokcore.fast.lane_lists``): the lane is a cache in front of
the core, not a copy of it.
``tests/engine/test_fast_lane.py`` compares lane results with the reference path's on random text.

Left out: pairs, windows, padding, added tokens in the text, dropout; those take the core
directly (``tokcore.core.tokenizer``).
"""

from __future__ import annotations

import copy
from itertools import chain

from ..core.encoding import EncodeResult, Encoding
from ..core.errors import check_text
from ..models.bpe import BPE, byte_token
from ..processors.merge import ByteLevelTrim, single_around
from .encode import (
    CHUNK_CHARS,
    document_entries,
    spaced_cached_entries,
    spaced_entries,
    word_plan,
)
from .lane_lists import DEFERRED, PLAIN, LaneLists
from .views import (
    SentencePieceText,
    _ascii_view,
    deferred_view_for,
    escape,
    plain_line,
    same_place_view,
)


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
        # "▁" gives the raw line's chunks (encode.spaced_cached_entries).
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
        self.sources: dict = {}  # the shared LaneLists per set of options

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
                moved = DEFERRED
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
            if moved is None or moved is DEFERRED:
                # Nothing of its own to keep: one shared source per set of options (fewer objects).
                key = (moved, add_special_tokens, return_offsets, return_masks)
                source = self.sources.get(key) or self.sources.setdefault(key, LaneLists(self, None, *key))
            else:
                source = LaneLists(self, None, moved, add_special_tokens, return_offsets, return_masks)
            eager = {"tokenization_text": view, "raw_text": text, "_source": source, "_words": words}
        else:
            found = document_entries(plan, view)
            if found is None:
                return None
            source = LaneLists(self, found, moved, add_special_tokens, return_offsets, return_masks)
            eager = {"tokenization_text": view, "raw_text": text, "_source": source}
        # Every list, ids too, is made on first read (ids alone from the words' ids); the pair
        # fields keep their class defaults (None).
        return EncodeResult._from_state(eager)

    def _plain_line(self, text: str, offsets: bool, masks: bool, add: bool, split: bool) -> EncodeResult | None:
        """``encode`` for a sentencepiece ``.model``'s most common input, a plain ASCII line
        (``views.plain_line``): the words are the line's own chunks, so neither the view nor
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
        key = (PLAIN if self.trim is None else DEFERRED, add, offsets, masks)
        source = self.sources.get(key) or self.sources.setdefault(key, LaneLists(self, None, *key))
        return EncodeResult._from_state({"raw_text": text, "_source": source, "_words": words})


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
