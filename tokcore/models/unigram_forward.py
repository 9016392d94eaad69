"""Viterbi's forward pass of ``Unigram`` (HF tokenizers' ``encode_optimized``) and the tries it walks.

One best path's last node per end position, filled left to right: ``forward_gathered`` gathers each
end's candidates through a trie of the pieces' reversed texts (``end_trie``) and keeps the winner's
piece (length, id, text, UTF-8 length), which the word's columns are read from; ``forward_pushed``
pushes each start's candidates forward through a trie of the pieces (``piece_trie``), for a model
with a non-finite score. Of equal path scores the earliest start wins, as in HF tokenizers and
sentencepiece.
"""

from __future__ import annotations

from typing import Iterable

from .lattice import NEG_INF


def piece_trie(pieces: Iterable[tuple[str, int, float]], unk_id: int, unk_score: float,
               prefix_id: int = -1) -> dict[str, list]:
    """``(text, id, score)`` pieces as a character trie: char -> ``[children or None, id, score]``, the id
    ``prefix_id`` for a node that is only a longer piece's prefix (a later piece of the same text
    replaces an earlier one); at the root, a character without a one-character piece has the
    unknown node's id and score.
    ``piece_trie([("ab", 0, -1.0)], -1, -11.0) == {"a": [{"b": [None, 0, -1.0]}, -1, -11.0]}``."""
    root: dict[str, list] = {}
    for piece, id_, score in pieces:
        if not piece:
            continue
        level = root
        for ch in piece[:-1]:
            node = level.get(ch)
            if node is None:
                node = level[ch] = [None, prefix_id, 0.0]
            if node[0] is None:
                node[0] = {}
            level = node[0]
        node = level.get(piece[-1])
        if node is None:
            level[piece[-1]] = [None, id_, score]
        else:
            node[1], node[2] = id_, score
    for node in root.values():
        if node[1] < 0:
            node[1], node[2] = unk_id, unk_score
    return root



def forward_pushed(first, unknown: tuple, text: str) -> tuple[list[int], list[int]]:
    """Per end position of ``text``, the start and id of the best path's last node, the candidates
    pushed from each start through ``first`` (a ``piece_trie``'s ``get``); ``unknown`` is the
    ``(None, id, score)`` node of a character no piece starts with.
    ``forward_pushed({"a": [None, 1, -1.0]}.get, (None, 0, -11.0), "ab") == ([-1, 0, 1], [0, 1, 0])``."""
    # HF's encode_optimized: one best (score, start, id) per end position, filled left to
    # right; a later candidate replaces only a strictly better one (earliest start wins ties).
    # ``best`` starts at -inf so that the first candidate at a position usually wins on the
    # score test alone; ``from_[stop] < 0`` still takes any first one (a NaN or -inf score).
    n = len(text)
    best = [NEG_INF] * (n + 1)
    best[0] = 0.0
    from_ = [-1] * (n + 1)
    ids = [0] * (n + 1)
    for start, char in enumerate(text):
        base = best[start]
        stop = start + 1
        level, id_, score = first(char, unknown)  # the one-character piece, or the unknown node
        cand = score + base
        if cand > best[stop] or from_[stop] < 0:
            best[stop], from_[stop], ids[stop] = cand, start, id_
        while level and stop < n:  # longer pieces, one character further each step
            node = level.get(text[stop])
            stop += 1
            if node is None:
                break
            level, id_, score = node
            if id_ >= 0:
                cand = score + base
                if cand > best[stop] or from_[stop] < 0:
                    best[stop], from_[stop], ids[stop] = cand, start, id_
    return from_, ids


_NO_CHILDREN: dict = {}  # the children of an end-trie node that has none (never written)


def end_trie(pieces: Iterable[tuple[str, int, float]], unknown: tuple, unk_score: float) -> dict[str, list]:
    """``(text, id, score)`` pieces as a character trie of their reversed texts, each node
    ``[children, winner, score]``: a piece's winner is what ``forward_gathered`` keeps of it, ``(length,
    id, text, UTF-8 length)``; a node that is only a longer piece's part has ``None`` and scores -inf;
    at the root, a character without a one-character piece has ``unknown`` and ``unk_score``.
    ``end_trie([("ab", 0, -1.0)], (1, 9, None, None), -11.0)["b"] == [{"a": [{}, (2, 0, "ab", 2), -1.0]}, (1, 9, None, None), -11.0]``."""
    root: dict[str, list] = {}
    for piece, id_, score in pieces:
        if not piece:
            continue
        level = root
        for ch in piece[:0:-1]:  # the last character first, down to the second
            node = level.get(ch)
            if node is None:
                node = level[ch] = [_NO_CHILDREN, None, NEG_INF]
            if node[0] is _NO_CHILDREN:
                node[0] = {}
            level = node[0]
        node = level.get(piece[0])
        if node is None:
            node = level[piece[0]] = [_NO_CHILDREN, None, NEG_INF]
        node[1], node[2] = (len(piece), id_, piece, len(piece.encode("utf-8", "surrogatepass"))), score
    for node in root.values():
        if node[1] is None:
            node[1], node[2] = unknown, unk_score
    return root


def absent_char(texts: Iterable[str]) -> str:
    """A character that none of ``texts`` holds. ``absent_char(["\\x00b", "\\x01"]) == "\\x02"``."""
    letters = set().union(*texts)
    return next(c for c in map(chr, range(len(letters) + 1)) if c not in letters)


def forward_gathered(last, unknown: list, outside: str, text: str) -> list:
    """Per end position of ``text``, the winner (``end_trie``'s) of the best path's last node,
    the candidates gathered at each end through ``last`` (an ``end_trie``'s ``get``); ``unknown``
    is the root's node of a character no piece holds, ``outside`` a character no piece holds.
    Only for finite scores (a node that is no piece adds -inf and must lose).
    ``forward_gathered({"a": [{}, (1, 1, "a", 1), -1.0]}.get, [{}, (1, 0, None, None), -11.0], "\\x00", "ab")
    == [None, (1, 1, "a", 1), (1, 0, None, None)]``."""
    # HF's encode_optimized offers each end its candidates from each start in turn and keeps the
    # first of the strictly best scores (the earliest start). Gathered per end instead: the walk
    # back meets the starts from the latest, so the later of equal candidates (``>=``) wins; the
    # best score stays in a local and each position is written once. Most positions end no
    # longer piece (the first step back finds no node): one lookup, no loop.
    n = len(text)
    best = [0.0] * (n + 1)
    winners = [None] * (n + 1)
    before = outside + text  # before[start] is the character before start, and no piece's at 0
    prev = outside
    top = 0.0
    stop = 0
    for char in text:
        level, winner, score = last(char, unknown)  # the one-character piece, or the unknown node
        top += score  # ``top`` was best[stop]
        node = level.get(prev)
        prev = char
        if node is not None:  # longer pieces ending here, one character further back each step
            start = stop
            while True:
                start -= 1
                level, found, score = node
                cand = best[start] + score
                if cand >= top:
                    top, winner = cand, found
                node = level.get(before[start])
                if node is None:
                    break
        stop += 1
        best[stop] = top
        winners[stop] = winner
    return winners
