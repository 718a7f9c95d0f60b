"""ACPC game definitions (``.game`` files): read, write, and map to and from our GameConfig.

A definition is a block between ``GAMEDEF`` and ``END GAMEDEF``; keys are case-insensitive,
``=`` is optional and values are integers, one per player or per round. We play
what our rules can play and refuse the rest with a :class:`GameDefError` naming the key:

* a 52-card deck, two hole cards, four rounds with ``numBoardCards = 0 3 1 1``;
* equal stacks (ACPC resets them every hand); a limit definition without stacks gets the
  reference dealer's ``2**31 - 1``, so deep they never bind, and a limit stack that could bind
  is refused (ACPC's limit all-in rules are not ours);
* blinds by position (position 0 sits left of the button): heads-up ``blind = BB SB`` (the
  button posts the small blind), otherwise small blind, big blind, an optional straddle and
  zeros; the largest blind is the big blind;
* ``raiseSize = s s b b`` (small bet pre-flop and flop, big bet after);
* ``maxRaises = c-1 c c c`` is our cap ``c`` (bets a round, the big blind counted pre-flop),
  no ``maxRaises`` is no cap; other per-round caps are refused;
* ``firstPlayer`` must be who acts first under our rules: pre-flop the player after the big
  blind (heads-up the button, ``2``), after the flop position 0 (``1``).

ACPC reopens the betting after any raise; our no-limit rules follow the TDA on short all-ins
(one that is not a full raise does not reopen the betting). With the equal stacks reset every
hand that every ACPC game has, the two never differ: a short all-in is a player putting in a
whole stack as large as anyone's, so nobody is left with chips behind to re-raise. Our
engine's legal set is the reference dealer's (tests/test_acpc_rules.py checks it on every
hand of long matches).

>>> gd = load_gamedef(SHIPPED / "holdem.limit.2p.reverse_blinds.game")
>>> game = game_config(gd)
>>> game.variant, game.blinds, game.small_bet, game.big_bet, game.cap
('limit', (5, 10), 10, 20, 4)
>>> gamedef_for(game, 2) == gd
True
>>> nolimit = load_gamedef(SHIPPED / "holdem.nolimit.2p.reverse_blinds.game")
>>> text = nolimit.text().replace("stack = 20000 20000", "stack = 20000 30000")
>>> try:
...     parse_gamedef(text).to_game_config()
... except GameDefError as exc:
...     print(exc)
stack: unequal stacks [20000, 30000]: we play equal stacks reset every hand
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, assert_never

from simulator.core.errors import HoldemError
from simulator.core.files import FileRefused, read_regular
from simulator.core.game import GameConfig, Structure
from simulator.core.packaged import packaged_file
from simulator.core.state import HandState

NO_STACK = 2**31 - 1  # the reference dealer's stack when a definition gives none (INT32_MAX)
NO_CAP = 255  # its maxRaises when a definition gives none (UINT8_MAX)
MAX_PLAYERS = 10
SHIPPED = packaged_file("simulator.interop.acpc", "data")
"""The competition's definitions, shipped inside this package: ``holdem acpc`` takes their
names (``holdem.limit.2p.reverse_blinds``) wherever it takes a ``.game`` file."""

# Canonical spelling of every key, as the reference dealer writes it.
_KEYS = {k.lower(): k for k in ("numPlayers", "numRounds", "stack", "blind", "raiseSize",
                                "firstPlayer", "maxRaises", "numSuits", "numRanks",
                                "numHoleCards", "numBoardCards")}
_PER_PLAYER = ("stack", "blind")
_PER_ROUND = ("raiseSize", "firstPlayer", "maxRaises", "numBoardCards")
_LINE = re.compile(r"^\s*([A-Za-z]+)\s*=?\s*(.*?)\s*$")


class GameDefError(HoldemError, ValueError):
    """A ``.game`` file that cannot be read, or a game our rules do not play; names the key."""


@dataclass(frozen=True)
class GameDef:
    """An ACPC game definition as its file says it; per-player lists are by position.

    ``stack``, ``max_raises`` and ``raise_size`` are None when the file does not give them
    (no stacks, no cap, no-limit).
    """

    betting: Literal["limit", "nolimit"]
    num_players: int
    blind: tuple[int, ...]
    stack: tuple[int, ...] | None = None
    raise_size: tuple[int, ...] | None = None
    first_player: tuple[int, ...] = (1, 1, 1, 1)  # 1-based positions, per round
    max_raises: tuple[int, ...] | None = None
    num_rounds: int = 4
    num_suits: int = 4
    num_ranks: int = 13
    num_hole_cards: int = 2
    num_board_cards: tuple[int, ...] = (0, 3, 1, 1)

    def to_game_config(self) -> GameConfig:
        return game_config(self)

    def text(self) -> str:
        return format_gamedef(self)


# --- reading and writing ------------------------------------------------------------------------


def _values(key: str, raw: str) -> tuple[int, ...]:
    try:
        return tuple(int(v) for v in raw.split())
    except ValueError:
        raise GameDefError(f"{key}: expected whole numbers, got {raw!r}") from None


def parse_gamedef(text: str) -> GameDef:
    """Read a definition; a key we do not know, or a value of the wrong shape, is an error."""
    raw: dict[str, tuple[int, ...]] = {}
    betting: Literal["limit", "nolimit"] = "limit"
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        word = stripped.split()[0].lower()
        if word == "gamedef":
            continue
        if stripped.lower().startswith("end gamedef"):
            break
        if word in ("limit", "nolimit"):
            betting = "limit" if word == "limit" else "nolimit"
            continue
        if word in ("potlimit", "pot-limit"):
            raise GameDefError(f"{stripped.split()[0]}: ACPC has no pot-limit betting (its "
                               f"games are limit or nolimit)")
        match = _LINE.match(stripped)
        key = _KEYS.get(match.group(1).lower()) if match else None
        if match is None or key is None:
            raise GameDefError(f"{stripped.split()[0]}: unknown key (expected limit, nolimit or "
                               f"one of {', '.join(_KEYS.values())})")
        raw[key] = _values(key, match.group(2))
    return _checked(betting, raw)


def _single(raw: dict[str, tuple[int, ...]], key: str, low: int, high: int) -> int:
    if key not in raw:
        raise GameDefError(f"{key}: missing")
    values = raw[key]
    if len(values) != 1 or not low <= values[0] <= high:
        raise GameDefError(f"{key}: expected one number {low}..{high}, got {list(values)}")
    return values[0]


def _listed(raw: dict[str, tuple[int, ...]], key: str, count: int) -> tuple[int, ...] | None:
    if key not in raw:
        return None
    values = raw[key]
    if len(values) != count:
        per = "player" if key in _PER_PLAYER else "round"
        raise GameDefError(f"{key}: expected {count} values (one per {per}), got {list(values)}")
    if any(v < 0 for v in values):
        raise GameDefError(f"{key}: expected values >= 0, got {list(values)}")
    return values


def _checked(betting: Literal["limit", "nolimit"], raw: dict[str, tuple[int, ...]]) -> GameDef:
    """The reference dealer's own sanity checks (what makes a file a game at all)."""
    players = _single(raw, "numPlayers", 2, MAX_PLAYERS)
    rounds = _single(raw, "numRounds", 1, 4)
    per = {key: _listed(raw, key, players) for key in _PER_PLAYER}
    per |= {key: _listed(raw, key, rounds) for key in _PER_ROUND}
    if per["blind"] is None:
        raise GameDefError("blind: missing")
    if per["numBoardCards"] is None:
        raise GameDefError("numBoardCards: missing")
    if betting == "limit" and per["raiseSize"] is None:
        raise GameDefError("raiseSize: missing (a limit game needs one per round)")
    first = per["firstPlayer"] or (1,) * rounds
    if not all(1 <= f <= players for f in first):
        raise GameDefError(f"firstPlayer: expected positions 1..{players}, got {list(first)}")
    stack = per["stack"]
    if stack is not None and any(b > s for b, s in zip(per["blind"], stack, strict=True)):
        raise GameDefError(f"blind: a blind above its stack ({list(per['blind'])} with "
                           f"stacks {list(stack)})")
    gd = GameDef(
        betting=betting, num_players=players, blind=per["blind"], stack=stack,
        raise_size=per["raiseSize"] if betting == "limit" else None, first_player=first,
        max_raises=per["maxRaises"], num_rounds=rounds,
        num_suits=_single(raw, "numSuits", 1, 4), num_ranks=_single(raw, "numRanks", 1, 13),
        num_hole_cards=_single(raw, "numHoleCards", 1, 3),
        num_board_cards=per["numBoardCards"])
    cards = gd.num_hole_cards * players + sum(gd.num_board_cards)
    if cards > gd.num_suits * gd.num_ranks:
        raise GameDefError(f"numBoardCards: {cards} hole and board cards do not fit a deck of "
                           f"{gd.num_suits * gd.num_ranks}")
    return gd


