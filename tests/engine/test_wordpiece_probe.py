"""WordPiece's probe: the vocabulary copy whose empty text and prefix alone end a search.

``WordPiece.columns`` cuts each candidate down one character at a time until it is in the probe;
the empty text (a first piece) and the prefix alone (a continuation) are ``None`` there, so the
search stops without a bound test per candidate. Those two texts may be real entries too (a
vocabulary with ``"#"``, ``"##"`` or ``""``), and a word may start with the prefix, so that a first
piece's candidate is the prefix alone: the first piece of such a word is searched in the vocabulary
itself. Pinned here against HF's loop (``textbook_wordpiece``) and HF tokenizers, with and without
the entry trie, on random vocabularies full of those texts and on vocabularies HF's trainer makes.

Left out: the search bounds on long words (``test_wordpiece_search_bounds.py``) and the word
entries built from ``columns`` (``test_quick_entries.py``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import require_shared
from test_word_model_shortcuts import as_bytes, textbook_wordpiece
from test_wordpiece_search_bounds import _indexed, _states

from tokcore.models.wordpiece import WordPiece

tokenizers = pytest.importorskip("tokenizers")

_PREFIXES = ["##", "#", "", "@@"]
# The prefix's own characters, so that entries and words start with it or with a part of it.
_chars = st.sampled_from("ab#@é中")
_entry_texts = st.text(_chars, max_size=4)
_words = st.text(_chars, max_size=12)


def _vocab(entries, prefix: str, specials) -> dict:
    vocab = {}
    for cont, text in entries:
        vocab.setdefault((prefix if cont else "") + text, len(vocab))
    for text in specials:  # the probe's stops as real entries
        vocab.setdefault(text, len(vocab))
    vocab.setdefault("[UNK]", len(vocab))
    return vocab


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.booleans(), _entry_texts), max_size=25), st.sampled_from(_PREFIXES),
       st.lists(st.sampled_from(["", "#", "##", "@", "@@", "###"]), max_size=3), st.lists(_words, min_size=1, max_size=10))
def test_splits_equal_hf_loop_and_hf_when_the_stops_are_entries(entries, prefix, specials, words):
    vocab = _vocab(entries, prefix, specials)
    bare, indexed = _states(vocab, continuing_subword_prefix=prefix, max_input_chars_per_word=100)
    hf = tokenizers.models.WordPiece(vocab, unk_token="[UNK]", continuing_subword_prefix=prefix,
                                     max_input_chars_per_word=100)
    for w in words + [prefix + w for w in words]:
        want = textbook_wordpiece(bare, w)
        assert bare.tokenize(w) == want, (w, vocab)
        assert indexed.tokenize(w) == want, (w, vocab)
        if w:  # HF's model gives no token for the empty word, as ours
            assert as_bytes(w, want) == [(t.id, t.value, t.offsets) for t in hf.tokenize(w)], (w, vocab)
    assert not _indexed(bare) and _indexed(indexed)


def test_a_word_starting_with_the_prefix_searches_its_first_piece_past_the_prefix_alone():
    # "##" is no entry and "#" is: the first piece of "##c" is "#", then "###c" continues it.
    m = WordPiece({"#": 0, "###c": 1, "[UNK]": 2})
    assert m.tokenize("##c") == [(0, "#", 0, 1), (1, "###c", 1, 3)] == textbook_wordpiece(m, "##c")
    # "##" is an entry: a word may be it, or start with it; a continuation is never the prefix alone.
    m2 = WordPiece({"##": 0, "#": 1, "##x": 2, "[UNK]": 3})
    assert m2.tokenize("##") == [(0, "##", 0, 2)]
    assert m2.tokenize("#x") == [(1, "#", 0, 1), (2, "##x", 1, 2)]
    assert m2.tokenize("##y") == [(3, "[UNK]", 0, 3)] == textbook_wordpiece(m2, "##y")


def test_the_empty_text_as_an_entry_never_matches():
    m = WordPiece({"": 0, "a": 1, "[UNK]": 2}, continuing_subword_prefix="")
    assert m.tokenize("ab") == [(2, "[UNK]", 0, 2)] == textbook_wordpiece(m, "ab")
    assert m.tokenize("aa") == [(1, "a", 0, 1), (1, "a", 1, 2)] == textbook_wordpiece(m, "aa")


def _udhr_lines(count: int) -> list[str]:
    root = require_shared() / "corpora" / "udhr"
    lines = []
    for path in sorted(root.glob("*.txt"))[:count]:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        lines += [ln for ln in text.splitlines() if ln.strip()][:4]
    return lines


@pytest.mark.parametrize("vocab_size, prefix", [(300, "##"), (2000, "##"), (600, "@@")])
def test_vocabularies_hf_trains_split_as_hf_with_and_without_the_trie(vocab_size, prefix):
    lines = _udhr_lines(120)
    trainer = tokenizers.trainers.WordPieceTrainer(vocab_size=vocab_size, special_tokens=["[UNK]"],
                                                   continuing_subword_prefix=prefix, show_progress=False)
    hf = tokenizers.Tokenizer(tokenizers.models.WordPiece(unk_token="[UNK]", continuing_subword_prefix=prefix))
    hf.pre_tokenizer = tokenizers.pre_tokenizers.BertPreTokenizer()
    hf.train_from_iterator(lines[::2], trainer)
    vocab = hf.get_vocab()
    model = hf.model
    words = list(dict.fromkeys(w for line in lines for w, _ in hf.pre_tokenizer.pre_tokenize_str(line)))
    bare, indexed = _states(vocab, continuing_subword_prefix=prefix)
    for w in words:
        want = [(t.id, t.value, t.offsets) for t in model.tokenize(w)]
        assert as_bytes(w, bare.tokenize(w)) == want, w
        assert as_bytes(w, indexed.tokenize(w)) == want, w
    # A fresh model that builds its trie part way (a small vocabulary soon spends its misses).
    fresh = WordPiece(vocab, continuing_subword_prefix=prefix)
    assert [as_bytes(w, fresh.tokenize(w)) for w in words] == [
        [(t.id, t.value, t.offsets) for t in model.tokenize(w)] for w in words]


@pytest.mark.parametrize("prefix", ["##", "#", ""])
def test_every_vocabulary_of_hashes_and_a_letter_splits_as_hf_loop(prefix):
    # Exhaustive over a small world where entries, words and the prefix are made of the same "#":
    # every subset of these entries, every word of up to four "#" and "a".
    universe = ["#", "##", "###", "a", "#a", "##a", "###a", "a#"]
    words = _all_words("#a", 4)
    for mask in range(1 << len(universe)):
        vocab = {text: k for k, text in enumerate(t for i, t in enumerate(universe) if mask >> i & 1)}
        vocab["[UNK]"] = len(vocab)
        bare, indexed = _states(vocab, continuing_subword_prefix=prefix)
        for w in words:
            want = textbook_wordpiece(bare, w)
            assert bare.tokenize(w) == want and indexed.tokenize(w) == want, (w, vocab)


def _all_words(chars: str, longest: int) -> list[str]:
    """Every text of ``chars`` up to ``longest`` long. ``_all_words("ab", 1) == ["", "a", "b"]``."""
    out, last = [""], [""]
    for _ in range(longest):
        last = [w + c for w in last for c in chars]
        out += last
    return out


def _bert_tokenizer(vocab: dict, most: int):
    import tokcore
    from tokcore.pre_tokenizers.standard import BertPreTokenizer

    return tokcore.Tokenizer(WordPiece(vocab, max_input_chars_per_word=most), pre_tokenizer=BertPreTokenizer())


@pytest.mark.parametrize("most", [0, 3, 4, 5, 100])
def test_a_word_that_is_an_entry_takes_its_entry_as_the_split_would(most):
    # _columns_entry reads an entry word's id without the split: not past the word limit, and never
    # for the empty word (an entry here).
    from fast_pairs import entries_agree

    from tokcore.fast.entries import _columns_entry
    from tokcore.fast.plan import word_plan

    vocab = {"": 0, "abcd": 1, "ab": 2, "##cd": 3, "é": 4, "éé": 5, "##é": 6, "[UNK]": 7, "abcde": 8, ",": 9}
    tok = _bert_tokenizer(vocab, most)
    words = ["abcd", "abcde", "ab", "abcdé", "é", "éé", "ééé", "abcd,", "x"]
    assert entries_agree(tok, words) > 0
    assert _columns_entry(word_plan(tok).columns, "") is None  # no token, as the split gives
    ref = _bert_tokenizer(vocab, most)
    ref.fast = False
    for text in ["abcd abcde ab abcd, ééé é x", "abcdé, abcd"]:
        a, b = tok.encode_result(text, return_offsets=True), ref.encode_result(text, return_offsets=True)
        assert (a.ids, a.tokens, a.original_offsets) == (b.ids, b.tokens, b.original_offsets), text
