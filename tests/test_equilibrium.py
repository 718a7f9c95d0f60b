"""The equilibrium layer: the betting tree against the engine, the solver on games with known
answers (Kuhn, Leduc), the card abstraction's exactness and suit invariance, the strategy
file and its validation, and the byte-identical strategy build."""

from __future__ import annotations

import itertools
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from agent.equilibrium import abstraction, features, strategy
from agent.equilibrium import tiny_games as tg
from agent.equilibrium.errors import StrategyFileError
from agent.equilibrium.kernels import TreeArrays, card_pairs, fold_pair, showdown_pair
from agent.equilibrium.solver import Board, Solver, legal_rows
from agent.equilibrium.training import Trainer, board_data
from agent.equilibrium.tree import (
    CALL,
    CHANCE,
    DECISION,
    FOLD,
    FOLD_ACTION,
    HEADS_UP_LIMIT,
    KUHN,
    LEDUC,
    RAISE,
    SHOWDOWN,
    build_tree,
)
from agent.strength.values import hand_strengths_of
from simulator.core.archive import write_archive
from simulator.core.cards import HOLDING_INDEX, HOLDINGS, parse_cards, parse_holding
from simulator.core.game import GameConfig
from simulator.core.hand_ranks import evaluate
from simulator.core.state import HandState
from simulator.core.suits import CARD_PERMS, HOLDING_PERMS

ROOT = Path(__file__).resolve().parents[1]
LIMIT = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=200)


# --- the tree -------------------------------------------------------------------------------


def test_the_tree_has_the_decision_counts_of_heads_up_limit() -> None:
    tree = build_tree(HEADS_UP_LIMIT, (169, 7, 5, 3))
    assert tree.decisions_by_round() == (8, 70, 630, 5670)
    assert tree.rows == 8 * 169 + 70 * 7 + 630 * 5 + 5670 * 3
    assert build_tree(KUHN).decisions_by_round() == (4,)
    assert build_tree(LEDUC).decisions_by_round() == (6, 30)
    # every row block is used once and they tile the table
    decisions = np.flatnonzero(tree.kind == DECISION)
    sizes = np.array([tree.buckets[tree.round[n]] for n in decisions])
    ends = sorted(zip(tree.row_base[decisions], sizes, strict=True))
    assert ends[0][0] == 0 and all(a + s == b for (a, s), (b, _) in itertools.pairwise(ends))


@pytest.mark.parametrize("button", [0, 1])
def test_the_tree_matches_the_engine_on_random_hands(button: int) -> None:
    """Walk random action sequences in the engine and the tree side by side: the same player
    acts, with the same legal actions and chips in, and the hand ends the same way."""
    rng = np.random.default_rng(2100 + button)
    tree = build_tree(HEADS_UP_LIMIT)
    holes = [tuple(parse_cards("AhAd")), tuple(parse_cards("7c2d"))]
    board = parse_cards("Ks9s5h4c3d")
    seen_rounds = set()
    for _ in range(600):
        state = HandState(LIMIT, [200, 200], button=button, holes=holes, board=board)
        node = 0
        while not state.finished:
            while tree.kind[node] == CHANCE:
                node = int(tree.child[node, CALL])
            assert tree.kind[node] == DECISION
            seat = state.actor
            role = 0 if seat == button else 1
            legal = state.legal_actions()
            assert tree.player[node] == role
            assert tree.round[node] == int(state.street)
            assert (tree.child[node, FOLD_ACTION] >= 0) == legal.can_fold
            assert (tree.child[node, RAISE] >= 0) == legal.can_raise
            contributions = state.contributions
            assert tree.spent[node, role] == contributions[seat]
            assert tree.spent[node, 1 - role] == contributions[1 - seat]
            seen_rounds.add(int(tree.round[node]))
            columns = np.flatnonzero(tree.child[node] >= 0)
            # raise more often than uniform, so capped rounds come up
            column = int(rng.choice(columns, p=_weights(columns)))
            if column == FOLD_ACTION:
                folder = seat
                state.fold()
            elif column == CALL:
                state.check_or_call()
            else:
                state.raise_to(int(legal.min_raise_to))
            node = int(tree.child[node, column])
        if tree.kind[node] == FOLD:
            assert tree.player[node] == (0 if folder == button else 1)
            assert state.finishing_stacks[folder] == 200 - tree.spent[node, tree.player[node]]
        else:
            assert tree.kind[node] == SHOWDOWN
            assert tree.spent[node, 0] == tree.spent[node, 1] == state.contributions[0]
    assert seen_rounds == {0, 1, 2, 3}


