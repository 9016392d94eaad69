"""``Precompiled``'s scan starts ``ascii_reach`` characters before a non-ASCII stretch, not a whole window.

A rule that holds a non-ASCII character and starts on an ASCII one walks the trie through ASCII
labels first; ``ascii_reach`` is the longest such ASCII path (1 in nmt_nfkc: a letter, then a
combining mark). It must cover every rule of the charsmap (found by the full walk,
``charsmap_rules``), and the scan that trusts it must match the reference scan on texts where an
ASCII-started rule meets a non-ASCII stretch, and where ASCII rules (controls) stand right before one.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import require_shared

from tokcore.loaders.sentencepiece_model import read_sentencepiece_model
from tokcore.normalizers.precompiled import Precompiled, charsmap_rules

_NAMES = ["botchan_en_bpe_1000.model", "kyoto_ja_unigram_8000.model"]
_PRE: dict = {}


def _pre(name: str) -> Precompiled:
    if name not in _PRE:
        blob = read_sentencepiece_model(require_shared("reference", "sentencepiece", name)).normalizer_spec.precompiled_charsmap
        _PRE[name] = Precompiled(blob, sentencepiece_semantics=True)
    return _PRE[name]


def _ascii_lead(source: str) -> int:
    """How many ASCII characters ``source`` starts with. ``_ascii_lead("ab\u0301") == 2``."""
    return len(source) - len(source.lstrip("".join(map(chr, range(128)))))


@pytest.mark.parametrize("name", _NAMES)
def test_reach_covers_every_rule_that_starts_ascii_and_holds_more(name):
    pre = _pre(name)
    mixed = [s for s in charsmap_rules(pre.precompiled_charsmap) if not s.isascii()]
    assert mixed
    assert pre._tables().ascii_reach >= max(map(_ascii_lead, mixed))


_TEXT = st.lists(st.sampled_from(["e", "a", "x", " ", "\u0301", "\u0302", "\t", "\x01", "\x7f", "\n", "é", "ж", "и\u0306",
                                  "①", "\u3000", "ab" * 9]), max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=_TEXT, name=st.sampled_from(_NAMES))
def test_the_scan_near_non_ascii_stretches_is_the_reference_scan(text, name):
    pre = _pre(name)
    assert pre._spm_pieces(text) == pre._spm_pieces_reference(text)
