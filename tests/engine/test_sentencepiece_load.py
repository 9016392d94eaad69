"""Loading a ``.model`` quickly gives what the careful way gives.

- the bulk piece reader (``_COMMON_PIECE`` runs) against the generic protobuf loop, on records a
  protobuf writer may produce: absent scores and types, long pieces, ASCII controls that end a
  run, unknown fields, many refused records in a row;
- ``SentencePieceUnigram.from_columns`` against the checked constructor, attribute by attribute;
- ``Precompiled``'s tables, built on first use, against a normalizer that built them up front,
  and ``longest_rule`` against ``prefix_rules``.
"""

from __future__ import annotations

import struct
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from proto_bytes import varint
from shared_data import require_shared

import tokcore
import tokcore.loaders.sentencepiece_model as spm_model
from tokcore.loaders.sentencepiece_model import read_sentencepiece_model
from tokcore.models.sentencepiece_unigram import SentencePieceUnigram
from tokcore.normalizers.precompiled import Precompiled

MODELS = ["botchan_en_unigram_1000.model", "botchan_en_bpe_1000.model", "kyoto_ja_unigram_8000.model"]


def _record(piece: bytes, score: float | None, type_: int | None, extra: bytes = b"") -> bytes:
    body = b"\x0a" + varint(len(piece)) + piece
    if score is not None:
        body += b"\x15" + struct.pack("<f", score)
    if type_ is not None:
        body += b"\x18" + varint(type_)
    body += extra
    return b"\x0a" + varint(len(body)) + body


def _both_ways(data: bytes):
    def run():
        try:
            model = spm_model.parse_model_proto(data)
        except spm_model.WireError as exc:
            return "error", str(exc)
        return "ok", model.pieces, model.trainer_spec, model.normalizer_spec

    fast = run()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(spm_model, "_COMMON_PIECE", __import__("re").compile(rb"(?!)"))
        slow = run()
    return fast, slow


_PIECE_TEXT = st.one_of(
    st.text(min_size=1, max_size=12),
    st.text(alphabet="ab\n\x15\x18\x00\u2581é", min_size=1, max_size=6),
    st.text(min_size=40, max_size=70),  # past 127 bytes once encoded, sometimes
)
_EXTRA = st.sampled_from([b"", b"", b"", b"\x20\x01", b"\x0a\x01z", b"\x15\x00\x00\x80\x3f"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_PIECE_TEXT, st.one_of(st.none(), st.floats(width=32, allow_nan=False)),
                          st.one_of(st.none(), st.integers(0, 200)), _EXTRA), min_size=1, max_size=30),
       st.sampled_from([b"", b"\x12\x02\x18\x02", b"\x1a\x03\x18\x00\x00"]))
def test_any_run_of_pieces_reads_the_same_both_ways(records, tail):
    data = b"".join(_record(p.encode("utf-8", "surrogatepass"), s, t, x) for p, s, t, x in records) + tail
    fast, slow = _both_ways(data)
    assert fast == slow


def test_many_refused_records_in_a_row_read_the_same():
    # Every other piece holds a newline (which ends a run): the bounded window keeps this linear.
    records = [_record((f"p{i}\n" if i % 2 else f"p{i}").encode(), -float(i), None) for i in range(3000)]
    fast, slow = _both_ways(b"".join(records))
    assert fast == slow and len(fast[1]) == 3000


