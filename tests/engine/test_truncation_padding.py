"""Truncation, overflowing windows and padding: every rule against HF ``tokenizers``.

The same hand-built pipeline (WordLevel + WhitespaceSplit + each post-processor) runs in HF
(``enable_truncation``/``enable_padding``) and in tokcore (``encode_result`` options) over every
strategy, stride, direction, padding mode and side, single texts and pairs; every field of the
result and of every overflowing window (nested ones included) must be equal. Known, deliberate
differences are tested on their own: tokcore raises where HF wraps around an unsigned
subtraction, and keeps the second text's sequence id in windows of processor-less pairs.
"""

from __future__ import annotations

import itertools

import pytest
from encoding_views import (
    all_results,
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
from tokcore.core.encoding import Encoding
from tokcore.core.errors import ConfigurationError
from tokcore.processors.truncation import truncate_encoding

tk = pytest.importorskip("tokenizers")
hp = tk.processors
V = sample_vocab

PROCESSORS = {
    "none": None,
    "bert": {"type": "BertProcessing", "sep": ["[SEP]", 3], "cls": ["[CLS]", 2]},
    "roberta": {"type": "RobertaProcessing", "sep": ["</s>", 5], "cls": ["<s>", 4], "trim_offsets": True, "add_prefix_space": True},
    "bytelevel": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
    # $B:0 exposes HF's rule that windows keep the type ids they were encoded with (1 for the pair).
    "template_b0": {
        "type": "TemplateProcessing",
        "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
        "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": "[SEP]", "type_id": 1}},
                 {"Sequence": {"id": "B", "type_id": 0}}],
        "special_tokens": {"[CLS]": {"id": "[CLS]", "ids": [2], "tokens": ["[CLS]"]},
                           "[SEP]": {"id": "[SEP]", "ids": [3], "tokens": ["[SEP]"]}},
    },
}
PAD = {"pad_id": 1, "pad_token": "[PAD]", "pad_type_id": 0}
PADDINGS = [None, ("right", None, None), ("left", 24, None), ("left", None, 4), ("right", 5, 3)]


def short_texts():
    texts = [t for t in sample_texts() if 0 < len(t.split()) <= 14][:6]
    return [(texts[0], None), (texts[1], None), (texts[2], texts[3]), (texts[4], texts[5]), ("", texts[0]), (texts[1], "")]


def run_hf(hf, a, b, add, trunc, padding):
    hf.no_truncation()
    hf.no_padding()
    if trunc:
        ml, stride, strat, side = trunc
        hf.enable_truncation(ml, stride=stride, strategy=strat, direction=side)
    if padding:
        hf.enable_padding(direction=padding[0], length=padding[1], pad_to_multiple_of=padding[2], **PAD)
    return hf.encode(a, b, add_special_tokens=add) if b is not None else hf.encode(a, add_special_tokens=add)


def run_ours(tok, a, b, add, trunc, padding):
    kw = {}
    if trunc:
        ml, stride, strat, side = trunc
        kw.update(truncation=True, max_length=ml, stride=stride, truncation_strategy=strat, truncation_side=side)
    if padding:
        strategy = {"Fixed": padding[1]} if padding[1] else "BatchLongest"
        kw.update(padding=dict(PAD, strategy=strategy, direction=padding[0].capitalize(), pad_to_multiple_of=padding[2]))
    return tok.encode_result(a, text_pair=b, add_special_tokens=add, return_offsets=True, return_masks=True, **kw)


def truncations():
    yield None
    for ml, stride, strat, side in itertools.product([0, 3, 6], [0, 2], ["longest_first", "only_first", "only_second"], ["right", "left"]):
        yield (ml, stride, strat, side)


