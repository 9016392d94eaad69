"""The Unicode character properties HF tokenizers' normalizers use, where they differ from ``unicodedata``.

HF tokenizers links Rust crates with frozen Unicode data: Unicode normalization and
``StripAccents``' combining marks come from Unicode 9.0, BertNormalizer's categories from
Unicode 8.0. Python's ``unicodedata`` is newer, so characters assigned since carry properties
HF does not see. Each table below lists, as hexadecimal ranges, the code points where HF's view
differs from ``unicodedata`` 14.0 (Python 3.11). They were measured by running every code point
through ``tokenizers`` 0.23; ``tests/engine/test_normalizers.py`` measures again and must agree.

Case mapping is Rust's current one (``char::to_lowercase``): it differs from ``unicodedata`` only
on capital letters that Unicode 16.0 and 17.0 gave a lower case, which ``lower`` adds.

Left out: grapheme clusters (the ``regex`` module's ``\\X``).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import regex


def parse_ranges(spec: str) -> frozenset[str]:
    """Characters of ``"41-43 61"``-style hex ranges. ``parse_ranges("41-42 61") == {"A", "B", "a"}``."""
    out: set[str] = set()
    for item in spec.split():
        lo, _, hi = item.partition("-")
        out.update(map(chr, range(int(lo, 16), int(hi or lo, 16) + 1)))
    return frozenset(out)


# Characters HF's NFC/NFD/NFKC/NFKD leave alone: a decomposition, a non-zero combining class or a
# composition that only later Unicode versions gave them. HF treats each as an inert starter.
NORM_INERT = parse_ranges("""
7FD 898-89F 8CA-8D3 9FE C3C D3B-D3C EBA 1715 1ABF-1ACE 1DF6-1DFA 32FF A7F2-A7F4 A82C AB69
10781-10785 10787-107B0 107B2-107BA 10D24-10D27 10EAB-10EAC 10F46-10F50 10F82-10F85 11070 1133B
1145E 11839-1183A 11930 11938 1193D-1193E 11943 119E0 11A34 11A47 11A99 11D42 11D44-11D45 11D97
16FF0-16FF1 1E130-1E136 1E2AE 1E2EC-1E2EF 1F16C 1FBF0-1FBF9
""")

# Marks (M*) that HF's StripAccents keeps, and non-marks it removes.
_MARK_NOT = parse_ranges("""
7FD 898-89F 8CA-8D3 9FE AFA-AFF B55 C04 C3C D00 D3B-D3C D81 EBA 1715 180F 1ABF-1ACE 1CF7 1DF6-1DFA
A82C A8FF 10D24-10D27 10EAB-10EAC 10F46-10F50 10F82-10F85 11070 11073-11074 110C2 11145-11146 111C9
111CE-111CF 1133B 1145E 1182C-1183A 11930-11935 11937-11938 1193B-1193E 11940 11942-11943
119D1-119D7 119DA-119E0 119E4 11A01-11A0A 11A33-11A39 11A3B-11A3E 11A47 11A51-11A5B 11A8A-11A99
11D31-11D36 11D3A 11D3C-11D3D 11D3F-11D45 11D47 11D8A-11D8E 11D90-11D91 11D93-11D97 11EF3-11EF6
16F4F 16F7F-16F87 16FE4 16FF0-16FF1 1CF00-1CF2D 1CF30-1CF46 1E130-1E136 1E2AE 1E2EC-1E2EF
""")
_MARK_EXTRA = parse_ranges("1CF2-1CF3")

# Nonspacing marks (Mn) that BertNormalizer's accent stripping keeps, and non-Mn it removes.
_MN_NOT = parse_ranges("""
7FD 898-89F 8CA-8E1 9FE AFA-AFF B55 C04 C3C D00 D3B-D3C D81 EBA 180F 1885-1886 1ABF-1ACE 1DF6-1DFB
A82C A8C5 A8FF A9BD 10D24-10D27 10EAB-10EAC 10F46-10F50 10F82-10F85 11070 11073-11074 110C2 111C9
111CF 1123E 1133B 11438-1143F 11442-11444 11446 1145E 1182F-11837 11839-1183A 1193B-1193C 1193E
11943 119D4-119D7 119DA-119DB 119E0 11A01-11A0A 11A33-11A38 11A3B-11A3E 11A47 11A51-11A56
11A59-11A5B 11A8A-11A96 11A98-11A99 11C30-11C36 11C38-11C3D 11C3F 11C92-11CA7 11CAA-11CB0
11CB2-11CB3 11CB5-11CB6 11D31-11D36 11D3A 11D3C-11D3D 11D3F-11D45 11D47 11D90-11D91 11D95 11D97
11EF3-11EF4 16F4F 16FE4 1CF00-1CF2D 1CF30-1CF46 1E000-1E006 1E008-1E018 1E01B-1E021 1E023-1E024
1E026-1E02A 1E130-1E136 1E2AE 1E2EC-1E2EF 1E944-1E94A
""")
_MN_EXTRA = parse_ranges("1734")

# Format characters (Cf) that BertNormalizer's clean_text keeps.
_OTHER_NOT = parse_ranges("890-891 8E2 110CD 13430-13438")

# Rust's char::is_whitespace (the White_Space property); unlike str.isspace it excludes U+001C..U+001F.
WHITE_SPACE = parse_ranges("9-D 20 85 A0 1680 2000-200A 2028-2029 202F 205F 3000")


@lru_cache(maxsize=4096)
def is_mark(ch: str) -> bool:
    """HF StripAccents' combining mark (Unicode 9 M*). ``is_mark("\\u0301") and not is_mark("e")``."""
    if ch in _MARK_NOT:
        return False
    return ch in _MARK_EXTRA or unicodedata.category(ch)[0] == "M"


