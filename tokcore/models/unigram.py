"""``Unigram``: the SentencePiece unigram language model (Kudo 2018), as HF tokenizers runs it.

A word is split into the pieces whose log-probabilities (the ``score`` of each vocabulary
entry) sum highest: Viterbi over the lattice of every vocabulary piece found in the word.
The details follow HF tokenizers (``models/unigram/model.rs``) and sentencepiece
(``unigram_model.cc``) exactly:

- a character position where no one-character piece starts gets an unknown node of one
  character scored ``min_score - 10`` (``kUnkPenalty``), ``min_score`` over the whole vocabulary;
- equal path scores go to the candidate that starts earliest;
- neighbouring unknown nodes are fused into one token whose text is the unknown text itself
  (HF's ``fuse_unk``); a token's id is then looked up by its text, the unknown id otherwise;
- with ``byte_fallback`` an unknown token becomes its UTF-8 bytes as ``<0xNN>`` pieces when all
  of them are in the vocabulary (tokcore reports each byte against its own character).

Beyond plain encoding: ``nbest`` segmentations, ``sample`` (subword regularization, seeded),
and ``explain`` (the lattice and best path as plain data for the app).

Left out: training (``tokcore.trainers.unigram``) and sentencepiece's ``.model`` protobuf
files (``tokcore.loaders``). Deviation: with ``byte_fallback`` and no ``unk_id`` an unknown
character still falls back to bytes (HF raises there).
"""

from __future__ import annotations

import math
import random
from itertools import accumulate
from typing import Any, Iterable, Optional

from ..core.components import Model, register
from ..core.errors import ConfigurationError
from .lattice import NEG_INF, Lattice
from .unigram_forward import absent_char, end_trie, forward_gathered, forward_pushed, piece_trie

UNK_PENALTY = 10.0  # sentencepiece's kUnkPenalty: unknown nodes score min_score - 10
_CACHE_CAPACITY = 10_000
_CACHE_MAX_CHARS = 256
_MISSING = -2  # prefix map: a proper prefix of some piece, not a piece itself


def byte_piece(b: int) -> str:
    """The byte-fallback piece of byte ``b``. ``byte_piece(10) == "<0x0A>"``."""
    return f"<0x{b:02X}>"


def backtrack(from_: list[int], ids: list[int], n: int) -> list[tuple[int, int, int]]:
    """``(start, stop, id)`` of the best path ending at ``n``. ``backtrack([-1, 0], [0, 7], 1) == [(0, 1, 7)]``."""
    segs = []
    stop = n
    while stop > 0:
        start = from_[stop]
        segs.append((start, stop, ids[stop]))
        stop = start
    segs.reverse()
    return segs


def segments(stops: tuple) -> list[tuple[int, int, int]]:
    """``spm_word_passes.path_stops``'s tuple as ``(start, stop, id)`` segments (``_emit`` takes an id ``None`` as a run
    of unknown nodes). ``segments((1, 7, 2, 8)) == [(0, 1, 7), (1, 2, 8)]``."""
    ends = stops[::2]
    return list(zip((0, *ends[:-1]), ends, stops[1::2]))


def utf8_lengths(text: str, tokens) -> tuple:
    """UTF-8 lengths of ``tokens``, slices of ``text`` end to end. ``utf8_lengths("▁ab", ("▁a", "b")) == (4, 1)``."""
    if text[1:].isascii():  # a text's first character is often "▁" (3 bytes), the rest ASCII
        lens = list(map(len, tokens))
        first = text[0]
        if first > "\x7f":
            lens[0] += 2 if first == "\u2581" else len(first.encode("utf-8", "surrogatepass")) - 1
        return tuple(lens)
    return tuple([len(t.encode("utf-8", "surrogatepass")) for t in tokens])


