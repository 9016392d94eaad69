"""Normalized text without building an alignment: the views the fast lane (``tokcore.fast.lane``) tokenizes.

Building a ``NormalizedString`` costs a list entry per character; most texts need none of it
to find their tokens. ``same_place_view`` gives the normalized text when every character stays
where it was with its UTF-8 length (the alignment is the identity, so offsets need no mapping);
``deleting_view`` (BertNormalizer dropping controls) and ``sentencepiece_view`` (a ``.model``'s
dummy prefix and escaped spaces) give it when positions move, leaving the alignment to the
normalizer itself, run only if offsets are read; ``PrefixReplaceText`` (Llama's ``Prepend`` and
``Replace``) gives it with an arithmetic mapper instead of an alignment, as ``PlainLineMapper`` does for a ``.model``'s
plain line. Each answers ``None`` when unsure;
``tests/engine/test_fast_lane.py`` compares every view with the normalizer's own text.

Left out: the alignments themselves (``tokcore.normalized``) and normalizers not named here.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from ..core.offsets import SENTINEL
from ..core.original_offsets import ShiftMapper
from ..normalizers import standard as n
from ..normalizers.bert_chars import BertText, _kept_alone
from ..text.unicode_tables import lower

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
    return _unicode_view(normalizer, text)


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
        if normalizer.clean_text and not text.isprintable():  # printable ASCII has no space but " "
            text = text.translate(n._SPACE_TABLE)
            if not text.isprintable():
                return None  # a control character to drop: positions move
        # Chinese characters and accents are not ASCII.
        return text.lower() if normalizer.lowercase else text
    return None


def _unicode_view(normalizer, text: str) -> str | None:
    """``_ascii_view`` for text with non-ASCII characters, each of which must come through
    unchanged (ASCII ones may change, into ASCII)."""
    t = type(normalizer)
    if t is n.Sequence:
        for child in normalizer.normalizers:
            text = _unicode_view(child, text)
            if text is None:
                return None
        return text
    if t in (n.NFC, n.NFD, n.NFKC, n.NFKD):
        # What the normalizer itself asks before doing anything (tokcore.unicode_norm).
        return text if unicodedata.is_normalized(t.form, text) else None
    if t is n.StripAccents:
        return None if any(map(n.is_mark, _NON_ASCII.findall(text))) else text
    if t is n.Lowercase:
        return _ascii_lowered(text)
    if t is n.Replace:
        return text if normalizer._rx.search(text) is None else None
    if t is n.BertNormalizer:
        return _bert_same_place(normalizer, text)
    return None


def _ascii_lowered(text: str) -> str | None:
    """``text.lower()`` when it changes no non-ASCII character (whole-text lowering equals
    lowering ASCII bytes alone), else ``None``. ``_ascii_lowered("Ab’") == "ab’"``."""
    lowered = lower(text)
    same = lowered.encode("utf-8", "surrogatepass") == text.encode("utf-8", "surrogatepass").lower()
    return lowered if same else None


def _bert_same_place(normalizer, text: str) -> str | None:
    """``_unicode_view`` for BertNormalizer: C-level passes over the text, each one of its steps
    that could touch a non-ASCII character: a space wider than one byte or a control (clean_text),
    a CJK character, an accent (NFD, then its Mn marks dropped) or a capital."""
    # A long text has few distinct non-ASCII characters: its controls and marks are looked for
    # among them rather than by a pass over every character.
    others = frozenset(_NON_ASCII.findall(text)) if len(text) > _DISTINCT_FROM else None
    if normalizer.clean_text and (not text.isprintable() or "\ufffd" in text):
        if "\ufffd" in text or _WIDE_SPACE.search(text):
            return None  # dropped, or a wider space becoming " "
        if others is not None and not "".join(others).isprintable():
            return None  # a control character to drop (or an unassigned one)
        for space in _ASCII_SPACES:  # the only spaces left to become " " (the wider ones returned above)
            if space in text:
                text = text.replace(space, " ")
        if not text.isprintable():
            return None  # a control character to drop (or an unassigned one: the general path decides)
    strips = _bert_strips(normalizer)
    if strips and not unicodedata.is_normalized("NFD", text):
        return None
    if normalizer.lowercase:
        text = _ascii_lowered(text)
        if text is None:
            return None
    if normalizer.handle_chinese_chars and n._CJK.search(text):
        return None
    # The slowest test last (a table lookup per character): no Mn mark to drop.
    if strips and (any(map(n.is_nonspacing_mark, others)) if others is not None
                   else "1" in text.translate(n._DROP_MARKS[n.is_nonspacing_mark])):
        return None
    return text


_DISTINCT_FROM = 4096  # characters: past this, _bert_same_place checks the distinct non-ASCII ones
_ASCII_SPACES = tuple(chr(c) for c in sorted(n._SPACE_TABLE) if c < 0x80 and c != 0x20)


_WIDE_SPACE = __import__("regex").compile("[%s]" % "".join(c for c in n._SPACE_TABLE_CHARS if not c.isascii()))


def _bert_strips(normalizer) -> bool:
    """Whether BertNormalizer strips accents (``strip_accents=None`` follows ``lowercase``)."""
    return normalizer.lowercase if normalizer.strip_accents is None else normalizer.strip_accents


def deleting_view(normalizer, text: str) -> str | None:
    """BertNormalizer's text when it only drops controls, turns white space into ``" "`` and
    changes ASCII characters (every other character comes through), else ``None``. Positions
    move, so the caller needs the normalizer's alignment too, but not to find the tokens.

    ``deleting_view(BertNormalizer(), "\ufeffHi\u3000") == "hi "``.
    """
    if type(normalizer) is not n.BertNormalizer or not normalizer.clean_text:
        return None
    table: dict[int, str | None] = {}
    for c in frozenset(_NOT_PRINTABLE_ASCII.findall(text)):
        if c in n._SPACE_TABLE_CHARS:
            table[ord(c)] = " "
        elif n.is_bert_control(c):
            table[ord(c)] = None
        elif c.isascii() or not _kept_alone(normalizer, _bert_strips(normalizer), c):
            return None
    view = text.translate(table)
    if _bert_strips(normalizer) and not unicodedata.is_normalized("NFD", view):
        return None
    return view.lower() if normalizer.lowercase else view


_NOT_PRINTABLE_ASCII = __import__("regex").compile(r"[^\x20-\x7e]")


def sentencepiece_view(normalizer, text: str) -> str | None:
    """sentencepiece's normalized text (a ``.model``'s charsmap then its whitespace rules, default
    options; ``SentencePieceText``), else ``None``: the dummy ``"▁"``, then the charsmap's text
    with runs of spaces made one, its ends stripped and its spaces escaped. The ``"▁"`` is
    inserted and characters may change or go, so positions move and the alignment is the
    normalizer's business.

    ``sentencepiece_view(<botchan .model normalizer>, " Hi  there") == "▁Hi▁there"``.
    """
    view_of = _sentencepiece_view_for(normalizer)
    return None if view_of is None else view_of(text)


def _sentencepiece_view_for(normalizer):
    """``sentencepiece_view`` for this normalizer as a function of the text alone, or ``None``
    when the normalizer is not one it knows (the checks that depend on the normalizer, done once)."""
    if type(normalizer) is not n.Sequence or len(normalizer.normalizers) != 2:
        return None
    charsmap, ws = normalizer.normalizers
    if type(charsmap) is not n.Precompiled or type(ws) is not _sentencepiece_whitespace():
        return None
    if not (ws.add_dummy_prefix and ws.remove_extra_whitespaces and ws.escape_whitespaces
            and not ws.treat_whitespace_as_suffix):
        return None
    # Precompiled leaves printable ASCII text alone unless some rule's source is printable ASCII
    # (nmt_nfkc's ASCII rules are on controls: those texts take the charsmap).
    if charsmap._units and any(map(str.isprintable, charsmap._tables().ascii_sources)):
        return None
    return SentencePieceText(charsmap)


class SentencePieceText:
    """sentencepiece's default whitespace rules after a charsmap without rules on printable ASCII:
    the text the charsmap makes, its runs of spaces made one, its ends stripped, then the dummy
    ``"▁"`` and every space as ``"▁"``; ``None`` when that text is empty or holds a ``"▁"`` of its
    own (trailing ones are then removed too). Only ``" "`` counts as a space there.
    ``SentencePieceText(<botchan charsmap>)(" a  b\n") == "▁a▁b\n"``."""

    __slots__ = ("ascii_rules", "charsmap")

    def __init__(self, charsmap):
        self.charsmap = charsmap
        # Rules on ASCII controls (nmt_nfkc's): ASCII text that is not printable takes the charsmap too.
        self.ascii_rules = bool(charsmap._units) and charsmap._ascii_rules

    def mapper(self, raw: str, ids=None, lengths: RawLengths | None = None) -> ShiftMapper | LeadMapper | None:
        """The arithmetic mapper of a view that is ``escape(raw.strip(" "))`` (the dummy ``"▁"``
        aligned to nothing where the words start, each ``"▁"`` to its space, every other character
        to itself, the spaces cut at either end to nothing): a plain line, or a line with single
        inner spaces that no charsmap rule changes, perhaps indented (most UDHR lines) or with
        spaces after it; else ``None`` (the normalizer aligns it). ``ids`` and ``lengths`` (from
        ``raw_lengths``) let it map the tokens from their ids, as ``PrefixReplaceText.mapper``."""
        if plain_line(raw):
            return ShiftMapper(raw, 3, " ", "\u2581", ids, lengths)
        kept = raw.strip(" ")
        if not kept or "  " in kept or "\u2581" in raw:
            return None
        # The pieces the view was made from (remembered by the charsmap): one unchanged piece means
        # no rule applied (a rule's output equal to its source maps character to character too).
        pieces = self.charsmap._pieces(raw, reuse=True)
        if pieces is None or (len(pieces) == 1 and pieces[0][0] == raw):
            mapper = ShiftMapper(kept, 3, " ", "\u2581", ids, lengths)
            lead = raw.index(kept[0])  # the spaces cut before the words (one byte each)
            return LeadMapper(mapper, lead) if lead else mapper
        return None

    def raw_lengths(self, token_of, hidden) -> RawLengths:
        """``PrefixReplaceText.raw_lengths`` for this view: each ``"▁"`` stands for one space (the
        dummy one for the byte before the text), 2 bytes more than it."""
        return RawLengths(token_of, hidden, "\u2581", 2)

    def __call__(self, text: str) -> str | None:
        if plain_line(text):
            return escape(text)
        if not text.isascii() or (self.ascii_rules and not text.isprintable()):
            text = self.charsmap.normalized_text(text)
            if "\u2581" in text:
                return None
        collapsed = _SPACE_RUNS.sub(" ", text).strip(" ")
        return escape(collapsed) if collapsed else None


_SPACE_RUNS = __import__("re").compile(" {2,}")


class LeadMapper:
    """``mapper``'s spans moved ``lead`` bytes on: those of a line's words after ``lead`` spaces
    that its view leaves out (``"▁a"`` of ``"  a"``; an inserted token keeps the sentinel):
    ``LeadMapper(ShiftMapper("a", 3, " ", "\u2581"), 2).map_all([(0, 4), None]) == [(3, 4), (0, 0)]``."""

    identity = False
    __slots__ = ("lead", "mapper")

    def __init__(self, mapper, lead: int):
        self.mapper, self.lead = mapper, lead

    def map(self, span: tuple[int, int]) -> tuple[int, int]:
        start, stop = self.mapper.map(span)
        return start + self.lead, stop + self.lead

    def map_all(self, spans: list) -> list:
        lead = self.lead
        # Contract spans count from 1: only the sentinel starts at 0.
        return [(a + lead, b + lead) if a else SENTINEL for a, b in self.mapper.map_all(spans)]

    def map_ids(self, first: int, stop: int) -> list | None:
        """``ShiftMapper.map_ids`` of the view's tokens ``ids[first:stop]``, moved ``lead`` bytes on."""
        mapped = self.mapper.map_ids(first, stop)
        if mapped is None:
            return None
        lead = self.lead
        return [(a + lead, b + lead) if a else SENTINEL for a, b in mapped]


