"""Training runs for the app's teaching pages, as plain data: corpus choice -> word counts -> trainer
-> a replayable timeline (corpus words per step, tokens per word per step, partial tokenizers).

A ``Corpus`` carries a plain-string ``key`` (built-in name with file size and mtime, or a digest
of pasted/uploaded text) so a page can cache a run with ``st.cache_data`` by strings only.
Every family is trained on the word counts computed here (``word_counts``), so the words the
page shows are exactly the words the trainer saw.

Left out: streamlit (the pages), plotting (``tokapp.train_figures``) and HTML (``tokapp.train_html``).
"""

from __future__ import annotations

import hashlib
import json
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Optional

import tokcore
from tokcore.trainers import count_words, train_bpe, train_unigram, train_wordpiece
from tokcore.trainers.wordpiece import initial_split

ROOT = Path(__file__).resolve().parent.parent
CORPUS_DIR = ROOT / "sample_vocabs" / "corpora"
MAX_CORPUS_BYTES = 2 * 1024 * 1024  # pasted or uploaded corpora: 2 MB keeps a run under a few seconds
TRACKED_WORDS = 40  # most frequent words whose segmentation is recorded at every step
UNK = "[UNK]"

BUILTIN_CORPORA: dict[str, tuple[str, str]] = {
    "classic": ("Classic course corpus: hug x10, pug x5, pun x12, bun x4, hugs x5", "classic_toy.json"),
    "english": ("English sample sentences", "english.txt"),
    "multilingual": ("Multilingual sample sentences", "multilingual.txt"),
    "code": ("Python code sample", "code.txt"),
}
CORPUS_CHOICES = list(BUILTIN_CORPORA) + ["paste", "upload"]
CORPUS_LABELS = {**{k: v[0] for k, v in BUILTIN_CORPORA.items()}, "paste": "Pasted text",
                 "upload": f"Uploaded file (up to {MAX_CORPUS_BYTES // 2**20} MB)"}

HELD_OUT = {
    "classic": "hug bug mug thug hugs unhug pugs puns",
    "english": "The students hugged their teachers before the library opened.",
    "multilingual": "Die Studenten lesen gern. Les étudiants lisent volontiers.",
    "code": "def total(items: list[int]) -> int:\n    return sum(items)",
}
DEFAULT_HELD_OUT = "The pilot hugged the puppy."


# ----------------------------------------------------------------------------- corpora
@dataclass(frozen=True)
class Corpus:
    """Lines of text, or (``counts``) a mapping word -> count whose keys are pre-tokenized by the page's choice."""

    key: str
    label: str
    lines: tuple = ()
    counts: Optional[dict] = field(default=None, compare=False)

    @property
    def is_counts(self) -> bool:
        return self.counts is not None

    def summary(self) -> str:
        if self.counts is not None:
            return f"{len(self.counts)} distinct words, {sum(self.counts.values())} in all"
        chars = sum(len(x) for x in self.lines)
        return f"{len(self.lines)} lines, {chars} characters"


def builtin_corpus(name: str, directory: Path = CORPUS_DIR) -> Corpus:
    """A built-in corpus. ``builtin_corpus("classic").counts["pun"] == 12``."""
    if name not in BUILTIN_CORPORA:
        raise ValueError(f"unknown corpus {name!r}; choose one of {', '.join(BUILTIN_CORPORA)}")
    label, file = BUILTIN_CORPORA[name]
    path = directory / file
    stat = path.stat()
    key = f"builtin:{name}:{stat.st_size}:{stat.st_mtime_ns}"
    if path.suffix == ".json":
        return Corpus(key, label, counts=_counts_from_json(json.loads(path.read_text(encoding="utf-8")), file))
    return Corpus(key, label, lines=tuple(path.read_text(encoding="utf-8").splitlines()))


