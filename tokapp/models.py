"""Tokenizers of real models by name: a curated list of presets, and any Hub repository or tiktoken encoding.

A name is ``hf:OWNER/NAME`` (a Hugging Face Hub repository) or ``tiktoken:NAME`` (one of
tiktoken's encodings); ``tokcore.load`` reads either from its local cache, or fetches it when
allowed (``tokcore.loaders.hub``, ``tokcore.loaders.tiktoken_cache``). A loaded name becomes a
``SampleSpec`` of kind ``"model"`` keyed ``model:<name>``, so every picker offers it.

``normalize_name("gpt2") == "hf:gpt2"``; ``normalize_name("cl100k_base") == "tiktoken:cl100k_base"``

Left out: the widgets and the session's list of loaded names (``tokapp.st_common``).
"""

from __future__ import annotations

from dataclasses import dataclass

import tokcore
from tokcore.loaders.tiktoken_cache import NAMES as TIKTOKEN_NAMES

from .samples import SampleSpec


@dataclass(frozen=True)
class Preset:
    """A well-known model: its name and the tokenizer files it needs."""

    name: str  # hf:OWNER/NAME or tiktoken:NAME
    label: str
    files: str


PRESETS: tuple[Preset, ...] = (
    Preset("hf:openai-community/gpt2", "GPT-2", "tokenizer.json (byte-level BPE)"),
    Preset("hf:google-bert/bert-base-uncased", "BERT base uncased", "tokenizer.json (WordPiece)"),
    Preset("hf:google-bert/bert-base-cased", "BERT base cased", "tokenizer.json (WordPiece)"),
    Preset("hf:sentence-transformers/all-MiniLM-L6-v2", "all-MiniLM-L6-v2", "tokenizer.json (WordPiece)"),
    Preset("hf:FacebookAI/roberta-base", "RoBERTa base", "tokenizer.json (byte-level BPE)"),
    Preset("hf:FacebookAI/xlm-roberta-base", "XLM-RoBERTa base", "tokenizer.json (Unigram)"),
    Preset("hf:google-t5/t5-small", "T5 small", "tokenizer.json (Unigram)"),
    Preset("hf:distilbert/distilbert-base-uncased", "DistilBERT base uncased", "tokenizer.json (WordPiece)"),
    Preset("hf:EleutherAI/gpt-neox-20b", "GPT-NeoX 20B", "tokenizer.json (byte-level BPE)"),
    Preset("hf:Qwen/Qwen2.5-0.5B", "Qwen2.5 0.5B", "tokenizer.json (byte-level BPE)"),
    Preset("hf:TinyLlama/TinyLlama-1.1B-Chat-v1.0", "TinyLlama 1.1B Chat", "tokenizer.json (Llama BPE, byte fallback)"),
    Preset("hf:mistralai/Mistral-7B-v0.1", "Mistral 7B v0.1 (gated: HF_TOKEN)", "tokenizer.json (Llama BPE)"),
    Preset("hf:meta-llama/Llama-3.1-8B", "Llama 3.1 8B (gated: HF_TOKEN)", "tokenizer.json (byte-level BPE)"),
    Preset("tiktoken:r50k_base", "tiktoken r50k_base (GPT-3)", "r50k_base.tiktoken"),
    Preset("tiktoken:p50k_base", "tiktoken p50k_base (Codex)", "p50k_base.tiktoken"),
    Preset("tiktoken:cl100k_base", "tiktoken cl100k_base (GPT-4)", "cl100k_base.tiktoken"),
    Preset("tiktoken:o200k_base", "tiktoken o200k_base (GPT-4o)", "o200k_base.tiktoken"),
)


def normalize_name(text: str) -> str:
    """A typed name as ``hf:...`` or ``tiktoken:...``; a bare tiktoken encoding name (but ``gpt2``) means tiktoken."""
    name = text.strip()
    if not name:
        raise ValueError("type a model name, e.g. gpt2, google-bert/bert-base-uncased or cl100k_base")
    if name.startswith(("hf:", "tiktoken:")):
        prefix, _, rest = name.partition(":")
        if not rest.strip():
            raise ValueError(f"{name!r}: no name after '{prefix}:'")
        return f"{prefix}:{rest.strip()}"
    if name.startswith("https://huggingface.co/"):
        name = "/".join(name.removeprefix("https://huggingface.co/").split("/")[:2])
    if name.lower() in TIKTOKEN_NAMES and name.lower() != "gpt2":  # bare gpt2 is the Hub repository
        return f"tiktoken:{name.lower()}"
    return f"hf:{name}"


def preset_for(name: str) -> Preset | None:
    return next((p for p in PRESETS if p.name == name), None)


def model_label(name: str) -> str:
    """How a picker shows a model. ``model_label("hf:gpt2") == "Model: gpt2 (Hub)"``."""
    source, _, rest = name.partition(":")
    return f"Model: {rest} ({'Hub' if source == 'hf' else 'tiktoken'})"


def load_model(name: str, *, download: bool = False, progress=None):
    """The tokenizer of ``name`` (normalized), from the local cache or fetched when ``download``."""
    name = normalize_name(name)
    if name.startswith("hf:"):
        return tokcore.load(name, download=download, progress=progress)
    return tokcore.load(name, download=download)


def model_spec(name: str) -> SampleSpec:
    """A picker entry for a fetched name; its loader reads the local cache (fetching again only if it was emptied)."""
    preset = preset_for(name)
    return SampleSpec(f"model:{name}", model_label(name), "model", preset.files if preset else name,
                      loader=lambda n=name: load_model(n, download=True), cache_key=f"model:{name}")


def fetch(name: str, *, progress=None) -> None:
    """Make sure ``name``'s files are in the local cache, downloading them when allowed (offline: a clear error)."""
    name = normalize_name(name)
    if name.startswith("hf:"):
        from tokcore.loaders.hub import hub_folder

        hub_folder(name[3:], download=True, progress=progress)
    else:
        from tokcore.loaders.tiktoken_cache import rank_file

        rank_file(name.removeprefix("tiktoken:"), download=True)
