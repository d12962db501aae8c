"""What happened: the rules' raw event tuples turned into typed Flaming Pyramids events.

The rules record events on the hot path as cheap tuples (``FlamingState.raw_events()``),
each kind's layout declared once by field name (``RAW_EVENTS``, which the native engine
builds by name); ``from_raw`` turns one into a frozen dataclass with the facts in the
game's notation (tile names such as ``B100``, spots such as ``1,1``). Events hold no sentences: the
words ("B100 at 1,1 is too heavy: 100 > 20 + 6; G20 and R6 collapse under seat 0's
pile") come from the host-level message catalogue ``pyramids.texts``, keyed
``flaming.<kind>`` and filled from ``event.data``. Every event is public (FP-VIEW), so
``events_for`` is the default.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any, NamedTuple

from pyramids.core.game import Event
from pyramids.flaming.tiles import MATERIAL, NAMES, WEIGHT, fit_parts, spot_name

GAME = "flaming"


@dataclass(frozen=True)
class FlamingEvent(Event, game=GAME):
    """Base of every Flaming Pyramids event (``game`` is ``flaming``; each kind names its ``kind``)."""


@dataclass(frozen=True)
class Cell:
    """A tile on a spot: ``{"tile": "G20", "at": "0,2"}`` in ``data``."""

    tile: str
    at: str


@dataclass(frozen=True)
class SetupRemoved(FlamingEvent, kind="setup_removed"):
    """FP-SETUP: an ember among the leftover tiles is removed from the game."""

    tile: str


@dataclass(frozen=True)
class Place(FlamingEvent, kind="place"):
    """FP-PLACE: ``seat`` placed ``tile`` at ``at``."""

    seat: int
    tile: str
    at: str


@dataclass(frozen=True)
class FreeAir(FlamingEvent, kind="free_air"):
    """FP-FALL: ``tile`` at ``at`` has nothing under it; ``seat`` chooses its fall."""

    seat: int
    tile: str
    at: str


@dataclass(frozen=True)
class Collapse(FlamingEvent, kind="collapse"):
    """FP-FIT / FP-COLLAPSE: ``tile`` at ``at`` did not fit; ``collapsed`` go under ``seat``'s pile.

    ``reason`` says which half of FP-FIT failed: ``too_heavy`` (``weight`` above the sum
    of ``support_weights``, the collapsed supports' weights), ``no_match`` (no colour and
    no number in common with the supports) or ``too_heavy_no_match``.
    """

    seat: int
    tile: str
    at: str
    collapsed: tuple[Cell, ...]
    reason: str
    weight: int
    support_weights: tuple[int, ...]
    out: bool = False
    """FP-CALL-6: the tiles go out of the game instead (the family penalty)."""


@dataclass(frozen=True)
class Fall(FlamingEvent, kind="fall"):
    """FP-FALL: ``seat`` let ``tile`` fall ``side`` (``left``/``right``) from one spot to another."""

    seat: int
    tile: str
    from_: str
    to: str
    side: str


@dataclass(frozen=True)
class Explosion(FlamingEvent, kind="explosion"):
    """FP-EMBER: touching ``embers`` explode; ``victims`` go under ``seat``'s pile."""

    seat: int
    embers: tuple[Cell, ...]
    victims: tuple[Cell, ...]
    out: bool = False


@dataclass(frozen=True)
class FireFound(FlamingEvent, kind="fire_found"):
    """FP-DIE: ``ember`` at ``at`` touches what it ignites; ``seat`` rolls the fire die."""

    seat: int
    ember: str
    at: str


@dataclass(frozen=True)
class Fire(FlamingEvent, kind="fire"):
    """FP-FIRE / FP-DIE: ``ember`` burns ``burnt`` (made of ``materials``: straw, wood).

    ``roll`` is the fire die (None without the die); ``ember_removed`` whether the ember
    leaves the game.
    """

    seat: int
    ember: str
    at: str
    burnt: tuple[Cell, ...]
    ember_removed: bool
    roll: int | None
    materials: tuple[str, ...]
    out: bool = False


@dataclass(frozen=True)
class DieExplosion(FlamingEvent, kind="die_explosion"):
    """FP-DIE-5: ``ember`` explodes alone; ``victims`` go under ``seat``'s pile."""

    seat: int
    ember: str
    at: str
    victims: tuple[Cell, ...]
    out: bool = False


@dataclass(frozen=True)
class Quench(FlamingEvent, kind="quench"):
    """FP-DIE-6: the fire goes out; ``ember`` stays, quenched."""

    seat: int
    ember: str
    at: str


@dataclass(frozen=True)
class Curse(FlamingEvent, kind="curse"):
    """FP-CURSE: three ``tiles`` of one ``weight`` (top first) go under ``target``'s pile."""

    seat: int
    target: int
    tiles: tuple[Cell, ...]
    weight: int
    out: bool = False


@dataclass(frozen=True)
class CheckOk(FlamingEvent, kind="check_ok"):
    """FP-CALL-3: the checker ``seat`` says the pyramid is fine (whether or not it is)."""

    seat: int


