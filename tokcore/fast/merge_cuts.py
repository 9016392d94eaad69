"""The word finder of a BPE that sees the whole text (no pre-tokenizer: Llama's, Gemma's files):
the text cut at every place no merge can span, so each piece merges alone as it would in the line
(``_merge_cut_words``), with the lines seen before kept by their cuts.
``tests/engine/test_safe_cuts.py``, ``test_llama_stand_in.py`` and ``test_llama_seen_lines.py`` pin it.

Left out: what a piece becomes (``tokcore.fast.entries``) and texts of a model that does not
merge (no merges: the line is one word).
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import chain, compress, islice, repeat
from operator import call, is_, not_

_NO_MERGE_AT = repeat(is_)  # the kind of a pair that no merge ends and starts (see _merge_cut_words)


def _merge_cut_words(merges, known, drops: bool = False):
    """Words of a model that sees the whole text (no pre-tokenizer) but gives the same tokens word
    by word: the text cut at every place that no merge ``(left, right)`` can ever span, i.e. where
    the text does not end with ``left`` just before the place and go on with ``right`` after it.

    Each BPE symbol is a substring of the text (the caller checks that no merge holds a byte or
    unknown token), so a merge across a place joins a symbol ending there with one starting
    there: with no ``(left, right)`` pair around the place, no merge ever joins the two sides,
    and each side is merged alone exactly as within the whole (the lowest rank of a side is the
    lowest rank of the whole among that side's pairs). ``known``: the characters that are tokens;
    a place between two unknown characters stays closed (``fuse_unk`` joins their run). ``drops``:
    the model drops an unknown character (no unknown token, no byte for it), which makes its
    neighbours adjacent symbols: a text with one is not cut.
    The adjacent character pair decides most places in one C pass; only pairs that end or start
    a longer merge side are checked against those merges.
    ``_merge_cut_words([("a", "b")], set("abc"))("abcab")[0] == ("ab", "c", "ab")``.
    """
    # A place's kind, read in one pass: ``closed`` (falsy: a one-character merge spans it), the
    # pair's spanning check, or (no merge ends and starts there) ``operator.is_``, which answers
    # False to ``(text, place)`` as a check that finds no merge does: the truthy kinds are the
    # places to check, and each one whose check finds nothing is a cut.
    closed = False
    kind: dict = {}
    for left, right in merges:
        if len(left) == 1 and len(right) == 1:
            kind[(left, right)] = closed
    for left, right in merges:
        key = (left[-1], right[0])
        if kind.get(key) is not closed:
            kind[key] = (*kind.get(key, ()), (left, right))
    # A pair of longer merge sides asks whether one of its merges fits around the place: one
    # ``re`` match of all of them (``_Spanning``, made on first use) instead of a loop.
    for key, pairs in kind.items():
        if pairs is not closed:
            kind[key] = _Spanning(pairs, key)
    # The pair pass reads every character: one outside Latin-1 is a new string each time it is
    # read (and hashed anew), so the most common such character of the merges (Llama's "▁") is
    # read as a Latin-1 one that no merge or token holds, in texts without that one.
    wide, narrow = _stand_in(merges, known)
    read_kind = {(a.replace(wide, narrow), b.replace(wide, narrow)): v for (a, b), v in kind.items()}
    kind_of, plain_kind_of = read_kind.get, kind.get
    for spanning in kind.values():
        if spanning is not closed:
            spanning.homes = ((kind, spanning.key), (read_kind, tuple(k.replace(wide, narrow) for k in spanning.key)))
    superset = frozenset(c.replace(wide, narrow) for c in known).issuperset
    plain_superset = frozenset(known).issuperset
    # Lines seen before (HF caches a pre-tokenizer-less line whole as its one word; this keeps
    # the cut instead): a warm line skips the pass below. Bounded by the characters kept, so a
    # paragraph is kept too while short lines never hold more than before; a huge line is not.
    seen: dict = {}
    room = [_SEEN_BUDGET]

    def words(text):
        got = seen.get(text)
        if got is not None:
            return got, None
        n = len(text)
        if n < 2:
            return (text,), None
        if narrow not in text:
            read = text.replace(wide, narrow)
            kinds, every_known = list(map(kind_of, zip(read, islice(read, 1, None)), _NO_MERGE_AT)), superset(read)
        else:
            kinds, every_known = list(map(plain_kind_of, zip(text, islice(text, 1, None)), _NO_MERGE_AT)), plain_superset(text)
        if every_known:
            # Every character is a token: a pair no merge ends and starts cuts, a pair of a
            # longer merge side cuts unless that merge fits around the place (the open places'
            # kinds are the truthy ones, in order).
            open_at = list(compress(range(1, n), kinds))
            cuts = list(compress(open_at, map(not_, map(call, filter(None, kinds), repeat(text), open_at))))
        elif drops:
            cuts = []
        else:
            cuts = []
            for c in compress(range(1, n), kinds):
                if text[c - 1] not in known and text[c] not in known:
                    continue
                if not kinds[c - 1](text, c):
                    cuts.append(c)
        found = tuple(map(text.__getitem__, map(slice, [0, *cuts], [*cuts, n]))) if cuts else (text,)
        if n <= _SEEN_LINE_CHARS and n <= room[0]:
            room[0] -= n
            seen[text] = found
        return found, None

    return words


class _Spanning:
    """Whether one of ``pairs`` (merges ``(left, right)`` whose sides meet in ``key``) fits around
    place ``c`` of a text: ``left`` ends there and ``right`` starts there. Called as
    ``spanning(text, c)``: a match object or ``None``. The first call compiles one ``re`` pattern
    of fixed-width look-behinds (a cold text meets few of the pairs) and puts its ``match`` in
    the finder's tables (``homes``) in place of this object, so later texts call it from C.
    ``_Spanning([("ab", "c")], ("b", "c"))("abc", 2) is not None``."""

    __slots__ = ("homes", "key", "match", "pairs")

    def __init__(self, pairs, key):
        self.pairs, self.key, self.match, self.homes = pairs, key, None, ()

    def __call__(self, text: str, c: int):
        match = self.match
        if match is None:
            match = self.match = re.compile("|".join(
                f"(?<={re.escape(left)}){re.escape(right)}" for left, right in self.pairs), re.DOTALL).match
            for table, key in self.homes:
                table[key] = match
        return match(text, c)


def _stand_in(merges, known) -> tuple[str, str]:
    """(the most common character outside Latin-1 in ``merges``' sides, a Latin-1 character in no
    merge and not in ``known``), or ``("", "")`` when there is no such pair.
    ``_stand_in([("a", "é▁"), ("▁", "b")], {"a", "b", "é", "▁"})[0] == "▁"``."""
    counts = Counter(chain.from_iterable(chain.from_iterable(merges)))  # counted in C
    free = next((chr(i) for i in range(256) if chr(i) not in counts and chr(i) not in known), None)
    wide = max((ch for ch in counts if ch > "\xff"), key=counts.__getitem__, default=None)
    return ("", "") if wide is None or free is None else (wide, free)


# Characters of the lines whose words _merge_cut_words keeps: what 10,000 lines of 256 kept
# before (HF keeps 10,000 words of under 256 bytes), now spent on lines of any length.
_SEEN_BUDGET = 10_000 * 256
_SEEN_LINE_CHARS = 2048  # longer lines are cut anew (a huge input is never kept alive)
