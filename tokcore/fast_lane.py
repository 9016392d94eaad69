"""The single-text fast lane of ``encode_result``: token ids now, every other list on first read.

Most calls encode one plain text: no pair, nothing to truncate or pad, no added token inside,
a normalizer that leaves every character where it was (ASCII text lower-cased, cleaned by
BERT's rules, through a Unicode form; a ``Replace`` that finds nothing), a pre-tokenizer and
model with a word plan (``tokcore.fast_encode``) and a post-processor that only puts special
tokens around the sequence and may trim byte-level spans. For such a call the ids are the
cached ids of the text's words between the template's special ids: one regex pass and one
dict lookup per word. The lane computes those at once and keeps the words' cached entries; the
result fills tokens, offsets, masks and word ids on first read by running the usual steps on
those entries (``emit_words``, then the post-processor on a private copy), as HF tokenizers
builds its Python lists on first access. The values are the general path's by construction,
and ``tests/test_fast_lane.py`` compares the two on random text.

Left out: pairs, windows, padding, added tokens in the text, texts whose normalization moves
characters, dropout; those take the general path in ``tokcore.tokenizer``.
"""

from __future__ import annotations

import copy
import unicodedata
from itertools import chain

from . import components
from . import normalizers as n
from .encoding import EncodeResult, Encoding
from .encoding_merge import trim_offsets
from .errors import check_text
from .fast_encode import document_entries, emit_words, word_plan
from .normalized import NormalizedString
from .offsets import SENTINEL
from .original_offsets import OriginalMapper

_IDS_OF = __import__("operator").itemgetter(0)


# -- normalization that moves nothing ----------------------------------------------------------


def same_place_view(normalizer, text: str) -> str | None:
    """The normalized ``text`` when normalization keeps every character in place, and changes
    only ASCII characters into ASCII ones (an identity alignment, byte for byte), else ``None``
    (the general path decides).

    ``same_place_view(Lowercase(), "Hi") == "hi"``; ``same_place_view(Strip(), " a") is None``.
    """
    if normalizer is None:
        return text
    if text.isascii():
        return _ascii_view(normalizer, text)
    return _unicode_view(normalizer, text, frozenset(_NON_ASCII.findall(text)))


_NON_ASCII = __import__("regex").compile(r"[^\x00-\x7f]")


def _ascii_view(normalizer, text: str) -> str | None:
    t = type(normalizer)
    if t is n.Sequence:
        for child in normalizer.normalizers:
            text = _ascii_view(child, text)
            if text is None:
                return None
        return text
    if t in (n.NFC, n.NFD, n.NFKC, n.NFKD, n.StripAccents):
        return text  # ASCII is fixed by every Unicode form and has no combining mark
    if t is n.Lowercase:
        return text.lower()
    if t is n.Replace:
        return text if normalizer._rx.search(text) is None else None
    if t is n.BertNormalizer:
        if normalizer.clean_text:
            text = text.translate(n._SPACE_TABLE)
            if not text.isprintable():
                return None  # a control character to drop: positions move
        # Chinese characters and accents are not ASCII.
        return text.lower() if normalizer.lowercase else text
    return None


def _unicode_view(normalizer, text: str, others: frozenset) -> str | None:
    """``_ascii_view`` for text with the non-ASCII characters ``others``, each of which must come
    through unchanged (ASCII ones may change, into ASCII)."""
    t = type(normalizer)
    if t is n.Sequence:
        for child in normalizer.normalizers:
            text = _unicode_view(child, text, others)
            if text is None:
                return None
        return text
    if t in (n.NFC, n.NFD, n.NFKC, n.NFKD):
        # What the normalizer itself asks before doing anything (tokcore.unicode_norm).
        return text if unicodedata.is_normalized(t.form, text) else None
    if t is n.StripAccents:
        return None if any(map(n.is_mark, others)) else text
    if t is n.Lowercase:
        return text.lower() if all(c.lower() == c for c in others) else None
    if t is n.Replace:
        return text if normalizer._rx.search(text) is None else None
    if t is n.BertNormalizer:
        lower = normalizer.lowercase
        strip = lower if normalizer.strip_accents is None else normalizer.strip_accents
        for c in others:
            if normalizer.clean_text and (c in n._SPACE_TABLE_CHARS or not c.isprintable() or c == "\ufffd"):
                return None  # a wider space becomes " ", a control is dropped
            if normalizer.handle_chinese_chars and n._CJK.match(c):
                return None  # spaces go around it
            if (strip and n.is_nonspacing_mark(c)) or (lower and c.lower() != c):
                return None
        if strip and not unicodedata.is_normalized("NFD", text):
            return None
        if normalizer.clean_text:
            text = text.translate(n._SPACE_TABLE)
            if not text.isprintable():
                return None
        return text.lower() if lower else text
    return None


