"""Which xdist worker runs which tests: every browser test on one worker (one server, one Chromium).

``--dist loadgroup`` is meant to keep tests with the same ``xdist_group`` mark on one worker: the
worker appends ``@group`` to each marked node id and the controller groups by that suffix. pytest
9.2 made node ids structured, and the suffix no longer takes (pytest-xdist issue #1386, open), so
the browser tests were spread over both workers: each started its own Streamlit server and
Chromium, both ran at once, and the other 3,600 tests waited behind them.

``GroupScheduling`` (made by ``tests/conftest.py``'s ``pytest_xdist_make_scheduler``) groups on
the controller, which sees node ids but no marks: by folder (``FOLDER_GROUPS``), and by the
suffix when a fixed xdist adds it again. ``test_worker_groups.py`` checks that every marked test
lands in its mark's group. Left out: any other scheduling change (the largest unit still starts
first: xdist's ``--loadscope-reorder``).
"""

from __future__ import annotations

# Node id prefix (relative to the project root) -> the group of every test under it.
FOLDER_GROUPS = {"tests/browser/": "browser"}


def folder_group(nodeid: str) -> str | None:
    """The group a test's folder puts it in, or ``None``.
    ``folder_group("tests/browser/test_x.py::test_a[1]") == "browser"``."""
    for prefix, group in FOLDER_GROUPS.items():
        if nodeid.startswith(prefix):
            return group
    return None


def make_scheduler(config, log):
    """xdist's loadgroup scheduler, grouping by folder first (see the module docstring)."""
    from xdist.scheduler import LoadGroupScheduling

    class GroupScheduling(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return folder_group(nodeid) or super()._split_scope(nodeid)

    return GroupScheduling(config, log)
