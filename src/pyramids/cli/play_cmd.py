"""`pyramids play` (a game or match in the terminal) and `pyramids replay` (step through a record).

Play drives the engine exactly as ``core.play_game`` does: chance from
``Random(f"{seed}/chance")``, bot i from ``Random(f"{seed}/seat/{i}")``, so a game
between bots only is the same game ``play_game`` plays with that seed. Humans see
only their own view, type an action or a number, and are told why a refused input is
refused; every event is shown with its reason. Records are saved as JSON.

The game loop and replay are generic; what is particular to a game (drawing it, asking
a human, which events a seat may see) is a ``GameUI``: ``FlamingUI`` here, ``FlagsUI``
in ``play_flags``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.text import Text

from pyramids.bots import PLAYER_BOTS
from pyramids.cli.i18n import Lang, join_words, seat_name, tr
from pyramids.cli.io import (
    EXIT_REFUSED,
    InputError,
    default_record_path,
    dumps,
    dumps_compact,
    fail,
    hand_record_path,
    load_record,
    save_record,
)
from pyramids.cli.play_flags import FlagsUI
from pyramids.cli.render import render_choices, render_position, render_state, view_spots
from pyramids.cli.terminal import (
    EXIT_INPUT_ENDED,
    EXIT_INTERRUPTED,
    HELP_WORDS,
    HUMAN,
    QUIET_EVENTS,
    QUIT_WORDS,
    GameUI,
    PlayerLeftError,
    Seats,
    Terminal,
    ask_until_chosen,
    default_bot,
    fit_bots,
    new_seed,
    parse_seats,
)
from pyramids.core import CHANCE, ActionParseError, Event, GameRecord, PyramidsError
from pyramids.core.game import Action, Game, State
from pyramids.flags import FlagsGame, FlagsOptions
from pyramids.flags.options import DEFAULT_MAX_TURNS as FLAGS_MAX_TURNS
from pyramids.flaming import FlamingGame, FlamingOptions, FlamingState
from pyramids.flaming.game import INFO as FLAMING_INFO
from pyramids.flaming.match import Match
from pyramids.flaming.notation import parse_action as parse_notation
from pyramids.flaming.state import (
    DIE_BASE,
    FALL,
    LEFT,
    NONE,
    PLACE_BASE,
    RIGHT,
    decode_place,
    place_action,
)
from pyramids.flaming.tiles import BY_NAME, NAMES, SUPPORT_LEFT, SUPPORT_RIGHT, spot_name
from pyramids.games import make_game

__all__ = [  # the shared terminal machinery stays importable from here
    "EXIT_INPUT_ENDED",
    "EXIT_INTERRUPTED",
    "EXIT_REFUSED",
    "HELP_WORDS",
    "QUIET_EVENTS",
    "FlamingUI",
    "GameUI",
    "PlayerLeftError",
    "Seats",
    "Terminal",
    "play",
    "replay",
]

LEFT_WORDS = frozenset({"l", "left", "g", "gauche"})
RIGHT_WORDS = frozenset({"r", "right", "d", "droite"})

# --- a human's input (Flaming Pyramids) -----------------------------------------------------


def human_reason(state: FlamingState, action: Action, lang: str) -> str:
    """Why ``action`` is refused, said to the player to move (never naming other hands)."""
    if state.is_terminal():
        return tr("r_game_over", lang)
    kind, key = state.pending
    if kind == FALL:
        return tr("r_falling", lang, tile=NAMES[state.board[key]], at=spot_name(key))
    if kind != NONE or DIE_BASE <= action < PLACE_BASE:
        return tr("r_die_pending", lang)
    if action in (LEFT, RIGHT):
        return tr("r_no_fall", lang)
    tile, where = decode_place(action)
    spots = "; ".join(spot_name(k) for k in state.placement_spots())
    if tile not in state.hand(state.to_move):
        for at, other in state.board.items():
            if other == tile:
                return tr("r_on_pyramid", lang, tile=NAMES[tile], at=spot_name(at))
        return tr("r_not_in_hand", lang, tile=NAMES[tile])
    if where in state.board:
        return tr(
            "r_taken", lang, at=spot_name(where), other=NAMES[state.board[where]], spots=spots
        )
    return tr("r_wrong_spot", lang, tile=NAMES[tile], at=spot_name(where), spots=spots)


def choice_labels(state: FlamingState, legal: Sequence[Action], lang: str) -> list[str]:
    """The numbered options shown to a human: ``R40@1,1`` or ``left → 0,0``."""
    labels = []
    kind, key = state.pending
    for action in legal:
        if kind == FALL and action == LEFT:
            labels.append(tr("fall_left", lang, spot=spot_name(key + SUPPORT_LEFT)))
        elif kind == FALL and action == RIGHT:
            labels.append(tr("fall_right", lang, spot=spot_name(key + SUPPORT_RIGHT)))
        else:
            labels.append(state.action_to_string(action))
    return labels


def read_choice(
    state: FlamingState, text: str, legal: Sequence[Action], lang: str
) -> tuple[Action | None, str]:
    """(action, "") for acceptable input, else (None, why it is refused) in ``lang``."""
    word = text.strip().lower()
    if word.isdigit():
        n = int(word)
        if 1 <= n <= len(legal):
            return legal[n - 1], ""
        return None, tr("bad_number", lang, n=n, count=len(legal))
    if word in LEFT_WORDS:
        action: Action = LEFT
    elif word in RIGHT_WORDS:
        action = RIGHT
    elif word.upper() in BY_NAME:
        tile = BY_NAME[word.upper()]
        seat = state.to_move
        if state.pending[0] != NONE or tile not in state.hand(seat):
            return None, tr(
                "refused", lang, reason=human_reason(state, place_action(tile, 0), lang)
            )
        spots = state.placement_spots()
        if len(spots) == 1:
            return place_action(tile, spots[0]), ""
        names = [spot_name(k) for k in spots]
        example = f"{NAMES[tile]}@{names[0]}"
        return None, tr(
            "r_which_spot", lang, tile=NAMES[tile], spots=join_words(names, lang), example=example
        )
    else:
        try:
            action = parse_notation(text)
        except ActionParseError:
            return None, tr("cannot_read", lang, text=text.strip())
    if action in legal:
        return action, ""
    return None, tr("refused", lang, reason=human_reason(state, action, lang))


def ask_human(term: Terminal, state: FlamingState, seat: int, seats: Seats) -> Action:
    """Show the seat its view and options; read until it gives a legal action (PlayerLeftError to leave)."""
    lang = term.lang
    names = seats.names(lang)
    legal = state.legal_actions()
    if len(seats.humans) > 1:
        term.show(Text(tr("whose_turn", lang, who=names[seat]), style="bold reverse"))
    view = state.view(seat)
    term.show(
        render_position(
            view,
            view_spots(state),
            lang,
            names,
            hand_label=tr("your_hand", lang, who=seat_name(seat, lang)),
            turn_line=False,
        )
    )
    choices = render_choices(choice_labels(state, legal, lang), tr("actions_header", lang))
    term.show(choices)
    return ask_until_chosen(
        term,
        tr("prompt", lang, who=names[seat]),
        choices,
        tr("help", lang),
        lambda line: read_choice(state, line, legal, lang),
    )


class FlamingUI:
    """Flaming Pyramids: the pyramid drawing and the placement and fall prompts above."""

    def at_rest(self, state: State) -> bool:
        """No fall or die roll pending."""
        return isinstance(state, FlamingState) and state.pending[0] == NONE

    def render(
        self,
        state: State,
        seat: int | None,
        lang: str,
        names: Sequence[str],
        *,
        legend: bool = True,
        turn_line: bool = True,
        width: int = 80,
    ) -> RenderableType:
        """The pyramid and the status (``render.render_state``)."""
        return render_state(_flaming(state), seat, lang, names, legend=legend, turn_line=turn_line)

    def ask(self, term: Terminal, state: State, seat: int, seats: Seats) -> Action:
        """``ask_human``."""
        return ask_human(term, _flaming(state), seat, seats)

    def events(self, state: State, seats: Seats) -> list[Event]:
        """Every event: Flaming Pyramids events never name a hidden tile."""
        return state.events()


def _flaming(state: State) -> FlamingState:
    if not isinstance(state, FlamingState):
        raise TypeError("a Flaming Pyramids interface draws Flaming Pyramids states")
    return state


def ui_for(game: Game) -> GameUI | None:
    """The terminal interface of ``game``, or None when there is none."""
    if isinstance(game, FlamingGame):
        return FlamingUI()
    if isinstance(game, FlagsGame):
        return FlagsUI()
    return None


# --- playing a hand -----------------------------------------------------------------------


@dataclass
class HandResult:
    """How a hand ended: its final state, its record, and whether someone left early."""

    state: State
    record: GameRecord
    quit: PlayerLeftError | None = None


def play_hand(
    term: Terminal, game: Game, seed: int, seats: Seats, ui: GameUI | None = None
) -> HandResult:
    """Play one game to its end (or until a human leaves), recording every action."""
    ui = ui or ui_for(game) or FlamingUI()
    lang = term.lang
    names = seats.names(lang)
    width = term.console.width
    state = game.new_initial_state(seed)
    chance_rng = random.Random(f"{seed}/chance")
    bot_rngs = [random.Random(f"{seed}/seat/{i}") for i in range(game.num_players)]
    record = GameRecord(
        game=game.info.short_name,
        options=dict(game.options),
        players=game.num_players,
        seed=seed,
        rules_version=game.info.rules_version,
        seats=list(seats.kinds),
    )
    term.events(ui.events(state, seats))
    shown_turn = 0
    try:
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                action = state.sample_chance(chance_rng)
            else:
                turn = getattr(state, "turn", 0)
                if turn != shown_turn and ui.at_rest(state):
                    shown_turn = turn
                    term.show(
                        Rule(tr("turn_line", lang, turn=turn, who=names[player]), style="dim")
                    )
                    if seats.kinds[player] != HUMAN:
                        term.show(
                            ui.render(
                                state, None, lang, names, legend=False, turn_line=False, width=width
                            )
                        )
                bot = seats.bots[player]
                if bot is None:
                    action = ui.ask(term, state, player, seats)
                else:
                    action = bot.act(state.view(player), state.legal_actions(), bot_rngs[player])
            text = state.action_to_string(action)
            state.apply(action)
            record.actions.append(text)
            term.events(ui.events(state, seats))
    except PlayerLeftError as exc:
        return HandResult(state, record, exc)
    except KeyboardInterrupt:
        term.show("")
        return HandResult(state, record, PlayerLeftError("interrupt"))
    term.show(Rule(style="dim"))
    term.show(ui.render(state, None, lang, names, legend=False, width=width))
    return HandResult(state, record)


class GameName(StrEnum):
    """The games ``play`` knows."""

    FLAMING = "flaming"
    FLAGS = "flags"


FLAMING_ONLY = ("--preset", "--curse/--no-curse", "--fire-die/--no-fire-die", "--hands")
FLAGS_ONLY = ("--actions/--no-actions",)


def play(
    *,
    game: Annotated[
        GameName,
        typer.Option("--game", help="flaming (Flaming Pyramids) or flags (Pyramids and Flags)."),
    ] = GameName.FLAMING,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            min=2,
            max=6,
            help="Number of seats: 2-6 for flaming, 2-4 for flags (default 3, or as many as --seats).",
        ),
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
    preset: Annotated[
        str | None, typer.Option("--preset", help="flaming: basic, family or standard (default).")
    ] = None,
    curse: Annotated[
        bool | None,
        typer.Option("--curse/--no-curse", help="flaming: curse on/off (default: the preset's)."),
    ] = None,
    fire_die: Annotated[
        bool | None,
        typer.Option(
            "--fire-die/--no-fire-die", help="flaming: play with the fire die (default off)."
        ),
    ] = None,
    actions: Annotated[
        bool | None,
        typer.Option("--actions/--no-actions", help="flags: tree actions on (default) or off."),
    ] = None,
    max_turns: Annotated[
        int | None,
        typer.Option(
            "--max-turns",
            min=1,
            help=f"End the game after this many turns (default 1000 for flaming, {FLAGS_MAX_TURNS} for flags).",
        ),
    ] = None,
    first_player: Annotated[
        int, typer.Option("--first-player", min=0, help="Seat that starts.")
    ] = 0,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Shuffle seed (default: random, printed).")
    ] = None,
    hands: Annotated[
        int | None,
        typer.Option("--hands", min=1, help="flaming: hands in the match (scores add up)."),
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
    """Play Flaming Pyramids or Pyramids and Flags in the terminal against bots or friends."""
    language = lang.value
    if game == GameName.FLAGS:
        given = dict(zip(FLAMING_ONLY, (preset, curse, fire_die, hands), strict=True))
        owner, other = "Flaming Pyramids", "Pyramids and Flags"
    else:
        given = dict(zip(FLAGS_ONLY, (actions,), strict=True))
        owner, other = "Pyramids and Flags", "Flaming Pyramids"
    for option, value in given.items():
        if value is not None:
            fail(tr("e_option_of", language, option=option, owner=owner, game=other))
    info = FlagsGame.info if game == GameName.FLAGS else FLAMING_INFO
    table = parse_seats(seats, players, language, info)
    count = len(table.kinds)
    try:
        if game == GameName.FLAGS:
            flags_options = FlagsOptions(
                actions=True if actions is None else actions,
                max_turns=FLAGS_MAX_TURNS if max_turns is None else max_turns,
                first_player=first_player,
            )
            the_game: Game = FlagsGame(count, flags_options)
            game_line = tr(
                "f_game_line",
                language,
                players=count,
                actions=tr("on" if flags_options.actions else "off", language),
                turns=flags_options.max_turns,
            )
        else:
            options = FlamingOptions(
                preset="standard" if preset is None else preset,
                curse=curse,
                fire_die=bool(fire_die),
                max_turns=1000 if max_turns is None else max_turns,
                first_player=first_player,
            )
            the_game = FlamingGame(count, options)
            on_off = {True: tr("on", language), False: tr("off", language)}
            game_line = tr(
                "game_line",
                language,
                players=count,
                preset=options.preset,
                curse=on_off[options.curse_on],
                die=on_off[options.fire_die],
            )
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
    term.show(game_line)
    term.show(tr("seed_line", language, seed=seed))
    term.show(tr("seats_line", language, seats=", ".join(table.names(language))))
    for note in notes:
        term.show(Text(note, style="bold"))
    if isinstance(the_game, FlamingGame):
        play_match(term, the_game, table, seed=seed, hands=hands or 1, base_path=base_path)
    else:
        finish_hand(term, play_hand(term, the_game, seed, table), base_path)


def finish_hand(term: Terminal, result: HandResult, path: Path) -> None:
    """Save a hand's record and say where; leave (exit status) if a human left early."""
    try:
        save_record(result.record, path)
    except OSError as exc:
        fail(tr("e_save", term.lang, path=path, error=exc.strerror or exc))
    if result.quit is not None:
        key = "eof_saved" if result.quit.how == "eof" else "quit_saved"
        term.show(Text(tr(key, term.lang, path=path), style="bold"))
        raise typer.Exit(result.quit.exit_code)
    term.show(tr("record_saved", term.lang, path=path))


