"""PHH hand histories (the Poker Hand History format): write played hands, read and replay PHH/PHHS.

Players ``p1..pN`` are the dealt-in seats from the button's left (our ``HandState.order``), so
heads-up p1 is the big blind, as pokerkit expects; ``blinds_or_straddles`` is always written
small blind first and pokerkit reverses it heads-up. Every hand gets ``ante_trimming_status``,
``finishing_stacks`` and a ``pN sm CARDS`` line for each player at a showdown; after an
all-in those lines come before the rest of the board, as pokerkit writes them. Hands that seat
fewer players than the table carry ``seats`` (1-based) and ``seat_count``. A ``.phhs`` file
holds TOML tables ``[1]``, ``[2]``, ...

>>> from simulator.play.baseline import CallBot
>>> from simulator.core.game import DEFAULT_CAP, GameConfig, Structure
>>> from simulator.play.match import play_match
>>> game = GameConfig(variant="nolimit", blinds=(1, 2), stack=100)
>>> r = next(play_match(game, [CallBot(), CallBot(), CallBot()], 1, seed=3))
>>> text = dumps(r.history)
>>> [line for line in text.splitlines() if not line.startswith(" ")][:3]
['variant = "NT"', 'ante_trimming_status = true', 'antes = [0, 0, 0]']
>>> hand = loads(text)
>>> replay(hand).finishing_stacks == r.stacks
True
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, assert_never

from simulator.core.actions import Action, ActionKind
from simulator.core.cards import format_cards, parse_cards
from simulator.core.errors import HoldemError
from simulator.core.game import DEFAULT_CAP, GameConfig, Structure
from simulator.core.positions import table_order
from simulator.core.state import HandState
from simulator.core.streets import Street

VARIANTS = {"FT": Structure.LIMIT, "NT": Structure.NO_LIMIT, "PT": Structure.POT_LIMIT}
"""PHH's variant codes. PHH (and so pokerkit's loader) has no pot-limit Texas hold'em: "PT"
is ours, after the PHH pattern of its pot-limit Omaha "PO"; pokerkit cannot load it."""
CODES = {structure: code for code, structure in VARIANTS.items()}


class PHHError(HoldemError, ValueError):
    """A PHH text that cannot be read, or a variant or feature we do not play."""


# --- writing -------------------------------------------------------------------------------


def hand_fields(history: Any) -> dict[str, Any]:
    """The PHH fields of a played hand (a ``simulator.play.match.HandHistory``), in file order."""
    game: GameConfig = history.game
    n = len(history.starting_stacks)
    order = list(table_order(history.dealt_in, history.button))
    blinds = list(game.blinds[:len(order)]) + [0] * max(0, len(order) - len(game.blinds))
    fields: dict[str, Any] = {
        "variant": CODES[game.structure],
        "ante_trimming_status": True,
        "antes": [game.ante] * len(order),
        "blinds_or_straddles": blinds,
    }
    structure = game.structure
    if structure is Structure.LIMIT:
        fields["small_bet"], fields["big_bet"] = game.small_bet, game.big_bet
    elif structure is Structure.NO_LIMIT or structure is Structure.POT_LIMIT:
        fields["min_bet"] = game.big_blind
    else:
        assert_never(structure)
    fields["starting_stacks"] = [history.starting_stacks[s] for s in order]
    fields["actions"] = _action_lines(history, order)
    fields["hand"] = history.hand_number
    if len(order) < n:
        fields["seats"] = [s + 1 for s in order]
        fields["seat_count"] = n
    fields["players"] = [history.names[s] for s in order]
    fields["finishing_stacks"] = [history.finishing_stacks[s] for s in order]
    return fields


def _action_lines(history: Any, order: list[int]) -> list[str]:
    player = {seat: f"p{k + 1}" for k, seat in enumerate(order)}
    # ???? is PHH's unknown card: a client's record of a hand whose cards it never saw
    lines = [f"d dh {player[s]} "
             f"{'????' if history.holes[s] is None else format_cards(history.holes[s])}"
             for s in order]
    board = history.board
    runout_from = _runout_street(history, order)

    def deal(street: int) -> None:
        lines.append(f"d db {format_cards(board[Street(street).board_slice])}")

    street = 0
    for record in history.actions:
        while street < record.street:
            street += 1
            deal(street)
        lines.append(_action_line(player[record.seat], record))
    last = len(history.chance_points)
    if history.shown:
        while street + 1 < runout_from:
            street += 1
            deal(street)
        lines += [f"{player[s]} sm {format_cards(history.shown[s])}" for s in order
                  if s in history.shown]
    while street < last:
        street += 1
        deal(street)
    return lines


def _runout_street(history: Any, order: list[int]) -> int:
    """The first street dealt after the betting stopped (fewer than two players with chips);
    pokerkit shows the hands down before dealing it. 4 when every street had betting."""
    for point in history.chance_points:
        with_chips = sum(1 for s in order if point.active[s]
                         and history.starting_stacks[s] > point.contributions[s])
        if with_chips <= 1:
            return point.street
    return 4


def _action_line(player: str, record: Any) -> str:
    if record.kind is ActionKind.FOLD:
        return f"{player} f"
    if record.kind is ActionKind.CALL:
        return f"{player} cc"
    return f"{player} cbr {record.amount}"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        if value and isinstance(value[0], str) and len(value) > 4:
            return "[\n" + "".join(f"  {_toml_value(v)},\n" for v in value) + "]"
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as PHH")


def dumps(history: Any, tags: Mapping[str, int] | None = None) -> str:
    """One hand as PHH text; ``tags`` are user-defined fields (names starting with ``_``,
    which a PHH reader keeps or skips), such as where in a run the hand was played."""
    fields = hand_fields(history)
    for key, value in (tags or {}).items():
        if not key.startswith("_"):
            raise ValueError(f"PHH tag {key!r}: a user-defined field starts with '_'")
        fields[key] = value
    return "".join(f"{k} = {_toml_value(v)}\n" for k, v in fields.items())


def dumps_all(histories: Iterable[Any], start: int = 1,
              tags: Sequence[Mapping[str, int]] | None = None) -> str:
    """Many hands as one PHHS text: tables ``[1]``, ``[2]``, ..., each with its ``tags``."""
    hands = list(histories)
    every = tags if tags is not None else [{}] * len(hands)
    return "\n".join(f"[{i}]\n{dumps(h, t)}"
                     for i, (h, t) in enumerate(zip(hands, every, strict=True), start))


# --- reading -------------------------------------------------------------------------------


@dataclass
class PHHHand:
    """A PHH hand as read: the game, the players' stacks and the action lines."""

    game: GameConfig
    starting_stacks: list[int]
    actions: list[str]
    finishing_stacks: list[int] | None = None
    players: list[str] | None = None
    seats: list[int] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _toml(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"not TOML: {exc}") from None
    except RecursionError:  # tomllib recurses into nested arrays and tables
        raise PHHError("not a PHH text: nested too deeply") from None


