"""`pyramids play` (a game or match in the terminal) and `pyramids replay` (step through a record).

Any registered game with a terminal interface (``--game``); its rules options are the
registry's (``rules_options``) and the game's own play options (a match's
``--hands``) come from its ``GameUI``. The hand loop is ``cli.hands``: chance from
``Random(f"{seed}/chance")``, bot i from ``Random(f"{seed}/seat/{i}")``, so a game between
bots only is the same game ``play_game`` plays with that seed. Humans see only their own
view, type an action or a number, and are told why a refused input is refused; every
event is shown with its reason. Records are saved as JSON.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from pyramids.bots import PLAYER_BOTS
from pyramids.cli.game_ui import GameUI, ui_of
from pyramids.cli.hands import HandResult, finish_hand, play_hand
from pyramids.cli.i18n import Lang, seat_name, tr
from pyramids.cli.io import (
    EXIT_REFUSED,
    InputError,
    default_record_path,
    fail,
    load_record,
)
from pyramids.cli.rules_options import foreign, owners, rules_specs, with_options
from pyramids.cli.terminal import (
    EXIT_INPUT_ENDED,
    EXIT_INTERRUPTED,
    HELP_WORDS,
    QUIET_EVENTS,
    QUIT_WORDS,
    PlayerLeftError,
    Seats,
    Terminal,
    default_bot,
    fit_bots,
    new_seed,
    parse_seats,
)
from pyramids.core import CHANCE, Event, GameRecord, PyramidsError
from pyramids.core.descriptor import GameDescriptor, OptionSpec
from pyramids.core.game import Game, State
from pyramids.games import descriptor, descriptors, make_game

__all__ = [  # the shared terminal machinery stays importable from here
    "EXIT_INPUT_ENDED",
    "EXIT_INTERRUPTED",
    "EXIT_REFUSED",
    "HELP_WORDS",
    "QUIET_EVENTS",
    "GameUI",
    "HandResult",
    "PlayerLeftError",
    "Seats",
    "Terminal",
    "finish_hand",
    "play",
    "play_hand",
    "replay",
]


def _playable() -> list[GameDescriptor]:
    """The registered games that have a terminal interface."""
    found = []
    for desc in descriptors():
        try:
            ui_of(desc)
        except LookupError:
            continue
        found.append(desc)
    return found


def _play_options(desc: GameDescriptor) -> tuple[OptionSpec, ...]:
    """The options ``play`` has for ``desc``'s game only (its ``GameUI.play_options``)."""
    try:
        return tuple(ui_of(desc).play_options)
    except LookupError:
        return ()


def _play_specs() -> list[OptionSpec]:
    """Every game's play options, one per name, with the game named in the help."""
    seen: dict[str, OptionSpec] = {}
    for desc in descriptors():
        for spec in _play_options(desc):
            if spec.name not in seen:
                seen[spec.name] = OptionSpec(
                    spec.name,
                    spec.kind,
                    None,
                    choices=spec.choices,
                    minimum=spec.minimum,
                    maximum=spec.maximum,
                    help_en=f"{desc.name}: {spec.help_en}",
                )
    return list(seen.values())


PLAYABLE = _playable()
GameName = StrEnum("GameName", {d.name.upper(): d.name for d in PLAYABLE})  # type: ignore[misc]
"""The games ``play`` knows (every registered game with a terminal interface)."""
DEFAULT_GAME = GameName(PLAYABLE[0].name)
"""The registry's first playable game."""
MIN_PLAYERS = min(d.info.min_players for d in PLAYABLE)
MAX_PLAYERS = max(d.info.max_players for d in PLAYABLE)
GAME_HELP = " or ".join(f"{d.name} ({d.title()})" for d in PLAYABLE) + "."
PLAYERS_HELP = (
    "Number of seats: "
    + ", ".join(f"{d.info.min_players}-{d.info.max_players} for {d.name}" for d in PLAYABLE)
    + " (default 3, or as many as --seats)."
)


@with_options([*rules_specs(), *_play_specs()])
def play(
    *,
    game: Annotated[
        GameName,
        typer.Option("--game", help=GAME_HELP),
    ] = DEFAULT_GAME,
    players: Annotated[
        int | None,
        typer.Option("--players", min=MIN_PLAYERS, max=MAX_PLAYERS, help=PLAYERS_HELP),
    ] = None,
    seats: Annotated[
        str | None,
        typer.Option(
            "--seats",
            help="Comma list, one per seat: human or a bot name "
            f"({', '.join(PLAYER_BOTS)}; ismcts takes a level, e.g. ismcts:hard). Default: seat 0 human, the others {default_bot()} "
            "(random where it does not play the game).",
        ),
    ] = None,
    options: dict[str, Any],
    seed: Annotated[
        int | None, typer.Option("--seed", help="Shuffle seed (default: random, printed).")
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record", help="Where to save the game record (default: the user data dir)."
        ),
    ] = None,
    lang: Annotated[Lang, typer.Option("--lang", help="Language.")] = Lang.EN,
    delay: Annotated[
        float, typer.Option("--delay", min=0.0, help="Seconds between events (mayhem, captures).")
    ] = 0.6,
) -> None:
    """Play a game in the terminal against bots or friends."""
    language = lang.value
    desc = descriptor(str(game.value))
    ui = ui_of(desc)
    extra = {spec.name for spec in ui.play_options}
    wrong = foreign(options, {s.name for s in desc.options} | extra, owners(_play_options))
    if wrong is not None:
        flag, owner = wrong
        fail(tr("e_option_of", language, option=flag, owner=owner, game=desc.title()))
    table = parse_seats(seats, players, language, desc.info)
    count = len(table.kinds)
    rules = {k: v for k, v in options.items() if k not in extra}
    extras = {k: v for k, v in options.items() if k in extra}
    try:
        the_game: Game = desc.make(count, rules)
    except PyramidsError as exc:
        fail(str(exc))
    notes = fit_bots(table, the_game, language, quiet=seats is None)
    if seed is None:
        seed = new_seed()
    term = Terminal(Console(highlight=False), sys.stdin, language, delay)
    base_path = record or default_record_path(seed, datetime.now())
    try:  # find out now, not after the game, that the record cannot be written there
        base_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(tr("e_save", language, path=base_path, error=exc.strerror or exc))
    term.show(ui.game_line(the_game, language))
    term.show(tr("seed_line", language, seed=seed))
    term.show(tr("seats_line", language, seats=", ".join(table.names(language))))
    for note in notes:
        term.show(Text(note, style="bold"))
    ui.play(term, the_game, table, seed=seed, base_path=base_path, extras=extras)


