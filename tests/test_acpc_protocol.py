"""The ACPC wire format and the betting state: every recorded exchange (lines seen on the
reference dealer) parses, formats back to the same text, and plays through our engine."""

from __future__ import annotations

import pytest

from simulator.core.actions import Action
from simulator.core.cards import parse_cards
from simulator.core.events import ActionTaken, BoardDealt, HandEnded, HandStarted, HoleCardsDealt
from simulator.interop.acpc.client import AcpcClient
from simulator.interop.acpc.gamedef import SHIPPED, load_gamedef
from simulator.interop.acpc.hand import AcpcHand
from simulator.interop.acpc.log import parse_state_line, replay_logged, score_line, state_line
from simulator.interop.acpc.protocol import (
    ProtocolError,
    is_version,
    parse_action,
    parse_matchstate,
    parse_reply,
)
from simulator.play.protocol import BaseBot

LIMIT_2P = load_gamedef(SHIPPED / "holdem.limit.2p.reverse_blinds.game")
NOLIMIT_2P = load_gamedef(SHIPPED / "holdem.nolimit.2p.reverse_blinds.game")
LIMIT_3P = load_gamedef(SHIPPED / "holdem.limit.3p.game")

# Exchanges observed at the reference dealer (heads-up limit, seed 0): (direction, seat, line)
LIMIT_EXCHANGE = [
    ("->", 1, "MATCHSTATE:0:0::5d5c|"),
    ("->", 2, "MATCHSTATE:1:0::|9hQd"),
    ("<-", 2, "MATCHSTATE:1:0::|9hQd:c"),
    ("->", 1, "MATCHSTATE:0:0:c:5d5c|"),
    ("<-", 1, "MATCHSTATE:0:0:c:5d5c|:c"),
    ("->", 1, "MATCHSTATE:0:0:cc/:5d5c|/8dAs8s"),
    ("<-", 1, "MATCHSTATE:0:0:cc/:5d5c|/8dAs8s:r"),
    ("->", 1, "MATCHSTATE:0:0:cc/rc/crrc/rc:5d5c|9hQd/8dAs8s/4h/6d"),
    ("->", 2, "MATCHSTATE:1:0:cc/rc/crrc/rc:5d5c|9hQd/8dAs8s/4h/6d"),
    ("->", 1, "MATCHSTATE:1:1::|5dJd"),
    ("<-", 1, "MATCHSTATE:1:1::|5dJd:f"),
]
NOLIMIT_REPLIES = [
    "MATCHSTATE:0:1:cc/:JsKs|/Qd7s9d:r17194",
    "MATCHSTATE:1:1:cc/r17194:|Qs8d/Qd7s9d:c",
    "MATCHSTATE:0:1:cc/r17194c/cc/:JsKs|/Qd7s9d/Ac/Td:r18517",
    "MATCHSTATE:1:0:cr4924r15183c/r17812c/r18873r19964r20000:|Kd5c/7hAdTd/4s:c",
    "MATCHSTATE:0:2:r13572:5s6c|:r20000",
]
THREE_PLAYER = [
    "MATCHSTATE:2:2::||6cAd:r",
    "MATCHSTATE:0:2:r:KhTs||:r",
    "MATCHSTATE:1:2:rr:|3c2s|:f",
]
THREE_PLAYER_FINAL = "MATCHSTATE:2:2:rrfc/crrc/cc/crc:KhTs||6cAd/7h4hJh/3h/Ah"
STATE_LINE = "STATE:0:cc/rc/crrc/rc:5d5c|9hQd/8dAs8s/4h/6d:80|-80:Alice|Bob"

SENT = ([line for d, _, line in LIMIT_EXCHANGE if d == "->"] + [THREE_PLAYER_FINAL]
        + [r.rpartition(":")[0] for r in NOLIMIT_REPLIES + THREE_PLAYER])
