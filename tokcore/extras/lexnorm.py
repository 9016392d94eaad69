"""Lexical normalization of noisy text ("u hve to let ppl decide" -> "you have to let people decide").

Built the way the normalization literature (MoNoise and successors) does it: generate candidates
for every word, then rank them. Candidates: the word itself, a lookup list of non-standard forms
(one-to-one, one-to-many, and many-to-one across a space), spelling candidates within a small
edit distance (symspellpy and its shipped English frequency dictionary), and splits of
run-together words into dictionary words. Ranking: lookup list first, in-lexicon words and
acronyms/proper nouns untouched, then frequency-weighted edit distance (rapidfuzz's OSA
distance). Case is kept where sensible. The output carries an exact alignment to the input, so
tokens of the normalized text map back (``LexNormResult.map_offsets``).

What it keeps, as a demanding user expects (the lookup list, yours or the built-in one, always wins):

- words the English dictionary knows, single letters, anything with digits or an underscore;
- words of other languages: a word with a letter outside a-z (``café``, ``naïve``, ``Straße``) is never
  "corrected" to ASCII; only a lookup entry changes it;
- short all-consonant tokens (``img``, ``pdf``, ``ngl``: no vowel, at most 4 letters) and known
  abbreviations (``lexnorm_data.ABBREVIATIONS``): they are shorthand nobody spells out the same way;
- two-letter words not in the dictionary (``au``): too many dictionary words lie one edit away to guess;
- acronyms (all capitals) and proper nouns (capitalised, not at a sentence start).

Each decision carries a ``confidence`` in [0, 1]: 1 for the lookup list and dictionary words; for a spelling,
elongation or split fix, how far its score stands above the runner-up's (a logistic of the margin); for a
word kept by a rule, how sure the rule is. ``lexical_normalize(text, keep=[span, ...])`` turns individual
fixes off (the input contract spans of ``LexNormResult.changes``): those words stay as typed, and the text
and the alignment follow.

Left out: context models (no language model ranks candidates), dictionaries of languages other than
English (so an ASCII word of another language, ``lait``, can still be "corrected").
``symspellpy`` and ``rapidfuzz`` are imported on first use, never at ``import tokcore``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Optional, Sequence

import regex

from ..core.errors import ConfigurationError, check_text
from ..core.normalized import NormalizedString
from ..core.offsets import char_to_byte_table
from .lexnorm_data import ABBREVIATIONS, LOOKUP, LOWERCASE_ONLY

_WORD = regex.compile(r"\w+(?:['’]\w+)*")
_SPLIT_MIN_FREQ = 100_000
_SPELL_MIN_FREQ = 100_000
_DISTANCE_WEIGHT = 5.0
_OMISSION_BONUS = 4.0


@dataclass(frozen=True)
class Candidate:
    """One possible normalization of a word, with where it came from and its score (higher is better)."""

    text: str
    kind: str  # original | lookup | spelling | split | merge
    distance: int = 0
    frequency: int = 0
    score: float = 0.0


@dataclass(frozen=True)
class WordDecision:
    """What happened to one word (or a many-to-one group): spans are contract spans (input and output)."""

    source: str
    span: tuple[int, int]
    output: str
    output_span: tuple[int, int]
    changed: bool
    reason: str
    candidates: tuple[Candidate, ...] = ()
    confidence: float = 1.0


@dataclass(frozen=True)
class LexNormResult:
    """The normalized ``text``, per-word ``decisions`` and the ``alignment`` back to ``original``."""

    text: str
    original: str
    decisions: list[WordDecision]
    alignment: NormalizedString = field(repr=False)

    @property
    def changes(self) -> list[WordDecision]:
        return [d for d in self.decisions if d.changed]

    def map_offsets(self, offsets: Iterable[Sequence[int]]) -> list[tuple[int, int]]:
        """Contract spans in ``text`` -> contract spans in ``original`` (sentinels stay sentinels)."""
        from ..core.original_offsets import OriginalMapper

        mapper = OriginalMapper(self.alignment)
        out = []
        for o in offsets:
            s, e = o
            out.append((0, 0) if (s, e) == (0, 0) else mapper.map((s - 1, e - 1)))
        return out


class Lexicon:
    """The lookup list: built-in entries plus the user's own (which win). Keys are matched case-insensitively.

    ``Lexicon({"gr8t": "great"}).get("GR8T") == "great"``.
    """

    def __init__(self, entries: dict[str, str] | None = None, *, use_builtin: bool = True):
        user = {}
        for key, value in (entries or {}).items():
            if not isinstance(key, str) or not isinstance(value, str) or not key.strip():
                raise ConfigurationError(f"lexicon entries must map non-empty strings to strings, got {key!r}: {value!r}")
            user[" ".join(key.lower().split())] = value
        self.user = user
        self.use_builtin = use_builtin
        self.entries = {**(LOOKUP if use_builtin else {}), **user}

    def get(self, key: str) -> Optional[str]:
        return self.entries.get(key.lower())

    def to_dict(self) -> dict:
        return {"use_builtin": self.use_builtin, "entries": dict(self.user)}

    @classmethod
    def from_dict(cls, data: dict) -> "Lexicon":
        if not isinstance(data, dict) or not isinstance(data.get("entries", {}), dict):
            raise ConfigurationError("a lexicon is {'use_builtin': bool, 'entries': {noisy: canonical}}")
        return cls(data.get("entries", {}), use_builtin=bool(data.get("use_builtin", True)))


@lru_cache(maxsize=1)
def english():
    """symspellpy's English frequency dictionary (82,765 words), loaded once (takes a few seconds)."""
    try:
        from importlib.resources import files

        from symspellpy import SymSpell
    except ImportError:  # pragma: no cover - depends on the environment
        raise ConfigurationError("lexical normalization needs symspellpy and rapidfuzz: pip install symspellpy rapidfuzz") from None
    sym = SymSpell(max_dictionary_edit_distance=2, prefix_length=7)
    path = files("symspellpy") / "frequency_dictionary_en_82_765.txt"
    if not sym.load_dictionary(str(path), term_index=0, count_index=1, encoding="utf-8"):
        raise ConfigurationError(f"could not read symspellpy's dictionary at {path}")
    return sym


