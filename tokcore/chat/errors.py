"""The errors chat rendering raises: every one a ``ValueError`` (documents that are not dicts also a ``TypeError``).

Left out: the errors of tokenizer files and offsets (``tokcore.errors``), which chat code reuses unchanged.
"""

from __future__ import annotations

from ..core.errors import TokcoreError


class ChatTemplateError(TokcoreError):
    """A chat template could not be chosen, compiled or rendered; the message says why and what to change.

    When the template itself calls ``raise_exception("...")`` the message contains the template's own text,
    e.g. Mistral's ``Conversation roles must alternate user/assistant/user/assistant/...``.
    """


class ChatInputError(ChatTemplateError):
    """The messages, tools or documents passed in are not usable (empty conversation, a message that is no dict)."""


class ChatInputTypeError(ChatInputError, TypeError):
    """An input has the wrong type where transformers raises ``TypeError`` (documents must be dicts)."""


class ChatTemplateLimitError(ChatTemplateError):
    """A template ran past the render-time or output-size limit (a runaway loop, a huge string)."""
