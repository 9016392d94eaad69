"""The Unigram page's tables as plain data: loss per pruning round, what became of each seed piece,
the course's seed probabilities and the classroom "remove piece t -> new loss" table.

Left out: training runs themselves (``tokapp.training.runner``) and drawing (``tokapp.train_figures``).
"""

from __future__ import annotations

from typing import Mapping

from tokcore.trainers import unigram_loss, unigram_removal_losses

from .run_types import TrainRun


def unigram_curve(run: TrainRun) -> tuple[list[int], list[float]]:
    """(pieces, loss) after 0, 1, ... pruning rounds: the loss of the EM run on that vocabulary.

    Round 0 is the seed. Special tokens are not counted.
    """
    steps, details = run.steps, run.result.details
    sizes = [details["seed_size"]] + [s.vocab_size for s in steps]
    losses = [s.loss for s in steps] + [details["final_loss"]]
    return sizes, losses


def seed_fates(run: TrainRun) -> list[dict]:
    """Every seed piece the run reports, with what happened to it (kept, pruned or dropped by EM in round r).

    After the last round, the last EM run may drop pieces and the trainer cuts the lowest-scored ones to the size
    asked for: both are listed (round = rounds + 1).
    """
    rows: dict[str, dict] = {}
    for r, s in enumerate(run.steps, 1):
        for p in s.dropped:
            rows.setdefault(p, {"piece": p, "fate": f"dropped by EM (round {r})", "round": r, "loss delta": None})
        for p, delta in s.removed_losses:
            rows.setdefault(p, {"piece": p, "fate": f"pruned in round {r}", "round": r, "loss delta": delta})
    details, last = run.result.details, len(run.steps) + 1
    for p in details.get("final_dropped", ()):
        rows.setdefault(p, {"piece": p, "fate": "dropped by the last EM run", "round": last, "loss delta": None})
    for p in details.get("trimmed", ()):
        rows.setdefault(p, {"piece": p, "fate": "cut to reach the vocabulary size", "round": last,
                            "loss delta": None})
    model = run.tokenizer.model
    specials = {t.content for t in run.tokenizer.added_tokens}
    for piece, score in model.vocab:
        if piece not in specials:
            rows.setdefault(piece, {"piece": piece, "fate": "kept", "round": None, "loss delta": None,
                                    "log p": score})
    return sorted(rows.values(), key=lambda r: (r["round"] is None, r["round"] or 0, -len(r["piece"]), r["piece"]))


def course_seed_probs(words: Mapping[str, int]) -> dict[str, float]:
    """The course's seed: the strict substrings of the words (single characters included), each with its
    frequency over the whole corpus (whole words count too), as probabilities.

    ``round(course_seed_probs({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5})["hug"], 6) == 0.071429``
    """
    pieces = {w[i:j] for w in words for i in range(len(w)) for j in range(i + 1, len(w) + 1)
              if j - i < len(w) or len(w) == 1}
    freqs: dict[str, int] = dict.fromkeys(sorted(pieces, key=lambda p: (len(p), p)), 0)
    for w, c in words.items():
        for i in range(len(w)):
            for j in range(i + 1, len(w) + 1):
                if w[i:j] in freqs:
                    freqs[w[i:j]] += c
    total = sum(freqs.values())
    return {p: f / total for p, f in freqs.items()}


def course_seed_fits(words: Mapping[str, int], limit: int) -> bool:
    """Whether the course's seed (``course_seed_probs``) has at most ``limit`` pieces, found without
    enumerating them all: a corpus of one 10,000-character word would have fifty million.

    ``course_seed_fits({"hug": 1}, 5) is True`` (h, u, g, hu, ug); ``course_seed_fits({"hugs": 1}, 5) is False``.
    """
    seen: set[str] = set()
    for w in words:
        for i in range(len(w)):
            for j in range(i + 1, len(w) + 1):
                if j - i < len(w) or len(w) == 1:
                    seen.add(w[i:j])
                    if len(seen) > limit:
                        return False
    return True


def removal_table(probs: Mapping[str, float], words: Mapping[str, int]) -> tuple[float, list[dict]]:
    """The classroom table: (loss now, rows "remove piece t -> new loss" sorted by the increase).

    Single characters are listed too; removing one usually makes a word impossible (infinite loss).
    """
    base = unigram_loss(probs, words)
    rows = [{"piece": p, "P(piece)": probs[p], "loss without it": loss, "increase": loss - base}
            for p, loss in unigram_removal_losses(probs, words).items()]
    rows.sort(key=lambda r: (r["increase"], -r["P(piece)"], r["piece"]))
    return base, rows


def first_piece(tokenizer, word: str) -> str:
    """What the model sees for ``word``: its first pre-tokenized piece (``"▁hug"`` under Metaspace)."""
    pre = tokenizer.pre_tokenizer
    pieces = pre.pre_tokenize_str(word) if pre is not None else [(word, (0, len(word)))]
    return pieces[0][0] if pieces else ""
