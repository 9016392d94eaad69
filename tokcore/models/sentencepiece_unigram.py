"""Unigram as sentencepiece runs it on a ``.model`` file, arithmetic and tie rule included.

sentencepiece's Viterbi (``unigram_model.cc``, ``EncodeOptimized``, as the installed 0.2.x wheel
computes it: read from its machine code, which differs from the older C++ source on GitHub)
differs from HF's in ways that change the segmentation of real texts:

- only NORMAL and USER_DEFINED pieces are matched in text (control, byte and unused pieces never);
- scores are float32, each candidate is a float32 sum compared in float32 (strictly greater
  replaces, so the first candidate to reach a position keeps a tie), so two paths equal in exact
  arithmetic (``"a" + "16a"`` against ``"16a" + "a"``) differ, and a large running total swamps
  small differences;
- before extending from a position whose best score is beyond +-1e5 (``_REBASE``), that score is
  subtracted (in float32) from it and from every position already reached past it, so the
  running total restarts near 0: the rounding, hence the result, depends on where this happens;
- the Viterbi runs over the whole sentence: a word's best path depends on the score reached before
  it, so words are not independent (``split_at_space`` cuts the sentence before each ``"▁"`` and
  carries the running score across, which is exact when no piece holds ``"▁"`` past its start);
- a user-defined piece scores ``float32((length_in_bytes - 1) * 0.1)``, at least 0 where every
  NORMAL score is negative; the unknown score is ``min_score - 10`` over NORMAL pieces only.

A word whose decisions are all won by a margin wider than float32 rounding at the running score
can take its cached exact segmentation; any other is recomputed in float32 at that score.

Left out: ``nbest``, ``sample``, ``lattice`` and ``explain`` keep HF's double-precision lattice
(``tokcore.models.unigram``), and HF ``tokenizer.json`` Unigram models keep HF's rules.
"""

from __future__ import annotations

import math
import re

from ..core.components import register
from .spm_word_passes import (
    _LEAF,
    _MAX_CACHED_CHARS,
    _NO_COLUMNS,
    _REBASE,
    _U,
    SentencePieceWordPasses,
    end_nodes,
    entry_path,
    f32,
    f32_all,
    path_stops,
)
from .unigram import _MISSING, UNK_PENALTY, Unigram, fused_runs, piece_trie, segments, utf8_lengths

__all__ = ["SPACE_SYMBOL", "SentencePieceUnigram", "f32", "f32_all", "path_stops", "segments"]

SPACE_SYMBOL = "\u2581"
_TEXT_CACHE = 10_000  # whole texts kept (as HF's Unigram keeps them)
# The sentence cut before each "▁" (a piece never holds "▁" past its start when split_at_space).
_WORDS = re.compile(f"{SPACE_SYMBOL}[^{SPACE_SYMBOL}]*|[^{SPACE_SYMBOL}]+")


