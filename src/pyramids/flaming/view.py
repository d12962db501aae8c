"""What each seat may know (FP-VIEW-1, FP-VIEW-2, FP-VIEW-3), sampling the rest, fit hints.

A view holds the pyramid, the tiles out of the game, the viewer's own hand, every
hand's and pile's size, and what perfect memory of public events tells: the tiles
that went under each pile, in order, and which of them their owner has drawn since
(those are known to be in that hand until played). Nothing else: no other hand, no
pile order beyond that. ``determinize`` deals the unseen tiles at random into the
unseen places. Views are built on every bot decision, so building one is cheap:
plain copies, with anything derived computed on demand.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, NamedTuple

from pyramids.core.bits import bits_of
from pyramids.core.errors import PositionError
from pyramids.flaming.actions import tile_at
from pyramids.flaming.placement import placement_spots
from pyramids.flaming.position import CHECK, DIE, FALL, NONE, FlamingPosition, rebuild
from pyramids.flaming.tiles import (
    NAMES,
    SUPPORT_LEFT,
    SUPPORT_RIGHT,
    WEIGHT,
    col_of,
    fit_parts,
    fits,
    row_of,
    spot_name,
)


class FlamingView(NamedTuple):
    """One seat's knowledge (``player`` None: a spectator's). Treat every field as read-only.

    A named tuple because bots build one per decision: construction must be cheap.
    """

    player: int | None
    players: int
    options: Mapping[str, Any]
    to_move: int
    turn: int
    responsible: int
    pending: int
    """NONE, FALL, DIE or CHECK (pyramids.flaming.position)."""
    pending_key: int
    """Key of the falling tile or of the ember whose die is pending."""
    board: dict[int, int]
    """Position key -> tile."""
    out: tuple[int, ...]
    hand: tuple[int, ...] | None
    """The viewer's own hand (None for a spectator)."""
    hand_sizes: tuple[int, ...]
    pile_sizes: tuple[int, ...]
    pile_known: tuple[tuple[int, ...], ...]
    """Per seat, the publicly known bottom part of the pile, top to bottom."""
    hand_known: tuple[tuple[int, ...], ...]
    """Per seat, hand tiles everyone knows (drawn from the public part of a pile)."""
    in_play: int
    """Bit mask of the tiles still in the game (public: the tile set less what left it)."""
    quenched: tuple[tuple[int, int], ...]
    winner: int | None
    ranking: tuple[int, ...] | None
    overlooked: bool = False
    """FP-CALL-5, FP-CALL-11: overlooked mayhem stands. Public (anyone who watched the pyramid can tell),
    kept for determinization; ``to_json`` leaves it out, since spotting it is the game."""

    @property
    def game(self) -> str:
        """The game's short name (its registry key)."""
        return "flaming"

    @property
    def pyramid(self) -> tuple[tuple[int, int], ...]:
        """(key, tile) pairs in scan order."""
        return tuple(sorted(self.board.items()))

    @property
    def unseen(self) -> tuple[int, ...]:
        """Tiles in the game whose place the viewer does not know."""
        seen = 0
        for t in self.board.values():
            seen |= 1 << t
        for part in (*self.pile_known, *self.hand_known, self.hand or ()):
            for t in part:
                seen |= 1 << t
        return tuple(bits_of(self.in_play & ~seen))

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.winner is not None or self.ranking is not None

    def _repr_svg_(self) -> str:
        """What this seat may know drawn as SVG (Jupyter calls this; ``flaming.svg``)."""
        from pyramids.flaming.svg import view_svg  # here: svg imports this module

        return view_svg(self)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data; hidden things appear only as counts (and ``overlooked`` not at all)."""
        board = self.board
        data: dict[str, Any] = {
            "viewer": self.player,
            "rules": {k: v for k, v in self.options.items() if k != "first_player"},
            "players": self.players,
            "to_move": self.to_move,
            "turn": self.turn,
            "responsible": self.responsible,
            "pyramid": [
                tile_at(board[k], k) for k in sorted(board, key=lambda k: (row_of(k), col_of(k)))
            ],
            "out": [NAMES[t] for t in self.out],
            "hand": None if self.hand is None else [NAMES[t] for t in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "pile_sizes": list(self.pile_sizes),
            "pile_known": [[NAMES[t] for t in p] for p in self.pile_known],
            "hand_known": [[NAMES[t] for t in h] for h in self.hand_known],
        }
        if self.pending == FALL:
            data["pending"] = {
                "player": self.responsible,
                "kind": "fall",
                "tile": tile_at(board[self.pending_key], self.pending_key),
            }
        elif self.pending == DIE:
            data["pending"] = {"player": self.responsible, "kind": "die"}
        elif self.pending == CHECK:
            data["pending"] = {"player": (self.to_move + 1) % self.players, "kind": "check"}
        if self.quenched:
            data["quenched"] = {NAMES[e]: [NAMES[t] for t in bits_of(m)] for e, m in self.quenched}
        if self.winner is not None:
            data["winner"] = self.winner
        if self.ranking is not None:
            data["ranking"] = list(self.ranking)
        return data


def make_view(pos: FlamingPosition, options: Mapping[str, Any], player: int | None) -> FlamingView:
    """FP-VIEW-1, FP-VIEW-2, FP-VIEW-3: the view of ``player`` (None: public) of ``pos``."""
    hands = pos.hands
    piles = pos.piles
    n = len(hands)
    if player is not None and not 0 <= player < n:
        raise PositionError("flaming.no_such_seat", seat=player, players=n)
    kind = pos.pending
    return FlamingView(
        player=player,
        players=n,
        options=options,
        to_move=pos.to_move,
        turn=pos.turn,
        responsible=pos.responsible,
        pending=kind,
        pending_key=pos.pending_key if kind in (FALL, DIE) else 0,
        board=pos.board.copy(),
        out=tuple(pos.out),
        hand=None if player is None else tuple(hands[player]),
        hand_sizes=tuple([len(h) for h in hands]),
        pile_sizes=tuple([len(p) for p in piles]),
        pile_known=tuple([tuple(p[h:]) for p, h in zip(piles, pos.hidden, strict=True)]),
        hand_known=tuple([tuple(bits_of(m)) if m else () for m in pos.known]),
        in_play=pos.in_play,
        quenched=tuple(sorted(pos.quenched.items())) if pos.quenched else (),
        winner=pos.winner,
        ranking=None if pos.ranking is None else tuple(pos.ranking),
        overlooked=pos.overlooked,
    )


def determinize(view: FlamingView, rng: random.Random) -> FlamingPosition:
    """A full position agreeing with ``view``; the unseen tiles are shuffled into unseen places."""
    unseen = list(view.unseen)
    rng.shuffle(unseen)
    pos = FlamingPosition.empty(view.players)
    pos.board = dict(view.board)
    pos.out = list(view.out)
    for seat in range(view.players):
        known = list(view.hand_known[seat])
        if seat == view.player and view.hand is not None:
            hand = list(view.hand)
        else:
            missing = view.hand_sizes[seat] - len(known)
            hand = known + [unseen.pop() for _ in range(missing)]
        pos.hands[seat] = hand
        hidden = view.pile_sizes[seat] - len(view.pile_known[seat])
        pos.piles[seat] = [unseen.pop() for _ in range(hidden)] + list(view.pile_known[seat])
        pos.hidden[seat] = hidden
        mask = 0
        for t in known:
            mask |= 1 << t
        pos.known[seat] = mask
    if unseen:
        raise PositionError("flaming.inconsistent_view")
    pos.to_move = view.to_move
    pos.turn = view.turn
    pos.responsible = view.responsible
    pos.quenched = dict(view.quenched)
    pos.winner = view.winner
    pos.ranking = None if view.ranking is None else list(view.ranking)
    pos.overlooked = view.overlooked
    rebuild(pos)
    pos.pending = view.pending
    pos.pending_key = view.pending_key
    return pos


def public_position(view: FlamingView) -> FlamingPosition:
    """A position holding only ``view``'s public pyramid facts: the pyramid and the quenched
    embers (no hands or piles), every tile a mayhem candidate: what placement spots and
    the mayhem checks read."""
    pos = FlamingPosition.empty(view.players)
    pos.board = dict(view.board)
    pos.quenched = dict(view.quenched)
    rebuild(pos)
    return pos


def view_spots(view: FlamingView) -> list[int]:
    """The placement spots of ``view``'s pyramid in scan order (FP-PLACE-2, FP-PLACE-3, FP-PLACE-4, FP-PLACE-5; public)."""
    return placement_spots(public_position(view))


