"""Speed as users meet it: every result read, warm and cold, for each real tokenizer family; load times.

- warm: the same object encodes the same document's lines again (its caches are full);
- cold: a freshly loaded object encodes text it has never seen (botchan + three lines of every
  UDHR language), so nothing is cached on either side; loading is timed apart.

Each result is read as a user reads it: ids, tokens and offsets into the raw input (tokcore's
``original_offsets``; HF's offsets, sentencepiece's piece begin/end). The ratio is peer time /
tokcore time, measured in the same run and interleaved (``bench_common.time_best``).

Left out: pairs, truncation and padding (the encode rows of ``run.py`` and the tests cover them).
"""

from __future__ import annotations

import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

from bench_common import Table, data_dir, english_text, time_best

HF_FAMILIES = (
    ("GPT-2 byte-level BPE", "reference/hf/gpt2/tokenizer.json"),
    ("MiniLM WordPiece", "reference/hf/minilm/tokenizer.json"),
    ("T5-style Unigram", "reference/hf/trained/t5_style_unigram.json"),
    ("Llama-style byte-fallback BPE", "reference/hf/trained/llama_style_bpe.json"),
    ("RoBERTa byte-level", "reference/hf/trained/roberta_bytelevel.json"),
    ("BERT cased WordPiece", "reference/hf/trained/bert_cased_wordpiece.json"),
)
# Pre-tokenizers of other real model families, set on a shared vocabulary (the bench writes each
# file into a temporary folder): (label, base file, the pre-tokenizer as the family's files write it).
# Llama 3's (and Qwen2's, DeepSeek-V3's) Split pattern, as their tokenizer.json files write it.
LLAMA3_PATTERN = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
                  r"|\s*[\r\n]+|\s+(?!\S)|\s+")
