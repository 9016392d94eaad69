"""The sentencepiece Unigram exact pass's winners as ``backtrack``'s arrays, for tests that compare
its path with per-node listings."""

from __future__ import annotations


def exact_arrays(model, text: str) -> tuple[list[int], list[int]]:
    """``(from_, ids)`` of ``model._word_exact(text)``: per end position the start and id of the best
    path's last node (each winner's info starts with its length and id)."""
    infos = model._word_exact(text)[0]
    return [-1] + [stop - info[0] for stop, info in enumerate(infos[1:], 1)], [0] + [info[1] for info in infos[1:]]
