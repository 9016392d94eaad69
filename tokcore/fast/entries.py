"""Word entries made straight from the model's own split, for words the plan's cache has not seen.

An entry is what ``tokcore.fast.plan._entry`` caches per word: (ids, tokens, the tokens' byte
lengths when they cover the word end to end, word offset per token, pieces, tokens, the word's
UTF-8 length, and the spans' starts and stops only when the lengths are ``None``). For plain BPE
whose word is one piece, ``_lean_entry`` merges the word's characters with the model's own loop
and takes each token's span from its length in bytes; for WordPiece, Unigram and sentencepiece
behind BertPreTokenizer, Metaspace or no pre-tokenizer, ``_quick_entry`` hands the word's text to
the model's uncached split without Piece objects or the pre-tokenizer. The model's ``tokenize``
and the general per-token mapping (``_entry``) stay the reference: ``tests/engine/test_quick_entries.py``,
``test_bpe_lean.py`` and ``test_bpe_cold_entries.py`` pin each entry to the general one.

Left out: the plans that choose a builder (``tokcore.fast.plan``) and the word loops that place
entries in a text (``tokcore.fast.encode``).
"""

from __future__ import annotations

from itertools import islice
from operator import sub

from ..core.offsets import char_to_byte_table
from ..text.byte_level import _TO_CHARS as _BYTE_CHARS

WORD_CACHE_CAPACITY = 200_000  # distinct words kept per tokenizer (and covered token lengths); past this none are added


def _lean(plan, model, byte_chars: bool):
    """``plan`` (a ``tokcore.fast.plan.WordPlan``) with ``lean`` set when ``model`` is plain BPE: no affixes, dropout or
    ``ignore_merges``, so a word whose characters are all tokens merges from those characters
    and each token's text is the text it covers. ``byte_chars``: the word's one piece is its
    UTF-8 bytes as GPT-2 characters (one byte each), else the word itself."""
    from ..models.bpe import BPE, byte_token

    if (type(model) is not BPE or model.continuing_subword_prefix is not None or model.end_of_word_suffix is not None
            or not model._plain or model.dropout or model.ignore_merges):
        return plan
    unknown = None  # (text, ids) -> ids with an unknown character's bytes as byte-fallback tokens
    # ``first_ids`` raises KeyError for a character (byte) that is no token, so a word of tokens
    # needs no ``None in ids`` test (an int compared with None, per symbol); ``symbol_ids`` gives
    # None instead, for the word that has one.
    symbol_ids = model._vocab_get
    if byte_chars:
        # Ids straight from the word's UTF-8 bytes; a token's bytes are its length in characters.
        by_byte = list(map(model._vocab_get, map(_BYTE_CHARS.__getitem__, range(256))))
        if None in by_byte:
            by_byte = {b: i for b, i in enumerate(by_byte) if i is not None}
        first_ids, nbytes = by_byte.__getitem__, len
    else:
        covered = _CoveredBytes("")  # filled as tokens are met: a fresh tokenizer meets few of them
        unknown = model.unknown_as_bytes() if plan.prefix is None else None
        if unknown is not None:  # no merge touches a byte token: each covers its one byte
            covered.update(dict.fromkeys(map(byte_token, range(256)), 1))
        first_ids, nbytes = model.vocab.__getitem__, covered.__getitem__
    plan.lean = (first_ids, model._merge, model._inverse.__getitem__, nbytes, byte_chars, symbol_ids, unknown)
    return plan


