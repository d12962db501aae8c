"""Mayhem (FP-MAYHEM): the five checks, resolving each event, and the loop between them.

Mayhem is looked for only around what changed. That is exactly the full scan of
FP-MAYHEM-2: at rest no event stands anywhere, an event can only appear where a tile
or one of its neighbours changed, so the changed places (``pos.candidates``) hold
every event, and the smallest key among them is the first in scan order. A position
read from JSON starts with every tile as a candidate, so standing mayhem in a
hand-made position is found by the first scan (FP-NOTE-8).

In call-out mode (FP-CALL) mayhem may stand at rest: ``first_event`` keeps every
candidate that holds an event, so the invariant becomes "every standing event is at a
candidate", and ``called_keys`` reads every event off them for a check.

Raw events are tuples appended to the ``events`` list each function receives. The
events that send tiles away end with ``out``: True when the family penalty (FP-CALL-6)
sends them out of the game instead of under a pile.
"""

from __future__ import annotations

from typing import Any

from pyramids.flaming.actions import LEFT
from pyramids.flaming.options import FlamingOptions
from pyramids.flaming.position import DIE, FALL, NONE, FlamingPosition, add_tile, remove_tile
from pyramids.flaming.tiles import (
    HALF,
    IGNITES,
    IS_EMBER,
    MATERIAL,
    NEIGHBOURS,
    SUPPORT_LEFT,
    SUPPORT_RIGHT,
    completes_curse,
    fits,
)
from pyramids.flaming.turn import end_turn

RawEvent = tuple[Any, ...]

# Mayhem check categories, in the order of FP-MAYHEM-1.
FREE_AIR, COLLAPSE, EXPLOSION, FIRE, CURSE = 1, 2, 3, 4, 5
_NO_EVENT = 9


def ember_check(pos: FlamingPosition, k: int, t: int) -> int:
    """Check 3 or 4 for the ember ``t`` at ``k``: EXPLOSION, FIRE or 0.

    FP-EXPLODE-1: it touches another ember. FP-FIRE-1, FP-FIRE-4: it touches a tile it
    ignites, however the contact arose, and is not quenched (FP-DIE-6; a quenched ember
    still explodes, and ``position.add_tile`` ends the quench when FP-DIE-6 says so).
    """
    board = pos.board
    embers = pos.embers
    ignites = 0 if t in pos.quenched else IGNITES[t]
    fire = False
    for off in NEIGHBOURS:
        n = k + off
        if n in embers:
            return EXPLOSION
        if ignites:
            nt = board.get(n)
            if nt is not None and MATERIAL[nt] & ignites:
                fire = True
    return FIRE if fire else 0


def mayhem_category(pos: FlamingPosition, k: int, t: int, curse_on: bool) -> int:
    """FP-MAYHEM-1: the first check that finds an event at ``k`` (tile ``t``), or 0.

    1 FP-AIR-1: a tile in row >= 1 with no support. 2 FP-COLLAPSE-1, FP-COLLAPSE-2: a
    supported tile in row >= 1 that does not fit (``tiles.fits``; FP-FIT-4: base tiles
    always fit). 3 and 4: ``ember_check``. 5 FP-CURSE-1, FP-CURSE-2, only with the curse
    on: a tile on two supports, all three of the same number (``tiles.completes_curse``).
    """
    board = pos.board
    s1 = s2 = None
    if k < -HALF:  # row >= 1
        s1 = board.get(k + SUPPORT_LEFT)
        s2 = board.get(k + SUPPORT_RIGHT)
        if s1 is None and s2 is None:
            return FREE_AIR
        if not fits(t, s1, s2):
            return COLLAPSE
    if IS_EMBER[t]:
        cat = ember_check(pos, k, t)
        if cat:
            return cat
    if curse_on and s1 is not None and s2 is not None and completes_curse(t, s1, s2):
        return CURSE
    return 0