def play_match(
    term: Terminal, game: FlamingGame, table: Seats, *, seed: int, hands: int, base_path: Path
) -> None:
    """Play a Flaming Pyramids game, or a match of several hands adding up the scores."""
    language = term.lang
    count = game.num_players
    match = Match(count, hands, game.options_obj, seed)
    names = table.names(language)
    for index in range(hands):
        if hands > 1:
            hand_game = match.game_for_hand(index)
            hand_seed = match.seed_for_hand(index)
            term.show(Rule(tr("hand_header", language, n=index + 1, total=hands), style="bold"))
        else:
            hand_game, hand_seed = game, seed
        result = play_hand(term, hand_game, hand_seed, table, FlamingUI())
        finish_hand(term, result, hand_record_path(base_path, index, hands))
        if hands > 1:
            scores = match.record_hand(_flaming(result.state))
            term.show(tr("hand_scores", language, n=index + 1, scores=_scores(scores, names)))
            term.show(tr("totals", language, scores=_scores(match.totals, names)))
    if hands > 1:
        winners = match.winners()
        key = "match_winner" if len(winners) == 1 else "match_tie"
        term.show(
            Text(
                tr(key, language, who=join_words([names[s] for s in winners], language)),
                style="bold",
            )
        )


def _scores(scores: Sequence[int], names: Sequence[str]) -> str:
    return ", ".join(f"{names[s]} {v}" for s, v in enumerate(scores))


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
    ui = ui_for(game)
    if ui is None:
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
            flags = isinstance(replayed.game, FlagsGame)  # its positions are long: compact
            typer.echo((dumps_compact if flags else dumps)(state.to_json()))
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
        term.show(ui.render(step.state, None, language, names, width=width))
    term.show(Text(tr("replay_end", language), style="bold"))
