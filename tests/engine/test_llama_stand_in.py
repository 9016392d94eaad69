"""The merge-cut finder of Llama-style BPE reads its separator ``"▁"`` as a Latin-1 stand-in
(``tokcore.fast.merge_cuts._stand_in``); a text holding the stand-in itself takes the plain pass. Both
are pinned to the plain pass and to the reference path (the whole line through the model).

Left out: the cut rule itself (``test_safe_cuts.py``, ``test_bpe_lean.py``).
"""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import require_shared

import tokcore
from tokcore.fast.merge_cuts import _merge_cut_words, _stand_in

LLAMA = ("reference", "hf", "trained", "llama_style_bpe.json")
_FAST = tokcore.load(require_shared(*LLAMA))
_REF = copy.deepcopy(_FAST)
_REF.fast = False
_MERGES = _FAST.model.merges
_KNOWN = {t for t in _FAST.model.vocab if len(t) == 1}
_WIDE, _NARROW = _stand_in(_MERGES, _KNOWN)
# The stand-in itself, the separator, letters that merge across it, unknown characters.
_ALPHABET = [_NARROW, "\u2581", " ", "a", "n", "d", "t", "h", "e", "s", ",", ".", "I", "中", "😀", "é"]


def _plain(merges, known):
    """The finder without a stand-in: ``_stand_in`` answering that there is none."""
    from tokcore.fast import merge_cuts

    real = merge_cuts._stand_in
    merge_cuts._stand_in = lambda merges, known: ("", "")
    try:
        return _merge_cut_words(merges, known)
    finally:
        merge_cuts._stand_in = real


def test_the_stand_in_is_llamas_separator_and_free():
    assert _WIDE == "\u2581" and len(_NARROW) == 1 and _NARROW <= "\xff"
    assert _NARROW not in _KNOWN and all(_NARROW not in a + b for a, b in _MERGES)


@settings(max_examples=200, deadline=None)
@given(text=st.lists(st.sampled_from(_ALPHABET), max_size=40).map("".join))
def test_cuts_with_the_stand_in_equal_the_plain_pass_and_the_reference(text):
    view = "\u2581" + text.replace(" ", "\u2581")
    assert _merge_cut_words(_MERGES, _KNOWN)(view) == _plain(_MERGES, _KNOWN)(view)
    a = _FAST.encode_result(text, return_offsets=True)
    b = _REF.encode_result(text, return_offsets=True)
    assert (a.ids, a.tokens, a.offsets, a.original_offsets) == (b.ids, b.tokens, b.offsets, b.original_offsets)
