"""The position notation's JSON, to and from a ``FlamingPosition`` (FP-NOTE-3, FP-NOTE-4, FP-NOTE-5, FP-CALL-10).

``parse_position`` refuses any position that breaks the notation's rules (FP-NOTE-7)
with a code and facts (``flaming.*``, and ``position.*`` of ``core.fields``), and accepts
hand-made ones (FP-NOTE-8). FP-NOTE-6: ``pyramids flaming apply`` reads its position with
``parse_position``, parses each action with ``actions.parse_action`` and prints the result
with ``position_to_json`` and the events.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pyramids.core.errors import PositionError
from pyramids.core.fields import check_integer, int_field, known_fields, object_field
from pyramids.flaming.actions import parse_tile_at, tile_at
from pyramids.flaming.mayhem import FIRE, first_event, standing_mayhem
from pyramids.flaming.options import FlamingOptions
from pyramids.flaming.position import (
    CHECK,
    DIE,
    FALL,
    HAND_SIZE,
    NONE,
    FlamingPosition,
    ends_quench,
    rebuild,
)
from pyramids.flaming.tiles import (
    IS_EMBER,
    NAMES,
    NEIGHBOURS,
    SUPPORT_LEFT,
    SUPPORT_RIGHT,
    col_of,
    parse_tile,
    row_of,
    spot_name,
)

_TOP_KEYS = {
    "rules",
    "players",
    "to_move",
    "turn",
    "pyramid",
    "hands",
    "piles",
    "out",
    "pending",
    "quenched",
    "winner",
    "ranking",
    "overlooked",
    "events",
}


def position_to_json(pos: FlamingPosition, options: FlamingOptions) -> dict[str, Any]:
    """FP-NOTE-3, FP-NOTE-4, FP-NOTE-5: the position as the contract's JSON object."""
    board = pos.board
    players = len(pos.hands)
    data: dict[str, Any] = {
        "rules": options.to_json(),
        "players": players,
        "to_move": pos.to_move,
        "turn": pos.turn,
        "pyramid": [
            tile_at(board[k], k) for k in sorted(board, key=lambda k: (row_of(k), col_of(k)))
        ],
        "hands": [[NAMES[t] for t in h] for h in pos.hands],
        "piles": [[NAMES[t] for t in p] for p in pos.piles],
        "out": [NAMES[t] for t in pos.out],
    }
    key = pos.pending_key
    if pos.pending == FALL:
        data["pending"] = {
            "player": pos.responsible,
            "kind": "fall",
            "tile": tile_at(board[key], key),
        }
    elif pos.pending == DIE:
        data["pending"] = {"player": pos.responsible, "kind": "die"}
    elif pos.pending == CHECK:
        data["pending"] = {"player": pos.checker, "kind": "check"}
    if pos.overlooked:
        data["overlooked"] = True
    if pos.quenched:
        data["quenched"] = {
            NAMES[e]: [NAMES[t] for t in range(len(NAMES)) if (mask >> t) & 1]
            for e, mask in sorted(pos.quenched.items())
        }
    if pos.winner is not None:
        data["winner"] = pos.winner
    if pos.ranking is not None:
        data["ranking"] = list(pos.ranking)
    return data


def _seat_field(value: Any, field: str, players: int) -> int:
    """A seat number (FP-NOTE-4): a JSON integer from 0 to players - 1 (a ``true`` is no seat)."""
    if value is None:
        raise PositionError("position.missing_field", field=field)
    seat = check_integer(value, field)
    if not 0 <= seat < players:
        raise PositionError(
            "position.out_of_range", field=field, value=seat, low=0, high=players - 1
        )
    return seat


def _tile_lists(data: Mapping[str, Any], name: str, players: int) -> list[list[int]]:
    value = data.get(name)
    if value is None:
        raise PositionError("position.missing_field", field=name)
    if not isinstance(value, list) or len(value) != players:
        raise PositionError("flaming.not_seat_lists", field=name, players=players)
    out: list[list[int]] = []
    for seat, items in enumerate(value):
        field = f"{name}[{seat}]"
        if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
            raise PositionError("flaming.not_tile_list", field=field)
        out.append([parse_tile(x, field) for x in items])
    return out


