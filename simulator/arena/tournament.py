"""Tournaments: blocks played in watched worker processes (or Ray), written in block order.

The block is the unit of work, of memory and of failure (:mod:`simulator.arena.blocks`). A
run checks its config, bots, backend and output dir before it deletes or writes anything,
holds the output dir's lock while it runs, and writes each finished block in block order,
so every output file is the same for any number of workers.

Blocks run in worker processes, even with ``workers: 1`` (:mod:`simulator.arena.workers`):
``bot_timeout`` is then a hard limit, and a bot that exits the process, crashes it or hangs
fails its block alone. ``run_tournament(config, inline=True)`` plays in this process instead,
for debugging (a bot that exits or hangs there takes the run with it). Under
``on_bot_error: stop`` a failed block ends the run; under ``fold`` the run goes on and fails
at the end, listing the failed blocks. Either way the finished blocks stay on disk and
``--resume`` plays the rest. Ctrl-C and SIGTERM end the workers and leave a resumable run.

Ray (``backend: ray``) runs the same blocks as tasks with the same guards as far as Ray
allows: a task that hangs past ``bot_timeout`` is ended by a watchdog thread in its worker,
and a task whose worker dies fails its block; but Ray reports no last words, so such a
failure cannot name the bot and hand (the worker's log, under Ray's session dir, has them),
and the bots' prints go to Ray's worker logs rather than ``bots.log``.

>>> len(permutations(3, True))
6
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import inspect
import multiprocessing
import os
import sys
import threading
import time
from array import array
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeGuard

from simulator.arena.blocks import (
    BlockOutcome,
    BlockSeeds,
    bots_dir,
    describe_failure,
    first_button,
    permutations,
    play_block,
)
from simulator.arena.config import ConfigError, SeatSection, TournamentConfig
from simulator.arena.honesty import Watch
from simulator.arena.mainguard import (
    EXIT_UNGUARDED,
    in_spawned_import,
    unguarded_call,
    unguarded_message,
)
from simulator.arena.outdir import open_log
from simulator.arena.progress import Progress, wanted
from simulator.arena.results import (
    BLOCKS_FILE,
    FAILURES_FILE,
    HANDS_FILE,
    HISTORY_FILE,
    LOG_FILE,
    RUN_FILE,
    SUMMARY_FILE,
    ResultsError,
    RunStore,
)
from simulator.arena.signals import Terminated, interrupt_name, sigterm_raises
from simulator.arena.workers import (
    GRACE_SECONDS,
    POLL_SECONDS,
    SLOT_SIZE,
    KeptPool,
    SlotMonitor,
    WorkerPool,
    describe_call,
    overdue,
    seat_names,
    slot_view,
)
from simulator.core.errors import HoldemError, RunError
from simulator.core.game import GameConfig
from simulator.core.seeds import derive_seed
from simulator.play.registry import build, check_for_game, resolve

if TYPE_CHECKING:
    from simulator.arena.summary import RunSummary


class TournamentError(RunError, RuntimeError):
    """A run that failed on its way (a bot fault under ``on_bot_error: stop``, a failed
    block, an interrupt, a full disk).

    Blocks finished before the failure stay on disk; ``--resume`` continues from them.
    """


# --- executing blocks ---------------------------------------------------------------------------


def _run_inline(config: TournamentConfig, blocks: Iterator[int], keep: bool,
                progress: Progress, dispatched: Callable[[int], None]
                ) -> Iterator[BlockOutcome]:
    """Blocks in this process, in order; the bar moves hand by hand."""
    for b in blocks:
        dispatched(b)
        yield play_block(config, b, keep_histories=keep, on_hand=progress.update,
                         directory=bots_dir(config))


def _ray_block(config: TournamentConfig, block: int, keep: bool) -> BlockOutcome:
    """A block as a Ray task, with a watchdog thread that ends the worker process when a bot
    overstays ``bot_timeout`` (nothing else stops a bot that swallows the interrupt)."""
    mem = slot_view(array("d", [0.0] * SLOT_SIZE))
    monitor = SlotMonitor(mem, config.bot_timeout)
    done = threading.Event()

    def watch() -> None:
        name_of = seat_names(config)
        while not done.wait(POLL_SECONDS):
            if overdue(mem, time.monotonic(), GRACE_SECONDS):
                print(f"holdem: block {block}: {describe_call(mem, name_of)}: gave no answer "
                      f"within bot_timeout {config.bot_timeout}s; ending this worker",
                      file=sys.stderr, flush=True)
                os._exit(70)

    watchdog = threading.Thread(target=watch, daemon=True)
    if config.bot_timeout is not None:
        watchdog.start()
    try:  # on a cluster, the bots' directories are on the node that plays the block
        return play_block(config, block, keep_histories=keep, monitor=monitor,
                          directory=bots_dir(config))
    finally:
        done.set()


def _run_ray(config: TournamentConfig, blocks: Iterator[int], keep: bool, workers: int,
             room: Callable[[], bool], dispatched: Callable[[int], None], log_path: Path
             ) -> Iterator[BlockOutcome]:
    """The same blocks as Ray tasks: a local Ray with ``workers`` CPUs, or the cluster that
    ``RAY_ADDRESS`` (or an earlier ``ray.init``) names.

    Ray's driver prints what its workers and raylets report (a worker's death, say) to
    ``sys.stdout``/``sys.stderr``: while the run goes on those go to the run's log file.
    """
    with open(open_log(log_path), "a", buffering=1, closefd=True) as log, \
            contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
        yield from _ray_tasks(config, blocks, keep, workers, room, dispatched)


def _ray_tasks(config: TournamentConfig, blocks: Iterator[int], keep: bool, workers: int,
               room: Callable[[], bool], dispatched: Callable[[int], None]
               ) -> Iterator[BlockOutcome]:
    import logging

    import ray

    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                  "logging_level": logging.ERROR}
        if not os.environ.get("RAY_ADDRESS"):
            kwargs["num_cpus"] = workers
        ray.init(**kwargs)
        started = True
    task = ray.remote(num_cpus=1, max_retries=0)(_ray_block)  # a crash is not retried
    config_ref = ray.put(config)
    running: dict[Any, int] = {}
    window = 2 * max(workers, int(ray.cluster_resources().get("CPU", workers)))
    exhausted = False
    try:
        while True:
            while not exhausted and len(running) < window and room():
                b = next(blocks, None)
                if b is None:
                    exhausted = True
                    break
                dispatched(b)
                running[task.remote(config_ref, b, keep)] = b
            if not running:
                return
            done, _ = ray.wait(list(running), num_returns=1)
            b = running.pop(done[0])
            try:
                outcome = ray.get(done[0])
            except ray.exceptions.RayError as exc:
                message = (f"the Ray worker died ({type(exc).__name__}): a bot "
                           f"exited or crashed the process, or overstayed bot_timeout and "
                           f"its watchdog ended it; Ray does not say which bot (see the "
                           f"worker's log)")
                outcome = BlockOutcome.failed(b, message, by_bot=True)
            yield outcome
    finally:
        for ref in running:
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


class _WriteError(Exception):
    """Writing a finished block failed (a full disk): the run stops, the rest is resumable."""


@contextlib.contextmanager
def _writing(broken: list[bool]) -> Iterator[None]:
    try:
        yield
    except OSError as exc:
        broken.append(True)  # nothing more is written after a torn block
        raise _WriteError(exc.strerror or str(exc)) from None


class _InOrder:
    """Finished blocks released in the order they were sent out: out-of-order ones wait
    (at most ``window`` blocks are out at once, so the wait is bounded)."""

    def __init__(self, window: int) -> None:
        self.window = window
        self._sent: deque[int] = deque()
        self._ready: dict[int, BlockOutcome] = {}

    def room(self) -> bool:
        return len(self._sent) < self.window

    def dispatched(self, block: int) -> None:
        self._sent.append(block)

    def finished(self, outcome: BlockOutcome) -> list[BlockOutcome]:
        self._ready[outcome.block] = outcome
        out = []
        while self._sent and self._sent[0] in self._ready:
            out.append(self._ready.pop(self._sent.popleft()))
        return out

    def drain(self) -> list[BlockOutcome]:
        """Every finished block still waiting, in block order (the run is ending)."""
        out = [self._ready.pop(b) for b in self._sent if b in self._ready]
        self._sent.clear()
        return out


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
    files: tuple[Path, ...] = ()  # the results the run wrote, plots and histories included

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
        from simulator.arena.summary import format_table

        return format_table(self.record)


def package_version() -> str:
    try:
        return version("holdem-heuristic")
    except PackageNotFoundError:
        return "unknown"


TRIAL_GRACE = 2.0  # seconds past bot_timeout before a trial build is killed


def check_bots(config: TournamentConfig) -> None:
    """Resolve every seat's bot and build one now (guarded like every bot call, its prints
    dropped: a worker builds it again), so a typo is refused before any work. The trial
    build runs in a forked child where the system allows it, so a constructor that ends the
    process or hangs past ``bot_timeout`` is that seat's error, not the end of the run.
    Every seat is checked, and every seat's problem said, a line each. Seats with the same
    bot and params are one check (the first of them is named): the same constructor with the
    same arguments, which six-max self-play would fork six times."""
    checked: list[tuple[str, Any]] = []
    problems = []
    for i, seat in enumerate(config.seats):
        if (seat.bot, seat.params) in checked:
            continue
        checked.append((seat.bot, seat.params))
        try:
            check_seat(seat, config.game_config(), len(config.seats), config.bot_timeout,
                       f"seats[{i}] ({seat.name})")
        except ConfigError as exc:  # every seat's problem at once, a line each
            problems.append(str(exc))
    if problems:
        raise ConfigError("\n".join(problems))


def check_seat(seat: SeatSection, game: GameConfig, seats: int, timeout: float | None,
               where: str) -> None:
    """One seat's check (see :func:`check_bots`); ``ConfigError`` starts with ``where``."""
    try:
        spec = resolve(seat.bot)
        # a bot class may refuse games it cannot play (acpc-program: carried stacks) or
        # files its params name (the agent's model_file)
        check_for_game(spec, seat.params, game, seats)
    except HoldemError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    problem = _trial_build(spec, seat.params, seat.name, timeout)
    if problem is not None:
        raise ConfigError(f"{where}: bot {seat.bot!r} with params {dict(seat.params)}: "
                          f"{problem}")


