"""The Jinja environment chat templates run in: transformers' settings, plus hooks that bound time and size.

Settings (as transformers 5 sets them): ``ImmutableSandboxedEnvironment`` with ``trim_blocks``, ``lstrip_blocks``,
``jinja2.ext.loopcontrols`` and a ``{% generation %}`` block that renders its body unchanged; globals
``raise_exception``, ``strftime_now``, a ``dict`` that only calls and ``fromkeys``, a ``namespace`` refusing
``_``-prefixed names; a ``tojson`` filter that is ``json.dumps`` with its arguments (no key sorting, no HTML
escaping). Everything else is Jinja's default.

Why the time bound holds in-process. Templates are untrusted, and a single render must stop within its
``timeout_s``. Compiled Jinja code can only spend time in three ways, and each is covered:

1. Python-level repetition: ``{% for %}`` loops, macro calls and recursion. Before compiling, the template's tree is
   rewritten so that every loop iterates through ``tokcore_iter`` (which checks the deadline at each item), and
   every call, attribute or item access, filter and intercepted operator passes through a hook that checks it too.
   Recursion ends in ``RecursionError``. So between two deadline checks there is only one operation.
2. One operation on a huge value: ``'x' * 10**9``, ``s.center(10**9)``, ``sep.join(many)``, ``10 ** 10**8``,
   ``'%*d' % (n, 1)``, ``tojson(indent=n)``. The operators ``+ * ** %``, the amplifying str/bytes/int methods and
   filters are estimated *before* they run (``tokcore.chat.guards``, ``tokcore.chat.filter_guards``) and refused past ``max_output_chars``;
   every other result is measured after, so no value can grow step by step past the cap either (``~`` is rewritten
   to a checked join; everything printed, into buffers too, is counted).
3. Printing: the output is streamed with ``generate()`` and stopped at ``max_output_chars``.

A worker process would also bound memory, but forking a threaded Streamlit server per render is fragile and costs
tens of milliseconds; these hooks cost microseconds. The deadline is raised as ``RenderTimeout``, a
``BaseException``, so Jinja's ``except Exception`` blocks cannot swallow it.

Left out: choosing templates and cleaning inputs (``config``, ``inputs``) and mapping errors (``render``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from contextvars import ContextVar
from datetime import datetime

import jinja2
import jinja2.ext
import jinja2.nodes as nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.visitor import NodeTransformer

from .filter_guards import guard_filter
from .guards import (
    ACTIVE_BUDGET,
    binop_result_size,
    check_value,
    format_padding,
    guarded_iter,
    refuse_over,
    str_method_result_size,
    tick,
)

# The clock behind strftime_now (local time, as transformers); render_chat(now=...) pins it for reproducible output.
CLOCK: ContextVar[Callable[[], datetime]] = ContextVar("tokcore_chat_clock", default=datetime.now)


class TemplateRaised(jinja2.TemplateError):
    """What the template's own ``raise_exception(message)`` raises."""


class GenerationBlock(jinja2.ext.Extension):
    """``{% generation %}...{% endgeneration %}`` marks assistant text for training masks; rendering keeps the body."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
        return nodes.CallBlock(self.call_method("_keep_body"), [], [], body).set_lineno(lineno)

    def _keep_body(self, caller):
        return caller()


class GuardInserter(NodeTransformer):
    """Rewrites a parsed template so loops, ``~`` joins and printing pass through the environment's checks."""

    def __init__(self, environment):
        self.environment = environment

    def _call(self, method: str, args: list, lineno: int):
        node = nodes.Call(nodes.EnvironmentAttribute(method), args, [], None, None)
        return node.set_lineno(lineno).set_environment(self.environment)

    def visit_For(self, node):
        node = self.generic_visit(node)
        node.iter = self._call("tokcore_iter", [node.iter], node.lineno)
        return node

    def visit_Concat(self, node):
        node = self.generic_visit(node)
        return self._call("tokcore_concat", list(node.nodes), node.lineno)

    def visit_Output(self, node):
        node = self.generic_visit(node)
        wrapped = []
        for child in node.nodes:
            if isinstance(child, nodes.TemplateData):
                child = nodes.Const(child.data).set_lineno(child.lineno).set_environment(self.environment)
            wrapped.append(self._call("tokcore_emit", [child], child.lineno))
        node.nodes = wrapped
        return node