@dataclass(frozen=True)
class FalseAlarm(FlamingEvent, kind="false_alarm"):
    """FP-CALL-4: ``seat`` called the tile at ``at``, which breaks no rule. Nothing else is said."""

    seat: int
    at: str


@dataclass(frozen=True)
class Call(FlamingEvent, kind="call"):
    """FP-CALL-4, FP-CALL-6: ``seat`` rightly called ``tile`` at ``at``; the mayhem is resolved.

    ``found`` is the first check (free_air, collapse, explosion, fire, curse) that acts
    on the called tile; ``overlooked``: mayhem overlooked at an earlier check stood when
    this one began, so the variant's penalty applies to this resolution.
    """

    seat: int
    tile: str
    at: str
    found: str
    overlooked: bool


@dataclass(frozen=True)
class Draw(FlamingEvent, kind="draw"):
    """FP-DRAW: ``seat`` drew ``count`` tiles."""

    seat: int
    count: int


@dataclass(frozen=True)
class Win(FlamingEvent, kind="win"):
    """FP-END: ``seat`` has no tiles left and wins."""

    seat: int


@dataclass(frozen=True)
class MaxTurns(FlamingEvent, kind="max_turns"):
    """FP-END-4: the turn limit is reached; ``ranking`` is a rank per seat by tiles left."""

    ranking: tuple[int, ...]


EVENT_KINDS: tuple[type[Event], ...] = (
    SetupRemoved,
    Place,
    FreeAir,
    Collapse,
    Fall,
    Explosion,
    FireFound,
    Fire,
    DieExplosion,
    Quench,
    Curse,
    CheckOk,
    FalseAlarm,
    Call,
    Draw,
    Win,
    MaxTurns,
)
"""Every Flaming Pyramids event class (the descriptor's ``event_kinds``)."""


# --- the raw layouts -------------------------------------------------------------------
# Each raw kind's tuple declared once, by field name: the Python rules build plain tuples
# in this order (the cheap hot-path form); the native engine builds these classes by field
# name (``raw_events(RAW_EVENTS)``), so a field added, removed or renamed on one side only
# is a TypeError naming it, never a shifted value. Tiles and spots are numbers here
# (``tiles.NAMES``, ``spot_name``); cells are ``(tile, spot)`` pairs.


class RawSetupRemoved(NamedTuple):
    """``setup_removed``: ``tile`` (an ember) leaves the game at setup."""

    kind: str
    tile: int


class RawPlace(NamedTuple):
    """``place``: ``seat`` placed ``tile`` on the spot ``at``."""

    kind: str
    seat: int
    tile: int
    at: int


class RawFreeAir(NamedTuple):
    """``free_air``: ``tile`` on ``at`` has nothing under it; ``seat`` chooses its fall."""

    kind: str
    seat: int
    tile: int
    at: int


class RawCollapse(NamedTuple):
    """``collapse``: ``tile`` on ``at`` did not fit; the ``collapsed`` cells go to ``seat``."""

    kind: str
    seat: int
    tile: int
    at: int
    collapsed: tuple[tuple[int, int], ...]
    out: bool


class RawFall(NamedTuple):
    """``fall``: ``seat`` let ``tile`` fall from ``at`` to ``to`` on ``side`` (0 left, 1 right)."""

    kind: str
    seat: int
    tile: int
    at: int
    to: int
    side: int


class RawExplosion(NamedTuple):
    """``explosion``: touching ``embers`` explode; ``victims`` go to ``seat``."""

    kind: str
    seat: int
    embers: tuple[tuple[int, int], ...]
    victims: tuple[tuple[int, int], ...]
    out: bool


class RawFireFound(NamedTuple):
    """``fire_found``: ``ember`` on ``at`` touches what it ignites."""

    kind: str
    seat: int
    ember: int
    at: int


class RawFire(NamedTuple):
    """``fire``: ``ember`` on ``at`` burns ``burnt``; ``roll`` 0 without the die."""

    kind: str
    seat: int
    ember: int
    at: int
    burnt: tuple[tuple[int, int], ...]
    ember_removed: bool
    roll: int
    out: bool


class RawDieExplosion(NamedTuple):
    """``die_explosion``: ``ember`` on ``at`` explodes alone; ``victims`` go to ``seat``."""

    kind: str
    seat: int
    ember: int
    at: int
    victims: tuple[tuple[int, int], ...]
    out: bool


class RawQuench(NamedTuple):
    """``quench``: the fire of ``ember`` on ``at`` goes out."""

    kind: str
    seat: int
    ember: int
    at: int


class RawCurse(NamedTuple):
    """``curse``: three ``tiles`` of one weight go to ``target``."""

    kind: str
    seat: int
    target: int
    tiles: tuple[tuple[int, int], ...]
    out: bool


class RawCheckOk(NamedTuple):
    """``check_ok``: the checker ``seat`` says the pyramid is fine."""

    kind: str
    seat: int


class RawFalseAlarm(NamedTuple):
    """``false_alarm``: ``seat`` called the spot ``at`` (any integer, as called)."""

    kind: str
    seat: int
    at: int


