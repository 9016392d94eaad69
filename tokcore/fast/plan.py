"""Word plans: how a (pre-tokenizer, model) pair splits text into words, and the cache of finished words.

When the pre-tokenizer's pieces are substrings of the tokenization text ("words") whose model
tokens and byte spans depend on the word alone, a word's result can be kept relative to its
first byte and reused wherever the word appears again. That holds, by construction, for the
pre-tokenizers listed in ``word_plan`` on a model whose ``tokenize`` is a pure function of its
input (no dropout). A plan holds the word finder, the word caches (``_entry`` fills them) and,
for Metaspace, mirrors of the cache keyed by the text between separators
(``tokcore.fast.encode.spaced_entries``). A word the cache has not seen takes an entry built
straight from the model's own split where the plan allows it (``tokcore.fast.entries``: lean
entries for plain BPE, quick entries for WordPiece, Unigram and sentencepiece), else the general
per-token mapping of ``_entry``, which stays the reference.

Left out: the word loops that use a plan (``tokcore.fast.encode``), the word finders
(``tokcore.fast.words``), and pre-tokenizers not listed in ``word_plan`` (the slow path).
"""

from __future__ import annotations

import re
from operator import sub

from ..core.components import Piece, byte_fallback_span, piece_from_text
from .entries import (
    WORD_CACHE_CAPACITY,
    _lean,
    _lean_entry,
    _piece_bytes,
    _quick_entry,
    _verbatim,
    _wordpiece_split,
)
from .merge_cuts import _merge_cut_words
from .words import (
    _NON_SPACE_RUNS,
    GPT2_ASCII,
    _bytelevel_words,
    _chunk_words,
    _digits_then_gpt2,
    _gpt2_cut,
    _isolated_words,
    _kept_matches,
    _kept_whole,
    _sure_whole,
    _uncut,
    _whole,
    ascii_twin,
)

_MAX_CACHED_CHARS = 256  # long words rarely repeat


class WordPlan:
    """How one (pre-tokenizer, model) pair splits a segment into words and tokenizes a word.

    ``words(text)`` gives the words' ``(start, stop)`` character spans in order (``None``: use the
    slow path). On a cache miss, ``pieces(piece)`` runs the real pre-tokenizer components on the
    word alone, which is only done for words whose pieces do not depend on their neighbours.
    ``prefix`` is the character a byte-level pre-tokenizer inserts before a segment (with an empty
    span) when ``needs_prefix(segment)``; ``origin_matters`` says a word's pieces depend on whether
    it starts the tokenization text (Metaspace's ``prepend_scheme="first"``).
    """

    __slots__ = ("cache", "columns", "cut", "first", "joins", "lean", "needs_prefix", "one_word", "origin_matters", "pieces",
                 "prefix", "by_word", "piece_bytes", "quick", "replacement", "separators", "split", "tokenize", "whole", "words")

    def __init__(self, words, pieces, tokenize, *, prefix=None, needs_prefix=None, origin_matters=False, cut=None,
                 replacement=None, one_word=False):
        self.words = words
        self.pieces = pieces
        self.tokenize = tokenize
        self.prefix = prefix
        self.needs_prefix = needs_prefix
        self.origin_matters = origin_matters
        # The words are cuts of what the pipeline sees as one word (no pre-tokenizer): one word id.
        self.one_word = one_word
        self.cache: dict[str, tuple] = {}
        self.first: dict[str, tuple] = {}  # words carrying the inserted prefix, or at the text's start
        self.cut = cut  # (text, at) -> first index >= at where the text can be cut between words, or None
        # Metaspace's split: a word starts at " " and at its replacement (see spaced_entries); per
        # separator, the entry of separator + chunk, keyed by the chunk alone.
        self.replacement = replacement
        self.separators = None if replacement is None else {" ": {}, replacement: {}}
        # For plain BPE whose word is one piece (the word itself, or its byte characters):
        # what _lean_entry needs to skip the general per-token mapping (see _lean_for).
        self.lean = None
        # For the other models: (word, first) -> the model's text of a word that is one piece
        # whose characters are the word's own (see _quick_entry), or None (the general path).
        self.quick = None
        # Unigram models, whose tokens are slices of the text: piece -> its length in UTF-8.
        self.piece_bytes = None
        self.by_word = None  # a .model's word_columns: Unigram's or RankBPE's (_by_word_entry)
        # WordPiece and plain HF Unigram: the model's tokenize without its own word cache (the
        # plan's is in front); its tokens cover each text end to end (see _quick_entry).
        self.split = None
        # WordPiece: (its columns, token -> UTF-8 length covered), for a word of one piece (_columns_entry).
        self.columns = None
        # BertPreTokenizer: a word of several pieces is its pieces' entries in turn (_joined_entry).
        self.joins = False
        # word -> whether the stages after the one lean or quick entries stand for leave it whole
        # (None: nothing comes after); a word they cut takes the general path.
        self.whole = None