def _weights(columns: np.ndarray) -> np.ndarray:
    w = np.array([0.15 if c == FOLD_ACTION else 0.35 if c == CALL else 0.5 for c in columns])
    return w / w.sum()


def test_a_capped_round_allows_no_fifth_bet() -> None:
    tree = build_tree(HEADS_UP_LIMIT)
    # pre-flop the big blind is the first bet: three raises cap it
    assert tree.child[tree.find("rrr"), RAISE] == -1
    assert tree.child[tree.find("rr"), RAISE] >= 0
    # after the flop, four bets
    assert tree.child[tree.find("rc/rrrr"), RAISE] == -1
    assert tree.child[tree.find("rc/rrr"), RAISE] >= 0
    assert tree.spent[tree.find("rrrc/rrrrc/rrrrc/rrrr")].tolist() == [48, 48 - 4]


# --- the kernels ------------------------------------------------------------------------------


def test_terminal_values_match_a_direct_sum_over_opponents() -> None:
    rng = np.random.default_rng(7)
    board = np.array(parse_cards("2c7d9hJsKs"))
    ranks = features.river_ranks(board)
    live = np.flatnonzero(ranks > 0)
    buckets = np.zeros((4, 1326), dtype=np.int32)
    buckets[:, ranks == 0] = -1
    b = Board.of(HOLDINGS.astype(np.int64), buckets, -ranks.astype(np.int64))
    m = live.size
    r0, r1 = rng.random(m), rng.random(m)
    out0, out1 = np.zeros(m), np.zeros(m)
    sums = np.zeros((6, 64))
    showdown_pair(r0, r1, b.ca, b.cb, b.group_start, 3.0, out0, out1, sums)
    f0, f1 = np.zeros(m), np.zeros(m)
    fold_pair(r0, r1, b.ca, b.cb, -2.0, 5.0, f0, f1, True, True, sums)
    rank = ranks[b.states].astype(np.int64)
    for i in rng.choice(m, 40, replace=False):
        clash = np.array([len({b.ca[i], b.cb[i]} & {b.ca[j], b.cb[j]}) > 0 for j in range(m)])
        sign = np.sign(rank - rank[i])  # +1 where the opponent's rank is worse
        sign[clash] = 0
        assert out0[i] == pytest.approx(3.0 * (sign * r1).sum(), abs=1e-9)
        assert out1[i] == pytest.approx(3.0 * (sign * r0).sum(), abs=1e-9)
        assert f0[i] == pytest.approx(-2.0 * r1[~clash].sum(), abs=1e-9)
        assert f1[i] == pytest.approx(5.0 * r0[~clash].sum(), abs=1e-9)


def test_one_card_states_get_a_card_of_their_own() -> None:
    a, b = card_pairs(np.array([[0, -1], [1, -1], [3, 7]]))
    assert a.tolist() == [0, 1, 3] and b.tolist() == [52, 53, 7]


# --- the solver on games with known answers ---------------------------------------------------


def _solve(game: tg.TinyGame, iterations: int, schedule: str = "cfr+",
           sampled: int | None = None) -> tuple[Solver, tg.Strategy]:
    tree = build_tree(game.rules, game.bucket_counts())
    solver = Solver(tree, game.cards, schedule)
    boards = [game.board_data(b) for b in game.boards()]
    rng = np.random.default_rng(sampled or 0)
    for _ in range(iterations):
        if sampled is None:
            solver.iterate(boards, alternate=True)
        else:
            solver.iterate([boards[int(rng.integers(len(boards)))]])
    return solver, _strategy_of(game, solver)


