"""``trim_offsets`` (HF's ByteLevel / Roberta offset trimming) pinned to the token-by-token rule of
``tests/helpers/trim_reference.py`` on random tokens and spans: ``None`` spans, index 0, spans at
the base (0, or the lane's 1), one-byte and empty spans, every whitespace kind at either end, and
tokens met for the first time (the per-token runs cache answers a cached line in one pass and
falls back for a token it has not seen)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from trim_reference import WHITESPACE, trim_reference

from tokcore.core.encoding import Encoding
from tokcore.processors.merge import trim_offsets

_EDGES = st.text(alphabet="Ġ" + WHITESPACE, max_size=3)
# A token: spaces at either end around a core (possibly empty, so a token can be all spaces).
_TOKENS = st.builds(lambda a, core, b: a + core + b, _EDGES, st.text(alphabet="abé日Ġ", max_size=3), _EDGES)
_COMMON = st.sampled_from(["Ġa", "Ġthe", "a", "Ġ", "ĠĠb", "bĠ", "\u3000x", ".", "Ċ"])
_SPANS = st.one_of(st.none(), st.tuples(st.integers(0, 6), st.integers(0, 3)))


@settings(max_examples=500, deadline=None)
@given(items=st.lists(st.tuples(st.one_of(_COMMON, _TOKENS), _SPANS), max_size=14),
       base=st.sampled_from([0, 1]), add_prefix_space=st.booleans(), again=st.booleans())
def test_trim_offsets_follows_the_token_by_token_rule(items, base, add_prefix_space, again):
    tokens = [t for t, _ in items]
    spans = [None if s is None else (s[0] + base, s[0] + s[1] + base) for _, s in items]
    expected = trim_reference(tokens, spans, base, add_prefix_space)
    for _ in range(2 if again else 1):  # a second time: every token cached
        enc = Encoding(ids=list(range(len(tokens))), tokens=list(tokens), spans=list(spans))
        enc.spans_base = base
        trim_offsets(enc, add_prefix_space)
        assert enc.spans == expected


# Byte-level tokens: byte characters (Ġ is the space byte), as wide as they are long; the span of
# the first one may be one byte short (the space the pre-tokenizer inserted has no byte).
_BYTE_TOKENS = st.text(alphabet="Ġab.Ċ\u0101", min_size=1, max_size=5)


@settings(max_examples=500, deadline=None)
@given(tokens=st.lists(_BYTE_TOKENS, max_size=14), base=st.sampled_from([0, 1]), add_prefix_space=st.booleans(),
       prefixed=st.booleans(), at=st.integers(0, 3))
def test_byte_level_trim_made_with_the_spans_follows_the_rule(tokens, base, add_prefix_space, prefixed, at):
    """The lane's trimming (``ByteLevelTrim`` through ``emit_words``) equals the token-by-token rule,
    also where it declines (a token with trailing or only spaces) and after spans already emitted."""
    from tokcore.fast.encode import emit_words
    from tokcore.processors.merge import ByteLevelTrim

    lens = [len(t) for t in tokens]
    if prefixed and tokens and tokens[0].startswith("Ġ"):
        lens[0] -= 1
    ents = [((i,), (t,), (n,), (0,), 1, 1, n, None, None) for i, (t, n) in enumerate(zip(tokens, lens))]
    ends = [base]
    for n in lens:
        ends.append(ends[-1] + n)
    expected = trim_reference(tokens, list(zip(ends, ends[1:])), base, add_prefix_space)
    before = [(0, 0)] * at  # spans of an earlier segment stay as they are
    values, spans = ["x"] * at, list(before)
    emit_words((ents, None, None, prefixed), "", base, None, 0, False, None, values, spans, None, 0, True, False,
               ByteLevelTrim(add_prefix_space))
    assert spans == before + expected


def test_a_lone_space_token_moves_by_its_byte():
    """A lone ``Ġ`` (GPT-2 starts many non-Latin words with it, and indented lines) is trimmed with
    the other starts, not by the token-by-token rule: this fails on a trim that declines every lone
    ``Ġ``. As the first token it takes the rule where its space was inserted (no byte) or is kept."""
    from tokcore.processors.merge import ByteLevelTrim

    for add_prefix_space in (False, True):
        trim = ByteLevelTrim(add_prefix_space)
        assert trim.leads(["a", "Ġ", "Ġb", "Ġ"]) == [0, 1, 1, 1]
        assert trim.leads(["Ġ", "Ġb"], prefixed=True) is None
        tokens, spans = ["a", "Ġ", "Ġb"], [(1, 2), (2, 3), (3, 5)]
        assert trim_reference(tokens, spans, 1, add_prefix_space) == [(1, 2), (3, 3), (4, 5)]
    assert ByteLevelTrim(False).leads(["Ġ", "Ġ", "Ġb"]) == [1, 1, 1]  # an indented line's first tokens
    assert trim_reference(["Ġ", "Ġ", "Ġb"], [(1, 2), (2, 3), (3, 5)], 1, False) == [(2, 2), (3, 3), (4, 5)]
    assert ByteLevelTrim(True).leads(["Ġ", "Ġb"]) is None
