"""Hostile text through every tokenizer family: any ``str`` encodes without an exception (text with a lone
surrogate raises ``ValueError`` naming its position), offsets keep the contract in the tokenization
text and in the raw input, decoding encode's ids never raises, and a batch equals its singles.

Families: the ASCII ``CharTokenizer``, ``CharLevel`` (train_char), char-level and byte-level BPE
(train_bpe, with an unknown token / byte alphabet), WordPiece, Unigram (both trained here on a small
multilingual corpus), ``WordLevel``, ``ByteModel``, and every reference file (HF tokenizer.json,
vocab.txt, vocab.json + merges.txt, sentencepiece .model, .tiktoken), each loaded once per module.
Character-level families must put every span on character boundaries; byte-level ones (ByteLevel
pre-tokenizer, byte fallback, byte models) may cut a character, as the contract allows.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_data import require_shared, shared_data_dir

import tokcore
from tokcore import validate_offsets_contract

SCALE = int(os.environ.get("TOKCORE_FUZZ_SCALE", "1"))
EXAMPLES = 40 * SCALE
PROPERTY = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ------------------------------------------------------------------------------------------
# Hostile text

CONTROLS = [chr(c) for c in list(range(0x00, 0x20)) + [0x7F] + list(range(0x80, 0xA0))]
ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u180e", "\u034f"]
BIDI = ["\u200e", "\u200f", "\u061c"] + [chr(c) for c in range(0x202A, 0x202F)] + [chr(c) for c in range(0x2066, 0x206A)]
SPACES = [" ", "  ", "\t", "\n", "\r\n", "\r", "\u00a0", "\u1680", "\u2000", "\u2009", "\u202f", "\u3000", "\u2028",
          "\u2029", "\u0085", "\u000b", "\u000c", " " * 17]
PRIVATE_AND_EDGES = ["\ue000", "\uf8ff", "\U000f0000", "\U0010fffd", "\U0010ffff", "\ufffe", "\uffff", "\ufffd",
                     "\U000e0001", "\U000e0041", "\ufe0f", "\U000e0100", "\U0001fffe", "\U0003134a"]
ZWJ_SEQUENCES = ["\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466", "\U0001f3f3\ufe0f\u200d\U0001f308",
                 "\U0001f469\U0001f3fd\u200d\U0001f4bb", "\U0001f1fa\U0001f1f3", "\u0031\ufe0f\u20e3", "\U0001f9d1\u200d\u2764\ufe0f\u200d\U0001f9d1"]
EXPANDERS = ["\ufdfa", "\ufb01", "\u00df", "\u0130", "\u01f0", "\u0390", "\u3300", "\u2474", "\u00bd", "\u1e9e",
             "\u0587", "\ufb2c", "\u2126", "\u212b", "\uff76\uff9e", "\u1100\u1161\u11a8", "\uac00"]
SCRIPTS = ["日本語の文章", "中文字符", "한국어", "ＡＢＣ１２３", "مرحبا بالعالم", "שָׁלוֹם", "नमस्ते", "ภาษาไทย", "Ελληνικά",
           "Кириллица", "ᚠᛇᚻ", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "ⓐⓑⓒ", "x²³", "١٢٣", "𒀀𒀁"]
LITERALS = ["[CLS]", "[SEP]", "[UNK]", "[MASK]", "[PAD]", "<s>", "</s>", "<unk>", "<pad>", "<mask>", "<|endoftext|>",
            "\u2581", "\u0120", "##", "<0x41>", "\u2581\u2581", "▁▁ ", "'s", "'LL", "http://x.y/z?q=1", "ab12cd", "__init__"]
ASCII_WORDS = ["the", "The", "a", "hello", "world", "tokenizer", "isn't", "3.14", "1,000", "--", "...", "!?", "@#$%^&*"]
COMBINING = st.lists(st.sampled_from([chr(c) for c in range(0x300, 0x370)] + ["\u20dd", "\u0489", "\u1ab0", "\u05b4"]),
                     min_size=1, max_size=25)


def _combining_pile(marks: list[str]) -> str:
    return "a" + "".join(marks)


any_char = st.characters(exclude_categories=("Cs",))  # every plane, assigned or not, minus surrogates
piece = st.one_of(
    st.sampled_from(CONTROLS),
    st.sampled_from(ZERO_WIDTH + BIDI),
    st.sampled_from(SPACES),
    st.sampled_from(PRIVATE_AND_EDGES),
    st.sampled_from(ZWJ_SEQUENCES),
    st.sampled_from(EXPANDERS),
    st.sampled_from(SCRIPTS),
    st.sampled_from(LITERALS),
    st.sampled_from(ASCII_WORDS),
    COMBINING.map(_combining_pile),
    st.text(any_char, min_size=1, max_size=4),
    st.text(st.characters(min_codepoint=0x10000), min_size=1, max_size=3),
)
hostile_text = st.lists(piece, max_size=14).map("".join)

# ------------------------------------------------------------------------------------------
# The families

CORPUS = [
    "The quick brown fox jumps over the lazy dog. Isn't it 3.14 o'clock?",
    "Tokenizers split text into tokens; BPE merges pairs, WordPiece greedily matches, Unigram prunes.",
    "café naïve résumé Straße İstanbul ﬁnal",
    "日本語の文章を分割します。中文字符也可以。한국어 문장.",
    "مرحبا بالعالم שלום עולם नमस्ते दुनिया",
    "emoji 👍🏽 and 👨\u200d👩\u200d👧 families, flags 🇺🇳",
    "tabs\tand\nnewlines  and   spaces",
] * 3

REFERENCE = {
    "ref_gpt2_tokenizer_json": ("reference", "hf", "gpt2", "tokenizer.json"),
    "ref_gpt2_vocab_merges": ("reference", "hf", "gpt2", "merges.txt"),
    "ref_minilm_tokenizer_json": ("reference", "hf", "minilm", "tokenizer.json"),
    "ref_minilm_vocab_txt": ("reference", "hf", "minilm", "vocab.txt"),
    "ref_roberta_bytelevel": ("reference", "hf", "trained", "roberta_bytelevel.json"),
    "ref_llama_style_bpe": ("reference", "hf", "trained", "llama_style_bpe.json"),
    "ref_bert_cased_wordpiece": ("reference", "hf", "trained", "bert_cased_wordpiece.json"),
    "ref_t5_style_unigram": ("reference", "hf", "trained", "t5_style_unigram.json"),
    "ref_wordlevel_whitespace": ("reference", "hf", "trained", "wordlevel_whitespace.json"),
    "ref_sp_botchan_unigram": ("reference", "sentencepiece", "botchan_en_unigram_1000.model"),
    "ref_sp_botchan_bpe": ("reference", "sentencepiece", "botchan_en_bpe_1000.model"),
    "ref_sp_kyoto_unigram": ("reference", "sentencepiece", "kyoto_ja_unigram_8000.model"),
    "ref_tiktoken_gpt2": ("reference", "tiktoken", "gpt2.tiktoken"),
    "ref_tiktoken_multilingual": ("reference", "tiktoken", "multilingual.tiktoken"),
}


def _build_family(name: str):
    from tokcore.models.word_level import WordLevel
    from tokcore.pre_tokenizers.standard import WhitespaceSplit
    from tokcore.presets.byte_tokenizer import byte_tokenizer
    from tokcore.trainers.bpe import train_bpe
    from tokcore.trainers.char import train_char
    from tokcore.trainers.unigram import train_unigram
    from tokcore.trainers.wordpiece import train_wordpiece

    if name in REFERENCE:
        return tokcore.load(require_shared(*REFERENCE[name]))
    if name == "char_ascii":
        return tokcore.CharTokenizer()
    if name == "char_level":
        return train_char(CORPUS).tokenizer
    if name == "bpe_char_unk":
        return train_bpe(CORPUS, 150, unk_token="[UNK]", special_tokens=["[CLS]"]).tokenizer
    if name == "bpe_char_suffix":
        return train_bpe(CORPUS, 140, end_of_word_suffix="</w>", continuing_subword_prefix="##").tokenizer
    if name == "bpe_byte":
        return train_bpe(CORPUS, 300, byte_level=True, special_tokens=["<|endoftext|>"]).tokenizer
    if name == "wordpiece":
        return train_wordpiece(CORPUS, 200, special_tokens=["[UNK]", "[CLS]", "[SEP]"], unk_token="[UNK]").tokenizer
    if name == "unigram":
        return train_unigram(CORPUS, 220, unk_token="<unk>").tokenizer
    if name == "word_level":
        vocab = {"[UNK]": 0, **{w: i + 1 for i, w in enumerate(sorted({w for line in CORPUS for w in line.split()}))}}
        return tokcore.Tokenizer(WordLevel(vocab, unk_token="[UNK]"), pre_tokenizer=WhitespaceSplit())
    if name == "byte_model":
        return byte_tokenizer()
    raise KeyError(name)


SELF_CONTAINED = ["char_ascii", "char_level", "bpe_char_unk", "bpe_char_suffix", "bpe_byte", "wordpiece", "unigram",
                  "word_level", "byte_model"]
FAMILIES = SELF_CONTAINED + list(REFERENCE)
_CACHE: dict = {}


def family(name: str):
    """Each tokenizer is built (or loaded) once per module."""
    if name not in _CACHE:
        _CACHE[name] = _build_family(name)
    return _CACHE[name]


def is_byte_level(tok) -> bool:
    """Byte-level families may cut a character (ByteLevel pre-tokenizer, byte fallback, byte models)."""
    model = tok.model
    if getattr(model, "byte_fallback", False) or type(model).__name__ == "ByteModel":
        return True
    pre = tok.pre_tokenizer.to_dict() if tok.pre_tokenizer is not None else None
    return '"ByteLevel"' in json.dumps(pre)


# ------------------------------------------------------------------------------------------
# The properties


def check_text_through(tok, text: str) -> None:
    strict = not is_byte_level(tok)
    r = tok.encode_result(text, return_offsets=True, return_masks=True)
    n = len(r.ids)
    assert len(r.tokens) == len(r.offsets) == len(r.original_offsets) == len(r.special_tokens_mask) == n
    assert validate_offsets_contract(r.tokenization_text, r.offsets, require_string_boundaries=strict), \
        (r.tokenization_text, list(zip(r.tokens, r.offsets)))
    assert validate_offsets_contract(text, r.original_offsets, require_string_boundaries=strict), \
        (text, list(zip(r.tokens, r.original_offsets)))
    assert r.tokenization_text == tok.tokenization_view(text)
    # The view is a fixed coordinate system: encoding it as already normalized keeps the contract there.
    again = tok.encode_result(r.tokenization_text, assume_normalized=True, return_offsets=True)
    assert validate_offsets_contract(r.tokenization_text, again.offsets, require_string_boundaries=strict)
    decoded = tok.decode(r.ids)
    assert isinstance(decoded, str)
    assert isinstance(tok.decode(r.ids, skip_special_tokens=True), str)


@pytest.mark.parametrize("name", FAMILIES)
@PROPERTY
@given(text=hostile_text)
def test_any_text_goes_through_every_family(name, text):
    check_text_through(family(name), text)


@pytest.mark.parametrize("name", FAMILIES)
@settings(max_examples=max(10, EXAMPLES // 4), deadline=None)
@given(texts=st.lists(hostile_text, min_size=1, max_size=4))
def test_batch_equals_singles(name, texts):
    tok = family(name)
    batch = tok.encode_batch(texts, return_offsets=True, return_masks=True, padding=False)
    singles = [tok.encode_result(t, return_offsets=True, return_masks=True, padding=False) for t in texts]
    assert batch == singles


@pytest.mark.parametrize("name", FAMILIES)
@settings(max_examples=max(10, EXAMPLES // 4), deadline=None)
@given(text=hostile_text, data=st.data())
def test_lone_surrogate_raises_value_error_naming_its_position(name, text, data):
    tok = family(name)
    pos = data.draw(st.integers(0, len(text)), label="position")
    surrogate = data.draw(st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff", "\ud83d"]), label="surrogate")
    bad = text[:pos] + surrogate + text[pos:]
    if name.startswith("ref_tiktoken"):
        # A .tiktoken encoding takes it as tiktoken does: U+FFFD in its place (issue 19, class 7).
        clean = bad.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        assert tok.encode(bad) == tok.encode(clean)
        assert tok.encode_batch(["fine", bad])[1].ids == tok.encode_result(clean).ids
        return
    with pytest.raises(ValueError, match=rf"U\+{ord(surrogate):04X} at character {pos}\b"):
        tok.encode_result(bad, return_offsets=True)
    with pytest.raises(ValueError, match=rf"at character {pos}\b"):
        tok.encode(bad)
    with pytest.raises(ValueError, match=rf"at character {pos}\b"):
        tok.encode_batch(["fine", bad])
    with pytest.raises(ValueError, match=rf"at character {pos}\b"):
        tok.encode_result("fine", text_pair=bad)


@pytest.mark.parametrize("name", FAMILIES)
def test_every_edge_case_goes_through(name, all_edge_cases):
    tok = family(name)
    for case in all_edge_cases:
        text = case["text"]
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            if name.startswith("ref_tiktoken"):  # replaced by U+FFFD, as tiktoken does (issue 19, class 7)
                assert tok.encode(text) == tok.encode(text.encode("utf-16", "surrogatepass").decode("utf-16", "replace"))
                continue
            with pytest.raises(ValueError, match=rf"at character {exc.start}\b"):
                tok.encode(text)
            continue
        check_text_through(tok, text)


@pytest.mark.parametrize("name", FAMILIES)
def test_every_hard_piece_alone_and_repeated(name):
    """Each listed hard piece by itself, doubled, and between words: deterministic coverage of the lists."""
    tok = family(name)
    pieces = CONTROLS + ZERO_WIDTH + BIDI + SPACES + PRIVATE_AND_EDGES + ZWJ_SEQUENCES + EXPANDERS + SCRIPTS + LITERALS
    for p in pieces:
        for text in (p, p + p, f"a{p}b", f" {p} "):
            check_text_through(tok, text)
    check_text_through(tok, "".join(pieces))
    check_text_through(tok, "e" + "\u0301" * 500)


def test_families_are_what_their_names_say():
    """Guards the family list itself: the byte/char classification and that every model kind is present."""
    kinds = {name: type(family(name).model).__name__ for name in SELF_CONTAINED}
    assert {"CharLevel", "BPE", "WordPiece", "Unigram", "WordLevel", "ByteModel"} <= set(kinds.values())
    assert is_byte_level(family("bpe_byte")) and is_byte_level(family("byte_model"))
    assert not is_byte_level(family("wordpiece")) and not is_byte_level(family("unigram"))
    if shared_data_dir().exists():
        assert is_byte_level(family("ref_llama_style_bpe")) and is_byte_level(family("ref_tiktoken_gpt2"))
        assert not is_byte_level(family("ref_t5_style_unigram"))


def test_non_str_input_is_a_type_error_not_a_crash():
    tok = family("char_ascii")
    for bad in (b"bytes", None, 3, ["a"]):
        with pytest.raises(TypeError):
            tok.encode(bad)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------
# Beyond tokenizers: code, lexical normalization, phonemes


@pytest.mark.parametrize("language", ["python", "javascript", "c"])
@settings(max_examples=max(10, EXAMPLES // 2), deadline=None)
@given(text=st.lists(st.one_of(piece, st.sampled_from(["def f(x):\n", "  return x\n", "/* c */", "\"str\\\"\"", "'", "{", "}",
                                                        "#", "//", "\\", "0x1F", "λ", "`${a}`"])), max_size=10).map("".join))
def test_code_tokens_cover_any_source_exactly_once(language, text):
    pytest.importorskip("tree_sitter")
    from tokcore.extras.code import tokenize_code

    tokens = tokenize_code(text, language)
    data = text.encode("utf-8")
    pos = 1
    for t in tokens:
        assert t.offsets[0] == pos, (t, pos)
        assert data[t.offsets[0] - 1 : t.offsets[1] - 1] == t.text.encode("utf-8")
        pos = t.offsets[1]
    assert pos == len(data) + 1
    assert validate_offsets_contract(text, [t.offsets for t in tokens], require_string_boundaries=True)


@PROPERTY
@given(text=hostile_text)
def test_lexical_normalization_keeps_an_alignment_for_any_text(text):
    result = tokcore.lexical_normalize(text)
    assert result.original == text
    spans = [(1, len(result.text.encode("utf-8")) + 1)]
    assert validate_offsets_contract(text, result.map_offsets(spans), require_string_boundaries=True)
    assert validate_offsets_contract(text, [d.span for d in result.decisions], require_string_boundaries=True)
    assert validate_offsets_contract(result.text, [d.output_span for d in result.decisions], require_string_boundaries=True)


@PROPERTY
@given(text=hostile_text)
def test_phonemes_of_any_text_point_into_it(text):
    from tokcore.extras.phonemes import phonemize

    tokens, words = phonemize(text)
    assert validate_offsets_contract(text, [t.offsets for t in tokens], require_string_boundaries=True)
    assert validate_offsets_contract(text, [w.offsets for w in words], require_string_boundaries=True)


@pytest.mark.parametrize("fn", ["lexical_normalize", "phonemize", "tokenize_code"])
def test_lone_surrogate_in_text_tools_is_a_value_error(fn):
    from tokcore.extras.code import tokenize_code
    from tokcore.extras.phonemes import phonemize

    call = {"lexical_normalize": tokcore.lexical_normalize, "phonemize": phonemize,
            "tokenize_code": lambda t: tokenize_code(t, "python")}[fn]
    with pytest.raises(ValueError, match=r"at character 3\b"):
        call("abc\udc80def")


@pytest.mark.parametrize("name", FAMILIES)
@settings(max_examples=max(10, EXAMPLES // 2), deadline=None)
@given(data=st.data())
def test_decode_takes_any_sequence_of_vocabulary_ids(name, data):
    """Not only encode's ids: any ids of the vocabulary decode to a str (bad byte runs become U+FFFD)."""
    tok = family(name)
    ids = sorted(set(tok.get_vocab().values()))
    picked = data.draw(st.lists(st.sampled_from(ids), max_size=12), label="ids")
    assert isinstance(tok.decode(picked), str)
    assert isinstance(tok.decode(picked, skip_special_tokens=True), str)
    with pytest.raises(ValueError, match="not in this tokenizer's vocabulary"):
        tok.decode(picked + [max(ids) + 10**6])


def test_added_token_with_lone_surrogate_is_refused():
    tok = tokcore.CharTokenizer()
    with pytest.raises(ValueError, match="at character 0"):
        tok.add_tokens(["\ud800x"])
