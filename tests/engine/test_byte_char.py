"""The ByT5-style byte tokenizer and the character-level trainer.

Bytes: ids are ByT5's (``<pad>`` 0, ``</s>`` 1, ``<unk>`` 2, byte ``b`` -> ``b + 3``, ``</s>``
appended), every token's span is its exact byte (``span_codeunits``), spans of bytes inside a
multi-byte character are not character boundaries (expected), and ``decode(encode(x)) == x``.
The HF export (a byte-fallback BPE without merges) encodes to the same ids in HF tokenizers.

Characters: the alphabet is most frequent first, ties by first appearance, cut by
``vocab_size`` (specials included) and ``min_frequency``; everything else is ``<unk>``.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tokcore
from tokcore.core.errors import ConfigurationError, WrongTypeError
from tokcore.decoders.bytes import ByteDecoder
from tokcore.decoders.bytes import byte_token_bytes as token_bytes
from tokcore.models.byte_model import ByteModel, byte_token
from tokcore.presets.byte_tokenizer import byte_tokenizer
from tokcore.trainers.char import CharStep, count_chars, train_char

texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)


def byt5_ids(text: str) -> list[int]:
    """ByT5's reference encoding, written from its definition."""
    return [b + 3 for b in text.encode("utf-8")] + [1]


# ------------------------------------------------------------------ ByteModel


def test_vocabulary_is_byt5s():
    m = ByteModel()
    vocab = m.get_vocab()
    assert m.vocab_size == 259 and len(vocab) == 259
    assert [vocab[s] for s in ("<pad>", "</s>", "<unk>")] == [0, 1, 2]
    assert vocab["a"] == 97 + 3 and vocab["<0xC3>"] == 0xC3 + 3 and vocab["<0x0A>"] == 13
    assert all(m.id_to_token(m.token_to_id(t)) == t for t in vocab)
    assert byte_token(32) == " " and byte_token(127) == "<0x7F>" and byte_token(0) == "<0x00>"
    assert token_bytes("<0xFF>") == b"\xff" and token_bytes("x") == b"x" and token_bytes("<0xZZ>") == b"<0xZZ>"


def test_model_tokens_use_the_byte_fallback_form():
    m = ByteModel()
    assert m.tokenize("a\n") == [(100, "a", 0, 1), (13, "<0x0A>", 1, 2)]
    assert m.tokenize("é") == [(0xC3 + 3, "<0xC3>", 0, 1, (0, 2)), (0xA9 + 3, "<0xA9>", 0, 1, (1, 2))]
    assert m.tokenize("aé")[1][4] == (0, 2)
    assert m.tokenize("") == []


def test_byte_tokenizer_encodes_like_byt5_with_exact_byte_spans():
    tok = byte_tokenizer()
    text = "héllo 👍🏽!"
    res = tok.encode_result(text, return_offsets=True, return_masks=True)
    assert res.ids == byt5_ids(text)
    assert res.offsets[-1] == (0, 0) and res.special_tokens_mask == [0] * (len(res.ids) - 1) + [1]
    spans = [tokcore.span_codeunits(text, o) for o in res.offsets[:-1]]
    assert spans == [bytes([b]) for b in text.encode("utf-8")]
    # A byte inside "é" is no character boundary: the contract says that is expected.
    assert tokcore.try_span_substring(text, res.offsets[1]) is None
    assert tokcore.validate_offsets_contract(text, res.offsets)
    assert not tokcore.validate_offsets_contract(text, res.offsets, require_string_boundaries=True)
    assert tok.decode(res.ids) == text + "</s>"
    assert tok.decode(res.ids, skip_special_tokens=True) == text
    assert byte_tokenizer(add_eos=False).encode("hi") == [107, 108]


def test_literal_special_tokens_and_invalid_bytes():
    tok = byte_tokenizer(add_eos=False)
    text = "a</s>b"
    res = tok.encode_result(text, return_offsets=True, return_masks=True)
    assert res.ids == [100, 1, 101] and res.offsets == [(1, 2), (2, 6), (6, 7)]
    assert res.special_tokens_mask == [0, 1, 0]
    assert tok.decode(res.ids) == text
    # Half a character decodes to U+FFFD, as bytes.decode(errors="replace").
    assert tok.decode([0xC3 + 3]) == "\ufffd"
    assert tok.decode([0xC3 + 3, 100, 0xE2 + 3, 0x82 + 3]) == "\ufffda\ufffd"
    assert ByteDecoder().decode(["<0xC3>", "<0xA9>", "!"]) == "é!"


def test_edge_cases(edge_cases):
    tok = byte_tokenizer()
    for case in edge_cases:
        text = case["text"]
        res = tok.encode_result(text, return_offsets=True)
        assert tokcore.validate_offsets_contract(text, res.offsets), case["name"]
        raw = b"".join(tokcore.span_codeunits(text, o) for o in res.offsets)
        assert raw == text.encode("utf-8"), case["name"]
        assert tok.decode(tok.encode(text, add_special_tokens=False)) == text, case["name"]
        if not any(s in text for s in ("<pad>", "</s>", "<unk>")):
            assert res.ids == byt5_ids(text), case["name"]


def test_serialization_and_hf_export(tmp_path, edge_cases):
    tok = byte_tokenizer()
    again = tokcore.Tokenizer.from_dict(tok.to_dict())
    assert isinstance(again.model, ByteModel) and isinstance(again.decoder, ByteDecoder)
    assert again.encode("añb") == tok.encode("añb")
    tokenizers = pytest.importorskip("tokenizers")
    path = tmp_path / "byt5.json"
    tok.save_hf(path)
    hf = tokenizers.Tokenizer.from_file(str(path))
    for text in [c["text"] for c in edge_cases] + ["plain ascii", "a</s>b<pad>"]:
        ids = tok.encode(text)
        assert hf.encode(text).ids == ids, text
        assert hf.decode(ids, skip_special_tokens=False) == tok.decode(ids)