def _deterministic(model) -> bool:
    from ..models.bpe import BPE
    from ..models.rank_bpe import RankBPE
    from ..models.sentencepiece_unigram import SentencePieceUnigram
    from ..models.unigram import Unigram
    from ..models.word_level import WordLevel
    from ..models.wordpiece import WordPiece

    t = type(model)
    if t is BPE:
        return not model.dropout
    return t in (WordPiece, Unigram, RankBPE, SentencePieceUnigram, WordLevel)


def word_plan(tokenizer) -> WordPlan | None:
    """The fast plan for this tokenizer's pre-tokenizer and model, or ``None`` (slow path).

    Kept in ``tokenizer._word_plan`` with its word cache; the tokenizer drops it when the
    pre-tokenizer or the model is replaced or one of their options changes.
    """
    d = tokenizer.__dict__
    if "_word_plan" in d:
        return d["_word_plan"]
    pre, model = tokenizer.pre_tokenizer, tokenizer.model
    try:
        plan = _build_plan(pre, model) if _deterministic(model) else None
    except (ImportError, AttributeError):  # a stage module without the pieces a plan needs
        plan = None
    d["_word_plan"] = plan
    return plan


def _cuts_for(model):
    """A word finder for a BPE model run on whole texts (no pre-tokenizer), or ``None``.

    Llama-style files normalize spaces to ``"▁"`` and leave the whole line to the model, whose
    merges cross ``"▁"`` freely; the line is cut wherever no merge can span the place
    (``_merge_cut_words``) and the words cached. Only plain BPE qualifies: affixes,
    ``ignore_merges`` or dropout would make a word's tokens depend on where the text is cut; a
    merge that holds a byte-fallback or unknown token would not show in the text.
    """
    from ..models.bpe import BPE

    if (type(model) is not BPE or model.continuing_subword_prefix or model.end_of_word_suffix
            or model.ignore_merges or model.dropout):
        return None
    merges = model.merges
    hidden = [model.unk_token] if model.unk_token else []
    if any(h in side for h in ["<0x", *hidden] for pair in merges for side in pair):
        return None
    # An unknown character becomes byte tokens or the unknown token (never merged), else it is dropped.
    bytes_ok = model.byte_fallback and None not in model._byte_ids
    drops = not bytes_ok and not (model.unk_token and model.unk_token in model.vocab)
    return _merge_cut_words(merges, {t for t in model.vocab if len(t) == 1}, drops)


