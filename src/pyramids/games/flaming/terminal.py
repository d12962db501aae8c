"""Flaming Pyramids at the terminal: what a human sees and types in ``pyramids play``.

``UI`` is the game's ``GameUI`` (``pyramids.cli.game_ui``), named by the descriptor's
``terminal`` field: it draws the pyramid (``render``), asks a human for a placement or
a fall direction (a number, ``R40@1,1``, just ``R40`` when one spot is open, ``left``/
``right``), asks a checker in call-out mode (FP-CALL) whether everything is OK (Enter)
or which tile breaks a rule (``r,c``), says in the player's language why an input is
refused (never naming other hands) and plays a match of several hands (``--hands``,
FP-MATCH). Before a placement that collapses, burns, explodes or curses it warns, with
the engine's answers (``placement_hints`` and the placement tried on a clone), except in
call-out mode. A check shows the public pyramid only: no hand, no open spots, no hints.
``?`` at a decision adds the search's hint from the seat's view (``pyramids.cli.prompt_hint``;
none at a check).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.text import Text

from pyramids.cli.game_ui import BaseUI, CommandTexts
from pyramids.cli.hands import finish_hand, play_hand
from pyramids.cli.i18n import join_words, seat_name
from pyramids.cli.io import hand_record_path
from pyramids.cli.prompt_hint import prompt_hint
from pyramids.cli.terminal import (
    NO_WORDS,
    PlayerLeftError,
    Seats,
    Terminal,
    ask_until_chosen,
    for_players,
)
from pyramids.core import ActionParseError, Event
from pyramids.core.descriptor import OptionSpec
from pyramids.core.errors import PositionError
from pyramids.core.game import Action, Game, State
from pyramids.flaming import FlamingGame, FlamingState
from pyramids.flaming.actions import CHECK_OK, call_action, is_check, is_place
from pyramids.flaming.actions import parse_action as parse_notation
from pyramids.flaming.match import Match
from pyramids.flaming.mayhem import called_keys
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
from pyramids.flaming.tiles import (
    BY_NAME,
    MAX_ROW,
    NAMES,
    SUPPORT_LEFT,
    SUPPORT_RIGHT,
    check_spot,
    spot_name,
)
from pyramids.flaming.view import placement_hints
from pyramids.games.flaming.evaluation import is_flaming_state
from pyramids.games.flaming.render import (
    render_choices,
    render_hand,
    render_position,
    render_state,
    view_spots,
)
from pyramids.games.flaming.words import tr
from pyramids.texts import describe

LEFT_WORDS = frozenset({"l", "left", "g", "gauche"})
RIGHT_WORDS = frozenset({"r", "right", "d", "droite"})
OK_WORDS = frozenset({"", "ok", "o", "y", "yes", "oui"})
"""What a checker may type for ``ok`` (FP-CALL-3): Enter alone, ok, yes, oui."""
_CALL_RE = re.compile(r"^(?:call\s*:?\s*)?\(?\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*\)?$")
"""A call as typed: ``1,3``, ``1 3``, ``(1,3)``, ``call:1,3`` or ``call 1,3``."""

# --- a human's input ------------------------------------------------------------------------


def human_reason(state: FlamingState, action: Action, lang: str) -> str:
    """Why ``action`` is refused, said to the player to move (never naming other hands)."""
    if state.is_terminal():
        return tr("r_game_over", lang)
    kind, key = state.pending
    if kind == FALL:
        return tr("r_falling", lang, tile=NAMES[state.board[key]], at=spot_name(key))
    if is_check(action):
        return tr("r_no_check", lang)
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
            return None, tr("cannot_read", lang, text=repr(text.strip()))
    if action in legal:
        return action, ""
    return None, tr("refused", lang, reason=human_reason(state, action, lang))


def read_check(state: FlamingState, text: str, lang: str) -> tuple[Action | None, str]:
    """A checker's answer (FP-CALL-3): Enter (or ``ok``) for ``ok``; ``r,c`` (``1,3``,
    ``call:1,3``) or a tile's code (``R40``) to call a tile on the pyramid.

    (action, "") when acceptable, else (None, why it is refused) in ``lang``. Every tile
    on the pyramid may be called: whether the call is right is for the engine to say.
    """
    word = text.strip().lower()
    if word in OK_WORDS:
        return CHECK_OK, ""
    board = state.board
    m = _CALL_RE.match(word)
    if m:
        row, col = int(m.group(1)), int(m.group(2))
        at = f"{row},{col}"
        try:
            key = check_spot(row, col)
        except PositionError:
            if not 0 <= row <= MAX_ROW:
                return None, tr("c_no_row", lang, at=at)
            parity = tr("even" if row % 2 == 0 else "odd", lang)
            return None, tr("c_parity", lang, at=at, row=row, parity=parity)
        if key not in board:
            return None, tr("c_empty", lang, at=at)
        return call_action(key), ""
    if word.upper() in BY_NAME:
        tile = BY_NAME[word.upper()]
        for key, other in board.items():
            if other == tile:
                return call_action(key), ""
        return None, tr("c_not_on_pyramid", lang, tile=NAMES[tile])
    return None, tr("c_cannot_read", lang, text=repr(text.strip()))


def ask_check(term: Terminal, state: FlamingState, seat: int, seats: Seats) -> Action:
    """FP-CALL-2: show the checker the pyramid (public: no hand, no spots, no hints) and
    ask "Everything OK? (Enter) or call a tile (r,c)" until the answer is readable."""
    lang = term.lang
    names = seats.names(lang)
    term.show(
        Text(
            tr("check_banner", lang, who=names[seat], placer=names[state.to_move]),
            style="bold reverse",
        )
    )
    pyramid = render_position(state.view(None), (), lang, names, turn_line=False)
    term.show(pyramid)
    return ask_until_chosen(
        term,
        tr("check_prompt", lang, who=names[seat]),
        pyramid,
        tr("check_help", lang),
        lambda line: read_check(state, line, lang),
        empty_line=True,
        hint=prompt_hint(term, state, seat, names[seat], ()),
    )


def ask_human(term: Terminal, state: FlamingState, seat: int, seats: Seats) -> Action:
    """Show the seat its view and options; read until it gives a legal action (PlayerLeftError to leave).

    A check (call-out mode) is ``ask_check``.
    """
    if state.checker == seat:
        return ask_check(term, state, seat, seats)
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
    warnings = placement_warnings(state, legal, lang)
    labels = warned_labels(choice_labels(state, legal, lang), legal, warnings)
    choices = render_choices(labels, tr("actions_header", lang))
    if warnings:
        choices.append("\n" + tr("w_legend", lang), style="dim")
    term.show(choices)

    def read(line: str) -> tuple[Action | None, str]:
        action, why = read_choice(state, line, legal, lang)
        if action is None or action not in warnings:
            return action, why
        if not confirm_placement(term, state, action, warnings[action]):
            return None, tr("w_again", lang)
        return action, why

    return ask_until_chosen(
        term,
        tr("prompt", lang, who=names[seat]),
        choices,
        tr("help", lang),
        read,
        hint=prompt_hint(term, state, seat, names[seat], labels),
    )


# --- warnings before a placement (never in call-out mode: spotting mayhem is the game) -------

MAYHEM_TAGS = (
    ("collapse", "w_collapses"),
    ("free_air", "w_falls"),
    ("explosion", "w_explodes"),
    ("die_explosion", "w_explodes"),
    ("fire", "w_burns"),
    ("fire_found", "w_fire_die"),
    ("curse", "w_curse"),
)
"""Event kinds of a trial placement that make it worth a warning, and their short word."""


@dataclass(frozen=True)
class PlacementWarning:
    """What a placement would set off, as the engine answers: short tags and the events."""

    tags: tuple[str, ...]
    """Short words for the list of options: ``collapses``, ``burns``."""
    events: tuple[Event, ...]
    """The mayhem events of the placement applied on a clone (FP-MAYHEM), to say in full."""


def placement_warnings(
    state: FlamingState, legal: Sequence[Action], lang: str
) -> dict[Action, PlacementWarning]:
    """Each legal placement of the seat to move that collapses, burns, explodes or curses.

    Asked of the engine, never worked out here: the fit of each tile on each spot is
    ``placement_hints`` (FP-FIT, the hints the browser shows), and whether the placement
    sets a fire, an explosion or the curse off is read from the events of the placement
    applied to a clone of the state (exact, and never a hidden tile: Flaming Pyramids'
    events are public). Empty in call-out mode (FP-CALL): there spotting mayhem is the game.
    """
    if state.options.callout_on or state.pending[0] != NONE or state.is_terminal():
        return {}
    seat = state.to_move
    hints = placement_hints(state.view(seat)) or {"spots": {}}
    out: dict[Action, PlacementWarning] = {}
    for action in legal:
        if not is_place(action):
            continue
        tile, where = decode_place(action)
        fit = hints["spots"].get(NAMES[tile], {}).get(spot_name(where))
        trial = state.clone()
        trial.apply(action)
        kinds = {e.kind for e in trial.events()}
        tags = [tr(key, lang) for kind, key in MAYHEM_TAGS if kind in kinds]
        if fit is not None and not fit["fits"] and tr("w_collapses", lang) not in tags:
            tags.insert(0, tr("w_collapses", lang))
        if tags:
            mayhem = {kind for kind, _ in MAYHEM_TAGS}
            events = tuple(e for e in trial.events() if e.kind in mayhem)
            out[action] = PlacementWarning(tuple(dict.fromkeys(tags)), events)
    return out


def warned_labels(
    labels: Sequence[str], legal: Sequence[Action], warnings: Mapping[Action, PlacementWarning]
) -> list[str]:
    """``R40@1,1 (!) collapses`` for a warned placement, the label alone otherwise."""
    return [
        f"{label} (!) {', '.join(warnings[a].tags)}" if a in warnings else label
        for label, a in zip(labels, legal, strict=True)
    ]


def confirm_placement(
    term: Terminal, state: FlamingState, action: Action, warning: PlacementWarning
) -> bool:
    """At a real terminal, say what the placement sets off (the trial's events in words)
    and ask whether to place it anyway (Enter: yes). Piped input is never asked."""
    if not term.confirms:
        return True  # the list of options already said it; the events will say the rest
    lang = term.lang
    tile, where = decode_place(action)
    term.say(tr("w_careful", lang, tile=NAMES[tile], at=spot_name(where)), style="bold yellow")
    for event in warning.events:
        term.say(f"  {for_players(describe(event, lang))}", style="yellow")
    answer = term.ask(tr("w_confirm", lang))
    if answer is None:
        raise PlayerLeftError("eof")
    return answer.strip().lower() not in NO_WORDS


# --- a match of several hands (FP-MATCH) ----------------------------------------------------


def play_match(
    term: Terminal, game: FlamingGame, table: Seats, *, seed: int, hands: int, base_path: Path
) -> None:
    """Play a Flaming Pyramids game, or a match of several hands adding up the scores."""
    language = term.lang
    match = Match(game.num_players, hands, game.options_obj, seed)
    names = table.names(language)
    for index in range(hands):
        if hands > 1:
            hand_game = match.game_for_hand(index)
            hand_seed = match.seed_for_hand(index)
            term.show(Rule(tr("hand_header", language, n=index + 1, total=hands), style="bold"))
        else:
            hand_game, hand_seed = game, seed
        if term.hints is not None:  # a hand's hints are seeded from the hand's seed
            term.hints = replace(term.hints, seed=hand_seed)
        result = play_hand(term, hand_game, hand_seed, table, UI)
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


def _flaming(state: State) -> FlamingState:
    if not is_flaming_state(state):
        raise TypeError("a Flaming Pyramids interface draws Flaming Pyramids states")
    return state


# --- the interface --------------------------------------------------------------------------


class FlamingUI(BaseUI):
    """Flaming Pyramids: the pyramid drawing, the placement and fall prompts, matches."""

    commands = CommandTexts(
        group="Flaming Pyramids positions: apply actions, draw the pyramid.",
        actions="Actions in order: R40@1,1, left, right, die:1..die:6, ok, call:1,3.",
        seat="Show this seat's hand (its view).",
        show="Draw POSITION's pyramid with each seat's hand and pile sizes, tiles out and "
        "what is pending.",
    )
    play_options = (OptionSpec("hands", "int", 1, minimum=1),)
    """Its help line is the catalogue's ``option.flaming.hands``."""

    def replay_notes(self, before: State, after: State, lang: str) -> list[str]:
        """After a check that left mayhem standing (``ok`` or a false alarm), where it stands.

        Only ``pyramids replay`` says this: during play nothing tells that mayhem stands.
        """
        state = _flaming(after)
        if not any(e.kind in ("check_ok", "false_alarm") for e in state.events()):
            return []
        pos = state.position
        kept = set(pos.candidates)
        found = called_keys(pos, state.options.curse_on)
        pos.candidates = kept
        if not found:
            return []
        spots = [f"{NAMES[pos.board[k]]}@{spot_name(k)}" for k in sorted(found)]
        return [tr("replay_overlooked", lang, tiles=join_words(spots, lang))]

    def render_hands(
        self, state: State, lang: str, names: list[str] | None = None
    ) -> RenderableType | None:
        """``Hand of seat 0: [R40] [Y2]`` for every seat."""
        flaming = _flaming(state)
        who = names or [seat_name(s, lang) for s in range(flaming.num_players)]
        lines = [
            render_hand(flaming.view(s).hand or [], tr("hand_of", lang, who=who[s]), lang)
            for s in range(flaming.num_players)
        ]
        return Group(*lines)

    def at_rest(self, state: State) -> bool:
        """No fall, die roll or check pending."""
        return is_flaming_state(state) and state.pending[0] == NONE

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
        """The pyramid and the status (``render.render_state``)."""
        return render_state(_flaming(state), seat, lang, names, legend=legend, turn_line=turn_line)

    def ask(self, term: Terminal, state: State, seat: int, seats: Seats) -> Action:
        """``ask_human``."""
        return ask_human(term, _flaming(state), seat, seats)

    def events(self, state: State, seats: Seats) -> list[Event]:
        """Every event: Flaming Pyramids events never name a hidden tile."""
        return state.events()

    def game_line(self, game: Game, lang: str) -> str:
        """``Flaming Pyramids, 3 players, preset standard, curse on, fire die off``."""
        if not isinstance(game, FlamingGame):
            raise TypeError("the Flaming Pyramids interface plays Flaming Pyramids games")
        options = game.options_obj
        on_off = {True: tr("on", lang), False: tr("off", lang)}
        line = tr(
            "game_line",
            lang,
            players=game.num_players,
            preset=options.preset,
            curse=on_off[options.curse_on],
            die=on_off[options.fire_die],
        )
        if options.callout != "off":
            line += tr("callout_line", lang, mode=tr(f"callout_{options.callout}", lang))
        return line

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
        """A game, or a match of ``--hands`` hands (``play_match``)."""
        if not isinstance(game, FlamingGame):
            raise TypeError("the Flaming Pyramids interface plays Flaming Pyramids games")
        hands = extras.get("hands") or 1
        play_match(term, game, seats, seed=seed, hands=int(hands), base_path=base_path)


UI = FlamingUI()
"""The terminal interface of Flaming Pyramids (the descriptor's ``terminal``)."""
