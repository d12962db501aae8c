"""The position notation's JSON, to and from a ``FlamingPosition`` (FP-NOTE-3, FP-NOTE-4, FP-NOTE-5, FP-CALL-10).

``parse_position`` refuses any position that breaks the notation's rules (FP-NOTE-7),
saying what is wrong, and accepts hand-made ones (FP-NOTE-8).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pyramids.core.errors import PositionError
from pyramids.core.fields import int_field
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


def _tile_lists(data: Mapping[str, Any], name: str, players: int) -> list[list[int]]:
    value = data.get(name)
    if value is None:
        raise PositionError(f"the position has no '{name}'")
    if not isinstance(value, list) or len(value) != players:
        raise PositionError(f"'{name}' must be a list of {players} lists (one per seat)")
    out: list[list[int]] = []
    for seat, items in enumerate(value):
        if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
            raise PositionError(f"{name}[{seat}] must be a list of tile codes")
        try:
            out.append([parse_tile(x) for x in items])
        except PositionError as exc:
            raise PositionError(f"{name}[{seat}]: {exc}") from None
    return out


def parse_position(data: Mapping[str, Any]) -> tuple[FlamingOptions, FlamingPosition]:
    """The rules and the position of the contract's JSON; PositionError says what is inconsistent.

    The rules come with ``first_player`` 0 (a position names the seat to move).
    """
    if not isinstance(data, Mapping):
        raise PositionError("a position must be a JSON object")
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise PositionError(f"unknown position field(s): {', '.join(unknown)}")
    given = FlamingOptions.from_json(data.get("rules", {}))
    options = FlamingOptions(
        preset=given.preset,
        curse=given.curse,
        fire_die=given.fire_die,
        max_turns=given.max_turns,
        first_player=0,
        callout=given.callout,
    )
    players = int_field(data, "players")
    if not 2 <= players <= 6:
        raise PositionError(f"'players' must be 2 to 6, not {players}")
    to_move = int_field(data, "to_move", 0)
    if not 0 <= to_move < players:
        raise PositionError(f"'to_move' must be a seat from 0 to {players - 1}, not {to_move}")
    turn = int_field(data, "turn", 1)
    if turn < 1:
        raise PositionError(f"'turn' must be 1 or more, not {turn}")

    seen: dict[int, str] = {}

    def claim(tile: int, where: str) -> None:
        if tile in seen:
            raise PositionError(f"{NAMES[tile]} is listed twice: in {seen[tile]} and in {where}")
        if tile not in options.tiles:
            raise PositionError(f"{NAMES[tile]} is not part of a {options.preset} game")
        seen[tile] = where

    pos = FlamingPosition.empty(players)
    pyramid = data.get("pyramid", [])
    if not isinstance(pyramid, list):
        raise PositionError("'pyramid' must be a list like [\"R100@0,0\", ...]")
    for entry in pyramid:
        tile, key = parse_tile_at(entry, "pyramid entry")
        if key in pos.board:
            raise PositionError(
                f"two tiles on one spot {row_of(key)},{col_of(key)}: "
                f"{NAMES[pos.board[key]]} and {NAMES[tile]}"
            )
        claim(tile, "the pyramid")
        pos.board[key] = tile
    hands = _tile_lists(data, "hands", players)
    piles = _tile_lists(data, "piles", players)
    for seat in range(players):
        if len(hands[seat]) > HAND_SIZE:
            raise PositionError(
                f"seat {seat} holds {len(hands[seat])} tiles; a hand holds at most 5"
            )
        for t in hands[seat]:
            claim(t, f"seat {seat}'s hand")
        for t in piles[seat]:
            claim(t, f"seat {seat}'s pile")
        pos.hands[seat] = list(hands[seat])
        pos.piles[seat] = list(piles[seat])
        pos.hidden[seat] = len(piles[seat])
    out = data.get("out", [])
    if not isinstance(out, list) or not all(isinstance(x, str) for x in out):
        raise PositionError("'out' must be a list of tile codes")
    for x in out:
        t = parse_tile(x)
        claim(t, "'out'")
        pos.out.append(t)

    pos.to_move = to_move
    pos.turn = turn
    pos.responsible = to_move
    rebuild(pos)
    _load_quenched(pos, data.get("quenched", {}), options)

    winner = data.get("winner")
    ranking = data.get("ranking")
    if winner is not None:
        if not isinstance(winner, int) or isinstance(winner, bool) or not 0 <= winner < players:
            raise PositionError(f"'winner' must be a seat from 0 to {players - 1}")
        if pos.hands[winner] or pos.piles[winner]:
            raise PositionError(f"seat {winner} is the winner but still has tiles")
        pos.winner = winner
    if ranking is not None:
        if winner is not None:
            raise PositionError("a position has a 'winner' or a 'ranking', not both")
        if (
            not isinstance(ranking, list)
            or len(ranking) != players
            or not all(isinstance(r, int) and 1 <= r <= players for r in ranking)
        ):
            raise PositionError(f"'ranking' must list a rank from 1 to {players} per seat")
        pos.ranking = list(ranking)
    terminal = winner is not None or ranking is not None

    pending = data.get("pending")
    if pending is not None:
        if terminal:
            raise PositionError("an ended game has no pending decision")
        _load_pending(pos, pending, options)
    _load_overlooked(pos, data.get("overlooked", False), options)
    if not terminal:
        for seat in range(players):
            if seat != to_move and not pos.hands[seat] and not pos.piles[seat]:
                raise PositionError(f"seat {seat} has no tiles left but the game has no winner")
        if pos.pending == NONE and not pos.hands[to_move]:
            raise PositionError(f"seat {to_move} is to move with no tile in hand")
    return options, pos


def _load_quenched(pos: FlamingPosition, quenched: Any, options: FlamingOptions) -> None:
    """Read ``quenched`` (FP-NOTE-4); a quench already ended by a contact is dropped (FP-DIE-6)."""
    if not isinstance(quenched, Mapping):
        raise PositionError('\'quenched\' must be an object like {"Y1": ["R2"]}')
    where = {t: k for k, t in pos.board.items()}
    for name, touching in quenched.items():
        ember = parse_tile(name)
        if not IS_EMBER[ember]:
            raise PositionError(f"only embers are quenched; {name} is not an ember")
        if ember not in where:
            raise PositionError(f"quenched ember {name} is not on the pyramid")
        if not isinstance(touching, list):
            raise PositionError(f"quenched[{name!r}] must be a list of tile codes")
        mask = 0
        for x in touching:
            mask |= 1 << parse_tile(x)
        k = where[ember]
        neighbours = [pos.board[k + off] for off in NEIGHBOURS if k + off in pos.board]
        if not any(ends_quench(mask, ember, t) for t in neighbours):
            pos.quenched[ember] = mask
    if quenched and not options.fire_die:
        raise PositionError("a quenched ember needs the fire_die option")


def _load_pending(pos: FlamingPosition, pending: Any, options: FlamingOptions) -> None:
    """Read ``pending`` (FP-NOTE-4, FP-NOTE-7): a fall names a tile on nothing, a die needs a fire."""
    players = len(pos.hands)
    if not isinstance(pending, Mapping):
        raise PositionError("'pending' must be an object")
    player = pending.get("player")
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < players:
        raise PositionError(f"pending.player must be a seat from 0 to {players - 1}")
    kind = pending.get("kind")
    pos.responsible = player
    if kind == "fall":
        tile, key = parse_tile_at(pending.get("tile"), "pending.tile")
        if pos.board.get(key) != tile:
            raise PositionError(
                f"pending fall names {pending.get('tile')}, which is not on the pyramid"
            )
        if row_of(key) == 0:
            raise PositionError("a base tile cannot fall")
        if key + SUPPORT_LEFT in pos.board or key + SUPPORT_RIGHT in pos.board:
            raise PositionError(
                f"pending fall: {pending.get('tile')} still rests on a tile, so it cannot fall"
            )
        pos.pending = FALL
        pos.pending_key = key
    elif kind == "check":
        if options.callout == "off":
            raise PositionError("a pending check needs the callout option (family or competitive)")
        if player != pos.checker:
            raise PositionError(
                f"pending check: the checker is seat {pos.checker}, on the left of seat "
                f"{pos.to_move} who is to move, not seat {player}"
            )
        if not pos.board:
            raise PositionError("pending check: there is no pyramid to check")
        pos.responsible = pos.to_move
        pos.pending = CHECK
    elif kind == "die":
        if not options.fire_die:
            raise PositionError("a pending die roll needs the fire_die option")
        cat, key = first_event(pos, options.curse_on)
        pos.candidates = set(pos.board)
        if cat != FIRE:
            raise PositionError(
                "pending die: no fire is waiting for a roll (the first mayhem check finds none)"
            )
        pos.pending = DIE
        pos.pending_key = key
    else:
        raise PositionError(f"pending.kind must be 'fall', 'die' or 'check', not {kind!r}")


def _load_overlooked(pos: FlamingPosition, overlooked: Any, options: FlamingOptions) -> None:
    """Read ``overlooked`` (FP-CALL-5): only in call-out mode, and only over standing mayhem."""
    if not isinstance(overlooked, bool):
        raise PositionError("'overlooked' must be true or false")
    if not overlooked:
        return
    if options.callout == "off":
        raise PositionError("'overlooked' needs the callout option (family or competitive)")
    if not standing_mayhem(pos, options.curse_on):
        raise PositionError("'overlooked' is true but no mayhem stands on the pyramid")
    pos.candidates = set(pos.board)
    pos.overlooked = True
