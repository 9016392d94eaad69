"""tokcore's and tokapp's modules read from the source with ``ast``, and the import graph between them.

Nothing here imports the code it reads. Every import counts: at module level, inside functions and
classes, under ``if TYPE_CHECKING:``, and ``importlib.import_module(...)`` or ``__import__(...)`` on a
literal name. Relative imports are resolved against the importing module's package, and a name taken
from a package (``from tokcore.models import BPE``) leads to the module that package re-exports it from.

A package's ``__init__`` re-exporting its children is allowed: the implicit import of a module's
parent packages is not counted (every module would otherwise reach its package's ``__init__`` and so
every child), and a name taken from a package leads to its defining module. What still reaches a
package's ``__init__`` is ``import pkg`` or a name the ``__init__`` defines itself, and from one of its
own children that is a real circle.

Left out: imports built from variables (``import_module(name)``), which a reader cannot follow either,
and ``pages/`` and ``app.py``, scripts that nothing imports, so they cannot close a circle.
"""

from __future__ import annotations

import ast
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from shared_data import ROOT

PACKAGES = ("tokcore", "tokapp")


@dataclass(frozen=True)
class Module:
    """One source file: ``tokcore.core.tokenizer`` at ``tokcore/core/tokenizer.py``, parsed."""

    name: str
    path: Path
    is_package: bool
    tree: ast.Module

    @property
    def package(self) -> str:
        """The package relative imports start from: the module itself for an ``__init__``."""
        return self.name if self.is_package else self.name.rpartition(".")[0]


@dataclass(frozen=True)
class Import:
    """``source`` imports ``target`` at ``line``; ``target`` is a module of the tree or, when
    ``internal`` is false, the dotted name of an outside module (``streamlit.testing``)."""

    source: str
    target: str
    line: int
    internal: bool


def read_modules(packages: tuple[str, ...] = PACKAGES, root: Path = ROOT) -> dict[str, Module]:
    """Every ``.py`` file below ``root/<package>`` for each package, by dotted module name."""
    out: dict[str, Module] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            name = ".".join(parts)
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            out[name] = Module(name, path, is_package, tree)
    return out


def _absolute(module: Module, level: int, name: str | None) -> str:
    """The dotted name ``from <level dots><name> import ...`` means inside ``module``."""
    if level == 0:
        return name or ""
    base = module.package.split(".")
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join(base + ([name] if name else []))


def _longest_module(name: str, modules: dict[str, Module]) -> str | None:
    """``tokcore.core.tokenizer`` for ``tokcore.core.tokenizer.Tokenizer``; None outside the tree."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def _top_level(tree: ast.Module):
    """The statements of the module body, also those inside its top-level ``if`` and ``try`` blocks."""
    stack = list(reversed(tree.body))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.If):
            stack.extend(reversed(node.body + node.orelse))
        elif isinstance(node, ast.Try):
            handlers = [n for h in node.handlers for n in h.body]
            stack.extend(reversed(node.body + handlers + node.orelse + node.finalbody))


def _reexports(module: Module) -> dict[str, tuple[int, str | None, str]]:
    """Names a package's ``__init__`` binds by ``from ... import`` at its top level: (level, module, name)."""
    out: dict[str, tuple[int, str | None, str]] = {}
    for node in _top_level(module.tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                out[alias.asname or alias.name] = (node.level, node.module, alias.name)
    return out


def _resolve_name(package: str, name: str, modules: dict[str, Module], seen: frozenset[str] = frozenset()) -> str:
    """The module that ``from <package> import <name>`` really reaches.

    A submodule of that name, else the module the package's ``__init__`` re-exports it from (followed
    through further packages), else the package itself (a name defined or loaded lazily in its ``__init__``).
    """
    child = f"{package}.{name}"
    if child in modules:
        return child
    module = modules[package]
    if not module.is_package or package in seen:
        return package
    found = _reexports(module).get(name)
    if found is None:
        return package
    level, source, original = found
    origin = _longest_module(_absolute(module, level, source), modules)
    if origin is None:
        return package
    return _resolve_name(origin, original, modules, seen | {package}) if modules[origin].is_package else origin


def _literal_import_call(node: ast.Call) -> str | None:
    """``"x.y"`` for ``importlib.import_module("x.y")``, ``import_module("x.y")`` or ``__import__("x.y")``."""
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    if called not in ("import_module", "__import__") or not node.args:
        return None
    first = node.args[0]
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None


def module_imports(module: Module, modules: dict[str, Module]) -> list[Import]:
    """Every import statement or literal import call in ``module``, wherever it stands."""
    found: list[tuple[str, int]] = []
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, node.level, node.module)
            if _longest_module(base, modules) != base:  # outside the tree (or no such module)
                found.append((base, node.lineno))
                continue
            for alias in node.names:
                target = base if alias.name == "*" else _resolve_name(base, alias.name, modules)
                found.append((target, node.lineno))
        elif isinstance(node, ast.Call):
            name = _literal_import_call(node)
            if name is not None:
                found.append((name, node.lineno))
    out = []
    for name, line in found:
        target = _longest_module(name, modules)
        out.append(Import(module.name, target or name, line, target is not None))
    return out


