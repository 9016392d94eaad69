"""The ASCII character tokenizer: one id per character of printable ASCII, ``\\n`` and ``\\t``.

Every other character (non-ASCII, and every other control character, ``\\r`` included) is
normalized to the placeholder ``<UNK>``, which is one token of id 1; a literal ``<UNK>`` in the
input is matched as that special token with its real span. ``<PAD>`` is id 0 and decodes to
nothing, so ``decode(encode(t)) == normalize(t)`` for every ``t``.

Left out: learning an alphabet from a corpus (that is ``tokcore.train_char``'s job).
"""

from __future__ import annotations

import json
from pathlib import Path

from ..core.added_tokens import AddedToken
from ..core.errors import TokenizerFileError
from ..core.tokenizer import Tokenizer
from ..decoders.standard import Fuse, Replace, Sequence
from ..loaders.files import read_json
from ..models.char_level import CharLevel
from ..normalizers.standard import AsciiPolicy

PAD = "<PAD>"
UNK = "<UNK>"
VOCAB_FILE_TYPE = "CharTokenizer"
VOCAB_FILE_VERSION = 1


def default_vocab() -> dict[str, int]:
    """``<PAD>`` 0, ``<UNK>`` 1, then tab, newline and space..tilde in code-point order from 2.

    ``default_vocab()["\\t"] == 2`` and ``default_vocab()["~"] == 98``.
    """
    chars = ["\t", "\n"] + [chr(c) for c in range(32, 127)]
    vocab = {PAD: 0, UNK: 1}
    for i, ch in enumerate(chars, start=2):
        vocab[ch] = i
    return vocab


class CharTokenizer(Tokenizer):
    """ASCII character tokenizer. ``CharTokenizer().encode("Hi") == [44, 77]``."""

    def __init__(self, vocab: dict[str, int] | None = None, *, name: str = "ascii-char"):
        vocab = default_vocab() if vocab is None else _check_vocab(vocab, "<vocab>")
        super().__init__(
            CharLevel(vocab, unk_token=UNK),
            normalizer=AsciiPolicy(UNK),
            decoder=Sequence([Replace(PAD, ""), Fuse()]),
            added_tokens=[AddedToken(UNK, vocab[UNK], special=True, normalized=True)],
            name=name,
        )

    @classmethod
    def _from_parts(cls, model, **kwargs) -> "CharTokenizer":
        if not isinstance(model, CharLevel):
            raise TokenizerFileError(kwargs.get("name") or "<dict>", "a CharTokenizer needs a CharLevel model")
        self = cls.__new__(cls)
        Tokenizer.__init__(self, model, **kwargs)
        return self

    @property
    def vocab(self) -> dict[str, int]:
        """Token -> id, ``<PAD>`` and ``<UNK>`` included."""
        return self.get_vocab()

    @property
    def pad_token(self) -> str:
        return PAD

    def save_vocab(self, path: str | Path) -> None:
        """Write the vocabulary as indented, human-readable JSON."""
        data = {
            "type": VOCAB_FILE_TYPE,
            "version": VOCAB_FILE_VERSION,
            "pad_token": PAD,
            "unk_token": UNK,
            "vocab": dict(sorted(self.vocab.items(), key=lambda kv: kv[1])),
        }
        Path(path).write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load_vocab(cls, path: str | Path) -> "CharTokenizer":
        """Read a file written by ``save_vocab``; a malformed file raises ``TokenizerFileError``."""
        path = Path(path)
        data = read_json(path)
        if not isinstance(data, dict):
            raise TokenizerFileError(path, f"expected a JSON object, got {type(data).__name__}", where="top level")
        if data.get("type") != VOCAB_FILE_TYPE:
            raise TokenizerFileError(path, f"'type' is {data.get('type')!r}, expected {VOCAB_FILE_TYPE!r}",
                                     where="type", fix="Is this a file written by CharTokenizer.save_vocab?")
        version = data.get("version")
        if version != VOCAB_FILE_VERSION:
            raise TokenizerFileError(path, f"unsupported version {version!r} (expected {VOCAB_FILE_VERSION})", where="version")
        for key, want in (("pad_token", PAD), ("unk_token", UNK)):
            if data.get(key, want) != want:
                raise TokenizerFileError(path, f"{key} must be {want!r}, got {data.get(key)!r}", where=key)
        if "vocab" not in data:
            raise TokenizerFileError(path, "no 'vocab' object", where="top level", fix="Add a 'vocab' mapping token -> id.")
        return cls(_check_vocab(data["vocab"], path))


def _check_vocab(vocab: object, source: object) -> dict[str, int]:
    """Validate a character vocabulary: str -> unique non-negative int ids, specials present."""
    if not isinstance(vocab, dict):
        raise TokenizerFileError(source, f"'vocab' must be an object mapping token -> id, got {type(vocab).__name__}", where="vocab")
    seen: dict[int, str] = {}
    for token, id_ in vocab.items():
        where = f"vocab[{token!r}]"
        if isinstance(id_, bool) or not isinstance(id_, int) or id_ < 0:
            raise TokenizerFileError(source, f"id {id_!r} is not a non-negative integer", where=where)
        if token not in (PAD, UNK) and len(token) != 1:
            raise TokenizerFileError(source, f"token {token!r} is not a single character", where=where,
                                     fix="Only <PAD>, <UNK> and single characters are allowed.")
        if id_ in seen:
            raise TokenizerFileError(source, f"id {id_} is used by both {seen[id_]!r} and {token!r}", where=where)
        seen[id_] = token
    for special in (PAD, UNK):
        if special not in vocab:
            raise TokenizerFileError(source, f"the vocabulary has no {special}", where="vocab", fix=f"Add {special!r}.")
    return dict(vocab)
