"""Flaming Pyramids' RL encoding: 722 action indices and a 1137-float observation (docs/RL.md).

In call-out games (the ``callout`` option, FP-CALL) the checks get indices too: 768
actions (``ok``, then one call per occupied position in scan order) and a 1275-float
observation (the occupied positions, the pending check and the variant added); games
without it keep the 722 and 1137 exactly.

Named by the game's descriptor (``rl_encoding``); ``pyramids.rl.spaces.encoding_for``
finds it through the registry. See ``pyramids.games.encoding`` for what an encoding is.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from pyramids.core.game import Action, Game
from pyramids.flaming.actions import CHECK_OK, is_check, is_place
from pyramids.flaming.state import CHECK, DIE, FALL, LEFT, NONE, RIGHT, decode_place
from pyramids.flaming.tiles import NAMES as TILE_NAMES
from pyramids.flaming.tiles import NUM_TILES, col_of, row_of
from pyramids.flaming.view import FlamingView
from pyramids.games.encoding import OBS_HIGH, OBS_LOW, Encoding, Obs

FLAMING_MAX_PLAYERS = 6
MAX_SPOTS = 16
"""Placement spots addressable by an index; spots past the 16th in scan order are not."""
FALL_LEFT = 0
FALL_RIGHT = 1
PLACE_OFFSET = 2
FLAMING_NUM_ACTIONS = PLACE_OFFSET + NUM_TILES * MAX_SPOTS
"""722: left, right, then tile * MAX_SPOTS + spot slot."""
CHECK_OK_INDEX = FLAMING_NUM_ACTIONS
"""722: a check's ``ok`` (call-out games only)."""
CALL_OFFSET = CHECK_OK_INDEX + 1
"""723 + slot: call the ``slot``-th occupied position in scan order (call-out games only)."""
MAX_POSITIONS = NUM_TILES
"""Occupied positions addressable by a call: every tile on the pyramid (45)."""
CALLOUT_NUM_ACTIONS = CALL_OFFSET + MAX_POSITIONS
"""768: the 722, ``ok``, then one call per occupied position."""

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
_CALLOUT_GLOBAL = ("pending_check", "callout_family", "callout_competitive")
"""The global features call-out games add after ``_FLAMING_GLOBAL``."""
_ROW_SCALE = 10.0
_COL_SCALE = 20.0


def place_index(tile: int, slot: int) -> int:
    """The index of playing ``tile`` on the ``slot``-th placement spot in scan order."""
    return PLACE_OFFSET + tile * MAX_SPOTS + slot


def decode_place_index(index: int) -> tuple[int, int]:
    """(tile, spot slot) of a placement index."""
    return divmod(index - PLACE_OFFSET, MAX_SPOTS)


def call_index(slot: int) -> int:
    """The index of calling the ``slot``-th occupied position in scan order."""
    return CALL_OFFSET + slot


MAX_FALLS_PER_TURN = 45 * 44 + 44
"""A bound on fall decisions in one turn: each fall takes a tile one row down, no tile
stands above row 44 (each row needs a tile below it), and 45 tiles start at most 44 high."""


