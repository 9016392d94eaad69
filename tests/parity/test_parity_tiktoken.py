"""Parity with ``tiktoken`` on the reference ``.tiktoken`` rank files.

tokcore reads the rank file itself and picks the split pattern and special tokens of the
encoding named by the file; the oracle is a ``tiktoken.Encoding`` built from the same ranks,
pattern and specials. Ids must be identical (with special tokens parsed from the text, and
without via ``encode_ordinary``), and every token's span must hold exactly its bytes.
"""

from __future__ import annotations

import pytest
from parity_samples import parity_texts
from shared_data import require_shared

import tokcore
from tokcore.loaders.tiktoken_file import ENCODINGS, encoding_name_for, read_tiktoken_ranks, special_tokens_for

tiktoken = pytest.importorskip("tiktoken")

FILES = ["gpt2.tiktoken", "multilingual.tiktoken"]


def oracle_for(path):
    ranks = read_tiktoken_ranks(path)
    name = encoding_name_for(path, None)
    return tiktoken.Encoding(name=f"oracle-{name}", pat_str=ENCODINGS[name][0], mergeable_ranks=ranks,
                             special_tokens=special_tokens_for(name, len(ranks)))


@pytest.mark.parametrize("name", FILES)
def test_tiktoken_parity(name):
    path = require_shared("reference", "tiktoken", name)
    tok = tokcore.load(path)
    enc = oracle_for(path)
    bad_ids, bad_spans, bad_ordinary = [], [], []
    for sid, text in parity_texts():
        res = tok.encode_result(text, return_offsets=True)
        if res.ids != enc.encode(text, allowed_special="all"):
            bad_ids.append(sid)
            continue
        if tok.encode_ordinary(text) != enc.encode_ordinary(text):
            bad_ordinary.append(sid)
        for id_, o in zip(res.ids, res.original_offsets):
            if tokcore.span_codeunits(text, o) != enc.decode_single_token_bytes(id_):
                bad_spans.append(sid)
                break
        assert tokcore.validate_offsets_contract(text, res.original_offsets)
    assert not bad_ids, f"{len(bad_ids)} samples with other ids than tiktoken: {bad_ids[:10]}"
    assert not bad_ordinary, f"{len(bad_ordinary)} samples differ in encode_ordinary: {bad_ordinary[:10]}"
    assert not bad_spans, f"{len(bad_spans)} samples with a span that is not the token's bytes: {bad_spans[:10]}"


def test_tiktoken_special_tokens_and_decode():
    path = require_shared("reference", "tiktoken", "gpt2.tiktoken")
    tok = tokcore.load(path)
    enc = oracle_for(path)
    text = "hello <|endoftext|> world"
    res = tok.encode_result(text, return_offsets=True, return_masks=True)
    assert res.ids == enc.encode(text, allowed_special="all")
    i = res.ids.index(50256)
    assert res.special_tokens_mask[i] == 1 and tokcore.span_codeunits(text, res.original_offsets[i]) == b"<|endoftext|>"
    assert tok.decode(res.ids) == text
    assert tok.encode_ordinary(text) == enc.encode_ordinary(text)


def test_explicit_encoding_argument(tmp_path):
    src = require_shared("reference", "tiktoken", "gpt2.tiktoken")
    renamed = tmp_path / "ranks.tiktoken"
    renamed.write_bytes(src.read_bytes())
    tok = tokcore.load(renamed, encoding="cl100k_base", special_tokens={"<|endoftext|>": 50256})
    ranks = read_tiktoken_ranks(renamed)
    enc = tiktoken.Encoding(name="x", pat_str=ENCODINGS["cl100k_base"][0], mergeable_ranks=ranks,
                            special_tokens={"<|endoftext|>": 50256})
    text = "I'LL pay 12345 dollars\n\n  now!"
    assert tok.encode(text) == enc.encode(text)
