"""Statistics over blocks (coverage, t quantiles) and the output dir's storage and resume."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from simulator.arena.results import (
    T975,
    Z975,
    BlockRecord,
    ResultsError,
    RunStore,
    load_hands,
    ratio_stats,
    summarise,
)
from simulator.core.positions import position_labels, positions_of


def _t_cdf_upper_half(t: float, df: int) -> float:
    """P(0 < T < t) by Simpson's rule on Student's density."""
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    x = np.linspace(0.0, t, 200_001)
    y = c * (1 + x * x / df) ** (-(df + 1) / 2)
    h = x[1] - x[0]
    return float(h / 3 * (y[0] + y[-1] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum()))


@pytest.mark.parametrize("df", range(1, 30))
def test_t_quantiles_are_the_975_points(df: int) -> None:
    assert _t_cdf_upper_half(T975[df - 1], df) == pytest.approx(0.475, abs=2e-7)


def test_equal_blocks_give_the_plain_stderr_of_block_means() -> None:
    rng = np.random.default_rng(0)
    totals = rng.normal(5, 30, size=12)
    stat = ratio_stats(totals, np.full(12, 50))
    means = totals / 50
    assert stat.mean == pytest.approx(means.mean())
    assert stat.stderr == pytest.approx(means.std(ddof=1) / math.sqrt(12))
    assert stat.ci95[1] - stat.mean == pytest.approx(T975[10] * stat.stderr)
    assert stat.hands == 600


def test_one_block_has_a_mean_but_no_interval() -> None:
    stat = ratio_stats(np.array([7.0]), np.array([10]))
    assert (stat.mean, stat.stderr, stat.ci95) == (0.7, None, None)


@pytest.mark.parametrize("blocks", [5, 12, 40])
def test_intervals_have_95_percent_coverage_on_a_known_mean(blocks: int) -> None:
    """Synthetic hands with mean 0.3 and heavy tails, unequal last block, 4000 repetitions."""
    rng = np.random.default_rng(blocks)
    reps, size, mean = 4000, 20, 0.3
    counts = np.full(blocks, size)
    counts[-1] = size // 2
    covered = 0
    for _ in range(reps):
        hands = mean + rng.standard_t(5, size=counts.sum()) * 2.0
        totals = np.add.reduceat(hands, np.r_[0, np.cumsum(counts)[:-1]])
        lo, hi = ratio_stats(totals, counts).ci95
        covered += lo <= mean <= hi
    # binomial sd of the coverage is 0.0034; a normal quantile at 5 blocks would give ~0.88
    assert 0.935 <= covered / reps <= 0.965


def test_large_samples_use_the_normal_quantile() -> None:
    stat = ratio_stats(np.arange(30, dtype=float), np.full(30, 1))
    assert stat.ci95[1] - stat.mean == pytest.approx(Z975 * stat.stderr)


def test_position_labels() -> None:
    assert position_labels(3) == ("SB", "BB", "BTN")
    assert position_labels(4) == ("SB", "BB", "CO", "BTN")
    assert position_labels(10)[2:5] == ("UTG", "UTG+1", "UTG+2")
    # a seat sitting out (-1) is skipped: two players left are heads-up, the button is BTN
    assert positions_of([3, -1, 0], button=3, num_seats=4) == ["BTN", None, "BB"]


def _record(block: int, net: list[list[int]], seats: list[list[int]] | None = None,
            luck: list[list[float]] | None = None) -> BlockRecord:
    h = len(net)
    seats = seats or [[0, 1]] * h
    return BlockRecord(block=block, deals=h, perm=np.zeros(h, int), hand=np.arange(h),
                       button=np.arange(h) % 2, seat=np.array(seats), net=np.array(net),
                       luck=np.array(luck) if luck else np.zeros((h, 2)))


def test_store_appends_blocks_and_summarises_them(tmp_path: Path) -> None:
    store = RunStore.create(tmp_path, {"result_config": {"x": 1}}, ("a", "b"), resume=False,
                            force=False)
    store.close()
    store.append(_record(1, [[4, -4], [-2, 2]], luck=[[1.5, -1.5], [0.0, 0.0]]), num_seats=2)
    store.append(_record(0, [[6, -6], [2, -2], [0, 0]]), num_seats=2)
    table = load_hands(tmp_path)
    assert table.names == ("a", "b")
    assert table.block.tolist() == [0, 0, 0, 1, 1]  # sorted, whatever the finishing order
    assert table.net[:, 0].tolist() == [6, 2, 0, 4, -2]
    assert table.luck[:, 0].tolist() == [0.0, 0.0, 0.0, 1.5, 0.0]
    summary = summarise(store.read_blocks(), ("a", "b"), unit="big_blinds", unit_chips=2,
                        big_blind=2)
    a = summary["players"]["a"]
    assert (summary["deals"], summary["blocks"], a["hands"]) == (5, 2, 5)
    assert a["mean"] == pytest.approx(10 / 2 / 5)
    assert a["luck_adjusted"]["mean"] == pytest.approx((10 - 1.5) / 2 / 5)
    assert a["bb_per_100"] == pytest.approx(100.0) and a["mbb_per_hand"] == pytest.approx(1000)
    # positions: button alternates 0, 1; heads-up the button is BTN, the other BB
    assert a["positions"]["BTN"]["hands"] == 3 and a["positions"]["BB"]["hands"] == 2
    assert a["positions"]["BTN"]["mean"] == pytest.approx((4 + 6 + 0) / 2 / 3)


def test_existing_results_are_refused_without_resume_or_force(tmp_path: Path) -> None:
    meta = {"result_config": {"x": 1}}
    RunStore.create(tmp_path, meta, ("a", "b"), resume=False, force=False).close()
    (tmp_path / "mine.txt").write_text("keep me")
    with pytest.raises(ResultsError, match="already holds results.*--resume.*--force"):
        RunStore.create(tmp_path, meta, ("a", "b"), resume=False, force=False)
    with pytest.raises(ResultsError, match=r"config differs.*x: was 1, now 2"):
        RunStore.create(tmp_path, {"result_config": {"x": 2}}, ("a", "b"), resume=True,
                        force=False)
    RunStore.create(tmp_path, meta, ("a", "b"), resume=False, force=True).close()
    assert (tmp_path / "mine.txt").read_text() == "keep me"  # --force removes only our files


def test_resume_drops_the_rows_of_an_interrupted_block(tmp_path: Path) -> None:
    meta = {"result_config": {"x": 1}}
    with RunStore.create(tmp_path, meta, ("a", "b"), resume=False, force=False) as store:
        store.append(_record(0, [[1, -1], [3, -3]]), num_seats=2)
    # a kill after block 1's rows and half of its blocks.jsonl line
    with open(tmp_path / "hands.csv", "a") as f:
        f.write("1,0,0,0,0,1,5,-5,0.0,0.0\n1,0,1,1,0,")
    with open(tmp_path / "blocks.jsonl", "a") as f:
        f.write('{"block": 1, "dea')
    assert load_hands(tmp_path).net[:, 0].tolist() == [1, 3]
    with RunStore.create(tmp_path, meta, ("a", "b"), resume=True, force=False) as resumed:
        assert resumed.done_blocks() == {0}
        assert (tmp_path / "hands.csv").read_text().count("\n") == 3
        resumed.append(_record(1, [[2, -2]]), num_seats=2)
    assert load_hands(tmp_path).net[:, 0].tolist() == [1, 3, 2]
    assert [json.loads(x)["block"] for x in (tmp_path / "blocks.jsonl").read_text().split()] \
        == [0, 1]
