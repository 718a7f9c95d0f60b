"""``holdem ehs``: output keys and values, and bad input refused with exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agent.commands.ehs import main
from agent.preflop.income_rates import income_rate, ir
from agent.strength.ehs import effective_hand_strength, hand_detail

KEYS = ["hs", "hs_n", "ahead", "tied", "behind", "ppot", "npot", "ehs", "ehs_optimistic", "hp",
        "lookahead"]


def run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    assert main(argv + ["--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return json.loads(out)


def test_json_on_the_flop_with_two_cards(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, ["AdQc", "3h4cJh", "--lookahead", "2", "--opponents", "5"])
    assert list(out) == KEYS
    assert (out["ahead"], out["tied"], out["behind"]) == (628, 9, 444)
    assert out["hs"] == pytest.approx(0.585106, abs=1e-6)
    assert out["hs_n"] == pytest.approx(0.068576, abs=1e-6)
    assert out["hp"] == [[449005, 3211, 169504], [0, 8370, 540], [91981, 1036, 346543]]
    assert (out["ppot"], out["npot"]) == pytest.approx((0.208324, 0.273693), abs=1e-6)
    e = effective_hand_strength("AdQc", "3h4cJh", opponents=5, lookahead=2)
    assert (out["ehs"], out["ehs_optimistic"]) == pytest.approx((e.ehs, e.ehs_optimistic),
                                                                abs=1e-6)
    assert out["lookahead"] == 2


def test_json_defaults_to_one_card(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, ["AdQc", "3h", "4c", "Jh"])
    assert out["lookahead"] == 1 and out["hs_n"] == out["hs"]
    assert (out["ppot"], out["npot"], out["ehs"], out["ehs_optimistic"]) == pytest.approx(
        (0.108312, 0.145402, 0.544969, 0.630044), abs=1e-6)


def test_json_on_the_river_has_no_hp(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, ["As8d", "9c8h2s5d5h"])
    assert "hp" not in out and out["ppot"] == 0 and out["npot"] == 0 and out["lookahead"] == 0
    assert out["ehs"] == out["hs"] == out["ehs_optimistic"]
    d = hand_detail("As8d", "9c8h2s5d5h")
    assert (out["ahead"], out["tied"], out["behind"]) == (d.ahead, d.tied, d.behind)


def test_weights_file_and_range(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "w.json"
    f.write_text(json.dumps({"KdKs": 2.0, "Ah9s": 1.0, "9s8s": 0.5}))
    out = run_json(capsys, ["AdQc", "3h4cJh", "--weights", str(f)])
    assert (out["ahead"], out["tied"], out["behind"]) == (1.5, 0, 2.0)
    assert out["hs"] == pytest.approx(1.5 / 3.5, abs=1e-6)
    out = run_json(capsys, ["AdQc", "3h4cJh", "--range", "KK, 33"])
    assert (out["ahead"], out["tied"], out["behind"]) == (0, 0, 9)  # 6 KK + 3 33
    out = run_json(capsys, ["AdQc", "3h4cJh", "--range", "KK", "--denominators", "total"])
    assert out["ppot"] == pytest.approx(
        effective_hand_strength("AdQc", "3h4cJh", "KK", denominators="total").ppot, abs=1e-6)


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["AdQc", "3h4cJh", "--lookahead", "2"]) == 0
    out = capsys.readouterr().out
    assert "628 / 9 / 444" in out and "0.511399" in out and "346543" in out


def test_preflop_prints_the_class_and_its_income_rates(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["QcAd"]) == 0
    out = capsys.readouterr().out
    rates = income_rate("AQo")
    assert "AQo" in out
    assert f"IR2 {rates.ir2:+d}" in out and f"IR7 {rates.ir7:+d}" in out
    got = run_json(capsys, ["7h2h"])
    assert got == {"class": "72s", "ir2": ir("72s", 2), "ir4": ir("72s", 4),
                   "ir7": ir("72s", 7)}
    assert run_json(capsys, ["AsAh"])["ir7"] == ir("AA", 7) > 2000
    # without a board a class name does too
    assert run_json(capsys, ["AKs"]) == {"class": "AKs", "ir2": ir("AKs", 2),
                                         "ir4": ir("AKs", 4), "ir7": ir("AKs", 7)}
    assert main(["72o"]) == 0 and "IR7 -498" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "message"), [
    (["AdQx", "3h4cJh"], "bad card 'Qx'"),
    (["Ad", "3h4cJh"], "exactly two cards"),
    (["AdQc", "3h"], "got 1"),
    (["AdQc", "3h4c"], "got 2"),
    (["AdQc", "3h4cJh5s9d2c"], "got 6"),
    (["AdQc", "Ad4cJh"], "clash with the board"),
    (["AdQc", "3h3h4c"], "repeated card"),
    (["AdQc", "3h4cJh5s", "--lookahead", "2"], "lookahead 2 on the turn"),
    (["AdQc", "3h4cJh", "--lookahead", "3"], "invalid choice"),
    (["AdQc", "3h4cJh", "--range", "AA:-1"], "bad weight"),
    (["AdQc", "3h4cJh", "--range", "AdAc, 3h3s"], "weighs 0"),
    (["AdQc", "3h4cJh", "--opponents", "0"], "--opponents"),
    (["AdQc", "3h4cJh", "--weights", "/nonexistent/w.json"], "cannot read"),
    (["AdQc", "--range", "AA"], "need a board"),
    (["AKs", "--range", "AA"], "need a board"),
    (["AKs", "3h4cJh"], "bad card"),  # a class is for the pre-flop only
    (["AdQc", "3h4cJh", "--range", "AA", "--weights", "w.json"], "not allowed"),
    ([], "required"),
])
def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], argv: list[str],
                                         message: str) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


@pytest.mark.parametrize(("content", "message"), [
    ('{"AsKd": -1}', "bad weight"), ('["AsKd"]', "JSON object"), ("{", "not valid JSON"),
    ('{"AsKd": 0}', "weighs 0"), ('{"AsXd": 1}', "bad"),
])
def test_bad_weights_file(capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str,
                          message: str) -> None:
    f = tmp_path / "w.json"
    f.write_text(content)
    assert main(["AdQc", "3h4cJh", "--weights", str(f)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err


def test_through_the_holdem_dispatcher() -> None:
    ok = subprocess.run([sys.executable, "-m", "simulator.cli", "ehs", "As8d", "9c8h2s",
                         "--json"], capture_output=True, text=True, check=False)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["ahead"] == 903
    bad = subprocess.run([sys.executable, "-m", "simulator.cli", "ehs", "As8d", "9c8h"],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and bad.stdout == "" and "board" in bad.stderr
