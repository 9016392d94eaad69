"""The BPE model: HF parity (GPT-2, a Llama-style byte-fallback model, small hand-made models),
options (prefix, suffix, unk, fuse_unk, byte_fallback, ignore_merges, dropout), explain, I/O."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import require_shared

from tokcore.core.components import build
from tokcore.core.errors import ConfigurationError, TokenizerFileError
from tokcore.models.bpe import BPE, _plain_merge_map, parse_merges
from tokcore.models.bpe_queue import queue_merge

tokenizers = pytest.importorskip("tokenizers")


def toy() -> BPE:
    vocab = {c: i for i, c in enumerate("bghnpsu")}
    vocab.update({"ug": 7, "un": 8, "hug": 9, "[UNK]": 10})
    return BPE(vocab, [("u", "g"), ("u", "n"), ("h", "ug")], unk_token="[UNK]")


def values(tokens):
    return [t[1] for t in tokens]


def byte_spans(word: str, tokens) -> list[tuple[int, int, str]]:
    """Our character positions (and byte-fallback (k, n)) as byte offsets in ``word``, like HF's."""
    starts = [0]
    for ch in word:
        starts.append(starts[-1] + len(ch.encode("utf-8")))
    out = []
    for t in tokens:
        if len(t) == 5:
            k, _ = t[4]
            out.append((t[0], t[1], starts[t[2]] + k, starts[t[2]] + k + 1))
        else:
            out.append((t[0], t[1], starts[t[2]], starts[t[3]]))
    return out


def hf_tokens(model, word):
    return [(t.id, t.value, t.offsets[0], t.offsets[1]) for t in model.tokenize(word)]


# ----------------------------------------------------------------------------- basics


def test_toy_merges_by_rank_and_offsets():
    m = toy()
    assert m.tokenize("hugs") == [(9, "hug", 0, 3), (5, "s", 3, 4)]
    assert m.tokenize("bug") == [(0, "b", 0, 1), (7, "ug", 1, 3)]
    assert m.tokenize("mug") == [(10, "[UNK]", 0, 1), (7, "ug", 1, 3)]
    assert m.tokenize("") == []
    assert m.merge_rank("h", "ug") == 2 and m.merge_rank("g", "u") is None


def test_explain_lists_each_merge_with_rank():
    steps = toy().explain("hugs")
    assert [s.symbols for s in steps] == [("h", "u", "g", "s"), ("h", "ug", "s"), ("hug", "s")]
    assert [(s.rank, s.left, s.right, s.merged, s.position) for s in steps[1:]] == [
        (0, "u", "g", "ug", 1),
        (2, "h", "ug", "hug", 0),
    ]
    assert steps[0].rank is None
    assert [s.symbols for s in toy().explain("")] == [()]


def test_lowest_rank_first_then_leftmost():
    vocab = {"a": 0, "b": 1, "ab": 2, "ba": 3, "aa": 4}
    # "aba": (b, a) has rank 0, so it wins over the leftmost (a, b).
    m = BPE(vocab, [("b", "a"), ("a", "b")])
    assert values(m.tokenize("aba")) == ["a", "ba"]
    # "aaa": equal ranks, leftmost first.
    m = BPE(vocab, [("a", "a")])
    assert values(m.tokenize("aaa")) == ["aa", "a"]


def test_unknown_characters_unk_fuse_and_drop():
    vocab = {"<unk>": 0, "a": 1, "b": 2}
    assert values(BPE(vocab, [], unk_token="<unk>").tokenize("axyb")) == ["a", "<unk>", "<unk>", "b"]
    fused = BPE(vocab, [], unk_token="<unk>", fuse_unk=True).tokenize("axyb")
    assert fused == [(1, "a", 0, 1), (0, "<unk>", 1, 3), (2, "b", 3, 4)]
    # No unk token: the character is dropped; the next token keeps its true position.
    assert BPE(vocab, []).tokenize("axb") == [(1, "a", 0, 1), (2, "b", 2, 3)]
    with pytest.raises(ConfigurationError, match="unk_token"):
        BPE(vocab, [], unk_token="[UNK]").tokenize("x")