def test_a_truncated_file_fails_the_same_both_ways():
    data = require_shared("reference", "sentencepiece", "botchan_en_bpe_1000.model").read_bytes()
    for cut in (1, 2, 7, 500, 9_999, len(data) // 2):
        fast, slow = _both_ways(data[:cut])
        assert fast == slow, cut


@pytest.mark.parametrize("name", [m for m in MODELS if "unigram" in m])
def test_from_columns_builds_the_checked_constructors_model(name):
    sp = read_sentencepiece_model(require_shared("reference", "sentencepiece", name))
    assert sp.trainer_spec.model_type_name == "UNIGRAM"
    types = sp.piece_types
    kwargs = {"unk_id": types.index(2), "byte_fallback": sp.trainer_spec.byte_fallback,
              "matchable": [i for i, t in enumerate(types) if t in (1, 4)],
              "user_defined": [i for i, t in enumerate(types) if t == 4], "split_at_space": True}
    fast = SentencePieceUnigram.from_columns(sp.piece_texts, sp.piece_scores, **kwargs)
    slow = SentencePieceUnigram(list(zip(sp.piece_texts, sp.piece_scores)), **kwargs)
    assert vars(fast) == vars(slow)


def test_from_columns_with_odd_scores_and_duplicates():
    texts = ["<unk>", "a", "b", "a", "ab", "<u>"]
    scores = [0.0, float("nan"), -1e39, -2.0, 3.5, 0.0]
    kwargs = {"unk_id": 0, "matchable": [1, 2, 3, 4, 5], "user_defined": [5], "split_at_space": False}
    fast = SentencePieceUnigram.from_columns(texts, scores, **kwargs)
    slow = SentencePieceUnigram(list(zip(texts, scores)), **kwargs)
    assert repr(sorted(vars(fast).items())) == repr(sorted(vars(slow).items()))  # NaN != NaN, reprs agree


def _charsmap(name: str) -> bytes:
    return read_sentencepiece_model(require_shared("reference", "sentencepiece", name)).normalizer_spec.precompiled_charsmap


def test_loading_builds_no_charsmap_tables_and_the_first_use_builds_the_same():
    tok = tokcore.load(require_shared("reference", "sentencepiece", "kyoto_ja_unigram_8000.model"))
    (pre,) = [p for p in tok.normalizer.normalizers if type(p) is Precompiled]
    assert pre._built is None
    eager = Precompiled(pre.precompiled_charsmap, sentencepiece_semantics=True)
    eager._tables()
    text = "ｶﾀｶﾅ① ﬁ  Ａ\u3000x\t"
    assert pre.normalize_str(text) == eager.normalize_str(text)
    assert pre._built == eager._built


def test_tables_built_by_racing_threads_are_equal():
    blob = _charsmap("botchan_en_bpe_1000.model")
    pre = Precompiled(blob, sentencepiece_semantics=True)
    seen = []
    threads = [threading.Thread(target=lambda: seen.append(pre._tables())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(t == seen[0] for t in seen) and pre._ascii_rules


def test_a_bad_charsmap_still_fails_when_built():
    from tokcore.core.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="truncated"):
        Precompiled(b"\xff\x00\x00\x00abcd")


_KYOTO = None


def _kyoto_pre():
    global _KYOTO
    if _KYOTO is None:
        _KYOTO = Precompiled(_charsmap("kyoto_ja_unigram_8000.model"), sentencepiece_semantics=True)
    return _KYOTO


_RULE_TEXT = st.lists(st.sampled_from(["a", " ", "①", "ﬁ", "\u0301", "e", "ｶ", "ﾞ", "Ａ", "\u3000", "\x00", "\t",
                                       "㍿", "\ud800", "漢", "¼", "ℌ", "x" * 17]), max_size=24).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=_RULE_TEXT, i=st.integers(0, 30))
def test_longest_rule_is_the_last_prefix_rule(text, i):
    pre = _kyoto_pre()
    if i > len(text):
        i = len(text)
    hits = pre.prefix_rules(text[i : i + 16], cache=False)
    assert pre.longest_rule(text, i) == (hits[-1] if hits else None)


# -- the Unigram word loop against sentencepiece's whole-sentence float32 Viterbi -------------------

def _close_scores_model(byte_fallback: bool) -> SentencePieceUnigram:
    """Pieces whose scores tie or nearly tie, an unknown-prone alphabet and (optionally) byte pieces."""
    pieces = [("<unk>", 0.0), ("\u2581", -2.0), ("a", -3.0), ("b", -3.0), ("ab", -6.0), ("ba", -5.999999),
              ("\u2581a", -4.0), ("\u2581ab", -7.0), ("aa", -6.0), ("aaa", -9.0000001), ("\u2581b", -4.5),
              ("c", -1e-3), ("cc", -2e-3), ("<u>", 0.0)]
    if byte_fallback:
        pieces += [(f"<0x{b:02X}>", 0.0) for b in range(256)]
    matchable = [i for i, (p, _) in enumerate(pieces) if i and not p.startswith("<0x")]
    return SentencePieceUnigram(pieces, unk_id=0, byte_fallback=byte_fallback, matchable=matchable,
                                user_defined=[len(pieces) - 257 if byte_fallback else len(pieces) - 1],
                                split_at_space=True)


_WORDY = st.lists(st.sampled_from(["\u2581", "a", "b", "c", "é", "<u>", "aa", "\u2581ab", "漢"]), max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(text=_WORDY, byte_fallback=st.booleans(), repeat=st.integers(1, 40))
def test_unigram_words_equal_the_whole_sentence_viterbi(text, byte_fallback, repeat):
    model = _close_scores_model(byte_fallback)
    # Repeating the text moves the running score, so cached words meet other magnitudes.
    for t in (text, text * repeat, "\u2581" + text):
        want = model._emit(t, model._word_f32(t, 0.0)[0])
        assert model.tokenize(t) == want
        assert model._viterbi_segments(t) == model._word_f32(t, 0.0)[0]
