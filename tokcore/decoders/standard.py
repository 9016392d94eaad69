"""Decoders: tokens -> text, with HF tokenizers' ``"type"`` tags and per-token ``decode_chain``.

Each class follows HF's ``decode_chain`` to the character (``decode`` joins its output), so a
chain such as Llama's ``Replace -> ByteFallback -> Fuse -> Strip`` gives HF's text. Byte-level
helpers (``token_bytes``, ``ByteLevel.decode_bytes``) give the raw bytes, as tiktoken's
``decode_bytes`` does, for tokens that cut a character.

Left out: id lookup and skipping special tokens (``Tokenizer.decode`` does those).
"""

from __future__ import annotations

from ..core.components import Decoder, StageSequence, register
from ..core.errors import ConfigurationError
from ..text.byte_level import ByteLevelOptions
from ..text.onig_regex import compile_onig, find_matches

_BYTE_TOKEN_HEX = frozenset("0123456789abcdefABCDEF")


def token_bytes(token: str) -> bytes:
    """The bytes a byte-level token stands for; a token outside the alphabet is its UTF-8.

    ``token_bytes("Ġhi") == b" hi"``; ``token_bytes("<s>") == b"<s>"``.
    """
    from ..text.byte_level import chars_to_bytes  # imported on use: the alphabet module lands separately

    data = chars_to_bytes(token)
    return data if data is not None else token.encode("utf-8")


def wordpiece_cleanup(text: str) -> str:
    """HF's English detokenization fixes. ``wordpiece_cleanup("do n't .") == "don't."``."""
    for old, new in (
        (" .", "."), (" ?", "?"), (" !", "!"), (" ,", ","), (" ' ", "'"), (" n't", "n't"),
        (" 'm", "'m"), (" do not", " don't"), (" 's", "'s"), (" 've", "'ve"), (" 're", "'re"),
    ):
        text = text.replace(old, new)
    return text


