"""Positions and actions as text (FP-NOTE, contract section 11).

Actions: ``TILE@row,col`` places a tile, ``left``/``right`` choose a fall, ``die:N``
is a fire-die face. Positions are JSON objects; ``position_from_json`` refuses any
position that breaks the notation's rules, saying what is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pyramids.core.errors import ActionParseError, PositionError
from pyramids.core.game import Action
from pyramids.flaming.options import FlamingOptions
from pyramids.flaming.state import (
    DIE,
    DIE_BASE,
    FALL,
    FIRE,
    HAND_SIZE,
    LEFT,
    NONE,
    PLACE_BASE,
    RIGHT,
    FlamingState,
    decode_place,
    place_action,
)
from pyramids.flaming.tiles import (
    IS_EMBER,
    NAMES,
    SUPPORT_LEFT,
    SUPPORT_RIGHT,
    check_spot,
    col_of,
    parse_tile,
    row_of,
)

_PLACE_RE = re.compile(r"^\s*([A-Za-z]\d+)\s*@\s*(-?\d+)\s*,\s*(-?\d+)\s*$")
_DIE_RE = re.compile(r"^\s*die\s*:\s*(\d+)\s*$", re.IGNORECASE)
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
    "events",
}


def tile_at(tile: int, key: int) -> str:
    """``TILE@row,col``."""
    return f"{NAMES[tile]}@{row_of(key)},{col_of(key)}"


def action_to_text(action: Action) -> str:
    """An action in the notation."""
    if action == LEFT:
        return "left"
    if action == RIGHT:
        return "right"
    if DIE_BASE <= action < PLACE_BASE:
        return f"die:{action - DIE_BASE + 1}"
    tile, key = decode_place(action)
    return tile_at(tile, key)


def parse_tile_at(text: object, what: str = "tile") -> tuple[int, int]:
    """(tile, key) from ``TILE@row,col``; PositionError when malformed."""
    if not isinstance(text, str):
        raise PositionError(f"{what} must be a string like 'R40@1,1', not {text!r}")
    m = _PLACE_RE.match(text)
    if not m:
        raise PositionError(f"{what} {text!r} is not of the form TILE@row,col (e.g. R40@1,1)")
    tile = parse_tile(m.group(1))
    key = check_spot(int(m.group(2)), int(m.group(3)))
    return tile, key


def parse_action(text: str) -> Action:
    """An action from text; ActionParseError when it is not an action at all."""
    if not isinstance(text, str):
        raise ActionParseError(f"an action must be text, not {text!r}")
    word = text.strip().lower()
    if word == "left":
        return LEFT
    if word == "right":
        return RIGHT
    m = _DIE_RE.match(text)
    if m:
        face = int(m.group(1))
        if not 1 <= face <= 6:
            raise ActionParseError(f"{text.strip()!r}: a die has faces 1 to 6")
        return DIE_BASE + face - 1
    try:
        tile, key = parse_tile_at(text, "action")
    except PositionError as exc:
        raise ActionParseError(
            f"cannot read action {text.strip()!r}: expected TILE@row,col (e.g. R40@1,1), "
            f"left, right or die:1..die:6 ({exc})"
        ) from None
    return place_action(tile, key)


def position_to_json(state: FlamingState) -> dict[str, Any]:
    """The position as the contract's JSON object."""
    board = state.board
    data: dict[str, Any] = {
        "rules": state.game.options_obj.to_json(),
        "players": state.num_players,
        "to_move": state.to_move,
        "turn": state.turn,
        "pyramid": [
            tile_at(board[k], k) for k in sorted(board, key=lambda k: (row_of(k), col_of(k)))
        ],
        "hands": [[NAMES[t] for t in state.hand(s)] for s in range(state.num_players)],
        "piles": [[NAMES[t] for t in state.pile(s)] for s in range(state.num_players)],
        "out": [NAMES[t] for t in state.out],
    }
    kind, key = state.pending
    if kind == FALL:
        data["pending"] = {
            "player": state.responsible,
            "kind": "fall",
            "tile": tile_at(board[key], key),
        }
    elif kind == DIE:
        data["pending"] = {"player": state.responsible, "kind": "die"}
    if state.quenched:
        data["quenched"] = {
            NAMES[e]: [NAMES[t] for t in range(len(NAMES)) if (mask >> t) & 1]
            for e, mask in sorted(state.quenched.items())
        }
    if state.winner is not None:
        data["winner"] = state.winner
    ranking = state.ranking
    if ranking is not None:
        data["ranking"] = ranking
    return data


def _int_field(data: Mapping[str, Any], name: str, default: int | None = None) -> int:
    value = data.get(name, default)
    if value is None:
        raise PositionError(f"the position has no '{name}'")
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(f"'{name}' must be an integer, not {value!r}")
    return value


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