def placement_hints(view: FlamingView) -> dict[str, Any] | None:
    """Whether each hand tile fits on each legal spot (FP-FIT-1), when the viewer must place.

    JSON-ready, computed with the engine's ``tiles.fits``::

        {"spots": {"R40": {"1,1": {"fits": false, "too_heavy": true, "mismatch": false,
                                    "weight": 40, "supports": [20, 10]}}}}

    keyed by tile code, then by spot ``row,col``. ``supports`` lists the weights of the
    supports present, left first (empty on the base, where every tile fits, FP-FIT-4);
    ``too_heavy``: the weight is over their sum; ``mismatch``: no shared colour or
    number. None when the viewer has no placement to make (a spectator, another seat's
    turn, a decision pending mid-turn, or the game over). A misfit is still a legal
    placement (FP-PLACE-4): it collapses.
    """
    seat = view.player
    if (
        seat is None
        or view.hand is None
        or view.is_terminal
        or view.pending != NONE
        or view.to_move != seat
        or not view.hand
    ):
        return None
    board = view.board
    spots = view_spots(view)
    hints: dict[str, dict[str, dict[str, Any]]] = {}
    for tile in sorted(view.hand):
        per_spot: dict[str, dict[str, Any]] = {}
        for k in spots:
            left = board.get(k + SUPPORT_LEFT)
            right = board.get(k + SUPPORT_RIGHT)
            present = [s for s in (left, right) if s is not None]
            ok = fits(tile, left, right)
            heavy, mismatch = (False, False) if ok else fit_parts(tile, present)
            per_spot[spot_name(k)] = {
                "fits": ok,
                "too_heavy": heavy,
                "mismatch": mismatch,
                "weight": WEIGHT[tile],
                "supports": [WEIGHT[s] for s in present],
            }
        hints[NAMES[tile]] = per_spot
    return {"spots": hints}
