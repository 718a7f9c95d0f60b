"""Local best response (LBR; Lisý & Bowling 2017): a lower bound on how much a bot can lose.

LBR plays one seat of a heads-up hand against a bot that states its policy
(:class:`~simulator.play.protocol.PolicyBot`). It sees what a player sees, its own cards and
the public actions, plus the bot's answers to policy questions; it never sees the bot's
cards. It keeps the bot's **range**, one weight per holding (1326):

* at the start of a hand, 1 for every holding that shares no card with LBR's own cards;
* at each of the bot's decisions, each weight times the probability that the bot, holding
  that holding, plays the action it played (``policy(obs, holdings)`` over the holdings
  still weighted, asked before the bot acts); holdings that share a card with the board
  drop to 0 as the board comes.

At each of its own decisions LBR values every action it considers, in chips it will have
beyond its stack now, assuming the hand is then checked down to the showdown (so the value
is a local, one-step look-ahead: that is what makes it cheap and a lower bound):

* **fold**: 0;
* **check or call** (adding ``c`` chips to a pot of ``P``): ``e * (P + c) - c``, with ``e``
  LBR's exact showdown equity against the range (:mod:`simulator.core.equity`: the board to
  come enumerated; before the flop the shipped holding-against-holding table);
* **a bet or raise** adding ``d`` chips: the bot's fold probability over the range, ``f``,
  from its policy at the state after the bet (a hypothetical observation,
  :func:`~simulator.core.state.observation_after`); then, when it does not fold, it is taken
  to call (adding ``k`` chips), and LBR's equity ``e'`` is against the range re-weighted by
  not folding: ``f * P + (1 - f) * (e' * (P + d + k) - d)``.

It plays the action of highest value (ties: call, then the bets from the smallest, then
fold). In limit the one legal raise is its bet; in no-limit it considers a pot-sized raise
and all-in (the paper's "fcpa": fold, call, pot, all-in), or other fractions of the pot
given in :class:`LbrSettings`. Before ``from_street`` it only checks or calls (the paper's
variant for the streets where the look-ahead is weakest); its range keeps being tracked.

A policy question that fails is the bot's fault (:class:`~simulator.play.match.PolicyAsker`):
under ``on_bot_error: fold`` LBR leaves out the bet it was pricing (a lower value at worst),
and a bot decision whose policy could not be read leaves the range as it was.

The bot's decisions also feed AIVAT (:mod:`simulator.arena.aivat`): the row of the holding the
bot really holds is one of the rows LBR asked for. LBR's own choice is a function of what it
sees, so its decisions have no action correction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import assert_never

import numpy as np

from simulator.arena.aivat import AivatRecorder
from simulator.core.actions import Action, ActionRecord, LegalActions
from simulator.core.board_ranks import HOLD_A, HOLD_B
from simulator.core.cards import HOLDING_INDEX, HOLDINGS, NUM_CARDS, NUM_HOLDINGS
from simulator.core.equity import equities
from simulator.core.game import Structure
from simulator.core.observation import Observation
from simulator.core.state import HandState, observation_after
from simulator.core.streets import Street
from simulator.play.match import PolicyAsker, describe_decision
from simulator.play.protocol import BaseBot, Policy

STREETS = {street.label: street for street in Street}
PAIRS: tuple[tuple[int, int], ...] = tuple((int(a), int(b)) for a, b in HOLDINGS)
"""Every holding as a pair of plain ints, the form a policy question takes."""


@dataclass(frozen=True)
class LbrSettings:
    """How LBR plays: it only checks or calls before ``from_street``; in no-limit it bets
    each of ``pot_fractions`` of the pot (after its call) and all-in."""

    from_street: Street = Street.FLOP
    pot_fractions: tuple[float, ...] = (1.0,)

    def describe(self, structure: Structure) -> str:
        """How LBR plays this game, in words (``summary.json``'s ``lbr.plays``).

        >>> LbrSettings().describe(Structure.NO_LIMIT)
        'checks or calls before the flop, looks ahead from the flop on; bets 1 pot or all-in'
        >>> LbrSettings(Street.PREFLOP, (0.5, 1.0)).describe(Structure.LIMIT)
        'looks ahead on every street; bets the limit bet or raise'
        >>> LbrSettings(Street.PREFLOP, (0.5, 2.0)).describe(Structure.POT_LIMIT)
        'looks ahead on every street; bets 0.5 pot, 2 pot or the pot-limit maximum'
        """
        label = self.from_street.label
        when = ("looks ahead on every street" if self.from_street is Street.PREFLOP
                else f"checks or calls before the {label}, looks ahead from the {label} on")
        fractions = ", ".join(f"{f:g} pot" for f in self.pot_fractions)
        if structure is Structure.LIMIT:
            sizes = "the limit bet or raise"
        elif structure is Structure.NO_LIMIT:
            sizes = f"{fractions} or all-in"
        elif structure is Structure.POT_LIMIT:
            sizes = f"{fractions} or the pot-limit maximum"  # a fraction over 1 is clipped
        else:
            assert_never(structure)
        return f"{when}; bets {sizes}"


def holdings_clashing(cards: Sequence[int]) -> np.ndarray:
    """Per holding, whether it holds one of ``cards``: shape (1326,)."""
    dead = np.zeros(NUM_CARDS, dtype=bool)
    dead[list(cards)] = True
    return dead[HOLD_A] | dead[HOLD_B]


def bet_sizes(legal: LegalActions, pot: int, top: int, structure: Structure,
              pot_fractions: Sequence[float]) -> list[int]:
    """The raise-to amounts LBR considers: the legal one in limit; in no-limit and pot-limit
    each fraction ``f`` of the pot after a call (``top + f * (pot + to call)``, kept within
    the legal range) and the largest legal raise (all-in; in pot-limit the pot or all-in for
    less), each once, smallest first.

    >>> bet_sizes(LegalActions(True, 4, 8, 100), pot=10, top=6,
    ...           structure=Structure.NO_LIMIT, pot_fractions=(1.0, 0.5))
    [13, 20, 100]
    >>> bet_sizes(LegalActions(True, 4, 8, 20), pot=10, top=6,
    ...           structure=Structure.POT_LIMIT, pot_fractions=(2.0, 0.5))
    [13, 20]
    """
    low, high = legal.min_raise_to, legal.max_raise_to
    if low is None or high is None:
        return []
    if structure is Structure.LIMIT:
        return [low]
    if structure is not Structure.NO_LIMIT and structure is not Structure.POT_LIMIT:
        assert_never(structure)
    after_call = pot + legal.call_amount
    sizes = {min(max(int(round(top + f * after_call)), low), high) for f in pot_fractions}
    sizes.add(high)
    return sorted(sizes)


def check_down_value(equity: float, pot: int, adds: int) -> float:
    """Chips beyond the stack now when LBR adds ``adds`` to a pot of ``pot`` (everything
    in it, its own chips included) and the hand is checked down: ``equity * (pot + adds) -
    adds``.

    >>> check_down_value(0.25, pot=12, adds=4)
    0.0
    """
    return equity * (pot + adds) - adds


def bet_value(fold: float, equity: float, pot: int, adds: int, called: int) -> float:
    """A bet's value: the pot when the bot folds (probability ``fold``), else the check-down
    value of the bigger pot, the bot having added ``called``.

    >>> bet_value(0.5, 0.5, pot=10, adds=10, called=10)  # 5 + 0.5 * (0.5 * 30 - 10)
    7.5
    """
    return fold * pot + (1.0 - fold) * check_down_value(equity, pot + called, adds)


@dataclass
class Priced:
    """What LBR made of one decision: each action considered, with its value in chips."""

    actions: list[Action] = field(default_factory=list)
    values: list[float] = field(default_factory=list)

    def add(self, action: Action, value: float) -> None:
        self.actions.append(action)
        self.values.append(value)

    def best(self) -> Action:
        """The first action of highest value (the order of :meth:`add`)."""
        return self.actions[int(np.argmax(np.asarray(self.values)))]


class LocalBestResponse:
    """The overseer that plays LBR's seat against the bot in ``bot_seat`` (heads-up), keeps
    the bot's range, and passes the bot's rows to an AIVAT recorder when given one."""

    def __init__(self, lbr_seat: int, bot_seat: int, settings: LbrSettings,
                 recorder: AivatRecorder | None = None) -> None:
        if lbr_seat == bot_seat:
            raise ValueError("LBR and the bot need seats of their own")
        self.lbr_seat, self.bot_seat, self.settings = lbr_seat, bot_seat, settings
        self.recorder = recorder
        self.weights = np.zeros(NUM_HOLDINGS)
        self.last: Priced | None = None  # LBR's last decision, for tests and traces
        self._hand: int | None = None
        self._asked: tuple[np.ndarray, Policy] | None = None

    # --- the overseer ----------------------------------------------------------------------

    def before(self, seat: int, state: HandState, ask: PolicyAsker) -> Action | None:
        self._start_hand(state)
        if seat == self.bot_seat:
            self._ask_bot(state, ask)
            return None
        if seat != self.lbr_seat:
            raise ValueError(f"seat {seat} is neither LBR's ({self.lbr_seat}) nor the bot's "
                             f"({self.bot_seat}): LBR plays heads-up")
        return self.choose(state, ask)

    def after(self, seat: int, state: HandState, record: ActionRecord, forced: bool,
              ask: PolicyAsker) -> None:
        if seat != self.bot_seat:
            return
        asked, self._asked = self._asked, None
        if self.recorder is not None:
            self.recorder.after(seat, state, record, forced, ask)
        if asked is None or forced:
            return
        indices, policy = asked
        likelihood = policy.probability(Action(record.kind, record.amount))
        weights = np.zeros(NUM_HOLDINGS)
        weights[indices] = self.weights[indices] * likelihood
        if weights.sum() > 0:  # else act played what its policy never plays: a fault noted
            self.weights = weights

    # --- the range -------------------------------------------------------------------------

    def _start_hand(self, state: HandState) -> None:
        if state.hand_number == self._hand:
            return
        self._hand = state.hand_number
        own = state.holes[self.lbr_seat]
        assert own is not None
        self.weights = (~holdings_clashing(own)).astype(np.float64)
        self._asked = None

    def live_weights(self, board: Sequence[int]) -> np.ndarray:
        """The range on ``board``: holdings holding a board card weigh 0."""
        return np.where(holdings_clashing(board), 0.0, self.weights)

    def _ask_bot(self, state: HandState, ask: PolicyAsker) -> None:
        """The bot's rows for every holding still weighted (and the one it holds, whose row
        AIVAT reads; LBR's choices never depend on it)."""
        if not ask.has_policy(self.bot_seat):  # a stand-in for a bot that failed to build
            return
        obs = state.observation(self.bot_seat)
        live = self.live_weights(obs.board) > 0
        hole = state.holes[self.bot_seat]
        assert hole is not None
        actual = int(HOLDING_INDEX[hole[0], hole[1]])
        live[actual] = True
        indices = np.flatnonzero(live)
        policy = ask(self.bot_seat, obs, [PAIRS[i] for i in indices])
        if policy is None:
            return
        self._asked = (indices, policy)
        if self.recorder is not None:
            self.recorder.decision(state, policy, int(np.searchsorted(indices, actual)))

    # --- LBR's decision --------------------------------------------------------------------

    def choose(self, state: HandState, ask: PolicyAsker) -> Action:
        """The action of highest value (see the module docstring)."""
        obs = state.observation(self.lbr_seat)
        if obs.street < self.settings.from_street:
            self.last = None
            return Action.call()
        priced = self.price(state, obs, ask)
        self.last = priced
        return priced.best()

    def price(self, state: HandState, obs: Observation, ask: PolicyAsker) -> Priced:
        """Every action LBR considers at its decision in ``state``, with its value."""
        legal = obs.legal
        hole = obs.hole_cards
        hero = int(HOLDING_INDEX[hole[0], hole[1]])
        weights = self.live_weights(obs.board)
        priced = Priced()
        call_equity = _equity(obs.board, weights, hero)
        priced.add(Action.call(), check_down_value(call_equity, obs.pot, legal.call_amount))
        live = np.flatnonzero(weights > 0)
        holdings = [PAIRS[i] for i in live]
        own_bet = obs.bets[self.lbr_seat]
        sizes = bet_sizes(legal, obs.pot, max(obs.bets), obs.game.structure,
                          self.settings.pot_fractions) if ask.has_policy(self.bot_seat) else []
        for size in sizes:
            bet = Action.raise_to(size)
            reply = observation_after(state, [bet], seat=self.bot_seat)
            where = (f"a state the hand did not reach: LBR's raise to {size} at "
                     f"{describe_decision(obs)}")
            policy = ask(self.bot_seat, reply, holdings, where)
            if policy is None:
                continue
            folds = policy.probability(Action.fold())
            stays = np.zeros(NUM_HOLDINGS)
            stays[live] = weights[live] * (1.0 - folds)
            fold = 1.0 - stays.sum() / weights.sum()
            equity = _equity(obs.board, stays, hero) if stays.sum() > 0 else 0.0
            priced.add(bet, bet_value(fold, equity, obs.pot, size - own_bet,
                                      reply.legal.call_amount))
        if legal.can_fold:
            priced.add(Action.fold(), 0.0)
        return priced


def _equity(board: Sequence[int], weights: np.ndarray, hero: int) -> float:
    value = float(equities(board, weights, [hero])[0])
    return 0.0 if np.isnan(value) else value


class LbrSeat(BaseBot):
    """Holds LBR's seat in a tournament's machinery. The exploit run's overseer
    (:class:`LocalBestResponse`) decides for that seat, so ``act`` is never asked; if it were,
    the run would be wrongly wired, and the failure says so."""

    def act(self, observation: Observation) -> Action:
        raise RuntimeError("LBR's seat was asked to act: the exploit run's overseer decides "
                           "for it")

