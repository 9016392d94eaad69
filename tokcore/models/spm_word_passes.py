"""sentencepiece Unigram's passes over one word, as ``SentencePieceUnigram`` caches and replays them.

``_word_exact`` is the forward pass in double precision (with each decision's margin), and
``_new_entry`` turns it into the word's cache entry: the path, the running scores between which
sentencepiece's float32 path is this one, the rounding error its nodes add, and the columns.
``_word_f32`` is sentencepiece's own float32 pass from a running score (where an entry does not
hold), ``_replay`` the float32 running score after cached words. The rules they follow are in
``tokcore.models.sentencepiece_unigram``'s docstring.
"""

from __future__ import annotations

import struct
from itertools import accumulate, chain, repeat

from .unigram import _MISSING, backtrack, segments

_F32 = struct.Struct("<f")
_REBASE = 1e5  # sentencepiece restarts the running score from a position scoring beyond +-_REBASE
_U = 2.0**-24  # float32's unit roundoff
_WORD_CACHE = 50_000  # distinct words kept; words of _MAX_CACHED_CHARS or more are never kept
_MAX_CACHED_CHARS = 256
_INF, _NEG_INF = float("inf"), float("-inf")


def f32(x: float) -> float:
    """``x`` rounded to the nearest float32. ``f32(0.1) == 0.10000000149011612``."""
    try:
        return _F32.unpack(_F32.pack(x))[0]
    except OverflowError:  # beyond float32's range: sentencepiece's float would hold an infinity
        return float("inf") if x > 0 else float("-inf")


def f32_all(values: list[float]) -> list[float]:
    """``[f32(x) for x in values]``, packed in one go. ``f32_all([0.1, 1e39]) == [f32(0.1), float("inf")]``."""
    try:
        return list(struct.unpack(f"<{len(values)}f", struct.pack(f"<{len(values)}f", *values)))
    except OverflowError:
        return [f32(x) for x in values]


_NO_COLUMNS = (None, None, None)


def entry_path(entry: tuple) -> tuple:
    """A word entry's path (``path_stops``'s tuple): kept whole by the general entry, else made from its
    tokens' stops and ids, each token that is a fused run of unknown nodes (its index from the end
    listed first in the entry; ``None`` for none) with id ``None``.
    ``entry_path((None, 0.0, 0.0, 0.0, 0.0, (7, 8), ("a", "bc"), (1, 2))) == (1, 7, 3, 8)``;
    ``entry_path(((-1,), 0.0, 0.0, 0.0, 0.0, (7, 0), ("a", "bc"), (1, 2))) == (1, 7, 3, None)``."""
    path = entry[0]
    if path is None:
        return tuple(chain.from_iterable(zip(accumulate(map(len, entry[6])), entry[5])))
    if path and path[0] < 0:  # a path's first stop is positive
        ids = list(entry[5])
        for run in path:
            ids[run] = None
        return tuple(chain.from_iterable(zip(accumulate(map(len, entry[6])), ids)))
    return path


_LEAF: dict = {}  # the children of an end-trie node that has none (never written)


def end_nodes(trie: dict[str, list], unknown: tuple) -> dict[str, list]:
    """``trie`` (``unigram.piece_trie``'s, of the pieces' reversed texts, the unknown id ``None``) with
    each node's id replaced by what the exact pass keeps of its winner, ``(length, id, text, UTF-8
    length)`` of its piece (``unknown`` at a root node no one-character piece holds), the score of a
    node that is no piece, only part of a longer one (id ``_MISSING``), set to -inf (a finite best
    score plus -inf wins nothing, so the pass needs no test) and ``_LEAF`` for no children.
    ``end_nodes({"b": [{"a": [None, 0, -1.0]}, None, -9.0]}, ())["b"][0]["a"] == [_LEAF, (2, 0, "ab", 2), -1.0]``."""
    levels = [(trie, "")]
    while levels:
        level, tail = levels.pop()
        for char, node in level.items():
            piece = char + tail  # one character further back
            children, id_ = node[0], node[1]
            if id_ is None:
                node[1] = unknown
            elif id_ == _MISSING:
                node[1], node[2] = None, _NEG_INF
            else:
                node[1] = (len(piece), id_, piece, len(piece.encode("utf-8", "surrogatepass")))
            if children:
                levels.append((children, piece))
            else:
                node[0] = _LEAF
    return trie


