"""What a game gives the terminal: the ``GameUI`` protocol and a base with its defaults.

The CLI names no game. Each game's host package has a terminal module whose ``UI``
(named by the descriptor's ``terminal`` field, loaded with ``descriptor(name).load(
"terminal")``) draws the game, asks a human for an action, filters the events a seat
may see, and carries what the game-wide commands need: the help of ``pyramids <game>
apply|show``, options ``pyramids play`` has for this game only (a match's
``--hands``). How ``simulate`` counts a game and how ``bench`` measures it are the
descriptor's ``analysis`` part, not the terminal's.
``BaseUI`` holds the defaults (one hand per game, positions as indented JSON, generic
counting); a game's ``UI`` subclasses it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast

from rich.console import RenderableType

from pyramids.cli.hands import finish_hand, play_hand
from pyramids.cli.io import dumps
from pyramids.cli.terminal import Seats, Terminal
from pyramids.core import Event
from pyramids.core.descriptor import GameDescriptor, OptionSpec
from pyramids.core.game import Action, Game, State
from pyramids.games import descriptor


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
    try:
        ui = desc.load("terminal")
    except ModuleNotFoundError as exc:
        module = desc.terminal.partition(":")[0]
        if exc.name is None or not module.startswith(exc.name):
            raise  # a module the terminal interface imports is missing: a real error
        raise LookupError(f"game {desc.name!r}: no terminal module {module!r}") from None
    return ui() if isinstance(ui, type) else ui  # type: ignore[no-any-return]
