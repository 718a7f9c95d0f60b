"""Find bots by name: a short name from the ``holdem.bots`` entry-point group, or ``module:Class``.

The simulator never imports bot modules directly (it sits below the agent): names are looked up
here, when a config is checked, so a typo is refused before any hand is played.

>>> spec = resolve("simulator.play.protocol:BaseBot")
>>> spec.factory.__name__, spec.accepts_seed
('BaseBot', False)
>>> resolve("no_such_bot_name")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
simulator.play.registry.BotSpecError: unknown bot 'no_such_bot_name': expected a registered name ...
"""

from __future__ import annotations

import difflib
import importlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from simulator.core.errors import HoldemError
from simulator.core.game import GameConfig
from simulator.play.protocol import Bot

GROUP = "holdem.bots"


class BotSpecError(HoldemError, ValueError):
    """A bot name that cannot be found or parameters its constructor does not take."""


@dataclass(frozen=True)
class BotSpec:
    """A resolved bot: the factory (usually a class) and whether it takes a ``seed``."""

    name: str
    factory: Callable[..., Any]
    accepts_seed: bool


def registered() -> dict[str, str]:
    """Short name -> ``module:Class`` for every bot installed in the entry-point group."""
    return {ep.name: ep.value for ep in entry_points(group=GROUP)}


def _import(path: str, shown: str, *, registered: bool) -> Callable[..., Any]:
    """The bot class (or, for an installed plug-in's entry point, factory) at ``path``.

    Nothing found here is called: a ``module:Class`` path must name a class with ``act``, so
    a config cannot make validation run an arbitrary callable (``os:system``). Importing the
    module does run its top-level code, which is why a config deserves the trust of a script.
    """
    module_name, _, attr = path.partition(":")
    if not module_name or not attr:
        raise BotSpecError(f"bad bot path {shown!r}: expected 'module:Class'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BotSpecError(f"bot {shown!r}: cannot import module {module_name!r}: {exc}") from None
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise BotSpecError(f"bot {shown!r}: module {module_name!r} has no {attr!r}")
        obj = getattr(obj, part)
    if isinstance(obj, type):
        if not callable(getattr(obj, "act", None)):
            raise BotSpecError(f"bot {shown!r}: class {attr!r} has no act(observation) method, "
                               f"so it is not a bot")
        return obj
    if registered and callable(obj):  # an installed plug-in's factory: trusted like its class
        return obj
    raise BotSpecError(f"bot {shown!r}: {attr!r} is not a bot class (a class with an "
                       f"act(observation) method); only installed plug-ins may register a "
                       f"factory function")


def _takes_seed(factory: Callable[..., Any]) -> bool:
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # some builtins have no signature
        return False
    return "seed" in params


def resolve(name: str) -> BotSpec:
    """The bot a config names: a registered short name, else a ``module:Class`` path."""
    table = registered()
    if name in table:
        factory = _import(table[name], name, registered=True)
        return BotSpec(name, factory, _takes_seed(factory))
    if ":" not in name:
        known = ", ".join(sorted(table)) or "none installed"
        close = difflib.get_close_matches(name, sorted(table), n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise BotSpecError(f"unknown bot {name!r}: expected a registered name ({known}) "
                           f"or a 'module:Class' path{hint}")
    factory = _import(name, name, registered=False)
    return BotSpec(name, factory, _takes_seed(factory))


def check_params(spec: BotSpec, params: Mapping[str, Any]) -> None:
    """Refuse parameters the constructor cannot take, before any work is done."""
    try:
        signature = inspect.signature(spec.factory)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(**params)
    except TypeError as exc:
        raise BotSpecError(f"bot {spec.name!r}: bad params {dict(params)}: {exc}") from None


def param_names(spec: BotSpec) -> set[str]:
    """The parameters a seat's ``params`` may name: the class's ``documented_params()`` when
    it has them (a constructor taking ``**overrides`` hides its dotted ones), else the
    constructor's named parameters."""
    documented = getattr(spec.factory, "documented_params", None)
    if callable(documented):
        return set(documented())
    try:
        parameters = inspect.signature(spec.factory).parameters.values()
    except (TypeError, ValueError):
        return set()
    return {p.name for p in parameters if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}


def check_for_game(spec: BotSpec, params: Mapping[str, Any], game: GameConfig,
                   seats: int) -> None:
    """Everything a bot can be checked for before a match, so that bad input is refused
    before any work: the parameters its constructor takes, then the class's own hooks, when
    it has them: ``check_game(game)`` (a game it cannot play) and the classmethod
    ``check_seat(params, game, seats)`` (what its parameters name, such as a file it would
    read). Each hook raises a ``HoldemError`` naming the problem."""
    check_params(spec, params)
    check_game = getattr(spec.factory, "check_game", None)
    if check_game is not None:
        check_game(game)
    if isinstance(inspect.getattr_static(spec.factory, "check_seat", None),
                  (classmethod, staticmethod)):
        spec.factory.check_seat(dict(params), game, seats)  # type: ignore[attr-defined]


def prepare(spec: BotSpec, game: GameConfig) -> None:
    """The work a bot class does once per process before it plays, when it has the
    classmethod ``prepare(game)``: compiling its kernels, say. Called off every clock (by
    each process that plays blocks, before it builds their bots, and by ``holdem acpc`` once
    its seat has passed :func:`check_for_game`), so that a first decision that would compile
    them does not count against ``bot_timeout``. The class makes a second call cheap."""
    if isinstance(inspect.getattr_static(spec.factory, "prepare", None),
                  (classmethod, staticmethod)):
        spec.factory.prepare(game)  # type: ignore[attr-defined]


def build(spec: BotSpec, params: Mapping[str, Any], seed: int) -> Bot:
    """A fresh bot; ``seed`` goes to a constructor that takes one unless ``params`` sets it.

    Whatever the constructor raises propagates: the match loop's guard
    (:func:`simulator.play.match.build_bots`) makes it that bot's fault.

    >>> spec = resolve("simulator.play.protocol:BaseBot")
    >>> type(build(spec, {}, seed=3)).__name__
    'BaseBot'
    """
    kwargs = dict(params)
    if spec.accepts_seed and "seed" not in kwargs:
        kwargs["seed"] = seed
    bot = spec.factory(**kwargs)
    if not callable(getattr(bot, "act", None)):
        raise BotSpecError(f"bot {spec.name!r}: {type(bot).__name__} has no act(observation)"
                           f" method, so it is not a Bot")
    return bot
