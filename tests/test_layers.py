"""The layer rules of STYLE.md, checked on the source with ``ast``.

core <- games (flaming, flags) <- bots <- cli, server, analysis. The rules core and each
game import only the standard library, ``pyramids.core`` and their own package, and do
no I/O: no print, open or input, no clock, no module-level ``random`` state (a
``random.Random`` passed in or made from a seed is fine).
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "pyramids"

RULES_PACKAGES = ("core", "flaming", "flags")
"""Packages that must stay pure: stdlib, core and themselves only."""

FORBIDDEN_CALLS = {"print", "open", "input", "breakpoint", "exec", "eval"}
IO_MODULES = {
    "os",
    "io",
    "pathlib",
    "socket",
    "subprocess",
    "shutil",
    "tempfile",
    "time",
    "sqlite3",
    "importlib",
}
"""Standard-library modules that mean I/O or a clock; the rules layer needs none of them."""
CLOCK_ATTRIBUTES = {
    ("datetime", "now"),
    ("datetime", "today"),
    ("date", "today"),
    ("datetime", "utcnow"),
}
RANDOM_ALLOWED = {"Random"}
"""The only names the rules may use from the ``random`` module: a generator class."""

BOT_FORBIDDEN = ("pyramids.cli", "pyramids.analysis", "pyramids.server")


@dataclass(frozen=True)
class Import:
    """One imported module, where it is imported."""

    module: str
    names: tuple[str, ...]
    line: int


def python_files(package: str) -> list[Path]:
    """The .py files of ``src/pyramids/<package>`` (empty if the package does not exist)."""
    root = SRC / package
    return sorted(root.rglob("*.py")) if root.is_dir() else []


def package_of(path: Path) -> str:
    """The dotted package that holds ``path`` (``pyramids.flaming`` for flaming/state.py)."""
    return ".".join(path.relative_to(SRC.parent).parts[:-1])


def imports_of(path: Path) -> list[Import]:
    """Every import in ``path`` (relative imports resolved to absolute names)."""
    return imports_in(path.read_text(encoding="utf-8"), package_of(path))


def imports_in(source: str, package: str) -> list[Import]:
    """Every import in ``source``, a module of ``package`` (relative imports resolved)."""
    tree = ast.parse(source)
    found: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(Import(alias.name, (), node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.append(Import(module, tuple(a.name for a in node.names), node.lineno))
    return found


def is_stdlib(module: str) -> bool:
    """Whether ``module`` belongs to the standard library (``__future__`` included)."""
    top = module.split(".", maxsplit=1)[0]
    return top in sys.stdlib_module_names or top == "__future__"


def is_within(module: str, package: str) -> bool:
    """Whether ``module`` is ``package`` or inside it."""
    return module == package or module.startswith(package + ".")


def import_violations(imports: list[Import], own: str) -> list[str]:
    """Imports a rules module of package ``own`` may not make: non-stdlib, I/O, random functions."""
    bad = []
    for imp in imports:
        if is_stdlib(imp.module):
            if imp.module.split(".", maxsplit=1)[0] in IO_MODULES:
                bad.append(f"line {imp.line}: imports {imp.module} (I/O or clock)")
            if imp.module == "random" and set(imp.names) - RANDOM_ALLOWED:
                bad.append(f"line {imp.line}: imports {sorted(imp.names)} from random")
            continue
        if is_within(imp.module, own) or is_within(imp.module, "pyramids.core"):
            continue
        bad.append(f"line {imp.line}: imports {imp.module}")
    return bad


def io_violations(source: str) -> list[str]:
    """Calls and attributes a rules module may not use: print/open/input, clocks, global random."""
    bad = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in FORBIDDEN_CALLS
        ):
            bad.append(f"line {node.lineno}: calls {node.func.id}()")
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            owner, attr = node.value.id, node.attr
            if owner == "random" and attr not in RANDOM_ALLOWED:
                bad.append(f"line {node.lineno}: uses random.{attr} (module-level random state)")
            if owner == "time":
                bad.append(f"line {node.lineno}: uses time.{attr} (a clock)")
            if (owner, attr) in CLOCK_ATTRIBUTES:
                bad.append(f"line {node.lineno}: uses {owner}.{attr} (a clock)")
            if owner == "sys" and attr in {"stdout", "stderr", "stdin", "argv", "exit"}:
                bad.append(f"line {node.lineno}: uses sys.{attr} (I/O)")
    return bad


RULES_FILES = [(pkg, path) for pkg in RULES_PACKAGES for path in python_files(pkg)]


def test_the_rules_packages_exist() -> None:
    """The walk below sees the core and at least one game (a moved tree would pass vacuously)."""
    assert python_files("core")
    assert python_files("flaming")


@pytest.mark.parametrize(
    ("package", "path"), RULES_FILES, ids=[str(p.relative_to(SRC)) for _, p in RULES_FILES]
)
def test_rules_modules_import_only_stdlib_core_and_themselves(package: str, path: Path) -> None:
    """STYLE: "pyramids/core ... and one package per game import only the standard library and core"."""
    bad = import_violations(imports_of(path), f"pyramids.{package}")
    assert not bad, f"{path.relative_to(SRC)}: " + "; ".join(bad)


@pytest.mark.parametrize(
    ("package", "path"), RULES_FILES, ids=[str(p.relative_to(SRC)) for _, p in RULES_FILES]
)
def test_rules_modules_do_no_io_and_keep_no_global_randomness(package: str, path: Path) -> None:
    """STYLE: "No print, no files, no clock, no random module state"."""
    bad = io_violations(path.read_text(encoding="utf-8"))
    assert not bad, f"{path.relative_to(SRC)}: " + "; ".join(bad)


def test_core_imports_no_game() -> None:
    """STYLE: core "depends on nothing"; every game depends on it, never the reverse."""
    for path in python_files("core"):
        for imp in imports_of(path):
            if imp.module.startswith("pyramids"):
                assert is_within(imp.module, "pyramids.core"), (
                    f"{path.name}:{imp.line} {imp.module}"
                )


BOT_FILES = python_files("bots")


@pytest.mark.parametrize("path", BOT_FILES, ids=[p.name for p in BOT_FILES])
def test_bots_sit_below_cli_analysis_and_server(path: Path) -> None:
    """STYLE: "Bots, CLI, server and analysis sit on top"; bots use core and games only."""
    allowed = (
        "pyramids.core",
        "pyramids.flaming",
        "pyramids.flags",
        "pyramids.games",
        "pyramids.bots",
    )
    for imp in imports_of(path):
        if not imp.module.startswith("pyramids"):
            continue
        assert not any(is_within(imp.module, f) for f in BOT_FORBIDDEN), (
            f"{path.name}:{imp.line} imports {imp.module}"
        )
        assert any(is_within(imp.module, a) for a in allowed), (
            f"{path.name}:{imp.line} imports {imp.module}"
        )


def test_nothing_but_tests_imports_the_rl_adapters() -> None:
    """The research adapters (optional extra ``rl``) sit beside analysis: no module uses them."""
    for path in sorted(SRC.rglob("*.py")):
        if path.is_relative_to(SRC / "rl"):
            continue
        for imp in imports_of(path):
            assert not is_within(imp.module, "pyramids.rl"), (
                f"{path.name}:{imp.line} imports {imp.module}"
            )


SERVER_FILES = python_files("server")


def test_the_server_is_not_a_dependency_of_anything_below_it() -> None:
    """STYLE: the server sits on top; only the CLI's ``serve`` command may start it."""
    for path in sorted(SRC.rglob("*.py")):
        if path.is_relative_to(SRC / "server") or path == SRC / "cli" / "serve_cmd.py":
            continue
        for imp in imports_of(path):
            assert not is_within(imp.module, "pyramids.server"), (
                f"{path.relative_to(SRC)}:{imp.line} imports {imp.module}"
            )


