"""``TiktokenTokenizer``: the tokenizer of a ``.tiktoken`` encoding, which takes text as tiktoken does.

tiktoken encodes a ``str`` holding lone surrogates (text decoded with ``surrogateescape``, or cut
in the middle of a UTF-16 pair) by first passing it through UTF-16 with ``"replace"``: a lone
surrogate becomes U+FFFD and a high and low surrogate side by side become their one character.
This tokenizer does the same before encoding, so ids are tiktoken's; offsets then refer to that
cleaned text (``EncodeResult.raw_text``). Every other tokenizer keeps refusing such text with a
``ValueError`` naming the position, as HF tokenizers and sentencepiece refuse it.

Left out: reading rank files and choosing the split pattern (``tokcore.loaders.tiktoken_file``).
"""

from __future__ import annotations

from ..core.tokenizer import Tokenizer


def replace_surrogates(text):
    """tiktoken's clean-up of a ``str`` with lone surrogates. ``replace_surrogates("a\\ud800b") == "a\\ufffdb"``.

    Anything that is not a ``str`` is returned as it is (the encoder then says what it expected).
    """
    if not isinstance(text, str) or text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def _clean_item(item):
    if isinstance(item, tuple):
        return tuple(replace_surrogates(t) for t in item)
    return replace_surrogates(item)


class TiktokenTokenizer(Tokenizer):
    """A ``Tokenizer`` that replaces lone surrogates as tiktoken does before encoding (module docstring)."""

    def encode_result(self, text, *args, text_pair=None, **kwargs):
        return super().encode_result(replace_surrogates(text), *args, text_pair=replace_surrogates(text_pair), **kwargs)

    def encode_batch(self, texts, *args, **kwargs):
        if isinstance(texts, (list, tuple)):
            texts = [_clean_item(t) for t in texts]
        return super().encode_batch(texts, *args, **kwargs)

    def normalized_string(self, text):
        return super().normalized_string(replace_surrogates(text))
