"""What the table runtime's parts ask of it and of each other: narrow typed interfaces.

Presence (``presence.py``), the decision timers (``timers.py``) and the scheduler of the
server's own moves (``bots.py``) each receive the runtime typed as the few operations they
use (:class:`PresenceRuntime`, :class:`TimersRuntime`, :class:`SchedulerRuntime`), as the
:class:`~pyramids.server.authority.Authority` receives its store, clock, publisher and
scheduler. In a server ``tables.TableManager`` passes itself, satisfying them structurally;
a test may pass a fake. No part imports the table manager, not even for its types, and
each reaches the others through the protocols here (:class:`MoveScheduling`,
:class:`PersonWatch`, :class:`DecisionTimers`), so none imports another either.

Time, timers and pauses all come from the runtime's one
:class:`~pyramids.server.clocks.Clock` (a ``ManualClock`` in tests).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Coroutine
from enum import StrEnum
from typing import Any, Protocol, TypeVar

from sqlalchemy import Connection

from pyramids.server.clocks import Clock
from pyramids.server.config import Settings
from pyramids.server.live import LiveTable

T = TypeVar("T")


class BotMode(StrEnum):
    """Why a bot decides for a seat: a bot seat's own move, or a stand-in's for a human seat
    (the values are the ones the logs have always said)."""

    BOT = "bot"
    """A bot seat's move."""
    TAKEOVER = "takeover"
    """The seat's player is away (its absence clock ran out)."""
    TIMEOUT = "timeout"
    """The seat's ``turn_time`` ran out for this one decision."""
    CLOCK = "clock"
    """The seat's clock ran out for this one decision (``on_expiry`` ``stand_in``)."""
    FORFEIT = "forfeit"
    """The seat forfeited on time: the bot plays it to the end."""


# --- what the parts ask of each other ----------------------------------------------------


class Rescheduling(Protocol):
    """Starts a table's next server move again (the move scheduler, ``bots.py``)."""

    def reschedule(self, table: LiveTable) -> None:
        """Forget what was scheduled for the current seq and schedule it again."""
        ...


class MoveScheduling(Rescheduling, Protocol):
    """What the decision timers ask of the move scheduler: a stand-in's move, a retried
    write, a new schedule."""

    async def bot(
        self, table: LiveTable, seq: int, seat: int, *, spec: str, delay: float, mode: BotMode
    ) -> None:
        """Let the bot ``spec`` decide for ``seat`` at ``seq`` (after ``delay`` seconds)."""
        ...

    async def until_stored(
        self,
        table: LiveTable,
        seq: int,
        what: str,
        attempt: Callable[[], Coroutine[Any, Any, Any]],
    ) -> None:
        """Run ``attempt`` again, after a growing pause, while the storage is unavailable."""
        ...


class PersonWatch(Protocol):
    """What the move scheduler asks of presence."""

    def has_person(self, table: LiveTable) -> bool:
        """Whether any seat of ``table`` is played by a person now."""
        ...

    def start_absence(self, table: LiveTable, seat: int) -> None:
        """Start ``seat``'s absence clock if its player is away."""
        ...


class DecisionTimers(Protocol):
    """What the move scheduler asks of the decision timers."""

    def start(self, table: LiveTable, seq: int, seat: int) -> None:
        """Human ``seat`` is to move at ``seq``: start the end of its decision."""
        ...


class MoveAuthority(Protocol):
    """The one path of every action (``authority.Authority``), as the scheduler uses it."""

    async def act(
        self,
        table: LiveTable,
        seat: int | None,
        seq: int,
        *,
        text: str | None = None,
        action: int | None = None,
        still_valid: Callable[[], bool] | None = None,
        played_by: str | None = None,
    ) -> int:
        """Validate, apply and commit ``seat``'s action at ``seq``; the new seq."""
        ...

    async def apply(
        self, table: LiveTable, actor: int, action: int, *, played_by: str | None = None
    ) -> int:
        """Apply and commit an action already checked (the caller holds the table's lock)."""
        ...


