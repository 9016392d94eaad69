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

from collections import Counter

import pytest
from hf_compare import compare
from parity_samples import parity_texts
from shared_data import require_shared

import tokcore

tokenizers = pytest.importorskip("tokenizers")

# (case, sample id) -> reason. Everything else must match exactly (up to hf_compare's two rules).
ALLOWED: dict[tuple[str, str], str] = {}

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
