"""Opponent modeller speed and memory, with eval7 for scale, one core.

    python experiments/bench/bench_modeller.py [--repeats 7] [--hands 2000] [--memory-hands 1000000]

Steps and goals:

* the value vector of all 1326 holdings (EHS' with one card to come) on a flop, cold: the
  board table and the vector are built from scratch in every timed call; goal at most 0.1x
  of eval7's exact flop equity (Ad Qc on 3h 4c Jh against a random hand, every turn and river,
  as ``bench_hand_evaluator.py``), measured in the same run;
* one re-weighting of one opponent (threshold and triple methods, on a flop): under 0.1 ms;
* one chain query, mid-hand at a 6-max no-limit table, from stores filled with ``--hands``
  real hands played by the engine (random bots): under 0.1 ms;
* storing one finished 6-max hand in every store it belongs to (the generic store and five
  opponents' stores; the ``HandEnded`` event's whole handling): under 0.3 ms;
* memory after ``--memory-hands`` stored 6-max hands, printed as it grows: it must level off
  (the node cap, 10^6 per store, prunes the rarest branches). The engine plays about 700-1500
  6-max hands a second here, too slow for 10^6 hands, so these chains come from a random
  betting process with the real order of play, the limit cap of 4 bets and no-limit size
  buckets (about half the hands go past the flop).

Also printed: the mean cost of ``observe()`` per event over whole recorded hands.
"""

from __future__ import annotations

import argparse
import random
import resource
import time

import numpy as np
from bench_hand_evaluator import eval7_flop_equity
from benchlib import best_time, pin_to_one_core

from agent.modeller import ModellerParams, OpponentModeller
from agent.modeller.chains import SEPARATOR, Chain, ChainStore, encode
from agent.modeller.weights import reweight_threshold, reweight_triple
from agent.strength import values as values_module
from agent.strength.board_table import clear_board_tables
from agent.strength.values import board_values, clear_board_values
from simulator import (
    Action,
    BaseBot,
    BotContext,
    Event,
    GameConfig,
    HandEnded,
    Observation,
    Street,
)
from simulator.core.cards import parse_cards
from simulator.play.baseline import RandomBot
from simulator.play.match import play_match

FLOP = "3h4cJh"
GAME = GameConfig(variant="nolimit", blinds=(1, 2), stack=200)


class Recorder(BaseBot):
    """Seat 0: keeps every event it gets, hand by hand, and plays at random."""

    def __init__(self) -> None:
        self.inner = RandomBot(fold=0.2, call=0.5, raise_=0.3, seed=99)
        self.hands: list[list[Event]] = []

    def start(self, context: BotContext) -> None:
        self.context = context

    def observe(self, event: Event) -> None:
        if type(event).__name__ == "HandStarted":
            self.hands.append([])
        self.hands[-1].append(event)

    def act(self, observation: Observation) -> Action:
        return self.inner.act(observation)


def record(hands: int) -> tuple[BotContext, list[list[Event]]]:
    rec = Recorder()
    bots = [rec] + [RandomBot(fold=0.2, call=0.5, raise_=0.3, seed=i) for i in range(1, 6)]
    list(play_match(GAME, bots, hands=hands, seed=1))
    return rec.context, rec.hands


def timed_hands(model: OpponentModeller, hands: list[list[Event]]
                ) -> tuple[list[float], float, int]:
    """Feed whole hands; return the times of each HandEnded, all observe time, events."""
    store_times, total, events = [], 0.0, 0
    for events_of_hand in hands:
        for event in events_of_hand:
            start = time.perf_counter()
            model.observe(event)
            took = time.perf_counter() - start
            total += took
            events += 1
            if isinstance(event, HandEnded):
                store_times.append(took)
    return store_times, total, events


