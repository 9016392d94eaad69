"""Streamlit switches every encoding page shares: padding and truncation (off by default), offsets in both
units, and the text cap applied to every way text comes in (typed, pasted, or from a link), said aloud.

Widget keys are ``<prefix>_pad``, ``<prefix>_trunc``, ``<prefix>_units``; the values are plain booleans the pages pass to
``tokens.build_view`` / ``html.tokens_html`` / ``tokens.table_records``.

Left out: the pure side (``tokapp.tokens``, ``tokapp.html``) and page layout.
"""

from __future__ import annotations

import streamlit as st


def padding_switch(prefix: str, *, where=None) -> bool:
    """A "pad as the tokenizer would" switch, off by default: pad tokens flood the views of one text."""
    return (where or st).toggle("Pad as the tokenizer does", value=False, key=f"{prefix}_pad", persist_state="session",
                                help="Off: no pad tokens. On: the tokenizer's own padding (e.g. MiniLM pads "
                                     "every text to 128 tokens).")


def truncation_switch(prefix: str, tokenizers, *, where=None) -> bool:
    """A "truncate as the tokenizer does" switch, off by default, shown only when one of ``tokenizers`` truncates.

    A tokenizer.json may truncate every text (MiniLM's keeps 128 tokens): on a long text the counts, the
    characters per token and the checks would silently cover its first part only. Returns ``True`` (the
    tokenizer's own setting, i.e. nothing to cut) when no tokenizer truncates.
    """
    lengths = sorted({own.get("max_length") for t in tokenizers if (own := getattr(t, "truncation", None))},
                     key=str)
    if not lengths:
        return True
    return (where or st).toggle(f"Truncate as the tokenizer does ({' / '.join(map(str, lengths))} tokens)",
                                value=False, key=f"{prefix}_trunc", persist_state="session",
                                help="Off: the whole text is encoded. On: the tokenizer's own truncation keeps "
                                     "the first tokens only, and every figure covers those.")


def units_switch(prefix: str, *, where=None) -> bool:
    """Show character positions (0-based) beside the byte offsets (1-based) in tables and tooltips."""
    return (where or st).toggle("Offsets in characters too", value=False, key=f"{prefix}_units", persist_state="session",
                                help="Offsets are UTF-8 bytes, 1-based, half-open (the contract). On: also "
                                     "0-based, half-open character positions, as Python slices count.")


def capped(text: str, limit: int, *, what: str = "text", where=None) -> str:
    """``text`` cut to ``limit`` characters, with a warning saying so (nothing is dropped silently)."""
    if len(text) <= limit:
        return text
    (where or st).warning(f"The {what} has {len(text):,} characters; only the first {limit:,} are used here.",
                          icon=":material/content_cut:")
    return text[:limit]
