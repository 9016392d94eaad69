"""Train the toy vocabularies the app offers out of the box (run: python sample_vocabs/build_samples.py).

Every file here is trained by tokcore itself on the corpora in ``sample_vocabs/corpora`` (written
for this project), so the samples are reproducible byte for byte: training is deterministic.
"""

from __future__ import annotations

import json
from pathlib import Path

from tokcore.core.components import build as build_component
from tokcore.pre_tokenizers.standard import Metaspace
from tokcore.trainers.bpe import train_bpe
from tokcore.trainers.char import train_char
from tokcore.trainers.unigram import train_unigram
from tokcore.trainers.wordpiece import train_wordpiece

HERE = Path(__file__).resolve().parent
CORPORA = HERE / "corpora"


def lines(*names: str) -> list[str]:
    out: list[str] = []
    for name in names:
        out += [line for line in (CORPORA / name).read_text(encoding="utf-8").splitlines() if line.strip()]
    return out


def toy_counts() -> dict[str, int]:
    return json.loads((CORPORA / "classic_toy.json").read_text(encoding="utf-8"))["words"]


CHATML_SPECIALS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
LLAMA_SPECIALS = ("<unk>", "<s>", "</s>")
ZEPHYR_SPECIALS = ("<unk>", "<s>", "</s>", "<|system|>", "<|user|>", "<|assistant|>")


def chat_samples(english: list[str]) -> dict[str, object]:
    """Tokenizers for the chat samples in ``chat/``: each has its template's tags as special tokens.

    The Llama-style one is a sentencepiece-like BPE (``▁`` for spaces) whose post-processor adds ``<s>``, as
    Llama 2's does: the Chat page then shows the doubled-BOS warning when a template also writes it.
    """
    chat_text = english + lines("chat.txt")
    ascii_alphabet = ["\n"] + [chr(c) for c in range(33, 127)]  # so "[INST]", "<<SYS>>\\n" are never unknown
    llama = train_bpe(chat_text, 500, special_tokens=LLAMA_SPECIALS, unk_token="<unk>", initial_alphabet=ascii_alphabet,
                      pre_tokenizer=Metaspace(prepend_scheme="first")).tokenizer
    llama.post_processor = build_component("post_processor", {
        "type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
                                                 {"Sequence": {"id": "A", "type_id": 0}}],
        "pair": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                 {"Sequence": {"id": "B", "type_id": 1}}],
        "special_tokens": {"<s>": {"id": "<s>", "ids": [llama.token_to_id("<s>")], "tokens": ["<s>"]}},
    }, source="build_samples", where="post_processor")
    llama.decoder = build_component("decoder", {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first",
                                                "split": True}, source="build_samples", where="decoder")
    return {
        "chat_chatml_bytelevel_bpe": train_bpe(chat_text, 500, byte_level=True, special_tokens=CHATML_SPECIALS).tokenizer,
        "chat_llama_bpe": llama,
        "chat_zephyr_unigram": train_unigram(chat_text, 400, special_tokens=ZEPHYR_SPECIALS, unk_token="<unk>").tokenizer,
    }


def build() -> dict[str, object]:
    english = lines("english.txt")
    mixed = lines("english.txt", "multilingual.txt")
    code = lines("code.txt")
    return {
        "toy_bpe": train_bpe(toy_counts(), 17, special_tokens=("<unk>",), unk_token="<unk>").tokenizer,
        "toy_wordpiece": train_wordpiece(toy_counts(), 24, special_tokens=("[UNK]",), unk_token="[UNK]").tokenizer,
        "toy_unigram": train_unigram(toy_counts(), 14, special_tokens=("<unk>",), unk_token="<unk>").tokenizer,
        # Sennrich-style: words end in </w>, so decoding puts the spaces back
        "english_bpe_chars": train_bpe(
            english, 400, special_tokens=("<unk>",), unk_token="<unk>", end_of_word_suffix="</w>"
        ).tokenizer,
        "english_bytelevel_bpe": train_bpe(english, 500, byte_level=True, special_tokens=("<|endoftext|>",)).tokenizer,
        "english_wordpiece": train_wordpiece(english, 400, special_tokens=("[UNK]", "[CLS]", "[SEP]"), unk_token="[UNK]").tokenizer,
        "english_unigram": train_unigram(english, 400, special_tokens=("<unk>",), unk_token="<unk>").tokenizer,
        "multilingual_bytelevel_bpe": train_bpe(mixed, 600, byte_level=True).tokenizer,
        "multilingual_chars": train_char(mixed, special_tokens=("<unk>",), unk_token="<unk>").tokenizer,
        "code_bytelevel_bpe": train_bpe(code, 450, byte_level=True).tokenizer,
        **chat_samples(english),
    }


def main() -> None:
    for name, tokenizer in build().items():
        tokenizer.name = name
        tokenizer.save(HERE / f"{name}.json")


if __name__ == "__main__":
    main()
