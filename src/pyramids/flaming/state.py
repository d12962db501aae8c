"""The Flaming Pyramids state: the game protocol over the rules (FP-PLACE, FP-END).

The fields and the pyramid's upkeep live in ``pyramid``, the mayhem loop in
``mayhem``; this module applies actions, lists legal ones, and gives read-only
access for views, notation, bots and renderers.
"""

from __future__ import annotations

from typing import Any, Self

from pyramids.core.errors import IllegalActionError
from pyramids.core.game import CHANCE, TERMINAL, Action, Event, Outcome, State
from pyramids.flaming.mayhem import COLLAPSE, CURSE, EXPLOSION, FIRE, FREE_AIR, Mayhem
from pyramids.flaming.pyramid import (
    _KEY_OFFSET,
    DIE,
    DIE_BASE,
    FALL,
    HAND_SIZE,
    LEFT,
    NONE,
    PLACE_BASE,
    RIGHT,
    decode_place,
    place_action,
)
from pyramids.flaming.tiles import NAMES, NEIGHBOURS, SUPPORT_LEFT, SUPPORT_RIGHT, spot_name

__all__ = [
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

_DIE_OUTCOMES = [(DIE_BASE + i, 1 / 6) for i in range(6)]


class FlamingState(Mayhem, State):
    """A Flaming Pyramids game in progress (all hidden facts included)."""

    __slots__ = ()

    # --- the protocol -----------------------------------------------------------------

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return len(self._hands)

    def is_terminal(self) -> bool:
        """Whether someone has won or max_turns has ended the game."""
        return self._winner >= 0 or self._ranking is not None

    def current_player(self) -> int:
        """The deciding seat: the active player, P for a fall, CHANCE for a die roll."""
        if self._winner >= 0 or self._ranking is not None:
            return TERMINAL
        if self._pending == NONE:
            return self._to_move
        if self._pending == FALL:
            return self._resp
        return CHANCE

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions: placements (spot, then tile), fall sides, or die faces."""
        if self._winner >= 0 or self._ranking is not None:
            return []
        pending = self._pending
        if pending == NONE:
            hand = sorted(self._hands[self._to_move])
            return [
                PLACE_BASE + ((k + _KEY_OFFSET) << 6) + t
                for k in self.placement_spots()
                for t in hand
            ]
        if pending == FALL:
            return [LEFT, RIGHT]
        return [DIE_BASE + i for i in range(6)]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The six die faces, each 1/6, while a fire-die roll is pending."""
        if self._pending == DIE and not self.is_terminal():
            return list(_DIE_OUTCOMES)
        return []

    def apply(self, action: Action) -> None:
        """Apply a placement, fall side or die face, then run the mayhem that follows."""
        if self._winner >= 0 or self._ranking is not None:
            raise IllegalActionError("the game is over")
        pending = self._pending
        if pending == NONE:
            a = action - PLACE_BASE
            tile = a & 63
            k = (a >> 6) - _KEY_OFFSET
            seat = self._to_move
            hand = self._hands[seat]
            spots = self._spots
            if (
                a < 0
                or tile not in hand
                or (k not in spots if spots else k not in self.placement_spots())
            ):
                raise IllegalActionError(self.illegal_reason(action) or "illegal action")
            hand.remove(tile)
            self._known[seat] &= ~(1 << tile)
            self._events = [("place", seat, tile, k)]
            self._add(k, tile)
            self._resolve()
            return
        if pending == FALL:
            if action not in (LEFT, RIGHT):
                raise IllegalActionError(self.illegal_reason(action) or "illegal action")
            k = self._pending_key
            self._pending = NONE
            t = self._remove(k)
            target = k + (SUPPORT_LEFT if action == LEFT else SUPPORT_RIGHT)
            self._add(target, t)
            self._events = [("fall", self._resp, t, k, target, action)]
            self._resolve()
            return
        if not DIE_BASE <= action < DIE_BASE + 6:
            raise IllegalActionError(self.illegal_reason(action) or "illegal action")
        roll = action - DIE_BASE + 1
        self._events = []
        k = self._pending_key
        self._pending = NONE
        p = self._resp
        board = self._board
        ember = board[k]
        self._quenched.pop(ember, None)
        if roll <= 4:
            self._burn(k, p, remove_ember=roll == 4, roll=roll)
        elif roll == 5:
            victims = [
                (self._remove(n), n) for n in sorted(k + o for o in NEIGHBOURS if k + o in board)
            ]
            self._remove(k)
            self._to_out(ember)
            self._under(p, [t for t, _ in victims])
            self._events.append(("die_explosion", p, ember, k, tuple(victims)))
        else:
            mask = 0
            for off in NEIGHBOURS:
                nt = board.get(k + off)
                if nt is not None:
                    mask |= 1 << nt
            self._quenched[ember] = mask
            self._events.append(("quench", p, ember, k))
        self._cands.add(k)
        self._resolve()

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is illegal here, or None when it is legal."""
        if self.is_terminal():
            return "the game is over"
        if self._pending == FALL:
            if action in (LEFT, RIGHT):
                return None
            falling = NAMES[self._board[self._pending_key]]
            return (
                f"{falling} at {spot_name(self._pending_key)} is falling: seat {self._resp} "
                "must first choose left or right"
            )
        if self._pending == DIE:
            if DIE_BASE <= action < DIE_BASE + 6:
                return None
            return "a fire-die roll is pending: the next action is die:1 .. die:6"
        if action in (LEFT, RIGHT):
            return "no tile is falling: left and right are only chosen during mayhem"
        if action < PLACE_BASE:
            return "no fire-die roll is pending"
        tile, k = decode_place(action)
        if tile >= len(NAMES):
            return f"{action} is not an action of Flaming Pyramids"
        seat = self._to_move
        if tile not in self._hands[seat]:
            for where, t in self._board.items():
                if t == tile:
                    return f"{NAMES[tile]} is not in seat {seat}'s hand: it is on the pyramid at {spot_name(where)}"
            return f"{NAMES[tile]} is not in seat {seat}'s hand"
        spots = self.placement_spots()
        if k in spots:
            return None
        listing = "; ".join(spot_name(s) for s in spots)
        if k in self._board:
            return f"{spot_name(k)} is taken by {NAMES[self._board[k]]}; seat {seat} must play on one of: {listing}"
        return (
            f"{NAMES[tile]} cannot go at {spot_name(k)}: seat {seat} must play on one of: {listing}"
        )

    def outcome(self) -> Outcome:
        """Won by a seat, ranked after the turn limit, or ongoing."""
        if self._winner >= 0:
            return Outcome.won_by(self._winner, len(self._hands))
        if self._ranking is not None:
            return Outcome.ranked(self._ranking)
        return Outcome.ongoing()

    def returns(self) -> list[float]:
        """1 for the winner, 0 for the others; after max_turns, 1 shared by those ranked first."""
        n = len(self._hands)
        if self._winner >= 0:
            return [1.0 if i == self._winner else 0.0 for i in range(n)]
        if self._ranking is not None:
            firsts = self._ranking.count(1)
            return [1.0 / firsts if r == 1 else 0.0 for r in self._ranking]
        return [0.0] * n

    def clone(self) -> Self:
        """An independent copy (lists copied one level; tiles are ints)."""
        c = object.__new__(type(self))
        c.game = self.game
        c._board = self._board.copy()
        c._hands = [h.copy() for h in self._hands]
        c._piles = [p.copy() for p in self._piles]
        c._hidden = self._hidden.copy()
        c._known = self._known.copy()
        c._in_play = self._in_play
        c._out = self._out.copy()
        c._spots = self._spots.copy()
        c._embers = self._embers.copy()
        c._cands = self._cands.copy()
        c._quenched = self._quenched.copy() if self._quenched else {}
        c._events = self._events
        c._base_lo = self._base_lo
        c._base_hi = self._base_hi
        c._base_n = self._base_n
        c._to_move = self._to_move
        c._turn = self._turn
        c._resp = self._resp
        c._pending = self._pending
        c._pending_key = self._pending_key
        c._winner = self._winner
        c._ranking = self._ranking
        return c

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FlamingState):
            return NotImplemented
        return self._identity() == other._identity()

    __hash__ = None  # type: ignore[assignment]  # mutable state

    def _identity(self) -> tuple[Any, ...]:
        return (
            self.game.num_players,
            self.game.options,
            self._board,
            self._hands,
            self._piles,
            self._hidden,
            self._known,
            self._out,
            self._quenched,
            self._to_move,
            self._turn,
            self._resp,
            self._pending,
            self._pending_key,
            self._winner,
            self._ranking,
        )

    # --- read-only accessors (for views, notation, bots, renderers) -------------------

    @property
    def board(self) -> dict[int, int]:
        """Position key -> tile (do not mutate)."""
        return self._board

    def hand(self, seat: int) -> list[int]:
        """Seat's hand in the order the tiles came into it (do not mutate)."""
        return self._hands[seat]

    def pile(self, seat: int) -> list[int]:
        """Seat's draw pile, top first (do not mutate)."""
        return self._piles[seat]

    @property
    def to_move(self) -> int:
        """The active player."""
        return self._to_move

    @property
    def responsible(self) -> int:
        """P: the player who suffers this turn's mayhem (FP-MAYHEM-2, FP-CURSE)."""
        return self._resp

    @property
    def turn(self) -> int:
        """The turn number, from 1."""
        return self._turn

    @property
    def pending(self) -> tuple[int, int]:
        """(NONE/FALL/DIE, key of the falling tile or the rolling ember)."""
        return self._pending, self._pending_key

    @property
    def winner(self) -> int | None:
        """The winning seat, if any."""
        return self._winner if self._winner >= 0 else None

    @property
    def ranking(self) -> list[int] | None:
        """A rank per seat after max_turns (1 the best, ties sharing)."""
        return None if self._ranking is None else list(self._ranking)

    @property
    def out(self) -> list[int]:
        """Tiles removed from the game during play, in order."""
        return self._out

    @property
    def quenched(self) -> dict[int, int]:
        """Quenched ember -> bit mask of the tiles it touched at the roll (FP-DIE-6)."""
        return self._quenched

    def hidden_count(self, seat: int) -> int:
        """How many tiles at the top of seat's pile nobody has seen go there."""
        return self._hidden[seat]

    @property
    def in_play(self) -> int:
        """Bit mask of the tiles still in the game (pyramid, hands and piles)."""
        return self._in_play

    def known_in_hand(self, seat: int) -> int:
        """Bit mask of seat's hand tiles that everyone knows (drawn from the public pile part)."""
        return self._known[seat]

    def raw_events(self) -> list[tuple[Any, ...]]:
        """The last apply's events as raw tuples (cheap; used by simulations)."""
        return self._events

    # --- text --------------------------------------------------------------------------

    def action_to_string(self, action: Action) -> str:
        """``TILE@row,col``, ``left``/``right`` or ``die:N``."""
        return action_to_text(action)

    def parse_action(self, text: str) -> Action:
        """Parse and check an action in this state (see ``notation.parse_action``)."""
        action = parse_action(text)
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(reason)
        return action

    def events(self) -> list[Event]:
        """The last apply's events with their reasons."""
        return [describe(e) for e in self._events]

    def to_json(self) -> dict[str, Any]:
        """The position in the contract's JSON notation (FP-NOTE)."""
        return position_to_json(self)

    def view(self, player: int | None) -> FlamingView:
        """What ``player`` may know (FP-VIEW); None for a spectator."""
        return make_view(self, player)

    def __repr__(self) -> str:
        return f"FlamingState({self.to_json()!r})"


# Imported last: these modules build on FlamingState (they import this module).
from pyramids.flaming.events import describe  # noqa: E402
from pyramids.flaming.notation import action_to_text, parse_action, position_to_json  # noqa: E402
from pyramids.flaming.view import FlamingView, make_view  # noqa: E402
