"""Code-aware tokenization: syntax-typed tokens from real tree-sitter parsers, with exact offsets.

``tokenize_code`` walks the concrete syntax tree of ``tree-sitter-language-pack``'s prebuilt
grammars: leaves become tokens typed keyword/identifier/string/number/comment/operator/
punctuation/error, the gaps between them whitespace and newline tokens, and indentation-
sensitive languages (Python) get indent tokens (the leading whitespace) and zero-width dedent
tokens. Tokens cover the source exactly once, in order. Offsets follow the contract (1-based
UTF-8 bytes of the code).

Left out: subword encoding of the tokens (``tokcore.code_subwords``) and identifier splitting
(``tokcore.identifiers``). The parser package is imported on first use, never at import time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..core.errors import ConfigurationError, check_text

LANGUAGES = {
    "python": "python",
    "py": "python",
    "javascript": "javascript",
    "js": "javascript",
    "typescript": "typescript",
    "ts": "typescript",
    "java": "java",
    "csharp": "csharp",
    "c#": "csharp",
    "cs": "csharp",
    "go": "go",
    "rust": "rust",
    "rs": "rust",
    "c": "c",
    "cpp": "cpp",
    "c++": "cpp",
}
SUPPORTED = ("python", "javascript", "typescript", "java", "csharp", "go", "rust", "c", "cpp")
INDENT_LANGUAGES = frozenset({"python"})

TOKEN_TYPES = (
    "keyword", "identifier", "string", "number", "comment", "operator", "punctuation",
    "whitespace", "newline", "indent", "dedent", "error",
)

# Node types whose whole text is one literal (their inner leaves would miss the string body).
_STRING_NODES = frozenset({
    "string", "string_literal", "raw_string_literal", "template_string", "interpreted_raw_string_literal",
    "interpreted_string_literal", "char_literal", "character_literal", "verbatim_string_literal",
    "concatenated_string", "rune_literal", "string_fragment", "interpolated_string_expression",
    "raw_string", "text_block", "interpolated_verbatim_string_text",
})
_NUMBER_HINTS = ("integer", "float", "number", "int_literal", "real_literal", "decimal", "hex", "octal", "binary_literal")
_KEYWORD_LEAVES = frozenset({
    "true", "false", "none", "null", "nil", "this", "self", "super", "primitive_type", "predefined_type",
    "boolean", "null_literal", "boolean_literal", "void_type", "integral_type", "floating_point_type", "iota",
})
_PUNCTUATION = frozenset({"(", ")", "[", "]", "{", "}", ",", ";", ".", ":", "::", "...", "..", "?.", "@", "#"})


@dataclass(frozen=True)
class CodeToken:
    """One token of source code: its text, syntax type and contract offsets (plus tree-sitter's node type)."""

    text: str
    type: str
    offsets: tuple[int, int]
    node_type: str = ""


def resolve_language(language: str) -> str:
    """Canonical language name. ``resolve_language("C++") == "cpp"``; unknown names raise listing the supported ones."""
    key = language.strip().lower() if isinstance(language, str) else None
    if key not in LANGUAGES:
        raise ConfigurationError(
            f"unsupported language {language!r}; supported: {', '.join(SUPPORTED)} (aliases: py, js, ts, c#, cs, rs, c++)"
        )
    return LANGUAGES[key]


@lru_cache(maxsize=None)
def _parser(language: str):
    try:
        from tree_sitter_language_pack import get_parser
    except ImportError:  # pragma: no cover - depends on the environment
        raise ConfigurationError(
            "code tokenization needs tree-sitter grammars: pip install 'tree-sitter-language-pack==0.13.0'"
        ) from None
    return get_parser(language)


def _leaf_type(node, text: str) -> str:
    kind = node.type
    if kind == "ERROR":
        return "error"
    if "comment" in kind:
        return "comment"
    if not node.is_named:
        if text[:1].isalpha() or text[:1] == "_" or (text[:1] == "#" and text[1:2].isalpha()):
            return "keyword"
        if node.parent is not None and node.parent.type == "ERROR":
            return "error"
        return "punctuation" if text in _PUNCTUATION else "operator"
    if kind in _STRING_NODES or "string" in kind:
        return "string"
    if "identifier" in kind or kind in ("name", "field_name", "label"):
        return "identifier"
    if kind in _KEYWORD_LEAVES or (kind == text and text.isalpha()):
        return "keyword"
    if any(h in kind for h in _NUMBER_HINTS) or text[:1].isdigit():
        return "number"
    if text[:1].isalpha() or text[:1] == "_":
        return "identifier"
    return "punctuation" if text in _PUNCTUATION else "operator"


def _syntax_spans(root, data: bytes):
    """(start_byte, end_byte, type, node_type) for every leaf or atomic literal, in order."""
    out = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.start_byte == node.end_byte and not node.children:
            continue  # zero-width MISSING nodes carry no source text
        if node.type in _STRING_NODES or "comment" in node.type or not node.children:
            text = data[node.start_byte : node.end_byte].decode("utf-8", "replace")
            kind = _leaf_type(node, text)
            out.append((node.start_byte, node.end_byte, kind, node.type))
            continue
        stack.extend(reversed(node.children))
    out.sort(key=lambda t: (t[0], -t[1]))
    return out


def _gap_tokens(data: bytes, start: int, stop: int) -> list[tuple[int, int, str]]:
    """Split an unparsed gap into newline, whitespace and (non-space leftovers) error runs."""
    out = []
    i = start
    while i < stop:
        b = data[i]
        if b == 0x0A or b == 0x0D:
            j = i + 2 if data[i : i + 2] == b"\r\n" else i + 1
            out.append((i, j, "newline"))
            i = j
            continue
        j = i
        space = b in b" \t\f\v"
        while j < stop and data[j] not in b"\r\n" and (data[j] in b" \t\f\v") == space:
            j += 1
        out.append((i, j, "whitespace" if space else "error"))
        i = j
    return out


def tokenize_code(code: str, language: str) -> list[CodeToken]:
    """Syntax-typed tokens covering ``code`` exactly once, in order.

    ``[t.type for t in tokenize_code("x = 1", "python")] == ["identifier", "whitespace", "operator", "whitespace", "number"]``.
    """
    code = check_text(code, name="code")
    lang = resolve_language(language)
    data = code.encode("utf-8")
    tree = _parser(lang).parse(data)
    raw: list[tuple[int, int, str, str]] = []
    pos = 0
    for start, stop, kind, node_type in _syntax_spans(tree.root_node, data):
        if stop <= pos:
            continue  # nested inside an atomic literal already emitted
        start = max(start, pos)
        for a, b, k in _gap_tokens(data, pos, start):
            raw.append((a, b, k, ""))
        raw.append((start, stop, kind, node_type))
        pos = stop
    for a, b, k in _gap_tokens(data, pos, len(data)):
        raw.append((a, b, k, ""))
    if lang in INDENT_LANGUAGES:
        raw = _mark_indentation(raw, data)
    return [CodeToken(data[a:b].decode("utf-8"), k, (a + 1, b + 1), nt) for a, b, k, nt in raw]


def _mark_indentation(raw, data: bytes):
    """Leading whitespace that opens a deeper block becomes ``indent``; each closed level a zero-width ``dedent``."""
    out = []
    levels = [0]
    at_line_start = True
    i = 0
    while i < len(raw):
        a, b, k, nt = raw[i]
        dedents = 0
        if at_line_start and k != "newline":
            width = b - a if k == "whitespace" else 0
            nxt = raw[i + 1][2] if k == "whitespace" and i + 1 < len(raw) else k
            blank = nxt in ("newline", "comment") if k == "whitespace" else k == "comment"
            if not blank:
                if width > levels[-1]:
                    levels.append(width)
                    if k == "whitespace":
                        k = "indent"
                while len(levels) > 1 and width < levels[-1]:
                    levels.pop()
                    dedents += 1
            at_line_start = False
        if k == "whitespace" and dedents:
            out.append((a, b, k, nt))
            out.extend([(b, b, "dedent", "")] * dedents)
        else:
            out.extend([(a, a, "dedent", "")] * dedents)
            out.append((a, b, k, nt))
        if k == "newline":
            at_line_start = True
        i += 1
    end = raw[-1][1] if raw else 0
    while len(levels) > 1:
        levels.pop()
        out.append((end, end, "dedent", ""))
    return out
