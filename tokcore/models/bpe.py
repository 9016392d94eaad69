"""``BPE``: byte-pair encoding of one pre-tokenized word by merge rank, as HF tokenizers' BPE model.

The same class serves character-level and byte-level BPE: for byte-level use, the ``ByteLevel``
pre-tokenizer hands the model words already mapped to GPT-2's byte-to-unicode alphabet.

Semantics follow HF's ``models/bpe`` (model and word): each character becomes a symbol
(``continuing_subword_prefix`` on every symbol but the first, ``end_of_word_suffix`` on the last);
a character outside the vocabulary becomes ``<0xNN>`` byte tokens (``byte_fallback``), else the
unknown token (``fuse_unk`` joins a run of them), else it is dropped. Then the adjacent pair of
lowest merge rank is merged, leftmost first, until no pair is mergeable. BPE-dropout skips each
candidate merge with probability ``dropout`` (seeded ``random.Random``). Words are cached unless
dropout is on; ``ignore_merges`` returns a word that is itself in the vocabulary as one token.

Deviations, on purpose: a dropped character (no unk token, no byte fallback) keeps its true place,
so later tokens still point at their own characters (HF shifts the offsets that follow it); an
unknown run followed by byte-fallback bytes stays in text order (HF emits the bytes first).

Left out: HF's priority-queue loop used for dropout and ``explain`` (``tokcore.models.bpe_queue``),
splitting text into words (pre-tokenizers), the byte alphabet (``tokcore.byte_level``), training
(``tokcore.trainers.bpe``).
"""

from __future__ import annotations

import random
from functools import partial
from itertools import chain, islice, repeat
from operator import add, itemgetter
from typing import Iterable

from ..core.components import VocabModel, register
from ..core.errors import ConfigurationError, WrongTypeError
from .bpe_queue import BpeExplainStep, explain_word, queue_merge
from .merge_table import MergeTable

DEFAULT_CACHE_CAPACITY = 10_000  # as HF: beyond this many words, new words are not cached
MAX_CACHED_LENGTH = 256  # as HF: longer words are not cached (they rarely repeat)
LONG_WORD = 48  # symbols; above this the priority queue beats the linear scan (measured crossover)
# The merge map gives a pair's rank, ``made`` (a list by rank) the merged id. Ranks and this
# "rank" above every real one stay below 2**30, one digit of a Python int: the merge loop's
# comparisons (min, index) and lookups then take the one-digit paths (2-digit rank << 32 | id
# values cost the loop ~19% more on the Llama-style cold pieces).
_NO_MERGE = (1 << 30) - 1
_MAX_ID = (1 << 32) - 1
_FIRST, _SECOND = itemgetter(0), itemgetter(1)
_UNRANKED = repeat(_NO_MERGE)  # endless and stateless: one for every map over a word's pairs


def parse_merges(merges: Iterable) -> list[tuple[str, str]]:
    """Merges as ``(left, right)`` pairs, from pairs or from HF's older ``"left right"`` strings.

    ``parse_merges(["a b", ["ab", "c"]]) == [("a", "b"), ("ab", "c")]``.
    """
    if isinstance(merges, (str, bytes)) or not isinstance(merges, Iterable):
        raise WrongTypeError(f"merges must be a list of [left, right] pairs, got {type(merges).__name__}")
    if isinstance(merges, list) and merges and set(map(type, merges)) <= {list, tuple} and set(map(len, merges)) == {2}:
        pairs = list(map(tuple, merges))
        if set(map(type, chain.from_iterable(pairs))) == {str}:  # the common [left, right] form, checked in C
            return pairs
    out = []
    for i, m in enumerate(merges):
        if isinstance(m, str):
            if m.startswith("#version"):
                continue
            parts = m.split(" ")
            if len(parts) != 2:
                raise ConfigurationError(f"merge #{i} {m!r} is not 'left right' (exactly one space)")
            out.append((parts[0], parts[1]))
        elif isinstance(m, (list, tuple)) and len(m) == 2 and all(isinstance(x, str) for x in m):
            out.append((m[0], m[1]))
        else:
            raise ConfigurationError(f"merge #{i} {m!r} is neither [left, right] nor 'left right'")
    return out


