"""Flaming Pyramids' per-seat statistics of a finished game, for the player's page.

Named by the descriptor's ``player_stats`` field; the server stores one dict per seat with
the game's result (``results.stats``) and the player's page adds them up: numbers summed,
strings counted (the favourite opening tiles). Read from the game's events while its
record replays:

- ``mayhem_caused``: the mayhem a seat's placement set off (FP-MAYHEM): every collapse,
  explosion, fire, die explosion and curse in the checks after that placement, whoever's
  pile its tiles went under (a curse hands them on, FP-CURSE-3). In call-out games
  (FP-CALL) mayhem found by a call counts for the seat whose placement was being checked.
  Free air alone sends no tile anywhere and is not counted.
- ``mayhem_suffered``: the tiles mayhem sent under the seat's pile (FP-MAYHEM-3: the
  responsible player's, or the curse's target's); tiles sent out of the game by the
  family call-out penalty count for nobody.
- ``opening_tile``: the first tile the seat placed (None if it never placed one).
"""

from __future__ import annotations

from typing import Any

from pyramids.core import GameRecord, replay
from pyramids.core.game import Game
from pyramids.flaming.events import Collapse, Curse, DieExplosion, Explosion, Fire, Place
from pyramids.games.flaming.analysis import sent_tiles

MAYHEM = (Collapse, Explosion, Fire, DieExplosion, Curse)
"""The events that count as mayhem caused: those that send tiles away."""


def player_stats(game: Game, record: GameRecord) -> list[dict[str, Any]]:
    """Each seat's ``mayhem_caused``, ``mayhem_suffered`` and ``opening_tile`` (see above)."""
    n = record.players
    stats: list[dict[str, Any]] = [
        {"mayhem_caused": 0, "mayhem_suffered": 0, "opening_tile": None} for _ in range(n)
    ]
    placer: int | None = None
    for _text, state in replay(game, record):
        for event in state.events():
            if isinstance(event, Place):
                placer = event.seat
                if stats[event.seat]["opening_tile"] is None:
                    stats[event.seat]["opening_tile"] = event.tile
                continue
            if isinstance(event, MAYHEM) and placer is not None:
                stats[placer]["mayhem_caused"] += 1
            sent = sent_tiles(event)
            if sent is not None and sent[0] is not None:
                stats[sent[0]]["mayhem_suffered"] += sent[1]
    return stats