def _lean_entry(plan, word: str, first: bool) -> tuple | None:
    """``_entry``'s result for a plan with ``lean`` (``None``: a character is not a token and not
    bytes, the general path decides). The tokens' byte spans follow from their lengths in bytes; an
    inserted prefix character has no bytes, so with it every boundary but the first moves back one."""
    first_ids, merge, inverse, nbytes, byte_chars, symbol_ids, unknown = plan.lean
    prefixed = first and plan.prefix is not None
    text = (plan.prefix + word) if prefixed else word
    try:
        ids = list(map(first_ids, text.encode("utf-8", "surrogatepass") if byte_chars else text))
    except KeyError:  # a character that is no token: its bytes' tokens, or the general path
        if unknown is None:
            return None
        ids = unknown(text, list(map(symbol_ids, text)))
    n = len(ids)
    if n > 1:
        merge(ids, None)
        n = len(ids)
    if n == 1:  # one token for the whole word (most short words): no maps to set up
        token = inverse(ids[0])
        size = nbytes(token) - prefixed
        return (ids[0],), (token,), _ONE_LENGTH[size] if size < _SHARED_ZEROS else (size,), _ONE_ZERO, 1, 1, size, None, None
    tokens = tuple(map(inverse, ids))
    lens = tuple(map(nbytes, tokens))
    if prefixed:
        lens = (lens[0] - 1, *lens[1:])
    # _summed's entry, built here (one call less per new word).
    return tuple(ids), tokens, lens, _ZEROS[n] if n < _SHARED_ZEROS else (0,) * n, 1, n, sum(lens), None, None


def _summed(ids: tuple, tokens: tuple, lens: tuple, wofs: tuple, pieces: int) -> tuple:
    """An entry whose tokens cover the word end to end: their byte lengths ``lens`` are their spans
    (``fast.encode.entry_starts``), so none are kept (fewer objects per cached word for the collector).
    ``_summed((5, 6), ("a", "bc"), (1, 2), (0, 0), 1)[-3:] == (3, None, None)``."""
    return ids, tokens, lens, wofs, pieces, len(ids), sum(lens), None, None


def _piece_bytes(plan, model) -> None:
    """Set ``plan.piece_bytes`` for a Unigram model: its tokens are slices of the text they cover
    (unknown runs fused by text; byte-fallback tokens are left to the general path). So are a
    sentencepiece BPE's (``RankBPE`` whose unknown token keeps its text)."""
    from ..models.rank_bpe import RankBPE
    from ..models.unigram import Unigram

    if isinstance(model, Unigram):
        plan.piece_bytes = _CoveredBytes("")
        if type(model) is not Unigram:
            if plan.quick is _verbatim:  # the word is the model's text: its tokens word by word
                plan.by_word = getattr(model, "word_columns", None)
        elif model._fused and not model.byte_fallback:  # 4-field tokens only
            plan.split = model._best_tokens
            if model.unk_id is not None:  # a text that is one piece: its columns in one walk back
                plan.by_word = model.word_columns
    elif type(model) is RankBPE and (model.unk_token is None or model.unk_keeps_text):
        plan.piece_bytes = _CoveredBytes("")
        plan.by_word = model.word_columns


class _CoveredBytes(dict):
    """Token -> UTF-8 length of the text it covers, filled as tokens are met (a vocabulary can be
    large, a fresh tokenizer meets few of its tokens): the token's own length, less ``prefix``'s
    when it starts with a non-empty ``prefix`` (WordPiece's continuations).
    ``_CoveredBytes("##")["##é"] == 2``."""

    __slots__ = ("cut", "prefix")

    def __init__(self, prefix: str):
        super().__init__()
        self.prefix = prefix
        self.cut = len(prefix.encode("utf-8", "surrogatepass"))

    def __missing__(self, token: str) -> int:
        n = len(token.encode("utf-8", "surrogatepass"))
        if self.prefix and token.startswith(self.prefix):
            n -= self.cut
        if len(self) < WORD_CACHE_CAPACITY:  # unknown runs are text of any kind: bounded
            self[token] = n
        return n


def _wordpiece_split(plan, model) -> None:
    """Set ``plan.split`` for a WordPiece model: its longest match without the model's word cache,
    and ``plan.columns``: the same as columns, with the UTF-8 lengths its continuations cover, the
    vocabulary's lookup and word limit (a word that is an entry: its token without the split) and
    the split of a word that is not."""
    from ..models.wordpiece import WordPiece

    if type(model) is WordPiece:
        plan.split = model._split
        plan.columns = (model.columns, _CoveredBytes(model.continuing_subword_prefix), model.vocab.get,
                        model.max_input_chars_per_word, model.columns_past_whole)


