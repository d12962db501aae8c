"""The suite waits for events, not for time (docs/TESTING.md, "Time").

Every real sleep left in ``tests/`` says in a comment what it waits for and why no event
or clock can replace it; the one poll with a deadline is :mod:`tests.waiting`, whose hang
guard restarts while the awaited thing makes progress.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests import waiting

TESTS = Path(__file__).resolve().parent


def sleeps_without_a_reason(source: str) -> list[int]:
    """Lines of ``time.sleep(…)`` and ``asyncio.sleep(…)`` calls with no comment on the
    line nor in a comment block right above it."""
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "sleep"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in ("time", "asyncio")
        ):
            continue
        n = node.lineno
        above = lines[n - 2].strip() if n >= 2 else ""
        if "#" not in lines[n - 1] and not above.startswith("#"):
            found.append(n)
    return found


def test_the_checker_finds_a_sleep_that_gives_no_reason() -> None:
    source = (
        "import asyncio, time\n"
        "time.sleep(0.1)\n"
        "time.sleep(0.1)  # the poll: another process\n"
        "# a race's jitter\n"
        "await_me = asyncio.sleep(0)\n"
        "asyncio.sleep(1)\n"
        "text = 'time.sleep(1)'\n"
    )
    assert sleeps_without_a_reason(source) == [2, 6]


def test_every_real_sleep_in_the_tests_says_why() -> None:
    unexplained = {
        str(path.relative_to(TESTS)): lines
        for path in sorted(TESTS.rglob("*.py"))
        if (lines := sleeps_without_a_reason(path.read_text(encoding="utf-8")))
    }
    assert unexplained == {}, "sleeps with no comment saying what they wait for and why"


class FakeTime:
    """``time`` for :mod:`tests.waiting`: ten seconds pass at every look, none asleep."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 10.0
        return self.now

    def sleep(self, seconds: float) -> None:
        pass


def test_a_wait_returns_the_first_truthy_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(waiting, "time", FakeTime())
    looks = iter([None, 0, "", "here"])
    assert waiting.wait_until(lambda: next(looks), "a value", timeout=1000) == "here"


def test_a_wait_that_sees_nothing_fails_saying_what_it_waited_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(waiting, "time", FakeTime())
    with pytest.raises(AssertionError, match="the bots' first move: not so after 25 s"):
        waiting.wait_until(lambda: None, "the bots' first move", timeout=25)


def test_progress_restarts_the_hang_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table that keeps moving is waited for however long its game lasts (here 20 looks
    of 10 s against a guard of 25 s); one that stops moving fails."""
    monkeypatch.setattr(waiting, "time", FakeTime())
    seq = iter(range(1000))
    looks = iter([None] * 20 + ["over"])
    over = waiting.wait_until(
        lambda: next(looks), "the end", timeout=25, progress=lambda: next(seq)
    )
    assert over == "over"
    with pytest.raises(AssertionError, match="the end"):
        waiting.wait_until(lambda: None, "the end", timeout=25, progress=lambda: 7)
