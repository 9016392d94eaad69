"""Classroom mode as a pure state machine: the next training step is hidden, the learner guesses
it (the next merge, the token count of a sentence after it, or a piece the next pruning round
removes), then it is revealed and scored; ``advance`` moves on and hides the following step.

States are frozen: every transition returns a new ``Classroom``. A page keeps one in
``st.session_state`` and shows ``state.step`` merges done while ``not state.revealed``.

Left out: widgets (the pages) and what the right answer is (the page builds an ``Answer`` from
the training run).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

MODES = {
    "merge": "Guess the next merge (type the new token, or the pair like `h ug`)",
    "count": "Guess how many tokens the test sentence has after the next merge",
    "removed": "Guess a piece the next pruning round removes",
}


@dataclass(frozen=True)
class Answer:
    """What the hidden step is: ``accepted`` guesses (normalized), and how to show it once revealed."""

    accepted: frozenset
    shown: str
    number: int | None = None  # for "count": the exact number


@dataclass(frozen=True)
class Classroom:
    mode: str = "merge"
    step: int = 0  # steps already visible; the hidden one is step + 1
    total: int = 0  # steps in the run; nothing to guess once step == total
    revealed: bool = False
    guess: str = ""
    correct: bool | None = None
    score: int = 0
    asked: int = 0

    @property
    def finished(self) -> bool:
        return self.step >= self.total

    @property
    def hidden_step(self) -> int | None:
        """The 1-based step the learner is guessing, or ``None`` when finished."""
        return None if self.finished else self.step + 1


def start(total: int, *, step: int = 0, mode: str = "merge") -> Classroom:
    """A fresh classroom at ``step`` (clamped to ``[0, total]``). ``start(7).hidden_step == 1``."""
    if mode not in MODES:
        raise ValueError(f"unknown classroom mode {mode!r}; choose one of {', '.join(MODES)}")
    return Classroom(mode=mode, step=max(0, min(step, total)), total=max(0, total))


def normalize_guess(text: str) -> str:
    """Spacing and separators dropped: ``normalize_guess(" (h, ug) ") == "h ug"``; ``"h+ug"`` too."""
    text = text.strip().strip("()[]")
    return " ".join(p for p in re.split(r"[\s,+]+", text) if p)


def merge_answer(left: str, right: str, merged: str) -> Answer:
    """The accepted guesses for one merge: the new token, or the pair in order."""
    return Answer(frozenset({normalize_guess(merged), normalize_guess(f"{left} {right}")}), f"{left} + {right} → {merged}")


def count_answer(tokens: int) -> Answer:
    return Answer(frozenset({str(tokens)}), f"{tokens} tokens", number=tokens)


def removed_answer(pieces) -> Answer:
    pieces = [str(p) for p in pieces]
    shown = ", ".join(pieces[:12]) + (f" … ({len(pieces)} in all)" if len(pieces) > 12 else "")
    return Answer(frozenset(normalize_guess(p) for p in pieces), shown)


def is_correct(guess: str, answer: Answer) -> bool:
    """``is_correct("h + ug", merge_answer("h", "ug", "hug"))`` is True; numbers compare as integers."""
    g = normalize_guess(guess)
    if answer.number is not None:
        try:
            return int(g) == answer.number
        except ValueError:
            return False
    return g in answer.accepted


def submit(state: Classroom, guess: str, answer: Answer) -> Classroom:
    """Grade ``guess`` and reveal the step. A second guess on a revealed step changes nothing."""
    if state.finished or state.revealed or not guess.strip():
        return state
    ok = is_correct(guess, answer)
    return replace(state, guess=guess, correct=ok, revealed=True, asked=state.asked + 1, score=state.score + ok)


def reveal(state: Classroom) -> Classroom:
    """Show the answer without a guess (counts as asked, not scored)."""
    if state.finished or state.revealed:
        return state
    return replace(state, revealed=True, guess="", correct=None, asked=state.asked + 1)


def advance(state: Classroom) -> Classroom:
    """Apply the revealed step and hide the next one. Only after a reveal."""
    if not state.revealed or state.finished:
        return state
    return replace(state, step=state.step + 1, revealed=False, guess="", correct=None)


def visible_steps(state: Classroom) -> int:
    """How many steps the page may show: the hidden one too once revealed."""
    return min(state.total, state.step + (1 if state.revealed else 0))
