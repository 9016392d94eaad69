"""Jinja's filters wrapped with a deadline check, a size estimate for the ones that amplify, and a size check.

``|center(n)``, ``|indent(n)``, ``|format``, ``|batch``/``|slice`` with huge counts, ``|join`` with a long separator,
``|replace``, ``|wordwrap``, ``|tojson(indent=n)`` and ``|sum`` of lists are estimated before they run;
``|striptags`` and ``|urlize`` refuse input long enough to make their regular expressions backtrack for seconds.

Left out: the environment the wrapped filters are installed in (``tokcore.chat.sandbox``) and the budget itself
(``tokcore.chat.guards``).
"""

from __future__ import annotations

import functools
import inspect

import jinja2

from .guards import (
    MAX_QUADRATIC_WORK,
    binop_result_size,
    check_value,
    guarded_iter,
    refuse_over,
    str_method_result_size,
    tick,
    tojson_extra_size,
)


def guard_filter(name: str, filter_function):
    """``filter_function`` with a deadline check, a size estimate for the filters that amplify, and a size check."""
    signature = inspect.signature(filter_function)

    @functools.wraps(filter_function)
    def guarded(*args, **kwargs):
        tick()
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            return filter_function(*args, **kwargs)  # let the filter raise its own argument error
        a = bound.arguments
        value = a.get("value", a.get("s"))
        if name == "center" and isinstance(a.get("width"), int):
            refuse_over(a["width"], "a string from |center")
        elif name == "indent" and isinstance(value, str):
            width = a.get("width", 4)
            width = width if isinstance(width, int) else len(width) if isinstance(width, str) else 0
            refuse_over(len(value) + (value.count("\n") + 1) * max(width, 0), "a string from |indent")
        elif name == "format" and isinstance(value, str):
            padding = max(binop_result_size("%", value, tuple(a.get("args", ())))[0], 0)
            refuse_over(padding, "a string from |format")
        elif (name == "batch" and a.get("fill_with") is not None) or name == "slice":
            count = a.get("linecount", a.get("slices"))
            refuse_over(count if isinstance(count, int) else None, f"the lists of |{name}")
        elif name == "join":
            items = list(guarded_iter(value)) if value is not None and not isinstance(value, str) else value
            attribute = a.get("attribute")
            if isinstance(items, list):
                getter = jinja2.filters.make_attrgetter(a["eval_ctx"].environment, attribute) if attribute else None
                size = sum(len(str(getter(i) if getter else i)) for i in items)
                refuse_over(size + len(str(a.get("d", ""))) * max(len(items) - 1, 0), "a string from |join")
                bound.arguments["value"] = items
        elif name == "replace" and isinstance(value, str):
            count = a.get("count")
            refuse_over(
                str_method_result_size("replace", value, (str(a.get("old")), str(a.get("new")), -1 if count is None else count), {}),
                "a string from |replace",
            )
        elif name == "wordwrap" and isinstance(value, str) and isinstance(a.get("wrapstring"), str):
            lines = len(value) // max(a.get("width", 79), 1) + value.count("\n") + 1
            refuse_over(len(value) + lines * len(a["wrapstring"]), "a string from |wordwrap")
        elif name == "tojson":
            refuse_over(tojson_extra_size(a.get("x"), a.get("indent"), a.get("separators")), "the indentation of |tojson")
        elif name == "sum" and not isinstance(a.get("start", 0), (int, float)):
            items = list(guarded_iter(a.get("iterable", ())))
            total = sum(len(i) for i in items if hasattr(i, "__len__"))
            refuse_over(total, "a list from |sum")
            if total * len(items) > MAX_QUADRATIC_WORK:
                refuse_over(10**18, "a list from |sum (quadratic concatenation)")
            bound.arguments["iterable"] = items
        elif name in ("striptags", "urlize") and isinstance(value, str):
            # Their regular expressions can backtrack quadratically on long input.
            if len(value) * (value.count("<") + value.count(".") + 1) > MAX_QUADRATIC_WORK:
                refuse_over(10**18, f"a string from |{name} (input too long for its regular expression)")
        return check_value(filter_function(*bound.args, **bound.kwargs), f"the result of |{name}")

    return guarded
