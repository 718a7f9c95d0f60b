"""One block of a tournament, in whatever process plays it: its seeds, button, permutations.

Block ``b`` plays ``block_size`` deals (the last block may be shorter) with the cards of
:func:`~simulator.core.deal.deal_cards` under the block's match seed; under duplicate every
seat permutation replays the same deals, each from fresh bots. Every random stream has a
domain of its own (:mod:`simulator.core.seeds`): the decks, each bot's seed (per block,
permutation and player) and the luck correction's runouts. So a block's results depend only
on the config and its index: never on workers, backend or resume. A duplicate block, all its
permutations together, is one sample of the statistics.

The button of a block's first hand is where the previous block would have moved it (hand 0
of block 0: the last seat), as if the run were one long match: with stacks reset every hand
each seat holds each position equally often over the run, within one.

Permutations (``order[seat]`` is the config index of the player in that seat): heads-up the
seats swapped, three players all six orders, more players the cyclic rotations.

>>> permutations(2, True), permutations(3, False)
([(0, 1), (1, 0)], [(0, 1, 2)])
>>> len(permutations(3, True)), permutations(4, True)[1]
(6, (1, 2, 3, 0))
>>> seeds = BlockSeeds(7)
>>> seeds.match(0) == BlockSeeds(7).match(0) != seeds.match(1)
True
"""

from __future__ import annotations

import functools
import itertools
import time
import traceback
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from simulator.arena.aivat import AivatRecorder
from simulator.arena.config import TournamentConfig
from simulator.arena.exploit_config import ExploitRunConfig
from simulator.arena.honesty import TESTS
from simulator.arena.lbr import LocalBestResponse
from simulator.arena.luck import history_luck, when_drawn
from simulator.arena.outdir import open_log
from simulator.arena.results import BOTS_DIR, LOG_FILE, BlockRecord
from simulator.core.records import BotFault
from simulator.core.seeds import Domain, derive_seed, stream
from simulator.play.protocol import Bot, LearningBot, PolicyBot
from simulator.play.registry import BotSpec, build, prepare, resolve

if TYPE_CHECKING:
    from simulator.core.records import HandResult


def permutations(num_seats: int, duplicate: bool) -> list[tuple[int, ...]]:
    """Seat orders of a block: identity alone, or the duplicate set (heads-up both orders, three
    players all six, more the cyclic rotations)."""
    identity = tuple(range(num_seats))
    if not duplicate:
        return [identity]
    if num_seats <= 3:
        return list(itertools.permutations(identity))
    return [tuple((s + r) % num_seats for s in identity) for r in range(num_seats)]


@dataclass(frozen=True)
class BlockSeeds:
    """Every random stream of a run, each in its own domain, from the run's seed."""

    seed: int

    def match(self, block: int) -> int:
        """The seed of a block's decks (``deal_cards(match_seed, hand, seats)``)."""
        return derive_seed(self.seed, Domain.MATCH, block)

    def bot(self, block: int, perm: int, player: int) -> int:
        """The seed a bot's constructor gets, when it takes one."""
        return derive_seed(self.seed, Domain.BOT, block, perm, player)

    def luck(self, block: int, perm: int, hand: int) -> np.random.Generator:
        """The luck correction's Monte Carlo runouts of one hand."""
        return stream(self.seed, Domain.LUCK, block, perm, hand)

    def aivat(self, block: int, perm: int, hand: int) -> np.random.Generator:
        """The value function's Monte Carlo runouts of one hand (AIVAT's corrections)."""
        return stream(self.seed, Domain.AIVAT, block, perm, hand)


def first_button(config: TournamentConfig, block: int) -> int:
    """The seat of block ``block``'s first button: where the run's earlier deals moved it.

    With carry-over stacks a block's deals can end early and busted seats are skipped, so
    there the blocks start as if every earlier block had played all its deals.

    >>> from simulator.arena.config import parse_config
    >>> cfg = parse_config({"seats": [{"name": c, "bot": "call"} for c in "abc"],
    ...                     "hands": 9, "block_size": 4, "seed": 1})
    >>> [first_button(cfg, b) for b in range(3)]
    [2, 0, 1]
    """
    n = len(config.seats)
    return (n - 1 + block * config.block_size) % n


