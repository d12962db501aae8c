"""What happened: the rules' raw event tuples turned into typed Pyramids and Flags events.

The rules record events as cheap tuples (``FlagsState.raw_events()``), each kind's
layout declared once by field name (``RAW_EVENTS``, which the native engine builds by
name); ``from_raw`` turns one into a frozen dataclass with the facts in the game's notation (pieces such as
``B3``, cards such as ``CZE``, seats as numbers). With ``masked=True`` cards hidden from
the viewer appear as ``?`` (PF-VIEW-4): ``FlagsState.events_for(viewer)``. Events hold
no sentences: the words ("the tower B3 R2 W1 ... seat 1 lays it face up") come from
the host-level message catalogue ``pyramids.texts``, keyed ``flags.<kind>``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple

from pyramids.core.game import Event
from pyramids.flags.actions import TABLE
from pyramids.flags.cards import CARDS, CODES
from pyramids.flags.pieces import NAMES

GAME = "flags"


@dataclass(frozen=True)
class FlagsEvent(Event, game=GAME):
    """Base of every Pyramids and Flags event (``game`` is ``flags``; each kind names its ``kind``)."""


HIDDEN = "?"
"""A card the viewer may not see (PF-VIEW-4)."""


@dataclass(frozen=True)
class Move(FlagsEvent, kind="move"):
    """PF-MOVE: ``seat`` moved ``pieces`` (bottom first) ``onto`` a piece or ``table``.

    ``off`` is the piece the group was lifted off (None: it stood on the table).
    """

    seat: int
    pieces: tuple[str, ...]
    onto: str
    off: str | None


@dataclass(frozen=True)
class Tree(FlagsEvent, kind="tree"):
    """PF-TREE: ``piece`` completes the ``colour`` tree; ``seat`` earns its action."""

    seat: int
    colour: str
    piece: str


@dataclass(frozen=True)
class Swap(FlagsEvent, kind="swap"):
    """PF-SWAP: ``seat`` put ``card`` under the deck (``?`` when hidden)."""

    seat: int
    card: str


@dataclass(frozen=True)
class Draw(FlagsEvent, kind="draw"):
    """PF-DRAW: ``seat`` drew ``card`` (``?`` when hidden); ``why``: flag, swap or grow."""

    seat: int
    card: str
    why: str


@dataclass(frozen=True)
class NoDraw(FlagsEvent, kind="no_draw"):
    """PF-DRAW: the deck is empty; ``seat`` draws nothing (``why`` as for Draw)."""

    seat: int
    why: str


@dataclass(frozen=True)
class Flag(FlagsEvent, kind="flag"):
    """PF-FLAG: ``tower`` shows the flag of ``card`` (``country``); ``seat`` may capture ``pieces``."""

    seat: int
    card: str
    tower: tuple[str, ...]
    country: str
    pieces: tuple[str, ...]


@dataclass(frozen=True)
class NoCapture(FlagsEvent, kind="no_capture"):
    """PF-CAPTURE: none of the flag's scoring ``pieces`` can be taken."""

    seat: int
    card: str
    pieces: tuple[str, ...]


@dataclass(frozen=True)
class Take(FlagsEvent, kind="take"):
    """PF-CAPTURE: ``seat`` captured ``piece`` from the bank (None) or from a seat."""

    seat: int
    piece: str
    from_: int | None


@dataclass(frozen=True)
class CaptureDone(FlagsEvent, kind="capture_done"):
    """PF-CAPTURE: ``seat`` ended the capture for ``card``."""

    seat: int
    card: str


@dataclass(frozen=True)
class Win(FlagsEvent, kind="win"):
    """PF-END: ``seat`` wins by ``condition`` (``flags``, ``group`` or ``points``); ``detail``."""

    seat: int
    condition: str
    detail: int | str


@dataclass(frozen=True)
class ActionOffered(FlagsEvent, kind="action"):
    """PF-ACTION: ``seat`` may use the ``colour`` tree's action (or decline)."""

    seat: int
    colour: str


