"""The benchmark runs with one command and prints every row of its table (``bench/run.py``).

Issue 8 asks for ``bench/`` scripts a user runs with one command, printing ratios against HF
tokenizers, sentencepiece and tiktoken measured in the same run. This runs the smoke variant
(every section on the smallest inputs, one repeat: about 20 s) and checks that every section
prints its rows, each with a parsed ratio and, where there is one, its target; the values themselves are never asserted (no timings in tests).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

from shared_data import ROOT, require_shared

# A row ends with its ratio and, where there is one, its target: "   1.28x" or "  3.73x  >=2x ok".
TAIL = re.compile(r" (?P<ratio>\d+\.\d+)x\s*(?P<goal>[<>]=?\d+(\.\d+)?x (ok|MISS))?\s*$")


def test_the_benchmark_prints_every_row_against_every_peer():
    data = require_shared()
    env = dict(os.environ, TOKCORE_SHARED_DATA=str(data))
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "run.py"), "--smoke"], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    text = out.stdout
    assert text.startswith("machine: ") and "python: CPython" in text and "tokenizers " in text
    lines = [line for line in text.splitlines() if TAIL.search(line) and not line.startswith(("what", "-"))]
    rows = [TAIL.search(line) for line in lines]
    cases = [(line[:20].strip(), line[21:63].strip()) for line in lines]
    for what, case in [("encode+offsets", "GPT-2 byte-level BPE, document"),
                       ("encode+offsets", "MiniLM WordPiece, line by line"),
                       ("encode+offsets", "T5-style Unigram, line by line"),
                       ("encode+offsets", "sentencepiece Unigram .model, line by line"),
                       ("+ read lists", "sentencepiece Unigram .model, document"),
                       ("encode ids only", "tiktoken gpt2 ranks, line by line"),
                       ("load", "gpt2/tokenizer.json"),
                       ("load", "botchan_en_unigram_1000.model"),
                       ("warm, read", "Llama-style byte-fallback BPE"),
                       ("cold, read", "Llama-style byte-fallback BPE"),
                       ("cold, read", "sentencepiece BPE .model"),
                       ("warm, read", "T5 pipeline (WhitespaceSplit+Metaspace)"),
                       ("cold, read", "StarCoder-style (Digits+ByteLevel)"),
                       ("cold, read", "CLIP-style (Split+ByteLevel)"),
                       ("languages, warm", "MiniLM WordPiece")]:
        assert (what, case) in cases, (what, case, text)
    prefixes = {what for what, _ in cases}
    assert {"batch, 2 processes", "train", "peak RSS"} <= prefixes, text
    assert sum(1 for _, case in cases if case.startswith("Unigram to")) == 2  # HF and sentencepiece trainers
    # One "furthest behind" language per family of the languages section (which one is a timing).
    assert sum(1 for what, _ in cases if what == "languages, warm") == sum(1 for what, _ in cases if what == "furthest behind") == 6
    # Every target row says whether it is met; the rows with a peer print against HF, spm or tiktoken.
    goals = [m for m in rows if m["goal"]]
    assert len(goals) >= 12 and all(m["goal"].endswith(("ok", "MISS")) for m in goals)
    for peer in ("HF encode", "HF encode+read", "spm proto+read", "spm load", "spm encode proto", "tiktoken encode", "HF from_file", "HF BpeTrainer",
                 "spm trainer", "1 process"):
        assert peer in text, peer
