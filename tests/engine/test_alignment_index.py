"""Linear-time alignment (``SpanIndex``) gives exactly what the overlap scan gives, in order or not."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tokcore.analysis.alignment import SpanIndex, align_tokens, align_words, tokens_covering

spans = st.lists(st.tuples(st.integers(0, 40), st.integers(0, 12)).map(lambda p: (p[0], p[0] + p[1])), max_size=30)


def _ordered(pairs):
    out, pos = [], 1
    for gap, width in pairs:
        pos += gap
        out.append((pos, pos + width))
        pos += width
    return out


@settings(max_examples=300, deadline=None)
@given(spans, st.tuples(st.integers(0, 60), st.integers(0, 20)))
def test_covering_matches_the_scan_on_any_spans(offsets, query):
    span = (query[0], query[0] + query[1])
    assert SpanIndex(offsets).covering(span) == tokens_covering(span, offsets)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4)), max_size=40), st.data())
def test_in_order_spans_take_the_bisection_and_agree(pairs, data):
    offsets = _ordered(pairs)
    sentinels = data.draw(st.lists(st.integers(0, len(offsets)), max_size=3))
    for i in sorted(sentinels, reverse=True):
        offsets.insert(i, (0, 0))
    index = SpanIndex(offsets)
    assert index.in_order
    for q in data.draw(st.lists(st.tuples(st.integers(1, 80), st.integers(1, 10)), max_size=10)):
        span = (q[0], q[0] + q[1])
        assert index.covering(span) == tokens_covering(span, offsets)


def test_words_and_tokens_as_documented():
    assert [w.tokens for w in align_words("ab c", [(0, 0), (1, 2), (2, 3), (4, 5)])] == [[1, 2], [3]]
    assert [(w.number, w.tokens) for w in align_words("ab c", [(1, 2), (2, 3), (4, 5)], within=(4, 5))] == [(1, [2])]
    assert align_tokens([(1, 3), (3, 4)], [(1, 2), (2, 4)]) == [(0, 1), (1, 1)]


def test_a_long_document_aligns_word_by_word_without_scanning_every_token():
    # 20,000 words, 40,000 tokens: the scan would be 800 million overlap tests; the index answers at once.
    text = "ab " * 20_000
    offsets = [p for k in range(20_000) for p in ((3 * k + 1, 3 * k + 2), (3 * k + 2, 3 * k + 3))]
    words = align_words(text, offsets)
    assert len(words) == 20_000 and words[-1].tokens == [39_998, 39_999]
