"""Classroom mode's state machine: hide, guess or reveal, score, advance, finish."""

from __future__ import annotations

import pytest

from tokapp import classroom as C


def test_a_guess_is_graded_revealed_and_scored():
    s = C.start(3)
    assert (s.step, s.hidden_step, s.revealed, C.visible_steps(s)) == (0, 1, False, 0)
    ans = C.merge_answer("u", "g", "ug")
    s = C.submit(s, " (u, g) ", ans)
    assert s.revealed and s.correct and (s.score, s.asked) == (1, 1) and C.visible_steps(s) == 1
    assert C.submit(s, "x", ans) == s  # a revealed step takes no second guess
    s = C.advance(s)
    assert (s.step, s.revealed, s.guess, s.correct) == (1, False, "", None)
    s = C.submit(s, "hug", C.merge_answer("u", "n", "un"))
    assert s.correct is False and (s.score, s.asked) == (1, 2)


def test_reveal_without_guess_and_the_end():
    s = C.start(1)
    assert C.advance(s) == s  # nothing to apply before a reveal
    assert C.submit(s, "   ", C.merge_answer("a", "b", "ab")) == s  # blank guesses are ignored
    s = C.reveal(s)
    assert s.revealed and s.correct is None and (s.score, s.asked) == (0, 1)
    s = C.advance(s)
    assert s.finished and s.hidden_step is None and C.visible_steps(s) == 1
    assert C.reveal(s) == s and C.advance(s) == s


@pytest.mark.parametrize("guess,ok", [("ug", True), ("u g", True), ("u+g", True), ("[u, g]", True),
                                      ("g u", False), ("UG", False), ("", False)])
def test_merge_guesses(guess, ok):
    assert C.is_correct(guess, C.merge_answer("u", "g", "ug")) is ok


def test_count_and_removed_answers():
    assert C.is_correct(" 17 ", C.count_answer(17)) and not C.is_correct("16", C.count_answer(17))
    assert not C.is_correct("seventeen", C.count_answer(17))
    ans = C.removed_answer(["hugs", "bun", "pug"])
    assert C.is_correct("bun", ans) and not C.is_correct("hug", ans)
    assert C.removed_answer([str(i) for i in range(20)]).shown.endswith("(20 in all)")


def test_start_clamps_and_checks_the_mode():
    assert C.start(3, step=9).finished
    assert C.start(0).finished
    with pytest.raises(ValueError, match="unknown classroom mode"):
        C.start(3, mode="nope")
    assert C.normalize_guess(" (h, ug) ") == "h ug"
