"""``RankBPE``: BPE whose merge order is a priority per *merged token*, as tiktoken and sentencepiece run it.

tiktoken merges, at each step, the adjacent pair whose concatenation has the lowest rank;
sentencepiece's BPE merges the pair whose concatenation has the highest score. Both break ties
by the leftmost pair. That is one algorithm with ``rank = position in priority order``; HF's
``BPE`` instead ranks *pairs* from a merges list, which is equivalent for well-formed files
but not by construction. ``to_hf_dict`` derives that merges list for ``save_hf``.

Left out: dropout and continuing-subword prefixes (neither format has them), and
sentencepiece's re-segmentation of ``UNUSED`` pieces.
"""

from __future__ import annotations

import heapq
import re
from itertools import accumulate, repeat
from operator import add

from ..core.components import VocabModel, register
from ..core.errors import ConfigurationError
from .sentencepiece_bpe_ids import CACHE_CAPACITY, id_tables, word_ids
from .unigram import utf8_lengths

MAX_CACHED_LENGTH = 256  # characters; as the BPE model, longer pieces are not cached


_NO_RANK = float("inf")
# Ranks (and tokens); above it word_columns merges without cuts and sizes tokens by their text
# (_pair_table: 0.6 ms for a 1,000-piece .model, on the cold pass's first word).
PAIR_TABLE_MAX = 16_384
SCAN_MAX = 48  # symbols; a word up to this long merges by rescanning its pairs, a longer one by a heap


def rank_merge(symbols, rank_of, unranked=_NO_RANK) -> list[str]:
    """Merge adjacent symbols by lowest rank of their concatenation, leftmost first, until none is ranked.

    ``rank_merge(list("abc"), {"ab": 0, "abc": 1}.get) == ["abc"]``. ``rank_of(s, default)``
    answers as ``dict.get``; ``unranked`` is above every rank. Short words rescan their pairs'
    ranks (``min`` and ``index`` run in C; tiktoken does the same), long ones keep a heap.
    """
    n = len(symbols)
    if n < 2:
        return list(symbols)
    if n <= SCAN_MAX:
        return _scan_merge(list(symbols), rank_of, unranked)
    return _heap_merge(symbols, rank_of)


def _scan_merge(parts: list[str], rank_of, unranked=_NO_RANK) -> list[str]:
    """``rank_merge`` by rescanning: the lowest rank, its leftmost pair, merged; the two pairs
    around it ranked again. ``rank_of(pair, unranked)`` answers ``unranked`` (above every rank)
    for a pair without a rank, as ``dict.get`` does: one call per pair and no ``None`` test (and
    with int ranks an int ``unranked`` compares faster than ``inf``).
    ``_scan_merge(list("aab"), {"aa": 1, "ab": 0}.get) == ["a", "ab"]``."""
    return _merge_ranked(parts, list(map(rank_of, map(add, parts, parts[1:]), repeat(unranked))), rank_of, unranked)


def _merge_ranked(parts: list[str], ranks: list, rank_of, unranked) -> list[str]:
    """``_scan_merge`` from the ranks of ``parts``' pairs, already looked up (``ranks[i]`` is
    ``parts[i] + parts[i + 1]``'s). ``_merge_ranked(list("aab"), [1, 0], {"aa": 1, "ab": 0}.get, 2) == ["a", "ab"]``."""
    while ranks:
        low = min(ranks)
        if low == unranked:
            break
        i = ranks.index(low)
        parts[i] += parts.pop(i + 1)
        del ranks[i]
        if i:
            ranks[i - 1] = rank_of(parts[i - 1] + parts[i], unranked)
        if i < len(ranks):
            ranks[i] = rank_of(parts[i] + parts[i + 1], unranked)
    return parts


def _cut_merge(text: str, ranks: list, cut: int, rank_of, unranked, segments: dict) -> list[str]:
    """``rank_merge(text)`` for a text cut where ``ranks`` (its pairs' ranks) holds ``cut``: two
    characters that no ranked text holds side by side, so no merge ever joins the parts around
    them and each piece between two cuts merges on its own (kept in ``segments``, per piece, but
    for long ones: as the word caches, a long piece rarely repeats).
    ``_cut_merge("abxab", [0, -1, -1, 0], -1, {"ab": 0}.get, 1, {}) == ["ab", "x", "ab"]``."""
    ranks.append(cut)  # the text's end
    n = len(text)
    parts: list[str] = []
    start = 0
    while start < n:
        stop = ranks.index(cut, start) + 1
        if stop - start == 1:
            parts.append(text[start])
        else:
            piece = text[start:stop]
            got = segments.get(piece)
            if got is None:
                if stop - start > SCAN_MAX:
                    got = rank_merge(piece, rank_of, unranked)
                else:
                    got = _merge_ranked(list(piece), ranks[start:stop - 1], rank_of, unranked)
                got = tuple(got)
                if stop - start < MAX_CACHED_LENGTH and len(segments) < CACHE_CAPACITY:
                    segments[piece] = got
            parts += got
        start = stop
    return parts


