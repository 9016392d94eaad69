"""Pathological lengths: time and memory grow near-linearly with the input, never quadratically.

No wall-clock limits: every timing test compares the CPU time of the same operation at two sizes,
``n`` and ``4n``. Linear work gives a ratio near 4, ``n log n`` a little more, quadratic work 16; the
bound is 8. Calls too quick for the timer are repeated (the same number of times at both sizes), and a
ratio over the bound is measured again before failing, so a busy machine does not fail the suite.
Operation counts (lookups in the merge map, prefix map and vocabulary, counted through a counting
dict) and traced memory peaks back the timings with deterministic figures.

Inputs: one long word of letters, one repeated letter (BPE's worst case: every pair merges), runs of
spaces, digits, punctuation, CJK, ZWJ emoji and one combining pile, and a mixed document, through
the reference tokenizers of every family and the self-contained ones; then the named cases (a 1 MB
single word, 100k spaces, a 1 MB document) end to end.
"""

from __future__ import annotations

import gc
import math
import time
import tracemalloc

import pytest
from shared_data import require_shared

import tokcore

FACTOR = 4
LIMIT = 8.0  # linear: ~4, quadratic: 16
MIN_CPU = 0.02  # seconds; quicker calls are repeated until the timer can see them

DOC = "The quick brown fox, isn't it? 3.14 café 日本語 مرحبا 👍🏽\n  tabs\tand  spaces. [CLS] <s> "
TEXTS = {
    "word": lambda n: ("abcdefghij" * (n // 10 + 1))[:n],
    "one_letter": lambda n: "a" * n,
    "spaces": lambda n: " " * n,
    "document": lambda n: (DOC * (n // len(DOC) + 1))[:n],
    "cjk": lambda n: ("日本語の文章" * n)[:n],
    "combining_pile": lambda n: "e" + "\u0301" * n,
    "zwj_emoji": lambda n: ("👨\u200d👩\u200d👧" * n)[:n],
    "digits": lambda n: ("1234567890" * n)[:n],
    "punctuation": lambda n: "!" * n,
}
REFERENCE = {
    "roberta_bytelevel_bpe": ("reference", "hf", "trained", "roberta_bytelevel.json"),
    "llama_bpe_byte_fallback": ("reference", "hf", "trained", "llama_style_bpe.json"),
    "bert_wordpiece": ("reference", "hf", "trained", "bert_cased_wordpiece.json"),
    "t5_unigram": ("reference", "hf", "trained", "t5_style_unigram.json"),
    "wordlevel": ("reference", "hf", "trained", "wordlevel_whitespace.json"),
    "sp_unigram": ("reference", "sentencepiece", "botchan_en_unigram_1000.model"),
    "sp_bpe": ("reference", "sentencepiece", "botchan_en_bpe_1000.model"),
    "tiktoken_gpt2": ("reference", "tiktoken", "gpt2.tiktoken"),
}
SELF_CONTAINED = ("byte_model", "char_ascii", "bpe_runs")
_CACHE: dict = {}


def runs_bpe():
    """A BPE whose merges build runs of 'a' (a+a, aa+aa, ...): on 'aaaa...' every pair is mergeable."""
    from tokcore.trainers.bpe import train_bpe

    return train_bpe({"a" * 4096: 1, "b": 1}, 15, unk_token="[UNK]").tokenizer


def tokenizer(name: str):
    if name not in _CACHE:
        if name in REFERENCE:
            _CACHE[name] = tokcore.load(require_shared(*REFERENCE[name]))
        elif name == "byte_model":
            from tokcore.presets.byte_tokenizer import byte_tokenizer

            _CACHE[name] = byte_tokenizer()
        elif name == "char_ascii":
            _CACHE[name] = tokcore.CharTokenizer()
        elif name == "bpe_runs":
            _CACHE[name] = runs_bpe()
    return _CACHE[name]


def cpu(fn, arg, reps: int = 1) -> float:
    # The collector is off while timing: a full collection walks every loaded vocabulary, and
    # whether one falls inside a run depends on the heap, not on the algorithm being measured.
    gc.collect(0)
    gc.disable()
    try:
        t0 = time.process_time()
        for _ in range(reps):
            fn(arg)
        return time.process_time() - t0
    finally:
        gc.enable()


def growth(fn, make, n: int, attempts: int = 3) -> float:
    """Smallest ratio t(FACTOR * n) / t(n) seen over up to ``attempts`` measurements.

    ``n`` is doubled (up to 32 times itself) until one call takes ``MIN_CPU``: below that the small
    input fits in the CPU caches and the big one does not, which inflates the ratio of quick
    tokenizers with a hardware effect rather than an algorithmic one.
    """
    fn(make(n))  # warm up: imports, compiled regexes, lazily built tables
    limit = 32 * n
    while n < limit and cpu(fn, make(n)) < MIN_CPU:
        n *= 2
    small_text, big_text = make(n), make(FACTOR * n)
    once = cpu(fn, small_text)
    reps = 1 if once >= MIN_CPU else min(200, math.ceil(MIN_CPU / max(once, 1e-5)))
    best = math.inf
    for _ in range(attempts):
        ratio = cpu(fn, big_text, reps) / max(cpu(fn, small_text, reps), 1e-9)
        best = min(best, ratio)
        if best < LIMIT:
            break
    return best


def encode(tok):
    return lambda text: tok.encode_result(text, return_offsets=True, truncation=False, padding=False)


# ------------------------------------------------------------------------------------------
# The whole pipeline, every family, every pathological shape


@pytest.mark.parametrize("text_kind", list(TEXTS))
@pytest.mark.parametrize("name", list(REFERENCE) + list(SELF_CONTAINED))
def test_pipeline_time_grows_near_linearly(name, text_kind):
    ratio = growth(encode(tokenizer(name)), TEXTS[text_kind], 3000)
    assert ratio < LIMIT, f"{name} on {text_kind}: t({FACTOR}n)/t(n) = {ratio:.1f}"


# ------------------------------------------------------------------------------------------
# The models alone on one long word, with operation counts


class CountingDict(dict):
    """A dict that counts ``get`` calls and ``[]`` lookups (what every model's inner loop does)."""

    calls = 0

    def get(self, key, default=None):
        self.calls += 1
        return super().get(key, default)

    def __getitem__(self, key):
        self.calls += 1
        return super().__getitem__(key)


def counted_trie(level: dict, tally: list) -> dict:
    """A copy of a Unigram piece trie (``Unigram._end_trie``'s) whose every level adds its
    lookups to ``tally[0]``."""

    class Level(dict):
        def get(self, key, default=None):
            tally[0] += 1
            return super().get(key, default)

    return Level({ch: [counted_trie(node[0], tally) if node[0] else node[0], *node[1:]] for ch, node in level.items()})


def test_bpe_merge_loop_is_not_quadratic_on_a_long_word():
    model = runs_bpe().model
    counting = CountingDict(model._merge_map)
    model._merge_map = counting
    counts = []
    for n in (4096, 4 * 4096):
        counting.calls = 0
        tokens = model.tokenize("a" * n)
        assert "".join(t[1] for t in tokens) == "a" * n
        assert len(tokens) == n // 4096  # the longest run token is 4096 letters
        counts.append(counting.calls)
    # Every merge checks its entry and looks up its two new neighbours: a few lookups per symbol.
    assert counts[1] <= 5 * 4 * 4096
    assert counts[1] / counts[0] < 4.5
    ratio = growth(model.tokenize, lambda n: "a" * n, 16384)
    assert ratio < LIMIT, ratio


def test_rank_bpe_merge_loop_is_not_quadratic_on_a_long_word():
    from tokcore.models.rank_bpe import RankBPE

    tok = tokcore.load(require_shared("reference", "sentencepiece", "botchan_en_bpe_1000.model"))
    model = tok.model
    assert isinstance(model, RankBPE)
    def word(n):
        return ("\u2581the" + "abcdefghij" * (n // 10 + 1))[:n]

    ratio = growth(model.tokenize, word, 16000)
    assert ratio < LIMIT, ratio


def test_unigram_lattice_work_per_character_is_bounded_by_the_longest_piece():
    tok = tokcore.load(require_shared("reference", "hf", "trained", "t5_style_unigram.json"))
    model = tok.model
    longest = max(len(p) for p, _ in model.vocab)
    tally = [0]
    model._winner_trie = counted_trie(model._end_trie(), tally)  # the forward pass's only lookups
    for n in (5000, 20000):
        tally[0] = 0
        model._cache.clear()
        model.tokenize("\u2581" + "abcdefghij" * (n // 10))
        assert 0 < tally[0] <= (longest + 1) * (n + 1), (n, tally[0], longest)
    ratio = growth(model.tokenize, lambda n: "\u2581" + "e" * n, 8000)
    assert ratio < LIMIT, ratio


def test_wordpiece_per_word_limit_and_bounded_lookups_without_it():
    from tokcore.models.wordpiece import WordPiece

    tok = tokcore.load(require_shared("reference", "hf", "trained", "bert_cased_wordpiece.json"))
    model = tok.model
    word = "abcdefghij" * 100_000  # 1 MB
    # Past max_input_chars_per_word the word is one unknown token, found without any lookup.
    counting = CountingDict(model.vocab)
    model.vocab = counting
    assert [t[1] for t in model.tokenize(word)] == [model.unk_token]
    assert counting.calls <= 1
    # Without the limit, the greedy search tries at most `longest token` lengths per position.
    unlimited = WordPiece(dict(tok.get_vocab()), unk_token="[UNK]", max_input_chars_per_word=10**9)
    longest = max(len(t) for t in unlimited.vocab)
    counting = CountingDict(unlimited.vocab)
    unlimited.vocab = counting
    n = 20000
    unlimited.tokenize(word[:n])
    assert counting.calls <= (longest + 1) * n
    ratio = growth(unlimited.tokenize, lambda k: word[:k], 20000)
    assert ratio < LIMIT, ratio


# ------------------------------------------------------------------------------------------
# Memory


def traced_peak(fn, arg) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        fn(arg)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("name", ["roberta_bytelevel_bpe", "t5_unigram", "sp_bpe", "bert_wordpiece", "byte_model"])
def test_memory_peak_grows_linearly(name):
    fn = encode(tokenizer(name))
    fn(TEXTS["document"](100))
    peaks = [traced_peak(fn, TEXTS["document"](n)) for n in (3000, FACTOR * 3000)]
    assert peaks[1] / peaks[0] < 6, peaks


@pytest.mark.parametrize("name", list(REFERENCE) + list(SELF_CONTAINED))
def test_caches_do_not_keep_huge_inputs_alive(name):
    """Encoding many distinct long words leaves almost nothing behind (caches skip long words)."""
    tok = tokenizer(name)
    fn = encode(tok)
    fn("warm up the caches and tables")
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(6):
            fn(f"x{i}" + "abcdefghij" * 300)  # 6 distinct 3 kB words
        gc.collect()
        retained = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert retained < 9_000, f"{name} keeps {retained} bytes after 18 kB of distinct long words"


# ------------------------------------------------------------------------------------------
# The named pathological inputs, end to end


def test_one_megabyte_word_through_wordpiece_and_a_long_word_through_unigram():
    word = "abcdefghij" * 100_000
    bert = tokenizer("bert_wordpiece")
    r = bert.encode_result(word, return_offsets=True)
    assert r.tokens == ["[CLS]", "[UNK]", "[SEP]"]
    assert r.offsets[1] == (1, len(word) + 1)
    sp = tokenizer("sp_unigram")
    r = sp.encode_result(word[:200_000], return_offsets=True)
    assert "".join(r.tokens).replace("\u2581", "") == word[:200_000]
    assert r.original_offsets[-1][1] == 200_001


def test_hundred_thousand_spaces_through_every_tokenizer():
    text = " " * 100_000
    for name in list(REFERENCE) + list(SELF_CONTAINED):
        tok = tokenizer(name)
        r = tok.encode_result(text, return_offsets=True, truncation=False, padding=False)
        assert tokcore.validate_offsets_contract(text, r.original_offsets), name


def test_one_megabyte_document_through_wordlevel():
    text = TEXTS["document"](1_000_000)
    r = tokenizer("wordlevel").encode_result(text, return_offsets=True, truncation=False, padding=False)
    assert len(r.ids) > 100_000
    assert tokcore.validate_offsets_contract(text, r.offsets, require_string_boundaries=True)


# ------------------------------------------------------------------------------------------
# Same answers as the reference libraries on the pathological shapes (moderate sizes)

PARITY_TEXTS = {k: make(3000) for k, make in TEXTS.items()}
PARITY_TEXTS["newlines"] = "\n" * 3000
PARITY_TEXTS["mixed_runs"] = ("a" * 700 + " " * 700 + "\u0301" * 300 + "1" * 500 + "\t" * 100) * 2


def _oracle(name: str):
    path = require_shared(*REFERENCE[name])
    if path.suffix == ".json":
        tokenizers = pytest.importorskip("tokenizers")
        hf = tokenizers.Tokenizer.from_file(str(path))
        hf.no_truncation()
        hf.no_padding()
        return lambda text: hf.encode(text).ids
    if path.suffix == ".model":
        spm = pytest.importorskip("sentencepiece")
        sp = spm.SentencePieceProcessor(model_file=str(path))
        return sp.encode
    tiktoken = pytest.importorskip("tiktoken")
    from tokcore.loaders.tiktoken_file import read_tiktoken_ranks
    from tokcore.text.byte_level import R50K_PATTERN

    enc = tiktoken.Encoding("gpt2", pat_str=R50K_PATTERN, mergeable_ranks=read_tiktoken_ranks(path),
                            special_tokens={"<|endoftext|>": 50256})
    return lambda text: enc.encode(text, disallowed_special=())


@pytest.mark.parametrize("name", list(REFERENCE))
def test_pathological_inputs_match_the_reference_library(name):
    oracle = _oracle(name)
    tok = tokenizer(name)
    sp = REFERENCE[name][1] == "sentencepiece"
    tiktoken_like = REFERENCE[name][1] == "tiktoken"
    for kind, text in PARITY_TEXTS.items():
        if tiktoken_like:
            ours = tok.encode_ordinary(text)
        else:
            ours = tok.encode(text, add_special_tokens=not sp)
        assert ours == oracle(text), f"{name} differs from its reference library on {kind}"