def _string(data: dict, key: str, default=None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise ConfigurationError(f"'{key}' must be a string, got {value!r}")
    return value


@register("decoder")
class Sequence(StageSequence, Decoder):
    """Run decoders in order on the token list. ``Sequence([Fuse()]).decode(["a", "b"]) == "ab"``."""

    stage, items_key = "decoder", "decoders"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        for d in self.decoders:
            tokens = d.decode_chain(tokens)
        return tokens


@register("decoder")
class Fuse(Decoder):
    """Join all tokens into one. ``Fuse().decode_chain(["a", "b"]) == ["ab"]``."""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        return ["".join(tokens)]


@register("decoder")
class Replace(Decoder):
    """Replace a literal string (or a regex) in every token. ``Replace("▁", " ").decode_chain(["▁a"]) == [" a"]``.

    ``Replace(regex=r"\\s+", content=" ")`` takes a pattern (HF's ``{"Regex": ...}``), an
    Oniguruma pattern run by ``tokcore.onig_regex``.
    """

    def __init__(self, pattern: str | None = None, content: str = "", *, regex: str | None = None):
        if (pattern is None) == (regex is None):
            raise ConfigurationError("Replace needs exactly one of pattern (a literal string) or regex")
        if not isinstance(content, str) or not isinstance(pattern if regex is None else regex, str):
            raise ConfigurationError("Replace pattern, regex and content must be strings")
        self.pattern = pattern
        self.regex = regex
        self.content = content
        self._compiled = None
        if regex is not None:
            try:
                self._compiled = compile_onig(regex)
            except Exception as exc:  # the regex module raises its own error class
                raise ConfigurationError(f"Replace: cannot compile regex {regex!r}: {exc}") from None

    def decode_chain(self, tokens: list[str]) -> list[str]:
        # HF leaves an empty token empty, even for a pattern that matches the empty string.
        if self._compiled is None:
            return [t.replace(self.pattern, self.content) if t else t for t in tokens]
        out = []
        for token in tokens:
            if not token:
                out.append(token)
                continue
            parts, prev = [], 0
            for start, stop in find_matches(self._compiled, token):
                parts.append(token[prev:start])
                parts.append(self.content)
                prev = stop
            parts.append(token[prev:])
            out.append("".join(parts))
        return out

    def to_dict(self) -> dict:
        key, value = ("String", self.pattern) if self.pattern is not None else ("Regex", self.regex)
        return {"type": "Replace", "pattern": {key: value}, "content": self.content}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        pattern = data["pattern"]
        content = _string(data, "content")
        if isinstance(pattern, str):
            return cls(pattern, content)
        if isinstance(pattern, dict) and len(pattern) == 1 and "String" in pattern:
            return cls(_string(pattern, "String"), content)
        if isinstance(pattern, dict) and len(pattern) == 1 and "Regex" in pattern:
            return cls(content=content, regex=_string(pattern, "Regex"))
        raise ValueError("'pattern' must be {'String': ...} or {'Regex': ...}")


@register("decoder")
class ByteLevel(ByteLevelOptions, Decoder):
    """Byte-level characters back to bytes, all tokens into one text, broken UTF-8 as ``�``.

    ``ByteLevel().decode(["Hello", "Ġworld"]) == "Hello world"``. The options do not change decoding.
    """

    def decode_bytes(self, tokens: list[str]) -> bytes:
        """The raw bytes of ``tokens`` (tiktoken's ``decode_bytes``).

        ``ByteLevel().decode_bytes(["Ġa", "ðŁ"]) == b" a\\xf0\\x9f"``.
        """
        return b"".join(token_bytes(t) for t in tokens)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        return [self.decode_bytes(tokens).decode("utf-8", "replace")]


@register("decoder")
class WordPiece(Decoder):
    """Glue ``##`` continuations, put a space before other tokens, optionally clean up.

    ``WordPiece().decode(["un", "##aff", "##able", "!"]) == "unaffable!"``.
    """

    def __init__(self, *, prefix: str = "##", cleanup: bool = True):
        self.prefix = prefix
        self.cleanup = bool(cleanup)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        for i, token in enumerate(tokens):
            if i:
                token = token[len(self.prefix):] if token.startswith(self.prefix) else " " + token
            out.append(wordpiece_cleanup(token) if self.cleanup else token)
        return out

    def to_dict(self) -> dict:
        return {"type": "WordPiece", "prefix": self.prefix, "cleanup": self.cleanup}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(prefix=_string(data, "prefix", "##"), cleanup=data.get("cleanup", True))


@register("decoder")
class Metaspace(Decoder):
    """``▁`` back to spaces; in the first token HF drops every ``▁`` unless ``prepend_scheme="never"``.

    ``Metaspace().decode(["▁Hey", "▁friend"]) == "Hey friend"``.
    """

    SCHEMES = ("always", "first", "never")

    def __init__(self, *, replacement: str = "▁", prepend_scheme: str = "always", split: bool = True):
        if not isinstance(replacement, str) or len(replacement) != 1:
            raise ConfigurationError(f"Metaspace replacement must be one character, got {replacement!r}")
        if prepend_scheme not in self.SCHEMES:
            raise ConfigurationError(f"Metaspace prepend_scheme must be one of {', '.join(self.SCHEMES)}, got {prepend_scheme!r}")
        self.replacement = replacement
        self.prepend_scheme = prepend_scheme
        self.split = bool(split)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        rep = self.replacement
        out = [t.replace(rep, " ") for t in tokens]
        if out and self.prepend_scheme != "never":
            out[0] = tokens[0].replace(rep, "")
        return out

    def to_dict(self) -> dict:
        return {"type": "Metaspace", "replacement": self.replacement, "prepend_scheme": self.prepend_scheme, "split": self.split}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        scheme = data.get("prepend_scheme", "always")
        if data.get("add_prefix_space") is False:  # the legacy key, read as HF does
            if "prepend_scheme" in data and scheme != "never":
                raise ValueError("add_prefix_space does not match declared prepend_scheme")
            scheme = "never"
        return cls(replacement=_string(data, "replacement"), prepend_scheme=scheme, split=data.get("split", True))


@register("decoder", "BPEDecoder")
class BPEDecoder(Decoder):
    """The end-of-word suffix becomes a space (nothing on the last token).

    ``BPEDecoder().decode(["hel", "lo</w>", "you</w>"]) == "hello you"``.
    """

    def __init__(self, *, suffix: str = "</w>"):
        self.suffix = suffix

    def decode_chain(self, tokens: list[str]) -> list[str]:
        last = len(tokens) - 1
        return [t.replace(self.suffix, "" if i == last else " ") for i, t in enumerate(tokens)]

    def to_dict(self) -> dict:
        return {"type": "BPEDecoder", "suffix": self.suffix}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(suffix=_string(data, "suffix", "</w>"))


def byte_token_value(token: str) -> int | None:
    """The byte of a ``<0xNN>`` token, as HF reads it, or ``None``. ``byte_token_value("<0x41>") == 65``."""
    if len(token) != 6 or not token.startswith("<0x") or not token.endswith(">"):
        return None  # HF checks the UTF-8 length; a 6-character "<0x..>" with non-ASCII inside fails below
    hexpart = token[3:5]
    if hexpart[0] == "+" and hexpart[1] in _BYTE_TOKEN_HEX:  # Rust's from_str_radix takes a '+' sign
        return int(hexpart[1], 16)
    if hexpart[0] in _BYTE_TOKEN_HEX and hexpart[1] in _BYTE_TOKEN_HEX:
        return int(hexpart, 16)
    return None


@register("decoder")
class ByteFallback(Decoder):
    """Runs of ``<0xNN>`` tokens back to text; a run that is not UTF-8 gives one ``�`` per byte.

    ``ByteFallback().decode(["<0xE2>", "<0x82>", "<0xAC>"]) == "€"``.
    """

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out: list[str] = []
        run = bytearray()
        for token in tokens:
            value = byte_token_value(token)
            if value is not None:
                run.append(value)
                continue
            if run:
                out.append(_flush(run))
                run = bytearray()
            out.append(token)
        if run:
            out.append(_flush(run))
        return out


def _flush(run: bytearray) -> str:
    try:
        return run.decode("utf-8")
    except UnicodeDecodeError:
        return "\ufffd" * len(run)


@register("decoder")
class Strip(Decoder):
    """Remove up to ``start`` leading and ``stop`` trailing ``content`` characters of each token.

    ``Strip(content=" ", start=1, stop=0).decode_chain([" hi"]) == ["hi"]``.
    """

    def __init__(self, *, content: str = " ", start: int = 0, stop: int = 0):
        if not isinstance(content, str) or len(content) != 1:
            raise ConfigurationError(f"Strip content must be one character, got {content!r}")
        for name, value in (("start", start), ("stop", stop)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ConfigurationError(f"Strip {name} must be a non-negative integer, got {value!r}")
        self.content = content
        self.start = start
        self.stop = stop

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        for token in tokens:
            begin = 0
            while begin < min(self.start, len(token)) and token[begin] == self.content:
                begin += 1
            end = len(token)
            # HF's loop indexes past the start when stop > len (a panic there); stop at the start.
            for _ in range(min(self.stop, len(token))):
                if token[end - 1] != self.content:
                    break
                end -= 1
            out.append(token[begin:end] if begin <= end else "")
        return out

    def to_dict(self) -> dict:
        return {"type": "Strip", "content": self.content, "start": self.start, "stop": self.stop}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(content=_string(data, "content", " "), start=data.get("start", 0), stop=data.get("stop", 0))


@register("decoder")
class CTC(Decoder):
    """Collapse repeats, drop the pad token, word delimiters become spaces (with ``cleanup``).

    ``CTC().decode(["<pad>", "h", "h", "e", "|", "y"]) == "he y"``.
    """

    def __init__(self, *, pad_token: str = "<pad>", word_delimiter_token: str = "|", cleanup: bool = True):
        self.pad_token = pad_token
        self.word_delimiter_token = word_delimiter_token
        self.cleanup = bool(cleanup)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        previous = None
        for i, token in enumerate(tokens):
            if i and token == previous:
                continue
            previous = token
            text = token.replace(self.pad_token, "")
            if self.cleanup:
                text = wordpiece_cleanup(text).replace(self.word_delimiter_token, " ")
            if text:
                out.append(text)
        return out

    def to_dict(self) -> dict:
        return {"type": "CTC", "pad_token": self.pad_token, "word_delimiter_token": self.word_delimiter_token, "cleanup": self.cleanup}

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        return cls(
            pad_token=_string(data, "pad_token", "<pad>"),
            word_delimiter_token=_string(data, "word_delimiter_token", "|"),
            cleanup=data.get("cleanup", True),
        )
