"""tokcore's benchmark: throughput and ratios against HF tokenizers, sentencepiece and tiktoken.

Run from the repository root (the peers come with the test extra, never with tokcore):

    python bench/run.py            # full run, a few minutes
    python bench/run.py --quick    # smaller text and vocabularies, under a minute or two
    python bench/run.py --smoke    # the smallest inputs, one repeat: every row prints, its figures mean little
    python bench/run.py --only users,load

The ``users`` rows come first: every result read, warm and cold, per tokenizer family
(``bench/users.py``), then the same warm on the UDHR in twelve languages (``bench/languages.py``);
the ``encode`` rows below them time encoding with lazily built lists.

Every ratio is measured in the same run on the same file and the same text, single thread
(``TOKENIZERS_PARALLELISM=false``, ``RAYON_NUM_THREADS=1``), as the best of several interleaved
repeats after a warm-up (both sides keep their word caches warm). "x peer" is peer time / tokcore
time: above 1 means tokcore is faster. Reference data: ``$TOKCORE_SHARED_DATA`` or ../shared/data.
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("RAYON_NUM_THREADS", "1")
# Every load parses its file, as the first load ever does, and nothing is written to the home
# folder; the "load, cached" rows use a temporary cache of their own (users.load_rows).
os.environ.setdefault("TOKCORE_CACHE_DIR", "off")

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_common import Table, data_dir, english_text, machine_lines, time_best


def bench_encode(args, table: Table) -> None:
    import sentencepiece
    import tiktoken
    import tokenizers

    import tokcore
    from tokcore.loaders.tiktoken_file import ENCODINGS, encoding_name_for, read_tiktoken_ranks, special_tokens_for

    D = data_dir()
    text = english_text(args.kb * 1000)
    lines = [ln for ln in text.split("\n") if ln]
    size_kb = len(text.encode("utf-8")) / 1000
    table.note(f"encode text: botchan + inaugural, {size_kb:.0f} KB, {len(lines)} non-empty lines")

    hf_files = [("GPT-2 byte-level BPE", D / "reference/hf/gpt2/tokenizer.json"),
                ("MiniLM WordPiece", D / "reference/hf/minilm/tokenizer.json"),
                ("T5-style Unigram", D / "reference/hf/trained/t5_style_unigram.json")]
    for label, path in hf_files:
        ours = tokcore.load(path)
        ours.truncation = ours.padding = None
        hf = tokenizers.Tokenizer.from_file(str(path))
        hf.no_truncation()
        hf.no_padding()
        for mode, items in (("document", [text]), ("line by line", lines)):
            t_ours, t_hf = time_best(
                lambda: [ours.encode_result(x, return_offsets=True) for x in items],
                lambda: [hf.encode(x) for x in items],
                repeat=args.repeat,
            )
            table.row("encode+offsets", f"{label}, {mode}", size_kb / t_ours, "HF encode", size_kb / t_hf, 2.0)
            # Both sides build their Python lists on first read: time reading them too.
            t_ours, t_hf = time_best(
                lambda: [_read_ours(ours.encode_result(x, return_offsets=True)) for x in items],
                lambda: [_read_hf(hf.encode(x)) for x in items],
                repeat=args.repeat,
            )
            table.row("  + read lists", f"{label}, {mode}", size_kb / t_ours, "HF encode+read", size_kb / t_hf, None)

    sp_path = D / "reference/sentencepiece/botchan_en_unigram_1000.model"
    ours = tokcore.load(sp_path)
    sp = sentencepiece.SentencePieceProcessor(model_file=str(sp_path))
    for mode, items in (("line by line", lines), ("document", [text])):
        t_ours, t_sp = time_best(
            lambda: [ours.encode_result(x, return_offsets=True) for x in items],
            lambda: [sp.encode(x, return_type="proto") for x in items],
            repeat=args.repeat,
        )
        table.row("encode+offsets", f"sentencepiece Unigram .model, {mode}", size_kb / t_ours,
                  "spm encode proto", size_kb / t_sp, 2.0 if mode == "line by line" else None)
        # Reading ids, tokens and offsets: ours build lists, sentencepiece's proto gives pieces.
        t_ours, t_sp = time_best(
            lambda: [_read_ours_sp(ours.encode_result(x, return_offsets=True)) for x in items],
            lambda: [_read_proto(sp.encode(x, return_type="proto")) for x in items],
            repeat=args.repeat,
        )
        table.row("  + read lists", f"sentencepiece Unigram .model, {mode}", size_kb / t_ours,
                  "spm proto+read", size_kb / t_sp, None)

    tk_path = D / "reference/tiktoken/gpt2.tiktoken"
    ours = tokcore.load(tk_path)
    ranks = read_tiktoken_ranks(tk_path)
    name = encoding_name_for(tk_path, None)
    enc = tiktoken.Encoding(name=f"bench-{name}", pat_str=ENCODINGS[name][0], mergeable_ranks=ranks,
                            special_tokens=special_tokens_for(name, len(ranks)))
    for mode, items in (("document", [text]), ("line by line", lines)):
        t_ours, t_tk = time_best(
            lambda: [ours.encode(x) for x in items],  # a list of ids, as tiktoken returns
            lambda: [enc.encode(x, allowed_special="all") for x in items],
            repeat=args.repeat,
        )
        table.row("encode ids only", f"tiktoken gpt2 ranks, {mode}", size_kb / t_ours, "tiktoken encode", size_kb / t_tk, None)


def _read_ours(res):
    return res.ids, res.tokens, res.offsets, res.attention_mask


def _read_hf(enc):
    return enc.ids, enc.tokens, enc.offsets, enc.attention_mask


def _read_ours_sp(res):
    return res.ids, res.tokens, res.offsets


def _read_proto(proto):
    pieces = proto.pieces
    return [p.id for p in pieces], [p.piece for p in pieces], [(p.begin, p.end) for p in pieces]


def bench_users(args, table: Table) -> None:
    from users import user_rows

    user_rows(args, table)


def bench_load(args, table: Table) -> None:
    from users import load_rows

    load_rows(args, table)


def bench_train(args, table: Table) -> None:
    from train_peers import train_rows

    for row in train_rows(args):
        table.row(*row, unit="runs/s")


def bench_parallel(args, table: Table) -> None:
    import tokcore

    text = english_text(args.kb * 1000)
    lines = [ln for ln in text.split("\n") if ln]
    size_kb = len(text.encode("utf-8")) / 1000
    for label, rel in (("GPT-2", "reference/hf/gpt2/tokenizer.json"), ("MiniLM", "reference/hf/minilm/tokenizer.json")):
        tok = tokcore.load(data_dir() / rel)
        tok.truncation = tok.padding = None
        # Results come back from the workers with every list built; a single process builds
        # them on first read, so both sides read them. The workers stay up between calls (the
        # warm-up call starts them), as a program calling encode_batch repeatedly would see.
        # Two processes share the machine with everything else on it: more repeats steady the
        # best time of both sides.
        t_par, t_one = time_best(
            lambda: [_read_ours(r) for r in tok.encode_batch(lines, return_offsets=True, processes=2)],
            lambda: [_read_ours(r) for r in tok.encode_batch(lines, return_offsets=True)],
            repeat=1 if args.smoke else max(args.repeat, 5),
        )
        table.row("batch, 2 processes", f"{label}, {len(lines)} lines, read", size_kb / t_par, "1 process",
                  size_kb / t_one, 1.6)


def bench_memory(args, table: Table) -> None:
    from memory_probe import probe

    mb = 0.2 if args.smoke else 2 if args.quick else 10
    for row in probe(mb):
        table.memory(*row)


def bench_languages(args, table: Table) -> None:
    from languages import language_rows

    language_rows(args, table)


SECTIONS = {"users": bench_users, "languages": bench_languages, "encode": bench_encode, "load": bench_load, "parallel": bench_parallel, "train": bench_train,
            "memory": bench_memory}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller text, vocabularies and repeats")
    ap.add_argument("--only", default="", help=f"comma-separated sections: {','.join(SECTIONS)}")
    ap.add_argument("--smoke", action="store_true",
                    help="the smallest inputs and one repeat: checks that every row runs and prints (the tests use it); "
                         "its ratios are too noisy to read")
    ap.add_argument("--repeat", type=int, default=None, help="timed repeats per measurement (best is kept)")
    args = ap.parse_args(argv)
    args.quick = args.quick or args.smoke
    args.kb = 10 if args.smoke else 100 if args.quick else 400
    args.repeat = 1 if args.smoke else args.repeat or (2 if args.quick else 3)
    only = [s for s in args.only.split(",") if s] or list(SECTIONS)
    for line in machine_lines():
        print(line)
    table = Table()
    start = time.perf_counter()
    for name in only:
        if name not in SECTIONS:
            ap.error(f"unknown section {name!r}; use {','.join(SECTIONS)}")
        SECTIONS[name](args, table)
        table.flush()
    print(f"\ntotal {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
