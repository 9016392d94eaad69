"""sentencepiece's whitespace rules as a normalizer, after its charsmap (``Precompiled``).

Leading and trailing spaces removed, runs of spaces collapsed to the first one, ``" "`` escaped
to ``"▁"``, and a dummy ``"▁"`` prepended (or appended with ``treat_whitespace_as_suffix``) that
covers no source text. ``to_hf_dict`` writes the equivalent chain of HF normalizers.

Left out: the charsmap itself (``tokcore.normalizers.precompiled``) and reading ``.model`` files
(``tokcore.loaders``).
"""

from __future__ import annotations

import re

from ..core.components import Normalizer, register
from ..core.normalized import NormalizedString

SPACE_SYMBOL = "\u2581"


_RUNS = re.compile(" +|[^ ]+")


def sentencepiece_alignment(ns: NormalizedString, end: int) -> NormalizedString:
    """Re-align as sentencepiece does: character i covers ``[start_i, start_{i+1})`` of the original.

    sentencepiece keeps one original position per normalized byte, so a token spans from its
    first character's source start to the next token's: removed text (collapsed spaces, deleted
    controls) goes to the token before it, and a token ending inside an expansion (``"ﬁ"`` ->
    ``"fi"``) covers nothing of it but its last character. ``end`` closes the last character.
    """
    starts = list(ns._bounds()[0])
    ends = starts[1:]
    ends.append(end)
    return NormalizedString(ns.original, ns.normalized, starts, list(map(max, starts, ends)))


@register("normalizer")
class SentencePieceWhitespace(Normalizer):
    """sentencepiece's whitespace rules after its charsmap.

    ``SentencePieceWhitespace().normalize_str("  a   b ") == "▁a▁b"``. The dummy ``▁`` is an insertion
    (empty source span); a collapsed run keeps its first space; trailing ``▁`` are removed as
    sentencepiece removes them, literal ones included.
    """

    def __init__(self, *, add_dummy_prefix: bool = True, remove_extra_whitespaces: bool = True,
                 escape_whitespaces: bool = True, treat_whitespace_as_suffix: bool = False):
        self.add_dummy_prefix = bool(add_dummy_prefix)
        self.remove_extra_whitespaces = bool(remove_extra_whitespaces)
        self.escape_whitespaces = bool(escape_whitespaces)
        self.treat_whitespace_as_suffix = bool(treat_whitespace_as_suffix)

    def normalize(self, ns: NormalizedString) -> NormalizedString:
        text = ns.normalized
        if (self.remove_extra_whitespaces and self.escape_whitespaces and self.add_dummy_prefix
                and not self.treat_whitespace_as_suffix and SPACE_SYMBOL not in text):
            fast = self._normalize_runs(ns)
            if fast is not None:
                return fast
        return self._normalize_chars(ns)

    def _normalize_runs(self, ns: NormalizedString) -> NormalizedString | None:
        """The default options without a literal ``"▁"`` in the text, by runs instead of characters.

        Same pieces for ``rebuild`` as ``_normalize_chars`` up to joining neighbours that map
        one to one (which ``rebuild`` aligns identically).
        """
        text = ns.normalized
        n = len(text)
        start = n - len(text.lstrip(" "))
        tail = len(text.rstrip(" "))
        if start >= tail:
            return None
        if ns.is_identity and "  " not in text[start:tail]:
            # The common line: words apart by single spaces, untouched by the charsmap, perhaps
            # indented or with spaces after it. The dummy "▁" covers nothing where the words
            # start, each kept character covers itself and the spaces cut at either end cover
            # nothing: what rebuild and sentencepiece_alignment make of the pieces below,
            # written down directly.
            kept = text[start:tail] if start or tail < n else text
            return NormalizedString(ns.original, SPACE_SYMBOL + kept.replace(" ", SPACE_SYMBOL),
                                    [start, *range(start, tail)], list(range(start, tail + 1)))
        out: list[tuple[str, int, int]] = [("", 0, start)] if start else []
        out.append((SPACE_SYMBOL, start, start))
        for m in _RUNS.finditer(text, start, tail):
            s, e = m.span()
            if text[s] == " ":
                out.append((SPACE_SYMBOL, s, s + 1))
                if e > s + 1:
                    out.append(("", s + 1, e))
            else:
                out.append((m.group(), s, e))
        if tail < n:
            out.append(("", tail, n))
        result = ns.rebuild(out)
        end = len(ns.original) if tail == n else ns.original_position(tail)
        return sentencepiece_alignment(result, end)

    def _normalize_chars(self, ns: NormalizedString) -> NormalizedString:
        text = ns.normalized
        n = len(text)
        start = 0
        if self.remove_extra_whitespaces:
            while start < n and text[start] == " ":
                start += 1
        if start == n:
            return ns.rebuild([("", 0, n)]) if n else ns
        space = SPACE_SYMBOL if self.escape_whitespaces else " "
        out: list[tuple[str, int, int]] = [("", 0, start)] if start else []
        dummy = self.add_dummy_prefix
        if dummy and not self.treat_whitespace_as_suffix:
            out.append((SPACE_SYMBOL, start, start))
        prev_space = self.remove_extra_whitespaces
        for i in range(start, n):
            ch = text[i]
            if ch == " ":
                if prev_space and self.remove_extra_whitespaces:
                    out.append(("", i, i + 1))
                    continue
                out.append((space, i, i + 1))
                prev_space = True
            else:
                out.append((ch, i, i + 1))
                prev_space = False
        trimmed_from = None
        if self.remove_extra_whitespaces:
            # Drop trailing space symbols (sentencepiece also drops a literal trailing "▁").
            for k in range(len(out) - 1, -1, -1):
                t, s, e = out[k]
                if t and t != space:
                    break
                out[k] = ("", s, e)
                trimmed_from = s
        if dummy and self.treat_whitespace_as_suffix:
            out.append((SPACE_SYMBOL, n, n))
        result = ns.rebuild(out)
        if not result.normalized:
            return result
        end = len(ns.original) if trimmed_from is None else ns.original_position(trimmed_from)
        return sentencepiece_alignment(result, end)

    def to_dict(self) -> dict:
        return {"type": "SentencePieceWhitespace", "add_dummy_prefix": self.add_dummy_prefix,
                "remove_extra_whitespaces": self.remove_extra_whitespaces, "escape_whitespaces": self.escape_whitespaces,
                "treat_whitespace_as_suffix": self.treat_whitespace_as_suffix}

    def to_hf_dict(self) -> dict:
        # HF has no such normalizer; regex replacements give the same text.
        steps = []
        if self.remove_extra_whitespaces:
            tail = "[ \u2581]+\\z" if self.escape_whitespaces else " +\\z"
            steps += [{"type": "Replace", "pattern": {"Regex": f"\\A +|{tail}"}, "content": ""},
                      {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}]
        if self.escape_whitespaces:
            steps.append({"type": "Replace", "pattern": {"String": " "}, "content": SPACE_SYMBOL})
        if self.add_dummy_prefix:
            if self.treat_whitespace_as_suffix:
                steps.append({"type": "Append", "append": SPACE_SYMBOL})
            else:
                steps.append({"type": "Prepend", "prepend": SPACE_SYMBOL})
        return {"type": "Sequence", "normalizers": steps}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(**{k: bool(data.get(k, d)) for k, d in (("add_dummy_prefix", True), ("remove_extra_whitespaces", True),
                                                           ("escape_whitespaces", True), ("treat_whitespace_as_suffix", False))})
