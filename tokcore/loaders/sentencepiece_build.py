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

import re

from ..added_tokens import AddedToken
from ..components import Normalizer, build, register
from ..models.unigram import Unigram
from ..normalized import NormalizedString
from ..normalizers import Sequence as NormalizerSequence
from ..precompiled import Precompiled
from .rank_bpe import RankBPE
from .sentencepiece_model import BYTE, CONTROL, NORMAL, UNKNOWN, UNUSED, USER_DEFINED, SpModel

SPACE_SYMBOL = "\u2581"
_RUNS = re.compile(" +|[^ ]+")


def sentencepiece_alignment(ns: NormalizedString, end: int) -> NormalizedString:
    """Re-align as sentencepiece does: character i covers ``[start_i, start_{i+1})`` of the original.

    sentencepiece keeps one original position per normalized byte, so a token spans from its
    first character's source start to the next token's: removed text (collapsed spaces, deleted
    controls) goes to the token before it, and a token ending inside an expansion (``"ﬁ"`` ->
    ``"fi"``) covers nothing of it but its last character. ``end`` closes the last character.
    """
    starts = list(ns._bounds()[0])
    ends = starts[1:]
    ends.append(end)
    return NormalizedString(ns.original, ns.normalized, starts, list(map(max, starts, ends)))


@register("normalizer")
class SentencePieceWhitespace(Normalizer):
    """sentencepiece's whitespace rules after its charsmap.

    ``SentencePieceWhitespace().normalize_str("  a   b ") == "▁a▁b"``. The dummy ``▁`` is an insertion
    (empty source span); a collapsed run keeps its first space; trailing ``▁`` are removed as
    sentencepiece removes them, literal ones included.
    """

    def __init__(self, *, add_dummy_prefix: bool = True, remove_extra_whitespaces: bool = True,
                 escape_whitespaces: bool = True, treat_whitespace_as_suffix: bool = False):
        self.add_dummy_prefix = bool(add_dummy_prefix)
        self.remove_extra_whitespaces = bool(remove_extra_whitespaces)
        self.escape_whitespaces = bool(escape_whitespaces)
        self.treat_whitespace_as_suffix = bool(treat_whitespace_as_suffix)

    def normalize(self, ns: NormalizedString) -> NormalizedString:
        text = ns.normalized
        if (self.remove_extra_whitespaces and self.escape_whitespaces and self.add_dummy_prefix
                and not self.treat_whitespace_as_suffix and SPACE_SYMBOL not in text):
            fast = self._normalize_runs(ns)
            if fast is not None:
                return fast
        return self._normalize_chars(ns)

    def _normalize_runs(self, ns: NormalizedString) -> NormalizedString | None:
        """The default options without a literal ``"▁"`` in the text, by runs instead of characters.

        Same pieces for ``rebuild`` as ``_normalize_chars`` up to joining neighbours that map
        one to one (which ``rebuild`` aligns identically).
        """
        text = ns.normalized
        n = len(text)
        start = n - len(text.lstrip(" "))
        tail = len(text.rstrip(" "))
        if start >= tail:
            return None
        if start == 0 and tail == n and ns.is_identity and "  " not in text:
            # The common line: words apart by single spaces, untouched by the charsmap. The dummy
            # "▁" covers nothing at 0, character i + 1 is character i: what rebuild and
            # sentencepiece_alignment make of the pieces below, written down directly.
            return NormalizedString(ns.original, SPACE_SYMBOL + text.replace(" ", SPACE_SYMBOL),
                                    [0, *range(n)], list(range(n + 1)))
        out: list[tuple[str, int, int]] = [("", 0, start)] if start else []
        out.append((SPACE_SYMBOL, start, start))
        for m in _RUNS.finditer(text, start, tail):
            s, e = m.span()
            if text[s] == " ":
                out.append((SPACE_SYMBOL, s, s + 1))
                if e > s + 1:
                    out.append(("", s + 1, e))
            else:
                out.append((m.group(), s, e))
        if tail < n:
            out.append(("", tail, n))
        result = ns.rebuild(out)
        end = len(ns.original) if tail == n else ns.original_position(tail)
        return sentencepiece_alignment(result, end)

    def _normalize_chars(self, ns: NormalizedString) -> NormalizedString:
        text = ns.normalized
        n = len(text)
        start = 0
        if self.remove_extra_whitespaces:
            while start < n and text[start] == " ":
                start += 1
        if start == n:
            return ns.rebuild([("", 0, n)]) if n else ns
        space = SPACE_SYMBOL if self.escape_whitespaces else " "
        out: list[tuple[str, int, int]] = [("", 0, start)] if start else []
        dummy = self.add_dummy_prefix
        if dummy and not self.treat_whitespace_as_suffix:
            out.append((SPACE_SYMBOL, start, start))
        prev_space = self.remove_extra_whitespaces
        for i in range(start, n):
            ch = text[i]
            if ch == " ":
                if prev_space and self.remove_extra_whitespaces:
                    out.append(("", i, i + 1))
                    continue
                out.append((space, i, i + 1))
                prev_space = True
            else:
                out.append((ch, i, i + 1))
                prev_space = False
        trimmed_from = None
        if self.remove_extra_whitespaces:
            # Drop trailing space symbols (sentencepiece also drops a literal trailing "▁").
            for k in range(len(out) - 1, -1, -1):
                t, s, e = out[k]
                if t and t != space:
                    break
                out[k] = ("", s, e)
                trimmed_from = s
        if dummy and self.treat_whitespace_as_suffix:
            out.append((SPACE_SYMBOL, n, n))
        result = ns.rebuild(out)
        if not result.normalized:
            return result
        end = len(ns.original) if trimmed_from is None else ns.original_position(trimmed_from)
        return sentencepiece_alignment(result, end)

    def to_dict(self) -> dict:
        return {"type": "SentencePieceWhitespace", "add_dummy_prefix": self.add_dummy_prefix,
                "remove_extra_whitespaces": self.remove_extra_whitespaces, "escape_whitespaces": self.escape_whitespaces,
                "treat_whitespace_as_suffix": self.treat_whitespace_as_suffix}

    def to_hf_dict(self) -> dict:
        # HF has no such normalizer; regex replacements give the same text.
        steps = []
        if self.remove_extra_whitespaces:
            tail = "[ \u2581]+\\z" if self.escape_whitespaces else " +\\z"
            steps += [{"type": "Replace", "pattern": {"Regex": f"\\A +|{tail}"}, "content": ""},
                      {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}]
        if self.escape_whitespaces:
            steps.append({"type": "Replace", "pattern": {"String": " "}, "content": SPACE_SYMBOL})
        if self.add_dummy_prefix:
            if self.treat_whitespace_as_suffix:
                steps.append({"type": "Append", "append": SPACE_SYMBOL})
            else:
                steps.append({"type": "Prepend", "prepend": SPACE_SYMBOL})
        return {"type": "Sequence", "normalizers": steps}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(**{k: bool(data.get(k, d)) for k, d in (("add_dummy_prefix", True), ("remove_extra_whitespaces", True),
                                                           ("escape_whitespaces", True), ("treat_whitespace_as_suffix", False))})


