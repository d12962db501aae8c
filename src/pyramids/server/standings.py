"""The standings of a finished game: each seat's place, and the seats in order.

From the game's ``outcome()`` ranking, with the seats that forfeited on time after all
the others (the first to forfeit last), and a game that forfeits left with one seat
standing won by that seat. What the summary's ``ranking``, the ratings (``ratings.py``)
and the rematches (``rematch.py``) read.
"""

from __future__ import annotations

from collections.abc import Sequence

from pyramids.core import State


def final_order(state: State) -> list[int] | None:
    """The seats from first to last once the game is over (None before).

    From the game's ``outcome()``: by rank (1 first), seats of equal rank in seat order
    (after a win the winner first, then the others).
    """
    ranks = state.outcome().ranking if state.is_terminal() else None
    if ranks is None:
        return None
    return sorted(range(state.num_players), key=lambda s: (ranks[s], s))


def ranking_order(state: State, forfeits: Sequence[int] = ()) -> list[int] | None:
    """The seats from first to last by :func:`placements` (forfeits last), seats of equal
    place in seat order; None while the game goes on. Without forfeits: ``final_order``."""
    places = placements(state, forfeits)
    if places is None:
        return None
    return sorted(range(state.num_players), key=lambda s: (places[s], s))


def placements(state: State, forfeits: Sequence[int] = ()) -> list[int] | None:
    """Each seat's final place, 1 the best, tied seats sharing (standard competition
    ranking), or None while the game goes on and nobody forfeited it away.

    The game's ``outcome().ranking`` orders the seats that did not forfeit; every seat that
    forfeited on time (``forfeits``, in order) comes after them, the first to forfeit last.
    A game that forfeits left with one seat standing (``clocks.py`` ends it then, before
    its rules do) puts that seat first.
    """
    n = state.num_players
    out = set(forfeits)
    if state.is_terminal():
        ranks = state.outcome().ranking
        if ranks is None:
            return None
        standing = [s for s in range(n) if s not in out]
        keys = {s: ranks[s] for s in standing}
    else:
        standing = [s for s in range(n) if s not in out]
        if len(standing) != 1 or not forfeits:
            return None
        keys = {standing[0]: 1}
    places = [0] * n
    for s in standing:
        places[s] = 1 + sum(1 for o in standing if keys[o] < keys[s])
    for i, s in enumerate(reversed(list(dict.fromkeys(forfeits)))):
        places[s] = len(standing) + 1 + i
    return places
