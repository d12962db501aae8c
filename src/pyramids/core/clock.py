"""How a player's time bank runs: the arithmetic of the server's clocks, and a record's clock.

A table's clock gives every human seat a bank of ``bank`` seconds. At each of the seat's
decisions the first ``per_move`` seconds are free, then the bank runs; once the seat has
moved, ``increment`` seconds are added. A decision starts when the table started running
(the first) or when the action before it was stored, so every bank follows from the
start time and the actions' times alone (:func:`banks_at`). The server runs its timers on
these functions (``pyramids.server.clocks``) and ``pyramids verify`` checks a forfeit on
time with the very same ones (``pyramids.core.fairness``), from the clock and the times a
server record carries (:class:`RecordClock`). A table without a clock gives each decision
``turn_time`` seconds; at a rated one a seat that lets ``forfeit_after`` of them run out in
a row forfeits (:func:`timed_out_run` counts them, for the server and the check alike).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pyramids.core.errors import PositionError

ON_EXPIRY_FORFEIT = "forfeit"
"""A clock's ``on_expiry`` when a seat whose time runs out forfeits the game."""
STOOD_IN_TIMEOUT = "timeout"
"""``played_by`` of a move a bot made because the seat's ``turn_time`` ran out."""
STOOD_IN_ABSENT = "absent"
"""``played_by`` of a move the absence takeover made (the seat's player was away)."""


class ClockTimes(Protocol):
    """The three durations of a clock (seconds): what :func:`banks_at` needs."""

    @property
    def bank(self) -> float:
        """Each seat's time bank at the start."""

    @property
    def increment(self) -> float:
        """Added to a seat's bank after each of its moves."""

    @property
    def per_move(self) -> float:
        """Free at each decision before the bank runs."""


@dataclass(frozen=True)
class Move:
    """One stored action as the clocks see it: who decided, and when it was stored."""

    seat: int
    created: dt.datetime


@dataclass(frozen=True)
class Banks:
    """Every seat's bank (seconds) at the start of the current decision, and when that
    decision started; None for a seat without a clock (a bot, a forfeited seat)."""

    banks: tuple[float | None, ...]
    since: dt.datetime


def banks_at(
    spec: ClockTimes,
    clocked: Sequence[bool],
    started: dt.datetime,
    moves: Sequence[Move],
    forfeits: Sequence[int] = (),
) -> Banks:
    """The banks after ``moves`` (in order) at a table that started at ``started``.

    ``clocked[s]``: seat ``s`` is a human's. Each move of a clocked seat spends the time
    since the move before (or the start) beyond ``per_move``, at most the whole bank,
    then earns ``increment``. Moves of other seats (bots, chance: seat -1) spend nothing.
    """
    n = len(clocked)
    banks = [spec.bank] * n
    since = started
    for move in moves:
        if 0 <= move.seat < n and clocked[move.seat]:
            elapsed = max(0.0, (move.created - since).total_seconds())
            spent = max(0.0, elapsed - spec.per_move)
            banks[move.seat] = max(0.0, banks[move.seat] - spent) + spec.increment
        since = max(since, move.created)
    out = set(forfeits)
    return Banks(tuple(banks[s] if clocked[s] and s not in out else None for s in range(n)), since)


def deadline_of(spec: ClockTimes, banks: Banks, seat: int) -> dt.datetime | None:
    """When seat ``seat``'s current decision runs out of time (None: it has no clock)."""
    bank = banks.banks[seat] if 0 <= seat < len(banks.banks) else None
    if bank is None:
        return None
    return banks.since + dt.timedelta(seconds=spec.per_move + bank)


def timed_out_run(decided: Sequence[tuple[int, str | None]], seat: int) -> list[int]:
    """The indices (oldest first) of ``seat``'s latest decisions in a row that a bot made
    because its ``turn_time`` ran out. ``decided``: who decided each action, in order, and
    why a bot chose it (``played_by``; None: the player). The absence takeover's moves
    neither count nor end the run; any other move of the seat (its own) ends it."""
    run: list[int] = []
    for index in range(len(decided) - 1, -1, -1):
        who, why = decided[index]
        if who != seat:
            continue
        if why == STOOD_IN_TIMEOUT:
            run.append(index)
        elif why != STOOD_IN_ABSENT:
            break
    return run[::-1]


@dataclass(frozen=True)
class RecordClock:
    """A server table's clock as its record states it (the table's ``settings.clock``)."""

    mode: str
    bank: float
    increment: float
    per_move: float
    on_expiry: str

    @property
    def forfeits_on_time(self) -> bool:
        """Whether a seat whose time runs out forfeits (rather than a bot playing for it)."""
        return self.on_expiry == ON_EXPIRY_FORFEIT

    def to_json(self) -> dict[str, Any]:
        """The record's ``clock`` field."""
        return {
            "mode": self.mode,
            "bank": self.bank,
            "increment": self.increment,
            "per_move": self.per_move,
            "on_expiry": self.on_expiry,
        }

    @classmethod
    def from_json(cls, data: Any) -> RecordClock:
        """Parse a record's ``clock``; PositionError says which part is wrong."""
        if not isinstance(data, Mapping):
            raise PositionError("record.not_an_object", field="clock")
        numbers: dict[str, float] = {}
        for name in ("bank", "increment", "per_move"):
            value = data.get(name, 0)
            if not isinstance(value, int | float) or isinstance(value, bool) or value < 0:
                raise PositionError("record.not_seconds", field=f"clock.{name}", value=value)
            numbers[name] = float(value)
        mode, on_expiry = data.get("mode", ""), data.get("on_expiry", "")
        for name, text in (("mode", mode), ("on_expiry", on_expiry)):
            if not isinstance(text, str):
                raise PositionError("record.not_a_string", field=f"clock.{name}", value=text)
        return cls(mode=mode, on_expiry=on_expiry, **numbers)


def format_time(value: dt.datetime) -> str:
    """A record's time: ISO 8601 in UTC to the microsecond (``2026-03-01T12:05:21.000000Z``),
    exact, so that anyone recomputes the clocks as the server did."""
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_time(text: Any, field: str) -> dt.datetime:
    """A record's time (:func:`format_time`, or any ISO 8601 time with its UTC offset);
    PositionError naming ``field`` otherwise (``record.not_a_time``,
    ``record.time_without_offset``)."""
    if not isinstance(text, str):
        raise PositionError("record.not_a_time", field=field, value=text)
    try:
        value = dt.datetime.fromisoformat(text)
    except ValueError:
        raise PositionError("record.not_a_time", field=field, value=text) from None
    if value.tzinfo is None:
        raise PositionError("record.time_without_offset", field=field, value=text)
    return value.astimezone(dt.UTC)