def _plain_merge_map(vocab: dict, merges) -> tuple[dict, list] | None:
    """The merge map (pair of ids -> rank) and the merged id by rank of ``[left, right]`` pairs whose
    sides and merged tokens are all in ``vocab``, built by passes in C; ``None`` for anything else,
    which ``BPE._build_merge_map`` then checks merge by merge. A freshly parsed file's lists lie
    scattered in memory, so each pass over them costs cache misses: this makes no object per merge
    but its key. ``_plain_merge_map({"a": 0, "b": 1, "ab": 2}, [["a", "b"]]) == ({(0, 1): 0}, [2])``.
    """
    if type(merges) not in (list, tuple) or not merges or not set(map(type, merges)) <= {list, tuple}:
        return None
    try:
        if set(map(len, merges)) != {2}:
            return None
        # itemgetter, not zip(*merges): no iterator per merge for the garbage collector to count.
        lefts, rights = list(map(_FIRST, merges)), list(map(_SECOND, merges))
        a_ids, b_ids = list(map(vocab.get, lefts)), list(map(vocab.get, rights))
        # operator.add, not str.__add__ (a slot wrapper called per merge): a side that is no string
        # fails the lookups or raises TypeError all the same.
        new_ids = list(map(vocab.get, map(add, lefts, rights)))
    except TypeError:  # a side that is not a string
        return None
    if None in a_ids or None in b_ids or None in new_ids or len(new_ids) >= _NO_MERGE:
        return None
    return dict(zip(zip(a_ids, b_ids), range(len(new_ids)))), new_ids


def byte_token(b: int) -> str:
    """The byte-fallback token of byte ``b``. ``byte_token(10) == "<0x0A>"``."""
    return f"<0x{b:02X}>"


def bytes_for_unknown(text: str, ids: list, byte_ids) -> list:
    """``ids`` (one per character of ``text``, ``None`` for a character that is not a token) with each
    ``None`` replaced by the ids of the character's UTF-8 bytes (``byte_ids``: id by byte value).
    ``bytes_for_unknown("aé", [7, None], range(256)) == [7, 195, 169]``."""
    out: list = []
    for ch, id_ in zip(text, ids):
        if id_ is None:
            out += map(byte_ids.__getitem__, ch.encode("utf-8", "surrogatepass"))
        else:
            out.append(id_)
    return out