def test_byte_fallback_tokens_carry_byte_index():
    vocab = {"<unk>": 0, "a": 1, **{f"<0x{b:02X}>": 2 + b for b in range(256)}}
    m = BPE(vocab, [], unk_token="<unk>", byte_fallback=True)
    assert m.tokenize("aé") == [(1, "a", 0, 1), (2 + 0xC3, "<0xC3>", 1, 2, (0, 2)), (2 + 0xA9, "<0xA9>", 1, 2, (1, 2))]
    # A missing byte token makes the whole character unknown.
    del vocab["<0xA9>"]
    m = BPE(vocab, [], unk_token="<unk>", byte_fallback=True)
    assert values(m.tokenize("é")) == ["<unk>"]


def test_prefix_and_suffix():
    vocab = {"h": 0, "##u": 1, "##g": 2, "##ug": 3, "hug": 4, "u": 5}
    m = BPE(vocab, [("##u", "##g"), ("h", "##ug")], continuing_subword_prefix="##")
    assert m.tokenize("hug") == [(4, "hug", 0, 3)]
    assert values(m.tokenize("ug")) == ["u", "##g"]
    vocab = {"l": 0, "o": 1, "w</w>": 2, "ow</w>": 3, "low</w>": 4, "o</w>": 5}
    m = BPE(vocab, [("o", "w</w>"), ("l", "ow</w>")], end_of_word_suffix="</w>")
    assert m.tokenize("low") == [(4, "low</w>", 0, 3)]
    assert values(m.tokenize("lo")) == ["l", "o</w>"]


def test_ignore_merges_returns_vocab_words_whole():
    vocab = {"a": 0, "b": 1, "c": 2, "bc": 3, "abc": 4}
    m = BPE(vocab, [("b", "c")])
    assert values(m.tokenize("abc")) == ["a", "bc"]
    m = BPE(vocab, [("b", "c")], ignore_merges=True)
    assert m.tokenize("abc") == [(4, "abc", 0, 3)]
    assert [s.symbols for s in m.explain("abc")] == [("abc",)]


def test_cache_is_bounded_and_skipped_with_dropout():
    m = BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")], cache_capacity=2)
    for w in ["ab", "ba", "aab", "abab"]:
        m.tokenize(w)
    assert len(m._cache) == 2
    out = m.tokenize("ab")
    out.append("mutated")  # callers get a copy: the cache stays intact
    assert m.tokenize("ab") == [(2, "ab", 0, 2)]
    d = BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")], dropout=0.5, seed=0)
    d.tokenize("abab")
    assert d._cache == {}


# ----------------------------------------------------------------------------- dropout


def test_dropout_seeded_reproducible_and_extremes():
    vocab = {c: i for i, c in enumerate("abcd")}
    vocab.update({"ab": 4, "cd": 5, "abcd": 6, "bc": 7})
    merges = [("a", "b"), ("c", "d"), ("ab", "cd"), ("b", "c")]
    words = ["abcd", "abcdabcd", "dcba", "abcabcd"] * 10
    runs = []
    for _ in range(2):
        m = BPE(vocab, merges, dropout=0.4, seed=123)
        runs.append([values(m.tokenize(w)) for w in words])
    assert runs[0] == runs[1]
    assert len({tuple(r) for r in runs[0][::4]}) > 1  # dropout does vary the split
    m.reseed(123)
    assert [values(m.tokenize(w)) for w in words] == runs[0]
    assert values(BPE(vocab, merges, dropout=1.0, seed=1).tokenize("abcd")) == list("abcd")
    assert values(BPE(vocab, merges, dropout=0.0).tokenize("abcd")) == ["abcd"]
    with pytest.raises(ConfigurationError):
        BPE(vocab, merges, dropout=1.5)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="abcdx", max_size=30), st.floats(0.0, 1.0), st.integers(0, 2**16))
def test_dropout_covers_the_word(word, p, seed):
    vocab = {c: i for i, c in enumerate("abcd")}
    vocab.update({"ab": 4, "cd": 5, "abcd": 6, "bc": 7, "<unk>": 8})
    m = BPE(vocab, [("a", "b"), ("c", "d"), ("ab", "cd"), ("b", "c")], unk_token="<unk>", dropout=p, seed=seed)
    toks = m.tokenize(word)
    assert "".join("x" if t[1] == "<unk>" else t[1] for t in toks) == word
    assert [t[2] for t in toks] == ([0] + [t[3] for t in toks[:-1]] if toks else [])


# ----------------------------------------------------------------------------- fast path == HF's queue


