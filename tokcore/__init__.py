"""tokcore: tokenizers with exact offsets, for teaching, debugging and comparing tokenization.

Everything in ``../shared/API.md`` is importable from here. tokcore never imports streamlit.
"""

from __future__ import annotations

from .added_tokens import AddedToken
from .char_tokenizer import CharTokenizer
from .encoding import EncodeResult
from .errors import (
    ConfigurationError,
    InvalidTextError,
    OffsetsContractError,
    TokcoreError,
    TokenizerFileError,
    UnknownIdError,
    WrongTypeError,
)
from .io import load
from .normalized import NormalizedString
from .offsets import (
    assert_offsets_contract,
    byte_span_to_char_span,
    char_span_to_byte_span,
    has_nonempty_span,
    has_span,
    is_valid_string_boundary,
    offsets_are_nonoverlapping,
    offsets_coordinate_system,
    offsets_index_base,
    offsets_sentinel,
    offsets_span_style,
    span_codeunits,
    span_ncodeunits,
    try_span_substring,
    validate_offsets_contract,
)
from .tokenizer import Tokenizer

__version__ = "0.1.0"


def tokenization_view(tokenizer: Tokenizer, clean_text: str) -> str:
    """The text a tokenizer's offsets point into: ``clean_text`` after its own normalization."""
    return tokenizer.tokenization_view(clean_text)


def encode_result(tokenizer: Tokenizer, text: str, **options) -> EncodeResult:
    """Encode ``text`` with ``tokenizer``; options as ``Tokenizer.encode_result`` (all keyword-only)."""
    return tokenizer.encode_result(text, **options)


__all__ = [
    "AddedToken",
    "CharTokenizer",
    "ConfigurationError",
    "EncodeResult",
    "InvalidTextError",
    "NormalizedString",
    "OffsetsContractError",
    "TokcoreError",
    "Tokenizer",
    "TokenizerFileError",
    "UnknownIdError",
    "WrongTypeError",
    "assert_offsets_contract",
    "byte_span_to_char_span",
    "char_span_to_byte_span",
    "encode_result",
    "has_nonempty_span",
    "has_span",
    "is_valid_string_boundary",
    "load",
    "offsets_are_nonoverlapping",
    "offsets_coordinate_system",
    "offsets_index_base",
    "offsets_sentinel",
    "offsets_span_style",
    "span_codeunits",
    "span_ncodeunits",
    "tokenization_view",
    "try_span_substring",
    "validate_offsets_contract",
]
