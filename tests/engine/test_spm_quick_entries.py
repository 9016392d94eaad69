"""Quick word entries for sentencepiece BPE (``RankBPE`` behind ``Metaspace``), pinned to the general entry.

A ``.model`` BPE's tokens are slices of the text they cover (an unknown one keeps its text), so
``_quick_entry`` sums their byte lengths (``plan.piece_bytes``) instead of mapping characters
through the word's byte table. Each entry must equal what the general ``_entry`` builds, and
whole encodes must equal ``Tokenizer.fast = False``; a ``RankBPE`` whose unknown token is
``"<unk>"`` (not its text), or with byte fallback, must still come out right.
"""

from __future__ import annotations

import copy

import fast_pairs
import pytest
from fast_pairs import entries_agree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tokcore
from tokcore.fast.plan import word_plan
from tokcore.models.rank_bpe import RankBPE
from tokcore.pre_tokenizers.standard import Metaspace

SEP = "\u2581"
_SCRIPTS = "abcdeinorstTH09 ,.'!-_" + SEP + "éαβγдж日本アー٣🙂\u0301\u00a0ß"


def _bpe_model():
    """The shared (fast, reference) pair of the botchan BPE ``.model`` and its pieces."""
    fast, ref = fast_pairs.pair_for("sentencepiece", "botchan_en_bpe_1000.model")
    return fast, ref, sorted(t for t in fast.model.get_vocab() if t and not t.startswith("<"))


def _with_spaces(words: list[str]) -> list[str]:
    return words + [SEP + w for w in words] + [" " + w for w in words]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.text(alphabet=_SCRIPTS, min_size=1, max_size=12), max_size=8))
def test_bpe_model_quick_entries_equal_the_general_entries_on_random_words(words):
    entries_agree(_bpe_model()[0], _with_spaces(words))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_bpe_model_quick_entries_equal_the_general_entries_on_vocabulary_pieces(data):
    fast, ref, pieces = _bpe_model()
    parts = data.draw(st.lists(st.lists(st.sampled_from(pieces + ["é", "日", "ß"]), min_size=1, max_size=4),
                               min_size=1, max_size=6))
    words = ["".join(p) for p in parts]
    entries_agree(fast, _with_spaces(words))
    fast_pairs.assert_same_results(fast, ref, " ".join(words))


def test_bpe_model_sums_lengths_for_accented_words():
    # Without this the tests above could pass with piece_bytes never used.
    fast = _bpe_model()[0]
    assert word_plan(fast).piece_bytes is not None
    assert entries_agree(fast, ["café", SEP + "naïve", " über", "日本"]) >= 6


def _tiny_rank_bpe(keeps: bool, byte_fallback: bool):
    vocab = {"<unk>": 0, SEP: 1, "a": 2, "b": 3, "é": 4, "ab": 5, SEP + "a": 6, "éa": 7}
    if byte_fallback:
        vocab.update({f"<0x{b:02X}>": 8 + b for b in range(256)})
    model = RankBPE(vocab, ranks={"ab": 0, SEP + "a": 1, "éa": 2}, unk_token="<unk>", fuse_unk=True,
                    unk_keeps_text=keeps, byte_fallback=byte_fallback)
    fast = tokcore.Tokenizer(model)
    fast.pre_tokenizer = Metaspace(prepend_scheme="always", split=True)
    ref = copy.deepcopy(fast)
    ref.fast = False
    return fast, ref


@pytest.mark.parametrize("keeps,byte_fallback", [(True, False), (False, False), (True, True)])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(alphabet="ab é,\u0301" + SEP + "日🙂", max_size=24))
def test_hand_built_rank_bpe_equals_the_reference_path(keeps, byte_fallback, text):
    fast, ref = _tiny_rank_bpe(keeps, byte_fallback)
    assert (word_plan(fast).piece_bytes is not None) == keeps  # an "<unk>" token is not its text
    fast_pairs.assert_same_results(fast, ref, text)
    entries_agree(fast, [w for w in text.split(" ") if w] + [" " + text])
