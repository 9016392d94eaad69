"""``Precompiled``'s sentencepiece scan keeps the outcome of walks that two characters decide.

Most positions the scan walks hold a letter some rule starts with and then a character that
continues none (nmt_nfkc's rules from "e" need a combining mark next): the walk's outcome is the
pair's, kept in ``Precompiled._after``. The scan with those pairs known must find what the
reference scan finds, ``prefix_rules`` (a walk of the whole window) at every position, on texts
where rules of one, two and three characters start at the same letter, and where the text ends
inside a rule.
"""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import require_shared

from tokcore.loaders.sentencepiece_model import read_sentencepiece_model
from tokcore.normalizers.precompiled import Precompiled

_CHARSMAPS: dict = {}


def _charsmap(name: str) -> bytes:
    if name not in _CHARSMAPS:
        path = require_shared("reference", "sentencepiece", name)
        _CHARSMAPS[name] = read_sentencepiece_model(path).normalizer_spec.precompiled_charsmap
    return _CHARSMAPS[name]


def _reference_scan(pre: Precompiled, text: str) -> list:
    """sentencepiece's scan through ``prefix_rules``: at each position the longest rule, else one character."""
    pieces, i = [], 0
    while i < len(text):
        hits = pre.prefix_rules(text[i:i + 16], cache=False)
        if hits:
            k, new = hits[-1]
            pieces.append((new, i, i + k))
            i += k
        else:
            i += 1
    return pieces


# "e" + U+0301 is a rule ("é"), "e" + U+0302 + U+0301 a longer one ("ế"); "ｶ" + "ﾞ" another; "①" and "ﬁ" one-character rules; "<" + U+0338
# ("≮"); letters and marks that continue nothing; the text often ends inside a rule.
_TEXT = st.lists(st.sampled_from(["e", "a", "\u0301", "\u0302", "\u0308", "\u0304", "ｶ", "ﾞ", "①", "ﬁ", "<", "\u0338", "=", "x",
                                  " ", "é", "漢", "\u3000"]), max_size=20).map("".join)


@settings(max_examples=300, deadline=None)
@given(texts=st.lists(_TEXT, min_size=1, max_size=6), name=st.sampled_from(
    ["botchan_en_unigram_1000.model", "kyoto_ja_unigram_8000.model"]))
def test_the_scan_with_known_pairs_finds_what_the_whole_walk_finds(texts, name):
    pre = Precompiled(_charsmap(name), sentencepiece_semantics=True)
    fresh = copy.deepcopy(pre)
    for text in texts + texts:  # the second round meets its pairs known
        want = _reference_scan(fresh, text)
        assert pre._spm_pieces_reference(text) == want, text
        assert pre._spm_pieces(text) == want, text


def test_a_pair_that_continues_no_rule_is_kept():
    pre = Precompiled(_charsmap("botchan_en_unigram_1000.model"), sentencepiece_semantics=True)
    assert pre._spm_pieces_reference("e\u0301x ex") == [("é", 0, 2)]
    assert pre._after["ex"] is None and "e\u0301" not in pre._after  # rules go on past "é"


def test_a_pair_at_the_end_of_a_text_is_not_kept_when_a_rule_goes_on():
    # At a text's end "e" + U+0302 is "ê"; followed by U+0301 it is "ế".
    pre = Precompiled(_charsmap("botchan_en_unigram_1000.model"), sentencepiece_semantics=True)
    assert pre._spm_pieces_reference("xe\u0302") == [("ê", 1, 3)]
    assert pre._spm_pieces_reference("e\u0302\u0301") == [("ế", 0, 3)]