def first_event(pos: FlamingPosition, curse_on: bool) -> tuple[int, int]:
    """FP-MAYHEM-2: (category, key) of the first event in check order then scan order, or (0, 0).

    Only the candidates are looked at; those with no event are dropped from them.
    """
    board = pos.board
    best_cat = _NO_EVENT
    best_k = 0
    live = []
    for k in pos.candidates:
        t = board.get(k)
        if t is None:
            continue
        cat = mayhem_category(pos, k, t, curse_on)
        if cat:
            live.append(k)
            if cat < best_cat or (cat == best_cat and k < best_k):
                best_cat = cat
                best_k = k
    if best_cat == _NO_EVENT:
        pos.candidates = set()
        return 0, 0
    pos.candidates = set(live)
    return best_cat, best_k


def resolve(pos: FlamingPosition, options: FlamingOptions, events: list[RawEvent]) -> None:
    """FP-MAYHEM-2, FP-MAYHEM-3, FP-MAYHEM-4, FP-MAYHEM-5: resolve events until a decision is needed or the turn ends (FP-END).

    Free air and collapse leave a fall pending for P (FP-AIR-1, FP-COLLAPSE-1); a fire
    with the fire die on leaves a roll pending (FP-DIE-1). FP-CALL-6: while overlooked
    mayhem found by a call is resolved in the family variant, the tiles go out of the
    game instead of under a pile. FP-CALL-7: the resolution leaves a clean pyramid.
    """
    curse_on = options.curse is True
    out = pos.overlooked and options.callout == "family"
    while True:
        cat, k = first_event(pos, curse_on) if pos.candidates else (0, 0)
        if cat == 0:
            pos.overlooked = False
            end_turn(pos, options, events)
            return
        p = pos.responsible
        if cat == FREE_AIR:
            events.append(("free_air", p, pos.board[k], k))
            pos.pending = FALL
            pos.pending_key = k
            return
        if cat == COLLAPSE:
            collapse(pos, k, p, events, out)
            return
        if cat == EXPLOSION:
            explode(pos, k, p, events, out)
        elif cat == FIRE:
            if options.fire_die:
                pos.pending = DIE
                pos.pending_key = k
                events.append(("fire_found", p, pos.board[k], k))
                return
            burn(pos, k, p, events, remove_ember=True, roll=0, out=out)
        else:
            curse(pos, k, p, events, out)


def to_out(pos: FlamingPosition, t: int) -> None:
    """Tile ``t`` leaves the game for good (listed in ``out``)."""
    pos.out.append(t)
    pos.in_play &= ~(1 << t)


def send_under(pos: FlamingPosition, seat: int, tiles: list[int], out: bool = False) -> None:
    """FP-MAYHEM-4: tiles go under ``seat``'s draw pile, in the given order (public knowledge).

    FP-CALL-6: with ``out`` (the family penalty) they go out of the game instead.
    """
    if out:
        for t in tiles:
            to_out(pos, t)
    else:
        pos.piles[seat].extend(tiles)


def collapse(
    pos: FlamingPosition, k: int, p: int, events: list[RawEvent], out: bool = False
) -> None:
    """FP-COLLAPSE-1, FP-COLLAPSE-2: the present supports go under P's pile, left first; a fall is pending."""
    board = pos.board
    t = board[k]
    gone = []
    for s in (k + SUPPORT_LEFT, k + SUPPORT_RIGHT):
        if s in board:
            gone.append((remove_tile(pos, s), s))
    send_under(pos, p, [g for g, _ in gone], out)
    events.append(("collapse", p, t, k, tuple(gone), out))
    pos.pending = FALL
    pos.pending_key = k


def fall(pos: FlamingPosition, side: int, events: list[RawEvent]) -> None:
    """FP-AIR-1, FP-AIR-2, FP-COLLAPSE-3: the pending tile drops left or right, to be judged again."""
    k = pos.pending_key
    pos.pending = NONE
    t = remove_tile(pos, k)
    target = k + (SUPPORT_LEFT if side == LEFT else SUPPORT_RIGHT)
    add_tile(pos, target, t)
    events.append(("fall", pos.responsible, t, k, target, side))