REPLIES = [line for d, _, line in LIMIT_EXCHANGE if d == "<-"] + NOLIMIT_REPLIES + THREE_PLAYER


@pytest.mark.parametrize("line", SENT)
def test_every_matchstate_round_trips(line: str) -> None:
    assert str(parse_matchstate(line)) == line


@pytest.mark.parametrize("reply", REPLIES)
def test_every_reply_parses_against_its_state(reply: str) -> None:
    state, _, action = reply.rpartition(":")
    nolimit = action[1:].isdigit() or "r1" in state or "r2" in state
    assert parse_reply(reply, state, nolimit=nolimit) == action


def test_matchstate_fields() -> None:
    ms = parse_matchstate(THREE_PLAYER_FINAL)
    assert (ms.position, ms.hand_number, ms.round) == (2, 2, 3)
    assert ms.betting == (("r", "r", "f", "c"), ("c", "r", "r", "c"), ("c", "c"), ("c", "r", "c"))
    assert ms.holes == (tuple(parse_cards("KhTs")), None, tuple(parse_cards("6cAd")))
    assert ms.board == tuple(parse_cards("7h4hJh3hAh"))


@pytest.mark.parametrize("line", [
    "MATCHSTATE:0:0::5d5c",          # one position only: fine syntax, checked by players below
    "MATCHSTATE:0:0:cx:5d5c|",       # unknown action letter
    "MATCHSTATE:0:0:c/:5d5c|",       # a second round without its board cards
    "MATCHSTATE:0:0:c:5d|",          # one hole card
    "MATCHSTATE:0:0:c:5d5c|5d9h",    # a card twice
    "MATCHSTATE:0:x:c:5d5c|",        # no hand number
    "MATCHSTATE:2:0::5d5c|",         # a position beyond the players
    "MATCH:0:0::5d5c|",
])
def test_malformed_matchstates_are_protocol_errors(line: str) -> None:
    with pytest.raises(ProtocolError):
        parse_matchstate(line, players=2)


def test_replies_must_echo_and_carry_an_action_of_the_right_kind() -> None:
    sent = "MATCHSTATE:0:0:c:5d5c|"
    assert parse_reply(sent + ":k", sent, nolimit=False) == "c"  # the dealer reads k and b too
    assert parse_reply(sent + ":B", sent, nolimit=False) == "r"
    for bad, nolimit in [("MATCHSTATE:0:1:c:5d5c|:c", False), (sent + ":x", False),
                         (sent + ":r", True), (sent + ":r20", False), (sent + ":c5", False),
                         (sent, False)]:
        with pytest.raises(ProtocolError):
            parse_reply(bad, sent, nolimit=nolimit)
    assert parse_action("r250", nolimit=True) == "r250"
    assert is_version("VERSION:2.0.0") and not is_version("VERSION 2.0.0")


def _hand_of(gd, line: str, *, viewer_position: int | None = None) -> AcpcHand:
    """A hand rebuilt from one line, seen as in the dealer's rotation."""
    ms = parse_matchstate(line)
    n = len(ms.holes)
    hand = AcpcHand(gd.to_game_config(), n, ms.hand_number, (ms.hand_number - 1) % n)
    hand.set_cards({hand.seat_of(p): h for p, h in enumerate(ms.holes) if h}, ms.board)
    for r, token in ms.tokens:
        hand.apply_token(token, r)
    assert int(hand.state.street) == ms.round
    assert str(hand.matchstate(ms.position)) == line
    return hand


@pytest.mark.parametrize("reply", NOLIMIT_REPLIES)
def test_nolimit_exchanges_play_through_our_engine_and_their_replies_are_legal(
        reply: str) -> None:
    state, _, token = reply.rpartition(":")
    hand = _hand_of(NOLIMIT_2P, state)
    position = parse_matchstate(state).position
    assert hand.position_of(hand.actor) == position  # it is that bot's turn
    action = hand.action_of(token)
    assert hand.state.legal_actions().allows(action)
    assert hand.token_of(action) == token  # the conversion goes both ways


