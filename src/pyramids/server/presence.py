"""Who is at the table: each human seat's sockets, its absence clock, and its takeover.

A human seat left without a socket starts its absence clock; after ``absent_after``
seconds the takeover bot plays the seat until its player is back. In a cluster a seat's
sockets may be held by any instance: each stores its own count (``cluster_store.presence``)
and tells the others (a ``p`` notification), and the table's owner counts them all before
it starts an absence clock or takes a seat over. The owner stores the takeover
(``seats.taken_over``) so that every instance shows it and a new owner keeps it.

Whether a table has a person at it (:meth:`Presence.has_person`) decides whether its search
bots go before the all-bot tables' (``search.py``): a human seat counts while it has a
socket, or while less than its absence time has passed since its last sign of life (its
last socket closing, its last own action, the table's start), and never once a bot has
taken it over. So a seat bound and abandoned does not keep a table ahead of everyone else's
(issue 29, item 10).

Presence receives the runtime as the few operations it uses (``ports.PresenceRuntime``):
its absence clocks are timers of the runtime's one clock, so a test drives them with a
``clocks.ManualClock``.
"""

from __future__ import annotations

import datetime as dt
import logging
import weakref
from collections.abc import Mapping, Sequence
from functools import partial

from sqlalchemy import Connection

from pyramids.server import cluster_store
from pyramids.server.clocks import Timer
from pyramids.server.live import RUNNING, LiveTable
from pyramids.server.ports import PresenceRuntime

log = logging.getLogger("pyramids.server")

PRESENCE_NOTICE = "p"
"""Notification kind: an instance's count of a table's sockets changed."""
PERSON_ABSENCE = 30.0
"""Seconds a human seat with no socket still counts as a person when neither its table nor
the server has an absence time (``absent_after`` 0: takeovers off)."""