def query_times(model: OpponentModeller, hands: list[list[Event]], repeats: int
                ) -> tuple[float, float]:
    """Mean query time (generic and one opponent's store) at the first flop decision."""
    generic, single = [], []
    for events_of_hand in hands:
        for event in events_of_hand[:-1]:
            model.observe(event)
            if type(event).__name__ == "BoardDealt":
                break
        hand = model._hand
        if hand is None or not hand.betting.active[hand.us] or hand.street != Street.FLOP:
            continue
        seat = next(s for s in hand.betting.order if s != hand.us and hand.betting.active[s])
        for store, out in ((None, generic), (seat, single)):
            model.query(Action.call(), store)
            start = time.perf_counter()
            for _ in range(repeats):
                model.query(Action.call(), store)
            out.append((time.perf_counter() - start) / repeats)
    return float(np.mean(generic)), float(np.mean(single))


# --- synthetic 6-max chains for the memory run ------------------------------------------------


def synthetic_chain(rng: random.Random, sized: bool) -> tuple[Chain, int]:
    """One 6-max hand's actions by the rules of order and the cap; returns it and its ending
    seen from seat 0 (0 showdown, 1 they fold, 2 we fold)."""
    players = 6
    active = [True] * players
    rows = []
    for street in range(4):
        first = 2 if street == 0 else 0  # pre-flop the player after the big blind opens
        level = 1 if street == 0 else 0
        matched = [0] * players
        if street == 0:
            matched[1] = 1
        to_act = [(first + i) % players for i in range(players) if active[(first + i) % players]]
        while to_act and sum(active) > 1:
            seat = to_act.pop(0)
            facing = level - matched[seat]
            roll = rng.random()
            cap_left = level < 4
            if facing == 0:
                kind = 2 if roll < 0.35 and cap_left else 1
            elif facing == 1:
                kind = 0 if roll < 0.45 else (2 if roll > 0.85 and cap_left else 1)
            else:
                kind = 0 if roll < 0.6 else (2 if roll > 0.93 and cap_left else 1)
            size = 0
            if kind == 2:
                level += 1
                size = rng.choice((1, 2, 2, 3, 3, 3, 4, 5)) if sized else 0
                to_act = [(seat + i) % players for i in range(1, players)
                          if active[(seat + i) % players]]
            if kind == 0:
                active[seat] = False
            else:
                matched[seat] = level
            rows.append((kind, size, (seat + 2) % players if street == 0 else seat, seat,
                         street))
        if sum(active) == 1:
            break
    ending = 2 if not active[0] else (1 if sum(active) == 1 else 0)
    return Chain.of(rows, us=0, players=players), ending


