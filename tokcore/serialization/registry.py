"""Every pipeline component by stage and ``"type"`` tag: imports each stage's folder so their classes register.

``registered("normalizer")`` lists what a ``tokenizer.json`` may name. The table itself lives
with the base classes (``tokcore.core.components``), where ``build`` reads it; this module sits
on top of every stage and makes sure the table is complete.

Left out: building whole tokenizers (``tokcore.serialization.tokenizer_json``).
"""

from __future__ import annotations

from .. import decoders, models, normalizers, pre_tokenizers, processors  # noqa: F401  (their registrations)
from ..core.components import registered

__all__ = ["registered"]
