"""The finished tables kept in memory: least recently used first out, bounded by count and bytes.

A finished table stays in memory after its game so that its players' and spectators'
reloads, the replay and the rematch find it without replaying its record again. What it
holds is mostly its logs (every viewer's entries, encoded), so a long game of Pyramids and
Flags weighs megabytes where a short one weighs a few hundred kilobytes: the cache is bounded
by an estimate of their bytes (``Settings.finished_cache_bytes``) as well as by their number
(``Settings.finished_cache``). A table someone is still connected to is never dropped (its
sockets hold it anyway); it is dropped by a later use once its last socket has gone.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import MutableMapping, Sequence
from typing import Protocol, TypeVar

ENTRY_OVERHEAD = 48
"""Bytes a log entry costs besides its text: the ``bytes`` object's header and the list's
pointer to it."""
ACTION_BYTES = 250
"""Bytes one action costs in a table besides its log entries: its text and seat, its time,
the game state's history (measured: 170–420 bytes over Flaming Pyramids and Pyramids and
Flags games)."""
TABLE_BYTES = 16 * 1024
"""Bytes a finished table costs whatever its length: its game, seats, settings, caches."""


class CachedTable(Protocol):
    """What the cache reads of a table: its logs, its actions and whether anyone watches it."""

    @property
    def logs(self) -> Sequence[Sequence[bytes]]: ...

    @property
    def actions(self) -> Sequence[object]: ...

    @property
    def clients(self) -> object: ...


T = TypeVar("T", bound=CachedTable)


def estimated_bytes(table: CachedTable) -> int:
    """About how many bytes a finished table keeps alive (within a fifth, measured with
    ``tracemalloc`` on tables loaded from their records)."""
    logs = sum(len(entry) + ENTRY_OVERHEAD for log in table.logs for entry in log)
    return TABLE_BYTES + logs + ACTION_BYTES * len(table.actions)


class FinishedCache:
    """The ids of the finished tables held in ``tables``, in order of last use, with their
    estimated bytes; ``remember`` drops the least recently used past either bound."""

    def __init__(self, max_tables: int, max_bytes: int) -> None:
        self.max_tables = max_tables
        self.max_bytes = max_bytes
        self._sizes: OrderedDict[str, int] = OrderedDict()
        self.bytes = 0
        """The estimated bytes of every table remembered (those watched included)."""

    def __len__(self) -> int:
        return len(self._sizes)

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._sizes

    def clear(self) -> None:
        """Forget every table (the tables themselves are the caller's)."""
        self._sizes.clear()
        self.bytes = 0

    def is_over(self) -> bool:
        """Whether the cache holds more tables or bytes than its bounds (0: no bound)."""
        return (self.max_tables > 0 and len(self._sizes) > self.max_tables) or (
            self.max_bytes > 0 and self.bytes > self.max_bytes
        )

    def remember(self, table_id: str, tables: MutableMapping[str, T]) -> list[str]:
        """``table_id``'s table (in ``tables``) was just used: make it the most recent, then
        drop from ``tables`` the least recently used ones nobody watches while over a bound
        (never ``table_id``'s, which its caller is about to use). Returns the ids dropped."""
        table = tables.get(table_id)
        size = estimated_bytes(table) if table is not None else 0
        self.bytes += size - self._sizes.pop(table_id, 0)
        self._sizes[table_id] = size
        dropped: list[str] = []
        if not self.is_over():
            return dropped
        for old in list(self._sizes):
            if not self.is_over():
                break
            held = tables.get(old)
            if old == table_id or (held is not None and held.clients):
                continue  # in use: dropped at a later use once nobody holds it
            self.bytes -= self._sizes.pop(old)
            tables.pop(old, None)
            dropped.append(old)
        return dropped
