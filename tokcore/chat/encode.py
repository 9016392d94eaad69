"""Tokenizing a rendered prompt the way transformers does, with each token attributed to a message or the template.

The rendered text already holds the special tokens the template wrote (BOS, role tags), so it is encoded with
``add_special_tokens=False``, as ``apply_chat_template(tokenize=True)`` does. A token belongs to the first message
whose content span it overlaps (a zero-width token, such as a prefix space a normalizer adds, to the span it sits
in); every other token was added by the template.

Left out: rendering (``tokcore.chat.render``), truncation and padding (pass the ids on to ``encode_result`` options
yourself), and the model side (which tokens a model was trained to see).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.encoding import EncodeResult
from ..core.errors import WrongTypeError
from ..core.offsets import Span
from .render import ChatRender


@dataclass(frozen=True)
class ChatEncoding:
    """The tokens of a rendered prompt and whose they are.

    ``token_messages[i]`` is the index of the message token ``i`` belongs to, or ``None`` for a template token;
    ``message_token_counts[m]`` counts message ``m``'s tokens; ``warnings`` are sentences for the user (a BOS the
    post-processor would double, a template token this tokenizer does not know).
    """

    result: EncodeResult
    token_messages: tuple[int | None, ...]
    message_token_counts: tuple[int, ...]
    template_token_count: int
    warnings: tuple[str, ...]


def token_owners(token_spans: Sequence[Span], message_spans: Sequence[Sequence[Span]]) -> list[int | None]:
    """For each token span, the first message whose content span it overlaps (``None``: template or no span).

    >>> token_owners([(1, 3), (3, 6), (0, 0)], [[(4, 9)]])
    [None, 0, None]
    """
    owned = sorted((start, stop, message) for message, spans in enumerate(message_spans) for start, stop in spans)
    stops = [stop for _start, stop, _message in owned]
    owners: list[int | None] = []
    for start, stop in token_spans:
        owner = None
        if (start, stop) != (0, 0):
            at = bisect_right(stops, start)  # the first content span ending after the token starts
            if at < len(owned):
                span_start, _span_stop, message = owned[at]
                overlaps = span_start < stop if stop > start else span_start <= start
                owner = message if overlaps else None
        owners.append(owner)
    return owners


def _added_around(tokenizer) -> tuple[list[int], list[int]]:
    """Ids the post-processor adds before and after a plain text when ``add_special_tokens=True``."""
    probe = "chat"
    plain = tokenizer.encode_result(probe, add_special_tokens=False).ids
    full = tokenizer.encode_result(probe, add_special_tokens=True).ids
    for start in range(len(full) - len(plain) + 1):
        if full[start:start + len(plain)] == plain:
            return full[:start], full[start + len(plain):]
    return [], []


def special_token_warnings(tokenizer, render: ChatRender, ids: Sequence[int]) -> list[str]:
    """Sentences about special tokens: doubled BOS/EOS if encoded with the post-processor on, a missing BOS,
    and template tokens this tokenizer would split into pieces."""
    warnings = []
    prefix, suffix = _added_around(tokenizer)

    def names(token_ids):
        return " ".join(f"`{tokenizer.id_to_token(i)}`" for i in token_ids)

    if prefix and list(ids[:len(prefix)]) == prefix:
        warnings.append(
            f"the template already writes {names(prefix)} at the start: this tokenizer's post-processor would add a "
            f"second {names(prefix)} if you encoded the prompt with add_special_tokens=True (encode chat prompts with "
            "add_special_tokens=False, as transformers does and as done here)"
        )
    elif prefix:
        warnings.append(
            f"this tokenizer adds {names(prefix)} to plain text, but the template wrote none at the start, and chat "
            f"prompts are encoded without the post-processor: the model sees no {names(prefix)}. Check that the "
            "template and the tokenizer belong to the same model"
        )
    if suffix and len(ids) >= len(suffix) and list(ids[len(ids) - len(suffix):]) == suffix:
        warnings.append(
            f"the prompt already ends with {names(suffix)}: encoding it with add_special_tokens=True would add a "
            f"second {names(suffix)}"
        )
    for name, text in sorted(render.special_tokens.items()):
        if text and text in render.text and tokenizer.token_to_id(text) is None:
            warnings.append(
                f"the template writes {name} `{text}`, which this tokenizer does not have as one token: it is split "
                "into ordinary pieces. The template and the tokenizer may belong to different models"
            )
    return warnings


def chat_encode(tokenizer, render: ChatRender) -> ChatEncoding:
    """Tokens of ``render.text`` (``add_special_tokens=False``), attributed to messages, with warnings."""
    if not isinstance(render, ChatRender):
        raise WrongTypeError(
            f"render must be a ChatRender from tokcore.render_chat_spans(...), got {type(render).__name__}"
        )
    import tokcore

    result = tokcore.encode_result(tokenizer, render.text, return_offsets=True, add_special_tokens=False)
    # Offsets point into the normalized text; original_offsets point into the rendered text, like the spans.
    token_spans = result.original_offsets if result.original_offsets is not None else result.offsets
    owners = token_owners(token_spans, render.message_spans)
    counts = [0] * len(render.message_spans)
    for owner in owners:
        if owner is not None:
            counts[owner] += 1
    return ChatEncoding(
        result=result,
        token_messages=tuple(owners),
        message_token_counts=tuple(counts),
        template_token_count=sum(owner is None for owner in owners),
        warnings=tuple(special_token_warnings(tokenizer, render, result.ids)),
    )