# --- replay ---------------------------------------------------------------------------------


@dataclass
class Step:
    """One replayed action: who took it, its text, what it did, the state after it."""

    who: int
    text: str
    events: list[Event]
    state: State


@dataclass
class Replayed:
    """A record replayed: its game and interface, initial state, setup events and steps."""

    game: Game
    ui: GameUI
    initial: State
    setup: list[Event]
    steps: list[Step]


def replay_steps(record: GameRecord, source: str, lang: str = "en") -> Replayed:
    """Every step of a record, checked first; exits 2 naming the first bad action."""
    try:
        game = make_game(record.game, record.players, record.options)
    except PyramidsError as exc:
        fail(f"{source}: {exc}")
    try:
        ui = ui_of(game)
    except LookupError:
        fail(tr("e_no_renderer", lang, source=source, game=record.game))
    state = game.new_initial_state(record.seed)
    initial = state.clone()
    setup = state.events()
    steps: list[Step] = []
    for index, text in enumerate(record.actions, start=1):
        who = state.current_player()
        try:
            state.apply(state.parse_action(text))
        except PyramidsError as exc:
            fail(tr("e_replay_action", lang, source=source, i=index, text=text, error=exc))
        steps.append(Step(who, text, state.events(), state.clone()))
    return Replayed(game, ui, initial, setup, steps)


def replay(
    record_file: Annotated[Path, typer.Argument(metavar="RECORD", help="A game record JSON file.")],
    *,
    auto: Annotated[
        bool, typer.Option("--auto", help="Print every step without waiting for Enter.")
    ] = False,
    delay: Annotated[
        float, typer.Option("--delay", min=0.0, help="Seconds between steps with --auto.")
    ] = 0.0,
    to: Annotated[
        int | None,
        typer.Option("--to", min=0, help="Show only the position after action N (0: the start)."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="With --to (or alone: the end), print position JSON.")
    ] = False,
    lang: Annotated[Lang, typer.Option("--lang", help="Language.")] = Lang.EN,
) -> None:
    """Step through a recorded game (any game): each action, its events and the position."""
    try:
        rec = load_record(record_file)
    except InputError as exc:
        fail(str(exc))
    language = lang.value
    replayed = replay_steps(rec, str(record_file), language)
    ui, initial, setup, steps = replayed.ui, replayed.initial, replayed.setup, replayed.steps
    names = [seat_name(s, language) for s in range(rec.players)]
    if rec.seats and len(rec.seats) == rec.players:
        names = [tr("seat_kind", language, n=s, kind=k) for s, k in enumerate(rec.seats)]
    term = Terminal(Console(highlight=False), sys.stdin, language)
    width = term.console.width
    if to is not None or as_json:
        n = len(steps) if to is None else to
        if n > len(steps):
            fail(tr("replay_to_range", language, n=n, count=len(steps)))
        state = initial if n == 0 else steps[n - 1].state
        if as_json:
            typer.echo(ui.dump_position(state.to_json()))
        else:
            term.show(ui.render(state, None, language, names, width=width))
        return
    term.show(
        Text(
            tr(
                "replay_header",
                language,
                game=rec.game,
                players=rec.players,
                seed=rec.seed,
                count=len(steps),
            ),
            style="bold",
        )
    )
    current = replayed.game.info.rules_version
    if rec.rules_version and rec.rules_version != current:
        term.show(tr("rules_mismatch", language, recorded=rec.rules_version, current=current))
    if setup:
        term.show(tr("setup", language))
        term.events(setup)
    term.show(ui.render(initial, None, language, names, width=width))
    notes = getattr(ui, "replay_notes", None)
    before = initial
    for i, step in enumerate(steps, start=1):
        if not auto:
            answer = term.ask(tr("replay_prompt", language))
            if answer is None or answer.lower() in QUIT_WORDS:
                return
        elif i > 1 and delay > 0:
            term.sleep(delay)
        who = tr("replay_chance", language) if step.who == CHANCE else names[step.who]
        term.show(
            Rule(
                tr("replay_step", language, i=i, count=len(steps), who=who, action=step.text),
                style="dim",
            )
        )
        term.events(step.events)
        for note in notes(before, step.state, language) if notes else ():
            term.show(Text(f"  {note}", style="italic"))
        before = step.state
        term.show(ui.render(step.state, None, language, names, width=width))
    term.show(Text(tr("replay_end", language), style="bold"))
