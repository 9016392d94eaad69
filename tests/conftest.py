"""Shared fixtures: the reference data folder and CI strictness.

``TOKCORE_SHARED_DATA`` points at the reference data (default ``../shared/data`` beside the
checkout). Outside CI a missing folder skips the tests that need it; with ``CI=true`` it fails.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shared_data import IN_CI, ROOT, require_shared, shared_data_dir  # noqa: F401  (re-exported)


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