class BlockMonitor(Protocol):
    """A :class:`~simulator.play.match.CallMonitor` that is also told which permutation
    runs and when a hand ends (the watchdog names the bot; the progress bar moves)."""

    def enter(self, seat: int, hand_number: int, what: str) -> None: ...

    def leave(self) -> None: ...

    def begin(self, block: int, perm: int) -> None: ...

    def hand_done(self) -> None: ...


@dataclass
class BlockOutcome:
    """What a worker sends back: the block's hands, or why it failed.

    ``failure`` names the block, permutation, hand, seat, bot and message when the failure
    is a bot's (``bot_fault``: it falls under ``on_bot_error``); an engine failure has only
    the block and the message, and always ends the run.
    """

    block: int
    record: BlockRecord | None
    histories: list[Any] = field(default_factory=list)
    # each history's place in the run, written with it as PHH's user-defined fields
    history_tags: list[dict[str, int]] = field(default_factory=list)
    error: str | None = None
    bot_fault: bool = False
    failure: dict[str, Any] | None = None
    play_seconds: float = 0.0
    luck_seconds: float = 0.0

    @classmethod
    def failed(cls, block: int, message: str, *, fault: dict[str, Any] | None = None,
               by_bot: bool | None = None) -> BlockOutcome:
        """A failed block: ``fault`` names the bot (its ``message`` the problem alone);
        without one, ``message`` says it all and ``by_bot`` says whose doing it was."""
        failure = {"block": block, "message": message} if fault is None else dict(fault)
        return cls(block, None, error=describe_failure(failure),
                   bot_fault=fault is not None if by_bot is None else by_bot, failure=failure)


def describe_failure(failure: dict[str, Any]) -> str:
    """One line for a failed block's record.

    >>> describe_failure({"block": 3, "perm": 1, "hand": 17, "seat": 0, "name": "h",
    ...                   "message": "act(): the worker died (exit code 7)"})
    "block 3, permutation 1, hand 17: bot 'h' (seat 0): act(): the worker died (exit code 7)"
    """
    if "name" not in failure:
        return f"block {failure['block']}: {failure['message']}"
    return (f"block {failure['block']}, permutation {failure['perm']}, hand {failure['hand']}: "
            f"bot {failure['name']!r} (seat {failure['seat']}): {failure['message']}")


def log_traceback(config: TournamentConfig, block: int, perm: int, fault: BotFault) -> str:
    """Append a bot's traceback to the run's bot log, where its prints go too; the words
    that point there (`` (traceback in DIR/bots.log)``), or "" with no traceback to log."""
    if not fault.traceback:
        return ""
    path = Path(config.output.dir) / LOG_FILE
    head = describe_failure(fault_record(fault, block, perm))
    try:
        with open(open_log(path), "a", encoding="utf-8", closefd=True) as log:
            log.write(f"{head}\n{fault.traceback}\n")
    except OSError:  # the log is a convenience: the fault itself is recorded either way
        return ""
    return f" (traceback in {path})"


def fault_record(fault: BotFault, block: int, perm: int) -> dict[str, Any]:
    """A ``BotFault`` as stored in blocks.jsonl: hand, seat, name, message, block, perm."""
    return {"hand": fault.hand_number, "seat": fault.seat, "name": fault.name,
            "message": fault.message, "block": block, "perm": perm}


def bots_dir(config: TournamentConfig) -> Path:
    """Where bots write their own files: ``<output>/bots/<player>/``."""
    return Path(config.output.dir) / BOTS_DIR


def aivat_measured(config: TournamentConfig) -> bool:
    """Whether the run measures AIVAT: ``aivat: auto`` beside the luck correction."""
    return config.aivat == "auto" and config.luck


def build_frozen(spec: BotSpec, params: Any, seed: int) -> Bot:
    """A fresh bot told to learn nothing in the match (``freeze()``, when it has one)."""
    bot = build(spec, params, seed)
    if isinstance(bot, LearningBot):
        bot.freeze()
    return bot


def _makers(config: TournamentConfig, specs: list[BotSpec], order: tuple[int, ...],
            seeds: BlockSeeds, block: int, perm: int) -> list[Callable[[], Bot]]:
    frozen = isinstance(config, ExploitRunConfig) and config.learning == "frozen"
    return [functools.partial(build_frozen if frozen and j == 0 else build, specs[j],
                              config.seats[j].params, seeds.bot(block, perm, j)) for j in order]


