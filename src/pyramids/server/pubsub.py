"""Live updates across a cluster's instances: PostgreSQL LISTEN/NOTIFY.

Every write that others must see (an action, a seat's binding, a status, a takeover, a
socket count, a chat message) sends a notification *in its own transaction*
(``pg_notify``), so a notification goes out exactly when its write commits: never for a
write that rolled back, never before the data can be read. Its text is ``KIND TABLE
ORIGIN [DATA]`` (``authority.notice``): it says what changed, and the receiver reads the
change from the database (an action's rows, a seat's row), so a notification is small
and a lost one is made good by the next read.

Why PostgreSQL and not Redis: the cluster needs PostgreSQL anyway, a notification sent in
the writing transaction cannot disagree with what is stored (a separate broker would need
an outbox to promise that), and there is one process fewer to run and watch. Its limits:
delivery is at most once and only to instances listening at the time (an instance whose
listening connection dropped reads every table it holds again when it is back:
``on_reconnect``); payloads are under 8000 bytes (ours are under 100); every instance gets
every notification, so the work of reading them grows with instances × actions/s
(fine for a handful of instances; a site of dozens would shard tables to instance groups
or move to Redis Streams); notifications are queued in one 8 GB queue per database, so an
instance that stops reading without disconnecting would in the end block NOTIFY for all.

:class:`Listener` holds its own psycopg connection in a thread and hands each
notification to the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

import psycopg
from sqlalchemy.engine import make_url

from pyramids.server.db import normalize_url
from pyramids.server.store import CHANNEL

log = logging.getLogger("pyramids.server")

RECONNECT_WAIT = 0.5
"""Seconds between attempts to get the listening connection back."""
POLL = 0.5
"""Seconds the thread waits for notifications before it checks whether to stop."""


@dataclass(frozen=True)
class Notice:
    """A notification as received: what changed, at which table, from which instance."""

    kind: str
    table_id: str
    origin: str
    data: str

    @classmethod
    def parse(cls, payload: str) -> Notice | None:
        """The notice of ``payload``; None if it is not one of ours."""
        parts = payload.split(" ", 3)
        if len(parts) < 3:
            return None
        return cls(parts[0], parts[1], parts[2], parts[3] if len(parts) > 3 else "")


def conninfo(url: str) -> str:
    """The libpq connection string of a SQLAlchemy PostgreSQL URL."""
    sa_url = make_url(normalize_url(url)).set(drivername="postgresql")
    return sa_url.render_as_string(hide_password=False)


class Listener:
    """LISTENs on the cluster's channel; calls ``on_notice`` on the loop for each
    notification and ``on_reconnect`` after the connection was lost and got back (the
    loss is logged once, not at every attempt to reconnect, and so is the return)."""

    def __init__(
        self,
        url: str,
        on_notice: Callable[[Notice], None],
        on_reconnect: Callable[[], None],
    ) -> None:
        self.conninfo = conninfo(url)
        self.on_notice = on_notice
        self.on_reconnect = on_reconnect
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()

    async def start(self, timeout: float = 10.0) -> None:
        """Start listening (returns once the first LISTEN is in place, or after ``timeout``)."""
        self._loop = asyncio.get_running_loop()
        await asyncio.to_thread(self._start_thread, timeout)

    def _start_thread(self, timeout: float) -> None:
        self._thread = threading.Thread(target=self._run, name="pyramids-listener", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            log.warning("the cluster's notifications are not listened to yet")

    def stop(self) -> None:
        """Stop listening (within ``POLL`` seconds)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _deliver(self, callback: Callable[..., None], *args: object) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(callback, *args)

    def _run(self) -> None:
        first = True
        lost = False  # told already: an outage is one line when it starts, one when it ends
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._ready.set()
                    if not first:
                        log.warning("listening to the cluster's notifications again")
                        self._deliver(self.on_reconnect)
                    first = lost = False
                    while not self._stop.is_set():
                        for n in conn.notifies(timeout=POLL):
                            notice = Notice.parse(n.payload)
                            if notice is not None:
                                self._deliver(self.on_notice, notice)
            except psycopg.Error as exc:
                if self._stop.is_set():
                    break
                first = False
                if not lost:
                    lost = True
                    reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                    log.warning(
                        "lost the cluster's notifications (%s); reconnecting every %.1f s",
                        reason,
                        RECONNECT_WAIT,
                    )
                self._stop.wait(RECONNECT_WAIT)
