"""The pipeline core: aligned normalized strings, added tokens, offsets by construction, native JSON."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tokcore
from tokcore import AddedToken, NormalizedString, Tokenizer, encode_result, validate_offsets_contract
from tokcore.core.components import Normalizer, Piece, piece_from_text, register
from tokcore.models import CharLevel, WordLevel
from tokcore.normalizers.standard import AsciiPolicy, Lowercase
from tokcore.pre_tokenizers.standard import WhitespaceSplit

# ------------------------------------------------------------------------- NormalizedString


def test_identity_alignment_is_free():
    ns = NormalizedString("abc")
    assert ns.is_identity
    assert ns.alignments() == [(0, 1), (1, 2), (2, 3)]
    assert ns.original_span(1, 3) == (1, 3)


def test_rebuild_rules():
    ns = NormalizedString("aﬁb")  # the ligature expands to two characters
    out = ns.rebuild([("a", 0, 1), ("fi", 1, 2), ("", 2, 3)])  # and "b" is deleted
    assert out.normalized == "afi"
    assert out.alignments() == [(0, 1), (1, 2), (1, 2)]
    assert out.original_span(1, 2) == (1, 2)
    inserted = ns.rebuild([("▁", 0, 0), ("aﬁb", 0, 3)])
    assert inserted.normalized == "▁aﬁb"
    assert inserted.alignments()[0] == (0, 0)  # an insertion has an empty source span
    assert inserted.alignments()[1:] == [(0, 1), (1, 2), (2, 3)]  # same length: char to char


def test_rebuild_composes_with_previous_alignment():
    ns = NormalizedString("ÀB").map_chars(lambda c: {"À": "a\u0300"}.get(c, c))
    ns = ns.map_chars(str.lower)
    assert ns.normalized == "a\u0300b"
    assert ns.alignments() == [(0, 1), (0, 1), (1, 2)]


def test_rebuild_rejects_gaps():
    with pytest.raises(ValueError, match="cover the text in order"):
        NormalizedString("abc").rebuild([("a", 0, 1), ("c", 2, 3)])
    with pytest.raises(ValueError, match="stop at 1"):
        NormalizedString("abc").rebuild([("a", 0, 1)])


def test_concat_shifts_alignment():
    a = NormalizedString("é").map_chars(lambda c: "<UNK>")
    b = NormalizedString("xy")
    joined = NormalizedString.concat([a, b])
    assert joined.original == "éxy" and joined.normalized == "<UNK>xy"
    assert joined.alignments()[-2:] == [(1, 2), (2, 3)]


def test_piece_bounds():
    p = piece_from_text("aé", 3)
    assert list(p.bounds) == [3, 4, 6]
    assert p.sub(1, 2) == Piece("é", [4, 6])
    assert p.span == (3, 6)


# ------------------------------------------------------------------------- pipeline


def word_tokenizer(**kwargs) -> Tokenizer:
    vocab = {"[UNK]": 0, "hello": 1, "world": 2, "café": 3, "[CLS]": 4, "<mask>": 5}
    return Tokenizer(WordLevel(vocab, unk_token="[UNK]"), pre_tokenizer=WhitespaceSplit(), **kwargs)


def test_offsets_follow_the_tokenization_text_and_map_back():
    tok = word_tokenizer(normalizer=Lowercase())
    text = "HELLO  Café"
    r = encode_result(tok, text, return_offsets=True, return_masks=True)
    assert r.tokens == ["hello", "café"]
    assert r.tokenization_text == "hello  café"
    assert r.offsets == [(1, 6), (8, 13)]  # é is two bytes
    assert r.original_offsets == [(1, 6), (8, 13)]
    assert r.word_ids == [0, 1]
    assert r.sequence_ids == [0, 0]


def test_original_offsets_through_an_expanding_normalizer():
    tok = Tokenizer(CharLevel({c: i for i, c in enumerate("<UNK>ab")} | {"<UNK>": 9}, unk_token="<UNK>"), normalizer=AsciiPolicy())
    text = "a🙂b"
    r = encode_result(tok, text, return_offsets=True)
    # the view is a<UNK>b: five placeholder characters all come from the one emoji (bytes 2..5)
    assert r.tokenization_text == "a<UNK>b"
    assert r.offsets[:2] == [(1, 2), (2, 3)]
    assert r.original_offsets[1:6] == [(2, 6)] * 5
    assert r.original_offsets[-1] == (6, 7)


def test_added_tokens_raw_and_normalized_matching():
    tok = word_tokenizer(
        normalizer=Lowercase(),
        added_tokens=[AddedToken("[CLS]", 4, special=True, normalized=False), AddedToken("<MASK>", 5, normalized=True)],
    )
    # "[CLS]" is matched in the raw text (before lowercasing would break it);
    # "<MASK>" is matched after normalization against its normalized form "<mask>".
    r = encode_result(tok, "[CLS]Hello <Mask> x", return_offsets=True, return_masks=True)
    assert r.tokens == ["[CLS]", "hello", "<mask>", "[UNK]"]  # an added token's text is the text it matched, as HF
    assert r.ids == [4, 1, 5, 0]
    assert r.special_tokens_mask == [1, 0, 0, 0]
    assert r.offsets == [(1, 6), (6, 11), (12, 18), (19, 20)]
    assert r.tokenization_text == "[CLS]hello <mask> x"


def test_split_special_tokens_encodes_them_as_text():
    tok = word_tokenizer(added_tokens=[AddedToken("[CLS]", 4, special=True, normalized=False)])
    parsed = encode_result(tok, "hello [CLS]", return_masks=True)
    plain = encode_result(tok, "hello [CLS]", return_masks=True, split_special_tokens=True)
    assert parsed.ids == [1, 4] and parsed.special_tokens_mask == [0, 1]
    # as plain text "[CLS]" is a word the WordLevel vocabulary knows: same id, but not special any more
    assert plain.ids == [1, 4] and plain.special_tokens_mask == [0, 0]


def test_lstrip_rstrip_single_word():
    tok = word_tokenizer(
        added_tokens=[
            AddedToken("<mask>", 5, special=True, lstrip=True, normalized=False),
            AddedToken("[CLS]", 4, special=True, single_word=True, normalized=False),
        ]
    )
    r = encode_result(tok, "hello <mask> world", return_offsets=True)
    assert r.tokens == ["hello", " <mask>", "world"]  # as HF: the token string holds the absorbed space
    assert r.offsets[1] == (6, 13)  # lstrip: the span swallows the space before
    glued = encode_result(tok, "hello[CLS] [CLS]", return_offsets=True)
    assert glued.tokens == ["[UNK]", "[CLS]"]  # single_word: the glued one is not matched


def test_pairs_without_post_processor():
    tok = word_tokenizer()
    r = encode_result(tok, "hello", text_pair="world world", return_offsets=True, return_masks=True)
    assert r.ids == [1, 2, 2]
    assert r.sequence_ids == [0, 1, 1]
    assert r.offsets == [(1, 6), (1, 6), (7, 12)]  # each sequence's offsets point into its own text
    assert r.tokenization_text_pair == "world world"


def test_encode_batch_and_decode_batch():
    tok = word_tokenizer()
    results = tok.encode_batch(["hello world", "world"])
    assert [r.ids for r in results] == [[1, 2], [2]]
    assert tok.decode_batch([[1, 2], [2]]) == ["hello world", "world"]  # no decoder: joined by spaces, as HF
    with pytest.raises(TypeError, match="list of texts"):
        tok.encode_batch("hello")  # type: ignore[arg-type]


def test_truncation_and_padding_basics():
    tok = word_tokenizer()
    r = encode_result(tok, "hello world hello world", truncation=True, max_length=3, return_masks=True, return_offsets=True)
    assert r.ids == [1, 2, 1]
    assert [o.ids for o in r.overflowing] == [[2]]
    padded = encode_result(tok, "hello", padding="max_length", max_length=3, return_masks=True, return_offsets=True)
    assert padded.ids == [1, 0, 0]  # no pad token in this vocab: id 0 and token [PAD] as HF defaults
    assert padded.attention_mask == [1, 0, 0]
    assert padded.special_tokens_mask == [0, 1, 1]
    assert padded.offsets == [(1, 6), (0, 0), (0, 0)]
    with pytest.raises(ValueError, match="stride"):
        encode_result(tok, "hello world hello world", truncation=True, max_length=2, stride=2)
    with pytest.raises(ValueError, match="unknown truncation strategy"):
        encode_result(tok, "hello", truncation=True, max_length=2, truncation_strategy="middle_out")


def test_native_json_roundtrip(tmp_path):
    tok = word_tokenizer(normalizer=Lowercase(), added_tokens=[AddedToken("[CLS]", 4, special=True, normalized=False)])
    path = tmp_path / "tok.json"
    tok.save(path)
    again = tokcore.load(path)
    assert again.to_dict() == tok.to_dict()
    text = "[CLS] Hello CAFÉ nope"
    assert encode_result(again, text, return_offsets=True, return_masks=True) == encode_result(
        tok, text, return_offsets=True, return_masks=True
    )


def test_native_json_errors(tmp_path):
    path = tmp_path / "tok.json"
    path.write_text('{"format": "tokcore", "version": 99, "model": {}}', encoding="utf-8")
    with pytest.raises(tokcore.TokenizerFileError, match="version 99"):
        tokcore.load(path)
    path.write_text('{"format": "tokcore", "version": 1, "model": {"type": "Nope"}}', encoding="utf-8")
    with pytest.raises(tokcore.TokenizerFileError, match="unknown model type 'Nope'.*Known types"):
        tokcore.load(path)
    path.write_text('{"model": {"type": "WordLevel", "vocab": [1, 2]}}', encoding="utf-8")
    with pytest.raises(tokcore.TokenizerFileError, match="malformed model"):
        tokcore.load(path)
    with pytest.raises(tokcore.TokenizerFileError, match="no such file"):
        tokcore.load(tmp_path / "missing.json")


def test_tokcore_never_imports_assert_statements():
    import pathlib

    root = pathlib.Path(tokcore.__file__).parent
    offenders = [
        f"{p.relative_to(root)}:{i}"
        for p in root.rglob("*.py")
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if line.lstrip().startswith("assert ")
    ]
    assert offenders == []


@register("normalizer", "TestSwapCase")
class _SwapCase(Normalizer):
    def normalize(self, ns):
        return ns.map_chars(lambda c: "SS" if c == "ß" else c.swapcase())


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_original_offsets_obey_the_contract_through_any_normalizer(text):
    tok = Tokenizer(CharLevel({}, unk_token=None) if False else CharLevel({"?": 0}, unk_token="?"), normalizer=_SwapCase())
    r = encode_result(tok, text, return_offsets=True)
    assert validate_offsets_contract(r.tokenization_text, r.offsets, require_string_boundaries=True)
    assert validate_offsets_contract(text, r.original_offsets, require_string_boundaries=True)
    assert tokcore.offsets_are_nonoverlapping(r.offsets)
    assert len(r.original_offsets) == len(r.tokenization_text)