def path_stops(infos: list, text: str, fused: tuple | None = None) -> tuple[tuple, list[str]]:
    """The best path over ``text`` from the exact pass's winners (``infos[stop]`` starts with the
    node's length and id) as one flat tuple, each segment's stop then id (a cached word keeps one
    object for the cyclic collector to look at, not one per segment), and the segments' texts, cut
    on the same walk. With ``fused`` (the unknown node's info, when no piece has its id) each run of
    unknown nodes is one segment with id ``None``, one node per character.
    ``path_stops([None, (1, 7), (1, 8)], "ab") == ((1, 7, 2, 8), ["a", "b"])``; with ``u = (1, 0)``,
    ``path_stops([None, (1, 3), u, u], "▁xy", u) == ((1, 3, 3, None), ["▁", "xy"])``."""
    out = []
    texts = []
    stop = len(text)
    while stop > 0:
        info = infos[stop]
        start = stop - info[0]
        id_ = info[1]
        if info is fused:
            while start and infos[start] is fused:
                start -= 1
            id_ = None
        out.append(id_)
        out.append(stop)
        texts.append(text[start:stop])
        stop = start
    out.reverse()
    texts.reverse()
    return tuple(out), texts


class SentencePieceWordPasses:
    """The word passes of ``SentencePieceUnigram`` (which holds the tables they read: its piece trie
    and prefix map, float32 scores, rounding bounds and word cache)."""

    def _new_entry(self, word: str) -> tuple:
        """A word's cache entry, kept in the word cache (short words, while it has room): its exact
        path (``path_stops``; where the columns make it, ``None`` or its fused runs' places, see
        ``entry_path``); the running
        scores ``(low, high)`` (exclusive, less the drift) between which sentencepiece's float32
        path is this one; the word's score; the rounding error its nodes add to the running score;
        its ids, token texts and their UTF-8 lengths (``_columns``; three ``None`` for byte tokens),
        not nested.

        Two conditions make the range. The decisions stand when the narrowest margin is wider than
        the rounding: ``margin > 4 (L + 1) u (|running| + (L + 1) magnitude)`` for ``L = len(word)``,
        solved for ``|running|`` once per word rather than per occurrence. No position the word
        extends from reaches _REBASE (where sentencepiece would restart the running score)."""
        if not self._finite:  # never holds (so not kept): found again in float32 wherever it stands
            return (), _INF, _NEG_INF, 0.0, 0.0, *_NO_COLUMNS
        infos, margin, score, lowest, highest = self._word_exact(word)
        n = len(word)
        k = n + 1.0
        limit = margin / (4.0 * k * _U) - k * self._magnitude
        edge = _REBASE - k * self._step_error
        low = -edge - lowest  # (two conditions, not max and min: no call per word)
        if low < -limit:
            low = -limit
        high = edge - highest
        if high > limit:
            high = limit
        # All tuples (no list), few of them: the cyclic collector stops walking a kept entry after
        # one look, where 20,000 kept lists made each full collection of a cold pass walk them
        # again; and each object a cold pass keeps brings the next collection nearer.
        unknown = self._fused_unknown
        if unknown is None:
            stops, texts = path_stops(infos, word, self._unknown_node[1] if self._fused_marker is not None else None)
            ids = stops[1::2]
            nodes = len(ids) if None not in ids else len(word) - sum([len(t) - 1 for t, i in zip(texts, ids) if i is not None])
            entry = stops, low, high, score, nodes * self._step_error, *(self._columns(word, stops, texts) or _NO_COLUMNS)
        else:
            # Every piece has one id and unknown runs are fused: the columns in one walk back over
            # the winners (a piece's (length, id, text, UTF-8 length)), each run of unknown nodes
            # one token (its text's id if a piece spells it, else the unknown id), one node per
            # character. Three lists reversed beat one list of the winners unzipped (zip(*path)).
            ids = []
            tokens = []
            lens = []
            runs = 0  # unknown nodes past each run's first
            at = None  # each run's token as an index from the end
            stop = n
            while stop:
                info = infos[stop]
                if info is unknown:
                    start = stop - 1
                    while start and infos[start] is unknown:
                        start -= 1
                    piece = word[start:stop]
                    runs += stop - start - 1
                    if at is None:
                        at = []
                    at.append(~len(ids))  # ids[~k] is the k-th token from the end once reversed
                    ids.append(self._ids.get(piece, self.unk_id))
                    tokens.append(piece)
                    lens.append(len(piece.encode("utf-8", "surrogatepass")))
                    stop = start
                else:
                    length, id_, piece, size = info
                    ids.append(id_)
                    tokens.append(piece)
                    lens.append(size)
                    stop -= length
            ids.reverse()
            tokens.reverse()
            lens.reverse()
            # The path differs from the columns only where a fused run takes id None: its place
            # is kept (entry_path makes the path), not a second walk (path_stops).
            stops = tuple(at) if at is not None else None
            entry = stops, low, high, score, (len(ids) + runs) * self._step_error, tuple(ids), tuple(tokens), tuple(lens)
        cache = self._words
        if n < _MAX_CACHED_CHARS and len(cache) < _WORD_CACHE:
            cache[word] = entry
        return entry

    def _replay(self, base: float, runs: list[tuple], start: int) -> float:
        """The float32 running score after the segments of ``runs[start:]``, node by node as
        sentencepiece stores it."""
        scores, unk = self._sp_scores, self.unk_score
        for k in range(start, len(runs)):
            path = entry_path(runs[k])
            for start_, stop, id_ in segments(path) if None in path else zip(repeat(0), path[::2], path[1::2]):
                for _node in range(stop - start_ if id_ is None else 1):  # a run: one unknown node per character
                    base = f32(scores.get(id_, unk) + base)
        return base

    def _word_exact(self, text: str) -> tuple[list, float, float, float, float]:
        """The forward pass in double precision from 0 over a non-empty text: per end position the
        best path's last node (its ``end_nodes`` info, which starts with its length and id), the
        narrowest margin of any decision (0 for a tie), the score, and the lowest and highest best
        score at a position extended from (0 included), for finite scores (``_new_entry`` asks for
        no other).

        The candidates ending at a position are its pieces (a walk back through ``_end_trie``) and,
        only where no one-character piece ends, the unknown node (at the trie's root): the same
        candidates as sentencepiece's, which offers them from each start in turn and keeps the
        first of equal scores, so of equal candidates the earliest start wins here too."""
        # Gathered per end position (not pushed from each start): the best and second scores stay
        # in locals while the walk goes back, each position is written once, and the best score
        # of the position before is the last one found. A node that is no piece adds -inf, which
        # wins nothing. Most positions end no longer piece (the first step back finds no node):
        # they skip the second score and the margin.
        ends = self._ends
        last = (ends if ends is not None else self._end_trie()).get
        unknown = self._unknown_node  # a character no piece consists of
        neg_inf = _NEG_INF
        n = len(text)
        best = [0.0] * (n + 1)
        infos = [None] * (n + 1)
        before = self._no_piece_char + text  # before[start] is the character before start, and no piece's at 0
        prev = before[0]
        margin = _INF  # position 0 has no candidate at all
        top = 0.0
        stop = 0
        for char in text:
            level, top_info, score = last(char, unknown)  # the one-character piece, or the unknown node
            top += score  # ``top`` was best[stop]
            node = level.get(prev)
            prev = char
            if node is not None:  # longer pieces ending here, one character further back each step
                second = neg_inf
                start = stop
                while True:
                    start -= 1
                    level, info, score = node
                    cand = best[start] + score
                    if cand >= top:  # an earlier start wins a tie
                        second = top
                        top, top_info = cand, info
                    elif cand > second:
                        second = cand
                    node = level.get(before[start])
                    if node is None:
                        break
                if top - second < margin:
                    margin = top - second
            stop += 1
            best[stop] = top
            infos[stop] = top_info
        score = best.pop()
        # With no positive score every best score is at most best[0], 0.0: max needs no look.
        return infos, margin, score, min(best), max(best) if self._some_positive else 0.0

    def _word_f32(self, text: str, base: float) -> tuple[list, float]:
        """Segments as sentencepiece finds them from running score ``base``, and the score at the
        end (after any restart of the running score, module docstring).

        Candidates as in ``_word_exact``; every sum is a float32 sum compared in float32."""
        get = self._prefix_map().get
        scores = self._sp_scores
        unk_score, unk = self.unk_score, self._unk_marker
        n = len(text)
        best = [0.0] * (n + 1)
        best[0] = base
        from_ = [-1] * (n + 1)
        ids = [0] * (n + 1)
        for start in range(n):
            here = best[start]
            if here < -_REBASE or here > _REBASE:
                # Positions past ``start`` reached so far lie within the longest piece of it.
                for k in range(start, min(n, start + self._longest) + 1):
                    if k == start or from_[k] >= 0:
                        best[k] = f32(best[k] - here)
                here = 0.0
            stop = start + 1
            id_ = get(text[start])
            if id_ is None or id_ < 0:  # no one-character piece: the unknown node (never user-defined)
                cand = f32(unk_score + here)
                if from_[stop] < 0 or cand > best[stop]:
                    best[stop], from_[stop], ids[stop] = cand, start, unk
                if id_ is None:
                    continue
            while True:
                if id_ >= 0:
                    cand = f32(scores[id_] + here)
                    if from_[stop] < 0 or cand > best[stop]:
                        best[stop], from_[stop], ids[stop] = cand, start, id_
                stop += 1
                if stop > n:
                    break
                id_ = get(text[start:stop])
                if id_ is None:
                    break
        return backtrack(from_, ids, n), best[n]