def _build_plan(pre, model) -> WordPlan | None:
    from ..pre_tokenizers import standard as pt
    from ..pre_tokenizers.split import Split

    tok = model.tokenize
    t = type(pre)
    if pre is None:
        cuts = _cuts_for(model)
        return _line_plan(cuts or _whole, model, tok, one_word=cuts is not None)
    if t is pt.ByteLevel:
        plain = pt.ByteLevel(add_prefix_space=False, trim_offsets=pre.trim_offsets, use_regex=False).pre_tokenize
        words = _bytelevel_words() if pre.use_regex else _whole
        plan = WordPlan(words, lambda p: plain([p]), tok, prefix=" " if pre.add_prefix_space else None,
                        needs_prefix=lambda text: not text.startswith(" "), cut=_gpt2_cut if pre.use_regex else None)
        return _lean(plan, model, True)
    if t in (pt.BertPreTokenizer, pt.Whitespace, pt.WhitespaceSplit):
        # These drop whitespace and never join across it: a run of non-space characters is
        # pre-tokenized on its own exactly as inside the text.
        plan = WordPlan(_NON_SPACE_RUNS, lambda p: pre.pre_tokenize([p]), tok)
        if t is pt.BertPreTokenizer:
            plan.quick = _bert_pieces(pt.PUNCT_CLASSES, pt._ASCII_PUNCT)
            plan.joins = True
            _wordpiece_split(plan, model)
        return plan
    if t is pt.Metaspace:
        rep = pre.replacement
        if pre.split and rep != " ":
            cls = re.escape(" " + rep)
            rx = re.compile(f"[^{cls}]+|[{cls}][^{cls}]*")

            def words(text):
                return rx.findall(text), None
        else:
            words = _whole
        plan = WordPlan(words, lambda p: pre.pre_tokenize([p]), tok, origin_matters=True,
                        replacement=rep if pre.split and rep != " " else None)
        plan.quick = _metaspace_text(rep, pre.prepend_scheme, pre.split)
        _piece_bytes(plan, model)
        return plan
    if t is pt.Sequence and len(pre.pretokenizers) == 2:
        split, bl = pre.pretokenizers
        if (type(split) is Split and split.behavior == "Isolated" and not split.invert and split._rx is not None
                and type(bl) is pt.ByteLevel and not bl.use_regex and not bl.add_prefix_space):
            classes = getattr(split, "_classes", None)  # Split runs its regex on a class view of the text
            view_of = None
            if classes is not None:
                from ..text.char_classes import ascii_view

                def view_of(text):
                    return ascii_view(text, classes)
            return _lean(WordPlan(_isolated_words(split._rx, view_of, ascii_twin(split._rx)),
                                  lambda p: bl.pre_tokenize([p]), tok), model, True)
    return _cut_first_plan(pre, model, tok)


def _line_plan(words, model, tok, *, one_word: bool) -> WordPlan:
    """The plan of a pipeline whose model sees the whole line as one piece (no pre-tokenizer, or
    one that cuts nothing): lean BPE entries, else the model's own text of each word."""
    plan = _lean(WordPlan(words, lambda p: [p], tok, one_word=one_word), model, False)
    if plan.lean is None:
        plan.quick = _verbatim
        _piece_bytes(plan, model)
    return plan


def _cut_first_plan(pre, model, tok) -> WordPlan | None:
    """A plan for any other pre-tokenizer, or ``Sequence`` of them, whose first stage only cuts the
    text (``CutOnly``: Digits, Punctuation, Split, ...) and whose every stage acts on each piece
    alone, as all of HF's do: the first stage's pieces are the words, and the later stages run on
    a word as within the text. Metaspace's ``prepend_scheme="first"`` asks where the piece starts
    (``origin_matters``). Stages of other types (a subclass included) leave the slow path.
    ``_cut_first_plan(Sequence([Digits(individual_digits=True), ByteLevel()]), tok).words("a12")``
    is ``(["a", "1", "2"], [0, 1, 2])``."""
    from ..pre_tokenizers import standard as pt
    from ..pre_tokenizers.split import CutOnly, Split

    per_piece = (pt.BertPreTokenizer, pt.ByteLevel, pt.CharDelimiterSplit, pt.Digits, pt.FixedLength, pt.Metaspace,
                 pt.Punctuation, pt.Split, pt.UnicodeScripts, pt.Whitespace, pt.WhitespaceSplit)
    stages = list(pre.pretokenizers) if type(pre) is pt.Sequence else [pre]
    if not stages or not all(type(s) in per_piece for s in stages) or not isinstance(stages[0], CutOnly):
        return None
    origin_matters = any(type(s) is pt.Metaspace and s.prepend_scheme == "first" for s in stages)
    if type(stages[0]) in (pt.BertPreTokenizer, pt.Whitespace, pt.WhitespaceSplit):
        # These drop whitespace and never join across it: a run of non-space characters goes through
        # every stage alone exactly as inside the text (str.split finds the runs).
        plan = WordPlan(_NON_SPACE_RUNS, lambda p: pre.pre_tokenize([p]), tok, origin_matters=origin_matters)
        if [type(s) for s in stages] == [pt.WhitespaceSplit, pt.Metaspace]:  # T5's: a word is Metaspace's alone
            meta = stages[1]
            plan.quick = _metaspace_text(meta.replacement, meta.prepend_scheme, meta.split)
            _piece_bytes(plan, model)
        return plan
    char_spans, rest = stages[0].char_spans, stages[1:]
    cuts = None if rest else _cuts_for(model)
    if cuts is not None:
        # Gemma's Split on " " after its normalizer wrote every space as "▁": the stage cuts
        # nothing, the line is one word and its BPE runs on the whole line, as with no
        # pre-tokenizer. A text the stage does cut takes the reference path.
        whole = _sure_whole(stages[0]) if type(stages[0]) is Split else None  # a class split's test is for bytes
        return _line_plan(_uncut(char_spans, cuts, whole), model, tok, one_word=True)
    words = _chunk_words(char_spans)
    first = stages[0]
    if type(first) is Split and first.is_regex and first.behavior == "Removed" and first.invert:
        words = _kept_matches(first._rx, words)  # CLIP's: the matches are the words
    byte_level = rest[0] if rest and type(rest[0]) is pt.ByteLevel else None
    if byte_level is not None and byte_level.use_regex and not byte_level.add_prefix_space:
        # StarCoder's and Falcon's ByteLevel cuts each chunk into GPT-2's words: those are the
        # words (each then written as bytes), which repeat far more often than whole chunks.
        words = _chunk_words(char_spans, _bytelevel_words(), GPT2_ASCII.findall)
        if type(first) is pt.Digits and first.individual_digits:
            words = _digits_then_gpt2(words)  # StarCoder's: one pattern on ASCII text
        rest = [pt.ByteLevel(add_prefix_space=False, trim_offsets=byte_level.trim_offsets, use_regex=False), *rest[1:]]

    def pieces(piece):
        out = [piece]
        for stage in rest:
            out = stage.pre_tokenize(out)
        return out

    plan = WordPlan(words, pieces, tok, origin_matters=origin_matters)
    # A ByteLevel that neither cuts nor prefixes (CLIP's and Llama 3's, or StarCoder's once its
    # words are GPT-2's) writes each word as its bytes.
    bytes_first = rest and type(rest[0]) is pt.ByteLevel and not rest[0].use_regex and not rest[0].add_prefix_space
    if bytes_first and all(isinstance(s, CutOnly) for s in rest[1:]):
        # A word is one piece, its UTF-8 bytes as characters, unless a later stage cuts it (Falcon's
        # Digits on " 123"): lean entries, with that check first when there are later stages.
        plan = _lean(plan, model, True)
        if plan.lean is not None and len(rest) > 1:
            plan.whole = _kept_whole(rest[1:])
    return plan


