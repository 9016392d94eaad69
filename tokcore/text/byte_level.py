"""GPT-2's byte-level alphabet and the split patterns of the byte-level BPE families.

Byte-level BPE (GPT-2, RoBERTa, tiktoken) works on UTF-8 bytes, but its vocabulary files store
tokens as text. GPT-2 made every byte printable by mapping it to one Unicode character: the 188
printable Latin-1 bytes map to themselves, the other 68 (controls, space, NBSP, soft hyphen) to
U+0100..U+0143 in byte order. So a space is ``"Ġ"`` and a newline ``"Ċ"``.

The split patterns are the regular expressions each family runs before BPE (``regex`` module
syntax: ``\\p{L}``, possessive quantifiers). ``ByteLevelOptions`` holds HF's three ``ByteLevel``
options and their file form, shared by the pre-tokenizer, post-processor and decoder.

Left out: the BPE merges themselves (``tokcore.models``) and offsets trimming (post-processors).
"""

from __future__ import annotations

import regex

from ..core.errors import ConfigurationError


def _build_alphabet() -> dict[int, str]:
    # Printable bytes keep their own code point; the rest take U+0100 + n, n counting up in byte order.
    kept = [*range(ord("!"), ord("~") + 1), *range(0xA1, 0xAC + 1), *range(0xAE, 0xFF + 1)]
    table = {b: chr(b) for b in kept}
    n = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + n)
            n += 1
    return dict(sorted(table.items()))


#: byte value -> GPT-2 character. ``BYTE_TO_UNICODE[32] == "Ġ"``.
BYTE_TO_UNICODE: dict[int, str] = _build_alphabet()
#: GPT-2 character -> byte value. ``UNICODE_TO_BYTE["Ċ"] == 10``.
UNICODE_TO_BYTE: dict[str, int] = {ch: b for b, ch in BYTE_TO_UNICODE.items()}
#: The 256 characters of the byte-level alphabet, in byte order.
ALPHABET: tuple[str, ...] = tuple(BYTE_TO_UNICODE.values())

# str.translate tables: Latin-1 decoding turns bytes into code points 0..255 one to one, so one
# C-level translate maps a whole byte string (and back).
_TO_CHARS = {b: ch for b, ch in BYTE_TO_UNICODE.items()}
_TO_LATIN1: dict[int, int | str] = {c: "\uffff" for c in range(256) if chr(c) not in UNICODE_TO_BYTE}
_TO_LATIN1.update({ord(ch): b for ch, b in UNICODE_TO_BYTE.items()})  # U+FFFF marks "not in the alphabet"

#: The pre-tokenization regex of GPT-2 as HF tokenizers' ``ByteLevel`` runs it.
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
#: tiktoken's ``gpt2``, ``r50k_base`` and ``p50k_base`` pattern (GPT-2's, with possessive runs).
R50K_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
P50K_PATTERN = R50K_PATTERN
#: tiktoken's ``cl100k_base`` pattern (GPT-3.5/4): case-insensitive contractions, numbers of 1-3 digits.
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
#: tiktoken's ``o200k_base`` pattern (GPT-4o): words split by case, contractions attached.
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
#: tiktoken encoding name -> split pattern.
TIKTOKEN_PATTERNS: dict[str, str] = {
    "gpt2": R50K_PATTERN,
    "r50k_base": R50K_PATTERN,
    "p50k_base": P50K_PATTERN,
    "p50k_edit": P50K_PATTERN,
    "cl100k_base": CL100K_PATTERN,
    "o200k_base": O200K_PATTERN,
}


#: ``GPT2_PATTERN`` compiled. HF runs it on Oniguruma, whose ``\p{L}``/``\p{N}`` are an older
#: Unicode than the ``regex`` module's: run it on ``gpt2_view(text)`` to split exactly as HF.
GPT2_REGEX = regex.compile(GPT2_PATTERN)


def gpt2_view(text: str) -> str:
    """``text`` with non-ASCII letters, numbers and spaces as ASCII stand-ins of HF's classes (same length).

    ``gpt2_view("né 5") == "na 5"``.
    """
    from .char_classes import ascii_view
    from .onig_classes import ONIG_CLASSES

    return ascii_view(text, ONIG_CLASSES)


def bytes_to_chars(data: bytes) -> str:
    """Bytes as GPT-2 characters, one per byte. ``bytes_to_chars(b"a b") == "aĠb"``."""
    return data.decode("latin-1").translate(_TO_CHARS)


def text_to_chars(text: str) -> str:
    """The GPT-2 characters of ``text``'s UTF-8 bytes. ``text_to_chars("é") == "Ã©"``."""
    if text.isascii():
        return text.translate(_TO_CHARS)
    return bytes_to_chars(text.encode("utf-8", "surrogatepass"))


def chars_to_bytes(chars: str) -> bytes | None:
    """The bytes behind GPT-2 characters, or ``None`` if one is outside the alphabet.

    ``chars_to_bytes("aĠb") == b"a b"``; ``chars_to_bytes("€") is None``.
    """
    mapped = chars.translate(_TO_LATIN1)
    try:
        return mapped.encode("latin-1")
    except UnicodeEncodeError:
        return None


class ByteLevelOptions:
    """HF's ``ByteLevel`` options, shared by its three roles (pre-tokenizer, post-processor, decoder)."""

    def __init__(self, *, add_prefix_space: bool = True, trim_offsets: bool = True, use_regex: bool = True):
        for name, value in (("add_prefix_space", add_prefix_space), ("trim_offsets", trim_offsets), ("use_regex", use_regex)):
            if not isinstance(value, bool):
                raise ConfigurationError(f"ByteLevel {name} must be true or false, got {value!r}")
        self.add_prefix_space = add_prefix_space
        self.trim_offsets = trim_offsets
        self.use_regex = use_regex

    def to_dict(self) -> dict:
        return {"type": "ByteLevel", "add_prefix_space": self.add_prefix_space, "trim_offsets": self.trim_offsets, "use_regex": self.use_regex}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(
            add_prefix_space=data.get("add_prefix_space", True),
            trim_offsets=data.get("trim_offsets", True),
            use_regex=data.get("use_regex", True),
        )
