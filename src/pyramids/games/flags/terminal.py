"""Pyramids and Flags at the terminal: what a human sees and types in `pyramids play --game flags`.

``UI`` is the game's ``GameUI`` (``pyramids.cli.game_ui``), named by the descriptor's
``terminal`` field: it draws the towers (``render``), asks a human for a move, an
exchange, a capture or a tree action in the notation of PF-NOTE (or by number), says in
the player's language why an input is refused, and filters events so a seat sees only
what it may know (PF-VIEW: other players' drawn, exchanged and stolen cards appear as
``?``). It also tells ``simulate`` and ``bench`` how to count the game: flags,
captures, exchanges, trees and tree actions (PF-SCORE, PF-CAPTURE, PF-SWAP, PF-TREE),
how a game ended (PF-WIN); a turn is a move or an exchange (PF-WIN-5).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from pyramids.cli.game_ui import BaseUI, CommandTexts
from pyramids.cli.i18n import join_words, seat_name
from pyramids.cli.io import dumps_compact
from pyramids.cli.terminal import Seats, Terminal, ask_until_chosen
from pyramids.core import ActionParseError, Event
from pyramids.core.game import Action, Game, State
from pyramids.flags.actions import (
    MOVE_BASE,
    SPLIT_BASE,
    SWAP_BASE,
    TABLE,
    TAKE_BASE,
    decode_move,
)
from pyramids.flags.cards import CODES
from pyramids.flags.notation import parse_action as parse_notation
from pyramids.flags.pieces import NAMES, SIZE
from pyramids.flags.state import ACTION, CAPTURE, NONE, FlagsState
from pyramids.games.flags.render import (
    render_flags_choices,
    render_flags_position,
    render_flags_state,
)
from pyramids.games.flags.words import tr, tree_words


def _flags(state: State) -> FlagsState:
    if not isinstance(state, FlagsState):
        raise TypeError("the Pyramids and Flags interface draws Pyramids and Flags states")
    return state


def _group(state: FlagsState, piece: int) -> list[int]:
    """``piece`` and everything above it, bottom to top."""
    out = [piece]
    while state.above(out[-1]) >= 0:
        out.append(state.above(out[-1]))
    return out


def move_reason(state: FlagsState, lowest: int, target: int, lang: str) -> str | None:
    """Why the move ``lowest>target`` breaks PF-MOVE, in ``lang`` (None: no objection)."""
    piece = NAMES[lowest]
    group = _group(state, lowest)
    if target == TABLE:
        if state.below(lowest) < 0:
            return tr("rf_bottom", lang, piece=piece)
    else:
        name = NAMES[target]
        if target in group:
            return tr("rf_itself", lang, target=name, piece=piece)
        if state.above(target) >= 0:
            return tr("rf_not_top", lang, target=name, above=NAMES[state.above(target)])
        if SIZE[lowest] > SIZE[target]:
            return tr("rf_larger", lang, piece=piece, target=name)
    if tuple(sorted(group)) == tuple(sorted(state.last_moved)):
        return tr("rf_same_group", lang, pieces=" ".join(NAMES[p] for p in state.last_moved))
    return None


def human_reason(state: FlagsState, action: Action, legal: Sequence[Action], lang: str) -> str:
    """Why ``action`` is refused, said to the player to decide (never naming other hands).

    Moves, exchanges and actions of the wrong kind are explained in ``lang``; a take,
    trade or pirate of the right kind that is still illegal gets the engine's reason.
    """
    reason = state.illegal_reason(action)
    labels = [state.action_to_string(a) for a in legal]
    if state.pending == NONE:
        if MOVE_BASE <= action < SWAP_BASE:
            lowest, target = decode_move(action)
            return move_reason(state, lowest, target, lang) or reason or ""
        if SWAP_BASE <= action < TAKE_BASE:
            if action - SWAP_BASE not in state.hand(state.to_move):
                return tr("rf_not_in_hand", lang, card=CODES[action - SWAP_BASE])
            if not state.deck:
                return tr("rf_deck_empty", lang)
        return tr("rf_turn", lang)
    options = join_words(labels, lang)
    if state.pending == CAPTURE:
        if reason and TAKE_BASE <= action < SPLIT_BASE:  # a take, but not this one
            return reason
        card = str(state.pending_info["card"])
        return tr("rf_capture", lang, card=card, options=options)
    if state.pending == ACTION:
        colour = str(state.pending_info["colour"])
        name = tree_words(colour, lang)[0]
        return tr("rf_action", lang, action=name, options=options)
    return reason or ""


def read_choice(
    state: FlagsState, text: str, legal: Sequence[Action], lang: str
) -> tuple[Action | None, str]:
    """(action, "") for acceptable input, else (None, why it is refused) in ``lang``."""
    word = text.strip()
    if word.isdigit():
        n = int(word)
        if 1 <= n <= len(legal):
            return legal[n - 1], ""
        return None, tr("bad_number", lang, n=n, count=len(legal))
    try:
        action = parse_notation(word, state.num_players)
    except ActionParseError as exc:
        why = tr("f_cannot_read", lang, text=word)
        detail = str(exc)
        if lang == "en" and not detail.startswith("cannot read"):
            why += f" ({detail})"
        return None, why
    if action in legal:
        return action, ""
    return None, tr("refused", lang, reason=human_reason(state, action, legal, lang))


def ask_flags_human(term: Terminal, state: FlagsState, seat: int, seats: Seats) -> Action:
    """Show the seat its view and options; read until it gives a legal action (PlayerLeftError to leave)."""
    lang = term.lang
    names = seats.names(lang)
    width = term.console.width
    legal = state.legal_actions()
    if len(seats.humans) > 1:
        term.show(Text(tr("whose_turn", lang, who=names[seat]), style="bold reverse"))
    term.show(
        render_flags_position(
            state.view(seat),
            lang,
            names,
            width=width,
            hand_label=tr("your_hand", lang, who=seat_name(seat, lang)),
            turn_line=False,
        )
    )
    labels = [state.action_to_string(a) for a in legal]
    choices = render_flags_choices(labels, tr("actions_header", lang), width)
    term.show(choices)
    return ask_until_chosen(
        term,
        tr("prompt", lang, who=names[seat]),
        choices,
        tr("f_help", lang),
        lambda line: read_choice(state, line, legal, lang),
    )


class FlagsUI(BaseUI):
    """Pyramids and Flags: towers, hands with their cards' facts, notation prompts."""

    commands = CommandTexts(
        group="Pyramids and Flags positions: apply actions, draw the towers.",
        actions="Actions in order: W1>R2, B3>table, swap:CZE, take:O2, take:O2@1, done, "
        "split:R3, trade:O2:P1@1, grow, newstart, pirate:1, wild:R, steal:CZE, deal:CZE",
        seat="Show this seat's hand: country, flag and facts of each card.",
        show="Draw POSITION: towers, bank, each seat's pyramids and flags, deck, pending decision.",
    )

    def at_rest(self, state: State) -> bool:
        """No capture, tree action or chance outcome pending."""
        return _flags(state).pending == NONE

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
        """The towers and the status (``render_flags.render_flags_state``)."""
        return render_flags_state(
            _flags(state), seat, lang, names, width=width, legend=legend, turn_line=turn_line
        )

    def ask(self, term: Terminal, state: State, seat: int, seats: Seats) -> Action:
        """``ask_flags_human``."""
        return ask_flags_human(term, _flags(state), seat, seats)

    def events(self, state: State, seats: Seats) -> list[Event]:
        """The events as the terminal's only human sees them (PF-VIEW-4); with several
        humans at one terminal, as a spectator; with bots only, everything."""
        flags = _flags(state)
        humans = seats.humans
        if not humans:
            return flags.events()
        return flags.events_for(humans[0] if len(humans) == 1 else None)

    def game_line(self, game: Game, lang: str) -> str:
        """``Pyramids and Flags, 3 players, tree actions on, at most 3000 turns``."""
        options = game.options
        return tr(
            "f_game_line",
            lang,
            players=game.num_players,
            actions=tr("on" if options["actions"] else "off", lang),
            turns=options["max_turns"],
        )

    def dump_position(self, data: Any) -> str:
        """Compact JSON: a Pyramids and Flags position is long."""
        return dumps_compact(data)


UI = FlagsUI()
"""The terminal interface of Pyramids and Flags (the descriptor's ``terminal``)."""
