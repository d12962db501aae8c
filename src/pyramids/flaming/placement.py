"""Where the active player may play (FP-PLACE): the forced spots, or the base ends.

The forced spots F are kept current by ``position.add_tile``/``remove_tile``
(``update_spot``, FP-PLACE-3); this module turns them into the legal spots and
placement actions, and says why a placement is refused.
"""

from __future__ import annotations

from pyramids.core.errors import IllegalActionError
from pyramids.core.game import Action
from pyramids.flaming.actions import decode_place, place_actions
from pyramids.flaming.position import FlamingPosition
from pyramids.flaming.tiles import NAMES, key_of, spot_name


def placement_spots(pos: FlamingPosition) -> list[int]:
    """FP-PLACE-2, FP-PLACE-3, FP-PLACE-4, FP-PLACE-5: the spots to play on, in scan order.

    The forced spots F when there are any (FP-PLACE-3, FP-PLACE-4); else on an empty
    base (0, 0) (FP-PLACE-2); else the two base ends (FP-PLACE-5, FP-GEOM-6). So a
    player only ever places on two supports or on the base (FP-FIT-5). FP-CALL-9: with
    mayhem standing (call-out mode) the same rule reads the pyramid as it stands.
    """
    if pos.spots:
        return sorted(pos.spots)
    if not pos.base_n:
        return [key_of(0, 0)]
    return [pos.base_lo - 2, pos.base_hi + 2]


def placement_actions(pos: FlamingPosition) -> list[Action]:
    """FP-PLACE-1, FP-PLACE-4: every (spot, hand tile) pair, sorted; whether it fits or not."""
    return place_actions(sorted(pos.hands[pos.to_move]), placement_spots(pos))


def placement_refusal(pos: FlamingPosition, action: Action) -> IllegalActionError | None:
    """Why placement ``action`` is illegal at rest (a tile not in hand, a spot not allowed), or None."""
    tile, k = decode_place(action)
    if tile >= len(NAMES):
        return IllegalActionError("flaming.not_an_action", action=action)
    seat = pos.to_move
    if tile not in pos.hands[seat]:
        for where, t in pos.board.items():
            if t == tile:
                return IllegalActionError(
                    "flaming.on_pyramid_not_in_hand",
                    tile=NAMES[tile],
                    seat=seat,
                    spot=spot_name(where),
                )
        return IllegalActionError("flaming.not_in_hand", tile=NAMES[tile], seat=seat)
    spots = placement_spots(pos)
    if k in spots:
        return None
    listing = [spot_name(s) for s in spots]
    if k in pos.board:
        return IllegalActionError(
            "flaming.spot_taken",
            spot=spot_name(k),
            tile=NAMES[pos.board[k]],
            seat=seat,
            spots=listing,
        )
    return IllegalActionError(
        "flaming.spot_not_allowed", tile=NAMES[tile], spot=spot_name(k), seat=seat, spots=listing
    )
