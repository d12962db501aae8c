"""How the native core is built and shipped (docs/NATIVE.md, "Building", "Wheels", "Fuzzing").

The lock file is committed and used, the fuzz crate stays out of the workspace, maturin
builds the module the package imports, and the module ``./run`` built is the one of the
current sources (under CI, where ``./run test`` has just built it).
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NATIVE = ROOT / "native"


def toml(path: Path) -> dict[str, object]:
    """A TOML file, parsed."""
    with path.open("rb") as handle:
        return tomllib.load(handle)


def test_the_lock_file_is_there_and_not_ignored() -> None:
    """The workspace's Cargo.lock is committed (CI builds ``--locked``)."""
    lock = NATIVE / "Cargo.lock"
    assert lock.is_file()
    assert "[[package]]" in lock.read_text(encoding="utf-8")
    if shutil.which("git") and (ROOT / ".git").exists():
        ignored = subprocess.run(
            ["git", "check-ignore", "-q", str(lock)], cwd=ROOT, check=False
        ).returncode
        assert ignored == 1, "native/Cargo.lock is ignored by git"


def test_the_fuzz_crate_is_its_own_workspace() -> None:
    """native/fuzz builds on nightly with libFuzzer: outside the stable workspace."""
    workspace = toml(NATIVE / "Cargo.toml")["workspace"]
    assert isinstance(workspace, dict)
    assert "fuzz" not in workspace["members"]
    fuzz = toml(NATIVE / "fuzz" / "Cargo.toml")
    assert "workspace" in fuzz
    targets = {b["name"] for b in fuzz["bin"]}  # type: ignore[attr-defined]
    assert {"flaming_position", "flags_position"} <= targets


def test_maturin_builds_the_module_the_package_imports() -> None:
    """pyproject.toml's ``[tool.maturin]`` makes ``pyramids._native`` from native/py, and the
    dev extra installs maturin."""
    project = toml(ROOT / "pyproject.toml")
    maturin = project["tool"]["maturin"]  # type: ignore[index]
    assert maturin["module-name"] == "pyramids._native"
    assert maturin["python-source"] == "src"
    crate = toml(ROOT / maturin["manifest-path"])
    assert crate["lib"]["name"] == "_native"  # type: ignore[index]
    assert (
        "abi3-py311"
        in toml(NATIVE / "Cargo.toml")["workspace"]["dependencies"]["pyo3"][  # type: ignore[index]
            "features"
        ]
    )
    dev = project["project"]["optional-dependencies"]["dev"]  # type: ignore[index]
    assert any(d.startswith("maturin") for d in dev)


def built_module() -> Path | None:
    """The extension module built in place, if any."""
    found = sorted((ROOT / "src" / "pyramids").glob("_native*.so"))
    return found[0] if found else None


def rust_sources() -> list[Path]:
    """The files the built module is made from (native/ but its build and fuzz directories)."""
    skip = {NATIVE / "target", NATIVE / "fuzz"}
    return [
        p for p in NATIVE.rglob("*") if p.is_file() and not any(p.is_relative_to(s) for s in skip)
    ]


@pytest.mark.skipif(built_module() is None, reason="the native core is not built")
def test_the_built_module_is_abi3_and_reports_the_crate_version() -> None:
    """One module for every CPython >= 3.11, of the workspace's version."""
    module = built_module()
    assert module is not None and ".abi3." in module.name
    native = importlib.import_module("pyramids._native")
    version = toml(NATIVE / "Cargo.toml")["workspace"]["package"]["version"]  # type: ignore[index]
    assert version == native.VERSION


@pytest.mark.skipif(os.environ.get("CI") != "true", reason="./run test has just built it under CI")
def test_the_built_module_is_of_the_current_sources() -> None:
    """Under CI the module is built (``./run test`` builds it, cargo being required) and
    no Rust source is newer than it: the tests run the code under review."""
    module = built_module()
    assert module is not None, "CI runs with the native core built"
    newer = [
        str(p.relative_to(ROOT))
        for p in rust_sources()
        if p.stat().st_mtime > module.stat().st_mtime
    ]
    assert not newer, f"newer than {module.name}: {newer[:5]}"


# --- ./run's native step, in a sandbox with stand-ins for cargo, maturin and pyramids ------


