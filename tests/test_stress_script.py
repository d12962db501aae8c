"""scripts/stress_tests.py (``./run stress``, docs/TESTING.md): what it reads from the
runs' JUnit files and what it reports."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]

JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest">
<testcase classname="tests.a" name="test_fine" time="1.0"/>
<testcase classname="tests.a" name="test_broken" time="2.0"><failure message="x"/></testcase>
<testcase classname="tests.b" name="test_crashed" time="0.5"><error message="y"/></testcase>
<testcase classname="tests.b" name="test_later" time="0.1"><skipped message="z"/></testcase>
</testsuite></testsuites>
"""


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("stress_tests", ROOT / "scripts/stress_tests.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_junit_file_gives_each_tests_outcome_and_time(tmp_path: Path) -> None:
    xml = tmp_path / "run.xml"
    xml.write_text(JUNIT, encoding="utf-8")
    assert script().results(xml) == {
        "tests.a::test_fine": ("passed", 1.0),
        "tests.a::test_broken": ("failed", 2.0),
        "tests.b::test_crashed": ("error", 0.5),
        "tests.b::test_later": ("skipped", 0.1),
    }
    assert script().results(tmp_path / "missing.xml") == {}


def test_failures_are_counted_per_run_and_slow_tests_against_their_usual_time() -> None:
    """A test twice as slow but less than the floor slower is noise, not a finding."""
    runs = [
        {"t::a": ("failed", 1.0), "t::b": ("passed", 9.0), "t::c": ("passed", 0.5)},
        {"t::a": ("failed", 1.0), "t::b": ("passed", 2.0), "t::c": ("error", 0.9)},
    ]
    usual = {"t::a": 1.0, "t::b": 2.0, "t::c": 0.2}
    failed, slow = script().tally(runs, usual, 1.0)
    assert failed == {"t::a": 2, "t::c": 1}
    assert slow == {"t::b": [4.5]}