@register("model")
class SentencePieceUnigram(SentencePieceWordPasses, Unigram):
    """HF's ``Unigram`` with sentencepiece's matching, float32 arithmetic and tie rule (module docstring).

    Control pieces (``<s>``), byte pieces and unused pieces keep their ids but never match, so a
    literal ``<s>`` in the input is tokenized as characters, as sentencepiece does.
    """

    def __init__(self, vocab, *, unk_id=None, byte_fallback=False, matchable=None, user_defined=(),
                 split_at_space=False):
        super().__init__(vocab, unk_id=unk_id, byte_fallback=byte_fallback)
        self._init_sentencepiece(matchable, user_defined, split_at_space)

    @classmethod
    def from_columns(cls, texts: list[str], scores: list[float], *, unk_id: int | None, byte_fallback: bool = False,
                     matchable=None, user_defined=(), split_at_space: bool = False) -> "SentencePieceUnigram":
        """The model a ``.model`` file's pieces make, without ``Unigram``'s per-entry checks: the
        loader's columns are strings and floats by construction and ``unk_id`` one of their ids.
        Same object as ``cls(list(zip(texts, scores)), ...)`` (``tests/engine/test_sentencepiece_load.py``)."""
        model = cls.__new__(cls)
        Unigram.__init__(model, (), byte_fallback=byte_fallback)
        model.vocab = list(zip(texts, scores))
        model.unk_id = unk_id
        model.unk_token = texts[unk_id] if unk_id is not None else None
        model._ids = dict(zip(texts, range(len(texts))))  # a repeated piece maps to its last id, as HF
        model.min_score = min([s for s in scores if s == s], default=0.0)  # NaN scores left out
        model.unk_score = model.min_score - UNK_PENALTY
        model._unk_marker = unk_id if unk_id is not None else -1
        # Unigram.__init__ ran on no entries: its per-vocabulary tables are made here.
        model._scores = list(scores)
        model._unique = len(model._ids) == len(texts)
        model._fused = model._unique and cls._viterbi_segments is Unigram._viterbi_segments
        model._init_sentencepiece(matchable, user_defined, split_at_space)
        return model

    def _init_sentencepiece(self, matchable, user_defined, split_at_space) -> None:
        n = len(self.vocab)
        self.matchable = sorted(set(range(n) if matchable is None else matchable))
        self.user_defined = sorted(set(user_defined))
        self.split_at_space = bool(split_at_space)
        ud = self._ud = frozenset(self.user_defined)
        scores = f32_all([self.vocab[i][1] for i in self.matchable])
        normal = [s for i, s in zip(self.matchable, scores) if i not in ud] if ud else scores
        min_score = min(normal, default=self.min_score)
        self.unk_score = f32(min_score - 10.0)
        # Score per id as sentencepiece adds it (float32; a user-defined piece's from its length).
        self._sp_scores = dict(zip(self.matchable, scores))
        for i in ud:
            self._sp_scores[i] = f32((len(self.vocab[i][0].encode("utf-8")) - 1) * 0.1)
        self._magnitude = max(map(abs, self._sp_scores.values()), default=0.0) + abs(self.unk_score)
        # Below _REBASE plus one step, one float32 addition is off by at most this (twice u |x|).
        self._step_error = 2.0 * _U * (_REBASE + 2.0 * self._magnitude)
        self._longest = max([len(self.vocab[i][0]) for i in self.matchable] + [1])
        # Non-finite scores make the exact pass's ties unreliable: every word then runs in float32.
        self._finite = all(map(math.isfinite, [*self._sp_scores.values(), self.unk_score]))
        self._some_positive = max([*self._sp_scores.values(), self.unk_score]) > 0.0  # (a user-defined piece's)
        self._words: dict[str, tuple] = {}
        self._ends: dict[str, list] | None = None  # _end_trie, on first use
        self._no_piece_char = ""  # with _end_trie
        # path_stops fuses unknown nodes into runs when no piece it matches has their id.
        self._fused_marker = None if self._unk_marker in self._sp_scores else self._unk_marker
        # The exact pass's node for a character no piece holds: no children, its info (end_nodes), score.
        self._unknown_node = [_LEAF, (1, self._unk_marker, None, 0), self.unk_score]
        # The unknown info where _new_entry makes the columns in its walk back: every piece has one
        # id, no byte fallback, and unknown runs fused into one token (the .model case).
        one_walk = self._fused_marker is not None and self._unique and not self.byte_fallback and self.unk_id is not None
        self._fused_unknown = self._unknown_node[1] if one_walk else None
        self._space_piece: bool | None = None  # whether "▁" is a piece it matches (on first use)

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

    def _end_trie(self) -> dict[str, list]:
        """The pieces sentencepiece matches as a character trie of their reversed texts (``unigram.piece_trie``
        over each piece read from its last character), with their float32 scores (a user-defined
        piece's from its length) and what the exact pass keeps of a winner (``end_nodes``: -inf for
        a node that is no piece, the unknown node at the root). The exact pass walks it back from
        each end position.
        """
        if self._ends is None:
            scores, vocab = self._sp_scores, self.vocab
            pieces = [(vocab[i][0][::-1], i, scores[i]) for i in self.matchable]
            self._ends = end_nodes(piece_trie(pieces, None, self.unk_score, _MISSING), self._unknown_node[1])
            # A character in no piece: the exact pass's walk back stops on it before a word's start.
            letters = set().union(*[vocab[i][0] for i in self.matchable])
            self._no_piece_char = next(c for c in map(chr, range(len(letters) + 1)) if c not in letters)
        return self._ends

    # ------------------------------------------------------------------ sentencepiece's Viterbi
    def tokenize(self, text: str):
        """Viterbi tokens as sentencepiece finds them. With ``split_at_space`` and ``"▁"`` a piece, an
        unknown run never crosses a word (each word but the first starts with ``"▁"``, which never
        takes an unknown node), so each word's tokens are its own."""
        if not (self.split_at_space and self._space_is_piece()):
            return super().tokenize(text)
        if not text:
            return []
        hit = self._cache.get(text)
        if hit is not None:
            return list(hit)
        out: list = []
        shifted, emit = self._shifted, self._emit
        words = _WORDS.findall(text)
        a = 0
        for word, run in zip(words, self._word_runs(words)):
            toks = emit(word, segments(entry_path(run)))
            out.extend(shifted(toks, a) if a else toks)
            a += len(word)
        if len(text) < _MAX_CACHED_CHARS and len(self._cache) < _TEXT_CACHE:
            self._cache[text] = out
        return list(out)

    def word_columns(self, text: str) -> tuple[tuple, tuple, tuple] | None:
        """``tokenize(text)``'s ids, token texts and the UTF-8 length of each, or ``None`` when the
        text is not cut into words or a token is a byte-fallback token (use ``tokenize``). For
        callers that need no positions (the tokens are slices of ``text``, end to end); the
        model's text cache is left alone. A cached word keeps its columns in its entry."""
        if not (text and self.split_at_space and self._space_is_piece()):
            return None
        words = _WORDS.findall(text)
        # Most texts: every word's entry holds where it stands (``_word_runs``'s test) and has its
        # columns; the first that does not sends the text through _word_runs. The columns are
        # joined as they come (three list extensions per word beat a list of them joined after).
        ids: list = []
        tokens: list = []
        lens: list = []
        approx = drift = 0.0
        get, new = self._words.get, self._new_entry
        for word in words:
            _stops, low, high, score, error, word_ids, word_tokens, word_lens = get(word) or new(word)
            if word_ids is None or not low + drift < approx < high - drift:
                break
            approx += score
            drift += error
            ids += word_ids
            tokens += word_tokens
            lens += word_lens
        else:
            return tuple(ids), tuple(tokens), tuple(lens)
        ids, tokens, lens = [], [], []
        for word, run in zip(words, self._word_runs(words)):
            # Words found again in float32 have no columns yet; with byte tokens, none at all.
            cols = run[5:] if run[5] is not None else self._columns(word, entry_path(run))
            if cols is None:
                return None
            ids += cols[0]
            tokens += cols[1]
            lens += cols[2]
        return tuple(ids), tuple(tokens), tuple(lens)

    def _columns(self, word: str, stops: tuple, texts: list | None = None) -> tuple[tuple, tuple, tuple] | None:
        """``(ids, token texts, UTF-8 lengths)`` of a word's path (``path_stops``, with its segments'
        ``texts`` when at hand; ``None`` for byte tokens)."""
        ids = stops[1::2]
        if self._unk_marker not in ids and None not in ids and self._unique:  # each segment is its own token
            if texts is None:
                ends = stops[::2]
                texts = [word[s:e] for s, e in zip((0, *ends[:-1]), ends)]
            tokens = tuple(texts)
        elif self._unique and not self.byte_fallback and self.unk_id is not None:
            if None in ids:  # runs of unknown nodes fused by path_stops: a piece's id by their text, or unknown
                by_text, unk = self._ids.get, self.unk_id
                ids, tokens = tuple([by_text(t, unk) if i is None else i for i, t in zip(ids, texts)]), tuple(texts)
            else:
                ids, tokens = self._fused_columns(word, segments(stops))
        else:  # ids by text, unknown runs fused, byte tokens or an error (_emit's business)
            toks = self._emit(word, segments(stops))
            if max(map(len, toks)) != 4:
                return None
            ids, tokens, _starts, _stops = zip(*toks)
        return ids, tokens, utf8_lengths(word, tokens)

    def _fused_columns(self, word: str, segs) -> tuple[tuple, tuple]:
        """``_emit``'s ids and token texts for a model whose pieces have one id each, without byte
        fallback: each run of unknown segments one token, its text's id if a piece spells it (one
        sentencepiece never matches), else the unknown id. Most UDHR words for an English model
        are such runs after "▁", one segment per character."""
        ids, tokens = [], []
        unk, by_text = self.unk_id, self._ids.get
        for start, stop, id_ in fused_runs(segs, self._unk_marker, len(word)):
            piece = word[start:stop]
            ids.append(by_text(piece, unk) if id_ is None else id_)
            tokens.append(piece)
        return tuple(ids), tuple(tokens)

    def _shifted(self, toks: list, a: int) -> list:
        if self.byte_fallback:  # byte tokens carry a fifth field
            return [(t[0], t[1], t[2] + a, t[3] + a, *t[4:]) for t in toks]
        return [(i, t, s + a, e + a) for i, t, s, e in toks]

    def _space_is_piece(self) -> bool:
        space = self._space_piece
        if space is None:
            space = self._space_piece = any(self.vocab[i][0] == SPACE_SYMBOL for i in self.matchable)
        return space

    def _viterbi_segments(self, text: str) -> list[tuple[int, int, int]]:
        if not self.split_at_space:
            return self._word_f32(text, 0.0)[0]
        segs: list[tuple[int, int, int]] = []
        words = _WORDS.findall(text)
        a = 0
        marker = self._unk_marker
        for word, run in zip(words, self._word_runs(words)):
            for s, e, i in segments(entry_path(run)):  # a run of unknown nodes (id None) node by node
                segs.extend([(k, k + 1, marker) for k in range(s + a, e + a)] if i is None else [(s + a, e + a, i)])
            a += len(word)
        return segs

    def _word_runs(self, words: list[str]) -> list[tuple]:
        """Per word of a text cut before each ``"▁"``: its cache entry (``_new_entry``) when its
        cached segments are sentencepiece's there, else ``(segments, ..., None)`` found again in
        float32. Either way its path (``path_stops``) comes first and its columns (or ``None``) last."""
        runs: list[tuple] = []
        base = 0.0  # sentencepiece's float32 running score, exact up to the entries in runs[synced:]
        approx = 0.0  # the running score in double precision, enough to size the rounding
        drift = 0.0  # how far ``approx`` may be from sentencepiece's value (the roundings since)
        synced = 0
        cache = self._words
        for word in words:
            entry = cache.get(word) or self._new_entry(word)
            low, high, score, error = entry[1:5]
            if low + drift < approx < high - drift:  # the entry holds at this running score
                approx += score
                drift += error
                runs.append(entry)
            else:
                base = self._replay(base, runs, synced)
                word_segs, base = self._word_f32(word, base)
                approx, drift = base, 0.0
                runs.append((tuple([x for _s, e, i in word_segs for x in (e, i)]), 0.0, 0.0, 0.0, 0.0, *_NO_COLUMNS))
                synced = len(runs)
        return runs

    # ------------------------------------------------------------------ serialization
    def to_dict(self) -> dict:
        out = super().to_dict()
        out["type"] = "SentencePieceUnigram"
        out["matchable"] = list(self.matchable)
        out["user_defined"] = list(self.user_defined)
        out["split_at_space"] = self.split_at_space
        return out

    def to_hf_dict(self) -> dict:
        out = super().to_dict()
        out["type"] = "Unigram"
        return out

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        vocab = [tuple(x) if isinstance(x, list) else x for x in data["vocab"]]
        for key in ("matchable", "user_defined"):
            value = data.get(key)
            if value is not None and not (isinstance(value, list) and all(
                    isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(vocab) for i in value)):
                raise ValueError(f"'{key}' must list piece ids of the vocabulary")
        return cls(vocab, unk_id=data.get("unk_id"), byte_fallback=bool(data.get("byte_fallback", False)),
                   matchable=data.get("matchable"), user_defined=data.get("user_defined") or (),
                   split_at_space=bool(data.get("split_at_space", False)))

