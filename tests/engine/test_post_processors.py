"""Post-processors: the same pipeline in HF ``tokenizers`` and in tokcore gives the same fields.

Compared per token: ids, tokens, type ids, special mask, attention mask, word ids, sequence
ids and offsets (0-based characters, HF's ``(0, 0)`` for tokcore's sentinel), for single texts
and pairs, with and without special tokens, on botchan lines and the edge cases. Then
``trim_offsets`` on real byte-level files (RoBERTa, GPT-2), the JSON forms, and the errors.
"""

from __future__ import annotations

import json

import pytest
from encoding_views import (
    contract_special,
    first_difference,
    hf_pipeline,
    hf_view,
    sample_texts,
    sample_vocab,
    tokcore_pipeline,
    tokcore_view,
    true_sequence_ids,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import require_shared

import tokcore
from tokcore.core.components import build
from tokcore.core.encoding import Encoding
from tokcore.core.errors import ConfigurationError, TokenizerFileError
from tokcore.processors import standard as P
from tokcore.processors.merge import trim_offsets

tk = pytest.importorskip("tokenizers")
hp = tk.processors


def hf_dict(proc) -> dict:
    return json.loads(proc.__getstate__())


V = sample_vocab
PROCESSORS = {
    "none": lambda: None,
    "bert": lambda: hp.BertProcessing(("[SEP]", V()["[SEP]"]), ("[CLS]", V()["[CLS]"])),
    "roberta": lambda: hp.RobertaProcessing(("</s>", V()["</s>"]), ("<s>", V()["<s>"])),
    "roberta_plain": lambda: hp.RobertaProcessing(("</s>", 5), ("<s>", 4), trim_offsets=False, add_prefix_space=False),
    "bytelevel": lambda: hp.ByteLevel(),
    "template_bert": lambda: hp.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", 2), ("[SEP]", 3)]
    ),
    "template_t5": lambda: hp.TemplateProcessing(
        single=["$A", "</s>"], pair="$A:0 </s>:0 $B:0 </s>:0", special_tokens=[("</s>", 5)]
    ),
    "template_odd": lambda: hp.TemplateProcessing(
        single="[CLS]:1 $2 [SEP]:3", pair="$B:1 [SEP] $a:0 [MASK]:7",
        special_tokens=[("[CLS]", 2), {"id": "[SEP]", "ids": [3, 6], "tokens": ["[SEP]", "[MASK]"]}, ("[MASK]", 6)],
    ),
    "sequence": lambda: hp.Sequence([hp.ByteLevel(), hp.BertProcessing(("[SEP]", 3), ("[CLS]", 2))]),
}


def proc_dict(name):
    proc = PROCESSORS[name]()
    return None if proc is None else hf_dict(proc)


@pytest.mark.parametrize("name", sorted(n for n in PROCESSORS if n != "none"))
def test_dict_round_trip_matches_hf(name):
    data = proc_dict(name)
    ours = build("post_processor", data)
    assert ours.to_dict() == data
    assert build("post_processor", ours.to_dict()) == ours


@pytest.mark.parametrize("name", sorted(n for n in PROCESSORS if n != "none"))
def test_added_tokens_match_hf(name):
    ours = build("post_processor", proc_dict(name))
    for is_pair in (False, True):
        assert ours.added_tokens(is_pair) == PROCESSORS[name]().num_special_tokens_to_add(is_pair)


@pytest.mark.parametrize("name", sorted(PROCESSORS))
@pytest.mark.parametrize("add_special_tokens", [True, False])
def test_pipeline_parity_single_and_pair(name, add_special_tokens):
    data = proc_dict(name)
    hf, ours = hf_pipeline(data), tokcore_pipeline(data)
    texts = sample_texts()
    pairs = [(t, None) for t in texts] + list(zip(texts[::2], texts[1::2]))
    for a, b in pairs:
        enc = hf.encode(a, b, add_special_tokens=add_special_tokens) if b is not None else hf.encode(a, add_special_tokens=add_special_tokens)
        res = ours.encode_result(a, text_pair=b, add_special_tokens=add_special_tokens, return_offsets=True, return_masks=True)
        assert first_difference(hf_view(enc), tokcore_view(res)) is None, (name, a[:40], b and b[:40])
        assert tokcore.validate_offsets_contract(res.tokenization_text, [o for o, s in zip(res.offsets, res.sequence_ids) if s != 1])


