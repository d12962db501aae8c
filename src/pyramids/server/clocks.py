"""Players' clocks: each human seat's time bank, computed from the stored timestamps.

A table's clock (``TableSettings.clock``, :class:`ClockSpec`) gives every human seat a
bank of ``bank`` seconds. At each of the seat's decisions the first ``per_move`` seconds
are free, then the bank runs; once the seat has moved, ``increment`` seconds are added.
A decision starts when the table started running (the first) or when the action before
it was stored, so the banks follow from ``tables.started`` and the actions' ``created``
times alone (``banks_at``): nothing about the clocks is stored, and a restart finds
them exactly as they were. The arithmetic is ``pyramids.core.clock``'s (``banks_at``,
``deadline_of``), which ``pyramids verify`` uses to check a forfeit on time from a record.
Time while the server is down counts, as it does for a player who closed the tab: the
clock is the players', not the server's.

When a decision's ``per_move`` and the bank are both used up, the table's ``on_expiry``
says what happens: ``stand_in`` (the takeover bot plays that decision, logged as
``clock``; the seat plays on with an empty bank plus its increments) or ``forfeit``
(the seat forfeits, the bot plays it to the end and it ranks last; with one seat left
standing the game ends at once). Bots and the chance draws have no clock.

The runtime reads time, sets its timers and takes its pauses through one :class:`Clock`
(``TableManager(clock=...)``): the players' clocks and turn times (``timers.py``), the
absence clocks (``presence.py``), the bots' pauses and the retries of the server's own
moves (``bots.py``). :class:`SystemClock` is real time, :class:`ManualClock` a clock that
tests move by hand: its timers fire and its sleepers wake only when it is advanced, so no
test waits for real time to pass.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import heapq
import itertools
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from pyramids.core import Event
from pyramids.core.clock import Banks, RecordClock, deadline_of

REALTIME, TURN_BASED = "realtime", "turn_based"
MODES = (REALTIME, TURN_BASED)
STAND_IN, FORFEIT = "stand_in", "forfeit"
ON_EXPIRY = (STAND_IN, FORFEIT)
CLOCK = "clock"
"""``played_by`` of an action the takeover bot chose because the seat's time ran out."""
FORFEITED = "forfeit"
"""``played_by`` of an action the bot chose for a seat that forfeited on time."""

DAY = 86400.0
MAX_BANK = 30 * DAY
MAX_INCREMENT = DAY
MAX_PER_MOVE = 7 * DAY


class ClockError(ValueError):
    """Clock settings that break a rule (the message says which)."""


@dataclass(frozen=True)
class ClockSpec:
    """A table's clock: mode, bank, increment and free time per move (seconds), and what
    happens when a seat's time runs out."""

    mode: str
    bank: float
    increment: float = 0.0
    per_move: float = 0.0
    on_expiry: str = STAND_IN

    def __post_init__(self) -> None:
        check_clock(self)

    @property
    def is_turn_based(self) -> bool:
        """Whether the table is played over days (no absence takeover: the clock decides)."""
        return self.mode == TURN_BASED

    def to_json(self) -> dict[str, Any]:
        """The clock as stored in the table's settings and sent in its summary: the form a
        record's ``clock`` has (``core.clock.RecordClock``), which ``verify`` reads back."""
        return RecordClock(
            self.mode, self.bank, self.increment, self.per_move, self.on_expiry
        ).to_json()

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> ClockSpec | None:
        """The clock of stored settings (None: the table has none)."""
        if not data:
            return None
        return cls(
            mode=str(data.get("mode", REALTIME)),
            bank=float(data.get("bank", 0.0)),
            increment=float(data.get("increment", 0.0)),
            per_move=float(data.get("per_move", 0.0)),
            on_expiry=str(data.get("on_expiry", STAND_IN)),
        )


def check_clock(spec: ClockSpec) -> None:
    """Refuse (ClockError) a clock outside the allowed ranges: bank 0 to 30 days, increment
    0 to 1 day, per_move 0 to 7 days, and at least one of bank and per_move above 0."""
    if spec.mode not in MODES:
        raise ClockError(f"clock.mode is 'realtime' or 'turn_based', not {spec.mode!r}")
    if spec.on_expiry not in ON_EXPIRY:
        raise ClockError(f"clock.on_expiry is 'stand_in' or 'forfeit', not {spec.on_expiry!r}")
    for name, value, top in (
        ("bank", spec.bank, MAX_BANK),
        ("increment", spec.increment, MAX_INCREMENT),
        ("per_move", spec.per_move, MAX_PER_MOVE),
    ):
        if not 0 <= value <= top:  # (NaN fails too)
            raise ClockError(f"clock.{name} is 0 to {top:g} seconds, not {value!r}")
    if spec.bank <= 0 and spec.per_move <= 0:
        raise ClockError("a clock needs time: clock.bank or clock.per_move above 0 seconds")


