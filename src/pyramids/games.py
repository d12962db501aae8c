"""The games this project plays, by name: the one place that knows every game package."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pyramids.core.errors import PositionError
from pyramids.core.game import Game
from pyramids.flags.game import FlagsGame
from pyramids.flaming.game import FlamingGame

GameFactory = Callable[[int, Mapping[str, Any]], Game]

GAMES: dict[str, GameFactory] = {
    "flaming": FlamingGame.from_options,
    "flags": FlagsGame.from_options,
}


def make_game(name: str, players: int, options: Mapping[str, Any] | None = None) -> Game:
    """A game by its short name; PositionError for an unknown name or bad options."""
    factory = GAMES.get(name)
    if factory is None:
        raise PositionError(f"unknown game {name!r} (known: {', '.join(sorted(GAMES))})")
    return factory(players, options or {})
