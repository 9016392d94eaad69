"""The trainers' fast paths pinned to slow references on random input.

- ``trainers.words``: the word splitters (regex ``findall``, ASCII ``re`` twins of the patterns)
  give exactly the general pre-tokenizer path's piece texts, and ``count_words`` the same counts
  in the same order.
- ``trainers.bpe_merge``: the incremental merge loop gives the steps of a slow spelling of HF's
  ``BpeTrainer`` (every pair recounted from scratch at each step, the queue a plain list).

No timings here (see ``bench/train_peers.py``).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tokcore.core.components import piece_from_text
from tokcore.pre_tokenizers.standard import BertPreTokenizer, ByteLevel, Metaspace, Whitespace, WhitespaceSplit
from tokcore.trainers.base import count_words
from tokcore.trainers.bpe import train_bpe
from tokcore.trainers.words import word_splitter

# Every kind of character the patterns tell apart: ASCII letters, digits, punctuation, the ASCII
# spaces and the separators \x1c-\x1f (not spaces for these pre-tokenizers), contractions,
# accents, CJK, emoji, Unicode spaces and punctuation, the Metaspace and byte-level stand-ins.
ALPHABET = list("aZz09_'s.,!?-$^`| \t\n\r\x0b\x0c\x1c\x1f\x00\x7féß٣中ア😀▁Ġ\u00a0\u2003\u3000\u2014\u00bf") + [
    "'s", "'ll", "  ", " \n ", "hello", "World"]
texts = st.lists(st.sampled_from(ALPHABET), max_size=30).map("".join) | st.text(max_size=30)
ascii_texts = st.text(st.characters(max_codepoint=127), max_size=40)

PRE_TOKENIZERS = [
    ByteLevel(add_prefix_space=False), ByteLevel(add_prefix_space=True), ByteLevel(use_regex=False),
    Whitespace(), WhitespaceSplit(), BertPreTokenizer(),
    Metaspace(), Metaspace(prepend_scheme="first"), Metaspace(prepend_scheme="never"), Metaspace(split=False),
    Metaspace(replacement="_", prepend_scheme="never"),
]


def general_words(pre_tokenizer, text):
    return [p.text for p in pre_tokenizer.pre_tokenize([piece_from_text(text)]) if p.text]


def fast_words(pre_tokenizer, text):
    split, rewrite = word_splitter(pre_tokenizer)
    words = split(text)
    return words if rewrite is None else [rewrite(w) for w in words]


@settings(max_examples=300, deadline=None)
@given(texts | ascii_texts, st.sampled_from(PRE_TOKENIZERS))
def test_word_splitters_match_the_pre_tokenizers(text, pre_tokenizer):
    assert fast_words(pre_tokenizer, text) == general_words(pre_tokenizer, text)


@settings(max_examples=100, deadline=None)
@given(st.lists(texts | ascii_texts, max_size=6), st.sampled_from(PRE_TOKENIZERS))
def test_count_words_matches_the_general_path(lines, pre_tokenizer):
    want: dict[str, int] = {}
    for line in lines:
        for w in general_words(pre_tokenizer, line):
            want[w] = want.get(w, 0) + 1
    got = count_words(lines, pre_tokenizer=pre_tokenizer)
    assert list(got.items()) == list(want.items())  # same counts, first-seen order


def test_only_the_exact_classes_have_a_splitter():
    class Custom(Whitespace):
        def split_piece(self, piece):
            return [piece]

    assert word_splitter(Custom()) is None
    assert count_words(["a b", "a"], pre_tokenizer=Custom()) == {"a b": 1, "a": 1}
    assert fast_words(Whitespace(), "Hi, you!") == ["Hi", ",", "you", "!"]


# ----------------------------------------------------------------------------- the BPE merge loop


def reference_bpe(word_counts: dict[str, int], vocab_size: int, prefix=None, suffix=None):
    """HF's BpeTrainer spelled out slowly: ``[(left, right, merged, count)]`` and the vocabulary.

    The queue holds ``[count, (left id, right id), seq, words]`` entries; the best is the highest
    count, then the smaller ids, then the older entry. An entry whose count is no longer the true
    count (recounted over all words) goes back with the true count and its words; otherwise the
    pair is merged in its words only, and every pair a merge created is queued with the words
    where it was created.
    """
    vocab = sorted(set("".join(word_counts)))
    words = []
    for w in word_counts:
        syms = []
        for i, ch in enumerate(w):
            s = (prefix + ch if i and prefix is not None else ch) + (suffix if i == len(w) - 1 and suffix else "")
            if s not in vocab:
                vocab.append(s)
            syms.append(s)
        words.append(syms)
    counts = list(word_counts.values())
    ids = {t: i for i, t in enumerate(vocab)}

    def true_count(pair):
        return sum(c * sum(1 for x, y in zip(w, w[1:]) if (x, y) == pair) for w, c in zip(words, counts))

    queue, seq = [], 0
    first: dict[tuple, set] = {}
    for wi, w in enumerate(words):
        for pair in zip(w, w[1:]):
            first.setdefault(pair, set()).add(wi)
    for pair, where in first.items():
        queue.append([true_count(pair), pair, seq, where])
        seq += 1
    steps = []
    while len(vocab) < vocab_size and queue:
        entry = min(queue, key=lambda e: (-e[0], (ids[e[1][0]], ids[e[1][1]]), e[2]))
        queue.remove(entry)
        count, (a, b), _, where = entry
        if count != true_count((a, b)):
            queue.append([true_count((a, b)), (a, b), seq, where])
            seq += 1
            continue
        if count < 1:
            break
        merged = a + (b[len(prefix):] if prefix is not None and b.startswith(prefix) else b)
        if merged not in ids:
            ids[merged] = len(vocab)
            vocab.append(merged)
        steps.append((a, b, merged, count))
        created: dict[tuple, set] = {}
        for wi in sorted(where):
            w, i = words[wi], 0
            while i < len(w) - 1:
                if (w[i], w[i + 1]) == (a, b):
                    w[i:i + 2] = [merged]
                    if i:
                        created.setdefault((w[i - 1], merged), set()).add(wi)
                    if i + 1 < len(w):
                        created.setdefault((merged, w[i + 1]), set()).add(wi)
                i += 1
        for pair, where_created in created.items():
            if true_count(pair) > 0:
                queue.append([true_count(pair), pair, seq, where_created])
                seq += 1
    return steps, vocab


# Few letters, so pairs tie, repeat inside words (aaa) and get created by several merges.
bpe_corpora = st.dictionaries(st.text("abc", min_size=1, max_size=8), st.integers(1, 4), min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(bpe_corpora, st.integers(3, 40), st.sampled_from([(None, None), ("##", None), (None, "</w>"), ("##", "</w>")]))
def test_bpe_merge_loop_matches_the_slow_reference(word_counts, n_merges, affixes):
    prefix, suffix = affixes
    # vocab_size counts the alphabet and the affixed characters: stop after n_merges merges.
    n_alphabet = len(reference_bpe(word_counts, 0, prefix, suffix)[1])
    result = train_bpe(word_counts, n_alphabet + n_merges, continuing_subword_prefix=prefix,
                       end_of_word_suffix=suffix, record_top_pairs=0)
    want_steps, want_vocab = reference_bpe(word_counts, n_alphabet + n_merges, prefix, suffix)
    assert [(s.left, s.right, s.merged, s.count) for s in result.steps] == want_steps
    assert list(result.tokenizer.get_vocab()) == want_vocab


def test_bpe_reference_agrees_on_the_course_example():
    course = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    steps, vocab = reference_bpe(course, 30)
    assert [s[2] for s in steps] == ["ug", "un", "hug", "pun", "pug", "hugs", "bun"]
    assert [(s.left, s.right, s.merged, s.count) for s in train_bpe(course, 30).steps] == steps
