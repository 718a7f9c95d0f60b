"""Plots: valid PNGs, drawn from the same per-hand results that summary.json summarises."""

import csv
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import matplotlib.image as mpimg
import matplotlib.pyplot as plt
import numpy as np
import pytest

from simulator.arena.config import parse_config
from simulator.arena.plots import MAX_POINTS, cumulative_figure, draw, main, plot_data
from simulator.arena.results import BlockRecord, RunStore, load_hands
from simulator.arena.tournament import run_tournament

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("plots") / "out"
    run_tournament(parse_config({
        "game": {"variant": "nolimit", "blinds": [1, 2], "stack": 200},
        "seats": [{"name": "r", "bot": "random"}, {"name": "c", "bot": "call"},
                  {"name": "x", "bot": "raise"}],
        "hands": 90, "seed": 3, "block_size": 30, "duplicate": True, "luck_samples": 50,
        "output": {"dir": str(out)}}))
    return out


def test_a_run_draws_valid_pngs(run_dir: Path) -> None:
    for name in ("cumulative.png", "winrates.png"):
        path = run_dir / name
        assert path.read_bytes()[:8] == PNG_MAGIC
        image = mpimg.imread(path)
        assert image.shape[0] > 300 and image.shape[1] > 400
        assert image.std() > 0.01  # not a blank canvas


def test_plotted_end_points_are_the_summary_totals(run_dir: Path) -> None:
    """Recompute every player's final cumulative winnings from hands.csv with csv alone."""
    summary = json.loads((run_dir / "summary.json").read_text())
    with open(run_dir / "hands.csv") as f:
        rows = list(csv.DictReader(f))
    curves, plotted_summary = plot_data(run_dir)
    assert plotted_summary.to_dict()["players"] == summary["players"]
    for curve in curves:
        played = [r for r in rows if int(r[f"seat:{curve.name}"]) >= 0]
        total_bb = sum(int(r[f"net:{curve.name}"]) for r in played) / 2
        stats = summary["players"][curve.name]
        assert curve.hands[-1] == len(played) == stats["hands"] == 6 * 90
        assert curve.cumulative[-1] == pytest.approx(total_bb)
        assert curve.cumulative[-1] == pytest.approx(stats["mean"] * stats["hands"])
        assert curve.band[-1] == pytest.approx(1.959964 * stats["stderr"] * stats["hands"])


