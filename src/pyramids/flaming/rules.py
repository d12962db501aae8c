"""The rules as functions over a position: whose decision, the legal actions, applying one.

``apply_action`` checks the action, applies it and runs the mayhem that follows
(``mayhem.resolve``), returning the raw events; ``illegal_reason`` says why an action
is refused. ``state.FlamingState`` wraps these for the game protocol.
"""

from __future__ import annotations

from pyramids.core.errors import IllegalActionError
from pyramids.core.game import CHANCE, TERMINAL, Action
from pyramids.flaming.actions import DIE_BASE, LEFT, PLACE_BASE, RIGHT, decode_place
from pyramids.flaming.mayhem import RawEvent, fall, resolve, roll_die
from pyramids.flaming.options import FlamingOptions
from pyramids.flaming.placement import placement_actions, placement_refusal, placement_spots
from pyramids.flaming.position import FALL, NONE, FlamingPosition, add_tile
from pyramids.flaming.tiles import NAMES, spot_name

DIE_OUTCOMES: tuple[tuple[Action, float], ...] = tuple((DIE_BASE + i, 1 / 6) for i in range(6))
"""FP-DIE-1: the six faces, each 1/6."""
_FALLS = (LEFT, RIGHT)


def current_player(pos: FlamingPosition) -> int:
    """The deciding seat: the active player, P for a fall (FP-MAYHEM-3), CHANCE for a die roll."""
    if pos.winner is not None or pos.ranking is not None:
        return TERMINAL
    pending = pos.pending
    if pending == NONE:
        return pos.to_move
    if pending == FALL:
        return pos.responsible
    return CHANCE


def legal_actions(pos: FlamingPosition) -> list[Action]:
    """Sorted legal actions: placements (spot, then tile), fall sides, or die faces."""
    if pos.winner is not None or pos.ranking is not None:
        return []
    pending = pos.pending
    if pending == NONE:
        return placement_actions(pos)
    if pending == FALL:
        return list(_FALLS)
    return [a for a, _ in DIE_OUTCOMES]


def apply_action(pos: FlamingPosition, options: FlamingOptions, action: Action) -> list[RawEvent]:
    """FP-PLACE-1: apply a placement, fall side or die face and the mayhem after it; the raw events.

    IllegalActionError (saying why) leaves the position unchanged.
    """
    if pos.winner is not None or pos.ranking is not None:
        raise IllegalActionError("the game is over")
    pending = pos.pending
    if pending == NONE:
        if action >= PLACE_BASE:
            tile, k = decode_place(action)
            seat = pos.to_move
            hand = pos.hands[seat]
            spots = pos.spots
            if tile in hand and (k in spots if spots else k in placement_spots(pos)):
                # FP-PLACE-1: the tile leaves the hand for the spot; then mayhem (FP-MAYHEM-1).
                hand.remove(tile)
                pos.known[seat] &= ~(1 << tile)
                events: list[RawEvent] = [("place", seat, tile, k)]
                add_tile(pos, k, tile)
                resolve(pos, options, events)
                return events
        raise IllegalActionError(illegal_reason(pos, action) or "illegal action")
    if pending == FALL:
        if action not in _FALLS:
            raise IllegalActionError(illegal_reason(pos, action) or "illegal action")
        events = []
        fall(pos, action, events)
        resolve(pos, options, events)
        return events
    if not DIE_BASE <= action < DIE_BASE + 6:
        raise IllegalActionError(illegal_reason(pos, action) or "illegal action")
    events = []
    roll_die(pos, action - DIE_BASE + 1, options, events)
    return events


def illegal_reason(pos: FlamingPosition, action: Action) -> str | None:
    """Why ``action`` is illegal in ``pos``, or None when it is legal."""
    if pos.winner is not None or pos.ranking is not None:
        return "the game is over"
    if pos.pending == FALL:
        if action in _FALLS:
            return None
        falling = NAMES[pos.board[pos.pending_key]]
        return (
            f"{falling} at {spot_name(pos.pending_key)} is falling: seat {pos.responsible} "
            "must first choose left or right"
        )
    if pos.pending != NONE:
        if DIE_BASE <= action < DIE_BASE + 6:
            return None
        return "a fire-die roll is pending: the next action is die:1 .. die:6"
    if action in _FALLS:
        return "no tile is falling: left and right are only chosen during mayhem"
    if action < PLACE_BASE:
        return "no fire-die roll is pending"
    return placement_refusal(pos, action)