def loads(text: str) -> PHHHand:
    """Read one PHH hand; raises :class:`PHHError` naming the problem."""
    return from_fields(_toml(text))


def loads_all(text: str) -> list[PHHHand]:
    """Read a PHHS text (tables ``[1]``, ``[2]``, ...) or a single PHH hand."""
    data = _toml(text)
    if "variant" in data:
        return [from_fields(data)]
    if not data or not all(isinstance(v, dict) for v in data.values()):
        raise PHHError("expected a PHH hand or PHHS tables [1], [2], ...")
    return [from_fields(v) for v in data.values()]


def _int_list(data: dict[str, Any], key: str, n: int | None = None) -> list[int]:
    value = data.get(key)
    if type(value) is int and n is not None:
        return [value] * n
    # type(...) is int: TOML's true and false are bools, which Python counts as integers
    if not isinstance(value, list) or not all(type(v) is int for v in value):
        raise PHHError(f"field {key!r}: expected a list of integers, got {value!r}")
    if n is not None and len(value) != n:
        raise PHHError(f"field {key!r}: expected {n} entries, got {len(value)}")
    return list(value)


def from_fields(data: dict[str, Any]) -> PHHHand:
    variant = data.get("variant")
    if variant not in VARIANTS:
        raise PHHError(f"unsupported variant {variant!r}: we play FT, NT and PT (pot-limit)")
    for key in ("starting_stacks", "actions"):
        if key not in data:
            raise PHHError(f"missing field {key!r}")
    stacks = _int_list(data, "starting_stacks")
    n = len(stacks)
    if n < 2:
        raise PHHError(f"expected at least 2 players, got {n}")
    if any(s <= 0 for s in stacks):
        raise PHHError(f"field 'starting_stacks': expected chips > 0 for every player, got "
                       f"{stacks}")
    antes = _int_list(data, "antes", n) if "antes" in data else [0] * n
    if any(a < 0 for a in antes):
        raise PHHError(f"field 'antes': expected chips >= 0, got {antes}")
    if len(set(antes)) > 1:
        raise PHHError(f"unsupported non-uniform antes {antes}")
    blinds = _int_list(data, "blinds_or_straddles", n)
    while blinds and blinds[-1] == 0:
        blinds.pop()
    # one blind alone is a dead small blind (a tournament's dead button rule), never heads-up
    if len(blinds) < (2 if n == 2 else 1) or any(b <= 0 for b in blinds):
        raise PHHError(f"unsupported blinds_or_straddles {data['blinds_or_straddles']}")
    try:
        game = _game(variant, data, tuple(blinds), antes[0], max(stacks))
    except ValueError as exc:
        raise PHHError(str(exc)) from None
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PHHError("field 'actions': expected a list of strings")
    finishing = _int_list(data, "finishing_stacks", n) if "finishing_stacks" in data else None
    return PHHHand(game, stacks, list(actions), finishing, data.get("players"),
                   data.get("seats"), data)


