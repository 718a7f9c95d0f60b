"""Scripts that call ``run_tournament`` at their top level, and the spawned workers.

Worker processes are started with ``spawn``: each imports the script that started the run
again, as ``__mp_main__``, so a call outside ``if __name__ == "__main__":`` would start the
run again in every worker. :func:`unguarded_call` finds such a call in the parent, before any
worker starts: the run then plays in-process when it has one worker, and is refused with one
line naming the guard when it has more. :func:`in_spawned_import` is the net for whatever the
parent could not see: a worker that reaches the call while it imports the script leaves at
once with :data:`EXIT_UNGUARDED`, which the parent turns into the same line.
"""

from __future__ import annotations

import ast
import functools
import multiprocessing
import sys
from types import FrameType

EXIT_UNGUARDED = 86
"""A worker's exit code when it found the script's run call while importing the script."""
MAX_SCRIPT_BYTES = 10_000_000  # a script longer than this is not read: assume it is guarded
GUARD = 'if __name__ == "__main__":'


def unguarded_message(workers: int) -> str:
    return (f"run_tournament() is called at the top level of the script, outside "
            f"'{GUARD}': each of the {workers} worker processes (started with spawn) imports "
            f"the script again and would run it again. Put the call under '{GUARD}', or play "
            f"in this process with workers=1 in the config or inline=True")


def in_spawned_import() -> bool:
    """True in a spawned worker that is still importing the parent's script."""
    return bool(getattr(multiprocessing.current_process(), "_inheriting", False))


def _script_frame(frame: FrameType | None) -> FrameType | None:
    """The frame running the top level of the ``__main__`` script, if this call is in it."""
    while frame is not None:
        if frame.f_code.co_name == "<module>" and frame.f_globals.get("__name__") == "__main__":
            return frame
        frame = frame.f_back
    return None


def _is_guard(node: ast.AST) -> bool:
    """``if __name__ == "__main__":`` (either way round)."""
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    test = node.test
    if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s.id for s in sides if isinstance(s, ast.Name)]
    texts = [s.value for s in sides if isinstance(s, ast.Constant)]
    return names == ["__name__"] and texts == ["__main__"]


def unguarded_call(frame: FrameType | None = None) -> bool:
    """True when this call runs at the top level of a script run as ``__main__`` and is not
    inside an ``if __name__ == "__main__":`` block of it.

    A script that cannot be read (an interactive session, ``python -c``) counts as guarded:
    spawn does not import such a ``__main__`` again.
    """
    script = _script_frame(frame if frame is not None else sys._getframe(1))
    if script is None:
        return False
    guards = _guard_lines(script.f_code.co_filename)
    if guards is None:
        return False
    line = script.f_lineno
    return not any(start <= line <= end for start, end in guards)


@functools.lru_cache(maxsize=8)
def _guard_lines(filename: str) -> tuple[tuple[int, int], ...] | None:
    """The line spans of the script's top-level guards, None if it cannot be read. Read once
    per process: a long run whose script is edited while it plays keeps judging its calls
    by the lines it was started from, which its frames' line numbers refer to."""
    try:
        with open(filename, "rb") as f:
            source = f.read(MAX_SCRIPT_BYTES + 1)
        if len(source) > MAX_SCRIPT_BYTES:
            return None
        tree = ast.parse(source)
    except (OSError, SyntaxError, ValueError):
        return None
    return tuple((node.lineno, node.end_lineno or node.lineno) for node in tree.body
                 if _is_guard(node))
