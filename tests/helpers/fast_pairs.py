"""(fast, reference) tokenizer pairs for the fast-path tests, loaded once per file.

The reference copy runs with ``fast = False`` (the general pipeline); both have truncation and
padding off. Tests that change a tokenizer deep-copy the pair first: the pairs are shared.
"""

from __future__ import annotations

import copy

from shared_data import require_shared

import tokcore

_LOADED: dict[str, tuple] = {}


def pair_for(kind: str, name: str):
    """(fast, reference) tokenizers loaded from ``reference/<kind>/<name>`` in the shared data."""
    key = f"{kind}/{name}"
    if key not in _LOADED:
        path = require_shared("reference", kind, *name.split("/"))
        fast, ref = tokcore.load(path), tokcore.load(path)
        for t in (fast, ref):
            t.truncation = None
            t.padding = None
        ref.fast = False
        _LOADED[key] = (fast, ref)
    return _LOADED[key]


def assert_same_results(fast, ref, text: str) -> None:
    """``fast`` and ``ref`` give equal results for ``text`` with and without specials, with
    special tokens split, with and without offsets."""
    for kw in ({}, {"add_special_tokens": False}, {"split_special_tokens": True}):
        for offsets in (True, False):
            a = fast.encode_result(text, return_offsets=offsets, return_masks=True, **kw)
            b = ref.encode_result(text, return_offsets=offsets, return_masks=True, **kw)
            assert a == b, (text, kw, offsets)


def entries_agree(tok, words) -> int:
    """Each word's quick entry (``plan.quick``) equals the general ``_entry`` (Piece objects, the
    real pre-tokenizer, per-token span mapping), first in the text or not; returns how many
    quick entries were taken (``None`` hands a word to the general path)."""
    from tokcore.fast.entries import _quick_entry
    from tokcore.fast.plan import _entry, word_plan

    plan = word_plan(tok)
    assert plan is not None and plan.quick is not None and plan.lean is None
    general = copy.copy(plan)
    general.quick, general.cache, general.first = None, {}, {}
    quick = copy.copy(plan)
    quick.cache, quick.first = {}, {}
    taken = 0
    for w in words:
        for first in (False, True):
            origin = 0 if first else 1
            assert _entry(quick, w, first, origin) == _entry(general, w, first, origin), (w, first)
            taken += _quick_entry(quick, w, first) is not None
    return taken
