"""The heuristic agent's decisions over a few dozen fixed hands, against a committed digest.

``experiments/bench/decision_fingerprint.py`` plays fixed seeded matches with tracing on and
writes every hand's chips and every decision's trace record (floats in full precision); at the
scale of ``tests/data/decision_fingerprint.json`` (about 40 hands over its four matches) this
plays the same, with the script's own code, and compares each line's digest with the file's.
A change that moves a decision or a float behind one fails here and names the first line
that differs. Floats may differ in their last bits on another machine or with other numpy or
numba versions, so the comparison runs only on the platform recorded in the file. After a
change meant to move decisions, rewrite the file with the command in the script's docstring.
"""

from __future__ import annotations

import importlib.util
import json
import warnings
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "experiments" / "bench" / "decision_fingerprint.py"
RECORD = Path(__file__).parent / "data" / "decision_fingerprint.json"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("decision_fingerprint", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_decisions_match_the_committed_fingerprint(tmp_path: Path) -> None:
    script = _script()
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    here = script.platform_key()
    if here != record["platform"]:
        pytest.skip(f"the fingerprint was recorded on {record['platform']}, this is {here}: "
                    f"floats may differ in their last bits")
    out = tmp_path / "fingerprint.jsonl"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        decisions = script.fingerprint(out, record["scale"])
    assert decisions > 400  # every match played, and traced
    got, want = script.digests(out), record["digests"]
    lines = out.read_text(encoding="utf-8").splitlines()
    first = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), None)
    assert first is None, f"line {first} differs: {lines[first][:300]}"
    assert len(got) == len(want)
