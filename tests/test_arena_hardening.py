"""The arena against a hostile user: each test is one way in.

Runs go through ``holdem run`` in this process (exit code, one line on stderr) with blocks in
worker processes, or through the API inline where only the bookkeeping is under test.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from simulator.arena import results as results_module
from simulator.arena import tournament as tournament_module
from simulator.arena.config import parse_config
from simulator.arena.results import ResultsError, RunStore
from simulator.arena.tournament import TournamentError, run_tournament
from simulator.cli import main as holdem
from simulator.core.errors import HoldemError
from simulator.interop.phh import loads_all

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent
FILES = ("run.json", "hands.csv", "blocks.jsonl", "summary.json", "hands.phhs")


def _data(out: Path, **extra: object) -> dict:
    data = {"game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
            "seats": [{"name": "r", "bot": "random"}, {"name": "c", "bot": "call"}],
            "hands": 60, "seed": 9, "block_size": 20,
            "output": {"dir": str(out), "plots": False}}
    data.update(extra)
    return data


def _write(path: Path, data: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data))
    return path


def _err_line(capfd: pytest.CaptureFixture[str]) -> str:
    err = capfd.readouterr().err.strip()
    assert err.count("\n") == 0, err
    return err


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x]


def _snapshot(out: Path) -> dict[str, bytes]:
    return {name: (out / name).read_bytes() for name in FILES if (out / name).exists()}


def _env() -> dict[str, str]:
    return {**os.environ, "CI": "1",
            "PYTHONPATH": os.pathsep.join([str(TESTS), str(ROOT)])}


def _wait_for_blocks(path: Path, count: int, proc: subprocess.Popen, seconds: float = 90
                     ) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and path.read_text().count("\n") >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"no {count} finished blocks in {path} (exit {proc.poll()})")


def _descendants(pid: int) -> set[int]:
    """Every living process below ``pid`` (read from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    out, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


# --- finding 1: one run per output dir -------------------------------------------------


@pytest.mark.skipif(not Path("/proc").exists(), reason="reads /proc")
def test_a_second_run_is_refused_naming_the_holder_and_a_killed_run_leaves_no_stale_lock(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    config = _write(tmp_path / "c.yaml", _data(out, hands=3000, block_size=50))
    proc = subprocess.Popen([sys.executable, "-m", "simulator.cli", "run", str(config)],
                            cwd=ROOT, env=_env(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        _wait_for_blocks(out / "blocks.jsonl", 1, proc)
        assert holdem(["run", str(config), "--force", "--quiet"]) == 2
        assert f"is in use by another run (pid {proc.pid})" in _err_line(capfd)
        assert holdem(["run", str(config), "--resume", "--quiet"]) == 2
        assert "in use by another run" in _err_line(capfd)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert holdem(["run", str(config), "--resume", "--quiet"]) == 0  # no stale lock
    summary = json.loads((out / "summary.json").read_text())
    assert summary["deals"] == 3000 and summary["blocks"] == 60


# --- finding 2: resume checks everything before it changes anything ----------------------


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    out = tmp_path_factory.mktemp("finished") / "out"
    data = _data(out, duplicate=True, output={"dir": str(out), "plots": False,
                                              "hand_histories": True})
    run_tournament(parse_config(data), inline=True)
    return data, out


def _copy_run(finished_run: tuple[dict, Path], tmp_path: Path) -> tuple[dict, Path]:
    data, source = finished_run
    out = tmp_path / "out"
    out.mkdir()
    for name in FILES:
        (out / name).write_bytes((source / name).read_bytes())
    return {**data, "output": {**data["output"], "dir": str(out)}}, out


def _drop_line(path: Path, index: int) -> None:
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:index] + lines[index + 1:]))


@pytest.mark.parametrize("damage, message", [
    (lambda out: (out / "blocks.jsonl").unlink(), "blocks.jsonl is missing"),
    (lambda out: (out / "hands.csv").unlink(), "hands.csv is missing"),
    (lambda out: (out / "blocks.jsonl").open("a").write('{"block": "x"}\n'),
     "blocks.jsonl line 4: block: expected a block number of this run, got 'x'"),
    (lambda out: (out / "blocks.jsonl").open("a").write(
        (out / "blocks.jsonl").read_text().splitlines(keepends=True)[1]),
     "blocks.jsonl line 4: block 1 is listed twice"),
    (lambda out: (out / "blocks.jsonl").write_text(
        (out / "blocks.jsonl").read_text().replace('"net":', '"net":0.5,"x":', 1)),
     "blocks.jsonl line 1: players.r: expected hands, net, luck and positions"),
    (lambda out: (out / "blocks.jsonl").write_text("not json\n" +
                                                   (out / "blocks.jsonl").read_text()),
     "blocks.jsonl line 1: not a JSON object"),
    (lambda out: _drop_line(out / "hands.csv", 5), "hands.csv holds 39 rows of block 0, "
                                                   "blocks.jsonl says 40"),
    (lambda out: (out / "hands.phhs").write_text("[1]\n"), "hands.phhs holds 4 bytes"),
    (lambda out: (out / "run.json").write_text("{"), "run.json unreadable"),
])
def test_resume_refuses_a_store_that_does_not_add_up_and_changes_nothing(
        finished_run: tuple[dict, Path], tmp_path: Path, damage: object, message: str) -> None:
    data, out = _copy_run(finished_run, tmp_path)
    damage(out)  # type: ignore[operator]
    before = _snapshot(out)
    with pytest.raises(ResultsError) as info:
        run_tournament(parse_config(data), resume=True, inline=True)
    assert message in str(info.value) and "force=True starts over" in str(info.value)
    assert _snapshot(out) == before


def test_a_refused_resume_is_exit_2_with_one_line(finished_run: tuple[dict, Path],
                                                  tmp_path: Path,
                                                  capfd: pytest.CaptureFixture[str]) -> None:
    data, out = _copy_run(finished_run, tmp_path)
    (out / "blocks.jsonl").unlink()
    before = _snapshot(out)
    assert holdem(["run", str(_write(tmp_path / "c.yaml", data)), "--resume"]) == 2
    assert "blocks.jsonl is missing" in _err_line(capfd)
    assert _snapshot(out) == before


def test_resume_after_a_torn_line_counts_every_block_once(finished_run: tuple[dict, Path],
                                                          tmp_path: Path) -> None:
    data, out = _copy_run(finished_run, tmp_path)
    whole = _snapshot(out)
    _drop_line(out / "blocks.jsonl", 2)  # block 2 unfinished: its rows and PHH stay behind
    with open(out / "blocks.jsonl", "a") as f:
        f.write('{"block": 2, "dea')
    (out / "summary.json").unlink()
    summary = run_tournament(parse_config(data), resume=True, inline=True)
    assert summary.blocks == 3 and summary.deals == 60
    assert _snapshot(out) == whole


# --- finding 3: a bot can end its block, never the run --------------------------------------


def _hostile(name: str, bot: str, **params: object) -> dict:
    return {"name": name, "bot": f"hostile_bots:{bot}", "params": params}


def test_dead_and_hung_workers_fail_their_blocks_alone_under_fold(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    data = _data(out, hands=100, workers=2, on_bot_error="fold", bot_timeout=0.3, seats=[
        _hostile("exiter", "ExitProcessBot", block=1, hand=3),
        _hostile("swallower", "SwallowBot", block=2, hand=4),
        _hostile("sleeper", "ObserveSleepBot", block=3, hand=5),
        {"name": "c", "bot": "call"}])
    start = time.monotonic()
    assert holdem(["run", str(_write(tmp_path / "c.yaml", data)), "--quiet"]) == 1
    assert time.monotonic() - start < 60
    err = _err_line(capfd)
    assert "3 block(s) failed" in err and "--resume plays the failed blocks again" in err
    assert ("block 1, permutation 0, hand 3: bot 'exiter' (seat 0): act(): the worker died "
           "(exit code 7)" in err)
    assert ("block 2, permutation 0, hand 4: bot 'swallower' (seat 1): act(): gave no answer "
           "within bot_timeout 0.3s" in err)
    assert ("block 3, permutation 0, hand 5: bot 'sleeper' (seat 2): observe(): gave no "
           "answer" in err)
    assert [b["block"] for b in _lines(out / "blocks.jsonl")] == [0, 4]
    failed = sorted(_lines(out / "failures.jsonl"), key=lambda f: f["block"])
    assert [(f["block"], f["name"], f["hand"]) for f in failed] == [
        (1, "exiter", 3), (2, "swallower", 4), (3, "sleeper", 5)]
    assert not (out / "summary.json").exists()


def test_a_dead_worker_under_stop_ends_the_run_and_keeps_the_finished_blocks(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    data = _data(out, seats=[_hostile("exiter", "ExitProcessBot", block=1, hand=3),
                             {"name": "c", "bot": "call"}])
    assert holdem(["run", str(_write(tmp_path / "c.yaml", data)), "--quiet"]) == 1
    err = _err_line(capfd)
    assert err.startswith("holdem run: bot failure in block 1, permutation 0, hand 3: bot "
                          "'exiter' (seat 0): act(): the worker died (exit code 7)")
    assert [b["block"] for b in _lines(out / "blocks.jsonl")] == [0]


def test_faults_in_every_bot_call_fall_under_on_bot_error_and_prints_go_to_the_log(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    data = _data(out, on_bot_error="fold", hands=60, seats=[
        _hostile("quitter", "SysExitBot", block=1, hand=2),
        _hostile("watcher", "ObserveRaisesBot", block=0, hand=1),
        _hostile("ctrlc", "KeyboardBot", block=2, hand=3),
        _hostile("fragile", "FragileBot"),
        _hostile("chatty", "ChattyBot")])
    assert holdem(["run", str(_write(tmp_path / "c.yaml", data)), "--quiet"]) == 0
    assert capfd.readouterr() == ("", "")  # --quiet, and the bots' prints went to the log
    log = (out / "bots.log").read_text()
    assert "chatty: built" in log and "chatty: hand 7" in log and "chatty: to stderr" in log
    faults = [f for b in _lines(out / "blocks.jsonl") for f in b["faults"]]
    by_name = {name: [f["message"] for f in faults if f["name"] == name]
               for name in ("quitter", "watcher", "ctrlc", "fragile", "chatty")}
    for name, block, hand, text in (("quitter", 1, 2, "act(): raised SystemExit: 3; legal:"),
                                    ("ctrlc", 2, 3, "act(): raised KeyboardInterrupt; legal:")):
        mine = [f for f in faults if f["name"] == name]
        assert mine and all((f["block"], f["hand"]) == (block, hand) for f in mine)
        assert all(f["message"].startswith(text) for f in mine)
    assert by_name["watcher"] == ["observe(): raised ValueError: cannot watch this"] * 2
    assert by_name["fragile"] and all(m == "constructor: raised RuntimeError: odd seed"
                                      for m in by_name["fragile"])
    assert by_name["chatty"] == []
    summary = json.loads((out / "summary.json").read_text())
    assert summary["players"]["fragile"]["faults"] == len(by_name["fragile"])
    assert summary["faults"] == len(faults)


def test_system_exit_under_stop_is_the_bots_failure(tmp_path: Path) -> None:
    data = _data(tmp_path / "out", seats=[_hostile("quitter", "SysExitBot", block=1, hand=2),
                                          {"name": "c", "bot": "call"}])
    with pytest.raises(TournamentError, match=r"block 1.*bot 'quitter'.*SystemExit: 3"):
        run_tournament(parse_config(data), inline=True)


# --- finding 4: the engine never reads back what it gave a bot -----------------------------


def test_forced_open_records_change_nothing_and_show_up_as_faults(tmp_path: Path) -> None:
    out = tmp_path / "out"
    data = _data(out, game={"variant": "nolimit", "blinds": [1, 2], "stack": 200},
                 on_bot_error="fold", hands=40,
                 seats=[_hostile("legal", "LegalAttackBot"), _hostile("stack", "StackAttackBot"),
                        {"name": "c", "bot": "call"}],
                 output={"dir": str(out), "plots": False, "hand_histories": True})
    summary = run_tournament(parse_config(data), inline=True)
    stored = json.loads((out / "summary.json").read_text())
    assert stored["players"]["legal"]["faults"] > 0 and stored["players"]["stack"]["faults"] > 0
    faults = [f["message"] for b in _lines(out / "blocks.jsonl") for f in b["faults"]]
    assert any("illegal action 'raise to 5000'" in m for m in faults)
    hands = loads_all((out / "hands.phhs").read_text())
    assert len(hands) == 40 and all(h.starting_stacks == [200, 200, 200] for h in hands)
    assert all(s >= 0 for h in hands for s in h.finishing_stacks)
    assert summary.players["c"]["hands"] == 40


# --- findings 5 and 6: no bound on hands; SIGTERM ---------------------------------------------


@pytest.mark.skipif(not Path("/proc").exists(), reason="reads /proc")
def test_a_billion_deals_start_at_once_and_sigterm_ends_every_worker(tmp_path: Path) -> None:
    out = tmp_path / "out"
    config = _write(tmp_path / "c.yaml", _data(out, hands=10**9, block_size=1, workers=2))
    proc = subprocess.Popen([sys.executable, "-m", "simulator.cli", "run", str(config)],
                            cwd=ROOT, env=_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        _wait_for_blocks(out / "blocks.jsonl", 3, proc)  # blocks are made lazily
        below = _descendants(proc.pid)
        assert len(below) >= 2  # the two workers (and the resource tracker)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 1
    assert err.strip().endswith("--resume continues the run") and "terminated (SIGTERM)" in err
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(p) for p in below):
        time.sleep(0.1)
    assert not any(_alive(p) for p in below), "orphaned workers"


def test_more_than_a_billion_deals_are_refused(tmp_path: Path,
                                               capfd: pytest.CaptureFixture[str]) -> None:
    config = _write(tmp_path / "c.yaml", _data(tmp_path / "out", hands=10**20))
    assert holdem(["run", str(config)]) == 2
    assert "hands: expected less than or equal to 1000000000" in _err_line(capfd)
    assert not (tmp_path / "out").exists()


# --- finding 7: stale and planted files --------------------------------------------------------


def test_a_fresh_run_starts_its_files_anew(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "hands.phhs").write_text('[1]\nvariant = "NT"\n')
    (out / "bots.log").write_text("old lines\n")
    data = _data(out, output={"dir": str(out), "plots": False, "hand_histories": True})
    run_tournament(parse_config(data), inline=True)
    assert len(loads_all((out / "hands.phhs").read_text())) == 60


@pytest.mark.parametrize("name", ["hands.phhs", "run.json.tmp", "summary.json", "bots",
                                  "hands.csv"])
def test_planted_symlinks_are_refused_and_never_written_through(
        tmp_path: Path, capfd: pytest.CaptureFixture[str], name: str) -> None:
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    (out / name).symlink_to(victim)
    data = _data(out, output={"dir": str(out), "plots": False, "hand_histories": True})
    assert holdem(["run", str(_write(tmp_path / "c.yaml", data))]) == 2
    assert f"{str(out / name)!r} is a symlink" in _err_line(capfd)
    assert victim.read_text() == "precious\n"


# --- finding 8: output-dir problems are found before anything is deleted ----------------------


def test_output_dir_problems_are_one_line_before_any_work(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere")
    for out, message in [(afile / "sub", "is under"), (afile, "is not a directory"),
                         (dangling, "is a dangling symlink")]:
        config = _write(tmp_path / "c.yaml", _data(out))
        assert holdem(["run", str(config), "--force"]) == 2
        assert message in _err_line(capfd)
    assert afile.read_text() == "x" and not (tmp_path / "nowhere").exists()


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root writes into read-only dirs")
def test_a_read_only_dir_is_one_line(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    out.mkdir()
    out.chmod(0o555)
    try:
        assert holdem(["run", str(_write(tmp_path / "c.yaml", _data(out)))]) == 2
        assert "cannot write in it" in _err_line(capfd)
    finally:
        out.chmod(0o755)


def test_a_missing_backend_or_bad_config_never_lets_force_delete_results(
        finished_run: tuple[dict, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capfd: pytest.CaptureFixture[str]) -> None:
    data, out = _copy_run(finished_run, tmp_path)
    before = _snapshot(out)
    real = tournament_module.importlib.util.find_spec
    monkeypatch.setattr(tournament_module.importlib.util, "find_spec",
                        lambda name, *a: None if name == "ray" else real(name, *a))
    assert holdem(["run", str(_write(tmp_path / "c.yaml", {**data, "backend": "ray"})),
                   "--force"]) == 2
    assert "backend: ray needs Ray installed" in _err_line(capfd)
    assert holdem(["run", str(_write(tmp_path / "c.yaml", {**data, "hands": 0})),
                   "--force"]) == 2
    assert "hands: expected greater than 0" in _err_line(capfd)
    assert _snapshot(out) == before


def test_a_full_disk_mid_run_is_exit_1_and_the_run_resumes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capfd: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    data = _data(out, hands=100)
    whole = run_tournament(parse_config(_data(tmp_path / "whole", hands=100)), inline=True)
    real_append = results_module.append
    calls = []

    def full(path: Path, text: str, **kwargs: object) -> int:
        calls.append(path.name)
        if calls.count("hands.csv") == 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real_append(path, text, **kwargs)

    monkeypatch.setattr(results_module, "append", full)
    config = _write(tmp_path / "c.yaml", data)
    assert holdem(["run", str(config), "--quiet"]) == 1
    err = _err_line(capfd)
    assert "No space left on device" in err and "--resume continues the run" in err
    assert [b["block"] for b in _lines(out / "blocks.jsonl")] == [0, 1]
    monkeypatch.setattr(results_module, "append", real_append)
    assert holdem(["run", str(config), "--resume", "--quiet"]) == 0
    assert json.loads((out / "summary.json").read_text()) == whole.data


# --- finding 9: validation never calls what is not a bot --------------------------------------


def test_a_config_cannot_run_a_shell_command(tmp_path: Path,
                                             capfd: pytest.CaptureFixture[str]) -> None:
    marker = tmp_path / "pwned"
    data = _data(tmp_path / "out", seats=[
        {"name": "x", "bot": "os:system", "params": {"command": f"touch {marker}"}},
        {"name": "c", "bot": "call"}])
    assert holdem(["run", str(_write(tmp_path / "c.yaml", data))]) == 2
    assert "'system' is not a bot class" in _err_line(capfd)
    assert not marker.exists()


# --- finding 10: bad files are one line ----------------------------------------------------


def test_bad_files_are_one_line_never_a_traceback(tmp_path: Path,
                                                  capfd: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "latin1.yaml"
    config.write_bytes("seed: 1 # caf\xe9\n".encode("latin-1"))
    assert holdem(["run", str(config)]) == 2
    assert "not UTF-8 text (byte 0xe9" in _err_line(capfd)
    nested = tmp_path / "nested.phh"
    nested.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    assert holdem(["replay", str(nested)]) == 2
    assert "nested too deeply" in _err_line(capfd)
    weights = tmp_path / "w.json"
    weights.write_text(json.dumps({"KcKd": 1e308, "QcQd": 1e308, "2c2d": 1e308}))
    assert holdem(["ehs", "AdQc", "3h4cJh", "--weights", str(weights), "--json"]) == 2
    captured = capfd.readouterr()
    assert captured.out == "" and "too large" in captured.err and captured.err.count("\n") == 1


# --- finding 11: rough edges -----------------------------------------------------------------


@pytest.mark.parametrize("argv, edit, message", [
    (["--workers", "100000"], {}, "--workers: expected less than or equal to 256"),
    (["--output", ""], {}, "--output: expected a directory path, got an empty string"),
    ([], {"game": {"variant": "nolimit", "blinds": [50, 100], "stack": 100}},
     "game.stack: expected more chips than the forced bets"),
    ([], {"game": {"variant": "nolimit", "blinds": [1, 2], "ante": 200, "stack": 200}},
     "game.stack: expected more chips than the forced bets (ante 200 + largest blind 2"),
])
def test_rough_edges_are_refused(tmp_path: Path, capfd: pytest.CaptureFixture[str],
                                 argv: list[str], edit: dict, message: str) -> None:
    config = _write(tmp_path / "c.yaml", _data(tmp_path / "out", **edit))
    assert holdem(["run", str(config), *argv]) == 2
    assert message in _err_line(capfd)
    assert not (tmp_path / "out").exists()


def test_never_more_workers_than_blocks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    started: list[int] = []

    class Enough(Exception):
        pass

    def counted(config: object, workers: int, **kwargs: object) -> None:
        started.append(workers)
        raise Enough  # counted: no need to start them

    monkeypatch.setattr(tournament_module, "WorkerPool", counted)
    with pytest.raises(Enough):
        run_tournament(parse_config(_data(tmp_path / "out", hands=40, workers=8)))
    assert started == [2]


def test_home_in_the_output_dir_is_expanded(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    cfg = parse_config(_data(Path("~/results")))
    assert cfg.output.dir == str(tmp_path / "results")


def test_blocks_that_end_early_are_reported(tmp_path: Path) -> None:
    data = _data(tmp_path / "out", hands=400, block_size=200,
                 game={"variant": "nolimit", "blinds": [1, 2], "stack": 40,
                       "reset_stacks": False},
                 seats=[{"name": "c", "bot": "call"}, {"name": "x", "bot": "raise"}])
    said: list[str] = []
    summary = run_tournament(parse_config(data), inline=True, echo=said.append)
    assert summary.data["early_end_blocks"] == [0, 1]
    assert (json.loads((tmp_path / "out" / "summary.json").read_text())["early_end_blocks"]
        == [0, 1])
    assert said[-1] == (f"note: 2 of 2 blocks ended early, when one player was left (stacks "
                        f"carry over): {summary.deals} deals played of 400")


def test_files_are_in_block_order_for_any_worker_count_and_bots_get_their_directory(
        tmp_path: Path) -> None:
    """Block 0 starts slowly, so with two workers block 1 finishes first."""
    outputs = {}
    for label, workers, inline in (("inline", 1, True), ("two", 2, False)):
        out = tmp_path / label
        data = _data(out, hands=60, duplicate=True, workers=workers,
                     seats=[_hostile("diary", "DiaryBot", slow=0 if inline else 1.5),
                            {"name": "c", "bot": "call"}],
                     output={"dir": str(out), "plots": False, "hand_histories": True})
        run_tournament(parse_config(data), inline=inline)
        outputs[label] = _snapshot(out)
        written = sorted(p.name for p in (out / "bots" / "diary").iterdir())
        assert written == [f"b{b}p{p}.txt" for b in range(3) for p in range(2)]
        assert (out / "bots" / "diary" / "b1p1.txt").read_text() == "diary in seat 1\n"
    for name in ("hands.csv", "blocks.jsonl", "hands.phhs"):  # run.json names the params
        assert outputs["inline"][name] == outputs["two"][name]
    blocks = [int(line.split(",", 1)[0]) for line in
              outputs["two"]["hands.csv"].decode().splitlines()[1:]]
    assert blocks == sorted(blocks)


def test_a_run_with_a_store_that_is_closed_releases_its_lock(tmp_path: Path) -> None:
    meta = {"result_config": {"x": 1}}
    with RunStore.create(tmp_path, meta, ("a", "b"), resume=False, force=False):
        with pytest.raises(HoldemError, match="in use by another run"):
            RunStore.create(tmp_path, meta, ("a", "b"), resume=True, force=False)
    RunStore.create(tmp_path, meta, ("a", "b"), resume=True, force=False).close()


@pytest.mark.slow
def test_ray_tasks_fail_their_blocks_alone_under_fold(
        tmp_path: Path, capfd: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same guards under Ray as far as Ray allows: the failure cannot name the bot."""
    pytest.importorskip("ray")
    out = tmp_path / "out"
    data = _data(out, hands=80, workers=2, backend="ray", on_bot_error="fold", bot_timeout=0.3,
                 seats=[_hostile("exiter", "ExitProcessBot", block=1, hand=3),
                        _hostile("swallower", "SwallowBot", block=2, hand=4),
                        {"name": "c", "bot": "call"}])
    monkeypatch.setenv("PYTHONPATH", _env()["PYTHONPATH"])  # Ray's workers import our bots
    assert holdem(["run", str(_write(tmp_path / "c.yaml", data)), "--quiet"]) == 1
    err = _err_line(capfd)
    assert "2 block(s) failed: block 1: the Ray worker died" in err and "block 2:" in err
    assert [b["block"] for b in _lines(out / "blocks.jsonl")] == [0, 3]
    assert "A worker died" in (out / "bots.log").read_text()  # Ray's own report, not ours


@pytest.mark.parametrize(("bot", "timeout", "message"), [
    ("ExitInConstructorBot", None, "constructor: ended the process (exit code 9)"),
    ("HangInConstructorBot", 0.5, "constructor: gave no answer within bot_timeout 0.5s")])
def test_a_constructor_that_ends_or_hangs_the_process_is_that_seats_error(
        tmp_path: Path, capfd: pytest.CaptureFixture[str], bot: str, timeout: float | None,
        message: str) -> None:
    out = tmp_path / "out"
    data = _data(out, bot_timeout=timeout, seats=[_hostile("builder", bot),
                                                  {"name": "c", "bot": "call"}])
    start = time.monotonic()
    assert holdem(["run", str(_write(tmp_path / "c.yaml", data)), "--quiet"]) == 2
    assert time.monotonic() - start < 30
    err = _err_line(capfd)
    assert "(builder)" in err and message in err
    assert not (out / "blocks.jsonl").exists()


# --- a bot's first decision that compiles its kernels is not a hung bot ----------------------


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bot_is_prepared_off_the_clock_in_every_process(tmp_path: Path,
                                                          workers: int) -> None:
    # unprepared, its first act takes 1 s against a bot_timeout of 0.5 s
    out = tmp_path / "out"
    data = _data(out, hands=40, workers=workers, on_bot_error="stop", bot_timeout=0.5,
                 seats=[_hostile("slow", "CompilesOnFirstActBot", seconds=1.0),
                        {"name": "c", "bot": "call"}])
    summary = run_tournament(parse_config(data), progress=False)
    assert summary.blocks == 2 and summary.record.faults == 0


def test_every_seat_is_checked_before_any_is_prepared(tmp_path: Path) -> None:
    data = _data(tmp_path / "out", seats=[_hostile("early", "PrepareRaisesBot"),
                                          {"name": "typo", "bot": "no_such_bot"}])
    with pytest.raises(HoldemError, match=r"seats\[1\] \(typo\).*unknown bot 'no_such_bot'"):
        run_tournament(parse_config(data), progress=False)
