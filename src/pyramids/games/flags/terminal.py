"""Pyramids and Flags at the terminal: what a human sees and types in `pyramids play --game flags`.

``UI`` is the game's ``GameUI`` (``pyramids.cli.game_ui``), named by the descriptor's
``terminal`` field: it draws the towers (``render``), asks a human for a move, an
exchange, a capture or a tree action in the notation of PF-NOTE (or by number; a turn's
~200 moves are summed up and filtered by piece or target: ``K1``, ``>K2``, ``?``), says in
the player's language why an input is refused (``?`` adds the search's hint from the
seat's view: ``pyramids.cli.prompt_hint``), and filters events so a seat sees only
what it may know (PF-VIEW: other players' drawn, exchanged and stolen cards appear as
``?``). It also tells ``simulate`` and ``bench`` how to count the game: flags,
captures, exchanges, trees and tree actions (PF-SCORE, PF-CAPTURE, PF-SWAP, PF-TREE),
how a game ended (PF-WIN); a turn is a move or an exchange (PF-WIN-5).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from pyramids.cli.game_ui import BaseUI, CommandTexts
from pyramids.cli.i18n import join_words, seat_name
from pyramids.cli.io import dumps_compact
from pyramids.cli.prompt_hint import prompt_hint
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
from pyramids.flags.pieces import BY_NAME, NAMES, SIZE
from pyramids.flags.position import ACTION, CAPTURE, NONE
from pyramids.flags.state import FlagsState
from pyramids.flags.text import parse_action as parse_notation
from pyramids.games.flags.evaluation import is_flags_state
from pyramids.games.flags.render import (
    pieces_line,
    render_flags_choices,
    render_flags_hand,
    render_flags_position,
    render_flags_state,
    render_numbered,
    render_option_groups,
)
from pyramids.games.flags.words import tr, tree_words
from pyramids.texts import refusal


def _flags(state: State) -> FlagsState:
    """``state`` as a Pyramids and Flags state (Python or native engine)."""
    if not is_flags_state(state):
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
    refused = state.illegal_reason(action)
    reason = refusal(refused, lang) if refused is not None else None
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
        why = tr("f_cannot_read", lang, text=repr(word))
        if exc.code not in ("flags.unreadable_action", "flags.unknown_action_word"):
            why += f" ({refusal(exc, lang)})"
        return None, why
    if action in legal:
        return action, ""
    return None, tr("refused", lang, reason=human_reason(state, action, legal, lang))


MOVES_SHOWN = 24
"""More moves than this are summed up (the pieces that can move) instead of listed."""
_FILTER_RE = re.compile(r"^(>)?\s*([A-Z][0-9]|TABLE)\s*(>)?$")
"""A filter as typed: ``K1`` (its moves and the moves onto it), ``>K2`` (onto K2 only),
``K1>`` (K1's moves only), ``>table``."""


def _moves(legal: Sequence[Action]) -> list[tuple[int, int, int]]:
    """(number, lowest piece, target) of each move among the legal actions."""
    return [(i + 1, *decode_move(a)) for i, a in enumerate(legal) if MOVE_BASE <= a < SWAP_BASE]


def _target_name(target: int, lang: str) -> str:
    return tr("f_table_word", lang) if target == TABLE else NAMES[target]


def _others(state: FlagsState, legal: Sequence[Action]) -> list[tuple[int, str]]:
    """The numbered options that are not moves (exchanges, takes, done, tree actions)."""
    return [
        (i + 1, state.action_to_string(a))
        for i, a in enumerate(legal)
        if not MOVE_BASE <= a < SWAP_BASE
    ]


def all_options(state: FlagsState, legal: Sequence[Action], lang: str, width: int) -> Text:
    """Every option with its number, the moves grouped by the piece that moves (``?``)."""
    groups: dict[int, list[tuple[int, str]]] = {}
    for n, lowest, target in _moves(legal):
        groups.setdefault(lowest, []).append((n, f"{NAMES[lowest]}>{_target_name(target, 'en')}"))
    titled = [(tr("f_moves_of", lang, piece=NAMES[p]), items) for p, items in groups.items()]
    others = _others(state, legal)
    if others:
        titled.append((tr("f_other_options", lang) if groups else "", others))
    return render_option_groups(titled, tr("actions_header", lang), width)


def options_overview(state: FlagsState, legal: Sequence[Action], lang: str, width: int) -> Text:
    """What a human sees at the prompt: every option when there are few, else the pieces
    that can move (type one to see its moves) and the other options with their numbers."""
    moves = _moves(legal)
    if len(moves) <= MOVES_SHOWN:
        labels = [state.action_to_string(a) for a in legal]
        return render_flags_choices(labels, tr("actions_header", lang), width)
    out = Text(tr("f_overview", lang, moves=len(moves), count=len(legal)) + "\n", style="bold")
    out.append(tr("f_can_move", lang))
    movers = list(dict.fromkeys(lowest for _, lowest, _ in moves))
    out.append_text(pieces_line(movers))
    out.append("\n" + tr("f_filter_help", lang, piece=NAMES[movers[0]]), style="dim")
    others = _others(state, legal)
    if others:
        out.append("\n")
        out.append_text(render_numbered(others, tr("f_other_options", lang), width))
    return out


def filter_options(
    state: FlagsState, legal: Sequence[Action], line: str, lang: str, width: int
) -> Text | None:
    """The moves a filter names (``K1``, ``>K2``, ``K1>``, ``>table``) with their numbers;
    None when ``line`` is not a filter (it is then read as an action)."""
    m = _FILTER_RE.match(line.strip().upper())
    if not m or state.pending != NONE:
        return None
    onto_only, name, from_only = m.group(1), m.group(2), m.group(3)
    if onto_only and from_only:
        return None
    if name == "TABLE":
        target: int | None = TABLE
        piece = None
    elif name in BY_NAME:
        piece = target = BY_NAME[name]
    else:
        return None
    moves = _moves(legal)
    groups: list[tuple[str, list[tuple[int, str]]]] = []
    shown = NAMES[piece] if piece is not None else tr("f_table_word", lang)
    if piece is not None and not onto_only:
        mine = [(n, f"{NAMES[lo]}>{_target_name(t, 'en')}") for n, lo, t in moves if lo == piece]
        groups.append((tr("f_moves_of", lang, piece=shown), mine))
    if not from_only:
        onto = [(n, f"{NAMES[lo]}>{_target_name(t, 'en')}") for n, lo, t in moves if t == target]
        groups.append((tr("f_moves_onto", lang, piece=shown), onto))
    if not any(items for _, items in groups):
        key = "f_no_moves_onto" if piece is None or onto_only else "f_no_moves"
        return Text(tr(key, lang, piece=shown), style="bold")
    return render_option_groups(groups, "", width)


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
    term.show(options_overview(state, legal, lang, width))
    return ask_until_chosen(
        term,
        tr("prompt", lang, who=names[seat]),
        all_options(state, legal, lang, width),
        tr("f_help", lang),
        lambda line: read_choice(state, line, legal, lang),
        narrow=lambda line: filter_options(state, legal, line, lang, width),
        hint=prompt_hint(
            term, state, seat, names[seat], [state.action_to_string(a) for a in legal]
        ),
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

    def render_hands(
        self, state: State, lang: str, names: list[str] | None = None
    ) -> RenderableType | None:
        """Every seat's cards with their countries, flags and facts."""
        flags = _flags(state)
        who = names or [seat_name(s, lang) for s in range(flags.num_players)]
        return Group(
            *(
                render_flags_hand(flags.view(s).hand or [], tr("hand_of", lang, who=who[s]), lang)
                for s in range(flags.num_players)
            )
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