def plain_line(text: str) -> bool:
    """Whether ``text`` is a plain line: printable ASCII with single inner spaces, whose sentencepiece
    view is ``escape(text)`` (no control for nmt_nfkc's rules to change).
    ``plain_line("a b") and not plain_line("a  b") and not plain_line("a\tb")``."""
    return (text.isascii() and text.isprintable() and bool(text) and text[0] != " " and text[-1] != " "
            and "  " not in text)


def escape(text: str) -> str:
    """The dummy ``"▁"`` then ``text`` with its spaces as ``"▁"``. ``escape("a b") == "▁a▁b"``."""
    return "\u2581" + text.replace(" ", "\u2581")


@cache
def _sentencepiece_whitespace():
    # Imported on first use: the loaders package imports the pipeline, which imports this module.
    from ..normalizers.sentencepiece import SentencePieceWhitespace

    return SentencePieceWhitespace


# -- a prefix and one character for another (Llama's normalizer) ------------------------------------


class PrefixReplaceText:
    """The text of ``Prepend`` and/or a ``Replace`` of one character by one (a ``{"String": ...}``
    pattern) in either order: ``prefix`` (the prepended text as the normalizer leaves it) then
    the text with every ``old`` as ``new``; its alignment is arithmetic (``mapper``).
    ``PrefixReplaceText("\u2581", " ", "\u2581")("a b") == "▁a▁b"``."""

    __slots__ = ("head", "new", "old", "prefix")

    def __init__(self, prefix: str, old: str | None, new: str | None):
        self.prefix, self.old, self.new = prefix, old, new
        self.head = len(prefix.encode("utf-8", "surrogatepass"))

    def __call__(self, text: str) -> str:
        if not text:
            return text  # Prepend leaves empty text alone
        return self.prefix + (text if self.old is None else text.replace(self.old, self.new))

    def mapper(self, raw: str, ids=None, lengths: RawLengths | None = None) -> ShiftMapper:
        """Maps spans of this view of ``raw`` back to ``raw`` (what the normalizer's alignment gives).
        ``ids`` (in step with the spans to map) and ``lengths`` (``self.raw_lengths``'s) let it
        map the text's tokens from their ids alone when they cover the view end to end."""
        return ShiftMapper(raw, self.head, self.old, self.new, ids, lengths)

    def raw_lengths(self, token_of, hidden) -> RawLengths | None:
        """The ``RawLengths`` of a model's tokens for ``mapper`` (``token_of``: id -> token text;
        ``hidden``: ids whose text is not the text they cover, byte-fallback and unknown tokens),
        or ``None`` when the view is not one ``new`` then the text with a one-byte ``old`` as
        ``new`` (Llama's ``Prepend("▁")`` + ``Replace(" ", "▁")``)."""
        if self.old is None or self.prefix != self.new or len(self.old.encode("utf-8", "surrogatepass")) != 1:
            return None
        return RawLengths(token_of, hidden, self.new, self.head - 1)


