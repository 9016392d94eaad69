"""Splitting identifiers into words: camelCase, PascalCase, snake_case, kebab-case, SCREAMING_CASE, acronyms, digits.

``split_identifier("XMLHttpRequest") == ["XML", "Http", "Request"]``: a run of capitals followed
by a capitalised word keeps all but its last capital (``HTTPServer`` -> HTTP, Server); digits
form their own part; ``_``, ``-``, ``$`` and other separators are dropped.

Left out: anything language-specific (reserved words, dunder names): the code tokenizer decides
which tokens are identifiers.
"""

from __future__ import annotations

import regex

from ..core.errors import check_text

# Order matters: an acronym before a capitalised word, then capitalised/lower words, then the
# rest of a capital run, then digits, then any other letters (scripts without case).
_PART = regex.compile(r"\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{Nd}+|[\p{L}\p{M}\p{Nl}]+")


def split_identifier_spans(name: str) -> list[tuple[str, tuple[int, int]]]:
    """Parts with 0-based character spans. ``split_identifier_spans("get_id") == [("get", (0, 3)), ("id", (4, 6))]``."""
    check_text(name, name="name")
    return [(m.group(), m.span()) for m in _PART.finditer(name)]


def split_identifier(name: str) -> list[str]:
    """Words of an identifier. ``split_identifier("getUserName") == ["get", "User", "Name"]``."""
    return [part for part, _ in split_identifier_spans(name)]
