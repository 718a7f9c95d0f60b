"""Tournaments: blocks of deals played from fresh bots, duplicate permutations, workers, Ray.

The block is the unit of work and of memory. Block ``b`` plays ``block_size`` deals (the last
block may be shorter) with the cards of :func:`~simulator.play.match.deal_cards` under a seed
derived from ``(seed, b)``; under duplicate every seat permutation replays the same deals, each
from fresh bots. Bots that take a ``seed`` get one derived from ``(seed, b, player)``. So a
block's results depend only on the config and its index: never on workers, backend or
resume. A duplicate block, all its permutations together, is one sample of the statistics.

Permutations (``order[seat]`` is the config index of the player in that seat): heads-up the
seats swapped, three players all six orders, more players the cyclic rotations.

>>> permutations(2, True), permutations(3, False)
([(0, 1), (1, 0)], [(0, 1, 2)])
>>> len(permutations(3, True)), permutations(4, True)[1]
(6, (1, 2, 3, 0))
>>> derive_seed(7, 0) == derive_seed(7, 0) != derive_seed(7, 1)
True
"""

from __future__ import annotations

import concurrent.futures as cf
import itertools
import multiprocessing
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import numpy as np

from simulator.arena.config import ConfigError, TournamentConfig
from simulator.arena.luck import history_luck
from simulator.arena.progress import Progress, wanted
from simulator.arena.results import (
    HISTORY_FILE,
    BlockRecord,
    ResultsError,
    RunStore,
)
from simulator.arena.summary import RunInfo, RunSummary, format_table, summarise
from simulator.core.errors import HoldemError
from simulator.play.registry import BotSpecError, build, check_params, resolve

_LUCK_TAG = 0x1C4  # keeps the luck generator's stream apart from every other derived seed


class TournamentError(RuntimeError):
    """A run that failed on its way (a bot fault under ``on_bot_error: stop``, a crash).

    Blocks finished before the failure stay on disk; ``--resume`` continues from them.
    """


def derive_seed(*keys: int) -> int:
    """A 63-bit seed that depends only on ``keys`` (numpy's SeedSequence mixing)."""
    state = np.random.SeedSequence([int(k) for k in keys]).generate_state(2, np.uint32)
    return (int(state[0]) << 31) ^ int(state[1])


def permutations(num_seats: int, duplicate: bool) -> list[tuple[int, ...]]:
    """Seat orders of a block: identity alone, or DESIGN.md section 10's duplicate set."""
    identity = tuple(range(num_seats))
    if not duplicate:
        return [identity]
    if num_seats <= 3:
        return list(itertools.permutations(identity))
    return [tuple((s + r) % num_seats for s in identity) for r in range(num_seats)]


# --- one block, in whatever process runs it -----------------------------------------------------


@dataclass
class BlockOutcome:
    """What a worker sends back: the block's hands, or the error that stopped it."""

    block: int
    record: BlockRecord | None
    histories: list[Any] = field(default_factory=list)
    error: str | None = None
    play_seconds: float = 0.0
    luck_seconds: float = 0.0