def test_holdem_plot_redraws_and_refuses_a_dir_without_results(
        run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (run_dir / "winrates.png").unlink()
    assert main([str(run_dir)]) == 0
    assert (run_dir / "winrates.png").read_bytes()[:8] == PNG_MAGIC
    assert "winrates.png" in capsys.readouterr().out
    assert main([str(tmp_path)]) == 2
    assert "holds no run results" in capsys.readouterr().err
    assert [p.name for p in draw(run_dir)] == ["cumulative.png", "winrates.png"]


# --- corrupt run dirs: one line, exit 2, no plot ------------------------------------------------


def _write(name: str, data: bytes) -> Callable[[Path], None]:
    return lambda d: (d / name).write_bytes(data)


def _edit(name: str, edit: Callable[[str], str]) -> Callable[[Path], None]:
    return lambda d: (d / name).write_text(edit((d / name).read_text()))


def _json_edit(edit: Callable[[dict], object]) -> Callable[[Path], None]:
    def change(d: Path) -> None:
        data = json.loads((d / "run.json").read_text())
        edit(data)
        (d / "run.json").write_text(json.dumps(data))
    return change


def _lines_edit(edit: Callable[[list[str]], list[str]], name: str = "blocks.jsonl"
                ) -> Callable[[Path], None]:
    return _edit(name, lambda t: "".join(edit(t.splitlines(keepends=True))))


def _first_hands_as_text(line: str) -> str:
    data = json.loads(line)
    data["players"]["r"]["hands"] = str(data["players"]["r"]["hands"])
    return json.dumps(data) + "\n"


CORRUPTIONS = {
    "run.json not JSON": (_write("run.json", b"{"), "run.json: unreadable"),
    "run.json not UTF-8": (_write("run.json", b"\xff\xfe{}"), "run.json: unreadable"),
    "run.json a list": (_write("run.json", b"[]"), "expected a JSON object, got list"),
    "run.json without unit": (_json_edit(lambda d: d.pop("unit")), "unit: expected a string"),
    "unit_chips a string": (_json_edit(lambda d: d.update(unit_chips="2")),
                            "unit_chips: expected a positive integer, got '2'"),
    "big_blind zero": (_json_edit(lambda d: d.update(big_blind=0)), "big_blind: expected a"),
    "blocks.jsonl missing": (lambda d: (d / "blocks.jsonl").unlink(),
                             "blocks.jsonl: missing"),
    "blocks.jsonl empty": (_write("blocks.jsonl", b""), "no finished block to plot"),
    "blocks.jsonl not UTF-8": (_write("blocks.jsonl", b"\xff\n"), "blocks.jsonl: unreadable"),
    "blocks.jsonl bad JSON": (_lines_edit(lambda ls: [ls[0], "{oops\n", *ls[1:]]),
                              "blocks.jsonl: line 2: not JSON"),
    "blocks.jsonl key missing": (_lines_edit(lambda ls: ['{"block": 0}\n', *ls[1:]]),
                                 "block 0: players: missing"),
    "blocks.jsonl wrong type": (_lines_edit(lambda ls: [_first_hands_as_text(ls[0]), *ls[1:]]),
                                "players.r.hands: expected an integer, got '180'"),
    "blocks.jsonl block twice": (_lines_edit(lambda ls: [*ls, ls[0]]),
                                 "block 0 appears more than once"),
    "hands.csv not UTF-8": (lambda d: (d / "hands.csv").write_bytes(
        (d / "hands.csv").read_bytes().replace(b"\n", b"\n\xff", 1)), "hands.csv: unreadable"),
    "hands.csv not a number": (_lines_edit(lambda ls: [ls[0], "0,0,x" + ls[1][5:], *ls[2:]],
                                           "hands.csv"), "hands.csv: line 2"),
    "hands.csv too few fields": (
        _lines_edit(lambda ls: [ls[0], ls[1].rsplit(",", 1)[0] + "\n", *ls[2:]], "hands.csv"),
        "hands.csv: line 2: expected 13"),
    "hands.csv row missing": (_lines_edit(lambda ls: [ls[0], *ls[2:]], "hands.csv"),
                              "but blocks.jsonl says"),
    "hands.csv foreign header": (_lines_edit(lambda ls: ["a,b\n", *ls[1:]], "hands.csv"),
                                 "not a results file"),
}


def _field(column: str, text: str) -> Callable[[Path], None]:
    """Line 2 of hands.csv (block 0's first row) with ``column`` set to ``text``."""
    def change(lines: list[str]) -> list[str]:
        header = lines[0].rstrip("\n").split(",")
        fields = lines[1].rstrip("\n").split(",")
        fields[header.index(column)] = text
        return [lines[0], ",".join(fields) + "\n", *lines[2:]]
    return _lines_edit(change, "hands.csv")


# Every numeric column through one reader: integers where a run writes integers, finite
# numbers in the luck columns (the first three once passed: nothing read the luck columns).
for _column, _text, _expected in [
        ("luck:r", "nan", "a finite number"), ("luck:c", "inf", "a finite number"),
        ("luck:x", "1e999", "a finite number"), ("luck:r", "-Infinity", "a finite number"),
        ("luck:r", "1_0", "a finite number"), ("luck:c", "", "a finite number"),
        ("net:r", "nan", "an integer"), ("net:c", "1.5", "an integer"),
        ("seat:x", " 1", "an integer"), ("perm", "+0", "an integer"),
        ("hand", "0x1", "an integer"), ("button", "1_0", "an integer")]:
    CORRUPTIONS[f"hands.csv {_column} {_text!r}"] = (
        _field(_column, _text),
        f"hands.csv: line 2: column {_column}: expected {_expected}, got {_text!r}")


@pytest.mark.parametrize("case", CORRUPTIONS)
def test_a_corrupt_run_dir_is_one_line_and_exit_2(
        case: str, run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corrupt, message = CORRUPTIONS[case]
    out = tmp_path / "run"
    shutil.copytree(run_dir, out)
    for name in ("cumulative.png", "winrates.png"):
        (out / name).unlink()
    corrupt(out)
    assert main([str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("holdem plot: ") and err.count("\n") == 1, err
    assert message in err
    assert not (out / "cumulative.png").exists() and not (out / "winrates.png").exists()


# --- streaming, and a run of one hand ----------------------------------------------------------


def test_streamed_curves_are_the_cumulative_sums_of_every_hand(tmp_path: Path) -> None:
    """More hands than a curve draws, blocks written out of order, a seat sitting out and an
    interrupted block's rows: each drawn point is the full cumulative sum at that hand."""
    meta = {"result_config": {}, "unit": "big_blinds", "unit_chips": 2, "big_blind": 2}
    store = RunStore.create(tmp_path, meta, ("a", "b", "c"), resume=False, force=False)
    rng = np.random.default_rng(0)
    for block in (2, 0, 3, 1):
        rows = 1500 if block < 3 else 700
        seat = np.tile([0, 1, 2], (rows, 1))
        seat[::7, 2] = -1  # c sits out some hands
        net = rng.integers(-9, 10, size=(rows, 3)) * (seat >= 0)
        store.append(BlockRecord(block=block, deals=rows, perm=np.zeros(rows, int),
                                 hand=np.arange(rows), button=np.arange(rows) % 2, seat=seat,
                                 net=net, luck=np.zeros((rows, 3))), num_seats=3)
    with open(tmp_path / "hands.csv", "a") as f:  # block 4's rows, but no line: unfinished
        f.write("4,0,0,0,0,1,2,50,50,-100,0.0,0.0,0.0\n")
    table = load_hands(tmp_path)
    curves, summary = plot_data(tmp_path)
    for p, curve in enumerate(curves):
        full = np.cumsum(table.net[table.seat[:, p] >= 0, p]) / 2
        assert len(curve.hands) == MAX_POINTS < len(full)
        assert curve.hands[-1] == len(full) == summary.player(curve.name).raw.hands
        assert np.array_equal(curve.cumulative, full[curve.hands - 1])


def test_a_one_hand_run_draws_its_point(tmp_path: Path) -> None:
    out = tmp_path / "one"
    run_tournament(parse_config({
        "game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
        "seats": [{"name": "r", "bot": "raise"}, {"name": "c", "bot": "call"}],
        "hands": 1, "seed": 1, "duplicate": False, "output": {"dir": str(out)}}))
    curves, summary = plot_data(out)
    assert [len(c.hands) for c in curves] == [1, 1]
    fig = cumulative_figure(curves, summary)
    try:
        lines = [ln for ln in fig.axes[0].get_lines() if ln.get_label() in ("r", "c")]
        assert [ln.get_marker() for ln in lines] == ["o", "o"]
    finally:
        plt.close(fig)
    assert (out / "cumulative.png").read_bytes()[:8] == PNG_MAGIC