def _strategy_of(game: tg.TinyGame, solver: Solver) -> tg.Strategy:
    tree, table = solver.tree, solver.average_strategy()
    ranks = max(game.ranks) + 1

    def strategy(info: tg.InfoSet) -> dict[str, float]:
        rank, public, history = info
        node = tree.find(history)
        bucket = rank if tree.round[node] == 0 else rank * ranks + public
        row = table[tree.row_base[node] + bucket]
        return {a: float(row[i]) for i, a in enumerate("fcr") if tree.child[node, i] >= 0}

    return strategy


def _kuhn_equilibrium(alpha: float) -> tg.Strategy:
    """Kuhn's family of equilibria (Kuhn 1950): player 0 bets J with alpha, K with 3 alpha,
    calls a bet with Q at alpha + 1/3; player 1 bets J with 1/3 and calls with Q at 1/3."""
    def strategy(info: tg.InfoSet) -> dict[str, float]:
        card, _, history = info
        bet = {"": (alpha, 0.0, 3 * alpha), "c": (1 / 3, 0.0, 1.0)}
        call = {"r": (0.0, 1 / 3, 1.0), "cr": (0.0, alpha + 1 / 3, 1.0)}
        if history in bet:
            p = bet[history][card]
            return {"c": 1 - p, "r": p}
        p = call[history][card]
        return {"f": 1 - p, "c": p}
    return strategy


@pytest.mark.parametrize("alpha", [0.0, 0.2, 1 / 3])
def test_the_exact_best_response_finds_kuhns_equilibria_unexploitable(alpha: float) -> None:
    eq = _kuhn_equilibrium(alpha)
    assert tg.expected_value(tg.KUHN_GAME, eq, eq) == pytest.approx(float(tg.KUHN_VALUE))
    assert tg.exploitability(tg.KUHN_GAME, eq, eq) == pytest.approx(0.0, abs=1e-12)


def test_the_exact_best_response_punishes_a_known_leak() -> None:
    """Against a player 1 who always calls, player 0 value-bets K and Q and checks J:
    it wins (1/3)(2) per K, ... exactly 1/3 over the deals (worked out by hand below)."""
    def calls(info: tg.InfoSet) -> dict[str, float]:
        return {a: 1.0 if a == "c" else 0.0 for a in tg.legal_actions(tg.KUHN_GAME, info[2])}
    # Player 0 bets K (wins 2 always), bets Q (wins 2 vs J, loses 2 vs K), checks J
    # (loses 1 at the showdown): (2 + (2 - 2) / 2 - 1) / 3 = 1/3.
    assert tg.best_response_value(tg.KUHN_GAME, calls, 0) == pytest.approx(1 / 3)


def test_cfr_solves_kuhn_to_its_value() -> None:
    _, early = _solve(tg.KUHN_GAME, 30)
    _, strategy = _solve(tg.KUHN_GAME, 1000)
    assert tg.expected_value(tg.KUHN_GAME, strategy, strategy) == pytest.approx(
        float(Fraction(-1, 18)), abs=2e-4)
    late = tg.exploitability(tg.KUHN_GAME, strategy, strategy)
    assert late < 2e-4 < tg.exploitability(tg.KUHN_GAME, early, early)


def test_cfr_solves_leduc_below_one_milli_chip() -> None:
    """Exploitability under 1 mbb/g, counting the 1-chip ante as the big blind (stricter than
    the 2-chip first-round bet)."""
    _, early = _solve(tg.LEDUC_GAME, 50)
    _, strategy = _solve(tg.LEDUC_GAME, 1000)
    late = tg.exploitability(tg.LEDUC_GAME, strategy, strategy)
    assert late < 1e-3 < tg.exploitability(tg.LEDUC_GAME, early, early)
    assert tg.expected_value(tg.LEDUC_GAME, strategy, strategy) == pytest.approx(-0.0856,
                                                                                 abs=2e-3)


@pytest.mark.parametrize("schedule", ["dcfr", "cfr"])
def test_sampled_boards_converge_on_leduc(schedule: str) -> None:
    """Public chance sampling (one public card an iteration) gets closer with iterations."""
    _, early = _solve(tg.LEDUC_GAME, 100, schedule, sampled=3)
    _, late = _solve(tg.LEDUC_GAME, 3000, schedule, sampled=3)
    assert (tg.exploitability(tg.LEDUC_GAME, late, late)
            < 0.5 * tg.exploitability(tg.LEDUC_GAME, early, early))


