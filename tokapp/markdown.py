"""User and vocabulary text made safe for Streamlit Markdown (``st.markdown``, captions, alerts).

Two helpers: ``md_code`` puts any text in an inline code span that no backtick inside can close;
``md_text`` backslash-escapes every character Markdown (and Streamlit's ``$`` maths and ``:colour[]``
directives) would read as markup. ``md_code`` draws whitespace and controls visible (``tokapp.visible``);
``md_text`` turns newlines into spaces, so neither can end the paragraph.

Left out: HTML (``tokapp.html`` escapes with ``html.escape``) and table cells (dataframes show plain text).
"""

from __future__ import annotations

import re

from .visible import visible

# Marks Markdown reads anywhere in a line (start-of-line marks such as "1." or "-" cannot occur: callers
# put the text after their own words), plus Streamlit's "$" maths and ":name[...]" directives.
_SPECIAL = re.compile(r"([\\`*_{}\[\]#|<>$~:&])")


def md_code(text: str) -> str:
    """``text`` as an inline code span. ``md_code("a`b") == "`` a`b ``"``; ``md_code("ug") == "`ug`"``."""
    shown = visible(text)
    longest = max((len(run) for run in re.findall(r"`+", shown)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if longest or shown.startswith(" ") or shown.endswith(" ") else ""
    return f"{fence}{pad}{shown}{pad}{fence}"


def md_text(text: str) -> str:
    """``text`` with every Markdown mark escaped. ``md_text("*a*") == "\\\\*a\\\\*"``."""
    return _SPECIAL.sub(r"\\\1", " ".join(text.splitlines()))
