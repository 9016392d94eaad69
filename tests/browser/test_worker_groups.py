"""Every browser test runs on one xdist worker: one Streamlit server and one Chromium, started once,
beside the worker that runs the other tests (``worker_groups``). No browser is needed here."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

import conftest
import pytest
from worker_groups import folder_group

HERE = Path(__file__).resolve().parent


class _LoadgroupConfig:
    """The controller's view of ``pytest -n 2 --dist loadgroup``, over this run's own config."""

    def __init__(self, config):
        self._config = config

    def getvalue(self, name):
        return {"dist": "loadgroup", "tx": ["2*popen"]}.get(name) or self._config.getvalue(name)

    def __getattr__(self, name):
        return getattr(self._config, name)


def _marked_browser_tests() -> dict[str, str]:
    """Node id (no parameters) -> the group named by its module's ``xdist_group`` mark."""
    out = {}
    for path in sorted(HERE.glob("test_browser_*.py")):
        module = importlib.import_module(f"browser.{path.stem}")
        marks = [m for m in getattr(module, "pytestmark", []) if m.name == "xdist_group"]
        assert len(marks) == 1, f"{path.name}: give it pytestmark xdist_group('browser') like its neighbours"
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if name.startswith("test_") and fn.__module__ == module.__name__:
                out[f"tests/browser/{path.name}::{name}"] = marks[0].args[0]
    return out


def test_the_suite_schedules_by_group(pytestconfig):
    scheduler = conftest.pytest_xdist_make_scheduler(_LoadgroupConfig(pytestconfig), None)
    marked = _marked_browser_tests()
    assert len(marked) > 20  # every browser test function (parameters aside)
    for nodeid, group in marked.items():
        assert scheduler._split_scope(nodeid) == group
        assert scheduler._split_scope(nodeid + "[param-1]") == group
        assert scheduler._split_scope(nodeid + "@" + group) == group  # an xdist that adds the suffix again
    # every other test is its own unit, spread over both workers
    for nodeid in ("tests/engine/test_api.py::test_x", "tests/app/test_app_chat.py::test_y[a@b]"):
        assert scheduler._split_scope(nodeid) == nodeid


def test_other_dist_modes_keep_xdist_schedulers(pytestconfig):
    class Load(_LoadgroupConfig):
        def getvalue(self, name):
            return "load" if name == "dist" else super().getvalue(name)

    assert conftest.pytest_xdist_make_scheduler(Load(pytestconfig), None) is None


@pytest.mark.parametrize("nodeid, group", [("tests/browser/test_x.py::test_a[1]", "browser"),
                                           ("tests/engine/test_browser.py::test_a", None)])
def test_folder_group(nodeid, group):
    assert folder_group(nodeid) == group
