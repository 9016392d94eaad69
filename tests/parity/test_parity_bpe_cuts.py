"""A tiny Llama-style BPE trained by HF tokenizers here (no pre-tokenizer: merges cross "▁" freely,
byte fallback): tokcore's ids and tokens equal HF's, and the fast path (merge cuts, lean entries)
equals tokcore's reference path, offsets included, on random text mixing scripts, spaces and the
vocabulary's own pieces.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tokcore
from tokcore.models.bpe import byte_token

tokenizers = pytest.importorskip("tokenizers")

SEP = "\u2581"
_WORDS = ("the of and to a in is was that he it for his with as not but at by this had be you which "
          "naïve café über déjà vu Ελλάδα мир дом 日本 語 🙂").split()


def _corpus(seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(_WORDS) for _ in range(rng.randint(3, 14))) + rng.choice([".", ",", "!", ""])
            for _ in range(600)]


def _train() -> dict:
    from tokenizers import Tokenizer, models, normalizers, trainers

    tok = Tokenizer(models.BPE(unk_token="<unk>", byte_fallback=True, fuse_unk=True))
    tok.normalizer = normalizers.Sequence([normalizers.Prepend(SEP), normalizers.Replace(" ", SEP)])
    trainer = trainers.BpeTrainer(vocab_size=260, special_tokens=["<unk>", "<s>"], show_progress=False)
    tok.train_from_iterator(_corpus(), trainer)
    data = json.loads(tok.to_str())
    vocab = data["model"]["vocab"]
    for b in range(256):  # Llama's byte tokens, for the characters the training left out
        vocab.setdefault(byte_token(b), len(vocab))
    return data


@pytest.fixture(scope="module")
def trained():
    data = _train()
    hf = tokenizers.Tokenizer.from_str(json.dumps(data))
    fast = tokcore.Tokenizer.from_dict(data)
    ref = copy.deepcopy(fast)
    ref.fast = False
    merges = data["model"]["merges"]
    pairs = [m.split(" ") if isinstance(m, str) else m for m in merges]
    assert any(SEP in b[1:] or (SEP in a and a[-1] != SEP) or (a.endswith(SEP) and b) for a, b in pairs if len(a) > 1)
    return hf, fast, ref, sorted(t for t in data["model"]["vocab"] if not t.startswith("<"))


def _check(trained, text):
    hf, fast, ref = trained[:3]
    a = fast.encode_result(text, return_offsets=True, return_masks=True)
    b = ref.encode_result(text, return_offsets=True, return_masks=True)
    assert (a.ids, a.tokens, a.offsets, a.original_offsets, a.word_ids) == (
        b.ids, b.tokens, b.offsets, b.original_offsets, b.word_ids), text
    enc = hf.encode(text, add_special_tokens=False)
    assert (a.ids, a.tokens) == (enc.ids, enc.tokens), text


def test_trained_lines_match_hf(trained):
    for line in _corpus(seed=11)[:200] + ["", " ", "  two  spaces ", "x", "Ωmega ψ 🙃 ǅ"]:
        _check(trained, line)


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_random_text_of_scripts_spaces_and_pieces_matches_hf(trained, data):
    pieces = trained[3]
    part = st.one_of(st.text(alphabet="abc éü д日🙂\t" + SEP + "\u0301", max_size=5), st.sampled_from(pieces),
                     st.sampled_from(_WORDS), st.just(" "))
    _check(trained, data.draw(st.lists(part, max_size=14).map("".join)))
