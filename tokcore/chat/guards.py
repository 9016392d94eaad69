"""The render budget (a deadline and a size cap) and the size estimates that let operations be refused before
they run.

A ``Budget`` is active for the length of one render (a ``ContextVar``, so renders in different threads, as in
Streamlit, never share one). The sandbox (``tokcore.chat.sandbox``) calls ``tick()`` in every hook and asks the
estimates below whether an amplifying operation (``'x' * n``, ``s.center(n)``, ``sep.join(items)``,
``10 ** n``...) would build a value larger than the cap; if so it raises instead of allocating.

Left out: the hooks themselves (``tokcore.chat.sandbox``) and anything that is not an estimate or the budget.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from string import Formatter

from .errors import ChatTemplateLimitError

# Integers beyond this many bits only come from runaway arithmetic (about 19,700 decimal digits).
MAX_INT_BITS = 1 << 16
# Work allowed to one operation whose cost grows as the product of two sizes (|sum of lists, |striptags).
MAX_QUADRATIC_WORK = 50_000_000


class RenderTimeout(BaseException):
    """The render passed its deadline. A ``BaseException`` so that no ``except Exception`` inside Jinja
    (constant folding, filters that catch errors) can swallow it; ``render`` turns it into a ChatTemplateError."""


@dataclass
class Budget:
    """Limits of one render: a monotonic deadline, the largest value and output allowed (characters or items),
    and the running count of characters the template has printed anywhere (buffers of macros and ``set`` blocks
    included)."""

    deadline: float
    max_chars: int
    max_emitted: int
    timeout_s: float
    emitted: int = field(default=0)

    @classmethod
    def start(cls, *, timeout_s: float, max_chars: int) -> "Budget":
        # Macros and set-blocks print into buffers that are printed again, so printing may exceed the output cap.
        return cls(time.monotonic() + timeout_s, max_chars, 8 * max_chars, timeout_s)

    def tick(self) -> None:
        if time.monotonic() > self.deadline:
            raise RenderTimeout(self.timeout_s)

    def check_size(self, size: int, what: str) -> None:
        if size > self.max_chars:
            raise ChatTemplateLimitError(
                f"the chat template tried to build {what} of {size:,} characters or items, over the limit of "
                f"{self.max_chars:,} (max_output_chars); a real template never needs that, so it is refused"
            )

    def count_emitted(self, size: int) -> None:
        self.emitted += size
        if self.emitted > self.max_emitted:
            raise ChatTemplateLimitError(
                f"the chat template printed over {self.max_emitted:,} characters (8 x max_output_chars) into its "
                "output and buffers; it looks like a runaway loop"
            )

    def check_value(self, value: object, what: str) -> None:
        """Refuse a finished value that is too large (a safety net behind the estimates)."""
        if isinstance(value, (str, bytes, list, tuple, dict)):
            self.check_size(len(value), what)
        elif isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_INT_BITS:
            raise ChatTemplateLimitError(
                f"the chat template built {what}: an integer of {value.bit_length():,} bits (limit {MAX_INT_BITS:,})"
            )


ACTIVE_BUDGET: ContextVar[Budget | None] = ContextVar("tokcore_chat_budget", default=None)


def int_size(value: int) -> int:
    """Bits of an integer, for the integer limit.

    >>> int_size(255)
    8
    """
    return abs(value).bit_length()


def binop_result_size(operator: str, left: object, right: object) -> tuple[int, str] | None:
    """An upper bound of the size of ``left <operator> right`` and what it measures, or ``None`` if harmless.

    >>> binop_result_size("*", "ab", 3)
    (6, 'a repeated string or list')
    """
    sequence = (str, bytes, list, tuple)
    if operator == "*":
        if isinstance(left, sequence) and isinstance(right, int):
            return len(left) * max(right, 0), "a repeated string or list"
        if isinstance(right, sequence) and isinstance(left, int):
            return len(right) * max(left, 0), "a repeated string or list"
        if isinstance(left, int) and isinstance(right, int):
            return (int_size(left) + int_size(right)) // 8, "an integer (size in bytes)"
    elif operator == "+":
        if isinstance(left, sequence) and isinstance(right, sequence):
            return len(left) + len(right), "a concatenated string or list"
    elif operator == "**":
        if isinstance(left, int) and isinstance(right, int) and right > 0 and abs(left) > 1:
            return int_size(left) * right // 8, "a power (size in bytes)"
    elif operator == "%" and isinstance(left, str):
        args = right if isinstance(right, tuple) else (right,)
        return len(left) + printf_padding(left, args) + sum(len(a) for a in args if isinstance(a, str)), "a formatted string"
    return None


_PRINTF_NUMBERS = re.compile(r"%[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")


def printf_padding(template: str, args: tuple) -> int:
    """The largest width or precision a printf-style format could pad to (``*`` takes it from the arguments).

    >>> printf_padding("%-20s|%.3f", ("x", 1.0))
    20
    """
    largest = 0
    for match in _PRINTF_NUMBERS.finditer(template):
        for number in match.groups():
            if number and number.isdigit():
                largest = max(largest, int(number))
    if "*" in template:
        largest = max([largest] + [abs(a) for a in args if isinstance(a, int)])
    return largest


def format_padding(template: str, args: tuple, kwargs: Mapping) -> int:
    """The largest width ``str.format`` could pad to; nested fields (``{:{w}}``) count every integer argument.

    >>> format_padding("{:>30}{}", (), {})
    30
    """
    largest = 0
    try:
        fields = list(Formatter().parse(template))
    except ValueError:
        return 0  # str.format raises the same error itself
    for _literal, _name, spec, _conversion in fields:
        if not spec:
            continue
        largest = max([largest] + [int(n) for n in re.findall(r"\d+", spec)])
        if "{" in spec:
            numbers = [a for a in (*args, *kwargs.values()) if isinstance(a, int)]
            largest = max([largest] + [abs(n) for n in numbers])
    return largest


def str_method_result_size(name: str, text: str | bytes, args: tuple, kwargs: Mapping) -> int | None:
    """An upper bound of what the str/bytes method ``name`` returns, for the methods that can amplify.

    >>> str_method_result_size("center", "ab", (10,), {}), str_method_result_size("upper", "ab", (), {})
    (10, None)
    """
    def arg(position: int, keyword: str, default=None):
        return args[position] if len(args) > position else kwargs.get(keyword, default)

    if name in ("center", "ljust", "rjust", "zfill"):
        width = arg(0, "width", 0)
        return max(len(text), width) if isinstance(width, int) else None
    if name == "expandtabs":
        size = arg(0, "tabsize", 8)
        tab = "\t" if isinstance(text, str) else b"\t"
        return len(text) + text.count(tab) * max(size, 0) if isinstance(size, int) else None
    if name == "replace":
        old, new, count = arg(0, "old"), arg(1, "new"), arg(2, "count", -1)
        if not (isinstance(old, type(text)) and isinstance(new, type(text)) and isinstance(count, int)):
            return None
        hits = text.count(old) if old else len(text) + 1
        if count >= 0:
            hits = min(hits, count)
        return len(text) + hits * max(len(new) - len(old), 0)
    if name == "translate":
        table = arg(0, "table")
        if isinstance(table, Mapping):
            longest = max([1] + [len(v) for v in table.values() if isinstance(v, (str, bytes))])
            return len(text) * longest
    return None


def json_structure(value: object) -> tuple[int, int]:
    """``(items, depth)`` of a JSON-like value: how many list entries and dict pairs, and how deep they nest.

    >>> json_structure({"a": [1, 2], "b": {}})
    (4, 2)
    """
    items, depth, stack = 0, 0, [(value, 0)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, Mapping):
            children = list(node.values())
        elif isinstance(node, (list, tuple)):
            children = list(node)
        else:
            continue
        depth = max(depth, level + 1)
        items += len(children)
        stack.extend((child, level + 1) for child in children)
    return items, depth


def tojson_extra_size(value: object, indent: object, separators: object) -> int:
    """Characters that ``indent`` and ``separators`` add to a compact ``json.dumps`` (an upper bound).

    >>> tojson_extra_size([1, 2], 4, None)
    19
    """
    items, depth = json_structure(value)
    indent_width = indent if isinstance(indent, int) else len(indent) if isinstance(indent, str) else 0
    separator_width = sum(len(s) for s in separators if isinstance(s, str)) if isinstance(separators, (list, tuple)) else 2
    return (items + depth) * (1 + depth * max(indent_width, 0)) + items * separator_width


def tick() -> None:
    """Check the active render's deadline (no-op outside a render)."""
    budget = ACTIVE_BUDGET.get()
    if budget is not None:
        budget.tick()


def check_value(value, what: str):
    """``value``, unless it is larger than the active render allows."""
    budget = ACTIVE_BUDGET.get()
    if budget is not None:
        budget.check_value(value, what)
    return value


def refuse_over(size: int | None, what: str) -> None:
    """Raise if an estimated ``size`` is over the active render's cap (``None``: nothing to check)."""
    budget = ACTIVE_BUDGET.get()
    if budget is not None and size is not None:
        budget.check_size(size, what)


def guarded_iter(iterable):
    """Iterate ``iterable``, checking the deadline before each item."""
    for item in iterable:
        tick()
        yield item
