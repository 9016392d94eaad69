"""``RankBPE``'s merge over token ids, for a model as small as a sentencepiece BPE ``.model`` (up to
``rank_bpe.PAIR_TABLE_MAX`` ranks): a word's new-word work without a string per pair.

The merge by text (``rank_bpe._merge_ranked``) joins two parts' texts to look their rank up, which
makes, hashes and drops a string per pair looked at, and keeps a new string per token. Here every
pair of tokens whose texts joined make a ranked text is listed once per model (``id_tables``:
each split of each ranked text into two tokens), so a word's parts are ids, a pair's rank is two
list and dict reads on ints, the merged part's id is read the same way, and the tokens' texts
are the vocabulary's own. Pairs of single characters keep the text merge's cut mark (two
characters no ranked text holds side by side: ``rank_bpe._cut_merge``). It applies when every
ranked text longer than one character is a token and the ids are dense (``RankBPE._pair_table``'s
``sizes``); a word holding a letter that is no token alone goes the text way.
"""

from __future__ import annotations

from itertools import repeat

CACHE_CAPACITY = 100_000  # pieces kept per model (RankBPE's caches too)
_NO_PAIRS: dict = {}  # the right-hand tokens of a token that starts no ranked pair (never written)


def id_tables(vocab: dict[str, int], inverse: dict[int, str], ranks: dict[str, int], pair_table: dict[str, int],
              letters, sizes: list[int], cut: int) -> tuple | None:
    """``(char_id, rows, made, text_of, size_of, row_of, cuts, cut)`` for ``word_ids``, or ``None`` when a
    ranked text is no token. ``rows[a][b]`` is the rank of token ``a``'s text joined to ``b``'s
    (``pair_table``'s value, the cut mark or "unranked", for two single characters), ``made[a][b]``
    the joined token's id; ``char_id``, ``text_of`` and ``size_of`` read (as ``__getitem__``) each
    letter's id where it is a token alone, each id's text and its UTF-8 length (``sizes``, one per id),
    ``row_of`` each id's row and ``cuts`` the ``cut`` mark (below every rank) over and over.
    ``id_tables({"a": 0, "b": 1, "ab": 2}, {0: "a", 1: "b", 2: "ab"}, {"ab": 0}, {"ab": 0}, "ab", [1, 1, 2], -1)[1][0] == {1: 0}``."""
    get = vocab.get
    size = len(sizes)
    rows: list = [_NO_PAIRS] * size
    made: list = [_NO_PAIRS] * size
    for text, rank in ranks.items():
        if len(text) < 2:
            continue
        joined = get(text)
        if joined is None:
            return None
        for k in range(1, len(text)):
            left = get(text[:k])
            if left is None:
                continue
            right = get(text[k:])
            if right is None:
                continue
            if rows[left] is _NO_PAIRS:
                rows[left], made[left] = {}, {}
            rows[left][right] = rank
            made[left][right] = joined
    for pair, rank in pair_table.items():  # two characters: their rank, or that a longer ranked text holds them
        left, right = get(pair[0]), get(pair[1])
        if left is not None and right is not None:
            if rows[left] is _NO_PAIRS:
                rows[left], made[left] = {}, {}
            rows[left].setdefault(right, rank)
    char_ids = {c: get(c) for c in letters if get(c) is not None}
    texts = [""] * size
    for i, token in inverse.items():
        texts[i] = token
    # Read per item or per word: bound once (a shared endless repeat of the cut mark is never used up).
    return char_ids.__getitem__, rows, made, texts.__getitem__, sizes.__getitem__, rows.__getitem__, repeat(cut), cut


def merge_ids(ids: list, ranks: list, rows: list, made: list, unranked: int) -> list:
    """``rank_bpe._merge_ranked`` over token ids: ``ranks[i]`` is the rank of the pair at ``i``
    (``rows``), the lowest merges first, leftmost of equals, into ``made``'s id.
    ``merge_ids([0, 1], [0], [{1: 0}, {}, {}], [{1: 2}, {}, {}], 1) == [2]``."""
    while ranks:
        low = min(ranks)
        if low == unranked:
            break
        i = ranks.index(low)
        ids[i] = made[ids[i]][ids.pop(i + 1)]
        del ranks[i]
        if i:
            ranks[i - 1] = rows[ids[i - 1]].get(ids[i], unranked)
        if i < len(ranks):
            ranks[i] = rows[ids[i]].get(ids[i + 1], unranked)
    return ids


def word_ids(text: str, ids: list, tables: tuple, unranked: int, segments: dict) -> list | tuple:
    """The merged ids of ``text`` from its characters' ``ids`` (``tables``: ``id_tables``'): where two
    characters stand that no ranked text holds side by side (their row gives the cut mark) the
    pieces between merge on their own, each kept in ``segments`` by its text (as a whole text
    without cuts is) while it holds fewer than ``CACHE_CAPACITY``; a kept piece is taken again. For
    texts up to ``rank_bpe.SCAN_MAX`` characters (longer ones merge by a heap, by text). With the
    tables of "a", "b", "ab" (ids 0, 1, 2; "ab" ranked 0, "ba" held by no ranked text):
    ``word_ids("abab", [0, 1, 0, 1], id_tables({"a": 0, "b": 1, "ab": 2}, {0: "a", 1: "b", 2: "ab"},
    {"ab": 0}, {"ab": 0}, "ab", [1, 1, 2], -1), 1, {}) == [2, 2]``."""
    _char_id, rows, made, _text_of, _size_of, row_of, cuts, cut = tables
    ranks = list(map(dict.get, map(row_of, ids), ids[1:], cuts))
    if cut not in ranks:
        if len(ids) < 2:
            return ids
        got = segments.get(text)
        if got is None:
            got = tuple(merge_ids(ids, ranks, rows, made, unranked))
            if len(segments) < CACHE_CAPACITY:
                segments[text] = got
        return got
    ranks.append(cut)  # the text's end
    n = len(text)
    out: list = []
    start = 0
    while start < n:
        stop = ranks.index(cut, start) + 1
        if stop - start == 1:
            out.append(ids[start])
        else:
            piece = text[start:stop]
            got = segments.get(piece)
            if got is None:
                got = tuple(merge_ids(ids[start:stop], ranks[start:stop - 1], rows, made, unranked))
                if len(segments) < CACHE_CAPACITY:
                    segments[piece] = got
            out += got
        start = stop
    return out