def sandbox(tmp_path: Path, *, cargo: bool, maturin_ok: bool = True) -> tuple[Path, dict[str, str]]:
    """A copy of ``run`` in ``tmp_path`` with an installed-looking .venv whose ``maturin``
    and ``pyramids`` are stand-ins that log their calls; the environment to run it in."""
    shutil.copy(ROOT / "run", tmp_path / "run")
    (tmp_path / "pyproject.toml").write_text("[project]\n", encoding="utf-8")
    (tmp_path / "native" / "core").mkdir(parents=True)
    (tmp_path / "native" / "core" / "lib.rs").write_text("//! core\n", encoding="utf-8")
    (tmp_path / "src" / "pyramids").mkdir(parents=True)
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    log = tmp_path / "calls.log"
    scripts = {
        "python": "exit 0",
        "pyramids": f'echo "pyramids $* engine=${{PYRAMIDS_ENGINE:-}}" >> {log}',
        "maturin": (
            f'echo "maturin $*" >> {log}; touch src/pyramids/_native.abi3.so'
            if maturin_ok
            else f'echo "maturin $*" >> {log}; echo "error[E0425]: broken" >&2; exit 1'
        ),
    }
    for name, body in scripts.items():
        path = bin_dir / name
        path.write_text(f"#!/usr/bin/env bash\n{body}\n", encoding="utf-8")
        path.chmod(0o755)
    (tmp_path / ".venv" / ".installed").touch()
    tools = tmp_path / "tools"
    tools.mkdir()
    if cargo:
        (tools / "cargo").write_text("#!/usr/bin/env bash\nexit 0\n", encoding="utf-8")
        (tools / "cargo").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in {"CI", "PYRAMIDS_ENGINE"}}
    env["PATH"] = f"{tools}:/usr/bin:/bin"
    return log, env


def run_in(tmp_path: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``./run ARGS`` in the sandbox."""
    return subprocess.run(
        ["bash", str(tmp_path / "run"), *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def calls(log: Path) -> list[str]:
    """The stand-ins' calls so far."""
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def test_run_without_cargo_says_so_once_and_plays_python(tmp_path: Path) -> None:
    """No cargo: one line on stderr (remembered), no build, the command runs; under CI an error."""
    log, env = sandbox(tmp_path, cargo=False)
    first = run_in(tmp_path, env, "simulate")
    assert first.returncode == 0, first.stderr
    assert "cargo not found" in first.stderr and "Python engines" in first.stderr
    second = run_in(tmp_path, env, "simulate")
    assert second.returncode == 0 and "cargo not found" not in second.stderr
    assert calls(log) == ["pyramids simulate engine=", "pyramids simulate engine="]
    ci = run_in(tmp_path, {**env, "CI": "true"}, "simulate")
    assert ci.returncode == 1 and "error: cargo not found" in ci.stderr


def test_run_builds_when_the_sources_are_newer_and_only_then(tmp_path: Path) -> None:
    """With cargo: ``maturin develop --skip-install --release`` once; a no-op while the built
    module is newer than every Rust source; again after a source changes (--locked under CI)."""
    log, env = sandbox(tmp_path, cargo=True)
    assert run_in(tmp_path, env, "simulate").returncode == 0
    assert run_in(tmp_path, env, "simulate").returncode == 0
    assert calls(log) == [
        "maturin develop --skip-install --release",
        "pyramids simulate engine=",
        "pyramids simulate engine=",
    ]
    source = tmp_path / "native" / "core" / "lib.rs"
    later = (tmp_path / "src" / "pyramids" / "_native.abi3.so").stat().st_mtime + 10
    os.utime(source, (later, later))
    assert run_in(tmp_path, {**env, "CI": "true"}, "simulate").returncode == 0
    assert calls(log)[-2] == "maturin develop --skip-install --release --locked"


def test_a_failing_build_stops_the_checks_but_not_the_server(tmp_path: Path) -> None:
    """A broken native build: ``./run checks`` (and so ``./run test``) exits 1 with the log;
    ``./run serve`` says so and plays on the Python engines."""
    log, env = sandbox(tmp_path, cargo=True, maturin_ok=False)
    checks = run_in(tmp_path, env, "checks")
    assert checks.returncode == 1
    assert "error[E0425]: broken" in checks.stderr
    assert "error: the native core does not build" in checks.stderr
    serve = run_in(tmp_path, env, "serve", "--port", "0")
    assert serve.returncode == 0, serve.stderr
    assert "playing on the Python engines" in serve.stderr
    assert calls(log)[-1] == "pyramids serve --port 0 engine=python"


# --- the long run (scripts/native_differential.py) ---------------------------------------


def native_built() -> bool:
    """Whether the extension module imports."""
    try:
        importlib.import_module("pyramids._native")
    except ImportError:
        return False
    return True


def run_long(*args: str) -> subprocess.CompletedProcess[str]:
    """``scripts/native_differential.py ARGS`` (no fuzzing: that needs nightly)."""
    return subprocess.run(
        [sys.executable, "scripts/native_differential.py", "--fuzz-seconds", "0", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.skipif(not native_built(), reason="the native core is not built")
def test_the_long_run_compares_and_can_fail() -> None:
    """A short long run reports games and compared actions and passes; with a test-only
    fault of the native core switched on it exits 1 naming the seeds."""
    done = run_long("--game", "flaming", "--actions", "300", "--batch", "2")
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "compared actions" in done.stdout and "no difference" in done.stdout
    broken = run_long(
        "--game", "flaming", "--actions", "50000", "--batch", "8", "--fault", "no_curse"
    )
    assert broken.returncode == 1, broken.stdout + broken.stderr[-3000:]
    assert "MismatchError" in broken.stdout
