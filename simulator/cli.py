"""The ``holdem`` command: dispatches to the subcommands registered as entry points.

Subcommands are found in the ``holdem.commands`` entry-point group (``name = "module:main"``,
``main(argv) -> int``), so the simulator never imports the agent package: the agent registers
``holdem ehs`` itself. A subcommand's module is imported only when it runs; the list shows the
first line of each module's docstring, read from its source without importing it.

Exit codes everywhere: 0 success; 2 bad input, refused before any work; 1 a run that failed
on its way (:class:`~simulator.core.errors.RunError`). Every
:class:`~simulator.core.errors.HoldemError` ends here, as one line on stderr and its
``exit_code``: the subcommands raise, and only this module reports.

The current directory goes first on the import path, as with ``python -m``, so a config may
name a bot module that sits beside it (``my_bots.py`` as ``my_bots:MyBot``).
"""

from __future__ import annotations

import ast
import importlib.util
import os
import sys
from importlib.metadata import EntryPoint, entry_points

from simulator.core.errors import HoldemError, for_command_line
from simulator.core.helptext import summary

GROUP = "holdem.commands"


def commands() -> dict[str, EntryPoint]:
    """Registered subcommands by name."""
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def summary_line(ep: EntryPoint) -> str:
    """The first line of the command module's docstring, without importing the module."""
    try:
        spec = importlib.util.find_spec(ep.module)
        if spec is None or spec.origin is None:
            return ""
        with open(spec.origin, encoding="utf-8") as f:
            doc = ast.get_docstring(ast.parse(f.read())) or ""
    except (ImportError, OSError, SyntaxError, ValueError):
        return ""
    first = summary(doc)
    return first.split(": ", 1)[1] if first.startswith("holdem") and ": " in first else first


def usage() -> str:
    lines = ["usage: holdem COMMAND [ARGS...]", "", "commands:"]
    lines += [f"  {name:<8} {summary_line(ep)}" for name, ep in sorted(commands().items())]
    lines.append("\n'holdem COMMAND --help' describes a command.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print(usage())
        return 0 if args else 2
    name, rest = args[0], args[1:]
    table = commands()
    if name not in table:
        print(f"holdem: unknown command {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        run = table[name].load()
    except Exception as exc:  # a broken plug-in command must not leave a traceback
        print(f"holdem: command {name!r} ({table[name].value}) cannot be loaded: "
              f"{type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    try:
        return int(run(rest) or 0)
    except HoldemError as exc:  # the one place an error becomes a message and an exit code
        print(f"holdem {name}: {for_command_line(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:  # the reader went away (`holdem bots | head`): nothing to report
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
