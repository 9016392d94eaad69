"""``byte_tokenizer``: a ready ByT5-style tokenizer, bytes as tokens.

Left out: the byte model itself (``tokcore.models.byte_model``) and its decoder
(``tokcore.decoders.bytes``).
"""

from __future__ import annotations

from ..core.added_tokens import AddedToken
from ..core.tokenizer import Tokenizer
from ..decoders.bytes import ByteDecoder
from ..models.byte_model import ByteModel
from ..processors.standard import TemplateProcessing


def byte_tokenizer(*, add_eos: bool = True):
    """A full ByT5-style ``Tokenizer``: bytes as tokens, ``</s>`` appended like ByT5 when ``add_eos``.

    ``byte_tokenizer(add_eos=False).encode("hi") == [107, 108]``.
    """
    model = ByteModel()
    added = [AddedToken(s, i, special=True, normalized=False) for i, s in enumerate(model.special_tokens)]
    post = None
    if add_eos:
        post = TemplateProcessing(
            single="$A </s>", pair="$A </s> $B </s>", special_tokens=[("</s>", model.vocab["</s>"])]
        )
    return Tokenizer(model, post_processor=post, decoder=ByteDecoder(), added_tokens=added, name="byt5-bytes")
