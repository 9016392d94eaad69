"""What the Code page shows, as plain data and escaped HTML: syntax-coloured code, identifier splits, counts.

``code_html(tokens)`` draws ``tokcore.tokenize_code``'s tokens over the code, one coloured span
per token (its syntax type), so the picture is the source itself, byte for byte.
``subwords_html(code, subwords)`` draws ``tokcore.encode_code``'s units as chips coloured by the
syntax type of the token they came from. ``count_rows`` sets syntax tokens, syntax-aware
subwords and plain subwords side by side, per type.

Left out: parsing and encoding (``tokcore.code``, ``tokcore.code_subwords``) and page layout.
"""

from __future__ import annotations

from collections import Counter
from html import escape

from tokcore.extras.code import TOKEN_TYPES
from tokcore.extras.identifiers import split_identifier

from .visible import visible

# Light backgrounds with dark text (contrast above 10:1 with #1a1a1a), one per syntax type.
TYPE_COLORS: dict[str, str] = {
    "keyword": "#d0bfff",
    "identifier": "#a5d8ff",
    "string": "#b2f2bb",
    "number": "#ffec99",
    "comment": "#e9ecef",
    "operator": "#ffc9c9",
    "punctuation": "#f1f3f5",
    "indent": "#fff3bf",
    "dedent": "#fff3bf",
    "error": "#ff8787",
}
LANGUAGE_LABELS = {
    "python": "Python", "javascript": "JavaScript", "typescript": "TypeScript", "java": "Java",
    "csharp": "C#", "go": "Go", "rust": "Rust", "c": "C", "cpp": "C++",
}

SAMPLES: dict[str, str] = {
    "python": '''def fibonacci(n: int) -> list[int]:
    """Return the first n Fibonacci numbers."""
    seq = [0, 1]
    while len(seq) < n:
        seq.append(seq[-1] + seq[-2])  # next term
    return seq[:n]


class TokenCounter:
    MAX_TOKENS = 4096

    def __init__(self, tokenizer):
        self.tokenizer = tokenizer
        self.total_count = 0
''',
    "javascript": '''function getUserName(user) {
  // Fall back when the profile is missing.
  if (!user || !user.profile) {
    return "anonymous";
  }
  return user.profile.firstName + " " + user.profile.lastName;
}

const xmlHttpRequest = new XMLHttpRequest();
xmlHttpRequest.open("GET", `/api/v1/items?limit=${20}`, true);
''',
    "typescript": '''interface HttpServerError {
  statusCode: number;
  message?: string;
}

export function isRetryable(err: HttpServerError): boolean {
  return err.statusCode >= 500 && err.statusCode !== 501;
}
''',
    "java": '''public class TokenCounter {
    private static final int MAX_BUFFER_SIZE = 1024;
    private int totalCount = 0;

    /** Adds the tokens of one line. */
    public int addLine(String line) {
        int n = line.split("\\\\s+").length;
        totalCount += n;
        return n;
    }
}
''',
    "csharp": '''public sealed class UserProfile
{
    public string FirstName { get; init; } = "";
    public int LoginCount { get; private set; }

    // Counts one more login.
    public void RecordLogin() => LoginCount++;
}
''',
    "go": '''package main

import "fmt"

// parseHTTPHeader splits "Key: value".
func parseHTTPHeader(line string) (string, string) {
	for i := 0; i < len(line); i++ {
		if line[i] == ':' {
			return line[:i], line[i+1:]
		}
	}
	return line, ""
}

func main() { fmt.Println(parseHTTPHeader("Content-Type: text/html")) }
''',
    "rust": '''fn parse_header(line: &str) -> Option<(String, String)> {
    let (key, value) = line.split_once(':')?;
    Some((key.trim().to_lowercase(), value.trim().to_string()))
}

const MAX_HEADER_LEN: usize = 8_192;
''',
    "c": '''#include <stdint.h>

#define MAX_BUFFER_SIZE 256

/* Fill the buffer with a simple pattern. */
void fill_buffer(uint8_t *buffer) {
    for (int i = 0; i < MAX_BUFFER_SIZE; ++i) {
        buffer[i] = (uint8_t)(i * 31 % 256);
    }
}
''',
    "cpp": '''#include <string>
#include <vector>

// Split camelCase words: getUserName -> get, User, Name.
std::vector<std::string> splitCamelCase(const std::string& name) {
    std::vector<std::string> parts{""};
    for (char c : name) {
        if (std::isupper(static_cast<unsigned char>(c)) && !parts.back().empty()) parts.emplace_back();
        parts.back() += c;
    }
    return parts;
}
''',
}

