"""``RankBPE.word_columns`` (a sentencepiece BPE's cold words) pinned to ``_word``, the model's reference output.

``word_columns`` keeps its answer per text, and when a text holds characters that no token or
ranked text holds (most UDHR words for an English model) it merges only the runs between them
and makes each such run one unknown token (``_inert_split``). Both must give what ``_word``
gives: on fresh and warm models, with characters that stand only inside longer pieces ("<" of
"<unk>", "q" of the ranked "qa": in the alphabet, yet no token alone), with and without fusing, text-keeping unknowns and
byte fallback.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokcore.core.errors import ConfigurationError
from tokcore.models.rank_bpe import RankBPE

SEP = "\u2581"
_VOCAB = {"<unk>": 0, SEP: 1, "a": 2, "b": 3, "é": 4, "ab": 5, SEP + "a": 6, "éa": 7, "ba": 8, SEP + "ab": 9, "<s>": 10,
          "qa": 11}
# "q" stands only in the ranked "qa": a letter that merges, yet no token alone; "za" is ranked but
# no token (a merge into an unknown symbol), "z" nowhere else.
_RANKS = {"ab": 0, SEP + "a": 1, "éa": 2, "ba": 3, SEP + "ab": 4, "qa": 5, "za": 6}


def _model(fuse: bool, keeps: bool, fallback: bool, unk: bool) -> RankBPE:
    vocab = dict(_VOCAB)
    if fallback:
        vocab.update({f"<0x{b:02X}>": 12 + b for b in range(256)})
    return RankBPE(vocab, ranks=_RANKS, unk_token="<unk>" if unk else None, fuse_unk=fuse, unk_keeps_text=keeps,
                   byte_fallback=fallback)


def _expected(model: RankBPE, text: str):
    """The columns ``_word`` implies, ``None`` where ``word_columns`` declines."""
    try:
        toks = model._word(text)
    except ConfigurationError:
        return None
    if any(len(t) != 4 or t[1] != text[t[2]:t[3]] for t in toks):
        return None
    return (tuple(t[0] for t in toks), tuple(t[1] for t in toks),
            tuple(len(t[1].encode("utf-8", "surrogatepass")) for t in toks))


_TEXT = st.text(alphabet="abqz" + SEP + "é<s>x日\u0301 ", min_size=1, max_size=20)
_FLAGS = [(True, True, False, True), (True, False, False, True), (False, True, False, True), (True, True, True, True),
          (True, True, False, False)]


@pytest.mark.parametrize("fuse,keeps,fallback,unk", _FLAGS)
@settings(max_examples=150, deadline=None)
@given(texts=st.lists(_TEXT, min_size=1, max_size=6))
def test_word_columns_equal_the_reference_word(fuse, keeps, fallback, unk, texts):
    fresh = _model(fuse, keeps, fallback, unk)
    warm = _model(fuse, keeps, fallback, unk)
    for text in texts + texts:  # the second round from the per-text memo
        want = _expected(warm, text)
        assert fresh.word_columns(text) == want, text
        assert warm.word_columns(text) == want, text


def test_inert_runs_are_one_unknown_token_each():
    model = _model(True, True, False, True)
    assert model.word_columns(SEP + "ab日本a") == ((9, 0, 2), (SEP + "ab", "日本", "a"), (5, 6, 1))
    # "<" and "s" stand in "<s>" only: letters without an id of their own, fused with the run after them.
    assert model.word_columns("a<s日x") == ((2, 0), ("a", "<s日x"), (1, 6))
    assert model._letter_set is not None and "日" not in model._letter_set
    # "q" has no id: the whole text takes _word's fusing, "<s>" inside the unknown run, not its own token.
    assert model.word_columns("q<s>qa") == ((0, 11), ("q<s>", "qa"), (4, 2))
    assert model.word_columns("xza") == ((0,), ("xza",), (3,))


def test_options_set_after_creation_take_effect_on_new_texts():
    model = _model(True, True, False, True)
    model.fuse_unk = False  # one unknown token per character from now on, as _word does
    assert model.word_columns("x日a") == _expected(model, "x日a") == ((0, 0, 2), ("x", "日", "a"), (1, 3, 1))
