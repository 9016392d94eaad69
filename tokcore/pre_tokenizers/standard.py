"""Pre-tokenizers: split the tokenization text into pieces the model sees, keeping exact byte bounds.

Each class is named after HF tokenizers' pre-tokenizer of the same ``"type"`` and behaves as it
does; the inspector ``pre_tokenize_str`` returns ``[(piece, (start, stop))]`` with 0-based
character offsets as HF. Pieces carry byte bounds into the tokenization text, so text a
pre-tokenizer writes (Metaspace's ``▁``, ByteLevel's byte characters) points at the exact bytes it
stands for, and a character it inserts (a prefix space or ``▁``) gets an empty span.

The pattern-only pre-tokenizers (``Split``, ``Punctuation``, ``Digits``, ``CharDelimiterSplit``)
live in ``pre_tokenizers_split`` and ``UnicodeScripts`` in ``pre_tokenizers_scripts``; all are
importable from here.

Left out: normalization (done before) and the model.
"""

from __future__ import annotations

import re

import regex

from ..core.components import Piece, PreTokenizer, StageSequence, register
from ..core.errors import ConfigurationError, TokenizerFileError
from ..text.byte_level import _TO_CHARS as _BYTE_CHARS
from ..text.byte_level import GPT2_REGEX, ByteLevelOptions, bytes_to_chars
from ..text.char_classes import PUNCT_CLASSES, WORD_CLASSES
from ..text.onig_classes import ONIG_CLASSES
from .scripts import UnicodeScripts
from .split import PUNCT_CLASS, CharDelimiterSplit, CutOnly, Digits, Punctuation, Split, match_spans, pieces_of_matches

__all__ = [
    "BertPreTokenizer",
    "ByteLevel",
    "CharDelimiterSplit",
    "Digits",
    "FixedLength",
    "Metaspace",
    "Punctuation",
    "Sequence",
    "Split",
    "UnicodeScripts",
    "Whitespace",
    "WhitespaceSplit",
]

# ``\s`` in the ``regex`` module is Unicode's White_Space, as Rust's. The other patterns run on
# ``ascii_view`` text, where non-ASCII characters stand in as ASCII ones of HF's class.
_NON_SPACE_RE = regex.compile(r"\S+")
_WORDS_OR_SYMBOLS_RE = regex.compile(r"\w+|[^\w\s]+")
_BERT_RE = regex.compile(rf"[{PUNCT_CLASS}]|[^\s{PUNCT_CLASS}]+")
# _BERT_RE for the class view (pure ASCII; White_Space there is \t-\r and " "): the standard
# library's engine, no timeout needed for a pattern without backtracking.
_ASCII_BERT_RE = re.compile(rf"[{PUNCT_CLASS}]|[^\t-\r {PUNCT_CLASS}]+")
_ASCII_PUNCT = frozenset(c for c in map(chr, range(128)) if regex.fullmatch(f"[{PUNCT_CLASS}]", c))


@register("pre_tokenizer")
class Sequence(StageSequence, PreTokenizer):
    """Apply pre-tokenizers in order, each on the pieces of the previous one."""

    stage, items_key = "pre_tokenizer", "pretokenizers"

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        for p in self.pretokenizers:
            pieces = p.pre_tokenize(pieces)
        return pieces

    def split_piece(self, piece: Piece) -> list[Piece]:
        return self.pre_tokenize([piece])


@register("pre_tokenizer")
class WhitespaceSplit(CutOnly):
    """Split on whitespace, dropping it. ``WhitespaceSplit().pre_tokenize_str("a  b") == [("a", (0, 1)), ("b", (3, 4))]``.

    Whitespace is Unicode's White_Space property (as Rust's ``char::is_whitespace``), not
    ``str.isspace``, which also counts the separators U+001C..U+001F.
    """

    def char_spans(self, text: str) -> list[tuple[int, int]]:
        return match_spans(text, _NON_SPACE_RE)