# --- the card abstraction ---------------------------------------------------------------------


def _random_board(rng: np.random.Generator, k: int) -> np.ndarray:
    return rng.choice(52, k, replace=False).astype(np.int64)


def test_river_codes_are_hand_strength_exactly() -> None:
    board = parse_cards("2c7d9hJsKs")
    codes = features.river_codes(np.array(board))
    for text in ("AsQs", "3c4d", "KdKh", "7c2d", "9s9d"):
        h = parse_holding(text)
        assert codes[h] / 1980 == pytest.approx(hand_strengths_of(board, [h])[0], abs=1e-12)
    assert (codes[[HOLDING_INDEX[board[0], c] for c in range(52) if c != board[0]]] == -1).all()
    assert (codes >= 0).sum() == 1081


def test_turn_feature_is_the_sum_of_squared_river_codes() -> None:
    board = parse_cards("2c7d9hJs")
    got = features.squared_codes(np.array(board))
    for text in ("AsKs", "8c8d"):
        h = parse_holding(text)
        cards = HOLDINGS[h].tolist()
        total = 0
        for river in (c for c in range(52) if c not in board + cards):
            full = board + [river]
            opponents = [o for o in itertools.combinations(range(52), 2)
                         if not set(o) & set(full + cards)]
            mine = int(evaluate(np.array(cards + full)))
            theirs = evaluate(np.array([list(o) + full for o in opponents]))
            code = 2 * int((theirs > mine).sum()) + int((theirs == mine).sum())
            total += code * code
        assert got[h] == total


def test_buckets_are_invariant_under_suit_permutations() -> None:
    buckets = abstraction.load()
    rng = np.random.default_rng(21)
    for k in (0, 3, 4, 5):
        for _ in range(6 if k else 1):
            board = _random_board(rng, k)
            base = buckets.street_buckets(board)
            for perm in rng.choice(24, 4, replace=False):
                moved = CARD_PERMS[perm][board]
                got = buckets.street_buckets(moved)
                assert np.array_equal(got[HOLDING_PERMS[perm]], base)


def test_flop_table_agrees_with_the_feature_it_was_cut_from() -> None:
    buckets = abstraction.load()
    rng = np.random.default_rng(3)
    for _ in range(3):
        flop = _random_board(rng, 3)
        values = features.squared_codes(flop)
        direct = np.searchsorted(buckets.thresholds[0], values, side="right")
        got = buckets.street_buckets(flop)
        assert np.array_equal(got[values >= 0], direct[values >= 0])
        assert (got[values < 0] == abstraction.DEAD).all() and (values < 0).sum() == 150


def test_buckets_are_deterministic_and_cover_the_range() -> None:
    buckets = abstraction.load()
    rng = np.random.default_rng(5)
    board = _random_board(rng, 5)
    one = buckets.deal_buckets(board)
    assert np.array_equal(one, buckets.deal_buckets(board))
    live = one[0] >= 0
    assert live.sum() == 1081 and (one[:, ~live] == -1).all()
    for street in range(4):
        assert 0 <= one[street, live].min() and one[street, live].max() < buckets.counts[street]
    # a stronger holding is never in a lower bucket
    codes = features.river_codes(board)
    by_code = np.argsort(codes[live], kind="stable")
    assert (np.diff(one[3, live][by_code]) >= 0).all()
    turn = features.squared_codes(board[:4])
    by_turn = np.argsort(turn[live], kind="stable")
    assert (np.diff(one[2, live][by_turn]) >= 0).all()