@pytest.mark.parametrize("path", SERVER_FILES, ids=[p.name for p in SERVER_FILES])
def test_the_server_uses_the_games_only_through_core_games_and_bots(path: Path) -> None:
    """The server is generic: it reaches a game through ``pyramids.games`` and the core
    protocol, never through the CLI or analysis; only its catalogue (what the lobby offers:
    presets and option fields) reads the games' option modules."""
    allowed: tuple[str, ...] = (
        "pyramids.core",
        "pyramids.games",
        "pyramids.bots",
        "pyramids.server",
    )
    if path.name == "catalog.py":
        allowed += ("pyramids.flaming", "pyramids.flags")
    for imp in imports_of(path):
        if imp.module.startswith("pyramids"):
            assert any(is_within(imp.module, a) for a in allowed), (
                f"{path.relative_to(SRC)}:{imp.line} imports {imp.module}"
            )


def test_the_checkers_catch_what_they_forbid() -> None:
    """Self-test on a made-up module: every kind of breach is reported, clean code is not."""
    bad_source = """
import os
import random
from random import shuffle
from pyramids.cli import main
from . import helpers
from .. import bots
print("hello")
random.shuffle([])
time.sleep(1)
datetime.now()
rng = random.Random(3)
from importlib import resources
"""
    imports = imports_in(bad_source, "pyramids.flaming")
    assert {i.module for i in imports} >= {"pyramids.flaming", "pyramids", "pyramids.cli"}
    found = " | ".join(import_violations(imports, "pyramids.flaming"))
    assert "imports os" in found
    assert "imports importlib (I/O or clock)" in found
    assert "from random" in found
    assert "imports pyramids.cli" in found
    assert "imports pyramids\n" not in found and "line 7: imports pyramids" in found
    assert "line 6" not in found  # from . import helpers: its own package
    io = " | ".join(io_violations(bad_source))
    for expected in ("calls print()", "random.shuffle", "time.sleep", "datetime.now"):
        assert expected in io
    assert "random.Random" not in io
    assert is_stdlib("collections.abc") and is_stdlib("__future__") and not is_stdlib("typer")
