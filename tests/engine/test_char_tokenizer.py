"""The ASCII character tokenizer: every scenario of the foundation issue, plus properties."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tokcore
from tokcore import CharTokenizer, encode_result, tokenization_view, validate_offsets_contract


@pytest.fixture(scope="module")
def tok() -> CharTokenizer:
    return CharTokenizer()


def test_vocabulary_layout(tok):
    vocab = tok.vocab
    assert vocab["<PAD>"] == 0
    assert vocab["<UNK>"] == 1
    assert vocab["\t"] == 2
    assert vocab["\n"] == 3
    assert vocab[" "] == 4
    assert vocab["!"] == 5
    assert vocab["A"] == 37
    assert vocab["a"] == 69
    assert vocab["~"] == 98
    assert len(vocab) == 99 == tok.vocab_size
    expected_chars = ["\t", "\n"] + [chr(c) for c in range(32, 127)]
    assert [t for t, i in sorted(vocab.items(), key=lambda kv: kv[1])][2:] == expected_chars
    assert tok.unk_token == "<UNK>"
    assert tok.token_to_id("<UNK>") == 1 and tok.id_to_token(98) == "~"
    assert tok.id_to_token(99) is None


@pytest.mark.parametrize(
    "text, normalized",
    [
        ("", ""),
        ("Hello, world!", "Hello, world!"),
        ("tab\there\nnew", "tab\there\nnew"),
        ("café", "caf<UNK>"),
        ("a\rb", "a<UNK>b"),  # \r is a control character: placeholder
        ("\x00\x07\x1b\x7f", "<UNK><UNK><UNK><UNK>"),  # NUL, BEL, ESC, DEL
        ("🙂", "<UNK>"),  # one placeholder per character, not per byte
        ("👨‍👩‍👧", "<UNK>" * 5),  # ZWJ sequence: 5 code points
        ("\u00a0", "<UNK>"),  # no-break space is not ASCII
    ],
)
def test_normalization(tok, text, normalized):
    assert tok.normalize(text) == normalized
    assert tokenization_view(tok, text) == normalized


def test_encode_one_id_per_character(tok):
    text = "Hi there ~"
    ids = tok.encode(text)
    assert ids == [tok.vocab[c] for c in text]
    assert len(ids) == len(text)


def test_placeholder_is_one_token_of_id_1(tok):
    r = encode_result(tok, "é\rx", return_offsets=True, return_masks=True)
    assert r.ids == [1, 1, tok.vocab["x"]]
    assert r.tokens == ["<UNK>", "<UNK>", "x"]
    # offsets point into the tokenization text "<UNK><UNK>x"
    assert r.tokenization_text == "<UNK><UNK>x"
    assert r.offsets == [(1, 6), (6, 11), (11, 12)]
    # original offsets point at the raw characters: é is 2 bytes, \r 1, x 1
    assert r.original_offsets == [(1, 3), (3, 4), (4, 5)]
    assert validate_offsets_contract(r.tokenization_text, r.offsets, require_string_boundaries=True)
    assert validate_offsets_contract("é\rx", r.original_offsets, require_string_boundaries=True)


def test_literal_unk_is_matched_as_special_token(tok):
    text = "a<UNK>b"
    r = encode_result(tok, text, return_offsets=True, return_masks=True)
    assert r.ids == [69, 1, 70]
    assert r.special_tokens_mask == [0, 1, 0]
    assert r.offsets == [(1, 2), (2, 7), (7, 8)]  # its real span
    assert tokcore.try_span_substring(text, r.offsets[1]) == "<UNK>"
    assert r.attention_mask == [1, 1, 1]
    assert r.token_type_ids == [0, 0, 0]


def test_partial_unk_literal_is_plain_text(tok):
    assert tok.encode("<UNK") == [tok.vocab[c] for c in "<UNK"]
    assert tok.encode("<unk>") == [tok.vocab[c] for c in "<unk>"]


def test_literal_pad_is_plain_text(tok):
    # <PAD> is not matched in text: matching it would break decode(encode(t)) == normalize(t).
    assert tok.encode("<PAD>") == [tok.vocab[c] for c in "<PAD>"]
    assert tok.decode(tok.encode("<PAD>")) == "<PAD>"


def test_empty_string(tok):
    r = encode_result(tok, "", return_offsets=True, return_masks=True)
    assert r.ids == [] and r.tokens == [] and r.offsets == [] and r.original_offsets == []
    assert tok.decode([]) == ""
    assert tok.normalize("") == ""


def test_decode_inverts_encode_and_pad_decodes_to_nothing(tok):
    text = "Hi\tthere\n<UNK> café\r"
    assert tok.decode(tok.encode(text)) == tok.normalize(text)
    assert tok.decode([0, 44, 0, 77, 0]) == "Hi"
    assert tok.decode([1]) == "<UNK>"


def test_decode_rejects_unknown_ids(tok):
    with pytest.raises(tokcore.UnknownIdError, match="not in this tokenizer's vocabulary"):
        tok.decode([5, 4000])
    with pytest.raises(TypeError, match="ids must be ints"):
        tok.decode(["a"])  # type: ignore[list-item]


def test_skip_special_tokens(tok):
    assert tok.decode(tok.encode("a<UNK>b"), skip_special_tokens=True) == "ab"


def test_assume_normalized_uses_the_given_text(tok):
    view = tokenization_view(tok, "naïve")
    r = encode_result(tok, view, assume_normalized=True, return_offsets=True)
    assert r.ids == tok.encode("naïve")
    assert r.tokenization_text == view
    assert r.offsets == r.original_offsets
    # non-ASCII text given as already normalized is not normalized again: the model's unk covers it
    r2 = encode_result(tok, "é", assume_normalized=True, return_offsets=True)
    assert r2.ids == [1] and r2.offsets == [(1, 3)]


def test_save_vocab_is_indented_json_and_loads_back(tok, tmp_path):
    path = tmp_path / "vocab.json"
    tok.save_vocab(path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("{\n  ")  # indented, human-readable
    data = json.loads(text)
    assert data["vocab"]["<PAD>"] == 0 and data["vocab"]["~"] == 98
    again = CharTokenizer.load_vocab(path)
    sample = "Hello\tworld\n<UNK> ünïcode 🙂\r\n"
    assert again.encode(sample) == tok.encode(sample)
    assert again.vocab == tok.vocab


@pytest.mark.parametrize(
    "content, fragment",
    [
        ("", "the file is empty"),
        ("{not json", "invalid JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"type": "Other", "version": 1, "vocab": {}}', "'type' is 'Other'"),
        ('{"type": "CharTokenizer", "version": 9, "vocab": {}}', "unsupported version 9"),
        ('{"type": "CharTokenizer", "version": 1}', "no 'vocab' object"),
        ('{"type": "CharTokenizer", "version": 1, "vocab": []}', "'vocab' must be an object"),
        ('{"type": "CharTokenizer", "version": 1, "vocab": {"<PAD>": 0, "<UNK>": "1"}}', "is not a non-negative integer"),
        ('{"type": "CharTokenizer", "version": 1, "vocab": {"<PAD>": 0, "<UNK>": 1, "ab": 2}}', "is not a single character"),
        ('{"type": "CharTokenizer", "version": 1, "vocab": {"<PAD>": 0, "<UNK>": 1, "a": 1}}', "id 1 is used by both"),
        ('{"type": "CharTokenizer", "version": 1, "vocab": {"<UNK>": 1, "a": 2}}', "has no <PAD>"),
        ('{"type": "CharTokenizer", "version": 1, "vocab": {"<PAD>": 0, "<UNK>": 1, "a": -2}}', "non-negative"),
    ],
)
def test_load_vocab_rejects_malformed_files(tmp_path, content, fragment):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(tokcore.TokenizerFileError) as info:
        CharTokenizer.load_vocab(path)
    assert fragment in str(info.value)
    assert str(path) in str(info.value)  # names the file
    assert isinstance(info.value, ValueError)


def test_load_vocab_missing_file(tmp_path):
    with pytest.raises(ValueError, match="cannot read"):
        CharTokenizer.load_vocab(tmp_path / "absent.json")


def test_invalid_json_names_line_and_column(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{\n  "type": "CharTokenizer",\n  "version": 1,\n  "vocab": {"a": 1,,}\n}', encoding="utf-8")
    with pytest.raises(tokcore.TokenizerFileError, match=r"line 4, column"):
        CharTokenizer.load_vocab(path)


def test_lone_surrogate_raises_naming_position(tok):
    with pytest.raises(tokcore.InvalidTextError, match="U\\+D800 at character 2"):
        tok.encode("ab\ud800c")
    with pytest.raises(TypeError):
        tok.encode(b"bytes")  # type: ignore[arg-type]


def test_native_save_and_load_roundtrip(tok, tmp_path):
    path = tmp_path / "char.json"
    tok.save(path)
    again = tokcore.load(path)
    assert isinstance(again, CharTokenizer)
    for text in ["", "abc", "é<UNK>\r\n", "🙂 x"]:
        a = encode_result(tok, text, return_offsets=True, return_masks=True)
        b = encode_result(again, text, return_offsets=True, return_masks=True)
        assert a == b


# ------------------------------------------------------------------------------- properties

any_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60)
mostly_ascii = st.lists(st.sampled_from(list("ab <UNK>\t\n\ré🙂~\u0301") + ["<UNK>"]), max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.one_of(any_text, mostly_ascii))
def test_properties_offsets_contract_and_round_trip(text):
    tok = CharTokenizer()
    view = tokenization_view(tok, text)
    r = encode_result(tok, view, assume_normalized=True, return_offsets=True, return_masks=True)
    assert validate_offsets_contract(view, r.offsets, require_string_boundaries=True)
    assert tokcore.offsets_are_nonoverlapping(r.offsets)
    assert tok.decode(r.ids) == view
    full = encode_result(tok, text, return_offsets=True, return_masks=True)
    assert full.ids == r.ids
    assert full.offsets == r.offsets
    assert validate_offsets_contract(text, full.original_offsets, require_string_boundaries=True)
    assert tokcore.offsets_are_nonoverlapping(full.original_offsets)
    assert tok.decode(tok.encode(text)) == tok.normalize(text)
    # every token's text is exactly what its span covers in the tokenization text
    for token, o in zip(r.tokens, r.offsets):
        assert tokcore.try_span_substring(view, o) == token
    # spans tile the view with no gaps
    assert "".join(tokcore.try_span_substring(view, o) for o in r.offsets) == view


@pytest.mark.parametrize("text", ["Hello, world!\n\tx", "é<UNK>a🙂\r\nb", "", "  ", "<UNK"])
def test_save_hf_encodes_identically_in_hf_tokenizers(tok, tmp_path, text):
    tokenizers = pytest.importorskip("tokenizers")
    path = tmp_path / "tokenizer.json"
    tok.save_hf(path)
    hf = tokenizers.Tokenizer.from_file(str(path))
    encoding = hf.encode(text)
    assert encoding.ids == tok.encode(text)
    assert hf.decode(encoding.ids, skip_special_tokens=False) == tok.decode(encoding.ids)
    assert hf.decode(encoding.ids, skip_special_tokens=True) == tok.decode(encoding.ids, skip_special_tokens=True)


def test_learned_alphabet_tokenizer_saves_to_hf(tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    trained = tokcore.train_char(["héllo wörld", "hello there"], special_tokens=("<unk>",), unk_token="<unk>").tokenizer
    path = tmp_path / "chars.json"
    trained.save_hf(path)
    hf = tokenizers.Tokenizer.from_file(str(path))
    for text in ["hello wörld", "zzz é", ""]:
        assert hf.encode(text).ids == trained.encode(text)