def parse_position(data: Mapping[str, Any]) -> tuple[FlamingOptions, FlamingPosition]:
    """The rules and the position of the contract's JSON; PositionError says what is inconsistent.

    The rules come with ``first_player`` 0 (a position names the seat to move).
    """
    object_field(data)
    known_fields(data, _TOP_KEYS)
    given = FlamingOptions.from_json(data.get("rules", {}))
    options = FlamingOptions(
        preset=given.preset,
        curse=given.curse,
        fire_die=given.fire_die,
        max_turns=given.max_turns,
        first_player=0,
        callout=given.callout,
    )
    players = int_field(data, "players", low=2, high=6)
    to_move = int_field(data, "to_move", 0, low=0, high=players - 1)
    turn = int_field(data, "turn", 1, low=1)

    seen: dict[int, tuple[str, int | None]] = {}

    def claim(tile: int, place: str, seat: int | None = None) -> None:
        """FP-NOTE-7: each tile is listed once, and only tiles of the preset."""
        if tile in seen:
            first, first_seat = seen[tile]
            raise PositionError(
                "flaming.tile_twice",
                tile=NAMES[tile],
                first=first,
                first_seat=first_seat,
                second=place,
                second_seat=seat,
            )
        if tile not in options.tiles:
            raise PositionError("flaming.not_in_preset", tile=NAMES[tile], preset=options.preset)
        seen[tile] = (place, seat)

    pos = FlamingPosition.empty(players)
    pyramid = data.get("pyramid", [])
    if not isinstance(pyramid, list):
        raise PositionError("flaming.pyramid_not_list")
    for entry in pyramid:
        tile, key = parse_tile_at(entry, "pyramid")
        if key in pos.board:
            raise PositionError(
                "flaming.spot_taken_twice",
                spot=spot_name(key),
                tiles=[NAMES[pos.board[key]], NAMES[tile]],
            )
        claim(tile, "pyramid")
        pos.board[key] = tile
    hands = _tile_lists(data, "hands", players)
    piles = _tile_lists(data, "piles", players)
    for seat in range(players):
        if len(hands[seat]) > HAND_SIZE:
            raise PositionError(
                "flaming.hand_too_big", seat=seat, count=len(hands[seat]), max=HAND_SIZE
            )
        for t in hands[seat]:
            claim(t, "hand", seat)
        for t in piles[seat]:
            claim(t, "pile", seat)
        pos.hands[seat] = list(hands[seat])
        pos.piles[seat] = list(piles[seat])
        pos.hidden[seat] = len(piles[seat])
    out = data.get("out", [])
    if not isinstance(out, list) or not all(isinstance(x, str) for x in out):
        raise PositionError("flaming.not_tile_list", field="out")
    for x in out:
        t = parse_tile(x, "out")
        claim(t, "out")
        pos.out.append(t)

    pos.to_move = to_move
    pos.turn = turn
    pos.responsible = to_move
    rebuild(pos)
    _load_quenched(pos, data.get("quenched", {}), options)

    winner = data.get("winner")
    ranking = data.get("ranking")
    if winner is not None:
        winner = _seat_field(winner, "winner", players)
        if pos.hands[winner] or pos.piles[winner]:
            raise PositionError("flaming.winner_has_tiles", seat=winner)
        pos.winner = winner
    if ranking is not None:
        if winner is not None:
            raise PositionError("flaming.winner_and_ranking")
        if not isinstance(ranking, list) or len(ranking) != players:
            raise PositionError("flaming.bad_ranking", value=ranking, players=players)
        ranks = []
        for r in ranking:
            # A JSON true is not a rank (FP-NOTE-4): position.not_an_integer.
            rank = check_integer(r, "ranking")
            if not 1 <= rank <= players:
                raise PositionError(
                    "position.out_of_range", field="ranking", value=rank, low=1, high=players
                )
            ranks.append(rank)
        pos.ranking = ranks
    terminal = winner is not None or ranking is not None

    pending = data.get("pending")
    if pending is not None:
        if terminal:
            raise PositionError("flaming.ended_with_pending")
        _load_pending(pos, pending, options)
    _load_overlooked(pos, data.get("overlooked", False), options)
    if not terminal:
        for seat in range(players):
            if seat != to_move and not pos.hands[seat] and not pos.piles[seat]:
                raise PositionError("flaming.no_tiles_no_winner", seat=seat)
        if pos.pending == NONE and not pos.hands[to_move]:
            raise PositionError("flaming.to_move_without_tiles", seat=to_move)
    return options, pos


