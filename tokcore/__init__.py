"""tokcore: tokenizers with exact offsets, for teaching, debugging and comparing tokenization.

Everything in ``../shared/API.md`` is importable from here. tokcore never imports streamlit.

The map, in pipeline order (each folder's docstring says what lives there and what it leaves out):
``core`` (Tokenizer, results, offsets, errors, stage bases) -> ``normalizers`` -> ``pre_tokenizers``
-> ``models`` -> ``processors`` (truncation, templates, padding); ``decoders`` apart; ``fast`` and
``parallel`` in front of the core; ``serialization`` (dicts and the type registry), ``loaders``
(files), ``presets``, ``trainers``, ``analysis``, ``chat`` (chat templates) and ``extras`` on top;
``text`` holds the character tables the stages share.
"""

from __future__ import annotations

from .core.added_tokens import AddedToken
from .core.encoding import EncodeResult
from .core.errors import (
    ConfigurationError,
    InvalidTextError,
    OffsetsContractError,
    TokcoreError,
    TokenizerFileError,
    UnknownIdError,
    WrongTypeError,
)
from .core.normalized import NormalizedString
from .core.offsets import (
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
from .core.tokenizer import Tokenizer
from .loaders import load
from .presets.char_tokenizer import CharTokenizer

__version__ = "0.1.0"

# Names whose modules pull in more (trainers, parsers, dictionaries) load on first use, so
# ``import tokcore`` stays light and never needs the optional data packages.
_LAZY = {
    "train_bpe": "tokcore.trainers.bpe",
    "BpeStep": "tokcore.trainers.bpe",
    "train_wordpiece": "tokcore.trainers.wordpiece",
    "WordPieceStep": "tokcore.trainers.wordpiece",
    "train_unigram": "tokcore.trainers.unigram",
    "UnigramStep": "tokcore.trainers.unigram",
    "unigram_loss": "tokcore.trainers.unigram_loss",
    "unigram_removal_losses": "tokcore.trainers.unigram_loss",
    "train_char": "tokcore.trainers.char",
    "CharStep": "tokcore.trainers.char",
    "TrainResult": "tokcore.trainers.base",
    "byte_tokenizer": "tokcore.presets.byte_tokenizer",
    "ByteModel": "tokcore.models.byte_model",
    "BPE": "tokcore.models.bpe",
    "WordPiece": "tokcore.models.wordpiece",
    "Unigram": "tokcore.models.unigram",
    "WordLevel": "tokcore.models.word_level",
    "CharLevel": "tokcore.models.char_level",
    "RankBPE": "tokcore.models.rank_bpe",
    "tokenize_code": "tokcore.extras.code",
    "CodeToken": "tokcore.extras.code",
    "encode_code": "tokcore.extras.code_subwords",
    "split_identifier": "tokcore.extras.identifiers",
    "lexical_normalize": "tokcore.extras.lexnorm",
    "Lexicon": "tokcore.extras.lexnorm",
    "LexicalNormalizer": "tokcore.normalizers.lexical",
    "phonemize": "tokcore.extras.phonemes",
    "RemiTokenizer": "tokcore.extras.music",
    "train_event_bpe": "tokcore.extras.music_bpe",
    "token_safety": "tokcore.analysis.boundaries",
    "unsafe_boundaries": "tokcore.analysis.boundaries",
    "align_words": "tokcore.analysis.alignment",
    "align_tokens": "tokcore.analysis.alignment",
    "render_chat": "tokcore.chat",
    "render_chat_spans": "tokcore.chat",
    "chat_encode": "tokcore.chat",
    "load_chat_config": "tokcore.chat",
    "ChatRender": "tokcore.chat",
    "ChatEncoding": "tokcore.chat",
    "ChatConfig": "tokcore.chat",
    "ChatTemplateError": "tokcore.chat",
    "ChatTemplateLimitError": "tokcore.chat",
    "ChatInputError": "tokcore.chat",
    "ChatInputTypeError": "tokcore.chat",
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tokcore' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


def tokenization_view(tokenizer: Tokenizer, clean_text: str) -> str:
    """The text a tokenizer's offsets point into: ``clean_text`` after its own normalization."""
    return tokenizer.tokenization_view(clean_text)


def encode_result(tokenizer: Tokenizer, text: str, **options) -> EncodeResult:
    """Encode ``text`` with ``tokenizer``; options as ``Tokenizer.encode_result`` (all keyword-only)."""
    return tokenizer.encode_result(text, **options)


__all__ = sorted(_LAZY) + [
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