@dataclass(frozen=True)
class Lapse(FlagsEvent, kind="lapse"):
    """PF-ACTION: the ``colour`` action has nothing to act on and lapses."""

    seat: int
    colour: str


@dataclass(frozen=True)
class Decline(FlagsEvent, kind="decline"):
    """PF-ACTION: ``seat`` ended the ``colour`` action."""

    seat: int
    colour: str


@dataclass(frozen=True)
class ActionOver(FlagsEvent, kind="action_over"):
    """PF-ACTION-R: every tower is a single pyramid; the ``colour`` action is over."""

    seat: int
    colour: str


@dataclass(frozen=True)
class Split(FlagsEvent, kind="split"):
    """PF-ACTION-R: ``seat`` destroyed the tower ``pieces`` into single pyramids."""

    seat: int
    pieces: tuple[str, ...]


@dataclass(frozen=True)
class Trade(FlagsEvent, kind="trade"):
    """PF-ACTION-B: ``seat`` gave ``gives`` for seat ``with_``'s ``gets``."""

    seat: int
    gives: str
    gets: str
    with_: int


@dataclass(frozen=True)
class Grow(FlagsEvent, kind="grow"):
    """PF-ACTION-G: ``seat`` grows (two more goal cards)."""

    seat: int


@dataclass(frozen=True)
class NewStart(FlagsEvent, kind="newstart"):
    """PF-ACTION-Y: the ``cards`` of all hands are gathered; ``seat`` deals them."""

    seat: int
    cards: int


@dataclass(frozen=True)
class Deal(FlagsEvent, kind="deal"):
    """PF-ACTION-Y: ``dealer`` dealt ``hands`` (one list of card codes per seat, ``?`` hidden)."""

    dealer: int
    hands: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Pirate(FlagsEvent, kind="pirate"):
    """PF-ACTION-K: ``seat``, the pirate, steals a card at random from ``victim``."""

    seat: int
    victim: int


@dataclass(frozen=True)
class Steal(FlagsEvent, kind="steal"):
    """PF-ACTION-K: ``seat`` stole ``card`` (``?`` when hidden) from ``victim``."""

    seat: int
    victim: int
    card: str


@dataclass(frozen=True)
class Wild(FlagsEvent, kind="wild"):
    """PF-ACTION-W: the white tree stands for ``colour``."""

    seat: int
    colour: str


@dataclass(frozen=True)
class DeckOut(FlagsEvent, kind="deck_out"):
    """PF-END: the deck and every hand are empty; ``ranking`` by points, then flags."""

    ranking: tuple[int, ...]


@dataclass(frozen=True)
class MaxTurns(FlagsEvent, kind="max_turns"):
    """PF-END: the turn limit is reached; ``ranking`` by points, then flags."""

    ranking: tuple[int, ...]


EVENT_KINDS: tuple[type[Event], ...] = (
    Move,
    Tree,
    Swap,
    Draw,
    NoDraw,
    Flag,
    NoCapture,
    Take,
    CaptureDone,
    Win,
    ActionOffered,
    Lapse,
    Decline,
    ActionOver,
    Split,
    Trade,
    Grow,
    NewStart,
    Deal,
    Pirate,
    Steal,
    Wild,
    DeckOut,
    MaxTurns,
)
"""Every Pyramids and Flags event class (the descriptor's ``event_kinds``)."""


# --- the raw layouts -------------------------------------------------------------------
# Each raw kind's tuple declared once, by field name: the Python rules build plain tuples
# in this order (the cheap hot-path form); the native engine builds these classes by field
# name (``raw_events(RAW_EVENTS)``), so a field added, removed or renamed on one side only
# is a TypeError naming it, never a shifted value. Pieces and cards are numbers here
# (``pieces.NAMES``, ``cards.CODES``).


class RawMove(NamedTuple):
    """``move``: ``seat`` moved ``group`` (bottom first, ``lowest`` its base) onto ``target`` (``TABLE``) off ``old`` (-1: the table)."""

    kind: str
    seat: int
    lowest: int
    target: int
    group: tuple[int, ...]
    old: int