@register("pre_tokenizer")
class Whitespace(CutOnly):
    """Runs of word characters and runs of other non-space characters (HF's ``\\w+|[^\\w\\s]+``).

    ``Whitespace().pre_tokenize_str("Hi, you!") == [("Hi", (0, 2)), (",", (2, 3)), ("you", (4, 7)), ("!", (7, 8))]``.
    """

    def char_spans(self, text: str) -> list[tuple[int, int]]:
        return match_spans(text, _WORDS_OR_SYMBOLS_RE, WORD_CLASSES)


@register("pre_tokenizer")
class BertPreTokenizer(CutOnly):
    """BERT's basic split: drop whitespace, isolate every punctuation character.

    ``BertPreTokenizer().pre_tokenize_str("a,b") == [("a", (0, 1)), (",", (1, 2)), ("b", (2, 3))]``.
    """

    def split_piece(self, piece: Piece) -> list[Piece]:
        text = piece.text
        view = text if text.isascii() else text.translate(PUNCT_CLASSES)
        if view.isalnum():  # no space, punctuation or control: the piece is one word
            return [piece]
        if view[-1:] in _ASCII_PUNCT and view[:-1].isalnum():  # a word and one mark after it ("said,")
            n = len(text) - 1
            return [piece.sub(0, n), piece.sub(n, n + 1)]
        sub = piece.sub
        return [sub(*m.span()) for m in _ASCII_BERT_RE.finditer(view)]

    def char_spans(self, text: str) -> list[tuple[int, int]]:
        view = text if text.isascii() else text.translate(PUNCT_CLASSES)
        return [m.span() for m in _ASCII_BERT_RE.finditer(view)]

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        # The word loop hands over one piece at a time.
        return self.split_piece(pieces[0]) if len(pieces) == 1 else super().pre_tokenize(pieces)


@register("pre_tokenizer")
class FixedLength(CutOnly):
    """Chunks of ``length`` characters. ``FixedLength(length=2).pre_tokenize_str("abc")`` gives ``ab``, ``c``."""

    def __init__(self, *, length: int = 5):
        if not isinstance(length, int) or isinstance(length, bool) or length < 1:
            raise ConfigurationError(f"FixedLength needs a positive integer length, got {length!r}")
        self.length = length

    def char_spans(self, text: str) -> list[tuple[int, int]]:
        n, k = len(text), self.length
        return [(i, min(i + k, n)) for i in range(0, n, k)]

    def to_dict(self) -> dict:
        return {"type": "FixedLength", "length": self.length}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(length=data.get("length", 5))


PREPEND_SCHEMES = ("always", "never", "first")


@register("pre_tokenizer")
class Metaspace(PreTokenizer):
    """SentencePiece's spaces: each ``" "`` becomes ``replacement`` and starts a new piece.

    ``prepend_scheme`` adds a ``replacement`` in front of a piece that lacks one: ``"always"``,
    ``"never"``, or ``"first"`` (only for the piece at the very start of the text, so text after an
    added token gets none). The replaced character keeps the span of its space; a prepended one has
    an empty span. ``Metaspace().pre_tokenize_str("Hey you") == [("▁Hey", (0, 3)), ("▁you", (3, 7))]``.
    """

    def __init__(self, *, replacement: str = "▁", prepend_scheme: str = "always", split: bool = True):
        if not isinstance(replacement, str) or len(replacement) != 1:
            raise ConfigurationError(f"Metaspace replacement must be one character, got {replacement!r}")
        if prepend_scheme not in PREPEND_SCHEMES:
            raise ConfigurationError(
                f"Metaspace prepend_scheme must be one of {', '.join(PREPEND_SCHEMES)}, got {prepend_scheme!r}"
            )
        self.replacement = replacement
        self.prepend_scheme = prepend_scheme
        self.split = bool(split)
        # MergedWithNext on single-character matches: a leading run without the replacement, then
        # each replacement with the run after it (a replacement followed by another stays alone).
        r = regex.escape(replacement)
        self._pieces_rx = regex.compile(f"[^{r}]+|{r}[^{r}]*")

    def split_piece(self, piece: Piece) -> list[Piece]:
        text, bounds = piece.text, piece.bounds
        if not text:  # HF never hands an empty piece on, so nothing gets prepended to one
            return []
        rep = self.replacement
        if " " in text:
            text = text.replace(" ", rep)  # one character for one: bounds stay as they are
        scheme = self.prepend_scheme
        if scheme != "never" and not text.startswith(rep) and (scheme == "always" or bounds[0] == 0):
            text = rep + text
            bounds = [bounds[0], *bounds]
        piece = Piece(text, bounds)
        if not self.split or text.find(rep, 1) < 0:  # at most a leading replacement: one piece
            return [piece]
        return pieces_of_matches(piece, self._pieces_rx)

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        # The word loop hands over one piece at a time.
        return self.split_piece(pieces[0]) if len(pieces) == 1 else super().pre_tokenize(pieces)

    def to_dict(self) -> dict:
        return {
            "type": "Metaspace",
            "replacement": self.replacement,
            "prepend_scheme": self.prepend_scheme,
            "split": self.split,
        }

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        scheme = data.get("prepend_scheme", "always")
        if data.get("add_prefix_space") is False:
            # Files from before prepend_scheme existed say add_prefix_space=false for "never".
            if "prepend_scheme" in data and scheme != "never":
                raise TokenizerFileError(
                    source,
                    f"add_prefix_space=false contradicts prepend_scheme={scheme!r}",
                    where=where,
                    fix='Drop add_prefix_space or set prepend_scheme to "never".',
                )
            scheme = "never"
        try:
            return cls(replacement=data["replacement"], prepend_scheme=scheme, split=data.get("split", True))
        except ConfigurationError as exc:
            raise TokenizerFileError(source, str(exc), where=where) from None


