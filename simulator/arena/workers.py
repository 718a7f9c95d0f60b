"""Blocks in worker processes, watched from outside: a bot can end its block, never the run.

Each worker is a spawned process that plays the blocks it is sent, one at a time, and
writes what it is doing into a slot of shared memory: the block and permutation, and for
every call into a bot the seat, the hand, the call (``act()``, ``observe()``, ...) and its
deadline. That is a handful of stores into a ``memoryview`` per call, cheap enough for
``observe`` (about a hundred calls a hand). The parent watches every slot:

* a worker whose bot overstays ``bot_timeout`` by more than :data:`GRACE_SECONDS` (a bot
  that swallows the in-process interrupt, or hangs in C) is killed;
* a worker that dies (``os._exit``, a segfault, the kernel) is noticed through its sentinel.

Either way the block is reported failed, naming the bot, the permutation, the hand and the
call, and a fresh worker takes the slot. Workers ignore Ctrl-C and sit in their own process
group (the parent ends them: SIGTERM, on which a worker ends the process groups of the
programs its seats started, then SIGKILL), die with the parent (``PR_SET_PDEATHSIG`` on
Linux; elsewhere when the parent's pipe closes, after their block), and send their prints
(the bots') to a log file.

>>> from array import array
>>> mem = slot_view(array("d", [0.0] * SLOT_SIZE))
>>> monitor = SlotMonitor(mem, timeout=2.0)
>>> monitor.begin(3, 1); monitor.enter(0, 17, "act()")
>>> overdue(mem, now=mem[DEADLINE] + 0.5, grace=1.0), overdue(mem, mem[DEADLINE] + 2, 1.0)
(False, True)
>>> in_call(mem)
True
>>> describe_call(mem, lambda perm, seat: "alice")
"bot 'alice' (seat 0, permutation 1, hand 17) in act()"
>>> monitor.leave(); overdue(mem, now=1e12, grace=1.0)
False
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection as mpc
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulator.arena.blocks import BlockOutcome, bots_dir, permutations, play_block
from simulator.arena.bot_log import TaggedStream, set_tag
from simulator.arena.config import ConfigError, TournamentConfig
from simulator.arena.mainguard import EXIT_UNGUARDED, unguarded_message
from simulator.interop import process_groups

GRACE_SECONDS = 1.0  # past bot_timeout before a worker is killed (its own interrupt goes first)
POLL_SECONDS = 0.05  # how often the parent looks at the slots
TERM_SECONDS = 2.0  # for a worker told to end to end its programs before it is killed

# The slot, one float64 each. CALL packs the current call's seat, kind and hand into one
# number, so that entering a call is two stores: CALL, then DEADLINE. DEADLINE is infinite
# outside bot calls, and in a call without a time limit it is NO_LIMIT (finite, never due).
CALL, DEADLINE, PERM, HANDS, BLOCK = range(5)
SLOT_SIZE = 5
CALLS = ("", "constructor", "start()", "act()", "observe()", "close()", "policy()")
_CODE = {name: 16 * i for i, name in enumerate(CALLS)}
IDLE = float("inf")
NO_LIMIT = 1e300


def slot_view(buffer: Any) -> memoryview[float]:
    """A buffer of ``SLOT_SIZE`` float64 (a shared ``RawArray`` or an ``array``) as doubles."""
    return memoryview(buffer).cast("B").cast("d")


class SlotMonitor:
    """The worker's side: a ``CallMonitor`` (and block monitor) writing into a slot."""

    def __init__(self, mem: memoryview[float], timeout: float | None) -> None:
        self._mem = mem
        self._timeout = timeout
        mem[DEADLINE] = IDLE

    def enter(self, seat: int, hand_number: int, what: str) -> None:
        mem = self._mem
        mem[CALL] = 256 * hand_number + _CODE.get(what, 0) + seat  # seats < 16
        mem[DEADLINE] = NO_LIMIT if self._timeout is None else time.monotonic() + self._timeout

    def leave(self) -> None:
        self._mem[DEADLINE] = IDLE

    def begin(self, block: int, perm: int) -> None:
        self._mem[BLOCK] = block
        self._mem[PERM] = perm
        set_tag(block, perm)

    def hand_done(self) -> None:
        self._mem[HANDS] += 1.0


