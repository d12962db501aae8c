"""The rate limiter's clock, stopped, and moved by hand: :class:`RateClock`.

``pyramids.server.limits`` counts every rate with the ``limits`` library, which reads
``time.time()`` (its strategies and its in-memory storage), and so do its waits. On the
real clock a test of a rate is at the mercy of the window's edge: the sliding-window
counter weighs the previous window by the time gone, so two requests seconds apart on
either side of a minute's edge count less than two, and a test that sends "one too many"
sees it pass now and then. Stopped, they count as they were sent; :meth:`RateClock.advance`
moves the limiter on when a test is about the time (a window that has room again).
"""

from __future__ import annotations

import types

import limits.storage.memory
import limits.strategies
import pytest

import pyramids.server.limits

START = 1_800_000_030.0
"""Where a stopped clock stands: 30 s into a minute (not at a window's edge)."""


class RateClock:
    """``time.time`` of the rate limiter, stopped at :data:`START` until advanced."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, start: float = START) -> None:
        self.now = start
        frozen = types.SimpleNamespace(time=lambda: self.now)
        for module in (limits.storage.memory, limits.strategies, pyramids.server.limits):
            monkeypatch.setattr(module, "time", frozen)

    def advance(self, seconds: float) -> None:
        """Move the limiter's time on by ``seconds``."""
        self.now += seconds