def play_block(config: TournamentConfig, block: int, *, keep_histories: bool = False,
               on_hand: Callable[[int], None] | None = None) -> BlockOutcome:
    """Play every permutation of one block; a failure is returned, not raised.

    Returning the error as text keeps it intact across processes and Ray, whatever the
    exception class a plug-in bot raised.
    """
    from simulator.play.match import BotError, play_match  # the engine, imported where it runs

    game = config.game_config()
    names = config.names
    n = len(names)
    deals = config.block_deals(block)
    match_seed = derive_seed(config.seed, block)
    specs = [resolve(seat.bot) for seat in config.seats]
    cols: dict[str, list[Any]] = {k: [] for k in ("perm", "hand", "button", "seat", "net",
                                                   "luck")}
    faults: list[str] = []
    histories: list[Any] = []
    outcome = BlockOutcome(block, None)
    for p, order in enumerate(permutations(n, config.duplicate)):
        where = f"block {block}" + (f", permutation {p}" if config.duplicate else "")
        start = time.perf_counter()
        luck_time = 0.0
        try:
            bots = [build(specs[j], config.seats[j].params,
                          derive_seed(config.seed, block, j)) for j in order]
            seat_of = np.argsort(order)  # player index -> seat
            stream = play_match(game, bots, deals, match_seed, names=[names[j] for j in order],
                                on_bot_error=config.on_bot_error,
                                bot_timeout=config.bot_timeout, block=block,
                                permutation=p, directory=Path(config.output.dir) / "bots")
            for result in stream:
                history = result.history
                seats = np.where(np.array(history.dealt_in)[seat_of], seat_of, -1)
                cols["perm"].append(p)
                cols["hand"].append(result.hand_number)
                cols["button"].append(result.button)
                cols["seat"].append(seats)
                cols["net"].append(np.array(result.net)[seat_of])
                if config.luck:
                    t0 = time.perf_counter()
                    rng = np.random.default_rng(
                        [config.seed, block, p, result.hand_number, _LUCK_TAG])
                    luck = history_luck(history, rng, config.luck_samples)
                    luck_time += time.perf_counter() - t0
                    cols["luck"].append(luck[seat_of])
                else:
                    cols["luck"].append(np.zeros(n))
                faults += [f"{f.name} (seat {f.seat}, {where}, hand {f.hand_number}): "
                           f"{f.message}" for f in result.faults]
                if keep_histories:
                    histories.append(history)
                if on_hand is not None:
                    on_hand(1)
        except BotError as exc:
            outcome.error = f"{where}: {exc}"
            return outcome
        except BotSpecError as exc:
            outcome.error = f"{where}: {exc}"
            return outcome
        except Exception as exc:  # an engine or plug-in crash must not lose finished blocks
            tail = traceback.format_exc(limit=-3).strip().splitlines()
            outcome.error = f"{where}: {type(exc).__name__}: {exc} ({' | '.join(tail[-3:])})"
            return outcome
        outcome.play_seconds += time.perf_counter() - start - luck_time
        outcome.luck_seconds += luck_time
    outcome.record = BlockRecord(
        block=block, deals=deals if config.game.reset_stacks else _deals_played(cols["hand"]),
        perm=np.array(cols["perm"], dtype=np.int64), hand=np.array(cols["hand"], dtype=np.int64),
        button=np.array(cols["button"], dtype=np.int64),
        seat=np.array(cols["seat"], dtype=np.int64).reshape(-1, n),
        net=np.array(cols["net"], dtype=np.int64).reshape(-1, n),
        luck=np.array(cols["luck"], dtype=np.float64).reshape(-1, n),
        faults=faults).prepare(names, n)
    outcome.histories = histories
    return outcome


def _deals_played(hands: list[int]) -> int:
    # with carry-over stacks a block ends when one player is left
    return max(hands) + 1 if hands else 0


# --- executing blocks ---------------------------------------------------------------------------


def _run_inline(config: TournamentConfig, blocks: list[int], keep: bool,
                progress: Progress, stop: list[bool]) -> Iterator[BlockOutcome]:
    """Blocks in this process, in order; the bar moves hand by hand."""
    for b in blocks:
        if stop[0]:
            return
        yield play_block(config, b, keep_histories=keep, on_hand=progress.update)


def _run_pool(config: TournamentConfig, blocks: list[int], keep: bool, workers: int,
              stop: list[bool]) -> Iterator[BlockOutcome]:
    """Blocks over spawned processes, at most two per worker in flight (bounded memory)."""
    context = multiprocessing.get_context("spawn")
    pending = iter(blocks)
    with cf.ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        running: set[cf.Future[BlockOutcome]] = set()
        try:
            while True:
                while not stop[0] and len(running) < 2 * workers:
                    b = next(pending, None)
                    if b is None:
                        break
                    running.add(pool.submit(play_block, config, b, keep_histories=keep))
                if not running:
                    return
                finished, running = cf.wait(running, return_when=cf.FIRST_COMPLETED)
                for future in sorted(finished, key=lambda f: f.result().block):
                    yield future.result()
        finally:
            for future in running:
                future.cancel()


