"""Format detection for ``tokcore.load``: which reader handles a path.

Left out: the readers themselves (one module per format).
"""

from __future__ import annotations

from pathlib import Path

from ..errors import TokenizerFileError


def load_path(path: Path, **options):
    from ..io import read_json, tokenizer_from_dict

    if not path.exists():
        raise TokenizerFileError(path, "no such file or directory", fix="Check the path.")
    if path.is_dir():
        for name in ("tokenizer.json", "tokcore.json"):
            if (path / name).is_file():
                return load_path(path / name, **options)
        found = ", ".join(sorted(p.name for p in path.iterdir())[:20]) or "nothing"
        raise TokenizerFileError(path, f"no tokenizer file found in this directory (found: {found})",
                                 fix="Expected tokenizer.json or a tokcore JSON file.")
    if path.suffix.lower() == ".json":
        return tokenizer_from_dict(read_json(path), source=path)
    raise TokenizerFileError(path, f"unknown tokenizer file type {path.suffix or '(no extension)'!r}",
                             fix="Expected tokenizer.json or a tokcore JSON file.")
