"""The rules as functions over a position: whose decision, the legal actions, applying one.

``apply_action`` checks the action, applies it and runs the mayhem that follows
(``mayhem.resolve``), returning the raw events; ``illegal_reason`` says why an action
is refused. ``state.FlamingState`` wraps these for the game protocol.
"""

from __future__ import annotations

from pyramids.core.errors import IllegalActionError
from pyramids.core.game import CHANCE, TERMINAL, Action
from pyramids.flaming.actions import (
    CALL_BASE,
    CHECK_OK,
    DIE_BASE,
    LEFT,
    PLACE_BASE,
    RIGHT,
    call_action,
    decode_call,
    decode_place,
)
from pyramids.flaming.mayhem import (
    CATEGORY_NAMES,
    RawEvent,
    called_keys,
    fall,
    resolve,
    roll_die,
    standing_mayhem,
)
from pyramids.flaming.options import FlamingOptions
from pyramids.flaming.placement import placement_actions, placement_refusal, placement_spots
from pyramids.flaming.position import CHECK, FALL, NONE, FlamingPosition, add_tile
from pyramids.flaming.tiles import NAMES, spot_name
from pyramids.flaming.turn import end_turn

DIE_OUTCOMES: tuple[tuple[Action, float], ...] = tuple((DIE_BASE + i, 1 / 6) for i in range(6))
"""FP-DIE-1: the six faces, each 1/6."""
_FALLS = (LEFT, RIGHT)


def current_player(pos: FlamingPosition) -> int:
    """The deciding seat: the active player, P for a fall (FP-MAYHEM-3), CHANCE for a die
    roll, the checker for a check (FP-CALL-2)."""
    if pos.winner is not None or pos.ranking is not None:
        return TERMINAL
    pending = pos.pending
    if pending == NONE:
        return pos.to_move
    if pending == FALL:
        return pos.responsible
    if pending == CHECK:
        return pos.checker
    return CHANCE


def legal_actions(pos: FlamingPosition) -> list[Action]:
    """Sorted legal actions: placements (spot, then tile), fall sides, die faces, or a
    check's ``ok`` and a call of every occupied position (FP-CALL-3)."""
    if pos.winner is not None or pos.ranking is not None:
        return []
    pending = pos.pending
    if pending == NONE:
        return placement_actions(pos)
    if pending == FALL:
        return list(_FALLS)
    if pending == CHECK:
        return [CHECK_OK, *[call_action(k) for k in sorted(pos.board)]]
    return [a for a, _ in DIE_OUTCOMES]


def apply_action(pos: FlamingPosition, options: FlamingOptions, action: Action) -> list[RawEvent]:
    """FP-PLACE-1: apply a placement, fall side or die face and the mayhem after it; the raw events.

    IllegalActionError (saying why) leaves the position unchanged.
    """
    if pos.winner is not None or pos.ranking is not None:
        raise IllegalActionError("flaming.game_over")
    pending = pos.pending
    if pending == NONE:
        if PLACE_BASE <= action < CHECK_OK:
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
                if options.callout != "off":
                    begin_check(pos, options)
                else:
                    resolve(pos, options, events)
                return events
        raise _refusal(pos, action)
    if pending == FALL:
        if action not in _FALLS:
            raise _refusal(pos, action)
        events = []
        fall(pos, action, events)
        resolve(pos, options, events)
        return events
    if pending == CHECK:
        if action == CHECK_OK or (action >= CALL_BASE and decode_call(action) in pos.board):
            return check(pos, options, action)
        raise _refusal(pos, action)
    if not DIE_BASE <= action < DIE_BASE + 6:
        raise _refusal(pos, action)
    events = []
    roll_die(pos, action - DIE_BASE + 1, options, events)
    return events


def begin_check(pos: FlamingPosition, options: FlamingOptions) -> None:
    """FP-CALL-2, FP-CALL-5: after a placement the checker must look; nothing is resolved yet.

    The overlooked mark carries into the check only while mayhem still stands (in a
    hand-made position a placement can give a tile in free air its support).
    """
    if pos.overlooked and not standing_mayhem(pos, options.curse_on):
        pos.overlooked = False
    pos.pending = CHECK
    pos.pending_key = 0


def check(pos: FlamingPosition, options: FlamingOptions, action: Action) -> list[RawEvent]:
    """FP-CALL-3, FP-CALL-4, FP-CALL-5, FP-CALL-6: the checker's ``ok`` or call, and what follows.

    A right call resolves every standing event as FP-MAYHEM says (with the variant's
    penalty when overlooked mayhem stood as the check began), a false alarm or ``ok``
    over standing mayhem leaves it overlooked; then the active player's turn ends
    (FP-CALL-8).
    """
    seat = pos.checker
    pos.pending = NONE
    events: list[RawEvent] = []
    curse_on = options.curse_on
    if action != CHECK_OK:
        k = decode_call(action)
        found = called_keys(pos, curse_on)
        cat = found.get(k)
        if cat is not None:
            events.append(("call", seat, pos.board[k], k, CATEGORY_NAMES[cat], pos.overlooked))
            resolve(pos, options, events)
            return events
        events.append(("false_alarm", seat, k))
    else:
        events.append(("check_ok", seat))
    pos.overlooked = standing_mayhem(pos, curse_on)
    end_turn(pos, options, events)
    return events


def illegal_reason(pos: FlamingPosition, action: Action) -> IllegalActionError | None:
    """Why ``action`` is illegal in ``pos`` (the refusal, with its code and facts), or None."""
    if pos.winner is not None or pos.ranking is not None:
        return IllegalActionError("flaming.game_over")
    if pos.pending == FALL:
        if action in _FALLS:
            return None
        return IllegalActionError(
            "flaming.tile_falling",
            tile=NAMES[pos.board[pos.pending_key]],
            spot=spot_name(pos.pending_key),
            seat=pos.responsible,
        )
    if pos.pending == CHECK:
        seat = pos.checker
        if action == CHECK_OK:
            return None
        if action >= CALL_BASE:
            k = decode_call(action)
            if k in pos.board:
                return None
            return IllegalActionError("flaming.no_tile_to_call", spot=spot_name(k), seat=seat)
        return IllegalActionError("flaming.check_pending", seat=seat)
    if pos.pending != NONE:
        if DIE_BASE <= action < DIE_BASE + 6:
            return None
        return IllegalActionError("flaming.die_pending")
    if action >= CHECK_OK:
        return IllegalActionError("flaming.no_check_pending")
    if action in _FALLS:
        return IllegalActionError("flaming.nothing_falling")
    if action < PLACE_BASE:
        return IllegalActionError("flaming.no_die_pending")
    return placement_refusal(pos, action)


def _refusal(pos: FlamingPosition, action: Action) -> IllegalActionError:
    """The refusal of an action found illegal on the hot path."""
    return illegal_reason(pos, action) or IllegalActionError("flaming.illegal_action")
