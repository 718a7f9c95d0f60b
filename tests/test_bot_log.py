"""``bots.log``: every line a worker's bot prints starts with its block and seating, so the
prints of a duplicate block's seatings (played deal by deal, in turn) can be told apart."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from simulator.cli import main as holdem


def test_every_printed_line_names_its_block_and_seating(tmp_path: Path) -> None:
    out = tmp_path / "out"
    config = tmp_path / "chatty.yaml"
    config.write_text(yaml.safe_dump({
        "game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
        "seats": [{"name": "chatty", "bot": "hostile_bots:ChattyBot"},
                  {"name": "c", "bot": "call"}],
        "hands": 6, "block_size": 3, "seed": 5, "workers": 2, "duplicate": True,
        "output": {"dir": str(out), "plots": False}}))
    assert holdem(["run", str(config), "--quiet"]) == 0
    lines = (out / "bots.log").read_text().splitlines()
    tagged = [re.fullmatch(r"\[block (\d), seating (\d)\] (chatty: .*)", ln) for ln in lines]
    assert lines and all(tagged), lines
    seen = {(m.group(1), m.group(2), m.group(3)) for m in tagged if m}
    for block in "01":
        for seating in "01":
            assert (block, seating, "chatty: built") in seen
            assert (block, seating, "chatty: to stderr") in seen
            assert (block, seating, "chatty: hand 2") in seen