@pytest.mark.parametrize("name", sorted(PROCESSORS))
def test_every_strategy_stride_side_and_padding_matches_hf(name):
    data = PROCESSORS[name]
    hf, ours = hf_pipeline(data), tokcore_pipeline(data)
    n_added = {False: ours.post_processor.added_tokens(False) if data else 0, True: ours.post_processor.added_tokens(True) if data else 0}
    compared = 0
    for (a, b), trunc, padding, add in itertools.product(short_texts(), truncations(), PADDINGS, [True, False]):
        try:
            want = hf_view(run_hf(hf, a, b, add, trunc, padding))
        except BaseException as exc:  # ValueError, or pyo3's PanicException for stride >= window
            with pytest.raises(ConfigurationError):
                run_ours(ours, a, b, add, trunc, padding)
            assert "Exception" in type(exc).__name__ or isinstance(exc, ValueError)
            continue
        if trunc and add and trunc[0] < n_added[b is not None]:
            # Deliberate: HF's max_length - added wraps around (usize) and silently skips truncation.
            with pytest.raises(ConfigurationError, match="smaller than the"):
                run_ours(ours, a, b, add, trunc, padding)
            continue
        got = tokcore_view(run_ours(ours, a, b, add, trunc, padding))
        if data is None and b is not None:
            want = true_sequence_ids(want)
        assert first_difference(want, got) is None, (name, a[:20], b and b[:20], trunc, padding, add)
        compared += 1
    assert compared > 700


@pytest.mark.parametrize("name", ["bert", "none", "template_b0"])
@pytest.mark.parametrize("padding", [("right", None, None), ("left", None, 8), ("left", 30, None)])
def test_batch_padding_matches_hf_encode_batch(name, padding):
    data = PROCESSORS[name]
    hf, ours = hf_pipeline(data), tokcore_pipeline(data)
    texts = list(sample_texts()[:12])
    batch = texts[:6] + list(zip(texts[6::2], texts[7::2]))
    hf.enable_truncation(20, stride=2)
    hf.enable_padding(direction=padding[0], length=padding[1], pad_to_multiple_of=padding[2], **PAD)
    want = hf.encode_batch(batch)
    strategy = {"Fixed": padding[1]} if padding[1] else "BatchLongest"
    got = ours.encode_batch(batch, truncation=True, max_length=20, stride=2, return_offsets=True, return_masks=True,
                            padding=dict(PAD, strategy=strategy, direction=padding[0].capitalize(), pad_to_multiple_of=padding[2]))
    for w, g, item in zip(want, got, batch):
        view = hf_view(w)
        if data is None and isinstance(item, tuple):
            view = true_sequence_ids(view)
        assert first_difference(view, tokcore_view(g)) is None


def test_tokenizer_own_settings_apply_and_can_be_overridden():
    """Like MiniLM's tokenizer.json: its truncation/padding are the defaults; False turns them off."""
    own_t = {"max_length": 8, "strategy": "LongestFirst", "stride": 0}  # no 'direction': older files omit it
    own_p = {"strategy": {"Fixed": 8}, "direction": "Right", "pad_to_multiple_of": None, "pad_id": 1, "pad_type_id": 0, "pad_token": "[PAD]"}
    ours = tokcore_pipeline(PROCESSORS["bert"], truncation=own_t, padding=own_p)
    hf = hf_pipeline(PROCESSORS["bert"])
    hf.enable_truncation(8)
    hf.enable_padding(length=8, pad_id=1, pad_token="[PAD]")
    long, short = sample_texts()[0], "the"
    for text in (long, short):
        assert first_difference(hf_view(hf.encode(text)), tokcore_view(ours.encode_result(text, return_offsets=True, return_masks=True))) is None
    assert len(ours.encode_result(long, truncation=False, padding=False)) == len(long.split()) + 2
    assert len(ours.encode_result(short, padding=False)) == 3
    assert len(ours.encode_result(long, max_length=6, padding=False)) == 6
    assert len(ours.encode_result(short, max_length=6)) == 6  # an explicit max_length sets the fixed padding too
    assert len(ours.encode_result(short, truncation="do_not_truncate", padding="do_not_pad")) == 3
    assert len(ours.encode_result(short, padding="max_length")) == 8
    assert ours.encode_result(long, truncation_strategy="only_first", text_pair="a b").sequence_ids.count(0) == 3
    assert ours.to_dict()["truncation"]["direction"] == "Right"


