"""Normalizers: text -> text with a character alignment to the input (see ``tokcore.normalized``).

Each class is named after HF tokenizers' normalizer of the same ``"type"``, follows its text
semantics exactly (HF's Unicode tables included, see ``tokcore.unicode_tables``) and has HF's
``tokenizer.json`` keys. ``AsciiPolicy`` is tokcore's own (the ASCII character tokenizer's rule).

Alignment is exact where HF's is approximate: text inserted without a source (``Prepend``, the
spaces BertNormalizer puts around CJK characters, a ``Replace`` on an empty match) maps to an
empty span, and a rewritten run (a composition, a ``Replace`` match) maps to all of its source,
where HF credits a neighbouring or the first character.

Left out: the added-token handling around normalization (``tokcore.tokenizer``); sentencepiece's
charsmap lives in ``tokcore.precompiled``, aligned Unicode normalization in ``tokcore.unicode_norm``.
"""

from __future__ import annotations

import regex

from ..core.components import Normalizer, StageSequence, register
from ..core.errors import ConfigurationError
from ..core.normalized import NormalizedString
from ..text.onig_regex import compile_onig, find_matches
from ..text.unicode_tables import NEWER_LOWER, WHITE_SPACE, is_bert_control, is_mark, is_nonspacing_mark, lower
from .precompiled import Precompiled
from .unicode_pieces import TABLE_CAPACITY, normalize_pieces, rebuild_whole

__all__ = [
    "NFC", "NFD", "NFKC", "NFKD", "AsciiPolicy", "BertNormalizer", "ByteLevel", "Lowercase", "Nmt",
    "Precompiled", "Prepend", "Replace", "Sequence", "Strip", "StripAccents",
]  # fmt: skip


@register("normalizer")
class Sequence(StageSequence, Normalizer):
    """Apply normalizers in order. ``Sequence([Lowercase()]).normalize_str("A") == "a"``."""

    stage, items_key = "normalizer", "normalizers"

    def normalize(self, ns: NormalizedString) -> NormalizedString:
        for n in self.normalizers:
            ns = n.normalize(ns)
        return ns


class _UnicodeForm(Normalizer):
    form = ""

    def normalize(self, ns: NormalizedString) -> NormalizedString:
        chunks = self.__dict__.get("_chunks")
        if chunks is None:  # this object's words met so far (unicode_pieces.word_pieces)
            chunks = self._chunks = {}
        pieces = normalize_pieces(self.form, ns.normalized, chunks)
        return ns if pieces is None else rebuild_whole(ns, pieces)


@register("normalizer")
class NFC(_UnicodeForm):
    """Canonical composition. ``NFC().normalize_str("e\\u0301") == "é"`` (aligned to both characters)."""

    form = "NFC"


@register("normalizer")
class NFD(_UnicodeForm):
    """Canonical decomposition. ``NFD().normalize_str("é") == "e\\u0301"``."""

    form = "NFD"


@register("normalizer")
class NFKC(_UnicodeForm):
    """Compatibility composition. ``NFKC().normalize_str("ﬁ①") == "fi1"``."""

    form = "NFKC"


@register("normalizer")
class NFKD(_UnicodeForm):
    """Compatibility decomposition. ``NFKD().normalize_str("ﬁé") == "fie\\u0301"``."""

    form = "NFKD"


def lowercase(ns: NormalizedString) -> NormalizedString:
    """Unicode full lower-casing of each character alone (no final-sigma rule, as Rust's ``char::to_lowercase``,
    whose newer capitals ``unicode_tables.lower`` adds)."""
    text = ns.normalized
    lowered = lower(text)
    if lowered == text:
        return ns
    # Whole-string lower() differs from per-character lowering only on 'Σ' (final sigma). Without
    # one, and without expansions (a mapping never drops a character), it maps character to character.
    if len(lowered) == len(text) and "Σ" not in text:
        if ns.is_identity:  # what rebuild makes of one same-length piece over an untouched text
            n = len(text)
            return NormalizedString(ns.original, lowered, list(range(n)), list(range(1, n + 1)))
        return ns.rebuild([(lowered, 0, len(text))])
    return ns.map_chars(_lower_char)


def _lower_char(ch: str) -> str:
    """One character lowered as Rust lowers it. ``_lower_char("Σ") == "σ"``."""
    newer = NEWER_LOWER.get(ord(ch))
    return ch.lower() if newer is None else chr(newer)


_NON_ASCII = regex.compile(r"[^\x00-\x7f]")


