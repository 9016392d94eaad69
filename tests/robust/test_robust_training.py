"""Degenerate training corpora: every trainer gives a clear error or a valid tiny vocabulary.

Corpora: empty, one empty string, whitespace only, an empty or all-zero mapping, one character,
one character repeated, duplicate-only lines and words, one multi-byte character, a one-shot
generator. "Valid" means: the vocabulary is no larger than asked (when the alphabet fits), every
corpus text encodes with contract offsets and decodes, the tokenizer saves and loads back to the
same ids, and (with an unknown token) unseen text encodes to it. A clear error is a
``ValueError``/``TypeError`` from ``tokcore.errors`` whose message says what to change. Text that is
not valid Unicode (a lone surrogate) is refused with the item and the position, since no tokenizer
file could hold the vocabulary learned from it.
"""

from __future__ import annotations

import pytest

import tokcore
from tokcore import validate_offsets_contract
from tokcore.core.errors import ConfigurationError, TokcoreError, WrongTypeError
from tokcore.trainers.bpe import train_bpe
from tokcore.trainers.char import train_char
from tokcore.trainers.unigram import train_unigram
from tokcore.trainers.wordpiece import train_wordpiece

TRAINERS = {
    "bpe_char_unk": (lambda c, n: train_bpe(c, n, unk_token="[UNK]"), "[UNK]"),
    "bpe_char": (lambda c, n: train_bpe(c, n), None),
    "bpe_char_affixes": (lambda c, n: train_bpe(c, n, unk_token="[UNK]", continuing_subword_prefix="##",
                                               end_of_word_suffix="</w>"), "[UNK]"),
    "bpe_byte": (lambda c, n: train_bpe(c, n + 256, byte_level=True), None),
    "wordpiece_unk": (lambda c, n: train_wordpiece(c, n, unk_token="[UNK]"), "[UNK]"),
    "wordpiece": (lambda c, n: train_wordpiece(c, n), None),
    "unigram_unk": (lambda c, n: train_unigram(c, n, unk_token="<unk>"), "<unk>"),
    "unigram": (lambda c, n: train_unigram(c, n), None),
    "char_unk": (lambda c, n: train_char(c, vocab_size=n), "<unk>"),
    "char": (lambda c, n: train_char(c, vocab_size=n, special_tokens=(), unk_token=None), None),
}
BYTE_LEVEL_EXTRA = {"bpe_byte": 256}

CORPORA = {
    "empty_list": [],
    "one_empty_string": [""],
    "whitespace_only": ["  \n\t ", "\u3000\u00a0"],
    "empty_mapping": {},
    "zero_counts": {"a": 0, "b": 0},
    "one_character": ["a"],
    "one_character_mapping": {"a": 1},
    "one_character_repeated": ["a" * 500],
    "duplicate_lines": ["a"] * 200,
    "duplicate_words": ["hello hello hello"] * 50,
    "one_multibyte_character": ["\U0001f44d\U0001f3fd"],
    "one_control_character": ["\x00"],
}
EMPTY = {"empty_list", "one_empty_string", "empty_mapping", "zero_counts"}
VOCAB_SIZE = 40


def _texts(corpus) -> list[str]:
    return list(corpus) if not isinstance(corpus, dict) else [w for w, c in corpus.items() if c]


def check_valid_or_clear_error(trainer: str, corpus_name: str, tmp_path) -> str:
    """Train; return "error" or "trained" after checking whichever it is."""
    train, unk = TRAINERS[trainer]
    corpus = CORPORA[corpus_name]
    try:
        result = train(corpus, VOCAB_SIZE)
    except (ValueError, TypeError) as exc:
        assert isinstance(exc, TokcoreError) or isinstance(exc, WrongTypeError), \
            f"{type(exc).__name__} is not a tokcore error: {exc}"
        message = str(exc).lower()
        assert any(w in message for w in ("corpus", "empty", "no word", "no character", "nothing")), message
        return "error"
    tok = result.tokenizer
    assert isinstance(tok, tokcore.Tokenizer)
    assert 0 < tok.vocab_size or unk is None
    assert tok.vocab_size <= VOCAB_SIZE + BYTE_LEVEL_EXTRA.get(trainer, 0), tok.get_vocab()
    if unk is not None:
        assert tok.token_to_id(unk) is not None, f"the unknown token {unk!r} is missing"
    vocab = tok.get_vocab()
    assert sorted(vocab.values()) == list(range(len(vocab))), "ids are 0..n-1 without gaps"
    for text in _texts(corpus):
        r = tok.encode_result(text, return_offsets=True)
        assert validate_offsets_contract(r.tokenization_text, r.offsets)
        assert isinstance(tok.decode(r.ids), str)
    if unk is not None:
        # Unseen characters get the unknown id (Unigram shows the unknown text itself as the token, as HF).
        r = tok.encode_result("zq\u00e9 \u65e5", return_offsets=True)
        assert tok.token_to_id(unk) in r.ids, r.tokens
        assert validate_offsets_contract(r.tokenization_text, r.offsets)
    path = tmp_path / f"{trainer}-{corpus_name}.json"
    tok.save(path)
    again = tokcore.load(path)
    for text in _texts(corpus) + ["a", "hello"]:
        try:
            expected = tok.encode(text)
        except ConfigurationError:
            # No unknown token and a character outside the vocabulary: refused clearly, the same way after reload.
            with pytest.raises(ConfigurationError):
                again.encode(text)
            continue
        assert again.encode(text) == expected
    return "trained"