def overdue(mem: memoryview[float], now: float, grace: float) -> bool:
    """True when the slot's bot call has run past its deadline by more than ``grace``.

    ``now`` is taken before the deadline is read: a deadline read is that of a call still
    under way when it was read, after ``now``, so the call is overdue for sure.
    """
    return now > mem[DEADLINE] + grace


def in_call(mem: memoryview[float]) -> bool:
    return mem[DEADLINE] != IDLE


def _current(mem: memoryview[float]) -> tuple[int, int, str, int]:
    """The slot's current call: (seat, hand, call, permutation)."""
    packed = int(mem[CALL])
    return packed % 16, packed // 256, CALLS[packed // 16 % 16], int(mem[PERM])


def describe_call(mem: memoryview[float], name_of: Callable[[int, int], str]) -> str:
    """``bot 'name' (seat s, permutation p, hand h) in act()`` for the slot's current call."""
    seat, hand, call, perm = _current(mem)
    return f"bot {name_of(perm, seat)!r} (seat {seat}, permutation {perm}, hand {hand}) in {call}"


def call_fault(mem: memoryview[float], name_of: Callable[[int, int], str], problem: str
               ) -> dict[str, Any]:
    """The fault record of the slot's current call (the keys of a block's faults)."""
    seat, hand, call, perm = _current(mem)
    return {"hand": hand, "seat": seat, "name": name_of(perm, seat),
            "message": f"{call}: {problem}", "block": int(mem[BLOCK]), "perm": perm}


def seat_names(config: TournamentConfig) -> Callable[[int, int], str]:
    """``name_of(perm, seat)``: the player in a seat of a permutation."""
    orders = permutations(len(config.seats), config.duplicate)
    return lambda perm, seat: config.names[orders[perm][seat]]


# --- the worker process --------------------------------------------------------------------------


def _die_with_parent(parent: int) -> None:
    """Ask Linux to kill this worker when its parent dies; elsewhere the closed pipe ends it."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before the request took hold
        os._exit(0)


def _redirect_output(log_path: Path | None) -> None:
    """fds 1 and 2 (a bot's prints, C code's too) to the run's log file."""
    from simulator.arena.outdir import open_log

    if log_path is None:
        return
    fd = open_log(log_path)
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError):
            stream.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    sys.stdout = TaggedStream(sys.stdout)  # a bot's prints tagged with block and seating
    sys.stderr = TaggedStream(sys.stderr)


def _end_programs_and_exit(signum: int, frame: object) -> None:
    """SIGTERM from the parent: end the groups of the programs our seats started (they are
    in sessions of their own, which ending this worker would not reach), then exit."""
    process_groups.end_all()
    os._exit(128 + signum)


@dataclass(frozen=True)
class RunSpec:
    """What a worker plays blocks of: the run's config, whether it keeps the hands'
    histories, and the log its bots' prints go to."""

    config: TournamentConfig
    keep: bool
    log_path: Path | None


def _worker_main(conn: mpc.Connection, slot: Any, run: RunSpec, parent: int) -> None:
    """Play the blocks sent, for the run last sent (a pool may serve several runs in turn:
    a league's pairs); None ends the worker."""
    _die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, _end_programs_and_exit)
    with contextlib.suppress(OSError):
        os.setpgrp()  # out of the terminal's process group: the parent ends its workers
    mem = slot_view(slot)
    monitor, directory = _serving(run, mem)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if message is None:
            return
        if isinstance(message, RunSpec):
            run = message
            monitor, directory = _serving(run, mem)
            continue
        outcome = play_block(run.config, message, keep_histories=run.keep, monitor=monitor,
                             directory=directory)
        try:
            conn.send(outcome)
        except (BrokenPipeError, OSError):
            return


