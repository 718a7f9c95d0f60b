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

    def with_item(self, key: K, value: V) -> FrozenMap[K, V]:
        """A copy with ``key`` set to ``value``: one dict copy, where ``FrozenMap({**m, key:
        value})`` reads every entry through ``__getitem__`` and copies twice (a modeller
        replaces one opponent's weights at every action it steps).

        >>> FrozenMap({1: "a"}).with_item(2, "b")
        FrozenMap({1: 'a', 2: 'b'})
        """
        items = dict(self._items)
        items[key] = value
        out: FrozenMap[K, V] = FrozenMap.__new__(FrozenMap)
        object.__setattr__(out, "_items", items)
        return out

    def __hash__(self) -> int:
        return hash(frozenset(self._items.items()))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenMap, (self._items,))

    def __repr__(self) -> str:
        return f"FrozenMap({self._items!r})"


R = TypeVar("R")


def quick_init(cls: type[R]) -> type[R]:
    """A frozen slots dataclass with an ``__init__`` that stores each field through its slot
    (put above ``@dataclass(frozen=True, slots=True)``): the generated one goes through
    ``object.__setattr__`` per field, about twice the cost, and the modeller and the engine
    build several such records at every action of every bot. Fields with plain defaults
    only (no factories, no ``__post_init__``): anything else is refused when the class is
    made."""
    if (not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__
            or hasattr(cls, "__post_init__")):
        raise TypeError(f"quick_init: {cls.__name__} is not a slots dataclass without "
                        f"__post_init__")
    names: dict[str, Any] = {}
    params, body = [], []
    for f in dataclasses.fields(cls):
        if not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"quick_init: {cls.__name__}.{f.name} needs the generated init")
        names[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            names[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body or ["    pass"])
    namespace: dict[str, Any] = {}
    exec(source, names, namespace)  # noqa: S102 - the source is built from field names only
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
