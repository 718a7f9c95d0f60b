"""Every YAML the project reads goes through one bounded loader: a document whose aliases
expand past a bound (the "billion laughs") or into themselves is refused before anything is
built, a key written twice is refused with both lines, and a few harmless aliases still load.
"""

from __future__ import annotations

import io
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from agent.heuristic.params import AgentParamsError, load_agent_params
from agent.preflop.params import PreflopParamsError, load_preflop_params
from simulator.arena.acpc_cli import main as acpc
from simulator.arena.config import load_config
from simulator.cli import main as holdem
from simulator.core.validation import ValidationInputError, yaml_data
from simulator.core.yaml_loader import MAX_NODES, expanded_size
from simulator.interop.acpc.gamedef import SHIPPED

LIMIT = SHIPPED / "holdem.limit.2p.reverse_blinds.game"
GAME = "game: {variant: limit, blinds: [1, 2], small_bet: 2}"


def laughs(levels: int, indent: str = "") -> list[str]:
    """``levels`` levels of nine aliases each of the level below: 9**levels strings."""
    lines = [f'{indent}l0: &l0 "lol"']
    lines += [f"{indent}l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]"
              for i in range(1, levels + 1)]
    return lines


def run_config(tmp_path: Path, params: list[str], key: str = "seats",
               extra: tuple[str, ...] = ()) -> Path:
    path = tmp_path / "c.yaml"
    path.write_text("\n".join([GAME, "hands: 10", "seed: 1", f"{key}:", "  - name: a",
                               "    bot: call", "    params:", *params,
                               "  - {name: b, bot: call}", *extra,
                               f"output: {{dir: {tmp_path / 'out'}, plots: false}}"]) + "\n")
    return path


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def test_a_billion_laughs_run_config_is_one_line_and_exit_2_quickly_in_bounded_memory(
        tmp_path: Path) -> None:
    # before the bound, this grew past 4 GB in a minute; under 1 GB of address space it
    # must be refused, in seconds (most of them Python's start)
    config = run_config(tmp_path, laughs(9, "      "))
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "simulator.cli", "run", str(config)],
                          capture_output=True, text=True, timeout=60,
                          preexec_fn=_limit_memory)
    assert time.monotonic() - start < 20
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1
    assert f"{config}: its aliases expand to more than {MAX_NODES} values" in done.stderr
    assert not (tmp_path / "out").exists()


LAUGHS = laughs(6, "      ")  # 531441 values: past the bound, cheap to build even unbounded


@pytest.mark.parametrize("key", ["seats", "bots", "bot"])
def test_run_league_and_exploit_configs_are_bounded(
        tmp_path: Path, capfd: pytest.CaptureFixture[str], key: str) -> None:
    command = {"seats": "run", "bots": "league", "bot": "exploit"}[key]
    if key == "bot":  # one bot, not a list
        path = tmp_path / "c.yaml"
        path.write_text("\n".join([GAME, "hands: 10", "seed: 1", "bot:", "  name: a",
                                   "  bot: call", "  params:",
                                   *laughs(6, "    ")]) + "\n")
    else:
        path = run_config(tmp_path, LAUGHS, key)
    assert holdem([command, str(path), "--quiet"]) == 2
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "aliases expand to more than" in err, err


def test_agent_preflop_and_acpc_parameter_files_are_bounded(tmp_path: Path) -> None:
    bad = tmp_path / "p.yaml"
    bad.write_text("\n".join(laughs(6)) + "\n")
    with pytest.raises(AgentParamsError, match="aliases expand to more than"):
        load_agent_params(bad)
    with pytest.raises(PreflopParamsError, match="aliases expand to more than"):
        load_preflop_params(bad)
    out, err = io.StringIO(), io.StringIO()
    assert acpc(["dealer", str(LIMIT), "--hands", "1", "--seed", "1", "--seat", "a=call",
                 "--seat", "b=call", "--params", f"a={bad}"], out, err) == 2
    assert "aliases expand to more than" in err.getvalue() and err.getvalue().count("\n") == 1


def test_an_alias_inside_the_node_it_names_is_refused() -> None:
    for text in ("a: &x [1, *x]\n", "a: &x {b: *x}\n"):
        with pytest.raises(ValidationInputError,
                           match="cfg: the node at line 1 holds an alias of itself"):
            yaml_data(text, "cfg")


def test_the_bound_counts_every_alias_expanded() -> None:
    # a: 1 + (1 + 3) ... counted by the nodes each alias stands for, each time it is named
    node = yaml.compose("a: &x [1, 2, 3]\nb: [*x, *x]\n")
    assert node is not None
    assert expanded_size(node) == 1 + 2 + 4 + (1 + 4 + 4)
    def doc(aliases: int) -> str:  # 4 + 1000 * (aliases + 1) nodes
        return "x: &x [" + ", ".join(["0"] * 999) + "]\ny: [" + ", ".join(["*x"] * aliases) + "]"

    assert len(yaml_data(doc(98), "cfg")["y"]) == 98  # 99,004 nodes: under the bound
    with pytest.raises(ValidationInputError, match="aliases expand"):
        yaml_data(doc(99), "cfg")  # 100,004


def test_a_config_with_a_few_harmless_aliases_and_a_merge_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("\n".join([
        "game: {variant: limit, blinds: &blinds [1, 2], small_bet: 2}",
        "hands: 10", "seed: 1",
        "seats:",
        "  - &base {name: a, bot: random, params: {fold: 0.2, call: 0.5, raise: 0.3}}",
        "  - {<<: *base, name: b}",
        f"output: {{dir: {tmp_path / 'out'}}}"]) + "\n")
    cfg = load_config(path)
    assert cfg.names == ("a", "b")
    assert cfg.seats[1].params == {"fold": 0.2, "call": 0.5, "raise": 0.3}
    assert cfg.game.blinds == [1, 2]


def test_a_key_written_twice_is_refused_with_both_lines(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("\n".join([GAME, "hands: 10", "seats:", "  - {name: a, bot: call}",
                               "  - {name: b, bot: call}", "seed: 1", "hands: 20"]) + "\n")
    assert holdem(["run", str(path), "--quiet"]) == 2
    err = capfd.readouterr().err
    assert err == f"holdem run: {path}: duplicate key 'hands' at lines 2 and 7\n"


def test_a_nested_duplicate_key_and_one_in_a_parameter_file_are_refused(
        tmp_path: Path) -> None:
    with pytest.raises(ValidationInputError, match="duplicate key 'fold' at lines 2 and 4"):
        yaml_data("seat:\n  fold: 0.1\n  call: 0.2\n  fold: 0.3\n", "cfg")
    with pytest.raises(ValidationInputError, match="duplicate key True at lines 1 and 2"):
        yaml_data("yes: 1\ntrue: 2\n", "cfg")  # the same key, as YAML reads it
    params = tmp_path / "agent.yaml"
    params.write_text("selector:\n  temperature: 0.2\n  temperature: 0.5\n")
    with pytest.raises(AgentParamsError, match="duplicate key 'temperature' at lines 2 and 3"):
        load_agent_params(params)


def test_a_key_beside_a_merge_overrides_it_and_is_not_a_duplicate() -> None:
    data = yaml_data("base: &b {x: 1, y: 2}\nmine:\n  <<: *b\n  y: 3\n", "cfg")
    assert data["mine"] == {"x": 1, "y": 3}