class GuardedEnvironment(ImmutableSandboxedEnvironment):
    """The sandbox with deadline checks in every hook and size checks on amplifying operations."""

    # Intercepting these also stops Jinja from folding e.g. 'x' * 10**9 while compiling.
    intercepted_binops = frozenset({"+", "*", "**", "%"})

    def _parse(self, source, name, filename):
        tree = super()._parse(source, name, filename)
        return GuardInserter(self).visit(tree)

    def call_binop(self, context, operator, left, right):
        tick()
        estimate = binop_result_size(operator, left, right)
        if estimate is not None:
            refuse_over(estimate[0], estimate[1])
        return check_value(self.binop_table[operator](left, right), f"a value with '{operator}'")

    def getattr(self, obj, attribute):
        tick()
        return super().getattr(obj, attribute)

    def getitem(self, obj, argument):
        tick()
        return super().getitem(obj, argument)

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 (Jinja's own signature)
        tick()
        method = getattr(__obj, "__wrapped__", __obj)  # str.format comes wrapped by the sandbox
        owner = getattr(method, "__self__", None)
        name = getattr(method, "__name__", "")
        if isinstance(owner, (str, bytes)):
            if name in ("format", "format_map") and isinstance(owner, str):
                values = args[0] if name == "format_map" and args else kwargs
                padding = format_padding(owner, args if name == "format" else (), values if hasattr(values, "values") else {})
                refuse_over(len(owner) + padding, "a formatted string")
            elif name == "join" and args:
                items = list(guarded_iter(args[0]))
                size = sum(len(item) for item in items if isinstance(item, (str, bytes)))
                refuse_over(size + len(owner) * max(len(items) - 1, 0), "a joined string")
                args = (items, *args[1:])
            else:
                refuse_over(str_method_result_size(name, owner, args, kwargs), f"the result of .{name}()")
        elif isinstance(owner, int) and name == "to_bytes":
            length = args[0] if args else kwargs.get("length", 1)
            refuse_over(length if isinstance(length, int) else None, "bytes from .to_bytes()")
        return check_value(super().call(__context, __obj, *args, **kwargs), f"the result of {name or 'a call'}()")

    # Called from the rewritten template (see GuardInserter); templates cannot name them.
    def tokcore_iter(self, iterable):
        return guarded_iter(iterable)

    def tokcore_concat(self, *parts):
        texts = [str(part) for part in parts]
        refuse_over(sum(map(len, texts)), "a string joined with '~'")
        return "".join(texts)

    def tokcore_emit(self, value):
        text = str(value)
        budget = ACTIVE_BUDGET.get()
        if budget is not None:
            budget.tick()
            budget.count_emitted(len(text))
        return text


def _raise_exception(message):
    raise TemplateRaised(message)


def _tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def _strftime_now(format):
    return CLOCK.get()().strftime(format)


def _lipsum(n=5, html=True, min=20, max=100):  # noqa: A002 (Jinja's own parameter names)
    # Jinja's lipsum loops in Python without any hook, so its size is checked first (about 12 characters a word).
    if isinstance(n, int) and isinstance(max, int):
        refuse_over(n * (max if max > 0 else 0) * 12, "lorem ipsum text")
    return jinja2.utils.generate_lorem_ipsum(n=n, html=html, min=min, max=max)


class TemplateDict:
    """The template's ``dict``: builds dicts and offers ``fromkeys``, nothing else to reach through."""

    def __call__(self, *args, **kwargs):
        return dict(*args, **kwargs)

    def fromkeys(self, *args, **kwargs):
        return dict.fromkeys(*args, **kwargs)


class TemplateNamespace(jinja2.utils.Namespace):
    """``namespace()`` refusing ``_``-prefixed names, which could reach Python internals."""

    def __init__(*args, **kwargs):  # noqa: N805 (same signature trick as Jinja's Namespace)
        self, args = args[0], args[1:]
        attrs = dict(*args, **kwargs)
        for name in attrs:
            TemplateNamespace._check_name(name)
        jinja2.utils.Namespace.__init__(self, attrs)

    def __setitem__(self, name, value):
        TemplateNamespace._check_name(name)
        jinja2.utils.Namespace.__setitem__(self, name, value)

    @staticmethod
    def _check_name(name):
        if isinstance(name, str) and name.startswith("_"):
            raise jinja2.exceptions.SecurityError(
                f"chat templates may not store underscore-prefixed names on a namespace ({name!r}); rename it"
            )


@functools.lru_cache(maxsize=1)
def guarded_environment() -> GuardedEnvironment:
    """The one shared environment (compiled templates are cached per source in ``compile_template``)."""
    env = GuardedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[GenerationBlock, jinja2.ext.loopcontrols])
    env.filters["tojson"] = _tojson
    for name, function in list(env.filters.items()):
        env.filters[name] = guard_filter(name, function)
    env.globals["raise_exception"] = _raise_exception
    env.globals["strftime_now"] = _strftime_now
    env.globals["dict"] = TemplateDict()
    env.globals["namespace"] = TemplateNamespace
    env.globals["lipsum"] = _lipsum
    return env


@functools.lru_cache(maxsize=64)
def compile_template(source: str) -> jinja2.Template:
    """The compiled template for ``source`` (call it with a budget active: constant folding runs filters)."""
    return guarded_environment().from_string(source)
