"""A ``.model`` line with spaces before or after its words maps its offsets by arithmetic.

``SentencePieceText.mapper`` gives a ``ShiftMapper`` over the words (moved on by the cut leading
spaces: ``LeadMapper``) where the charsmap changed nothing and the inner spaces are single; it
must map every span as ``OriginalMapper`` maps it over the normalizer's own alignment, and the
lane's results must equal the reference path's (``fast = False``) and sentencepiece's.

Left out: the view's text (``test_fast_lane.py``) and the plain line (``test_shift_mapper.py``).
"""

from __future__ import annotations

import fast_pairs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_shift_mapper import spans_of  # byte spans of a view: empty, cutting characters, or None

from tokcore.core.normalized import NormalizedString
from tokcore.core.original_offsets import OriginalMapper, ShiftMapper
from tokcore.fast.views import LeadMapper, deferred_view_for

MODELS = ["botchan_en_unigram_1000.model", "botchan_en_bpe_1000.model"]
# Words after and before runs of spaces; letters no rule changes and ones nmt_nfkc rewrites or
# drops (the ligature, the circled digit, a control, a tab), and a literal "▁".
WORDS = ["Article", "x", "é", "Пре", "中文", "e\u0301", "😀", "ﬁ", "①", "\x01", "\t", "▁", ".", "42"]
texts = st.builds(lambda lead, words, tail: " " * lead + " ".join(words) + " " * tail,
                  st.integers(0, 4), st.lists(st.sampled_from(WORDS), min_size=1, max_size=6), st.integers(0, 3))


@pytest.mark.parametrize("name", MODELS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, data=st.data())
def test_lead_mapper_equals_the_alignments_mapper(name, text, data):
    fast, _ref = fast_pairs.pair_for("sentencepiece", name)
    view_of = deferred_view_for(fast.normalizer)
    view = view_of(text)
    mapper = view_of.mapper(text)
    if view is None or mapper is None:
        return
    ns = fast.normalizer.normalize(NormalizedString(text))
    assert ns.normalized == view
    spans = data.draw(spans_of(len(view.encode("utf-8"))))
    assert mapper.map_all(spans) == OriginalMapper(ns).map_all(spans)
    assert [mapper.map(s) for s in spans if s is not None] == [OriginalMapper(ns).map(s) for s in spans if s is not None]


@pytest.mark.parametrize("name", MODELS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_indented_lines_through_the_lane_equal_the_reference(name, text):
    fast, ref = fast_pairs.pair_for("sentencepiece", name)
    fast_pairs.assert_same_results(fast, ref, text)


@pytest.mark.parametrize("name", MODELS)
def test_indented_and_trailing_lines_take_the_arithmetic_mapper(name):
    fast, ref = fast_pairs.pair_for("sentencepiece", name)
    view_of = deferred_view_for(fast.normalizer)
    assert isinstance(view_of.mapper("   Article 1 é"), LeadMapper)
    assert isinstance(view_of.mapper("Article 1 é  "), ShiftMapper)
    for text in ("   Article 1 é", "  Пре ambu é  ", "Article 1 é  ", "    Preâmbulo"):
        assert fast.encode_result(text, return_offsets=True) == ref.encode_result(text, return_offsets=True)
    # Where a rule applied, or inner spaces were collapsed, the normalizer aligns the line.
    assert view_of.mapper("  ① x") is None
    assert view_of.mapper("  a  b") is None


@pytest.mark.parametrize("name", MODELS)
def test_offsets_of_indented_lines_equal_sentencepiece(name):
    spm = pytest.importorskip("sentencepiece")
    from shared_data import require_shared

    fast, _ref = fast_pairs.pair_for("sentencepiece", name)
    sp = spm.SentencePieceProcessor(model_file=str(require_shared("reference", "sentencepiece", name)))
    for text in ("   Article 1 é", "  Пре ambu é  ", "Article 1 é  ", "    Preâmbulo", "\t x"):
        pieces = sp.encode(text, return_type="proto").pieces
        data = text.encode("utf-8")
        res = fast.encode_result(text, return_offsets=True, add_special_tokens=False)
        assert res.ids == [p.id for p in pieces]
        # sentencepiece's begin/end are 0-based bytes; tokcore's original offsets 1-based.
        assert [(b - 1, e - 1) for b, e in res.original_offsets] == [(p.begin, p.end) for p in pieces], data
