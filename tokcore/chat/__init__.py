"""Chat templates: render a conversation as a model sees it, find each message in it, and tokenize it.

Lives here: ``render_chat`` (the string transformers' ``apply_chat_template(..., tokenize=False)`` returns),
``render_chat_spans`` (the same plus each message's content spans, as a ``ChatRender``), ``chat_encode`` (tokens of
a render, counted per message, with warnings such as a doubled BOS), ``load_chat_config`` and the errors.
Templates run in a Jinja sandbox with the settings transformers uses, bounded in time and output size.

Left out: any Streamlit page (``tokapp``), downloading configs from the Hub (pass local files), tools given as
Python functions, batches of conversations, ``continue_final_message`` and assistant-token masks.
"""

from __future__ import annotations

from .config import ChatConfig, load_chat_config
from .encode import ChatEncoding, chat_encode
from .errors import ChatInputError, ChatInputTypeError, ChatTemplateError, ChatTemplateLimitError
from .render import ChatRender, render_chat, render_chat_spans

__all__ = [
    "ChatConfig",
    "ChatEncoding",
    "ChatInputError",
    "ChatInputTypeError",
    "ChatRender",
    "ChatTemplateError",
    "ChatTemplateLimitError",
    "chat_encode",
    "load_chat_config",
    "render_chat",
    "render_chat_spans",
]