class RawLengths(dict):
    """Token id -> the UTF-8 length in the raw text of the text the token covers in a view where
    each ``new`` (``grown`` bytes longer than the one-byte character it replaced) stands for that
    character: its own length less ``grown`` per ``new`` it holds; ``None`` for ``hidden`` ids.
    Filled as ids are met (a fresh tokenizer meets few of its tokens).
    ``RawLengths({7: "▁ab"}.__getitem__, (), "▁", 2)[7] == 3``."""

    __slots__ = ("grown", "hidden", "new", "token_of")

    def __init__(self, token_of, hidden, new: str, grown: int):
        super().__init__()
        self.token_of, self.hidden, self.new, self.grown = token_of, frozenset(hidden), new, grown

    def __missing__(self, id_: int) -> int | None:
        token = None if id_ in self.hidden else self.token_of(id_)
        n = None if token is None else len(token.encode("utf-8", "surrogatepass")) - self.grown * token.count(self.new)
        if len(self) < _LENGTHS_KEPT:
            self[id_] = n
        return n


_LENGTHS_KEPT = 1_000_000  # token ids a RawLengths keeps (a vocabulary is rarely larger)


def _prefix_replace_for(normalizer) -> PrefixReplaceText | None:
    """``PrefixReplaceText`` for ``Prepend``, a one-character ``Replace``, or a ``Sequence`` of
    one of each, else ``None``."""
    steps = normalizer.normalizers if type(normalizer) is n.Sequence else [normalizer]
    if not 1 <= len(steps) <= 2 or len(set(map(type, steps))) != len(steps):
        return None
    prefix, old, new = "", None, None
    for step in steps:
        if type(step) is n.Prepend:
            prefix = step.prepend
        elif type(step) is n.Replace:
            old, new = step.pattern.get("String"), step.content
            if old is None or len(old) != 1 or len(new) != 1:
                return None
            prefix = prefix.replace(old, new)  # a prefix put before the Replace is replaced too
        else:
            return None
    return PrefixReplaceText(prefix, old, new)


