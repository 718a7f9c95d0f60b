"""The typed summary: the summary.json form, per-position luck adjustment, faults, refused
block lines and the printed table's notes."""

import dataclasses
from typing import Any

import numpy as np
import pytest

from simulator.arena.stats import luck_adjusted, ratio_stats
from simulator.arena.summary import RunInfo, SummaryError, format_table, summarise

NAMES = ("a", "b")


def _line(block: int, a: tuple[int, int, float], positions: dict[str, list[Any]] | None = None,
          faults: list[Any] | None = None) -> dict[str, Any]:
    """A block line of players a and b (b mirrors a, as heads-up results do)."""
    hands, net, luck = a
    pos = positions or {}
    return {"block": block, "deals": hands, "rows": hands, "faults": faults or [],
            "players": {"a": {"hands": hands, "net": net, "luck": luck, "positions": pos},
                        "b": {"hands": hands, "net": -net, "luck": -luck,
                              "positions": {k: [h, -n, -x] for k, (h, n, x) in pos.items()}}}}


def _lines(blocks: int, seed: int = 0, luck_share: float = 0.9) -> list[dict[str, Any]]:
    rng = np.random.default_rng(seed)
    out = []
    for b in range(blocks):
        luck = float(rng.normal(0, 60))
        net = int(round(luck_share * luck + rng.normal(10, 20)))
        out.append(_line(b, (40, net, luck), positions={
            "BTN": [20, net // 2, luck / 3], "BB": [20, net - net // 2, luck - luck / 3]}))
    return out


def _run_info(luck: bool = True) -> RunInfo:
    return RunInfo(duplicate=True, permutations=2, luck_method="equity" if luck else None,
                   seed=7, version="0", config={"hands": 10, "seats": [{"name": "a"}]})


def test_summary_json_keeps_its_keys_and_adds_the_coefficient() -> None:
    data = summarise(_lines(6), NAMES, unit="small_bets", unit_chips=2, big_blind=2,
                     run=_run_info()).to_dict()
    assert list(data) == ["unit", "deals", "blocks", "players", "big_blinds_per_unit",
                          "duplicate", "permutations", "luck_method", "faults", "seed",
                          "version", "config", "early_end_blocks"]
    a = data["players"]["a"]
    assert list(a) == ["hands", "mean", "stderr", "ci95", "luck_adjusted", "bb_per_100",
                       "mbb_per_hand", "positions", "faults"]
    assert list(a["luck_adjusted"]) == ["mean", "stderr", "ci95", "coefficient",
                                        "variance_reduction"]
    assert list(a["positions"]) == ["BB", "BTN"]  # table order, not the lines' order
    assert list(a["positions"]["BTN"]) == ["hands", "mean", "stderr", "ci95", "luck_adjusted"]
    assert data["config"] == {"hands": 10, "seats": [{"name": "a"}]}
    assert (data["deals"], data["blocks"], a["hands"]) == (240, 6, 240)


def test_figures_are_the_statistics_of_the_blocks_in_units() -> None:
    lines = _lines(8, seed=1)
    summary = summarise(lines, NAMES, unit="small_bets", unit_chips=4, big_blind=2)
    net = np.array([x["players"]["a"]["net"] for x in lines]) / 4
    luck = np.array([x["players"]["a"]["luck"] for x in lines]) / 4
    hands = np.full(8, 40)
    a = summary.player("a")
    assert a.raw == ratio_stats(net, hands)
    assert a.luck_adjusted == luck_adjusted(net, luck, hands)
    assert 0.5 < a.luck_adjusted.coefficient < 1.5 and a.luck_adjusted.narrowed
    # one place converts units: 4-chip units are 2 big blinds
    assert a.bb_per_100 == pytest.approx(a.raw.mean * 2 * 100)
    assert a.mbb_per_hand == pytest.approx(a.raw.mean * 2 * 1000)
    btn = a.positions["BTN"]
    cells = [x["players"]["a"]["positions"]["BTN"] for x in lines]
    assert btn.luck_adjusted == luck_adjusted(np.array([c[1] for c in cells]) / 4,
                                              np.array([c[2] for c in cells]) / 4,
                                              np.array([c[0] for c in cells]))
    assert btn.luck_adjusted.coefficient is not None


def test_the_record_is_frozen() -> None:
    summary = summarise(_lines(3), NAMES, unit="small_bets", unit_chips=2, big_blind=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        summary.blocks = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        summary.players["c"] = summary.player("a")  # type: ignore[index]


def test_faults_are_counted_by_name_in_records_and_in_old_text() -> None:
    lines = _lines(2)
    lines[0]["faults"] = [{"hand": 3, "seat": 0, "name": "a", "message": "x", "block": 0,
                           "perm": 0}, {"hand": 4, "seat": 1, "name": "b", "message": "y"}]
    lines[1]["faults"] = ["a (seat 0, block 1, hand 2): ValueError: z", "ab (seat 1): w"]
    summary = summarise(lines, NAMES, unit="small_bets", unit_chips=2, big_blind=2,
                        run=_run_info())
    assert (summary.player("a").faults, summary.player("b").faults) == (2, 1)
    assert summary.to_dict()["faults"] == 3


@pytest.mark.parametrize(("change", "message"), [
    (lambda x: x.pop("players"), r"block 0: players: missing"),
    (lambda x: x["players"].pop("b"), r"block 0: players\.b: missing"),
    (lambda x: x["players"]["a"].update(hands="7"), r"players\.a\.hands: expected an integer"),
    (lambda x: x["players"]["a"].update(hands=True), r"players\.a\.hands: expected an integer"),
    (lambda x: x["players"]["a"].update(net=None), r"players\.a\.net: expected a finite"),
    (lambda x: x["players"]["a"].update(luck=float("nan")), r"luck: expected a finite number"),
    (lambda x: x["players"]["a"].update(hands=-1), r"hands: expected >= 0"),
    (lambda x: x["players"]["a"]["positions"].update(BTN=[1, 2]), r"positions\.BTN: expected"),
    (lambda x: x.update(block="x"), r"block: expected an integer, got 'x'"),
    (lambda x: x.update(faults="a"), r"faults: expected a list"),
    (lambda x: x.update(players=[1]), r"players: expected an object"),
])
def test_a_corrupt_block_line_is_named(change: Any, message: str) -> None:
    lines = _lines(3)
    change(lines[0])
    with pytest.raises(SummaryError, match=message):
        summarise(lines, NAMES, unit="small_bets", unit_chips=2, big_blind=2)


def test_a_line_that_is_not_an_object_and_a_repeated_block_are_refused() -> None:
    with pytest.raises(SummaryError, match="a block line: line: expected an object"):
        summarise([5], NAMES, unit="small_bets", unit_chips=2, big_blind=2)
    lines = _lines(3)
    with pytest.raises(SummaryError, match="block 1 appears more than once"):
        summarise([*lines, lines[1]], NAMES, unit="small_bets", unit_chips=2, big_blind=2)


def test_the_table_says_when_the_adjustment_did_not_narrow_the_interval() -> None:
    helped = summarise(_lines(8, seed=2), NAMES, unit="small_bets", unit_chips=2, big_blind=2,
                       run=_run_info())
    assert "note" not in format_table(helped)
    # luck unrelated to the results: the spent degree of freedom widens the interval
    unrelated = summarise(_lines(5, seed=3, luck_share=0.0), NAMES, unit="big_blinds",
                          unit_chips=2, big_blind=2, run=_run_info())
    text = " ".join(format_table(unrelated).split())  # notes wrap at 80 columns
    assert unrelated.player("a").luck_adjusted.narrowed is False
    assert "note: the luck adjustment did not narrow a's interval (variance +" in text
    assert "read the raw one" in text and "bb/h [95% CI]" in text
    # with luck not measured the adjusted column repeats the raw one: nothing to say
    assert "note" not in format_table(summarise(
        _lines(5, seed=3, luck_share=0.0), NAMES, unit="big_blinds", unit_chips=2,
        big_blind=2, run=_run_info(luck=False)))
    two = format_table(summarise(_lines(2), NAMES, unit="small_bets", unit_chips=2,
                                 big_blind=2, run=_run_info()))
    assert ("needs 3 blocks to fit its coefficient; with 2 it repeats the raw figures"
            in " ".join(two.split()))
    one = format_table(summarise(_lines(1), NAMES, unit="small_bets", unit_chips=2,
                                 big_blind=2, run=_run_info()))
    assert "(no CI)" in one and "an interval needs 2 blocks" in one
    for table in (format_table(unrelated), two, one):
        assert max(map(len, table.splitlines())) <= 80, table


def test_wide_intervals_never_run_into_the_next_column() -> None:
    # two blocks of 2 hands with nets far apart: intervals of five-digit bounds
    lines = [_line(0, (2, -9000, 0.0)), _line(1, (2, 9000, 0.0))]
    table = format_table(summarise(lines, NAMES, unit="big_blinds", unit_chips=1,
                                   big_blind=1, run=_run_info(luck=False)))
    rows = [r for r in table.splitlines() if r.startswith(("a ", "b "))]
    assert rows and all("]+" not in r and "]-" not in r for r in rows), table
    assert all(r.count("] ") == 2 for r in rows), table