def _heap_merge(symbols: list[str], rank_of) -> list[str]:
    """``rank_merge`` with a heap of candidate pairs (stale ones skipped): a long word's way."""
    n = len(symbols)
    # Symbols are identified by their start index; nxt/prv form a linked list.
    sym = list(symbols)
    nxt = list(range(1, n + 1))
    prv = list(range(-1, n - 1))
    alive = [True] * n
    heap: list[tuple[int, int, int, int]] = []

    def push(left: int) -> None:
        right = nxt[left]
        if right >= n:
            return
        r = rank_of(sym[left] + sym[right])
        if r is not None:
            heapq.heappush(heap, (r, left, right, len(sym[right])))

    for i in range(n - 1):
        push(i)
    while heap:
        _, left, right, right_len = heapq.heappop(heap)
        if not alive[left] or nxt[left] != right or not alive[right] or len(sym[right]) != right_len:
            continue
        sym[left] += sym[right]
        alive[right] = False
        nxt[left] = nxt[right]
        if nxt[right] < n:
            prv[nxt[right]] = left
        if prv[left] >= 0:
            push(prv[left])
        push(left)
    return [sym[i] for i in range(n) if alive[i]]


def _runs(ids: list, parts: list[str]):
    """``(None, [parts...])`` per run of parts without an id, ``(id, part)`` for the others.
    ``list(_runs([1, None, None], ["a", "x", "y"])) == [(1, "a"), (None, ["x", "y"])]``."""
    run: list[str] = []
    for id_, part in zip(ids, parts):
        if id_ is None:
            run.append(part)
            continue
        if run:
            yield None, run
            run = []
        yield id_, part
    if run:
        yield None, run