def _osa(a: str, b: str) -> int:
    from rapidfuzz.distance import OSA

    return OSA.distance(a, b)


def _match_case(source: str, output: str) -> str:
    """Keep the source's casing where it means something. ``_match_case("Tmrw", "tomorrow") == "Tomorrow"``."""
    if len(source) > 1 and source.isupper():
        return output if " " in output else output.upper()  # LOL -> laughing out loud, TMRW -> TOMORROW
    if source[:1].isupper():
        return output[:1].upper() + output[1:]
    return output


def spelling_candidates(word: str, *, limit: int = 5) -> list[Candidate]:
    """Dictionary words within edit distance 1 (2 for words of 5+ letters), best first.

    Score: ln(frequency) - 5 x distance, the frequency-weighted edit distance.
    """
    from symspellpy import Verbosity

    low = word.lower()
    max_distance = 2 if len(low) >= 5 else 1
    out = []
    for s in english().lookup(low, Verbosity.ALL, max_edit_distance=max_distance):
        if s.term == low or s.count < _SPELL_MIN_FREQ:
            continue
        d = _osa(low, s.term)
        score = math.log(s.count) - _DISTANCE_WEIGHT * d
        if len(low) >= 3 and low[0] == s.term[0] and _is_subsequence(low, s.term):
            score += _OMISSION_BONUS  # letters left out ("wkend" -> "weekend") is the commonest shorthand
        out.append(Candidate(s.term, "spelling", d, s.count, score))
    out.sort(key=lambda c: (-c.score, c.text))
    return out[:limit]


_RUN = regex.compile(r"(.)\1{2,}")


def elongation_candidates(word: str) -> list[Candidate]:
    """Dictionary words made by shortening letter runs of 3+ to one or two letters.

    ``elongation_candidates("sooo")[0].text == "so"`` (scored above any edit: nothing was guessed).
    """
    low = word.lower()
    if not _RUN.search(low):
        return []
    words = english().words
    forms = {_RUN.sub(r"\1", low), _RUN.sub(r"\1\1", low)}
    out = [Candidate(f, "elongation", _osa(low, f), words[f], math.log(words[f])) for f in forms if words.get(f, 0) >= _SPELL_MIN_FREQ]
    return sorted(out, key=lambda c: (-c.score, c.text))


