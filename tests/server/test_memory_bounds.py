"""What the server keeps in memory is bounded (issue 29, item 12).

A long run of attacks grew the server from 176 MB to 874 MB: every finished table stayed in
memory up to 256 of them whatever their size, and each of their log entries held a 4 KiB
buffer (orjson's bytes keep the buffer they were written into). Now log entries are kept at
their length, and the finished tables kept are bounded by an estimate of their bytes too
(``Settings.finished_cache_bytes``), least recently used out first, never one somebody
watches.
"""

from __future__ import annotations

import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path

from fastapi.testclient import TestClient

from pyramids.server import create_app
from pyramids.server.finished import FinishedCache, estimated_bytes
from pyramids.server.wire import encode
from tests import http_play
from tests.server.conftest import bot, create, make_settings


@dataclass
class FakeTable:
    """What the cache reads of a table."""

    logs: list[list[bytes]]
    actions: list[object] = field(default_factory=list)
    clients: set[object] = field(default_factory=set)


def table_of(kib: int) -> FakeTable:
    """A finished table whose one log holds ``kib`` KiB of entries."""
    return FakeTable(logs=[[b"x" * 1024] * kib])


def test_a_log_entry_is_kept_at_its_length() -> None:
    """An encoded entry of about 250 bytes holds about 250 bytes of memory, not a 4 KiB
    buffer (what ``tracemalloc`` sees allocated; ``sys.getsizeof`` sees only the length)."""
    entry = {"seq": 1, "seat": 0, "action": "x" * 200, "events": []}
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = [encode(entry) for _ in range(100)]
        per_entry = (tracemalloc.get_traced_memory()[0] - before) / len(kept)
    finally:
        tracemalloc.stop()
    assert per_entry < len(kept[0]) + 128, per_entry


def test_finished_tables_past_the_byte_bound_drop_the_least_recently_used() -> None:
    """Three tables of ~100 KiB under a 250 KiB bound: the oldest goes; using one again
    makes it the most recent."""
    tables = {name: table_of(100) for name in "abc"}
    cache = FinishedCache(max_tables=100, max_bytes=250 * 1024)
    assert cache.remember("a", tables) == []
    assert cache.remember("b", tables) == []
    assert cache.remember("a", tables) == []  # used again: b is now the oldest
    assert cache.remember("c", tables) == ["b"]
    assert set(tables) == {"a", "c"}
    assert cache.bytes == estimated_bytes(tables["a"]) + estimated_bytes(tables["c"])


def test_a_watched_finished_table_stays_past_the_bound() -> None:
    """A table someone is connected to is never dropped; the next oldest is."""
    tables = {name: table_of(100) for name in "abc"}
    tables["a"].clients.add(object())
    cache = FinishedCache(max_tables=100, max_bytes=250 * 1024)
    for name in "abc":
        cache.remember(name, tables)
    assert set(tables) == {"a", "c"}


def test_the_table_just_used_is_never_dropped_even_alone_over_the_bound() -> None:
    """A table bigger than the whole bound stays while it is the one in use."""
    tables = {"big": table_of(400)}
    cache = FinishedCache(max_tables=100, max_bytes=250 * 1024)
    assert cache.remember("big", tables) == []
    assert "big" in tables


def test_the_server_keeps_finished_tables_within_finished_cache_bytes(tmp_path: Path) -> None:
    """Real games (0.2 to 2 MB each): with a bound of 1.5 MB, after five games the server
    holds the last ones within the bound (or the last alone, if it alone is over it), and
    one it dropped is read back from the database."""
    bound = 1536 * 1024
    settings = make_settings(tmp_path, finished_cache_bytes=bound)
    with TestClient(create_app(settings)) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        ids = []
        for seed in range(5):
            body = create(client, [bot("random"), bot("random"), bot("random")], seed=seed)
            ids.append(body["table"]["id"])
            http_play.wait_finished(client, ids[-1])
        held = [t for t in ids if t in manager.tables]
        assert ids[-1] in held
        assert len(held) < len(ids)
        assert held == [ids[-1]] or sum(estimated_bytes(manager.tables[t]) for t in held) <= bound
        dropped = next(t for t in ids if t not in manager.tables)
        r = client.get(f"/api/tables/{dropped}")
        assert r.status_code == 200 and r.json()["status"] == "finished"


def test_asking_for_unknown_tables_leaves_nothing_behind(tmp_path: Path) -> None:
    """Each id asked for takes a loading lock; an unknown one (404) gave it back never, so
    an attacker asking for random ids grew the server without bound."""
    with TestClient(create_app(make_settings(tmp_path))) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        for n in range(50):
            r = client.get(f"/api/tables/nosuch{n:04d}")
            assert r.status_code == 404
        assert manager.cache.loading == {}
