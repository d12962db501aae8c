"""What each seat may know (FP-VIEW, contract section 10), and sampling the rest.

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
from typing import TYPE_CHECKING, Any, NamedTuple

from pyramids.core.bits import bits_of
from pyramids.core.errors import PositionError
from pyramids.flaming.state import DIE, FALL, NONE, FlamingState
from pyramids.flaming.tiles import NAMES, col_of, row_of

if TYPE_CHECKING:
    from pyramids.flaming.game import FlamingGame


def _at(tile: int, key: int) -> str:
    return f"{NAMES[tile]}@{row_of(key)},{col_of(key)}"


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
    """NONE, FALL or DIE (pyramids.flaming.state)."""
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

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data; hidden things appear only as counts."""
        board = self.board
        data: dict[str, Any] = {
            "viewer": self.player,
            "rules": {k: v for k, v in self.options.items() if k != "first_player"},
            "players": self.players,
            "to_move": self.to_move,
            "turn": self.turn,
            "responsible": self.responsible,
            "pyramid": [
                _at(board[k], k) for k in sorted(board, key=lambda k: (row_of(k), col_of(k)))
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
                "tile": _at(board[self.pending_key], self.pending_key),
            }
        elif self.pending == DIE:
            data["pending"] = {"player": self.responsible, "kind": "die"}
        if self.quenched:
            data["quenched"] = {NAMES[e]: [NAMES[t] for t in bits_of(m)] for e, m in self.quenched}
        if self.winner is not None:
            data["winner"] = self.winner
        if self.ranking is not None:
            data["ranking"] = list(self.ranking)
        return data


def make_view(state: FlamingState, player: int | None) -> FlamingView:
    """The view of ``player`` (None: public) of ``state``."""
    hands = state._hands
    piles = state._piles
    hidden = state._hidden
    n = len(hands)
    if player is not None and not 0 <= player < n:
        raise ValueError(f"no seat {player} in a {n}-player game")
    kind = state._pending
    return FlamingView(
        player=player,
        players=n,
        options=state.game.options,
        to_move=state._to_move,
        turn=state._turn,
        responsible=state._resp,
        pending=kind,
        pending_key=state._pending_key if kind != NONE else 0,
        board=state._board.copy(),
        out=tuple(state._out),
        hand=None if player is None else tuple(hands[player]),
        hand_sizes=tuple([len(h) for h in hands]),
        pile_sizes=tuple([len(p) for p in piles]),
        pile_known=tuple([tuple(p[h:]) for p, h in zip(piles, hidden, strict=True)]),
        hand_known=tuple([tuple(bits_of(m)) if m else () for m in state._known]),
        in_play=state._in_play,
        quenched=tuple(sorted(state._quenched.items())) if state._quenched else (),
        winner=state.winner,
        ranking=None if state._ranking is None else tuple(state._ranking),
    )


def determinize(game: FlamingGame, view: FlamingView, rng: random.Random) -> FlamingState:
    """A full state agreeing with ``view``; the unseen tiles are shuffled into unseen places."""
    if view.players != game.num_players:
        raise PositionError("the view and the game have different numbers of players")
    unseen = list(view.unseen)
    rng.shuffle(unseen)
    state = FlamingState(game)
    state._board = dict(view.board)
    state._out = list(view.out)
    for seat in range(view.players):
        known = list(view.hand_known[seat])
        if seat == view.player and view.hand is not None:
            hand = list(view.hand)
        else:
            missing = view.hand_sizes[seat] - len(known)
            hand = known + [unseen.pop() for _ in range(missing)]
        state._hands[seat] = hand
        hidden = view.pile_sizes[seat] - len(view.pile_known[seat])
        state._piles[seat] = [unseen.pop() for _ in range(hidden)] + list(view.pile_known[seat])
        state._hidden[seat] = hidden
        mask = 0
        for t in known:
            mask |= 1 << t
        state._known[seat] = mask
    if unseen:
        raise PositionError("inconsistent view: more unseen tiles than unseen places")
    state._to_move = view.to_move
    state._turn = view.turn
    state._resp = view.responsible
    state._quenched = dict(view.quenched)
    state._winner = -1 if view.winner is None else view.winner
    state._ranking = None if view.ranking is None else list(view.ranking)
    state._rebuild()
    state._pending = view.pending
    state._pending_key = view.pending_key
    return state
