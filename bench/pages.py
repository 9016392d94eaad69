"""Page timings on long documents: the Offsets inspector and Compare, driven through the pages' own functions.

    python bench/pages.py                 # 100,000 characters (the text areas' cap)
    python bench/pages.py --chars 20000   # another size

For GPT-2, MiniLM and a Llama-style BPE (``reference/hf/trained/llama_style_bpe.json``), one at a time on the
inspector and all together (plus the T5-style Unigram, 4-up) on Compare, it times what a page run computes:
the first full view (encoding, the ``st.cache_data`` round trip of the encoding, the whole-text checks, the
drawn window and its tables) and later interactions (another window; the other coordinates), each the best
of ``--repeat`` runs. Targets from issue 20: first view under 3 s, every later interaction under 1 s.
Streamlit's own work (sending the page to the browser) is not in these figures; the browser tests check
that the pages finish. The text: English (botchan + inaugural) with accents, emoji and ZWJ sequences mixed in.
"""

from __future__ import annotations

import argparse
import operator
import pickle
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_common import data_dir, english_text, machine_lines

import tokcore
from tokapp import compare, inspector, inspector_html, windows
from tokapp.tokens import TokenRow, TokenView, build_view
from tokcore.analysis.boundaries import _starts

FIRST_VIEW_S, LATER_S = 3.0, 1.0
_row_values = operator.attrgetter(*(f for f in TokenRow.__dataclass_fields__))  # as tokapp.st_common stores rows
MIX = " café naïve e\u0301 👩\u200d💻 🙂 日本語 "


def long_text(n_chars: int) -> str:
    base = english_text(n_chars * 2)
    chunks, i = [], 0
    while sum(map(len, chunks)) < n_chars:
        chunks.append(base[i : i + 400] + MIX)
        i += 400
    return "".join(chunks)[:n_chars]


def cached(view: TokenView) -> TokenView:
    """What the page's st.cache_data does with an encoding: plain tuples pickled once, unpickled and rebuilt."""
    return reread(pickle.dumps(stored(view)))


def stored(view: TokenView) -> tuple:
    return view.raw_text, view.view_text, view.split_special, [_row_values(r) for r in view.rows]


def reread(blob: bytes) -> TokenView:
    raw, view_text, split, rows = pickle.loads(blob)
    return TokenView(raw, view_text, tuple(TokenRow(*values) for values in rows), split)


def inspector_window(view: TokenView, result: dict, coords: str, number: int) -> int:
    """The window part of an inspector run: rows, lanes, byte grid, tables, words, minimap."""
    text, offsets = inspector.text_and_offsets(view, coords)
    lo, hi = windows.token_window(len(view), number, windows.WINDOW_TOKENS)
    points = inspector.issue_points(result["issues"])
    windows.minimap_html(len(view), lo, hi, [(i["token"], i["flag"]) for i in result["issues"]])
    first, stop = inspector.window_bytes(offsets, lo, hi, len(text.encode("utf-8", "surrogatepass")))
    rows = inspector.inspect_rows(TokenView(view.raw_text, view.view_text, view.rows[lo:hi], view.split_special))
    html = inspector_html.lanes_html(view, points, coords=coords, start=lo, max_tokens=hi - lo)
    html += inspector_html.byte_grid_html(view, points, coords=coords, start_byte=first)
    inspector.display_records(rows, coords)
    inspector.word_display(inspector.word_rows(text, offsets, view.tokens, within=(first, stop)))
    return len(html)


def inspector_first(tok, text: str) -> None:
    _starts.cache_clear()  # a new text: nothing known about it yet
    view = cached(build_view(tok, text))
    result = inspector.summary(view, "view")
    inspector_window(view, result, "view", 0)


def compare_first(toks, text: str) -> tuple[list[TokenView], list[set[int]]]:
    _starts.cache_clear()
    views = [cached(build_view(t, text)) for t in toks]
    compare.figure_rows([(str(i), v, t.unk_token) for i, (v, t) in enumerate(zip(views, toks))])
    unshared = compare.unshared_points(views)
    compare_window(views, unshared, text, 0)
    return views, unshared


