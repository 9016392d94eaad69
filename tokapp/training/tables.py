"""The merge-based pages' tables as plain rows: merges so far, the candidate table before a merge,
WordPiece's scores, ties with the winner, and the tracked corpus words.

Left out: Unigram's tables (``tokapp.training.unigram_tables``) and drawing them (the pages).
"""

from __future__ import annotations

from .replay import TRACKED_WORDS
from .run_types import TrainRun


def merge_table(run: TrainRun, k: int) -> list[dict]:
    """The first ``k`` merges as rows for a table (BPE: count; WordPiece: score and both frequencies)."""
    rows = []
    for i, s in enumerate(run.steps[:k], 1):
        row = {"merge": i, "left": s.left, "right": s.right, "new token": s.merged, "count": s.count}
        if run.settings.family == "wordpiece":
            row.update({"f(left)": s.left_frequency, "f(right)": s.right_frequency, "score": s.score})
        rows.append(row)
    return rows


def top_pairs(run: TrainRun, k: int) -> list[tuple]:
    """The candidate table before merge ``k + 1`` (0-based ``k``), winner first; ``[]`` when not recorded.

    BPE rows are ``(left, right, count)``; WordPiece rows ``(left, right, count, f_left, f_right, score)``.
    """
    tables = candidate_tables(run)
    return list(tables[k]) if 0 <= k < len(tables) else []


def candidate_tables(run: TrainRun) -> list:
    """Every recorded candidate table, one per merge (``[]`` when the corpus was too big to record them)."""
    key = "pair_counts_top" if run.settings.family == "bpe" else "candidates"
    return list(run.result.details.get(key) or [])


def score_rows(run: TrainRun, k: int) -> list[dict]:
    """WordPiece's score table before merge ``k + 1``: count, both frequencies, ``score = f(ab) / (f(a) f(b))``."""
    rows = []
    for rank, (a, b, count, fa, fb, score) in enumerate(top_pairs(run, k), 1):
        rows.append({"rank": rank, "pair": f"{a} + {b}", "f(ab)": count, "f(a)": fa, "f(b)": fb,
                     "score": score, "score as fraction": f"{count}/({fa}×{fb})"})
    return rows


def ties_of(rows: list[tuple], value_index: int) -> list[tuple]:
    """Rows tied with the winner (the first row) on ``row[value_index]``, winner excluded.

    ``ties_of([("a", "b", 3), ("c", "d", 3), ("e", "f", 1)], 2) == [("c", "d", 3)]``
    """
    if not rows:
        return []
    best = rows[0][value_index]
    return [r for r in rows[1:] if r[value_index] == best]


def tracked_words(run: TrainRun, limit: int = TRACKED_WORDS) -> list[tuple[str, int]]:
    """The most frequent words (recorded by the replay), with counts."""
    if run.replay is None:
        return []
    return [(w, run.words[w]) for w in list(run.replay.history)[:limit]]


def early_stop_note(run: TrainRun) -> str | None:
    """Why a merge-based run learned fewer merges than its vocabulary size asked for, and what to change;
    ``None`` when it reached the size (or never could: the size control warns about that itself)."""
    reason = str(run.result.details.get("stop_reason", ""))
    n, size = len(run.steps), run.tokenizer.vocab_size
    if reason == "min_frequency" or reason.startswith("no pair seen"):
        return (f"Stopped after {n} merges with {size} tokens, short of the {run.settings.vocab_size} asked for: no "
                f"pair occurs {run.settings.min_frequency} times or more. Lower the minimum pair count to go on.")
    if reason == "no pair left" and size < run.settings.vocab_size:
        return (f"Stopped after {n} merges with {size} tokens, short of the {run.settings.vocab_size} asked for: "
                "every corpus word is a single token now. A larger corpus has more to merge.")
    return None
