"""Data files shipped inside the packages, found wherever the packages are installed.

A file the code reads at run time (the agent's default parameters, the income-rate tables,
the ACPC game definitions) is package data: it sits beside the modules that read it, in a
checkout, an editable install and a wheel alike. ``configs/`` holds only examples.

>>> path = packaged_file("simulator.interop.acpc", "data", "holdem.limit.3p.game")
>>> path.name, path.is_file()
('holdem.limit.3p.game', True)
"""

from __future__ import annotations

import atexit
import contextlib
from importlib import resources
from pathlib import Path

_EXTRACTED = contextlib.ExitStack()
atexit.register(_EXTRACTED.close)


def packaged_file(package: str, *parts: str) -> Path:
    """The path of ``parts`` inside ``package`` (which need not exist: readers report that).

    Packages installed as files give their own path; from a zip import the file is extracted
    once and kept for the life of the process.
    """
    resource = resources.files(package).joinpath(*parts)
    if isinstance(resource, Path):
        return resource
    if not resource.is_file():  # nothing to extract; the reader names it and fails
        return Path(package.replace(".", "/"), *parts)
    return _EXTRACTED.enter_context(resources.as_file(resource))
