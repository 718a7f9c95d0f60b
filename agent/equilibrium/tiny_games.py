"""Kuhn poker and Leduc hold'em: small games with known answers, for testing the solver.

Each game is described twice, on purpose:

* for the solver, as :class:`TinyGame`: the betting rules as :class:`LimitRules` (so
  :mod:`agent.equilibrium.tree` builds its tree), the private states (one card each) and, per
  public board, the buckets and the showdown order the kernels read;
* for checking, as plain recursive rules over action strings (:func:`legal_actions`,
  :func:`payoff`) with an exact best response (:func:`best_response_value`) and the expected
  value of two strategies (:func:`expected_value`). That part shares no code with the
  solver or the tree, so a bug in one is not repeated in the other.

Kuhn poker (Kuhn 1950): a deck of J, Q, K; each player antes 1 and gets one card; one round
in which player 0 may check or bet 1, with at most one bet. Its value to player 0 is -1/18.

Leduc hold'em (Southey et al. 2005): a deck of two J, two Q, two K; antes of 1; one private
card each, a round of betting (bets of 2), one public card, a second round (bets of 4), at
most two bets a round, player 0 first in both. A pair with the public card wins, else the
higher card; equal ranks split.

An *information set* of the checking code is ``(private rank, public rank or -1, history)``;
a strategy maps it to the probabilities of the legal actions (``"f"``, ``"c"``, ``"r"``).

>>> round(expected_value(KUHN_GAME, lambda i: _uniform(i), lambda i: _uniform(i)), 6)
0.125
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from agent.equilibrium.solver import Board
from agent.equilibrium.tree import KUHN, LEDUC, LimitRules

InfoSet = tuple[int, int, str]
Strategy = Callable[[InfoSet], dict[str, float]]


@dataclass(frozen=True)
class TinyGame:
    """A one-card poker game: ``ranks[c]`` is card c's rank; ``board`` is True when a public
    card is dealt before the second round."""

    name: str
    rules: LimitRules
    ranks: tuple[int, ...]
    board: bool

    @property
    def cards(self) -> np.ndarray:
        """The private states' cards, as the kernels read them: (n, 2), second -1."""
        n = len(self.ranks)
        return np.stack([np.arange(n), np.full(n, -1)], axis=1).astype(np.int64)

    def boards(self) -> list[tuple[int, ...]]:
        """Every public board: each card, or the one empty board of a game without one."""
        return [(c,) for c in range(len(self.ranks))] if self.board else [()]

    def board_data(self, board: tuple[int, ...]) -> Board:
        """What a walk needs of one board (:class:`Board`). Buckets are lossless: the private
        rank in the first round, then (rank, public rank)."""
        n = len(self.ranks)
        rounds = self.rules.rounds
        buckets = np.full((rounds, n), -1, dtype=np.int32)
        nr = max(self.ranks) + 1
        strength = np.zeros(n, dtype=np.int64)
        for c in range(n):
            if c in board:
                continue
            buckets[0, c] = self.ranks[c]
            if rounds > 1:
                buckets[1, c] = self.ranks[c] * nr + self.ranks[board[0]]
            strength[c] = _strength(self, c, board[0] if board else None)
        return Board.of(self.cards, buckets, strength)

    def bucket_counts(self) -> tuple[int, ...]:
        nr = max(self.ranks) + 1
        return (nr, nr * nr)[: self.rules.rounds]


KUHN_GAME = TinyGame("kuhn", KUHN, ranks=(0, 1, 2), board=False)
LEDUC_GAME = TinyGame("leduc", LEDUC, ranks=(0, 0, 1, 1, 2, 2), board=True)
KUHN_VALUE = Fraction(-1, 18)
"""The value of Kuhn poker to player 0 (Kuhn 1950)."""


def _strength(game: TinyGame, card: int, board: int | None) -> int:
    rank = game.ranks[card]
    if board is not None and game.ranks[board] == rank:
        return 100 + rank
    return rank


# --- the rules, written again for checking ----------------------------------------------------


def _rounds(history: str) -> list[str]:
    return history.split("/")


def _to_act(game: TinyGame, history: str) -> int:
    """Player to act: both games open every round with player 0 and alternate."""
    return len(_rounds(history)[-1]) % 2


def _contributions(game: TinyGame, history: str) -> list[int]:
    """Chips each player has in after ``history``."""
    ante = game.rules.forced[0]
    put = [ante, ante]
    for r, actions in enumerate(_rounds(history)):
        bet = game.rules.bets[r]
        for i, a in enumerate(actions):
            p = i % 2
            level = max(put)
            if a == "c":
                put[p] = level
            elif a == "r":
                put[p] = level + bet
    return put


def legal_actions(game: TinyGame, history: str) -> list[str]:
    """The actions of the player to act after ``history`` (a non-terminal history)."""
    actions = _rounds(history)[-1]
    put = _contributions(game, history)
    p = _to_act(game, history)
    out = []
    if put[p] < put[1 - p]:
        out.append("f")
    out.append("c")
    if actions.count("r") < game.rules.caps[len(_rounds(history)) - 1]:
        out.append("r")
    return out


def _round_over(actions: str) -> bool:
    """Two checks, or a call of a bet."""
    return len(actions) >= 2 and actions[-1] == "c"


