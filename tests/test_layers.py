"""The layer rules that import-linter cannot express, checked on the source with ``ast``.

Which pyramids package may import which is written as import-linter contracts in
pyproject.toml (``lint-imports``, run by ``./run checks``; one test below runs it too).
What stays here: the rules core and each rules package import only the standard library,
``pyramids.core`` and their own package, and do no I/O: no print, open or input, no
clock, no ``importlib``, no module-level ``random`` state (a ``random.Random`` passed in
or made from a seed is fine); the native engines' wrappers (``pyramids.native``, between
the rules packages and ``pyramids.games``) import only the standard library, core, the
extension module and their own game's rules package; the rules engines import without the
web stack; and the server's static files hold each registered game's browser module.
Issue 32: the rules packages name no host by a dotted path string and carry no interface
words (option help, preset labels: the catalogue has them), and each game's descriptor
imports its host-side parts inside the functions of its ``Lazy`` parts, its own game's only.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "pyramids"

RULES_PACKAGES = ("core", "flaming", "flags")
"""Packages that must stay pure: stdlib, core and themselves only."""

CODEGEN_MODULES = {SRC / "core" / "copying.py"}
"""The module that writes a position's copy function from its dataclass fields and ``exec``s it
(as ``dataclasses`` writes ``__init__``): generated from the class, never from input."""

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

SERVER_LIBRARIES = (
    "fastapi",
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "psycopg",
    "platformdirs",
    "regex",
    "confusable_homoglyphs",
)
"""The optional extra ``server`` (pyproject.toml): nothing below the server needs them."""


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
    if path in CODEGEN_MODULES:
        bad = [b for b in bad if not b.endswith("calls exec()")]
    assert not bad, f"{path.relative_to(SRC)}: " + "; ".join(bad)


@pytest.mark.skipif(
    shutil.which("lint-imports", path=str(Path(sys.executable).parent)) is None,
    reason="import-linter is not installed (dev extra)",
)
def test_the_import_contracts_hold() -> None:
    """pyproject.toml's import-linter contracts (the layers between pyramids packages) hold."""
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert exe is not None
    done = subprocess.run(
        [exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


BLOCK_SERVER = textwrap.dedent(
    f"""
    import sys

    class _Blocker:
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in {SERVER_LIBRARIES!r}:
                raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
            return None

    sys.meta_path.insert(0, _Blocker())
    """
)
"""Python source that makes the server's libraries look uninstalled."""


def run_without_server_libraries(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter on which the ``server`` extra is missing."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [sys.executable, "-c", BLOCK_SERVER + code],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


def test_the_rules_engines_and_hosts_run_without_the_web_stack() -> None:
    """Issue 9: the engines, the registry and the bots import without the ``server`` extra,
    and a game plays to its end."""
    done = run_without_server_libraries(
        textwrap.dedent(
            """
            import random
            import pyramids.core, pyramids.games, pyramids.bots
            from pyramids.games import descriptors
            for desc in descriptors():
                state = desc.make(desc.info.min_players).new_initial_state(3)
                rng = random.Random(3)
                for _ in range(20000):
                    if state.is_terminal():
                        break
                    state.apply(rng.choice(state.legal_actions()))
            assert not any(m.partition(".")[0] == "fastapi" for m in sys.modules)
            print("ok")
            """
        )
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-3000:]


NATIVE_FILES = python_files("native")
RULES_GAMES = tuple(p for p in RULES_PACKAGES if p != "core")


def native_violations(imports: list[Import], module: str) -> list[str]:
    """Imports a native wrapper module (``pyramids.native.<game>``) may not make: anything but
    the standard library, core, ``pyramids.native``, ``pyramids._native`` and its own
    game's rules package (``pyramids.<game>``; the package's ``__init__`` has no game)."""
    game = module.rpartition(".")[2]
    allowed = ["pyramids.core", "pyramids.native", "pyramids._native"]
    if game in RULES_GAMES:
        allowed.append(f"pyramids.{game}")
    bad = []
    for imp in imports:
        if is_stdlib(imp.module) or any(is_within(imp.module, a) for a in allowed):
            continue
        if imp.module == "pyramids" and set(imp.names) <= {"_native"}:
            continue
        bad.append(f"line {imp.line}: imports {imp.module}")
    return bad


@pytest.mark.parametrize("path", NATIVE_FILES, ids=[str(p.relative_to(SRC)) for p in NATIVE_FILES])
def test_native_wrappers_import_only_core_and_their_own_rules(path: Path) -> None:
    """docs/NATIVE.md: ``pyramids.native`` sits between the rules packages and ``pyramids.games``;
    ``pyramids.native.flaming`` never imports Flags' rules nor the reverse."""
    module = package_of(path) + "." + path.stem
    bad = native_violations(imports_of(path), module.removesuffix(".__init__"))
    assert not bad, f"{path.relative_to(SRC)}: " + "; ".join(bad)


def test_the_rules_packages_never_import_the_native_core() -> None:
    """The Python engines stay the readable reference: no rules module imports the native
    wrappers or the extension module."""
    for package, path in RULES_FILES:
        for imp in imports_of(path):
            assert not is_within(imp.module, "pyramids.native"), (package, path, imp)
            assert not is_within(imp.module, "pyramids._native"), (package, path, imp)
            assert "_native" not in imp.names, (package, path, imp)


def test_the_native_checker_catches_a_foreign_import() -> None:
    """Self-test: a Flaming wrapper importing Flags' rules or the registry is reported."""
    source = "from pyramids.flags import FlagsGame\nfrom pyramids.games import make_game\nimport json\nfrom pyramids import _native\nfrom pyramids.flaming import FlamingGame\n"
    found = " | ".join(
        native_violations(imports_in(source, "pyramids.native"), "pyramids.native.flaming")
    )
    assert "pyramids.flags" in found and "pyramids.games" in found
    assert "json" not in found and "pyramids.flaming" not in found and "_native" not in found


def test_serve_without_the_server_extra_says_how_to_install_it() -> None:
    """``pyramids serve`` without the extra: a clear message, exit status 2, no traceback."""
    done = run_without_server_libraries(
        "import sys; sys.argv = ['pyramids', 'serve', '--port', '0']\n"
        "from pyramids.cli.main import main\nmain()\n"
    )
    assert done.returncode == 2, done.stderr[-3000:]
    assert "pip install 'pyramids[server]'" in done.stderr
    assert "Traceback" not in done.stderr


STATIC = SRC / "server" / "static"


def test_every_game_has_its_browser_module_in_the_static_files() -> None:
    """The table page imports each registered game's ``browser_module`` from static/: it is
    there, is an ES module that exports ``createGame``, and nothing else picks a game by name."""
    from pyramids.games import descriptors

    for desc in descriptors():
        assert desc.browser_module, f"{desc.name} names no browser module"
        module = STATIC / desc.browser_module
        assert module.is_file(), f"{desc.name}: {module} is missing"
        assert "export function createGame" in module.read_text(encoding="utf-8"), module
    table_js = (STATIC / "js" / "table.js").read_text(encoding="utf-8")
    for desc in descriptors():
        assert Path(desc.browser_module).name not in table_js, f"table.js names {desc.name}"


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


# --- issue 32: the rules name no host, carry no words; descriptors load their parts lazily ---

HOST_WORDS = frozenset({"help_en", "help_fr", "label_en", "label_fr"})
"""Names of interface words a rules package used to carry (the catalogue has them now)."""
DOTTED_PATH = re.compile(r"\bpyramids(?:\.\w+)+(?::[\w.]+)?")
"""A module named by a string (``"pyramids.games.flaming.policy:GreedyFlamingBot"``)."""


def _doc_strings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are documentation (a bare string statement)."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }


def host_references(source: str) -> list[str]:
    """What a rules module may not hold: a dotted ``pyramids.`` path in a string (other than
    documentation) and the names of interface words (``help_en``, ``label_fr`` ...)."""
    tree = ast.parse(source)
    docs = _doc_strings(tree)
    bad = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            found = DOTTED_PATH.search(node.value)
            if found:
                bad.append(f"line {line}: names {found.group(0)!r} by a string")
            if node.value in HOST_WORDS:
                bad.append(f"line {line}: the string {node.value!r}")
        names = []
        if isinstance(node, ast.Name):
            names.append(node.id)
        elif isinstance(node, ast.Attribute):
            names.append(node.attr)
        elif isinstance(node, ast.keyword | ast.arg) and node.arg:
            names.append(node.arg)
        bad += [f"line {line}: names {n} (interface words)" for n in names if n in HOST_WORDS]
    return sorted(set(bad))


@pytest.mark.parametrize(
    ("package", "path"), RULES_FILES, ids=[str(p.relative_to(SRC)) for _, p in RULES_FILES]
)
def test_rules_modules_name_no_host_and_carry_no_interface_words(package: str, path: Path) -> None:
    """Issue 32: a rules package names no host module by a string (import-linter cannot see a
    string) and carries no option help or preset labels (``options.json`` of the catalogue)."""
    bad = host_references(path.read_text(encoding="utf-8"))
    assert not bad, f"{path.relative_to(SRC)}: " + "; ".join(bad)


def test_the_host_reference_checker_catches_paths_and_words() -> None:
    """Self-test: a dotted path in a string and a ``help_en`` field are reported; the same
    path in a docstring, and ordinary strings, are not."""
    source = '''
"""Rules; see ``pyramids.games.flaming.policy``."""
POLICY = "pyramids.games.flaming.policy:GreedyFlamingBot"
NATIVE = "pyramids.native.flaming"
spec = OptionSpec("x", "int", 1, help_en="x")
label_fr = "y"
OK = "a pyramid. of tiles"
'''
    found = " | ".join(host_references(source))
    assert "line 3: names 'pyramids.games.flaming.policy:GreedyFlamingBot'" in found
    assert "line 4: names 'pyramids.native.flaming'" in found
    assert "line 5: names help_en" in found and "line 6: names label_fr" in found
    assert "line 2" not in found and "line 7" not in found


DESCRIPTOR_FILES = {
    **{f"pyramids.games.{p.parent.name}": p for p in sorted(SRC.glob("games/*/descriptor.py"))},
    "tests.thirdgame": ROOT / "tests" / "thirdgame" / "__init__.py",
}
"""Each game's descriptor module, by the host-side package of its game."""


def lazy_violations(source: str, host: str, rules: str, native: str) -> list[str]:
    """Imports a descriptor module may not make: at module level anything but the standard
    library, ``pyramids.core`` and its game's rules ``rules``; inside a function (a ``Lazy``
    part's loader) anything but its game's host package ``host``, its native engine
    ``native``, ``pyramids.games.value`` (the learned evaluations' shared part), core and
    the registry module itself (the third game's ``registered()``)."""
    tree = ast.parse(source)
    top = {id(n) for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)}
    bad = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        else:
            modules = [node.module or ""]
        for module in modules:
            if is_stdlib(module) or is_within(module, "pyramids.core"):
                continue
            if id(node) in top:
                if not is_within(module, rules):
                    bad.append(f"line {node.lineno}: imports {module} when loaded")
            elif module != "pyramids.games" and not any(
                is_within(module, m) for m in (host, native, "pyramids.games.value")
            ):
                bad.append(f"line {node.lineno}: a part imports {module}")
    return bad


@pytest.mark.parametrize("host", sorted(DESCRIPTOR_FILES))
def test_descriptors_import_only_their_game_and_its_parts_lazily(host: str) -> None:
    """Issue 32: a descriptor module imports its game's rules when loaded and each host-side
    part (terminal, RL encoding, native engine ...) inside that part's loader, never another
    game's module nor a host (the registry loads it without ``rich`` or ``numpy``)."""
    path = DESCRIPTOR_FILES[host]
    game = host.rpartition(".")[2]
    rules = "tests.thirdgame.rules" if host == "tests.thirdgame" else f"pyramids.{game}"
    native = f"pyramids.native.{game}"
    bad = lazy_violations(path.read_text(encoding="utf-8"), host, rules, native)
    assert not bad, f"{path}: " + "; ".join(bad)


def test_the_lazy_import_checker_catches_eager_and_foreign_parts() -> None:
    """Self-test: an eager host part and a part of another game are reported."""
    source = (
        "from pyramids.core.descriptor import Lazy\n"
        "from pyramids.flaming.game import INFO\n"
        "from pyramids.games.flaming.terminal import UI\n"
        "def policy():\n"
        "    from pyramids.games.flags.policy import GreedyFlagsBot\n"
        "    return GreedyFlagsBot\n"
        "def native():\n"
        "    from pyramids.native.flaming import ENGINE\n"
        "    return ENGINE\n"
    )
    found = " | ".join(
        lazy_violations(
            source, "pyramids.games.flaming", "pyramids.flaming", "pyramids.native.flaming"
        )
    )
    assert "line 3: imports pyramids.games.flaming.terminal when loaded" in found
    assert "line 5: a part imports pyramids.games.flags.policy" in found
    assert "line 1" not in found and "line 2" not in found and "line 8" not in found