def _bert_pieces(punct_classes, ascii_punct):
    """``BertPreTokenizer``'s split of a word for ``_quick_entry``: the word itself when it has no
    punctuation, the word and its last character when only that one is ASCII punctuation
    ("said,"), else its runs and marks ("don't": "don", "'", "t") when they cover it (``None``
    when the split drops a character); the same tests and pattern as ``BertPreTokenizer.split_piece``."""
    from ..pre_tokenizers.standard import _ASCII_BERT_RE

    findall, finditer = _ASCII_BERT_RE.findall, _ASCII_BERT_RE.finditer

    def pieces(word: str, first: bool):
        if word.isalnum():  # letters and digits are neither punctuation nor space: no class view needed
            return (word,), 0, None
        view = word if word.isascii() else word.translate(punct_classes)
        if view.isalnum():
            return (word,), 0, None
        if view[-1:] in ascii_punct and view[:-1].isalnum():
            return (word[:-1], word[-1]), 0, None
        texts = tuple(findall(word) if view is word else [word[m.start():m.end()] for m in finditer(view)])
        return (texts, 0, None) if sum(map(len, texts)) == len(word) else None

    return pieces


def _metaspace_text(rep: str, scheme: str, split: bool):
    """``Metaspace``'s text of a word for ``_quick_entry`` when it stays one piece: spaces become
    ``rep`` (one character for one) and a prepended ``rep`` (no bytes) shifts the rest by one;
    the last field is how many more bytes the text's first character has than the word has there
    (``None`` when a ``rep`` stands later in the text too)."""
    wide = len(rep.encode("utf-8", "surrogatepass"))

    def text(word: str, first: bool):
        if not word:
            return None
        t = word.replace(" ", rep) if " " in word else word
        alone = t.find(rep, 1) < 0
        if split and not alone:
            return None
        if scheme != "never" and t[0] != rep and (scheme == "always" or first):
            return (rep + t,), 1, wide if alone else None
        return (t,), 0, (wide - 1 if word[0] == " " else 0) if alone else None

    return text


# -- the word loop ---------------------------------------------------------------------------------


