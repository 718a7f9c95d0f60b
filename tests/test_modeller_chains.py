"""Chain queries against a brute-force scan of the stored hands, on random matches; pruning."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from modeller_support import (
    ModelBot,
    OracleAction,
    oracle_chain,
    oracle_ending,
    oracle_shown,
    replay,
)

from agent.modeller import ChainAnswer, ModellerParams
from agent.modeller.chains import ChainStore, EndingStats
from simulator import Action, GameConfig, Observation
from simulator.play.match import play_match


@dataclass
class Query:
    hand_number: int
    upto: int
    candidate: Action
    seat: int | None
    answer: ChainAnswer


def recorder(queries: list[Query], rng: np.random.Generator):
    """A probe that asks a random query at every decision and keeps it."""
    def probe(bot: ModelBot, obs: Observation) -> None:
        legal = obs.legal
        options = [Action.call()]
        if legal.can_fold:
            options.append(Action.fold())
        if legal.can_raise:
            options.append(Action.raise_to(int(rng.integers(legal.min_raise_to,
                                                            legal.max_raise_to + 1))))
            options.append(Action.raise_to(legal.max_raise_to))
        action = options[int(rng.integers(len(options)))]
        opponents = [s for s in range(obs.num_seats) if s != obs.seat and obs.active[s]]
        seat = None if rng.random() < 0.4 else int(rng.choice(opponents))
        queries.append(Query(obs.hand_number, len(obs.history), action, seat,
                             bot.model.query(action, seat)))
    return probe


def fields(a: OracleAction, role: int, level: int) -> tuple[int, ...]:
    if level == 0:
        return a.street, a.kind, a.size, role, a.position
    if level == 1:
        return a.street, a.kind, role, a.position
    return a.street, a.kind


def role_of(seat: int, us: int, this: str | None, names: tuple[str, ...]) -> int:
    if seat == us:
        return 0
    return 1 if this is None or names[seat] == this else 2


def brute_answer(stored: list, prefix: list[OracleAction], players: int, us: int,
                 this: str | None, names: tuple[str, ...], min_matches: int
                 ) -> tuple[int, int, list[EndingStats], float | None, int]:
    """Scan every stored hand: (matched, level, endings, mean shown, shown) as a query says."""
    chosen = None
    for level in range(3):
        want = [fields(a, role_of(a.seat, us, this, names), level) for a in prefix]
        hits = [h for h in stored
                if (this is None or this in h["names"]) and h["players"] == players
                and len(h["chain"]) >= len(prefix)
                and [fields(a, role_of(a.seat, us, this, h["seat_names"]), level)
                     for a in h["chain"][:len(prefix)]] == want]
        chosen = (level, hits)
        if len(hits) >= min_matches:
            break
    level, hits = chosen
    endings = []
    for e in range(3):
        group = [h for h in hits if h["ending"] == e]
        n = len(group)
        endings.append(EndingStats(n, sum(h["pot"] for h in group) / n if n else 0.0,
                                   sum(h["ours"] for h in group) / n if n else 0.0))
    shown = [s for h in hits if h["ending"] == 0 for s in h["shown"]]
    return len(hits), level, endings, (sum(shown) / len(shown) if shown else None), len(shown)


GAMES = {
    "limit": GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=200),
    "nolimit": GameConfig(variant="nolimit", blinds=(1, 2), stack=200),
}


@pytest.mark.parametrize(("variant", "seats", "min_matches"), [
    ("limit", 2, 4), ("limit", 3, 3), ("nolimit", 2, 3), ("nolimit", 4, 2), ("limit", 6, 30)])
def test_queries_match_a_brute_force_scan_of_the_stored_hands(variant: str, seats: int,
                                                              min_matches: int) -> None:
    game = GameConfig(**{**GAMES[variant].__dict__})
    params = ModellerParams(min_matches=min_matches)
    rng = np.random.default_rng(seats)
    queries: list[Query] = []
    bots = [ModelBot(seed=100 + i, params=params, probe=recorder(queries, rng) if i == 0
                     else None, raise_p=0.25) for i in range(seats)]
    names = tuple(f"p{i}" for i in range(seats))
    results = list(play_match(game, bots, hands=150, seed=seats, names=names))
    edges = params.size_edges
    us = 0
    stored = []
    for r in results:
        h = r.history
        final = replay(h)
        stored.append({
            "names": {names[s] for s in range(seats) if h.dealt_in[s] and s != us},
            "seat_names": h.names,
            "players": sum(h.dealt_in), "chain": oracle_chain(h, edges),
            "ending": oracle_ending(h, us), "pot": sum(final.contributions),
            "ours": final.contributions[us],
            "shown": oracle_shown(h, us) if oracle_ending(h, us) == 0 else []})
    levels = set()
    assert len(queries) > 100
    for q in queries:
        h = results[q.hand_number].history
        prefix = oracle_chain(h, edges, q.upto, (us, q.candidate))
        this = None if q.seat is None else names[q.seat]
        matched, level, endings, mean_shown, shown = brute_answer(
            stored[:q.hand_number], prefix, sum(h.dealt_in), us, this, names, min_matches)
        a = q.answer
        assert (a.matched, a.level, a.shown) == (matched, level, shown)
        for got, want in zip((a.showdown, a.they_fold, a.we_fold), endings, strict=True):
            assert got.count == want.count
            assert got.mean_pot == pytest.approx(want.mean_pot, rel=1e-12)
            assert got.mean_our_bets == pytest.approx(want.mean_our_bets, rel=1e-12)
        if mean_shown is None:
            assert a.mean_shown_strength is None
        else:
            assert a.mean_shown_strength == pytest.approx(mean_shown, rel=1e-9)
        levels.add(a.level)
    # In limit there are no sizes: level 1 matches what level 0 does, so it is never chosen.
    if min_matches < 30:
        assert levels == ({0, 2} if game.is_limit else {0, 1, 2})


def random_sequences(rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """Skewed random token sequences: a few common prefixes, long rare tails."""
    out = []
    for _ in range(n):
        length = int(rng.integers(2, 12))
        tokens = np.minimum(rng.geometric(0.5, size=length), 6) + 16
        seqs = np.stack([tokens, tokens, np.minimum(tokens, 17)]).astype(np.int16)
        out.append(seqs)
    return out


def test_the_node_cap_prunes_the_rarest_branches_and_keeps_the_rest_exact() -> None:
    rng = np.random.default_rng(5)
    hands = random_sequences(rng, 3000)
    full = ChainStore(max_nodes=10**6)
    capped = ChainStore(max_nodes=400, prune_to=0.5)
    sizes = []
    for i, seqs in enumerate(hands):
        ending = i % 3
        full.add(seqs, ending, pot=10.0 + i % 7, our_bets=2.0 + i % 3)
        capped.add(seqs, ending, pot=10.0 + i % 7, our_bets=2.0 + i % 3)
        sizes.append(capped.n_nodes)
    assert full.n_nodes > 2000
    assert max(sizes) <= 400 + 3 * 12 and capped.nbytes < full.nbytes
    # A node that survives the last pruning has the same hands as before if it was never cut;
    # the common prefixes are never cut, so their answers are exact.
    common = np.array([[17, 17], [17, 17], [17, 17]], dtype=np.int16)
    assert capped.answer(common, 1) == full.answer(common, 1)
    # Everything kept is at least as frequent as anything that was cut.
    kept = capped.counts[3:capped.n_nodes].sum(axis=1)
    assert kept.min() >= 1 and capped.matches(0) == full.matches(0) == 3000


def test_query_relaxes_level_by_level() -> None:
    store = ChainStore()
    a = np.array([[2, 40], [2, 30], [2, 20]], dtype=np.int16)
    b = np.array([[2, 41], [2, 30], [2, 20]], dtype=np.int16)  # same at levels 1 and 2
    c = np.array([[2, 42], [2, 31], [2, 20]], dtype=np.int16)  # same at level 2
    for seqs, n in ((a, 2), (b, 3), (c, 4)):
        for _ in range(n):
            store.add(seqs, 0, 10.0, 1.0)
    assert (store.answer(a, 2).level, store.answer(a, 2).matched) == (0, 2)
    assert (store.answer(a, 4).level, store.answer(a, 4).matched) == (1, 5)
    assert (store.answer(a, 6).level, store.answer(a, 6).matched) == (2, 9)
    assert (store.answer(a, 99).level, store.answer(a, 99).matched) == (2, 9)
    unseen = np.array([[3, 40], [3, 30], [3, 20]], dtype=np.int16)
    assert store.answer(unseen, 1) == ChainAnswer.empty(2)
