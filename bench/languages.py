"""Text beyond English: every result read, warm, per tokenizer family, on UDHR texts of many scripts.

The ``users`` rows read English again (warm) and botchan with three lines of every UDHR language
(cold). A user with a Vietnamese, Korean or Hindi document meets other costs: combining marks that
NFD reorders, syllables that normalize to several characters, byte-level words that start with a
lone ``Ġ``. Here each family encodes the whole UDHR of twelve languages in ten scripts, line by
line, again (its caches are warm), reading ids, tokens and offsets into the input, against HF;
one row per family over all of them, and one for the language where tokcore is furthest behind.

Left out: cold text (the ``users`` cold rows hold three lines of every language), the ``.model``
files (trained on English only).
"""

from __future__ import annotations

from bench_common import Table, data_dir, time_best

# Latin with combining tones (vie) and accents (fra, deu, tur), Cyrillic, Hebrew, Arabic, Devanagari,
# Thai, Hangul, Japanese, Chinese.
LANGUAGES = ("vie", "fra", "deu", "tur", "rus", "heb", "arb", "hin", "tha", "kor", "jpn", "cmn_hans")


def language_lines(*, smoke: bool = False) -> dict[str, list[str]]:
    """Each language's non-empty UDHR lines (``smoke``: the first five of three languages)."""
    folder = data_dir() / "corpora" / "udhr"
    out = {}
    for code in LANGUAGES[::4] if smoke else LANGUAGES:
        lines = [ln for ln in (folder / f"{code}.txt").read_text(encoding="utf-8").splitlines() if ln.strip()]
        out[code] = lines[:5] if smoke else lines
    return out


def language_rows(args, table: Table) -> None:
    from users import HF_FAMILIES, _read_hf, _read_ours, load_hf, load_ours

    texts = language_lines(smoke=args.smoke)
    kb = {code: sum(len(x.encode("utf-8")) for x in lines) / 1000 for code, lines in texts.items()}
    table.note(f"languages: the UDHR in {', '.join(texts)} ({sum(kb.values()):.0f} KB), line by line, encoded "
               "again by the same object; every result read")
    for label, rel in HF_FAMILIES:
        path = data_dir() / rel
        ours, hf = load_ours(path), load_hf(path)
        per: dict[str, tuple[float, float]] = {}
        for code, lines in texts.items():
            per[code] = time_best(lambda lines=lines: [_read_ours(ours.encode_result(x, return_offsets=True)) for x in lines],
                                  lambda lines=lines: [_read_hf(hf.encode(x)) for x in lines], repeat=args.repeat)
        total = sum(kb.values())
        t_ours, t_hf = sum(t for t, _ in per.values()), sum(t for _, t in per.values())
        table.row("languages, warm", label, total / t_ours, "HF encode+read", total / t_hf, None)
        worst = min(per, key=lambda code: per[code][1] / per[code][0])
        t_ours, t_hf = per[worst]
        table.row("  furthest behind", f"{label}: {worst}", kb[worst] / t_ours, "HF encode+read", kb[worst] / t_hf, None)
