"""``holdem explain`` against malformed trace lines: each bad line (torn, garbled, nested too
deep, a record missing or mangling a field) is skipped and reported on stderr, and the rest of
the hand is explained. The tests go through the command (trace lines in, output and exit code
out), with real traces from a traced run, so they hold whatever a record's fields are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.arena.config import parse_config
from simulator.arena.tournament import run_tournament
from simulator.cli import main as holdem


@pytest.fixture(scope="module")
def traced(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("explain") / "run"
    config = parse_config({"game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
                           "seats": [{"name": "hero", "bot": "heuristic",
                                      "params": {"trace": True}},
                                     {"name": "villain", "bot": "call"}],
                           "hands": 12, "block_size": 12, "seed": 3, "luck": False,
                           "output": {"dir": str(out), "plots": False}})
    run_tournament(config, progress=False, inline=True)
    return out


def _trace(run: Path) -> Path:
    return run / "bots" / "hero" / "trace-b0-p0.jsonl"


def _copy(traced: Path, tmp_path: Path) -> Path:
    run = tmp_path / "run"
    (run / "bots" / "hero").mkdir(parents=True)
    _trace(run).write_bytes(_trace(traced).read_bytes())
    return run


def _explain(run: Path, hand: int, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = holdem(["explain", str(run), "--block", "0", "--hand", str(hand)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _hands(run: Path) -> list[int]:
    return sorted({json.loads(line)["hand"] for line in _trace(run).read_text().splitlines()})


def _mangled(record: dict) -> list[str]:
    """Copies of a record with each field but the hand's number missing or of another type,
    and nested too deeply."""
    out = []
    for key in record:
        if key == "hand":
            continue
        out.append(json.dumps({k: v for k, v in record.items() if k != key}))
        out.append(json.dumps({**record, key: "a"}))
        out.append(json.dumps({**record, key: {"a": [1, None]}}))
    deep = "[" * 100_000 + "]" * 100_000
    out.append(f'{{"hand": {record["hand"]}, "seat": {deep}}}')
    out.append(deep)
    return out


def test_malformed_lines_are_skipped_and_reported_and_the_rest_explained(
        traced: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand = _hands(traced)[len(_hands(traced)) // 2]
    code, clean, err = _explain(traced, hand, capsys)
    assert code == 0 and err == ""
    run = _copy(traced, tmp_path)
    lines = _trace(run).read_text().splitlines()
    mine = [json.loads(line) for line in lines if json.loads(line)["hand"] == hand]
    bad = [text for record in mine for text in _mangled(record)]
    torn = lines[0][: len(lines[0]) // 2]
    _trace(run).write_text("\n".join([torn, *lines, *bad, "not json at all"]) + "\n")
    code, out, err = _explain(run, hand, capsys)
    assert code == 0
    for line in clean.splitlines():  # every decision of the hand is still explained
        assert line in out
    assert err.count("\n") == 1 and "skipped" in err and "Traceback" not in err
    assert "line 1 (" in err  # the torn first line, reported by number


def test_a_torn_line_leaves_every_other_hand_explainable(
        traced: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = _copy(traced, tmp_path)
    lines = _trace(run).read_text().splitlines()
    middle = len(lines) // 2
    lines[middle] = lines[middle][:10]
    _trace(run).write_text("\n".join(lines) + "\n")
    for hand in _hands(traced):
        code, out, err = _explain(run, hand, capsys)
        assert code == 0 and f"hand {hand} " in out
        assert f"line {middle + 1} (" in err


def test_a_hand_whose_every_line_is_malformed_is_one_line_and_exit_2(
        traced: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = _copy(traced, tmp_path)
    hand = _hands(traced)[0]
    lines = [json.loads(line) for line in _trace(run).read_text().splitlines()]
    _trace(run).write_text("\n".join(json.dumps({"hand": r["hand"]}) if r["hand"] == hand
                                      else json.dumps(r) for r in lines) + "\n")
    code, out, err = _explain(run, hand, capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "skipped" in err
