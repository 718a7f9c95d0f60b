"""The exact best response to card-blind bots: against brute force on a flop subgame, against
the sampled best response of ``best_response.py`` on whole flops (every turn and river), and
against the exact figures of Johanson et al. (2011)."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest

from agent.equilibrium import abstraction, features, strategy
from agent.equilibrium import blind_response as bl
from agent.equilibrium.solver import legal_rows
from agent.equilibrium.tree import (
    ACTIONS,
    CHANCE,
    FOLD,
    HEADS_UP_LIMIT,
    SHOWDOWN,
    Tree,
    build_tree,
)
from simulator.core.board_ranks import board_ranks
from simulator.core.cards import HOLDINGS, parse_cards, parse_holding
from simulator.core.hand_ranks import evaluate
from simulator.core.suits import SUIT_PERMS, board_symmetries

BUCKETS = abstraction.load()
TREE = build_tree(HEADS_UP_LIMIT, BUCKETS.counts)


def _flop(text: str) -> np.ndarray:
    return np.array(sorted(parse_cards(text)), dtype=np.int64)


def _brute(tree: Tree, order: str, me: int, holding: int, flop: np.ndarray, root: int
           ) -> float:
    """The best response's value at a flop root by direct recursion: every turn and river
    dealt, each showdown a sum over the opponent holdings sharing no card."""
    mine = set(HOLDINGS[holding].tolist())
    runouts, ranks = board_ranks(flop.tolist()).future(2)
    row = {frozenset(r.tolist()): i for i, r in enumerate(runouts)}
    clash = np.array([bool(mine & set(h.tolist())) for h in HOLDINGS])

    @functools.cache
    def showdown(cards: frozenset[int]) -> float:
        r = ranks[row[cards]]
        live = (r > 0) & ~clash
        assert live.sum() == 990
        return float(np.sign(r[live].astype(int) - int(r[holding])).mean())

    def value(node: int, dealt: tuple[int, ...]) -> float:
        kind = tree.kind[node]
        if kind == FOLD:
            folder = int(tree.player[node])
            stake = float(tree.spent[node, folder])
            return -stake if folder == me else stake
        if kind == SHOWDOWN:
            return float(tree.spent[node, 0]) * showdown(frozenset(dealt))
        if kind == CHANCE:
            cards = [c for c in range(52) if c not in mine and c not in dealt
                     and c not in flop.tolist()]
            return float(np.mean([value(int(tree.child[node, 1]), dealt + (c,))
                                  for c in cards]))
        legal = [a for a in range(3) if tree.child[node, a] >= 0]
        if tree.player[node] == me:
            return max(value(int(tree.child[node, a]), dealt) for a in legal)
        a = next(ACTIONS.index(x) for x in order if tree.child[node, ACTIONS.index(x)] >= 0)
        return value(int(tree.child[node, a]), dealt)

    return value(root, ())


def test_hs_codes_are_wins_and_ties_against_every_opponent() -> None:
    flop = _flop("2c 7d Kh")
    codes = bl.runout_codes(flop)
    turn, river = parse_cards("9s 9h")
    board = flop.tolist() + [turn, river]
    assert np.array_equal(codes[turn, river], codes[river, turn])
    rng = np.random.default_rng(3)
    for h in rng.choice(np.flatnonzero(codes[turn, river] >= 0), 4, replace=False):
        seen = set(HOLDINGS[h].tolist()) | set(board)
        opp = [o for o in HOLDINGS if not set(o.tolist()) & seen]
        ours = int(evaluate(np.array(HOLDINGS[h].tolist() + board)))
        theirs = evaluate(np.array([o.tolist() + board for o in opp]))
        assert codes[turn, river, h] == 2 * (theirs > ours).sum() + (theirs == ours).sum()
    assert codes[turn, river, parse_holding("9s 2d")] == -1  # a card repeats
    assert (codes[turn, turn] == -1).all()


@pytest.mark.parametrize(("order", "me", "history", "holding"), [
    ("rc", 0, "rc/", "3c 4c"), ("rc", 1, "rrc/", "Ad Qs"), ("c", 1, "crc/", "8h 9h")])
def test_a_flop_subgame_matches_brute_force(order: str, me: int, history: str,
                                           holding: str) -> None:
    flop = _flop("2c 7d Kh")
    root = TREE.find(history)
    got = bl.flop_values(TREE, bl.preferring(order), me, flop)[root]
    h = parse_holding(holding)
    assert got[h] == pytest.approx(_brute(TREE, order, me, h, flop, root), abs=1e-12)
    assert np.isnan(got[parse_holding("2c 3c")])  # dead on the flop


def _blind_table(order: str) -> strategy.StrategyTable:
    legal = legal_rows(TREE)
    rows = np.zeros(legal.shape)
    for a in reversed([ACTIONS.index(x) for x in order]):
        rows[legal[:, a]] = np.eye(3)[a]
    return strategy.StrategyTable(TREE, BUCKETS, strategy.quantize(rows, legal), {})


def _sampled_against_exact(order: str, me: int, history: str, turns: np.ndarray | None
                           ) -> None:
    """The flop values of ``best_response.py`` with ``turns`` (None: all) and every river
    against the exact ones of the same game, holding by holding."""
    from agent.equilibrium import best_response as br
    flop = _flop("4s 8s Jd")
    root = TREE.find(history)
    every = np.array([c for c in range(52) if c not in flop.tolist()])
    sample = br.flop_sample(BUCKETS, flop, every if turns is None else turns)
    resp = br.Responder(_blind_table(order))
    summed = resp.flop_values(me, sample, np.ones(1326), root, br.FREE,
                              np.ones((70, 1326), dtype=np.int8))
    got = summed / br.showdowns(sample)
    exact = bl.flop_values(TREE, bl.preferring(order), me, flop, turns=turns)[root]
    live = ~np.isnan(exact)
    assert live.sum() == 1176
    assert np.abs(got[live] - exact[live]).max() < 1e-9


@pytest.mark.parametrize(("order", "me", "history"), [("rc", 0, "rrc/"), ("rc", 1, "rc/"),
                                                      ("c", 1, "crc/")])
def test_the_sampled_best_response_is_exact_in_its_sampled_game(
        order: str, me: int, history: str) -> None:
    """On a few turns and every river, ``best_response.py`` values the game where the turn
    is one of them exactly: folds on the flop and turn (``rc``: the responder folds to
    raises) weigh as much as the showdowns beside them."""
    _sampled_against_exact(order, me, history, np.array(parse_cards("2h 8c Jc Ad")))


@pytest.mark.slow
@pytest.mark.parametrize(("order", "me", "history"), [("rc", 0, "rrc/"), ("c", 1, "crc/")])
def test_the_sampled_best_response_is_exact_with_every_turn_and_river(
        order: str, me: int, history: str) -> None:
    _sampled_against_exact(order, me, history, None)


def test_always_folding_gives_up_the_blinds_exactly() -> None:
    run = bl.Enumeration.start(TREE, bl.preferring("fc"))
    for flop, members in bl.canonical_flops()[:2]:
        run.add(flop, members)
    assert run.seat_values() == pytest.approx((2.0, 1.0))
    assert bl.exploitability(run.seat_values()) == pytest.approx(750.0)


def test_a_flop_class_counts_each_member_once() -> None:
    flop = _flop("Ah Kh 2d")  # clubs and spades may swap: 12 flops in the class
    members = 24 // len(board_symmetries(flop.tolist()))
    ones = np.where(np.isin(HOLDINGS, flop).any(axis=1), np.nan, 1.0)
    total = bl.class_sum(ones, members)
    # each holding meets the class members it shares no card with
    h = parse_holding("Ac 5c")
    flops = {tuple(sorted(np.array([(c >> 2) * 4 + p[c & 3] for c in flop]).tolist()))
             for p in itertools.permutations(range(4))}
    assert len(flops) == members
    assert total[h] == pytest.approx(sum(not {*f} & {*HOLDINGS[h].tolist()} for f in flops))


def test_burnside_counts_the_canonical_deals() -> None:
    assert features.canonical_deal_count((3,)) == features.canonical_boards(3)[0].size
    # the sets of 4 and 5 cards: features.canonical_boards's direct counts
    assert [features.canonical_deal_count((k,)) for k in (4, 5)] == [16_432, 134_459]
    # (flop, turn) classes directly: per canonical flop, the classes of its turn cards
    # under the flop's symmetries
    direct = 0
    for flop, _ in bl.canonical_flops():
        sym = board_symmetries(flop.tolist())
        rest = [c for c in range(52) if c not in flop.tolist()]
        direct += len({min(int((c >> 2) * 4 + p[c & 3]) for p in SUIT_PERMS[sym])
                       for c in rest})
    assert features.canonical_deal_count((3, 1)) == direct
    assert features.canonical_deal_count((3, 1, 1)) == 2_554_656


@pytest.mark.slow
@pytest.mark.parametrize(("order", "mbb"), [("c", 1163.48), ("rc", 3697.69)])
def test_the_exact_best_responses_of_johanson_et_al(order: str, mbb: float) -> None:
    """Every canonical flop, turn and river (5 to 7 minutes of one core a bot)."""
    run = bl.Enumeration.start(TREE, bl.preferring(order))
    for flop, members in bl.canonical_flops():
        run.add(flop, members)
    assert bl.exploitability(run.seat_values()) == pytest.approx(mbb, abs=0.01)