def ember_group(pos: FlamingPosition, k: int) -> tuple[list[int], list[int]]:
    """FP-EXPLODE-1: the keys of the embers joined to the ember at ``k`` through touching
    embers (``k`` included), and of every other tile touching them, both in scan order."""
    board = pos.board
    embers = pos.embers
    group = [k]
    seen = {k}
    for e in group:
        for off in NEIGHBOURS:
            n = e + off
            if n in embers and n not in seen:
                seen.add(n)
                group.append(n)
    victims = sorted({e + off for e in group for off in NEIGHBOURS if (e + off) in board} - seen)
    group.sort()
    return group, victims


def explode(
    pos: FlamingPosition, k: int, p: int, events: list[RawEvent], out: bool = False
) -> None:
    """FP-EXPLODE-1, FP-EXPLODE-2: the group of touching embers leaves, every tile touching it goes to P."""
    group, victims = ember_group(pos, k)
    ember_tiles = [(remove_tile(pos, e), e) for e in group]
    victim_tiles = [(remove_tile(pos, v), v) for v in victims]
    for t, _ in ember_tiles:
        to_out(pos, t)
    send_under(pos, p, [t for t, _ in victim_tiles], out)
    events.append(("explosion", p, tuple(ember_tiles), tuple(victim_tiles), out))


def fire_reach(board: dict[int, int], k: int, ignites: int) -> set[int]:
    """FP-FIRE-2: the keys a fire from ``k`` reaches: tiles of a material in ``ignites``
    joined to ``k`` through such tiles (``k`` itself not included)."""
    reached = {k}
    queue = [k]
    for q in queue:
        for off in NEIGHBOURS:
            n = q + off
            if n not in reached:
                nt = board.get(n)
                if nt is not None and MATERIAL[nt] & ignites:
                    reached.add(n)
                    queue.append(n)
    reached.discard(k)
    return reached


def burn(
    pos: FlamingPosition,
    k: int,
    p: int,
    events: list[RawEvent],
    *,
    remove_ember: bool,
    roll: int,
    out: bool = False,
) -> None:
    """FP-FIRE-2, FP-FIRE-3, FP-FIRE-5: every tile the ember ignites joined to it by such tiles burns.

    The burnt tiles go under P's pile in scan order; the ember leaves the game when
    ``remove_ember`` (no fire die, or roll 4: FP-DIE-3) and stays otherwise (FP-DIE-2).
    """
    board = pos.board
    ember = board[k]
    burnt = fire_reach(board, k, IGNITES[ember])
    victims = [(remove_tile(pos, v), v) for v in sorted(burnt)]
    pos.quenched.pop(ember, None)
    send_under(pos, p, [t for t, _ in victims], out)
    if remove_ember:
        remove_tile(pos, k)
        to_out(pos, ember)
    events.append(("fire", p, ember, k, tuple(victims), remove_ember, roll, out))


def curse(pos: FlamingPosition, k: int, p: int, events: list[RawEvent], out: bool = False) -> None:
    """FP-CURSE-3, FP-CURSE-4, FP-CURSE-5: the trio goes to the seat on P's right, who becomes P.

    The seat on the right of seat s is s-1 mod n (FP-SETUP-5).

    Turn order does not change (``to_move`` stays; the active player still draws).
    """
    target = (p - 1) % len(pos.hands)
    trio = [(remove_tile(pos, s), s) for s in (k, k + SUPPORT_LEFT, k + SUPPORT_RIGHT)]
    send_under(pos, target, [t for t, _ in trio], out)
    pos.responsible = target
    events.append(("curse", p, target, tuple(trio), out))


def die_explosion(
    pos: FlamingPosition, k: int, p: int, events: list[RawEvent], out: bool = False
) -> None:
    """FP-DIE-4: roll 5, the ember explodes alone; every tile touching it goes under P's pile."""
    board = pos.board
    ember = board[k]
    victims = [
        (remove_tile(pos, n), n) for n in sorted(k + o for o in NEIGHBOURS if k + o in board)
    ]
    remove_tile(pos, k)
    to_out(pos, ember)
    send_under(pos, p, [t for t, _ in victims], out)
    events.append(("die_explosion", p, ember, k, tuple(victims), out))