def shipped_games() -> list[str]:
    """The names of the shipped definitions, without ``.game``."""
    return sorted(p.stem for p in SHIPPED.glob("*.game"))


def game_path(name: str | Path) -> Path:
    """``name`` as a path, or a shipped definition when no such file exists and ``name`` is a
    shipped one's name (with or without ``.game``).

    >>> game_path("holdem.nolimit.3p").name
    'holdem.nolimit.3p.game'
    """
    path = Path(name)
    if path.exists() or path.parent != Path("."):
        return path
    stem = path.name.removesuffix(".game")
    return SHIPPED / f"{stem}.game" if stem in shipped_games() else path
MAX_GAMEDEF_BYTES = 1 << 20  # a .game file is a few lines


def load_gamedef(path: str | Path) -> GameDef:
    """Read a ``.game`` file, or a shipped definition by name (:func:`game_path`);
    :class:`GameDefError` names the file and the key."""
    path = game_path(path)
    try:
        text = read_regular(path, MAX_GAMEDEF_BYTES).decode("utf-8")
    except FileRefused as exc:
        raise GameDefError(str(exc)) from None
    except OSError as exc:
        raise GameDefError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise GameDefError(f"{path}: not a text file") from None
    try:
        return parse_gamedef(text)
    except GameDefError as exc:
        raise GameDefError(f"{path}: {exc}") from None


