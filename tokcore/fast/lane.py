"""The single-text fast lane of ``encode_result``: the words' tokens now, every list on first read.

Most calls encode one plain text: no pair, nothing to truncate or pad, no added token inside,
a normalizer whose text ``tokcore.fast_views`` can give without an alignment, a pre-tokenizer and
model with a word plan (``tokcore.fast_encode``) and a post-processor that only puts special
tokens around the sequence and may trim byte-level spans. For such a call the ids are the
cached ids of the text's words between the template's special ids: one regex pass (or for
Metaspace, one ``str.split``) and one dict lookup per word. The lane does that at once and keeps
what it found per word; the result builds its lists on first read, as HF tokenizers builds its
Python lists on first access: the ids alone from the words' ids, and the other lists together
by running the usual steps on the words' entries (``emit_words``, then the post-processor's
parts and trimming, read once per lane). ``tests/engine/test_fast_lane.py`` compares lane results
with the general path's on random text.

Left out: pairs, windows, padding, added tokens in the text, dropout; those take the general
path in ``tokcore.tokenizer``.
"""

from __future__ import annotations

import copy
from itertools import chain

from ..core.encoding import EncodeResult, Encoding
from ..core.errors import check_text
from ..core.normalized import NormalizedString
from ..core.offsets import SENTINEL
from ..core.original_offsets import OriginalMapper
from ..processors.merge import trim_offsets
from .encode import CHUNK_CHARS, document_entries, emit_words, spaced_entries, spaced_word_ids, word_plan
from .views import SentencePieceText, _ascii_view, deferred_view_for, escape, plain_line, same_place_view

_IDS_OF = __import__("operator").itemgetter(0)


# -- the lane ------------------------------------------------------------------------------------


class Lane:
    """What one tokenizer's fast lane needs, built once per configuration (see ``lane_for``)."""

    __slots__ = ("deferred", "deferred_view", "escaped", "normalizer", "parts", "plan", "same_place", "scans", "sources",
                 "trim", "with_specials", "without_specials")

    def __init__(self, tok, plan, parts: dict, trim):
        self.normalizer = tok.normalizer
        # Whether same_place_view can ever give a view (a normalizer it knows from end to end).
        self.same_place = tok.normalizer is None or _ascii_view(tok.normalizer, "a") is not None
        # A normalizer whose text deferred_view_for knows: the view now, the alignment from a private
        # copy of it when a result's offsets are first read.
        self.deferred_view = self.deferred = None
        if tok.normalizer is not None:
            self.deferred_view = deferred_view_for(tok.normalizer)
        if self.deferred_view is not None:
            self.deferred = copy.deepcopy(tok.normalizer)
        # Whether plain lines take _plain_line: sentencepiece's view split by Metaspace at its
        # "▁" gives the raw line's chunks (fast_encode.spaced_word_ids).
        self.escaped = type(self.deferred_view) is SentencePieceText and plan.replacement == "\u2581"
        self.plan = plan
        # The post-processor, read once: build_single's parts with and without special tokens
        # (add_special_tokens True/False) and the byte-level trimming (None, or add_prefix_space).
        self.parts = parts
        self.trim = trim
        self.with_specials, self.without_specials = (_ends(parts[True]), _ends(parts[False]))
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
        words = None  # the words' ids, when found by str.split
        if plan.separators is not None and len(view) <= CHUNK_CHARS:
            words = spaced_word_ids(plan, view)
            if words is None:  # a word not cached yet, or both separators in the text
                words = spaced_entries(plan, view, 0, ids=True)
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
        result = _new_result(EncodeResult)
        _set_dict(result, "__dict__", eager)  # EncodeResult._from_state, inlined: the hot path
        return result

    def _plain_line(self, text: str, offsets: bool, masks: bool, add: bool, split: bool) -> EncodeResult | None:
        """``encode`` for a sentencepiece ``.model``'s most common input, a plain ASCII line
        (``fast_views.plain_line``): the words are the line's own chunks, so neither the view nor
        its alignment is made until a result's lists or text are read."""
        raw_rx, norm_rx = self.scans[split]
        if norm_rx is not None or (raw_rx is not None and raw_rx.search(text) is not None) or len(text) >= CHUNK_CHARS:
            return None  # an added token to look for in the view, or one in the text; a long text
        words = spaced_word_ids(self.plan, text, escaped=True)
        if words is None:
            return None
        # Without trimming its spans stay 1-based from the start; plain_line_originals maps them.
        key = (_PLAIN if self.trim is None else _DEFERRED, add, offsets, masks)
        source = self.sources.get(key) or self.sources.setdefault(key, _Rest(self, None, *key))
        result = _new_result(EncodeResult)
        _set_dict(result, "__dict__", {"raw_text": text, "_source": source, "_words": words})
        return result


_new_result, _set_dict = object.__new__, object.__setattr__
_DEFERRED = object()  # _Rest.moved: the lane's private normalizer aligns the raw text on first read
_PLAIN = object()  # _Rest.moved: a .model's plain line, whose alignment is arithmetic (plain_line_originals)


