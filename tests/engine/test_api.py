"""The public names of ../shared/API.md exist where other code looks for them, with keyword-only options."""

from __future__ import annotations

import inspect

import pytest

import tokcore

TOP_LEVEL = [
    "offsets_coordinate_system", "offsets_index_base", "offsets_span_style", "offsets_sentinel", "has_span",
    "has_nonempty_span", "span_ncodeunits", "span_codeunits", "try_span_substring", "is_valid_string_boundary",
    "offsets_are_nonoverlapping", "validate_offsets_contract", "assert_offsets_contract", "load", "tokenization_view",
    "encode_result", "EncodeResult", "CharTokenizer", "Tokenizer", "train_bpe", "train_wordpiece", "train_unigram",
    "unigram_loss", "unigram_removal_losses", "tokenize_code", "split_identifier", "lexical_normalize",
]


@pytest.mark.parametrize("name", TOP_LEVEL)
def test_name_is_importable(name):
    assert callable(getattr(tokcore, name)) or inspect.isclass(getattr(tokcore, name))
    assert name in tokcore.__all__


def keyword_only(fn) -> set[str]:
    return {p.name for p in inspect.signature(fn).parameters.values() if p.kind is p.KEYWORD_ONLY}


def test_keyword_only_options():
    assert {"ignore_sentinel", "ignore_empty"} <= keyword_only(tokcore.offsets_are_nonoverlapping)
    assert {"require_string_boundaries"} <= keyword_only(tokcore.validate_offsets_contract)
    assert {"require_string_boundaries"} <= keyword_only(tokcore.assert_offsets_contract)
    options = {
        "assume_normalized", "return_offsets", "return_masks", "add_special_tokens", "text_pair", "truncation",
        "max_length", "stride", "truncation_strategy", "padding", "pad_to_multiple_of", "padding_side",
    }
    assert options <= keyword_only(tokcore.Tokenizer.encode_result)
    assert options - {"text_pair"} <= keyword_only(tokcore.Tokenizer.encode_batch)
    assert {"add_special_tokens"} <= keyword_only(tokcore.Tokenizer.encode)
    assert {"skip_special_tokens"} <= keyword_only(tokcore.Tokenizer.decode)
    assert {"byte_level", "special_tokens", "min_frequency"} <= keyword_only(tokcore.train_bpe)
    assert {"special_tokens"} <= keyword_only(tokcore.train_wordpiece)
    assert {"special_tokens"} <= keyword_only(tokcore.train_unigram)


def test_tokenizer_methods_and_result_fields():
    for name in ("encode", "decode", "token_to_id", "id_to_token", "get_vocab", "save", "save_hf", "encode_batch", "encode_result"):
        assert callable(getattr(tokcore.Tokenizer, name))
    for name in ("vocab_size", "unk_token"):
        assert isinstance(getattr(tokcore.Tokenizer, name), property)
    fields = set(tokcore.EncodeResult.__dataclass_fields__)
    assert {"ids", "tokens", "offsets", "special_tokens_mask", "attention_mask", "token_type_ids", "word_ids",
            "sequence_ids", "overflowing", "original_offsets"} <= fields
    char = tokcore.CharTokenizer()
    for name in ("normalize", "encode", "decode", "save_vocab"):
        assert callable(getattr(char, name))
    assert isinstance(char.vocab, dict) and callable(tokcore.CharTokenizer.load_vocab)
    assert isinstance(char, tokcore.Tokenizer)


def test_unknown_attribute_is_an_attribute_error():
    with pytest.raises(AttributeError):
        tokcore.no_such_name  # noqa: B018