def format_gamedef(gd: GameDef) -> str:
    """The definition as the reference dealer prints it (defaults left out as it does)."""
    def line(key: str, values: tuple[int, ...]) -> str:
        return f"{key} = {' '.join(str(v) for v in values)}\n"

    out = ["GAMEDEF\n", f"{gd.betting}\n", line("numPlayers", (gd.num_players,)),
           line("numRounds", (gd.num_rounds,))]
    if gd.stack is not None:
        out.append(line("stack", gd.stack))
    out.append(line("blind", gd.blind))
    if gd.raise_size is not None:
        out.append(line("raiseSize", gd.raise_size))
    if any(f != 1 for f in gd.first_player):
        out.append(line("firstPlayer", gd.first_player))
    if gd.max_raises is not None and any(m != NO_CAP for m in gd.max_raises):
        out.append(line("maxRaises", gd.max_raises))
    for key, value in (("numSuits", gd.num_suits), ("numRanks", gd.num_ranks),
                       ("numHoleCards", gd.num_hole_cards)):
        out.append(line(key, (value,)))
    out += [line("numBoardCards", gd.num_board_cards), "END GAMEDEF\n"]
    return "".join(out)


# --- mapping to and from our rules ---------------------------------------------------------------


def _refuse(key: str, problem: str) -> GameDefError:
    return GameDefError(f"{key}: {problem}")


