"""``ByteDecoder``: the decoder of the ByT5-style byte model (``tokcore.models.byte_model``), a tokcore-only type.

Left out: byte-level (GPT-2 alphabet) and byte-fallback decoding (``tokcore.decoders.standard``).
"""

from __future__ import annotations

from ..core.components import Decoder, register


def byte_token_bytes(token: str) -> bytes:
    """Bytes a token stands for: a byte token's byte, any other token's UTF-8 text.

    ``byte_token_bytes("<0xC3>") == b"\\xc3"`` and ``byte_token_bytes("</s>") == b"</s>"``.
    """
    if len(token) == 6 and token.startswith("<0x") and token.endswith(">"):
        try:
            return bytes([int(token[3:5], 16)])
        except ValueError:
            pass
    return token.encode("utf-8", "surrogatepass")


@register("decoder")
class ByteDecoder(Decoder):
    """Join the tokens' bytes and decode UTF-8, a bad sequence becoming U+FFFD (``errors="replace"``).

    ``ByteDecoder().decode(["<0xC3>", "<0xA9>", "!"]) == "é!"``. HF's equivalent is
    ``Sequence[ByteFallback, Fuse]``, which differs only on invalid UTF-8 (one U+FFFD per byte there).
    """

    def decode_chain(self, tokens: list[str]) -> list[str]:
        return [b"".join(byte_token_bytes(t) for t in tokens).decode("utf-8", "replace")]

    def to_hf_dict(self) -> dict:
        return {"type": "Sequence", "decoders": [{"type": "ByteFallback"}, {"type": "Fuse"}]}