def _build_once(spec: Any, params: Any, name: str, timeout: float | None) -> str | None:
    """Build one bot through the guard of every bot call; the fault's message, or None."""
    from simulator.play.match import BotError, build_bots

    try:
        with _quiet_output():
            build_bots([functools.partial(build, spec, params, 0)], [name],
                       on_bot_error="stop", bot_timeout=timeout)
    except BotError as exc:
        return exc.fault.message
    return None


def _trial_child(writer: Any, spec: Any, params: Any, name: str,
                 timeout: float | None) -> None:
    try:
        writer.send(_build_once(spec, params, name, timeout))
    finally:
        os._exit(0)  # no atexit handlers, no flushing of the parent's buffers twice


def _trial_build(spec: Any, params: Any, name: str, timeout: float | None) -> str | None:
    if "fork" not in multiprocessing.get_all_start_methods():
        return _build_once(spec, params, name, timeout)
    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)
    child = context.Process(target=_trial_child, args=(writer, spec, params, name, timeout),
                            daemon=True)
    child.start()
    writer.close()
    try:
        # the guard inside interrupts an overrun; a bot that swallows the interrupt is
        # killed a little later, as in the workers
        if not reader.poll(None if timeout is None else timeout + TRIAL_GRACE):
            return f"constructor: gave no answer within bot_timeout {timeout:g}s"
        try:
            return reader.recv()
        except EOFError:
            child.join(TRIAL_GRACE)
            return f"constructor: ended the process (exit code {child.exitcode})"
    finally:
        reader.close()
        if child.is_alive():
            child.kill()
        child.join()