def _serving(run: RunSpec, mem: memoryview[float]) -> tuple[SlotMonitor, Path]:
    """A worker set up for ``run``: its prints to the run's log, its slot's monitor with
    the run's time limit, and where its bots keep their files."""
    _redirect_output(run.log_path)
    return SlotMonitor(mem, run.config.bot_timeout), bots_dir(run.config)


# --- the parent's side ---------------------------------------------------------------------------


@dataclass
class _Worker:
    process: Any  # multiprocessing's SpawnProcess
    conn: mpc.Connection
    mem: memoryview[float]
    block: int | None = None


class WorkerPool:
    """``workers`` spawned processes playing blocks, each watched through its slot.

    Use as a context manager: leaving it ends every worker, at once unless all went well.
    Between runs, :meth:`serve` points the same workers at another run, so a league's pairs
    pay for starting them once.
    """

    def __init__(self, config: TournamentConfig, workers: int, *, keep_histories: bool,
                 log_path: Path | None, grace: float = GRACE_SECONDS) -> None:
        self._context = multiprocessing.get_context("spawn")
        self._run, self._grace = RunSpec(config, keep_histories, log_path), grace
        self._name_of = seat_names(config)
        self._slots = [self._context.RawArray("d", SLOT_SIZE) for _ in range(workers)]
        self._workers: list[_Worker] = []
        try:
            for slot in self._slots:
                self._workers.append(self._spawn(slot))
        except BaseException:
            self.close(graceful=False)
            raise

    def _spawn(self, slot: Any) -> _Worker:
        ours, theirs = self._context.Pipe()
        process = self._context.Process(
            target=_worker_main, name="holdem-worker", daemon=True,
            args=(theirs, slot, self._run, os.getpid()))
        process.start()
        theirs.close()
        return _Worker(process, ours, slot_view(slot))

    def _replace(self, worker: _Worker) -> None:
        _end(worker)
        index = self._workers.index(worker)
        self._workers[index] = self._spawn(self._slots[index])

    @property
    def workers_left(self) -> bool:
        """False once :meth:`close` has ended the workers."""
        return bool(self._workers)

    def serve(self, config: TournamentConfig, *, keep_histories: bool,
              log_path: Path | None) -> None:
        """Play the blocks of this run from now on (no block may be under way)."""
        if any(w.block is not None for w in self._workers):
            raise RuntimeError("WorkerPool.serve: blocks are under way")
        self._run = RunSpec(config, keep_histories, log_path)
        self._name_of = seat_names(config)
        for worker in self._workers:
            with contextlib.suppress(OSError):  # died: its sentinel tells the next run
                worker.conn.send(self._run)

    def hands_in_flight(self) -> int:
        """Hands finished so far in blocks still being played (for the progress bar)."""
        return sum(int(w.mem[HANDS]) for w in self._workers if w.block is not None)

    def run(self, blocks: Iterator[int], room: Callable[[], bool],
            dispatched: Callable[[int], None],
            tick: Callable[[], None] | None = None) -> Iterator[BlockOutcome]:
        """Play ``blocks``, yielding outcomes as they finish (failures included).

        A block is sent only while ``room()`` (the writer's window) and each is announced
        through ``dispatched(block)`` first; ``tick()`` is called at every poll.
        """
        exhausted = False
        while True:
            for index in range(len(self._workers)):
                if self._workers[index].block is not None or exhausted or not room():
                    continue
                block = next(blocks, None)
                if block is None:
                    exhausted = True
                    break
                if not self._workers[index].process.is_alive():  # died while idle
                    self._replace(self._workers[index])
                self._send(self._workers[index], block)
                dispatched(block)
            busy = [w for w in self._workers if w.block is not None]
            if not busy:
                return
            mpc.wait([w.conn for w in busy] + [w.process.sentinel for w in busy],
                     timeout=POLL_SECONDS)
            now = time.monotonic()
            for worker in busy:
                outcome = self._check(worker, now)
                if outcome is not None:
                    yield outcome
            if tick is not None:
                tick()

    def _send(self, worker: _Worker, block: int) -> None:
        mem = worker.mem
        mem[HANDS] = 0.0
        mem[DEADLINE] = IDLE
        mem[BLOCK] = block
        worker.block = block
        try:
            worker.conn.send(block)
        except OSError:  # died just now: its sentinel reports it on the next poll
            pass

    def _check(self, worker: _Worker, now: float) -> BlockOutcome | None:
        """The worker's outcome if it has one: a result, a death, or an overrun."""
        block = worker.block
        assert block is not None
        if worker.conn.poll():
            try:
                outcome = worker.conn.recv()
            except (EOFError, OSError):
                outcome = None
            if outcome is not None:
                worker.block = None
                return outcome
        if not worker.process.is_alive():
            if worker.process.exitcode == EXIT_UNGUARDED:  # see simulator.arena.mainguard
                raise ConfigError(unguarded_message(len(self._workers)))
            problem, by_bot = self._death(worker)
            return self._fail(worker, block, problem, by_bot=by_bot)
        if overdue(worker.mem, now, self._grace):
            problem = (f"gave no answer within bot_timeout {self._run.config.bot_timeout}s "
                       f"(+{self._grace}s grace); its worker was ended")
            return self._fail(worker, block, problem, by_bot=True)
        return None

    def _death(self, worker: _Worker) -> tuple[str, bool]:
        """What the death of a worker says, and whether a bot call was under way."""
        worker.process.join(timeout=1.0)
        code = worker.process.exitcode
        how = f"exit code {code}" if code is None or code >= 0 else \
            f"signal {signal.Signals(-code).name}" if -code in signal.valid_signals() else \
            f"signal {-code}"
        if in_call(worker.mem):
            return f"the worker died ({how})", True
        return f"the worker died outside any bot call ({how})", False

    def _fail(self, worker: _Worker, block: int, problem: str, *, by_bot: bool
              ) -> BlockOutcome:
        fault = call_fault(worker.mem, self._name_of, problem) if by_bot else None
        worker.block = None
        self._replace(worker)
        return BlockOutcome.failed(block, problem, fault=fault)

    def close(self, graceful: bool = True) -> None:
        """End every worker: politely after a run that went well, at once otherwise (SIGTERM,
        so each ends its programs first, then SIGKILL for any that does not)."""
        if graceful:
            for worker in self._workers:
                with contextlib.suppress(OSError):
                    worker.conn.send(None)
            deadline = time.monotonic() + 5.0
            for worker in self._workers:
                worker.process.join(timeout=max(0.0, deadline - time.monotonic()))
        _end(*self._workers)
        self._workers = []

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        self.close(graceful=kind is None)