class SearchRunner(Protocol):
    """Runs a search bot's decision in a worker process (``search.SearchPool``)."""

    async def run(
        self,
        table_id: str,
        human: bool | Callable[[], bool],
        fn: Callable[..., Any],
        *args: Any,
    ) -> Any:
        """``fn(*args)`` in a worker once it is this search's turn."""
        ...


# --- what the parts ask of the runtime ---------------------------------------------------


class TableTasks(Protocol):
    """The runtime's time and the tasks it runs for its tables."""

    @property
    def clock(self) -> Clock:
        """The time of every timer, pause and stored action."""
        ...

    @property
    def settings(self) -> Settings:
        """The server's settings."""
        ...

    def spawn(self, table: LiveTable, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` as a task of ``table`` (cancelled when the server stops)."""
        ...


class OwnedTables(TableTasks, Protocol):
    """The runtime's tasks, and which tables this instance runs."""

    @property
    def stopping(self) -> bool:
        """Whether the server is stopping (no new moves, timers or writes start)."""
        ...

    def owns(self, table: LiveTable) -> bool:
        """Whether this instance runs ``table``'s bots, timers and chance draws."""
        ...


class PresenceRuntime(OwnedTables, Protocol):
    """What :class:`~pyramids.server.presence.Presence` uses: the cluster's identity, the
    database for the counts of sockets and the takeovers, and the move scheduler."""

    @property
    def cluster(self) -> bool:
        """Whether this instance is one of several sharing a database."""
        ...

    @property
    def origin(self) -> str:
        """This run of this instance (the owner of its rows of ``presence``)."""
        ...

    @property
    def moves(self) -> Rescheduling:
        """The move scheduler."""
        ...

    def notice(self, kind: str, table_id: str, data: str = "") -> str:
        """The text of a notification from this instance."""
        ...

    def notify_changed(self, conn: Connection, table: LiveTable) -> None:
        """In a write's transaction: tell the other instances ``table`` changed."""
        ...

    async def read(self, job: Callable[[Connection], T]) -> T:
        """Run ``job(conn)`` on a reading connection."""
        ...

    async def write_quietly(self, job: Callable[[Connection], Any], what: str) -> None:
        """Commit ``job``; log (not raise) a failure."""
        ...


class TimersRuntime(TableTasks, Protocol):
    """What :class:`~pyramids.server.timers.Timers` uses: the move scheduler, the database
    for a forfeit, and the end of a game by forfeit."""

    @property
    def moves(self) -> MoveScheduling:
        """The move scheduler."""
        ...

    async def write(self, job: Callable[[Connection], T]) -> T:
        """Run ``job(conn)`` in one committed write transaction."""
        ...

    def notify_changed(self, conn: Connection, table: LiveTable) -> None:
        """In a write's transaction: tell the other instances ``table`` changed."""
        ...

    def end_by_forfeit(
        self, table: LiveTable, seat: int, ranking: list[int], now: dt.datetime
    ) -> None:
        """The stored forfeit of ``seat`` left one seat standing: the game is over."""
        ...


class SchedulerRuntime(OwnedTables, Protocol):
    """What :class:`~pyramids.server.bots.ServerMoveScheduler` uses: the authority, the
    search workers, presence, the decision timers and the end of a game."""

    @property
    def authority(self) -> MoveAuthority:
        """The one path of every action."""
        ...

    @property
    def searches(self) -> SearchRunner:
        """The search bots' worker processes."""
        ...

    @property
    def presence(self) -> PersonWatch:
        """Who is at the tables."""
        ...

    @property
    def timers(self) -> DecisionTimers:
        """The ends of the humans' decisions."""
        ...

    async def critical(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` to the end even if the caller is cancelled."""
        ...

    def game_over(self, table: LiveTable, *, run_hooks: bool) -> None:
        """``table``'s game is over (committed): stop its timers, run the finished hooks."""
        ...
