"""``holdem play``: a person at a terminal, driven here through its input and output."""

import io

import pytest

from agent.play_cli import main
from simulator import HoldemError


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
    assert "you played 1 hand(s)" in text  # q stops after the hand it was typed in


def test_end_of_input_ends_the_session_cleanly() -> None:
    text = play("", "--opponent", "raise", "--opponent", "call", "--hands", "5", "--seed", "2")
    assert "you played 1 hand(s)" in text


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
