"""A tokenizer's pipeline, stage by stage, for the Load and export page; and its export files.

Each stage comes from the component's own ``to_dict()`` (HF's keys and ``"type"`` tag), so the
summary shows exactly what a saved file would hold. Large tables (vocabularies, merges, precompiled
charsmaps) are summarised by their size; ``Sequence`` components list their parts as children.

``[s.stage for s in pipeline_stages(tokcore.CharTokenizer())][:3] == ["Normalizer", "Pre-tokenizer", "Model"]``

Left out: uploading (``tokapp.uploads``) and drawing (the page).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

STAGES = (
    ("normalizer", "Normalizer", "rewrites the text; offsets keep an exact alignment to the input"),
    ("pre_tokenizer", "Pre-tokenizer", "splits the text into pieces the model sees one by one"),
    ("model", "Model", "turns each piece into tokens from its vocabulary"),
    ("post_processor", "Post-processor", "adds template tokens ([CLS], </s>...) with the (0, 0) sentinel span"),
    ("decoder", "Decoder", "turns tokens back into text"),
)
CHILD_KEYS = ("normalizers", "pretokenizers", "pre_tokenizers", "processors", "decoders")
MAX_VALUE_CHARS = 120

FORMATS = {
    "hf": ("HF tokenizer.json", "tokenizer.json"),
    "tokcore": ("tokcore JSON", "tokcore.json"),
}


@dataclass(frozen=True)
class Stage:
    """One stage: its name, its component type (``"—"`` when absent), settings as text, parts, raw dict."""

    stage: str
    type: str
    role: str = ""
    settings: tuple[tuple[str, str], ...] = ()
    children: tuple["Stage", ...] = ()
    raw: dict | None = field(default=None, compare=False)


def describe_value(key: str, value) -> str:
    """A setting as short text. ``describe_value("vocab", {"a": 0})`` is ``"1 entry"``."""
    if isinstance(value, dict) and key in ("vocab", "special_tokens"):
        return f"{len(value):,} entr{'y' if len(value) == 1 else 'ies'}"
    if isinstance(value, list) and key in ("vocab", "merges"):
        noun = "merge" if key == "merges" else "entry"
        plural = "merges" if key == "merges" else "entries"
        return f"{len(value):,} {noun if len(value) == 1 else plural}"
    if isinstance(value, str) and len(value) > MAX_VALUE_CHARS:
        return f"{value[:MAX_VALUE_CHARS]}… ({len(value):,} characters)"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = json.dumps(value, ensure_ascii=False)  # strings keep their quotes: spaces and escapes show
    if len(text) > MAX_VALUE_CHARS:
        text = f"{text[:MAX_VALUE_CHARS]}… ({len(text):,} characters)"
    return text


def summarize(stage: str, data: dict | None, role: str = "") -> Stage:
    """One component dict as a ``Stage``; ``None`` is an absent stage."""
    if data is None:
        return Stage(stage, "—", role, (("", "not set: this stage does nothing"),), (), None)
    settings = []
    children: list[Stage] = []
    for key, value in data.items():
        if key == "type":
            continue
        if key in CHILD_KEYS and isinstance(value, list):
            children.extend(summarize(f"{stage} {i + 1}", part) for i, part in enumerate(value) if isinstance(part, dict))
            settings.append((key, f"{len(value)} part{'s' if len(value) != 1 else ''} (below)"))
            continue
        settings.append((key, describe_value(key, value)))
    return Stage(stage, str(data.get("type", "?")), role, tuple(settings), tuple(children), data)


def pipeline_stages(tokenizer) -> list[Stage]:
    """The five stages in pipeline order, then added tokens and truncation/padding."""
    stages = []
    for attr, name, role in STAGES:
        component = getattr(tokenizer, attr, None)
        stages.append(summarize(name, None if component is None else component.to_dict(), role))
    added = sorted(getattr(tokenizer, "added_tokens", []), key=lambda t: t.id)
    shown = tuple((str(t.id), json.dumps(t.content, ensure_ascii=False) + (" (special)" if t.special else ""))
                  for t in added[:50])
    if len(added) > 50:
        shown += (("…", f"{len(added) - 50} more"),)
    stages.append(Stage("Added tokens", f"{len(added)} token{'s' if len(added) != 1 else ''}",
                        "matched in the text before the pipeline runs", shown or (("", "none"),)))
    limits = (("truncation", describe_value("truncation", getattr(tokenizer, "truncation", None))),
              ("padding", describe_value("padding", getattr(tokenizer, "padding", None))))
    stages.append(Stage("Truncation and padding", "settings", "applied to the encoded sequence", limits))
    return stages


def flat_records(stages: list[Stage]) -> list[dict]:
    """One table row per setting (stage and type named on a stage's first row); parts follow their stage."""
    rows = []

    def add(stage: Stage, depth: int) -> None:
        for n, (key, value) in enumerate(stage.settings or (("", ""),)):
            first = n == 0
            rows.append({"stage": ("  " * depth + stage.stage) if first else "", "type": stage.type if first else "",
                         "setting": key, "value": value})
        for child in stage.children:
            add(child, depth + 1)

    for stage in stages:
        add(stage, 0)
    return rows


def overview(tokenizer) -> dict:
    """Headline facts: class, name, model type, vocabulary size, unknown token."""
    model = getattr(tokenizer, "model", None)
    return {
        "class": type(tokenizer).__name__,
        "name": getattr(tokenizer, "name", None) or "",
        "model": type(model).__name__ if model is not None else "—",
        "vocab_size": tokenizer.vocab_size,
        "unk_token": tokenizer.unk_token,
    }


def export_text(tokenizer, fmt: str) -> str:
    """The file ``fmt`` (``"hf"`` or ``"tokcore"``) as text, exactly as ``save_hf``/``save`` write it."""
    if fmt == "hf":
        data = tokenizer.to_hf_dict()
    elif fmt == "tokcore":
        data = tokenizer.to_dict()
    else:
        raise ValueError(f"unknown export format {fmt!r}; expected one of {sorted(FORMATS)}")
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def export_file_name(fmt: str, name: str = "") -> str:
    """``export_file_name("hf") == "tokenizer.json"``; a tokenizer name prefixes the tokcore file."""
    base = FORMATS[fmt][1]
    if fmt == "tokcore" and name:
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:60]
        return f"{safe}.tokcore.json"
    return base


def compact_raw(data, *, max_items: int = 20):
    """``data`` with big tables replaced by a note, for showing a stage's JSON on the page.

    ``compact_raw({"vocab": {str(i): i for i in range(99)}})["vocab"] == "<99 entries, not shown>"``
    """
    if isinstance(data, dict):
        out = {}
        for key, value in data.items():
            if isinstance(value, (dict, list)) and len(value) > max_items and key not in CHILD_KEYS:
                out[key] = f"<{len(value):,} entries, not shown>"
            else:
                out[key] = compact_raw(value, max_items=max_items)
        return out
    if isinstance(data, list):
        return [compact_raw(v, max_items=max_items) for v in data]
    if isinstance(data, str) and len(data) > 4 * MAX_VALUE_CHARS:
        return f"<{len(data):,} characters, not shown>"
    return data
