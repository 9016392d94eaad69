"""A sentencepiece ``.model`` as a tokcore ``Tokenizer`` that encodes and decodes exactly as sentencepiece does.

sentencepiece's pipeline, in tokcore's stages:

1. ``Precompiled`` runs the model's charsmap (the ``nmt_nfkc``/``nfkc`` rules compiled into the file),
   copying user-defined symbols unchanged as sentencepiece's normalizer does;
2. ``SentencePieceWhitespace`` applies the normalizer spec: leading and trailing spaces removed,
   runs of spaces collapsed to the first one, ``" "`` escaped to ``"▁"``, and a dummy ``"▁"``
   prepended (or appended with ``treat_whitespace_as_suffix``) that covers no source text;
3. the model: ``SentencePieceUnigram`` (Viterbi over the whole sentence with sentencepiece's float32
   arithmetic, ties and user-defined bonus) or, for BPE, ``Metaspace`` (split before each ``"▁"``)
   with user-defined symbols isolated, then ``RankBPE`` by score (a user-defined symbol never merges
   in sentencepiece, so the text on each side merges on its own);
4. ``SentencePieceDecoder``: control pieces dropped, ``unk_surface`` for the unknown piece, byte
   pieces as UTF-8, leading ``"▁"`` per the normalizer spec, then the denormalizer spec if any.

User-defined symbols are pieces of the model, not added tokens: sentencepiece normalizes the
whole text around them (``"[CLS] hi"`` gives ``▁ [CLS] ▁hi``).

Left out: sampling options of ``encode`` (use the model's ``sample``), ``normalization_rule_tsv``
models (no charsmap compiled), and user-defined symbols holding a space.
"""

from __future__ import annotations

from itertools import compress

import regex

from ..core.components import build
from ..core.tokenizer import Tokenizer
from ..decoders.sentencepiece import SentencePieceDecoder
from ..models.rank_bpe import RankBPE
from ..models.sentencepiece_unigram import SentencePieceUnigram
from ..normalizers.precompiled import Precompiled
from ..normalizers.sentencepiece import SPACE_SYMBOL, SentencePieceWhitespace
from ..normalizers.standard import Sequence as NormalizerSequence
from .sentencepiece_model import BYTE, CONTROL, NORMAL, UNKNOWN, UNUSED, USER_DEFINED, SpModel


def _where(types: list[int], *wanted: int) -> list[int]:
    """Ids of the pieces of the given types. ``_where([2, 1, 3, 1], NORMAL) == [1, 3]``."""
    return list(compress(range(len(types)), map(frozenset(wanted).__contains__, types)))


def _bpe_model(sp: SpModel, unk_id: int | None):
    texts, scores, types = sp.piece_texts, sp.piece_scores, sp.piece_types
    n = len(texts)
    vocab = dict(zip(reversed(texts), range(n - 1, -1, -1)))  # a repeated piece keeps its first id
    # Higher score merges first; equal scores share a rank (sentencepiece then prefers the leftmost pair).
    mergeable = _where(types, NORMAL, USER_DEFINED)
    merge_scores = [scores[i] for i in mergeable]
    rank_of_score = {s: r for r, s in enumerate(sorted(set(merge_scores), reverse=True))}
    ranks = dict(zip([texts[i] for i in mergeable], map(rank_of_score.__getitem__, merge_scores)))
    unk = texts[unk_id] if unk_id is not None else None
    return RankBPE(vocab, ranks=ranks, unk_token=unk, byte_fallback=sp.trainer_spec.byte_fallback, fuse_unk=True,
                   unk_keeps_text=True, atoms=[texts[i] for i in _where(types, USER_DEFINED)])


