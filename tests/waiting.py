"""Waiting for a condition in another thread or process, with a deadline.

Tests do not sleep to let something happen: they wait for the thing itself. Where it
happens in this process's event loop, a test awaits the event or the task; where time is
the subject, a test drives the injected clock (``pyramids.server.clocks.ManualClock``). What
is left is a condition that only another thread or process can make true and that offers
no event to wait on: a server's state read over HTTP, a row in the database, a process
that has exited. :func:`wait_until` polls such a condition. Its deadline is a hang guard,
never a timing assertion: it is generous (``HANG`` seconds by default, a busy 2-core
machine included), and a test never asserts that something took less than it.

This is the one place in ``tests/`` that sleeps to poll; every other real sleep carries a
comment saying what it waits for and why no event or clock can replace it
(``tests/test_waiting.py`` holds the suite to that).
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

HANG = 60.0
"""Seconds after which a condition that never came is a hang: the test fails saying what
it waited for. Not a speed target: the suite runs on a shared 2-core machine."""
EVERY = 0.01
"""Seconds between two looks (each look is a cheap read: an HTTP GET, a query)."""


class _HangGuard:
    """The deadline of one wait: ``timeout`` seconds, started again whenever ``progress()``
    changes; :meth:`check` raises once it has passed."""

    def __init__(self, what: str, timeout: float, progress: Callable[[], object] | None) -> None:
        self.what, self.timeout, self.progress = what, timeout, progress
        self.mark = progress() if progress is not None else None
        self.deadline = time.monotonic() + timeout

    def check(self, last: object) -> None:
        if self.progress is not None and (now := self.progress()) != self.mark:
            self.mark, self.deadline = now, time.monotonic() + self.timeout
        if time.monotonic() > self.deadline:
            raise AssertionError(f"{self.what}: not so after {self.timeout:.0f} s (last: {last!r})")


def wait_until(
    check: Callable[[], T],
    what: str,
    *,
    timeout: float = HANG,
    every: float = EVERY,
    progress: Callable[[], object] | None = None,
) -> T:
    """``check()``'s first truthy value; AssertionError naming ``what`` (and the last
    value seen) when none came within ``timeout`` seconds. With ``progress`` (say, a
    table's seq) the deadline starts again whenever its value changes: a long game on a
    busy machine is no hang, a game that stopped moving is."""
    guard = _HangGuard(what, timeout, progress)
    while not (value := check()):
        guard.check(value)
        time.sleep(every)  # the poll (module docstring)
    return value


async def until(
    check: Callable[[], T | Awaitable[T]],
    what: str,
    *,
    timeout: float = HANG,
    every: float = EVERY,
    progress: Callable[[], object] | None = None,
) -> T:
    """:func:`wait_until` inside an event loop: the loop runs on between two looks, and
    ``check`` may be a coroutine function (an HTTP read with an async client)."""
    guard = _HangGuard(what, timeout, progress)
    while True:
        got = check()
        value: T = await got if inspect.isawaitable(got) else got  # type: ignore[assignment]
        if value:
            return value
        guard.check(value)
        await asyncio.sleep(every)  # the poll (module docstring)
