"""The modeller's API: hidden cards stay hidden, names follow bots, modes, save/load, errors,
and every call at 2-10 seats in both variants."""

from __future__ import annotations

import json
import math
import zipfile
from pathlib import Path

import numpy as np
import pytest
from modeller_support import ModelBot, preflop_values

import simulator.play.match as match_module
from agent.modeller import (
    ChainAnswer,
    ModelFileError,
    ModellerError,
    ModellerParams,
    OpponentModeller,
)
from agent.modeller.model import Mode
from agent.strength.ehs import hand_strength
from simulator import (
    Action,
    BaseBot,
    BotContext,
    Event,
    GameConfig,
    HandStarted,
    HoleCardsDealt,
    Observation,
    Street,
)
from simulator.core.cards import clashing_holdings
from simulator.core.deal import Deal
from simulator.play.baseline import CallBot, RaiseBot
from simulator.play.match import play_match

LIMIT = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=200)
NOLIMIT = GameConfig(variant="nolimit", blinds=(1, 2), stack=200)


# --- the modeller never sees another seat's hidden cards ---------------------------------------


class RiverFolder(ModelBot):
    """Calls to the river and folds there to a bet (checks when free): no showdown against a
    bot that always bets. Records everything the modeller answers at each decision."""

    def __init__(self, leak: bool = False) -> None:
        super().__init__(seed=0, mode="full")
        self.leak = leak
        self.answers: list[object] = []

    def observe(self, event: Event) -> None:
        super().observe(event)
        if self.leak and isinstance(event, HoleCardsDealt):
            # Feed it another seat's private event too: it must ignore it.
            self.model.observe(HoleCardsDealt(1, self.deals[-1].holes[1]))

    def act(self, obs: Observation) -> Action:
        m = self.model
        opponents = [s for s in range(obs.num_seats) if s != obs.seat and obs.active[s]]
        for s in opponents:
            self.answers.append(m.weights(s).tobytes())
            self.answers.append(m.frequencies(s, obs.street, m.bets_to_call(s)))
        for a in (Action.call(), Action.fold()):
            self.answers.append(m.query(a))
            self.answers.extend(m.query(a, s) for s in opponents)
        if obs.street == Street.RIVER and obs.legal.can_fold:
            return Action.fold()
        return Action.call()


class Folder(BaseBot):
    def act(self, obs: Observation) -> Action:
        return Action.fold() if obs.legal.can_fold else Action.call()