def test_raise_sizes_are_cumulative_over_rounds() -> None:
    hand = _hand_of(NOLIMIT_2P, "MATCHSTATE:0:1:cc/r17194c/cc/:JsKs|/Qd7s9d/Ac/Td")
    # 17194 in by the turn: a river raise to 18517 in total is a raise to 1323 this round
    assert hand.action_of("r18517") == Action.raise_to(1323)
    short = _hand_of(NOLIMIT_2P, "MATCHSTATE:1:0:cr4924r15183c/r17812c/r18873r19964r20000:"
                                 "|Kd5c/7hAdTd/4s")
    legal = short.state.legal_actions()
    assert not legal.can_raise and legal.can_fold  # all-in to 20000: call or fold only


def test_all_in_collapses_the_remaining_rounds() -> None:
    hand = _hand_of(NOLIMIT_2P, "MATCHSTATE:0:2:r13572:5s6c|")
    hand.apply_token("r20000", 0)
    hand.set_cards({}, parse_cards("2c3c4c5h9s"))
    hand.set_cards({1: tuple(parse_cards("AhAd"))}, ())  # the other seat, shown at the end
    hand.apply_token("c", 0)
    assert hand.finished and hand.betting() == "r13572r20000c///"


def test_three_players_position_two_opens_and_a_folded_hand_stays_hidden() -> None:
    for reply in THREE_PLAYER:
        state, _, token = reply.rpartition(":")
        hand = _hand_of(LIMIT_3P, state)
        assert hand.position_of(hand.actor) == parse_matchstate(state).position
        assert hand.state.legal_actions().allows(hand.action_of(token))
    final = _hand_of(LIMIT_3P, THREE_PLAYER_FINAL)
    assert final.finished and final.seat_of(1) not in final.state.shown


def test_log_lines_round_trip_and_replay() -> None:
    logged = parse_state_line(STATE_LINE)
    assert str(logged) == STATE_LINE
    hand = replay_logged(logged, LIMIT_2P.to_game_config())
    assert hand.net() == (80, -80)
    assert state_line(hand.history(logged.names)) == STATE_LINE
    assert score_line([315, -315], ["Alice", "Bob"]) == "SCORE:315|-315:Alice|Bob"
    with pytest.raises(ProtocolError, match="pays"):
        replay_logged(parse_state_line(STATE_LINE.replace("80|-80", "70|-70")),
                      LIMIT_2P.to_game_config())
    with pytest.raises(ProtocolError, match="illegal"):
        replay_logged(parse_state_line(STATE_LINE.replace("crrc", "crrrrrc")),
                      LIMIT_2P.to_game_config())


class _Scripted(BaseBot):
    """Plays the observed exchange's actions and records every event."""

    def __init__(self, actions: list[str]) -> None:
        self.actions, self.events, self.seats = list(actions), [], []

    def observe(self, event) -> None:  # noqa: ANN001
        self.events.append(event)

    def act(self, observation):  # noqa: ANN001, ANN201
        self.seats.append(observation.seat)
        token = self.actions.pop(0)
        legal = observation.legal
        return {"c": Action.call(), "f": Action.fold()}.get(
            token, Action.raise_to(legal.min_raise_to or 0))


