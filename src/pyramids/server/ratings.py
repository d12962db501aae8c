"""Ratings: OpenSkill Plackett-Luce per game and player-count band, from final placements.

(Being written: see /work/spec/players.md, part H2.)
"""

from __future__ import annotations

from pyramids.server.tables import TableManager


def install(manager: TableManager) -> None:
    """Rate every game that finishes (``manager.finished_hooks``) and, at start, every
    finished game not rated yet (``manager.started_hooks``)."""
