"""What happened: the rules' raw event tuples turned into typed Pyramids and Flags events.

The rules record events as cheap tuples (``FlagsState.raw_events()``); ``from_raw``
turns one into a frozen dataclass with the facts in the game's notation (pieces such as
``B3``, cards such as ``CZE``, seats as numbers). With ``masked=True`` cards hidden from
the viewer appear as ``?`` (PF-VIEW-4): ``FlagsState.events_for(viewer)``. Events hold
no sentences: the words ("the tower B3 R2 W1 ... seat 1 lays it face up") come from
the host-level message catalogue ``pyramids.texts``, keyed ``flags.<kind>``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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


def _names(pieces: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(NAMES[p] for p in pieces)


def _move(raw: tuple[Any, ...]) -> Event:
    _, seat, _lowest, target, group, old = raw
    onto = "table" if target == TABLE else NAMES[target]
    return Move(seat, _names(group), onto, None if old < 0 else NAMES[old])


def _win(raw: tuple[Any, ...]) -> Event:
    _, seat, how, detail = raw
    return Win(seat, how, detail)


def _public(raw: tuple[Any, ...]) -> Event:
    """An event that names no hidden card."""
    kind = raw[0]
    if kind == "move":
        return _move(raw)
    if kind == "tree":
        return Tree(raw[1], raw[2], NAMES[raw[3]])
    if kind == "no_draw":
        return NoDraw(raw[1], raw[2])
    if kind == "flag":
        card = CARDS[raw[2]]
        return Flag(raw[1], CODES[raw[2]], _names(card.tower), card.country, _names(card.pieces))
    if kind == "no_capture":
        return NoCapture(raw[1], CODES[raw[2]], _names(CARDS[raw[2]].pieces))
    if kind == "take":
        return Take(raw[1], NAMES[raw[2]], None if raw[3] < 0 else raw[3])
    if kind == "capture_done":
        return CaptureDone(raw[1], CODES[raw[2]])
    if kind == "win":
        return _win(raw)
    if kind == "split":
        return Split(raw[1], _names(raw[2]))
    if kind == "trade":
        _, seat, mine, theirs, other = raw
        return Trade(seat, NAMES[mine], NAMES[theirs], other)
    if kind == "newstart":
        return NewStart(raw[1], raw[2])
    if kind == "pirate":
        return Pirate(raw[1], raw[2])
    return _SIMPLE[kind](*raw[1:])


_SIMPLE: dict[str, Callable[..., Event]] = {
    "action": ActionOffered,
    "lapse": Lapse,
    "decline": Decline,
    "action_over": ActionOver,
    "grow": Grow,
    "wild": Wild,
    "deck_out": lambda ranking: DeckOut(tuple(ranking)),
    "max_turns": lambda ranking: MaxTurns(tuple(ranking)),
}


def from_raw(raw: tuple[Any, ...], viewer: int | None, *, masked: bool = False) -> Event:
    """The typed event for one raw event tuple, as ``viewer`` may see it when ``masked``."""
    kind = raw[0]

    def card(code: int, *seen_by: int) -> str:
        return CODES[code] if not masked or viewer in seen_by else HIDDEN

    if kind == "swap":
        return Swap(raw[1], card(raw[2], raw[1]))
    if kind == "draw":
        return Draw(raw[1], card(raw[2], raw[1]), raw[3])
    if kind == "steal":
        _, thief, victim, code = raw
        return Steal(thief, victim, card(code, thief, victim))
    if kind == "deal":
        _, dealer, hands = raw
        return Deal(dealer, tuple(tuple(card(c, s) for c in h) for s, h in enumerate(hands)))
    return _public(raw)


"""Old name of ``from_raw`` (flags/state.py imports it)."""