class _IdentityHook(Protocol):
    """A bot class with the class-level hook ``identity(params)``."""

    def identity(self, params: dict[str, Any]) -> Any: ...


def _has_identity_hook(factory: Callable[..., Any]) -> TypeGuard[_IdentityHook]:
    # only a class-level hook: an instance method of that name is the bot's own business
    return isinstance(inspect.getattr_static(factory, "identity", None),
                      (classmethod, staticmethod))


def bot_identities(config: TournamentConfig) -> dict[str, Any]:
    """Per seat whose bot class has ``identity(params)``: what its params stand for (a bot
    that reads a parameter file returns the file's contents), so that ``--resume`` notices
    an edited file as it notices an edited config."""
    out = {}
    for seat in config.seats:
        factory = resolve(seat.bot).factory
        if _has_identity_hook(factory):
            try:
                out[seat.name] = factory.identity(dict(seat.params))
            except HoldemError as exc:
                raise ConfigError(f"seat {seat.name}: {exc}") from None
    return out


def _with_identities(key: dict[str, Any], config: TournamentConfig) -> dict[str, Any]:
    identities = bot_identities(config)
    return {**key, "bot_identities": identities} if identities else key


@contextlib.contextmanager
def _quiet_output() -> Iterator[None]:
    """Drop what is printed for a while (a bot's prints while it is checked): Python's
    streams, and fds 1 and 2 for what C code writes."""
    with open(os.devnull, "w") as null, contextlib.redirect_stdout(null), \
            contextlib.redirect_stderr(null):
        try:
            saved = (os.dup(1), os.dup(2))
        except OSError:  # no real descriptors (an embedding host): the streams will do
            yield
            return
        try:
            os.dup2(null.fileno(), 1)
            os.dup2(null.fileno(), 2)
            yield
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in saved:
                os.close(fd)