_BYTES = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
PIPELINE_FAMILIES = (
    ("T5 pipeline (WhitespaceSplit+Metaspace)", "reference/hf/trained/t5_style_unigram.json",
     {"type": "Sequence", "pretokenizers": [
         {"type": "WhitespaceSplit"},
         {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always", "split": True}]}),
    ("StarCoder-style (Digits+ByteLevel)", "reference/hf/gpt2/tokenizer.json",
     {"type": "Sequence", "pretokenizers": [{"type": "Digits", "individual_digits": True}, _BYTES]}),
    ("Falcon-style (Punct+ByteLevel+Digits)", "reference/hf/gpt2/tokenizer.json",
     {"type": "Sequence", "pretokenizers": [
         {"type": "Punctuation", "behavior": "Contiguous"}, _BYTES, {"type": "Digits", "individual_digits": False},
         {"type": "Split", "pattern": {"Regex": "[0-9][0-9][0-9]"}, "behavior": "Isolated", "invert": False}]}),
    ("Gemma-style (Split on ' ' after ▁)", "reference/hf/trained/llama_style_bpe.json",
     {"type": "Split", "pattern": {"String": " "}, "behavior": "MergedWithPrevious", "invert": False}),
    ("Llama-3-style (Split+ByteLevel)", "reference/hf/gpt2/tokenizer.json",
     {"type": "Sequence", "pretokenizers": [
         {"type": "Split", "pattern": {"Regex": LLAMA3_PATTERN}, "behavior": "Isolated", "invert": False},
         dict(_BYTES, use_regex=False)]}),
    ("CLIP-style (Split+ByteLevel)", "reference/hf/gpt2/tokenizer.json",
     {"type": "Sequence", "pretokenizers": [
         {"type": "Split", "pattern": {"Regex": r"'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+"},
          "behavior": "Removed", "invert": True},
         dict(_BYTES, use_regex=False)]}),
)
SP_FAMILIES = (
    ("sentencepiece Unigram .model", "reference/sentencepiece/botchan_en_unigram_1000.model"),
    ("sentencepiece BPE .model", "reference/sentencepiece/botchan_en_bpe_1000.model"),
)


def cold_lines(*, quick: bool = False, smoke: bool = False) -> list[str]:
    """Botchan's lines, then the first three non-empty lines of every UDHR text (``quick``: a
    fifth of botchan and one line of each; ``smoke``: a fiftieth of botchan and one line of every
    tenth text)."""
    corpora = data_dir() / "corpora"
    lines = [ln for ln in (corpora / "botchan.txt").read_text(encoding="utf-8").splitlines() if ln.strip()]
    if quick or smoke:
        lines = lines[: len(lines) // (50 if smoke else 5)]
    for path in sorted((corpora / "udhr").glob("*.txt"))[:: 10 if smoke else 1]:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        lines += [ln for ln in text.splitlines() if ln.strip()][: 1 if quick or smoke else 3]
    return lines


def _read_ours(res):
    return res.ids, res.tokens, res.original_offsets


def _read_hf(enc):
    return enc.ids, enc.tokens, enc.offsets


def _read_proto(proto):
    pieces = proto.pieces
    return [p.id for p in pieces], [p.piece for p in pieces], [(p.begin, p.end) for p in pieces]


def load_ours(path):
    """A freshly loaded tokcore tokenizer, without truncation or padding (as HF's below)."""
    import tokcore

    tok = tokcore.load(path)
    tok.truncation = tok.padding = None
    return tok


def load_hf(path):
    """A freshly loaded HF tokenizer, without truncation or padding."""
    import tokenizers

    tok = tokenizers.Tokenizer.from_file(str(path))
    tok.no_truncation()
    tok.no_padding()
    return tok


def _fresh(make, n: int):
    """``n`` objects made up front, handed out one per call (a cold run never reuses one)."""
    objects = [make() for _ in range(n)]
    return objects.pop


def user_rows(args, table: Table) -> None:


    D = data_dir()
    warm = [ln for ln in english_text(args.kb * 1000).split("\n") if ln]
    cold = cold_lines(quick=args.quick, smoke=args.smoke)
    kb = (sum(len(x.encode("utf-8")) for x in warm) / 1000, sum(len(x.encode("utf-8")) for x in cold) / 1000)
    table.note(f"users: warm = {len(warm)} lines ({kb[0]:.0f} KB) encoded again by the same object; "
               f"cold = {len(cold)} lines ({kb[1]:.0f} KB, botchan + 3 lines of every UDHR language) "
               "by a freshly loaded object; every result read (ids, tokens, offsets in the input)")

    with tempfile.TemporaryDirectory(prefix="tokcore-bench-") as tmp:
        families = [(label, D / rel) for label, rel in HF_FAMILIES]
        for k, (label, rel, pre) in enumerate(PIPELINE_FAMILIES):
            data = json.loads((D / rel).read_text(encoding="utf-8"))
            data["pre_tokenizer"] = pre
            path = Path(tmp) / f"pipeline{k}.json"
            path.write_text(json.dumps(data), encoding="utf-8")
            families.append((label, path))
        for label, path in families:
            _hf_family_rows(args, table, label, (load_ours, load_hf, path), warm, cold, kb)
    _sp_rows(args, table, warm, cold, kb)


def _hf_family_rows(args, table: Table, label: str, made, warm, cold, kb) -> None:
    """The warm and cold rows of one tokenizer.json against HF (``made``: the two loaders and the file)."""
    ours_of, hf_of, path = made
    ours, hf = ours_of(path), hf_of(path)
    t_ours, t_hf = time_best(lambda: [_read_ours(ours.encode_result(x, return_offsets=True)) for x in warm],
                             lambda: [_read_hf(hf.encode(x)) for x in warm], repeat=args.repeat)
    table.row("warm, read", label, kb[0] / t_ours, "HF encode+read", kb[0] / t_hf, 1.0)
    runs = args.repeat + 1  # the warm-up takes one fresh object too
    next_ours, next_hf = _fresh(lambda: ours_of(path), runs), _fresh(lambda: hf_of(path), runs)

    def cold_ours():
        tok = next_ours()
        return [_read_ours(tok.encode_result(x, return_offsets=True)) for x in cold]

    def cold_hf():
        tok = next_hf()
        return [_read_hf(tok.encode(x)) for x in cold]

    t_ours, t_hf = time_best(cold_ours, cold_hf, repeat=args.repeat)
    table.row("cold, read", label, kb[1] / t_ours, "HF encode+read", kb[1] / t_hf, 1.0)


def _sp_rows(args, table: Table, warm, cold, kb) -> None:
    import sentencepiece

    import tokcore

    D = data_dir()
    warm_kb, cold_kb = kb
    runs = args.repeat + 1
    for label, rel in SP_FAMILIES:
        path = D / rel
        ours = tokcore.load(path)
        sp = sentencepiece.SentencePieceProcessor(model_file=str(path))
        t_ours, t_sp = time_best(lambda: [_read_ours(ours.encode_result(x, return_offsets=True)) for x in warm],
                                 lambda: [_read_proto(sp.encode(x, return_type="proto")) for x in warm],
                                 repeat=args.repeat)
        table.row("warm, read", label, warm_kb / t_ours, "spm proto+read", warm_kb / t_sp, 0.5)
        next_ours = _fresh(lambda: tokcore.load(path), runs)
        next_sp = _fresh(lambda: sentencepiece.SentencePieceProcessor(model_file=str(path)), runs)
        t_ours, t_sp = time_best(
            lambda: (lambda tok: [_read_ours(tok.encode_result(x, return_offsets=True)) for x in cold])(next_ours()),
            lambda: (lambda sp: [_read_proto(sp.encode(x, return_type="proto")) for x in cold])(next_sp()),
            repeat=args.repeat)
        table.row("cold, read", label, cold_kb / t_ours, "spm proto+read", cold_kb / t_sp, 0.5)


def load_rows(args, table: Table) -> None:
    """Load time of every reference tokenizer.json against HF, every .model against sentencepiece."""
    import sentencepiece
    import tokenizers

    import tokcore
    from tokcore.loaders.parsed_cache import CACHE_FROM_BYTES

    D = data_dir()
    repeat = 1 if args.smoke else max(3, args.repeat)
    files = [D / "reference/hf/gpt2/tokenizer.json", D / "reference/hf/minilm/tokenizer.json",
             *sorted((D / "reference/hf/trained").glob("*.json"))]
    for path in files:
        # Parsed: the file read as it is (tokcore's parsed cache off), as on the first load ever.
        with _cache_dir("off"):
            t_ours, t_hf = time_best(lambda: tokcore.load(path), lambda: tokenizers.Tokenizer.from_file(str(path)),
                                     repeat=repeat, warmup=False)
        table.row("load", _short(path), 1 / t_ours, "HF from_file", 1 / t_hf, 1 / 1.5, unit="loads/s")
        if path.stat().st_size < CACHE_FROM_BYTES:
            continue
        # Cached: any later load of the same bytes (tokcore.loaders.parsed_cache), here from a
        # temporary folder written by one load first.
        with tempfile.TemporaryDirectory() as folder, _cache_dir(folder):
            tokcore.load(path)
            if not any(Path(folder).iterdir()):  # not a model the cache keeps (only BPE is)
                continue
            t_ours, t_hf = time_best(lambda: tokcore.load(path), lambda: tokenizers.Tokenizer.from_file(str(path)),
                                     repeat=repeat, warmup=False)
        table.row("load, cached", _short(path), 1 / t_ours, "HF from_file", 1 / t_hf, 1 / 1.5, unit="loads/s")
    for path in sorted((D / "reference/sentencepiece").glob("*.model")):
        t_ours, t_sp = time_best(lambda: tokcore.load(path),
                                 lambda: sentencepiece.SentencePieceProcessor(model_file=str(path)),
                                 repeat=repeat, warmup=False)
        table.row("load", _short(path), 1 / t_ours, "spm load", 1 / t_sp, 1 / 5, unit="loads/s")


@contextmanager
def _cache_dir(value: str):
    """``TOKCORE_CACHE_DIR`` set to ``value`` inside the ``with`` body, as it was after."""
    before = os.environ.get("TOKCORE_CACHE_DIR")
    os.environ["TOKCORE_CACHE_DIR"] = value
    try:
        yield
    finally:
        if before is None:
            del os.environ["TOKCORE_CACHE_DIR"]
        else:
            os.environ["TOKCORE_CACHE_DIR"] = before


def _short(path: Path) -> str:
    """``gpt2/tokenizer.json``; a ``.model`` by its own (longer) name alone."""
    return path.name if path.suffix == ".model" else f"{path.parent.name}/{path.name}"
