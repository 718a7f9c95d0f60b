"""``holdem report DIR``: a run's, league's, exploit run's or sit-and-go's page as one
offline HTML file.

    holdem report DIR [-o FILE]

Writes DIR/report.html (or FILE): the same tables and charts as ``holdem serve`` shows, with
the page's script, style and data inside the file, so it opens with no server and no network.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from simulator.arena.outdir import write_atomic
from simulator.core.errors import HoldemError
from simulator.core.helptext import summary
from simulator.web.paths import kind_of
from simulator.web.reports import report_of

SCRIPTS = ("common.js", "chart.js", "report.js")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="holdem report", description=summary(__doc__ or ""))
    p.add_argument("dir", type=Path, help="a run, league, exploit or sit-and-go output directory")
    p.add_argument("-o", "--output", type=Path, default=None,
                   help="the HTML file to write (default DIR/report.html)")
    return p


def static_text(name: str) -> str:
    from importlib.resources import files
    return (files("simulator.web") / "static" / name).read_text(encoding="utf-8")


def offline_html(data: dict[str, object]) -> str:
    """The report page with its style, scripts and data inline."""
    payload = json.dumps(data).replace("</", "<\\/")
    scripts = "".join(f"<script>\n{static_text(s)}\n</script>\n" for s in SCRIPTS)
    return (f"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>holdem report</title><style>\n{static_text('app.css')}\n</style></head>"
            f"<body><header><h1>holdem report</h1></header><main id=\"report\"></main>"
            f"<script type=\"application/json\" id=\"report-data\">{payload}</script>\n"
            f"{scripts}</body></html>\n")


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    path: Path = args.dir
    kind = kind_of(path) if path.is_dir() else None
    if kind is None or kind == "session":
        raise HoldemError(f"{path}: not a run, league, exploit or sit-and-go directory (no "
                          f"summary.json or crosstable.csv)")
    data = report_of(path, kind, "")
    data["offline"] = True
    out = args.output or path / "report.html"
    write_atomic(out, offline_html(data))
    print(f"wrote {out}")
    return 0
