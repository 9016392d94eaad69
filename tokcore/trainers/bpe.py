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

Left out: the encoding algorithm (``tokcore.models.bpe``) and word counting (``trainers.base``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from heapq import heappop, heappush, heapreplace
from typing import Any, Iterable, Mapping, Optional

from ..errors import ConfigurationError, WrongTypeError
from .base import Progress, TrainResult, check_vocab_size, count_words, report

AUTO_TOP_PAIRS_MAX_WORDS = 5_000  # record_top_pairs="auto" records 10 pairs per step up to this many words
TIE_CAP = 20  # pairs tied with the k-th most frequent one are listed up to this many more


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
    """Train a BPE tokenizer. ``[s.merged for s in train_bpe({"hug": 10, "pug": 5}, 7).steps] == ["ug", "hug"]``.

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
        from ..byte_level import BYTE_TO_UNICODE, text_to_chars

        alphabet_extra.update(BYTE_TO_UNICODE.values())
        if pre_tokenizer is None and not isinstance(corpus, Mapping):
            from ..pre_tokenizers import ByteLevel

            pre_tokenizer = ByteLevel(add_prefix_space=False)
    elif pre_tokenizer is None and not isinstance(corpus, Mapping):
        from ..pre_tokenizers import Whitespace

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
    counts: list[int] = []
    for w, c in word_counts.items():
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
        counts.append(c)

    # Initial pair counts and where each pair occurs.
    pair_counts: dict[tuple[int, int], int] = {}
    where: dict[tuple[int, int], set[int]] = {}
    for wi, syms in enumerate(words):
        c = counts[wi]
        for pair in zip(syms, syms[1:]):
            pair_counts[pair] = pair_counts.get(pair, 0) + c
            s = where.get(pair)
            if s is None:
                where[pair] = {wi}
            else:
                s.add(wi)
    heap: list = []
    seq = 0
    for pair, pos in where.items():
        cnt = pair_counts[pair]
        if cnt > 0:
            heap.append((-cnt, pair, seq, pos))
            seq += 1
    heap.sort()  # a sorted list is a valid heap
    where = defaultdict(set)

    max_len = max_token_length if max_token_length is not None else float("inf")
    # Characters of the corpus each token stands for (affixes not counted), for max_token_length.
    lengths: list[int] = [len(t) for t in specials] + [1] * (len(id2w) - len(specials))
    steps: list[BpeStep] = []
    merges: list[tuple[str, str]] = []
    merged_pairs: set[tuple[int, int]] = set()
    top_pairs: list = []
    stop_reason = "no pair left"
    total = max(vocab_size - len(id2w), 1)
    report(progress, 0, total, "merging")
    while True:
        if len(id2w) >= vocab_size:
            stop_reason = "vocab_size reached"
            break
        if not heap:
            break
        negc, pair, _, pos = heappop(heap)
        cnt = pair_counts[pair]
        if -negc != cnt:
            heappush(heap, (-cnt, pair, seq, pos))
            seq += 1
            continue
        if cnt < 1:
            break
        if min_frequency > cnt:
            stop_reason = "min_frequency"
            break
        if top_k:
            top_pairs.append(_top_pairs(heap, pair, cnt, pair_counts, merged_pairs, top_k, id2w))
        a, b = pair
        left, right = id2w[a], id2w[b]
        rest = right[len(prefix):] if prefix is not None and right.startswith(prefix) else right
        new_token = left + rest
        new_id = w2id.get(new_token)
        if new_id is None:
            new_id = add(new_token)
            lengths.append(lengths[a] + lengths[b])
        merges.append((left, right))
        merged_pairs.add(pair)
        steps.append(BpeStep(left, right, new_token, cnt))
        new_len = lengths[new_id]
        # Rewrite the words this entry points at; adjust the neighbours' pair counts.
        for wi in pos:
            w = words[wi]
            n = len(w)
            if n < 2:
                continue
            c = counts[wi]
            i = 0
            while i < n - 1:
                if w[i] == a and w[i + 1] == b:
                    if i:
                        p = w[i - 1]
                        k = (p, a)
                        pair_counts[k] = pair_counts.get(k, 0) - c
                        if lengths[p] + new_len < max_len:
                            k = (p, new_id)
                            pair_counts[k] = pair_counts.get(k, 0) + c
                            where[k].add(wi)
                    w[i] = new_id
                    del w[i + 1]
                    n -= 1
                    if i < n - 1:
                        q = w[i + 1]
                        k = (b, q)
                        pair_counts[k] = pair_counts.get(k, 0) - c
                        if lengths[q] + new_len < max_len:
                            k = (new_id, q)
                            pair_counts[k] = pair_counts.get(k, 0) + c
                            where[k].add(wi)
                i += 1
        for k, s in where.items():
            cnt = pair_counts[k]
            if cnt > 0:
                heappush(heap, (-cnt, k, seq, s))
                seq += 1
        where = defaultdict(set)
        if progress is not None and len(steps) % 100 == 0:
            report(progress, len(steps), total, "merging")
    report(progress, len(steps), len(steps), "done")
    details["stop_reason"] = stop_reason
    if top_k:
        details["pair_counts_top"] = top_pairs
    return id2w, merges, steps, details


def _top_pairs(heap, pair, count, pair_counts, merged_pairs, k, id2w) -> list[tuple[str, str, int]]:
    """The k most frequent live pairs plus those tied with the k-th (up to ``TIE_CAP`` more), in merge order.

    Every live pair has a queue entry whose count is at least its current count, so walking the
    heap tree best-first (children after parents) can stop once entries fall below the k-th count,
    or once k + TIE_CAP pairs are known to beat every entry not yet seen. ``pair`` (just popped,
    about to be merged) is counted in by hand.
    """
    found = {pair: count}
    best = [count]  # min-heap of the k largest counts found
    pending = [-count]  # found counts not yet known to beat the walk's bound (max-heap)
    secured = 0
    aux = [(heap[0], 0)] if heap else []
    n = len(heap)
    while aux:
        entry, i = heappop(aux)
        bound = -entry[0]
        while pending and -pending[0] >= bound:
            heappop(pending)
            secured += 1
        if len(best) >= k and (bound < best[0] or secured >= k + TIE_CAP):
            break
        p = entry[1]
        if p not in found and p not in merged_pairs:
            c = pair_counts[p]
            if c > 0:
                found[p] = c
                heappush(pending, -c)
                if len(best) < k:
                    heappush(best, c)
                elif c > best[0]:
                    heapreplace(best, c)
        for j in (2 * i + 1, 2 * i + 2):
            if j < n:
                heappush(aux, (heap[j], j))
    kth = best[0]
    chosen = sorted((-c, p) for p, c in found.items() if c >= kth)[: k + TIE_CAP]
    return [(id2w[p[0]], id2w[p[1]], -negc) for negc, p in chosen]


def _build_tokenizer(id2w, merges, specials, *, byte_level, unk_token, prefix, suffix, pre_tokenizer):
    from ..added_tokens import AddedToken
    from ..models.bpe import BPE
    from ..tokenizer import Tokenizer

    vocab = {t: i for i, t in enumerate(id2w)}
    model = BPE(vocab, merges, unk_token=unk_token, continuing_subword_prefix=prefix, end_of_word_suffix=suffix)
    if byte_level:
        from ..decoders import ByteLevel as ByteLevelDecoder

        decoder = ByteLevelDecoder()
        if pre_tokenizer is None:
            from ..pre_tokenizers import ByteLevel

            pre_tokenizer = ByteLevel(add_prefix_space=False)
    elif suffix is not None:
        from ..decoders import BPEDecoder

        decoder = BPEDecoder(suffix=suffix)
    elif prefix is not None:
        # Word starts carry no prefix: the WordPiece decoder puts spaces there and drops the prefix.
        from ..decoders import WordPiece

        decoder = WordPiece(prefix=prefix, cleanup=False)
    else:
        from ..decoders import Fuse

        decoder = Fuse()
    if pre_tokenizer is None:
        from ..pre_tokenizers import Whitespace

        pre_tokenizer = Whitespace()
    added = [AddedToken(t, vocab[t], special=True, normalized=False) for t in specials]
    return Tokenizer(model, pre_tokenizer=pre_tokenizer, decoder=decoder, added_tokens=added, name="bpe")
