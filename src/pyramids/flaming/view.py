"""What each seat may know (FP-VIEW, contract section 10), and sampling the rest.

A view holds the pyramid, the tiles out of the game, the viewer's own hand, every
hand's and pile's size, and what perfect memory of public events tells: the tiles
that went under each pile, in order, and which of them their owner has drawn since
(those are known to be in that hand until played). Nothing else: no other hand, no
pile order beyond that. ``determinize`` deals the unseen tiles at random into the
unseen places.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pyramids.core.errors import PositionError
from pyramids.core.game import View
from pyramids.flaming.state import DIE, FALL, NONE, FlamingState
from pyramids.flaming.tiles import NAMES, NUM_TILES, col_of, row_of

if TYPE_CHECKING:
    from pyramids.flaming.game import FlamingGame


def _tiles_of(mask: int) -> tuple[int, ...]:
    return tuple(t for t in range(NUM_TILES) if (mask >> t) & 1)


@dataclass(frozen=True)
class FlamingView(View):
    """One seat's knowledge (``player`` None: a spectator's)."""

    player: int | None
    players: int
    options: dict[str, Any]
    to_move: int
    turn: int
    responsible: int
    pending: int
    pending_key: int
    pyramid: tuple[tuple[int, int], ...]
    """(key, tile) pairs."""
    out: tuple[int, ...]
    hand: tuple[int, ...] | None
    """The viewer's own hand (None for a spectator)."""
    hand_sizes: tuple[int, ...]
    pile_sizes: tuple[int, ...]
    pile_known: tuple[tuple[int, ...], ...]
    """Per seat, the publicly known bottom part of the pile, top to bottom."""
    hand_known: tuple[tuple[int, ...], ...]
    """Per seat, hand tiles everyone knows (drawn from the public part of a pile)."""
    unseen: tuple[int, ...]
    """Tiles in the game whose place the viewer does not know."""
    quenched: tuple[tuple[int, int], ...]
    winner: int | None
    ranking: tuple[int, ...] | None

    @property
    def board(self) -> dict[int, int]:
        """Position key -> tile."""
        return dict(self.pyramid)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data; hidden things appear only as counts."""
        data: dict[str, Any] = {
            "viewer": self.player,
            "rules": {k: v for k, v in self.options.items() if k != "first_player"},
            "players": self.players,
            "to_move": self.to_move,
            "turn": self.turn,
            "responsible": self.responsible,
            "pyramid": [
                f"{NAMES[t]}@{row_of(k)},{col_of(k)}"
                for k, t in sorted(self.pyramid, key=lambda kt: (row_of(kt[0]), col_of(kt[0])))
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
                "tile": f"{NAMES[self.board[self.pending_key]]}@{row_of(self.pending_key)},"
                f"{col_of(self.pending_key)}",
            }
        elif self.pending == DIE:
            data["pending"] = {"player": self.responsible, "kind": "die"}
        if self.quenched:
            data["quenched"] = {NAMES[e]: [NAMES[t] for t in _tiles_of(m)] for e, m in self.quenched}
        if self.winner is not None:
            data["winner"] = self.winner
        if self.ranking is not None:
            data["ranking"] = list(self.ranking)
        return data


def make_view(state: FlamingState, player: int | None) -> FlamingView:
    """The view of ``player`` (None: public) of ``state``."""
    n = state.num_players
    if player is not None and not 0 <= player < n:
        raise ValueError(f"no seat {player} in a {n}-player game")
    pile_known = []
    hand_known = []
    visible = 0
    for t in state.board.values():
        visible |= 1 << t
    for seat in range(n):
        pile = state.pile(seat)
        known_part = tuple(pile[state.hidden_count(seat) :])
        pile_known.append(known_part)
        for t in known_part:
            visible |= 1 << t
        hand_known.append(_tiles_of(state.known_in_hand(seat)))
        for t in hand_known[-1]:
            visible |= 1 << t
        if seat == player:
            for t in state.hand(seat):
                visible |= 1 << t
    in_play = visible
    for seat in range(n):
        for t in state.hand(seat):
            in_play |= 1 << t
        for t in state.pile(seat):
            in_play |= 1 << t
    kind, key = state.pending
    return FlamingView(
        player=player,
        players=n,
        options=state.game.options,
        to_move=state.to_move,
        turn=state.turn,
        responsible=state.responsible,
        pending=kind,
        pending_key=key if kind != NONE else 0,
        pyramid=tuple(sorted(state.board.items())),
        out=tuple(state.out),
        hand=None if player is None else tuple(state.hand(player)),
        hand_sizes=tuple(len(state.hand(s)) for s in range(n)),
        pile_sizes=tuple(len(state.pile(s)) for s in range(n)),
        pile_known=tuple(pile_known),
        hand_known=tuple(hand_known),
        unseen=_tiles_of(in_play & ~visible),
        quenched=tuple(sorted(state.quenched.items())),
        winner=state.winner,
        ranking=None if state.ranking is None else tuple(state.ranking),
    )


def determinize(game: FlamingGame, view: FlamingView, rng: random.Random) -> FlamingState:
    """A full state agreeing with ``view``; the unseen tiles are shuffled into unseen places."""
    if view.players != game.num_players:
        raise PositionError("the view and the game have different numbers of players")
    unseen = list(view.unseen)
    rng.shuffle(unseen)
    state = FlamingState(game)
    state._board = dict(view.pyramid)
    state._out = list(view.out)
    n = view.players
    for seat in range(n):
        known = list(view.hand_known[seat])
        if seat == view.player and view.hand is not None:
            hand = list(view.hand)
        else:
            missing = view.hand_sizes[seat] - len(known)
            hand = known + [unseen.pop() for _ in range(missing)]
        state._hands[seat] = sorted(hand)
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