def test_our_client_replays_the_observed_limit_exchange() -> None:
    """Seat 1 of the observed exchange (position 0 in hand 0, position 1 in hand 1)."""
    bot = _Scripted(["c", "r", "c", "r", "r", "f"])
    client = AcpcClient(bot, LIMIT_2P.to_game_config(), 2, name="Alice")
    sent: list[str] = []
    to_seat1 = [line for d, seat, line in LIMIT_EXCHANGE if d == "->" and seat == 1]
    # the lines of hand 0 the exchange leaves out ("..."): the rest of the betting
    middle = ["MATCHSTATE:0:0:cc/r:5d5c|/8dAs8s", "MATCHSTATE:0:0:cc/rc/:5d5c|/8dAs8s/4h",
              "MATCHSTATE:0:0:cc/rc/c:5d5c|/8dAs8s/4h", "MATCHSTATE:0:0:cc/rc/cr:5d5c|/8dAs8s/4h",
              "MATCHSTATE:0:0:cc/rc/crr:5d5c|/8dAs8s/4h",
              "MATCHSTATE:0:0:cc/rc/crrc/:5d5c|/8dAs8s/4h/6d",
              "MATCHSTATE:0:0:cc/rc/crrc/r:5d5c|/8dAs8s/4h/6d"]
    for line in to_seat1[:3] + middle + to_seat1[3:]:
        client.handle(line, sent.append)
    expected = [line for d, seat, line in LIMIT_EXCHANGE if d == "<-" and seat == 1]
    assert sent[:2] == expected[:2] and sent[-1] == expected[-1]
    assert sent[2:-1] == ["MATCHSTATE:0:0:cc/rc/:5d5c|/8dAs8s/4h:c",
                          "MATCHSTATE:0:0:cc/rc/cr:5d5c|/8dAs8s/4h:r",
                          "MATCHSTATE:0:0:cc/rc/crrc/:5d5c|/8dAs8s/4h/6d:r"]
    assert client.report.seat == 0 and set(bot.seats) == {0}  # a fixed seat across hands
    assert client.report.hands == 1 and client.report.chips == 80
    kinds = [type(e) for e in bot.events]
    assert kinds[:2] == [HandStarted, HoleCardsDealt] and kinds.count(BoardDealt) == 3
    assert kinds.count(HandEnded) == 1 and kinds.count(HandStarted) == 2
    started = [e for e in bot.events if isinstance(e, HandStarted)]
    assert [e.button for e in started] == [1, 0]  # the button moves: seats stay
    assert started[0].names == ("Alice", "seat2")
    assert sum(isinstance(e, ActionTaken) for e in bot.events) == 10


def test_fixed_positions_keep_the_seat_and_the_button() -> None:
    lines = ["MATCHSTATE:0:0::5d5c|", "MATCHSTATE:0:0:f:5d5c|", "MATCHSTATE:0:1::7h7d|"]
    client = AcpcClient(_Scripted([]), LIMIT_2P.to_game_config(), 2)
    for line in lines[:2]:
        client.handle(line, lambda reply: None)
    with pytest.raises(ProtocolError, match="--fixed-positions"):
        client.handle(lines[2], lambda reply: None)
    bot = _Scripted([])
    fixed = AcpcClient(bot, LIMIT_2P.to_game_config(), 2, fixed_positions=True)
    for line in lines:
        fixed.handle(line, lambda reply: None)
    started = [e for e in bot.events if isinstance(e, HandStarted)]
    assert [e.button for e in started] == [1, 1] and fixed.report.seat == 0


def test_a_dealer_that_breaks_the_rules_is_a_protocol_error() -> None:
    for lines, problem in [
        (["MATCHSTATE:0:0::5d5c|", "MATCHSTATE:0:0:cc:5d5c|"], "round"),   # no round end
        (["MATCHSTATE:0:0::5d5c|", "MATCHSTATE:0:0:rrrr:5d5c|"], "illegal"),  # over the cap
        (["MATCHSTATE:0:0::5d5c|", "MATCHSTATE:0:0:c:5d5c|", "MATCHSTATE:0:0:f:5d5c|"],
         "continue"),
        (["MATCHSTATE:0:0::5d5c|", "MATCHSTATE:0:0:c:5d5c|", "MATCHSTATE:0:1::|5d5c"],
         "ended"),
    ]:
        client = AcpcClient(_Scripted(["c"] * 5), LIMIT_2P.to_game_config(), 2)
        with pytest.raises(ProtocolError, match=problem):
            for line in lines:
                client.handle(line, lambda reply: None)
