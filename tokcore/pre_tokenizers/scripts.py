"""HF's ``UnicodeScripts`` pre-tokenizer: cut the text where the Unicode script changes.

HF (after sentencepiece) uses a fixed table of Unicode 9.0 scripts with three adjustments:
Hiragana, Katakana and the prolonged sound mark U+30FC count as Han (so Japanese stays in one
piece), and the space counts as *Any*, like every code point unassigned in Unicode 9.0. A piece
starts at each character whose script is not Any and differs from the last non-Any script seen;
Any characters join the piece before them, and Any characters at the very start are dropped.

Scripts come from the ``regex`` module's current Unicode data, restricted to the code points
assigned in Unicode 9.0 (``pre_tokenizers_tables.ASSIGNED_9_0``) and corrected for the few characters
whose script changed since (``_SCRIPT_CHANGES``). Both tables were checked code point by code
point against HF tokenizers 0.23 (see ``tests/engine/test_pre_tokenizers.py``).

Left out: script *extensions* (HF ignores them too).
"""

from __future__ import annotations

from bisect import bisect_right

import regex

from ..core.components import register
from ..text.char_classes import ASSIGNED_9_0, parse_ranges
from .split import CutOnly

# The scripts of Unicode 9.0 (the Script property values, ``regex`` spelling tolerant of case).
_SCRIPTS_9_0 = (
    "Common Latin Han Hangul Cyrillic Greek Arabic Hebrew Devanagari Bengali Thai Inherited Adlam Ahom "
    "AnatolianHieroglyphs Armenian Avestan Balinese Bamum BassaVah Batak Bhaiksuki Bopomofo Brahmi "
    "Braille Buginese Buhid CanadianAboriginal Carian CaucasianAlbanian Chakma Cham Cherokee Coptic "
    "Cuneiform Cypriot Deseret Duployan EgyptianHieroglyphs Elbasan Ethiopic Georgian Glagolitic Gothic "
    "Grantha Gujarati Gurmukhi Hanunoo Hatran Hiragana ImperialAramaic InscriptionalPahlavi "
    "InscriptionalParthian Javanese Kaithi Kannada Katakana KayahLi Kharoshthi Khmer Khojki Khudawadi "
    "Lao Lepcha Limbu LinearA LinearB Lisu Lycian Lydian Mahajani Malayalam Mandaic Manichaean Marchen "
    "MeeteiMayek MendeKikakui MeroiticCursive MeroiticHieroglyphs Miao Modi Mongolian Mro Multani "
    "Myanmar Nabataean NewTaiLue Newa Nko Ogham OlChiki OldHungarian OldItalic OldNorthArabian "
    "OldPermic OldPersian OldSouthArabian OldTurkic Oriya Osage Osmanya PahawhHmong Palmyrene "
    "PauCinHau PhagsPa Phoenician PsalterPahlavi Rejang Runic Samaritan Saurashtra Sharada Shavian "
    "Siddham SignWriting Sinhala SoraSompeng Sundanese SylotiNagri Syriac Tagalog Tagbanwa TaiLe "
    "TaiTham TaiViet Takri Tamil Tangut Telugu Thaana Tibetan Tifinagh Tirhuta Ugaritic Vai WarangCiti "
    "Yi"
).split()

# Characters whose Script value changed after Unicode 9.0: code point -> script in 9.0.
_SCRIPT_CHANGES = {0x0589: "Common", 0x061C: "Common", 0x0953: "Devanagari", 0x0954: "Devanagari"}
_AS_HAN = {"Hiragana", "Katakana"}


ANY = " "  # the script code of Any in a script string
_CODES = {name: chr(0x100 + i) for i, name in enumerate(_SCRIPTS_9_0)}
_CODES.update({name: _CODES["Han"] for name in _AS_HAN})
_RUNS = regex.compile(r"([^ ])(?:\1| )*")  # a piece: one script, with Any characters mixed in


class _ScriptCodes(dict):
    """code point -> script code character, filled on first sight (for ``str.translate``)."""

    def __init__(self):
        super().__init__()
        self.starts, self.stops = parse_ranges(ASSIGNED_9_0)
        self.tests = [(name, regex.compile(rf"\p{{sc={name}}}")) for name in _SCRIPTS_9_0]

    def __missing__(self, cp: int) -> str:
        script = script_of(chr(cp), self) if cp != 0x20 else "Any"
        code = _CODES.get(script, ANY)  # "Any" (and a script unknown to 9.0) joins its neighbours
        self[cp] = code
        return code


def script_of(ch: str, table: _ScriptCodes | None = None) -> str:
    """HF's script of a character (Unicode 9.0, before the Han/Any adjustments). ``script_of("a") == "Latin"``.

    Returns ``"Any"`` for code points unassigned in Unicode 9.0.
    """
    table = table or _table()
    cp = ord(ch)
    i = bisect_right(table.starts, cp) - 1
    if i < 0 or cp > table.stops[i]:
        return "Any"
    if cp in _SCRIPT_CHANGES:
        return _SCRIPT_CHANGES[cp]
    if cp == 0x30FC:
        return "Han"
    for name, rx in table.tests:
        if rx.match(ch):
            return name
    return "Any"


_TABLE: _ScriptCodes | None = None


def _table() -> _ScriptCodes:
    global _TABLE
    if _TABLE is None:
        _TABLE = _ScriptCodes()
    return _TABLE


@register("pre_tokenizer")
class UnicodeScripts(CutOnly):
    """Split where the script changes. ``UnicodeScripts().pre_tokenize_str("ab 12")`` gives ``"ab "``, ``"12"``."""

    def char_spans(self, text: str) -> list[tuple[int, int]]:
        codes = text.translate(_table())  # one script code per character
        return [m.span() for m in _RUNS.finditer(codes)]
