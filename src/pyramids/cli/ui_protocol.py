"""The ``GameUI`` protocol: what a game gives the terminal (see ``pyramids.cli.game_ui``).

Its own module so that the hand loop (``pyramids.cli.hands``), which drives a ``GameUI``,
and ``BaseUI`` (``pyramids.cli.game_ui``), whose default ``play`` runs that loop, both
import it without importing each other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from rich.console import RenderableType

from pyramids.cli.terminal import Seats, Terminal
from pyramids.core import Event
from pyramids.core.descriptor import OptionSpec
from pyramids.core.game import Action, Game, State


@dataclass(frozen=True)
class CommandTexts:
    """The help of a game's ``pyramids <game> apply|show`` commands."""

    group: str
    """The help of the ``pyramids <game>`` group."""
    actions: str = "Actions in order, in the game's notation."
    seat: str = "Show this seat's hand (its view)."
    show: str = "Draw POSITION as the seat (or a spectator) sees it."


class GameUI(Protocol):
    """A game's terminal interface: how play, replay, show, simulate and bench handle it."""

    @property
    def commands(self) -> CommandTexts:
        """The help of ``pyramids <game> apply|show``."""
        ...

    @property
    def play_options(self) -> tuple[OptionSpec, ...]:
        """Options of ``pyramids play`` for this game only, beside its rules options."""
        ...

    def at_rest(self, state: State) -> bool:
        """Whether a new turn starts here (no decision of the turn pending)."""
        ...

    def render(
        self,
        state: State,
        seat: int | None,
        lang: str,
        names: Sequence[str] | None = None,
        *,
        legend: bool = True,
        turn_line: bool = True,
        width: int = 80,
    ) -> RenderableType:
        """The state as ``seat`` sees it (None: a spectator)."""
        ...

    def ask(self, term: Terminal, state: State, seat: int, seats: Seats) -> Action:
        """Show ``seat`` its view and read a legal action (PlayerLeftError to leave)."""
        ...

    def events(self, state: State, seats: Seats) -> list[Event]:
        """What the last action did, as the people at this terminal may see it."""
        ...

    def game_line(self, game: Game, lang: str) -> str:
        """The line that opens a game: the game, its players and its rules."""
        ...

    def dump_position(self, data: Any) -> str:
        """A position's JSON as printed by ``apply`` and ``replay --json``."""
        ...

    def replay_notes(self, before: State, after: State, lang: str) -> list[str]:
        """Lines ``pyramids replay`` shows after a step's events (e.g. mayhem overlooked)."""
        ...

    def render_hands(
        self, state: State, lang: str, names: list[str] | None = None
    ) -> RenderableType | None:
        """Every seat's hand (shown by the replay of a finished game); None: no hands."""
        ...

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
        """Play ``game`` at the terminal and save its record(s); ``extras``: ``play_options``."""
        ...


__all__ = ["CommandTexts", "GameUI"]