def drop_chars(ns: NormalizedString, drop, *, never_ascii: bool = False, candidates=None) -> NormalizedString:
    """Delete the characters ``c`` with ``drop(c)`` true. ``drop_chars(NormalizedString("a1b"), str.isdigit).normalized == "ab"``.

    ``never_ascii``: ``drop`` is false on every ASCII character, so only the others are asked;
    ``candidates``: a compiled pattern of one character matching every character ``drop`` may be
    true on (the others are not asked).
    """
    text = ns.normalized
    marks = _DROP_MARKS.get(drop)
    if marks is not None:  # the answers kept per character: one C-level pass over the text
        found = text.translate(marks)
        if "1" not in found:
            return ns
        gone = [m.start() for m in _ONE.finditer(found)]
    elif never_ascii or candidates is not None:
        found = (candidates or _NON_ASCII).finditer(text)
        gone = [m.start() for m in found if drop(m.group())]
    else:
        gone = [i for i, hit in enumerate(map(drop, text)) if hit]
    if not gone:
        return ns
    pieces, pos = [], 0
    for i in gone:
        pieces += [(text[pos:i], pos, i), ("", i, i + 1)]
        pos = i + 1
    pieces.append((text[pos:], pos, len(text)))
    return ns.rebuild(pieces)


class _Marks(dict):
    """``str.translate`` table: code point -> ``"1"`` when ``test`` holds for it, else ``"0"`` (filled on first sight)."""

    def __init__(self, test):
        super().__init__()
        self.test = test

    def __missing__(self, cp: int) -> str:
        out = "1" if self.test(chr(cp)) else "0"
        if len(self) < TABLE_CAPACITY:  # text running through all of Unicode keeps no table of it
            self[cp] = out
        return out


# The module's own per-character predicates (a table per function, so never one per call).
_DROP_MARKS = {f: _Marks(f) for f in (is_mark, is_nonspacing_mark, is_bert_control)}
_ONE = regex.compile("1")


@register("normalizer")
class Lowercase(Normalizer):
    """Unicode lower-casing, character by character. ``Lowercase().normalize_str("ÀΣİ") == "àσi\\u0307"``."""

    def normalize(self, ns: NormalizedString) -> NormalizedString:
        return lowercase(ns)


@register("normalizer")
class StripAccents(Normalizer):
    """Remove every combining mark (Mn, Mc and Me, as HF does). ``StripAccents().normalize_str("e\\u0301") == "e"``.

    Like HF it does not decompose first: pair it with ``NFD`` to strip accents from ``"é"``.
    """

    def normalize(self, ns: NormalizedString) -> NormalizedString:
        return ns if ns.normalized.isascii() else drop_chars(ns, is_mark, never_ascii=True)


_NMT_DROP = frozenset(map(chr, [*range(0x01, 0x09), 0x0B, *range(0x0E, 0x20), 0x7F, 0x8F, 0x9F]))
_NMT_SPACE = frozenset(map(chr, [0x09, 0x0A, 0x0C, 0x0D, 0x1680, *range(0x200B, 0x2010), 0x2028, 0x2029, 0x2581, 0xFEFF, 0xFFFD]))


def _nmt_char(c: str) -> str:
    if c in _NMT_DROP:
        return ""
    return " " if c in _NMT_SPACE else c


@register("normalizer")
class Nmt(Normalizer):
    """Sentencepiece's nmt cleanup: drop C0 controls, turn tabs, newlines, zero-widths and ``▁`` into spaces.

    ``Nmt().normalize_str("a\\x01b\\tc") == "ab c"``.
    """

    def normalize(self, ns: NormalizedString) -> NormalizedString:
        return ns.map_chars(_nmt_char)


@register("normalizer")
class Strip(Normalizer):
    """Remove leading and/or trailing white space (Unicode White_Space). ``Strip().normalize_str(" a ") == "a"``."""

    def __init__(self, *, strip_left: bool = True, strip_right: bool = True):
        self.strip_left = bool(strip_left)
        self.strip_right = bool(strip_right)

    def normalize(self, ns: NormalizedString) -> NormalizedString:
        text = ns.normalized
        n = len(text)
        lo, hi = 0, n
        if self.strip_left:
            while lo < n and text[lo] in WHITE_SPACE:
                lo += 1
        if self.strip_right:
            while hi > lo and text[hi - 1] in WHITE_SPACE:
                hi -= 1
        if (lo, hi) == (0, n):
            return ns
        return ns.rebuild([("", 0, lo), (text[lo:hi], lo, hi), ("", hi, n)])

    def to_dict(self) -> dict:
        return {"type": "Strip", "strip_left": self.strip_left, "strip_right": self.strip_right}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(strip_left=data.get("strip_left", True), strip_right=data.get("strip_right", True))


