"""A sentencepiece ``.model`` as a tokcore ``Tokenizer`` that encodes exactly as sentencepiece does.

sentencepiece's pipeline, in tokcore's stages:

1. ``Precompiled`` runs the model's charsmap (the ``nmt_nfkc``/``nfkc`` rules compiled into the file);
2. ``SentencePieceWhitespace`` applies the normalizer spec: leading and trailing spaces removed,
   runs of spaces collapsed to the first one, ``" "`` escaped to ``"▁"``, and a dummy ``"▁"``
   prepended (or appended with ``treat_whitespace_as_suffix``) that covers no source text;
3. ``Metaspace`` splits before each ``"▁"`` (when every piece keeps ``"▁"`` at its start, this
   equals sentencepiece's segmentation of the whole sentence);
4. the model: ``SentencePieceUnigram`` (Viterbi over NORMAL and USER_DEFINED pieces only: control,
   byte and unused pieces are never matched in text, unlike HF's Unigram) or ``RankBPE`` by score.

Left out: sampling options of ``encode`` (use the model's ``sample``), ``normalization_rule_tsv``
models (no charsmap compiled), and user-defined symbols' exact interplay with normalization
(they are matched in the raw text).
"""

from __future__ import annotations

from ..core.added_tokens import AddedToken
from ..core.components import build
from ..core.tokenizer import Tokenizer
from ..models.rank_bpe import RankBPE
from ..models.sentencepiece_unigram import SentencePieceUnigram
from ..normalizers.precompiled import Precompiled
from ..normalizers.sentencepiece import SPACE_SYMBOL, SentencePieceWhitespace
from ..normalizers.standard import Sequence as NormalizerSequence
from .sentencepiece_model import BYTE, CONTROL, NORMAL, UNKNOWN, UNUSED, USER_DEFINED, SpModel


def _bpe_model(sp: SpModel, unk_id: int | None):
    pieces = sp.pieces
    vocab = {p.piece: i for i, p in reversed(list(enumerate(pieces)))}
    # Higher score merges first; equal scores share a rank (sentencepiece then prefers the leftmost pair).
    scores = sorted({p.score for p in pieces if p.type in (NORMAL, USER_DEFINED)}, reverse=True)
    rank_of_score = {s: r for r, s in enumerate(scores)}
    ranks = {p.piece: rank_of_score[p.score] for p in pieces if p.type in (NORMAL, USER_DEFINED)}
    unk = pieces[unk_id].piece if unk_id is not None else None
    return RankBPE(vocab, ranks=ranks, unk_token=unk, byte_fallback=sp.trainer_spec.byte_fallback, fuse_unk=True,
                   unk_keeps_text=True)


def build_sentencepiece_tokenizer(sp: SpModel, *, name: str = ""):
    """The ``Tokenizer`` for a parsed sentencepiece model (see the module docstring for the stages)."""

    ts, ns = sp.trainer_spec, sp.normalizer_spec
    pieces = sp.pieces
    unk_ids = [i for i, p in enumerate(pieces) if p.type == UNKNOWN]
    unk_id = unk_ids[0] if unk_ids else None
    if ts.model_type_name in ("UNIGRAM", "WORD", "CHAR"):
        # WORD and CHAR models are rare; Viterbi over their pieces gives the same whole-word/char splits.
        matchable = [i for i, p in enumerate(pieces) if p.type in (NORMAL, USER_DEFINED)]
        model = SentencePieceUnigram([(p.piece, p.score) for p in pieces], unk_id=unk_id,
                                     byte_fallback=ts.byte_fallback, matchable=matchable)
    else:
        model = _bpe_model(sp, unk_id)
    normalizers = []
    if ns.precompiled_charsmap:
        normalizers.append(Precompiled(ns.precompiled_charsmap, sentencepiece_semantics=True))
    normalizers.append(SentencePieceWhitespace(
        add_dummy_prefix=ns.add_dummy_prefix, remove_extra_whitespaces=ns.remove_extra_whitespaces,
        escape_whitespaces=ns.escape_whitespaces, treat_whitespace_as_suffix=ts.treat_whitespace_as_suffix))
    normalizer = NormalizerSequence(normalizers)
    # Splitting before "▁" is exact only when no piece holds "▁" past its first character.
    splittable = ns.escape_whitespaces and not ts.treat_whitespace_as_suffix and not any(
        SPACE_SYMBOL in p.piece[1:] for p in pieces if p.type in (NORMAL, USER_DEFINED))
    pre = None
    if splittable:
        pre = build("pre_tokenizer", {"type": "Metaspace", "replacement": SPACE_SYMBOL, "prepend_scheme": "never", "split": True})
    decoders = [{"type": "Replace", "pattern": {"String": SPACE_SYMBOL}, "content": " "}]
    if ts.byte_fallback:
        decoders.append({"type": "ByteFallback"})
    decoders.append({"type": "Fuse"})
    if ns.add_dummy_prefix and not ts.treat_whitespace_as_suffix:
        decoders.append({"type": "Strip", "content": " ", "start": 1, "stop": 0})
    decoder = build("decoder", {"type": "Sequence", "decoders": decoders})
    added = [AddedToken(p.piece, i, special=False, normalized=False) for i, p in enumerate(pieces) if p.type == USER_DEFINED]
    return Tokenizer(model, normalizer=normalizer, pre_tokenizer=pre, decoder=decoder, added_tokens=added, name=name)


def control_ids(sp: SpModel) -> set[int]:
    """Ids of pieces sentencepiece never emits from text (control, unknown-as-such, byte, unused)."""
    return {i for i, p in enumerate(sp.pieces) if p.type in (CONTROL, BYTE, UNUSED)}
