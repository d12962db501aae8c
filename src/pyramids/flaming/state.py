"""The Flaming Pyramids state: the game protocol over a position and the rules functions.

A ``FlamingState`` is a thin wrapper: the game, its rules options, the position
(``position.FlamingPosition``), the actions applied since it was dealt or loaded, and
the raw events of the last action. Copy and equality are derived from its dataclass
fields (the position compares by its own fields; history and events do not count).
The rules themselves are functions in ``rules``, ``placement``, ``mayhem`` and ``turn``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pyramids.core.copying import FieldClone
from pyramids.core.errors import IllegalActionError
from pyramids.core.game import Action, Event, Game, History, Outcome, State, history_list
from pyramids.flaming.actions import (
    DIE_BASE,
    LEFT,
    PLACE_BASE,
    RIGHT,
    action_to_text,
    decode_place,
    parse_action,
    place_action,
)
from pyramids.flaming.events import from_raw
from pyramids.flaming.mayhem import COLLAPSE, CURSE, EXPLOSION, FIRE, FREE_AIR, RawEvent
from pyramids.flaming.options import FlamingOptions
from pyramids.flaming.placement import placement_spots
from pyramids.flaming.position import (
    CHECK,
    DIE,
    FALL,
    HAND_SIZE,
    NONE,
    FlamingPosition,
)
from pyramids.flaming.rules import (
    DIE_OUTCOMES,
    apply_action,
    current_player,
    illegal_reason,
    legal_actions,
)
from pyramids.flaming.text import position_to_json
from pyramids.flaming.turn import outcome
from pyramids.flaming.view import FlamingView, make_view

__all__ = [
    "CHECK",
    "COLLAPSE",
    "CURSE",
    "DIE",
    "DIE_BASE",
    "EXPLOSION",
    "FALL",
    "FIRE",
    "FREE_AIR",
    "HAND_SIZE",
    "LEFT",
    "NONE",
    "PLACE_BASE",
    "RIGHT",
    "FlamingState",
    "decode_place",
    "place_action",
]


@dataclass(slots=True)
class FlamingState(State):
    """A Flaming Pyramids game in progress (all hidden facts included).

    ``game`` is the ``FlamingGame``; ``options`` its rules. Equal states have equal
    games and positions.
    """

    game: Game
    options: FlamingOptions = field(compare=False)
    position: FlamingPosition
    trail: History = field(default=None, compare=False)
    """The actions applied since dealt or loaded, as linked ``(action, earlier)`` pairs
    (``pyramids.core.game.History``): immutable, so a clone shares it."""
    last_events: list[RawEvent] = field(
        default_factory=list, compare=False, metadata={"copy": "share"}
    )
    """The raw events of the last ``apply`` (or of the deal); replaced by each apply, never mutated."""

    # --- the protocol -----------------------------------------------------------------

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return len(self.position.hands)

    def is_terminal(self) -> bool:
        """Whether someone has won or max_turns has ended the game."""
        pos = self.position
        return pos.winner is not None or pos.ranking is not None

    def current_player(self) -> int:
        """The deciding seat: the active player, P for a fall, CHANCE for a die roll."""
        return current_player(self.position)

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions: placements (spot, then tile), fall sides, or die faces."""
        return legal_actions(self.position)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The six die faces, each 1/6, while a fire-die roll is pending (FP-DIE-1)."""
        pos = self.position
        if pos.pending == DIE and not pos.is_over:
            return list(DIE_OUTCOMES)
        return []

    def apply(self, action: Action) -> None:
        """Apply a placement, fall side or die face, then run the mayhem that follows."""
        self.last_events = apply_action(self.position, self.options, action)
        self.trail = (action, self.trail)

    def illegal_reason(self, action: Action) -> IllegalActionError | None:
        """Why ``action`` is illegal here, or None when it is legal."""
        return illegal_reason(self.position, action)

    def outcome(self) -> Outcome:
        """Won by a seat, ranked after the turn limit, or ongoing (FP-END-5 returns)."""
        return outcome(self.position)

    def history(self) -> list[Action]:
        """Every action and chance outcome applied since dealt or loaded, oldest first."""
        return history_list(self.trail)

    clone = FieldClone["FlamingState"]()
    """An independent copy, field by field (written from the dataclass fields on first use)."""

    def placement_spots(self) -> list[int]:
        """The spots the active player may play on, in scan order (FP-PLACE)."""
        return placement_spots(self.position)

    # --- read-only accessors (for views, notation, bots, renderers) -------------------

    @property
    def board(self) -> dict[int, int]:
        """Position key -> tile (do not mutate)."""
        return self.position.board

    def hand(self, seat: int) -> list[int]:
        """Seat's hand in the order the tiles came into it (do not mutate)."""
        return self.position.hands[seat]

    def pile(self, seat: int) -> list[int]:
        """Seat's draw pile, top first (do not mutate)."""
        return self.position.piles[seat]

    @property
    def to_move(self) -> int:
        """The active player."""
        return self.position.to_move

    @property
    def responsible(self) -> int:
        """P: the player who suffers this turn's mayhem (FP-MAYHEM-3, FP-CURSE-3)."""
        return self.position.responsible

    @property
    def turn(self) -> int:
        """The turn number, from 1."""
        return self.position.turn

    @property
    def pending(self) -> tuple[int, int]:
        """(NONE/FALL/DIE/CHECK, key of the falling tile or the rolling ember)."""
        return self.position.pending, self.position.pending_key

    @property
    def checker(self) -> int | None:
        """The seat whose check is pending (FP-CALL-2), or None."""
        pos = self.position
        return pos.checker if pos.pending == CHECK and not pos.is_over else None

    @property
    def overlooked(self) -> bool:
        """Whether overlooked mayhem stands (FP-CALL-5)."""
        return self.position.overlooked

    @property
    def winner(self) -> int | None:
        """The winning seat, if any."""
        return self.position.winner

    @property
    def ranking(self) -> list[int] | None:
        """A rank per seat after max_turns (1 the best, ties sharing)."""
        ranking = self.position.ranking
        return None if ranking is None else list(ranking)

    @property
    def out(self) -> list[int]:
        """Tiles removed from the game during play, in order."""
        return self.position.out

    @property
    def quenched(self) -> dict[int, int]:
        """Quenched ember -> bit mask of the tiles it touched at the roll (FP-DIE-6)."""
        return self.position.quenched

    @property
    def in_play(self) -> int:
        """Bit mask of the tiles still in the game (pyramid, hands and piles)."""
        return self.position.in_play

    def raw_events(self) -> list[tuple[Any, ...]]:
        """The last apply's events as raw tuples (cheap; used by simulations)."""
        return self.last_events

    # --- text --------------------------------------------------------------------------

    def action_to_string(self, action: Action) -> str:
        """``TILE@row,col``, ``left``/``right``, ``die:N``, ``ok`` or ``call:r,c``."""
        return action_to_text(action)

    def parse_action(self, text: str) -> Action:
        """Parse and check an action in this state (see ``actions.parse_action``)."""
        action = parse_action(text)
        refusal = illegal_reason(self.position, action)
        if refusal is not None:
            raise refusal
        return action

    def events(self) -> list[Event]:
        """The last apply's events with their reasons."""
        return [from_raw(e) for e in self.last_events]

    def to_json(self) -> dict[str, Any]:
        """The position in the contract's JSON notation (FP-NOTE-3, FP-NOTE-4, FP-NOTE-5)."""
        return position_to_json(self.position, self.options)

    def view(self, player: int | None) -> FlamingView:
        """What ``player`` may know (FP-VIEW-1); None for a spectator."""
        return make_view(self.position, self.game.options, player)

    def __repr__(self) -> str:
        return f"FlamingState({self.to_json()!r})"

    def _repr_svg_(self) -> str:
        """The position drawn as SVG, every hand shown (Jupyter calls this; ``flaming.svg``)."""
        from pyramids.flaming.svg import position_svg  # here: svg imports this module

        return position_svg(self.position)