def _is_subsequence(short: str, long: str) -> bool:
    """Whether ``short`` is ``long`` with letters left out. ``_is_subsequence("wkend", "weekend") is True``."""
    it = iter(long)
    return all(ch in it for ch in short)


def split_candidate(word: str) -> Optional[Candidate]:
    """Best split of a run-together word into 2-3 frequent dictionary words, or ``None``.

    ``split_candidate("alot").text == "a lot"``. Score: mean ln(frequency) of the parts - 5.
    """
    low = word.lower()
    words = english().words
    if len(low) < 3 or len(low) > 30:
        return None

    def ok(part: str) -> int:
        if len(part) == 1 and part not in ("a", "i"):
            return 0
        n = words.get(part, 0)
        return n if n >= _SPLIT_MIN_FREQ else 0

    best: Optional[tuple[float, list[str], int]] = None
    for i in range(1, len(low)):
        a, b = low[:i], low[i:]
        fa, fb = ok(a), ok(b)
        options = []
        if fa and fb:
            options.append(([a, b], [fa, fb]))
        if fa:
            for j in range(1, len(b)):
                fb1, fb2 = ok(b[:j]), ok(b[j:])
                if fb1 and fb2:
                    options.append(([a, b[:j], b[j:]], [fa, fb1, fb2]))
        for parts, freqs in options:
            score = sum(math.log(f) for f in freqs) / len(freqs) - len(parts)
            if best is None or score > best[0]:
                best = (score, parts, min(freqs))
    if best is None:
        return None
    return Candidate(" ".join(best[1]), "split", 0, best[2], best[0] - _DISTANCE_WEIGHT)


_VOWELS = frozenset("aeiouy")


def _fix_confidence(cands: Sequence[Candidate]) -> float:
    """How far the best candidate stands above the runner-up: a logistic of the score margin.

    ``_fix_confidence([Candidate("a", "spelling", score=10.0)]) == 0.881``
    """
    margin = cands[0].score - cands[1].score if len(cands) > 1 else 4.0
    return round(1 / (1 + math.exp(-margin / 2)), 3)


def _decide(word: str, *, sentence_start: bool, lexicon: Lexicon) -> tuple[str, str, list[Candidate], float]:
    """(output, reason, candidates, confidence) for one word."""
    low = word.lower()
    original = Candidate(word, "original", 0, english().words.get(low, 0))
    looked = lexicon.get(low)
    if looked is not None and not (low in LOWERCASE_ONLY and word != low and low not in lexicon.user):
        cand = Candidate(looked, "lookup", _osa(low, looked), 0, float("inf"))
        return _match_case(word, looked), "lookup list", [cand, original], 1.0
    if original.frequency:
        return word, "in lexicon", [original], 1.0
    if len(word) == 1:
        return word, "single letter: kept", [original], 0.9
    if any(ch.isdigit() for ch in word) or "_" in word:
        return word, "not a word (digits or underscore)", [original], 0.95
    if any(ch.isalpha() and not ("a" <= ch <= "z") for ch in low):
        return word, "letters outside English's a-z (another language's word): kept", [original], 0.9
    if low in ABBREVIATIONS:
        return word, "known abbreviation: kept", [original], 0.9
    if len(low) <= 4 and not _VOWELS.intersection(low):
        return word, "short and all consonants (shorthand): kept", [original], 0.8
    if len(word) > 1 and word.isupper():
        return word, "acronym (all capitals)", [original], 0.9
    if word[:1].isupper() and not sentence_start:
        return word, "proper noun (capitalised, not sentence-initial)", [original], 0.9
    if len(low) == 2:
        return word, "two letters, not in the dictionary: too many neighbours to guess, kept", [original], 0.6
    cands = elongation_candidates(word) + spelling_candidates(word)
    split = split_candidate(word)
    if split is not None:
        cands.append(split)
    cands.sort(key=lambda c: (-c.score, c.text))
    if not cands:
        return word, "no candidate: kept", [original], 0.5
    best = cands[0]
    if best.kind == "spelling" and len(low) <= 3 and best.distance > 1:
        return word, "candidates too far for a short word: kept", [original, *cands], 0.6
    reason = {
        "spelling": f"spelling: distance {best.distance}, frequency {best.frequency:,}",
        "elongation": "repeated letters shortened",
        "split": "run-together words split",
    }[best.kind]
    return _match_case(word, best.text), reason, [*cands, original], _fix_confidence(cands)