@register("model")
class BPE(VocabModel):
    """Byte-pair encoding. ``BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")]).tokenize("ab") == [(2, "ab", 0, 2)]``."""

    def __init__(
        self,
        vocab: dict[str, int],
        merges: Iterable = (),
        *,
        unk_token: str | None = None,
        continuing_subword_prefix: str | None = None,
        end_of_word_suffix: str | None = None,
        fuse_unk: bool = False,
        byte_fallback: bool = False,
        dropout: float | None = None,
        ignore_merges: bool = False,
        seed: int | None = None,
        cache_capacity: int = DEFAULT_CACHE_CAPACITY,
    ):
        if not isinstance(vocab, dict):
            raise WrongTypeError(f"BPE vocab must be a dict token -> id, got {type(vocab).__name__}")
        # One pass over the types in C first; the per-entry loop only runs to name a bad entry.
        ids_ok = not vocab or (set(map(type, vocab.values())) == {int} and 0 <= min(vocab.values())
                               and max(vocab.values()) <= _MAX_ID)
        if not (ids_ok and set(map(type, vocab)) <= {str}):
            for tok, id_ in vocab.items():
                if not isinstance(tok, str) or isinstance(id_, bool) or not isinstance(id_, int) or not 0 <= id_ <= _MAX_ID:
                    raise ConfigurationError(f"vocab entry {tok!r}: {id_!r} must map a string to an int id in [0, 2**32)")
        if dropout is not None:
            if isinstance(dropout, bool) or not isinstance(dropout, (int, float)) or not 0.0 <= dropout <= 1.0:
                raise ConfigurationError(f"dropout must be a probability in [0, 1] or None, got {dropout!r}")
            dropout = float(dropout)
        for name, value in (("unk_token", unk_token), ("continuing_subword_prefix", continuing_subword_prefix),
                            ("end_of_word_suffix", end_of_word_suffix)):
            if value is not None and not isinstance(value, str):
                raise WrongTypeError(f"{name} must be a str or None, got {type(value).__name__}")
        self.vocab = dict(vocab)
        self.unk_token = unk_token
        self.continuing_subword_prefix = continuing_subword_prefix
        self.end_of_word_suffix = end_of_word_suffix
        self.fuse_unk = bool(fuse_unk)
        self.byte_fallback = bool(byte_fallback)
        self.dropout = dropout
        self.ignore_merges = bool(ignore_merges)
        self.seed = seed
        self.cache_capacity = int(cache_capacity)
        self._rng = random.Random(seed)
        self._inverse = {i: t for t, i in self.vocab.items()}
        self._merge_map, self._made = self._build_merge_map(merges)
        self._byte_ids = [self.vocab.get(byte_token(b)) for b in range(256)] if self.byte_fallback else None
        self._cache: dict[str, list] = {}
        # Without affixes a character's symbol is the character itself: one vocab lookup each.
        self._plain = self.continuing_subword_prefix is None and self.end_of_word_suffix is None
        self._vocab_get = self.vocab.get

    def _build_merge_map(self, merges: Iterable) -> tuple[dict[tuple[int, int], int], list[int]]:
        """(left id, right id) -> rank, and the new id by rank; a repeated pair keeps its last rank, as HF."""
        if type(merges) is MergeTable:  # built already, by an earlier load of the same file
            return merges.ranks, merges.made
        vocab = self.vocab
        prefix = self.continuing_subword_prefix or ""
        if not prefix:
            found = _plain_merge_map(vocab, merges)
            if found is not None:
                return found
        # Any other form, or a merge that does not fit: checked one by one, to name the bad one.
        merges = parse_merges(merges)
        if len(merges) >= _NO_MERGE:
            raise ConfigurationError(f"{len(merges)} merges: at most {_NO_MERGE - 1} are supported")
        out: dict[tuple[int, int], int] = {}
        made: list[int] = []
        for rank, (a, b) in enumerate(merges):
            a_id, b_id = vocab.get(a), vocab.get(b)
            if a_id is None or b_id is None:
                missing = a if a_id is None else b
                raise ConfigurationError(f"merge #{rank} ({a!r}, {b!r}): {missing!r} is not in the vocabulary; "
                                         "every merge side must be a vocabulary token")
            # The right side loses the continuing prefix in the merged token ("un" + "##able" -> "unable").
            merged = a + (b[len(prefix):] if prefix and b.startswith(prefix) else b)
            new_id = vocab.get(merged)
            if new_id is None:
                raise ConfigurationError(f"merge #{rank} ({a!r}, {b!r}): the merged token {merged!r} is not in "
                                         "the vocabulary; add it or remove the merge")
            out[(a_id, b_id)] = rank
            made.append(new_id)
        return out, made

    # ------------------------------------------------------------------ vocabulary
    @property
    def merges(self) -> list[tuple[str, str]]:
        """The merges in rank order, as ``(left, right)`` token pairs."""
        inv = self._inverse
        items = sorted(self._merge_map.items(), key=_SECOND)
        return [(inv[a], inv[b]) for (a, b), _ in items]

    def merge_rank(self, left: str, right: str) -> int | None:
        """Rank of the merge ``left + right`` (0 is applied first), or ``None``."""
        return self._merge_map.get((self.vocab.get(left), self.vocab.get(right)))

    def unknown_as_bytes(self):
        """``(text, ids) -> ids`` with each ``None`` (a character that is not a token) replaced by its
        UTF-8 bytes' fallback tokens (``bytes_for_unknown``), when every byte has one and no merge
        takes or makes one (each then stays a token of its own, one byte of the text); else ``None``."""
        byte_ids = self._byte_ids
        if not self.byte_fallback or None in byte_ids:
            return None
        inv = self._inverse
        if any(inv[i] != byte_token(b) for b, i in enumerate(byte_ids)):  # an id shared by two tokens
            return None
        merges = self._merge_map
        made = map(self._made.__getitem__, merges.values())
        if not set(byte_ids).isdisjoint(chain(chain.from_iterable(merges), made)):
            return None
        return partial(bytes_for_unknown, byte_ids=byte_ids)

    def clear_cache(self) -> None:
        self._cache.clear()

    def reseed(self, seed: int | None) -> None:
        """Restart the dropout random stream: the same seed gives the same segmentations again."""
        self.seed = seed
        self._rng = random.Random(seed)

    # ------------------------------------------------------------------ encoding
    def tokenize(self, text: str) -> list:
        """Tokens ``(id, token, start, stop)`` with character positions in ``text``.

        A byte-fallback token that is byte k of the n UTF-8 bytes of character c is
        ``(id, "<0xNN>", c, c + 1, (k, n))``.
        """
        cache = self._cache
        dropout = self.dropout
        if not dropout:
            hit = cache.get(text)
            if hit is not None:
                return list(hit)
        if not text:
            return []
        if self.ignore_merges:
            id_ = self.vocab.get(text)
            if id_ is not None:
                return [(id_, text, 0, len(text))]
        if self._plain and not dropout:
            ids = list(map(self._vocab_get, text))
            if None not in ids:
                # Each symbol's token is its own text here, so spans follow from token lengths.
                self._merge(ids, None)
                inv = self._inverse
                tokens = []
                start = 0
                for id_ in ids:
                    tok = inv[id_]
                    stop = start + len(tok)
                    tokens.append((id_, tok, start, stop))
                    start = stop
                if len(text) < MAX_CACHED_LENGTH and len(cache) < self.cache_capacity:
                    cache[text] = tuple(tokens)
                return tokens
        ids, pos, info = self._symbols(text)
        if dropout:
            queue_merge(ids, pos, self._merge_map, self._made, dropout, self._rng.random, None)
        else:
            self._merge(ids, pos)
        tokens = self._tokens(ids, pos, info, len(text))
        if not dropout and len(text) < MAX_CACHED_LENGTH and len(cache) < self.cache_capacity:
            cache[text] = tuple(tokens)
        return tokens

    def _symbols(self, word: str):
        """Initial symbol ids, the index of each symbol's first initial symbol, and their spans.

        The spans (``info``) is ``None`` when symbol i is exactly character i (the common case);
        otherwise one ``(char_start, char_stop, (k, n) or None)`` per initial symbol.
        """
        vget = self._vocab_get
        if self._plain:
            ids = list(map(vget, word))
            if None not in ids:
                return ids, list(range(len(ids))), None
        prefix, suffix = self.continuing_subword_prefix, self.end_of_word_suffix
        ids = []
        info = []
        unk = None  # pending [id, start, stop] of an unknown run
        last = len(word) - 1
        for i, ch in enumerate(word):
            s = ch
            if i and prefix is not None:
                s = prefix + s
            if i == last and suffix is not None:
                s = s + suffix
            id_ = vget(s)
            if id_ is not None:
                if unk is not None:
                    ids.append(unk[0])
                    info.append((unk[1], unk[2], None))
                    unk = None
                ids.append(id_)
                info.append((i, i + 1, None))
                continue
            if self.byte_fallback:
                raw = s.encode("utf-8", "surrogatepass")
                byte_ids = [self._byte_ids[b] for b in raw]
                if None not in byte_ids:
                    # HF leaves a pending unknown run to land after these bytes; we keep text order.
                    if unk is not None:
                        ids.append(unk[0])
                        info.append((unk[1], unk[2], None))
                        unk = None
                    n = len(raw)
                    for k, bid in enumerate(byte_ids):
                        ids.append(bid)
                        info.append((i, i + 1, (k, n)))
                    continue
            if self.unk_token is None:
                continue  # no unk token: the character is dropped, as HF does
            if unk is not None and self.fuse_unk:
                unk[2] = i + 1
                continue
            unk_id = vget(self.unk_token)
            if unk_id is None:
                raise ConfigurationError(
                    f"character {ch!r} is not in the BPE vocabulary and the unk_token {self.unk_token!r} is not "
                    "either; add the unknown token to the vocabulary (or enable byte_fallback)")
            if unk is not None:
                ids.append(unk[0])
                info.append((unk[1], unk[2], None))
            unk = [unk_id, i, i + 1]
        if unk is not None:
            ids.append(unk[0])
            info.append((unk[1], unk[2], None))
        return ids, list(range(len(ids))), info

    def _merge(self, ids: list[int], pos: list[int] | None) -> None:
        """Merge in place (``pos`` follows if given): lowest rank first, leftmost among equals (what HF's heap pops)."""
        n = len(ids)
        if n < 3:
            if n == 2:  # one pair: merged or not (a common short word, no loop to set up)
                rank = self._merge_map.get((ids[0], ids[1]))
                if rank is not None:
                    ids[0] = self._made[rank]
                    del ids[1]
                    if pos is not None:
                        del pos[1]
            return
        if n > LONG_WORD:
            # The scan below costs O(n) per merge; on long words the queue's O(log n) wins.
            queue_merge(ids, list(range(n)) if pos is None else pos, self._merge_map, self._made, None,
                        self._rng.random, None)
            return
        get = self._merge_map.get
        NO = _NO_MERGE
        ranks = list(map(get, zip(ids, islice(ids, 1, None)), _UNRANKED))
        best = min(ranks)
        if best == NO:
            return
        made = self._made
        index = ranks.index
        last = n - 2  # the last pair's index
        while True:
            i = index(best)
            new = made[best]
            ids[i] = new
            del ids[i + 1], ranks[i]
            if pos is not None:
                del pos[i + 1]
            # The merged symbol's new pairs: right (unless it is last), left (unless it is first).
            if i < last:
                ranks[i] = get((new, ids[i + 1]), NO)
                if i:
                    ranks[i - 1] = get((ids[i - 1], new), NO)
            elif i:
                ranks[i - 1] = get((ids[i - 1], new), NO)
            else:  # the one symbol left
                return
            last -= 1
            best = min(ranks)
            if best == NO:
                return

    def _tokens(self, ids: list[int], pos: list[int], info, length: int) -> list:
        inv = self._inverse
        if info is None:
            ends = pos[1:]
            ends.append(length)
            return [(i, inv[i], s, e) for i, s, e in zip(ids, pos, ends)]
        out = []
        last = len(pos) - 1
        n_init = len(info)
        for j, id_ in enumerate(ids):
            a = pos[j]
            b = (pos[j + 1] if j < last else n_init) - 1
            start, stop, sub = info[a]
            if a == b:
                out.append((id_, inv[id_], start, stop, sub) if sub is not None else (id_, inv[id_], start, stop))
            else:
                # Merged byte tokens cover the whole characters they touch.
                out.append((id_, inv[id_], start, info[b][1]))
        return out

    # ------------------------------------------------------------------ explaining
    def explain(self, word: str) -> list[BpeExplainStep]:
        """Why this split: the initial symbols, then each merge in the order applied, with its rank.

        ``[s.symbols for s in BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")]).explain("ab")] == [("a", "b"), ("ab",)]``.
        Dropout is not applied; with ``ignore_merges`` a word in the vocabulary is one step.
        """
        return explain_word(self, word)

    # ------------------------------------------------------------------ serialization
    def to_dict(self) -> dict:
        """HF's ``tokenizer.json`` model: options, vocab ordered by id, merges as ``[left, right]`` pairs."""
        return {
            "type": "BPE",
            "dropout": self.dropout,
            "unk_token": self.unk_token,
            "continuing_subword_prefix": self.continuing_subword_prefix,
            "end_of_word_suffix": self.end_of_word_suffix,
            "fuse_unk": self.fuse_unk,
            "byte_fallback": self.byte_fallback,
            "ignore_merges": self.ignore_merges,
            "vocab": dict(sorted(self.vocab.items(), key=lambda kv: kv[1])),
            "merges": [[a, b] for a, b in self.merges],
        }

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        if data.get("type", "BPE") != "BPE":
            raise ValueError(f"'type' is {data.get('type')!r}, expected 'BPE'")
        vocab = data.get("vocab")
        if not isinstance(vocab, dict):
            raise ValueError("'vocab' must be an object mapping token -> id")
        if "merges" not in data:
            raise ValueError("a BPE model needs 'merges' (a list of [left, right] pairs)")
        opts = {}
        for key in ("unk_token", "continuing_subword_prefix", "end_of_word_suffix", "dropout"):
            if data.get(key) is not None:
                opts[key] = data[key]
        for key in ("fuse_unk", "byte_fallback", "ignore_merges"):
            if data.get(key) is not None:
                if not isinstance(data[key], bool):
                    raise ValueError(f"{key!r} must be true or false, got {data[key]!r}")
                opts[key] = data[key]
        return cls(vocab, data["merges"], **opts)

    def __repr__(self) -> str:
        return (f"BPE(vocab_size={len(self.vocab)}, merges={len(self._merge_map)}, unk_token={self.unk_token!r}, "
                f"byte_fallback={self.byte_fallback}, dropout={self.dropout!r})")
