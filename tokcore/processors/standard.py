"""Post-processors: add the special tokens a model expects, with sentinel spans and type ids.

Each class is named after HF tokenizers' post-processor of the same ``"type"``, reads and
writes its exact ``tokenizer.json`` keys, and builds every field as HF does, overflowing
windows included (see ``tokcore.encoding_merge`` for HF's merge and sequence-range rules).
Inserted tokens get span ``None`` (the contract's ``(0, 0)``), special mask 1, word id and
sequence id ``None``.

Left out: truncation and padding (``tokcore.truncation``), and HF's Python-only conveniences
(``num_special_tokens_to_add`` is ``added_tokens`` here).
"""

from __future__ import annotations

from typing import Optional

from ..core.components import PostProcessor, StageSequence, register
from ..core.encoding import Encoding
from ..core.errors import ConfigurationError
from ..text.byte_level import ByteLevelOptions
from .merge import (
    build_single,
    clone,
    finalize_sequence_ids,
    mark_sequence,
    merge,
    set_sequence_id,
    special_encoding,
    trim_all,
    trim_offsets,
    wrap,
)


class _Processor(PostProcessor):
    """HF's ``PostProcessor::process``: number the sequences, run ``process_encodings``, merge."""

    def process(self, first: Encoding, second: Optional[Encoding] = None, *, add_special_tokens: bool = True) -> Encoding:
        if second is None and not first.overflowing and not first.__dict__.get("hf_ranges"):
            # The common case (one sequence, no windows): build the final lists in one pass
            # instead of numbering, merging and reading ranges back (tests/engine/test_fast_paths.py).
            parts = self._single_parts(first, add_special_tokens)
            if parts is not None:
                return build_single(first, parts)
        return self.process_reference(first, second, add_special_tokens=add_special_tokens)

    def process_reference(self, first: Encoding, second: Optional[Encoding] = None, *,
                          add_special_tokens: bool = True) -> Encoding:
        """The general path, step by step as HF; ``process``'s fast path must match it."""
        encodings = [first] if second is None else [first, second]
        for i, enc in enumerate(encodings):
            mark_sequence(enc, i)
            set_sequence_id(enc, i)
            for o in enc.overflowing:
                set_sequence_id(o, i)
            enc.type_ids = [i] * len(enc)  # HF leaves the windows' type ids as they were
        out = merge(self.process_encodings(encodings, add_special_tokens))
        finalize_sequence_ids(out)
        return out

    def process_encodings(self, encodings: list[Encoding], add_special_tokens: bool) -> list[Encoding]:
        raise NotImplementedError

    def _single_parts(self, enc: Encoding, add_special_tokens: bool) -> Optional[list[tuple]]:
        """``build_single``'s parts for one sequence (after any in-place span trimming), or ``None``: no fast path."""
        return None


def post_process(processor: Optional[PostProcessor], first: Encoding, second: Optional[Encoding], add_special_tokens: bool,
                 *, reference: bool = False) -> Encoding:
    """Run ``processor``; without one, HF's default: a pair is merged as sequences 0 and 1.

    ``reference`` (``not Tokenizer.fast``) takes the step-by-step path of tokcore's own processors.
    """
    if processor is not None:
        if reference and isinstance(processor, _Processor):
            return processor.process_reference(first, second, add_special_tokens=add_special_tokens)
        return processor.process(first, second, add_special_tokens=add_special_tokens)
    mark_sequence(first, 0)
    if second is None:
        finalize_sequence_ids(first)
        return first
    mark_sequence(second, 1)
    set_sequence_id(first, 0)
    set_sequence_id(second, 1)
    out = merge([first, second])
    finalize_sequence_ids(out)
    return out


def _special_pair(value, what: str) -> tuple[str, int]:
    """``("[SEP]", 102)`` from a tuple, ``(102, "[SEP]")``, or HF's JSON list ``["[SEP]", 102]``."""
    if isinstance(value, (list, tuple)) and len(value) == 2:
        token, id_ = value
        if isinstance(token, int) and isinstance(id_, str):
            token, id_ = id_, token
        if isinstance(token, str) and isinstance(id_, int) and not isinstance(id_, bool) and id_ >= 0:
            return token, id_
    raise ConfigurationError(f"{what} must be a (token, id) pair like ('[SEP]', 102), got {value!r}")