STYLE = """
.ck-code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:14px;line-height:1.7;
  white-space:pre;overflow-x:auto;padding:10px;border:1px solid #dee2e6;border-radius:6px;background:#fff;
  color:#1a1a1a;margin:0}
.ck-tok{border-radius:3px;padding:1px 0;box-shadow:inset 0 0 0 1px rgba(0,0,0,.07)}
.ck-comment{font-style:italic;color:#343a40}
.ck-error{outline:2px solid #e03131}
.ck-dedent{display:inline-block;width:0;overflow:visible;position:relative;left:-.6ch;color:#a61e4d;font-size:13px;
  top:-.45em;line-height:0;box-shadow:none}
.ck-indent{background-image:repeating-linear-gradient(90deg,transparent 0 3px,rgba(0,0,0,.08) 3px 4px)}
.ck-strip{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:14px;line-height:2.1;
  padding:10px;border:1px solid #dee2e6;border-radius:6px;background:#fff;color:#1a1a1a;overflow-wrap:anywhere}
.ck-chip{display:inline-flex;flex-direction:column;align-items:center;vertical-align:top;margin:2px 1px;
  padding:0 3px;border-radius:4px;line-height:1.25;border:1px solid rgba(0,0,0,.08);color:#1a1a1a}
.ck-chip .ck-txt{white-space:pre}
.ck-chip .ck-id{font-size:10px;color:#495057;line-height:1.1}
.ck-legend{line-height:2.2;font-size:14px}
.ck-li{white-space:nowrap;margin-right:12px}
.ck-more{color:#868e96;font-style:italic}
.ck-legend .ck-dedent{width:auto;left:0;top:0;line-height:1;margin-right:3px}
.st-key-code_text textarea{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
"""


def style_block() -> str:
    """The ``<style>`` element of the Code page's views."""
    return f"<style>{STYLE}</style>"


def language_label(language: str) -> str:
    """Display name. ``language_label("cpp") == "C++"``."""
    return LANGUAGE_LABELS.get(language, language)


def type_color(kind: str) -> str | None:
    """Background of a syntax type; ``None`` for whitespace and newlines. ``type_color("keyword") == "#d0bfff"``."""
    return TYPE_COLORS.get(kind)


def _span_label(offsets) -> str:
    return f"({offsets[0]}, {offsets[1]})"


def code_html(tokens, *, max_tokens: int | None = 5000) -> str:
    """The code itself, each token a span coloured by its syntax type (escaped; whitespace left as is).

    ``'data-type="keyword"' in code_html(tokcore.tokenize_code("def f(): pass", "python"))``
    """
    shown = tokens if max_tokens is None else tokens[:max_tokens]
    out = []
    for t in shown:
        if t.type in ("whitespace", "newline"):
            out.append(escape(t.text))
            continue
        title = escape(f"{t.type} · {t.node_type or '–'} · bytes {_span_label(t.offsets)}", quote=True)
        if t.type == "dedent":
            out.append(f'<span class="ck-tok ck-dedent" data-type="dedent" title="{title}">⇤</span>')
            continue
        colour = type_color(t.type)
        style = f' style="background:{colour}"' if colour else ""
        out.append(f'<span class="ck-tok ck-{t.type}" data-type="{escape(t.type, quote=True)}"{style} '
                   f'title="{title}">{escape(t.text)}</span>')
    if len(shown) < len(tokens):
        out.append(f'\n<span class="ck-more">… {len(tokens) - len(shown)} more tokens not drawn</span>')
    return f'<pre class="ck-code">{"".join(out)}</pre>'


