"""Every script in ``experiments/`` runs, in a tiny mode, so that one that no longer runs fails
here rather than on the day someone needs its figure.

The scripts are found by globbing (a file with a ``__main__`` guard is a script; the shelves'
libraries, ``benchlib.py`` and ``matchups.py``, are not), and each must have an entry in
``SMOKE``: its small arguments, what it prints and the files it writes. A new script without
one fails :func:`test_every_script_has_a_smoke_run`. Each run is a fresh process in a
temporary folder (its working directory too), with every output pointed there, and must leave
the repository as it found it: no committed table, plot or shipped data file rewritten.

The heavier ones are marked slow (``make test`` runs them, with ``--runslow``): those that
compile the equilibrium's self-recursive kernels, which numba cannot cache (``bench_cfr``,
``make_cfr_strategy``, ``cfr_exploitability``: 15-30 s of CPU each), the two builds that
canonicalise every board class before their tiny table (``make_cfr_tables``,
``make_preflop_equity``), and those that play many separate runs or start worker processes
run after run (``bench_exploit``, ``bench_tournament``, ``ablation``, ``paper_table``, ``sng_arms``,
``lbr_table``). The others take about 100 s of CPU together.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXPERIMENTS = ROOT / "experiments"
WATCHED = ("experiments", "agent", "simulator", "configs", "results")
"""Folders a smoke run must not write into (the committed tables and the shipped data)."""


@dataclass(frozen=True)
class Smoke:
    """A script's tiny run: its arguments (``{tmp}`` is the run's temporary folder), the
    runs of other scripts it reads (run first, in the same folder), patterns its output must
    match, the files (globs under ``{tmp}``) it must write, none of them empty, and the
    programs it needs (skipped without them; CI installs them)."""

    args: tuple[str, ...] = ()
    prints: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()
    before: tuple[tuple[str, ...], ...] = ()
    slow: bool = False
    needs: tuple[str, ...] = ()


STUDY_DIRS = ("--results", "{tmp}/results", "--runs", "{tmp}/runs", "--inline")
HEADS_UP = ("--deals", "20", "--block-size", "10", "--workers", "1", *STUDY_DIRS)
CHECKPOINTS = ("build/make_cfr_strategy.py", "--iterations", "2", "--boards", "1", "--workers",
               "1", "--out", "{tmp}/strategy.npz", "--checkpoints", "1", "2",
               "--checkpoint-dir", "{tmp}/checkpoints", "--record", "{tmp}/record.json")

SMOKE: dict[str, Smoke] = {
    # --- benchmarks -------------------------------------------------------------------------
    "bench/bench_acpc.py": Smoke(("--hands", "30", "--seconds", "0.2"),
                                 prints=(r"heads-up limit over loopback, check/call\s+\d+",)),
    "bench/bench_agent.py": Smoke(
        ("--hands", "12", "--rounds", "2", "--seconds", "0.2", "--profile", "--steps", "--cli",
         "12"),
        prints=(r"ratio ours/pokerkit\s+\d", r"holdem run, 12 hands", r"decisions: \d+; median",
                r"profile of a post-flop decision by steps", r"tottime")),
    "bench/bench_cfr.py": Smoke(("--hands", "40", "--spots", "2", "--repeats", "1",
                                 "--rivers", "1"),
                                prints=(r"act: \d+ decisions", r"solver: one board",
                                        r"best response: one river board"), slow=True),
    "bench/bench_serve.py": Smoke(("--smoke",),
                                  prints=(r"median \d+\.\d+ ms, p90", r"ratio = \d",
                                          r"report page of a 200-hand run"),
                                  needs=("chromium", "chromedriver")),
    "bench/bench_vexbot.py": Smoke(("--smoke",),
                                   prints=(r"vexbot act: \d+ decisions; median",
                                           r"full-range policy after the flop",
                                           r"ratio vexbot/cfr")),
    "bench/bench_engine.py": Smoke(("--seconds", "0.1"),
                                   prints=(r"6-max no-limit, all check/call\s+\d+",
                                           r"heads-up limit, all check/call\s+\d+")),
    "bench/bench_evaluator.py": Smoke(("--hands", "20000", "--treys-hands", "500",
                                       "--eval7-hands", "500"),
                                      prints=(r"ours/treys = ", r"ours/eval7 = ")),
    "bench/bench_exploit.py": Smoke(("--bots", "call", "--deals", "4", "--profile-deals", "2"),
                                    prints=(r"call, 1 worker\(s\): LBR", r"call, 2 worker\(s\)",
                                            r"call: where the time goes"), slow=True),
    "bench/bench_hand_evaluator.py": Smoke(("--repeats", "1",),
                                           prints=(r"two-card PPOT/NPOT / eval7",
                                                   r"one-card\+HS: range / uniform")),
    "bench/bench_icm.py": Smoke(("--smoke",), prints=(r"\s6\s+6\s.*\dx", r"ratio = pokerkit")),
    "bench/bench_long_block.py": Smoke(("--hands", "60", "--anchor", "30"),
                                       prints=(r"30 hands in one block", r"ratio \d")),
    "bench/bench_modeller.py": Smoke(("--repeats", "1", "--hands", "30", "--memory-hands",
                                      "2000"),
                                     prints=(r"one chain query, one opponent's store\s+\d",
                                             r"mean chain length")),
    "bench/bench_policy.py": Smoke(("--hands", "3",),
                                   prints=(r"heads-up limit: full-range policy",
                                           r"6-max no-limit: full-range policy")),
    # Its exit code says whether the goal was met (a busy machine may miss it); the last line
    # printed says the run went through.
    "bench/bench_preflop.py": Smoke(("--repeats", "1", "--spots", "20"),
                                    prints=(r"later decision \(plan kept\):\s+\d",)),
    "bench/bench_rivals.py": Smoke(("--hands", "10", "--repeats", "1"),
                                   prints=(r"equity pre-flop, 10 seats",
                                           r"exploiter decision \(heads-up limit\): \d")),
    "bench/bench_tournament.py": Smoke(("--deals", "60", "--block-size", "20"),
                                       prints=(r"ratio 2/1:", r"luck correction:"), slow=True),
    "bench/decision_fingerprint.py": Smoke(("{tmp}/fingerprint.jsonl", "--scale", "0.02"),
                                           prints=(r"\d+ trace records written",),
                                           writes=("fingerprint.jsonl",)),
    "bench/plot_memory.py": Smoke(("--hands", "600", "1200"),
                                  prints=(r"anchor \(import pyplot and numpy\)",
                                          r'"hands": 1200')),
    # --- the data the package ships: tiny versions, never over the shipped files -------------
    "build/calibrate_preflop_thresholds.py": Smoke(prints=(r"thresholds:", r"make4: \{base")),
    "build/make_cfr_strategy.py": Smoke(CHECKPOINTS[1:],
                                        prints=(r"2/2 iterations", r"strategy\.npz: "),
                                        writes=("strategy.npz", "checkpoints/strategy-1.npz",
                                                "record.json"), slow=True),
    "build/make_cfr_tables.py": Smoke(("--boards", "20", "--buckets", "5", "5", "5",
                                       "--workers", "1", "--out", "{tmp}/buckets.npz"),
                                      prints=(r"buckets\.npz: buckets",),
                                      writes=("buckets.npz",), slow=True),
    "build/make_equilibrium_reference.py": Smoke(("--hands", "20", "--out",
                                                  "{tmp}/reference.json"),
                                                 prints=(r"keys from 20 hands",),
                                                 writes=("reference.json",)),
    "build/make_vexbot_prior.py": Smoke(("--smoke", "--out", "{tmp}/prior.npz"),
                                        prints=(r"vexbot prior: 200 self-play hands",),
                                        writes=("prior.npz",)),
    "build/make_hand_ranks.py": Smoke(("--out", "{tmp}/hand_ranks.npz"),
                                      prints=(r"wrote .*hand_ranks\.npz",),
                                      writes=("hand_ranks.npz",)),
    "build/make_income_rates.py": Smoke(("--deals", "200", "--threads", "1", "--out", "{tmp}"),
                                        prints=(r"wrote .*income_rates\.csv",),
                                        writes=("income_rates.csv", "income_rates.md")),
    "build/make_preflop_equity.py": Smoke(("--boards", "50", "--out", "{tmp}/equity.npz"),
                                          prints=(r"wrote .*equity\.npz",),
                                          writes=("equity.npz",), slow=True),
    # --- studies ------------------------------------------------------------------------------
    "studies/sng_arms.py": Smoke(
        ("--play", "--tournaments", "12", *STUDY_DIRS),
        prints=(r"2 card sequences in both arms", r"on minus off, paired over the same cards"),
        writes=("results/sng_arms.md", "results/sng_arms_figures.json"), slow=True),
    "studies/vexbot_matches.py": Smoke(
        ("--play", "--deals", "20", "--block-size", "10", "--rivals", "call", "raise",
         *STUDY_DIRS),
        prints=(r"\| call \| 20 \(2\)", r"vexbot - exploiter, paired by block",
                r"\| raise \| [-+]\d"),
        writes=("results/vexbot_matches.md", "results/vexbot_learning.png")),
    "studies/aivat_variance.py": Smoke(("loki", "--deals", "12", "--blocks", "2", "--results",
                                        "{tmp}/results"),
                                       prints=(r"\| AIVAT \| [\d.]+ \|", r"R2"),
                                       writes=("results/aivat_variance_loki.md",
                                               "results/aivat_variance_loki.json")),
    "studies/ablation.py": Smoke(HEADS_UP, prints=(r"\| exploiter \|",),
                                 writes=("results/ablation.md", "results/ablation.json",
                                         "results/ablation.png"), slow=True),
    "studies/action_profile.py": Smoke(("heuristic", "call", "--deals", "10", "--out",
                                        "{tmp}/profile.md"), writes=("profile.md",)),
    "studies/agent_floor.py": Smoke((*HEADS_UP, "--sixmax-deals", "6", "--sixmax-block-size", "3"),
                                    prints=(r"6-max no-limit vs 5 baseline seats",),
                                    writes=("results/agent_floor.md",)),
    "studies/calibration.py": Smoke(("call", "--deals", "10", "--out", "{tmp}/calibration.md"),
                                    writes=("calibration.md",)),
    "studies/call_forecast.py": Smoke(("call", "--deals", "10", "--rollouts", "2", "--out",
                                       "{tmp}/forecast.md"), writes=("forecast.md",)),
    "studies/call_regret.py": Smoke(("heuristic", "--deals", "10", "--out", "{tmp}/regret.md"),
                                    writes=("regret.md",)),
    "studies/blind_exact.py": Smoke(("--bots", "fc", "--limit", "2", "--checkpoint",
                                     "{tmp}/blind.npz"),
                                    prints=(r"2/1755 flops summed",), writes=("blind.npz",)),
    "studies/decision_modules.py": Smoke(("--hands", "3"),
                                         prints=(r"agent\.heuristic\.postflop",
                                                 r"\d+ modules, \d+ entries, \d+ returns")),
    "studies/cfr_exploitability.py": Smoke(
        ("{tmp}/checkpoints", "--flops", "1", "--turns", "3", "--rivers", "1", "--only", "2",
         "--workers", "1", "--out",
         "{tmp}/cfr_exploitability"), before=(CHECKPOINTS,),
        writes=("cfr_exploitability.json", "cfr_exploitability.md", "cfr_exploitability.png"),
        slow=True),
    "studies/cfr_nl_tree.py": Smoke(("--smoke",),
                                    prints=(r"20 bb: 595 nodes",
                                            r"decision nodes: pre-flop 12, flop 36",
                                            r"information sets with buckets 169 10 10 10: "
                                            r"4,308")),
    "studies/cfr_panel.py": Smoke(("--rivals", "call", "--deals", "20", "--block", "10",
                                   "--workers", "1", "--out", "{tmp}"),
                                  prints=(r'"rival": "call"',),
                                  writes=("cfr_panel.json", "cfr_panel.md")),
    "studies/equilibrium_switch.py": Smoke(("call", "cfr", "--hands", "10", "--workers", "1"),
                                           prints=(r"call\s+seat 0: switched after hand",
                                                   r"cfr\s+seat 1: switched after hand")),
    "studies/flop_defence.py": Smoke(("--hands", "10",)),
    "studies/lbr_table.py": Smoke(("--bots", "call", "--games", "limit", "--deals", "4",
                                   "--tune-deals", "4", "--block-size", "2", "--workers", "1",
                                   "--work", "{tmp}/work", "--out", "{tmp}/lbr_table"),
                                  prints=(r"tune call limit preflop", r"wrote .*lbr_table\.md"),
                                  writes=("lbr_table.md", "lbr_table.json"), slow=True),
    "studies/league_intervals.py": Smoke(("--bots", "call,raise,random", "--hands", "20",
                                          "--block-size", "10", "--max-hands", "40",
                                          "--workers", "1", "--out", "{tmp}/league.md"),
                                         prints=(r"\| call \| raise \|",),
                                         writes=("league.md",)),
    "studies/learning_curves.py": Smoke(
        ("--bin", "5", *STUDY_DIRS),
        before=(("studies/paper_table.py", "--rivals", "exploiter", "maniac", *HEADS_UP),),
        prints=(r"\| exploiter \| 0-4 \|",),
        writes=("results/learning_curves.md", "results/learning_curves.png")),
    "studies/paper_table.py": Smoke(HEADS_UP, prints=(r"\| loki \|", r"\| random \|"),
                                    writes=("results/paper_table.md", "results/paper_table.png",
                                            "runs/paper_table/vs_cfr/summary.json"), slow=True),
    "studies/range_truth.py": Smoke(("call", "--deals", "10")),
    "studies/rivals_sanity.py": Smoke(("--deals", "10", "--block-size", "5", "--workers", "1",
                                       "--runs", "{tmp}/runs", "--out", "{tmp}", "--inline"),
                                      prints=(r"\| maniac \| random \|",),
                                      writes=("rivals_sanity.csv", "rivals_sanity.md")),
    "studies/sixmax_tables.py": Smoke(("--deals", "6", "--block-size", "3", "--workers", "1",
                                       *STUDY_DIRS),
                                      prints=(r"\| 6-max nolimit \| maniac \|",),
                                      writes=("results/sixmax_tables.md",
                                              "results/sixmax_tables.png")),
    "studies/tune_match.py": Smoke(("--paired", "{tmp}/a.json", "{tmp}/a.json"),
                                   before=(("studies/tune_match.py", "call", "--deals", "10",
                                            "--blocks", "2", "--workers", "1", "--json",
                                            "{tmp}/a.json"),),
                                   prints=(r"a\.json - .*a\.json: \+0\.000",)),
}


def _scripts() -> list[str]:
    return sorted(p.relative_to(EXPERIMENTS).as_posix() for p in EXPERIMENTS.glob("**/*.py")
                  if 'if __name__ == "__main__":' in p.read_text(encoding="utf-8"))


def _state() -> dict[str, tuple[int, int]]:
    """Size and modification time of every file in the watched folders (caches aside)."""
    out = {}
    for top in WATCHED:
        for path in (ROOT / top).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                stat = path.stat()
                out[path.relative_to(ROOT).as_posix()] = (stat.st_size, stat.st_mtime_ns)
    return out


def _run(script: str, args: tuple[str, ...], tmp: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(EXPERIMENTS / script),
               *(a.replace("{tmp}", str(tmp)) for a in args)]
    env = {**os.environ, "MPLBACKEND": "Agg"}
    return subprocess.run(command, cwd=tmp, capture_output=True, text=True, timeout=600,
                          env=env)


def test_every_script_has_a_smoke_run() -> None:
    scripts = _scripts()
    assert "bench/bench_agent.py" in scripts and "bench/benchlib.py" not in scripts
    missing = sorted(set(scripts) - set(SMOKE))
    assert not missing, f"give these scripts a smoke run in SMOKE: {missing}"
    gone = sorted(set(SMOKE) - set(scripts))
    assert not gone, f"SMOKE names scripts that are gone: {gone}"


@pytest.mark.parametrize("script", [
    pytest.param(s, marks=[pytest.mark.slow] if s in SMOKE and SMOKE[s].slow else [])
    for s in _scripts()])
def test_the_script_runs_in_its_smoke_mode(script: str, tmp_path: Path) -> None:
    smoke = SMOKE.get(script)
    assert smoke is not None, f"{script}: no smoke run in SMOKE"
    missing = [program for program in smoke.needs if shutil.which(program) is None]
    if missing:
        pytest.skip(f"{script} needs {', '.join(missing)}")
    before = _state()
    for first, *args in smoke.before:
        done = _run(first, tuple(args), tmp_path)
        assert done.returncode == 0, f"{first}:\n{done.stdout}\n{done.stderr}"
    done = _run(script, smoke.args, tmp_path)
    expected = (0, 1) if script == "bench/bench_preflop.py" else (0,)
    assert done.returncode in expected, f"{script}:\n{done.stdout}\n{done.stderr}"
    for pattern in smoke.prints:
        assert re.search(pattern, done.stdout), f"{script}: no {pattern!r} in\n{done.stdout}"
    for pattern in smoke.writes:
        found = [p for p in tmp_path.glob(pattern) if p.is_file() and p.stat().st_size]
        assert found, f"{script}: wrote no {pattern} under {tmp_path}"
    after = _state()
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    assert not changed, f"{script} wrote into the repository: {changed[:10]}"