@pytest.mark.parametrize("game", [LIMIT, NOLIMIT], ids=["limit", "nolimit"])
@pytest.mark.parametrize("seats", [2, 3])
def test_hidden_cards_never_reach_the_modeller(game: GameConfig, seats: int,
                                               monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    """Two matches whose public events are the same and whose opponents' hidden cards all
    differ: the modeller answers the same at every decision and saves the same model."""
    real = match_module.deal_cards
    runs = []
    for swap in (False, True):
        bot = RiverFolder(leak=swap)
        bot.deals = []

        def deal(seed: int, hand: int, n: int, swap: bool = swap, bot: RiverFolder = bot
                 ) -> Deal:
            d = real(seed, hand, n)
            if swap:  # every opponent gets unused cards; ours and the board stay
                spare = [c for c in range(52) if c not in set(sum(d.holes, ()) + d.board)]
                holes = [d.holes[0]] + [tuple(spare[2 * i:2 * i + 2]) for i in range(n - 1)]
                d = Deal(tuple(holes), d.board)
            bot.deals.append(d)
            return d

        monkeypatch.setattr(match_module, "deal_cards", deal)
        bots = [bot, RaiseBot(), Folder()][:seats]
        results = list(play_match(game, bots, hands=40, seed=5, names=("me", "v", "w")[:seats]))
        assert all(not r.history.shown for r in results)
        bot.model.save(tmp_path / f"{swap}.npz")
        runs.append((bot, results))
    (a, ra), (b, rb) = runs
    assert all(x.history.holes[1] != y.history.holes[1] for x, y in zip(ra, rb, strict=True))
    assert a.answers == b.answers and len(a.answers) > 100
    saved = [np.load(tmp_path / f"{swap}.npz") for swap in (False, True)]
    assert saved[0].files == saved[1].files
    for key in saved[0].files:
        assert np.array_equal(saved[0][key], saved[1][key])


# --- models follow names ------------------------------------------------------------------------


def test_models_follow_seat_names_across_permutations() -> None:
    bot = ModelBot(seed=1, mode="frequencies")
    list(play_match(LIMIT, [bot, RaiseBot(), CallBot()], hands=30, seed=1,
                    names=("me", "raiser", "caller")))
    after_first = bot.model.action_counts["raiser"].counts.sum()
    # the same bots in other seats, as a duplicate permutation seats them
    list(play_match(LIMIT, [CallBot(), bot, RaiseBot()], hands=30, seed=2,
                    names=("caller", "me", "raiser")))
    raiser = bot.model.action_counts["raiser"].counts
    caller = bot.model.action_counts["caller"].counts
    assert raiser.sum() > after_first
    assert caller[..., 2].sum() == 0 and caller.sum() > 30  # the caller never raised
    assert raiser[:, 0, 2].sum() > 0  # the raiser bets when nobody has
    assert set(bot.model.stores) == set() and set(bot.model.action_counts) == {"raiser",
                                                                              "caller"}


# --- modes --------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["off", "frequencies", "full"])
def test_modes(mode: str) -> None:
    seen: list[tuple[ChainAnswer, tuple[float, float, float], np.ndarray]] = []

    def probe(bot: ModelBot, obs: Observation) -> None:
        m = bot.model
        seen.append((m.query(Action.call()), m.frequencies(1, obs.street, 1), m.weights(1)))

    bot = ModelBot(seed=3, mode=mode, probe=probe)
    list(play_match(LIMIT, [bot, RaiseBot()], hands=60, seed=3))
    late = seen[len(seen) // 2:]
    answers = [a for a, _, _ in late]
    learned = [f != (0.5, 0.3, 0.2) for _, f, _ in late]
    reweighted = [((w > 0) & (w < 1)).any() for _, _, w in late]
    if mode == "off":
        assert all(a == ChainAnswer.empty() for a in answers)
        assert not any(learned) and not any(reweighted)
    elif mode == "frequencies":
        assert all(a == ChainAnswer.empty() for a in answers)
        assert all(learned) and any(reweighted)
    else:
        assert any(a.matched > 0 for a in answers) and all(learned) and any(reweighted)
    assert set(bot.model.stores) == ({"RaiseBot1"} if mode == "full" else set())


# --- save and load ------------------------------------------------------------------------------


def played(mode: str = "full", hands: int = 40) -> OpponentModeller:
    bots = [ModelBot(seed=i, mode=mode) for i in range(3)]
    list(play_match(NOLIMIT, bots, hands=hands, seed=4, names=("a", "b", "c")))
    return bots[0].model


def assert_same(m: OpponentModeller, n: OpponentModeller) -> None:
    assert set(m.stores) == set(n.stores) and set(m.action_counts) == set(n.action_counts)
    for name in m.action_counts:
        assert np.array_equal(m.action_counts[name].counts, n.action_counts[name].counts)
    for x, y in [(m.generic, n.generic)] + [(m.stores[k], n.stores[k]) for k in m.stores]:
        assert x.n_nodes == y.n_nodes and x.hands == y.hands
        for field, array in x.arrays().items():  # the same parents make the same tree
            assert np.array_equal(array, y.arrays()[field])


def test_save_load_round_trip_and_the_loaded_model_goes_on_learning(tmp_path: Path) -> None:
    m = played()
    path = tmp_path / "model.npz"
    m.save(path)
    n = OpponentModeller.load(path, m.params, preflop_values=preflop_values())
    assert_same(m, n)
    n.save(tmp_path / "again.npz")
    assert_same(n, OpponentModeller.load(tmp_path / "again.npz"))
    # both answer every query alike, and the loaded one keeps storing hands
    questions: list[list[ChainAnswer]] = [[], []]
    for i, model in enumerate((m, n)):
        def probe(bot: ModelBot, obs: Observation, i: int = i) -> None:
            questions[i].append(bot.model.query(Action.call(), None))
            questions[i].extend(bot.model.query(Action.call(), s) for s in range(1, 3)
                                if obs.active[s])
        bot = ModelBot(seed=0, probe=probe)
        bot.model = model
        list(play_match(NOLIMIT, [bot, ModelBot(seed=1), ModelBot(seed=2)], hands=20, seed=9,
                        names=("a", "b", "c")))
    assert questions[0] == questions[1] and any(q.matched for q in questions[0])
    assert n.generic.hands == 60


def rewrite(src: Path, dst: Path, change) -> None:
    """Copy an archive, changing its members with ``change(name, bytes) -> bytes | None``."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for item in zin.infolist():
            data = change(item.filename, zin.read(item.filename))
            if data is not None:
                zout.writestr(item, data)


def header_change(**fields):
    def change(name: str, data: bytes) -> bytes:
        if name != "header.npy":
            return data
        import io
        arr = np.load(io.BytesIO(data))
        header = json.loads(arr.tobytes().decode()) | fields
        out = io.BytesIO()
        np.save(out, np.frombuffer(json.dumps(header).encode(), dtype=np.uint8))
        return out.getvalue()
    return change


def test_files_of_earlier_versions_are_refused_saying_why(tmp_path: Path) -> None:
    """Versions 1 and 2 recorded no game (and left the header out of the checksum)."""
    arrays = {"header": np.frombuffer(json.dumps({
        "format": "holdem-opponent-model", "version": 2, "size_edges": [0.4, 0.8, 1.5],
        "stores": [], "frequencies": [], "checksum": 0}).encode(), dtype=np.uint8)}
    with open(tmp_path / "v2.npz", "wb") as f:
        np.savez(f, **arrays)
    with pytest.raises(ModelFileError, match="version 2; this reader reads version 3 "
                                             r"\(versions 1 and 2 recorded no game"):
        OpponentModeller.load(tmp_path / "v2.npz")


def test_bad_files_give_clear_errors(tmp_path: Path) -> None:
    m = played(hands=15)
    good = tmp_path / "good.npz"
    m.save(good)
    raw = good.read_bytes()
    cases: dict[str, str] = {}

    def case(name: str, data: bytes, match: str) -> None:
        (tmp_path / name).write_bytes(data)
        cases[name] = match

    case("truncated.npz", raw[: len(raw) // 2], "corrupt or truncated")
    case("empty.npz", b"", "corrupt or truncated|not a readable")
    case("text.npz", b"hello, I am not a model\n", "not a readable")
    flipped = bytearray(raw)
    flipped[len(raw) // 3] ^= 0xFF
    case("flipped.npz", bytes(flipped), "corrupt")
    rewrite(good, tmp_path / "version.npz", header_change(version=99))
    cases["version.npz"] = "version 99; this reader reads version 3"
    rewrite(good, tmp_path / "format.npz", header_change(format="something else"))
    cases["format.npz"] = "not an opponent model"
    rewrite(good, tmp_path / "noheader.npz", lambda n, d: None if n == "header.npy" else d)
    cases["noheader.npz"] = "no header"
    rewrite(good, tmp_path / "missing.npz",
            lambda n, d: None if n == "generic.ints.npy" else d)
    cases["missing.npz"] = "generic.ints: expected"
    np.save(tmp_path / "bare.npy", np.arange(3))
    cases["bare.npy"] = "not a readable archive"
    for name, match in cases.items():
        with pytest.raises(ModelFileError, match=match):
            OpponentModeller.load(tmp_path / name)
    with pytest.raises(ModelFileError, match="no such file"):
        OpponentModeller.load(tmp_path / "nowhere.npz")
    with pytest.raises(ModelFileError, match="size edges"):
        OpponentModeller.load(good, ModellerParams(size_edges=(0.5, 1.0)))
    # a loaded store is checked too: a damaged tree with a matching checksum is refused
    from agent.modeller.chains import ChainStore
    fields = m.generic.arrays()
    fields["ints"] = fields["ints"].copy()
    fields["ints"][-1, 3] = len(fields["ints"])  # the last node's parent: a later node
    with pytest.raises(ModelFileError, match="parent"):
        ChainStore.from_arrays(fields, 10**6, 0.8, "here")


# --- the API's refusals --------------------------------------------------------------------------


def test_questions_outside_a_hand_or_about_non_opponents_are_refused() -> None:
    with pytest.raises(ModellerError, match="mode"):
        OpponentModeller(mode="learn")  # type: ignore[arg-type]
    m = OpponentModeller(preflop_values=preflop_values())
    with pytest.raises(ModellerError, match="start"):
        m.observe(HandStarted(0, 1, ("a", "b"), (200, 200), (True, True), LIMIT))
    with pytest.raises(ModellerError, match=r"start\(context\) first"):
        m.frequencies(1, 1, 0)  # e.g. a loaded model: counts by name, no seats yet
    m.start(BotContext(seat=0, names=("a", "b", "c"), game=LIMIT))
    with pytest.raises(ModellerError, match="no hand"):
        m.weights(1)
    m.observe(HandStarted(0, 2, ("a", "b", "c"), (200, 0, 200), (True, False, True),
                          LIMIT))
    for seat in (0, 1, 7):
        with pytest.raises(ModellerError, match="not an opponent"):
            m.weights(seat)
        with pytest.raises(ModellerError, match="not an opponent"):
            m.query(Action.call(), seat)
    assert m.weights(2).shape == (1326,)
    for seat in (0, 5):
        with pytest.raises(ModellerError, match="not an opponent"):
            m.frequencies(seat, 0, 1)
    assert m.frequencies(1, 0, 1) == (0.5, 0.3, 0.2)  # sitting out, but a seat all the same


# --- every call at every table size, both variants ---------------------------------------------


def checker(errors: list[str]):
    def probe(bot: ModelBot, obs: Observation) -> None:
        m = bot.model
        dead = clashing_holdings(obs.board)  # our own cards rule nothing out
        for s in range(obs.num_seats):
            if s == obs.seat or not obs.active[s]:
                continue
            w = m.weights(s)
            # a floored weight stays at the floor; a floored factor never reaches 0
            least = 0.01 - 1e-12 if m.params.floor_on == "weight" else 1e-300
            if not ((w[dead] == 0).all() and (w[~dead] >= least).all()):
                errors.append(f"weights of seat {s}")
            if obs.board and not 0 <= hand_strength(obs.hole_cards, obs.board, w) <= 1:
                errors.append("the weights do not feed the hand evaluator")  # as they are
            f = m.frequencies(s, obs.street, m.bets_to_call(s))
            if not math.isclose(sum(f), 1.0):
                errors.append(f"frequencies {f}")
            a = m.query(Action.call(), s)
            if a.matched != a.showdown.count + a.they_fold.count + a.we_fold.count:
                errors.append(f"answer {a}")
        if obs.game.is_limit and obs.stacks[obs.seat] > obs.to_call:
            want = min(math.ceil(obs.to_call / obs.game.bet_size(obs.street)), 2)
            if m.bets_to_call(obs.seat) != want:
                errors.append(f"bets to call {m.bets_to_call(obs.seat)} != {want}")
        if obs.legal.can_raise:
            m.query(Action.raise_to(obs.legal.max_raise_to))
    return probe


@pytest.mark.parametrize("game", [LIMIT, NOLIMIT], ids=["limit", "nolimit"])
@pytest.mark.parametrize("seats", [2, 5, 10])
def test_every_call_at_every_table_size(game: GameConfig, seats: int) -> None:
    errors: list[str] = []
    reweighting = "triple" if seats == 5 else "threshold"
    bots = [ModelBot(seed=i, params=ModellerParams(reweighting=reweighting, min_matches=5),
                     probe=checker(errors)) for i in range(seats)]
    list(play_match(game, bots, hands=25, seed=seats))
    assert not errors, errors[:5]
    for bot in bots:
        assert bot.model.generic.hands == 25
        assert len(bot.model.stores) == seats - 1


@pytest.mark.parametrize(("data", "match"), [
    ({"min_match": 3}, "min_match: unknown key"), ({"min_matches": 0}, "min_matches"),
    ({"size_edges": []}, "size_edges"), ({"size_edges": [1, 2, 3, 4, 5, 6, 7]}, "size_edges"),
    ({"prune_to": 1.0}, "prune_to"), ({"reweighting": "loki3"}, "reweighting"),
    ({"sigma_postflop": 0}, "sigma_postflop"), ({"weight_floor": 0}, "weight_floor"),
    ({"default_frequencies": [[0, 1, 0]] * 2}, "default_frequencies"),
    ({"default_frequencies": [[0.5, 0.6, 0]] * 3}, "default_frequencies"),
    ({"max_nodes": 10}, "max_nodes"), ({"preflop_skip_percentile": 100}, "percentile"),
    ({"raised_back_frequencies": [0.5, 0.6, 0]}, "raised_back_frequencies"),
    ({"raised_back_context": "yes"}, "raised_back_context"),
])
def test_bad_parameters_are_refused_with_the_key_named(data: dict, match: str) -> None:
    with pytest.raises(ModellerError, match=match):
        ModellerParams.from_dict(data)


def test_a_hypothetical_action_changes_nothing_real() -> None:
    from simulator import ActionKind, ActionRecord, ActionTaken, BoardDealt

    m = OpponentModeller(mode="full", preflop_values=preflop_values())
    m.start(BotContext(seat=0, names=("me", "v"), game=LIMIT))
    m.observe(HandStarted(0, button=0, names=("me", "v"), stacks=(200, 200),
                          dealt_in=(True, True), game=LIMIT))
    calls = [ActionRecord(0, Street.PREFLOP, ActionKind.CALL, None, 1),
             ActionRecord(1, Street.PREFLOP, ActionKind.CALL, None, 0)]
    for r in calls:
        m.observe(ActionTaken(r))
    board = (10, 20, 30)
    m.observe(BoardDealt(Street.FLOP, board, board))
    before = (m.weights(1).copy(), m.action_counts["v"].counts.copy(), m.hand())
    raise_ = ActionRecord(1, Street.FLOP, ActionKind.RAISE, 2, 2)
    what_if = m.hand_at([*calls, raise_], board)
    assert not np.array_equal(what_if.weights[1].weights, before[0])  # re-weighted
    assert what_if.betting.current.bets_to_call(0) == 1
    assert np.array_equal(m.weights(1), before[0]) and m.hand() is before[2]
    assert np.array_equal(m.action_counts["v"].counts, before[1])  # nothing learned
    # the same action, really taken, gives the same picture (and is learned)
    m.observe(ActionTaken(raise_))
    assert np.array_equal(m.weights(1), what_if.weights[1].weights)
    assert m.action_counts["v"].counts.sum() == before[1].sum() + 1
    # a history that leaves the real one early is stepped through from where they part
    fold = ActionRecord(0, Street.PREFLOP, ActionKind.FOLD, None, 0)
    assert m.hand_at([fold], ()).folded(0) and not m.hand().folded(0)


@pytest.mark.parametrize("mode", ["off", "frequencies", "full"])
def test_seen_folds_start_at_none_and_count_only_real_folds(mode: str) -> None:
    # a steal's fold chance (agent.heuristic.preflop_policy): no folds until some are seen, whatever
    # Table B.2 says (half the players facing a bet fold), and then folds over max(n, prior)
    asked: list[tuple[float, int, int]] = []

    def probe(bot: ModelBot, obs: Observation) -> None:
        counts = bot.model.action_counts.get("p1")
        seen = counts.counts[obs.street, 1] if counts is not None else np.zeros(3, int)
        asked.append((bot.model.seen_fold(1, obs.street, 1), int(seen[0]), int(seen.sum())))

    bot = ModelBot(seed=3, mode=mode, probe=probe)
    rival = ModelBot(seed=4, mode="off", fold_p=0.4)
    list(play_match(LIMIT, [bot, rival], hands=60, seed=3, names=("p0", "p1")))
    assert asked[0][0] == 0.0 and bot.model.frequencies(1, 0, 1)[0] > 0
    if mode == "off":
        assert not any(f for f, _, _ in asked)
    else:
        assert any(f > 0 for f, _, _ in asked)
        prior = bot.model.params.prior_observations
        assert all(f == folds / max(n, prior) for f, folds, n in asked)


@pytest.mark.parametrize("mode", ["off", "frequencies", "full"])
def test_all_called_reads_what_stepping_through_the_calls_gives(mode: Mode) -> None:
    from simulator import ActionKind, ActionRecord, ActionTaken

    names = ("me", "a", "b", "c")
    m = OpponentModeller(mode=mode, preflop_values=preflop_values())
    m.start(BotContext(seat=0, names=names, game=LIMIT))
    m.observe(HandStarted(0, button=3, names=names, stacks=(200,) * 4,
                          dealt_in=(True,) * 4, game=LIMIT))
    # seat 3 has the button: seat 2 raises, seat 3 calls, and we (the small blind) raise
    real = [ActionRecord(2, Street.PREFLOP, ActionKind.RAISE, 4, 4),
            ActionRecord(3, Street.PREFLOP, ActionKind.CALL, None, 4)]
    for r in real:
        m.observe(ActionTaken(r))
    ours = ActionRecord(0, Street.PREFLOP, ActionKind.RAISE, 6, 5)
    calls = [ActionRecord(s, Street.PREFLOP, ActionKind.CALL, None, 6 - bet)
             for s, bet in ((1, 2), (2, 4), (3, 4))]
    for history in (real, real[:1]):  # the real hand so far, and a history that leaves it
        weights, pot = m.all_called(history, (), Street.PREFLOP, ours, calls)
        stepped = m.hand_at([*history, ours, *calls], (), Street.PREFLOP)
        assert pot == stepped.betting.pot
        assert sorted(weights) == sorted(stepped.weights)
        for seat, w in weights.items():
            assert np.array_equal(w, stepped.weights[seat].weights)
    # where the real hand went on with our very raise, the real pictures are read
    m.observe(ActionTaken(ours))
    weights, pot = m.all_called(real, (), Street.PREFLOP, ours, calls[:1])
    stepped = m.hand_at([*real, ours, *calls[:1]], (), Street.PREFLOP)
    assert pot == stepped.betting.pot
    assert all(np.array_equal(w, stepped.weights[s].weights) for s, w in weights.items())


def test_each_hand_is_modelled_in_its_own_game() -> None:
    # a tournament's blinds rise between hands: the hand's start says its game, and the
    # model's picture of the betting (who posted what) follows it, not the first hand's
    m = OpponentModeller(preflop_values=preflop_values())
    m.start(BotContext(seat=0, names=("a", "b"), game=NOLIMIT))
    later = GameConfig(variant="nolimit", blinds=(10, 20), stack=200, reset_stacks=False)
    m.observe(HandStarted(3, 1, ("a", "b"), (150, 250), (True, True), later))
    hand = m.hand()
    assert hand.game == later
    assert sorted(hand.betting.contributions) == [10, 20]
