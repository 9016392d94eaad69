"""The ``Tokenizer``: normalizer -> pre-tokenizer -> model -> post-processor, decoder apart.

Offsets are exact by construction: the normalizer keeps a character alignment to the raw
input, pre-tokenizers hand the model pieces whose characters carry byte bounds in the
tokenization text, and the model reports character (or byte) positions inside its piece.
Nothing is re-aligned after the fact.

One switch selects the reference path: ``Tokenizer.fast`` (a class attribute, settable per
object). ``True`` puts the fast lane and word plans (``tokcore.fast``) in front of the one encode
core (``tokcore.core.encode``) and lets the post-processors and the offset mapping take their
one-pass shortcuts; ``False`` runs every step as HF does, which the tests compare the fast paths
against.

Left out: file formats (``tokcore.loaders``), dicts and ``tokenizer.json`` (``tokcore.serialization``),
truncation and padding rules (``tokcore.processors``), and the algorithms of each stage (one
folder per stage).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

from ..fast.lane import lane_for
from ..parallel.batch import encode_parallel
from ..parallel.workers import drop_pool
from ..processors.padding import pad_encodings
from ..processors.settings import (
    check_padding_settings,
    check_truncation_settings,
    resolve_padding,
    resolve_truncation,
)
from ..processors.standard import post_process
from ..processors.truncation import truncate_and_process
from ..serialization.tokenizer_json import FORMAT_NAME, FORMAT_VERSION, to_hf_dict, tokenizer_parts
from .added_tokens import AddedToken, AddedVocabulary
from .components import (
    STAGES,
    Decoder,
    Model,
    Normalizer,
    PostProcessor,
    PreTokenizer,
    watch,
)
from .encode import encode_sequence, split_view
from .encoding import EncodeResult, Encoding
from .errors import TokenizerFileError, UnknownIdError, WrongTypeError, check_text
from .normalized import NormalizedString
from .result_build import build_result

#: The things a tokenizer derives from its stages' options, dropped when any option changes.
_DERIVED = ("_lane", "_word_plan")


class Tokenizer:
    """A full tokenization pipeline. Build one from components, or get one from ``tokcore.load``."""

    #: Use the fast paths of ``tokcore.fast.encode`` where they apply (same results; ``False`` runs
    #: the reference path, which the tests compare against).
    fast: bool = True

    def __init__(
        self,
        model: Model,
        *,
        normalizer: Normalizer | None = None,
        pre_tokenizer: PreTokenizer | None = None,
        post_processor: PostProcessor | None = None,
        decoder: Decoder | None = None,
        added_tokens: Iterable[AddedToken] = (),
        truncation: dict | None = None,
        padding: dict | None = None,
        name: str = "",
    ):
        if not isinstance(model, Model):
            raise WrongTypeError(f"model must be a tokcore Model, got {type(model).__name__}")
        self.model = model
        self.normalizer = normalizer
        self.pre_tokenizer = pre_tokenizer
        self.post_processor = post_processor
        self.decoder = decoder
        self.truncation = check_truncation_settings(truncation)
        self.padding = check_padding_settings(padding)
        self.name = name
        self.added_vocabulary = AddedVocabulary(added_tokens, normalize=self._normalize_content)

    _subclasses: dict[str, type] = {}

    def __init_subclass__(cls, **kwargs):
        # Saved files name their class ("CharTokenizer"); from_dict finds it here.
        super().__init_subclass__(**kwargs)
        Tokenizer._subclasses[cls.__name__] = cls

    def __getstate__(self) -> dict:
        # Copies and pickles rebuild their own lane and word plan (they hold closures over this
        # tokenizer's stages, which do not pickle) and start their own worker processes.
        state = dict(self.__dict__)
        for private in (*_DERIVED, "_pool"):
            state.pop(private, None)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        for stage in STAGES:
            watch(state.get(stage), self)

    def __setattr__(self, name: str, value) -> None:
        # A replaced stage (or any other setting) makes what was derived from the old ones stale.
        self._stage_changed()
        object.__setattr__(self, name, value)
        if name in STAGES:
            watch(value, self)

    def _stage_changed(self) -> None:
        """Drop the fast lane, the word plan and the worker processes (a stage or an option changed)."""
        d = self.__dict__
        for private in _DERIVED:
            d.pop(private, None)
        if "_pool" in d:
            drop_pool(self)

    # ------------------------------------------------------------------ vocabulary
    def _normalize_content(self, content: str) -> str:
        return self.normalizer.normalize_str(content) if self.normalizer is not None else content

    @property
    def added_tokens(self) -> list[AddedToken]:
        return list(self.added_vocabulary.tokens)

    def add_tokens(self, tokens: Iterable[AddedToken | str], *, special: bool = False) -> int:
        """Add tokens (new ids after the current vocabulary); returns how many were new."""
        current = list(self.added_vocabulary.tokens)
        vocab = self.get_vocab()
        next_id = max(vocab.values(), default=-1) + 1
        added = 0
        for tok in tokens:
            content = tok.content if isinstance(tok, AddedToken) else tok
            if not isinstance(content, str) or not content:
                raise WrongTypeError("added tokens must be non-empty strings or AddedToken objects")
            check_text(content, name="added token")  # a lone surrogate could never be saved
            if any(t.content == content for t in current):
                continue
            id_ = vocab.get(content)
            if id_ is None:
                id_, next_id = next_id, next_id + 1
                added += 1
            if isinstance(tok, AddedToken):
                current.append(AddedToken(content, id_, tok.special, tok.single_word, tok.lstrip, tok.rstrip, tok.normalized))
            else:
                current.append(AddedToken(content, id_, special=special, normalized=not special))
        self.added_vocabulary = AddedVocabulary(current, normalize=self._normalize_content)
        return added

    def token_to_id(self, token: str) -> int | None:
        """Id of ``token`` (added tokens first, as HF does), or ``None``."""
        id_ = self.added_vocabulary.token_to_id(token)
        return id_ if id_ is not None else self.model.token_to_id(token)

    def id_to_token(self, id: int) -> str | None:
        """Token of ``id``, or ``None`` when the id is unknown."""
        tok = self.added_vocabulary.id_to_token(id)
        return tok.content if tok is not None else self.model.id_to_token(id)

    def get_vocab(self) -> dict[str, int]:
        """Every token with its id, added tokens included."""
        vocab = dict(self.model.get_vocab())
        for t in self.added_vocabulary:
            vocab[t.content] = t.id
        return vocab

    @property
    def vocab_size(self) -> int:
        return len(self.get_vocab())

    @property
    def unk_token(self) -> str | None:
        return getattr(self.model, "unk_token", None)

    # ------------------------------------------------------------------ views
    def normalized_string(self, text: str) -> NormalizedString:
        """The tokenization text of ``text`` with its alignment (added tokens are left as they are)."""
        return self._view(check_text(text), assume_normalized=False, split_special=False)[0]

    def normalize(self, text: str) -> str:
        """The tokenization text of ``text``. ``CharTokenizer().normalize("é!") == "<UNK>!"``."""
        return self.normalized_string(text).normalized

    def tokenization_view(self, text: str) -> str:
        """The text that offsets point into (same as ``normalize``)."""
        return self.normalized_string(text).normalized

    def _view(self, text: str, *, assume_normalized: bool, split_special: bool):
        """(NormalizedString of the whole text, [(view_char_start, view_char_stop, AddedToken|None)])."""
        return split_view(self, text, assume_normalized=assume_normalized, split_special=split_special)

    # ------------------------------------------------------------------ encoding
    def _encode_sequence(self, text: str, *, assume_normalized: bool, split_special: bool, seq: int,
                         need_spans: bool = True) -> tuple[Encoding, NormalizedString]:
        return encode_sequence(self, text, assume_normalized=assume_normalized, split_special=split_special, seq=seq,
                               need_spans=need_spans)

    def encode_result(
        self,
        text: str,
        *,
        assume_normalized: bool = False,
        return_offsets: bool = False,
        return_masks: bool = False,
        add_special_tokens: bool = True,
        text_pair: str | None = None,
        truncation: Any = None,
        max_length: int | None = None,
        stride: int = 0,
        truncation_strategy: str = "longest_first",
        truncation_side: str | None = None,
        padding: Any = None,
        pad_to_multiple_of: int | None = None,
        padding_side: str | None = None,
        split_special_tokens: bool = False,
    ) -> EncodeResult:
        """Encode ``text`` (and ``text_pair``) into one frozen ``EncodeResult``; see ``tokcore.encode_result``."""
        if (text_pair is None and truncation is None and padding is None and self.truncation is None
                and self.padding is None and self.fast and isinstance(text, str)):
            lane = self.__dict__.get("_lane", _NO_LANE)  # lane_for's cache, inlined: the hot path of a line
            if lane is _NO_LANE:
                lane = lane_for(self)
            if lane is not None:
                res = lane.encode(self, text, return_offsets, return_masks, add_special_tokens, assume_normalized,
                                  split_special_tokens)
                if res is not None:
                    return res
            # Nothing to truncate or pad: encode_batch's steps reduce to these three.
            # Without offsets the spans are never read (post-processors only move them), so the
            # fast path leaves them out; the fresh Encoding's lists go to the result uncopied.
            enc, ns = self._encode_sequence(text, assume_normalized=assume_normalized,
                                            split_special=split_special_tokens, seq=0, need_spans=return_offsets)
            enc = self._post_process(enc, None, add_special_tokens)
            return build_result(enc, ns, None, text, None, fast=True, return_offsets=return_offsets,
                                return_masks=return_masks, own=not enc.overflowing)
        results = self.encode_batch(
            [text if text_pair is None else (text, text_pair)],
            assume_normalized=assume_normalized,
            return_offsets=return_offsets,
            return_masks=return_masks,
            add_special_tokens=add_special_tokens,
            truncation=truncation,
            max_length=max_length,
            stride=stride,
            truncation_strategy=truncation_strategy,
            truncation_side=truncation_side,
            padding=padding,
            pad_to_multiple_of=pad_to_multiple_of,
            padding_side=padding_side,
            split_special_tokens=split_special_tokens,
        )
        return results[0]

    def encode_batch(
        self,
        texts: Sequence[str | tuple[str, str]],
        *,
        assume_normalized: bool = False,
        return_offsets: bool = False,
        return_masks: bool = False,
        add_special_tokens: bool = True,
        truncation: Any = None,
        max_length: int | None = None,
        stride: int = 0,
        truncation_strategy: str = "longest_first",
        truncation_side: str | None = None,
        padding: Any = None,
        pad_to_multiple_of: int | None = None,
        padding_side: str | None = None,
        split_special_tokens: bool = False,
        processes: int | None = None,
    ) -> list[EncodeResult]:
        """Encode many texts (or ``(text, text_pair)`` tuples); padding ``"longest"`` pads to the batch's longest.

        ``processes=N`` spreads the texts over N worker processes (``tokcore.parallel``); the
        results are the same as in one process.
        """
        if isinstance(texts, str):
            raise WrongTypeError("encode_batch takes a list of texts; for one text call encode_result")
        if processes is not None and (isinstance(processes, bool) or not isinstance(processes, int) or processes < 1):
            raise WrongTypeError(f"processes must be a positive int or None, got {processes!r}")
        trunc = resolve_truncation(self.truncation, truncation, max_length, stride, truncation_strategy, truncation_side)
        pad = resolve_padding(self.padding, padding, max_length, pad_to_multiple_of, padding_side, self)
        if processes is not None and processes > 1 and len(texts) > 1 and not (pad and pad["strategy"] == "BatchLongest"):
            kwargs = dict(
                assume_normalized=assume_normalized, return_offsets=return_offsets, return_masks=return_masks,
                add_special_tokens=add_special_tokens, truncation=truncation, max_length=max_length, stride=stride,
                truncation_strategy=truncation_strategy, truncation_side=truncation_side, padding=padding,
                pad_to_multiple_of=pad_to_multiple_of, padding_side=padding_side,
                split_special_tokens=split_special_tokens,
            )
            return encode_parallel(self, list(texts), processes, kwargs)
        # Plain texts with nothing to truncate or pad take the single-text lane (results in order;
        # None marks an item built below).
        lane = lane_for(self) if self.fast and trunc is None and pad is None else None
        laned: list = []
        built = []
        for item in texts:
            if lane is not None:
                res = lane.encode(self, item, return_offsets, return_masks, add_special_tokens, assume_normalized,
                                  split_special_tokens) if isinstance(item, str) else None
                laned.append(res)
                if res is not None:
                    continue
            first, second = (item, None) if isinstance(item, str) else _pair_of(item)
            enc_a, ns_a = self._encode_sequence(first, assume_normalized=assume_normalized, split_special=split_special_tokens, seq=0)
            enc_b = ns_b = None
            if second is not None:
                enc_b, ns_b = self._encode_sequence(second, assume_normalized=assume_normalized, split_special=split_special_tokens, seq=1)
            n_added = self._added_count(enc_b is not None) if add_special_tokens else 0
            enc = truncate_and_process(
                enc_a, enc_b, trunc, n_added, self._post_process, add_special_tokens, n_added_single=self._added_count(False)
            )
            built.append((enc, ns_a, ns_b, first, second))
        pad_encodings([b[0] for b in built], pad)
        results = [
            build_result(enc, ns_a, ns_b, first, second, fast=self.fast, return_offsets=return_offsets,
                         return_masks=return_masks)
            for enc, ns_a, ns_b, first, second in built
        ]
        if lane is None:
            return results
        rest = iter(results)
        return [res if res is not None else next(rest) for res in laned]

    def _added_count(self, is_pair: bool) -> int:
        return self.post_processor.added_tokens(is_pair) if self.post_processor is not None else 0

    def _post_process(self, enc_a: Encoding, enc_b: Optional[Encoding], add_special_tokens: bool) -> Encoding:
        # Without a post-processor HF still merges a pair (and its overflowing windows) its own way.
        return post_process(self.post_processor, enc_a, enc_b, add_special_tokens, reference=not self.fast)

    def encode(self, text: str, *, add_special_tokens: bool = True) -> list[int]:
        """Token ids of ``text``. ``CharTokenizer().encode("hi") == [76, 77]``."""
        return self.encode_result(text, add_special_tokens=add_special_tokens).ids

    def encode_ordinary(self, text: str) -> list[int]:
        """Ids with special tokens neither parsed from the text nor added (tiktoken's verb)."""
        return self.encode_result(text, add_special_tokens=False, split_special_tokens=True).ids

    # ------------------------------------------------------------------ decoding
    def _tokens_for(self, ids: Iterable[int], skip_special_tokens: bool) -> list[str]:
        special = self.added_vocabulary.special_ids() if skip_special_tokens else set()
        tokens = []
        for i, id_ in enumerate(ids):
            if isinstance(id_, bool) or not isinstance(id_, int):
                raise WrongTypeError(f"ids must be ints; item {i} is {type(id_).__name__}")
            if id_ in special:
                continue
            tok = self.id_to_token(id_)
            if tok is None:
                raise UnknownIdError(
                    f"id {id_} (item {i}) is not in this tokenizer's vocabulary of {self.vocab_size} tokens; "
                    "pass ids produced by the same tokenizer"
                )
            tokens.append(tok)
        return tokens

    def decode(self, ids: Iterable[int], *, skip_special_tokens: bool = False) -> str:
        """Text of ``ids``: the decoder's output, or tokens joined by spaces when there is none (as HF)."""
        tokens = self._tokens_for(ids, skip_special_tokens)
        if self.decoder is not None:
            return self.decoder.decode(tokens)
        return " ".join(tokens)

    def decode_batch(self, batch: Iterable[Iterable[int]], *, skip_special_tokens: bool = False) -> list[str]:
        return [self.decode(ids, skip_special_tokens=skip_special_tokens) for ids in batch]

    # ------------------------------------------------------------------ serialization
    def to_dict(self) -> dict:
        """tokcore's native JSON: HF's keys and ``"type"`` tags plus a versioned header."""
        return {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "class": type(self).__name__,
            "name": self.name,
            "truncation": self.truncation,
            "padding": self.padding,
            "added_tokens": [t.to_dict() for t in sorted(self.added_vocabulary, key=lambda t: t.id)],
            "normalizer": _dump(self.normalizer),
            "pre_tokenizer": _dump(self.pre_tokenizer),
            "model": self.model.to_dict(),
            "post_processor": _dump(self.post_processor),
            "decoder": _dump(self.decoder),
        }

    @classmethod
    def from_dict(cls, data: dict, *, source: object = "<dict>") -> "Tokenizer":
        """The tokenizer of a native or HF ``tokenizer.json`` dict (a saved subclass comes back as itself)."""
        class_name, model, kwargs = tokenizer_parts(data, source=source)
        klass = Tokenizer._subclasses.get(class_name, cls)
        try:
            return klass._from_parts(model, **kwargs)
        except TokenizerFileError:
            raise
        except (ValueError, TypeError) as exc:
            raise TokenizerFileError(source, str(exc)) from None

    @classmethod
    def _from_parts(cls, model: Model, **kwargs) -> "Tokenizer":
        return cls(model, **kwargs)

    def save(self, path: str | Path) -> None:
        """Write tokcore's versioned JSON; ``tokcore.load(path)`` gives back an identical tokenizer."""
        Path(path).write_text(json.dumps(self.to_dict(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")

    def to_hf_dict(self) -> dict:
        """The tokenizer as an HF ``tokenizer.json`` dict."""
        return to_hf_dict(self)

    def save_hf(self, path: str | Path) -> None:
        """Write an HF ``tokenizer.json`` that the ``tokenizers`` library loads and encodes identically."""
        Path(path).write_text(json.dumps(self.to_hf_dict(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={type(self.model).__name__}, vocab_size={self.vocab_size})"


def _dump(component) -> dict | None:
    return None if component is None else component.to_dict()


def _pair_of(item) -> tuple[str, str]:
    if isinstance(item, (tuple, list)) and len(item) == 2:
        return item[0], item[1]
    raise WrongTypeError("each batch item must be a str or a (text, text_pair) pair")


_NO_LANE = object()  # no lane built yet (None: this pipeline has none)