def _overseer(config: TournamentConfig, bots: list[Bot], order: tuple[int, ...],
              seeds: BlockSeeds, block: int, perm: int
              ) -> tuple[LocalBestResponse | AivatRecorder | None, AivatRecorder | None]:
    """The block's overseer and its AIVAT recorder: local best response in an exploit run
    (LBR is the config's second player), else a recorder when AIVAT is measured and a seat
    states its policy."""
    recorder = None
    if aivat_measured(config) and any(isinstance(b, PolicyBot) for b in bots):
        recorder = AivatRecorder(len(bots), lambda hand: seeds.aivat(block, perm, hand),
                                 config.luck_samples)
    if isinstance(config, ExploitRunConfig):
        lbr_seat, bot_seat = order.index(1), order.index(0)
        return LocalBestResponse(lbr_seat, bot_seat, config.lbr.settings(), recorder), recorder
    return recorder, recorder


_COLUMNS = ("perm", "hand", "button", "seat", "net", "luck", "aivat")


@dataclass
class _Seating:
    """One permutation of a block under way: its hands as they come, and what it wrote."""

    perm: int
    seat_of: np.ndarray  # player index -> seat
    results: Generator[HandResult, None, None]
    recorder: AivatRecorder | None
    cols: dict[str, list[Any]] = field(default_factory=lambda: {k: [] for k in _COLUMNS})
    faults: list[dict[str, Any]] = field(default_factory=list)
    histories: list[Any] = field(default_factory=list)


def play_block(config: TournamentConfig, block: int, *, keep_histories: bool = False,
               on_hand: Callable[[int], None] | None = None,
               monitor: BlockMonitor | None = None,
               directory: Path | None = None) -> BlockOutcome:
    """Play every permutation of one block; a failure is returned, not raised.

    The permutations take turns deal by deal (each with its own fresh bots), so a deal's
    boards are fresh in the process's caches for each of its plays; the record lists them
    permutation by permutation, as if they had been played one after the other.

    Returning the error as text keeps it intact across processes and Ray, whatever the
    exception class a plug-in bot raised. ``directory`` is where bots get their own
    directories (``directory/<player>``); None gives them none.
    """
    from simulator.play.match import BotError  # where it runs

    n = len(config.names)
    seeds = BlockSeeds(config.seed)
    specs = [resolve(seat.bot) for seat in config.seats]
    for spec in {s.name: s for s in specs}.values():  # off the clock, before any bot call
        prepare(spec, config.game_config())
    policies = np.ones(n, dtype=bool)  # per player: a policy in every permutation
    outcome = BlockOutcome(block, None)
    seatings: list[_Seating] = []
    perm = 0
    start = time.perf_counter()
    try:
        for perm, order in enumerate(permutations(n, config.duplicate)):
            if monitor is not None:
                monitor.begin(block, perm)
            seated, stated = _seat(config, block, perm, order, specs, seeds, monitor,
                                   directory)
            policies &= stated
            seatings.append(seated)
        playing = list(seatings)
        while playing:
            for seating in list(playing):
                perm = seating.perm
                if monitor is not None:
                    monitor.begin(block, perm)
                result = next(seating.results, None)
                if result is None:
                    playing.remove(seating)
                    continue
                outcome.luck_seconds += _record(config, block, seating, result, seeds,
                                                keep_histories)
                if on_hand is not None:
                    on_hand(1)
                if monitor is not None:
                    monitor.hand_done()
    except BotError as exc:
        record = fault_record(exc.fault, block, perm)
        record["message"] += log_traceback(config, block, perm, exc.fault)
        return BlockOutcome.failed(block, str(exc), fault=record)
    except Exception as exc:  # an engine crash must not lose finished blocks
        where = f"block {block}" + (f", permutation {perm}" if config.duplicate else "")
        tail = traceback.format_exc(limit=-3).strip().splitlines()
        return BlockOutcome.failed(block, f"{where}: {type(exc).__name__}: {exc} "
                                          f"({' | '.join(tail[-3:])})")
    finally:
        for seating in seatings:
            seating.results.close()  # (a finished match's is a no-op) its bots are closed
    outcome.play_seconds = time.perf_counter() - start - outcome.luck_seconds
    cols = {k: [x for seating in seatings for x in seating.cols[k]] for k in _COLUMNS}
    deals = config.block_deals(block)
    outcome.record = BlockRecord(
        block=block, deals=deals if config.game.reset_stacks else _deals_played(cols["hand"]),
        perm=np.array(cols["perm"], dtype=np.int64), hand=np.array(cols["hand"], dtype=np.int64),
        button=np.array(cols["button"], dtype=np.int64),
        seat=np.array(cols["seat"], dtype=np.int64).reshape(-1, n),
        net=np.array(cols["net"], dtype=np.int64).reshape(-1, n),
        luck=np.array(cols["luck"], dtype=np.float64).reshape(-1, n),
        aivat=np.array(cols["aivat"], dtype=np.float64).reshape(-1, n)
        if aivat_measured(config) else None,
        policies=tuple(bool(x) for x in policies),
        honesty=_honesty(seatings, n) if aivat_measured(config) else None,
        tested=_tested(seatings, n) if aivat_measured(config) else None,
        faults=[f for seating in seatings for f in seating.faults]).prepare(config.names, n)
    outcome.histories = [h for seating in seatings for h in seating.histories]
    outcome.history_tags = [{"_block": block, "_perm": seating.perm} for seating in seatings
                            for _ in seating.histories]
    return outcome


