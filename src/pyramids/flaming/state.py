"""The Flaming Pyramids rules: placement, the mayhem loop, end of turn (FP-PLACE .. FP-END).

The state is compact and checked incrementally. The pyramid is a dict from position
key to tile (see ``tiles``); the forced spots F are kept up to date as tiles come and
go; and mayhem is looked for only around what changed. That is exactly the contract's
full scan: at rest no event stands anywhere, an event can only appear where a tile or
one of its neighbours changed, so the set of changed places (``_cands``) holds every
event, and the smallest key among them is the first in scan order. A position read
from JSON starts with every tile as a candidate, so standing mayhem in a hand-made
position is found by the first scan.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from pyramids.core.errors import IllegalActionError
from pyramids.core.game import CHANCE, TERMINAL, Action, Event, State
from pyramids.flaming.tiles import (
    ABOVE_LEFT,
    ABOVE_RIGHT,
    COLOUR,
    HALF,
    IGNITES,
    IS_EMBER,
    MATERIAL,
    MAX_ROW,
    NAMES,
    NEIGHBOUR_SET,
    NEIGHBOURS,
    ROW,
    SUPPORT_LEFT,
    SUPPORT_RIGHT,
    WEIGHT,
    col_of,
    is_base,
    key_of,
    spot_name,
)

if TYPE_CHECKING:
    from pyramids.flaming.game import FlamingGame

# Actions: two fall directions, six die faces, then placements (tile + spot).
LEFT: Action = 0
RIGHT: Action = 1
DIE_BASE: Action = 2  # die:1 is 2 ... die:6 is 7
PLACE_BASE: Action = 8
_KEY_OFFSET = MAX_ROW * ROW + HALF
HAND_SIZE = 5

# Pending decisions in the middle of a turn.
NONE, FALL, DIE = 0, 1, 2

# Mayhem check categories, in the contract's order (FP-MAYHEM-1).
FREE_AIR, COLLAPSE, EXPLOSION, FIRE, CURSE = 1, 2, 3, 4, 5
_NO_EVENT = 9

_DIE_OUTCOMES = [(DIE_BASE + i, 1 / 6) for i in range(6)]


def place_action(tile: int, key: int) -> Action:
    """The action that plays ``tile`` at position ``key``."""
    return PLACE_BASE + ((key + _KEY_OFFSET) << 6) + tile


def decode_place(action: Action) -> tuple[int, int]:
    """(tile, key) of a placement action."""
    a = action - PLACE_BASE
    return a & 63, (a >> 6) - _KEY_OFFSET


class FlamingState(State):
    """A Flaming Pyramids game in progress (all hidden facts included)."""

    __slots__ = (
        "_base_hi",
        "_base_lo",
        "_base_n",
        "_board",
        "_cands",
        "_embers",
        "_events",
        "_hands",
        "_hidden",
        "_in_play",
        "_known",
        "_out",
        "_pending",
        "_pending_key",
        "_piles",
        "_quenched",
        "_ranking",
        "_resp",
        "_spots",
        "_to_move",
        "_turn",
        "_winner",
        "game",
    )

    game: FlamingGame
    _board: dict[int, int]
    _hands: list[list[int]]
    _piles: list[list[int]]
    _hidden: list[int]
    _known: list[int]
    _in_play: int
    _out: list[int]
    _spots: set[int]
    _embers: set[int]
    _cands: set[int]
    _quenched: dict[int, int]
    _events: list[tuple[Any, ...]]
    _ranking: list[int] | None

    def __init__(self, game: FlamingGame) -> None:
        self.game = game
        n = game.num_players
        self._board = {}
        self._hands = [[] for _ in range(n)]
        self._piles = [[] for _ in range(n)]
        self._hidden = [0] * n
        self._known = [0] * n
        self._in_play = 0
        self._out = []
        self._spots = set()
        self._embers = set()
        self._cands = set()
        self._quenched = {}
        self._events = []
        self._base_lo = 0
        self._base_hi = 0
        self._base_n = 0
        self._to_move = 0
        self._turn = 1
        self._resp = 0
        self._pending = NONE
        self._pending_key = 0
        self._winner = -1
        self._ranking = None

    # --- derived structures ---------------------------------------------------------

    def _rebuild(self) -> None:
        """Recompute spots, base bounds and ember keys from the board (after loading)."""
        board = self._board
        in_play = 0
        for t in board.values():
            in_play |= 1 << t
        for tiles in (*self._hands, *self._piles):
            for t in tiles:
                in_play |= 1 << t
        self._in_play = in_play
        base = [col_of(k) for k in board if is_base(k)]
        self._base_n = len(base)
        self._base_lo = min(base) if base else 0
        self._base_hi = max(base) if base else 0
        self._embers = {k for k, t in board.items() if IS_EMBER[t]}
        self._spots = set()
        for k in board:
            self._spot_update(k + ABOVE_LEFT)
            self._spot_update(k + ABOVE_RIGHT)
        self._rescan_base(self._base_lo, self._base_hi)
        self._cands = set(board)

    def _spot_update(self, k: int) -> None:
        """Recompute whether the empty position ``k`` is a forced spot (FP-PLACE-3)."""
        board = self._board
        if k in board:
            self._spots.discard(k)
            return
        if -HALF < k < HALF:
            is_spot = self._base_n >= 2 and self._base_lo < k < self._base_hi
        else:
            is_spot = (k + SUPPORT_LEFT) in board and (k + SUPPORT_RIGHT) in board
        if is_spot:
            self._spots.add(k)
        else:
            self._spots.discard(k)

    def _rescan_base(self, lo: int, hi: int) -> None:
        """Recompute base gaps for columns lo..hi (base keys equal their column)."""
        for c in range(lo - (lo % 2), hi + 1, 2):
            self._spot_update(c)

    # --- board mutations ------------------------------------------------------------

    def _add(self, k: int, t: int) -> None:
        """Put tile ``t`` at ``k`` and mark what may now have an event."""
        board = self._board
        board[k] = t
        spots = self._spots
        spots.discard(k)
        cands = self._cands
        cands.add(k)
        above = k + ABOVE_LEFT
        if above in board:
            cands.add(above)
        elif (above + SUPPORT_LEFT) in board:
            spots.add(above)
        above = k + ABOVE_RIGHT
        if above in board:
            cands.add(above)
        elif (above + SUPPORT_RIGHT) in board:
            spots.add(above)
        if -HALF < k < HALF:
            if self._base_n == 0:
                self._base_lo = self._base_hi = k
                self._base_n = 1
            else:
                self._base_n += 1
                lo, hi = self._base_lo, self._base_hi
                if k < lo:
                    self._base_lo = k
                    if k < lo - 2:
                        self._rescan_base(k + 2, lo - 2)
                elif k > hi:
                    self._base_hi = k
                    if k > hi + 2:
                        self._rescan_base(hi + 2, k - 2)
        embers = self._embers
        if embers:
            for e in embers:
                if (e - k) in NEIGHBOUR_SET:
                    cands.add(e)
        if IS_EMBER[t]:
            embers.add(k)

    def _remove(self, k: int) -> int:
        """Take the tile at ``k`` off the pyramid and return it."""
        board = self._board
        t = board.pop(k)
        cands = self._cands
        cands.discard(k)
        above = k + ABOVE_LEFT
        if above in board:
            cands.add(above)
        else:
            self._spots.discard(above)
        above = k + ABOVE_RIGHT
        if above in board:
            cands.add(above)
        else:
            self._spots.discard(above)
        if -HALF < k < HALF:
            self._base_n -= 1
            lo, hi = self._base_lo, self._base_hi
            if self._base_n == 0:
                self._rescan_base(lo, hi)
            elif k in (lo, hi):
                while lo not in board:
                    lo += 2
                while hi not in board:
                    hi -= 2
                old_lo, old_hi = self._base_lo, self._base_hi
                self._base_lo, self._base_hi = lo, hi
                self._rescan_base(old_lo, old_hi)
            else:
                self._spots.add(k)
        else:
            self._spot_update(k)
        if IS_EMBER[t]:
            self._embers.discard(k)
            self._quenched.pop(t, None)
        return t

    def _to_out(self, t: int) -> None:
        """Tile ``t`` leaves the game for good."""
        self._out.append(t)
        self._in_play &= ~(1 << t)

    def _under(self, seat: int, tiles: list[int]) -> None:
        """Tiles go under ``seat``'s draw pile, in the given order (public knowledge)."""
        self._piles[seat].extend(tiles)

    # --- mayhem ---------------------------------------------------------------------

    def _category(self, k: int, t: int) -> int:
        """The first check category that finds an event at ``k`` (0 for none)."""
        board = self._board
        s1 = s2 = None
        if k < -HALF:  # row >= 1
            s1 = board.get(k + SUPPORT_LEFT)
            s2 = board.get(k + SUPPORT_RIGHT)
            w = WEIGHT[t]
            if s1 is None:
                if s2 is None:
                    return FREE_AIR
                if w > WEIGHT[s2] or (COLOUR[t] & COLOUR[s2] == 0 and w != WEIGHT[s2]):
                    return COLLAPSE
            elif s2 is None:
                if w > WEIGHT[s1] or (COLOUR[t] & COLOUR[s1] == 0 and w != WEIGHT[s1]):
                    return COLLAPSE
            else:
                w1 = WEIGHT[s1]
                w2 = WEIGHT[s2]
                if w > w1 + w2 or (
                    COLOUR[t] & (COLOUR[s1] | COLOUR[s2]) == 0 and w not in (w1, w2)
                ):
                    return COLLAPSE
        if IS_EMBER[t]:
            embers = self._embers
            ignites = IGNITES[t]
            quench = self._quenched.get(t, 0)
            fire = False
            for off in NEIGHBOURS:
                n = k + off
                if n in embers:
                    return EXPLOSION
                nt = board.get(n)
                if nt is not None and MATERIAL[nt] & ignites and not (quench >> nt) & 1:
                    fire = True
            if fire:
                return FIRE
        if (
            s2 is not None
            and s1 is not None
            and self.game.curse_on
            and WEIGHT[t] == WEIGHT[s1] == WEIGHT[s2]
        ):
            return CURSE
        return 0

    def _first_event(self) -> tuple[int, int]:
        """(category, key) of the first event in check order and scan order, or (0, 0)."""
        board = self._board
        best_cat = _NO_EVENT
        best_k = 0
        live = []
        for k in self._cands:
            t = board.get(k)
            if t is None:
                continue
            cat = self._category(k, t)
            if cat:
                live.append(k)
                if cat < best_cat or (cat == best_cat and k < best_k):
                    best_cat = cat
                    best_k = k
        if best_cat == _NO_EVENT:
            self._cands = set()
            return 0, 0
        self._cands = set(live)
        return best_cat, best_k

    def _resolve(self) -> None:
        """Run the mayhem loop until a decision is needed or the turn ends (FP-MAYHEM)."""
        events = self._events
        while True:
            if self._cands:
                cat, k = self._first_event()
            else:
                cat = 0
            if cat == 0:
                self._end_turn()
                return
            board = self._board
            p = self._resp
            if cat == FREE_AIR:
                events.append(("free_air", p, board[k], k))
                self._pending = FALL
                self._pending_key = k
                return
            if cat == COLLAPSE:
                t = board[k]
                gone = []
                for s in (k + SUPPORT_LEFT, k + SUPPORT_RIGHT):
                    if s in board:
                        gone.append((self._remove(s), s))
                self._under(p, [g for g, _ in gone])
                events.append(("collapse", p, t, k, tuple(gone)))
                self._pending = FALL
                self._pending_key = k
                return
            if cat == EXPLOSION:
                self._explode(k, p)
            elif cat == FIRE:
                if self.game.options_obj.fire_die:
                    self._pending = DIE
                    self._pending_key = k
                    events.append(("fire_found", p, board[k], k))
                    return
                self._burn(k, p, remove_ember=True, roll=0)
            else:
                self._curse(k, p)

    def _explode(self, k: int, p: int) -> None:
        """FP-EXPLODE: the touching embers leave the game, their neighbours go to P."""
        board = self._board
        embers = self._embers
        group = [k]
        seen = {k}
        for e in group:
            for off in NEIGHBOURS:
                n = e + off
                if n in embers and n not in seen:
                    seen.add(n)
                    group.append(n)
        victims = sorted(
            {e + off for e in group for off in NEIGHBOURS if (e + off) in board} - seen
        )
        group.sort()
        ember_tiles = [(self._remove(e), e) for e in group]
        victim_tiles = [(self._remove(v), v) for v in victims]
        for t, _ in ember_tiles:
            self._to_out(t)
        self._under(p, [t for t, _ in victim_tiles])
        self._events.append(("explosion", p, tuple(ember_tiles), tuple(victim_tiles)))

    def _burn(self, k: int, p: int, *, remove_ember: bool, roll: int) -> None:
        """FP-FIRE: burn every tile the ember ignites that a chain of such tiles connects."""
        board = self._board
        ember = board[k]
        ignites = IGNITES[ember]
        burnt = {k}
        queue = [k]
        for q in queue:
            for off in NEIGHBOURS:
                n = q + off
                if n not in burnt:
                    nt = board.get(n)
                    if nt is not None and MATERIAL[nt] & ignites:
                        burnt.add(n)
                        queue.append(n)
        burnt.discard(k)
        victims = [(self._remove(v), v) for v in sorted(burnt)]
        self._quenched.pop(ember, None)
        self._under(p, [t for t, _ in victims])
        if remove_ember:
            self._remove(k)
            self._to_out(ember)
        self._events.append(("fire", p, ember, k, tuple(victims), remove_ember, roll))

    def _curse(self, k: int, p: int) -> None:
        """FP-CURSE: the trio goes to the player on P's right, who becomes P."""
        target = (p - 1) % len(self._hands)
        trio = [(self._remove(s), s) for s in (k, k + SUPPORT_LEFT, k + SUPPORT_RIGHT)]
        self._under(target, [t for t, _ in trio])
        self._resp = target
        self._events.append(("curse", p, target, tuple(trio)))

    def _end_turn(self) -> None:
        """FP-END: the active player draws up to 5, may win; otherwise play passes left."""
        a = self._to_move
        hand = self._hands[a]
        pile = self._piles[a]
        drawn = 0
        while len(hand) < HAND_SIZE and pile:
            t = pile.pop(0)
            if self._hidden[a]:
                self._hidden[a] -= 1
            else:
                self._known[a] |= 1 << t
            hand.append(t)
            drawn += 1
        events = self._events
        if drawn:
            events.append(("draw", a, drawn))
        if not hand and not pile:
            self._winner = a
            events.append(("win", a))
            return
        if self._turn >= self.game.options_obj.max_turns:
            left = [len(h) + len(pl) for h, pl in zip(self._hands, self._piles, strict=True)]
            self._ranking = [1 + sum(1 for x in left if x < mine) for mine in left]
            events.append(("max_turns", tuple(self._ranking)))
            return
        nxt = (a + 1) % len(self._hands)
        self._to_move = nxt
        self._resp = nxt
        self._turn += 1

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

    def placement_spots(self) -> list[int]:
        """The spots the active player may play on, in scan order (FP-PLACE)."""
        if self._spots:
            return sorted(self._spots)
        if not self._base_n:
            return [key_of(0, 0)]
        return [self._base_lo - 2, self._base_hi + 2]

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
