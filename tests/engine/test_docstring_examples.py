"""Docstring examples hold: every ``expr == expected`` in double backticks, and any ``>>>`` block.

The examples are read with ``ast`` (``tests/helpers/docstring_examples.py``) from tokcore and from
tokapp's pure modules (neither they nor any tokapp module their imports reach import streamlit). Each
runs as its own case, named ``module:function``, evaluated in its module's namespace. This evaluates
text written in this repository's own source files, never user data or anything read at run time; it
is the code the other tests import anyway.

Fragments that are not one Python ``==`` comparison, or that name something their module does not
define (``decode(encode(t)) == t``), are left out and counted: per package at least 60% of the
candidates must run, so the test cannot quietly turn empty. Left out: tokapp's ``st_*`` modules and the
pages, which need a running Streamlit script.
"""

from __future__ import annotations

import pytest
from docstring_examples import collect
from source_tree import SourceTree

MIN_SHARE_RUN = 0.6
MIN_EXAMPLES = {"tokcore": 20, "tokapp": 10}

_TREE = SourceTree()
_STREAMLIT = set(_TREE.importers_of("streamlit"))
PURE_APP = {name for name in _TREE.modules if name.split(".")[0] == "tokapp" and not _TREE.reachable(name) & _STREAMLIT}
FOUND = {
    "tokcore": collect({n: m for n, m in _TREE.modules.items() if n.split(".")[0] == "tokcore"}),
    "tokapp": collect({n: m for n, m in _TREE.modules.items() if n in PURE_APP}),
}
EXAMPLES = [example for found in FOUND.values() for example in found.examples]


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.id for e in EXAMPLES])
def test_the_docstring_example_holds(example):
    example.check()


@pytest.mark.parametrize("package", sorted(FOUND))
def test_most_candidate_examples_run(package):
    problem = FOUND[package].shortfall(MIN_SHARE_RUN, MIN_EXAMPLES[package])
    assert problem is None, f"{package}: {problem}"


def test_doctest_blocks_are_collected_too():
    assert any(e.kind == "doctest" for e in EXAMPLES)


def test_only_modules_free_of_streamlit_count_as_pure():
    assert {"tokapp.samples", "tokapp.visible", "tokapp.training"} <= PURE_APP
    assert not {"tokapp.st_common", "tokapp.st_training", "tokapp.warmup"} & PURE_APP


def test_the_collector_on_a_made_up_module(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text('"""``twice(2) == 4``; ``twice(t) == t + t``; ``f(<x>) == 1``."""\n')
    (tmp_path / "pkg" / "m.py").write_text(
        'import math\n\n\n'
        'def twice(x):\n    """``twice(2) == 4`` and ``twice(3)\n    == 6``; ``[k for k in range(2)] == [0, 1]``."""\n\n\n'
        'class Box:\n    def size(self):\n        """``math.floor(Box().size()) == 1``\n\n        >>> 1 + 1\n        2\n        """\n'
    )
    found = collect(SourceTree(("pkg",), tmp_path).modules)
    assert [(e.id, e.source) for e in found.examples] == [
        ("pkg.m:twice", "twice(2) == 4"),
        ("pkg.m:twice#2", "twice(3) == 6"),
        ("pkg.m:twice#3", "[k for k in range(2)] == [0, 1]"),
        ("pkg.m:Box.size:doctest", found.examples[3].source),
        ("pkg.m:Box.size#2", "math.floor(Box().size()) == 1"),
    ]
    assert found.examples[1].line == 5  # where the fragment opens
    assert [(where, reason) for where, _, reason in found.skipped] == [
        ("pkg:<module>", "names twice not defined in the module"),
        ("pkg:<module>", "names t, twice not defined in the module"),
        ("pkg:<module>", "not Python"),
    ]
    assert found.candidates == 7 and found.shortfall(0.5, 5) is None
    assert found.shortfall(0.6, 5).startswith("only 57% of 7 candidate examples run; left out:\n  pkg:<module>")
    assert found.shortfall(0.5, 6) == "only 5 docstring examples found (at least 6 expected)"
