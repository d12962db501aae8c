"""Flaming Pyramids at the terminal: what a human sees and types in ``pyramids play``.

``UI`` is the game's ``GameUI`` (``pyramids.cli.game_ui``), named by the descriptor's
``terminal`` field: it draws the pyramid (``render``), asks a human for a placement or
a fall direction (a number, ``R40@1,1``, just ``R40`` when one spot is open, ``left``/
``right``), says in the player's language why an input is refused (never naming other
hands), plays a match of several hands (``--hands``, FP-MATCH) and tells ``simulate``
and ``bench`` how to count the game: mayhem events (FP-MAYHEM), a turn per placement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import RenderableType
from rich.rule import Rule
from rich.text import Text

from pyramids.cli.game_ui import BaseUI, CommandTexts
from pyramids.cli.hands import finish_hand, play_hand
from pyramids.cli.i18n import join_words, seat_name
from pyramids.cli.io import hand_record_path
from pyramids.cli.terminal import Seats, Terminal, ask_until_chosen
from pyramids.core import ActionParseError, Event
from pyramids.core.descriptor import OptionSpec
from pyramids.core.game import Action, Game, State
from pyramids.flaming import FlamingGame, FlamingState
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
from pyramids.games.flaming.render import render_choices, render_position, render_state, view_spots
from pyramids.games.flaming.words import tr

LEFT_WORDS = frozenset({"l", "left", "g", "gauche"})
RIGHT_WORDS = frozenset({"r", "right", "d", "droite"})

# --- a human's input ------------------------------------------------------------------------


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
    if not isinstance(state, FlamingState):
        raise TypeError("a Flaming Pyramids interface draws Flaming Pyramids states")
    return state


# --- what simulate counts -------------------------------------------------------------------


# --- the interface --------------------------------------------------------------------------


class FlamingUI(BaseUI):
    """Flaming Pyramids: the pyramid drawing, the placement and fall prompts, matches."""

    commands = CommandTexts(
        group="Flaming Pyramids positions: apply actions, draw the pyramid.",
        actions="Actions in order: R40@1,1, left, right, die:1..die:6.",
        seat="Show this seat's hand (its view).",
        show="Draw POSITION's pyramid with each seat's hand and pile sizes, tiles out and "
        "what is pending.",
    )
    play_options = (
        OptionSpec(
            "hands",
            "int",
            1,
            minimum=1,
            help_en="hands in the match (scores add up)",
            help_fr="manches du match (les points s'additionnent)",
        ),
    )

    def at_rest(self, state: State) -> bool:
        """No fall or die roll pending."""
        return isinstance(state, FlamingState) and state.pending[0] == NONE

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
        return tr(
            "game_line",
            lang,
            players=game.num_players,
            preset=options.preset,
            curse=on_off[options.curse_on],
            die=on_off[options.fire_die],
        )

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