class RawTree(NamedTuple):
    """``tree``: ``lowest`` completes the ``colour`` tree for ``seat``."""

    kind: str
    seat: int
    colour: str
    lowest: int


class RawSwap(NamedTuple):
    """``swap``: ``seat`` put ``card`` under the deck."""

    kind: str
    seat: int
    card: int


class RawDraw(NamedTuple):
    """``draw``: ``seat`` drew ``card``; ``why``: flag, swap or grow."""

    kind: str
    seat: int
    card: int
    why: str


class RawNoDraw(NamedTuple):
    """``no_draw``: the deck is empty; ``seat`` draws nothing."""

    kind: str
    seat: int
    why: str


class RawFlag(NamedTuple):
    """``flag``: ``seat`` raised the flag of ``card``."""

    kind: str
    seat: int
    card: int


class RawNoCapture(NamedTuple):
    """``no_capture``: the flag of ``card`` captures nothing."""

    kind: str
    seat: int
    card: int


class RawTake(NamedTuple):
    """``take``: ``seat`` took ``piece`` from ``source`` (-1: the supply)."""

    kind: str
    seat: int
    piece: int
    source: int


class RawCaptureDone(NamedTuple):
    """``capture_done``: the capture of ``card`` is over."""

    kind: str
    seat: int
    card: int


class RawWin(NamedTuple):
    """``win``: ``seat`` wins by ``condition`` (flags, group, points) with ``detail``."""

    kind: str
    seat: int
    condition: str
    detail: Any


class RawAction(NamedTuple):
    """``action``: ``seat`` is offered the ``colour`` tree action."""

    kind: str
    seat: int
    colour: str


class RawLapse(NamedTuple):
    """``lapse``: the ``colour`` action of ``seat`` lapses."""

    kind: str
    seat: int
    colour: str


class RawDecline(NamedTuple):
    """``decline``: ``seat`` declines the ``colour`` action."""

    kind: str
    seat: int
    colour: str


class RawActionOver(NamedTuple):
    """``action_over``: the ``colour`` action of ``seat`` is over."""

    kind: str
    seat: int
    colour: str


class RawSplit(NamedTuple):
    """``split``: ``seat`` split ``pieces`` off."""

    kind: str
    seat: int
    pieces: tuple[int, ...]


class RawTrade(NamedTuple):
    """``trade``: ``seat`` traded ``mine`` for ``theirs`` with ``partner``."""

    kind: str
    seat: int
    mine: int
    theirs: int
    partner: int


class RawGrow(NamedTuple):
    """``grow``: ``seat`` grows."""

    kind: str
    seat: int


class RawNewStart(NamedTuple):
    """``newstart``: the ``cards`` of all hands are gathered; ``seat`` deals them."""

    kind: str
    seat: int
    cards: int


class RawDeal(NamedTuple):
    """``deal``: ``dealer`` dealt ``hands`` (card numbers per seat)."""

    kind: str
    dealer: int
    hands: tuple[tuple[int, ...], ...]


class RawPirate(NamedTuple):
    """``pirate``: ``seat`` steals at random from ``victim``."""

    kind: str
    seat: int
    victim: int


class RawSteal(NamedTuple):
    """``steal``: ``seat`` stole ``card`` from ``victim``."""

    kind: str
    seat: int
    victim: int
    card: int


class RawWild(NamedTuple):
    """``wild``: the white tree of ``seat`` stands for ``colour``."""

    kind: str
    seat: int
    colour: str


class RawDeckOut(NamedTuple):
    """``deck_out``: deck and hands are empty; a rank per seat."""

    kind: str
    ranking: tuple[int, ...]


class RawMaxTurns(NamedTuple):
    """``max_turns``: the turn limit is reached; a rank per seat."""

    kind: str
    ranking: tuple[int, ...]