def _strings(value) -> list[str]:
    """``value`` checked to be a list of strings. ``_strings(["a"]) == ["a"]``."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigurationError("'atoms' must be a list of strings (pieces that never merge)")
    return value


def _below(ranks: dict[str, int], limit: int):
    """A rank lookup that ignores ranks at or above ``limit`` (how a token's own split is found)."""

    def rank_of(s: str, unranked=None):
        r = ranks.get(s)
        return r if r is not None and r < limit else unranked

    return rank_of


@register("model")
class RankBPE(VocabModel):
    """BPE by merged-token rank (tiktoken / sentencepiece BPE semantics).

    ``RankBPE({"a": 0, "b": 1, "ab": 2}).tokenize("ab") == [(2, "ab", 0, 2)]``. ``ranks`` defaults to
    the ids; ``ignore_merges`` first looks the whole piece up (tiktoken's shortcut); unknown
    characters become ``<0xNN>`` byte tokens with ``byte_fallback``, else ``unk_token``. A piece
    equal to one of ``atoms`` (sentencepiece's user-defined symbols) is one token, never merged.
    """

    def __init__(self, vocab: dict[str, int], *, ranks: dict[str, int] | None = None, unk_token: str | None = None,
                 byte_fallback: bool = False, ignore_merges: bool = False, fuse_unk: bool = False,
                 unk_keeps_text: bool = False, atoms=()):
        if not isinstance(vocab, dict) or not vocab:
            raise ConfigurationError("RankBPE needs a non-empty vocab dict token -> id")
        self.vocab = dict(vocab)
        self.ranks = dict(ranks) if ranks is not None else None
        self.unk_token = unk_token
        self.byte_fallback = bool(byte_fallback)
        self.ignore_merges = bool(ignore_merges)
        self.fuse_unk = bool(fuse_unk)
        # sentencepiece reports an unknown token as its own text (id of the unknown piece).
        self.unk_keeps_text = bool(unk_keeps_text)
        if unk_token is not None and unk_token not in self.vocab:
            raise ConfigurationError(f"RankBPE unk_token {unk_token!r} is not in the vocabulary")
        self.atoms = sorted(a for a in set(atoms) if a in self.vocab)
        self._atoms = frozenset(self.atoms)
        self._rank = self.ranks if self.ranks is not None else self.vocab
        # Above every rank: "no rank" for _scan_merge (an int when the ranks are ints).
        self._unranked = max(self._rank.values(), default=0) + 1
        self._inverse = {i: t for t, i in self.vocab.items()}
        self._cache: dict[str, list] = {}
        self._columns: dict[str, tuple] = {}  # word_columns per text
        self._segments: dict[str, tuple] = {}  # _cut_merge's pieces, merged
        self._pairs: tuple | None = None  # _pair_table()
        self._ids_of: tuple | bool | None = None  # _id_tables()
        self._id_segments: dict[str, tuple] = {}  # sentencepiece_bpe_ids.word_ids's pieces, merged
        self._letter_set: frozenset | None = None
        self._letter_runs = None

    # ------------------------------------------------------------------ encoding
    def _word(self, text: str) -> list:
        vocab = self.vocab
        if (self.ignore_merges and text in vocab) or text in self._atoms:
            return [(vocab[text], text, 0, len(text))]
        parts = rank_merge(text, self._rank.get, self._unranked)
        ids = list(map(vocab.get, parts))
        if None not in ids:  # every symbol a token (always so without unknown characters)
            stops = list(accumulate(map(len, parts)))
            return list(zip(ids, parts, [0, *stops[:-1]], stops))
        out = []
        pos = 0
        unk_from = -1  # where a run of unknown symbols being fused started (its text is cut once, at its end)
        keeps = self.unk_keeps_text
        for s in parts:
            n = len(s)
            id_ = vocab.get(s)
            if id_ is None and not (self.byte_fallback and all(f"<0x{b:02X}>" in vocab for b in s.encode("utf-8"))):
                if self.unk_token is None:
                    raise ConfigurationError(
                        f"{s!r} is not in the RankBPE vocabulary and there is no unk_token or byte fallback; "
                        "this tokenizer cannot encode that text"
                    )
                if not self.fuse_unk:
                    out.append((vocab[self.unk_token], s if keeps else self.unk_token, pos, pos + n))
                elif unk_from < 0:
                    unk_from = pos
                pos += n
                continue
            if unk_from >= 0:
                out.append((vocab[self.unk_token], text[unk_from:pos] if keeps else self.unk_token, unk_from, pos))
                unk_from = -1
            if id_ is not None:
                out.append((id_, s, pos, pos + n))
            else:
                # An unknown symbol is always one character (merges only make known tokens).
                data = s.encode("utf-8")
                for k, b in enumerate(data):
                    tok = f"<0x{b:02X}>"
                    out.append((vocab[tok], tok, pos, pos + 1, (k, len(data))))
            pos += n
        if unk_from >= 0:
            out.append((vocab[self.unk_token], text[unk_from:pos] if keeps else self.unk_token, unk_from, pos))
        return out

    def word_columns(self, text: str) -> tuple[tuple, tuple, tuple] | None:
        """``_word(text)``'s ids, token texts and their UTF-8 lengths without its 4-tuples, or ``None``
        where tokens are not slices of the text (byte fallback, an unknown token that is not its
        text) or a character is unknown without an unknown token (``_word`` says why). Kept per
        text: a .model's first word and a later one give the model the same text ("▁word").

        ``RankBPE({"<unk>": 0, "a": 1, "é": 2, "aé": 3}, unk_token="<unk>", fuse_unk=True, unk_keeps_text=True)``
        gives ``((3, 0), ("aé", "xy"), (3, 2))`` for ``"aéxy"``.
        """
        got = self._columns.get(text)
        if got is not None:
            return got
        vocab = self.vocab
        if not text or (self.ignore_merges and text in vocab) or text in self._atoms:
            return None
        tables = self._ids_of if self._ids_of is not None else self._id_tables()
        if tables and len(text) <= SCAN_MAX:  # a small model: merged over ids (sentencepiece_bpe_ids)
            char_id, text_of, size_of = tables[0], tables[3], tables[4]
            try:
                ids = list(map(char_id, text))
            except KeyError:  # a character that is no token alone: the text merge below
                pass
            else:
                ids = word_ids(text, ids, tables, self._unranked, self._id_segments)
                got = ids if type(ids) is tuple else tuple(ids)
                got = got, tuple(map(text_of, got)), tuple(map(size_of, got))
                if len(self._columns) < CACHE_CAPACITY:
                    self._columns[text] = got
                return got
        if (self.fuse_unk and self.unk_keeps_text and not self.byte_fallback and self.unk_token is not None
                and not (self._letter_set or self._letters).issuperset(text)):  # sentencepiece's unknown text: one token, its own text
            ids, parts = self._inert_split(text)
            got = self._unknown_columns(text, list(map(vocab.get, parts)) if ids is None else ids, parts)
        else:
            table, missing, cut, sizes = self._pairs or self._pair_table()
            segments = self._segments
            parts = segments.get(text)  # met before as a piece of a cut text
            if parts is None:
                rank_of, unranked = self._rank.get, self._unranked
                ranks = list(map(table.get, map(add, text, text[1:]), repeat(missing)))
                if cut in ranks:
                    parts = _cut_merge(text, ranks, cut, rank_of, unranked, segments)
                else:
                    parts = tuple(rank_merge(text, rank_of, unranked) if len(text) > SCAN_MAX
                                  else _merge_ranked(list(text), ranks, rank_of, unranked))
                    if len(text) < MAX_CACHED_LENGTH and len(segments) < CACHE_CAPACITY:  # a later text's piece
                        segments[text] = parts
            ids = tuple(map(vocab.get, parts))
            if None not in ids and sizes is not None:  # every part a token, its size from its id
                got = ids, tuple(parts), tuple(map(sizes.__getitem__, ids))
            else:
                got = self._unknown_columns(text, list(ids), parts)
                if got is None:
                    return None
        if len(text) < MAX_CACHED_LENGTH and len(self._columns) < CACHE_CAPACITY:
            self._columns[text] = got
        return got

    def _unknown_columns(self, text: str, ids: list, parts: list[str]) -> tuple | None:
        """``word_columns`` for merged ``parts`` some of which may have no id (``None``)."""
        if None in ids:
            if self.byte_fallback or self.unk_token is None or not self.unk_keeps_text:
                return None
            unk = self.vocab[self.unk_token]
            if self.fuse_unk:  # a run of unknown symbols is one token
                runs = [(unk, "".join(group)) if id_ is None else (id_, group) for id_, group in _runs(ids, parts)]
                ids, parts = [r[0] for r in runs], [r[1] for r in runs]
            else:
                ids = [unk if id_ is None else id_ for id_ in ids]
        return tuple(ids), tuple(parts), utf8_lengths(text, parts)

    def _id_tables(self) -> tuple | bool:
        """``sentencepiece_bpe_ids.id_tables`` for this model, built on first use; ``False`` where
        they do not apply (no ``sizes``: too many ranks or sparse ids; a ranked text that is no token)."""
        table, _missing, cut, sizes = self._pairs or self._pair_table()
        got = sizes is not None and id_tables(self.vocab, self._inverse, self._rank, table, self._letters, sizes, cut)
        self._ids_of = got or False
        return self._ids_of

    def _pair_table(self) -> tuple[dict, int, int, list | None]:
        """``(table, missing, cut, sizes)``, built on first use. ``table`` maps two characters to
        their rank, or to ``_unranked`` where only a longer ranked text holds them, and ``missing``
        is ``cut`` (below every rank): no merge ever joins across two characters it stands for
        (``_cut_merge``). With more ranks than ``PAIR_TABLE_MAX`` the table is the ranks themselves
        and ``missing`` is ``_unranked`` (no cuts: listing the pairs would cost a cold pass more
        than it saves). ``sizes[id]`` is the token's UTF-8 length (``None`` where ids are not one
        per token, are sparse, or are more than ``PAIR_TABLE_MAX``)."""
        ranks, unranked = self._rank, self._unranked
        cut = min(0, min(ranks.values(), default=0)) - 1
        if len(ranks) > PAIR_TABLE_MAX:
            table, missing = ranks, unranked
        else:
            table = dict.fromkeys({text[i:i + 2] for text in ranks for i in range(len(text) - 1)}, unranked)
            table.update((text, r) for text, r in ranks.items() if len(text) == 2)
            missing = cut
        sizes = None
        inverse = self._inverse
        if (len(inverse) == len(self.vocab) <= PAIR_TABLE_MAX
                and all(type(i) is int and 0 <= i <= 2 * len(inverse) + 256 for i in inverse)):
            sizes = [0] * (max(inverse) + 1)
            for i, token in inverse.items():
                sizes[i] = len(token.encode("utf-8", "surrogatepass"))
        self._pairs = table, missing, cut, sizes
        return self._pairs

    @property
    def _letters(self) -> frozenset:
        """Every character of a token or a ranked text (built on first use): any other one never
        merges and has no id of its own."""
        letters = self._letter_set
        if letters is None:
            letters = self._letter_set = frozenset("".join(self.vocab)).union(*self._rank)
        return letters

    def _inert_split(self, text: str) -> tuple[list | None, list[str]]:
        """``rank_merge(text)`` with each run of characters outside ``_letters`` as one part (they
        never merge, so the runs between them merge on their own, kept as ``_cut_merge``'s pieces,
        and a fused unknown token is the run's text), and the parts' ids: the unknown id for those
        runs, ``None`` for the ids when a merged part has none (``word_columns`` then fuses as ``_word`` does).
        ``_inert_split("xa")`` is ``([0, 1], ["x", "a"])`` with "x" outside, "a" id 1, "<unk>" id 0."""
        ids: list | None = []
        parts: list[str] = []
        vocab, rank_of, unranked, letters = self.vocab, self._rank.get, self._unranked, self._letter_set
        segments = self._segments
        unk = vocab[self.unk_token]
        for run in self._runs_rx().findall(text):
            if run[0] not in letters:
                parts.append(run)
                ids.append(unk)
                continue
            if len(run) == 1:
                merged = (run,)
            else:
                merged = segments.get(run)
                if merged is None:
                    merged = tuple(rank_merge(run, rank_of, unranked))
                    if len(run) < MAX_CACHED_LENGTH and len(segments) < CACHE_CAPACITY:
                        segments[run] = merged
            parts += merged
            ids += map(vocab.get, merged)
        return (None if None in ids else ids), parts

    def _runs_rx(self):
        """Runs of ``_letters`` and runs of other characters, as one pattern (built on first use)."""
        rx = self._letter_runs
        if rx is None:
            cls = "".join(map(re.escape, sorted(self._letters)))
            rx = self._letter_runs = re.compile(f"[{cls}]+|[^{cls}]+" if cls else "(?s).+")
        return rx

    def tokenize(self, text: str):
        got = self._cache.get(text)
        if got is None:
            got = self._word(text)
            # Long pieces rarely repeat; caching them would keep every huge input alive. Kept as
            # a tuple: the cyclic collector stops walking it after one look (a list it walks at
            # every full collection, and a cold pass keeps tens of thousands).
            if len(text) < MAX_CACHED_LENGTH and len(self._cache) < CACHE_CAPACITY:
                self._cache[text] = tuple(got)
        return list(got)

    # ------------------------------------------------------------------ serialization
    def to_dict(self) -> dict:
        out = {"type": "RankBPE", "vocab": dict(self.vocab), "unk_token": self.unk_token,
               "byte_fallback": self.byte_fallback, "ignore_merges": self.ignore_merges, "fuse_unk": self.fuse_unk,
               "unk_keeps_text": self.unk_keeps_text}
        if self.ranks is not None:
            out["ranks"] = dict(self.ranks)
        if self.atoms:
            out["atoms"] = list(self.atoms)
        return out

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        vocab = data["vocab"]
        if not isinstance(vocab, dict) or not all(isinstance(k, str) and isinstance(v, int) for k, v in vocab.items()):
            raise ValueError("'vocab' must map strings to integer ids")
        ranks = data.get("ranks")
        if ranks is not None and (not isinstance(ranks, dict) or not all(isinstance(v, int) for v in ranks.values())):
            raise ValueError("'ranks' must map strings to integer ranks")
        return cls(vocab, ranks=ranks, unk_token=data.get("unk_token"), byte_fallback=bool(data.get("byte_fallback")),
                   ignore_merges=bool(data.get("ignore_merges")), fuse_unk=bool(data.get("fuse_unk")),
                   unk_keeps_text=bool(data.get("unk_keeps_text")), atoms=_strings(data.get("atoms") or []))

    def merges(self) -> list[tuple[str, str]]:
        """The HF merges list equivalent to these ranks: each ranked token split as the ranks below it split it.

        ``RankBPE({"a": 0, "b": 1, "ab": 2}).merges() == [("a", "b")]``.
        """
        out = []
        for token, r in sorted(self._rank.items(), key=lambda kv: kv[1]):
            if len(token) < 2 or token not in self.vocab:
                continue
            parts = rank_merge(list(token), _below(self._rank, r))
            if len(parts) == 2:
                out.append((parts[0], parts[1]))
        return out

    def to_hf_dict(self) -> dict:
        return {
            "type": "BPE", "dropout": None, "unk_token": self.unk_token, "continuing_subword_prefix": None,
            "end_of_word_suffix": None, "fuse_unk": self.fuse_unk, "byte_fallback": self.byte_fallback,
            "ignore_merges": self.ignore_merges, "vocab": dict(self.vocab), "merges": [list(m) for m in self.merges()],
        }