def _history_writer() -> Callable[..., str]:
    """The engine's PHHS writer: ``dumps_all(histories, start) -> text``."""
    try:
        from simulator.interop.phh import dumps_all
    except ImportError:
        raise ConfigError("output.hand_histories: PHH writing is not available in this build "
                          "(simulator.interop.phh.dumps_all is missing); set hand_histories: false"
                          ) from None
    return dumps_all


def check_backend(config: TournamentConfig) -> None:
    """Refuse a backend that is not installed, before anything is written or deleted."""
    if config.backend == "ray" and importlib.util.find_spec("ray") is None:
        raise ConfigError("backend: ray needs Ray installed: pip install -e '.[ray]'")


def run_tournament(config: TournamentConfig, *, resume: bool = False, force: bool = False,
                   progress: bool | None = None, echo: Callable[[str], None] | None = None,
                   inline: bool = False, checked: bool = False,
                   kept: KeptPool | None = None) -> Summary:
    """Play a tournament and write its results; the CLI is a thin layer over this.

    Blocks run in spawned worker processes (at most ``workers``, never more than the blocks
    left); ``inline=True`` plays them in this process, one by one, for debugging;
    ``checked=True`` skips :func:`check_bots` (a league checks its panel once, not once per
    pair); ``kept`` is the caller's :class:`KeptPool` (a league's): the run plays in its
    workers, started by the first run that needs them, and leaves them running. A spawned
    worker imports the calling script again, so a script that calls this at its top
    level, outside ``if __name__ == "__main__":``, plays in this process with ``workers:
    1`` and is refused (``ConfigError``, naming the guard) with more (:mod:`.mainguard`).
    ``backend: ray`` starts a local Ray with ``workers`` CPUs, or joins the cluster of
    ``RAY_ADDRESS`` (whose nodes need this package and the bots' modules).

    Raises ``ConfigError`` or ``ResultsError`` (``HoldemError``\\s) for bad input before any
    work, and ``TournamentError`` for a run that failed on its way (its finished blocks stay
    on disk).
    """
    if in_spawned_import():  # a worker importing the script: leave before doing anything
        os._exit(EXIT_UNGUARDED)
    if not inline and config.backend == "local" and unguarded_call(sys._getframe(1)):
        if config.workers > 1:
            raise ConfigError(unguarded_message(config.workers))
        inline = True  # one worker: play here, as the script is written
    if not checked:
        check_bots(config)
    write_histories = _history_writer() if config.output.hand_histories else None
    if not inline:
        check_backend(config)
    out_dir = Path(config.output.dir)
    meta = {"result_config": _with_identities(config.result_key(), config),
            "seed": config.seed,
            "version": package_version(), "names": list(config.names), "unit": config.unit,
            "unit_chips": config.unit_chips, "big_blind": config.game_config().big_blind}
    with sigterm_raises():
        try:
            store = RunStore.create(out_dir, meta, config.names, resume=resume, force=force,
                                    num_blocks=config.num_blocks,
                                    histories=write_histories is not None)
        except Terminated:
            raise TournamentError("terminated before any work") from None
        try:
            return _run(config, store, write_histories, progress, echo, inline, kept)
        finally:
            store.close()