def deferred_view_for(normalizer):
    """``deleting_view``, ``sentencepiece_view`` or ``PrefixReplaceText``, whichever fits the
    normalizer, as a function of the text alone; ``None`` when none ever gives a view. A view
    with a ``mapper(raw)`` method maps its spans back without the normalizer's alignment.
    ``deferred_view_for(<botchan .model normalizer>)("a b") == "▁a▁b"``."""
    if type(normalizer) is n.BertNormalizer:
        return BertText(normalizer)
    return _sentencepiece_view_for(normalizer) or _prefix_replace_for(normalizer)


class PlainLineMapper:
    """Maps a plain line's view spans back to the raw line by arithmetic (``plain_line``).

    Word k of the view is ``"▁"`` and the line's chunk k; up to its chunk, the view has 2 bytes
    more per earlier ``"▁"`` (3 bytes for 1) and its own 3, so a token inside a chunk moves back
    ``2k + 3`` bytes. A word's first token starts at its ``"▁"``: the space before the chunk, or
    for the dummy ``"▁"``, the line's start. ``word_ids`` are the result's (``None`` for inserted
    tokens). ``PlainLineMapper([0, 0, 0, 1]).map_all([(0, 3), (3, 4), (4, 5), (5, 10)])`` is
    ``[(1, 1), (1, 2), (2, 3), (3, 6)]`` (``"Hi is"`` as ``"▁"``, ``"H"``, ``"i"``, ``"▁is"``).
    """

    identity = False

    def __init__(self, word_ids: list):
        self.word_ids = word_ids

    def map_all(self, spans: list) -> list:
        out = []
        last = -1
        for span, k in zip(spans, self.word_ids):
            if span is None:
                out.append(SENTINEL)
                continue
            start, stop = span
            back = 2 * k + 2  # 2k + 3 bytes, less the 1 of the contract's base
            if k != last:  # the word's first token, from its "▁"
                out.append((1 if k == 0 else start - back + 2, stop - back))
                last = k
            else:
                out.append((start - back, stop - back))
        return out
