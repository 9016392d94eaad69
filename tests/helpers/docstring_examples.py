"""Worked examples in our docstrings, found with ``ast`` and checked: ``expr == expected`` and ``>>>`` blocks.

Many helpers carry a one-line example in double backticks, e.g. ````char_to_byte_table("aé") == [0, 1, 3]````.
Each such fragment that parses as one ``==`` comparison and names only what its module defines at top
level (or a builtin) becomes an ``Example``; ``Example.check`` imports the module and evaluates both
sides in a copy of the module's namespace. A docstring holding ``>>>`` lines runs through ``doctest``.

What is evaluated is text from this repository's own source files (tokcore, tokapp), read from disk with
``ast``, the same code the tests import anyway; never user input, reference data or anything fetched.

Left out, and counted in ``Collected.skipped`` with the reason: fragments that are not one Python ``==``
comparison (prose, ``a == b == c``) and fragments naming something the module does not define
(``decode(encode(t)) == t`` speaks of some ``t``); comments, which are not docstrings.
"""

from __future__ import annotations

import ast
import builtins
import doctest
import importlib
import io
import re
from dataclasses import dataclass, field

from source_tree import Module

FRAGMENT = re.compile(r"``(.+?)``", re.S)


@dataclass(frozen=True)
class Example:
    """One checkable example: ``source`` (an ``==`` comparison, or a docstring's ``>>>`` block) in
    ``module``'s docstring of ``owner`` (a qualified name, or ``<module>``), at ``line`` of the file."""

    module: str
    owner: str
    source: str
    line: int
    kind: str = "expr"  # or "doctest"
    number: int = 1  # among the examples of the same docstring

    @property
    def id(self) -> str:
        suffix = f"#{self.number}" if self.number > 1 else ""
        return f"{self.module}:{self.owner}{suffix}" + (":doctest" if self.kind == "doctest" else "")

    def check(self) -> None:
        """Import the module and check the example in it; fail with both sides when it does not hold."""
        module = importlib.import_module(self.module)
        namespace = dict(vars(module))
        where = f"{module.__file__}:{self.line}"
        if self.kind == "doctest":
            test = doctest.DocTestParser().get_doctest(self.source, namespace, self.id, module.__file__, self.line)
            out = io.StringIO()
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
            runner.run(test, out=out.write)
            assert runner.failures == 0, f"{where}: doctest failed\n{out.getvalue()}"
            return
        compare = ast.parse(self.source, mode="eval").body
        left = eval(compile(ast.Expression(compare.left), where, "eval"), namespace)  # our own source: see above
        right = eval(compile(ast.Expression(compare.comparators[0]), where, "eval"), namespace)
        assert left == right, f"{where}: ``{self.source}`` does not hold\n  left:  {left!r}\n  right: {right!r}"


@dataclass
class Collected:
    """The examples that run, and the candidate fragments left out as ``(id, fragment, reason)``."""

    examples: list[Example] = field(default_factory=list)
    skipped: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def candidates(self) -> int:
        return sum(e.kind == "expr" for e in self.examples) + len(self.skipped)

    def share_run(self) -> float:
        """Share of the candidate ``==`` fragments that run (0.0 when there is none)."""
        runnable = sum(e.kind == "expr" for e in self.examples)
        return runnable / self.candidates if self.candidates else 0.0

    def shortfall(self, min_share: float, min_examples: int) -> str | None:
        """Why too few examples run (fewer than ``min_examples``, or under ``min_share`` of the candidates)."""
        if len(self.examples) < min_examples:
            return f"only {len(self.examples)} docstring examples found (at least {min_examples} expected)"
        if self.share_run() < min_share:
            left_out = "\n".join(f"  {where}: ``{fragment}`` ({reason})" for where, fragment, reason in self.skipped)
            return f"only {self.share_run():.0%} of {self.candidates} candidate examples run; left out:\n{left_out}"
        return None


def docstrings(tree: ast.Module):
    """``(owner, line, text)`` for the module's docstring and every class's and function's, nested ones too."""

    def visit(node: ast.AST, owner: str):
        body = getattr(node, "body", [])
        first = body[0] if body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            yield owner, first.value.lineno, first.value.value
        prefix = "" if owner == "<module>" else owner + "."
        for child in _defined_in(node):
            yield from visit(child, prefix + child.name)

    yield from visit(tree, "<module>")


def _defined_in(parent: ast.AST) -> list[ast.AST]:
    """The functions and classes defined directly in ``parent`` (also inside its ``if``/``try`` blocks)."""
    out, stack = [], list(reversed(list(ast.iter_child_nodes(parent))))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append(node)
        elif not isinstance(node, ast.Lambda):
            stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return out


def top_level_names(tree: ast.Module) -> set[str]:
    """Names the module binds outside any function or class: definitions, assignments, imports."""
    names: set[str] = set()
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names.add(alias.asname or alias.name.split(".")[0])
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        if not isinstance(node, ast.Lambda):
            stack.extend(ast.iter_child_nodes(node))
    return names


def free_names(expr: ast.AST) -> set[str]:
    """Names ``expr`` reads that it does not bind itself (in a comprehension or a lambda)."""
    loaded = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    bound = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    bound |= {a.arg for n in ast.walk(expr) if isinstance(n, ast.Lambda) for a in n.args.args}
    return loaded - bound


def why_not(fragment: str, defined: set[str]) -> str | None:
    """None when ``fragment`` is one runnable ``==`` comparison; otherwise the reason it is left out."""
    try:
        expr = ast.parse(fragment, mode="eval").body
    except SyntaxError:
        return "not Python"
    if not (isinstance(expr, ast.Compare) and len(expr.ops) == 1 and isinstance(expr.ops[0], ast.Eq)):
        return "not one == comparison"
    missing = sorted(free_names(expr) - defined - set(dir(builtins)))
    return f"names {', '.join(missing)} not defined in the module" if missing else None


def collect(modules: dict[str, Module]) -> Collected:
    """Every example of ``modules``' docstrings, in file order."""
    out = Collected()
    for name in sorted(modules):
        tree = modules[name].tree
        defined = top_level_names(tree)
        for owner, line, text in docstrings(tree):
            number = 0
            if ">>>" in text:
                number += 1
                out.examples.append(Example(name, owner, text, line, "doctest", number))
            for match in FRAGMENT.finditer(text):
                fragment = re.sub(r"\s*\n\s*", " ", match.group(1)).strip()
                if "==" not in fragment:
                    continue
                at = line + text.count("\n", 0, match.start())
                reason = why_not(fragment, defined)
                if reason is not None:
                    out.skipped.append((f"{name}:{owner}", fragment, reason))
                    continue
                number += 1
                out.examples.append(Example(name, owner, fragment, at, "expr", number))
    return out
