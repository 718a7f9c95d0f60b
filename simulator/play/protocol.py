"""The bot interface: ``act`` is required; the rest is optional.

A bot receives an immutable :class:`~simulator.core.observation.Observation` when it is to act
and returns an :class:`~simulator.core.actions.Action`; the engine validates it. Events arrive
through ``observe``: public ones (hand start, actions, board cards, showdowns, results) and
the private :class:`~simulator.core.events.HoleCardsDealt`, sent to the bot's own seat alone.

Its life: ``start(context)`` before the first hand of a block (or of a match played from the
Python API), with the seat names, the block, the permutation and a directory where it may
write its own files; then the hands; then ``close()`` after the last hand. In a multi-table
tournament a bot moved to another table is started again before its first hand there, with a
context whose ``moved`` is True (its new seat and names; the rest as before). ``reset()`` clears
memory between independent blocks when a caller reuses a bot (the arena builds fresh ones).
Every call into a bot is guarded alike: an exception, a bad return or a call over the time
limit is that bot's fault, handled by the match's ``on_bot_error``. A bot that draws random
numbers takes a ``seed`` keyword and uses its own generator, so matches replay exactly.
Work a bot class does once per process before it plays (compiling its kernels) goes in a
classmethod ``prepare(game)``, which runs off every clock
(:func:`simulator.play.registry.prepare`): a first decision that compiled them would count
against the time limit.

**Policies.** A bot may also state its policy (:class:`PolicyBot`): for any observation and
any list of holdings, the probability of each of its actions had it held each holding since
the deal. That is what best-response and variance-reduction tools ask of a bot. A row is the
bot's behavioural strategy given the public history (its own earlier actions included) and
what it has learned: its own earlier random draws are averaged out, never read, and card
removal is the holding's, never the real cards'. Asking changes nothing: the bot's later
actions, draws, model and files are as if it had never been asked, and the observation may
describe a state the hand never reached (actions that were not taken). The observation is
one of the hand being played: a bot that keeps a picture of that hand may refuse another
hand's observation with a ``HoldemError``. ``act`` draws its action from the row of its own
holding.

**Learning.** A bot whose play changes with what it has seen across hands (an opponent
model) may implement ``freeze()`` (:class:`LearningBot`): called once, before ``start``, it
tells the bot to learn nothing in this match. The model it starts with (built in its
constructor, or loaded in ``start`` from a file its parameters name) stays exactly as it is;
only the state of the hand under way changes. A best response measures a frozen bot as its
headline figure, so that a bot cannot lower its figure by learning the best responder's play
rather than by being hard to exploit; a bot without ``freeze`` is measured as it plays.

>>> from simulator.core.actions import Action
>>> class AlwaysCall(BaseBot):
...     def act(self, observation):
...         return Action.call()
>>> isinstance(AlwaysCall(), Bot)
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Integral
from pathlib import Path
from typing import IO, Any, Protocol, runtime_checkable

import numpy as np

from simulator.core.actions import Action, ActionKind, LegalActions
from simulator.core.cards import HOLDING_INDEX, NUM_CARDS
from simulator.core.errors import HoldemError
from simulator.core.events import Event
from simulator.core.files import check_file_name, open_nofollow
from simulator.core.game import GameConfig
from simulator.core.observation import Observation


@runtime_checkable
class Bot(Protocol):
    def act(self, observation: Observation) -> Action: ...


@dataclass(frozen=True)
class BotContext:
    """What a bot is told before its first hand.

    ``names`` are the seat names in seat order for this permutation and ``seat`` is the bot's
    own. ``directory`` is reserved for this seat's bot (``<output>/bots/<name>``), created
    before ``start``; it is None when the match writes no files. Files a bot writes there
    should carry the block and the permutation in their names, so that results never depend
    on which worker played which block; :meth:`open_file` opens them safely.

    ``moved`` is True when ``start`` is called again for a bot already started in this match:
    a multi-table tournament (``holdem sng``) moved it to another table, and ``seat`` and
    ``names`` are those of its new table as it stands after the move (block, permutation,
    directory and game as in its first start). The bot keeps what it has learned, and work
    done once a match (opening its files, loading a model) is not done again. The names of
    later hands (players busting, or moved in) come with each hand's ``HandStarted``.
    """

    seat: int
    names: tuple[str, ...]
    game: GameConfig
    block: int = 0
    permutation: int = 0
    directory: Path | None = None
    moved: bool = False

    @property
    def name(self) -> str:
        return self.names[self.seat]

    def open_file(self, name: str, mode: str = "w") -> IO[Any]:
        """A file of this bot's ``directory``, opened like ``open(path, mode)`` (modes r, w,
        a, x, with b for bytes) but never through a symlink planted there; ``name`` is a plain
        file name. A match without a directory is a :class:`HoldemError`."""
        if self.directory is None:
            raise HoldemError(f"open_file({name!r}): this match gives the bot no directory")
        return open_nofollow(self.directory / check_file_name(name), mode)


class BaseBot:
    """Convenience base: no-op ``start``, ``observe``, ``reset`` and ``close``; subclasses
    write ``act``."""

    def act(self, observation: Observation) -> Action:
        raise NotImplementedError

    def start(self, context: BotContext) -> None:
        return None

    def observe(self, event: Event) -> None:
        return None

    def reset(self) -> None:
        return None

    def close(self) -> None:
        return None


# --- policies ---------------------------------------------------------------------------------


class PolicyError(HoldemError, ValueError):
    """A policy question or answer that does not make sense: a bad or clashing holding, or a
    row that is not a probability distribution over legal actions."""


@dataclass(frozen=True)
class RaiseRange:
    """Every raise-to amount from ``low`` to ``high`` inclusive, as one policy entry: a bot
    that draws its size uniformly from a range states the range and its mass, and each
    amount in it gets an equal share of that mass."""

    low: int
    high: int

    def __post_init__(self) -> None:
        if not self.low <= self.high:
            raise PolicyError(f"raise range {self.low}..{self.high}: low must be <= high")

    def contains(self, action: Action) -> bool:
        return (action.kind is ActionKind.RAISE and action.amount is not None
                and self.low <= action.amount <= self.high)

    @property
    def sizes(self) -> int:
        return self.high - self.low + 1

    def __str__(self) -> str:
        return f"raise to {self.low}..{self.high}"


PolicyEntry = Action | RaiseRange


@dataclass(frozen=True, eq=False)
class Policy:
    """A bot's action probabilities for a list of holdings at one decision.

    ``actions`` are distinct legal actions (or raise ranges) of the observation;
    ``probabilities`` has one row per holding asked about and one column per action, each row
    summing to 1. The array is read-only.

    >>> p = Policy((Action.fold(), Action.call(), RaiseRange(4, 7)),
    ...            np.array([[0.5, 0.1, 0.4], [0.0, 1.0, 0.0]]))
    >>> p.probability(Action.call()).tolist(), p.probability(Action.raise_to(5)).tolist()
    ([0.1, 1.0], [0.1, 0.0])
    >>> p.probability(Action.raise_to(9)).tolist()  # legal perhaps, but never played
    [0.0, 0.0]
    """

    actions: tuple[PolicyEntry, ...]
    probabilities: np.ndarray

    def __post_init__(self) -> None:
        probabilities = np.array(self.probabilities, dtype=np.float64)
        if probabilities.ndim != 2 or probabilities.shape[1] != len(self.actions):
            raise PolicyError(f"policy: probabilities of shape {probabilities.shape} for "
                              f"{len(self.actions)} actions")
        probabilities.setflags(write=False)
        object.__setattr__(self, "probabilities", probabilities)

    @property
    def holdings(self) -> int:
        return int(self.probabilities.shape[0])

    def probability(self, action: Action) -> np.ndarray:
        """The probability of ``action`` for every holding (zeros if it is never played)."""
        out = np.zeros(self.holdings)
        for j, entry in enumerate(self.actions):
            if entry == action:
                out += self.probabilities[:, j]
            elif isinstance(entry, RaiseRange) and entry.contains(action):
                out += self.probabilities[:, j] / entry.sizes
        return out

    def index_of(self, action: Action) -> int:
        """The column of the entry that holds ``action``."""
        for j, entry in enumerate(self.actions):
            if entry == action or (isinstance(entry, RaiseRange) and entry.contains(action)):
                return j
        raise PolicyError(f"policy: {action} is not one of its actions "
                          f"({', '.join(map(str, self.actions))})")

    def check(self, legal: LegalActions, tolerance: float = 1e-6) -> None:
        """Refuse a policy that is not a distribution over distinct legal actions, naming
        the first problem."""
        _check_types(self)
        seen: set[PolicyEntry] = set()
        for entry in self.actions:
            if entry in seen:
                raise PolicyError(f"policy: {entry} is listed twice")
            seen.add(entry)
            ok = (legal.can_raise and legal.raise_bounds[0] <= entry.low
                  and entry.high <= legal.raise_bounds[1]) if isinstance(entry, RaiseRange) \
                else legal.allows(entry)
            if not ok:
                raise PolicyError(f"policy: {entry} is not legal here ({legal})")
        p = self.probabilities
        if p.shape[0] == 1:  # a bot's own row, at every decision: plain floats are faster
            _check_row(p[0].tolist(), tolerance)
            return
        if not np.isfinite(p).all():
            raise PolicyError(_NOT_FINITE)
        if (p < -tolerance).any():
            raise PolicyError(_negative(float(p.min())))
        if p.shape[0] and p.shape[1] == 0:
            raise PolicyError(_NO_ACTIONS)
        sums = p.sum(axis=1)
        bad = np.flatnonzero(np.abs(sums - 1.0) > tolerance)
        if bad.size:
            raise PolicyError(_bad_sum(int(bad[0]), float(sums[bad[0]])))


def _check_types(policy: Policy) -> None:
    """Refuse a policy whose parts are not what they claim to be, before any use of them:
    a bot's answer is foreign data, and an entry that is a string or a list would otherwise
    fail as an ``AttributeError`` or ``TypeError`` deep in the caller."""
    if not isinstance(policy.actions, tuple):
        raise PolicyError(f"policy: actions are a {type(policy.actions).__name__}, not a tuple")
    for entry in policy.actions:
        problem = _entry_problem(entry)
        if problem is not None:
            raise PolicyError(f"policy: {problem}")
    p = policy.probabilities
    if not (isinstance(p, np.ndarray) and p.dtype == np.float64 and p.ndim == 2
            and p.shape[1] == len(policy.actions)):
        raise PolicyError(f"policy: probabilities are not an array of floats of one column "
                          f"per action ({type(p).__name__})")


def _entry_problem(entry: object) -> str | None:
    """Why a policy entry is not an :class:`Action` or a :class:`RaiseRange` of integer
    bounds (None when it is)."""
    if isinstance(entry, RaiseRange):
        bounds = (entry.low, entry.high)
        if all(_integer(b) for b in bounds):
            return None
        return f"a raise range of bounds {bounds!r}, not integers"
    if not isinstance(entry, Action):
        return f"an entry {entry!r} ({type(entry).__name__}), not an Action or a RaiseRange"[:200]
    if not isinstance(entry.kind, ActionKind):
        return f"an Action of kind {entry.kind!r}, not an ActionKind"[:200]
    amount = entry.amount
    if (amount is None and entry.kind is ActionKind.RAISE) or (
            amount is not None and not _integer(amount)):
        return f"an Action {entry.kind.name.lower()} of amount {amount!r}"[:200]
    return None


def _integer(value: object) -> bool:
    return isinstance(value, Integral) and not isinstance(value, bool)


_NOT_FINITE = "policy: a probability is NaN or infinite"
_NO_ACTIONS = "policy: rows over no actions"


def _negative(low: float) -> str:
    return f"policy: a negative probability ({low:.3g})"


def _bad_sum(row: int, total: float) -> str:
    return f"policy: row {row} sums to {total:.6g}, not 1"


def _check_row(row: list[float], tolerance: float) -> None:
    """:meth:`Policy.check`'s tests of the probabilities, for a policy of one row."""
    if not all(math.isfinite(x) for x in row):
        raise PolicyError(_NOT_FINITE)
    if not row:
        raise PolicyError(_NO_ACTIONS)
    if min(row) < -tolerance:
        raise PolicyError(_negative(min(row)))
    if abs(sum(row) - 1.0) > tolerance:
        raise PolicyError(_bad_sum(0, sum(row)))