def quench(pos: FlamingPosition, k: int, p: int, events: list[RawEvent]) -> None:
    """FP-DIE-5, FP-DIE-6: roll 6, the fire goes out and the ember is quenched.

    It keeps the tiles touching it now; it lights no fire until it moves or a tile it
    ignites that is not among them comes to touch it (``position.ends_quench``).
    """
    board = pos.board
    ember = board[k]
    mask = 0
    for off in NEIGHBOURS:
        nt = board.get(k + off)
        if nt is not None:
            mask |= 1 << nt
    pos.quenched[ember] = mask
    events.append(("quench", p, ember, k))


def roll_die(
    pos: FlamingPosition, roll: int, options: FlamingOptions, events: list[RawEvent]
) -> None:
    """FP-DIE-1, FP-DIE-2, FP-DIE-3, FP-DIE-4, FP-DIE-5, FP-DIE-6: apply the pending fire-die ``roll`` (1 to 6), then go on with mayhem."""
    k = pos.pending_key
    pos.pending = NONE
    p = pos.responsible
    pos.quenched.pop(pos.board[k], None)
    out = pos.overlooked and options.callout == "family"
    if roll <= 4:
        burn(pos, k, p, events, remove_ember=roll == 4, roll=roll, out=out)
    elif roll == 5:
        die_explosion(pos, k, p, events, out)
    else:
        quench(pos, k, p, events)
    pos.candidates.add(k)
    resolve(pos, options, events)


# --- call-out mode (FP-CALL) ---------------------------------------------------------


def standing_mayhem(pos: FlamingPosition, curse_on: bool) -> bool:
    """FP-CALL-5: whether any check of FP-MAYHEM-1 would find an event now."""
    return bool(pos.candidates) and first_event(pos, curse_on)[0] != 0


def called_keys(pos: FlamingPosition, curse_on: bool) -> dict[int, int]:
    """FP-CALL-3: every position a call would be right about, with the first check (in
    check order) that acts on its tile.

    Each check scans the whole pyramid as it stands, independently of the others: a
    tile in free air (FP-AIR-1); a tile that does not fit and its present supports
    (FP-COLLAPSE-1); the embers of an exploding group and the tiles touching it
    (FP-EXPLODE-1); an unquenched ember touching what it ignites and every tile its
    fire would burn (FP-FIRE-1, FP-FIRE-2, FP-DIE-6); a cursed trio (FP-CURSE-2).
    """
    found: dict[int, int] = {}

    def mark(key: int, cat: int) -> None:
        if found.get(key, _NO_EVENT) > cat:
            found[key] = cat

    if not standing_mayhem(pos, curse_on):
        return found
    board = pos.board
    embers = pos.embers
    for k in pos.candidates:
        t = board[k]
        if k < -HALF:
            sl, sr = k + SUPPORT_LEFT, k + SUPPORT_RIGHT
            s1, s2 = board.get(sl), board.get(sr)
            if s1 is None and s2 is None:
                mark(k, FREE_AIR)
            elif not fits(t, s1, s2):
                mark(k, COLLAPSE)
                for s in (sl, sr):
                    if s in board:
                        mark(s, COLLAPSE)
            if curse_on and s1 is not None and s2 is not None and completes_curse(t, s1, s2):
                for s in (k, sl, sr):
                    mark(s, CURSE)
        if IS_EMBER[t]:
            if any(k + off in embers for off in NEIGHBOURS):
                group, victims = ember_group(pos, k)
                for v in (*group, *victims):
                    mark(v, EXPLOSION)
            if t not in pos.quenched:
                reach = fire_reach(board, k, IGNITES[t])
                if reach:
                    mark(k, FIRE)
                    for v in reach:
                        mark(v, FIRE)
    return found


CATEGORY_NAMES = {
    FREE_AIR: "free_air",
    COLLAPSE: "collapse",
    EXPLOSION: "explosion",
    FIRE: "fire",
    CURSE: "curse",
}
"""The check categories as the ``call`` event names them."""