def position_from_json(data: Mapping[str, Any]) -> FlamingState:
    """A state from the contract's JSON; PositionError says what is inconsistent."""
    from pyramids.flaming.game import FlamingGame

    if not isinstance(data, Mapping):
        raise PositionError("a position must be a JSON object")
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise PositionError(f"unknown position field(s): {', '.join(unknown)}")
    options = FlamingOptions.from_json(data.get("rules", {}))
    players = _int_field(data, "players")
    if not 2 <= players <= 6:
        raise PositionError(f"'players' must be 2 to 6, not {players}")
    game = FlamingGame(
        players,
        FlamingOptions(
            preset=options.preset,
            curse=options.curse,
            fire_die=options.fire_die,
            max_turns=options.max_turns,
            first_player=0,
        ),
    )
    to_move = _int_field(data, "to_move", 0)
    if not 0 <= to_move < players:
        raise PositionError(f"'to_move' must be a seat from 0 to {players - 1}, not {to_move}")
    turn = _int_field(data, "turn", 1)
    if turn < 1:
        raise PositionError(f"'turn' must be 1 or more, not {turn}")

    seen: dict[int, str] = {}

    def claim(tile: int, where: str) -> None:
        if tile in seen:
            raise PositionError(f"{NAMES[tile]} is listed twice: in {seen[tile]} and in {where}")
        if tile not in options.tiles:
            raise PositionError(f"{NAMES[tile]} is not part of a {options.preset} game")
        seen[tile] = where

    state = FlamingState(game)
    pyramid = data.get("pyramid", [])
    if not isinstance(pyramid, list):
        raise PositionError("'pyramid' must be a list like [\"R100@0,0\", ...]")
    for entry in pyramid:
        tile, key = parse_tile_at(entry, "pyramid entry")
        if key in state._board:
            raise PositionError(
                f"two tiles on one spot {row_of(key)},{col_of(key)}: "
                f"{NAMES[state._board[key]]} and {NAMES[tile]}"
            )
        claim(tile, "the pyramid")
        state._board[key] = tile
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
        state._hands[seat] = list(hands[seat])
        state._piles[seat] = list(piles[seat])
        state._hidden[seat] = len(piles[seat])
    out = data.get("out", [])
    if not isinstance(out, list) or not all(isinstance(x, str) for x in out):
        raise PositionError("'out' must be a list of tile codes")
    for x in out:
        t = parse_tile(x)
        claim(t, "'out'")
        state._out.append(t)

    state._to_move = to_move
    state._turn = turn
    state._resp = to_move
    state._rebuild()

    quenched = data.get("quenched", {})
    if not isinstance(quenched, Mapping):
        raise PositionError('\'quenched\' must be an object like {"Y1": ["R2"]}')
    on_board = set(state._board.values())
    for name, touching in quenched.items():
        ember = parse_tile(name)
        if not IS_EMBER[ember]:
            raise PositionError(f"only embers are quenched; {name} is not an ember")
        if ember not in on_board:
            raise PositionError(f"quenched ember {name} is not on the pyramid")
        if not isinstance(touching, list):
            raise PositionError(f"quenched[{name!r}] must be a list of tile codes")
        mask = 0
        for x in touching:
            mask |= 1 << parse_tile(x)
        state._quenched[ember] = mask
    if quenched and not options.fire_die:
        raise PositionError("a quenched ember needs the fire_die option")

    winner = data.get("winner")
    ranking = data.get("ranking")
    if winner is not None:
        if not isinstance(winner, int) or isinstance(winner, bool) or not 0 <= winner < players:
            raise PositionError(f"'winner' must be a seat from 0 to {players - 1}")
        if state._hands[winner] or state._piles[winner]:
            raise PositionError(f"seat {winner} is the winner but still has tiles")
        state._winner = winner
    if ranking is not None:
        if winner is not None:
            raise PositionError("a position has a 'winner' or a 'ranking', not both")
        if (
            not isinstance(ranking, list)
            or len(ranking) != players
            or not all(isinstance(r, int) and 1 <= r <= players for r in ranking)
        ):
            raise PositionError(f"'ranking' must list a rank from 1 to {players} per seat")
        state._ranking = list(ranking)
    terminal = winner is not None or ranking is not None

    pending = data.get("pending")
    if pending is not None:
        if terminal:
            raise PositionError("an ended game has no pending decision")
        _load_pending(state, pending, players)
    if not terminal:
        for seat in range(players):
            if seat != to_move and not state._hands[seat] and not state._piles[seat]:
                raise PositionError(f"seat {seat} has no tiles left but the game has no winner")
        if state._pending == NONE and not state._hands[to_move]:
            raise PositionError(f"seat {to_move} is to move with no tile in hand")
    return state


def _load_pending(state: FlamingState, pending: Any, players: int) -> None:
    if not isinstance(pending, Mapping):
        raise PositionError("'pending' must be an object")
    player = pending.get("player")
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < players:
        raise PositionError(f"pending.player must be a seat from 0 to {players - 1}")
    kind = pending.get("kind")
    state._resp = player
    if kind == "fall":
        tile, key = parse_tile_at(pending.get("tile"), "pending.tile")
        if state._board.get(key) != tile:
            raise PositionError(
                f"pending fall names {pending.get('tile')}, which is not on the pyramid"
            )
        if row_of(key) == 0:
            raise PositionError("a base tile cannot fall")
        if key + SUPPORT_LEFT in state._board or key + SUPPORT_RIGHT in state._board:
            raise PositionError(
                f"pending fall: {pending.get('tile')} still rests on a tile, so it cannot fall"
            )
        state._pending = FALL
        state._pending_key = key
    elif kind == "die":
        if not state.game.options_obj.fire_die:
            raise PositionError("a pending die roll needs the fire_die option")
        cat, key = state._first_event()
        state._cands = set(state._board)
        if cat != FIRE:
            raise PositionError(
                "pending die: no fire is waiting for a roll (the first mayhem check finds none)"
            )
        state._pending = DIE
        state._pending_key = key
    else:
        raise PositionError(f"pending.kind must be 'fall' or 'die', not {kind!r}")