def game_config(gd: GameDef) -> GameConfig:
    """Our game for an ACPC definition; :class:`GameDefError` names the key we cannot play."""
    for key, got, want in (("numRounds", gd.num_rounds, 4), ("numSuits", gd.num_suits, 4),
                           ("numRanks", gd.num_ranks, 13), ("numHoleCards", gd.num_hole_cards, 2)):
        if got != want:
            raise _refuse(key, f"we play hold'em ({want}), got {got}")
    if gd.num_board_cards != (0, 3, 1, 1):
        raise _refuse("numBoardCards", f"we play hold'em (0 3 1 1), got "
                                       f"{' '.join(map(str, gd.num_board_cards))}")
    blinds = _our_blinds(gd)
    caps = tuple(m for m in (gd.max_raises or ()) if m != NO_CAP)
    if gd.betting == "nolimit":
        if caps:
            raise _refuse("maxRaises", "no-limit with a cap on raises is not a game we play")
        if gd.stack is None:
            raise _refuse("stack", "a no-limit game needs stacks")
        small = big = cap = None
    else:
        small, big = _limit_bets(gd)
        cap = _cap(gd)
    stack = _stack(gd)
    try:
        game = GameConfig(variant=gd.betting, blinds=blinds, small_bet=small, big_bet=big,
                          cap=cap, stack=stack, reset_stacks=True)
    except ValueError as exc:
        raise _refuse("blind", str(exc)) from None
    if gd.betting == "limit" and stack != NO_STACK and stack < deepest_commitment(game):
        raise _refuse("stack", f"limit stacks of {stack} can run out (a hand may cost "
                               f"{deepest_commitment(game)}); ACPC's limit all-in rules differ "
                               f"from ours, so we play limit only with stacks that never bind")
    expected = _positional(game, gd.num_players)
    if expected[0] != gd.blind:
        raise _refuse("blind", f"our engine would post {_show(expected[0])} by position, not "
                               f"{_show(gd.blind)}")
    if expected[1] != gd.first_player:
        raise _refuse("firstPlayer", f"our rules have {_show(expected[1])} act first (pre-flop "
                                     f"the player after the big blind, later position 1), got "
                                     f"{_show(gd.first_player)}")
    return game


def _show(values: tuple[int, ...]) -> str:
    return " ".join(str(v) for v in values)


def _our_blinds(gd: GameDef) -> tuple[int, ...]:
    """Ours are listed from the small blind; ACPC's by position (heads-up the big blind first)."""
    if gd.num_players == 2:
        big, small = gd.blind
        if small > big or big <= 0:
            raise _refuse("blind", f"heads-up we play 'blind = BB SB' with the button posting the "
                                   f"small blind, got {_show(gd.blind)}")
        return (small, big)
    blinds = list(gd.blind)
    while blinds and blinds[-1] == 0:
        blinds.pop()
    if not blinds or len(blinds) > 3 or blinds[-1] != max(blinds) or len(blinds) < 2:
        raise _refuse("blind", f"expected small blind, big blind, an optional straddle (the "
                               f"largest, last) and zeros, got {_show(gd.blind)}")
    return tuple(blinds)


def _limit_bets(gd: GameDef) -> tuple[int, int]:
    assert gd.raise_size is not None
    s0, s1, s2, s3 = gd.raise_size
    if s0 != s1 or s2 != s3 or s0 <= 0 or s2 <= 0:
        raise _refuse("raiseSize", f"expected a small bet pre-flop and on the flop and a big bet "
                                   f"on the turn and river (s s b b), got {_show(gd.raise_size)}")
    return s0, s2


def _cap(gd: GameDef) -> int | None:
    if gd.max_raises is None or all(m == NO_CAP for m in gd.max_raises):
        return None
    c = gd.max_raises[1]
    if gd.max_raises != (c - 1, c, c, c) or c < 1:
        raise _refuse("maxRaises", f"we cap every round alike: 'c-1 c c c' (the big blind counts "
                                   f"as the first bet pre-flop), got {_show(gd.max_raises)}")
    return c


def _stack(gd: GameDef) -> int:
    if gd.stack is None:
        return NO_STACK
    if len(set(gd.stack)) > 1:
        raise _refuse("stack", f"unequal stacks {list(gd.stack)}: we play equal stacks reset "
                               f"every hand")
    return gd.stack[0]


def deepest_commitment(game: GameConfig) -> int:
    """The most a player can put in a capped limit hand (no cap: unbounded, NO_STACK)."""
    if game.cap is None:
        return NO_STACK
    c, small, big = game.cap, game.bet_size(0), game.bet_size(2)
    return game.big_blind + (c - 1) * small + c * small + 2 * c * big


