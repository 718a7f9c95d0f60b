"""Opponent-model files against crafted input: read within bounds and checked before they
are trusted (the header whole, every array's shape before any is read, the counts for
consistency), refused for another game, written compactly and only when they changed, and
checked before a run or an ACPC connection starts. A seeded fuzz test of the reader runs
with the suite."""

from __future__ import annotations

import io
import json
import os
import random
import threading
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from modeller_support import ModelBot

from agent.heuristic.bot import HeuristicAgent
from agent.modeller import ModelFileError, OpponentModeller, storage
from agent.modeller.storage import model_name
from simulator import BotContext, GameConfig
from simulator.arena.acpc_cli import main as acpc
from simulator.arena.config import parse_config
from simulator.arena.tournament import run_tournament
from simulator.cli import main as holdem
from simulator.core.archive import read_archive, write_archive
from simulator.interop.acpc.connection import listen
from simulator.interop.acpc.gamedef import SHIPPED
from simulator.play.match import play_match

NOLIMIT = GameConfig(variant="nolimit", blinds=(1, 2), stack=200)
LIMIT = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)
ACPC_LIMIT = SHIPPED / "holdem.limit.2p.reverse_blinds.game"


def _played(game: GameConfig = NOLIMIT, seats: int = 3, hands: int = 30) -> OpponentModeller:
    bots = [ModelBot(seed=i) for i in range(seats)]
    list(play_match(game, bots, hands=hands, seed=4, names=[f"p{i}" for i in range(seats)]))
    return bots[0].model


@pytest.fixture(scope="module")
def model_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("models") / "good.model"
    _played().save(path)
    return path