@pytest.mark.parametrize("street, boards", [(1, 300), (2, 100), (3, 300)])
def test_percentile_buckets_split_the_deals_evenly(street: int, boards: int) -> None:
    """Over random deals, about half the (holding, board) pairs fall below the middle
    bucket and a quarter below the first quartile's: the cuts are percentiles."""
    buckets = abstraction.load()
    rng = np.random.default_rng(8 + street)
    size = (0, 3, 4, 5)[street]
    got = np.concatenate([b[b >= 0] for b in (buckets.street_buckets(_random_board(rng, size))
                                              for _ in range(boards))])
    count = buckets.counts[street]
    assert abs((got < count // 2).mean() - 0.5) < 0.05
    assert abs((got < count // 4).mean() - 0.25) < 0.05


def test_canonical_boards_count_the_suit_classes() -> None:
    codes, sizes = features.canonical_boards(3)
    assert codes.size == 1755 and sizes.sum() == 22100
    code, perm = features.canonical(np.array(parse_cards("Ah Kh 2d")))
    assert features.decode(code, 3).tolist() == sorted(
        CARD_PERMS[perm][parse_cards("Ah Kh 2d")].tolist())


# --- the strategy file --------------------------------------------------------------------------


def test_quantized_rows_sum_to_one_and_never_play_illegal_actions() -> None:
    tree = build_tree(HEADS_UP_LIMIT, (169, 2, 2, 2))
    legal = legal_rows(tree)
    rng = np.random.default_rng(1)
    raw = rng.random(legal.shape) * legal
    raw[::7] = 0.0  # never-reached rows
    q = strategy.quantize(raw / np.maximum(raw.sum(1, keepdims=True), 1e-300), legal)
    p = strategy.expand(q)
    assert np.allclose(p.sum(axis=1), 1.0)
    assert (p[~legal] == 0).all()
    near = raw / np.maximum(raw.sum(1, keepdims=True), 1e-300)
    reached = raw.sum(1) > 0
    assert np.abs(p[reached] - near[reached]).max() <= 1 / 255
    uniform = legal[~reached] / legal[~reached].sum(1, keepdims=True)
    assert np.abs(p[~reached] - uniform).max() <= 1 / 255


@pytest.fixture(scope="module")
def small_strategy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    buckets = abstraction.load()
    trainer = Trainer(buckets, seed=5, boards=1, workers=1)
    trainer.run(2)
    path = tmp_path_factory.mktemp("strategy") / "s.npz"
    strategy.save(path, trainer.tree, buckets, trainer.solver.average_strategy(),
                  {"seed": 5, "iterations": 2})
    return path


def test_a_strategy_file_reads_back(small_strategy: Path) -> None:
    table = strategy.read(small_strategy)
    assert table.table.shape == (table.tree.rows, 2)
    assert table.header["build"] == {"seed": 5, "iterations": 2}
    p = table.full()
    assert np.allclose(p.sum(axis=1), 1.0)
    assert (p[~legal_rows(table.tree)] == 0).all()


def _rewrite(src: Path, dst: Path, version: int = strategy.VERSION, **changes: object) -> Path:
    got = strategy.read(src)
    header = {k: v for k, v in got.header.items() if k not in ("format", "version", "checksum")}
    header.update(changes)
    write_archive(dst, strategy.FORMAT, version, header, {"probabilities": got.table})
    return dst


@pytest.mark.parametrize("case, message", [
    ("missing", "no such file"),
    ("truncated", "corrupt or truncated"),
    ("game", "solved for another game (\"Leduc hold'em\", not heads-up limit"),
    ("abstraction", "solved in another card abstraction"),
    ("version", "version 2; this reader reads version 1"),
    ("oversized", "more than the 20971520 it may have"),
    ("shape", "probabilities are uint8 (5, 2), expected uint8"),
])
def test_bad_strategy_files_fail_with_one_line_naming_the_file(
        small_strategy: Path, tmp_path: Path, case: str, message: str) -> None:
    path = tmp_path / "bad.npz"
    if case == "truncated":
        path.write_bytes(small_strategy.read_bytes()[:5000])
    elif case == "game":
        _rewrite(small_strategy, path, game=strategy.game_fields(LEDUC))
    elif case == "abstraction":
        got = strategy.read(small_strategy).header["abstraction"]
        _rewrite(small_strategy, path, abstraction={**got, "checksum": got["checksum"] + 1})
    elif case == "version":
        _rewrite(small_strategy, path, version=2)
    elif case == "oversized":
        with open(path, "wb") as f:
            f.truncate(21 << 20)
    elif case == "shape":
        got = strategy.read(small_strategy)
        header = {k: v for k, v in got.header.items()
                  if k not in ("format", "version", "checksum")}
        write_archive(path, strategy.FORMAT, 1, header, {"probabilities": got.table[:5]})
    with pytest.raises(StrategyFileError) as info:
        strategy.read(path)
    text = str(info.value)
    assert text.startswith(f"{path}: ") and message in text and "\n" not in text


def test_the_shipped_strategy_and_buckets_are_within_budget() -> None:
    size = strategy.DEFAULT_PATH.stat().st_size + abstraction.DEFAULT_PATH.stat().st_size
    assert size <= 20 * 10**6
    table = strategy.load()
    assert table.header["game"] == strategy.game_fields(HEADS_UP_LIMIT)


# --- the build ----------------------------------------------------------------------------------


def _build(out: Path, iterations: int) -> bytes:
    subprocess.run([sys.executable, str(ROOT / "experiments" / "build" / "make_cfr_strategy.py"),
                    "--seed", "3", "--iterations", str(iterations), "--workers", "2",
                    "--out", str(out)], check=True, capture_output=True, cwd=ROOT)
    return out.read_bytes()


def test_the_strategy_build_is_byte_identical(tmp_path: Path) -> None:
    """A short build, twice: the same bytes (two workers, so their summing order counts)."""
    first = _build(tmp_path / "a.npz", 6)
    assert first == _build(tmp_path / "b.npz", 6)
    got = strategy.read(tmp_path / "a.npz").header["build"]
    assert got == {"seed": 3, "iterations": 6, "boards": 2, "schedule": "dcfr", "workers": 2}


@pytest.mark.slow
def test_a_one_minute_build_is_byte_identical(tmp_path: Path) -> None:
    assert _build(tmp_path / "a.npz", 150) == _build(tmp_path / "b.npz", 150)


def test_board_data_lists_live_holdings_strongest_first() -> None:
    buckets = abstraction.load()
    board = np.array(parse_cards("AhKh2c7d9s"))
    b = board_data(buckets, board)
    ranks = features.river_ranks(board)[b.states]
    assert b.states.size == 1081 and (np.diff(ranks) >= 0).all()
    ties = np.flatnonzero(np.diff(ranks) == 0) + 1
    assert (b.group_start[ties] < ties).all()


# --- the best response --------------------------------------------------------------------------


def _random_table(seed: int) -> strategy.StrategyTable:
    buckets = abstraction.load()
    tree = build_tree(HEADS_UP_LIMIT, buckets.counts)
    rng = np.random.default_rng(seed)
    raw = rng.random((tree.rows, 3)) ** 3  # far from uniform
    q = strategy.quantize(raw, legal_rows(tree))
    return strategy.StrategyTable(tree, buckets, q, {})


def test_the_river_best_response_matches_a_brute_force() -> None:
    """The compact river walk against a direct recursion over holdings, opponents and the
    strategy's rows, with the evaluator's ranks."""
    from agent.equilibrium import best_response as br
    table = _random_table(1)
    tree = table.tree
    board = np.array(parse_cards("Ah Kd 7c 2s"), dtype=np.int64)
    sample = br.flop_sample(table.abstraction, board[:3], board[3:], rivers=1)
    river = int(sample.river_cards[0, 0])
    full = list(board) + [river]
    m = int(sample.river_live[0, 0])
    order = sample.river_order[0, 0, :m]
    rng = np.random.default_rng(4)
    reach = np.zeros(m)
    support = rng.choice(m, 25, replace=False)
    reach[support] = rng.random(25)
    strat = table.full()
    node = tree.find("rc/cc/rc/")
    me = int(1 - tree.player[node])  # the opponent acts first here
    out = np.zeros(m)
    arrays = TreeArrays(tree.kind, tree.player, tree.round, tree.child, tree.spent,
                        tree.row_base)
    board = br.RiverBoard(sample.river_bk[0, 0, :m], sample.river_ca[0, 0, :m],
                          sample.river_cb[0, 0, :m], sample.river_start[0, 0, :m])
    br._river(node, 0, me, arrays, strat, board, reach, out,
              br.RiverBuffers(np.zeros((40, m)), np.zeros((40, 3, m)), np.zeros((3, 52))))
    cards = HOLDINGS[order].astype(np.int64)
    ranks = evaluate(np.concatenate([cards, np.tile(full, (m, 1))], axis=1)).astype(int)
    bucket = sample.river_bk[0, 0, :m]

    def value(n: int, h: int, r: np.ndarray) -> float:
        k = tree.kind[n]
        if k in (FOLD, SHOWDOWN):
            ok = np.array([not set(cards[h]) & set(cards[o]) for o in range(m)])
            if k == FOLD:
                sign = -1.0 if tree.player[n] == me else 1.0
                return sign * float(tree.spent[n, tree.player[n]]) * float(r[ok].sum())
            won = np.sign(ranks - ranks[h])
            return float(tree.spent[n, 0]) * float((won * r)[ok].sum())
        kids = [int(c) for c in tree.child[n] if c >= 0]
        if tree.player[n] == me:
            return max(value(c, h, r) for c in kids)
        return sum(value(int(tree.child[n, a]), h, r * strat[tree.row_base[n] + bucket, a])
                   for a in range(3) if tree.child[n, a] >= 0)

    for h in rng.choice(m, 6, replace=False):
        assert out[h] == pytest.approx(value(node, int(h), reach), rel=1e-9, abs=1e-9)


def test_replayed_flop_choices_reproduce_and_never_beat_the_best() -> None:
    from agent.equilibrium import best_response as br
    table = _random_table(2)
    resp = br.Responder(table)
    flop = np.array(parse_cards("2c 8d Jh"), dtype=np.int64)
    a = br.flop_sample(table.abstraction, flop, np.array(parse_cards("3s Qc Ad")), rivers=2)
    b = br.flop_sample(table.abstraction, flop, np.array(parse_cards("4h 9s Kc")), rivers=2)
    root = resp.flop_roots[2]
    rng = np.random.default_rng(0)
    reach = rng.random(1326)
    decisions = np.ones((70, 1326), dtype=np.int8)
    recorded = resp.flop_values(1, a, reach, root, br.RECORD, decisions)
    assert np.array_equal(recorded, resp.flop_values(1, a, reach, root, br.REPLAY, decisions))
    free = resp.flop_values(1, b, reach, root, br.FREE, decisions.copy())
    replayed = resp.flop_values(1, b, reach, root, br.REPLAY, decisions)
    assert (free >= replayed - 1e-9).all() and (free > replayed + 1e-6).any()


def test_the_sampled_best_response_runs_and_is_deterministic() -> None:
    from agent.equilibrium import best_response as br
    table = _random_table(3)
    one = br.estimate(table, flops=2, turns=3, seed=5, rivers=1, workers=2)
    two = br.estimate(table, flops=2, turns=3, seed=5, rivers=1, workers=1)
    assert (one.in_sample, one.out_of_sample) == (two.in_sample, two.out_of_sample)
    # a strategy drawn at random is very exploitable: several big blinds a game
    assert one.out_of_sample > 1000 and one.in_sample > 1000


def test_the_best_response_to_always_folding_wins_the_blinds() -> None:
    """A player who folds to every bet and checks otherwise: the responder raises and wins
    the big blind as the button (2 chips) and the small blind as the big blind (1 chip), so
    the exploitability is 1.5 chips, 750 mbb/g, exactly; any error in the normalisation of
    the flop values would show (a flop line must not be worth more than 2 chips)."""
    from agent.equilibrium import best_response as br
    buckets = abstraction.load()
    tree = build_tree(HEADS_UP_LIMIT, buckets.counts)
    legal = legal_rows(tree)
    folds = np.where(legal[:, 0:1], [[1.0, 0.0, 0.0]], [[0.0, 1.0, 0.0]])
    table = strategy.StrategyTable(tree, buckets, strategy.quantize(folds, legal), {})
    got = br.estimate(table, flops=1, turns=3, seed=2, rivers=2)
    assert got.in_sample == pytest.approx(750.0) and got.out_of_sample == pytest.approx(750.0)
    assert got.seats_in == pytest.approx((1000.0, 500.0))