def deleting_view(normalizer, text: str) -> str | None:
    """BertNormalizer's text when it only drops controls, turns white space into ``" "`` and
    changes ASCII characters (every other character comes through), else ``None``. Positions
    move, so the caller needs the normalizer's alignment too, but not to find the tokens.

    ``deleting_view(BertNormalizer(), "\ufeffHi\u3000") == "hi "``.
    """
    if type(normalizer) is not n.BertNormalizer or not normalizer.clean_text:
        return None
    lower = normalizer.lowercase
    strip = lower if normalizer.strip_accents is None else normalizer.strip_accents
    table: dict[int, str | None] = {}
    for c in frozenset(_NOT_PRINTABLE_ASCII.findall(text)):
        if c in n._SPACE_TABLE_CHARS:
            table[ord(c)] = " "
        elif n.is_bert_control(c):
            table[ord(c)] = None
        elif c.isascii():
            return None
        elif ((normalizer.handle_chinese_chars and n._CJK.match(c)) or (strip and n.is_nonspacing_mark(c))
              or (lower and c.lower() != c)):
            return None
    view = text.translate(table)
    if strip and not unicodedata.is_normalized("NFD", view):
        return None
    return view.lower() if lower else view


_NOT_PRINTABLE_ASCII = __import__("regex").compile(r"[^\x20-\x7e]")


def sentencepiece_view(normalizer, text: str) -> str | None:
    """sentencepiece's normalized line (a ``.model``'s charsmap then its whitespace rules, default
    options) when the charsmap leaves the line alone and its spaces are single inner ones: the
    dummy ``"▁"`` then the line with spaces escaped, else ``None``. The ``"▁"`` is inserted, so
    positions move and the alignment is the normalizer's business.

    ``sentencepiece_view(<botchan .model normalizer>, "Hi there") == "▁Hi▁there"``.
    """
    if type(normalizer) is not n.Sequence or len(normalizer.normalizers) != 2:
        return None
    charsmap, ws = normalizer.normalizers
    if type(charsmap) is not n.Precompiled or type(ws).__name__ != "SentencePieceWhitespace":
        return None
    if not (ws.add_dummy_prefix and ws.remove_extra_whitespaces and ws.escape_whitespaces
            and not ws.treat_whitespace_as_suffix):
        return None
    # Precompiled leaves ASCII text alone unless a rule's source is all ASCII.
    if not text.isascii() or (charsmap._units and charsmap._ascii_rules):
        return None
    if not text or text[0] == " " or text[-1] == " " or "  " in text:
        return None
    return "\u2581" + text.replace(" ", "\u2581")


def deferred_view(normalizer, text: str) -> str | None:
    """The normalized text from ``deleting_view`` or ``sentencepiece_view``, whichever fits the normalizer."""
    if type(normalizer) is n.BertNormalizer:
        return deleting_view(normalizer, text)
    return sentencepiece_view(normalizer, text)


# -- the lane ------------------------------------------------------------------------------------


