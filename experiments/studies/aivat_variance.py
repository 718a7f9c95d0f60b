"""Where AIVAT's variance survives: heads-up limit duplicate, the agent against one rival.

Plays ``--blocks`` duplicate blocks of ``--deals`` deals as a run plays them (``play_block``,
AIVAT on) and splits the variance of the agent's result per deal (the two seatings summed,
halved) into what each correction removes:

- raw chips, then less the luck (chance) correction, then less AIVAT's action corrections;
- the luck correction street by street (flop, turn, river taken out one at a time);
- a value function with a term for the betting still to come, ``(pot + k_s) x equity``
  in place of ``pot x equity`` at each chance event: ``k_s`` fitted by least squares on the
  first half of the blocks and scored on the other half (a fitted function is honest only on
  hands it was not fitted on);
- the in-sample share of the residual that features of the equity path explain (each
  street's equity gain, its square, its size, times the pot): an upper bound on what any value
  function of the cards and pot alone could take, with the betting it leads to left out.

    python experiments/studies/aivat_variance.py loki --deals 2000 --blocks 4 --seed 7401

Writes ``experiments/results/aivat_variance_<rival>.{md,json}`` (``--results`` elsewhere).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from matchups import HEADS_UP_LIMIT, ROOT, Seat

from simulator.arena.blocks import play_block
from simulator.arena.config import parse_config
from simulator.arena.luck import luck_by_event
from simulator.core.streets import Street

STREETS = (Street.FLOP, Street.TURN, Street.RIVER)


def play(rival: str, deals: int, blocks: int, seed: int) -> dict[str, np.ndarray]:
    """Per hand (rows in the record's order): the agent's net, luck and action corrections,
    and per street its equity gain and the pot at that chance event."""
    config = parse_config({
        "game": HEADS_UP_LIMIT, "hands": deals * blocks, "block_size": deals, "seed": seed,
        "duplicate": True, "workers": 1, "output": {"dir": "unused", "plots": False},
        "seats": [Seat("hero", "heuristic", {}).as_config(),
                  Seat("rival", rival, {}).as_config()]}, "aivat_variance")
    cols: dict[str, list[np.ndarray]] = {k: [] for k in ("net", "luck", "aivat", "gain", "pot",
                                                         "block")}
    for b in range(blocks):
        outcome = play_block(config, b, keep_histories=True)
        rec = outcome.record
        if rec is None or rec.aivat is None:
            raise SystemExit(f"aivat_variance.py: block {b}: {outcome.error or 'no AIVAT'}")
        gain, pot = np.zeros((len(rec.net), 3)), np.zeros((len(rec.net), 3))
        for i, history in enumerate(outcome.histories):
            points = [(p.street, p.contributions, p.active) for p in history.chance_points]
            for event in luck_by_event(history.holes, history.board, points, None, 0):
                s = STREETS.index(event.street)
                gain[i, s], pot[i, s] = event.gain[rec.seat[i, 0]], event.pot
        # each seating's half of the block holds the same deals in the same order
        halves = len(rec.net) // 2
        cols["net"].append(rec.net[:, 0].astype(np.float64))
        cols["luck"].append(rec.luck[:, 0])
        cols["aivat"].append(rec.aivat[:, 0])
        cols["gain"].append(gain)
        cols["pot"].append(pot)
        cols["block"].append(np.full(halves, b))
    return {k: np.concatenate([_paired(x) if k != "block" else x for x in v])
            for k, v in cols.items()}


def _paired(x: np.ndarray) -> np.ndarray:
    """A block's two seatings of each deal summed: the duplicate sample."""
    half = len(x) // 2
    return x[:half] + x[half:]


def _var(x: np.ndarray) -> float:
    return float(x.var() / 2)  # per hand: a duplicate sample is two hands


def decompose(d: dict[str, np.ndarray]) -> dict[str, float]:
    """The variances and shares the docstring lists."""
    net, luck, aivat, gain, pot = d["net"], d["luck"], d["aivat"], d["gain"], d["pot"]
    after_luck = net - luck
    out = {"raw": _var(net), "less luck": _var(after_luck), "AIVAT": _var(after_luck - aivat)}
    for s, street in enumerate(STREETS):
        out[f"less {street.name.lower()} luck only"] = _var(net - pot[:, s] * gain[:, s])
    residual = after_luck - aivat
    fit = d["block"] < np.median(d["block"]) if len(set(d["block"])) > 1 else (
        np.arange(len(net)) < len(net) // 2)
    k, *_ = np.linalg.lstsq(_centred(gain[fit]), residual[fit] - residual[fit].mean(),
                            rcond=None)
    out.update({f"k {street.name.lower()}": float(k[s]) for s, street in enumerate(STREETS)})
    out["AIVAT, future-bet term (held-out half)"] = _var(residual[~fit] - gain[~fit] @ k)
    out["AIVAT, held-out half as it stands"] = _var(residual[~fit])
    features = np.concatenate([gain, gain ** 2, np.abs(gain), gain * pot], axis=1)
    x, y = _centred(features), residual - residual.mean()
    beta, *_ = np.linalg.lstsq(x, y, rcond=None)
    out["equity-path R2 (in-sample)"] = float(1 - ((y - x @ beta) ** 2).mean() / (y ** 2).mean())
    return out


def _centred(x: np.ndarray) -> np.ndarray:
    return x - x.mean(axis=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rival")
    parser.add_argument("--deals", type=int, default=2000, help="deals a block")
    parser.add_argument("--blocks", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7401)
    parser.add_argument("--results", type=Path, default=ROOT / "experiments" / "results")
    args = parser.parse_args()
    start = time.perf_counter()
    figures = decompose(play(args.rival, args.deals, args.blocks, args.seed))
    seconds = time.perf_counter() - start
    raw = figures["raw"]
    lines = [f"# Where AIVAT's variance survives: heuristic against {args.rival}", "",
             f"Heads-up limit duplicate, {args.blocks} blocks of {args.deals} deals, seed "
             f"{args.seed}; variance per hand in chips squared, and the factor it is below raw "
             f"({seconds:.0f} s).", "", "| part | variance | raw / it |", "|---|---:|---:|"]
    for name, value in figures.items():
        if name.startswith("k ") or "R2" in name:
            lines.append(f"| {name} | {value:.3f} | |")
        else:
            lines.append(f"| {name} | {value:.2f} | {raw / value:.2f}x |")
    args.results.mkdir(parents=True, exist_ok=True)
    stem = args.results / f"aivat_variance_{args.rival}"
    stem.with_suffix(".md").write_text("\n".join(lines) + "\n")
    stem.with_suffix(".json").write_text(json.dumps(
        {"rival": args.rival, "deals": args.deals, "blocks": args.blocks, "seed": args.seed,
         "seconds": round(seconds, 1), "figures": figures}, indent=2) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
