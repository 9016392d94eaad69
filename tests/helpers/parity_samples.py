"""Texts for the parity suites: samples of the reference corpora plus every edge case.

Sampling keeps the suites fast (a few seconds per tokenizer) while covering every script:
every ``step``-th non-empty botchan and inaugural line, the first lines of every UDHR file,
and all valid edge cases. Each sample has a stable id (``"botchan:120"``, ``"udhr/fra:2"``,
``"edge:emoji_zwj_family"``) for the allow-lists of known differences.
"""

from __future__ import annotations

import json
from functools import lru_cache

from shared_data import require_shared


def _lines(path, *, step: int, limit: int, prefix: str) -> list[tuple[str, str]]:
    out = []
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        if line.strip() and i % step == 0:
            out.append((f"{prefix}:{i}", line))
        if len(out) >= limit:
            break
    return out


@lru_cache(maxsize=None)
def parity_texts(udhr_lines: int = 3) -> tuple[tuple[str, str], ...]:
    """``(id, text)`` pairs: botchan (~250), inaugural (~120), UDHR (every language), edge cases."""
    out: list[tuple[str, str]] = []
    out += _lines(require_shared("corpora", "botchan.txt"), step=17, limit=250, prefix="botchan")
    out += _lines(require_shared("corpora", "inaugural.txt"), step=41, limit=120, prefix="inaugural")
    for path in sorted(require_shared("corpora", "udhr").glob("*.txt")):
        kept = 0
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
            if line.strip():
                out.append((f"udhr/{path.stem}:{i}", line))
                kept += 1
                if kept >= udhr_lines:
                    break
    for line in require_shared("edge_cases.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        case = json.loads(line)
        try:
            case["text"].encode("utf-8")
        except UnicodeEncodeError:
            continue  # the lone surrogate: not valid text for any of the libraries
        out.append((f"edge:{case['name']}", case["text"]))
    # Capitals newer than Python 3.11's Unicode (16.0: Latin, Garay; 17.0: Beria Erfe), which HF lowers.
    out.append(("newer-capitals", "Garay \U00010d50\U00010d51 and \ua7cb\ua7dc, Beria \U00016ea0\U00016eb8 words."))
    return tuple(out)
