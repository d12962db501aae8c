"""A Flaming Pyramids position as data, and the pyramid's upkeep as tiles come and go.

``FlamingPosition`` holds every fact of a position in public fields: the pyramid, the
hands and piles, what the public knows of them (FP-VIEW-2), tiles out of the game,
quenched embers, whose turn it is and the decision pending. A few more fields are
derived from the pyramid and kept current by ``add_tile``/``remove_tile``: the forced
spots F (FP-PLACE-3), the base ends (FP-GEOM-6), the keys of embers and ``candidates``,
the places where mayhem may now stand (see ``mayhem``). Copy and equality are derived
from the fields; derived fields are copied but not compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pyramids.core.copying import FieldClone
from pyramids.flaming.tiles import (
    ABOVE_LEFT,
    ABOVE_RIGHT,
    HALF,
    IGNITES,
    IS_EMBER,
    MATERIAL,
    NEIGHBOUR_SET,
    SUPPORT_LEFT,
    SUPPORT_RIGHT,
    col_of,
    is_base,
    key_of,
)

HAND_SIZE = 5
"""FP-SETUP-3, FP-END-1: a hand is drawn up to 5 tiles."""

# Pending decisions in the middle of a turn (CHECK: call-out mode, FP-CALL-2).
NONE, FALL, DIE, CHECK = 0, 1, 2, 3


@dataclass(slots=True)
class FlamingPosition:
    """Every fact of a position (hidden ones included). Tiles are ints, places int keys.

    Mutate it only through the rules functions (``add_tile``/``remove_tile`` keep the
    derived fields current); read any field freely.
    """

    board: dict[int, int]
    """Position key -> tile."""
    hands: list[list[int]]
    """Per seat, the hand in the order its tiles came into it."""
    piles: list[list[int]]
    """Per seat, the draw pile, top first."""
    hidden: list[int]
    """Per seat, how many tiles at the top of the pile nobody saw go there (FP-VIEW-2)."""
    known: list[int]
    """Per seat, bit mask of hand tiles everyone knows (drawn from the public part, FP-VIEW-2)."""
    out: list[int]
    """Tiles removed from the game, in order."""
    quenched: dict[int, int]
    """Quenched ember -> bit mask of the tiles it touched at the roll (FP-DIE-6)."""
    to_move: int = 0
    """The active player."""
    turn: int = 1
    """The turn number, from 1."""
    responsible: int = 0
    """P, who suffers this turn's mayhem (FP-MAYHEM-3)."""
    pending: int = NONE
    """NONE, FALL, DIE or CHECK."""
    pending_key: int = 0
    """Key of the falling tile or of the ember whose die roll is pending."""
    winner: int | None = None
    ranking: list[int] | None = None
    """A rank per seat after max_turns (FP-END-4)."""
    overlooked: bool = False
    """FP-CALL-5: a check ended with mayhem standing, and no right call has resolved it yet."""
    # --- derived from the fields above (copied, not compared) ---
    in_play: int = field(default=0, compare=False)
    """Bit mask of the tiles still in the game (pyramid, hands and piles)."""
    spots: set[int] = field(default_factory=set, compare=False)
    """The forced spots F (FP-PLACE-3)."""
    embers: set[int] = field(default_factory=set, compare=False)
    """Keys of the embers on the pyramid."""
    candidates: set[int] = field(default_factory=set, compare=False)
    """Keys where mayhem may stand (every event is at one of them)."""
    base_lo: int = field(default=0, compare=False)
    base_hi: int = field(default=0, compare=False)
    base_n: int = field(default=0, compare=False)
    """Leftmost and rightmost base columns, and the number of base tiles."""

    @classmethod
    def empty(cls, players: int) -> FlamingPosition:
        """An empty table for ``players`` seats: no tiles anywhere, seat 0 to move."""
        return cls(
            board={},
            hands=[[] for _ in range(players)],
            piles=[[] for _ in range(players)],
            hidden=[0] * players,
            known=[0] * players,
            out=[],
            quenched={},
        )

    @classmethod
    def from_deal(
        cls, tiles: Sequence[int], players: int, first_player: int = 0
    ) -> FlamingPosition:
        """FP-SETUP-1, FP-SETUP-2, FP-SETUP-3, FP-SETUP-4: the position after dealing ``tiles`` (already shuffled) to ``players``.

        Each seat gets an equal pile, the leftovers (embers removed to ``out``) form the
        base, each seat draws a hand of 5 from the top of its pile; ``first_player`` moves.
        """
        pos = cls.empty(players)
        each = len(tiles) // players
        col = 0
        for t in tiles[players * each :]:
            if IS_EMBER[t]:
                pos.out.append(t)
            else:
                pos.board[key_of(0, col)] = t
                col += 2
        for seat in range(players):
            pile = list(tiles[seat * each : (seat + 1) * each])
            pos.hands[seat] = pile[:HAND_SIZE]
            pos.piles[seat] = pile[HAND_SIZE:]
            pos.hidden[seat] = len(pos.piles[seat])
        pos.to_move = pos.responsible = first_player
        rebuild(pos)
        pos.candidates = set()
        return pos

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.hands)

    @property
    def checker(self) -> int:
        """FP-CALL-2: the seat that checks the active player's placement, on their left."""
        return (self.to_move + 1) % len(self.hands)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (a winner, or the max_turns ranking)."""
        return self.winner is not None or self.ranking is not None

    clone = FieldClone["FlamingPosition"]()
    """An independent copy, field by field (written from the dataclass fields on first use)."""

    def _repr_svg_(self) -> str:
        """The position drawn as SVG, every hand shown (Jupyter calls this; ``flaming.svg``)."""
        from pyramids.flaming.svg import position_svg  # here: svg imports this module

        return position_svg(self)


# --- upkeep of the derived fields ---------------------------------------------------


def rebuild(pos: FlamingPosition) -> None:
    """Recompute every derived field from the pyramid, hands and piles (after loading)."""
    board = pos.board
    in_play = 0
    for t in board.values():
        in_play |= 1 << t
    for tiles in (*pos.hands, *pos.piles):
        for t in tiles:
            in_play |= 1 << t
    pos.in_play = in_play
    base = [col_of(k) for k in board if is_base(k)]
    pos.base_n = len(base)
    pos.base_lo = min(base) if base else 0
    pos.base_hi = max(base) if base else 0
    pos.embers = {k for k, t in board.items() if IS_EMBER[t]}
    pos.spots = set()
    for k in board:
        update_spot(pos, k + ABOVE_LEFT)
        update_spot(pos, k + ABOVE_RIGHT)
    _rescan_base(pos, pos.base_lo, pos.base_hi)
    pos.candidates = set(board)


def update_spot(pos: FlamingPosition, k: int) -> None:
    """FP-PLACE-3: recompute whether ``k`` is a forced spot.

    It is when it is empty and in row >= 1 with both supports occupied, or on the base
    strictly between the leftmost and rightmost base tiles.
    """
    board = pos.board
    if k in board:
        pos.spots.discard(k)
        return
    if -HALF < k < HALF:
        forced = pos.base_n >= 2 and pos.base_lo < k < pos.base_hi
    else:
        forced = (k + SUPPORT_LEFT) in board and (k + SUPPORT_RIGHT) in board
    if forced:
        pos.spots.add(k)
    else:
        pos.spots.discard(k)


def _rescan_base(pos: FlamingPosition, lo: int, hi: int) -> None:
    """Recompute base gaps for columns lo..hi (base keys equal their column)."""
    for c in range(lo - (lo % 2), hi + 1, 2):
        update_spot(pos, c)


def ends_quench(mask: int, ember: int, tile: int) -> bool:
    """FP-DIE-6: ``tile`` coming to touch quenched ``ember`` ends the quench.

    It does when the ember ignites it and it did not touch the ember at the roll
    (``mask``: the tiles touching then).
    """
    return bool(MATERIAL[tile] & IGNITES[ember]) and not (mask >> tile) & 1


def add_tile(pos: FlamingPosition, k: int, t: int) -> None:
    """Put tile ``t`` at ``k``: update F, the base ends, the candidates and quenches it ends."""
    board = pos.board
    board[k] = t
    spots = pos.spots
    spots.discard(k)
    cands = pos.candidates
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
        if pos.base_n == 0:
            pos.base_lo = pos.base_hi = k
            pos.base_n = 1
        else:
            pos.base_n += 1
            lo, hi = pos.base_lo, pos.base_hi
            if k < lo:
                pos.base_lo = k
                if k < lo - 2:
                    _rescan_base(pos, k + 2, lo - 2)
            elif k > hi:
                pos.base_hi = k
                if k > hi + 2:
                    _rescan_base(pos, hi + 2, k - 2)
    embers = pos.embers
    if embers:
        quenched = pos.quenched
        for e in embers:
            if (e - k) in NEIGHBOUR_SET:
                cands.add(e)
                if quenched:
                    ember = board[e]
                    mask = quenched.get(ember)
                    if mask is not None and ends_quench(mask, ember, t):
                        del quenched[ember]
    if IS_EMBER[t]:
        embers.add(k)


def remove_tile(pos: FlamingPosition, k: int) -> int:
    """Take the tile at ``k`` off the pyramid and return it (an ember that moves is unquenched)."""
    board = pos.board
    t = board.pop(k)
    cands = pos.candidates
    cands.discard(k)
    above = k + ABOVE_LEFT
    if above in board:
        cands.add(above)
    else:
        pos.spots.discard(above)
    above = k + ABOVE_RIGHT
    if above in board:
        cands.add(above)
    else:
        pos.spots.discard(above)
    if -HALF < k < HALF:
        pos.base_n -= 1
        lo, hi = pos.base_lo, pos.base_hi
        if pos.base_n == 0:
            _rescan_base(pos, lo, hi)
        elif k in (lo, hi):
            while lo not in board:
                lo += 2
            while hi not in board:
                hi -= 2
            old_lo, old_hi = pos.base_lo, pos.base_hi
            pos.base_lo, pos.base_hi = lo, hi
            _rescan_base(pos, old_lo, old_hi)
        else:
            pos.spots.add(k)
    else:
        update_spot(pos, k)
    if IS_EMBER[t]:
        pos.embers.discard(k)
        pos.quenched.pop(t, None)
    return t