def compare_window(views, unshared, text: str, number: int) -> None:
    c0, c1 = windows.char_window(len(text), number, windows.WINDOW_CHARS)
    windows.minimap_html(len(text), c0, c1, unit="characters")
    b0 = len(text[:c0].encode("utf-8")) + 1
    b1 = b0 + len(text[c0:c1].encode("utf-8"))
    spans = [windows.tokens_in_bytes(compare.original_offsets(v), b0, b1) for v in views]
    for view, mine, (lo, hi) in zip(views, unshared, spans):
        compare.ringed_html(view, mine, start=lo, max_tokens=hi - lo)
    compare.alignment_display(compare.alignment_rows(views[0], views[1], window=spans[0]))


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def row(page: str, case: str, seconds: float, target: float) -> None:
    verdict = "ok" if seconds < target else "MISS"
    print(f"{page:10s} {case:46s} {seconds:7.2f} s   target < {target:.0f} s  {verdict}", flush=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chars", type=int, default=windows.MAX_TEXT_CHARS)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    D = data_dir()
    files = {"GPT-2": D / "reference/hf/gpt2/tokenizer.json", "MiniLM": D / "reference/hf/minilm/tokenizer.json",
             "Llama-style BPE": D / "reference/hf/trained/llama_style_bpe.json",
             "T5-style Unigram": D / "reference/hf/trained/t5_style_unigram.json"}
    toks = {}
    for label, path in files.items():
        tok = tokcore.load(path)
        tok.truncation = tok.padding = None  # the pages show the whole text (MiniLM's file pads and truncates)
        toks[label] = tok
    text = long_text(args.chars)
    for line in machine_lines():
        print(line)
    print(f"text: {len(text):,} characters, {len(text.encode('utf-8')):,} bytes; best of {args.repeat}")
    print(f"{'page':10s} {'case':46s} {'time':>9s}")
    for label in ("GPT-2", "MiniLM", "Llama-style BPE"):
        tok = toks[label]
        row("inspector", f"{label}: first full view", best(lambda: inspector_first(tok, text), args.repeat), FIRST_VIEW_S)
        blob = pickle.dumps(stored(build_view(tok, text)))
        view = reread(blob)
        summary = pickle.dumps(inspector.summary(view, "view"))
        row("inspector", f"{label}: next window",  # a rerun: both cached results read back, another window drawn
            best(lambda: inspector_window(reread(blob), pickle.loads(summary), "view", 5), args.repeat), LATER_S)
        row("inspector", f"{label}: switch to raw-input spans",
            best(lambda: inspector_window(reread(blob), inspector.summary(view, "original"), "original", 0),
                 args.repeat), LATER_S)
        row("inspector", f"{label}: JSON export, when clicked",
            best(lambda: inspector.json_text(view, inspector.inspect_rows(view)), 1), FIRST_VIEW_S)
    four = [toks[k] for k in ("GPT-2", "MiniLM", "Llama-style BPE", "T5-style Unigram")]
    row("compare", "4-up: first full view", best(lambda: compare_first(four, text), args.repeat), FIRST_VIEW_S)
    views, unshared = compare_first(four, text)
    blobs = [pickle.dumps(stored(v)) for v in views]
    rings = pickle.dumps(unshared)
    row("compare", "4-up: next window",  # a rerun: the four encodings and the rings read back, another window drawn
        best(lambda: compare_window([reread(b) for b in blobs], pickle.loads(rings), text, 7), args.repeat), LATER_S)
    row("compare", "2-up (GPT-2, MiniLM): first full view", best(lambda: compare_first(four[:2], text), args.repeat),
        FIRST_VIEW_S)
    row("compare", "map JSON export, when clicked",
        best(lambda: compare.alignment_json("a", "b", text, compare.alignment_rows(views[0], views[1])), 1), FIRST_VIEW_S)


if __name__ == "__main__":
    main()