def _run(config: TournamentConfig, store: RunStore, write_histories: Callable[..., str] | None,
         progress: bool | None, echo: Callable[[str], None] | None, inline: bool,
         kept: KeptPool | None = None) -> Summary:
    play_seconds, luck_seconds = _play_blocks(config, store, write_histories, progress, inline,
                                              kept)
    summary = _summary(config, store)
    files = _write_summary(config, store, summary, write_histories is not None)
    if echo is not None:
        from simulator.arena.summary import format_table

        echo(format_table(summary))
        early = summary.run.early_end_blocks if summary.run else ()
        if early:
            echo(f"note: {len(early)} of {summary.blocks} blocks ended early, when one player "
                 f"was left (stacks carry over): {summary.deals} deals played of "
                 f"{config.hands}")
    return Summary(summary, store.dir, play_seconds, luck_seconds, tuple(files))


# What the parent needs once the blocks are played: imported while they are played (a
# worker's start-up and its blocks leave the parent waiting; these cost it half a second).
AFTER_PLAY = ("simulator.arena.summary", "simulator.arena.plots")


def _import_quietly(names: Iterable[str]) -> None:
    for name in names:
        with contextlib.suppress(Exception):  # the import where it is needed says what failed
            importlib.import_module(name)


def _preload(config: TournamentConfig) -> None:
    """Import :data:`AFTER_PLAY` (the plots only when drawn) in a thread of this process."""
    names = AFTER_PLAY if config.output.plots else AFTER_PLAY[:1]
    threading.Thread(target=_import_quietly, args=(names,), daemon=True,
                     name="holdem-preload").start()


def _play_blocks(config: TournamentConfig, store: RunStore,
                 write_histories: Callable[..., str] | None, progress: bool | None,
                 inline: bool, kept: KeptPool | None) -> tuple[float, float]:
    """Play the blocks not yet done and append each to ``store`` in block order; the seconds
    spent playing and correcting luck. Raises ``TournamentError`` on a failed block, an
    interrupt or a failed write, the finished blocks kept."""
    out_dir = store.dir
    done = store.done_blocks()
    left = config.num_blocks - len(done)
    todo = (b for b in range(config.num_blocks) if b not in done)  # lazy: any number of blocks
    workers = max(1, min(config.workers, left))
    perms = len(permutations(len(config.seats), config.duplicate))
    finished_rows = sum(b["rows"] for b in store.read_blocks())
    bar = Progress(config.hands * perms, enabled=wanted() if progress is None else progress,
                   initial=finished_rows)
    order = _InOrder(2 * workers)
    watch = Watch(config.names)
    failures: list[dict[str, Any]] = []
    timing = [0.0, 0.0]
    broken: list[bool] = []
    stopped_by: BlockOutcome | None = None
    where = _where(out_dir)
    pool: WorkerPool | None = None

    def write(outcome: BlockOutcome) -> None:
        if outcome.record is None or broken:
            return  # a failed block (a gap that --resume fills), or a write that failed
        texts = None
        if write_histories is not None:
            def texts(start: int, histories: list[Any] = outcome.histories,
                      tags: list[dict[str, int]] = outcome.history_tags) -> str:
                return write_histories(histories, start, tags)
        with _writing(broken):
            store.append(outcome.record, len(config.seats), texts)
        for line in watch.add(outcome.block, outcome.record.honesty, outcome.record.policies):
            bar.note(line)
        timing[0] += outcome.play_seconds
        timing[1] += outcome.luck_seconds

    def tick() -> None:
        if pool is not None:
            target = finished_rows + pool.hands_in_flight()
            if target > bar.done:
                bar.update(target - bar.done)

    try:
        with contextlib.ExitStack() as stack:
            keep = write_histories is not None
            if inline or left == 0:
                outcomes: Iterable[BlockOutcome] = _run_inline(config, todo, keep, bar,
                                                               order.dispatched)
            elif config.backend == "ray":
                outcomes = _run_ray(config, todo, keep, workers, order.room, order.dispatched,
                                    out_dir / LOG_FILE)
            else:
                pool = (kept.for_run(config, keep_histories=keep, log_path=out_dir / LOG_FILE)
                        if kept is not None else
                        stack.enter_context(WorkerPool(config, workers, keep_histories=keep,
                                                       log_path=out_dir / LOG_FILE)))
                _preload(config)
                outcomes = pool.run(todo, order.room, order.dispatched, tick)
            stack.callback(getattr(outcomes, "close", lambda: None))
            try:
                for outcome in outcomes:
                    if outcome.record is not None:
                        finished_rows += outcome.record.rows
                    else:
                        failures.append(outcome.failure or {"block": outcome.block,
                                                            "message": outcome.error})
                        with _writing(broken):
                            store.record_failure(failures[-1])
                    for ready in order.finished(outcome):
                        write(ready)
                    if outcome.record is None and (config.on_bot_error == "stop"
                                                   or not outcome.bot_fault):
                        stopped_by = outcome
                        if pool is not None:
                            pool.close(graceful=False)  # at once: blocks under way are lost
                        break
                    tick()
            finally:
                for ready in order.drain():  # finished blocks still waiting: keep them
                    write(ready)
    except (KeyboardInterrupt, Terminated) as exc:
        raise TournamentError(f"{interrupt_name(exc)}; {where}: resume=True continues the "
                              f"run") from None
    except _WriteError as exc:
        raise TournamentError(f"cannot write to {str(out_dir)!r}: {exc}; {where} (free "
                              f"space, then resume=True continues the run)") from None
    finally:
        bar.close()
    if failures:
        raise TournamentError(_failure_text(failures, stopped_by, out_dir))
    return timing[0], timing[1]