def rss_mb() -> float:
    """This process's resident memory now (Linux), in MB; NaN elsewhere."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def memory_run(hands: int, params: ModellerParams) -> None:
    rng = random.Random(5)
    stores = [ChainStore(params.max_nodes, params.prune_to) for _ in range(6)]
    perspectives = [-1, 1, 2, 3, 4, 5]
    marks = sorted({int(hands * f) for f in (0.01, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0)})
    print(f"\nmemory: {hands:,} synthetic 6-max no-limit hands into 6 stores "
          f"(cap {params.max_nodes:,} nodes each)")
    print(f"{'hands':>10} {'nodes (6 stores)':>17} {'max/store':>10} {'MB (arrays)':>12} "
          f"{'RSS MB':>7} {'peak RSS MB':>12} {'us/hand':>8}")
    start = time.perf_counter()
    lengths = 0
    for i in range(1, hands + 1):
        chain, ending = synthetic_chain(rng, True)
        seqs = encode(chain, perspectives)
        lengths += int((seqs[0, 0] != SEPARATOR).sum())
        for store, s in zip(stores, seqs, strict=True):
            store.add(s, ending, 30.0, 6.0, 0.5 if ending == 0 else 0.0, int(ending == 0))
        if i in marks:
            nodes = [s.n_nodes for s in stores]
            mb = sum(s.nbytes for s in stores) / 2**20
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            us = (time.perf_counter() - start) / i * 1e6
            print(f"{i:>10,} {sum(nodes):>17,} {max(nodes):>10,} {mb:>12.1f} {rss_mb():>7.0f} "
                  f"{peak:>12.0f} {us:>8.1f}")
    print(f"(mean chain length {lengths / hands:.1f} tokens)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="runs per timing; best kept")
    parser.add_argument("--hands", type=int, default=2000, help="real hands for the stores")
    parser.add_argument("--memory-hands", type=int, default=1_000_000)
    args = parser.parse_args(argv)
    pin_to_one_core()

    flop = parse_cards(FLOP)
    board_values(parse_cards("2c7d9h"))  # compile/load the kernels
    equity = eval7_flop_equity()
    equity()
    anchor = best_time(equity, max(2, args.repeats // 2))

    def cold() -> object:
        clear_board_values()
        clear_board_tables()
        return board_values(flop)

    t_values = best_time(cold, args.repeats)
    bv = board_values(flop)
    values = np.nan_to_num(bv.ehs_prime)
    rng = np.random.default_rng(1)
    w = rng.random(1326) * (values > 0)
    t_threshold = best_time(lambda: [reweight_threshold(w, values, bv.order, 0.2, 0.2)
                                     for _ in range(1000)], args.repeats) / 1000
    t_triple = best_time(lambda: [reweight_triple(w, values, bv.order, (0.5, 0.3, 0.2),
                                                  Action.call().kind, 0.1, levels=bv.levels)
                                  for _ in range(1000)], args.repeats) / 1000

    context, hands = record(args.hands + 200)
    model = OpponentModeller(ModellerParams(), "full")
    model.start(context)
    builds: list[float] = []
    compute = values_module._compute

    def counted(board: tuple[int, ...]) -> object:  # time every value vector built
        start = time.perf_counter()
        out = compute(board)
        builds.append(time.perf_counter() - start)
        return out

    values_module._compute = counted
    store_times, observe_total, events = timed_hands(model, hands[:args.hands])
    values_module._compute = compute
    q_generic, q_single = query_times(model, hands[args.hands:], 200)

    print(f"stores filled with {args.hands} real 6-max hands "
          f"({model.generic.n_nodes:,} generic nodes)")
    print(f"\n{'step':<58} {'time':>10} {'goal':>12}")
    rows = [
        ("eval7 exact flop equity (anchor)", anchor * 1e3, "ms", ""),
        ("value vector, 1326 holdings, flop, cold", t_values * 1e3, "ms",
         f"<= {0.1 * anchor * 1e3:.1f} ms"),
        ("  ratio to eval7", t_values / anchor, "x", "<= 0.1"),
        ("one re-weighting, threshold (Loki-1)", t_threshold * 1e3, "ms", "< 0.1 ms"),
        ("one re-weighting, probability triple (Loki-2)", t_triple * 1e3, "ms", "< 0.1 ms"),
        ("one chain query, generic store", q_generic * 1e3, "ms", "< 0.1 ms"),
        ("one chain query, one opponent's store", q_single * 1e3, "ms", "< 0.1 ms"),
        ("storing a finished 6-max hand in all 6 stores (mean)",
         float(np.mean(store_times)) * 1e3, "ms", "< 0.3 ms"),
        ("  median", float(np.median(store_times)) * 1e3, "ms", "< 0.3 ms"),
        ("observe(), mean per event over whole hands", observe_total / events * 1e3, "ms",
         f"({events / len(store_times):.0f} events/hand)"),
        ("  of which value vectors of new boards, per event", sum(builds) / events * 1e3,
         "ms", f"({len(builds) / len(store_times):.2f} boards/hand)"),
        ("  the rest, per event", (observe_total - sum(builds)) / events * 1e3, "ms", ""),
    ]
    for name, value, unit, goal in rows:
        print(f"{name:<58} {value:>7.4f} {unit:<2} {goal:>12}")
    if args.memory_hands:
        memory_run(args.memory_hands, ModellerParams())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