def _load_quenched(pos: FlamingPosition, quenched: Any, options: FlamingOptions) -> None:
    """Read ``quenched`` (FP-NOTE-4); a quench already ended by a contact is dropped (FP-DIE-6)."""
    if not isinstance(quenched, Mapping):
        raise PositionError("position.not_an_object", field="quenched")
    where = {t: k for k, t in pos.board.items()}
    for name, touching in quenched.items():
        ember = parse_tile(name, "quenched")
        if not IS_EMBER[ember]:
            raise PositionError("flaming.quenched_not_ember", tile=name)
        if ember not in where:
            raise PositionError("flaming.quenched_not_on_pyramid", tile=name)
        field = f"quenched[{name}]"
        # FP-NOTE-7: a non-string among the tiles is refused, not crashed on.
        if not isinstance(touching, list) or not all(isinstance(x, str) for x in touching):
            raise PositionError("flaming.not_tile_list", field=field)
        mask = 0
        for x in touching:
            mask |= 1 << parse_tile(x, field)
        k = where[ember]
        neighbours = [pos.board[k + off] for off in NEIGHBOURS if k + off in pos.board]
        if not any(ends_quench(mask, ember, t) for t in neighbours):
            pos.quenched[ember] = mask
    if quenched and not options.fire_die:
        raise PositionError("flaming.quench_needs_fire_die")


def _load_pending(pos: FlamingPosition, pending: Any, options: FlamingOptions) -> None:
    """Read ``pending`` (FP-NOTE-4, FP-NOTE-7): a fall names a tile on nothing, a die needs a fire."""
    players = len(pos.hands)
    if not isinstance(pending, Mapping):
        raise PositionError("position.not_an_object", field="pending")
    player = _seat_field(pending.get("player"), "pending.player", players)
    kind = pending.get("kind")
    pos.responsible = player
    if kind == "fall":
        given = pending.get("tile")
        tile, key = parse_tile_at(given, "pending.tile")
        if pos.board.get(key) != tile:
            raise PositionError("flaming.fall_not_on_pyramid", value=given)
        if row_of(key) == 0:
            raise PositionError("flaming.base_cannot_fall", value=given)
        if key + SUPPORT_LEFT in pos.board or key + SUPPORT_RIGHT in pos.board:
            raise PositionError("flaming.fall_supported", value=given)
        pos.pending = FALL
        pos.pending_key = key
    elif kind == "check":
        if options.callout == "off":
            raise PositionError("flaming.check_needs_callout")
        if player != pos.checker:
            raise PositionError(
                "flaming.wrong_checker", checker=pos.checker, to_move=pos.to_move, value=player
            )
        if not pos.board:
            raise PositionError("flaming.check_without_pyramid")
        pos.responsible = pos.to_move
        pos.pending = CHECK
    elif kind == "die":
        if not options.fire_die:
            raise PositionError("flaming.die_needs_fire_die")
        cat, key = first_event(pos, options.curse_on)
        pos.candidates = set(pos.board)
        if cat != FIRE:
            raise PositionError("flaming.die_without_fire")
        pos.pending = DIE
        pos.pending_key = key
    else:
        raise PositionError("flaming.bad_pending_kind", value=kind)


def _load_overlooked(pos: FlamingPosition, overlooked: Any, options: FlamingOptions) -> None:
    """Read ``overlooked`` (FP-CALL-5): only in call-out mode, and only over standing mayhem."""
    if not isinstance(overlooked, bool):
        raise PositionError("position.not_a_boolean", field="overlooked", value=overlooked)
    if not overlooked:
        return
    if options.callout == "off":
        raise PositionError("flaming.overlooked_needs_callout")
    if not standing_mayhem(pos, options.curse_on):
        raise PositionError("flaming.overlooked_without_mayhem")
    pos.candidates = set(pos.board)
    pos.overlooked = True
