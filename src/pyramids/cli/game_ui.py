"""What a game gives the terminal: a base of the ``GameUI`` protocol with its defaults.

The CLI names no game. Each game's host package has a terminal module whose ``UI``
(the descriptor's ``terminal`` part, ``descriptor(name).terminal.get()``) draws the game, asks a human for an action, filters the events a seat
may see, and carries what the game-wide commands need: the help of ``pyramids <game>
apply|show``, options ``pyramids play`` has for this game only (a match's
``--hands``). How ``simulate`` counts a game and how ``bench`` measures it are the
descriptor's ``analysis`` part, not the terminal's. The protocol itself is in
``pyramids.cli.ui_protocol``; ``BaseUI`` holds the defaults (one hand per game, positions
as indented JSON); a game's ``UI`` subclasses it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from rich.console import RenderableType

from pyramids.cli.hands import finish_hand, play_hand
from pyramids.cli.io import dumps
from pyramids.cli.terminal import Seats, Terminal
from pyramids.cli.ui_protocol import CommandTexts, GameUI
from pyramids.core import Event
from pyramids.core.descriptor import GameDescriptor, OptionSpec
from pyramids.core.game import Game, State
from pyramids.games import descriptor


class BaseUI:
    """Defaults of a ``GameUI``: one hand per game, indented JSON, generic counting."""

    commands: CommandTexts = CommandTexts("Positions: apply actions, draw a position.")
    play_options: tuple[OptionSpec, ...] = ()

    def at_rest(self, state: State) -> bool:
        """Every decision starts a turn."""
        return True

    def events(self, state: State, seats: Seats) -> list[Event]:
        """Every event of the last action."""
        return state.events()

    def game_line(self, game: Game, lang: str) -> str:
        """``<game name>, <n> players``."""
        return f"{game.info.name}, {game.num_players} players"

    def dump_position(self, data: Any) -> str:
        """Indented JSON."""
        return dumps(data)

    def replay_notes(self, before: State, after: State, lang: str) -> list[str]:
        """What ``pyramids replay`` adds after a step's events (nothing by default).

        A replay knows the whole game, so a note may say what the players did not see.
        """
        return []

    def render_hands(
        self, state: State, lang: str, names: list[str] | None = None
    ) -> RenderableType | None:
        """Every seat's hand, for the replay of a finished game (None: the game has none)."""
        return None

    def play(
        self,
        term: Terminal,
        game: Game,
        seats: Seats,
        *,
        seed: int,
        base_path: Path,
        extras: Mapping[str, Any],
    ) -> None:
        """One hand, its record saved to ``base_path``."""
        finish_hand(term, play_hand(term, game, seed, seats, cast(GameUI, self)), base_path)


def ui_of(game: Game | GameDescriptor) -> GameUI:
    """The terminal interface of a game; LookupError when it has none (or its module is absent)."""
    desc = game if isinstance(game, GameDescriptor) else descriptor(game.info.short_name)
    if desc.terminal is None:
        raise LookupError(f"game {desc.name!r} has no terminal interface")
    return cast(GameUI, desc.terminal.get())


__all__ = ["BaseUI", "CommandTexts", "GameUI", "ui_of"]
