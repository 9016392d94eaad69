"""Compact word ids: ``WordIds``, a result's read-only ``word_ids``, and ``WordColumn``, its builder.

A long text's word ids as a list cost 8 bytes per token plus a fresh int per word (about 40
bytes per token in all); ``WordIds`` keeps them in one ``array`` (``-1`` for ``None``, an
inserted token) and reads as the list would (``tokcore.core.spans.ReadOnlyList``): indexing,
slices (plain lists), iteration, ``in``, ``count``, ``index``, ``==`` with lists, a list's ``repr``,
``tolist()``. Short sequences keep a list inside. ``WordColumn`` is the mutable sequence an
``Encoding`` may hold as its ``word_ids`` while a long text is encoded (``freeze`` hands its
array to the result).

Left out: what a word is (the pre-tokenizer's business) and spans (``tokcore.core.spans``).
"""

from __future__ import annotations

from array import array
from itertools import islice

from . import spans as _spans
from .spans import GrowingColumn, ReadOnlyList

_NONE_OF = {-1: None}.get  # _NONE_OF(v, v): None for -1, else v (a C-level map over an array)


def _int_array(values) -> array:
    """``values`` (ints >= -1) in a 4-byte array when they fit, else 8-byte. ``_int_array([3, -1]).tolist() == [3, -1]``."""
    if not isinstance(values, (list, tuple, array)):
        values = list(values)
    try:
        return array("i", values)
    except OverflowError:
        return array("q", values)


class WordIds(ReadOnlyList):
    """A read-only list of word ids (``None`` for inserted tokens). ``WordIds([0, None, 1])[-1] == 1``."""

    __slots__ = ("_flat", "_items")

    def __init__(self, values=()):
        items = [None if v is None else int(v) for v in values]
        if any(v is not None and v < 0 for v in items):
            raise ValueError("word ids are >= 0 (or None for inserted tokens)")
        self._items, self._flat = items, None
        if len(items) > _spans.LIST_MAX:
            self._items, self._flat = None, _int_array([-1 if v is None else v for v in items])

    @classmethod
    def _of_list(cls, values: list) -> "WordIds":
        """Over ``values`` (a list nobody else changes), kept as it is when short."""
        if len(values) > _spans.LIST_MAX:
            col = WordColumn()
            col.extend(values)
            return col.freeze()
        self = object.__new__(cls)
        self._items, self._flat = values, None
        return self

    @classmethod
    def _of_flat(cls, flat: array) -> "WordIds":
        self = object.__new__(cls)
        self._items, self._flat = None, flat
        return self

    @classmethod
    def from_encoding(cls, values) -> "WordIds":
        """An ``Encoding``'s word ids (a list or a ``WordColumn``), copied. ``WordIds.from_encoding([0, None]) == [0, None]``."""
        if type(values) is WordColumn:
            return cls._of_flat(array(values._flat.typecode, values._flat))
        return cls._of_list(list(values))

    def __len__(self) -> int:
        return len(self._items) if self._items is not None else len(self._flat)

    def __getitem__(self, index):
        if self._items is not None:
            return self._items[index]
        if isinstance(index, slice):
            return list(map(_NONE_OF, *(self._flat[index],) * 2))
        v = self._flat[index]
        return None if v == -1 else v

    def __iter__(self):
        if self._items is not None:
            return iter(self._items)
        return map(_NONE_OF, self._flat, self._flat)

    def __reversed__(self):
        if self._items is not None:
            return reversed(self._items)
        back = self._flat[::-1]
        return map(_NONE_OF, back, back)

    def __reduce__(self):
        if self._items is not None:
            return (WordIds._of_list, (list(self._items),))
        return (WordIds._of_flat, (self._flat,))


def word_ids_of_list(values: list) -> WordIds:
    """``WordIds`` over ``values`` (a list nobody else changes), made at the least cost. ``word_ids_of_list([0, None])[1] is None``."""
    if len(values) > _spans.LIST_MAX:
        return WordIds._of_list(values)
    self = _new(WordIds)
    self._items = values
    self._flat = None
    return self


_new = object.__new__


class WordColumn(GrowingColumn):
    """An ``Encoding``'s word ids (``None`` for inserted tokens) in one array (``-1`` for ``None``);
    also its masks and type ids in a long text's lane encoding (``filled``).

    The list operations the pipeline uses after the model: ``len``, ``[i]``, ``[a:b]`` (a column),
    iteration, ``append``, ``extend`` and ``+=``, ``==``. ``c = WordColumn(); c += [0, None]; c[1] is None``.
    """

    __slots__ = ("_flat",)
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, values=(), typecode: str = "i"):
        self._flat = array(typecode)  # "b" for masks of 0 and 1; any value past it widens to 8 bytes
        if values:
            self.extend(values)

    @classmethod
    def filled(cls, value: int, n: int, typecode: str = "i") -> "WordColumn":
        """``n`` times ``value``. ``WordColumn.filled(1, 2, "b") == [1, 1]``."""
        out = cls(typecode=typecode)
        out._flat = array(typecode, [value]) * n
        return out

    def __len__(self) -> int:
        return len(self._flat)

    def __getitem__(self, index):
        if isinstance(index, slice):
            out = WordColumn()
            out._flat = self._flat[index]
            return out
        v = self._flat[index]
        return None if v == -1 else v

    def __setitem__(self, index: int, value) -> None:
        v = -1 if value is None else value
        try:
            self._flat[index] = v
        except OverflowError:
            self._flat = array("q", self._flat)
            self._flat[index] = v

    def __iter__(self):
        return map(_NONE_OF, self._flat, self._flat)

    def __eq__(self, other):
        if isinstance(other, WordColumn):
            return self._flat == other._flat
        if isinstance(other, list):
            return len(other) == len(self) and list(self) == other
        return NotImplemented

    def extend(self, values) -> None:
        """Append ``values`` (ints >= 0 or ``None``), a chunk at a time in C-level passes."""
        if isinstance(values, WordColumn):
            values = values._flat
            if values.typecode != self._flat.typecode:
                if values.itemsize > self._flat.itemsize:
                    self._flat = array(values.typecode, self._flat)
                else:
                    values = array(self._flat.typecode, values)
            self._flat.extend(values)
            return
        it = iter(values)
        while True:
            chunk = list(islice(it, _spans._CHUNK))
            if not chunk:
                return
            if None in chunk:
                chunk = [-1 if v is None else v for v in chunk]
            flat, n = self._flat, len(self._flat)
            try:
                flat.extend(chunk)
            except OverflowError:  # past the array's range: 8 bytes from now on
                del flat[n:]
                self._flat = flat = array("q", flat)
                flat.extend(chunk)

    def freeze(self) -> WordIds:
        """The ids as a result's ``WordIds``, which takes this column's array: do not change the column after."""
        return WordIds._of_flat(self._flat)