@register("pre_tokenizer")
class ByteLevel(ByteLevelOptions, PreTokenizer):
    """GPT-2's byte level: split with the GPT-2 regex, then write every UTF-8 byte as one character.

    ``add_prefix_space`` puts a space (empty span) before a piece not starting with one;
    ``trim_offsets`` is only stored here (the post-processor uses it). Every output character's
    bounds are exactly its source byte. ``ByteLevel().pre_tokenize_str("é!") == [("ĠÃ©", (0, 1)), ("!", (1, 2))]``.
    """

    def __init__(self, *, add_prefix_space: bool = True, trim_offsets: bool = True, use_regex: bool = True):
        # Lenient where ByteLevelOptions is strict: this pre-tokenizer always took any truthy value.
        self.add_prefix_space = bool(add_prefix_space)
        self.trim_offsets = bool(trim_offsets)
        self.use_regex = bool(use_regex)

    def split_piece(self, piece: Piece) -> list[Piece]:
        if not piece.text:  # HF never hands an empty piece on, so nothing gets prepended to one
            return []
        if self.add_prefix_space and not piece.text.startswith(" "):
            piece = Piece(" " + piece.text, [piece.bounds[0], *piece.bounds])
        # Every character is a letter, number, space or other, so the GPT-2 matches leave no gaps
        # and Isolated keeps exactly the matches.
        parts = pieces_of_matches(piece, GPT2_REGEX, ONIG_CLASSES) if self.use_regex else [piece]
        return [to_byte_chars(p) for p in parts]



def to_byte_chars(piece: Piece) -> Piece:
    """``piece`` with each UTF-8 byte written as its GPT-2 character, bounds one source byte each.

    ``to_byte_chars(Piece("é", range(3))) == Piece("Ã©", range(3))``. A character whose span is not
    its own UTF-8 bytes (it was inserted or rewritten) gives its last byte character that span and the
    others an empty one.
    """
    text, bounds = piece.text, piece.bounds
    if text.isascii():  # one byte per character: the bounds do not move
        return Piece(text.translate(_BYTE_CHARS), bounds)
    data = text.encode("utf-8", "surrogatepass")
    chars = bytes_to_chars(data)
    start = bounds[0]
    if bounds[-1] - start == len(data):
        # Rewrites only ever lengthen text, so equal totals mean every character spans its own bytes.
        return Piece(chars, range(start, start + len(data) + 1))
    out = [start]
    for i, ch in enumerate(text):
        s, e = bounds[i], bounds[i + 1]
        n = 1 if ch < "\x80" else len(ch.encode("utf-8", "surrogatepass"))
        if e - s == n:
            out.extend(range(s + 1, e + 1))
        else:
            out.extend([s] * (n - 1))
            out.append(e)
    return Piece(chars, out)
