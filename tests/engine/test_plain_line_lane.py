"""The lane's per-line shortcuts on a sentencepiece ``.model``'s plain lines and a processor-less result.

``spaced_cached_entries`` finds a line's word entries once, for the ids and the other lists;
``finalize_sequence_ids`` leaves an encoding whose every token has a sequence alone. Each is
checked against the slow way, and the lane end to end against the reference path on plain
lines, first and second encoding of each line.
"""

from __future__ import annotations

import fast_pairs
from hypothesis import given, settings
from hypothesis import strategies as st

from tokcore.core.encoding import Encoding
from tokcore.fast.encode import spaced_cached_entries, spaced_entries
from tokcore.fast.lane import lane_for
from tokcore.fast.views import escape
from tokcore.processors.merge import finalize_sequence_ids, set_ranges

_LINE_WORDS = ["It", "was", "a", "fine", "day,", "said", "he.", "~", "`q`", "{z}", "0123456789", "@#$%", "Qx", "I"]
_LINES = st.lists(st.sampled_from(_LINE_WORDS), min_size=1, max_size=12).map(" ".join)


@settings(max_examples=80, deadline=None)
@given(line=_LINES)
def test_plain_lines_equal_the_reference_first_and_again(line):
    fast, ref = fast_pairs.pair_for("sentencepiece", "botchan_en_bpe_1000.model")
    want = ref.encode_result(line, return_offsets=True, return_masks=True)
    for _ in range(2):  # the second encoding finds every word cached (spaced_cached_entries)
        got = fast.encode_result(line, return_offsets=True, return_masks=True)
        assert got.original_offsets == want.original_offsets
        assert got == want
    plan = lane_for(fast).plan
    entries = spaced_cached_entries(plan, line, escaped=True)
    assert entries is not None and entries == spaced_entries(plan, escape(line), 0)
    assert fast.encode_result(line).ids == want.ids


def test_finalize_leaves_own_sequences_and_fills_inserted_ones():
    enc = Encoding([5, 6], ["a", "b"], [(0, 1), (1, 2)], [0, 0], [0, 0], [0, 0], [0, 1], [1, 1])
    finalize_sequence_ids(enc)
    assert enc.sequence_ids == [0, 1]
    # Inserted tokens (None) take HF's reading of the ranges, here [0, 0, None].
    enc = Encoding([1, 5, 2], ["<s>", "a", "</s>"], [None, (0, 1), None], [1, 0, 1], [0, 0, 0], [None, 0, None],
                   [None, 0, None], [1, 1, 1])
    set_ranges(enc, {0: (0, 2)})
    finalize_sequence_ids(enc)
    assert enc.sequence_ids == [0, 0, None]


def test_lazy_fields_read_through_the_class_attribute_once_and_then_from_the_dict():
    from tokcore.core.encoding import EncodeResult

    fast, ref = fast_pairs.pair_for("sentencepiece", "botchan_en_bpe_1000.model")
    line = "It was a fine day, said he."
    fast.encode_result(line)
    want = ref.encode_result(line, return_offsets=True, return_masks=True)
    for name in ("ids", "tokens", "offsets", "original_offsets", "word_ids", "sequence_ids", "tokenization_text",
                 "attention_mask", "special_tokens_mask", "token_type_ids", "overflowing"):
        got = fast.encode_result(line, return_offsets=True, return_masks=True)
        assert name not in got.__dict__ or name == "ids"
        assert getattr(got, name) == getattr(want, name), name  # first read: the class attribute fills it
        assert got.__dict__[name] == getattr(want, name)
        assert got == want
    # On the class, and for a name that is no field, there is still no such attribute.
    assert not hasattr(EncodeResult, "ids") and not hasattr(want, "no_such_field")


@settings(max_examples=200, deadline=None)
@given(counts=st.lists(st.integers(0, 70), min_size=1, max_size=12), first=st.integers(0, 5))
def test_emit_words_numbers_each_words_tokens_and_skips_a_word_without_any(counts, first):
    from tokcore.fast.encode import emit_words

    # One-piece word entries of ``count`` one-byte tokens each (a word may have none).
    ents = [(tuple(range(c)), ("t",) * c, (1,) * c, (0,) * c, 1, c, c, None, None) for c in counts]
    words: list = []
    after = emit_words((ents, None, None, False), "", 0, None, 0, True, None, [], [], words, first)
    assert words == [first + k for k, c in enumerate(counts) for _ in range(c)]
    assert after == first + len(counts)
