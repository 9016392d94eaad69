"""``train_bpe``: classical BPE training (characters or bytes), step by step, as HF's ``BpeTrainer``.

The vocabulary starts with the special tokens, then the alphabet sorted by code point (the 256
byte-level characters too when ``byte_level``), then the prefixed/suffixed variants of characters;
every merge adds the merged token. Each step merges the most frequent adjacent pair; equal counts
go to the pair of smaller ids (left id first), as HF's heap does. Pair counts are updated
incrementally: only words containing the merged pair are touched, and a heap with lazy
invalidation (an entry whose count is out of date is re-queued with the current count) finds the
next pair. Like HF, a queue entry carries the words where its pair appeared when it was queued,
and a merge rewrites only those words; this is what makes the merge sequence identical to HF's.

Documented differences from HF (both stem from HF's hash-map iteration order, which is not
deterministic): the prefixed/suffixed character variants get ids in first-seen word order, and
``limit_alphabet`` drops, among characters of equal count, those of lower code point first.

Left out: the encoding algorithm (``tokcore.models.bpe``), word counting (``trainers.base``) and the
merge loop itself (``trainers.bpe_merge``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional

from ..core.errors import ConfigurationError, WrongTypeError
from .base import Progress, TrainResult, check_vocab_size, count_words, report
from .bpe_merge import merge_words

AUTO_TOP_PAIRS_MAX_WORDS = 5_000  # record_top_pairs="auto" records 10 pairs per step up to this many words


@dataclass(frozen=True)
class BpeStep:
    """One merge: ``left + right -> merged``, done because the pair occurred ``count`` times."""

    left: str
    right: str
    merged: str
    count: int


def train_bpe(
    corpus: Iterable[str] | Mapping[str, int],
    vocab_size: int,
    *,
    byte_level: bool = False,
    special_tokens: Iterable[str] = (),
    min_frequency: int = 1,
    limit_alphabet: Optional[int] = None,
    initial_alphabet: Iterable[str] = (),
    continuing_subword_prefix: Optional[str] = None,
    end_of_word_suffix: Optional[str] = None,
    unk_token: Optional[str] = None,
    max_token_length: Optional[int] = None,
    pre_tokenizer: Any = None,
    normalizer: Any = None,
    progress: Optional[Progress] = None,
    record_top_pairs: int | str | None = "auto",
) -> TrainResult:
    """Train a BPE tokenizer. ``[s.merged for s in train_bpe({"hug": 10, "pug": 5}, 6).steps] == ["ug", "hug"]``.

    ``vocab_size`` counts every token (specials, alphabet, merges). A mapping corpus is taken as
    words -> counts (with ``byte_level``, each word is mapped to the byte alphabet, not split).
    ``record_top_pairs=k`` stores, per step, the k most frequent pairs (ties at the k-th count
    included, up to 20 more) in ``details["pair_counts_top"]``; ``"auto"`` means 10 for corpora of
    at most 5,000 distinct words and off above (then training runs at full speed).

    The tokenizer: byte-level gets the ``ByteLevel`` pre-tokenizer (no prefix space) and decoder;
    otherwise the given pre-tokenizer (default ``Whitespace``) with the ``BPEDecoder`` when there is
    a suffix, the ``WordPiece`` decoder when there is a prefix, else ``Fuse``. Special tokens are
    added tokens (``special=True``); ``details`` holds ``alphabet``, ``stop_reason``, ``word_counts``
    (small corpora) and ``pair_counts_top``.
    """
    vocab_size = check_vocab_size(vocab_size)
    if isinstance(min_frequency, bool) or not isinstance(min_frequency, int) or min_frequency < 0:
        raise ConfigurationError(f"min_frequency must be a non-negative int, got {min_frequency!r}")
    if limit_alphabet is not None and (isinstance(limit_alphabet, bool) or not isinstance(limit_alphabet, int)
                                       or limit_alphabet < 0):
        raise ConfigurationError(f"limit_alphabet must be a non-negative int or None, got {limit_alphabet!r}")
    if max_token_length is not None and (not isinstance(max_token_length, int) or max_token_length < 1):
        raise ConfigurationError(f"max_token_length must be a positive int or None, got {max_token_length!r}")
    specials = _special_list(special_tokens, unk_token)
    alphabet_extra = _initial_alphabet(initial_alphabet)

    if byte_level:
        from ..text.byte_level import BYTE_TO_UNICODE, text_to_chars

        alphabet_extra.update(BYTE_TO_UNICODE.values())
        if pre_tokenizer is None and not isinstance(corpus, Mapping):
            from ..pre_tokenizers.standard import ByteLevel

            pre_tokenizer = ByteLevel(add_prefix_space=False)
    elif pre_tokenizer is None and not isinstance(corpus, Mapping):
        from ..pre_tokenizers.standard import Whitespace

        pre_tokenizer = Whitespace()

    report(progress, 0, 1, "counting words")
    word_counts = count_words(corpus, normalizer=normalizer, pre_tokenizer=pre_tokenizer)
    if byte_level and isinstance(corpus, Mapping):
        mapped: dict[str, int] = {}
        for w, c in word_counts.items():
            m = text_to_chars(w)
            mapped[m] = mapped.get(m, 0) + c
        word_counts = mapped
    if record_top_pairs == "auto":
        record_top_pairs = 10 if len(word_counts) <= AUTO_TOP_PAIRS_MAX_WORDS else 0
    elif record_top_pairs is None:
        record_top_pairs = 0
    elif isinstance(record_top_pairs, bool) or not isinstance(record_top_pairs, int) or record_top_pairs < 0:
        raise ConfigurationError(f"record_top_pairs must be a non-negative int, 'auto' or None, got {record_top_pairs!r}")

    core = _train(word_counts, vocab_size, specials, alphabet_extra, min_frequency, limit_alphabet,
                  continuing_subword_prefix, end_of_word_suffix, max_token_length, progress, record_top_pairs)
    id_to_word, merges, steps, details = core
    details["word_counts"] = word_counts if len(word_counts) <= 2_000 else None
    tokenizer = _build_tokenizer(id_to_word, merges, specials, byte_level=byte_level, unk_token=unk_token,
                                 prefix=continuing_subword_prefix, suffix=end_of_word_suffix,
                                 pre_tokenizer=pre_tokenizer)
    return TrainResult(tokenizer=tokenizer, steps=steps, details=details)


def _special_list(special_tokens: Iterable[str], unk_token: Optional[str]) -> list[str]:
    if isinstance(special_tokens, str):
        raise WrongTypeError("special_tokens must be a list of strings, not one string; wrap it in a list")
    out: list[str] = []
    for t in special_tokens:
        content = getattr(t, "content", t)
        if not isinstance(content, str) or not content:
            raise WrongTypeError(f"special tokens must be non-empty strings, got {t!r}")
        if content not in out:
            out.append(content)
    if unk_token is not None:
        if not isinstance(unk_token, str) or not unk_token:
            raise WrongTypeError(f"unk_token must be a non-empty string, got {unk_token!r}")
        if unk_token not in out:
            out.insert(0, unk_token)  # the unknown token is a special token, first unless placed by the caller
    return out


def _initial_alphabet(chars: Iterable[str]) -> set[str]:
    if isinstance(chars, str):
        return set(chars)
    out = set()
    for c in chars:
        if not isinstance(c, str) or not c:
            raise WrongTypeError(f"initial_alphabet items must be characters, got {c!r}")
        out.add(c[0])  # HF keeps the first character of each entry
    return out


def _train(word_counts, vocab_size, specials, alphabet_extra, min_frequency, limit_alphabet,
           prefix, suffix, max_token_length, progress, top_k):
    w2id: dict[str, int] = {}
    id2w: list[str] = []

    def add(token: str) -> int:
        id_ = w2id.get(token)
        if id_ is None:
            id_ = w2id[token] = len(id2w)
            id2w.append(token)
        return id_

    for t in specials:
        add(t)

    # Alphabet: characters by total count; the initial alphabet always counts as most frequent.
    if limit_alphabet is None:  # no counts needed: every character is kept
        kept = list(set("".join(word_counts)) | alphabet_extra)
    else:
        char_counts: dict[str, int] = {}
        for w, c in word_counts.items():
            for ch in w:
                char_counts[ch] = char_counts.get(ch, 0) + c
        for ch in alphabet_extra:
            char_counts[ch] = float("inf")  # type: ignore[assignment]
        kept = list(char_counts)
    if limit_alphabet is not None and len(kept) > limit_alphabet:
        kept.sort(key=lambda ch: (char_counts[ch], ch))
        kept = kept[len(kept) - limit_alphabet:]
    alphabet = set(kept)
    for ch in sorted(kept):
        add(ch)
    details: dict[str, Any] = {"alphabet": sorted(kept), "n_special": len(specials)}

    # Words as lists of symbol ids (characters outside the alphabet are left out, as HF does).
    words: list[list[int]] = []
    counts = list(word_counts.values())
    if prefix is None and suffix is None:
        ids = {ch: w2id[ch] for ch in alphabet}
        complete = limit_alphabet is None  # then every character of every word is in the alphabet
        for w in word_counts:
            words.append([ids[ch] for ch in w] if complete else [ids[ch] for ch in w if ch in ids])
    else:
        for w in word_counts:
            last = len(w) - 1
            syms = []
            for i, ch in enumerate(w):
                if ch not in alphabet:
                    continue
                s = ch
                if i and prefix is not None:
                    s = prefix + s
                if i == last and suffix is not None:
                    s = s + suffix
                syms.append(add(s))
            words.append(syms)

    # Characters of the corpus each token stands for (affixes not counted), for max_token_length.
    lengths: list[int] = [len(t) for t in specials] + [1] * (len(id2w) - len(specials))
    out = merge_words(words, counts, id2w, w2id, lengths, vocab_size=vocab_size, min_frequency=min_frequency,
                      prefix=prefix, max_token_length=max_token_length, progress=progress, top_k=top_k,
                      step_type=BpeStep)
    steps = out["steps"]
    report(progress, len(steps), len(steps), "done")
    details["stop_reason"] = out["stop_reason"]
    if top_k:
        details["pair_counts_top"] = out["top_pairs"]
    return id2w, out["merges"], steps, details


def _build_tokenizer(id2w, merges, specials, *, byte_level, unk_token, prefix, suffix, pre_tokenizer):
    from ..core.added_tokens import AddedToken
    from ..core.tokenizer import Tokenizer
    from ..models.bpe import BPE

    vocab = {t: i for i, t in enumerate(id2w)}
    model = BPE(vocab, merges, unk_token=unk_token, continuing_subword_prefix=prefix, end_of_word_suffix=suffix)
    if byte_level:
        from ..decoders.standard import ByteLevel as ByteLevelDecoder

        decoder = ByteLevelDecoder()
        if pre_tokenizer is None:
            from ..pre_tokenizers.standard import ByteLevel

            pre_tokenizer = ByteLevel(add_prefix_space=False)
    elif suffix is not None:
        from ..decoders.standard import BPEDecoder

        decoder = BPEDecoder(suffix=suffix)
    elif prefix is not None:
        # Word starts carry no prefix: the WordPiece decoder puts spaces there and drops the prefix.
        from ..decoders.standard import WordPiece

        decoder = WordPiece(prefix=prefix, cleanup=False)
    else:
        from ..decoders.standard import Fuse

        decoder = Fuse()
    if pre_tokenizer is None:
        from ..pre_tokenizers.standard import Whitespace

        pre_tokenizer = Whitespace()
    added = [AddedToken(t, vocab[t], special=True, normalized=False) for t in specials]
    return Tokenizer(model, pre_tokenizer=pre_tokenizer, decoder=decoder, added_tokens=added, name="bpe")
