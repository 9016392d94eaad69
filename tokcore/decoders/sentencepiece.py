"""``SentencePieceDecoder``: pieces back to text exactly as sentencepiece's ``Decode`` writes them.

sentencepiece's rules (``SentencePieceProcessor::Decode``), which no chain of HF decoders gives:

- a control piece (``<s>``, ``</s>``) writes nothing; the unknown piece writes the model's
  ``unk_surface`` (by default ``" ⁇ "``, U+2047 between spaces), not its name;
- runs of byte pieces (``<0xE2>``...) become their UTF-8 text, each invalid byte U+FFFD;
- ``"▁"`` becomes ``" "``; while nothing has been written yet, a piece's leading ``"▁"`` is dropped
  when the model adds a dummy prefix or removes extra whitespace. With ``remove_extra_whitespaces``
  this goes on until some text is written (``[▁, so]`` gives ``"so"``), without it only the first
  ``"▁"`` is dropped;
- a model with a ``denormalizer_spec`` runs its rules over the finished text.

Left out: the encode side (``tokcore.normalizers.sentencepiece``) and reading ``.model`` files
(``tokcore.loaders``); like sentencepiece, nothing here looks at ids, only at piece strings.
"""

from __future__ import annotations

import codecs
from typing import Iterable

from ..core.components import Decoder, register
from ..core.errors import ConfigurationError
from .bytes import byte_token_bytes

SPACE_SYMBOL = "\u2581"
DEFAULT_UNK_SURFACE = " \u2047 "


# sentencepiece replaces invalid UTF-8 one byte at a time (Python's "replace" takes a maximal prefix).
codecs.register_error("tokcore-per-byte", lambda exc: ("\ufffd", exc.start + 1))


def bytes_text(data: bytes) -> str:
    """UTF-8 of byte pieces, each invalid byte U+FFFD. ``bytes_text(b"\\xe2\\x82a") == "\\ufffd\\ufffda"``."""
    return data.decode("utf-8", "tokcore-per-byte")


@register("decoder")
class SentencePieceDecoder(Decoder):
    """sentencepiece's ``Decode`` over piece strings (see the module docstring).

    ``SentencePieceDecoder(unk_piece="<unk>").decode(["▁a", "<unk>", "▁b"]) == "a ⁇  b"``.
    ``denormalizer`` is a normalizer (a ``.model``'s denormalizer spec) run on the decoded text.
    """

    def __init__(self, *, control: Iterable[str] = (), unk_piece: str | None = None,
                 unk_surface: str = DEFAULT_UNK_SURFACE, byte_pieces: Iterable[str] = (),
                 add_dummy_prefix: bool = True, remove_extra_whitespaces: bool = True, denormalizer=None):
        if not isinstance(unk_surface, str):
            raise ConfigurationError(f"unk_surface must be a string, got {unk_surface!r}")
        self.control = sorted(set(control))
        self.unk_piece = unk_piece
        self.unk_surface = unk_surface
        self.byte_pieces = sorted(set(byte_pieces))
        self.add_dummy_prefix = bool(add_dummy_prefix)
        self.remove_extra_whitespaces = bool(remove_extra_whitespaces)
        self.denormalizer = denormalizer
        self._control = frozenset(self.control)
        self._bytes = frozenset(self.byte_pieces)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out: list[str] = []
        pending = bytearray()
        written = False  # some text is out (sentencepiece's "text is not empty")
        bos_ws = True  # a leading "▁" may still be dropped
        strip_first = self.add_dummy_prefix or self.remove_extra_whitespaces
        for token in tokens:
            if token in self._bytes:
                pending += byte_token_bytes(token)
                continue
            if pending:
                surface = bytes_text(bytes(pending))
                out.append(surface)
                written = written or bool(surface)
                pending.clear()
            if written:
                bos_ws = False
            if token in self._control:
                out.append("")
                continue
            if token == self.unk_piece:
                out.append(self.unk_surface)
                written = written or bool(self.unk_surface)
                continue
            piece = token
            if bos_ws and strip_first and piece.startswith(SPACE_SYMBOL):
                piece = piece[1:]
                # With extra-whitespace removal every leading "▁" goes until text is written.
                bos_ws = self.remove_extra_whitespaces
            surface = piece.replace(SPACE_SYMBOL, " ")
            out.append(surface)
            written = written or bool(surface)
        if pending:
            out.append(bytes_text(bytes(pending)))
        if self.denormalizer is not None:
            return [self.denormalizer.normalize_str("".join(out))]
        return out

    def to_dict(self) -> dict:
        data = {"type": "SentencePieceDecoder", "control": list(self.control), "unk_piece": self.unk_piece,
                "unk_surface": self.unk_surface, "byte_pieces": list(self.byte_pieces),
                "add_dummy_prefix": self.add_dummy_prefix, "remove_extra_whitespaces": self.remove_extra_whitespaces}
        if self.denormalizer is not None:
            data["denormalizer"] = self.denormalizer.to_dict()
        return data

    def to_hf_dict(self) -> dict:
        # HF's nearest chain: the unknown surface, control pieces and denormalizer are sentencepiece's own.
        steps = [{"type": "Replace", "pattern": {"String": SPACE_SYMBOL}, "content": " "}]
        if self.byte_pieces:
            steps.append({"type": "ByteFallback"})
        steps.append({"type": "Fuse"})
        if self.add_dummy_prefix:
            steps.append({"type": "Strip", "content": " ", "start": 1, "stop": 0})
        return {"type": "Sequence", "decoders": steps}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        denormalizer = data.get("denormalizer")
        if denormalizer is not None:
            from ..core.components import build

            denormalizer = build("normalizer", denormalizer)
        for key in ("control", "byte_pieces"):
            value = data.get(key, [])
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ConfigurationError(f"'{key}' must be a list of piece strings")
        unk = data.get("unk_piece")
        if unk is not None and not isinstance(unk, str):
            raise ConfigurationError(f"'unk_piece' must be a string or null, got {unk!r}")
        return cls(control=data.get("control", []), unk_piece=unk,
                   unk_surface=data.get("unk_surface", DEFAULT_UNK_SURFACE), byte_pieces=data.get("byte_pieces", []),
                   add_dummy_prefix=bool(data.get("add_dummy_prefix", True)),
                   remove_extra_whitespaces=bool(data.get("remove_extra_whitespaces", True)),
                   denormalizer=denormalizer)
