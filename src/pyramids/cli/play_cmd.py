"""`pyramids play` (a game or match in the terminal) and `pyramids replay` (step through a record).

Any registered game with a terminal interface (``--game``); its rules options are the
registry's (``rules_options``) and the game's own play options (a match's
``--hands``) come from its ``GameUI``. The hand loop is ``cli.hands``: chance from
``Random(f"{seed}/chance")``, bot i from ``Random(f"{seed}/seat/{i}")``, so a game between
bots only is the same game ``play_game`` plays with that seed. Humans see only their own
view, type an action or a number, and are told why a refused input is refused; every
event is shown with its reason. Records are saved as JSON (the path checked before the
game starts). A replay steps forward and back, and shows every hand once the game is over.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from pyramids.bots.ladder import OFFERED, level_sentence, python_note
from pyramids.cli.engine_opt import EngineOption, use_engine
from pyramids.cli.game_ui import GameUI, ui_of
from pyramids.cli.hands import HandResult, finish_hand, play_hand
from pyramids.cli.i18n import Lang, seat_name, tr
from pyramids.cli.io import (
    EXIT_REFUSED,
    InputError,
    default_record_path,
    fail,
    load_record,
    output_problem,
    said,
)
from pyramids.cli.rules_options import (
    foreign,
    option_help,
    owners,
    rules_helps,
    rules_specs,
    with_options,
)
from pyramids.cli.terminal import (
    EXIT_INPUT_ENDED,
    EXIT_INTERRUPTED,
    HELP_WORDS,
    QUIET_EVENTS,
    QUIT_WORDS,
    HintBudget,
    PlayerLeftError,
    Seats,
    Terminal,
    default_bot,
    fit_bots,
    for_players,
    new_seed,
    parse_seats,
)
from pyramids.core import CHANCE, Event, GameRecord, PyramidsError
from pyramids.core.descriptor import GameDescriptor, OptionSpec
from pyramids.core.game import Game, State
from pyramids.core.record import ReplayError, replay_actions
from pyramids.games import descriptor, descriptors, engine_for, make, make_game
from pyramids.games.engine import Engine, EngineError

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


def _play_specs() -> tuple[list[OptionSpec], dict[str, str]]:
    """Every game's play options, one per name, and their help lines (the game named)."""
    seen: dict[str, OptionSpec] = {}
    helps: dict[str, str] = {}
    for desc in descriptors():
        for spec in _play_options(desc):
            if spec.name not in seen:
                seen[spec.name] = replace(spec, default=None)
                helps[spec.name] = f"{desc.name}: {option_help(desc, spec.name)}"
    return list(seen.values()), helps


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


PLAY_SPECS, PLAY_HELPS = _play_specs()


@with_options([*rules_specs(), *PLAY_SPECS], helps={**rules_helps(), **PLAY_HELPS})
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
            help="Comma list, one per seat: human or a bot, weakest first "
            f"{', '.join(OFFERED)} (--list-bots says what each is and how strong; any "
            "ismcts spec too, e.g. ismcts:500). Default: seat 0 human, the others "
            f"{default_bot()} (random where it does not play the game).",
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
    engine: EngineOption = None,
    list_bots: Annotated[
        bool,
        typer.Option("--list-bots", help="Say what each bot is and how strong it is, then stop."),
    ] = False,
    hint_iterations: Annotated[
        int | None,
        typer.Option(
            "--hint-iterations",
            min=1,
            help="Search iterations of the hint ? gives at a human's decision (default: the "
            "normal level's for the game and players).",
        ),
    ] = None,
) -> None:
    """Play a game in the terminal against bots or friends (? at your turn: help and a hint)."""
    choice = use_engine(engine)
    language = lang.value
    if list_bots:
        console = Console(highlight=False)
        for level in OFFERED:
            console.print(Text(level_sentence(level, language)))
        return
    desc = descriptor(str(game.value))
    ui = ui_of(desc)
    extra = {spec.name for spec in ui.play_options}
    wrong = foreign(options, {s.name for s in desc.options} | extra, owners(_play_options))
    if wrong is not None:
        flag, owner = wrong
        fail(tr("e_option_of", language, option=flag, owner=owner, game=desc.title()))
    table = parse_seats(seats, players, language, desc.info, choice)
    count = len(table.kinds)
    rules = {k: v for k, v in options.items() if k not in extra}
    extras = {k: v for k, v in options.items() if k in extra}
    try:
        the_game: Game = make(desc, count, rules, engine=choice)
    except PyramidsError as exc:
        fail(for_players(said(exc, language)))
    except EngineError as exc:
        fail(str(exc))
    notes = fit_bots(table, the_game, language, quiet=seats is None, engine=choice)
    if seed is None:
        seed = new_seed()
    term = Terminal(
        Console(highlight=False),
        sys.stdin,
        language,
        delay,
        hints=HintBudget(seed, hint_iterations),
    )
    base_path = record or default_record_path(seed, datetime.now())
    # find out now, not after the game, that the record cannot be written there
    problem = output_problem(base_path, make_folder=True)
    if problem is not None:
        fail(tr("e_save", language, path=base_path, error=problem))
    term.show(ui.game_line(the_game, language))
    term.show(tr("seed_line", language, seed=seed))
    term.show(tr("seats_line", language, seats=", ".join(table.names(language))))
    for level in dict.fromkeys(table.kinds):
        native = engine_for(desc, choice) == Engine.NATIVE
        slow = python_note(level, language, native=native) if level in OFFERED else None
        if slow is not None:
            notes.append(slow)
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


