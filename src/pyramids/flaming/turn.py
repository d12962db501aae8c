"""The end of a turn and of the game (FP-END): the draw, the win, the turn limit, the result."""

from __future__ import annotations

from typing import Any

from pyramids.core.game import Outcome, competition_ranking
from pyramids.flaming.options import FlamingOptions
from pyramids.flaming.position import HAND_SIZE, FlamingPosition


def max_turns_ranking(pos: FlamingPosition) -> list[int]:
    """FP-END-4: a rank per seat by tiles left (hand and pile), fewest first, ties sharing."""
    left = [len(h) + len(p) for h, p in zip(pos.hands, pos.piles, strict=True)]
    return competition_ranking(left, higher_is_better=False)


def end_turn(pos: FlamingPosition, options: FlamingOptions, events: list[tuple[Any, ...]]) -> None:
    """FP-END-1, FP-END-2, FP-END-3, FP-END-4, FP-CURSE-5: the end of the active player's turn.

    The active player (not P) draws from the top of their pile up to 5 tiles (a tile
    drawn from the publicly known part of the pile stays known, FP-VIEW-2); with no
    tile left they win; at the turn limit the seats are ranked; else the seat to the
    left plays, seat a+1 mod n (FP-SETUP-5).
    """
    a = pos.to_move
    hand = pos.hands[a]
    pile = pos.piles[a]
    hidden = pos.hidden
    drawn = 0
    while len(hand) < HAND_SIZE and pile:
        t = pile.pop(0)
        if hidden[a]:
            hidden[a] -= 1
        else:
            pos.known[a] |= 1 << t
        hand.append(t)
        drawn += 1
    if drawn:
        events.append(("draw", a, drawn))
    if not hand and not pile:
        pos.winner = a
        events.append(("win", a))
        return
    if pos.turn >= options.max_turns:
        pos.ranking = max_turns_ranking(pos)
        events.append(("max_turns", tuple(pos.ranking)))
        return
    nxt = (a + 1) % len(pos.hands)
    pos.to_move = nxt
    pos.responsible = nxt
    pos.turn += 1


def outcome(pos: FlamingPosition) -> Outcome:
    """FP-END-2, FP-END-4, FP-END-5: won by a seat, ranked after the turn limit, or ongoing."""
    if pos.winner is not None:
        return Outcome.won_by(pos.winner, len(pos.hands))
    if pos.ranking is not None:
        return Outcome.ranked(pos.ranking)
    return Outcome.ongoing()
