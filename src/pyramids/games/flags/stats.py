"""Pyramids and Flags' per-seat statistics of a finished game, for the player's page.

Named by the descriptor's ``player_stats`` field; the server stores one dict per seat with
the game's result (``results.stats``) and the player's page adds them up. Read from the
game's events while its record replays:

- ``flags_scored``: the cards the seat scored (PF-SCORE-3: each goes face up before its
  holder and stays there).
- ``groups_completed``: the card groups (PF-WIN-2) of which the seat scored three flags or
  more by the end; a card in two groups counts for both.
"""

from __future__ import annotations

from typing import Any

from pyramids.core import GameRecord, replay
from pyramids.core.game import Game
from pyramids.flags.cards import CARDS, CODES, GROUPS
from pyramids.flags.events import Flag

GROUP_FLAGS = 3
"""Scored flags of one group that complete it (PF-WIN-2)."""

CARD_GROUPS: dict[str, tuple[str, ...]] = {
    code: card.groups for code, card in zip(CODES, CARDS, strict=True)
}
"""Each card's groups, by the card's code (as a ``flag`` event names it)."""


def player_stats(game: Game, record: GameRecord) -> list[dict[str, Any]]:
    """Each seat's ``flags_scored`` and ``groups_completed`` (see above)."""
    n = record.players
    scored: list[list[str]] = [[] for _ in range(n)]
    for _text, state in replay(game, record):
        for event in state.events():
            if isinstance(event, Flag):
                scored[event.seat].append(event.card)
    out: list[dict[str, Any]] = []
    for cards in scored:
        per_group = dict.fromkeys(GROUPS, 0)
        for code in cards:
            for g in CARD_GROUPS[code]:
                per_group[g] += 1
        out.append(
            {
                "flags_scored": len(cards),
                "groups_completed": sum(1 for c in per_group.values() if c >= GROUP_FLAGS),
            }
        )
    return out
