"""Post-processors: add the special tokens a model expects, with sentinel spans and type ids.

Each class is named after HF tokenizers' post-processor of the same ``"type"``.

Left out: truncation and padding (``tokcore.truncation``).
"""

from __future__ import annotations

from .components import PostProcessor, build, register  # noqa: F401