@pytest.mark.parametrize(
    "options, message",
    [
        (dict(truncation=True), "max_length"),
        (dict(truncation=True, max_length=-1), "at least 0"),
        (dict(truncation=True, max_length=5, truncation_strategy="middle_out"), "unknown truncation strategy"),
        (dict(truncation=True, max_length=5, truncation_side="up"), "unknown truncation direction"),
        (dict(truncation=True, max_length=5, stride=-1), "at least 0"),
        (dict(truncation=True, max_length=5, stride=4), "stride 4"),
        (dict(truncation=True, max_length=1), "smaller than the 2 special tokens"),
        (dict(truncation=True, max_length=4, truncation_strategy="only_second"), "needs a text_pair"),
        (dict(padding="max_length"), "max_length"),
        (dict(padding="sideways"), "padding must be"),
        (dict(padding=True, pad_to_multiple_of=-8), "at least 0"),
        (dict(padding=True, padding_side="middle"), "unknown padding side"),
        (dict(padding={"strategy": {"Fixed": -3}}), "at least 0"),
    ],
)
def test_invalid_combinations_raise_configuration_errors(options, message):
    ours = tokcore_pipeline(PROCESSORS["bert"])
    with pytest.raises(ConfigurationError, match=message):
        ours.encode_result("the cat sat on the mat today", **options)


def test_pair_errors_name_what_to_change():
    ours = tokcore_pipeline(PROCESSORS["bert"])
    with pytest.raises(ConfigurationError, match="too few to remove"):
        ours.encode_result("the", text_pair="a b c d e f g h", truncation=True, max_length=6, truncation_strategy="only_first")
    with pytest.raises(ConfigurationError, match="stride"):
        # 7 - 3 specials = 4 tokens for two sequences: windows of 2, stride 2 cannot advance.
        ours.encode_result("a b c d e", text_pair="f g h i j", truncation=True, max_length=7, stride=2)


def test_truncate_encoding_windows_worked_example():
    enc = Encoding(ids=list(range(5)), tokens=list("abcde"), spans=[(i, i + 1) for i in range(5)])
    enc.special = enc.type_ids = enc.attention = [0] * 5
    enc.word_ids = enc.sequence_ids = list(range(5))
    truncate_encoding(enc, 2, 1, "Right")
    assert enc.ids == [0, 1] and [o.ids for o in enc.overflowing] == [[1, 2], [2, 3], [3, 4]]
    enc = Encoding(ids=list(range(5)), tokens=list("abcde"), spans=[None] * 5, special=[0] * 5, type_ids=[0] * 5,
                   word_ids=[None] * 5, sequence_ids=[0] * 5, attention=[1] * 5)
    truncate_encoding(enc, 2, 0, "Left")
    assert enc.ids == [3, 4] and [o.ids for o in enc.overflowing] == [[1, 2], [0]]


WORDS = st.sampled_from(sorted(V())[:50] + ["qqq", "é", "🙂"])
TEXT = st.lists(WORDS, max_size=12).map(" ".join)


@settings(max_examples=50, deadline=None)
@given(
    a=TEXT, b=st.none() | TEXT, name=st.sampled_from(sorted(PROCESSORS)),
    ml=st.integers(4, 12), stride=st.integers(0, 2), strat=st.sampled_from(["longest_first", "only_first", "only_second"]),
    side=st.sampled_from(["right", "left"]), padding=st.sampled_from(PADDINGS),
)
def test_windows_and_pads_obey_the_offsets_contract(a, b, name, ml, stride, strat, side, padding):
    ours = tokcore_pipeline(PROCESSORS[name])
    try:
        res = run_ours(ours, a, b, True, (ml, stride, strat, side), padding)
    except ConfigurationError:
        return  # an impossible combination, reported with a message: never a crash
    texts = {0: res.tokenization_text, 1: res.tokenization_text_pair or ""}
    if not padding:
        assert len(res) <= ml  # windows may be longer: a sequence cut to nothing rides whole in them (as in HF)
    for r in all_results(res):
        if padding and padding[1]:
            assert len(r) >= padding[1]
        for seq in (0, 1):
            offsets = [o for o, s in zip(r.offsets, r.sequence_ids) if s == seq]
            assert tokcore.validate_offsets_contract(texts[seq], offsets, require_string_boundaries=True)
        for o, att, special, _seq, word in zip(r.offsets, r.attention_mask, r.special_tokens_mask, r.sequence_ids, r.word_ids):
            if att == 0:  # a pad
                assert (o, special, word) == ((0, 0), 1, None)