@pytest.mark.parametrize(
    "strings",
    [
        ("[CLS]:0 $A:0 [SEP]:0", "[CLS]:0 $A:0 [SEP]:0 $B:1 [SEP]:1"),
        ("[CLS] $0 [SEP]", "[CLS] $ [SEP] $b:1 [SEP]:1"),
        ("$1", "$A:2 $B:3"),
        (["[CLS]", "$A", "[SEP]"], ["$B", "[SEP]:4", "$A"]),
    ],
)
def test_string_and_list_templates_read_as_hf(strings):
    single, pair = strings
    specials = [("[CLS]", 101), ("[SEP]", 102)]
    theirs = hf_dict(hp.TemplateProcessing(single=single, pair=pair, special_tokens=specials))
    ours = P.TemplateProcessing(single=single, pair=pair, special_tokens=specials)
    assert ours.to_dict() == theirs
    assert P.TemplateProcessing.from_dict(theirs) == ours


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 1)]),  # [SEP] missing
        dict(single="$A", pair="$A [SEP]", special_tokens=[("[SEP]", 1)]),  # pair without $B
        dict(single="$C", special_tokens=[]),
        dict(single="$A [CLS]:x", special_tokens=[("[CLS]", 1)]),
        dict(single="$A:0:1", special_tokens=[]),
        dict(single="$A  [CLS]", special_tokens=[("[CLS]", 1)]),  # two spaces: an empty piece
        dict(single="$A", special_tokens=[{"id": "x", "ids": [1, 2], "tokens": ["x"]}]),
    ],
)
def test_invalid_templates_raise_like_hf(kwargs):
    with pytest.raises(Exception):  # noqa: B017 - HF raises its own exception types
        hp.TemplateProcessing(**kwargs)
    with pytest.raises(ConfigurationError):
        P.TemplateProcessing(**kwargs)


def test_single_template_with_b_is_refused():
    with pytest.raises(ConfigurationError, match=r"\$B"):
        P.TemplateProcessing(single="$A $B")


@pytest.mark.parametrize(
    "data",
    [
        {"type": "BertProcessing", "sep": ["[SEP]"], "cls": ["[CLS]", 1]},
        {"type": "RobertaProcessing", "sep": ["</s>", -2], "cls": ["<s>", 0]},
        {"type": "ByteLevel", "trim_offsets": "yes"},
        {"type": "TemplateProcessing", "single": "$A [X]", "pair": "$A $B", "special_tokens": {}},
        {"type": "Sequence", "processors": {"type": "ByteLevel"}},
        {"type": "Mystery"},
    ],
)
def test_malformed_processor_dicts_raise_file_errors(data):
    with pytest.raises(TokenizerFileError):
        build("post_processor", data, source="tokenizer.json")


def test_trim_offsets_as_hf_unit_example():
    # HF's own processor_trims_offsets case, with byte spans (the text is ASCII).
    tokens = ["Ġ", "ĠĠĠĠHelloĠĠ", "ĠĠHello", "HelloĠĠ", "ĠĠĠĠ"]
    enc = Encoding(ids=[0] * 5, tokens=tokens, spans=[(0, 1), (0, 11), (11, 18), (18, 25), (25, 29)])
    trim_offsets(enc, add_prefix_space=True)
    assert enc.spans == [(0, 0), (4, 9), (13, 18), (18, 23), (29, 29)]
    # HF's pre-tokenized case: a token starting at 0 keeps its added space even when it is not first.
    enc = Encoding(ids=[0] * 4, tokens=["Ġl", "ove", "Ġl", "ove"], spans=[(0, 1), (1, 4), (0, 1), (1, 4)])
    trim_offsets(enc, add_prefix_space=True)
    assert enc.spans == [(0, 1), (1, 4), (0, 1), (1, 4)]
    # Whitespace the token really contains counts by its UTF-8 length; Rust's White_Space, not str.isspace.
    enc = Encoding(ids=[0] * 3, tokens=["\u3000ab", "x\x1c", "a\u3000"], spans=[(5, 10), (10, 12), (12, 16)])
    trim_offsets(enc, add_prefix_space=False)
    assert enc.spans == [(8, 10), (10, 12), (12, 13)]


BYTE_LEVEL_FILES = [("trained", "roberta_bytelevel.json"), ("gpt2", "tokenizer.json")]


