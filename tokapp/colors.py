"""Palettes for highlighting tokens: light backgrounds that keep dark text readable.

Adjacent tokens always get different colours (a palette has at least two). Special tokens
and inserted sentinels have fixed styles of their own so they never blend with ordinary ones.

Left out: dark themes (the app pins Streamlit's light theme in ``.streamlit/config.toml``).
"""

from __future__ import annotations

# Each background keeps a contrast ratio above 10:1 with TEXT_COLOR (WCAG AAA is 7:1).
PALETTES: dict[str, tuple[str, ...]] = {
    "pastel": ("#ffd8a8", "#c3fae8", "#d0bfff", "#ffec99", "#a5d8ff", "#ffc9c9"),
    "colour-blind safe": ("#f9d29b", "#a9d6f5", "#b8e6d3", "#f3e49a", "#e5bde0"),
    "two tones": ("#dbe4ff", "#fff3bf"),
}
DEFAULT_PALETTE = "pastel"

TEXT_COLOR = "#1a1a1a"
SPECIAL_BG = "#5f3dc4"  # a special token matched in the text: solid, dark, white text
SPECIAL_FG = "#ffffff"
INSERTED_BORDER = "#5f3dc4"  # a template-inserted token with the (0, 0) sentinel: dashed outline
UNKNOWN_BORDER = "#e03131"  # the unknown token
GAP_FG = "#868e96"  # text no token covers (e.g. whitespace a pre-tokenizer dropped)


def palette_colors(name: str) -> tuple[str, ...]:
    """The colours of palette ``name`` (the default palette for unknown names).

    ``palette_colors("two tones") == ("#dbe4ff", "#fff3bf")``
    """
    return PALETTES.get(name, PALETTES[DEFAULT_PALETTE])


def token_color(k: int, name: str = DEFAULT_PALETTE) -> str:
    """Background of the ``k``-th coloured token. ``token_color(0) != token_color(1)``."""
    colors = palette_colors(name)
    return colors[k % len(colors)]


def relative_luminance(hex_color: str) -> float:
    """WCAG relative luminance of ``#rrggbb``. ``relative_luminance("#ffffff") == 1.0``."""
    value = hex_color.lstrip("#")
    channels = [int(value[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast_ratio(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours. ``round(contrast_ratio("#000000", "#ffffff")) == 21``."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