class KeptPool:
    """A :class:`WorkerPool` kept across runs (a league's pairs): the first run that needs
    workers starts it, each later run points it at itself (:meth:`WorkerPool.serve`), and
    leaving the context ends it. A run that stopped on a failure ends the pool; a later
    run starts another."""

    def __init__(self) -> None:
        self._pool: WorkerPool | None = None

    def for_run(self, config: TournamentConfig, *, keep_histories: bool,
                log_path: Path | None) -> WorkerPool:
        if self._pool is None or not self._pool.workers_left:
            self._pool = WorkerPool(config, config.workers, keep_histories=keep_histories,
                                    log_path=log_path)
        else:
            self._pool.serve(config, keep_histories=keep_histories, log_path=log_path)
        return self._pool

    def __enter__(self) -> KeptPool:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if self._pool is not None:
            self._pool.close(graceful=kind is None)


def _end(*workers: _Worker) -> None:
    """SIGTERM the workers still alive (each ends its programs' groups), a moment, then
    SIGKILL any left (one hung in C code cannot take the signal)."""
    alive = [w for w in workers if w.process.is_alive()]
    for worker in alive:
        worker.process.terminate()
    deadline = time.monotonic() + TERM_SECONDS
    for worker in alive:
        worker.process.join(timeout=max(0.0, deadline - time.monotonic()))
    for worker in workers:
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join(timeout=5.0)
        with contextlib.suppress(OSError):
            worker.conn.close()
        with contextlib.suppress(ValueError, OSError):
            worker.process.close()
