"""Pre-tokenizers: split the tokenization text into pieces, each character carrying its byte span.

- ``standard``: Whitespace, WhitespaceSplit, BertPreTokenizer, Metaspace, ByteLevel, FixedLength, Sequence.
- ``split``: Split (every behaviour), Punctuation, Digits, CharDelimiterSplit.
- ``scripts``: UnicodeScripts.

Inspectors return plain data as HF's do: ``pre_tokenize_str(text) -> [(piece, (start, stop))]``.

Left out: the fast word finders that stand in for some of these on plain text (``tokcore.fast``).
"""

from .scripts import UnicodeScripts
from .split import CharDelimiterSplit, Digits, Punctuation, Split
from .standard import BertPreTokenizer, ByteLevel, FixedLength, Metaspace, Sequence, Whitespace, WhitespaceSplit

__all__ = [
    "BertPreTokenizer", "ByteLevel", "CharDelimiterSplit", "Digits", "FixedLength", "Metaspace", "Punctuation",
    "Sequence", "Split", "UnicodeScripts", "Whitespace", "WhitespaceSplit",
]  # fmt: skip