@st.composite
def random_models(draw):
    alphabet = "abc"
    vocab = {c: i for i, c in enumerate(alphabet)}
    merges = []
    for _ in range(draw(st.integers(0, 12))):
        tokens = list(vocab)
        a, b = draw(st.sampled_from(tokens)), draw(st.sampled_from(tokens))
        if len(a + b) > 6:
            continue
        merges.append((a, b))
        vocab.setdefault(a + b, len(vocab))
    return vocab, merges


@settings(max_examples=200, deadline=None)
@given(random_models(), st.text(alphabet="abc", max_size=80))  # > LONG_WORD takes the queue path
def test_fast_merge_equals_hf_queue_and_hf(model, word):
    vocab, merges = model
    m = BPE(vocab, merges)
    ids, pos, _ = m._symbols(word)
    ids2, pos2 = list(ids), list(pos)
    m._merge(ids, pos)
    queue_merge(ids2, pos2, m._merge_map, m._made, None, m._rng.random, None)
    assert (ids, pos) == (ids2, pos2)
    assert m.explain(word)[-1].symbols == tuple(values(m.tokenize(word)))
    hf = tokenizers.models.BPE(vocab, merges)
    assert byte_spans(word, m.tokenize(word)) == hf_tokens(hf, word)


# ----------------------------------------------------------------------------- HF parity on real files


@pytest.fixture(scope="module")
def gpt2():
    path = require_shared("reference", "hf", "gpt2", "tokenizer.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    return BPE.from_dict(data["model"]), tokenizers.Tokenizer.from_file(str(path))


def _words(hf_tok, texts):
    words = []
    for text in texts:
        words.extend(w for w, _ in hf_tok.pre_tokenizer.pre_tokenize_str(text))
    return list(dict.fromkeys(words))


def test_gpt2_parity_on_thousands_of_words(gpt2, edge_cases):
    ours, hf = gpt2
    botchan = require_shared("corpora", "botchan.txt").read_text(encoding="utf-8").splitlines()
    texts = botchan[:2500] + [c["text"] for c in edge_cases]
    words = _words(hf, texts)
    assert len(words) > 4000
    for w in words:
        assert byte_spans(w, ours.tokenize(w)) == hf_tokens(hf.model, w), w
    # a second pass is served by the cache and must not change anything
    for w in words[:500]:
        assert byte_spans(w, ours.tokenize(w)) == hf_tokens(hf.model, w), w


def test_llama_style_byte_fallback_parity():
    path = require_shared("reference", "hf", "trained", "llama_style_bpe.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    ours = BPE.from_dict(data["model"])
    hf = tokenizers.Tokenizer.from_file(str(path))
    assert ours.byte_fallback and ours.fuse_unk
    texts = require_shared("corpora", "botchan.txt").read_text(encoding="utf-8").splitlines()[:300]
    udhr = sorted(require_shared("corpora", "udhr").glob("*.txt"))
    for f in udhr[::8]:
        texts.extend(f.read_text(encoding="utf-8").splitlines()[:4])
    saw_bytes = 0
    for text in texts:
        word = hf.normalizer.normalize_str(text)
        if not word:
            continue
        toks = ours.tokenize(word)
        saw_bytes += sum(len(t) == 5 for t in toks)
        assert byte_spans(word, toks) == hf_tokens(hf.model, word), text
    assert saw_bytes > 100


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=40))
def test_byte_level_round_trip(gpt2, text):
    from tokcore.text.byte_level import chars_to_bytes, text_to_chars

    ours, _ = gpt2
    word = text_to_chars(text)
    toks = ours.tokenize(word)
    assert chars_to_bytes("".join(t[1] for t in toks)) == text.encode("utf-8", "surrogatepass")
    assert [t[2] for t in toks] == ([0] + [t[3] for t in toks[:-1]] if toks else [])


# ----------------------------------------------------------------------------- serialization


def test_to_dict_is_hf_model_json_and_loads_in_hf():
    m = toy()
    d = m.to_dict()
    assert list(d) == ["type", "dropout", "unk_token", "continuing_subword_prefix", "end_of_word_suffix",
                       "fuse_unk", "byte_fallback", "ignore_merges", "vocab", "merges"]
    assert d["merges"] == [["u", "g"], ["u", "n"], ["h", "ug"]]
    again = build("model", json.loads(json.dumps(d)))
    assert again == m and again.tokenize("hugs") == m.tokenize("hugs")
    tok = tokenizers.Tokenizer.from_str(json.dumps({
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": [], "normalizer": None,
        "pre_tokenizer": None, "post_processor": None, "decoder": None, "model": d}))
    assert tok.encode("hugs").tokens == ["hug", "s"]


