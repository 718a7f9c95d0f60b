"""The output dir's storage and resume, and the summary of what it stores.

The statistics themselves are tested in test_stats.py, the summary record in test_summary.py.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from simulator.arena.results import BlockRecord, ResultsError, RowError, RunStore, load_hands
from simulator.arena.summary import summarise
from simulator.core.positions import position_labels, positions_of


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
                        big_blind=2).to_dict()
    a = summary["players"]["a"]
    assert (summary["deals"], summary["blocks"], a["hands"]) == (5, 2, 5)
    assert a["mean"] == pytest.approx(10 / 2 / 5)
    # two blocks: too few to fit the luck coefficient, so the adjusted mean is the raw one
    assert a["luck_adjusted"]["mean"] == a["mean"]
    assert a["luck_adjusted"]["coefficient"] == 0.0
    assert a["bb_per_100"] == pytest.approx(100.0) and a["mbb_per_hand"] == pytest.approx(1000)
    # positions: button alternates 0, 1; heads-up the button is BTN, the other BB
    assert a["positions"]["BTN"]["hands"] == 3 and a["positions"]["BB"]["hands"] == 2
    assert a["positions"]["BTN"]["mean"] == pytest.approx((4 + 6 + 0) / 2 / 3)
    assert a["positions"]["BTN"]["luck_adjusted"]["mean"] == a["positions"]["BTN"]["mean"]


def test_existing_results_are_refused_without_resume_or_force(tmp_path: Path) -> None:
    meta = {"result_config": {"x": 1}}
    RunStore.create(tmp_path, meta, ("a", "b"), resume=False, force=False).close()
    (tmp_path / "mine.txt").write_text("keep me")
    with pytest.raises(ResultsError, match="already holds results.*resume=True.*force=True"):
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
    assert ([json.loads(x)["block"] for x in (tmp_path / "blocks.jsonl").read_text().split()]
        == [0, 1])


def test_load_hands_refuses_a_luck_that_is_not_a_finite_number(tmp_path: Path) -> None:
    """The same reader as ``holdem plot``: a nan luck is named by line and column."""
    with RunStore.create(tmp_path, {"result_config": {}}, ("a", "b"), resume=False,
                         force=False) as store:
        store.append(_record(0, [[1, -1], [3, -3]]), num_seats=2)
    lines = (tmp_path / "hands.csv").read_text().splitlines(keepends=True)
    lines[2] = lines[2].rsplit(",", 1)[0] + ",nan\n"
    (tmp_path / "hands.csv").write_text("".join(lines))
    with pytest.raises(RowError, match=r"line 3: column luck:b: expected a finite number"):
        load_hands(tmp_path)
