"""The collector policy of ``pyramids serve``: full collections on the server's clock,
freeze survivors of full collections, and unfreeze now and then so that old cycles are
still freed (bench/README.md, Server load)."""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Iterator

import pytest

from pyramids.cli.serve_cmd import _GenerationalFreeze, collect_old_regularly
from tests.waiting import until


@pytest.fixture
def thawed() -> Iterator[None]:
    """Leave the process's collector as it was found (nothing frozen)."""
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_a_full_collection_freezes_what_survived(thawed: None) -> None:
    """After generation 2 stops, the survivors move to the permanent generation."""
    keep = [[i] for i in range(1000)]
    policy = _GenerationalFreeze(unfreeze_every=3600)
    policy("stop", {"generation": 2, "collected": 0, "uncollectable": 0})
    assert gc.get_freeze_count() >= len(keep)


def test_younger_collections_and_starts_change_nothing(thawed: None) -> None:
    """Only the end of a full collection acts."""
    policy = _GenerationalFreeze(unfreeze_every=3600)
    policy("stop", {"generation": 1, "collected": 0, "uncollectable": 0})
    policy("start", {"generation": 2, "collected": 0, "uncollectable": 0})
    assert gc.get_freeze_count() == 0


def test_the_policy_unfreezes_once_its_period_is_over(thawed: None) -> None:
    """Past ``unfreeze_every`` seconds, a full collection thaws everything instead."""
    gc.freeze()
    assert gc.get_freeze_count() > 0
    policy = _GenerationalFreeze(unfreeze_every=0.0)
    policy("stop", {"generation": 2, "collected": 0, "uncollectable": 0})
    assert gc.get_freeze_count() == 0


def test_full_collections_come_on_the_servers_clock() -> None:
    """``collect_old_regularly`` makes a full collection every ``every`` seconds on the
    event loop, whatever the collector's own counts say."""
    full: list[float] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info.get("generation") == 2:
            full.append(time.monotonic())

    async def run() -> None:
        collect_old_regularly(asyncio.get_running_loop(), every=0.01)
        await until(lambda: len(full) >= 3, "three full collections")

    gc.callbacks.append(count)
    try:
        asyncio.run(run())
    finally:
        gc.callbacks.remove(count)
    assert len(full) >= 3, full
