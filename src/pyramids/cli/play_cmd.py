"""`pyramids play` (a game or match in the terminal) and `pyramids replay` (step through a record).

Play drives the engine exactly as ``core.play_game`` does: chance from
``Random(f"{seed}/chance")``, bot i from ``Random(f"{seed}/seat/{i}")``, so a game
between bots only is the same game ``play_game`` plays with that seed. Humans see
only their own view, type an action or a number, and are told why a refused input is
refused; every event is shown with its reason. Records are saved as JSON.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Annotated, NoReturn, TextIO

import typer
from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.text import Text

from pyramids.bots import BOTS, make_bot
from pyramids.cli.i18n import Lang, join_words, seat_name, tr
from pyramids.cli.io import (
    InputError,
    default_record_path,
    dumps,
    hand_record_path,
    load_record,
    save_record,
)
from pyramids.cli.render import render_choices, render_position, render_state, view_spots
from pyramids.core import CHANCE, ActionParseError, Event, GameRecord, PyramidsError
from pyramids.core.game import Action, Bot
from pyramids.flaming import FlamingGame, FlamingOptions, FlamingState
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

EXIT_REFUSED = 2
EXIT_INPUT_ENDED = 1
EXIT_INTERRUPTED = 130
HUMAN = "human"
QUIT_WORDS = frozenset({"q", "quit", "exit", "quitter"})
HELP_WORDS = frozenset({"?", "h", "help", "aide"})
LEFT_WORDS = frozenset({"l", "left", "g", "gauche"})
RIGHT_WORDS = frozenset({"r", "right", "d", "droite"})
QUIET_EVENTS = frozenset({"draw"})
"""Events shown without the pause that follows mayhem events."""


def fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with status 2."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(EXIT_REFUSED)


class PlayerLeftError(Exception):
    """The game stops early: a human typed ``q``, the input ended, or Ctrl-C."""

    def __init__(self, how: str) -> None:
        super().__init__(how)
        self.how = how
        """``quit``, ``eof`` or ``interrupt``."""

    @property
    def exit_code(self) -> int:
        """0 for a chosen quit, 1 when the input ended, 130 for Ctrl-C."""
        return {"quit": 0, "eof": EXIT_INPUT_ENDED}.get(self.how, EXIT_INTERRUPTED)


@dataclass
class Terminal:
    """Where the game talks and listens: a rich console, an input stream, a language, a pace."""

    console: Console
    stdin: TextIO
    lang: str = "en"
    delay: float = 0.0
    sleep: Callable[[float], None] = time.sleep

    def show(self, renderable: RenderableType | str) -> None:
        """Print one renderable (plain strings are never read as markup)."""
        if isinstance(renderable, str):
            renderable = Text(renderable)
        self.console.print(renderable, crop=False, soft_wrap=isinstance(renderable, Text))

    def pause(self) -> None:
        """Wait ``delay`` seconds (nothing when it is 0)."""
        if self.delay > 0:
            self.sleep(self.delay)

    def ask(self, prompt: str) -> str | None:
        """Prompt and read one line; None at the end of the input."""
        self.console.print(Text(prompt, style="bold"), end="")
        line = self.stdin.readline()
        if not line:
            self.console.print()
            return None
        if not self.stdin.isatty():
            self.console.print(Text(line.rstrip("\n")))
        return line.strip()

    def events(self, events: Sequence[Event]) -> None:
        """Show each event with its reason, one at a time."""
        for event in events:
            self.show(Text(f"  {event.text(self.lang)}"))
            if event.kind not in QUIET_EVENTS:
                self.pause()


@dataclass
class Seats:
    """Who sits where: ``human`` or a bot per seat, and their display names."""

    kinds: list[str]
    bots: list[Bot | None] = field(default_factory=list)

    @property
    def humans(self) -> list[int]:
        """Seats played from the keyboard."""
        return [s for s, k in enumerate(self.kinds) if k == HUMAN]

    def names(self, lang: str) -> list[str]:
        """``seat 0 (you)``, ``seat 1 (greedy)``, ...; humans are ``(human)`` when several."""
        many = len(self.humans) > 1
        out = []
        for seat, kind in enumerate(self.kinds):
            if kind == HUMAN and not many:
                out.append(tr("seat_you", lang, n=seat))
            else:
                label = tr("human", lang) if kind == HUMAN else kind
                out.append(tr("seat_kind", lang, n=seat, kind=label))
        return out


def default_bot() -> str:
    """The default opponent: greedy when it exists, else random."""
    return "greedy" if "greedy" in BOTS else "random"


def parse_seats(spec: str | None, players: int | None, lang: str = "en") -> Seats:
    """Seats from ``human,greedy,random``; the default is one human against the default bot."""
    if spec is None:
        count = 3 if players is None else players
        kinds = [HUMAN] + [default_bot()] * (count - 1)
    else:
        kinds = [k.strip().lower() for k in spec.split(",")]
        if players is not None and len(kinds) != players:
            fail(tr("e_seats_count", lang, count=len(kinds), players=players))
    if not 2 <= len(kinds) <= 6:
        fail(tr("e_players", lang, count=len(kinds)))
    bots: list[Bot | None] = []
    for kind in kinds:
        if kind == HUMAN:
            bots.append(None)
            continue
        try:
            bots.append(make_bot(kind))
        except ValueError as exc:
            fail(tr("e_bot", lang, error=exc))
    return Seats(kinds, bots)


# --- a human's input ----------------------------------------------------------------------


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
    labels = choice_labels(state, legal, lang)
    term.show(render_choices(labels, tr("actions_header", lang)))
    while True:
        line = term.ask(tr("prompt", lang, who=names[seat]))
        if line is None:
            raise PlayerLeftError("eof")
        word = line.lower()
        if not word:
            continue
        if word in QUIT_WORDS:
            raise PlayerLeftError("quit")
        if word in HELP_WORDS:
            term.show(tr("help", lang))
            term.show(render_choices(labels, tr("actions_header", lang)))
            continue
        action, why = read_choice(state, line, legal, lang)
        if action is not None:
            return action
        term.show(Text(why, style="bold red"))


# --- playing a hand -----------------------------------------------------------------------


@dataclass
class HandResult:
    """How a hand ended: its final state, its record, and whether someone left early."""

    state: FlamingState
    record: GameRecord
    quit: PlayerLeftError | None = None


def play_hand(term: Terminal, game: FlamingGame, seed: int, seats: Seats) -> HandResult:
    """Play one game to its end (or until a human leaves), recording every action."""
    lang = term.lang
    names = seats.names(lang)
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
    term.events(state.events())
    shown_turn = 0
    try:
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                action = state.sample_chance(chance_rng)
            else:
                if state.turn != shown_turn and state.pending[0] == NONE:
                    shown_turn = state.turn
                    term.show(
                        Rule(tr("turn_line", lang, turn=state.turn, who=names[player]), style="dim")
                    )
                    if seats.kinds[player] != HUMAN:
                        term.show(
                            render_state(state, None, lang, names, legend=False, turn_line=False)
                        )
                bot = seats.bots[player]
                if bot is None:
                    action = ask_human(term, state, player, seats)
                else:
                    action = bot.act(state.view(player), state.legal_actions(), bot_rngs[player])
            text = state.action_to_string(action)
            state.apply(action)
            record.actions.append(text)
            term.events(state.events())
    except PlayerLeftError as exc:
        return HandResult(state, record, exc)
    except KeyboardInterrupt:
        term.show("")
        return HandResult(state, record, PlayerLeftError("interrupt"))
    term.show(Rule(style="dim"))
    term.show(render_state(state, None, lang, names, legend=False))
    return HandResult(state, record)


def new_seed() -> int:
    """A fresh random seed (32 bits, short enough to type back)."""
    return int.from_bytes(os.urandom(4), "big")


def play(
    *,
    players: Annotated[
        int | None,
        typer.Option(
            "--players", min=2, max=6, help="Number of seats (default 3, or as many as --seats)."
        ),
    ] = None,
    seats: Annotated[
        str | None,
        typer.Option(
            "--seats",
            help="Comma list, one per seat: human or a bot name "
            f"({', '.join(sorted(BOTS))}). Default: seat 0 human, the others {default_bot()}.",
        ),
    ] = None,
    preset: Annotated[
        str, typer.Option("--preset", help="basic, family or standard.")
    ] = "standard",
    curse: Annotated[
        bool | None,
        typer.Option("--curse/--no-curse", help="Curse on/off (default: the preset's)."),
    ] = None,
    fire_die: Annotated[
        bool, typer.Option("--fire-die/--no-fire-die", help="Play with the fire die.")
    ] = False,
    max_turns: Annotated[
        int, typer.Option("--max-turns", min=1, help="End the game after this many turns.")
    ] = 1000,
    first_player: Annotated[
        int, typer.Option("--first-player", min=0, help="Seat that starts.")
    ] = 0,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Shuffle seed (default: random, printed).")
    ] = None,
    hands: Annotated[
        int, typer.Option("--hands", min=1, help="Hands in the match (scores add up).")
    ] = 1,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record", help="Where to save the game record (default: the user data dir)."
        ),
    ] = None,
    lang: Annotated[Lang, typer.Option("--lang", help="Language.")] = Lang.EN,
    delay: Annotated[
        float, typer.Option("--delay", min=0.0, help="Seconds between mayhem events.")
    ] = 0.6,
) -> None:
    """Play Flaming Pyramids in the terminal against bots or friends."""
    table = parse_seats(seats, players, lang.value)
    count = len(table.kinds)
    try:
        options = FlamingOptions(
            preset=preset,
            curse=curse,
            fire_die=fire_die,
            max_turns=max_turns,
            first_player=first_player,
        )
        FlamingGame(count, options)
    except PyramidsError as exc:
        fail(str(exc))
    if seed is None:
        seed = new_seed()
    language = lang.value
    term = Terminal(Console(highlight=False), sys.stdin, language, delay)
    base_path = record or default_record_path(seed, datetime.now())
    try:  # find out now, not after the game, that the record cannot be written there
        base_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(tr("e_save", language, path=base_path, error=exc.strerror or exc))
    match = Match(count, hands, options, seed)
    on_off = {True: tr("on", language), False: tr("off", language)}
    term.show(
        tr(
            "game_line",
            language,
            players=count,
            preset=options.preset,
            curse=on_off[options.curse_on],
            die=on_off[options.fire_die],
        )
    )
    term.show(tr("seed_line", language, seed=seed))
    term.show(tr("seats_line", language, seats=", ".join(table.names(language))))
    names = table.names(language)
    for index in range(hands):
        if hands > 1:
            game = match.game_for_hand(index)
            hand_seed = match.seed_for_hand(index)
            term.show(Rule(tr("hand_header", language, n=index + 1, total=hands), style="bold"))
        else:
            game = FlamingGame(count, options)
            hand_seed = seed
        path = hand_record_path(base_path, index, hands)
        result = play_hand(term, game, hand_seed, table)
        try:
            save_record(result.record, path)
        except OSError as exc:
            fail(tr("e_save", language, path=path, error=exc.strerror or exc))
        if result.quit is not None:
            key = "eof_saved" if result.quit.how == "eof" else "quit_saved"
            term.show(Text(tr(key, language, path=path), style="bold"))
            raise typer.Exit(result.quit.exit_code)
        term.show(tr("record_saved", language, path=path))
        if hands > 1:
            scores = match.record_hand(result.state)
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
    state: FlamingState


def replay_steps(
    record: GameRecord, source: str, lang: str = "en"
) -> tuple[FlamingState, list[Event], list[Step]]:
    """(initial state, setup events, steps) of a record; exits 2 naming the first bad action."""
    try:
        game = make_game(record.game, record.players, record.options)
    except PyramidsError as exc:
        fail(f"{source}: {exc}")
    if not isinstance(game, FlamingGame):
        fail(tr("e_not_flaming", lang, source=source, game=record.game))
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
    return initial, setup, steps


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
    """Step through a recorded game: each action, its events and the pyramid."""
    try:
        rec = load_record(record_file)
    except InputError as exc:
        fail(str(exc))
    language = lang.value
    initial, setup, steps = replay_steps(rec, str(record_file), language)
    names = [seat_name(s, language) for s in range(rec.players)]
    if rec.seats and len(rec.seats) == rec.players:
        names = [tr("seat_kind", language, n=s, kind=k) for s, k in enumerate(rec.seats)]
    term = Terminal(Console(highlight=False), sys.stdin, language)
    if to is not None or as_json:
        n = len(steps) if to is None else to
        if n > len(steps):
            fail(tr("replay_to_range", language, n=n, count=len(steps)))
        state = initial if n == 0 else steps[n - 1].state
        if as_json:
            typer.echo(dumps(state.to_json()))
        else:
            term.show(render_state(state, None, language, names))
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
    current = initial.game.info.rules_version
    if rec.rules_version and rec.rules_version != current:
        term.show(tr("rules_mismatch", language, recorded=rec.rules_version, current=current))
    if setup:
        term.show(tr("setup", language))
        term.events(setup)
    term.show(render_state(initial, None, language, names))
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
        term.show(render_state(step.state, None, language, names))
    term.show(Text(tr("replay_end", language), style="bold"))