class FlamingEncoding(Encoding):
    """Flaming Pyramids: 722 action indices and a 1137-float observation.

    Actions: 0 = fall left, 1 = fall right, ``2 + tile * 16 + slot`` = play ``tile``
    (0..44, the engine's tile order) on the ``slot``-th placement spot, spots taken in
    scan order (FP-GEOM-4). The slots are the distinct spots of the legal placements,
    so the table needs only the legal list. Die faces are chance, not actions.

    Call-out games (FP-CALL) add 722 = ``ok`` and ``723 + slot`` = call the ``slot``-th
    occupied position in scan order (a check's legal list calls every occupied
    position, so again the table needs only the legal list), 768 in all; the
    observation adds a ``positions`` part (those positions, as ``spots`` lists the
    spots) and three global features (``pending_check``, ``callout_family``,
    ``callout_competitive``).
    """

    num_actions = FLAMING_NUM_ACTIONS
    max_players = FLAMING_MAX_PLAYERS
    layout: tuple[tuple[str, tuple[int, ...]], ...] = (
        ("tiles", (NUM_TILES, len(_TILE_FEATURES))),
        ("spots", (MAX_SPOTS, 3)),
        ("seats", (FLAMING_MAX_PLAYERS, len(_SEAT_FEATURES))),
        ("global", (len(_FLAMING_GLOBAL),)),
    )
    tile_features = _TILE_FEATURES
    seat_features = _SEAT_FEATURES
    global_features: tuple[str, ...] = _FLAMING_GLOBAL

    max_chance_outcomes = 6
    """The most outcomes one chance point lists (the fire die's six faces)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.callout = str(game.options.get("callout", "off"))
        if self.callout != "off":
            self.num_actions = CALLOUT_NUM_ACTIONS
            self.global_features = _FLAMING_GLOBAL + _CALLOUT_GLOBAL
            self.layout = (
                *self.layout[:2],
                ("positions", (MAX_POSITIONS, 3)),
                self.layout[2],
                ("global", (len(self.global_features),)),
            )

    @staticmethod
    def max_game_length(game: Game) -> int:
        """A bound on player decisions: max_turns placements, each with at most
        ``MAX_FALLS_PER_TURN`` falls (and a check in call-out games: a right call's
        resolution also moves each tile down or out, so the same bound holds)."""
        per_turn = 1 + MAX_FALLS_PER_TURN
        if str(game.options.get("callout", "off")) != "off":
            per_turn += 1
        return int(game.options["max_turns"]) * per_turn

    def index_table(self, legal: Sequence[Action], seat: int) -> dict[int, Action]:
        """Index -> engine action; placement slots follow the legal spots in scan order."""
        table: dict[int, Action] = {}
        keys: dict[int, int] = {}
        calls: list[Action] = []
        for a in legal:
            if a in (LEFT, RIGHT):
                table[FALL_LEFT if a == LEFT else FALL_RIGHT] = a
            elif is_place(a):
                keys.setdefault(decode_place(a)[1], 0)
            elif is_check(a) and self.callout != "off":
                if a == CHECK_OK:
                    table[CHECK_OK_INDEX] = a
                else:
                    calls.append(a)
        slot_of = {k: i for i, k in enumerate(sorted(keys))}
        for a in legal:
            if is_place(a):
                tile, key = decode_place(a)
                slot = slot_of[key]
                if slot < MAX_SPOTS:
                    table[place_index(tile, slot)] = a
        for slot, a in enumerate(sorted(calls)[:MAX_POSITIONS]):  # calls sort in scan order
            table[call_index(slot)] = a
        return table

    def to_index(self, action: Action, seat: int) -> int:
        """Only falls and ``ok`` have an index without the legal list (placements and
        calls need the order of the spots or positions)."""
        if action == LEFT:
            return FALL_LEFT
        if action == RIGHT:
            return FALL_RIGHT
        if action == CHECK_OK and self.callout != "off":
            return CHECK_OK_INDEX
        return -1

    def render(self, view: Any) -> str:
        """The public pyramid row by row (top first), then whose turn it is and the counts."""
        rows: dict[int, list[str]] = {}
        for key, tile in view.pyramid:
            rows.setdefault(row_of(key), []).append(f"{TILE_NAMES[tile]}@{col_of(key)}")
        lines = [f"row {r}: {' '.join(rows[r])}" for r in sorted(rows, reverse=True)]
        lines = lines or ["(empty pyramid)"]
        lines.append(
            f"turn {view.turn}  to move: player_{view.to_move}  "
            f"hands {list(view.hand_sizes)}  piles {list(view.pile_sizes)}"
        )
        return "\n".join(lines)

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
        callout = self.callout != "off"
        if callout:
            for i, key in enumerate(sorted(board)[:MAX_POSITIONS]):
                parts["positions"][i] = (
                    1.0,
                    row_of(key) / _ROW_SCALE,
                    (col_of(key) - ref) / _COL_SCALE,
                )
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
        h = {name: i for i, name in enumerate(self.global_features)}
        pending = ("pending_none", "pending_fall", "pending_die", "pending_check")[view.pending]
        if pending in h:
            glob[h[pending]] = 1.0
        if view.pending == NONE:
            decider = view.to_move
        elif view.pending == FALL:
            decider = view.responsible
        elif view.pending == CHECK:
            decider = (view.to_move + 1) % n
        else:
            decider = -1
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
        if callout:
            glob[h[f"callout_{self.callout}"]] = 1.0
        np.clip(buf, OBS_LOW, OBS_HIGH, out=buf)
        return buf


__all__ = [
    "CALLOUT_NUM_ACTIONS",
    "CALL_OFFSET",
    "CHECK_OK_INDEX",
    "FALL_LEFT",
    "FALL_RIGHT",
    "FLAMING_MAX_PLAYERS",
    "FLAMING_NUM_ACTIONS",
    "MAX_POSITIONS",
    "MAX_SPOTS",
    "PLACE_OFFSET",
    "FlamingEncoding",
    "call_index",
    "decode_place_index",
    "place_index",
]