def plain_line_originals(spans: list, words: list) -> list[tuple[int, int]]:
    """The raw line's contract spans of the tokens of a plain line's view (``fast_views.plain_line``),
    from their contract ``spans`` in the view and their ``words``' indexes. Word k is ``"▁"`` and
    the line's chunk k; up to its chunk, the view has 2 bytes more per earlier ``"▁"`` (3 bytes for
    1) and its own 3, so a token inside a chunk moves back ``2k + 3`` bytes. A word's first token
    starts at its ``"▁"``: the space before the chunk, or for the dummy ``"▁"``, the line's start.
    ``plain_line_originals([(1, 4), (4, 5), (5, 6), (6, 11)], [0, 0, 0, 1]) == [(1, 1), (1, 2), (2, 3), (3, 6)]``
    (``"Hi is"`` as ``"▁"``, ``"H"``, ``"i"``, ``"▁is"``).
    """
    out = []
    last = -1
    for (start, stop), k in zip(spans, words):
        back = 2 * k + 3
        if k != last:  # the word's first token, from its "▁"
            out.append((1 if k == 0 else start - back + 2, stop - back))
            last = k
        else:
            out.append((start - back, stop - back))
    return out


class _Rest:
    """The lists of a lane result other than ids, made on first read from the result's texts:
    the words' entries (``found``, or ``None``: found again), the normalization (``moved``:
    ``None``, ``_DEFERRED`` or the alignment) and the options."""

    __slots__ = ("add", "found", "lane", "masks", "moved", "offsets")

    def __init__(self, lane, found, moved, add, offsets, masks):
        self.lane, self.found, self.moved = lane, found, moved
        self.add, self.offsets, self.masks = add, offsets, masks

    def ids(self, result: dict) -> list:
        """The result's ids: the template's special ids around the words' ids."""
        before, after = self.lane.with_specials if self.add else self.lane.without_specials
        if self.found is not None:
            flat = chain.from_iterable(map(_IDS_OF, self.found[0]))
        else:
            words = result.get("_words")
            if words is None:  # another thread has filled every list meanwhile
                return result["ids"]
            flat = chain.from_iterable(words)
        return list(chain(before, flat, after))

    def view(self, result: dict) -> str:
        """The tokenization text of a plain line's result (``_plain_line`` leaves it out)."""
        return escape(result["raw_text"])

    def fields(self, result: dict) -> dict:
        # What the post-processor's one-sequence path (trim_offsets, then build_single) and
        # Tokenizer._result make of the words, assembled directly (tests/engine/test_fast_lane.py).
        ids: list = []
        values: list = []
        spans: list = []
        words: list = []
        view = result.get("tokenization_text")
        if view is None:
            view = self.view(result)
        lane, need = self.lane, self.offsets
        moved = self.moved if need else None  # the alignment only serves original offsets
        plain = moved is _PLAIN
        if plain:
            moved = None  # mapped below by plain_line_originals
        elif moved is _DEFERRED:
            moved = lane.deferred.normalize(NormalizedString(result["raw_text"]))
        mapper = None if moved is None else OriginalMapper(moved)
        found = self.found
        if found is None:  # the ids came from spaced_ids: the same words' entries
            found = (spaced_entries(lane.plan, view, 0), None, None, False)
        # With nothing to trim or map, spans come out 1-based (contract offsets) at no cost.
        direct = need and lane.trim is None and (mapper is None or mapper.identity)
        emit_words(found, view, 1 if direct else 0, None, 0, view.isascii(), ids, values, spans, words, 0, need)
        n = len(ids)
        if need and lane.trim is not None:
            trim_offsets(Encoding(ids, values, spans), lane.trim)
        if need and not direct:
            contract = [(s + 1, e + 1) for s, e in spans]
        else:
            contract = spans
        parts = lane.parts[self.add]
        if len(parts) == 1:  # the sequence alone
            tokens, offsets, word_ids, type_ids = values, contract, words, [parts[0][1]] * n
            special, seqs = [0] * n, [0] * n
        else:
            tokens, offsets, word_ids, type_ids, special, seqs = [], [], [], [], [], []
            for part in parts:
                if part[0] == "A":
                    tokens += values
                    offsets += contract
                    word_ids += words
                    type_ids += [part[1]] * n
                    special += [0] * n
                    seqs += [0] * n
                else:
                    k = len(part[1])
                    tokens += part[2]
                    offsets += [SENTINEL] * k
                    word_ids += [None] * k
                    type_ids += [part[3]] * k
                    special += [1] * k
                    seqs += [None] * k
        original = None
        if need:
            if plain:
                mapped = iter(plain_line_originals(spans, words))
                original = [SENTINEL if o is SENTINEL else next(mapped) for o in offsets]
            elif mapper is None or mapper.identity:
                original = list(offsets)  # the view has the raw text's characters in place: same spans
            else:
                mapped = iter(mapper.map_all(spans))
                original = [SENTINEL if o is SENTINEL else next(mapped) for o in offsets]
        masks = self.masks
        return {
            "tokens": tokens,
            "offsets": offsets if need else None,
            "original_offsets": original,
            "special_tokens_mask": special if masks else None,
            "attention_mask": [1] * len(tokens) if masks else None,
            "token_type_ids": type_ids if masks else None,
            "word_ids": word_ids,
            "sequence_ids": seqs,
            "overflowing": [],
            "tokenization_text": view,
        }


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


def _ends(parts: list) -> tuple[tuple, tuple]:
    """(ids before, ids after) the sequence in ``build_single`` parts."""
    at = next(i for i, p in enumerate(parts) if p[0] == "A")
    return (tuple(chain.from_iterable(p[1] for p in parts[:at])),
            tuple(chain.from_iterable(p[1] for p in parts[at + 1:])))
