"""Compact span sequences: ``Spans``, a result's read-only list of offsets, and ``SpanColumn``, its builder.

A long text's offsets as a list of 2-tuples cost about 120 bytes per token (list slot, tuple,
two fresh ints); ``Spans`` keeps them as one flat ``array`` of start, stop values (8 bytes per
token) and hands out tuples on read. It behaves as a read-only list of ``(start, stop)``
tuples: ``len``, indexing (negative too), slices (plain lists), iteration, ``reversed``, ``in``,
``count``, ``index``, ``+`` with a list (a list), ``==`` with a list as a list of tuples would
compare (a tuple, like a list, never equals it), a list's ``repr``; ``tolist()`` gives the list.
It is immutable, so one object can serve as both of a result's offset lists, and unhashable,
as a list. Short sequences keep their tuples in a list (cheaper to make and read than arrays).

``SpanColumn`` is the mutable sequence an ``Encoding`` may hold instead of its list of 0-based
spans (``None`` for inserted tokens) while a long text is encoded: it stores the spans already
in contract form, so the result's ``Spans`` takes its array as it is (``freeze``).

Left out: what the values mean (``tokcore.core.offsets``) and which results use them
(``tokcore.core.result_build``).
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence
from itertools import chain, islice, repeat
from operator import add, countOf, eq, indexOf
from operator import index as _index

_new = object.__new__
# Up to this many spans a Spans keeps its tuples in a list: small results are made and read
# faster that way, and their memory does not matter.
LIST_MAX = 1024
_CHUNK = 8192  # spans converted per C-level pass when a column is extended from an iterator
# A result of up to this many tokens holds plain lists (what most callers, JSON and the API text
# expect); past it the lists of tuples and ints would cost ~170 bytes a token, so a long text's
# result holds the compact sequences instead (10 MB of text: ~150 MB rather than ~900 MB).
COMPACT_FROM = 65_536


def settled(values):
    """A result's offsets or word ids as it holds them: a plain list up to ``COMPACT_FROM``
    entries (a short compact sequence gives up its list), else the compact sequence itself.
    ``settled(Spans([(1, 2)])) == [(1, 2)] and type(settled(Spans([(1, 2)]))) is list``."""
    if values is None or type(values) is list or len(values) > COMPACT_FROM:
        return values
    items = values._items
    return items if items is not None else values.tolist()


def _flat_array(values) -> array:
    """``values`` (ints >= 0) as a 4-byte array when they fit, else 8-byte. ``_flat_array([1, 2]).tolist() == [1, 2]``."""
    if not isinstance(values, (list, tuple, array)):
        values = list(values)  # read twice when a value needs 8 bytes
    try:
        return array("I", values)
    except OverflowError:
        return array("q", values)


def _widen(flat: array) -> array:
    return flat if flat.typecode == "q" else array("q", flat)


def _pair_position(index, flat: array, what: str = "list index out of range") -> int:
    """The pair number ``index`` (negative from the end) names in ``flat``, as a list checks it.
    ``_pair_position(-1, array("I", [1, 2, 3, 4])) == 1``."""
    n = len(flat) >> 1
    i = index.__index__()
    if i < 0:
        i += n
    if not 0 <= i < n:
        raise IndexError(what)
    return i


class ReadOnlyList(Sequence):
    """What ``Spans`` and ``WordIds`` share: a read-only list's operations over ``_items`` (a
    short sequence's list) or ``_flat`` (a long one's array), given ``__len__`` and ``__iter__``."""

    __slots__ = ()
    __hash__ = None  # type: ignore[assignment]  # as a list's
    _items: list | None
    _flat: array | None

    def __contains__(self, value) -> bool:
        return value in iter(self)

    def count(self, value) -> int:
        return countOf(iter(self), value)

    def index(self, value, start: int = 0, stop: int = sys.maxsize) -> int:
        start, stop, _ = slice(_index(start), _index(stop)).indices(len(self))
        try:
            return start + indexOf(islice(iter(self), start, stop), value)
        except ValueError:
            raise ValueError(f"{value!r} is not in list") from None

    def tolist(self) -> list:
        """The values as a new list (of tuples, for spans)."""
        return list(self)

    def __repr__(self) -> str:
        return repr(self.tolist())

    # -- comparing and combining, as the list would
    def __eq__(self, other):
        if isinstance(other, type(self)):
            if self._flat is not None and other._flat is not None:
                return self._flat == other._flat
            if self._items is not None and other._items is not None:
                return self._items == other._items
        elif not isinstance(other, list):
            return NotImplemented
        if len(other) != len(self):
            return False
        if self._items is not None and type(other) is list:
            return self._items == other
        return all(map(eq, self, other))

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __add__(self, other):
        if isinstance(other, (list, type(self))):
            return self.tolist() + list(other)
        return NotImplemented

    def __radd__(self, other):
        if isinstance(other, list):
            return other + self.tolist()
        return NotImplemented

    def __mul__(self, n):
        return self.tolist() * n

    __rmul__ = __mul__

    # -- copying: immutable, so a copy is the same object
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


class Spans(ReadOnlyList):
    """A read-only list of contract spans. ``Spans([(1, 3), (0, 0)])[-1] == (0, 0)``."""

    __slots__ = ("_flat", "_items")

    def __init__(self, pairs=()):
        pairs = [(int(a), int(b)) for a, b in pairs]  # tuples of ints, whatever came in
        self._items: list | None = pairs if len(pairs) <= LIST_MAX else None
        self._flat: array | None = None if self._items is not None else _flat_array(chain.from_iterable(pairs))

    @classmethod
    def _of_list(cls, pairs: list) -> "Spans":
        """Over ``pairs`` (a list of int 2-tuples nobody else changes), kept as it is when short."""
        self = object.__new__(cls)
        if len(pairs) <= LIST_MAX:
            self._items, self._flat = pairs, None
        else:
            self._items, self._flat = None, _flat_array(chain.from_iterable(pairs))
        return self

    @classmethod
    def _of_flat(cls, flat: array) -> "Spans":
        """Over ``flat`` (start, stop, start, stop, ...; nobody else changes it)."""
        self = object.__new__(cls)
        self._items, self._flat = None, flat
        return self

    @classmethod
    def from_flat(cls, values: list) -> "Spans":
        """Over a flat list of start, stop values. ``Spans.from_flat([1, 3, 0, 0]).tolist() == [(1, 3), (0, 0)]``."""
        if len(values) > 2 * LIST_MAX:
            return cls._of_flat(_flat_array(values))
        it = iter(values)
        return cls._of_list(list(zip(it, it)))

    @classmethod
    def from_encoding(cls, spans) -> "Spans":
        """Contract spans of an ``Encoding``'s 0-based spans (``None``: the sentinel).

        ``Spans.from_encoding([(0, 2), None]).tolist() == [(1, 3), (0, 0)]``.
        """
        if type(spans) is SpanColumn:
            return cls._of_flat(array(spans._flat.typecode, spans._flat))
        if len(spans) <= LIST_MAX:
            return cls._of_list([(0, 0) if s is None else (s[0] + 1, s[1] + 1) for s in spans])
        col = SpanColumn()
        col.extend(spans)
        return col.freeze()

    # -- reading
    def __len__(self) -> int:
        return len(self._items) if self._items is not None else len(self._flat) >> 1

    def __getitem__(self, index):
        if self._items is not None:
            return self._items[index]
        flat = self._flat
        if isinstance(index, slice):
            return list(zip(flat[0::2][index], flat[1::2][index]))
        i = _pair_position(index, flat)
        return (flat[2 * i], flat[2 * i + 1])

    def __iter__(self):
        if self._items is not None:
            return iter(self._items)
        it = iter(self._flat)
        return zip(it, it)

    def __reversed__(self):
        if self._items is not None:
            return reversed(self._items)
        flat = self._flat
        return zip(flat[-2::-2], flat[::-2])

    def __reduce__(self):
        if self._items is not None:
            return (Spans._of_list, (list(self._items),))
        return (Spans._of_flat, (self._flat,))


class GrowingColumn:
    """What ``SpanColumn`` and ``WordColumn`` share: a list's ``+``, ``+=``, ``append``, ``tolist``
    and ``repr`` over ``extend``, ``__iter__`` and slicing (each class's own)."""

    __slots__ = ()

    def __add__(self, other):
        out = self[:]
        out.extend(other)
        return out

    def __radd__(self, other):
        if isinstance(other, list):
            out = type(self)(other)
            out.extend(self)
            return out
        return NotImplemented

    def __iadd__(self, other):
        self.extend(other)
        return self

    def append(self, value) -> None:
        self.extend((value,))

    def tolist(self) -> list:
        return list(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.tolist()!r})"


