"""BPE training: the course's worked example, parity of the merge sequence with HF's BpeTrainer on
botchan (byte-level and character-level), options, step records, and the returned tokenizer."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import require_shared

from tokcore.core.errors import ConfigurationError, WrongTypeError
from tokcore.trainers.bpe import BpeStep, train_bpe

tokenizers = pytest.importorskip("tokenizers")
from tokenizers import models as hf_models  # noqa: E402
from tokenizers import pre_tokenizers as hf_pre  # noqa: E402
from tokenizers import trainers as hf_trainers  # noqa: E402

COURSE = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}


def model_values(result, word):
    return [t[1] for t in result.tokenizer.model.tokenize(word)]


# ----------------------------------------------------------------------------- the course example


def test_course_corpus_merge_order_and_counts():
    result = train_bpe(COURSE, 30)
    assert result.steps == [
        BpeStep("u", "g", "ug", 20),
        BpeStep("u", "n", "un", 16),
        BpeStep("h", "ug", "hug", 15),
        BpeStep("p", "un", "pun", 12),
        # a tie at 5: HF's rule (smaller ids first) puts the alphabet's "p" before the merged "hug"
        BpeStep("p", "ug", "pug", 5),
        BpeStep("hug", "s", "hugs", 5),
        BpeStep("b", "un", "bun", 4),
    ]
    assert result.details["stop_reason"] == "no pair left"
    vocab = result.tokenizer.get_vocab()
    assert list(vocab)[:7] == list("bghnpsu") and len(vocab) == 14


def test_course_unseen_words_after_three_merges():
    # The course stops after three merges: vocabulary = [UNK] + 7 characters + ug, un, hug.
    result = train_bpe(COURSE, 11, unk_token="[UNK]")
    assert [s.merged for s in result.steps] == ["ug", "un", "hug"]
    assert result.tokenizer.get_vocab()["[UNK]"] == 0
    assert model_values(result, "bug") == ["b", "ug"]
    assert model_values(result, "mug") == ["[UNK]", "ug"]
    assert model_values(result, "thug") == ["[UNK]", "hug"]
    assert model_values(result, "hugs") == ["hug", "s"]
    assert model_values(result, "unhug") == ["un", "hug"]


def test_course_top_pairs_per_step():
    result = train_bpe(COURSE, 30, record_top_pairs=3)
    top = result.details["pair_counts_top"]
    assert len(top) == len(result.steps)
    assert top[0] == [("u", "g", 20), ("p", "u", 17), ("u", "n", 16)]
    # ties at the k-th count are all kept, in HF's order
    assert top[4] == [("p", "ug", 5), ("hug", "s", 5), ("b", "un", 4)]
    assert train_bpe(COURSE, 30, record_top_pairs=1).details["pair_counts_top"][4] == [("p", "ug", 5), ("hug", "s", 5)]
    for step, pairs in zip(result.steps, top):
        assert pairs[0] == (step.left, step.right, step.count)


def test_tokenizer_encodes_and_special_tokens_are_added():
    result = train_bpe(["hug pug pun bun hugs"] * 3, 14, special_tokens=["<pad>", "<unk>"], unk_token="<unk>")
    tok = result.tokenizer
    assert tok.get_vocab()["<pad>"] == 0 and tok.get_vocab()["<unk>"] == 1
    assert tok.vocab_size == 14
    assert [t.content for t in tok.added_tokens] == ["<pad>", "<unk>"]
    enc = tok.encode_result("hugs <pad> mug", return_offsets=True, return_masks=True, add_special_tokens=False)
    assert enc.tokens == ["hug", "s", "<pad>", "<unk>", "ug"]
    assert enc.special_tokens_mask[2] == 1 and enc.offsets[2] == (6, 11)


# ----------------------------------------------------------------------------- HF parity on botchan


def hf_train(lines, vocab_size, pre_tokenizer, **kwargs):
    tok = tokenizers.Tokenizer(hf_models.BPE())
    tok.pre_tokenizer = pre_tokenizer
    trainer = hf_trainers.BpeTrainer(vocab_size=vocab_size, show_progress=False, **kwargs)
    tok.train_from_iterator(lines, trainer)
    return json.loads(tok.to_str())["model"]


@pytest.fixture(scope="module")
def botchan():
    return require_shared("corpora", "botchan.txt").read_text(encoding="utf-8").splitlines()


def merges_of(result):
    return [[s.left, s.right] for s in result.steps]


def test_byte_level_parity_1000(botchan):
    hf = hf_train(botchan, 1000, hf_pre.ByteLevel(add_prefix_space=False),
                  initial_alphabet=hf_pre.ByteLevel.alphabet())
    ours = train_bpe(botchan, 1000, byte_level=True)
    assert merges_of(ours) == hf["merges"]
    assert ours.tokenizer.get_vocab() == hf["vocab"]
    assert ours.tokenizer.model.to_dict()["merges"] == hf["merges"]


def test_byte_level_parity_8000(botchan):
    hf = hf_train(botchan, 8000, hf_pre.ByteLevel(add_prefix_space=False),
                  initial_alphabet=hf_pre.ByteLevel.alphabet())
    ours = train_bpe(botchan, 8000, byte_level=True)
    assert len(ours.steps) > 7000
    assert merges_of(ours) == hf["merges"]
    assert ours.tokenizer.get_vocab() == hf["vocab"]


def test_trainer_parity_on_hf_pre_tokenized_words(botchan):
    # The same words for both trainers (HF's own pre-tokenizer), so only the trainers are compared.
    from tokcore.text.byte_level import ALPHABET

    pre = hf_pre.ByteLevel(add_prefix_space=False)
    counts: dict[str, int] = {}
    for line in botchan:
        for w, _ in pre.pre_tokenize_str(line):
            counts[w] = counts.get(w, 0) + 1
    hf = hf_train(botchan, 2000, pre, initial_alphabet=hf_pre.ByteLevel.alphabet())
    ours = train_bpe(counts, 2000, initial_alphabet=ALPHABET)
    assert merges_of(ours) == hf["merges"]


def test_char_level_whitespace_parity(botchan):
    hf = hf_train(botchan, 3000, hf_pre.Whitespace())
    ours = train_bpe(botchan, 3000)
    assert merges_of(ours) == hf["merges"]
    assert ours.tokenizer.get_vocab() == hf["vocab"]


@pytest.mark.parametrize("kwargs", [
    {"special_tokens": ["<unk>", "<s>", "</s>"], "min_frequency": 5},
    {"limit_alphabet": 40},
    {"initial_alphabet": ["é", "ß", "→"]},
])
def test_options_parity(botchan, kwargs):
    hf = hf_train(botchan[:1500], 1500, hf_pre.Whitespace(), **kwargs)
    ours = train_bpe(botchan[:1500], 1500, **kwargs)
    assert merges_of(ours) == hf["merges"]
    assert ours.tokenizer.get_vocab() == hf["vocab"]


def test_min_frequency_stops_early():
    result = train_bpe(COURSE, 100, min_frequency=10)
    assert [s.count for s in result.steps] == [20, 16, 15, 12]
    assert result.details["stop_reason"] == "min_frequency"


# ----------------------------------------------------------------------------- affixes


def test_suffix_and_prefix_training_is_deterministic_and_consistent(botchan):
    # HF assigns the affixed characters' ids in hash-map order, so its tie-breaks vary from run
    # to run with an affix; tokcore uses first-seen order. We check determinism and that every
    # step merged a pair of maximal count.
    for opts in ({"end_of_word_suffix": "</w>"}, {"continuing_subword_prefix": "##"}):
        a = train_bpe(botchan[:800], 1200, record_top_pairs=1, **opts)
        b = train_bpe(botchan[:800], 1200, record_top_pairs=1, **opts)
        assert a.steps == b.steps and len(a.steps) > 500
        for step, top in zip(a.steps, a.details["pair_counts_top"]):
            assert step.count == top[0][2]
        model = a.tokenizer.model
        assert model.to_dict()["end_of_word_suffix"] == opts.get("end_of_word_suffix")
        assert model.to_dict()["continuing_subword_prefix"] == opts.get("continuing_subword_prefix")
    suffixed = train_bpe({"low": 5, "lower": 2, "newest": 6, "widest": 3}, 30, end_of_word_suffix="</w>")
    # (e, s) and (s, t</w>) both occur 9 times: the pair of smaller ids wins
    assert suffixed.steps[:2] == [BpeStep("e", "s", "es", 9), BpeStep("es", "t</w>", "est</w>", 9)]
    assert [t[1] for t in suffixed.tokenizer.model.tokenize("newest")][-1].endswith("</w>")
    assert suffixed.tokenizer.decode(suffixed.tokenizer.encode("low newest")) == "low newest"


def test_prefix_merged_token_drops_the_inner_prefix():
    result = train_bpe({"hug": 10, "hugs": 5}, 9, continuing_subword_prefix="##")
    assert result.steps[0] == BpeStep("h", "##u", "hu", 15)
    assert result.steps[1] == BpeStep("hu", "##g", "hug", 15)
    assert [t[1] for t in result.tokenizer.model.tokenize("hugs")] == ["hug", "##s"]


# ----------------------------------------------------------------------------- the byte-level tokenizer


def test_byte_level_tokenizer_round_trip():
    result = train_bpe(["héllo wörld, naïve café 🙂 — ok", "hello world"] * 5, 300, byte_level=True)
    tok = result.tokenizer
    for text in ["héllo wörld", "never seen: 日本語 🙂", "  spaces  "]:
        assert tok.decode(tok.encode(text)) == text
    assert result.details["alphabet"][0] == "!" and len(result.details["alphabet"]) == 256


def test_mapping_with_byte_level_maps_words_to_bytes():
    result = train_bpe({"é": 3, "ée": 2}, 258, byte_level=True)
    assert result.steps[0] == BpeStep("Ã", "©", "Ã©", 5)


# ----------------------------------------------------------------------------- inputs and progress


def test_vocab_size_counts_everything_and_small_sizes():
    result = train_bpe(COURSE, 3, special_tokens=["<s>"])
    assert result.steps == [] and result.tokenizer.vocab_size == 8  # alphabet is kept whole, as HF
    result = train_bpe(COURSE, 9, special_tokens=["<s>"])
    assert len(result.steps) == 1 and result.tokenizer.vocab_size == 9


def test_progress_and_bad_arguments():
    calls = []
    train_bpe(COURSE, 12, progress=lambda done, total, what: calls.append((done, total, what)))
    assert calls[0][2] == "counting words" and calls[-1][2] == "done"
    with pytest.raises(WrongTypeError):
        train_bpe("hug pug", 10)
    with pytest.raises(ConfigurationError):
        train_bpe(COURSE, 0)
    with pytest.raises(ConfigurationError):
        train_bpe(COURSE, 10, min_frequency=-1)
    with pytest.raises(WrongTypeError):
        train_bpe(COURSE, 10, special_tokens="<s>")


def test_max_token_length_limits_merges():
    result = train_bpe({"aaaa": 5, "abab": 3}, 20, max_token_length=3)
    assert all(len(s.merged) <= 3 for s in result.steps)


def test_max_token_length_parity(botchan):
    hf = hf_train(botchan[:1500], 1500, hf_pre.Whitespace(), max_token_length=4)
    ours = train_bpe(botchan[:1500], 1500, max_token_length=4)
    assert merges_of(ours) == hf["merges"]


def test_top_pairs_match_a_naive_recount(botchan):
    result = train_bpe(botchan[:200], 600, record_top_pairs=5)
    words = {w: list(w) for w in result.details["word_counts"]}
    counts = result.details["word_counts"]
    vocab = result.tokenizer.get_vocab()
    for step, top in zip(result.steps, result.details["pair_counts_top"]):
        pairs: dict = {}
        for w, syms in words.items():
            for pair in zip(syms, syms[1:]):
                pairs[pair] = pairs.get(pair, 0) + counts[w]
        kth = sorted(pairs.values(), reverse=True)[min(4, len(pairs) - 1)]
        # HF's order: count down, then the pair of smaller ids
        expected = sorted((-c, (vocab[p[0]], vocab[p[1]]), p) for p, c in pairs.items() if c >= kth)
        assert top[0] == (step.left, step.right, step.count)
        assert [(a, b, c) for a, b, c in top] == [(p[0], p[1], -c) for c, _, p in expected][: len(top)]
        assert len(top) == min(len(expected), 5 + 20)
        for syms in words.values():
            i = 0
            while i < len(syms) - 1:
                if (syms[i], syms[i + 1]) == (step.left, step.right):
                    syms[i:i + 2] = [step.merged]
                i += 1


@pytest.mark.parametrize("kwargs", [
    {"byte_level": True, "special_tokens": ["<|endoftext|>"]},
    {"unk_token": "[UNK]", "end_of_word_suffix": "</w>"},
    {"unk_token": "<unk>", "continuing_subword_prefix": "##"},
])
def test_exported_tokenizer_encodes_identically_in_hf(botchan, tmp_path, kwargs):
    result = train_bpe(botchan[:1500], 1200, **kwargs)
    path = tmp_path / "tokenizer.json"
    result.tokenizer.save_hf(path)
    hf = tokenizers.Tokenizer.from_file(str(path))
    texts = botchan[2000:2300] + ["Zürich — naïve 🙂 <|endoftext|> [UNK] x", "  two  spaces "]
    for text in texts:
        assert result.tokenizer.encode(text) == hf.encode(text).ids, text
    if kwargs.get("byte_level"):
        assert result.tokenizer.decode(result.tokenizer.encode(texts[-2])) == texts[-2]
    elif "continuing_subword_prefix" in kwargs:
        assert result.tokenizer.decode(result.tokenizer.encode("the master said")) == "the master said"


@pytest.fixture(scope="module")
def small_byte_level(botchan):
    return train_bpe(botchan[:400] + ["naïve café — 日本語 🙂👍🏽"], 600, byte_level=True).tokenizer


@settings(max_examples=80, deadline=None)
@given(text=st.text(max_size=40))
def test_byte_level_decode_encode_round_trip_and_offsets(small_byte_level, text):
    from tokcore import validate_offsets_contract

    tok = small_byte_level
    assert tok.decode(tok.encode(text)) == text
    enc = tok.encode_result(text, return_offsets=True)
    assert validate_offsets_contract(text, enc.offsets)
    assert b"".join(text.encode("utf-8")[a - 1:b - 1] for a, b in enc.offsets) == text.encode("utf-8")