def _covered_lens(word: str, stops: tuple, shift: int) -> tuple:
    """UTF-8 lengths of the word's text under tokens ending at ``stops``, characters of a text standing
    one for one for the word after ``shift`` prepended ones. ``_covered_lens("é", (1, 2), 1) == (0, 2)``."""
    bounds = [0, *[e - shift for e in stops]] if shift else [0, *stops]
    if word.isascii():
        return tuple(map(sub, bounds[1:], bounds))
    return tuple([len(word[a:b].encode("utf-8", "surrogatepass")) for a, b in zip(bounds, bounds[1:])])


def _by_word_entry(plan, text: str, lead: int) -> tuple | None:
    """``_quick_entry`` for a sentencepiece model's word whose text is one piece: the model's ids, tokens
    and their byte lengths (a Unigram model keeps them per word of the text), the first one less
    ``lead`` (the bytes the text's first character has beyond the word's), spans summed from them."""
    columns = plan.by_word(text)
    if columns is None or not columns[0]:
        return None
    ids, tokens, lens = columns
    if lead:
        lens = (lens[0] - lead, *lens[1:])
    n = len(ids)
    # _summed's entry with _zeros' offsets, built here (two calls less per new word).
    return ids, tokens, lens, _ZEROS[n] if n < _SHARED_ZEROS else (0,) * n, 1, n, sum(lens), None, None


def _columns_entry(columns: tuple, word: str) -> tuple | None:
    """``_quick_entry`` for a word WordPiece splits as one text: its ids, tokens and sizes (``columns``'
    model columns) as an entry, each token's bytes its characters' (ASCII) or its text's UTF-8
    length less the continuing prefix's (``columns``' ``_CoveredBytes``; the first token's own)."""
    split, covered, whole, most, past_whole = columns
    if 0 < len(word) <= most:
        # A word that is an entry (most words met early) is its own token: no split, no lists;
        # any other is searched past the whole word (tested here once).
        id_ = whole(word)
        if id_ is not None:
            ids, tokens, k = (id_,), (word,), 1
        else:
            ids, tokens, sizes = past_whole(word)
            k = len(ids)
    else:  # the empty word, or one past the word limit: as the split tells
        ids, tokens, sizes = split(word)
        k = len(ids)
    if k == 1:  # the word itself, or the unknown token for all of it
        n = len(word) if word.isascii() else len(word.encode("utf-8", "surrogatepass"))
        # tuple() of a tuple is itself; a short word's length is a shared (n,) (one object less to collect).
        return tuple(ids), tuple(tokens), _ONE_LENGTH[n] if n < _SHARED_ZEROS else (n,), _ONE_ZERO, 1, 1, n, None, None
    if not k:
        return None
    if word.isascii():  # a character is a byte
        return tuple(ids), tuple(tokens), tuple(sizes), _ZEROS[k] if k < _SHARED_ZEROS else (0,) * k, 1, k, len(word), None, None
    lens = (len(tokens[0].encode("utf-8", "surrogatepass")), *map(covered.__getitem__, islice(tokens, 1, None)))
    return tuple(ids), tuple(tokens), lens, _zeros(k), 1, k, sum(lens), None, None


def _verbatim(word: str, first: bool) -> tuple:
    """Without a pre-tokenizer the word is the model's text. ``_verbatim("ab", False) == (("ab",), 0, 0)``."""
    return (word,), 0, 0