class SpanColumn(GrowingColumn):
    """An ``Encoding``'s 0-based spans (``None`` for inserted tokens), stored in contract form.

    A list's operations that the pipeline uses after the model: ``len``, ``[i]`` (get and set),
    ``[a:b]`` (a column), iteration, ``append``, ``extend`` and ``+=`` (from columns or iterables of
    spans), ``None in``, ``count``, ``==``. ``c = SpanColumn(); c.extend([(0, 2), None]); c[0] == (0, 2)``.
    """

    __slots__ = ("_flat",)
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, spans=()):
        self._flat = array("I")
        if spans:
            self.extend(spans)

    def __len__(self) -> int:
        return len(self._flat) >> 1

    def __getitem__(self, index):
        flat = self._flat
        if type(index) is int and index >= 0:  # the common case (trim_offsets reads every token)
            start = flat[2 * index]  # IndexError past the end, as a list's
            return None if start == 0 else (start - 1, flat[2 * index + 1] - 1)
        if isinstance(index, slice):
            start, stop, step = index.indices(len(flat) >> 1)
            out = SpanColumn()
            if step == 1:
                out._flat = flat[2 * start:2 * max(start, stop)]
            else:
                out.extend([self[i] for i in range(start, stop, step)])
            return out
        i = _pair_position(index, flat)
        start = flat[2 * i]
        return None if start == 0 else (start - 1, flat[2 * i + 1] - 1)

    def __setitem__(self, index: int, span) -> None:
        flat = self._flat
        if type(index) is int and index >= 0 and span is not None:  # the common case, as trim_offsets sets
            try:
                flat[2 * index] = span[0] + 1  # IndexError past the end, as a list's
                flat[2 * index + 1] = span[1] + 1
                return
            except OverflowError:
                pass  # widened below
        i = _pair_position(index, flat, "list assignment index out of range")
        start, stop = (-1, -1) if span is None else span
        try:
            flat[2 * i], flat[2 * i + 1] = start + 1, stop + 1
        except OverflowError:
            self._flat = _widen(flat)
            self[i] = span

    def __iter__(self):
        it = iter(self._flat)
        return map(_zero_based, it, it)

    def __contains__(self, value) -> bool:
        if value is None:
            return 0 in self._flat[0::2]
        return value in iter(self)

    def count(self, value) -> int:
        if value is None:
            return self._flat[0::2].count(0)
        return countOf(iter(self), value)

    def __eq__(self, other):
        if isinstance(other, SpanColumn):
            return self._flat == other._flat
        if isinstance(other, list):
            return len(other) == len(self) and all(map(eq, self, other))
        return NotImplemented

    def extend(self, spans) -> None:
        """Append ``spans`` (0-based pairs or ``None``), converting each chunk in C-level passes."""
        if isinstance(spans, SpanColumn):
            self._extend_flat(spans._flat)
            return
        it = iter(spans)
        while True:
            chunk = list(islice(it, _CHUNK))
            if not chunk:
                return
            at = 0
            while True:  # the runs between inserted tokens
                try:
                    none = chunk.index(None, at)
                except ValueError:
                    none = len(chunk)
                if none > at:
                    self._extend_pairs(chunk[at:none] if at or none < len(chunk) else chunk)
                if none == len(chunk):
                    break
                self._extend_flat(array("I", (0, 0)))
                at = none + 1

    def _extend_pairs(self, run: list) -> None:
        """Append ``run`` (0-based pairs, no ``None``) in contract form, in one C-level pass."""
        flat = self._flat
        n = len(flat)
        try:
            flat.extend(map(add, chain.from_iterable(run), repeat(1)))
        except OverflowError:  # a value past 4-byte range: take 8 bytes from now on
            del flat[n:]
            self._flat = flat = _widen(flat)
            flat.extend(map(add, chain.from_iterable(run), repeat(1)))

    def _extend_flat(self, values: array) -> None:
        if values.typecode != self._flat.typecode:
            self._flat = _widen(self._flat)
            values = _widen(values)
        self._flat.extend(values)

    def freeze(self) -> Spans:
        """The spans as a result's ``Spans``, which takes this column's array: do not change the column after."""
        return Spans._of_flat(self._flat)


def _zero_based(start: int, stop: int):
    return None if start == 0 else (start - 1, stop - 1)