def build_sentencepiece_tokenizer(sp: SpModel, *, name: str = ""):
    """The ``Tokenizer`` for a parsed sentencepiece model (see the module docstring for the stages)."""

    ts, ns = sp.trainer_spec, sp.normalizer_spec
    texts, types = sp.piece_texts, sp.piece_types
    unk_id = types.index(UNKNOWN) if UNKNOWN in types else None
    user_defined = _where(types, USER_DEFINED)
    symbols = [texts[i] for i in user_defined]
    matchable = _where(types, NORMAL, USER_DEFINED)
    # Cutting before "▁" is exact only when no piece holds "▁" past its first character.
    splittable = ns.escape_whitespaces and not ts.treat_whitespace_as_suffix and not any(
        SPACE_SYMBOL in texts[i][1:] for i in matchable if SPACE_SYMBOL in texts[i])
    pre = None
    if ts.model_type_name in ("UNIGRAM", "WORD", "CHAR"):
        # WORD and CHAR models are rare; Viterbi over their pieces gives the same whole-word/char splits.
        model = SentencePieceUnigram.from_columns(texts, sp.piece_scores, unk_id=unk_id,
                                                  byte_fallback=ts.byte_fallback, matchable=matchable,
                                                  user_defined=user_defined, split_at_space=splittable)
    else:
        model = _bpe_model(sp, unk_id)
        if splittable:
            pre = _bpe_pre_tokenizer(symbols)
    normalizers = []
    if ns.precompiled_charsmap:
        normalizers.append(Precompiled(ns.precompiled_charsmap, sentencepiece_semantics=True, protected=symbols))
    normalizers.append(SentencePieceWhitespace(
        add_dummy_prefix=ns.add_dummy_prefix, remove_extra_whitespaces=ns.remove_extra_whitespaces,
        escape_whitespaces=ns.escape_whitespaces, treat_whitespace_as_suffix=ts.treat_whitespace_as_suffix))
    normalizer = NormalizerSequence(normalizers)
    decoder = SentencePieceDecoder(
        control=[texts[i] for i in _where(types, CONTROL)], unk_piece=texts[unk_id] if unk_id is not None else None,
        unk_surface=ts.unk_surface, byte_pieces=[texts[i] for i in _where(types, BYTE)],
        add_dummy_prefix=ns.add_dummy_prefix, remove_extra_whitespaces=ns.remove_extra_whitespaces,
        denormalizer=_denormalizer(sp))
    return Tokenizer(model, normalizer=normalizer, pre_tokenizer=pre, decoder=decoder, name=name)


def _bpe_pre_tokenizer(symbols: list[str]):
    """Metaspace's split before ``"▁"``, then each user-defined symbol as a piece of its own."""
    metaspace = {"type": "Metaspace", "replacement": SPACE_SYMBOL, "prepend_scheme": "never", "split": True}
    if not symbols:
        return build("pre_tokenizer", metaspace)
    # Longest first: sentencepiece's prefix matcher takes the longest symbol at each position.
    alternation = "|".join(regex.escape(s) for s in sorted(symbols, key=lambda s: (-len(s), s)))
    isolate = {"type": "Split", "pattern": {"Regex": alternation}, "behavior": "Isolated", "invert": False}
    return build("pre_tokenizer", {"type": "Sequence", "pretokenizers": [metaspace, isolate]})


def _denormalizer(sp: SpModel):
    """The normalizer sentencepiece runs over decoded text, or ``None`` (no denormalizer charsmap)."""
    ds = sp.denormalizer_spec
    if not (sp.has_denormalizer_spec and ds.precompiled_charsmap):
        return None
    steps = [Precompiled(ds.precompiled_charsmap, sentencepiece_semantics=True)]
    if ds.add_dummy_prefix or ds.remove_extra_whitespaces or ds.escape_whitespaces:
        steps.append(SentencePieceWhitespace(add_dummy_prefix=ds.add_dummy_prefix,
                                             remove_extra_whitespaces=ds.remove_extra_whitespaces,
                                             escape_whitespaces=ds.escape_whitespaces))
    return NormalizerSequence(steps)


def control_ids(sp: SpModel) -> set[int]:
    """Ids of pieces sentencepiece never emits from text (control, unknown-as-such, byte, unused)."""
    return set(_where(sp.piece_types, CONTROL, BYTE, UNUSED))