def iso_ms(value: dt.datetime) -> str:
    """A timestamp as ``2026-11-29T20:41:03.250Z`` (milliseconds: pages count down to it)."""
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def clocks_json(spec: ClockSpec, banks: Banks, running: int | None) -> list[dict[str, Any]]:
    """The ``clocks`` of a state message and a summary: one entry per clocked seat.

    ``bank`` is the seat's bank (seconds) at the start of the current decision, ``running``
    whether its time runs now, ``deadline`` (ISO, the running seat only) when it runs out.
    """
    out: list[dict[str, Any]] = []
    for seat, bank in enumerate(banks.banks):
        if bank is None:
            continue
        runs = seat == running
        deadline = deadline_of(spec, banks, seat) if runs else None
        out.append(
            {
                "seat": seat,
                "bank": round(bank, 3),
                "per_move": spec.per_move,
                "running": runs,
                "deadline": iso_ms(deadline) if deadline is not None else None,
            }
        )
    return out


@dataclass(frozen=True)
class ClockNotice(Event, kind="clock", game="server"):
    """A server notice: seat ``seat``'s time ran out. ``reason`` ``clock``: a bot played
    that decision; ``forfeit``: the seat forfeited and a bot plays it to the end;
    ``forfeit_end``: it forfeited and that ended the game. Told by the catalogue entry
    ``server.clock`` (``messages/<lang>/server.json``)."""

    seat: int
    name: str
    reason: str


# --- time and timers -----------------------------------------------------------------------


class Timer(Protocol):
    """A pending call that can be cancelled (``asyncio.TimerHandle`` is one)."""

    def cancel(self) -> None:
        """Do not make the call."""


class Clock(Protocol):
    """Where the runtime reads the time, sets its timers and takes its pauses."""

    def now(self) -> dt.datetime:
        """The current time, aware UTC."""

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (for durations: a bot's thinking time)."""

    def call_later(self, delay: float, fn: Callable[..., None], *args: Any) -> Timer:
        """Call ``fn(*args)`` after ``delay`` seconds of this clock's time."""

    async def sleep(self, seconds: float) -> None:
        """Return once ``seconds`` of this clock's time have passed (0 or less: after one
        turn of the event loop)."""


class SystemClock:
    """Real time: ``datetime.now(UTC)``, ``time.monotonic`` and the running loop's timers."""

    def now(self) -> dt.datetime:
        """The current time in UTC."""
        return dt.datetime.now(dt.UTC)

    def monotonic(self) -> float:
        """``time.monotonic()``."""
        return time.monotonic()

    def call_later(self, delay: float, fn: Callable[..., None], *args: Any) -> Timer:
        """The event loop's timer."""
        return asyncio.get_running_loop().call_later(max(0.0, delay), fn, *args)

    async def sleep(self, seconds: float) -> None:
        """``asyncio.sleep``."""
        await asyncio.sleep(max(0.0, seconds))


class _ManualTimer:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


def _wake(sleeper: asyncio.Future[None]) -> None:
    """End a :meth:`ManualClock.sleep` (unless it was cancelled meanwhile)."""
    if not sleeper.done():
        sleeper.set_result(None)


class ManualClock:
    """A clock that moves only when told (tests): :meth:`advance` moves the time and makes
    the calls that fell due, in order of their time, and wakes the sleepers whose time came."""

    EPOCH: ClassVar[dt.datetime] = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)

    def __init__(self, start: dt.datetime | None = None) -> None:
        self._now = self._start = start or self.EPOCH
        self._due: list[tuple[dt.datetime, int, _ManualTimer, Callable[..., None], tuple[Any, ...]]]
        self._due = []
        self._order = itertools.count()

    def now(self) -> dt.datetime:
        """The clock's current time."""
        return self._now

    def monotonic(self) -> float:
        """Seconds since the clock's start."""
        return (self._now - self._start).total_seconds()

    async def sleep(self, seconds: float) -> None:
        """Return once the clock was advanced past ``now + seconds`` (0 or less: after one
        turn of the loop). The sleeper wakes in its own event loop, whichever thread
        advances the clock."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        loop = asyncio.get_running_loop()
        sleeper: asyncio.Future[None] = loop.create_future()

        def due() -> None:
            with contextlib.suppress(RuntimeError):  # its loop closed: nobody waits any more
                loop.call_soon_threadsafe(_wake, sleeper)

        timer = self.call_later(seconds, due)
        try:
            await sleeper
        finally:
            timer.cancel()

    def call_later(self, delay: float, fn: Callable[..., None], *args: Any) -> Timer:
        """Remember the call until the clock passes ``now + delay``."""
        timer = _ManualTimer()
        when = self._now + dt.timedelta(seconds=max(0.0, delay))
        heapq.heappush(self._due, (when, next(self._order), timer, fn, args))
        return timer

    def pending(self) -> list[dt.datetime]:
        """When the calls not cancelled yet fall due, soonest first."""
        return sorted(when for when, _, timer, _, _ in self._due if not timer.cancelled)

    def advance(self, seconds: float) -> int:
        """Move the time on by ``seconds`` and make every call due by then (a sleeper due
        wakes at its loop's next turn); how many ran."""
        target = self._now + dt.timedelta(seconds=seconds)
        ran = 0
        while self._due and self._due[0][0] <= target:
            when, _, timer, fn, args = heapq.heappop(self._due)
            self._now = max(self._now, when)
            if not timer.cancelled:
                ran += 1
                fn(*args)
        self._now = target
        return ran