class Presence:
    """The sockets of every seat and what their absence starts."""

    def __init__(self, runtime: PresenceRuntime) -> None:
        self.runtime = runtime
        self._left: weakref.WeakKeyDictionary[LiveTable, dict[int, dt.datetime]] = (
            weakref.WeakKeyDictionary()
        )
        """When each seat's last socket (anywhere) closed, by the runtime's clock."""
        self._absence: weakref.WeakKeyDictionary[LiveTable, dict[int, Timer]] = (
            weakref.WeakKeyDictionary()
        )
        """The running absence clocks of each table, by seat."""

    # --- people ----------------------------------------------------------------------------

    def absence_time(self, table: LiveTable) -> float:
        """Seconds without a sign of life after which a human seat is no longer a person."""
        return table.settings.absent_after or self.runtime.settings.absent_after or PERSON_ABSENCE

    def last_seen(self, table: LiveTable, seat: int) -> dt.datetime:
        """The seat's last sign of life: its last socket closing, its last own action (not
        a stand-in's), or else the table's start."""
        seen = self._left.get(table, {}).get(seat)
        times = table.action_times
        for seq in range(len(table.actions), 0, -1):
            if table.actions[seq - 1][0] == seat and seq not in table.stand_ins:
                if seq - 1 < len(times) and (seen is None or times[seq - 1] > seen):
                    seen = times[seq - 1]
                break
        start = table.started or table.created
        return max(seen, start) if seen is not None else start

    def is_person(self, table: LiveTable, seat: int) -> bool:
        """Whether a person plays ``seat`` now: a human seat not taken over, with a socket
        or a sign of life less than its absence time ago."""
        s = table.seats[seat]
        if not s.is_human or s.taken_over:
            return False
        if s.present:
            return True
        away = (self.runtime.clock.now() - self.last_seen(table, seat)).total_seconds()
        return away < self.absence_time(table)

    def has_person(self, table: LiveTable) -> bool:
        """Whether any seat of ``table`` is played by a person now (:meth:`is_person`)."""
        return any(self.is_person(table, s.seat) for s in table.seats)

    def _note_left(self, table: LiveTable, seat: int) -> None:
        self._left.setdefault(table, {})[seat] = self.runtime.clock.now()

    # --- sockets ---------------------------------------------------------------------------

    def connected(self, table: LiveTable, seat: int) -> None:
        """A socket of ``seat`` opened here: its player is present."""
        s = table.seats[seat]
        s.connections += 1
        self.present(table, seat)
        table.changed()
        table.broadcast_table()
        self._share(table, seat)

    def disconnected(self, table: LiveTable, seat: int) -> None:
        """A socket of ``seat`` closed here; with none left anywhere its absence clock starts."""
        s = table.seats[seat]
        s.connections = max(0, s.connections - 1)
        if not s.present:
            self._note_left(table, seat)
            self.start_absence(table, seat)
        table.changed()
        table.broadcast_table()
        self._share(table, seat)

    def _share(self, table: LiveTable, seat: int) -> None:
        """Store this instance's count of ``seat``'s sockets for the others (cluster only)."""
        runtime = self.runtime
        if not runtime.cluster or runtime.stopping:
            return
        count = table.seats[seat].connections
        owner, ttl = runtime.origin, runtime.settings.lease_ttl
        notice = runtime.notice(PRESENCE_NOTICE, table.id)

        def job(conn: Connection) -> None:
            cluster_store.set_presence(conn, owner, table.id, seat, connections=count, ttl=ttl)
            cluster_store.notify(conn, notice)

        what = f"table {table.id}: the presence of seat {seat}"
        runtime.spawn(table, runtime.write_quietly(job, what))

    def remote(self, table: LiveTable, counts: Sequence[int]) -> None:
        """The other instances' socket counts of ``table`` per seat, as just read: a seat
        that came back stops its absence; one left with none starts it."""
        changed = False
        for s in table.seats:
            n = counts[s.seat] if s.seat < len(counts) else 0
            if n == s.remote:
                continue
            s.remote = n
            changed = True
            if not s.is_human:
                continue
            if s.present:
                self.present(table, s.seat)
            else:
                self._note_left(table, s.seat)
                self.start_absence(table, s.seat)
        if changed:
            table.changed()
            table.broadcast_table()

    async def refresh(self, tables: Sequence[LiveTable]) -> None:
        """Read the other instances' socket counts of ``tables`` (cluster only)."""
        runtime = self.runtime
        if not runtime.cluster or not tables:
            return
        ids = [t.id for t in tables]
        counts: Mapping[str, list[int]] = await runtime.read(
            partial(cluster_store.presence, table_ids=ids, other_than=runtime.origin)
        )
        for table in tables:
            self.remote(table, counts.get(table.id, []))

    # --- absence and takeover --------------------------------------------------------------

    def present(self, table: LiveTable, seat: int) -> None:
        """A seat's human is here: stop its absence clock and any takeover."""
        self._stop_absence(table, seat)
        s = table.seats[seat]
        if s.taken_over and self.runtime.owns(table):
            self._set_taken_over(table, seat, False)
            self.runtime.moves.reschedule(table)

    def start_absence(self, table: LiveTable, seat: int) -> None:
        """Start ``seat``'s absence clock if its player is away (on the table's owner)."""
        s = table.seats[seat]
        runtime = self.runtime
        if (
            runtime.stopping
            or not runtime.owns(table)
            or table.settings.absent_after <= 0
            or (table.clock is not None and table.clock.is_turn_based)
            or table.status != RUNNING
            or not s.is_human
            or s.present
            or s.taken_over
        ):
            return
        self._stop_absence(table, seat)
        self._absence.setdefault(table, {})[seat] = runtime.clock.call_later(
            table.settings.absent_after, self.take_over, table, seat
        )

    def absence_clocks(self, table: LiveTable) -> list[int]:
        """The seats of ``table`` whose absence clock runs, in order."""
        return sorted(self._absence.get(table, {}))

    def _stop_absence(self, table: LiveTable, seat: int) -> None:
        timer = self._absence.get(table, {}).pop(seat, None)
        if timer is not None:
            timer.cancel()

    def take_over(self, table: LiveTable, seat: int) -> None:
        """The absence clock ran out: the takeover bot plays ``seat`` until its player is back."""
        self._absence.get(table, {}).pop(seat, None)
        s = table.seats[seat]
        if table.status != RUNNING or s.present or s.taken_over or not self.runtime.owns(table):
            return
        self._set_taken_over(table, seat, True)
        self.runtime.moves.reschedule(table)

    def _set_taken_over(self, table: LiveTable, seat: int, value: bool) -> None:
        """Set (and in a cluster store and tell) whether the takeover bot plays ``seat``."""
        table.seats[seat].taken_over = value
        table.changed()
        table.broadcast_table()
        runtime = self.runtime
        if not runtime.cluster or runtime.stopping:
            return

        def job(conn: Connection) -> None:
            cluster_store.set_taken_over(conn, table.id, seat, value)
            runtime.notify_changed(conn, table)

        what = f"table {table.id}: the takeover of seat {seat}"
        runtime.spawn(table, runtime.write_quietly(job, what))

    def cancel(self, table: LiveTable) -> None:
        """Stop every absence clock of ``table``."""
        for timer in self._absence.pop(table, {}).values():
            timer.cancel()