def _run_ray(config: TournamentConfig, blocks: list[int], keep: bool, workers: int,
             stop: list[bool]) -> Iterator[BlockOutcome]:
    """The same blocks as Ray tasks: a local Ray with ``workers`` CPUs, or the cluster that
    ``RAY_ADDRESS`` (or an earlier ``ray.init``) names."""
    try:
        import ray
    except ImportError:
        raise ConfigError("backend: ray needs Ray installed: pip install -e '.[ray]'") from None
    started = False
    if not ray.is_initialized():
        import os

        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if not os.environ.get("RAY_ADDRESS"):
            kwargs["num_cpus"] = workers
        ray.init(**kwargs)
        started = True
    task = ray.remote(num_cpus=1)(_ray_block)
    config_ref = ray.put(config)
    pending = iter(blocks)
    running: list[Any] = []
    window = 2 * max(workers, int(ray.cluster_resources().get("CPU", workers)))
    try:
        while True:
            while not stop[0] and len(running) < window:
                b = next(pending, None)
                if b is None:
                    break
                running.append(task.remote(config_ref, b, keep))
            if not running:
                return
            done, running = ray.wait(running, num_returns=1)
            yield ray.get(done[0])
    finally:
        for ref in running:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


def _ray_block(config: TournamentConfig, block: int, keep: bool) -> BlockOutcome:
    return play_block(config, block, keep_histories=keep)


# --- the run ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    """The result of a run: ``record`` is the typed summary, ``data`` its ``summary.json``.

    ``players[name]`` is the player's ``summary.json`` entry: ``hands``, ``mean``,
    ``stderr``, ``ci95`` (in ``unit`` per hand), ``luck_adjusted`` and ``positions``; the
    typed form is ``record.player(name)``.
    """

    record: RunSummary
    out_dir: Path
    play_seconds: float = 0.0
    luck_seconds: float = 0.0

    @property
    def data(self) -> dict[str, Any]:
        return self.record.to_dict()

    @property
    def unit(self) -> str:
        return self.record.unit

    @property
    def players(self) -> dict[str, Any]:
        return self.data["players"]

    @property
    def deals(self) -> int:
        return self.record.deals

    @property
    def blocks(self) -> int:
        return self.record.blocks

    def table(self) -> str:
        return format_table(self.record)


def package_version() -> str:
    try:
        return version("holdem-heuristic")
    except PackageNotFoundError:
        return "unknown"


def check_bots(config: TournamentConfig) -> None:
    """Resolve every seat's bot and its params now, so a typo is refused before any work."""
    for i, seat in enumerate(config.seats):
        try:
            spec = resolve(seat.bot)
            check_params(spec, seat.params)
            # a constructor taking **params checks them only when called: build one now
            build(spec, seat.params, seed=0)
            # a bot class may refuse games it cannot play (e.g. acpc-program: carried stacks)
            check_game = getattr(spec.factory, "check_game", None)
            if check_game is not None:
                check_game(config.game_config())
        except HoldemError as exc:
            raise ConfigError(f"seats[{i}] ({seat.name}): {exc}") from None


def _history_writer() -> Callable[..., str]:
    """The engine's PHHS writer: ``dumps_all(histories, start) -> text``."""
    try:
        from simulator.interop.phh import dumps_all
    except ImportError:
        raise ConfigError("output.hand_histories: PHH writing is not available in this build "
                          "(simulator.interop.phh.dumps_all is missing); set hand_histories: false"
                          ) from None
    return dumps_all