def _write_summary(config: TournamentConfig, store: RunStore, summary: RunSummary,
                   histories: bool) -> list[Path]:
    """Write the run's summary (and its plots, when asked); every file the run holds."""
    out_dir = store.dir
    files = [out_dir / name for name in (SUMMARY_FILE, HANDS_FILE, BLOCKS_FILE, RUN_FILE)]
    if histories:
        files.append(out_dir / HISTORY_FILE)
    try:
        store.write_summary(summary.to_dict())
        if config.output.plots:
            from simulator.arena.plots import draw

            files += draw(out_dir)
    except OSError as exc:
        raise TournamentError(f"cannot write to {str(out_dir)!r}: {exc.strerror or exc}; "
                              f"{_where(out_dir)} (free space, then resume=True writes the "
                              f"summary)") from None
    return files


def _where(out_dir: Path) -> str:
    return f"the finished blocks are in {str(out_dir)!r}"


def _failure_text(failures: list[dict[str, Any]], stopped_by: BlockOutcome | None,
                  out_dir: Path) -> str:
    """The run's last line: the failure that stopped it, or every block that failed."""
    where = f"the finished blocks stay in {str(out_dir)!r}"
    if stopped_by is not None:
        kind = "bot failure" if stopped_by.bot_fault else "failure"
        return f"{kind} in {stopped_by.error}; {where}"
    listed = "; ".join(describe_failure(f) for f in failures)
    return (f"{len(failures)} block(s) failed: {listed}; {where} (see {FAILURES_FILE}): "
            f"resume=True plays the failed blocks again")


def _summary(config: TournamentConfig, store: RunStore) -> RunSummary:
    from simulator.arena.summary import RunInfo, summarise

    blocks = store.read_blocks()
    luck_method = ("equity x pot - contribution at each board event (flop, turn, river); "
                   "exact with <= 2 cards to come and heads-up before the flop (the shipped "
                   f"table), else Monte Carlo ({config.luck_samples} runouts)") \
        if config.luck else None
    run = RunInfo(duplicate=config.duplicate,
                  permutations=len(permutations(len(config.seats), config.duplicate)),
                  luck_method=luck_method, seed=config.seed, version=package_version(),
                  config=config.result_key(),
                  # carry-over blocks end when one player is left: say which, not only fewer
                  early_end_blocks=tuple(sorted(b["block"] for b in blocks if b["deals"]
                                                < config.block_deals(b["block"]))))
    return summarise(blocks, config.names, unit=config.unit, unit_chips=config.unit_chips,
                     big_blind=config.game_config().big_blind, run=run)


__all__ = ["BlockOutcome", "BlockSeeds", "ResultsError", "Summary", "TournamentError",
           "check_backend", "check_bots", "derive_seed", "first_button", "permutations",
           "play_block", "run_tournament"]