def fused_runs(segs, marker: int, end: int):
    """``(start, stop, id)`` segments ending at ``end`` with each run of unknown ones (id ``marker``)
    as one ``(start, stop, None)``. ``list(fused_runs([(0, 1, 5), (1, 2, 0), (2, 3, 0)], 0, 3)) == [(0, 1, 5), (1, 3, None)]``."""
    run = -1  # where the unknown run being fused started
    for start, stop, id_ in segs:
        if id_ == marker:
            if run < 0:
                run = start
            continue
        if run >= 0:
            yield run, start, None
            run = -1
        yield start, stop, id_
    if run >= 0:
        yield run, end, None


@register("model")
class Unigram(Model):
    """Viterbi segmentation under piece log-probabilities.

    ``Unigram([("<unk>", 0.0), ("a", -1.0), ("ab", -1.5), ("b", -1.0)], unk_id=0).tokenize("ab")``
    is ``[(2, "ab", 0, 2)]`` (one piece at -1.5 beats two at -2.0).
    """

    def __init__(self, vocab: Iterable[tuple[str, float]], *, unk_id: Optional[int] = None, byte_fallback: bool = False):
        entries = []
        for i, item in enumerate(vocab):
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise ConfigurationError(f"Unigram vocab entry {i} must be a (piece, score) pair, got {item!r}")
            piece, score = item
            if not isinstance(piece, str) or isinstance(score, bool) or not isinstance(score, (int, float)):
                raise ConfigurationError(f"Unigram vocab entry {i} must be (str, float), got {item!r}")
            entries.append((piece, float(score)))
        if unk_id is not None:
            if isinstance(unk_id, bool) or not isinstance(unk_id, int):
                raise ConfigurationError(f"unk_id must be an int or None, got {unk_id!r}")
            if not entries:
                raise ConfigurationError("the vocabulary is empty but unk_id is set; add the unknown piece (e.g. '<unk>')")
            if not 0 <= unk_id < len(entries):
                raise ConfigurationError(f"unk_id {unk_id} is outside the vocabulary of {len(entries)} pieces")
        self.vocab: list[tuple[str, float]] = entries
        self.unk_id = unk_id
        self.byte_fallback = bool(byte_fallback)
        self.unk_token = entries[unk_id][0] if unk_id is not None else None
        # As HF: a duplicated piece maps to its last id; min_score spans the whole vocabulary.
        self._ids = {piece: i for i, (piece, _) in enumerate(entries)}
        self.min_score = min((s for _, s in entries if not math.isnan(s)), default=0.0)
        self.unk_score = self.min_score - UNK_PENALTY
        self._unk_marker = unk_id if unk_id is not None else -1
        self._prefixes: Optional[dict[str, int]] = None
        self._trie: Optional[dict[str, list]] = None
        # _end_trie's, on first use: the trie (finite scores only), a character no piece holds, the unknown node.
        self._winner_trie: Optional[dict[str, list]] = None
        self._winner_outside = ""
        self._winner_unknown: Optional[list] = None
        self._scores = [score for _, score in entries]
        self._unique = len(self._ids) == len(entries)
        # Plain HF Unigram with one id per piece: tokens straight off the best path (_best_tokens).
        self._fused = self._unique and type(self)._viterbi_segments is Unigram._viterbi_segments
        self._cache: dict[str, list] = {}

    # ------------------------------------------------------------------ vocabulary
    def token_to_id(self, token: str) -> int | None:
        return self._ids.get(token)

    def id_to_token(self, id: int) -> str | None:
        return self.vocab[id][0] if isinstance(id, int) and 0 <= id < len(self.vocab) else None

    def get_vocab(self) -> dict[str, int]:
        return dict(self._ids)

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def score(self, piece: str) -> float | None:
        """Log-probability of ``piece``, or ``None`` when it is not in the vocabulary."""
        id_ = self._ids.get(piece)
        return None if id_ is None else self.vocab[id_][1]

    def _prefix_map(self) -> dict[str, int]:
        # Every prefix of every piece -> its id when it is a piece, else _MISSING. Scanning a
        # word stops at the first substring that is no prefix: a trie walk made of dict lookups.
        if self._prefixes is None:
            pref: dict[str, int] = {}
            for piece in self._ids:
                for k in range(1, len(piece)):
                    pref.setdefault(piece[:k], _MISSING)
            for piece, id_ in self._ids.items():
                if piece:
                    pref[piece] = id_
            self._prefixes = pref
        return self._prefixes

    def _matches(self, text: str, start: int, pref: dict[str, int]):
        """(stop, id) of every piece starting at ``start``, shortest first."""
        n = len(text)
        stop = start + 1
        while stop <= n:
            id_ = pref.get(text[start:stop])
            if id_ is None:
                return
            if id_ >= 0:
                yield stop, id_
            stop += 1

    # ------------------------------------------------------------------ encoding
    def tokenize(self, text: str):
        """Viterbi tokens ``(id, token, start, stop)`` in characters of ``text`` (cached per word)."""
        if not text:
            return []
        hit = self._cache.get(text)
        if hit is not None:
            return list(hit)
        out = self._best_tokens(text) if self._fused else self._emit(text, self._viterbi_segments(text))
        if len(text) < _CACHE_MAX_CHARS and len(self._cache) < _CACHE_CAPACITY:
            self._cache[text] = out
        return list(out)

    def _viterbi_segments(self, text: str) -> list[tuple[int, int, int]]:
        winners = self._winners(text)
        segs = []
        stop = len(text)
        while stop > 0:
            length, id_ = winners[stop][:2]
            segs.append((stop - length, stop, id_))
            stop -= length
        segs.reverse()
        return segs

    def _best_tokens(self, text: str) -> list:
        """``_emit(text, _viterbi_segments(text))`` from ``word_columns`` when every piece has one id.

        ``Unigram([("<unk>", 0.0), ("a", -1.0)], unk_id=0)._best_tokens("aa") == [(1, "a", 0, 1), (1, "a", 1, 2)]``.
        """
        if self.byte_fallback or self.unk_id is None:  # an unknown's bytes or an error: _emit's business
            return self._emit(text, self._viterbi_segments(text))
        ids, tokens, _ = self.word_columns(text)
        stops = list(accumulate(map(len, tokens)))  # tokens are the text's slices, end to end
        return list(zip(ids, tokens, [0, *stops[:-1]], stops))

    def word_columns(self, text: str) -> tuple[tuple, tuple, tuple]:
        """The ids, token texts and UTF-8 lengths of a non-empty text's best path, for a model whose
        pieces have one id each, with ``unk_id`` and no byte fallback: one walk back over the winners
        (a piece's ``(length, id, text, UTF-8 length)``), each run of unknown nodes (and of pieces with
        the unknown id) one token, its id by its text (HF's ``fuse_unk``).
        ``Unigram([("<unk>", 0.0), ("a", -1.0)], unk_id=0).word_columns("aéx") == ((1, 0), ("a", "éx"), (1, 3))``."""
        ends = self._winner_trie
        if ends is not None:
            winners = forward_gathered(ends.get, self._winner_unknown, self._winner_outside, text)
        else:
            winners = self._winners(text)
        marker = self._unk_marker
        ids = []
        tokens = []
        lens = []
        stop = len(text)
        while stop:
            length, id_, piece, size = winners[stop]
            if id_ != marker:
                ids.append(id_)
                tokens.append(piece)
                lens.append(size)
                stop -= length
                continue
            start = stop - length
            while start and winners[start][1] == marker:
                start -= winners[start][0]
            piece = text[start:stop]
            ids.append(self._ids.get(piece, marker))
            tokens.append(piece)
            lens.append(len(piece.encode("utf-8", "surrogatepass")))
            stop = start
        ids.reverse()
        tokens.reverse()
        lens.reverse()
        return tuple(ids), tuple(tokens), tuple(lens)

    def _end_trie(self) -> dict[str, list] | None:
        """The pieces as a character trie of their reversed texts (``end_trie``), built on first use;
        ``None`` for a model with a non-finite score (gathered per end, a node that is no piece adds
        -inf and must lose).
        ``Unigram([("<unk>", 0.0), ("ab", -1.0)], unk_id=0)._end_trie()["b"][0]["a"][1] == (2, 1, "ab", 2)``.
        """
        if self._winner_unknown is None:
            self._winner_unknown = [{}, (1, self._unk_marker, None, None), self.unk_score]
            scores = self._scores
            if all(map(math.isfinite, scores)) and math.isfinite(self.unk_score):
                self._winner_outside = absent_char(self._ids)
                self._winner_trie = end_trie([(piece, id_, scores[id_]) for piece, id_ in self._ids.items()],
                                             self._winner_unknown[1], self.unk_score)
        return self._winner_trie

    def _winners(self, text: str) -> list:
        """Per end position, the winner of the best path's last node (``forward_gathered``'s); with a
        non-finite score, found by ``forward_pushed``, whose first candidate wins whatever its score.
        ``Unigram([("<unk>", 0.0), ("a", -1.0)], unk_id=0)._winners("ab") == [None, (1, 1, "a", 1), (1, 0, None, None)]``."""
        ends = self._end_trie()
        if ends is not None:
            return forward_gathered(ends.get, self._winner_unknown, self._winner_outside, text)
        from_, ids = forward_pushed(self._piece_trie().get, (None, self._unk_marker, self.unk_score), text)
        winners: list = [None]
        for stop in range(1, len(text) + 1):
            piece = text[from_[stop]:stop]
            winners.append((len(piece), ids[stop], piece, len(piece.encode("utf-8", "surrogatepass"))))
        return winners

    def _piece_trie(self) -> dict[str, list]:
        """The pieces as a character trie (``piece_trie``), unknown nodes at the root.

        ``Unigram([("ab", -1.0)])._piece_trie() == {"a": [{"b": [None, 0, -1.0]}, -1, -11.0]}``.
        """
        # forward_pushed (for a model with a non-finite score) steps one character at a time through
        # it: a lookup of a one-character string instead of slicing and hashing ever longer substrings.
        if self._trie is None:
            scores = self._scores
            self._trie = piece_trie([(piece, id_, scores[id_]) for piece, id_ in self._ids.items()],
                                    self._unk_marker, self.unk_score)
        return self._trie

    def _emit(self, text: str, segs) -> list:
        """Model tokens of ``(start, stop, id)`` segments: unknowns fused, ids by text, bytes on fallback."""
        out: list = []
        ids = None if self._unique else self._ids  # every piece has one id: the segment's is it
        for start, stop, id_ in fused_runs(segs, self._unk_marker, len(text)):
            if id_ is None:
                self._emit_unknown(text, start, stop, out)
                continue
            piece = text[start:stop]
            out.append((id_ if ids is None else ids[piece], piece, start, stop))
        return out

    def _emit_unknown(self, text: str, start: int, stop: int, out: list) -> None:
        piece = text[start:stop]
        id_ = self._ids.get(piece)
        if id_ is not None:
            out.append((id_, piece, start, stop))
            return
        if self.byte_fallback:
            byte_tokens = []
            for c in range(start, stop):
                data = text[c].encode("utf-8", "surrogatepass")
                for k, b in enumerate(data):
                    bid = self._ids.get(byte_piece(b))
                    if bid is None:
                        break
                    byte_tokens.append((bid, byte_piece(b), c, c + 1, (k, len(data))))
                else:
                    continue
                break
            else:
                out.extend(byte_tokens)
                return
        if self.unk_id is None:
            raise ConfigurationError(
                f"{piece!r} has no piece in the Unigram vocabulary and the model has no unk_id"
                + (" (and some of its <0xNN> byte pieces are missing)" if self.byte_fallback else "")
                + "; set unk_id to the unknown piece's id"
            )
        out.append((self.unk_id, piece, start, stop))

    # ------------------------------------------------------------------ lattice views
    def lattice(self, text: str) -> Lattice:
        """Every candidate piece of ``text`` (unknown nodes included), as sentencepiece builds it."""
        lat = Lattice(text)
        pref = self._prefix_map()
        for start in range(len(text)):
            single = False
            for stop, id_ in self._matches(text, start, pref):
                lat.insert(start, stop, id_, self.vocab[id_][1])
                single = single or stop == start + 1
            if not single:
                lat.insert(start, start + 1, self._unk_marker, self.unk_score, unknown=True)
        return lat

    def _path_tokens(self, lat: Lattice, path) -> list:
        return self._emit(lat.text, [(lat.starts[k], lat.stops[k], lat.ids[k]) for k in path])

    def nbest(self, text: str, n: int) -> list[tuple[list, float]]:
        """The ``n`` best segmentations as ``(tokens, score)``, best first; tokens as ``tokenize``."""
        if isinstance(n, bool) or not isinstance(n, int):
            raise ConfigurationError(f"n must be an int, got {n!r}")
        if not text:
            return [([], 0.0)] if n > 0 else []
        lat = self.lattice(text)
        return [(self._path_tokens(lat, path), score) for path, score in lat.nbest(n)]

    def sample(self, text: str, *, alpha: float, nbest_size: int = -1, seed: int | random.Random | None = None) -> list:
        """One segmentation drawn for subword regularization, tokens as ``tokenize``.

        As sentencepiece's ``SampleEncode``: ``nbest_size < 0`` samples from all segmentations
        with probability proportional to ``P(x) ** alpha`` (forward filtering, backward
        sampling); ``0`` or ``1`` is plain Viterbi; ``> 1`` draws among the n best.
        ``seed`` (an int or a ``random.Random``) makes the draw reproducible.
        """
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or math.isnan(alpha):
            raise ConfigurationError(f"alpha must be a number, got {alpha!r}")
        if isinstance(nbest_size, bool) or not isinstance(nbest_size, int):
            raise ConfigurationError(f"nbest_size must be an int, got {nbest_size!r}")
        if not text:
            return []
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        if nbest_size in (0, 1):
            return self.tokenize(text)
        lat = self.lattice(text)
        if nbest_size < 0:
            return self._path_tokens(lat, lat.sample(float(alpha), rng))
        found = lat.nbest(nbest_size)
        logits = [alpha * score for _, score in found]
        top = max(logits)
        weights = [math.exp(v - top) for v in logits]
        return self._path_tokens(lat, rng.choices([p for p, _ in found], weights=weights)[0])

    def explain(self, word: str) -> dict[str, Any]:
        """The lattice of ``word`` and its best path, as plain data for "why this split?".

        ``nodes``: every candidate ``{"start", "stop", "piece", "id", "score", "unknown"}``
        (character positions, score = log-probability; unknown nodes have ``id`` = unk id or -1);
        ``best``: per end position the best path score and the node that ends it;
        ``path``: node indices of the best path; ``score``: its total; ``tokens``: as ``tokenize``.
        """
        lat = self.lattice(word)
        path, score = lat.viterbi()
        nodes = [
            {
                "start": lat.starts[k],
                "stop": lat.stops[k],
                "piece": lat.piece(k),
                "id": lat.ids[k],
                "score": lat.scores[k],
                "unknown": k in lat.unknown,
            }
            for k in range(len(lat.ids))
        ]
        bt, _prev = lat.prefix_scores() if word else ([], [])
        best = []
        for pos in range(1, len(word) + 1):
            cands = [k for k in lat.end[pos] if bt[k] != NEG_INF]
            top = max(cands, key=lambda k: bt[k], default=None)  # max keeps the first of equals
            best.append({"stop": pos, "score": bt[top] if top is not None else NEG_INF, "node": top})
        return {
            "text": word,
            "unk_score": self.unk_score,
            "nodes": nodes,
            "best": best,
            "path": path,
            "score": score,
            "tokens": self.tokenize(word),
        }

    # ------------------------------------------------------------------ serialization
    def to_dict(self) -> dict:
        return {
            "type": "Unigram",
            "unk_id": self.unk_id,
            "vocab": [[p, s] for p, s in self.vocab],
            "byte_fallback": self.byte_fallback,
        }

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        vocab = data["vocab"]
        if not isinstance(vocab, list):
            raise ValueError("'vocab' must be a list of [piece, score] pairs")
        return cls([tuple(x) if isinstance(x, list) else x for x in vocab], unk_id=data.get("unk_id"), byte_fallback=bool(data.get("byte_fallback", False)))