@register("model")
class SentencePieceUnigram(Unigram):
    """HF's ``Unigram`` restricted as sentencepiece restricts it: only ``matchable`` pieces are found in text.

    Control pieces (``<s>``), byte pieces and unused pieces keep their ids but never match, so a
    literal ``<s>`` in the input is tokenized as characters, as sentencepiece does.
    """

    def __init__(self, vocab, *, unk_id=None, byte_fallback=False, matchable=None):
        super().__init__(vocab, unk_id=unk_id, byte_fallback=byte_fallback)
        n = len(self.vocab)
        self.matchable = sorted(set(range(n) if matchable is None else matchable))

    def _prefix_map(self) -> dict[str, int]:
        if self._prefixes is None:
            pref: dict[str, int] = {}
            ok = [(self.vocab[i][0], i) for i in self.matchable if self.vocab[i][0]]
            for piece, _ in ok:
                for k in range(1, len(piece)):
                    pref.setdefault(piece[:k], -2)
            for piece, i in ok:
                pref[piece] = i
            self._prefixes = pref
        return self._prefixes

    def to_dict(self) -> dict:
        out = super().to_dict()
        out["type"] = "SentencePieceUnigram"
        out["matchable"] = list(self.matchable)
        return out

    def to_hf_dict(self) -> dict:
        out = super().to_dict()
        out["type"] = "Unigram"
        return out

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        vocab = [tuple(x) if isinstance(x, list) else x for x in data["vocab"]]
        matchable = data.get("matchable")
        if matchable is not None and not all(isinstance(i, int) and 0 <= i < len(vocab) for i in matchable):
            raise ValueError("'matchable' must list piece ids of the vocabulary")
        return cls(vocab, unk_id=data.get("unk_id"), byte_fallback=bool(data.get("byte_fallback", False)),
                   matchable=matchable)


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
    from ..tokenizer import Tokenizer

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
