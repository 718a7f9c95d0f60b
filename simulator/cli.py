"""The ``holdem`` command: a thin dispatcher to each subcommand's ``main(argv) -> int``.

Subcommand modules are imported lazily so that ``holdem ehs`` alone reaches into the agent
package (DESIGN.md section 2) and a slow import never delays another subcommand.
Exit codes: 0 success, 2 bad input (refused before any work), 1 a run that failed on its way.
"""

from __future__ import annotations

import importlib
import sys

SUBCOMMANDS = {
    "run": ("simulator.arena.run_cli", "play a match or tournament from a YAML config"),
    "plot": ("simulator.arena.plots", "draw the plots of a finished run's output dir"),
    "replay": ("simulator.interop.replay_cli", "replay PHH/PHHS hand histories through the engine"),
    "ehs": ("agent.ehs_cli", "hand strength, potential and EHS of a hand"),
}


def usage() -> str:
    lines = ["usage: holdem COMMAND [ARGS...]", "", "commands:"]
    lines += [f"  {name:<8} {text}" for name, (_, text) in SUBCOMMANDS.items()]
    lines.append("\n'holdem COMMAND --help' describes a command.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print(usage())
        return 0 if args else 2
    name, rest = args[0], args[1:]
    if name not in SUBCOMMANDS:
        print(f"holdem: unknown command {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(SUBCOMMANDS[name][0])
    return int(module.main(rest) or 0)


if __name__ == "__main__":
    sys.exit(main())