class RawCall(NamedTuple):
    """``call``: ``seat`` rightly called ``tile`` on ``at``; ``found`` the check's category."""

    kind: str
    seat: int
    tile: int
    at: int
    found: str
    overlooked: bool


class RawDraw(NamedTuple):
    """``draw``: ``seat`` drew ``drawn`` tiles."""

    kind: str
    seat: int
    drawn: int


class RawWin(NamedTuple):
    """``win``: ``seat`` has no tiles left."""

    kind: str
    seat: int


class RawMaxTurns(NamedTuple):
    """``max_turns``: the turn limit is reached; a rank per seat."""

    kind: str
    ranking: tuple[int, ...]


RAW_EVENTS: Mapping[str, type[tuple[Any, ...]]] = MappingProxyType(
    {
        "setup_removed": RawSetupRemoved,
        "place": RawPlace,
        "free_air": RawFreeAir,
        "collapse": RawCollapse,
        "fall": RawFall,
        "explosion": RawExplosion,
        "fire_found": RawFireFound,
        "fire": RawFire,
        "die_explosion": RawDieExplosion,
        "quench": RawQuench,
        "curse": RawCurse,
        "check_ok": RawCheckOk,
        "false_alarm": RawFalseAlarm,
        "call": RawCall,
        "draw": RawDraw,
        "win": RawWin,
        "max_turns": RawMaxTurns,
    }
)
"""Raw kind -> its layout (the native engine builds these by field name)."""


_spot = lru_cache(maxsize=4096)(spot_name)
"""``spot_name``, remembered: the spots of one game repeat in every event (a bounded cache,
so odd keys called out in a check cannot grow it)."""


def _cells(pairs: Sequence[tuple[int, int]]) -> tuple[Cell, ...]:
    return tuple([Cell(NAMES[t], _spot(k)) for t, k in pairs])


def collapse_reason(tile: int, supports: Sequence[int]) -> str:
    """Which half of FP-FIT ``tile`` fails on ``supports``: ``too_heavy``, ``no_match`` or both.

    Too heavy: its weight exceeds the supports' sum. No match: no colour in common with
    any support and a weight equal to none of theirs.
    """
    heavy, mismatch = fit_parts(tile, list(supports))
    if heavy and mismatch:
        return "too_heavy_no_match"
    return "too_heavy" if heavy else "no_match"


def _collapse(raw: tuple[Any, ...]) -> Event:
    _, p, t, k, gone, out = raw
    supports = [g for g, _ in gone]
    return Collapse(
        p,
        NAMES[t],
        _spot(k),
        _cells(gone),
        collapse_reason(t, supports),
        WEIGHT[t],
        tuple(WEIGHT[s] for s in supports),
        out,
    )


def _fire(raw: tuple[Any, ...]) -> Event:
    _, p, e, k, victims, removed, roll, out = raw
    materials = tuple(m.name.lower() for m in sorted({MATERIAL[t] for t, _ in victims}))
    return Fire(p, NAMES[e], _spot(k), _cells(victims), removed, roll or None, materials, out)


_BUILDERS: dict[str, Callable[[tuple[Any, ...]], Event]] = {
    "setup_removed": lambda r: SetupRemoved(NAMES[r[1]]),
    "place": lambda r: Place(r[1], NAMES[r[2]], _spot(r[3])),
    "free_air": lambda r: FreeAir(r[1], NAMES[r[2]], _spot(r[3])),
    "collapse": _collapse,
    "fall": lambda r: Fall(
        r[1], NAMES[r[2]], _spot(r[3]), _spot(r[4]), "left" if r[5] == 0 else "right"
    ),
    "explosion": lambda r: Explosion(r[1], _cells(r[2]), _cells(r[3]), r[4]),
    "fire_found": lambda r: FireFound(r[1], NAMES[r[2]], _spot(r[3])),
    "fire": _fire,
    "die_explosion": lambda r: DieExplosion(r[1], NAMES[r[2]], _spot(r[3]), _cells(r[4]), r[5]),
    "quench": lambda r: Quench(r[1], NAMES[r[2]], _spot(r[3])),
    "curse": lambda r: Curse(r[1], r[2], _cells(r[3]), WEIGHT[r[3][0][0]], r[4]),
    "check_ok": lambda r: CheckOk(r[1]),
    "false_alarm": lambda r: FalseAlarm(r[1], _spot(r[2])),
    "call": lambda r: Call(r[1], NAMES[r[2]], _spot(r[3]), r[4], r[5]),
    "draw": lambda r: Draw(r[1], r[2]),
    "win": lambda r: Win(r[1]),
    "max_turns": lambda r: MaxTurns(tuple(r[1])),
}


def from_raw(raw: tuple[Any, ...]) -> Event:
    """The typed event for one raw event (a tuple in its ``RAW_EVENTS`` layout's order)."""
    return _BUILDERS[raw[0]](raw)


"""Old name of ``from_raw`` (flaming/state.py imports it)."""
