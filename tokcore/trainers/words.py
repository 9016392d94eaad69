"""Fast word splitting for training: the words a pre-tokenizer makes of a text, as plain strings.

Training only needs each piece's text (never its bounds), and for the common pre-tokenizers a
piece is one regex match of the text (ByteLevel then rewrites it to its byte characters, Metaspace
replaces spaces first). ``word_splitter`` returns such functions for those pre-tokenizers, read
from their options, and ``None`` for any other (the caller then runs the general ``Piece`` path).
Only the exact classes qualify: a subclass may change how it splits.

``tests/engine/test_trainer_fast_paths.py`` pins every splitter to the general path on random text.

Left out: bounds and offsets (see ``tokcore.pre_tokenizers``), pre-tokenizer sequences.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Optional

import regex

# The patterns these pre-tokenizers split with; the hypothesis test catches any drift.
from ..pre_tokenizers.standard import (
    _BERT_RE,
    _NON_SPACE_RE,
    _WORDS_OR_SYMBOLS_RE,
    PUNCT_CLASS,
    BertPreTokenizer,
    ByteLevel,
    Metaspace,
    Whitespace,
    WhitespaceSplit,
)
from ..text.byte_level import GPT2_REGEX, text_to_chars
from ..text.char_classes import PUNCT_CLASSES, WORD_CLASSES, ClassMap
from ..text.onig_classes import ONIG_CLASSES

Splitter = Callable[[str], list]

# The same patterns for ASCII text, for the standard library's ``re`` (about twice as fast as
# ``regex`` on them). On ASCII, ``regex``'s \s is exactly [\t\n\v\f\r ] (not \x1c-\x1f), \w is
# [A-Za-z0-9_], \p{L} is [A-Za-z] and \p{N} is [0-9].
_WS = r"\t\n\x0b\x0c\r "
_ASCII_NON_SPACE = re.compile(f"[^{_WS}]+")
_ASCII_WORDS_OR_SYMBOLS = re.compile(f"[A-Za-z0-9_]+|[^A-Za-z0-9_{_WS}]+")
_ASCII_BERT = re.compile(f"[{PUNCT_CLASS}]|[^{_WS}{PUNCT_CLASS}]+")
_ASCII_GPT2 = re.compile(
    f"'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^{_WS}A-Za-z0-9]+|[{_WS}]+(?![^{_WS}])|[{_WS}]+"
)


def word_splitter(pre_tokenizer: Any) -> Optional[tuple[Splitter, Optional[Callable[[str], str]]]]:
    """``(split, rewrite)`` for the pre-tokenizer, or ``None`` when it has no fast path.

    The pre-tokenizer's non-empty piece texts are ``[rewrite(w) for w in split(text)]`` (just
    ``split(text)`` when ``rewrite`` is ``None``); ``rewrite`` is one-to-one, so a caller may count
    the split words first and rewrite each distinct one once.
    ``word_splitter(Whitespace())[0]("Hi, you!") == ["Hi", ",", "you", "!"]``.
    """
    kind = type(pre_tokenizer)
    if kind is WhitespaceSplit:
        return _matches(_NON_SPACE_RE, None, _ASCII_NON_SPACE), None
    if kind is Whitespace:
        return _matches(_WORDS_OR_SYMBOLS_RE, WORD_CLASSES, _ASCII_WORDS_OR_SYMBOLS), None
    if kind is BertPreTokenizer:
        return _matches(_BERT_RE, PUNCT_CLASSES, _ASCII_BERT), None
    if kind is ByteLevel:
        return _byte_level(pre_tokenizer.add_prefix_space, pre_tokenizer.use_regex), text_to_chars
    if kind is Metaspace:
        return _metaspace(pre_tokenizer), None
    return None


def _matches(rx: regex.Pattern, classes: Optional[ClassMap], ascii_rx: re.Pattern) -> Splitter:
    """The non-empty matches of ``rx``: ``ascii_rx``'s on ASCII text, else ``rx``'s (on the class view, as the pre-tokenizer)."""
    ascii_findall, findall, finditer = ascii_rx.findall, rx.findall, rx.finditer

    def split(text: str) -> list:
        # None of these patterns matches the empty string.
        if text.isascii():
            return ascii_findall(text)
        if classes is None:
            return findall(text)
        return [text[m.start():m.end()] for m in finditer(text.translate(classes))]

    return split


def _byte_level(add_prefix_space: bool, use_regex: bool) -> Splitter:
    """The words before their rewrite to byte characters (``text_to_chars``)."""
    gpt2 = _matches(GPT2_REGEX, ONIG_CLASSES, _ASCII_GPT2)

    def split(text: str) -> list:
        if not text:
            return []
        if add_prefix_space and not text.startswith(" "):
            text = " " + text
        return gpt2(text) if use_regex else [text]

    return split


def _metaspace(pre_tokenizer: Metaspace) -> Splitter:
    rep, scheme, do_split = pre_tokenizer.replacement, pre_tokenizer.prepend_scheme, pre_tokenizer.split
    findall = pre_tokenizer._pieces_rx.findall

    def split(text: str) -> list:
        if not text:
            return []
        text = text.replace(" ", rep)
        # The whole text is one piece starting at byte 0, so "first" prepends as "always" does.
        if scheme != "never" and not text.startswith(rep):
            text = rep + text
        return findall(text) if do_split else [text]

    return split
