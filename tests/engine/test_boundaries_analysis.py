"""Boundary safety (red: inside a character, amber: inside a grapheme) and alignment helpers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tokcore import CharTokenizer
from tokcore.analysis.alignment import (
    align_tokens,
    align_words,
    boundary_points,
    figures,
    unshared_boundaries,
    word_spans,
)
from tokcore.analysis.boundaries import (
    INSIDE_CHAR,
    INSIDE_GRAPHEME,
    SAFE,
    char_starts,
    grapheme_starts,
    token_safety,
    unsafe_boundaries,
)

FAMILY = "👨\u200d👩\u200d👧"  # one grapheme, 5 code points, 4+3+4+3+4 = 18 bytes


def test_char_and_grapheme_starts():
    assert char_starts("aé") == {1, 2, 4}
    assert grapheme_starts("e\u0301x") == {1, 4, 5}  # e + combining acute is one cluster
    assert grapheme_starts(FAMILY) == {1, 19}
    assert grapheme_starts("🇯🇵🇺🇸") == {1, 9, 17}  # two flags


def test_byte_cut_is_red_and_grapheme_cut_is_amber():
    text = "a🙂b"
    assert token_safety(text, [(1, 2), (2, 4), (4, 6), (6, 7), (0, 0), (3, 3)]) == [
        SAFE, INSIDE_CHAR, INSIDE_CHAR, SAFE, "sentinel", "empty",
    ]
    # splitting the ZWJ family after the man: on a character boundary, inside the grapheme
    assert token_safety(FAMILY, [(1, 5), (5, 19)]) == [INSIDE_GRAPHEME, INSIDE_GRAPHEME]
    issues = unsafe_boundaries(FAMILY, [(1, 5), (5, 19)])
    assert [(i.token, i.end, i.index, i.kind) for i in issues] == [(0, "stop", 5, INSIDE_GRAPHEME), (1, "start", 5, INSIDE_GRAPHEME)]
    assert token_safety("x", [(1, 9), (2, 1)]) == ["invalid", "invalid"]


def test_ascii_char_tokenizer_has_no_unsafe_boundary_on_emoji():
    tok = CharTokenizer()
    r = tok.encode_result("a🙂b", return_offsets=True)
    assert unsafe_boundaries("a🙂b", r.original_offsets) == []
    assert unsafe_boundaries(r.tokenization_text, r.offsets) == []


def test_word_alignment_ignores_sentinels():
    assert word_spans("ab  cé") == [(1, 3), (5, 8)]
    aligned = align_words("ab c", [(0, 0), (1, 2), (2, 3), (4, 5), (0, 0)])
    assert [(w.word, w.tokens) for w in aligned] == [("ab", [1, 2]), ("c", [3])]


def test_token_alignment_and_boundaries():
    assert align_tokens([(1, 3), (3, 4), (0, 0)], [(1, 2), (2, 4)]) == [(0, 1), (1, 1), None]
    assert boundary_points([(1, 3), (3, 5), (0, 0), (4, 4)]) == {1, 3, 5}
    assert unshared_boundaries([(1, 2), (2, 3)], [[(1, 3)]]) == {2}


def test_figures():
    f = figures("ab cd", ["a", "b", "[UNK]", "[SEP]"], [(1, 2), (2, 3), (4, 6), (0, 0)], unk_token="[UNK]")
    assert (f.n_tokens, f.n_words, f.n_chars, f.n_bytes) == (4, 2, 5, 5)
    assert f.fertility == 1.5
    assert abs(f.unknown_rate - 1 / 3) < 1e-12
    assert figures("", [], []).chars_per_token == 0.0


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30))
def test_safety_never_raises_and_char_tokens_never_cut_characters(text):
    r = CharTokenizer().encode_result(text, return_offsets=True)
    kinds = token_safety(text, r.original_offsets)
    assert INSIDE_CHAR not in kinds
    n = len(text.encode())
    every_byte = [(i, i + 1) for i in range(1, n + 1)]
    flagged = unsafe_boundaries(text, every_byte)
    assert all(i.kind in (INSIDE_CHAR, INSIDE_GRAPHEME) for i in flagged)
    assert grapheme_starts(text) <= char_starts(text)