@register("normalizer")
class Prepend(Normalizer):
    """Put ``prepend`` before non-empty text. ``Prepend("▁").normalize_str("a") == "▁a"``; ``""`` stays ``""``.

    The prefix has no source: it aligns to the empty span before the first character.
    """

    def __init__(self, prepend: str):
        if not isinstance(prepend, str):
            raise ConfigurationError(f"Prepend needs a string, got {type(prepend).__name__}")
        self.prepend = prepend

    def normalize(self, ns: NormalizedString) -> NormalizedString:
        text = ns.normalized
        if not text or not self.prepend:
            return ns
        # What rebuild makes of (prepend, 0, 0) + (text, 0, n): the prefix at the first
        # character's original position, then the alignment as it was.
        starts, ends = ns._bounds()
        head = [starts[0]] * len(self.prepend)
        return NormalizedString(ns.original, self.prepend + text, head + starts, head + ends)

    def to_dict(self) -> dict:
        return {"type": "Prepend", "prepend": self.prepend}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(data["prepend"])


@register("normalizer")
class Replace(Normalizer):
    """Replace every match of ``pattern`` with ``content``, left to right, without overlaps.

    ``pattern`` is ``{"String": s}`` (a literal; a plain ``str`` means the same) or ``{"Regex": r}``
    (Oniguruma syntax, as in tokenizer.json). ``Replace(" ", "▁").normalize_str("a b") == "a▁b"``.
    Like HF, an empty match inserts ``content`` (``Replace("", "-")`` on ``"ab"`` gives ``"-a-b-"``),
    and empty text is left alone.
    """

    def __init__(self, pattern, content: str):
        if isinstance(pattern, str):
            pattern = {"String": pattern}
        if not (isinstance(pattern, dict) and len(pattern) == 1 and set(pattern) <= {"String", "Regex"}):
            raise ConfigurationError(f'Replace pattern must be {{"String": ...}} or {{"Regex": ...}}, got {pattern!r}')
        (kind, value), = pattern.items()
        if not isinstance(value, str) or not isinstance(content, str):
            raise ConfigurationError("Replace pattern and content must be strings")
        self.pattern = {kind: value}
        self.content = content
        try:
            self._rx = compile_onig(regex.escape(value) if kind == "String" else value)
        except regex.error as exc:
            raise ConfigurationError(f"Replace regex {value!r} does not compile: {exc}") from None

    def normalize(self, ns: NormalizedString) -> NormalizedString:
        text = ns.normalized
        if not text:
            return ns
        old, new = self.pattern.get("String"), self.content
        if old is not None and len(old) == 1 and len(new) == 1:
            # One character for one (Llama's " " -> "▁"): every character keeps its own alignment
            # (rebuild's rule for same-length pieces), so str.replace gives the same string.
            if old not in text:
                return ns
            starts, ends = ns._bounds()
            return NormalizedString(ns.original, text.replace(old, new), list(starts), list(ends))
        pieces, pos = [], 0
        for s, e in find_matches(self._rx, text):
            if e - s == len(new) and text.startswith(new, s):
                # Replaced by itself (CLIP's \s+ -> " " on a single space): the same text, and each
                # character keeps its own alignment (rebuild's rule for same-length pieces).
                continue
            if s > pos:
                pieces.append((text[pos:s], pos, s))
            pieces.append((self.content, s, e))
            pos = e
        if not pieces:
            return ns
        if pos < len(text):
            pieces.append((text[pos:], pos, len(text)))
        return rebuild_whole(ns, pieces)

    def to_dict(self) -> dict:
        return {"type": "Replace", "pattern": dict(self.pattern), "content": self.content}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(data["pattern"], data["content"])


# BERT's "Chinese character" blocks: CJK Unified Ideographs, Extensions A-E (not U+2B820..U+2B91F),
# and the compatibility ideographs.
_CJK = regex.compile(
    "[\u4e00-\u9fff\u3400-\u4dbf\U00020000-\U0002a6df\U0002a700-\U0002b81f\U0002b920-\U0002ceaf"
    "\uf900-\ufaff\U0002f800-\U0002fa1f]"
)

_CJK_MARKS = _Marks(_CJK.match)  # the class has many ranges: ask each character once

# White space that is not a control: clean_text turns it into " ", one character for one.
_SPACE_TABLE = {ord(c): " " for c in WHITE_SPACE if not is_bert_control(c)}
_SPACE_TABLE_CHARS = frozenset(map(chr, _SPACE_TABLE))


def bert_clean_text(ns: NormalizedString) -> NormalizedString:
    """BertNormalizer's clean_text step. ``bert_clean_text(NormalizedString("a\\x00\\tb")).normalized == "a b"``."""
    text = ns.normalized
    spaced = text.translate(_SPACE_TABLE)
    if spaced != text:
        ns = ns.rebuild([(spaced, 0, len(text))])
    # Printable text has no Cc/Cf/Co/Cs character; U+FFFD is printable but dropped too.
    if spaced.isprintable() and "\ufffd" not in spaced:
        return ns
    return drop_chars(ns, is_bert_control, candidates=_NOT_PRINTABLE_ASCII)


