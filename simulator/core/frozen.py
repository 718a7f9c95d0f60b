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

import dataclasses
from collections.abc import ItemsView, Iterator, KeysView, Mapping, ValuesView
from typing import Any, TypeVar, cast, overload

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


def quick_init(cls: type[T]) -> type[T]:
    """A frozen dataclass with an ``__init__`` that fills the new instance's dict in one step,
    where the one ``dataclass(frozen=True)`` writes calls ``object.__setattr__`` once per
    field: the same parameters and defaults, about twice as fast. For the records a bot
    builds by the thousand per hand (a betting step, the modeller's picture of a hand);
    fields with factories, keyword-only fields, slots and ``__post_init__`` are refused.

    >>> from dataclasses import FrozenInstanceError, dataclass
    >>> @quick_init
    ... @dataclass(frozen=True)
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> p = Point(1)
    >>> p, p == Point(1, 0), hash(p) == hash(Point(x=1))
    (Point(x=1, y=0), True, True)
    >>> p.x = 2
    Traceback (most recent call last):
    ...
    dataclasses.FrozenInstanceError: cannot assign to field 'x'
    """
    settings = getattr(cls, "__dataclass_params__", None)
    if settings is None or not settings.frozen or hasattr(cls, "__post_init__") \
            or hasattr(cls, "__slots__"):
        raise TypeError(f"quick_init: {cls.__name__} is not a plain frozen dataclass")
    namespace: dict[str, Any] = {"_set": object.__setattr__}
    params, items = [], []
    for f in dataclasses.fields(cast(Any, cls)):
        if not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"quick_init: {cls.__name__}.{f.name} is not a plain field")
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        items.append(f"{f.name!r}: {f.name}")
    exec(f"def __init__(self, {', '.join(params)}):\n"  # the fields' names only
         f"    _set(self, '__dict__', {{{', '.join(items)}}})\n", namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)  # noqa: B010 (mypy refuses assigning to a method)
    return cls
