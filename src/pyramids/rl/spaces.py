"""Fixed-size action indices and observation vectors for both games (docs/RL.md).

The engines number actions sparsely (a Flaming Pyramids placement packs a position
key into a large int; Pyramids and Flags actions name absolute seats). Learning code
wants a fixed ``Discrete(n)`` action space, a mask of the legal indices and a fixed
float vector per decision. An ``Encoding`` gives all three, per game:

- ``index_table(legal, seat)`` maps each legal engine action to its index (and back),
  so the mapping never needs anything but the legal list and the deciding seat;
- ``observe(view)`` builds a float32 vector from one seat's ``view`` only, never from
  the hidden state. Seats are counted from the viewer (0 = the viewer, 1 = the next
  seat in turn order ...), padded to the game's maximum number of players, so one
  vector shape fits every player count.

Chance outcomes (fire-die faces, a pirate's steal, a new start's deal) are never
agent actions: the environments resolve them with their own seeded generator.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pyramids.core.game import Action, Game, State
from pyramids.flags.actions import (
    GROW,
    MOVE_BASE,
    PIRATE_BASE,
    SPLIT_BASE,
    STEAL_BASE,
    SWAP_BASE,
    TAKE_BASE,
    TRADE_BASE,
    WILD_BASE,
    WILD_COLOURS,
)
from pyramids.flags.actions import (
    MAX_PLAYERS as FLAGS_MAX_PLAYERS,
)
from pyramids.flags.cards import BY_CODE, NUM_CARDS
from pyramids.flags.pieces import BY_NAME as PIECE_BY_NAME
from pyramids.flags.pieces import FIRST_SCORING, NUM_FLAG_PIECES, NUM_PIECES
from pyramids.flags.scoring import points
from pyramids.flags.view import FlagsView
from pyramids.flaming.state import DIE, FALL, LEFT, NONE, PLACE_BASE, RIGHT, decode_place
from pyramids.flaming.tiles import NUM_TILES, col_of, row_of
from pyramids.flaming.view import FlamingView

Obs = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

OBS_LOW = -8.0
OBS_HIGH = 8.0
"""Every observation value is clipped to this range (the Box bounds of the spaces)."""


class Encoding(abc.ABC):
    """One game's fixed action indices and observation vector, for a given engine game."""

    num_actions: int
    """Size of the Discrete action space."""
    max_players: int
    layout: tuple[tuple[str, tuple[int, ...]], ...]
    """Named parts of the observation vector, in order, with their shapes."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = game.num_players

    @property
    def obs_size(self) -> int:
        """Length of the observation vector."""
        return sum(int(np.prod(shape)) for _, shape in self.layout)

    def slices(self) -> dict[str, slice]:
        """Where each named part sits in the observation vector."""
        out = {}
        start = 0
        for name, shape in self.layout:
            size = int(np.prod(shape))
            out[name] = slice(start, start + size)
            start += size
        return out

    @abc.abstractmethod
    def to_index(self, action: Action, seat: int) -> int:
        """The index of engine ``action`` decided by ``seat`` (-1 when it has no index)."""

    def index_table(self, legal: Sequence[Action], seat: int) -> dict[int, Action]:
        """Index -> engine action for every legal action that has an index."""
        table = {}
        for a in legal:
            i = self.to_index(a, seat)
            if i >= 0:
                table[i] = a
        return table

    def mask(self, legal: Sequence[Action], seat: int) -> Mask:
        """The int8 mask (1 = legal) of ``legal`` as indices."""
        m = np.zeros(self.num_actions, dtype=np.int8)
        for i in self.index_table(legal, seat):
            m[i] = 1
        return m

    def legal_indices(self, state: State) -> list[int]:
        """The sorted indices of the legal actions of the seat deciding in ``state``."""
        seat = state.current_player()
        if seat < 0:
            return []
        return sorted(self.index_table(state.legal_actions(), seat))

    def to_engine(self, index: int, legal: Sequence[Action], seat: int) -> Action:
        """The engine action of ``index``; ValueError when it is not among ``legal``."""
        action = self.index_table(legal, seat).get(int(index))
        if action is None:
            raise ValueError(f"action index {index} is not legal here")
        return action

    @abc.abstractmethod
    def observe(self, view: Any, seat: int | None = None, out: Obs | None = None) -> Obs:
        """The observation vector of ``view``, seats counted from ``seat`` (default: the viewer)."""

    def _buffer(self, out: Obs | None) -> Obs:
        if out is None:
            return np.zeros(self.obs_size, dtype=np.float32)
        out.fill(0.0)
        return out

    def _parts(self, buf: Obs) -> dict[str, Obs]:
        return {
            name: buf[sl].reshape(shape)
            for (name, shape), sl in zip(self.layout, self.slices().values(), strict=True)
        }


# --- Flaming Pyramids ---------------------------------------------------------------

FLAMING_MAX_PLAYERS = 6
MAX_SPOTS = 16
"""Placement spots addressable by an index; spots past the 16th in scan order are not."""
FALL_LEFT = 0
FALL_RIGHT = 1
PLACE_OFFSET = 2
FLAMING_NUM_ACTIONS = PLACE_OFFSET + NUM_TILES * MAX_SPOTS
"""722: left, right, then tile * MAX_SPOTS + spot slot."""

_TILE_FEATURES = (
    "on_pyramid",
    "row",
    "col",
    "in_my_hand",
    "out",
    "unseen",
    "absent",
    "quenched",
    "falling",
    "burning",
    *(f"known_in_hand_{j}" for j in range(FLAMING_MAX_PLAYERS)),
    *(f"known_in_pile_{j}" for j in range(FLAMING_MAX_PLAYERS)),
    "pile_position",
)
_SEAT_FEATURES = (
    "present",
    "hand_size",
    "pile_size",
    "to_move",
    "responsible",
    "pile_known",
    "first",
)
_PRESETS = ("basic", "family", "standard")
_FLAMING_GLOBAL = (
    "pending_none",
    "pending_fall",
    "pending_die",
    "my_decision",
    "turn",
    *(f"preset_{p}" for p in _PRESETS),
    "curse",
    "fire_die",
    "terminal",
    "players",
)
_ROW_SCALE = 10.0
_COL_SCALE = 20.0


def place_index(tile: int, slot: int) -> int:
    """The index of playing ``tile`` on the ``slot``-th placement spot in scan order."""
    return PLACE_OFFSET + tile * MAX_SPOTS + slot


def decode_place_index(index: int) -> tuple[int, int]:
    """(tile, spot slot) of a placement index."""
    return divmod(index - PLACE_OFFSET, MAX_SPOTS)


class FlamingEncoding(Encoding):
    """Flaming Pyramids: 722 action indices and a 1137-float observation.

    Actions: 0 = fall left, 1 = fall right, ``2 + tile * 16 + slot`` = play ``tile``
    (0..44, the engine's tile order) on the ``slot``-th placement spot, spots taken in
    scan order (FP-GEOM-4). The slots are the distinct spots of the legal placements,
    so the table needs only the legal list. Die faces are chance, not actions.
    """

    num_actions = FLAMING_NUM_ACTIONS
    max_players = FLAMING_MAX_PLAYERS
    layout = (
        ("tiles", (NUM_TILES, len(_TILE_FEATURES))),
        ("spots", (MAX_SPOTS, 3)),
        ("seats", (FLAMING_MAX_PLAYERS, len(_SEAT_FEATURES))),
        ("global", (len(_FLAMING_GLOBAL),)),
    )
    tile_features = _TILE_FEATURES
    seat_features = _SEAT_FEATURES
    global_features = _FLAMING_GLOBAL

    def index_table(self, legal: Sequence[Action], seat: int) -> dict[int, Action]:
        """Index -> engine action; placement slots follow the legal spots in scan order."""
        table: dict[int, Action] = {}
        keys: dict[int, int] = {}
        for a in legal:
            if a in (LEFT, RIGHT):
                table[FALL_LEFT if a == LEFT else FALL_RIGHT] = a
            elif a >= PLACE_BASE:
                keys.setdefault(decode_place(a)[1], 0)
        slot_of = {k: i for i, k in enumerate(sorted(keys))}
        for a in legal:
            if a >= PLACE_BASE:
                tile, key = decode_place(a)
                slot = slot_of[key]
                if slot < MAX_SPOTS:
                    table[place_index(tile, slot)] = a
        return table

    def to_index(self, action: Action, seat: int) -> int:
        """Only falls have an index without the legal list (placements need the spot order)."""
        if action == LEFT:
            return FALL_LEFT
        if action == RIGHT:
            return FALL_RIGHT
        return -1

    def spots(self, view: FlamingView) -> list[int]:
        """The placement spots of ``view``'s pyramid in scan order (public: the board decides)."""
        probe = self.game.determinize(view, random.Random(0))
        return probe.placement_spots()  # type: ignore[attr-defined, no-any-return]

    def observe(self, view: Any, seat: int | None = None, out: Obs | None = None) -> Obs:
        """The vector of a FlamingView (see docs/RL.md for every feature)."""
        if not isinstance(view, FlamingView):
            raise TypeError("FlamingEncoding observes FlamingView objects")
        me = seat if seat is not None else (view.player if view.player is not None else 0)
        n = view.players
        buf = self._buffer(out)
        parts = self._parts(buf)
        tiles = parts["tiles"]
        f = {name: i for i, name in enumerate(_TILE_FEATURES)}
        board = view.board
        base = [col_of(k) for k in board if row_of(k) == 0]
        ref = min(base) if base else 0

        def rel(s: int) -> int:
            return (s - me) % n

        for key, t in board.items():
            tiles[t, f["on_pyramid"]] = 1.0
            tiles[t, f["row"]] = row_of(key) / _ROW_SCALE
            tiles[t, f["col"]] = (col_of(key) - ref) / _COL_SCALE
        if view.hand is not None:
            for t in view.hand:
                tiles[t, f["in_my_hand"]] = 1.0
        for t in view.out:
            tiles[t, f["out"]] = 1.0
        for t in view.unseen:
            tiles[t, f["unseen"]] = 1.0
        out_set = set(view.out)
        for t in range(NUM_TILES):
            if not (view.in_play >> t) & 1 and t not in out_set:
                tiles[t, f["absent"]] = 1.0
        for ember, _ in view.quenched:
            tiles[ember, f["quenched"]] = 1.0
        if view.pending == FALL and view.pending_key in board:
            tiles[board[view.pending_key], f["falling"]] = 1.0
        if view.pending == DIE and view.pending_key in board:
            tiles[board[view.pending_key], f["burning"]] = 1.0
        for s in range(n):
            j = rel(s)
            for t in view.hand_known[s]:
                tiles[t, f[f"known_in_hand_{j}"]] = 1.0
            known = view.pile_known[s]
            hidden = view.pile_sizes[s] - len(known)
            for i, t in enumerate(known):
                tiles[t, f[f"known_in_pile_{j}"]] = 1.0
                tiles[t, f["pile_position"]] = (hidden + i + 1) / NUM_TILES
        for i, key in enumerate(self.spots(view)[:MAX_SPOTS]):
            parts["spots"][i] = (1.0, row_of(key) / _ROW_SCALE, (col_of(key) - ref) / _COL_SCALE)
        seats = parts["seats"]
        g = {name: i for i, name in enumerate(_SEAT_FEATURES)}
        for s in range(n):
            j = rel(s)
            seats[j, g["present"]] = 1.0
            seats[j, g["hand_size"]] = view.hand_sizes[s] / 5.0
            seats[j, g["pile_size"]] = view.pile_sizes[s] / NUM_TILES
            seats[j, g["to_move"]] = float(view.to_move == s)
            seats[j, g["responsible"]] = float(view.responsible == s)
            seats[j, g["pile_known"]] = len(view.pile_known[s]) / NUM_TILES
            first = view.winner == s or (view.ranking is not None and view.ranking[s] == 1)
            seats[j, g["first"]] = float(first)
        glob = parts["global"]
        h = {name: i for i, name in enumerate(_FLAMING_GLOBAL)}
        glob[h[("pending_none", "pending_fall", "pending_die")[view.pending]]] = 1.0
        decider = (
            view.to_move
            if view.pending == NONE
            else view.responsible
            if view.pending == FALL
            else -1
        )
        glob[h["my_decision"]] = float(decider == me and not view.is_terminal)
        options: Mapping[str, Any] = view.options
        glob[h["turn"]] = view.turn / max(1, int(options.get("max_turns", 1000)))
        preset = str(options.get("preset", "standard"))
        if preset in _PRESETS:
            glob[h[f"preset_{preset}"]] = 1.0
        glob[h["curse"]] = float(bool(options.get("curse")))
        glob[h["fire_die"]] = float(bool(options.get("fire_die")))
        glob[h["terminal"]] = float(view.is_terminal)
        glob[h["players"]] = n / FLAMING_MAX_PLAYERS
        np.clip(buf, OBS_LOW, OBS_HIGH, out=buf)
        return buf


# --- Pyramids and Flags -------------------------------------------------------------

FLAGS_NUM_ACTIONS = STEAL_BASE
"""1044: the engine's own numbers below the chance outcomes, with seats made relative."""
TREE_COLOURS = "RBGYKW"
_PENDING_KINDS = ("none", "capture", "action", "steal", "deal")
_NUM_SCORING = NUM_PIECES - FIRST_SCORING
_CARD_FEATURES = (
    "in_my_hand",
    *(f"scored_{j}" for j in range(FLAGS_MAX_PLAYERS)),
    *(f"known_in_hand_{j}" for j in range(FLAGS_MAX_PLAYERS)),
    "known_in_deck",
    "deck_position",
    "unknown",
    "capturing",
)
_FLAGS_SEAT_FEATURES = ("present", "hand_size", "points", "scored", "to_move", "first")
_FLAGS_GLOBAL = (
    "deck_size",
    "turn",
    *(f"pending_{k}" for k in _PENDING_KINDS),
    "my_decision",
    *(f"action_{c}" for c in TREE_COLOURS),
    *(f"tree_{c}" for c in TREE_COLOURS),
    *(f"steal_from_{j}" for j in range(FLAGS_MAX_PLAYERS)),
    "actions_option",
    "terminal",
    "players",
)


def _seat_field(action: Action) -> tuple[int, int, int] | None:
    """(base, seat, offset) of an action that names a seat, else None: action = base + offset + seat.

    Takes carry 0 for the bank and 1 + seat (offset 1); trades and pirates the seat itself.
    """
    if TAKE_BASE <= action < SPLIT_BASE:
        src = (action - TAKE_BASE) % (FLAGS_MAX_PLAYERS + 1)
        return (action - src, src - 1, 1) if src else None
    if TRADE_BASE <= action < GROW:
        seat = (action - TRADE_BASE) % FLAGS_MAX_PLAYERS
        return action - seat, seat, 0
    if PIRATE_BASE <= action < WILD_BASE:
        return PIRATE_BASE, action - PIRATE_BASE, 0
    return None


class FlagsEncoding(Encoding):
    """Pyramids and Flags: 1044 action indices and a 951-float observation.

    The indices are the engine's numbers (``flags.actions``: done 0, moves, swaps,
    takes, splits, trades, grow, newstart, pirate, wild), except that every seat an
    action names (``take:P@S``, ``trade:M:T@S``, ``pirate:S``) is counted from the
    deciding seat: 1 = the next seat in turn order. Steals and deals are chance.
    """

    num_actions = FLAGS_NUM_ACTIONS
    max_players = FLAGS_MAX_PLAYERS
    layout = (
        ("below", (NUM_FLAG_PIECES, NUM_FLAG_PIECES + 1)),
        ("moved", (NUM_FLAG_PIECES,)),
        ("scoring", (_NUM_SCORING, 1 + FLAGS_MAX_PLAYERS)),
        ("taken", (_NUM_SCORING,)),
        ("cards", (NUM_CARDS, len(_CARD_FEATURES))),
        ("seats", (FLAGS_MAX_PLAYERS, len(_FLAGS_SEAT_FEATURES))),
        ("global", (len(_FLAGS_GLOBAL),)),
    )
    card_features = _CARD_FEATURES
    seat_features = _FLAGS_SEAT_FEATURES
    global_features = _FLAGS_GLOBAL

    def to_index(self, action: Action, seat: int) -> int:
        """The index of ``action``: the engine number, its seat made relative to ``seat``."""
        if not 0 <= action < STEAL_BASE:
            return -1
        field = _seat_field(action)
        if field is None:
            return action
        base, s, offset = field
        return base + offset + (s - seat) % self.players

    def observe(self, view: Any, seat: int | None = None, out: Obs | None = None) -> Obs:
        """The vector of a FlagsView (see docs/RL.md for every feature)."""
        if not isinstance(view, FlagsView):
            raise TypeError("FlagsEncoding observes FlagsView objects")
        me = seat if seat is not None else (view.player if view.player is not None else 0)
        n = view.players
        buf = self._buffer(out)
        parts = self._parts(buf)

        def rel(s: int) -> int:
            return (s - me) % n

        below = parts["below"]
        for tower in view.towers:
            under = NUM_FLAG_PIECES
            for p in tower:
                below[p, under] = 1.0
                under = p
        for p in view.last_moved:
            parts["moved"][p] = 1.0
        scoring = parts["scoring"]
        for p in view.bank:
            scoring[p - FIRST_SCORING, 0] = 1.0
        for s in range(n):
            mask = view.scoring[s]
            for i in range(_NUM_SCORING):
                if (mask >> (FIRST_SCORING + i)) & 1:
                    scoring[i, 1 + rel(s)] = 1.0
        pending = view.pending
        kind = str(pending.get("kind", "none")) if pending else "none"
        if kind == "capture":
            for name in pending.get("taken", ()):
                parts["taken"][PIECE_BY_NAME[name] - FIRST_SCORING] = 1.0
        cards = parts["cards"]
        c = {name: i for i, name in enumerate(_CARD_FEATURES)}
        located = np.zeros(NUM_CARDS, dtype=bool)
        if view.hand is not None:
            for card in view.hand:
                cards[card, c["in_my_hand"]] = 1.0
                located[card] = True
        for s in range(n):
            for card in view.scored[s]:
                cards[card, c[f"scored_{rel(s)}"]] = 1.0
                located[card] = True
            for card in view.known_hands[s]:
                cards[card, c[f"known_in_hand_{rel(s)}"]] = 1.0
                located[card] = True
        for i, card in view.known_deck:
            cards[card, c["known_in_deck"]] = 1.0
            cards[card, c["deck_position"]] = (i + 1) / NUM_CARDS
            located[card] = True
        cards[~located, c["unknown"]] = 1.0
        if kind == "capture":
            cards[BY_CODE[pending["card"]], c["capturing"]] = 1.0
        seats = parts["seats"]
        g = {name: i for i, name in enumerate(_FLAGS_SEAT_FEATURES)}
        for s in range(n):
            j = rel(s)
            seats[j, g["present"]] = 1.0
            seats[j, g["hand_size"]] = view.hand_sizes[s] / 8.0
            seats[j, g["points"]] = points(view.scoring[s]) / 28.0
            seats[j, g["scored"]] = len(view.scored[s]) / 5.0
            seats[j, g["to_move"]] = float(view.to_move == s)
            first = view.winner == s or (view.ranking is not None and view.ranking[s] == 1)
            seats[j, g["first"]] = float(first)
        glob = parts["global"]
        h = {name: i for i, name in enumerate(_FLAGS_GLOBAL)}
        options: Mapping[str, Any] = view.options
        glob[h["deck_size"]] = view.deck_size / NUM_CARDS
        glob[h["turn"]] = view.turn / max(1, int(options.get("max_turns", 3000)))
        glob[h[f"pending_{kind}"]] = 1.0
        decider = (
            int(pending["player"])
            if kind == "capture"
            else view.to_move
            if kind in ("none", "action")
            else -1
        )
        glob[h["my_decision"]] = float(decider == me and not view.is_terminal)
        if kind == "action":
            glob[h[f"action_{pending['colour']}"]] = 1.0
        if view.tree:
            glob[h[f"tree_{view.tree}"]] = 1.0
        if kind == "steal":
            glob[h[f"steal_from_{rel(int(pending['from']))}"]] = 1.0
        glob[h["actions_option"]] = float(bool(options.get("actions", True)))
        glob[h["terminal"]] = float(view.is_terminal)
        glob[h["players"]] = n / FLAGS_MAX_PLAYERS
        np.clip(buf, OBS_LOW, OBS_HIGH, out=buf)
        return buf


def flags_index_name(index: int) -> str:
    """A short description of a Pyramids and Flags index's kind (for docs and debugging)."""
    for base, name in (
        (WILD_BASE, "wild"),
        (PIRATE_BASE, "pirate"),
        (GROW + 1, "newstart"),
        (GROW, "grow"),
        (TRADE_BASE, "trade"),
        (SPLIT_BASE, "split"),
        (TAKE_BASE, "take"),
        (SWAP_BASE, "swap"),
        (MOVE_BASE, "move"),
    ):
        if index >= base:
            return name
    return "done"


ENCODINGS: dict[str, type[Encoding]] = {"flaming": FlamingEncoding, "flags": FlagsEncoding}


def encoding_for(name: str, game: Game) -> Encoding:
    """The encoding of game ``name`` ("flaming" or "flags") for the engine ``game``."""
    cls = ENCODINGS.get(name)
    if cls is None:
        raise ValueError(f"unknown game {name!r} (known: {', '.join(sorted(ENCODINGS))})")
    return cls(game)


__all__ = [
    "FALL_LEFT",
    "FALL_RIGHT",
    "FLAGS_NUM_ACTIONS",
    "FLAMING_NUM_ACTIONS",
    "MAX_SPOTS",
    "OBS_HIGH",
    "OBS_LOW",
    "PLACE_OFFSET",
    "WILD_COLOURS",
    "Encoding",
    "FlagsEncoding",
    "FlamingEncoding",
    "decode_place_index",
    "encoding_for",
    "flags_index_name",
    "place_index",
]
