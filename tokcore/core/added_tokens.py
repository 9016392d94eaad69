"""Added tokens: strings matched in the input before any other stage, as HF tokenizers does.

Matching is leftmost-longest. Tokens with ``normalized=False`` are matched in the raw input,
tokens with ``normalized=True`` in the normalized text (against their own normalized form).
``single_word`` rejects a match glued to a word character; ``lstrip``/``rstrip`` let the match
swallow the whitespace on that side (the span then covers it, as in HF).

Left out: how a matched token is turned into an id (``tokcore.tokenizer`` does that).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Optional

import regex

from .errors import TokenizerFileError


@dataclass(frozen=True)
class AddedToken:
    """A string the tokenizer matches whole. ``special`` tokens get ``special_tokens_mask`` 1."""

    content: str
    id: int
    special: bool = False
    single_word: bool = False
    lstrip: bool = False
    rstrip: bool = False
    normalized: bool = True

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "content": self.content,
            "single_word": self.single_word,
            "lstrip": self.lstrip,
            "rstrip": self.rstrip,
            "normalized": self.normalized,
            "special": self.special,
        }

    @classmethod
    def from_dict(cls, data: dict, *, source: object = "<dict>", where: str = "added_tokens") -> "AddedToken":
        if not isinstance(data, dict):
            raise TokenizerFileError(source, "each added token must be an object", where=where)
        content, id_ = data.get("content"), data.get("id")
        if not isinstance(content, str) or not content:
            raise TokenizerFileError(source, "an added token needs a non-empty string 'content'", where=where)
        if isinstance(id_, bool) or not isinstance(id_, int) or not 0 <= id_ < 2**32:
            raise TokenizerFileError(source, f"added token {content!r} needs an integer 'id' in [0, 2**32) (got {id_!r})",
                                     where=where)
        special = bool(data.get("special", False))
        return cls(
            content=content,
            id=id_,
            special=special,
            single_word=bool(data.get("single_word", False)),
            lstrip=bool(data.get("lstrip", False)),
            rstrip=bool(data.get("rstrip", False)),
            normalized=bool(data.get("normalized", not special)),
        )


Match = tuple[int, int, Optional[AddedToken]]


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


class _Matcher:
    """Leftmost-longest search for a fixed set of strings (one compiled alternation)."""

    def __init__(self, patterns: dict[str, AddedToken]):
        self.by_text = patterns
        if patterns:
            alts = sorted(patterns, key=lambda s: (-len(s), s))
            self.rx = regex.compile("|".join(regex.escape(a) for a in alts))
        else:
            self.rx = None

    def find(self, text: str) -> list[tuple[int, int, AddedToken]]:
        if self.rx is None or not text:
            return []
        found = []
        prev_stop = 0
        for m in self.rx.finditer(text):
            start, stop = m.span()
            tok = self.by_text[m.group()]
            if tok.single_word:
                if start > 0 and _is_word_char(text[start - 1]):
                    continue
                if stop < len(text) and _is_word_char(text[stop]):
                    continue
            if tok.lstrip:
                while start > prev_stop and text[start - 1].isspace():
                    start -= 1
            if tok.rstrip:
                while stop < len(text) and text[stop].isspace():
                    stop += 1
            if found and start < found[-1][1]:
                continue
            found.append((start, stop, tok))
            prev_stop = stop
        return found


def split_with_matches(text: str, matches: Iterable[tuple[int, int, AddedToken]]) -> list[Match]:
    """Cover ``text`` with segments: ``(start, stop, token)`` for matches, ``(start, stop, None)`` between.

    ``split_with_matches("ab", [])`` is ``[(0, 2, None)]``; empty segments are dropped.
    """
    out: list[Match] = []
    pos = 0
    for start, stop, tok in matches:
        if start > pos:
            out.append((pos, start, None))
        out.append((start, stop, tok))
        pos = stop
    if pos < len(text) or not out:
        out.append((pos, len(text), None))
    return [seg for seg in out if seg[1] > seg[0]]


class AddedVocabulary:
    """The added tokens of a tokenizer, with their two matchers (raw and normalized)."""

    def __init__(self, tokens: Iterable[AddedToken] = (), *, normalize: Callable[[str], str] | None = None):
        self.tokens: list[AddedToken] = list(tokens)
        self._normalize = normalize
        self._by_content = {t.content: t for t in self.tokens}
        self._by_id = {t.id: t for t in self.tokens}
        self._cache: dict[tuple[bool, bool], _Matcher] = {}

    def __len__(self) -> int:
        return len(self.tokens)

    def __iter__(self):
        return iter(self.tokens)

    def token_to_id(self, content: str) -> int | None:
        tok = self._by_content.get(content)
        return None if tok is None else tok.id

    def id_to_token(self, id: int) -> AddedToken | None:
        return self._by_id.get(id)

    def special_ids(self) -> set[int]:
        return {t.id for t in self.tokens if t.special}

    def _matcher(self, normalized: bool, split_special: bool) -> _Matcher:
        key = (normalized, split_special)
        m = self._cache.get(key)
        if m is None:
            patterns: dict[str, AddedToken] = {}
            for t in self.tokens:
                if split_special and t.special:
                    continue
                if t.normalized != normalized:
                    continue
                content = t.content
                if normalized and self._normalize is not None:
                    content = self._normalize(content) or content
                patterns.setdefault(content, t)
            m = self._cache[key] = _Matcher(patterns)
        return m

    def split_raw(self, text: str, *, split_special: bool = False) -> list[Match]:
        """Segments of the raw input around tokens that match before normalization."""
        return split_with_matches(text, self._matcher(False, split_special).find(text))

    def split_normalized(self, text: str, *, split_special: bool = False) -> list[Match]:
        """Segments of normalized text around tokens that match after normalization."""
        return split_with_matches(text, self._matcher(True, split_special).find(text))

    def split_all(self, text: str, *, split_special: bool = False) -> list[Match]:
        """Segments of already-normalized text around every added token (used with ``assume_normalized``)."""
        raw = self._matcher(False, split_special)
        norm = self._matcher(True, split_special)
        if raw.rx is None:
            return split_with_matches(text, norm.find(text))
        if norm.rx is None:
            return split_with_matches(text, raw.find(text))
        merged = _Matcher({**norm.by_text, **raw.by_text})
        return split_with_matches(text, merged.find(text))