@lru_cache(maxsize=4096)
def is_nonspacing_mark(ch: str) -> bool:
    """BertNormalizer's Mn test (Unicode 8). ``is_nonspacing_mark("\\u0301") and not is_nonspacing_mark("\\u0903")``."""
    if ch in _MN_NOT:
        return False
    return ch in _MN_EXTRA or unicodedata.category(ch) == "Mn"


@lru_cache(maxsize=4096)
def is_bert_control(ch: str) -> bool:
    """Characters BertNormalizer's clean_text drops: NUL, U+FFFD and Cc/Cf/Co/Cs except tab, LF, CR.

    ``is_bert_control("\\x00") and not is_bert_control("\\t")``. Unassigned code points are kept, as HF does.
    """
    if ch in "\t\n\r":
        return False
    if ch == "\x00" or ch == "\ufffd":
        return True
    return unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs") and ch not in _OTHER_NOT


# Capital letters Unicode 16.0 and 17.0 gave a lower case (Rust's char::to_lowercase in tokenizers
# 0.23 maps them; unicodedata 14.0 does not): (first, last, lower case minus capital) per run,
# measured as the tables above; only those this Python leaves as they are. The lane's views and
# BertText lower with lower() too (a BertNormalizer without clean_text keeps unassigned characters).
_NEWER_CASES = ((0x1C89, 0x1C89, 1), (0xA7CB, 0xA7CB, -42343), (0xA7CC, 0xA7CC, 1), (0xA7CE, 0xA7CE, 1),
                (0xA7D2, 0xA7D2, 1), (0xA7D4, 0xA7D4, 1), (0xA7DA, 0xA7DA, 1), (0xA7DC, 0xA7DC, -42561),
                (0x10D50, 0x10D65, 32), (0x16EA0, 0x16EB8, 27))
NEWER_LOWER = {c: c + d for first, last, d in _NEWER_CASES for c in range(first, last + 1) if chr(c).lower() == chr(c)}
_NEWER_CAPITAL = regex.compile("[" + "".join(map(chr, NEWER_LOWER)) + "]") if NEWER_LOWER else None


def lower(text: str) -> str:
    """``str.lower`` with the newer capitals lowered too, as Rust's ``char::to_lowercase`` lowers them
    (Rust lowers character by character: callers keep ``"Σ"`` from taking its final form).
    ``lower("Ab\\U00010d50") == "ab\\U00010d70"``."""
    low = text.lower()
    if _NEWER_CAPITAL is None or low.isascii() or _NEWER_CAPITAL.search(low) is None:
        return low
    return low.translate(NEWER_LOWER)