def _counts_from_json(data: Any, name: str) -> dict[str, int]:
    words = data.get("words", data) if isinstance(data, dict) else None
    if not isinstance(words, dict) or not all(isinstance(w, str) and isinstance(c, int) and c >= 0
                                              for w, c in words.items()):
        raise ValueError(f"{name}: a JSON corpus must be {{\"words\": {{word: count}}}} with integer counts")
    return dict(words)


def text_corpus(text: str, label: str = "Pasted text") -> Corpus:
    """Pasted text, one training line per line. ``text_corpus("a b").lines == ("a b",)``."""
    if len(text.encode("utf-8")) > MAX_CORPUS_BYTES:
        raise ValueError(f"the text is over {MAX_CORPUS_BYTES // 2**20} MB; paste less or train offline")
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return Corpus(f"text:{digest}", label, lines=tuple(text.splitlines()))


def upload_corpus(name: str, data: bytes) -> Corpus:
    """An uploaded ``.txt`` (UTF-8) or ``.json`` word-count file, at most ``MAX_CORPUS_BYTES``."""
    if len(data) > MAX_CORPUS_BYTES:
        raise ValueError(f"{name}: {len(data) / 1e6:.1f} MB is over the {MAX_CORPUS_BYTES // 2**20} MB limit for "
                         "training in the app")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{name}: not UTF-8 text (byte {exc.start} is {data[exc.start]:#04x}); save it as UTF-8") from None
    if name.lower().endswith(".json"):
        try:
            counts = _counts_from_json(json.loads(text), name)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{name}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
        return Corpus("upload:" + hashlib.sha256(data).hexdigest()[:16], f"Uploaded: {name}", counts=counts)
    corpus = text_corpus(text, f"Uploaded: {name}")
    return Corpus("upload:" + corpus.key, corpus.label, lines=corpus.lines)


# ----------------------------------------------------------------------------- pre-tokenizers
PRE_TOKENIZERS: dict[str, str] = {
    "whitespace": "Whitespace: words and punctuation runs",
    "whitespace_split": "WhitespaceSplit: split on spaces only",
    "metaspace": "Metaspace: spaces become ▁ (sentencepiece)",
    "bert": "BERT: words, each punctuation mark alone",
    "byte_level": "ByteLevel: GPT-2 regex, bytes as characters",
}


def make_pre_tokenizer(name: str):
    """The pre-tokenizer called ``name`` in ``PRE_TOKENIZERS``."""
    from tokcore.pre_tokenizers import standard as pt

    makers: dict[str, Callable[[], Any]] = {
        "whitespace": pt.Whitespace,
        "whitespace_split": pt.WhitespaceSplit,
        "metaspace": pt.Metaspace,
        "bert": pt.BertPreTokenizer,
        "byte_level": lambda: pt.ByteLevel(add_prefix_space=False),
    }
    if name not in makers:
        raise ValueError(f"unknown pre-tokenizer {name!r}; choose one of {', '.join(makers)}")
    return makers[name]()


def word_counts(corpus: Corpus, pre_tokenizer_name: str) -> dict[str, int]:
    """The words a trainer sees, with counts, in first-seen order (a mapping's keys pre-tokenized too).

    ``word_counts(builtin_corpus("classic"), "whitespace")["hugs"] == 5``
    """
    pre = make_pre_tokenizer(pre_tokenizer_name)
    if corpus.counts is None:
        return count_words(list(corpus.lines), pre_tokenizer=pre)
    out: dict[str, int] = {}
    for word, count in corpus.counts.items():
        if count <= 0:
            continue
        for piece, _ in pre.pre_tokenize_str(word):
            if piece:
                out[piece] = out.get(piece, 0) + count
    return out


# ----------------------------------------------------------------------------- settings and runs
@dataclass(frozen=True)
class Settings:
    """What a training run depends on besides the corpus."""

    family: str  # "bpe" | "wordpiece" | "unigram"
    vocab_size: int
    pre_tokenizer: str
    byte_level: bool = False  # BPE only (forces the ByteLevel pre-tokenizer)
    min_frequency: int = 1

    def key(self) -> str:
        return f"{self.family}|v{self.vocab_size}|{self.pre_tokenizer}|b{int(self.byte_level)}|m{self.min_frequency}"


def run_key(corpus: Corpus, settings: Settings) -> str:
    """The plain string a run is cached by. ``run_key(c, s) == c.key + "||" + s.key()``."""
    return f"{corpus.key}||{settings.key()}"


@dataclass
class TrainRun:
    """A finished training run and everything its timeline needs."""

    settings: Settings
    result: Any  # tokcore TrainResult
    words: dict  # word -> count, as trained on
    replay: Optional["Replay"] = None

    @property
    def tokenizer(self):
        return self.result.tokenizer

    @property
    def steps(self) -> list:
        return self.result.steps


def train(corpus: Corpus, settings: Settings, progress=None) -> TrainRun:
    """Train ``settings.family`` on ``corpus``; ``progress(done, total, what)`` is passed to the trainer."""
    pre_name = "byte_level" if settings.byte_level else settings.pre_tokenizer
    words = word_counts(corpus, pre_name)
    if not words:
        raise ValueError("the corpus has no words to train on: paste or pick some text")
    pre = make_pre_tokenizer(pre_name)
    common = dict(min_frequency=settings.min_frequency, pre_tokenizer=pre, progress=progress)
    if settings.family == "bpe":
        extra: dict[str, Any] = {"unk_token": None if settings.byte_level else UNK}
        if settings.byte_level:
            from tokcore.text.byte_level import ALPHABET

            extra["initial_alphabet"] = ALPHABET  # words are already byte characters: no second mapping
        result = train_bpe(words, settings.vocab_size, record_top_pairs=_top_k(words), **extra, **common)
        if settings.byte_level:
            from tokcore.decoders.standard import ByteLevel as ByteLevelDecoder

            result.tokenizer.decoder = ByteLevelDecoder()
        initial = list
    elif settings.family == "wordpiece":
        result = train_wordpiece(words, settings.vocab_size, special_tokens=[UNK], unk_token=UNK,
                                 top_candidates=_top_k(words), **common)
        initial = initial_split
    elif settings.family == "unigram":
        result = train_unigram(words, settings.vocab_size, special_tokens=[UNK], unk_token=UNK, **common)
        return TrainRun(settings, result, words)
    else:
        raise ValueError(f"unknown family {settings.family!r}")
    merges = [(s.left, s.right, s.merged) for s in result.steps]
    return TrainRun(settings, result, words, replay_merges(words, initial, merges))


def _top_k(words: Mapping[str, int]) -> int:
    """Per-step candidate tables cost time on big corpora: 10 rows up to 20k distinct words, then none."""
    return 10 if len(words) <= 20_000 else 0


# ----------------------------------------------------------------------------- the replay
@dataclass(frozen=True)
class Replay:
    """The merges replayed on every training word.

    ``tokens[k]``: tokens in the whole corpus (words x counts) after ``k`` merges;
    ``history[word]``: ``[(step, symbols), ...]`` each time a tracked word changed.
    """

    total_words: int
    tokens: tuple
    history: dict

    def tokens_per_word(self, k: int) -> float:
        return self.tokens[k] / self.total_words

    def curve(self) -> list[float]:
        """Tokens per word after 0, 1, ... merges. ``len(curve) == steps + 1``."""
        return [t / self.total_words for t in self.tokens]

    def segmentation(self, word: str, k: int) -> tuple:
        """The symbols of tracked ``word`` after ``k`` merges."""
        hist = self.history[word]
        i = bisect_right([s for s, _ in hist], k) - 1
        return hist[max(i, 0)][1]


def _merge_word(syms: list, a: str, b: str, merged: str) -> list:
    """Merge every non-overlapping ``a b`` left to right. ``_merge_word(["u","g","u","g"], "u", "g", "ug") == ["ug","ug"]``."""
    out, i, n = [], 0, len(syms)
    while i < n:
        if i + 1 < n and syms[i] == a and syms[i + 1] == b:
            out.append(merged)
            i += 2
        else:
            out.append(syms[i])
            i += 1
    return out


def replay_merges(words: Mapping[str, int], initial: Callable[[str], list], merges: list[tuple[str, str, str]],
                  track: int = TRACKED_WORDS) -> Replay:
    """Apply ``merges`` in order to every word; only words holding the pair are touched (pair index)."""
    keys = list(words)
    counts = [words[w] for w in keys]
    syms = [list(initial(w)) for w in keys]
    tracked = set(sorted(range(len(keys)), key=lambda i: (-counts[i], i))[:track])
    history = {keys[i]: [(0, tuple(syms[i]))] for i in sorted(tracked, key=lambda i: (-counts[i], i))}
    index: dict[tuple, set] = {}
    for wi, s in enumerate(syms):
        for pair in zip(s, s[1:]):
            index.setdefault(pair, set()).add(wi)
    total = sum(c * len(s) for c, s in zip(counts, syms))
    tokens = [total]
    for k, (a, b, merged) in enumerate(merges, 1):
        for wi in sorted(index.get((a, b), ())):
            old = syms[wi]
            new = _merge_word(old, a, b, merged)
            if len(new) == len(old):
                continue
            old_pairs, new_pairs = set(zip(old, old[1:])), set(zip(new, new[1:]))
            for p in old_pairs - new_pairs:
                index[p].discard(wi)
            for p in new_pairs - old_pairs:
                index.setdefault(p, set()).add(wi)
            total -= counts[wi] * (len(old) - len(new))
            syms[wi] = new
            if wi in tracked:
                history[keys[wi]].append((k, tuple(new)))
        tokens.append(total)
    return Replay(sum(counts), tuple(tokens), history)


# ----------------------------------------------------------------------------- partial tokenizers
def _initial_tokens(vocab: Mapping[str, int], merged: set) -> dict[str, int]:
    """Tokens there before any merge: a merged token spans two corpus characters or more, so never one of these."""
    return {t: i for t, i in vocab.items() if t not in merged}


def tokenizer_at(run: TrainRun, k: int):
    """The tokenizer with the vocabulary as of merge ``k`` (ids kept); for BPE also only the first ``k`` merges.

    ``k == len(run.steps)`` gives back the trained tokenizer.
    """
    steps = run.steps
    k = max(0, min(k, len(steps)))
    tok = run.tokenizer
    if k == len(steps):
        return tok
    model = tok.model
    vocab = model.get_vocab()
    kept = _initial_tokens(vocab, {s.merged for s in steps})
    for s in steps[:k]:
        kept[s.merged] = vocab[s.merged]
    if run.settings.family == "bpe":
        from tokcore.models.bpe import BPE

        part = BPE(kept, [(s.left, s.right) for s in steps[:k]], unk_token=model.unk_token,
                   continuing_subword_prefix=model.continuing_subword_prefix,
                   end_of_word_suffix=model.end_of_word_suffix)
    elif run.settings.family == "wordpiece":
        from tokcore.models.wordpiece import WordPiece

        part = WordPiece(kept, unk_token=model.unk_token, continuing_subword_prefix=model.continuing_subword_prefix)
    else:
        raise ValueError("only merge-based families have partial tokenizers")
    return tokcore.Tokenizer(part, normalizer=tok.normalizer, pre_tokenizer=tok.pre_tokenizer,
                             post_processor=tok.post_processor, decoder=tok.decoder, added_tokens=tok.added_tokens)


# ----------------------------------------------------------------------------- tables
def merge_table(run: TrainRun, k: int) -> list[dict]:
    """The first ``k`` merges as rows for a table (BPE: count; WordPiece: score and both frequencies)."""
    rows = []
    for i, s in enumerate(run.steps[:k], 1):
        row = {"merge": i, "left": s.left, "right": s.right, "new token": s.merged, "count": s.count}
        if run.settings.family == "wordpiece":
            row.update({"f(left)": s.left_frequency, "f(right)": s.right_frequency, "score": s.score})
        rows.append(row)
    return rows


def top_pairs(run: TrainRun, k: int) -> list[tuple]:
    """The candidate table before merge ``k + 1`` (0-based ``k``), winner first; ``[]`` when not recorded.

    BPE rows are ``(left, right, count)``; WordPiece rows ``(left, right, count, f_left, f_right, score)``.
    """
    key = "pair_counts_top" if run.settings.family == "bpe" else "candidates"
    tables = run.result.details.get(key) or []
    return list(tables[k]) if 0 <= k < len(tables) else []


def score_rows(run: TrainRun, k: int) -> list[dict]:
    """WordPiece's score table before merge ``k + 1``: count, both frequencies, ``score = f(ab) / (f(a) f(b))``."""
    rows = []
    for rank, (a, b, count, fa, fb, score) in enumerate(top_pairs(run, k), 1):
        rows.append({"rank": rank, "pair": f"{a} + {b}", "f(ab)": count, "f(a)": fa, "f(b)": fb,
                     "score": score, "score as fraction": f"{count}/({fa}×{fb})"})
    return rows


def ties_of(rows: list[tuple], value_index: int) -> list[tuple]:
    """Rows tied with the winner (the first row) on ``row[value_index]``, winner excluded."""
    if not rows:
        return []
    best = rows[0][value_index]
    return [r for r in rows[1:] if r[value_index] == best]


def tracked_words(run: TrainRun, limit: int = TRACKED_WORDS) -> list[tuple[str, int]]:
    """The most frequent words (recorded by the replay), with counts."""
    if run.replay is None:
        return []
    return [(w, run.words[w]) for w in list(run.replay.history)[:limit]]


# ----------------------------------------------------------------------------- the course's known slips
def is_classic(corpus: Corpus) -> bool:
    return corpus.key.startswith("builtin:classic:")


def course_notes(family: str, corpus: Corpus, k: int | None = None) -> list[str]:
    """Where the published course text disagrees with the definitions, for the classic corpus.

    The definitions win everywhere (see tests/engine/test_train_wordpiece.py and tests/engine/test_train_unigram.py);
    ``k`` selects the notes about merge ``k`` (``None``: every note of the family).
    """
    if not is_classic(corpus):
        return []
    notes: dict[str, list[tuple[set, str]]] = {
        "wordpiece": [({3, 4}, "The course text says `hu + ##g` and `hu + ##gs` tie at 1/15 and merges `hug` third. "
                               "By the definition f(hu) = 15 and f(##g) = 15 at that point (hug ×10 + pug ×5), so "
                               "`hu + ##g` scores 10/225 = 2/45 while `hu + ##gs` scores 5/(15×5) = 1/15: `hugs` is "
                               "the third merge and `hug` the fourth.")],
        "unigram": [(set(), "The course's paragraph on `pug` prints 0.000389 for [p, u, g] and 0.0022676 for [p, ug]: "
                            "those use P(p) = 5/210, the count of the word `pug`. The definition, P(p) = 17/210, "
                            "gives 0.001322 and 0.007710, the value the course's own loss table uses."),
                    (set(), "Ties between segmentations: the course writes pun as [pu, n], bun as [bu, n], hugs as "
                            "[hug, s]. Those tie exactly with [p, un], [b, un] and [h, ugs]; the rule of Hugging Face "
                            "and sentencepiece (the last piece that starts earliest) picks the latter. The loss is "
                            "the same either way.")],
    }
    return [text for steps, text in notes.get(family, []) if k is None or not steps or k in steps]


# Unigram's tables live in their own module; re-exported for the pages.
from .training_unigram import course_seed_probs, first_piece, removal_table, seed_fates, unigram_curve  # noqa: E402,F401