def test_bad_byte_model_options():
    with pytest.raises(ConfigurationError):
        ByteModel(special_tokens=("<pad>", "<pad>"))
    with pytest.raises(ConfigurationError):
        ByteModel(special_tokens=("a",), unk_token=None)  # collides with the byte token "a"
    with pytest.raises(ConfigurationError):
        ByteModel(special_tokens=("<pad>",), unk_token="<unk>")


@settings(max_examples=200, deadline=None)
@given(texts)
def test_byte_round_trip_and_spans(text):
    tok = byte_tokenizer()
    res = tok.encode_result(text, return_offsets=True, add_special_tokens=False)
    assert tok.decode(res.ids) == text
    assert tokcore.validate_offsets_contract(text, res.offsets)
    if not any(s in text for s in ("<pad>", "</s>", "<unk>")):
        assert res.ids == byt5_ids(text)[:-1]
        assert all(tokcore.span_ncodeunits(o) == 1 for o in res.offsets)
    assert b"".join(tokcore.span_codeunits(text, o) for o in res.offsets) == text.encode("utf-8")


# ------------------------------------------------------------------ character trainer


def test_alphabet_order_and_ids():
    res = train_char(["abb"])
    assert res.tokenizer.get_vocab() == {"<unk>": 0, "b": 1, "a": 2}
    assert res.steps == [CharStep("b", 1, 2), CharStep("a", 2, 1)]
    # Ties go to the character seen first; spaces are characters too.
    res = train_char(["ba ab"])
    assert list(res.tokenizer.get_vocab()) == ["<unk>", "b", "a", " "]
    # A mapping counts each word with its weight.
    assert count_chars({"ab": 3, "b": 1}) == {"a": 3, "b": 4}
    assert list(train_char({"ab": 3, "b": 1}).tokenizer.get_vocab()) == ["<unk>", "b", "a"]


def test_limits_and_unknowns():
    corpus = ["aaaa bbb cc d"]
    res = train_char(corpus, vocab_size=4, special_tokens=("<pad>", "<unk>"))
    vocab = res.tokenizer.get_vocab()
    assert vocab == {"<pad>": 0, "<unk>": 1, "a": 2, " ": 3}
    assert res.details["dropped"] == [("b", 3), ("c", 2), ("d", 1)]
    res = train_char(corpus, min_frequency=2)
    assert "d" not in res.tokenizer.get_vocab() and "c" in res.tokenizer.get_vocab()
    tok = res.tokenizer
    enc = tok.encode_result("cad!", return_offsets=True)
    assert enc.tokens == ["c", "a", "<unk>", "<unk>"] and enc.offsets == [(1, 2), (2, 3), (3, 4), (4, 5)]
    assert tok.decode(tok.encode("a c")) == "a c"
    # unk_token goes first when not listed; a one-character special keeps its id.
    vocab = train_char(["x-y"], special_tokens=["-"], unk_token="?").tokenizer.get_vocab()
    assert vocab == {"?": 0, "-": 1, "x": 2, "y": 3}
    # With a pre-tokenizer only the pieces' characters count.
    from tokcore.pre_tokenizers.standard import WhitespaceSplit

    assert " " not in train_char(corpus, pre_tokenizer=WhitespaceSplit()).tokenizer.get_vocab()


def test_char_trainer_errors():
    no_unk = train_char(["ab"], special_tokens=(), unk_token=None).tokenizer
    assert no_unk.encode("ba") == [1, 0]
    with pytest.raises(ConfigurationError):
        no_unk.encode("c")
    with pytest.raises(WrongTypeError):
        train_char("abc")
    with pytest.raises(ConfigurationError):
        train_char(["abc"], vocab_size=0)
    with pytest.raises(ConfigurationError):
        train_char(["abc"], min_frequency=-1)
    with pytest.raises(WrongTypeError):
        train_char(["abc"], special_tokens="<unk>")


def test_char_tokenizer_on_botchan_and_edge_cases(edge_cases, shared_data):
    text = (shared_data / "corpora" / "botchan.txt").read_text(encoding="utf-8")
    tok = train_char(text.splitlines(), vocab_size=60).tokenizer
    assert tok.vocab_size == 60
    for case in edge_cases:
        res = tok.encode_result(case["text"], return_offsets=True)
        assert tokcore.validate_offsets_contract(case["text"], res.offsets, require_string_boundaries=True)
        assert len(res.ids) == len(case["text"]) or "<unk>" in case["text"]


@settings(max_examples=150, deadline=None)
@given(st.lists(texts, min_size=1, max_size=5), texts, st.one_of(st.none(), st.integers(1, 12)))
def test_char_properties(corpus, text, vocab_size):
    res = train_char(corpus, vocab_size=vocab_size)
    tok = res.tokenizer
    vocab = tok.get_vocab()
    counts = [s.count for s in res.steps]
    assert counts == sorted(counts, reverse=True)
    if vocab_size is not None:
        assert len(vocab) <= vocab_size
    enc = tok.encode_result(text, return_offsets=True)
    assert tokcore.validate_offsets_contract(text, enc.offsets, require_string_boundaries=True)
    assert tokcore.offsets_are_nonoverlapping(enc.offsets)
    if "<unk>" not in text:
        assert len(enc.ids) == len(text)
        want = "".join(ch if ch in vocab else "<unk>" for ch in text)
        assert tok.decode(enc.ids) == want
