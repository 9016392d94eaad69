"""Fast word splitting for training: the words a pre-tokenizer makes of a text, as plain strings.

Training only needs each piece's text (never its bounds), and for the common pre-tokenizers a
piece is one regex match of the text (ByteLevel then rewrites it to its byte characters, Metaspace
replaces spaces first). ``word_splitter`` returns such functions for those pre-tokenizers, read
from their options, and ``None`` for any other (the caller then runs the general ``Piece`` path).
Only the exact classes qualify: a subclass may change how it splits.

``tests/test_trainer_fast_paths.py`` pins every splitter to the general path on random text.

Left out: bounds and offsets (see ``tokcore.pre_tokenizers``), pre-tokenizer sequences.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import regex

from ..byte_level import GPT2_REGEX, text_to_chars

# The patterns these pre-tokenizers split with; the hypothesis test catches any drift.
from ..pre_tokenizers import (
    _BERT_RE,
    _NON_SPACE_RE,
    _WORDS_OR_SYMBOLS_RE,
    BertPreTokenizer,
    ByteLevel,
    Metaspace,
    Whitespace,
    WhitespaceSplit,
)
from ..pre_tokenizers_tables import ONIG_CLASSES, PUNCT_CLASSES, WORD_CLASSES, ClassMap

Splitter = Callable[[str], list]


def word_splitter(pre_tokenizer: Any) -> Optional[tuple[Splitter, Optional[Callable[[str], str]]]]:
    """``(split, rewrite)`` for the pre-tokenizer, or ``None`` when it has no fast path.

    The pre-tokenizer's non-empty piece texts are ``[rewrite(w) for w in split(text)]`` (just
    ``split(text)`` when ``rewrite`` is ``None``); ``rewrite`` is one-to-one, so a caller may count
    the split words first and rewrite each distinct one once.
    ``word_splitter(Whitespace())[0]("Hi, you!") == ["Hi", ",", "you", "!"]``.
    """
    kind = type(pre_tokenizer)
    if kind is WhitespaceSplit:
        return _matches(_NON_SPACE_RE, None), None
    if kind is Whitespace:
        return _matches(_WORDS_OR_SYMBOLS_RE, WORD_CLASSES), None
    if kind is BertPreTokenizer:
        return _matches(_BERT_RE, PUNCT_CLASSES), None
    if kind is ByteLevel:
        return _byte_level(pre_tokenizer.add_prefix_space, pre_tokenizer.use_regex), text_to_chars
    if kind is Metaspace:
        return _metaspace(pre_tokenizer), None
    return None


def _matches(rx: regex.Pattern, classes: Optional[ClassMap]) -> Splitter:
    """The non-empty matches of ``rx`` (run on the class view of non-ASCII text, as the pre-tokenizer does)."""
    findall, finditer = rx.findall, rx.finditer

    def split(text: str) -> list:
        if classes is None or text.isascii():
            return findall(text)  # none of these patterns matches the empty string
        return [text[m.start():m.end()] for m in finditer(text.translate(classes)) if m.end() > m.start()]

    return split


def _byte_level(add_prefix_space: bool, use_regex: bool) -> Splitter:
    """The words before their rewrite to byte characters (``text_to_chars``)."""
    gpt2 = _matches(GPT2_REGEX, ONIG_CLASSES)

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
