"""Folders are layers: a module imports only its own layer and those below.

The table of layers, lowest first, is in ``simulator/README.md``. Every import counts, lazy
ones inside functions included.

A sub-folder is a layer by its package name (``simulator.core`` covers every module under
``simulator/core/``); the modules that sit directly in ``simulator/`` are listed by name
(``agent/`` holds only
packages), so a new module there, or a new sub-folder, must be given its layer here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Lowest first. "simulator" is the public API (the package's __init__), which re-exports core
# and play, so it sits with play. The bare package names stand for their __init__ alone.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("simulator.core",),
    ("simulator.play", "simulator"),
    ("simulator.interop",),
    ("simulator.arena",),
    ("simulator.web",),
    ("simulator.cli",),
    ("agent.strength",),
    ("agent.preflop",),
    ("agent.equilibrium",),
    ("agent.modeller",),
    ("agent.heuristic",),
    ("agent.rivals",),
    ("agent.commands", "agent"),
)
PACKAGES = {"simulator", "agent"}


def layer_of(module: str) -> int | None:
    """The layer of a module of ours (the longest matching prefix), None for a third party
    or for a module of ours that no layer names."""
    best, depth = None, -1
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            covers = module == prefix or (module.startswith(prefix + ".")
                                          and prefix not in PACKAGES)
            if covers and prefix.count(".") > depth:
                best, depth = index, prefix.count(".")
    return best


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, module: str) -> list[tuple[int, str]]:
    """(line, imported module) for every import in the file, at any depth."""
    out = []
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            out.append((node.lineno, base))
            # "from simulator import core" imports the subpackage simulator.core
            out += [(node.lineno, f"{base}.{alias.name}") for alias in node.names
                    if (ROOT / base.replace(".", "/") / alias.name).is_dir()]
    return out


def violations(path: Path) -> list[str]:
    module = module_name(path)
    mine = layer_of(module)
    problems = []
    for line, target in imports_of(path, module):
        theirs = layer_of(target)
        where = f"{path.relative_to(ROOT)}:{line}"
        if theirs is None:
            continue
        elif module.startswith("simulator") and target.startswith("agent"):
            problems.append(f"{where}: the simulator imports the agent ({target})")
        elif theirs > mine:
            problems.append(f"{where}: {module} (layer {LAYERS[mine][0]}) imports {target} "
                            f"from the layer above, {LAYERS[theirs][0]}")
    return problems


def source_files() -> list[Path]:
    return sorted(p for pkg in ("simulator", "agent") for p in (ROOT / pkg).rglob("*.py"))


def test_no_module_imports_from_a_layer_above() -> None:
    problems = [p for path in source_files() for p in violations(path)]
    assert not problems, "\n".join(problems)


def unlayered(paths: list[Path]) -> list[str]:
    """The modules among ``paths`` that no layer names."""
    names = (module_name(p) for p in paths)
    return [m for m in names if layer_of(m) is None]


def test_every_module_has_a_layer() -> None:
    assert unlayered(source_files()) == []


@pytest.mark.parametrize("where", ["agent/newfolder/probe.py", "simulator/newfolder/probe.py",
                                   "agent/probe.py", "simulator/probe.py"])
def test_a_module_outside_every_layer_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               where: str) -> None:
    path = tmp_path / where
    path.parent.mkdir(parents=True)
    path.write_text("import numpy\n", encoding="utf-8")
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert unlayered([path]) == [where.removesuffix(".py").replace("/", ".")]
    layered = tmp_path / "agent" / "strength" / "probe.py"
    layered.parent.mkdir(parents=True)
    layered.write_text("import numpy\n", encoding="utf-8")
    assert unlayered([layered]) == []


@pytest.mark.parametrize(("source", "expected"), [
    ("from simulator.arena.results import RunStore\n", "imports simulator.arena.results"),
    ("def f():\n    import simulator.interop.phh\n", "imports simulator.interop.phh"),
    ("from agent.strength import ehs\n", "the simulator imports the agent"),
    ("from simulator import Action\n", "imports simulator from the layer above"),
    ("from ..play import match\n", "imports simulator.play"),
])
def test_the_check_finds_upward_imports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        source: str, expected: str) -> None:
    fake_root = tmp_path
    (fake_root / "simulator" / "core").mkdir(parents=True)
    (fake_root / "simulator" / "play").mkdir(parents=True)
    path = fake_root / "simulator" / "core" / "probe.py"
    path.write_text(source, encoding="utf-8")
    monkeypatch.setitem(globals(), "ROOT", fake_root)
    found = violations(path)
    assert any(expected in p for p in found), found


def test_downward_imports_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "agent" / "modeller").mkdir(parents=True)
    path = tmp_path / "agent" / "modeller" / "probe.py"
    path.write_text("from agent.strength.ehs import EHS\nfrom simulator import Action\n"
                    "import numpy\n", encoding="utf-8")
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert violations(path) == []
