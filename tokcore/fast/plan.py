"""Word plans: how a (pre-tokenizer, model) pair splits text into words, and the cache of finished words.

When the pre-tokenizer's pieces are substrings of the tokenization text ("words") whose model
tokens and byte spans depend on the word alone, a word's result can be kept relative to its
first byte and reused wherever the word appears again. That holds, by construction, for the
pre-tokenizers listed in ``word_plan`` on a model whose ``tokenize`` is a pure function of its
input (no dropout). A plan holds the word finder, the word caches (``_entry`` fills them) and,
for Metaspace, mirrors of the cache keyed by the text between separators
(``tokcore.fast.encode.spaced_entries``).

Left out: the word loops that use a plan (``tokcore.fast.encode``), the word finders
(``tokcore.fast.words``), and pre-tokenizers not listed in ``word_plan`` (the slow path).
"""

from __future__ import annotations

import re

from ..core.components import Piece, byte_fallback_span, piece_from_text
from .words import _NON_SPACE_RUNS, _bytelevel_words, _gpt2_cut, _isolated_words, _safe_cut_words, _whole, ascii_twin

WORD_CACHE_CAPACITY = 200_000  # distinct words kept per tokenizer; past this new words are not cached
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

    __slots__ = ("cache", "cut", "first", "needs_prefix", "one_word", "origin_matters", "pieces", "prefix",
                 "replacement", "separators", "tokenize", "words")

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
        # separator, the entry of separator + chunk and its ids, keyed by the chunk alone.
        self.replacement = replacement
        self.separators = None if replacement is None else {" ": ({}, {}), replacement: ({}, {})}


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


#: The word separator of pre-tokenizer-less BPE files (Llama, Mistral: "▁" for a space).
_SEPARATOR = "\u2581"


def _cuts_for(model):
    """A word finder for a BPE model run on whole texts (no pre-tokenizer), or ``None``.

    Llama-style files normalize spaces to ``"▁"`` and leave the whole line to the model; most of
    their merges never cross a ``"▁"``, so the line can be cut there (``_safe_cut_words``) and
    the words cached. Only plain BPE qualifies: affixes, ``ignore_merges`` or dropout would make
    a word's tokens depend on where the text is cut; a crossing merge that holds a byte-fallback
    or unknown token would not show in the text.
    """
    from ..models.bpe import BPE

    if (type(model) is not BPE or model.continuing_subword_prefix or model.end_of_word_suffix
            or model.ignore_merges or model.dropout or _SEPARATOR not in model.vocab):
        return None
    crossing = [t for t in model.vocab if _SEPARATOR in t[1:]]
    if any("<0x" in t or (model.unk_token and model.unk_token in t) for t in crossing):
        return None
    return _safe_cut_words(_SEPARATOR, crossing)


def _build_plan(pre, model) -> WordPlan | None:
    from ..pre_tokenizers import standard as pt
    from ..pre_tokenizers.split import Split

    tok = model.tokenize
    t = type(pre)
    if pre is None:
        cuts = _cuts_for(model)
        return WordPlan(cuts or _whole, lambda p: [p], tok, one_word=cuts is not None)
    if t is pt.ByteLevel:
        plain = pt.ByteLevel(add_prefix_space=False, trim_offsets=pre.trim_offsets, use_regex=False).pre_tokenize
        words = _bytelevel_words() if pre.use_regex else _whole
        return WordPlan(words, lambda p: plain([p]), tok, prefix=" " if pre.add_prefix_space else None,
                        needs_prefix=lambda text: not text.startswith(" "), cut=_gpt2_cut if pre.use_regex else None)
    if t in (pt.BertPreTokenizer, pt.Whitespace, pt.WhitespaceSplit):
        # These drop whitespace and never join across it: a run of non-space characters is
        # pre-tokenized on its own exactly as inside the text.
        return WordPlan(_NON_SPACE_RUNS, lambda p: pre.pre_tokenize([p]), tok)
    if t is pt.Metaspace:
        rep = pre.replacement
        if pre.split and rep != " ":
            cls = re.escape(" " + rep)
            rx = re.compile(f"[^{cls}]+|[{cls}][^{cls}]*")

            def words(text):
                return rx.findall(text), None
        else:
            words = _whole
        return WordPlan(words, lambda p: pre.pre_tokenize([p]), tok, origin_matters=True,
                        replacement=rep if pre.split and rep != " " else None)
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
            return WordPlan(_isolated_words(split._rx, view_of, ascii_twin(split._rx)), lambda p: bl.pre_tokenize([p]),
                            tok)
    return None


# -- the word loop ---------------------------------------------------------------------------------


def _entry(plan: WordPlan, word: str, first: bool, origin: int) -> tuple:
    """(ids, tokens, spans relative to the word's first byte, word offset per token, pieces, tokens,
    UTF-8 length of the word, the spans' starts, their stops) of one word; the prefix a pre-tokenizer inserts has no bytes."""
    cache = plan.first if first else plan.cache
    hit = cache.get(word)
    if hit is not None:
        return hit
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
    out = (tuple(ids), tuple(toks), tuple(rel), tuple(wofs), k, len(ids), nbytes,
           tuple(r[0] for r in rel), tuple(r[1] for r in rel))
    if len(word) < _MAX_CACHED_CHARS and len(cache) < WORD_CACHE_CAPACITY:
        cache[word] = out
    return out
