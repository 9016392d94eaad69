"""Finding each message's content in a rendered prompt, exactly, with sentinel renders.

The conversation is rendered a second time with every string content replaced by a unique sentinel (private-use
characters that no input contains, with no case and no whitespace, so ``|upper`` or ``.strip()`` leave them alone).
Splitting that render at the sentinels gives the template's own text between contents; aligning those pieces
against the real render, with each content written as is or as ``.strip()``/``.lstrip()``/``.rstrip()`` made it,
gives every content span. An alignment is accepted only when it reproduces the real text exactly, and a message
whose span differs between two valid alignments gets none: a span is either exact or absent.

Left out: rendering itself (``tokcore.chat.render`` passes a render function in), content given as a list of parts,
and empty contents (nothing to show; they get no span).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

# Two private-use alphabets: 16 digits, then an opening and a closing mark.
_ALPHABETS = (
    tuple(chr(0x10FF00 + i) for i in range(18)),
    tuple(chr(0xE000 + i) for i in range(18)),
)
_MAX_ALIGN_STEPS = 20_000

Piece = str | int  # template text, or the index of the message whose content stands there


def pick_alphabet(used_text: str) -> tuple[str, ...] | None:
    """The first sentinel alphabet none of whose characters occur in ``used_text`` (``None`` if both do).

    >>> len(pick_alphabet("plain text"))
    18
    """
    for alphabet in _ALPHABETS:
        if not any(char in used_text for char in alphabet):
            return alphabet
    return None


def sentinel(index: int, alphabet: Sequence[str]) -> str:
    """The sentinel standing for message ``index``: open mark, base-16 digits, close mark.

    >>> sentinel(17, [str(d) for d in range(10)] + list("abcdef") + ["<", ">"])
    '<11>'
    """
    digits = ""
    while True:
        index, digit = divmod(index, 16)
        digits = alphabet[digit] + digits
        if index == 0:
            break
    return alphabet[16] + digits + alphabet[17]


def split_at_sentinels(rendered: str, sentinels: dict[str, int]) -> list[Piece]:
    """The sentinel render cut into template text and message indices.

    >>> split_at_sentinels("<a>X<b>", {"X": 3})
    ['<a>', 3, '<b>']
    """
    pieces: list[Piece] = []
    position = 0
    while True:
        found = [(rendered.find(mark, position), mark) for mark in sentinels]
        found = [(at, mark) for at, mark in found if at >= 0]
        if not found:
            break
        at, mark = min(found)
        if at > position:
            pieces.append(rendered[position:at])
        pieces.append(sentinels[mark])
        position = at + len(mark)
    if position < len(rendered):
        pieces.append(rendered[position:])
    return pieces


def content_forms(content: str) -> list[str]:
    """The ways a template commonly writes a content: as is, or stripped at both, the left or the right end.

    >>> content_forms(" hi ")
    [' hi ', 'hi', 'hi ', ' hi']
    """
    forms = []
    for form in (content, content.strip(), content.lstrip(), content.rstrip()):
        if form not in forms:
            forms.append(form)
    return forms


def align(text: str, pieces: Sequence[Piece], contents: dict[int, str]) -> dict[int, list[tuple[int, int]]] | None:
    """Character spans of each message's content such that the pieces rebuild ``text`` exactly.

    Messages whose spans differ between valid alignments are left out; ``None`` when no alignment exists.

    >>> align("[a]", ["[", 0, "]"], {0: " a "})
    {0: [(1, 2)]}
    """
    solutions: list[dict[int, list[tuple[int, int]]]] = []
    steps = 0

    def walk(piece_index: int, position: int, found: dict[int, list[tuple[int, int]]]) -> None:
        nonlocal steps
        steps += 1
        if steps > _MAX_ALIGN_STEPS or len(solutions) > 8:
            return
        if piece_index == len(pieces):
            if position == len(text):
                solutions.append({k: list(v) for k, v in found.items()})
            return
        piece = pieces[piece_index]
        if isinstance(piece, str):
            if text.startswith(piece, position):
                walk(piece_index + 1, position + len(piece), found)
            return
        for form in content_forms(contents[piece]):
            if text.startswith(form, position):
                found.setdefault(piece, []).append((position, position + len(form)))
                walk(piece_index + 1, position + len(form), found)
                found[piece].pop()

    walk(0, 0, {})
    if not solutions:
        return None
    agreed = {}
    for message in solutions[0]:
        if all(solution.get(message) == solutions[0][message] for solution in solutions):
            agreed[message] = solutions[0][message]
    return agreed


def region_of_single(text: str, pieces: Sequence[Piece], message: int, content: str) -> tuple[int, int] | None:
    """For one sentinel between fixed template text: the text the template printed there, if it is part of the
    content (a template that cut or trimmed it); ``None`` otherwise.

    >>> region_of_single("<b>", ["<", 0, ">"], 0, "abc")
    (1, 2)
    """
    if [p for p in pieces if not isinstance(p, str)] != [message]:
        return None
    at = pieces.index(message)
    before, after = "".join(pieces[:at]), "".join(pieces[at + 1:])
    if len(before) + len(after) > len(text) or not text.startswith(before) or not text.endswith(after):
        return None
    start, stop = len(before), len(text) - len(after)
    if stop > start and text[start:stop] in content:
        return start, stop
    return None


def find_content_spans(
    text: str,
    contents: dict[int, str],
    render_with: Callable[[dict[int, str]], str | None],
    used_text: str,
) -> dict[int, list[tuple[int, int]]]:
    """Character spans of each content in ``text``; ``render_with(replacements)`` renders the conversation with the
    given contents replaced (``None`` when that render fails)."""
    alphabet = pick_alphabet(used_text)
    if alphabet is None or not contents:
        return {}
    marks = {index: sentinel(index, alphabet) for index in contents}
    rendered = render_with(marks)
    if rendered is not None:
        spans = align(text, split_at_sentinels(rendered, {m: i for i, m in marks.items()}), contents)
        if spans is not None:
            return spans
    # Some content changed which branch the template took: find the messages one at a time.
    spans = {}
    for index, mark in marks.items():
        rendered = render_with({index: mark})
        if rendered is None:
            continue
        pieces = split_at_sentinels(rendered, {mark: index})
        found = align(text, pieces, {index: contents[index]})
        if found is not None and index in found:
            spans[index] = found[index]
            continue
        region = region_of_single(text, pieces, index, contents[index])
        if region is not None:
            spans[index] = [region]
    return spans


def char_spans_to_byte_spans(text: str, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """0-based character spans as contract spans: UTF-8 bytes, 1-based, half-open.

    >>> char_spans_to_byte_spans("é a", [(2, 3)])
    [(4, 5)]
    """
    positions = sorted({p for span in spans for p in span})
    byte_at, previous_char, previous_byte = {}, 0, 0
    for position in positions:
        previous_byte += len(text[previous_char:position].encode("utf-8"))
        previous_char = position
        byte_at[position] = previous_byte
    return [(byte_at[start] + 1, byte_at[stop] + 1) for start, stop in spans]


def complement(spans: Sequence[tuple[int, int]], stop: int) -> list[tuple[int, int]]:
    """The non-empty gaps between ``spans`` within ``[1, stop)`` (contract spans).

    >>> complement([(3, 5)], 8)
    [(1, 3), (5, 8)]
    """
    gaps, position = [], 1
    for start, end in sorted(spans):
        if start > position:
            gaps.append((position, start))
        position = max(position, end)
    if position < stop:
        gaps.append((position, stop))
    return gaps