REFERENCE_FILES = {
    "minilm": ("minilm", "tokenizer.json"),
    "bert_cased": ("trained", "bert_cased_wordpiece.json"),
    "roberta": ("trained", "roberta_bytelevel.json"),
    "t5_style": ("trained", "t5_style_unigram.json"),
    "llama_style": ("trained", "llama_style_bpe.json"),
    "gpt2": ("gpt2", "tokenizer.json"),
}


def _without_offsets(view: dict) -> dict:
    view = {k: v for k, v in view.items() if k != "offsets"}
    view["over"] = [_without_offsets(o) for o in view["over"]]
    return view


@pytest.mark.parametrize("name", sorted(REFERENCE_FILES))
def test_reference_files_truncate_and_pad_like_hf(name):
    """Real tokenizer.json files, batches of singles and pairs, every strategy, side and padding mode.

    Offsets of these files are the HF parity suite's business (with the contract's rules for
    inserted ``▁`` and folded marks); here every other field of every window must match.
    """
    from encoding_views import contract_special

    path = require_shared("reference", "hf", *REFERENCE_FILES[name])
    try:
        ours = tokcore.load(path)
    except tokcore.TokenizerFileError as exc:
        if "unknown" not in str(exc):
            raise
        pytest.skip(f"a component of {path.name} is not implemented yet: {exc}")
    hf = tk.Tokenizer.from_file(str(path))
    specials = {t.id: t.content for t in ours.added_tokens if t.special}
    texts = [t for t in sample_texts() if len(t) > 20][:10]
    batch = texts[:4] + list(zip(texts[4::2], texts[5::2]))
    pad_id = ours.padding["pad_id"] if ours.padding else 0
    pad_token = ours.padding["pad_token"] if ours.padding else "[PAD]"
    settings_grid = [(ml, stride, strat, side, padding)
                     for ml, stride, strat, side, padding in itertools.product(
                         [14], [0, 3], ["longest_first", "only_first", "only_second"], ["right", "left"],
                         [None, ("right", None, None), ("left", 40, None), ("left", None, 8)])]
    for ml, stride, strat, side, padding in settings_grid:
        hf.enable_truncation(ml, stride=stride, strategy=strat, direction=side)
        if padding:
            hf.enable_padding(direction=padding[0], length=padding[1], pad_to_multiple_of=padding[2], pad_id=pad_id, pad_token=pad_token)
        else:
            hf.no_padding()
        kw = dict(truncation=True, max_length=ml, stride=stride, truncation_strategy=strat, truncation_side=side)
        if padding:
            strategy = {"Fixed": padding[1]} if padding[1] else "BatchLongest"
            kw["padding"] = {"strategy": strategy, "direction": padding[0].capitalize(), "pad_to_multiple_of": padding[2],
                             "pad_id": pad_id, "pad_token": pad_token}
        else:
            kw["padding"] = False
        items = batch if strat == "longest_first" else [b for b in batch if isinstance(b, tuple)]
        try:
            want = hf.encode_batch(items)
        except BaseException:  # a window too small for the stride: HF panics
            with pytest.raises(ConfigurationError):
                ours.encode_batch(items, **kw)
            continue
        got = ours.encode_batch(items, return_offsets=True, return_masks=True, **kw)
        for w, g, item in zip(want, got, items):
            a, b = item if isinstance(item, tuple) else (item, None)
            w_view = _without_offsets(contract_special(hf_view(w), specials, a, b))
            assert first_difference(w_view, _without_offsets(tokcore_view(g))) is None, (name, ml, stride, strat, side, padding)
