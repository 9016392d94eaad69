"""The one encode core: text -> tokenization text and added-token segments -> pieces -> model tokens.

``split_view`` normalizes the text around its added tokens and says where each segment lies in
the tokenization text; ``encode_sequence`` runs the pre-tokenizer and the model on each plain
segment and fills an ``Encoding`` whose spans are byte offsets into that text, exact by
construction. The tokenizer's word plan (``tokcore.fast.plan``), when it has one, stands in
front of the pre-tokenizer and model as a cache of finished words; ``Tokenizer.fast = False``
leaves it out (the reference path).

Left out: post-processing, truncation and padding (``tokcore.processors``), building results
(``tokcore.core.result_build``), and the single-text lane (``tokcore.fast.lane``), which calls
back into these steps.
"""

from __future__ import annotations

from ..fast.encode import encode_words
from ..fast.plan import word_plan
from .components import byte_fallback_span, piece_from_text
from .encoding import Encoding
from .errors import check_text
from .normalized import NormalizedString
from .offsets import char_to_byte_table


def split_view(tokenizer, text: str, *, assume_normalized: bool, split_special: bool) -> tuple[NormalizedString, list]:
    """(NormalizedString of the whole text, [(view_char_start, view_char_stop, AddedToken|None)])."""
    av = tokenizer.added_vocabulary
    if assume_normalized or (tokenizer.normalizer is None and not any(not t.normalized for t in av)):
        segs = av.split_all(text, split_special=split_special) if len(av) else ([(0, len(text), None)] if text else [])
        return NormalizedString(text), segs
    parts: list[NormalizedString] = []
    segs = []
    pos = 0
    for start, stop, tok in av.split_raw(text, split_special=split_special):
        chunk = text[start:stop]
        if tok is not None:
            part = NormalizedString(chunk)
            segs.append((pos, pos + len(chunk), tok))
        else:
            part = NormalizedString(chunk)
            if tokenizer.normalizer is not None:
                part = tokenizer.normalizer.normalize(part)
            for a, b, t in av.split_normalized(part.normalized, split_special=split_special):
                segs.append((pos + a, pos + b, t))
        parts.append(part)
        pos += len(part.normalized)
    if len(parts) == 1:  # one segment (the common case): concat would only copy its alignment
        return parts[0], segs
    return NormalizedString.concat(parts), segs


def encode_sequence(tokenizer, text: str, *, assume_normalized: bool, split_special: bool, seq: int,
                need_spans: bool = True) -> tuple[Encoding, NormalizedString]:
    ns, segs = split_view(tokenizer, check_text(text), assume_normalized=assume_normalized, split_special=split_special)
    view = ns.normalized
    plan = word_plan(tokenizer) if tokenizer.fast else None
    view_ascii = view.isascii()
    # Byte offset of every view character; the fast path does without it for one plain segment.
    single = len(segs) == 1 and segs[0][0] == 0 and segs[0][2] is None
    table = None if view_ascii or (plan is not None and single) else char_to_byte_table(view)
    ids: list[int] = []
    values: list[str] = []
    spans: list = []
    words: list = []
    specials: list[int] = []  # positions of added tokens flagged special
    word = 0
    tokenize = tokenizer.model.tokenize
    pre = tokenizer.pre_tokenizer
    for a, b, tok in segs:
        if b <= a:
            continue
        ba, bb = (a, b) if table is None else (table[a], table[b])
        if tok is not None:
            if tok.special:
                specials.append(len(ids))
            ids.append(tok.id)
            values.append(view[a:b])  # the matched text, absorbed whitespace included (as HF)
            spans.append((ba, bb))
            words.append(word)
            word += 1
            continue
        if plan is not None:
            nxt = encode_words(plan, view[a:b], ba, table, a, view_ascii, ids, values, spans, words, word,
                               need_spans)
            if nxt is not None:
                word = nxt
                continue
        if table is None and not view_ascii:
            table = char_to_byte_table(view)
            ba = table[a]
        piece = piece_from_text(view[a:b], ba)
        pieces = pre.pre_tokenize([piece]) if pre is not None else [piece]
        for p in pieces:
            if not p.text:
                continue
            bounds = p.bounds
            toks = tokenize(p.text)
            for t in toks:
                ids.append(t[0])
                values.append(t[1])
                if len(t) == 4:
                    spans.append((bounds[t[2]], bounds[t[3]]))
                else:
                    spans.append(byte_fallback_span(bounds, t[2], t[4]))
            words.extend([word] * len(toks))
            word += 1
    n = len(ids)
    special = [0] * n
    for i in specials:
        special[i] = 1
    enc = Encoding(ids, values, spans, special, [0] * n, words, [seq] * n, [1] * n)
    return enc, ns