def load_pair(parts):
    path = require_shared("reference", "hf", *parts)
    try:
        ours = tokcore.Tokenizer.from_dict(json.loads(path.read_text(encoding="utf-8")), source=path)
    except TokenizerFileError as exc:
        if "unknown" in str(exc):
            pytest.skip(f"a component of {path.name} is not implemented yet: {exc}")
        raise
    return tk.Tokenizer.from_file(str(path)), ours


@pytest.mark.parametrize("parts", BYTE_LEVEL_FILES, ids=lambda p: p[-1])
def test_trim_offsets_parity_on_real_byte_level_files(parts):
    hf, ours = load_pair(parts)
    specials = {t.id: t.content for t in ours.added_tokens if t.special}
    texts = list(sample_texts()) + ["  two leading", "trailing  ", "a  b   c", " ", "\u3000x\u3000", "x\n\n y"]
    for a in texts:
        res = ours.encode_result(a, return_offsets=True, return_masks=True)
        assert first_difference(contract_special(hf_view(hf.encode(a)), specials, a), tokcore_view(res)) is None, a
    for a, b in zip(texts[::3], texts[1::3]):
        res = ours.encode_result(a, text_pair=b, return_offsets=True, return_masks=True)
        assert first_difference(contract_special(hf_view(hf.encode(a, b)), specials, a, b), tokcore_view(res)) is None, (a, b)


@pytest.mark.parametrize("parts", BYTE_LEVEL_FILES, ids=lambda p: p[-1])
def test_trim_offsets_in_overflowing_windows(parts):
    """Each window is trimmed on its own: its first token keeps one added prefix space, as in HF."""
    hf, ours = load_pair(parts)
    specials = {t.id: t.content for t in ours.added_tokens if t.special}
    texts = [t for t in sample_texts() if len(t) > 40][:25]
    for (ml, stride, side) in [(16, 3, "right"), (14, 2, "left")]:
        hf.enable_truncation(ml, stride=stride, direction=side)
        for a, b in zip(texts, texts[1:] + [None]):
            enc = hf.encode(a, b) if b is not None else hf.encode(a)
            res = ours.encode_result(a, text_pair=b, truncation=True, max_length=ml, stride=stride, truncation_side=side,
                                     return_offsets=True, return_masks=True)
            assert first_difference(contract_special(hf_view(enc), specials, a, b), tokcore_view(res)) is None, (ml, a[:30])


WORDS = st.sampled_from(sorted(sample_vocab())[:60] + ["zzz", "é", "🙂", "[CLS]"])
TEXT = st.lists(st.tuples(WORDS, st.sampled_from([" ", "  ", "\t", "\n", "\u3000"])), max_size=10).map(
    lambda parts: "".join(w + s for w, s in parts)
)


@settings(max_examples=60, deadline=None)
@given(a=TEXT, b=st.none() | TEXT, name=st.sampled_from(sorted(PROCESSORS)), add=st.booleans())
def test_random_texts_parity_and_contract(a, b, name, add):
    data = proc_dict(name)
    enc = hf_pipeline(data).encode(a, b, add_special_tokens=add) if b is not None else hf_pipeline(data).encode(a, add_special_tokens=add)
    res = tokcore_pipeline(data).encode_result(a, text_pair=b, add_special_tokens=add, return_offsets=True, return_masks=True)
    want = hf_view(enc)
    if name == "none" and b is not None:
        want = true_sequence_ids(want)
    assert first_difference(want, tokcore_view(res)) is None
    for seq, text in ((0, res.tokenization_text), (1, res.tokenization_text_pair)):
        offsets = [o for o, s in zip(res.offsets, res.sequence_ids) if s == seq]
        assert tokcore.validate_offsets_contract(text or "", offsets, require_string_boundaries=True)
    for o, special, seq in zip(res.offsets, res.special_tokens_mask, res.sequence_ids):
        if seq is None:
            assert o == (0, 0) and special == 1


@pytest.mark.parametrize("name", sorted(n for n in PROCESSORS if n != "none"))
def test_save_hf_round_trip_encodes_like_hf(name):
    """``to_hf_dict`` writes the processor so that HF loads it and encodes as tokcore does."""
    ours = tokcore_pipeline(proc_dict(name))
    hf = tk.Tokenizer.from_str(json.dumps(ours.to_hf_dict()))
    texts = sample_texts()[:20]
    for a, b in zip(texts, texts[1:]):
        res = ours.encode_result(a, text_pair=b, return_offsets=True, return_masks=True)
        assert first_difference(hf_view(hf.encode(a, b)), tokcore_view(res)) is None
