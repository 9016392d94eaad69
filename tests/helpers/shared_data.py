"""Where the reference data lives, and CI strictness: importable helpers for tests.

``TOKCORE_SHARED_DATA`` points at the reference data (default ``../shared/data`` beside the
checkout). Outside CI a missing folder skips the tests that need it; with ``CI=true`` it fails.
(Kept out of ``conftest.py`` so that test modules can import it by a unique name: ``tests/helpers`` is on
``sys.path`` through ``pythonpath`` in ``pyproject.toml``, so ``from shared_data import require_shared``
works from every test folder. ``ROOT`` is the checkout, for tests that open its files.)
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]  # tests/helpers/shared_data.py -> the checkout
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
