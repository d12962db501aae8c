"""A table's settings: its pace, whether it sends hints, its chat, clock and series.

:class:`TableSettings` is what a table's creator chose (or the server's defaults),
stored with the table as JSON (``to_json``, ``from_json``). Whether a table sends the
game's hints, and lets its players ask the search for one, defaults from its rules
options (``default_hints``, ``default_bot_hints``); its clock is read by ``clocks.py``
(:func:`clock_of`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pyramids.server.clocks import ClockError, ClockSpec
from pyramids.server.config import Settings

log = logging.getLogger("pyramids.server")


def default_hints(options: Mapping[str, Any]) -> bool:
    """Whether a table sends the game's hints when its creator does not say: yes, except
    at a call-out table (rules option ``callout`` other than ``off``, Flaming contract
    §12), where spotting what breaks a rule is the game: hints that tell whether a tile
    fits would do the checking for the players."""
    callout = options.get("callout")
    return callout is None or callout == "off"


def default_bot_hints(options: Mapping[str, Any], *, rated: bool) -> bool:
    """Whether a table lets its players ask the search for hints when its creator does not
    say: yes, except at a rated table (the game counts for ratings: a search's advice would
    play for the player) and at a call-out table (``default_hints``)."""
    return not rated and default_hints(options)


@dataclass
class TableSettings:
    """A table's pace (bot delay, absence before takeover, turn time, the takeover bot) and
    whether its state messages carry the game's ``hints``."""

    bot_delay: float
    absent_after: float
    turn_time: float
    takeover_bot: str
    hints: bool = True
    """Send the game's hints (``live.hints_of``) with each state; False: ``hints`` is null.
    When the creator does not say: ``default_hints`` of the rules options."""
    spectator_chat: bool = True
    """Whether the spectators' chat channel is open (a seated player may switch it off;
    ``chat.py``)."""
    bot_hints: bool = False
    """Whether a seated player may ask the search for a hint at their turn (``advice.py``).
    When the creator does not say: ``default_bot_hints``; False for a table stored before
    the setting existed."""
    clock: dict[str, Any] | None = None
    """The table's clock as ``clocks.py`` reads it (None: none; the old ``turn_time``
    alone applies)."""
    match_players: list[int] | None = None
    """In a series of rematches (``rematch.py``): for each seat, which player of the
    series' first game sits there (None: the first game, each seat its own)."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "bot_delay": self.bot_delay,
            "absent_after": self.absent_after,
            "turn_time": self.turn_time,
            "takeover_bot": self.takeover_bot,
            "hints": self.hints,
            "spectator_chat": self.spectator_chat,
            "bot_hints": self.bot_hints,
            "clock": self.clock,
            "match_players": self.match_players,
        }

    @classmethod
    def from_json(
        cls, data: Mapping[str, Any], defaults: Settings, *, hints: bool = True
    ) -> TableSettings:
        """Parse stored settings, falling back on the server defaults (and on ``hints`` for
        a table stored before the setting existed)."""
        return cls(
            bot_delay=float(data.get("bot_delay", defaults.bot_delay)),
            absent_after=float(data.get("absent_after", defaults.absent_after)),
            turn_time=float(data.get("turn_time", defaults.turn_time)),
            takeover_bot=str(data.get("takeover_bot", defaults.takeover_bot)),
            hints=bool(data.get("hints", hints)),
            spectator_chat=bool(data.get("spectator_chat", True)),
            bot_hints=bool(data.get("bot_hints", False)),
            clock=dict(data["clock"]) if data.get("clock") else None,
            match_players=list(data["match_players"]) if data.get("match_players") else None,
        )


def clock_of(settings: TableSettings, table_id: str = "") -> ClockSpec | None:
    """The clock of a table's settings; a stored clock that breaks the rules (written by
    hand) is logged and ignored rather than stopping the table."""
    try:
        return ClockSpec.from_json(settings.clock)
    except (ClockError, TypeError, ValueError) as exc:
        log.error("table %s: its clock %r is ignored: %s", table_id, settings.clock, exc)
        return None