def run_tournament(config: TournamentConfig, *, resume: bool = False, force: bool = False,
                   progress: bool | None = None,
                   echo: Callable[[str], None] | None = None) -> Summary:
    """Play a tournament and write its results; the CLI is a thin layer over this.

    ``workers > 1`` starts spawned processes, so a script calling this must guard its entry
    point with ``if __name__ == "__main__":``. ``backend: ray`` starts a local Ray with
    ``workers`` CPUs, or joins the cluster of ``RAY_ADDRESS`` (whose nodes need this package
    and the bots' modules installed).

    Raises ``ConfigError`` or ``ResultsError`` for bad input before any work, and
    ``TournamentError`` for a run that failed on its way (its finished blocks stay on disk).
    """
    check_bots(config)
    write_histories = _history_writer() if config.output.hand_histories else None
    out_dir = Path(config.output.dir)
    meta = {"result_config": config.result_key(), "seed": config.seed,
            "version": package_version(), "names": list(config.names), "unit": config.unit,
            "unit_chips": config.unit_chips, "big_blind": config.game_config().big_blind}
    store = RunStore.create(out_dir, meta, config.names, resume=resume, force=force)
    done = store.done_blocks()
    todo = [b for b in range(config.num_blocks) if b not in done]
    if write_histories is None and not resume:
        (out_dir / HISTORY_FILE).unlink(missing_ok=True)
    perms = len(permutations(len(config.seats), config.duplicate))
    total = config.hands * perms
    bar = Progress(total, enabled=wanted() if progress is None else progress,
                   initial=sum(b["rows"] for b in store.read_blocks()))
    stop = [False]
    failure: str | None = None
    play_seconds = luck_seconds = 0.0
    keep = write_histories is not None
    if config.backend == "ray":
        outcomes: Iterable[BlockOutcome] = _run_ray(config, todo, keep, config.workers, stop)
    elif config.workers > 1:
        outcomes = _run_pool(config, todo, keep, config.workers, stop)
    else:
        outcomes = _run_inline(config, todo, keep, bar, stop)
    inline = config.backend == "local" and config.workers == 1
    try:
        for outcome in outcomes:
            if outcome.error is not None:
                failure = failure or outcome.error
                stop[0] = True  # let running blocks finish and keep them; start no more
                continue
            assert outcome.record is not None
            texts = None
            if write_histories is not None:
                def texts(start: int, histories: list[Any] = outcome.histories) -> str:
                    return write_histories(histories, start)
            store.append(outcome.record, len(config.seats), texts)
            play_seconds += outcome.play_seconds
            luck_seconds += outcome.luck_seconds
            if not inline:
                bar.update(outcome.record.rows)
    except KeyboardInterrupt:
        bar.close()
        raise TournamentError(f"interrupted; the finished blocks are in {str(out_dir)!r}: "
                              f"--resume continues the run") from None
    finally:
        bar.close()
    if failure is not None:
        raise TournamentError(f"bot failure in {failure}; the finished blocks stay in "
                              f"{str(out_dir)!r}")
    summary = _summary(config, store)
    store.write_summary(summary.to_dict())
    if config.output.plots:
        from simulator.arena.plots import draw

        draw(out_dir)
    if echo is not None:
        echo(format_table(summary))
    return Summary(summary, out_dir, play_seconds, luck_seconds)


def _summary(config: TournamentConfig, store: RunStore) -> RunSummary:
    luck_method = ("equity x pot - contribution at each board event (flop, turn, river); "
                   "exact with <= 2 cards to come, else Monte Carlo "
                   f"({config.luck_samples} runouts)") if config.luck else None
    run = RunInfo(duplicate=config.duplicate,
                  permutations=len(permutations(len(config.seats), config.duplicate)),
                  luck_method=luck_method, seed=config.seed, version=package_version(),
                  config=config.result_key())
    return summarise(store.read_blocks(), config.names, unit=config.unit,
                     unit_chips=config.unit_chips, big_blind=config.game_config().big_blind,
                     run=run)


__all__ = ["BlockOutcome", "ResultsError", "Summary", "TournamentError", "derive_seed",
           "permutations", "play_block", "run_tournament"]
