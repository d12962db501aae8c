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
from typing import Any, ClassVar

from pyramids.core.game import Event
from pyramids.flags.actions import TABLE
from pyramids.flags.cards import CARDS, CODES
from pyramids.flags.pieces import NAMES

GAME = "flags"
HIDDEN = "?"
"""A card the viewer may not see (PF-VIEW-4)."""


@dataclass(frozen=True)
class Move(Event):
    """PF-MOVE: ``seat`` moved ``pieces`` (bottom first) ``onto`` a piece or ``table``.

    ``off`` is the piece the group was lifted off (None: it stood on the table).
    """

    kind: ClassVar[str] = "move"
    game: ClassVar[str] = GAME
    seat: int
    pieces: tuple[str, ...]
    onto: str
    off: str | None


@dataclass(frozen=True)
class Tree(Event):
    """PF-TREE: ``piece`` completes the ``colour`` tree; ``seat`` earns its action."""

    kind: ClassVar[str] = "tree"
    game: ClassVar[str] = GAME
    seat: int
    colour: str
    piece: str


@dataclass(frozen=True)
class Swap(Event):
    """PF-SWAP: ``seat`` put ``card`` under the deck (``?`` when hidden)."""

    kind: ClassVar[str] = "swap"
    game: ClassVar[str] = GAME
    seat: int
    card: str


@dataclass(frozen=True)
class Draw(Event):
    """PF-DRAW: ``seat`` drew ``card`` (``?`` when hidden); ``why``: flag, swap or grow."""

    kind: ClassVar[str] = "draw"
    game: ClassVar[str] = GAME
    seat: int
    card: str
    why: str


@dataclass(frozen=True)
class NoDraw(Event):
    """PF-DRAW: the deck is empty; ``seat`` draws nothing (``why`` as for Draw)."""

    kind: ClassVar[str] = "no_draw"
    game: ClassVar[str] = GAME
    seat: int
    why: str


@dataclass(frozen=True)
class Flag(Event):
    """PF-FLAG: ``tower`` shows the flag of ``card`` (``country``); ``seat`` may capture ``pieces``."""

    kind: ClassVar[str] = "flag"
    game: ClassVar[str] = GAME
    seat: int
    card: str
    tower: tuple[str, ...]
    country: str
    pieces: tuple[str, ...]


@dataclass(frozen=True)
class NoCapture(Event):
    """PF-CAPTURE: none of the flag's scoring ``pieces`` can be taken."""

    kind: ClassVar[str] = "no_capture"
    game: ClassVar[str] = GAME
    seat: int
    card: str
    pieces: tuple[str, ...]


@dataclass(frozen=True)
class Take(Event):
    """PF-CAPTURE: ``seat`` captured ``piece`` from the bank (None) or from a seat."""

    kind: ClassVar[str] = "take"
    game: ClassVar[str] = GAME
    seat: int
    piece: str
    from_: int | None


@dataclass(frozen=True)
class CaptureDone(Event):
    """PF-CAPTURE: ``seat`` ended the capture for ``card``."""

    kind: ClassVar[str] = "capture_done"
    game: ClassVar[str] = GAME
    seat: int
    card: str


@dataclass(frozen=True)
class Win(Event):
    """PF-END: ``seat`` wins by ``condition`` (``flags``, ``group`` or ``points``); ``detail``."""

    kind: ClassVar[str] = "win"
    game: ClassVar[str] = GAME
    seat: int
    condition: str
    detail: int | str


@dataclass(frozen=True)
class ActionOffered(Event):
    """PF-ACTION: ``seat`` may use the ``colour`` tree's action (or decline)."""

    kind: ClassVar[str] = "action"
    game: ClassVar[str] = GAME
    seat: int
    colour: str


@dataclass(frozen=True)
class Lapse(Event):
    """PF-ACTION: the ``colour`` action has nothing to act on and lapses."""

    kind: ClassVar[str] = "lapse"
    game: ClassVar[str] = GAME
    seat: int
    colour: str


@dataclass(frozen=True)
class Decline(Event):
    """PF-ACTION: ``seat`` ended the ``colour`` action."""

    kind: ClassVar[str] = "decline"
    game: ClassVar[str] = GAME
    seat: int
    colour: str


@dataclass(frozen=True)
class ActionOver(Event):
    """PF-ACTION-R: every tower is a single pyramid; the ``colour`` action is over."""

    kind: ClassVar[str] = "action_over"
    game: ClassVar[str] = GAME
    seat: int
    colour: str


@dataclass(frozen=True)
class Split(Event):
    """PF-ACTION-R: ``seat`` destroyed the tower ``pieces`` into single pyramids."""

    kind: ClassVar[str] = "split"
    game: ClassVar[str] = GAME
    seat: int
    pieces: tuple[str, ...]


@dataclass(frozen=True)
class Trade(Event):
    """PF-ACTION-B: ``seat`` gave ``gives`` for seat ``with_``'s ``gets``."""

    kind: ClassVar[str] = "trade"
    game: ClassVar[str] = GAME
    seat: int
    gives: str
    gets: str
    with_: int


@dataclass(frozen=True)
class Grow(Event):
    """PF-ACTION-G: ``seat`` grows (two more goal cards)."""

    kind: ClassVar[str] = "grow"
    game: ClassVar[str] = GAME
    seat: int


@dataclass(frozen=True)
class NewStart(Event):
    """PF-ACTION-Y: the ``cards`` of all hands are gathered; ``seat`` deals them."""

    kind: ClassVar[str] = "newstart"
    game: ClassVar[str] = GAME
    seat: int
    cards: int


@dataclass(frozen=True)
class Deal(Event):
    """PF-ACTION-Y: ``dealer`` dealt ``hands`` (one list of card codes per seat, ``?`` hidden)."""

    kind: ClassVar[str] = "deal"
    game: ClassVar[str] = GAME
    dealer: int
    hands: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Pirate(Event):
    """PF-ACTION-K: ``seat``, the pirate, steals a card at random from ``victim``."""

    kind: ClassVar[str] = "pirate"
    game: ClassVar[str] = GAME
    seat: int
    victim: int


@dataclass(frozen=True)
class Steal(Event):
    """PF-ACTION-K: ``seat`` stole ``card`` (``?`` when hidden) from ``victim``."""

    kind: ClassVar[str] = "steal"
    game: ClassVar[str] = GAME
    seat: int
    victim: int
    card: str


@dataclass(frozen=True)
class Wild(Event):
    """PF-ACTION-W: the white tree stands for ``colour``."""

    kind: ClassVar[str] = "wild"
    game: ClassVar[str] = GAME
    seat: int
    colour: str


@dataclass(frozen=True)
class DeckOut(Event):
    """PF-END: the deck and every hand are empty; ``ranking`` by points, then flags."""

    kind: ClassVar[str] = "deck_out"
    game: ClassVar[str] = GAME
    ranking: tuple[int, ...]


@dataclass(frozen=True)
class MaxTurns(Event):
    """PF-END: the turn limit is reached; ``ranking`` by points, then flags."""

    kind: ClassVar[str] = "max_turns"
    game: ClassVar[str] = GAME
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