def _game(variant: str, data: dict[str, Any], blinds: tuple[int, ...], ante: int,
          largest_stack: int) -> GameConfig:
    # The hand plays from its own starting stacks; the record's stack (a match's starting
    # stack) need only be one the rules accept, here more than the forced bets.
    stack = max(largest_stack, ante + max(blinds) + 1)
    structure = VARIANTS[variant]
    if structure is Structure.LIMIT:
        small, big = data.get("small_bet"), data.get("big_bet")
        if type(small) is not int or type(big) is not int:
            raise PHHError("FT needs integer small_bet and big_bet")
        return GameConfig(variant="limit", blinds=blinds, ante=ante, small_bet=small,
                          big_bet=big, stack=stack)
    if structure is not Structure.NO_LIMIT and structure is not Structure.POT_LIMIT:
        assert_never(structure)
    min_bet = data.get("min_bet")
    if min_bet is not None and min_bet != max(blinds):
        raise PHHError(f"unsupported min_bet {min_bet} different from the big blind")
    return GameConfig(variant=structure.value, blinds=blinds, ante=ante, stack=stack)


# --- replaying -----------------------------------------------------------------------------


@dataclass
class ParsedActions:
    holes: list[tuple[int, int] | None]
    board: list[int]
    moves: list[tuple[int, Action, str]]  # player index, action, the line


def parse_actions(lines: Sequence[str], n: int) -> ParsedActions:
    """Cards and betting actions of a PHH action list (comments after '#' are ignored).

    Every card is dealt at most once (a repeat is named, with where it was first dealt),
    the board comes three cards, then one, then one, and ``cbr`` needs an amount.
    """
    parsed = ParsedActions([None] * n, [], [])
    dealt: dict[int, str] = {}  # card -> where it was dealt
    for line in lines:
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        try:
            _parse_line(words, n, parsed, dealt, line)
        except (ValueError, IndexError) as exc:
            raise PHHError(f"action {line!r}: {exc}") from None
    return parsed


