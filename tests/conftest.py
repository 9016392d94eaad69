"""Shared fixtures: the reference data folder and CI strictness.

``TOKCORE_SHARED_DATA`` points at the reference data (default ``../shared/data`` beside the
checkout). Outside CI a missing folder skips the tests that need it; with ``CI=true`` it fails.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def shared_data_dir() -> Path:
    return Path(os.environ.get("TOKCORE_SHARED_DATA", ROOT.parent / "shared" / "data")).resolve()


def require_shared(*parts: str) -> Path:
    """Path of a reference file; skip (or fail in CI) when it is absent."""
    path = shared_data_dir().joinpath(*parts)
    if not path.exists():
        message = f"reference data {path} is missing (set TOKCORE_SHARED_DATA)"
        if IN_CI:
            pytest.fail(message + "; CI=true requires it")
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def shared_data() -> Path:
    return require_shared()


@pytest.fixture(scope="session")
def edge_cases() -> list[dict]:
    """The 40 edge-case texts, minus the lone-surrogate one (not valid Unicode)."""
    path = require_shared("edge_cases.jsonl")
    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    out = []
    for case in cases:
        try:
            case["text"].encode("utf-8")
        except UnicodeEncodeError:
            continue
        out.append(case)
    return out


@pytest.fixture(scope="session")
def all_edge_cases() -> list[dict]:
    """All edge cases, the invalid one included."""
    path = require_shared("edge_cases.jsonl")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
