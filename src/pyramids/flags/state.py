"""``FlagsState``: a Pyramids and Flags game in progress, a thin wrapper over ``FlagsPosition``.

A ``FlagsState`` is a ``FlagsPosition`` (the data) with its game, the actions applied
since it was dealt or loaded, and the last apply's raw events. Legal actions, chance
outcomes (the pirate's steal, the new start's deal card by card), refusal reasons and
applying an action call the rule functions of ``rules``; copy and equality come from
the position's dataclass fields. The pending kinds are ``position``'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from pyramids.core.bits import bits_of
from pyramids.core.errors import IllegalActionError
from pyramids.core.fields import json_fact
from pyramids.core.game import (
    CHANCE,
    TERMINAL,
    Action,
    Event,
    History,
    Outcome,
    State,
    history_list,
)
from pyramids.flags.actions import (
    DEAL_BASE,
    DONE,
    GROW,
    MOVE_BASE,
    NUM_ACTIONS,
    PIRATE_BASE,
    SPLIT_BASE,
    STEAL_BASE,
    SWAP_BASE,
    TAKE_BASE,
    TRADE_BASE,
    WILD_BASE,
    decode_move,
    decode_take,
    decode_trade,
)
from pyramids.flags.cards import CODES, PIECES_MASK
from pyramids.flags.events import from_raw
from pyramids.flags.pieces import NAMES
from pyramids.flags.position import ACTION, CAPTURE, DEAL, NONE, STEAL, FlagsPosition, copy_position
from pyramids.flags.rules import (
    action_options,
    apply_deal,
    apply_move,
    apply_steal,
    apply_swap,
    apply_take,
    apply_tree_action,
    capture_actions,
    deal_outcomes,
    decline_capture,
    is_built,
    move_reason,
    steal_outcomes,
    swap_reason,
    towers,
    turn_actions,
)
from pyramids.flags.scoring import points
from pyramids.flags.text import (
    action_to_text,
    masked_action_text,
    parse_action,
    pending_json,
    position_to_json,
)
from pyramids.flags.view import FlagsView, make_view

if TYPE_CHECKING:
    from pyramids.flags.game import FlagsGame


_new = object.__new__


class FlagsState(State):
    """A Pyramids and Flags game in progress: a position (all hidden facts) and its game."""

    __slots__ = ("_events", "_history", "game", "position")

    game: FlagsGame
    position: FlagsPosition
    """The position (public data; change it only through the rules)."""

    def __init__(self, game: FlagsGame, position: FlagsPosition) -> None:
        self.game = game
        self.position = position
        self._events: list[tuple[Any, ...]] = []
        self._history: History = None

    # --- the protocol -------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return len(self.position.hands)

    def is_terminal(self) -> bool:
        """Whether someone has won or a safeguard (max_turns, no cards left) ended the game."""
        pos = self.position
        return pos.winner >= 0 or pos.ranking is not None

    def current_player(self) -> int:
        """The deciding seat (the mover, or a card's holder capturing), CHANCE, or TERMINAL."""
        pos = self.position
        if pos.winner >= 0 or pos.ranking is not None:
            return TERMINAL
        pending = pos.pending
        if pending in (NONE, ACTION):
            return pos.to_move
        if pending == CAPTURE:
            return pos.player
        return CHANCE

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions (chance outcomes at a chance point; see chance_outcomes)."""
        pos = self.position
        if pos.winner >= 0 or pos.ranking is not None:
            return []
        pending = pos.pending
        if pending == NONE:
            return turn_actions(pos)
        if pending == CAPTURE:
            return capture_actions(pos)
        if pending == ACTION:
            return [DONE, *action_options(pos, pos.colour)]
        return [a for a, _ in self.chance_outcomes()]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Outcomes of a pirate's steal or of the next card of a new start's deal.

        A steal takes each card of the victim's hand with equal chance; a new start deals
        one card at a time, each card left to deal equally likely (at most 36 outcomes).
        """
        pos = self.position
        if pos.winner >= 0 or pos.ranking is not None:
            return []
        if pos.pending == STEAL:
            return steal_outcomes(pos)
        if pos.pending == DEAL:
            return deal_outcomes(pos)
        return []

    def apply(self, action: Action) -> None:
        """Apply one action or chance outcome; IllegalActionError (changing nothing) if illegal."""
        pos = self.position
        if pos.winner >= 0 or pos.ranking is not None:
            raise IllegalActionError("flags.game_over")
        pending = pos.pending
        if pending == NONE and MOVE_BASE <= action < SWAP_BASE:
            lowest, target = decode_move(action)
            refused = move_reason(pos, lowest, target)
            if refused is not None:
                raise refused
            ev: list[tuple[Any, ...]] = []
            self._events = ev
            apply_move(pos, lowest, target, ev)
            self._history = (action, self._history)
            return
        refused = self.illegal_reason(action)
        if refused is not None:
            raise refused
        ev = []
        self._events = ev
        if pending == NONE:
            apply_swap(pos, action - SWAP_BASE, ev)
        elif pending == CAPTURE:
            if action == DONE:
                decline_capture(pos, ev)
            else:
                piece, source = decode_take(action)
                apply_take(pos, piece, source, ev)
        elif pending == ACTION:
            apply_tree_action(pos, action, ev)
        elif pending == STEAL:
            apply_steal(pos, action - STEAL_BASE, ev)
        else:
            apply_deal(pos, action - DEAL_BASE, ev)
        self._history = (action, self._history)

    def illegal_reason(self, action: Action) -> IllegalActionError | None:
        """Why ``action`` is illegal here (the refusal, not raised), or None when it is legal."""
        if self.is_terminal():
            return IllegalActionError("flags.game_over")
        if not isinstance(action, int) or isinstance(action, bool) or action < 0:
            return IllegalActionError("flags.not_an_action", value=json_fact(action))
        pos = self.position
        pending = pos.pending
        seat = pos.to_move
        if pending == NONE:
            if MOVE_BASE <= action < SWAP_BASE:
                lowest, target = decode_move(action)
                return move_reason(pos, lowest, target)
            if SWAP_BASE <= action < TAKE_BASE:
                return swap_reason(pos, action - SWAP_BASE)
            return IllegalActionError("flags.move_or_exchange", seat=seat)
        if pending == CAPTURE:
            return self._take_reason(action)
        if pending == ACTION:
            if action == DONE or action in action_options(pos, pos.colour):
                return None
            return self._action_reason(action)
        if pending == STEAL:
            victim = pos.victim
            if STEAL_BASE <= action < DEAL_BASE and action - STEAL_BASE in pos.hands[victim]:
                return None
            return IllegalActionError("flags.steal_a_card", seat=victim)
        if DEAL_BASE <= action < NUM_ACTIONS and action - DEAL_BASE in pos.to_deal:
            return None
        return IllegalActionError("flags.deal_a_card")

    def _take_reason(self, action: Action) -> IllegalActionError | None:
        pos = self.position
        holder = pos.player
        code = CODES[pos.card]
        if action == DONE:
            return None
        if not TAKE_BASE <= action < SPLIT_BASE:
            return IllegalActionError("flags.capturing", seat=holder, card=code)
        piece, source = decode_take(action)
        name = NAMES[piece]
        if not (PIECES_MASK[pos.card] >> piece) & 1:
            shown = [NAMES[p] for p in bits_of(PIECES_MASK[pos.card])]
            return IllegalActionError("flags.not_shown", piece=name, card=code, shown=shown)
        if source is None:
            if not (pos.bank >> piece) & 1:
                return IllegalActionError("flags.not_in_bank", piece=name)
            return None
        if pos.taken:
            return IllegalActionError("flags.takes_not_mixed")
        if source == holder or source >= len(pos.hands):
            return IllegalActionError("flags.take_from_opponent", seat=holder, source=source)
        if not (pos.scoring[source] >> piece) & 1:
            return IllegalActionError("flags.not_held", seat=source, piece=name)
        return None

    def _action_reason(self, action: Action) -> IllegalActionError:
        pos = self.position
        colour = pos.colour
        seat = pos.to_move
        if colour == "R" and SPLIT_BASE <= action < TRADE_BASE:
            b = action - SPLIT_BASE
            if pos.below[b] >= 0:
                return IllegalActionError("flags.not_bottom", piece=NAMES[b])
            return IllegalActionError("flags.single_pyramid", piece=NAMES[b])
        if colour == "B" and TRADE_BASE <= action < GROW:
            mine, theirs, q = decode_trade(action)
            if not (pos.scoring[seat] >> mine) & 1:
                return IllegalActionError("flags.not_held", seat=seat, piece=NAMES[mine])
            if q == seat or q >= len(pos.hands):
                return IllegalActionError("flags.trade_with_opponent", seat=q)
            return IllegalActionError("flags.not_held", seat=q, piece=NAMES[theirs])
        if colour == "K" and PIRATE_BASE <= action < WILD_BASE:
            q = action - PIRATE_BASE
            if q == seat or q >= len(pos.hands):
                return IllegalActionError("flags.rob_opponent", seat=q)
            return IllegalActionError("flags.no_card", seat=q)
        return IllegalActionError("flags.tree_action", seat=seat, colour=colour)

    def outcome(self) -> Outcome:
        """PF-WIN-4, PF-WIN-5: won by a seat, ranked after a safeguard ending, or ongoing."""
        pos = self.position
        if pos.winner >= 0:
            return Outcome.won_by(pos.winner, len(pos.hands))
        if pos.ranking is not None:
            return Outcome.ranked(pos.ranking)
        return Outcome.ongoing()

    def history(self) -> list[Action]:
        """Every action and chance outcome applied since this state was dealt or loaded."""
        return history_list(self._history)

    def clone(self) -> Self:
        """An independent copy (the position's fields copied as they declare; history shared,
        as it is immutable)."""
        c = _new(type(self))
        c.game = self.game
        c.position = copy_position(self.position)
        c._events = self._events
        c._history = self._history
        return c

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FlagsState):
            return NotImplemented
        return self.game == other.game and self.position == other.position

    __hash__ = None  # type: ignore[assignment]  # mutable state

    # --- read-only accessors ------------------------------------------------------------

    @property
    def bank(self) -> list[int]:
        """Scoring pieces in the bank, in piece order."""
        return bits_of(self.position.bank)

    def scoring(self, seat: int) -> list[int]:
        """Seat's scoring pieces, in piece order."""
        return bits_of(self.position.scoring[seat])

    def points(self, seat: int) -> int:
        """Seat's points under best-trio scoring (PF-WIN-3)."""
        return points(self.position.scoring[seat])

    def hand(self, seat: int) -> list[int]:
        """Seat's hidden cards in the order they came into the hand (do not mutate)."""
        return self.position.hands[seat]

    def scored(self, seat: int) -> list[int]:
        """Seat's face-up cards, in the order they were scored."""
        return list(self.position.scored[seat])

    @property
    def deck(self) -> list[int]:
        """The deck, top first (do not mutate)."""
        return self.position.deck

    @property
    def to_deal(self) -> tuple[int, ...]:
        """The cards of a new start still to deal, in card order."""
        return self.position.to_deal

    @property
    def last_moved(self) -> tuple[int, ...]:
        """The pieces the last move moved, bottom to top; () at the start and after an exchange."""
        return self.position.last

    def below(self, piece: int) -> int:
        """The piece directly under ``piece`` (-1: it stands on the table)."""
        return self.position.below[piece]

    def above(self, piece: int) -> int:
        """The piece directly on ``piece`` (-1: it is a top)."""
        return self.position.above[piece]

    def towers(self) -> list[list[int]]:
        """The towers, each bottom to top, in piece order of their bottoms."""
        return towers(self.position)

    def is_built(self, card: int) -> bool:
        """Whether the card's flag stands on the table (PF-FLAG-1)."""
        return is_built(self.position, card)

    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        return self.position.to_move

    @property
    def turn(self) -> int:
        """The turn number, from 1."""
        return self.position.turn

    @property
    def pending(self) -> int:
        """NONE, CAPTURE, ACTION, STEAL or DEAL."""
        return self.position.pending

    @property
    def pending_info(self) -> dict[str, Any]:
        """The pending decision as the position notation's ``pending`` object ({} if none)."""
        return pending_json(self.position)

    @property
    def winner(self) -> int | None:
        """The winning seat, if any."""
        w = self.position.winner
        return w if w >= 0 else None

    @property
    def ranking(self) -> list[int] | None:
        """A rank per seat after a safeguard ending (1 the best, ties sharing)."""
        r = self.position.ranking
        return None if r is None else list(r)

    def known_cards(self, seat: int) -> int:
        """Bit mask of the hidden cards (not in seat's hand) whose place seat knows."""
        return self.position.known[seat]

    def raw_events(self) -> list[tuple[Any, ...]]:
        """The last apply's events as raw tuples (cheap)."""
        return self._events

    # --- text -------------------------------------------------------------------------------

    def action_to_string(self, action: Action) -> str:
        """The action in the notation (PF-NOTE-1), e.g. ``W1>R2``, ``swap:CZE``, ``take:O2@1``."""
        return action_to_text(action)

    def action_text_for(self, action: Action, viewer: int | None) -> str:
        """The action as ``viewer`` sees it: other players' hidden cards as ``?`` (PF-VIEW-4)."""
        return masked_action_text(self.position, action, viewer)

    def parse_action(self, text: str) -> Action:
        """Parse and check an action here; ActionParseError or IllegalActionError (with why)."""
        action = parse_action(text, len(self.position.hands))
        refused = self.illegal_reason(action)
        if refused is not None:
            raise refused
        return action

    def events(self) -> list[Event]:
        """The last apply's events with their reasons (every card named)."""
        return [from_raw(e, None) for e in self._events]

    def events_for(self, viewer: int | None) -> list[Event]:
        """The last apply's events as ``viewer`` may see them (hidden cards as ``?``)."""
        return [from_raw(e, viewer, masked=True) for e in self._events]

    def to_json(self) -> dict[str, Any]:
        """The position in the contract's JSON notation (PF-NOTE-2)."""
        return position_to_json(self.position)

    def view(self, player: int | None) -> FlagsView:
        """What ``player`` may know (PF-VIEW); None for a spectator."""
        return make_view(self.position, self.game.options, player)

    def __repr__(self) -> str:
        return f"FlagsState({self.to_json()!r})"

    def _repr_svg_(self) -> str:
        """The position drawn as SVG, every hand shown (Jupyter calls this; ``flags.svg``)."""
        from pyramids.flags.svg import position_svg  # here: svg imports this module

        return position_svg(self.position)