def test_legacy_string_merges_and_errors():
    legacy = {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": ["#version: 0.2", "a b"]}
    assert build("model", legacy).tokenize("ab") == [(2, "ab", 0, 2)]
    assert parse_merges(["a b", ["ab", "c"]]) == [("a", "b"), ("ab", "c")]
    with pytest.raises(TokenizerFileError, match="merged token"):
        build("model", {"type": "BPE", "vocab": {"a": 0, "b": 1}, "merges": [["a", "b"]]}, source="x.json")
    with pytest.raises(TokenizerFileError, match="not in the vocabulary"):
        build("model", {"type": "BPE", "vocab": {"a": 0}, "merges": [["a", "b"]]})
    with pytest.raises(TokenizerFileError):
        build("model", {"type": "BPE", "vocab": {"a": 0}, "merges": ["a b c"]})
    with pytest.raises(TokenizerFileError):
        build("model", {"type": "BPE", "vocab": {"a": 0}})
    # a repeated pair keeps its last rank, as HF's merge map does
    m = BPE({"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4}, [("a", "b"), ("b", "c"), ("a", "b")])
    assert values(m.tokenize("abc")) == ["a", "bc"]


def _merge_map_reference(vocab: dict, merges) -> tuple[dict, list]:
    """The merge map by hand: each merge in turn, a repeated pair keeping its last rank; and the
    merged id by rank."""
    out = {}
    for rank, (a, b) in enumerate(merges):
        out[(vocab[a], vocab[b])] = rank
    return out, [vocab[a + b] for a, b in merges]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abcd"), st.sampled_from("abcd")), min_size=1, max_size=30),
       st.sampled_from([list, tuple]))
def test_plain_merge_map_equals_the_merge_by_merge_reference(pairs, kind):
    vocab = {c: i for i, c in enumerate("abcd")}
    for a, b in pairs:
        vocab.setdefault(a + b, len(vocab))
    merges = [kind(p) for p in pairs]
    assert _plain_merge_map(vocab, merges) == _merge_map_reference(vocab, pairs)
    m = BPE(vocab, merges)
    assert (m._merge_map, m._made) == _merge_map_reference(vocab, pairs)


@pytest.mark.parametrize("merges", [
    [["a", "b", "c"]],  # not a pair
    [["a", "b"], ["a"]],  # one merge shorter than the others
    [["a", 1]],  # a side that is not a string
    [["a", ["b"]]],  # an unhashable side
    ["ab"],  # a string of two characters is not [left, right]
    [["a", "x"]],  # a side outside the vocabulary
    [["b", "b"]],  # a merged token outside the vocabulary
    [],
])
def test_plain_merge_map_leaves_every_odd_shape_to_the_checking_loop(merges):
    assert _plain_merge_map({"a": 0, "b": 1, "ab": 2}, merges) is None


def test_odd_merges_still_fail_with_the_merge_named():
    with pytest.raises(ConfigurationError, match="merge #1"):
        BPE({"a": 0, "b": 1, "ab": 2}, [["a", "b"], ["a", 1]])
    with pytest.raises(ConfigurationError, match="merge #0"):
        BPE({"a": 0, "b": 1, "ab": 2}, [["a", "b", "c"]])
    with pytest.raises(ConfigurationError, match="'ab'"):
        BPE({"a": 0, "b": 1, "ab": 2}, ["ab"])


def test_explain_shows_unknown_and_byte_fallback_symbols():
    vocab = {"<unk>": 0, "a": 1, "b": 2, "ab": 3, **{f"<0x{b:02X}>": 4 + b for b in range(256)}}
    m = BPE(vocab, [("a", "b")], unk_token="<unk>", byte_fallback=True)
    steps = m.explain("éab")
    assert steps[0].symbols == ("<0xC3>", "<0xA9>", "a", "b")
    assert steps[-1].symbols == ("<0xC3>", "<0xA9>", "ab") and steps[-1].position == 2
    assert [s.symbols for s in BPE({"<unk>": 0, "a": 1}, [], unk_token="<unk>", fuse_unk=True).explain("xya")] == [
        ("<unk>", "a")]
