"""Peak memory of encoding a large text, measured in fresh subprocesses (``VmHWM``, else ``resource.getrusage``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
import json, resource, sys
sys.path.insert(0, {root!r}); sys.path.insert(0, {bench!r})
from bench_common import data_dir, english_text
import tokcore
def maxrss_kb(field="VmHWM:"):
    # VmHWM belongs to this process image; ru_maxrss survives exec and may be the parent's peak.
    try:
        for line in open("/proc/self/status"):
            if line.startswith(field):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
mode, n_bytes = sys.argv[1], int(sys.argv[2])
tok = tokcore.load(data_dir() / "reference/hf/gpt2/tokenizer.json")
text = english_text(n_bytes)
base = maxrss_kb()
resident = maxrss_kb("VmRSS:")  # below the peak: loading's scratch memory went back
# A result builds its lists on first read: every mode reads the ids, as a model would.
if mode == "lines":
    for line in text.splitlines():
        tok.encode_result(line, return_offsets=True).ids
else:
    res = tok.encode_result(text, return_offsets=(mode != "ids"))
    res.ids
    if mode == "read":  # the other lists too
        res.tokens, res.offsets, res.original_offsets, res.word_ids
peak = maxrss_kb()
print(json.dumps({{"base_kb": base, "resident_kb": resident, "peak_kb": peak, "text_bytes": len(text.encode("utf-8"))}}))
"""


def probe(mb: float):
    """Rows ``(case, peak MB added by encoding, text MB, limit)`` for three ways of encoding ``mb`` MB."""
    code = _CHILD.format(root=str(ROOT), bench=str(ROOT / "bench"))
    for mode, label in (("ids", "ids read, whole text"), ("offsets", "with offsets, ids read, whole text"),
                        ("read", "with offsets, whole text, every list read"),
                        ("lines", "with offsets, ids read, line by line")):
        out = subprocess.run([sys.executable, "-c", code, mode, str(int(mb * 1_000_000))], capture_output=True, text=True,
                             check=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        text_mb = r["text_bytes"] / 1e6
        # ru_maxrss is in KB on Linux. The figure is what encoding added to the process's peak
        # after loading the tokenizer and the text. Loading's own scratch memory has partly gone
        # back by then and encoding may take it again unseen, so the growth over the resident
        # memory at that point is printed alongside (with the process's whole peak).
        added = (r["peak_kb"] - r["base_kb"]) / 1000
        over_resident = (r["peak_kb"] - r.get("resident_kb", r["base_kb"])) / 1000
        yield (f"GPT-2 {label} (process peak {r['peak_kb'] / 1000:.0f} MB, {over_resident:.0f} MB = "
               f"{over_resident / text_mb:.1f}x over the resident base)", added, text_mb,
               20.0 if mode == "read" else 10.0)