def replay_steps(
    record: GameRecord, source: str, lang: str = "en", engine: Engine | None = None
) -> Replayed:
    """Every step of a record on ``engine``, checked first; exits 2 naming the first bad action."""
    try:
        game = make_game(record.game, record.players, record.options, engine=engine)
    except (PyramidsError, EngineError) as exc:
        fail(f"{source}: {said(exc, lang)}")
    try:
        ui = ui_of(game)
    except LookupError:
        fail(tr("e_no_renderer", lang, source=source, game=repr(record.game)))
    state = game.new_initial_state(record.seed)
    initial = state.clone()
    setup = state.events()
    steps: list[Step] = []
    try:
        for step in replay_actions(state, record.actions):
            steps.append(Step(step.seat, step.text, state.events(), state.clone()))
    except ReplayError as exc:
        error = for_players(exc.reason)
        fail(tr("e_replay_action", lang, source=source, i=exc.seq, text=exc.text, error=error))
    return Replayed(game, ui, initial, setup, steps)


def replay(
    record_file: Annotated[Path, typer.Argument(metavar="RECORD", help="A game record JSON file.")],
    *,
    auto: Annotated[
        bool,
        typer.Option(
            "--auto",
            help="Print every step without waiting (else Enter: next, b: back, N: action N).",
        ),
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
    engine: EngineOption = None,
) -> None:
    """Step through a recorded game (any game): each action, its events and the position."""
    choice = use_engine(engine)
    try:
        rec = load_record(record_file)
    except InputError as exc:
        fail(str(exc))
    language = lang.value
    replayed = replay_steps(rec, str(record_file), language, choice)
    ui, initial, steps = replayed.ui, replayed.initial, replayed.steps
    names = [seat_name(s, language) for s in range(rec.players)]
    if rec.seats and len(rec.seats) == rec.players:
        names = [tr("seat_kind", language, n=s, kind=k) for s, k in enumerate(rec.seats)]
    term = Terminal(Console(highlight=False), sys.stdin, language)
    width = term.console.width
    # a finished game is replayed with every hand shown: nothing is secret any more
    finished = state_at(replayed, len(steps)).is_terminal()
    if to is not None or as_json:
        n = len(steps) if to is None else to
        if n > len(steps):
            fail(tr("replay_to_range", language, n=n, count=len(steps)))
        state = initial if n == 0 else steps[n - 1].state
        if as_json:
            typer.echo(ui.dump_position(state.to_json()))
        else:
            term.show(ui.render(state, None, language, names, width=width))
            if finished:
                show_hands(term, replayed, state, names)
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
    if finished:
        term.show(Text(tr("replay_hands_shown", language), style="italic"))
    if auto:
        for i in range(len(steps) + 1):
            if i > 1 and delay > 0:
                term.sleep(delay)
            show_step(term, replayed, i, names, finished)
        term.show(Text(tr("replay_end", language), style="bold"))
        return
    step_through(term, replayed, names, finished)


def state_at(replayed: Replayed, i: int) -> State:
    """The position after action ``i`` (0: the start)."""
    return replayed.initial if i == 0 else replayed.steps[i - 1].state


def show_hands(term: Terminal, replayed: Replayed, state: State, names: list[str]) -> None:
    """Every seat's hand (a finished game's replay: nothing is secret any more)."""
    hands = getattr(replayed.ui, "render_hands", None)
    drawn = hands(state, term.lang, names) if hands is not None else None
    if drawn is not None:
        term.show(drawn)


def show_step(term: Terminal, replayed: Replayed, i: int, names: list[str], finished: bool) -> None:
    """Action ``i`` of a replay (0: the setup), its events and notes, then the position."""
    lang = term.lang
    width = term.console.width
    steps = replayed.steps
    if i == 0:
        if replayed.setup:
            term.show(tr("setup", lang))
            term.events(replayed.setup)
    else:
        step = steps[i - 1]
        who = tr("replay_chance", lang) if step.who == CHANCE else names[step.who]
        term.show(
            Rule(
                tr("replay_step", lang, i=i, count=len(steps), who=who, action=step.text),
                style="dim",
            )
        )
        term.events(step.events)
        notes = getattr(replayed.ui, "replay_notes", None)
        for note in notes(state_at(replayed, i - 1), step.state, lang) if notes else ():
            term.say(f"  {note}", style="italic")
    state = state_at(replayed, i)
    term.show(replayed.ui.render(state, None, lang, names, width=width))
    if finished:
        show_hands(term, replayed, state, names)


BACK_WORDS = frozenset({"b", "back", "p", "prev", "previous", "r", "retour"})
NEXT_WORDS = frozenset({"", "n", "next", "s", "suivant"})


def step_through(term: Terminal, replayed: Replayed, names: list[str], finished: bool) -> None:
    """Interactive replay: Enter the next action, ``b`` the previous one, a number that
    action (0: the start), ``?`` help, ``q`` (or the end of the input) stops."""
    lang = term.lang
    count = len(replayed.steps)
    at = 0
    show_step(term, replayed, at, names, finished)
    while True:
        if at == count:
            term.show(Text(tr("replay_end", lang), style="bold"))
        answer = term.ask(tr("replay_prompt", lang))
        if answer is None or answer.lower() in QUIT_WORDS:
            return
        word = answer.strip().lower()
        if word in NEXT_WORDS:
            if at == count:
                return
            at += 1
        elif word in BACK_WORDS:
            if at == 0:
                term.say(tr("replay_at_start", lang), style="bold")
                continue
            at -= 1
        elif word.isdigit():
            if int(word) > count:
                term.say(tr("replay_to_range", lang, n=int(word), count=count).split(": ", 1)[-1])
                continue
            at = int(word)
        elif word in HELP_WORDS:
            term.say(tr("replay_help", lang))
            continue
        else:
            term.say(tr("replay_cannot_read", lang, text=repr(answer.strip())), style="bold red")
            continue
        show_step(term, replayed, at, names, finished)