RAW_EVENTS: Mapping[str, type[tuple[Any, ...]]] = MappingProxyType(
    {
        "move": RawMove,
        "tree": RawTree,
        "swap": RawSwap,
        "draw": RawDraw,
        "no_draw": RawNoDraw,
        "flag": RawFlag,
        "no_capture": RawNoCapture,
        "take": RawTake,
        "capture_done": RawCaptureDone,
        "win": RawWin,
        "action": RawAction,
        "lapse": RawLapse,
        "decline": RawDecline,
        "action_over": RawActionOver,
        "split": RawSplit,
        "trade": RawTrade,
        "grow": RawGrow,
        "newstart": RawNewStart,
        "deal": RawDeal,
        "pirate": RawPirate,
        "steal": RawSteal,
        "wild": RawWild,
        "deck_out": RawDeckOut,
        "max_turns": RawMaxTurns,
    }
)
"""Raw kind -> its layout (the native engine builds these by field name)."""


def _names(pieces: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(map(NAMES.__getitem__, pieces))


def _move(raw: tuple[Any, ...]) -> Event:
    target, old = raw[3], raw[5]
    onto = "table" if target == TABLE else NAMES[target]
    return Move(raw[1], _names(raw[4]), onto, None if old < 0 else NAMES[old])


def _flag(raw: tuple[Any, ...]) -> Event:
    card = CARDS[raw[2]]
    return Flag(raw[1], CODES[raw[2]], _names(card.tower), card.country, _names(card.pieces))


_PUBLIC: dict[str, Callable[[tuple[Any, ...]], Event]] = {
    "move": _move,
    "tree": lambda r: Tree(r[1], r[2], NAMES[r[3]]),
    "no_draw": lambda r: NoDraw(r[1], r[2]),
    "flag": _flag,
    "no_capture": lambda r: NoCapture(r[1], CODES[r[2]], _names(CARDS[r[2]].pieces)),
    "take": lambda r: Take(r[1], NAMES[r[2]], None if r[3] < 0 else r[3]),
    "capture_done": lambda r: CaptureDone(r[1], CODES[r[2]]),
    "win": lambda r: Win(r[1], r[2], r[3]),
    "split": lambda r: Split(r[1], _names(r[2])),
    "trade": lambda r: Trade(r[1], NAMES[r[2]], NAMES[r[3]], r[4]),
    "newstart": lambda r: NewStart(r[1], r[2]),
    "pirate": lambda r: Pirate(r[1], r[2]),
    "action": lambda r: ActionOffered(r[1], r[2]),
    "lapse": lambda r: Lapse(r[1], r[2]),
    "decline": lambda r: Decline(r[1], r[2]),
    "action_over": lambda r: ActionOver(r[1], r[2]),
    "grow": lambda r: Grow(r[1]),
    "wild": lambda r: Wild(r[1], r[2]),
    "deck_out": lambda r: DeckOut(tuple(r[1])),
    "max_turns": lambda r: MaxTurns(tuple(r[1])),
}
"""Raw kind -> the typed event, for the kinds that name no hidden card."""


def _hiding(raw: tuple[Any, ...], viewer: int | None, masked: bool) -> Event:
    """An event that names a card only some seats see (PF-VIEW-4)."""
    kind = raw[0]

    def card(code: int, *seen_by: int) -> str:
        return CODES[code] if not masked or viewer in seen_by else HIDDEN

    if kind == "swap":
        return Swap(raw[1], card(raw[2], raw[1]))
    if kind == "draw":
        return Draw(raw[1], card(raw[2], raw[1]), raw[3])
    if kind == "steal":
        thief, victim = raw[1], raw[2]
        return Steal(thief, victim, card(raw[3], thief, victim))
    hands = raw[2]
    return Deal(raw[1], tuple(tuple(card(c, s) for c in h) for s, h in enumerate(hands)))


def from_raw(raw: tuple[Any, ...], viewer: int | None, *, masked: bool = False) -> Event:
    """The typed event for one raw event (a tuple in its ``RAW_EVENTS`` layout's order),
    as ``viewer`` may see it when ``masked``."""
    public = _PUBLIC.get(raw[0])
    if public is not None:
        return public(raw)
    return _hiding(raw, viewer, masked)


"""Old name of ``from_raw`` (flags/state.py imports it)."""
