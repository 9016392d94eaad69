"""What a ``.tiktoken`` file cannot say, read from the model's other files beside it.

A rank file that is not one of OpenAI's encodings (Llama-3's ``tokenizer.model``) ships with HF
files that name the rest: ``tokenizer.json`` holds the split pattern (its pre-tokenizer's
``Split`` regex) and the special tokens (its added tokens flagged ``special``);
``tokenizer_config.json`` holds the special tokens in ``added_tokens_decoder``.

Left out: reading the ranks and building the tokenizer (``tokcore.loaders.tiktoken_file``); any
other file (``special_tokens_map.json`` names tokens without ids).
"""

from __future__ import annotations

from pathlib import Path


def split_pattern(pre_tokenizer) -> str | None:
    """The first ``Split`` regex of an HF pre-tokenizer dict (inside a ``Sequence`` too), or ``None``.

    ``split_pattern({"type": "Split", "pattern": {"Regex": "\\\\s+"}}) == "\\\\s+"``.
    """
    if not isinstance(pre_tokenizer, dict):
        return None
    if pre_tokenizer.get("type") == "Split":
        pattern = pre_tokenizer.get("pattern")
        regex = pattern.get("Regex") if isinstance(pattern, dict) else None
        return regex if isinstance(regex, str) and regex else None
    if pre_tokenizer.get("type") == "Sequence":
        for item in pre_tokenizer.get("pretokenizers") or []:
            found = split_pattern(item)
            if found is not None:
                return found
    return None


def special_tokens_of(entries) -> dict[str, int] | None:
    """``{content: id}`` of the special entries of a list or an id -> entry map, or ``None`` when none.

    ``special_tokens_of({"7": {"content": "<s>", "special": True}}) == {"<s>": 7}``.
    """
    if isinstance(entries, dict):
        entries = [dict(value, id=key) for key, value in entries.items() if isinstance(value, dict)]
    if not isinstance(entries, list):
        return None
    out = {}
    for entry in entries:
        if not isinstance(entry, dict) or not entry.get("special"):
            continue
        content, id_ = entry.get("content"), entry.get("id")
        if isinstance(id_, str) and id_.isdigit():
            id_ = int(id_)
        if isinstance(content, str) and content and isinstance(id_, int) and not isinstance(id_, bool) and id_ >= 0:
            out[content] = id_
    return out or None


def settings_beside(path: Path) -> tuple[str | None, dict[str, int] | None]:
    """``(split pattern, special tokens)`` found in ``tokenizer.json`` / ``tokenizer_config.json`` beside ``path``."""
    from .files import read_json

    pattern = specials = None
    folder = path.parent
    if (folder / "tokenizer.json").is_file():
        data = read_json(folder / "tokenizer.json")
        if isinstance(data, dict):
            pattern = split_pattern(data.get("pre_tokenizer"))
            specials = special_tokens_of(data.get("added_tokens"))
    if specials is None and (folder / "tokenizer_config.json").is_file():
        data = read_json(folder / "tokenizer_config.json")
        if isinstance(data, dict):
            specials = special_tokens_of(data.get("added_tokens_decoder"))
    return pattern, specials