def is_terminal(game: TinyGame, history: str) -> bool:
    if history.endswith("f"):
        return True
    rounds = _rounds(history)
    return len(rounds) == game.rules.rounds and _round_over(rounds[-1])


def needs_board(game: TinyGame, history: str) -> bool:
    """The first round is over and the public card comes next."""
    rounds = _rounds(history)
    return game.board and len(rounds) == 1 and _round_over(rounds[0])


def payoff(game: TinyGame, history: str, cards: tuple[int, int], board: int | None) -> float:
    """Player 0's winnings at a terminal history."""
    put = _contributions(game, history)
    if history.endswith("f"):
        folder = (len(_rounds(history)[-1]) - 1) % 2
        return -put[0] if folder == 0 else put[1]
    mine, theirs = (_strength(game, c, board) for c in cards)
    if mine == theirs:
        return 0.0
    return put[1] if mine > theirs else -put[0]


def _deals(game: TinyGame) -> list[tuple[tuple[int, int], int | None, float]]:
    """Every (private cards, public card) with its probability."""
    n = len(game.ranks)
    out: list[tuple[tuple[int, int], int | None, float]] = []
    for a, b in itertools.permutations(range(n), 2):
        if game.board:
            rest = [c for c in range(n) if c not in (a, b)]
            out += [((a, b), c, 1.0 / (n * (n - 1) * len(rest))) for c in rest]
        else:
            out.append(((a, b), None, 1.0 / (n * (n - 1))))
    return out


def info_set(game: TinyGame, history: str, card: int, board: int | None) -> InfoSet:
    seen = board if board is not None and len(_rounds(history)) > 1 else None
    return (game.ranks[card], -1 if seen is None else game.ranks[seen], history)


def _uniform(info: InfoSet) -> dict[str, float]:
    """A uniform strategy over the legal actions (used by the doctests)."""
    game = LEDUC_GAME if info[1] >= 0 or "/" in info[2] else KUHN_GAME
    actions = legal_actions(game, info[2])
    return {a: 1.0 / len(actions) for a in actions}


def expected_value(game: TinyGame, first: Strategy, second: Strategy) -> float:
    """Player 0's expected winnings when player 0 plays ``first`` and player 1 ``second``."""
    strategies = (first, second)

    def value(history: str, cards: tuple[int, int], board: int | None) -> float:
        if is_terminal(game, history):
            return payoff(game, history, cards, board)
        if needs_board(game, history):
            history += "/"
        p = _to_act(game, history)
        probs = strategies[p](info_set(game, history, cards[p], board))
        return sum(probs.get(a, 0.0) * value(history + a, cards, board)
                   for a in legal_actions(game, history))

    return sum(w * value("", cards, board) for cards, board, w in _deals(game))


def best_response_value(game: TinyGame, strategy: Strategy, responder: int) -> float:
    """The most ``responder`` can win on average against ``strategy`` played by the other.

    Perfect recall: the responder's information set is its card, the public card once dealt,
    and the history. Each information set's action is chosen by summing, over the deals and
    histories in it, the chance and opponent reach times the value of the subtree under the
    responder's own later choices (found the same way, memoised).
    """
    members: dict[InfoSet, list[tuple[tuple[int, int], int | None, str, float]]] = {}

    def collect(history: str, cards: tuple[int, int], board: int | None, w: float) -> None:
        if is_terminal(game, history) or w == 0.0:
            return
        if needs_board(game, history):
            history += "/"
        p = _to_act(game, history)
        actions = legal_actions(game, history)
        if p == responder:
            key = info_set(game, history, cards[p], board)
            members.setdefault(key, []).append((cards, board, history, w))
            for a in actions:
                collect(history + a, cards, board, w)
        else:
            probs = strategy(info_set(game, history, cards[p], board))
            for a in actions:
                collect(history + a, cards, board, w * probs.get(a, 0.0))

    for cards, board, w in _deals(game):
        collect("", cards, board, w)

    @functools.cache
    def choice(key: InfoSet) -> str:
        actions = legal_actions(game, key[2])
        totals = {a: sum(w * value(h + a, cards, board) for cards, board, h, w in members[key])
                  for a in actions}
        return max(actions, key=lambda a: (totals[a], -actions.index(a)))

    @functools.cache
    def value(history: str, cards: tuple[int, int], board: int | None) -> float:
        """The responder's winnings below ``history`` (no reach weights)."""
        if is_terminal(game, history):
            v = payoff(game, history, cards, board)
            return v if responder == 0 else -v
        if needs_board(game, history):
            history += "/"
        p = _to_act(game, history)
        key = info_set(game, history, cards[p], board)
        if p == responder:
            if key not in members:  # reached with probability 0: any action will do
                return max(value(history + a, cards, board)
                           for a in legal_actions(game, history))
            return value(history + choice(key), cards, board)
        probs = strategy(key)
        return sum(probs.get(a, 0.0) * value(history + a, cards, board)
                   for a in legal_actions(game, history))

    return sum(w * value("", cards, board) for cards, board, w in _deals(game))


def exploitability(game: TinyGame, first: Strategy, second: Strategy) -> float:
    """How much a best responder wins on average over both seats, in chips per game:
    ``(BR against second + BR against first) / 2``; 0 exactly at an equilibrium."""
    return 0.5 * (best_response_value(game, second, 0) + best_response_value(game, first, 1))