@pytest.mark.parametrize("corpus_name", list(CORPORA))
@pytest.mark.parametrize("trainer", list(TRAINERS))
def test_degenerate_corpus_gives_a_clear_error_or_a_valid_tiny_vocabulary(trainer, corpus_name, tmp_path):
    outcome = check_valid_or_clear_error(trainer, corpus_name, tmp_path)
    if corpus_name not in EMPTY:
        assert outcome == "trained", "a corpus with text must train"


@pytest.mark.parametrize("trainer", list(TRAINERS))
def test_one_character_corpus_learns_that_character(trainer):
    train, unk = TRAINERS[trainer]
    tok = train(["a"], VOCAB_SIZE).tokenizer
    r = tok.encode_result("a", add_special_tokens=False)
    assert unk not in r.tokens
    assert "".join(r.tokens).replace("\u2581", "").replace("</w>", "") in ("a", "Ġa".replace("Ġ", "")) or r.tokens == ["a"]


@pytest.mark.parametrize("trainer", [t for t in TRAINERS if not t.startswith("char")])
def test_duplicate_only_corpus_learns_the_repeated_word(trainer):
    train, unk = TRAINERS[trainer]
    tok = train(["hello hello hello"] * 50, VOCAB_SIZE).tokenizer
    tokens = tok.encode_result("hello", add_special_tokens=False).tokens
    assert unk not in tokens
    assert len(tokens) <= 2, tokens  # the word itself (plus a Metaspace marker for Unigram)


@pytest.mark.parametrize("trainer", list(TRAINERS))
def test_generator_corpus_is_read_once(trainer):
    train, _ = TRAINERS[trainer]
    reads = []

    def lines():
        for line in ["ab ab", "abc"]:
            reads.append(line)
            yield line

    tok = train(lines(), VOCAB_SIZE).tokenizer
    assert reads == ["ab ab", "abc"]
    assert tok.decode(tok.encode("ab", add_special_tokens=False)).replace(" ", "").replace("\u2581", "") == "ab"


@pytest.mark.parametrize("trainer", list(TRAINERS))
def test_lone_surrogate_in_corpus_is_refused_with_item_and_position(trainer):
    train, _ = TRAINERS[trainer]
    with pytest.raises(ValueError, match=r"corpus item 1.*at character 2\b"):
        train(["fine text", "ab\ud800cd"], VOCAB_SIZE)
    with pytest.raises(ValueError, match=r"at character 1\b"):
        train({"a\udfffb": 3}, VOCAB_SIZE)


@pytest.mark.parametrize("trainer", list(TRAINERS))
def test_wrong_corpus_types_are_type_errors(trainer):
    train, _ = TRAINERS[trainer]
    with pytest.raises(WrongTypeError, match="corpus"):
        train("one string, not a list", VOCAB_SIZE)
    with pytest.raises(WrongTypeError, match="item 1"):
        train(["a", 3], VOCAB_SIZE)
    with pytest.raises((WrongTypeError, ConfigurationError)):
        train({"a": "3"}, VOCAB_SIZE)


@pytest.mark.parametrize("trainer", list(TRAINERS))
def test_tiny_vocab_size_is_an_error_or_respected(trainer):
    train, unk = TRAINERS[trainer]
    for size in (0, -5):
        with pytest.raises((ConfigurationError, WrongTypeError)):
            train(["abc abc"], size - BYTE_LEVEL_EXTRA.get(trainer, 0))
    with pytest.raises(WrongTypeError):
        train(["abc"], 3.5)


def test_event_bpe_on_empty_and_one_event_sequences():
    from tokcore.extras.music_bpe import train_event_bpe

    with pytest.raises(ConfigurationError, match="no events"):
        train_event_bpe([], 5)
    with pytest.raises(ConfigurationError, match="no events"):
        train_event_bpe([[]], 5)
    bpe = train_event_bpe([["Bar"]] * 3, 5)
    assert bpe.decode(bpe.encode(["Bar", "Bar"])) == ["Bar", "Bar"]


def test_unigram_empty_corpus_and_empty_alphabet_say_so():
    with pytest.raises(ConfigurationError, match="no words"):
        train_unigram([], 10, unk_token="<unk>")
    with pytest.raises(ConfigurationError, match="limit_alphabet=0"):
        train_unigram(["abc abc"], 10, unk_token="<unk>", limit_alphabet=0)


def test_wordpiece_without_unknown_token_encodes_its_long_training_words():
    word = "ab" * 150  # past the 100-character limit of BERT's WordPiece
    tok = train_wordpiece([word, "ab"], 30).tokenizer
    assert tok.decode(tok.encode(word)) == word
    with_unk = train_wordpiece([word, "ab"], 30, unk_token="[UNK]").tokenizer
    assert with_unk.encode_result(word).tokens == ["[UNK]"]  # HF's limit kept when the unknown token exists
