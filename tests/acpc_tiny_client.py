"""A tiny stand-alone ACPC client, written from the ACPC protocol's description alone.

It imports nothing of ours, so it cannot share a misunderstanding with our client or dealer:
it reads the .game file itself, works out from the betting string whose turn it is and what
is legal under ACPC's rules (``acpc_view``), and plays random legal actions. Tests run it as
a subprocess against our dealer, as an external program in a tournament seat, and import
``acpc_view`` as an oracle of ACPC's rules.

    python acpc_tiny_client.py GAME HOST PORT [--seed S] [--fault KIND --fault-hand H]

It prints ``hand H position P`` for every hand and ``hands N`` at the end. ``--fault``
misbehaves at its first decision from hand H on: ``garbage`` sends a line that is no reply,
``echo`` echoes a wrong state, ``hang`` never answers, ``disconnect`` closes the connection,
``illegal`` sends an action that is never legal there, ``crash`` exits with status 3.
"""

from __future__ import annotations

import argparse
import random
import socket
import sys
import time

NO_STACK = 2**31 - 1


def read_game(path: str) -> dict:
    """The keys of a .game file: numbers per key, and 'nolimit' True or False."""
    game: dict = {"nolimit": False}
    with open(path, encoding="ascii") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#") or line.upper().startswith(("GAMEDEF", "END")):
                continue
            if line.lower() in ("limit", "nolimit"):
                game["nolimit"] = line.lower() == "nolimit"
                continue
            key, _, values = line.replace("=", " ").partition(" ")
            game[key.lower()] = [int(v) for v in values.split()]
    n = game["numplayers"][0]
    game.setdefault("stack", [NO_STACK] * n)
    game.setdefault("maxraises", [255] * 4)
    game.setdefault("firstplayer", [1] * 4)
    game.setdefault("numrounds", [4])
    return game


def split_tokens(text: str) -> list[str]:
    out, i = [], 0
    while i < len(text):
        j = i + 1
        while j < len(text) and text[j].isdigit():
            j += 1
        out.append(text[i:j])
        i = j
    return out


def acpc_view(game: dict, betting: str) -> dict:
    """Replay a betting string by ACPC's rules: whose turn it is and what they may do.

    As the reference dealer reads a state, the ``/`` are skipped: the rules themselves say
    when a round ends (every player still able to act has called the last bet) and when the
    hand does (one player left, the last round over, or fewer than two able to act, when the
    rest of the board is dealt at once). Returns ``betting`` (the string with the ``/`` where
    these rules put them), ``finished``, ``actor`` (a position, -1 when finished),
    ``can_fold``, ``can_raise``, ``min_to``/``max_to`` (no-limit raise totals over the hand),
    ``spent`` per position and ``folded``.
    """
    n, rounds = game["numplayers"][0], game["numrounds"][0]
    stack, blinds = game["stack"], game["blind"]
    spent, folded = list(blinds), [False] * n
    max_spent = max(blinds)
    min_to = 2 * max_spent if max_spent else 1
    r, finished = 0, False
    done: list[list[tuple[int, str]]] = [[]]  # (actor, token) per round

    def acting(p: int) -> bool:
        return not folded[p] and spent[p] < stack[p]

    def next_from(p: int) -> int:  # the first position after p still able to act
        for k in range(1, n + 1):
            if acting((p + k) % n):
                return (p + k) % n
        return -1

    def actor() -> int:
        if done[r]:
            return next_from(done[r][-1][0])
        return next_from(game["firstplayer"][r] - 2)  # firstPlayer itself if it can act

    def called() -> int:
        count = 0
        for p, token in reversed(done[r]):
            if token != "f" and spent[p] < stack[p]:
                count += 1
            if token.startswith("r"):
                break
        return count

    for token in split_tokens(betting.replace("/", "")):
        if finished:
            raise ValueError(f"action {token!r} after the hand ended in {betting!r}")
        p = actor()
        if token == "f":
            folded[p] = True
        elif token == "c":
            spent[p] = min(max_spent, stack[p])
        else:
            if game["nolimit"]:
                total = int(token[1:])
                min_to = max(min_to, 2 * total - max_spent)
                max_spent = total
            else:
                max_spent = min(max_spent + game["raisesize"][r], stack[p])
            spent[p] = max_spent
        done[r].append((p, token))
        able = sum(1 for q in range(n) if acting(q))
        if sum(folded) + 1 >= n:
            finished = True
        elif called() >= able:
            if able > 1 and r + 1 < rounds:
                r += 1
                done.append([])
                min_to = max_spent + max(max(blinds), 1)
            else:
                finished = True
                done += [[] for _ in range(rounds - 1 - r)] if able <= 1 else []
                r = len(done) - 1
    view = {"betting": "/".join("".join(t for _, t in tokens) for tokens in done),
            "finished": finished, "actor": -1, "spent": spent, "folded": folded,
            "can_fold": False, "can_raise": False, "min_to": None, "max_to": None}
    if finished:
        return view
    p = view["actor"] = actor()
    view["can_fold"] = spent[p] < max_spent
    raises = sum(1 for _, t in done[r] if t.startswith("r"))
    if raises >= game["maxraises"][r] or sum(1 for q in range(n) if acting(q)) <= 1:
        return view
    if not game["nolimit"]:
        view["can_raise"] = True
        return view
    low, high = min_to, stack[p]
    if low > high:
        if max_spent >= high:
            return view
        low = high
    view.update(can_raise=True, min_to=low, max_to=high)
    return view