def _contents(path: Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    archive = read_archive(path, storage.FORMAT, (storage.VERSION,))
    fields = {k: v for k, v in archive.header.items()
              if k not in ("format", "version", "checksum")}
    return fields, archive.arrays


def _crafted(model_file: Path, tmp_path: Path,
             change: Callable[[dict[str, Any], dict[str, np.ndarray]], None]) -> Path:
    """A copy with its header or arrays changed and a checksum that matches: only the
    reader's own checks can refuse it."""
    fields, arrays = _contents(model_file)
    change(fields, arrays)
    path = tmp_path / "crafted.model"
    write_archive(path, storage.FORMAT, storage.VERSION, fields, arrays)
    return path


def _load(path: Path, **kw: Any) -> OpponentModeller:
    return OpponentModeller.load(path, **kw)


# --- bounded reading ------------------------------------------------------------------------


def _npy_header(shape: tuple[int, ...], dtype: str = "<f8") -> bytes:
    out = io.BytesIO()
    np.lib.format.write_array_header_1_0(out, {"descr": dtype, "fortran_order": False,
                                               "shape": shape})
    return out.getvalue()


def test_a_huge_declared_array_is_refused_before_it_is_read(model_file: Path,
                                                            tmp_path: Path) -> None:
    path = tmp_path / "huge.model"
    with zipfile.ZipFile(model_file) as zin, zipfile.ZipFile(path, "w") as zout:
        for item in zin.infolist():
            data = zin.read(item)
            if item.filename == "generic.floats.npy":  # claims 10^11 floats, holds 8 bytes
                data = _npy_header((10**11,)) + b"\0" * 8
            zout.writestr(item.filename, data, zipfile.ZIP_DEFLATED)
    with pytest.raises(ModelFileError, match="huge.model: array 'generic.floats' declares"):
        _load(path)


def test_a_compressed_array_far_bigger_than_the_file_is_refused(model_file: Path,
                                                               tmp_path: Path) -> None:
    """67 MB of zeros compress to a few hundred kilobytes; as a store of 1.2 million nodes
    it is within one array's bound, but it must match its store's other arrays, so the
    reader refuses it before inflating a byte of it."""
    path = tmp_path / "bomb.model"
    nodes = 1_200_000
    with (zipfile.ZipFile(model_file) as zin,
            zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout):
        for item in zin.infolist():
            if item.filename == "generic.floats.npy":
                with zout.open("generic.floats.npy", "w", force_zip64=True) as f:
                    f.write(_npy_header((nodes, 7)))
                    zero = bytes(1 << 20)
                    for _ in range(nodes * 7 * 8 >> 20):
                        f.write(zero)
                    f.write(bytes(nodes * 7 * 8 % (1 << 20)))
            else:
                zout.writestr(item, zin.read(item))
    assert path.stat().st_size < 1 << 20
    with pytest.raises(ModelFileError, match="generic.floats: expected float64"):
        _load(path)


def test_a_fifo_or_a_directory_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.model"
    os.mkfifo(fifo)
    outcome: list[BaseException | None] = []

    def load() -> None:
        try:
            _load(fifo)
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - what it raised is the test
            outcome.append(exc)

    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    thread.join(10)
    assert outcome and isinstance(outcome[0], ModelFileError)
    assert "not a regular file" in str(outcome[0])
    with pytest.raises(ModelFileError, match="not a regular file"):
        _load(tmp_path)


# --- the whole header, and consistent counts -------------------------------------------------


def _set(key: str, value: Any) -> Callable[[dict[str, Any], dict[str, np.ndarray]], None]:
    def change(fields: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        fields[key] = value
    return change


def _array(name: str, value: Any) -> Callable[[dict[str, Any], dict[str, np.ndarray]], None]:
    def change(fields: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        arrays[name] = value(arrays[name]) if callable(value) else np.asarray(value)
    return change


def _hands(value: int) -> Callable[[dict[str, Any], dict[str, np.ndarray]], None]:
    return _array("generic.hands", np.array([value], dtype=np.int64))


def _counts_without_hands(fields: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
    arrays["generic.hands"] = np.array([0], dtype=np.int64)


def _shown_over_count(fields: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
    ints = arrays["generic.ints"].copy()
    ints[3:, 7] = ints[3:, 4] * 5 + 1  # 5 shown a showdown at a 3-seat table, and more
    arrays["generic.ints"] = ints


@pytest.mark.parametrize("change, problem", [
    (_set("size_edges", 5), "size_edges"),
    (_set("size_edges", None), "size_edges"),
    (_set("size_edges", ["abc"]), "size_edges"),
    (_set("size_edges", [float("nan")]), "size_edges"),
    (_set("stores", 5), "stores"),
    (_set("frequencies", [[1]]), "frequencies"),
    (_set("game", {"variant": "limit"}), "game"),
    (_set("game", None), "game"),
    (_set("extra", 1), "unknown"),
    (_array("generic.hands", np.array(["x"])), "generic.hands"),
    (_array("generic.hands", np.array([np.nan])), "generic.hands"),
    (_array("generic.ints", np.array(7, dtype=np.int32)), "generic.ints"),
    (_array("generic.ints", lambda a: a[:, :5].copy()), "generic.ints"),
    (_hands(2**63 - 1), "more than"),
    (_counts_without_hands, "roots do not hold the 0 hands"),
    (_shown_over_count, "more shown hands than 2 a showdown"),
], ids=["edges-5", "edges-null", "edges-abc", "edges-nan", "stores-5", "frequencies-nested",
        "game-partial", "game-null", "unknown-key", "hands-text", "hands-nan", "ints-0d",
        "ints-columns", "hands-huge", "counts-no-hands", "shown-over-count"])
def test_a_crafted_header_or_array_is_refused_naming_the_file(
        model_file: Path, tmp_path: Path,
        change: Callable[[dict[str, Any], dict[str, np.ndarray]], None], problem: str) -> None:
    path = _crafted(model_file, tmp_path, change)
    with pytest.raises(ModelFileError, match=problem) as caught:
        _load(path)
    assert str(path) in str(caught.value)


def test_the_crafted_copy_of_a_good_model_loads(model_file: Path, tmp_path: Path) -> None:
    assert _load(_crafted(model_file, tmp_path, lambda f, a: None)).generic.hands == 30


# --- the game ------------------------------------------------------------------------------


def test_a_model_of_another_game_is_refused(tmp_path: Path) -> None:
    heads_up_nolimit = tmp_path / "hu-nolimit.model"
    _played(NOLIMIT, seats=2).save(heads_up_nolimit)
    six_max = tmp_path / "six-max.model"
    _played(NOLIMIT, seats=6, hands=10).save(six_max)
    with pytest.raises(ModelFileError, match="another game .nolimit, 2 seats"):
        _load(heads_up_nolimit, game=LIMIT, seats=2)
    with pytest.raises(ModelFileError, match="another game .nolimit, 6 seats"):
        _load(six_max, game=NOLIMIT, seats=2)
    assert _load(six_max, game=NOLIMIT, seats=6).generic.hands == 10
    agent = HeuristicAgent(model_file=str(heads_up_nolimit))
    with pytest.raises(ModelFileError, match="another game"):
        agent.start(BotContext(0, ("hero", "villain"), LIMIT))


# --- compact, and written only when changed or asked ----------------------------------------


def test_a_model_is_stored_compactly(model_file: Path) -> None:
    _, arrays = _contents(model_file)
    raw = sum(a.nbytes for a in arrays.values())
    assert model_file.stat().st_size < raw / 3


def _run(tmp_path: Path, **params: Any) -> Path:
    out = tmp_path / "run"
    cfg = parse_config({"game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
                        "seats": [{"name": "hero", "bot": "heuristic", "params": params},
                                  {"name": "villain", "bot": "call"}],
                        "hands": 20, "block_size": 10, "seed": 3, "luck": False,
                        "output": {"dir": str(out), "plots": False}})
    run_tournament(cfg, progress=False, inline=True)
    return out / "bots" / "hero"


@pytest.mark.parametrize("params, written", [
    ({}, 2), ({"model": "off"}, 0), ({"model": "off", "save_model": "always"}, 2),
    ({"save_model": "never"}, 0)])
def test_a_model_is_written_only_when_it_changed_or_when_asked(
        tmp_path: Path, params: dict[str, Any], written: int) -> None:
    hero = _run(tmp_path, **params)
    files = sorted(p.name for p in hero.glob("model-*")) if hero.exists() else []
    assert files == [model_name(b, 0) for b in range(written)]


# --- checked before any work ----------------------------------------------------------------


def _bad_model_files(tmp_path: Path, model_file: Path) -> dict[str, str]:
    version = _crafted(model_file, tmp_path, lambda f, a: None)
    with zipfile.ZipFile(version) as zin:
        members = {i.filename: zin.read(i) for i in zin.infolist()}
    header = json.loads(np.load(io.BytesIO(members["header.npy"])).tobytes().decode())
    header["version"] = 99
    out = io.BytesIO()
    np.save(out, np.frombuffer(json.dumps(header).encode(), dtype=np.uint8))
    members["header.npy"] = out.getvalue()
    with zipfile.ZipFile(version, "w") as zout:
        for name, data in members.items():
            zout.writestr(name, data)
    return {str(tmp_path / "missing.model"): "no such file",
            str(tmp_path): "not a regular file", str(version): "version 99"}


@pytest.mark.parametrize("on_bot_error", ["stop", "fold"])
def test_a_bad_model_file_is_refused_before_the_output_dir_is_written(
        tmp_path: Path, model_file: Path, capfd: pytest.CaptureFixture[str],
        on_bot_error: str) -> None:
    for path, problem in _bad_model_files(tmp_path, model_file).items():
        out = tmp_path / "out"
        config = tmp_path / "c.yaml"
        config.write_text(yaml.safe_dump({
            "game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
            "seats": [{"name": "hero", "bot": "heuristic", "params": {"model_file": path}},
                      {"name": "villain", "bot": "call"}],
            "hands": 4, "seed": 1, "on_bot_error": on_bot_error,
            "output": {"dir": str(out), "plots": False}}))
        assert holdem(["run", str(config), "--quiet"]) == 2
        err = capfd.readouterr().err
        assert err.count("\n") == 1 and problem in err and "seats[0] (hero)" in err, err
        assert not out.exists()


def test_a_model_of_another_game_is_refused_before_the_run(tmp_path: Path,
                                                           model_file: Path) -> None:
    config = tmp_path / "c.yaml"  # the model is 3-seat no-limit
    config.write_text(yaml.safe_dump({
        "game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
        "seats": [{"name": "hero", "bot": "heuristic", "params": {"model_file": str(model_file)}},
                  {"name": "villain", "bot": "call"}],
        "hands": 4, "seed": 1, "output": {"dir": str(tmp_path / "out"), "plots": False}}))
    assert holdem(["run", str(config), "--quiet"]) == 2
    assert not (tmp_path / "out").exists()


def test_acpc_connect_checks_the_model_file_before_connecting(tmp_path: Path,
                                                             model_file: Path) -> None:
    for path, problem in _bad_model_files(tmp_path, model_file).items():
        params = tmp_path / "params.yaml"
        params.write_text(yaml.safe_dump({"model_file": path}))
        listener = listen("127.0.0.1", 0)
        try:
            out, err = io.StringIO(), io.StringIO()
            code = acpc(["connect", "127.0.0.1", str(listener.getsockname()[1]), "--game",
                         str(ACPC_LIMIT), "--bot", "heuristic", "--params", str(params)],
                        out, err)
            listener.settimeout(0.2)
            with pytest.raises(TimeoutError):
                listener.accept()  # nobody connected
        finally:
            listener.close()
        assert code == 2 and problem in err.getvalue(), err.getvalue()


def test_a_start_fault_under_fold_is_shown_in_the_table(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    config = parse_config({
        "game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
        "seats": [{"name": "fragile", "bot": "hostile_bots:StartFailsBot"},
                  {"name": "villain", "bot": "call"}],
        "hands": 20, "block_size": 10, "seed": 1, "on_bot_error": "fold", "luck": False,
        "output": {"dir": str(tmp_path / "out"), "plots": False}})
    run_tournament(config, progress=False, echo=print, inline=True)
    out = capsys.readouterr().out
    assert "note: fragile had 2 bot faults" in out


# --- fuzzing the reader -----------------------------------------------------------------------

CASES = 240
JUNK: list[Any] = [None, 0, -1, 2**63, 1.5, float("nan"), "x", "", [], [1], [[1]], {}, {"a": 1},
                   [0.4, 0.8, 1.5], ["p1"], True]


def _mutated_fields(rng: random.Random, model_file: Path, tmp_path: Path) -> Path:
    def change(fields: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        for _ in range(rng.randint(1, 2)):
            if rng.random() < 0.5:
                key = rng.choice(sorted(fields))
                if key == "game" and rng.random() < 0.7:
                    game = dict(fields["game"])
                    game[rng.choice(sorted(game))] = rng.choice(JUNK)
                    fields["game"] = game
                else:
                    fields[key] = rng.choice(JUNK)
            else:
                name = rng.choice(sorted(arrays))
                a = arrays[name]
                choice = rng.randrange(5)
                if choice == 0 and a.size:  # a value anywhere
                    a = a.copy()
                    a.flat[rng.randrange(a.size)] = rng.choice([-1, 0, 1, 2**31 - 1, 10**6])
                elif choice == 1:
                    a = a.astype(rng.choice([np.int16, np.int64, np.float32, np.float64]))
                elif choice == 2:
                    a = a.reshape(-1)
                elif choice == 3:
                    a = a[: max(len(a) - rng.randint(1, 3), 0)]
                else:
                    arrays.pop(name)
                    continue
                arrays[name] = a
    return _crafted(model_file, tmp_path, change)


def _mutated_bytes(rng: random.Random, raw: bytes, tmp_path: Path) -> Path:
    data = bytearray(raw)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(3)
        if kind == 0:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        elif kind == 1:
            del data[rng.randrange(len(data)):]
            if not data:
                break
        else:
            at = rng.randrange(len(data))
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    path = tmp_path / "bytes.model"
    path.write_bytes(bytes(data))
    return path


def test_the_reader_takes_or_refuses_any_file(model_file: Path, tmp_path: Path) -> None:
    rng = random.Random(19)
    raw = model_file.read_bytes()
    loaded = refused = 0
    for case in range(CASES):
        path = (_mutated_fields(rng, model_file, tmp_path) if case % 2 else
                _mutated_bytes(rng, raw, tmp_path))
        try:
            model = _load(path, game=NOLIMIT, seats=3)
        except ModelFileError as exc:
            assert str(path) in str(exc)
            refused += 1
            continue
        loaded += 1
        assert model.generic.hands == 30  # whatever loads is the model, intact
    assert refused > CASES * 3 // 4