def _entry(plan: WordPlan, word: str, first: bool, origin: int) -> tuple:
    """(ids, tokens, the tokens' byte lengths when their spans cover the word end to end (else
    ``None``), word offset per token, pieces, tokens, UTF-8 length of the word, the spans' starts
    and their stops relative to the word's first byte when the lengths are ``None`` (else ``None``:
    the spans are the lengths' running sum)) of one word; the prefix a pre-tokenizer inserts has no
    bytes."""
    cache = plan.first if first else plan.cache
    hit = cache.get(word)
    if hit is not None:
        return hit
    if plan.lean is not None or plan.quick is not None:
        out = None
        if plan.joins and not first and not word.isalnum():  # alphanumeric: one piece
            out = _joined_entry(plan, word)
        if out is None and (plan.whole is None or plan.whole(word)):
            out = _lean_entry(plan, word, first) if plan.lean is not None else _quick_entry(plan, word, first)
        if out is not None:
            if len(word) < _MAX_CACHED_CHARS and len(cache) < WORD_CACHE_CAPACITY:
                cache[word] = out
            return out
    piece = piece_from_text(word, origin)
    if first and plan.prefix is not None:
        piece = Piece(plan.prefix + piece.text, [origin, *piece.bounds])
    ids, toks, rel, wofs = [], [], [], []
    k = 0
    tokenize = plan.tokenize
    for p in plan.pieces(piece):
        if not p.text:
            continue
        bounds = p.bounds
        for t in tokenize(p.text):
            ids.append(t[0])
            toks.append(t[1])
            if len(t) == 4:
                s, e = bounds[t[2]], bounds[t[3]]
            else:
                s, e = byte_fallback_span(bounds, t[2], t[4])
            rel.append((s - origin, e - origin))
            wofs.append(k)
        k += 1
    nbytes = len(word) if word.isascii() else len(word.encode("utf-8", "surrogatepass"))
    starts, stops = tuple(r[0] for r in rel), tuple(r[1] for r in rel)
    # Spans end to end from 0 to the word's length (a dropped or rewritten character breaks it).
    covers = starts[1:] == stops[:-1] and (starts[:1] == (0,) and stops[-1] == nbytes if rel else nbytes == 0)
    if covers:  # the spans are the lengths' running sum (fast.encode.entry_starts)
        out = (tuple(ids), tuple(toks), tuple(map(sub, stops, starts)), tuple(wofs), k, len(ids), nbytes, None, None)
    else:
        out = (tuple(ids), tuple(toks), None, tuple(wofs), k, len(ids), nbytes, starts, stops)
    if len(word) < _MAX_CACHED_CHARS and len(cache) < WORD_CACHE_CAPACITY:
        cache[word] = out
    return out


_ONES = [(1,) * n for n in range(64)]  # word offsets of a second piece's tokens, shared


def _joined_entry(plan: WordPlan, word: str) -> tuple | None:
    """``_entry``'s result for a word ``plan.quick`` cuts into several pieces (BertPreTokenizer's
    runs and marks: each a word of one piece to the pre-tokenizer, tokenized on its own): the
    pieces' entries (found or made, and kept, as words) one after the other, each token's word
    offset its piece's. ``None``: one piece, or a piece whose tokens do not cover it end to end."""
    got = plan.quick(word, False)
    if got is None or len(got[0]) < 2:
        return None
    cache = plan.cache
    texts = got[0]
    if len(texts) == 2:  # "said,": the two entries' tuples joined, no lists
        a = cache.get(texts[0]) or _entry(plan, texts[0], False, 1)
        b = cache.get(texts[1]) or _entry(plan, texts[1], False, 1)
        if a[2] is None or a[4] != 1 or b[2] is None or b[4] != 1:
            return None
        n = b[5]
        return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + (_ONES[n] if n < 64 else (1,) * n), 2,
                a[5] + n, a[6] + b[6], None, None)
    ids: list = []
    tokens: list = []
    lens: list = []
    wofs: list = []
    nbytes = 0
    for k, text in enumerate(got[0]):
        e = cache.get(text) or _entry(plan, text, False, 1)
        if e[2] is None or e[4] != 1:
            return None
        # Lists grown in place: a word of punctuation alone ("!!!...") has as many pieces as characters.
        ids += e[0]
        tokens += e[1]
        lens += e[2]
        wofs += (k,) * e[5]
        nbytes += e[6]
    return tuple(ids), tuple(tokens), tuple(lens), tuple(wofs), k + 1, len(ids), nbytes, None, None