def choose(game: dict, view: dict, rng: random.Random) -> str:
    options = ["c"] * 5 + (["f"] * 2 if view["can_fold"] else []) + (
        ["r"] * 3 if view["can_raise"] else [])
    action = rng.choice(options)
    if action != "r" or not game["nolimit"]:
        return action
    low, high = view["min_to"], view["max_to"]
    if rng.random() < 0.15:
        return f"r{high}"
    return f"r{low + int((high - low) * rng.random() ** 3)}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("game")
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fault", choices=("garbage", "echo", "hang", "disconnect", "illegal",
                                            "crash"))
    parser.add_argument("--fault-hand", type=int, default=0)
    args = parser.parse_args()
    game = read_game(args.game)
    rng = random.Random(args.seed)
    sock = socket.create_connection((args.host, args.port), timeout=30)
    sock.settimeout(None)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.sendall(b"VERSION:2.0.0\r\n")
    reader = sock.makefile("r", encoding="ascii", newline="\n")
    hands = set()
    for raw in reader:
        line = raw.rstrip("\r\n")
        if not line or line.startswith(("#", ";")):
            continue
        _, position, hand, betting, cards = line.split(":")
        position, hand = int(position), int(hand)
        if hand not in hands:
            hands.add(hand)
            print(f"hand {hand} position {position}", flush=True)
        view = acpc_view(game, betting)
        if view["betting"] != betting:
            print(f"the dealer's rounds differ from ACPC's: {betting!r}, expected "
                  f"{view['betting']!r}", file=sys.stderr, flush=True)
            return 4
        if view["finished"] or view["actor"] != position:
            continue  # the hand is over, or another player is to act
        if args.fault and hand >= args.fault_hand:
            if args.fault == "garbage":
                sock.sendall(b"I am not a reply\r\n")
            elif args.fault == "echo":
                sock.sendall(f"MATCHSTATE:{position}:{hand + 1}:{betting}:{cards}:c\r\n".encode())
            elif args.fault == "hang":
                time.sleep(3600)
            elif args.fault == "disconnect":
                sock.close()
                return 0
            elif args.fault == "crash":
                print("crashing on purpose", file=sys.stderr, flush=True)
                return 3
            else:  # illegal: a fold when checking is free, else a raise over the cap/stack
                bad = "f" if not view["can_fold"] else ("r" if not view["can_raise"] else
                                                        f"r{NO_STACK}")
                if bad == "r" and game["nolimit"]:
                    bad = "r1"
                sock.sendall(f"{line}:{bad}\r\n".encode())
            args.fault = None if args.fault == "illegal" else args.fault
            continue
        sock.sendall(f"{line}:{choose(game, view, rng)}\r\n".encode())
    print(f"hands {len(hands)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