# Printable ASCII is never a control: only the other characters are asked.
_NOT_PRINTABLE_ASCII = regex.compile(r"[^\x20-\x7e]")


@register("normalizer")
class BertNormalizer(Normalizer):
    """BERT's cleanup: drop controls, whitespace to ``" "``, spaces around CJK, strip accents, lowercase.

    ``strip_accents=None`` follows ``lowercase``. ``BertNormalizer().normalize_str("Héllo\\t中")
    == "hello  中 "``. The spaces around a CJK character are inserted text (empty spans).
    """

    def __init__(self, *, clean_text: bool = True, handle_chinese_chars: bool = True,
                 strip_accents: bool | None = None, lowercase: bool = True):  # fmt: skip
        self.clean_text = bool(clean_text)
        self.handle_chinese_chars = bool(handle_chinese_chars)
        self.strip_accents = None if strip_accents is None else bool(strip_accents)
        self.lowercase = bool(lowercase)

    def normalize(self, ns: NormalizedString) -> NormalizedString:
        if self.clean_text:
            ns = bert_clean_text(ns)
        if self.handle_chinese_chars and not ns.normalized.isascii():
            text = ns.normalized
            found = text.translate(_CJK_MARKS)
            cjk = [m.start() for m in _ONE.finditer(found)] if "1" in found else None
            if cjk:
                pieces, pos = [], 0
                for i in cjk:
                    pieces += [(text[pos:i], pos, i), (" ", i, i), (text[i], i, i + 1), (" ", i + 1, i + 1)]
                    pos = i + 1
                pieces.append((text[pos:], pos, len(text)))
                ns = ns.rebuild(pieces)
        if self.lowercase if self.strip_accents is None else self.strip_accents:
            nfd = self.__dict__.get("_nfd")
            if nfd is None:  # one kept, with the words it has met
                nfd = self._nfd = NFD()
            ns = nfd.normalize(ns)
            if not ns.normalized.isascii():
                ns = drop_chars(ns, is_nonspacing_mark, never_ascii=True)
        if self.lowercase:
            ns = lowercase(ns)
        return ns

    def to_dict(self) -> dict:
        return {
            "type": "BertNormalizer",
            "clean_text": self.clean_text,
            "handle_chinese_chars": self.handle_chinese_chars,
            "strip_accents": self.strip_accents,
            "lowercase": self.lowercase,
        }

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(
            clean_text=data.get("clean_text", True),
            handle_chinese_chars=data.get("handle_chinese_chars", True),
            strip_accents=data.get("strip_accents"),
            lowercase=data.get("lowercase", True),
        )


@register("normalizer")
class ByteLevel(Normalizer):
    """Each character becomes the GPT-2 characters of its UTF-8 bytes. ``ByteLevel().normalize_str("a é") == "aĠÃ©"``."""

    def normalize(self, ns: NormalizedString) -> NormalizedString:
        from ..text.byte_level import BYTE_TO_UNICODE  # the alphabet is the byte-level family's

        return ns.map_chars(lambda c: "".join(BYTE_TO_UNICODE[b] for b in c.encode("utf-8", "surrogatepass")))


ASCII_KEEP = frozenset(chr(c) for c in range(32, 127)) | {"\n", "\t"}


@register("normalizer")
class AsciiPolicy(Normalizer):
    """Keep printable ASCII, ``\\n`` and ``\\t``; every other character becomes ``placeholder``.

    ``AsciiPolicy().normalize_str("é\\r!") == "<UNK><UNK>!"``. Each placeholder aligns to the one
    character it replaced, so offsets map back exactly.
    """

    def __init__(self, placeholder: str = "<UNK>"):
        if not isinstance(placeholder, str) or not placeholder:
            raise TypeError("placeholder must be a non-empty string")
        self.placeholder = placeholder

    def normalize(self, ns: NormalizedString) -> NormalizedString:
        text = ns.normalized
        if text.isascii() and text.isprintable():
            return ns
        keep, ph = ASCII_KEEP, self.placeholder
        return ns.map_chars(lambda c: c if c in keep else ph)

    def to_dict(self) -> dict:
        return {"type": "AsciiPolicy", "placeholder": self.placeholder}

    def to_hf_dict(self) -> dict:
        # HF has no such normalizer; a regex Replace gives the same text.
        return {"type": "Replace", "pattern": {"Regex": "[^\\t\\n\\x20-\\x7e]"}, "content": self.placeholder}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(data.get("placeholder", "<UNK>"))