def _cls_a_sep(processor, add_special_tokens: bool) -> list[tuple]:
    """``build_single`` parts of ``cls A sep``, every type id 0 (Bert's and Roberta's single sequence)."""
    if not add_special_tokens:
        return [("A", 0)]
    (cls, cls_id), (sep, sep_id) = processor.cls, processor.sep
    return [("special", [cls_id], [cls], 0), ("A", 0), ("special", [sep_id], [sep], 0)]


def _flag(value, what: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigurationError(f"{what} must be true or false, got {value!r}")
    return value


@register("post_processor")
class BertProcessing(_Processor):
    """``[CLS] A [SEP]`` and ``[CLS] A [SEP] B [SEP]``, type ids 0 then 1.

    ``BertProcessing(sep=("[SEP]", 102), cls=("[CLS]", 101)).added_tokens(True) == 3``.
    """

    def __init__(self, sep=("[SEP]", 102), cls=("[CLS]", 101)):
        self.sep = _special_pair(sep, "sep")
        self.cls = _special_pair(cls, "cls")

    def added_tokens(self, is_pair: bool) -> int:
        return 3 if is_pair else 2

    def _single_parts(self, enc, add_special_tokens):
        return _cls_a_sep(self, add_special_tokens)

    def process_encodings(self, encodings, add_special_tokens):
        if not add_special_tokens:
            return encodings
        sep, cls = (self.sep[1], self.sep[0]), (self.cls[1], self.cls[0])
        out = []
        for i, enc in enumerate(encodings):
            if i == 0:
                def one(e):
                    return wrap(e, [cls], [sep], [0] + e.type_ids + [0], 0)
            else:
                def one(e):
                    return wrap(e, [], [sep], e.type_ids + [1], 1)
            main = one(enc)
            main.overflowing = [one(o) for o in enc.overflowing]
            out.append(main)
        return out

    def to_dict(self) -> dict:
        return {"type": "BertProcessing", "sep": list(self.sep), "cls": list(self.cls)}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(sep=data["sep"], cls=data["cls"])


@register("post_processor")
class RobertaProcessing(_Processor):
    """``<s> A </s>`` and ``<s> A </s> </s> B </s>``, every type id 0, optional ``trim_offsets``.

    ``RobertaProcessing(sep=("</s>", 2), cls=("<s>", 0)).added_tokens(True) == 4``.
    """

    def __init__(self, sep=("</s>", 2), cls=("<s>", 0), *, trim_offsets: bool = True, add_prefix_space: bool = True):
        self.sep = _special_pair(sep, "sep")
        self.cls = _special_pair(cls, "cls")
        self.trim_offsets = _flag(trim_offsets, "trim_offsets")
        self.add_prefix_space = _flag(add_prefix_space, "add_prefix_space")

    def added_tokens(self, is_pair: bool) -> int:
        return 4 if is_pair else 2

    def _single_parts(self, enc, add_special_tokens):
        if self.trim_offsets:
            trim_offsets(enc, self.add_prefix_space)
        return _cls_a_sep(self, add_special_tokens)

    def process_encodings(self, encodings, add_special_tokens):
        if self.trim_offsets:
            trim_all(encodings, self.add_prefix_space)
        for enc in encodings:
            enc.type_ids = [0] * len(enc)  # the windows keep theirs unless specials are added
        if not add_special_tokens:
            return encodings
        sep, cls = (self.sep[1], self.sep[0]), (self.cls[1], self.cls[0])
        out = []
        for i, enc in enumerate(encodings):
            first, sid = (cls, 0) if i == 0 else (sep, 1)

            def one(e, first=first, sid=sid):
                return wrap(e, [first], [sep], [0] * (len(e) + 2), sid)

            main = one(enc)
            main.overflowing = [one(o) for o in enc.overflowing]
            out.append(main)
        return out

    def to_dict(self) -> dict:
        return {
            "type": "RobertaProcessing",
            "sep": list(self.sep),
            "cls": list(self.cls),
            "trim_offsets": self.trim_offsets,
            "add_prefix_space": self.add_prefix_space,
        }

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(
            sep=data["sep"], cls=data["cls"],
            trim_offsets=data.get("trim_offsets", True), add_prefix_space=data.get("add_prefix_space", True),
        )


@register("post_processor")
class ByteLevel(ByteLevelOptions, _Processor):
    """Adds nothing; with ``trim_offsets`` moves spans off the spaces a byte-level token carries.

    ``ByteLevel(trim_offsets=True).added_tokens(False) == 0``. ``use_regex`` only matters to the
    pre-tokenizer; it is kept for the file round trip.
    """

    def added_tokens(self, is_pair: bool) -> int:
        return 0

    def _single_parts(self, enc, add_special_tokens):
        if self.trim_offsets:
            trim_offsets(enc, self.add_prefix_space)
        return [("A", 0)]

    def process_encodings(self, encodings, add_special_tokens):
        if self.trim_offsets:
            trim_all(encodings, self.add_prefix_space)
        for i, enc in enumerate(encodings):
            set_sequence_id(enc, i)
        return encodings


@register("post_processor")
class Sequence(StageSequence, _Processor):
    """Run processors in order on the same encodings; their added counts add up."""

    stage, items_key = "post_processor", "processors"

    def __init__(self, processors):
        super().__init__(processors)
        for p in self.processors:
            if not isinstance(p, _Processor):
                raise ConfigurationError(f"Sequence takes tokcore post-processors, got {type(p).__name__}")

    def added_tokens(self, is_pair: bool) -> int:
        return sum(p.added_tokens(is_pair) for p in self.processors)

    def process_encodings(self, encodings, add_special_tokens):
        for p in self.processors:
            encodings = p.process_encodings(encodings, add_special_tokens)
        return encodings


# ------------------------------------------------------------------------------------------
# TemplateProcessing

# A template piece: ("A" | "B", type_id) for a sequence, or ("special", id, type_id).


def parse_piece(text: str) -> tuple:
    """One template piece as HF reads it. ``parse_piece("$B:1") == ("B", 1)``; ``"[CLS]"`` -> ``("special", "[CLS]", 0)``."""
    parts = text.split(":")
    if len(parts) > 2:
        raise ConfigurationError(f"cannot read template piece {text!r}: at most one ':type_id'")
    type_id = 0
    if len(parts) == 2:
        type_id = _u32(parts[1])
        if type_id is None:
            raise ConfigurationError(f"cannot read template piece {text!r}: the type id after ':' must be a number")
    name = parts[0]
    if not name.startswith("$"):
        return ("special", name, type_id)
    rest = name[1:]
    if rest in ("", "A", "a"):
        return ("A", type_id)
    if rest in ("B", "b"):
        return ("B", type_id)
    if _u32(rest) is not None:
        return ("A", _u32(rest) if len(parts) == 1 else type_id)
    raise ConfigurationError(f"cannot read template piece {text!r}: use $A, $B, $<type_id> or a special token")


def _u32(text: str) -> int | None:
    """Rust's ``str::parse::<u32>``: ASCII digits with an optional ``+``. ``_u32("+7") == 7``."""
    digits = text[1:] if text.startswith("+") else text
    if not digits or not digits.isascii() or not digits.isdigit() or int(digits) > 0xFFFFFFFF:
        return None
    return int(digits)


def parse_template(template) -> list[tuple]:
    """A template from ``"[CLS] $A [SEP]"`` (split on single spaces, as HF), a list of such
    strings, or HF's JSON list of ``{"Sequence": ...}`` / ``{"SpecialToken": ...}``."""
    if isinstance(template, str):
        template = template.split(" ")
    if not isinstance(template, (list, tuple)):
        raise ConfigurationError(f"a template must be a string or a list, got {type(template).__name__}")
    out = []
    for item in template:
        if isinstance(item, str):
            out.append(parse_piece(item))
        elif isinstance(item, dict) and len(item) == 1 and "Sequence" in item:
            seq = item["Sequence"]
            if seq.get("id") not in ("A", "B"):
                raise ConfigurationError(f"template sequence id must be 'A' or 'B', got {seq.get('id')!r}")
            out.append((seq["id"], _type_id(seq.get("type_id", 0))))
        elif isinstance(item, dict) and len(item) == 1 and "SpecialToken" in item:
            sp = item["SpecialToken"]
            out.append(("special", str(sp["id"]), _type_id(sp.get("type_id", 0))))
        else:
            raise ConfigurationError(f"cannot read template piece {item!r}")
    return out


def _type_id(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigurationError(f"a type id must be a non-negative integer, got {value!r}")
    return value


def _special_tokens(items) -> dict[str, dict]:
    """HF's special-token table ``{name: {"id", "ids", "tokens"}}`` from pairs, dicts or the table."""
    if items is None:
        return {}
    if isinstance(items, dict):
        items = list(items.values())
    table = {}
    for item in items:
        if isinstance(item, dict):
            name, ids, tokens = item.get("id"), item.get("ids"), item.get("tokens")
            if not isinstance(name, str) or not isinstance(ids, list) or not isinstance(tokens, list):
                raise ConfigurationError(f"special token {item!r} needs 'id' (str), 'ids' and 'tokens' (lists)")
            if len(ids) != len(tokens):
                raise ConfigurationError(f"special token {name!r}: 'ids' and 'tokens' must be of the same length")
            if not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in ids):
                raise ConfigurationError(f"special token {name!r}: ids must be non-negative integers")
            table[name] = {"id": name, "ids": list(ids), "tokens": [str(t) for t in tokens]}
        else:
            token, id_ = _special_pair(item, "a special token")
            table[token] = {"id": token, "ids": [id_], "tokens": [token]}
    return table


def _piece_to_dict(piece: tuple) -> dict:
    if piece[0] == "special":
        return {"SpecialToken": {"id": piece[1], "type_id": piece[2]}}
    return {"Sequence": {"id": piece[0], "type_id": piece[1]}}


@register("post_processor")
class TemplateProcessing(_Processor):
    """Special tokens placed by templates. ``$A``/``$B`` (``:type_id``) stand for the sequences.

    ``TemplateProcessing(single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
    special_tokens=[("[CLS]", 1), ("[SEP]", 2)]).added_tokens(True) == 3``.
    """

    def __init__(self, *, single="$0", pair="$A:0 $B:1", special_tokens=(), _check_pair: bool = True):
        self.single = parse_template(single)
        self.pair = parse_template(pair)
        self.special_tokens = _special_tokens(special_tokens)
        if any(p[0] == "B" for p in self.single):
            raise ConfigurationError("the single template cannot use $B: there is no second sequence")
        if _check_pair and not {"A", "B"} <= {p[0] for p in self.pair}:
            raise ConfigurationError("the pair template must use both sequences, $A and $B")
        missing = sorted({p[1] for p in self.single + self.pair if p[0] == "special"} - set(self.special_tokens))
        if missing:
            raise ConfigurationError(
                f"template uses special token(s) {', '.join(map(repr, missing))} missing from special_tokens; add them with their ids"
            )

    def added_tokens(self, is_pair: bool) -> int:
        template = self.pair if is_pair else self.single
        return sum(len(self.special_tokens[p[1]]["ids"]) for p in template if p[0] == "special")

    def _single_parts(self, enc, add_special_tokens):
        parts = []
        for p in self.single:
            if p[0] != "special":
                parts.append(("A", p[1]))
            elif add_special_tokens:
                sp = self.special_tokens[p[1]]
                parts.append(("special", sp["ids"], sp["tokens"], p[2]))
        return parts

    def process_encodings(self, encodings, add_special_tokens):
        template = self.pair if len(encodings) == 2 else self.single
        uses = [sum(p[0] == seq for p in template) for seq in ("A", "B")]
        parts = []
        for piece in template:
            if piece[0] == "special":
                if add_special_tokens:
                    sp = self.special_tokens[piece[1]]
                    parts.append(special_encoding(sp["ids"], sp["tokens"], piece[2]))
                continue
            i = 0 if piece[0] == "A" else 1
            enc = encodings[i]
            enc.type_ids = [piece[1]] * len(enc)  # the main encoding only; windows keep theirs (as HF)
            set_sequence_id(enc, i)
            parts.append(clone(enc) if uses[i] > 1 else enc)  # HF clones; one use needs no copy
        return parts

    def to_dict(self) -> dict:
        return {
            "type": "TemplateProcessing",
            "single": [_piece_to_dict(p) for p in self.single],
            "pair": [_piece_to_dict(p) for p in self.pair],
            "special_tokens": {k: dict(self.special_tokens[k]) for k in sorted(self.special_tokens)},
        }

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        # HF does not check that a loaded pair template uses both sequences.
        return cls(single=data["single"], pair=data["pair"], special_tokens=data.get("special_tokens"), _check_pair=False)

