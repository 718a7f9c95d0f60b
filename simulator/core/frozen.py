"""A read-only mapping for records handed to bots: the same object goes to every bot, so no
bot may change what the next one sees.

>>> m = FrozenMap({2: (0, 1)})
>>> m[2], dict(m), m == {2: (0, 1)}
((0, 1), {2: (0, 1)}, True)
>>> m[3] = (4, 5)
Traceback (most recent call last):
...
TypeError: 'FrozenMap' object does not support item assignment
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, KeysView, Mapping, ValuesView
from typing import Any, TypeVar, overload

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class FrozenMap(Mapping[K, V]):
    """An immutable, hashable, picklable mapping (a copy of what it was built from)."""

    __slots__ = ("_items",)
    _items: dict[K, V]

    def __init__(self, items: Mapping[K, V] | None = None) -> None:
        object.__setattr__(self, "_items", dict(items or {}))

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    # The dict's own methods: Mapping's generic ones go through __getitem__ in Python, and a
    # modeller reads each opponent's weights this way at every step of every bot. Its views
    # are read-only, so nothing changes through them either.

    def __contains__(self, key: object) -> bool:
        return key in self._items

    @overload
    def get(self, key: K, /) -> V | None: ...

    @overload
    def get(self, key: K, /, default: V | T) -> V | T: ...

    def get(self, key: K, /, default: Any = None) -> Any:
        return self._items.get(key, default)

    def keys(self) -> KeysView[K]:
        return self._items.keys()

    def values(self) -> ValuesView[V]:
        return self._items.values()

    def items(self) -> ItemsView[K, V]:
        return self._items.items()

    def __hash__(self) -> int:
        return hash(frozenset(self._items.items()))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenMap, (self._items,))

    def __repr__(self) -> str:
        return f"FrozenMap({self._items!r})"
