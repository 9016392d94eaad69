"""Fixtures shared by every test folder: the reference data and its edge cases.

The folders mirror the code: ``engine/`` (tokcore's stages, core, trainers, fast paths, parallel,
extras), ``parity/`` (whole tokenizers against tokenizers, sentencepiece, tiktoken), ``robust/``
(malformed files, scaling, hostile text), ``app/`` (AppTest and tokapp's pure helpers),
``browser/`` (Chromium against a live server; its own fixtures), ``bench/``. Helpers used across
files live in ``helpers/``, on ``sys.path`` through ``pythonpath`` in ``pyproject.toml``: import them
by name (``from shared_data import require_shared``), never from ``conftest``.

``TOKCORE_SHARED_DATA`` points at the reference data (default ``../shared/data`` beside the
checkout). Outside CI a missing folder skips the tests that need it; with ``CI=true`` it fails.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from shared_data import IN_CI, ROOT, require_shared, shared_data_dir  # noqa: F401  (re-exported: see below)

# Tests never write tokcore's parsed-file cache into the home folder: each test process keeps its
# own, so loads from the cache are exercised too (tokcore.loaders.parsed_cache).
if "TOKCORE_CACHE_DIR" not in os.environ:
    os.environ["TOKCORE_CACHE_DIR"] = _CACHE = tempfile.mkdtemp(prefix="tokcore-cache-")
    atexit.register(shutil.rmtree, _CACHE, True)

# IN_CI, ROOT and shared_data_dir stay importable as ``from conftest import ...`` for tests written against the
# flat layout; new tests import them from shared_data.


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` with the browser tests on one worker again (``worker_groups``: pytest 9.2
    dropped the node id suffix xdist groups by)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from worker_groups import make_scheduler

    return make_scheduler(config, log)


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
