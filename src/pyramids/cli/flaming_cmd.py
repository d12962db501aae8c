"""`pyramids flaming apply|show`: apply actions to a position (FP-NOTE-6/7), draw a position.

``apply`` reads a position (file, ``-`` for stdin, or literal JSON), applies the actions
in order and prints the resulting position JSON with an ``events`` list. Anything it
cannot use is refused on stderr with the reason and exit status 2, nothing on stdout.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from pyramids.cli.i18n import Lang, tr
from pyramids.cli.io import apply_texts, dumps, fail, load_position
from pyramids.cli.render import render_position, view_spots
from pyramids.flaming import FlamingState, position_from_json

app = typer.Typer(
    help="Flaming Pyramids positions: apply actions, draw the pyramid.",
    no_args_is_help=True,
)


PositionArg = Annotated[
    str,
    typer.Argument(
        help="Position JSON: a file path, - for standard input, or a literal JSON object.",
        show_default=False,
    ),
]
LangOpt = Annotated[Lang, typer.Option("--lang", help="Language of event texts.")]


def load_state(position: str) -> tuple[FlamingState, dict[str, Any]]:
    """The Flaming Pyramids position named by POSITION, and its raw JSON; exits 2 on a problem."""
    return load_position(position, position_from_json, sys.stdin)


@app.command("apply")
def apply(
    position: PositionArg,
    actions: Annotated[
        list[str] | None,
        typer.Argument(
            help="Actions in order: R40@1,1, left, right, die:1..die:6.", show_default=False
        ),
    ] = None,
    lang: LangOpt = Lang.EN,
) -> None:
    """Apply ACTIONS to POSITION and print the resulting position JSON with its events."""
    state, _ = load_state(position)
    events = apply_texts(state, list(actions or []), lang.value)
    data: dict[str, Any] = state.to_json()
    data["events"] = events
    typer.echo(dumps(data))


@app.command("show")
def show(
    position: PositionArg,
    seat: Annotated[
        int | None, typer.Option("--seat", help="Show this seat's hand (its view).")
    ] = None,
    lang: LangOpt = Lang.EN,
    color: Annotated[
        bool | None,
        typer.Option(
            "--color/--no-color", help="Force colour on or off (default: auto, NO_COLOR)."
        ),
    ] = None,
) -> None:
    """Draw POSITION's pyramid with each seat's hand and pile sizes, tiles out and what is pending."""
    state, data = load_state(position)
    if seat is not None and not 0 <= seat < state.num_players:
        fail(f"--seat {seat}: the position has seats 0 to {state.num_players - 1}")
    console = make_console(color)
    console.print(render_position(state.view(seat), view_spots(state), lang.value))
    events = data.get("events")
    if isinstance(events, list) and events:
        console.print(Text(tr("last_events", lang.value), style="bold"))
        for line in events:
            console.print(Text(f"  {line}"), soft_wrap=True)


def make_console(color: bool | None) -> Console:
    """A stdout Console: colour forced on/off, or automatic (terminal and NO_COLOR)."""
    if color is None:
        return Console(highlight=False)
    if color:
        return Console(highlight=False, force_terminal=True)
    return Console(highlight=False, no_color=True)
