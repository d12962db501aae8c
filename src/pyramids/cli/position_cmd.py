"""`pyramids <game> apply|show`: apply actions to a position, draw a position, for every game.

One command group per registered game (``pyramids <game> apply|show``),
built from its descriptor and its terminal ``UI``. ``apply`` reads a position (file,
``-`` for stdin, or literal JSON), applies the actions in order and prints the resulting
position JSON with an ``events`` list. ``show`` draws the position as a seat (or a
spectator) sees it. Anything they cannot use is refused on stderr with the reason and
exit status 2, nothing on stdout.
"""

import functools
import sys
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from pyramids import games
from pyramids.cli.engine_opt import use_engine
from pyramids.cli.game_ui import ui_of
from pyramids.cli.i18n import Lang, tr
from pyramids.cli.io import apply_texts, fail, load_position
from pyramids.core import State
from pyramids.core.descriptor import GameDescriptor
from pyramids.games import descriptors

PositionArg = Annotated[
    str,
    typer.Argument(
        help="Position JSON: a file path, - for standard input, or a literal JSON object.",
        show_default=False,
    ),
]
LangOpt = Annotated[Lang, typer.Option("--lang", help="Language of event texts.")]
ColorOpt = Annotated[
    bool | None,
    typer.Option("--color/--no-color", help="Force colour on or off (default: auto, NO_COLOR)."),
]


def load_state(
    desc: GameDescriptor, position: str, lang: str = "en"
) -> tuple[State, dict[str, Any]]:
    """The position of ``desc``'s game named by POSITION (on the engine of ``$PYRAMIDS_ENGINE``,
    else auto), and its raw JSON; exits 2 on a problem (said in ``lang``)."""
    parse = functools.partial(games.load_position, desc, engine=use_engine(None))
    return load_position(position, parse, sys.stdin, lang)


def make_console(color: bool | None) -> Console:
    """A stdout Console: colour forced on/off, or automatic (terminal and NO_COLOR)."""
    if color is None:
        return Console(highlight=False)
    if color:
        return Console(highlight=False, force_terminal=True)
    return Console(highlight=False, no_color=True)


def game_app(desc: GameDescriptor) -> typer.Typer:
    """The ``apply`` and ``show`` commands of one game."""
    ui = ui_of(desc)
    texts = ui.commands
    app = typer.Typer(help=texts.group, no_args_is_help=True)

    def apply(
        position: PositionArg,
        actions: Annotated[
            list[str] | None, typer.Argument(help=texts.actions, show_default=False)
        ] = None,
        lang: LangOpt = Lang.EN,
    ) -> None:
        state, _ = load_state(desc, position, lang.value)
        events = apply_texts(state, list(actions or []), lang.value)
        data: dict[str, Any] = state.to_json()
        data["events"] = events
        typer.echo(ui.dump_position(data))

    def show(
        position: PositionArg,
        seat: Annotated[int | None, typer.Option("--seat", help=texts.seat)] = None,
        lang: LangOpt = Lang.EN,
        color: ColorOpt = None,
    ) -> None:
        state, data = load_state(desc, position, lang.value)
        if seat is not None and not 0 <= seat < state.num_players:
            fail(f"--seat {seat}: the position has seats 0 to {state.num_players - 1}")
        console = make_console(color)
        console.print(ui.render(state, seat, lang.value, width=console.width))
        events = data.get("events")
        if isinstance(events, list) and events:
            console.print(Text(tr("last_events", lang.value), style="bold"))
            for line in events:
                console.print(Text(f"  {line}"), soft_wrap=True)

    apply.__doc__ = (
        "Apply ACTIONS to POSITION and print the resulting position JSON with its events."
    )
    show.__doc__ = texts.show
    app.command("apply")(apply)
    app.command("show")(show)
    return app


def add_game_apps(app: typer.Typer) -> None:
    """Add ``pyramids <game>`` for every registered game that has a terminal interface."""
    for desc in descriptors():
        try:
            sub = game_app(desc)
        except LookupError:
            continue
        app.add_typer(sub, name=desc.name)