@runtime_checkable
class PolicyBot(Bot, Protocol):
    """A bot that states its policy (see the module docstring)."""

    def policy(self, observation: Observation,
               holdings: Sequence[tuple[int, int]]) -> Policy: ...


@runtime_checkable
class StepWithPolicyBot(PolicyBot, Protocol):
    """A policy bot that can act and state the row it drew from in one call (OpenSpiel's
    ``step_with_policy``): a tool that wants both at every decision (AIVAT) asks once
    instead of paying for the same row twice.

    ``step_with_policy(obs)`` returns ``(policy(obs, [own holding]), act(obs))`` as one
    call: the same draws from the bot's generator as ``act`` alone, so a match played
    through it is the match played through ``act``.
    """

    def step_with_policy(self, observation: Observation) -> tuple[Policy, Action]: ...


@runtime_checkable
class LearningBot(Bot, Protocol):
    """A bot that can be told to learn nothing in a match (see the module docstring)."""

    def freeze(self) -> None: ...


def own_holding(observation: Observation) -> list[tuple[int, int]]:
    """The observation's own holding, as a policy is asked about it (a list of one)."""
    a, b = observation.hole_cards
    return [(int(a), int(b))]


def holding_indices(holdings: Sequence[tuple[int, int]], board: Sequence[int]) -> np.ndarray:
    """The canonical holding index of each holding; a holding that is not two distinct cards
    in 0..51, or that shares a card with ``board``, is a :class:`PolicyError` naming it.

    >>> holding_indices([(0, 1), (51, 50)], board=(4, 5, 6)).tolist()
    [0, 1325]
    >>> holding_indices([(4, 9)], board=(4, 5, 6))
    Traceback (most recent call last):
    ...
    simulator.play.protocol.PolicyError: holding (4, 9) shares a card with the board
    """
    # one holding (a bot's own, at every decision) is quicker checked by the plain loop
    fast = _fast_indices(holdings, board) if len(holdings) != 1 else None
    if fast is not None:
        return fast
    on_board = set(int(c) for c in board)
    out = np.empty(len(holdings), dtype=np.int64)
    for i, holding in enumerate(holdings):
        try:
            a, b = (int(c) for c in holding)
            valid = (a != b and 0 <= a < NUM_CARDS and 0 <= b < NUM_CARDS
                     and all(float(c) == int(c) for c in holding))
        except (TypeError, ValueError, OverflowError):
            valid = False
        if not valid:
            raise PolicyError(f"bad holding {holding!r}: expected two distinct cards 0..51")
        if a in on_board or b in on_board:
            raise PolicyError(f"holding {holding!r} shares a card with the board")
        out[i] = HOLDING_INDEX[a, b]
    return out


def _fast_indices(holdings: Sequence[tuple[int, int]], board: Sequence[int]
                  ) -> np.ndarray | None:
    """:func:`holding_indices` for the common case, at array speed: integer pairs of
    distinct cards 0..51 off the board. None when any holding is not (the slow path then
    names the first bad one)."""
    if len(holdings) == 0:
        return np.empty(0, dtype=np.int64)
    try:
        pairs = np.asarray(holdings)
    except (TypeError, ValueError):
        return None
    if pairs.ndim != 2 or pairs.shape[1] != 2 or pairs.dtype.kind not in "iu":
        return None
    a, b = pairs[:, 0].astype(np.int64), pairs[:, 1].astype(np.int64)
    if not (((0 <= a) & (a < NUM_CARDS) & (0 <= b) & (b < NUM_CARDS) & (a != b)).all()):
        return None
    dead = np.zeros(NUM_CARDS, dtype=bool)
    dead[[int(c) for c in board]] = True
    if (dead[a] | dead[b]).any():
        return None
    return HOLDING_INDEX[a, b].astype(np.int64)

