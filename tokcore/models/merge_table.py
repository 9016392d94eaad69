"""``MergeTable``: a BPE model's merges as already built, handed to ``BPE`` instead of token pairs.

``BPE`` turns ``[left, right]`` token pairs into a map of id pairs to ranks and a list of the
merged id by rank. A reader that holds those two already (``tokcore.loaders.parsed_cache``, which
kept them from an earlier load of the same file) passes them in a ``MergeTable`` and ``BPE`` takes
them as they are.

Left out: any check of the table against the vocabulary (its producer built it from one).
"""

from __future__ import annotations

__all__ = ["MergeTable"]


class MergeTable:
    """``ranks``: ``(left id, right id) -> rank``; ``made``: the merged id of each rank.
    ``MergeTable({(0, 1): 0}, [2]).made == [2]``."""

    __slots__ = ("made", "ranks")

    def __init__(self, ranks: dict, made: list):
        self.ranks, self.made = ranks, made

    def __len__(self) -> int:
        return len(self.made)