def _player(word: str, n: int) -> int:
    if not word.startswith("p") or not word[1:].isdigit() or not 1 <= int(word[1:]) <= n:
        raise ValueError(f"no player {word!r}")
    return int(word[1:]) - 1


def _known(cards: str) -> list[int] | None:
    return None if "?" in cards else parse_cards(cards)


def _deal(cards: list[int], where: str, dealt: dict[int, str]) -> None:
    for card in cards:
        if card in dealt:
            raise ValueError(f"card {format_cards([card])} is dealt twice ({dealt[card]} and "
                             f"{where})")
        dealt[card] = where


def _words(words: list[str], count: int, what: str) -> None:
    if len(words) < count:
        raise ValueError(f"expected {what}")


def _parse_line(words: list[str], n: int, parsed: ParsedActions, dealt: dict[int, str],
                line: str) -> None:
    holes, board, moves = parsed.holes, parsed.board, parsed.moves
    _words(words, 2, "an actor and a verb")
    if words[0] == "d":
        if words[1] == "dh":
            _words(words, 4, "'d dh pN CARDS'")
            p = _player(words[2], n)
            cards = _known(words[3])
            if cards is not None:
                if len(cards) != 2:
                    raise ValueError("expected two hole cards")
                _deal(cards, f"{words[2]}'s hole cards", dealt)
                holes[p] = (cards[0], cards[1])
        elif words[1] == "db":
            _words(words, 3, "'d db CARDS'")
            cards = parse_cards(words[2])
            street = next((s for s in Street if s.board_size > len(board)), None)
            if street is None:
                raise ValueError("no board cards come after the river")
            want = street.board_size - len(board)
            if len(cards) != want:
                raise ValueError(f"expected {want} board card{'s' * (want > 1)} on the "
                                 f"{street.name.lower()}, got {len(cards)}")
            _deal(cards, "the board", dealt)
            board.extend(cards)
        else:
            raise ValueError(f"unsupported dealing {words[1]!r}")
        return
    p = _player(words[0], n)
    verb = words[1]
    if verb == "f":
        moves.append((p, Action.fold(), line))
    elif verb == "cc":
        moves.append((p, Action.call(), line))
    elif verb == "cbr":
        _words(words, 3, "an amount: 'pN cbr AMOUNT'")
        moves.append((p, Action.raise_to(int(words[2])), line))
    elif verb == "sm":
        cards = _known(words[2]) if len(words) > 2 and words[2] != "-" else None
        if cards is not None:
            if len(cards) != 2:
                raise ValueError("expected two shown cards")
            dealt_hole = holes[p]
            if dealt_hole is not None and set(dealt_hole) != set(cards):
                raise ValueError("shown cards differ from the dealt ones")
            if dealt_hole is None:
                _deal(cards, f"{words[0]}'s shown cards", dealt)
            holes[p] = (cards[0], cards[1])
    else:
        raise ValueError(f"unsupported action {verb!r}")


def replay(hand: PHHHand, *, cap: int | None = DEFAULT_CAP) -> HandState:
    """Play the hand's actions through our engine; raises ValueError when one is illegal.

    Players are seats 0..N-1 with the button last, so our table order is PHH's p1..pN. In
    limit the cap is ours (4 bets a round, the big blind counted pre-flop) unless given.
    """
    game = hand.game
    if game.is_limit and cap != game.cap:
        game = dataclasses.replace(game, cap=cap)
    n = len(hand.starting_stacks)
    parsed = parse_actions(hand.actions, n)
    state = HandState(game, hand.starting_stacks, n - 1, parsed.holes, parsed.board)
    for p, action, line in parsed.moves:
        if state.finished:
            raise ValueError(f"{line!r}: the hand is already over")
        actor = state.actor
        assert actor is not None  # a hand not over has a player to act
        if actor != p:
            raise ValueError(f"{line!r}: it is p{actor + 1}'s turn")
        state.apply(action)
    if not state.finished:
        raise ValueError("the actions end before the hand does")
    return state
