"""Parity with HF ``tokenizers`` on every reference tokenizer.json, vocab.txt and vocab.json + merges.txt.

Same file, same text: ids, tokens, special-tokens mask (with the contract's one deliberate
difference: a special added token matched in the text is marked 1, HF marks it 0; and a token
made only of inserted text, like a prepended ``▁``, has an empty span where HF lends it the next
character's; and a token's span that goes on over combining marks folded into its last character,
where HF's stops before them), attention mask, type ids and offsets
(tokcore's ``original_offsets`` turned into 0-based characters, the sentinel into HF's (0, 0))
must be identical, overflowing windows included. Texts: ``parity_samples.parity_texts``.
Known differences live in ``ALLOWED`` with their reason; anything else fails.
"""

from __future__ import annotations

import unicodedata
from collections import Counter

import pytest
from parity_samples import parity_texts
from shared_data import require_shared

import tokcore

tokenizers = pytest.importorskip("tokenizers")

# (case, sample id) -> reason. Everything else must match exactly (up to the two rules below).
ALLOWED: dict[tuple[str, str], str] = {}
# Combining marks that normalization folded into a character (NFKC composition) or removed
# (accent stripping) at the end of a token: tokcore's span covers them (they are part of the
# source of that token's last character), HF's stops before them.
# Tokens made only of inserted text (Prepend/Metaspace's "▁" with no source character): the
# contract gives them an empty span where they were inserted; HF lends them the next character's span.
INSERTED_ONLY = {"\u2581"}

CASES = {
    # case -> (path parts for tokcore.load, path parts of the HF oracle file, oracle without truncation/padding)
    "minilm": (("reference", "hf", "minilm", "tokenizer.json"), ("reference", "hf", "minilm", "tokenizer.json"), False),
    "gpt2": (("reference", "hf", "gpt2", "tokenizer.json"), ("reference", "hf", "gpt2", "tokenizer.json"), False),
    "roberta_bytelevel": (("reference", "hf", "trained", "roberta_bytelevel.json"),) * 2 + (False,),
    "llama_style_bpe": (("reference", "hf", "trained", "llama_style_bpe.json"),) * 2 + (False,),
    "bert_cased_wordpiece": (("reference", "hf", "trained", "bert_cased_wordpiece.json"),) * 2 + (False,),
    "t5_style_unigram": (("reference", "hf", "trained", "t5_style_unigram.json"),) * 2 + (False,),
    "wordlevel_whitespace": (("reference", "hf", "trained", "wordlevel_whitespace.json"),) * 2 + (False,),
    # vocab.txt alone: its tokenizer.json (minus the fixed-length padding/truncation) is the oracle.
    "minilm_vocab_txt": (("reference", "hf", "minilm", "vocab.txt"), ("reference", "hf", "minilm", "tokenizer.json"), True),
    "gpt2_vocab_merges": (("reference", "hf", "gpt2", "vocab.json"), ("reference", "hf", "gpt2", "tokenizer.json"), True),
}



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
        for i, tok_text in enumerate(want["tokens"]):
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


@pytest.mark.parametrize("case", sorted(CASES))
def test_hf_parity(case):
    ours, theirs, plain = CASES[case]
    tok = tokcore.load(require_shared(*ours))
    oracle = tokenizers.Tokenizer.from_file(str(require_shared(*theirs)))
    if plain:
        oracle.no_truncation()
        oracle.no_padding()
    if case == "gpt2_vocab_merges":
        # HF's ByteLevelBPETokenizer and transformers' GPT-2 converter build these two files with
        # trim_offsets off (the tokenizer.json here has it on): "Ġworld" spans its space.
        oracle.post_processor = tokenizers.processors.ByteLevel(trim_offsets=False)
    texts = parity_texts()
    diffs = compare(tok, oracle, texts)
    unexpected = {sid: fields for sid, fields in diffs.items() if (case, sid) not in ALLOWED}
    counts = Counter(f for fields in unexpected.values() for f in fields)
    assert not unexpected, (
        f"{case}: {len(unexpected)}/{len(texts)} samples differ from HF tokenizers ({dict(counts)}); "
        f"first: {sorted(unexpected.items())[:8]}"
    )


def test_pair_encoding_parity():
    """Pairs go through the post-processor's pair template (type ids 0/1) as in HF."""
    tok = tokcore.load(require_shared("reference", "hf", "trained", "bert_cased_wordpiece.json"))
    oracle = tokenizers.Tokenizer.from_file(str(require_shared("reference", "hf", "trained", "bert_cased_wordpiece.json")))
    texts = [t for _, t in parity_texts()[:40]]
    for a, b in zip(texts, texts[1:]):
        enc = oracle.encode(a, b)
        res = tok.encode_result(a, text_pair=b, return_masks=True)
        assert (res.ids, res.token_type_ids, res.special_tokens_mask) == (enc.ids, enc.type_ids, enc.special_tokens_mask)
