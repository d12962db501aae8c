"""A table's log: each action's entry as every viewer sees it, in words.

An entry holds the seq, the seat, the action's text for that viewer
(``state.action_text_for``) and the events it caused as that viewer may see them
(``state.events_for``), each put into words from the message catalogue
(:func:`event_json`). A stand-in notice (:class:`StandIn`, or a clock's
:class:`~pyramids.server.clocks.ClockNotice`) comes first when a bot chose a human
seat's action. The live table, the authority and the rebuild after a restart all write
entries through :func:`log_entries`; the viewers are each seat, then the spectator.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pyramids.core import Event, State
from pyramids.server.clocks import CLOCK, FORFEITED, ClockNotice
from pyramids.server.store import SeatRecord
from pyramids.server.wire import encode
from pyramids.texts import describe

TIMEOUT, ABSENT = "timeout", "absent"
"""Why a bot chose a human seat's action: its turn time ran out, or its player is away."""


def viewers(players: int) -> list[int | None]:
    """Every viewer of a table: each seat, then the spectator (None)."""
    return [*range(players), None]


def event_json(event: Event) -> dict[str, Any]:
    """An event as sent to clients: its game, kind and facts, and both sentences.

    The sentences come from the shared message catalogue (``pyramids.texts``); the browser
    formats the same catalogue from ``game``, ``kind`` and ``data`` and falls back on them.
    """
    return {
        "game": event.game,
        "kind": event.kind,
        "data": event.data,
        "text_en": describe(event, "en"),
        "text_fr": describe(event, "fr"),
    }


@dataclass(frozen=True)
class StandIn(Event, kind="stand_in", game="server"):
    """A server notice, not a rules event: a bot chose this action for a human seat because
    the turn time ran out (``reason`` ``timeout``) or its player is away (``absent``).
    Told by the catalogue entry ``server.stand_in``: "time ran out: a bot played for Alice"."""

    seat: int
    name: str
    reason: str


def stand_in_event(reason: str | None, seat: int, seats: Sequence[SeatRecord]) -> Event | None:
    """The notice of an action a bot chose for seat ``seat`` (None: its own player did);
    a clock's (``clock``, ``forfeit``) is a :class:`~pyramids.server.clocks.ClockNotice`."""
    if reason is None or not 0 <= seat < len(seats):
        return None
    if reason in (CLOCK, FORFEITED):
        return ClockNotice(seat=seat, name=seats[seat].name, reason=reason)
    return StandIn(seat=seat, name=seats[seat].name, reason=reason)


def forfeit_end_entry(seq: int, seat: int, seats: Sequence[SeatRecord]) -> bytes:
    """The log entry (every viewer's) of a forfeit on time that ended the game: no action,
    the seq of the last one."""
    notice = ClockNotice(seat=seat, name=seats[seat].name, reason="forfeit_end")
    return encode({"seq": seq, "seat": seat, "action": "", "events": [event_json(notice)]})


def log_entries(
    state: State, seq: int, seat: int, texts: Sequence[str], notice: Event | None = None
) -> list[dict[str, Any]]:
    """The log entry of the action just applied to ``state``, for each viewer in order.

    Each viewer gets ``state.events_for`` (a ``notice``, :class:`StandIn`, first); an
    event that several viewers see is put into words once for all of them.
    """
    first = [] if notice is None else [notice]
    made: dict[Event, dict[str, Any]] = {}

    def entry_of(event: Event) -> dict[str, Any]:
        try:
            found = made.get(event)
        except TypeError:  # an event holding an unhashable fact
            return event_json(event)
        if found is None:
            found = made[event] = event_json(event)
        return found

    return [
        {
            "seq": seq,
            "seat": seat,
            "action": texts[i],
            "events": [entry_of(e) for e in [*first, *state.events_for(v)]],
        }
        for i, v in enumerate(viewers(state.num_players))
    ]