class Lane:
    """What one tokenizer's fast lane needs, built once per configuration (see ``lane_for``)."""

    __slots__ = ("deferred", "normalizer", "parts", "plan", "same_place", "scans", "trim", "with_specials",
                 "without_specials")

    def __init__(self, tok, plan, parts: dict, trim):
        self.normalizer = tok.normalizer
        # A private copy for the alignments a result builds on first read (deleting_view).
        # Whether same_place_view can ever give a view (a normalizer it knows from end to end).
        self.same_place = tok.normalizer is None or _ascii_view(tok.normalizer, "a") is not None
        self.deferred = None
        if tok.normalizer is not None and deferred_view(tok.normalizer, "a b") is not None:
            self.deferred = copy.deepcopy(tok.normalizer)
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

    def encode(self, tok, text: str, return_offsets: bool, return_masks: bool, add_special_tokens: bool,
               assume_normalized: bool, split_special_tokens: bool) -> EncodeResult | None:
        """The result for ``text``, or ``None`` when the lane does not apply to it."""
        if not text.isascii():
            check_text(text)  # ASCII is always valid
        normalizer = self.normalizer
        if assume_normalized or normalizer is None:
            view = text
        elif not self.same_place:
            view = None
        else:
            view = _ascii_view(normalizer, text) if text.isascii() else same_place_view(normalizer, text)
        moved = None
        if view is None and self.deferred is not None:
            view = deferred_view(normalizer, text)
            if view is not None:
                # Its alignment is the normalizer's business, on first read (a private copy).
                moved = _Deferred(self.deferred, text)
        if moved is None and view is None:
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
        found = document_entries(self.plan, view)
        if found is None:
            return None
        before, after = self.with_specials if add_special_tokens else self.without_specials
        ids = list(before)
        ids.extend(chain.from_iterable(map(_IDS_OF, found[0])))
        if after:
            ids.extend(after)
        source = _Rest(self, found, view, moved, add_special_tokens, return_offsets, return_masks)
        return EncodeResult._lazy(source, {"ids": ids, "overflowing": [], "tokenization_text": view,
                                           "tokenization_text_pair": None, "raw_text": text, "raw_text_pair": None})


class _Deferred:
    """A normalization whose view is known and whose alignment is built when first needed."""

    __slots__ = ("normalizer", "text")

    def __init__(self, normalizer, text):
        self.normalizer, self.text = normalizer, text

    def normalized_string(self):
        return self.normalizer.normalize(NormalizedString(self.text))


class _Rest:
    """The lists of a lane result other than ids, made on first read."""

    __slots__ = ("add", "found", "lane", "masks", "moved", "offsets", "view")

    def __init__(self, lane, found, view, moved, add, offsets, masks):
        self.lane, self.found, self.view, self.moved = lane, found, view, moved
        self.add, self.offsets, self.masks = add, offsets, masks

    def fields(self) -> dict:
        # What the post-processor's one-sequence path (trim_offsets, then build_single) and
        # Tokenizer._result make of the words, assembled directly (tests/test_fast_lane.py).
        ids: list = []
        values: list = []
        spans: list = []
        words: list = []
        view, lane, need = self.view, self.lane, self.offsets
        moved = self.moved
        if type(moved) is _Deferred:
            moved = moved.normalized_string()
        mapper = None if moved is None or not need else OriginalMapper(moved)
        # With nothing to trim or map, spans come out 1-based (contract offsets) at no cost.
        direct = need and lane.trim is None and (mapper is None or mapper.identity)
        emit_words(self.found, view, 1 if direct else 0, None, 0, view.isascii(), ids, values, spans, words, 0, need)
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
            if mapper is None or mapper.identity:
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
        }


def lane_for(tok) -> Lane | None:
    """The tokenizer's lane (``None``: no lane for this pipeline). ``Tokenizer`` drops it when a
    stage is replaced; it is rebuilt when an option of any stage changes (``components.GENERATION``)."""
    held = tok.__dict__.get("_lane")
    if held is not None and held[0] == components.GENERATION[0]:
        return held[1]
    lane = _build(tok)
    tok.__dict__["_lane"] = (components.GENERATION[0], lane)
    return lane


def _build(tok) -> Lane | None:
    from . import post_processors as pp

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
