"""Comparing a tokcore tokenizer with HF ``tokenizers`` on the same texts, field by field.

``compare`` encodes each text with both and names the fields that differ: ids, tokens,
special-tokens mask, attention mask, type ids, offsets (tokcore's ``original_offsets`` turned into
0-based characters, the sentinel into HF's (0, 0)) and overflowing windows, up to the contract's
deliberate differences below. Used by the parity suites in ``tests/parity``.
"""

from __future__ import annotations

import unicodedata

import tokcore

# Combining marks that normalization folded into a character (NFKC composition) or removed
# (accent stripping) at the end of a token: tokcore's span covers them (they are part of the
# source of that token's last character), HF's stops before them.
# Tokens made only of inserted text (Prepend/Metaspace's "▁" with no source character): the
# contract gives them an empty span where they were inserted; HF lends them the next character's span.
INSERTED_ONLY = {"\u2581"}


def hf_view(enc, text: str = "", special: dict | None = None) -> dict:
    # The offsets contract marks special added tokens matched in the text too (HF marks only inserted ones).
    special = special or {}
    mask = [int(m or (i in special and special[i] in text[s:e]))
            for m, i, (s, e) in zip(enc.special_tokens_mask, enc.ids, enc.offsets)]
    return {"ids": enc.ids, "tokens": enc.tokens, "special": mask, "attention": enc.attention_mask,
            "type_ids": enc.type_ids, "offsets": [tuple(o) for o in enc.offsets],
            "overflowing": [o.ids for o in enc.overflowing]}


def tokcore_view(res, text: str) -> dict:
    offsets = []
    for o in res.original_offsets:
        span = tokcore.byte_span_to_char_span(text, o)
        offsets.append((0, 0) if span is None else span)
    return {"ids": res.ids, "tokens": res.tokens, "special": res.special_tokens_mask, "attention": res.attention_mask,
            "type_ids": res.token_type_ids, "offsets": offsets, "overflowing": [o.ids for o in res.overflowing]}


def compare(tok, oracle, texts) -> dict[str, list[str]]:
    """Sample id -> the fields that differ, for every sample that differs."""
    diffs = {}
    encs = oracle.encode_batch([t for _, t in texts])
    special = {t.id: t.content for t in tok.added_tokens if t.special}
    for (sid, text), enc in zip(texts, encs):
        want = hf_view(enc, text, special)
        got = tokcore_view(tok.encode_result(text, return_offsets=True, return_masks=True), text)
        for i, tok_text in enumerate(want["tokens"][:len(got["offsets"])]):  # a length apart fails below
            g, w = got["offsets"][i], want["offsets"][i]
            if tok_text in INSERTED_ONLY and g[0] == g[1] == w[0] and g != w:
                got["offsets"][i] = w
            elif g != w and g[0] == w[0] and g[1] > w[1] and all(
                    unicodedata.category(c).startswith("M") for c in text[w[1]:g[1]]):
                got["offsets"][i] = w
        bad = [k for k in want if want[k] != got[k]]
        if bad:
            diffs[sid] = bad
    return diffs
