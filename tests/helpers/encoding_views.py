"""Helpers for the post-processor and truncation/padding parity tests.

The same pipeline is built twice, by hand: HF ``tokenizers`` (WordLevel + WhitespaceSplit + a
post-processor from its ``tokenizer.json`` dict) and tokcore (the same components). Both
results become plain nested dicts (overflowing windows included) with 0-based character
offsets, HF's ``(0, 0)`` standing for tokcore's sentinel.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache

from shared_data import require_shared

import tokcore
from tokcore.core.components import build
from tokcore.models.word_level import WordLevel
from tokcore.pre_tokenizers.standard import WhitespaceSplit

FIELDS = ("ids", "tokens", "type_ids", "special", "attention", "words", "seq", "offsets")
SPECIALS = ["[UNK]", "[PAD]", "[CLS]", "[SEP]", "<s>", "</s>", "[MASK]"]


@lru_cache(maxsize=None)
def sample_texts() -> tuple[str, ...]:
    """Every 40th non-empty botchan line and every valid edge case (WhitespaceSplit words)."""
    lines = require_shared("corpora", "botchan.txt").read_text(encoding="utf-8").splitlines()
    texts = [line for i, line in enumerate(lines) if line.strip() and i % 40 == 0][:100]
    for line in require_shared("edge_cases.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            text = json.loads(line)["text"]
            if not any(0xD800 <= ord(c) <= 0xDFFF for c in text):
                texts.append(text)
    return tuple(texts)


@lru_cache(maxsize=None)
def sample_vocab() -> dict[str, int]:
    """The specials, then the 1500 most frequent words of the samples (the rest are unknown)."""
    counts = Counter(w for t in sample_texts() for w in t.split())
    words = [w for w, _ in counts.most_common(1500) if w not in SPECIALS]
    return {w: i for i, w in enumerate(SPECIALS + words)}


def hf_pipeline(proc: dict | None):
    import tokenizers

    data = {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": [], "normalizer": None,
        "pre_tokenizer": {"type": "WhitespaceSplit"}, "post_processor": proc, "decoder": None,
        "model": {"type": "WordLevel", "vocab": sample_vocab(), "unk_token": "[UNK]"},
    }
    return tokenizers.Tokenizer.from_str(json.dumps(data))


def tokcore_pipeline(proc: dict | None, **kwargs) -> tokcore.Tokenizer:
    return tokcore.Tokenizer(
        WordLevel(sample_vocab(), unk_token="[UNK]"),
        pre_tokenizer=WhitespaceSplit(),
        post_processor=build("post_processor", proc),
        **kwargs,
    )


def hf_view(enc) -> dict:
    view = {
        "ids": enc.ids, "tokens": enc.tokens, "type_ids": enc.type_ids, "special": enc.special_tokens_mask,
        "attention": enc.attention_mask, "words": enc.word_ids, "seq": enc.sequence_ids,
        "offsets": [tuple(o) for o in enc.offsets],
    }
    view["over"] = [hf_view(o) for o in enc.overflowing]
    return view


def tokcore_view(res) -> dict:
    """``res`` with offsets as HF gives them: 0-based characters of the text each token came from."""
    texts = {0: res.tokenization_text, 1: res.tokenization_text_pair}
    offsets = []
    for o, seq in zip(res.offsets, res.sequence_ids):
        span = None if seq is None else tokcore.byte_span_to_char_span(texts[seq], o)
        offsets.append((0, 0) if span is None else span)
    view = {
        "ids": res.ids, "tokens": res.tokens, "type_ids": res.token_type_ids, "special": res.special_tokens_mask,
        "attention": res.attention_mask, "words": res.word_ids, "seq": res.sequence_ids, "offsets": offsets,
    }
    view["over"] = [tokcore_view(o) for o in res.overflowing]
    return view


def true_sequence_ids(view: dict) -> dict:
    """HF's view with real tokens' sequence ids set to their text (0/1 from the type ids).

    Only for pairs *without* a post-processor, whose type ids are 0/1 by text: there HF's merged
    windows lose the second text's range (tokcore keeps it; see ``tokcore.encoding_merge``).
    """
    view = dict(view)
    view["seq"] = [t if sp == 0 else s for t, sp, s in zip(view["type_ids"], view["special"], view["seq"])]
    view["over"] = [true_sequence_ids(o) for o in view["over"]]
    return view


def first_difference(want: dict, got: dict, path: str = "") -> str | None:
    """Where two views first differ (``"/2/0 offsets"``), or ``None``."""
    if len(want["over"]) != len(got["over"]):
        return f"{path} number of windows {len(want['over'])} != {len(got['over'])}"
    for key in FIELDS:
        if key in want and want[key] != got[key]:
            return f"{path} {key}: HF {want[key]} != tokcore {got[key]}"
    for i, (w, g) in enumerate(zip(want["over"], got["over"])):
        found = first_difference(w, g, f"{path}/{i}")
        if found:
            return found
    return None


def all_results(res):
    """``res`` and every overflowing window below it."""
    yield res
    for o in res.overflowing:
        yield from all_results(o)


def contract_special(view: dict, specials: dict[int, str], text: str, pair: str | None = None) -> dict:
    """HF's view with special added tokens matched in the text marked special, as the offsets
    contract asks (HF marks only the tokens its post-processor inserts). ``specials``: id -> content."""
    view = dict(view)
    texts = {0: text, 1: pair or ""}
    view["special"] = [
        int(m or (s is not None and i in specials and specials[i] in texts[s][a:b]))
        for m, i, (a, b), s in zip(view["special"], view["ids"], view["offsets"], view["seq"])
    ]
    view["over"] = [contract_special(o, specials, text, pair) for o in view["over"]]
    return view