def _quick_entry(plan, word: str, first: bool) -> tuple | None:
    """``_entry``'s result for a plan with ``quick`` (``None``: the general path decides): the
    model's tokens of the word's pieces (``plan.quick``: texts whose characters stand one for one
    for the word's, after ``shift`` prepended characters without bytes), their character bounds
    taken to bytes through the word's own table (none needed for ASCII). Byte-fallback tokens,
    which split a character, are left to the general path."""
    if plan.joins and plan.columns is not None and word.isalnum():
        # BertPreTokenizer keeps letters and digits together (its pieces' first test): one text, the word.
        return _columns_entry(plan.columns, word)
    got = plan.quick(word, first)
    if got is None:
        return None
    texts, shift, lead = got
    if plan.by_word is not None and lead is not None and len(texts) == 1:
        out = _by_word_entry(plan, texts[0], lead)
        if out is not None:
            return out
    if plan.columns is not None and len(texts) == 1 and not shift:
        return _columns_entry(plan.columns, texts[0])
    tokenize = plan.split or plan.tokenize
    toks = tokenize(texts[0])
    if not toks:
        return None
    n = len(toks)
    wofs = _zeros(n)
    if len(texts) > 1:  # BertPreTokenizer's runs and marks, one after the other
        toks, wofs, at = list(toks), list(wofs), len(texts[0])
        for k in range(1, len(texts)):
            rest = tokenize(texts[k])
            if not rest:
                return None
            toks += [(t[0], t[1], t[2] + at, t[3] + at, *t[4:]) for t in rest]
            wofs += [k] * len(rest)
            at += len(texts[k])
        wofs = tuple(wofs)
    elif n == 1 and plan.split is not None:  # one token covering the word (most words met early)
        stop = len(word) if word.isascii() else len(word.encode("utf-8", "surrogatepass"))
        return _summed((toks[0][0],), (toks[0][1],), (stop,), wofs, 1)
    if plan.split is None and max(map(len, toks)) != 4:
        return None
    ids, tokens, starts, stops = zip(*toks)
    if plan.split is not None:  # (id, token, start, stop) covering each text end to end
        if word.isascii() and not shift:  # character spans are byte spans
            return ids, tokens, tuple(map(sub, stops, starts)), wofs, len(texts), len(ids), stops[-1], None, None
        if lead is None or plan.piece_bytes is None or word.isascii():  # (else the tokens' own lengths, below)
            return _summed(ids, tokens, _covered_lens(word, stops, shift), wofs, len(texts))
    if word.isascii():
        nbytes = len(word)
        if shift:  # the prepended character is the first token's start (or all of it): byte 0
            starts, stops = tuple(map(_DOWN, starts)), tuple(map(_DOWN, stops))
            if starts[0] < 0:
                starts = (0, *starts[1:])
    elif lead is not None and plan.piece_bytes is not None:
        lens = list(map(plan.piece_bytes.__getitem__, tokens))
        # Tokens are slices of the text: their byte lengths add up, the first one less the bytes
        # the text's first character has beyond the word's.
        if lead:
            lens[0] -= lead
        return _summed(ids, tokens, tuple(lens), wofs, 1)
    else:
        table = char_to_byte_table(word)
        nbytes = table[-1]
        if shift:
            table.insert(0, 0)
        get = table.__getitem__
        starts, stops = tuple(map(get, starts)), tuple(map(get, stops))
    # Spans end to end from 0 to the word's length, as _entry tells.
    covers = starts[1:] == stops[:-1] and starts[0] == 0 and stops[-1] == nbytes
    if covers:
        return ids, tokens, tuple(map(sub, stops, starts)), wofs, len(texts), len(ids), nbytes, None, None
    return ids, tokens, None, wofs, len(texts), len(ids), nbytes, starts, stops


_SHARED_ZEROS = 64
_DOWN = (-1).__add__  # a character position after the prepended one, as a byte position of the word
_ZEROS = [(0,) * n for n in range(_SHARED_ZEROS)]  # word offsets of one-piece words, shared by the cache
_ONE_ZERO = _ZEROS[1]
_ONE_LENGTH = [(n,) for n in range(_SHARED_ZEROS)]  # byte lengths of one-token words, shared likewise


def _zeros(n: int) -> tuple:
    """Word offsets of a one-piece word's ``n`` tokens, shared by the cache for short words.
    ``_zeros(2) == (0, 0)``."""
    return _ZEROS[n] if n < _SHARED_ZEROS else (0,) * n
