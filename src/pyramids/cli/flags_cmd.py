"""`pyramids flags apply|show`: apply actions to a Pyramids and Flags position (PF-NOTE), draw it.

``apply`` reads a position (file, ``-`` for stdin, or literal JSON), applies the actions
in order and prints the resulting position JSON with an ``events`` list. Anything it
cannot use is refused on stderr with the reason and exit status 2, nothing on stdout.
``show`` draws the towers, the bank, every seat's pyramids and flags and, with
``--seat``, that seat's hand with each card's country, flag and facts.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from rich.text import Text

from pyramids.cli.flaming_cmd import LangOpt, PositionArg, make_console
from pyramids.cli.i18n import Lang, tr
from pyramids.cli.io import apply_texts, dumps_compact, fail, load_position
from pyramids.cli.render_flags import render_flags_position
from pyramids.flags import FlagsState, position_from_json

app = typer.Typer(
    help="Pyramids and Flags positions: apply actions, draw the towers.",
    no_args_is_help=True,
)


def load_state(position: str) -> tuple[FlagsState, dict[str, Any]]:
    """The Pyramids and Flags position named by POSITION, and its raw JSON; exits 2 on a problem."""
    return load_position(position, position_from_json, sys.stdin)


@app.command("apply")
def apply(
    position: PositionArg,
    actions: Annotated[
        list[str] | None,
        typer.Argument(
            help="Actions in order: W1>R2, B3>table, swap:CZE, take:O2, take:O2@1, done, "
            "split:R3, trade:O2:P1@1, grow, newstart, pirate:1, wild:R, steal:CZE, deal:CZE,...",
            show_default=False,
        ),
    ] = None,
    lang: LangOpt = Lang.EN,
) -> None:
    """Apply ACTIONS to POSITION and print the resulting position JSON with its events."""
    state, _ = load_state(position)
    events = apply_texts(state, list(actions or []), lang.value)
    data: dict[str, Any] = state.to_json()
    data["events"] = events
    typer.echo(dumps_compact(data))


@app.command("show")
def show(
    position: PositionArg,
    seat: Annotated[
        int | None,
        typer.Option("--seat", help="Show this seat's hand: country, flag and facts of each card."),
    ] = None,
    lang: LangOpt = Lang.EN,
    color: Annotated[
        bool | None,
        typer.Option(
            "--color/--no-color", help="Force colour on or off (default: auto, NO_COLOR)."
        ),
    ] = None,
) -> None:
    """Draw POSITION: towers, bank, each seat's pyramids and flags, deck, pending decision."""
    state, data = load_state(position)
    if seat is not None and not 0 <= seat < state.num_players:
        fail(f"--seat {seat}: the position has seats 0 to {state.num_players - 1}")
    console = make_console(color)
    console.print(render_flags_position(state.view(seat), lang.value, width=console.width))
    events = data.get("events")
    if isinstance(events, list) and events:
        console.print(Text(tr("last_events", lang.value), style="bold"))
        for line in events:
            console.print(Text(f"  {line}"), soft_wrap=True)