def _honesty(seatings: list[_Seating], n: int) -> np.ndarray:
    """Per player, the honesty test's sums over every seating of the block."""
    out = np.zeros((n, TESTS))
    for seating in seatings:
        if seating.recorder is not None:
            out += seating.recorder.honesty[seating.seat_of]
    return out


def _tested(seatings: list[_Seating], n: int) -> np.ndarray:
    """Per player, the decisions its honesty sums are over, in every seating of the block."""
    out = np.zeros(n, dtype=np.int64)
    for seating in seatings:
        if seating.recorder is not None:
            out += seating.recorder.tested[seating.seat_of]
    return out


def _seat(config: TournamentConfig, block: int, perm: int, order: tuple[int, ...],
          specs: list[BotSpec], seeds: BlockSeeds, monitor: BlockMonitor | None,
          directory: Path | None) -> tuple[_Seating, np.ndarray]:
    """Build one permutation's bots and set up its match (the first hand starts it); with
    it, per player, whether its bot states a policy."""
    from simulator.play.match import build_bots, play_match

    seat_names = [config.names[j] for j in order]
    makers = _makers(config, specs, order, seeds, block, perm)
    bots, built = build_bots(makers, seat_names, on_bot_error=config.on_bot_error,
                             bot_timeout=config.bot_timeout, monitor=monitor)
    seat_of = np.argsort(order)
    overseer, recorder = _overseer(config, bots, order, seeds, block, perm)
    results = play_match(config.game_config(), bots, config.block_deals(block),
                         seeds.match(block), names=seat_names,
                         on_bot_error=config.on_bot_error, bot_timeout=config.bot_timeout,
                         block=block, permutation=perm, directory=directory,
                         first_button=first_button(config, block), monitor=monitor,
                         overseer=overseer)
    seating = _Seating(perm, seat_of, results, recorder)
    seating.faults += [fault_record(f, block, perm) for f in built]
    return seating, np.array([isinstance(bots[s], PolicyBot) for s in seat_of])


def _record(config: TournamentConfig, block: int, seating: _Seating, result: HandResult,
            seeds: BlockSeeds, keep_histories: bool) -> float:
    """One hand's row in its permutation's columns; the seconds its luck took."""
    history, seat_of, cols, perm = result.history, seating.seat_of, seating.cols, seating.perm
    cols["perm"].append(perm)
    cols["hand"].append(result.hand_number)
    cols["button"].append(result.button)
    cols["seat"].append(np.where(np.array(history.dealt_in)[seat_of], seat_of, -1))
    cols["net"].append(np.array(result.net)[seat_of])
    seconds = 0.0
    if config.luck:
        t0 = time.perf_counter()
        # the stream is made only if Monte Carlo needs it (see luck.RngSource)
        rng = when_drawn(seeds.luck, block, perm, result.hand_number)
        luck = history_luck(history, rng, config.luck_samples)
        seconds = time.perf_counter() - t0
        cols["luck"].append(luck[seat_of])
    else:
        cols["luck"].append(np.zeros(len(seat_of)))
    n = len(seat_of)
    corrections = seating.recorder.take() if seating.recorder is not None else np.zeros(n)
    cols["aivat"].append(corrections[seat_of])
    seating.faults += [fault_record(f, block, perm) for f in result.faults]
    for fault in result.faults:
        log_traceback(config, block, perm, fault)
    if keep_histories:
        seating.histories.append(history)
    return seconds


def _deals_played(hands: list[int]) -> int:
    # with carry-over stacks a block ends when one player is left
    return max(hands) + 1 if hands else 0
