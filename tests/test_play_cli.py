"""``holdem play``: a person at a terminal, driven here through its input and output."""

import io
import re

import pytest

from agent.commands.play import TerminalPlayer, main
from simulator import (
    ActionRecord,
    ActionTaken,
    BoardDealt,
    GameConfig,
    HandEnded,
    HandStarted,
    HoldemError,
    Showdown,
    Street,
)
from simulator.cli import main as holdem
from simulator.core.actions import ActionKind
from simulator.core.cards import parse_cards
from simulator.core.frozen import FrozenMap


def play(moves: str, *args: str) -> str:
    out = io.StringIO()
    assert main(list(args), stdin=io.StringIO(moves), stdout=out) == 0
    return out.getvalue()


def test_a_hand_shows_cards_board_pot_and_legal_actions_and_the_result() -> None:
    text = play("c\n" * 20, "--opponent", "call", "--hands", "1", "--seed", "3")
    assert "your cards:" in text and "your move (" in text and "pot " in text
    assert "-- flop:" in text and "-- river:" in text  # two players checking it down
    assert text.count(" show") >= 2  # a showdown shows what the bot held
    assert "running total" in text and "you played 1 hand(s)" in text


def test_bad_input_is_asked_again_never_a_traceback() -> None:
    text = play("hello\nr 99999\nr\n\nf\nq\n", "--opponent", "call", "--variant", "nolimit",
                "--hands", "3", "--seed", "1")
    assert "not a legal action: 'hello'" in text
    assert "not a legal action: 'r 99999'" in text
    assert "not a legal action: 'r'" in text  # no-limit needs an amount
    assert "not a legal action: 'f'" in text  # checking is free
    assert "you played 0 hand(s)" in text  # q ended the session in the hand it was typed in


def test_end_of_input_ends_the_session_cleanly() -> None:
    text = play("", "--opponent", "raise", "--opponent", "call", "--hands", "5", "--seed", "2")
    assert text.endswith("you played 0 hand(s): +0 chips (+0.00 big blinds a hand)\n")


def test_limit_raise_needs_no_amount_and_the_table_can_be_full() -> None:
    text = play("r\n" + "c\n" * 40, *sum((["--opponent", "call"] for _ in range(9)), []),
                "--hands", "1", "--seed", "4")
    assert "you raise to" in text or "you call" in text or "you check" in text
    assert "call9" in text


@pytest.mark.parametrize("args", [["--opponent", "no_such_bot"], ["--blinds", "x"],
                                  ["--hands", "0"]])
def test_bad_arguments_are_holdem_errors(args: list[str]) -> None:
    with pytest.raises(HoldemError):
        main(args, stdin=io.StringIO(""), stdout=io.StringIO())


def test_q_ends_the_session_at_once() -> None:
    text = play("q\n", "--opponent", "call", "--hands", "5", "--seed", "3")
    after = text[text.index("/q]: q"):]
    assert "you played 0 hand(s)" in after
    assert "-- flop" not in after and "result:" not in after and "call1 " not in after


def test_the_showdown_names_each_hand_and_the_winner() -> None:
    text = play("c\n" * 20, "--opponent", "call", "--hands", "3", "--seed", "3")
    shown = re.findall(r"(?:you show|call1 shows) \S\S \S\S: ([A-Za-z ]+)", text)
    assert len(shown) >= 2 and all(shown)
    assert re.search(r"\n  (you win \d+ chips|call1 wins \d+ chips|split pot: you and call1)"
                     r" with [a-z]", text)


def test_a_split_pot_names_both_players() -> None:
    out = io.StringIO()
    person = TerminalPlayer(lambda: None, out)
    person.observe(HandStarted(0, 1, ("me", "bob"), (200, 200), (True, True), GameConfig()))
    person.ranks = {0: 1600, 1: 1600}  # the same straight
    person.named = {0: "a straight, six high", 1: "a straight, six high"}
    person.observe(HandEnded(0, (0, 0), (200, 200)))
    assert ("  split pot: you and bob with a straight, six high (each takes back its chips)\n"
            in out.getvalue())
    person.ranks = {0: 1600, 1: 3000}
    person.named = {0: "a straight, six high", 1: "a pair of nines"}
    person.observe(HandEnded(1, (-2, 2), (198, 202)))
    assert "  bob wins 2 chips with a pair of nines\n" in out.getvalue()


def test_fold_is_offered_only_when_it_is_legal() -> None:
    text = play("c\n" * 20, "--opponent", "raise", "--hands", "2", "--seed", "5")
    prompts = re.findall(r"your move \(([^)]*)\) \[([^\]]*)\]", text)
    assert prompts
    for legal, keys in prompts:
        assert ("f" in keys.split("/")) == legal.startswith("fold"), (legal, keys)
    assert any(not k.startswith("f") for _, k in prompts)  # a free check somewhere