def legend_html() -> str:
    """One chip per syntax type, in the colours ``code_html`` uses."""
    items = []
    for kind, colour in TYPE_COLORS.items():
        if kind == "dedent":
            items.append('<span class="ck-li"><span class="ck-tok ck-dedent">⇤</span> dedent (zero width)</span>')
            continue
        items.append(f'<span class="ck-li"><span class="ck-tok ck-{kind}" style="background:{colour}">'
                     f"&nbsp;{kind}&nbsp;</span></span>")
    return f'<div class="ck-legend">{"".join(items)}</div>'


def identifier_rows(tokens) -> list[dict]:
    """Each distinct identifier once, in order of appearance, with its parts and how often it occurs.

    ``identifier_rows(tokcore.tokenize_code("getUserName()", "js"))[0]["parts"] == "get · User · Name"``
    """
    counts = Counter(t.text for t in tokens if t.type == "identifier")
    rows, seen = [], set()
    for t in tokens:
        if t.type != "identifier" or t.text in seen:
            continue
        seen.add(t.text)
        parts = split_identifier(t.text)
        rows.append({"identifier": t.text, "parts": " · ".join(parts), "n parts": len(parts),
                     "occurrences": counts[t.text]})
    return rows


def _source_text(data: bytes, offsets) -> str | None:
    """The code under a contract span; ``None`` for a sentinel or a span that cuts a character."""
    s, e = offsets
    if (s, e) == (0, 0):
        return None
    try:
        return data[s - 1 : e - 1].decode("utf-8")
    except UnicodeDecodeError:
        return None


def subwords_html(code: str, subwords, *, show_ids: bool = True, max_units: int | None = 3000) -> str:
    """Syntax-aware subwords as chips coloured by their token's syntax type; a newline unit breaks the line.

    Each chip shows the source text under its span (the token string when the span cuts a character),
    and its id underneath (``–`` for literals and syntax units the vocabulary lacks).
    """
    data = code.encode("utf-8")
    shown = subwords if max_units is None else subwords[:max_units]
    out = []
    for u in shown:
        text = _source_text(data, u.offsets)
        label = visible(u.text if text is None else text) or ("⇤" if u.type == "dedent" else "∅")
        colour = type_color(u.type) or "#f8f9fa"
        title = escape(f"{u.type} · unit {visible(u.text)} · bytes {_span_label(u.offsets)} · "
                       f"id {'–' if u.id is None else u.id}", quote=True)
        ident = f'<span class="ck-id">{"–" if u.id is None else u.id}</span>' if show_ids else ""
        out.append(f'<span class="ck-chip" data-type="{escape(u.type, quote=True)}" style="background:{colour}" '
                   f'title="{title}"><span class="ck-txt">{escape(label)}</span>{ident}</span>')
        if u.type == "newline":
            out.append("<br>")
    if len(shown) < len(subwords):
        out.append(f'<span class="ck-more">… {len(subwords) - len(shown)} more units not drawn</span>')
    if not subwords:
        out.append('<span class="ck-more">(no units)</span>')
    return f'<div class="ck-strip">{"".join(out)}</div>'


def count_rows(tokens, subwords) -> list[dict]:
    """Per syntax type: how many source tokens, and how many units the syntax-aware encoder made of them."""
    by_tokens = Counter(t.type for t in tokens)
    by_units = Counter(u.type for u in subwords)
    rows = []
    for kind in TOKEN_TYPES:
        if by_tokens[kind] or by_units[kind]:
            rows.append({"type": kind, "syntax tokens": by_tokens[kind], "syntax-aware subwords": by_units[kind]})
    return rows


def summary(tokens, subwords, plain_count: int) -> dict:
    """Totals for the side-by-side metrics. Whitespace tokens are not counted as syntax tokens."""
    syntax = sum(1 for t in tokens if t.type not in ("whitespace",))
    return {
        "syntax tokens": syntax,
        "syntax-aware subwords": len(subwords),
        "plain subwords": plain_count,
        "delta": len(subwords) - plain_count,
        "identifiers": sum(1 for t in tokens if t.type == "identifier"),
        "literals": sum(1 for u in subwords if u.id is None and u.type in ("string", "number")),
    }


__all__ = ["SAMPLES", "TYPE_COLORS", "code_html", "count_rows", "identifier_rows", "language_label",
           "legend_html", "style_block", "subwords_html", "summary", "type_color"]
