"""A sentencepiece Unigram ``.model``'s line maps its offsets from its token ids.

Its pipeline has no pre-tokenizer: the model's pieces cover the view (``SentencePieceText``: the
dummy ``"▁"``, the text with its spaces as ``"▁"``) end to end, so the lane hands the ids and a
``RawLengths`` to ``SentencePieceText.mapper`` (``lane._covering_tokens``) and ``ShiftMapper``
maps the spans from the pieces' raw lengths, without its tables. Unknown and byte-fallback
pieces have no such length: a line holding one takes the tables. Every result must equal the
reference path's (``fast = False``).

Left out: the mapper's tables (``test_shift_mapper.py``) and Llama's ids (``test_llama_mapper_ids.py``).
"""

from __future__ import annotations

import fast_pairs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tokcore
from tokcore.core.offsets import SENTINEL
from tokcore.fast.lane import lane_for

UNIGRAMS = ["botchan_en_unigram_1000.model", "kyoto_ja_unigram_8000.model"]
WORDS = ["It", "was", "a", "fine", "day.", "Article", "é", "中文", "日本", "😀", "ﬁ", "\t", "42", "ZQX"]
texts = st.builds(lambda lead, words, tail: " " * lead + " ".join(words) + " " * tail,
                  st.integers(0, 2), st.lists(st.sampled_from(WORDS), min_size=1, max_size=8), st.integers(0, 2))


def _by_ids(tok, text: str):
    """The ids path's own answer for ``text`` (``None``: it declined), and the reference's offsets."""
    lane = lane_for(tok)
    res = tok.encode_result(text, return_offsets=True)
    mapper = lane.deferred_view.mapper(text, res.ids, lane.raw_lengths)
    if mapper is None:
        return None, list(res.original_offsets)
    inner = getattr(mapper, "mapper", mapper)  # LeadMapper wraps the words' ShiftMapper
    spans = [None if o == SENTINEL else (o[0] - 1, o[1] - 1) for o in res.offsets]
    lead = next(i for i, span in enumerate(spans) if span is not None)  # inserted tokens around the text's
    stop = len(spans) - next(i for i, span in enumerate(reversed(spans)) if span is not None)
    own = inner._from_ids(spans, lead, stop)
    if own is not None and inner is not mapper:
        own = [(a + mapper.lead, b + mapper.lead) for a, b in own]
    return own, list(res.original_offsets)


@pytest.mark.parametrize("name", UNIGRAMS)
def test_plain_lines_map_from_their_ids(name):
    fast, ref = fast_pairs.pair_for("sentencepiece", name)
    assert lane_for(fast).raw_lengths is not None
    for text in ("It was a fine day.", "Article 1", "  indented words", "x"):
        own, reference = _by_ids(fast, text)
        assert own is not None, text
        assert own == reference
        assert fast.encode_result(text, return_offsets=True) == ref.encode_result(text, return_offsets=True)


@pytest.mark.parametrize("name", UNIGRAMS)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_any_line_through_the_lane_equals_the_reference(name, text):
    fast, ref = fast_pairs.pair_for("sentencepiece", name)
    fast_pairs.assert_same_results(fast, ref, text)
    own, reference = _by_ids(fast, text)
    if own is not None:
        assert own == reference


def test_the_unknown_piece_declines():
    fast, _ref = fast_pairs.pair_for("sentencepiece", "botchan_en_unigram_1000.model")
    lane = lane_for(fast)
    assert lane.raw_lengths[fast.model.unk_id] is None
    own, _reference = _by_ids(fast, "a 中 b")  # no piece holds 中: the unknown piece covers it
    assert own is None


def test_a_bpe_model_keeps_its_plain_line_mapper():
    fast, _ref = fast_pairs.pair_for("sentencepiece", "botchan_en_bpe_1000.model")
    assert fast.pre_tokenizer is not None and lane_for(fast).raw_lengths is None


@pytest.fixture(scope="module")
def byte_fallback_pair(tmp_path_factory):
    """(fast, reference) of a Unigram .model with byte fallback, trained here on botchan."""
    from shared_data import require_shared

    spm = pytest.importorskip("sentencepiece")
    prefix = tmp_path_factory.mktemp("spm") / "unigram_bytes"
    spm.SentencePieceTrainer.train(input=str(require_shared("corpora", "botchan.txt")), model_prefix=str(prefix),
                                   vocab_size=600, model_type="unigram", byte_fallback=True, minloglevel=2)
    fast, ref = tokcore.load(f"{prefix}.model"), tokcore.load(f"{prefix}.model")
    ref.fast = False
    return fast, ref


def test_byte_pieces_are_hidden_and_their_lines_stay_exact(byte_fallback_pair):
    fast, ref = byte_fallback_pair
    lengths = lane_for(fast).raw_lengths
    byte_id = fast.model.token_to_id("<0xF0>")
    assert fast.model.byte_fallback and lengths[byte_id] is None
    for text in ("a 😀 b", "中文 and more", "plain words only", "  😀"):
        res = fast.encode_result(text, return_offsets=True)
        assert res == ref.encode_result(text, return_offsets=True), text
        if "<0xF0>" in res.tokens:
            assert _by_ids(fast, text)[0] is None