def test_the_button_is_yours_and_a_plugin_opponent_has_a_tidy_name() -> None:
    text = play("c\n" * 40, "--opponent", "simulator.play.baseline:CallBot", "--hands", "2",
                "--seed", "3")
    assert "you have the button" in text and "you has" not in text
    assert "callbot1 has the button" in text and "simulator.play" not in text


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_prompt_waits_on_its_own_line() -> None:
    out = io.StringIO()
    assert main(["--opponent", "call", "--hands", "1", "--seed", "3"],
                stdin=_Terminal("c\nq\n"), stdout=out) == 0
    text = out.getvalue()
    assert text[:text.index("your move")].endswith("\n")  # a line of its own
    assert "[c/r/q]:   you check" in text  # the answer was typed after it: no line between


@pytest.mark.parametrize("typo", ["r x", "r \u00b2", "r " + "9" * 5000, "raise -4"])
def test_a_typo_asks_again(typo: str) -> None:
    text = play(f"{typo}\nq\n", "--opponent", "call", "--variant", "nolimit", "--hands", "1",
                "--seed", "1")
    assert f"not a legal action: {typo[:40]!r}" in text
    assert text.count("your move (") == 2


def test_a_negative_seed_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert holdem(["play", "--seed", "-1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "holdem play: --seed: expected 0 or more, got -1"
    assert holdem(["play", "--hands", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("holdem play:") == 1 and "\n" not in err


def test_an_opponent_that_cannot_play_the_game_is_refused_before_any_card(
        capsys: pytest.CaptureFixture[str]) -> None:
    """cfr plays heads-up limit only: refused at once with exit 2, not from its start()
    after the first hand was dealt (exit 1)."""
    assert holdem(["play", "--opponent", "cfr", "--variant", "nolimit", "--seed", "1"]) == 2
    captured = capsys.readouterr()
    assert "=== hand" not in captured.out and "your cards" not in captured.out
    err = captured.err.strip()
    assert err.startswith("holdem play: --opponent cfr: cfr plays heads-up fixed-limit")
    assert err.endswith("this game is no-limit") and "\n" not in err
    assert holdem(["play", "--opponent", "cfr", "--opponent", "call", "--seed", "1"]) == 2
    assert capsys.readouterr().err.strip().endswith("this game is 3 seats")
    assert holdem(["play", "--opponent", "cfr", "--variant", "potlimit", "--seed", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("this game is pot-limit") and "fixed-limit hold'em only" in err


def test_potlimit_offers_raises_up_to_the_pot_only() -> None:
    """Heads-up at blinds 1/2 the button may raise to 6 at most (call 1, then the pot of 4);
    7 is refused and asked again, 6 is played."""
    text = play("r 7\nr 6\nq\n", "--opponent", "call", "--variant", "potlimit", "--hands",
                "1", "--seed", "2")
    assert "r AMOUNT" in text
    assert "not a legal action: 'r 7'" in text
    assert "you raise to 6" in text


def test_a_showdown_names_each_hand_fully_and_the_chips_won() -> None:
    out = io.StringIO()
    person = TerminalPlayer(lambda: None, out)
    person.observe(HandStarted(0, 1, ("me", "bob"), (200, 200), (True, True), GameConfig()))
    board = tuple(parse_cards("Kc4d9sKh2c"))
    person.observe(BoardDealt(Street.RIVER, board[4:], board))
    jacks, kings = tuple(parse_cards("JhJd")), tuple(parse_cards("4s7h"))
    person.observe(Showdown(FrozenMap({0: jacks, 1: kings})))
    person.observe(HandEnded(0, (-12, 12), (188, 212)))
    text = out.getvalue()
    assert "  you show Jh Jd: two pair, kings and jacks\n" in text
    assert "  bob shows 4s 7h: a full house, fours over kings\n" not in text
    assert "  bob shows 4s 7h: two pair, kings and fours\n" in text
    assert "  bob wins 12 chips with two pair, kings and fours\n" in text


def test_an_unbet_street_offers_a_bet_and_a_bet_is_said_so() -> None:
    text = play("c\n" * 20, "--opponent", "call", "--hands", "1", "--seed", "3")
    flop = text[text.index("-- flop"):]
    assert re.search(r"your move \(check, bet 2\) \[c/b/q\]", flop), flop
    assert "raise to 2)" not in text
    out = io.StringIO()
    person = TerminalPlayer(lambda: None, out)
    person.observe(HandStarted(0, 1, ("me", "bob"), (200, 200), (True, True), GameConfig()))
    board = tuple(parse_cards("Kc4d9s"))
    person.observe(BoardDealt(Street.FLOP, board, board))
    for seat, amount in ((1, 2), (0, 4)):
        person.observe(ActionTaken(ActionRecord(seat, Street.FLOP, ActionKind.RAISE, amount,
                                                amount)))
    assert "  bob bets 2\n  you raise to 4\n" in out.getvalue()


@pytest.mark.parametrize(("typed", "why"), [
    ("r 3", "below the minimum: raise to at least 4"),
    ("r 999", "above your stack: raise to at most 200 (all-in)")])
def test_a_refused_no_limit_amount_says_why(typed: str, why: str) -> None:
    text = play(f"{typed}\nq\n", "--opponent", "call", "--variant", "nolimit", "--hands", "1",
                "--seed", "1")
    assert f"not a legal action: {typed!r}: {why}\n" in text
