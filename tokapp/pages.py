"""Discovery of the app's pages: every ``pages/*.py`` becomes an ``st.Page``, in file-name order.

A new page needs no edit to ``app.py``: name it ``<n>_<Title_words>.py``. Its title and icon
come from ``PAGE_META`` when listed there, else from the file name (``3_Compare.py`` ->
"Compare"). The first page is the default one.

Left out: the ``st.Page`` objects themselves (``app.py`` builds them; this module stays pure).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES_DIR = ROOT / "pages"

# url_path stem -> (title, icon). Unlisted pages get a title from their file name and DEFAULT_ICON.
PAGE_META: dict[str, tuple[str, str]] = {
    "playground": ("Playground", ":material/edit_note:"),
    "offsets_inspector": ("Offsets inspector", ":material/straighten:"),
    "compare": ("Compare", ":material/compare_arrows:"),
    "load_and_export": ("Load and export", ":material/upload_file:"),
    "load_export": ("Load and export", ":material/upload_file:"),
    "code": ("Code", ":material/code:"),
    "noisy_text": ("Noisy text", ":material/spellcheck:"),
    "beyond_text": ("Beyond text", ":material/music_note:"),
    "chat": ("Chat", ":material/chat:"),
    "train_bpe": ("Train BPE", ":material/merge:"),
    "train_wordpiece": ("Train WordPiece", ":material/join_inner:"),
    "train_unigram": ("Train Unigram", ":material/content_cut:"),
    "pipeline_stages": ("Pipeline stages", ":material/account_tree:"),
}
DEFAULT_ICON = ":material/description:"

# Sidebar sections by page number: 1-4 explore tokenizers, 5-8 train them, 9+ other kinds of input.
SECTIONS: tuple[tuple[int, str], ...] = ((1, "Explore"), (5, "Train"), (9, "Beyond plain text"))


@dataclass(frozen=True)
class PageInfo:
    path: Path
    title: str
    icon: str
    url_path: str
    default: bool = False
    section: str = "Explore"


def page_stem(path: Path) -> str:
    """File name without its order prefix, lower-cased. ``page_stem(Path("2_Offsets_inspector.py"))`` is
    ``"offsets_inspector"``."""
    return re.sub(r"^\d+[_\- ]*", "", path.stem).lower()


def section_of(number: int) -> str:
    """The sidebar section of page number ``number``. ``section_of(6) == "Train"``."""
    name = SECTIONS[0][1]
    for start, title in SECTIONS:
        if number >= start:
            name = title
    return name


def _sort_key(path: Path) -> tuple[int, str]:
    m = re.match(r"^(\d+)", path.stem)
    return (int(m.group(1)) if m else 10**6, path.stem.lower())


def discover_pages(directory: Path = PAGES_DIR) -> list[PageInfo]:
    """The pages in ``directory``, ordered by their numeric prefix, then name."""
    files = [p for p in directory.glob("*.py") if not p.name.startswith(("_", "."))]
    pages = []
    for i, path in enumerate(sorted(files, key=_sort_key)):
        stem = page_stem(path) or path.stem.lower()
        title, icon = PAGE_META.get(stem, (stem.replace("_", " ").capitalize(), DEFAULT_ICON))
        url_path = re.sub(r"[^a-z0-9_-]+", "-", stem)
        pages.append(PageInfo(path, title, icon, url_path, default=(i == 0), section=section_of(_sort_key(path)[0])))
    return pages


def by_section(found: list[PageInfo]) -> dict[str, list[PageInfo]]:
    """Pages grouped by section, sections in first-seen order (what ``st.navigation`` takes)."""
    out: dict[str, list[PageInfo]] = {}
    for page in found:
        out.setdefault(page.section, []).append(page)
    return out