def _positional(game: GameConfig, players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Blinds by position and first actors by round, as our engine plays ``game``.

    Asking the engine (a hand with the button last, so seat = position) keeps one source of
    truth for who posts what and who opens. After the flop our engine always opens with the
    first player still in after the button, position 1.
    """
    if game.stack <= game.big_blind:
        raise _refuse("stack", f"stacks of {game.stack} do not cover the big blind "
                               f"({game.big_blind})")
    state = HandState(game, [game.stack] * players, players - 1, [None] * players, ())
    first = (state.actor + 1) if state.actor is not None else 1
    return state.bets, (first, 1, 1, 1)


def gamedef_for(game: GameConfig, players: int) -> GameDef:
    """The ACPC definition of our game with ``players`` seats; refuses what ACPC cannot say.

    >>> gamedef_for(GameConfig(variant="nolimit", blinds=(50, 100), stack=20000), 3).blind
    (50, 100, 0)
    >>> gamedef_for(GameConfig(variant="nolimit", ante=1), 2)
    Traceback (most recent call last):
    ...
    simulator.interop.acpc.gamedef.GameDefError: ante: ACPC games have no antes
    """
    check_expressible(game)
    if not 2 <= players <= MAX_PLAYERS:
        raise _refuse("numPlayers", f"expected 2..{MAX_PLAYERS}, got {players}")
    if len(game.blinds) > players:
        raise _refuse("blind", f"{len(game.blinds)} blinds for {players} players")
    blind, first = _positional(game, players)
    structure = game.structure
    if structure is Structure.LIMIT:
        assert game.small_bet is not None and game.big_bet is not None
        stack = None if game.stack >= NO_STACK else (game.stack,) * players
        gd = GameDef("limit", players, blind, stack,
                     (game.small_bet, game.small_bet, game.big_bet, game.big_bet), first,
                     None if game.cap is None else (game.cap - 1,) + (game.cap,) * 3)
    elif structure is Structure.NO_LIMIT:
        gd = GameDef("nolimit", players, blind, (game.stack,) * players, None, first)
    elif structure is Structure.POT_LIMIT:
        raise AssertionError("check_expressible refuses pot-limit")
    else:
        assert_never(structure)
    mapped = game_config(gd)  # refuses, naming the key, what would not come back the same
    if _rules(mapped) != _rules(game):
        raise _refuse("blind", f"blinds {list(game.blinds)} with {players} players have no ACPC "
                               f"equivalent")
    return gd


def check_expressible(game: GameConfig) -> None:
    """Refuse, for any number of players, a game no ACPC definition can state."""
    if not game.reset_stacks:
        raise _refuse("reset_stacks", "ACPC resets equal stacks every hand; carried-over stacks "
                                      "cannot be played over ACPC")
    if game.ante:
        raise _refuse("ante", "ACPC games have no antes")
    if game.structure is Structure.POT_LIMIT:
        raise _refuse("variant", "ACPC games are limit or nolimit: pot-limit cannot be played "
                                 "over ACPC")
    if game.is_limit and game.stack < NO_STACK and game.stack < deepest_commitment(game):
        raise _refuse("stack", f"limit stacks of {game.stack} can run out (a hand may cost "
                               f"{deepest_commitment(game)}); ACPC's limit all-in rules differ "
                               f"from ours")


def _rules(game: GameConfig) -> tuple[object, ...]:
    """The fields that decide play (the cap only in limit)."""
    fields = dataclasses.astuple(game)
    structure = game.structure
    if structure is Structure.LIMIT:
        return fields
    if structure is Structure.NO_LIMIT or structure is Structure.POT_LIMIT:
        return tuple(v for f, v in zip(dataclasses.fields(game), fields, strict=True)
                     if f.name != "cap")
    assert_never(structure)


__all__ = ["GameDef", "GameDefError", "NO_STACK", "SHIPPED", "check_expressible",
           "deepest_commitment", "format_gamedef", "game_config", "game_path", "gamedef_for",
           "load_gamedef", "parse_gamedef", "shipped_games"]