def import_graph(imports: dict[str, list[Import]]) -> dict[str, dict[str, int]]:
    """``graph[a][b]`` = the first line where module ``a`` imports module ``b`` of the tree."""
    graph: dict[str, dict[str, int]] = {name: {} for name in imports}
    for name, found in imports.items():
        for imp in found:
            if imp.internal and imp.target != name:
                graph[name].setdefault(imp.target, imp.line)
    return graph


def strongly_connected(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The groups of modules that reach each other (Tarjan's algorithm, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)

    for start in sorted(graph):
        if start in index:
            continue
        visit(start)
        work = [(start, iter(sorted(graph[start])))]
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    visit(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = []
                    while not group or group[-1] != node:
                        group.append(stack.pop())
                        on_stack.discard(group[-1])
                    groups.append(sorted(group))
    return groups


def shortest_cycle(graph: dict[str, dict[str, int]], group: list[str]) -> list[str]:
    """``[a, b, ..., a]``: a shortest circle through the first module of a group that imports itself round."""
    start, members = group[0], set(group)
    previous: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for child in sorted(graph[node]):
            if child == start:
                path = [node]
                while previous[path[-1]] is not None:
                    path.append(previous[path[-1]])
                return path[::-1] + [start]
            if child in members and child not in previous:
                previous[child] = node
                queue.append(child)
    raise ValueError(f"{group} holds no circle through {start}")


class SourceTree:
    """The modules of ``packages`` under ``root``, their imports and the graph between them, read once."""

    def __init__(self, packages: tuple[str, ...] = PACKAGES, root: Path = ROOT):
        self.modules = read_modules(packages, root)
        self.imports = {name: module_imports(module, self.modules) for name, module in self.modules.items()}
        self.graph = import_graph(self.imports)

    def cycles(self) -> list[list[str]]:
        """One shortest circle ``[a, b, ..., a]`` per group of modules that import each other."""
        return [shortest_cycle(self.graph, g) for g in strongly_connected(self.graph) if len(g) > 1]

    def describe(self, cycle: list[str]) -> str:
        """``a (line 3) -> b (line 9) -> a``: each arrow labelled with the line of ``a``'s import."""
        return " -> ".join([f"{a} (line {self.graph[a][b]})" for a, b in zip(cycle, cycle[1:])] + [cycle[-1]])

    def importers_of(self, outside: str) -> dict[str, int]:
        """The modules that import ``outside`` (or a submodule of it) themselves: name -> first line."""
        out: dict[str, int] = {}
        for name, found in self.imports.items():
            for imp in found:
                if not imp.internal and (imp.target == outside or imp.target.startswith(outside + ".")):
                    out.setdefault(name, imp.line)
        return out

    def reachable(self, name: str) -> set[str]:
        """``name`` and every module of the tree its imports lead to, at any depth."""
        seen, todo = {name}, [name]
        while todo:
            for child in self.graph[todo.pop()]:
                if child not in seen:
                    seen.add(child)
                    todo.append(child)
        return seen