def normalization_plan(text: str, lexicon: Lexicon, keep: Iterable[Sequence[int]] = ()):
    """Rebuild pieces for ``NormalizedString.rebuild`` and the raw decisions, word by word.

    ``keep``: input contract spans whose fix the user turned off (the word stays as typed).
    """
    matches = list(_WORD.finditer(text))
    pieces: list[tuple[str, int, int]] = []
    raw = []  # (source, char_start, char_stop, output, changed, reason, candidates, confidence)
    kept = {tuple(k) for k in keep}
    table = char_to_byte_table(text) if kept else None

    def turned_off(a: int, b: int) -> bool:
        return table is not None and (table[a] + 1, table[b] + 1) in kept

    pos = 0
    i = 0
    while i < len(matches):
        m = matches[i]
        start, stop, word = m.start(), m.end(), m.group()
        if i + 1 < len(matches) and text[stop : matches[i + 1].start()] == " ":
            nxt = matches[i + 1]
            pair = f"{word} {nxt.group()}"
            looked = lexicon.get(pair.lower())
            if looked is not None and not turned_off(start, nxt.end()):
                output = _match_case(word, looked)
                cand = Candidate(looked, "merge", _osa(pair.lower(), looked), 0, float("inf"))
                raw.append((pair, start, nxt.end(), output, True, "lookup list (many-to-one)", (cand,), 1.0))
                pieces += [(text[pos:start], pos, start), (output, start, nxt.end())]
                pos = nxt.end()
                i += 2
                continue
        output, reason, cands, confidence = _decide(word, sentence_start=_sentence_start(text, start), lexicon=lexicon)
        if output != word and turned_off(start, stop):
            output, reason, confidence = word, f"fix turned off by you (was: {reason})", 1.0
        raw.append((word, start, stop, output, output != word, reason, tuple(cands), confidence))
        pieces += [(text[pos:start], pos, start), (output, start, stop)]
        pos = stop
        i += 1
    pieces.append((text[pos:], pos, len(text)))
    return [p for p in pieces if p[2] > p[1] or p[0]], raw


def as_lexicon(lexicon) -> Lexicon:
    if lexicon is None:
        return Lexicon()
    if isinstance(lexicon, dict):
        return Lexicon(lexicon)
    if isinstance(lexicon, Lexicon):
        return lexicon
    raise ConfigurationError(f"lexicon must be a Lexicon or a dict noisy -> canonical, got {type(lexicon).__name__}")


def lexical_normalize(text: str, *, lexicon: Lexicon | dict | None = None,
                      keep: Iterable[Sequence[int]] = ()) -> LexNormResult:
    """Normalize noisy English. ``lexical_normalize("new pix coming tmrw").text == "new pictures coming tomorrow"``.

    ``keep``: input spans (``WordDecision.span``) of fixes to turn off; those words stay as typed.
    """
    text = check_text(text)
    try:
        keep = [tuple(int(v) for v in k) for k in keep]
    except (TypeError, ValueError):
        raise ConfigurationError("keep must be input spans (start, stop), as WordDecision.span gives them") from None
    pieces, raw = normalization_plan(text, as_lexicon(lexicon), keep)
    ns = NormalizedString(text).rebuild(pieces)
    return LexNormResult(ns.normalized, text, _with_spans(text, ns, raw, pieces), ns)


def _sentence_start(text: str, start: int) -> bool:
    before = text[:start].rstrip()
    return not before or before[-1] in ".!?\n"


def _with_spans(text: str, ns: NormalizedString, raw, pieces) -> list[WordDecision]:
    """Attach contract spans (input and output) to the decisions."""
    in_table = char_to_byte_table(text)
    out_table = char_to_byte_table(ns.normalized)
    # output character position of each decision = running length of the pieces before it
    out_pos = {}
    running = 0
    for new_text, s, e in pieces:
        out_pos.setdefault((s, e), running)
        running += len(new_text)
    decisions = []
    for source, s, e, output, changed, reason, cands, confidence in raw:
        o_start = out_pos[(s, e)]
        o_stop = o_start + len(output)
        decisions.append(
            WordDecision(source, (in_table[s] + 1, in_table[e] + 1), output,
                         (out_table[o_start] + 1, out_table[o_stop] + 1), changed, reason, tuple(cands),
                         confidence)
        )
    return decisions
