"""Position builders and shorthands for the Flaming Pyramids rules tests.

Positions are written in the contract's JSON notation (section 11): tiles on the
pyramid as ``TILE@row,col``, hands and piles as tile codes, ``piles[i][0]`` the top.
``position`` builds the JSON and loads it with ``position_from_json``; ``play``
applies actions written as text and returns every event they caused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pyramids.core import Event
from pyramids.flaming import FlamingState, position_from_json
from pyramids.flaming.tiles import spot_name


def position_json(
    *,
    hands: Sequence[Sequence[str]],
    pyramid: Sequence[str] = (),
    piles: Sequence[Sequence[str]] | None = None,
    to_move: int = 0,
    players: int | None = None,
    rules: Mapping[str, Any] | None = None,
    turn: int = 1,
    out: Sequence[str] = (),
    pending: Mapping[str, Any] | None = None,
    quenched: Mapping[str, Sequence[str]] | None = None,
    winner: int | None = None,
    ranking: Sequence[int] | None = None,
    overlooked: bool = False,
) -> dict[str, Any]:
    """The position as the contract's JSON object (piles default to empty)."""
    n = len(hands) if players is None else players
    data: dict[str, Any] = {
        "rules": dict(rules) if rules is not None else {"preset": "standard"},
        "players": n,
        "to_move": to_move,
        "turn": turn,
        "pyramid": list(pyramid),
        "hands": [list(h) for h in hands],
        "piles": [list(p) for p in piles] if piles is not None else [[] for _ in range(n)],
        "out": list(out),
    }
    if pending is not None:
        data["pending"] = dict(pending)
    if quenched is not None:
        data["quenched"] = {k: list(v) for k, v in quenched.items()}
    if winner is not None:
        data["winner"] = winner
    if ranking is not None:
        data["ranking"] = list(ranking)
    if overlooked:
        data["overlooked"] = True
    return data


def position(
    *,
    hands: Sequence[Sequence[str]],
    pyramid: Sequence[str] = (),
    piles: Sequence[Sequence[str]] | None = None,
    to_move: int = 0,
    players: int | None = None,
    rules: Mapping[str, Any] | None = None,
    turn: int = 1,
    out: Sequence[str] = (),
    pending: Mapping[str, Any] | None = None,
    quenched: Mapping[str, Sequence[str]] | None = None,
    winner: int | None = None,
    ranking: Sequence[int] | None = None,
    overlooked: bool = False,
) -> FlamingState:
    """A FlamingState loaded from the JSON notation (see ``position_json``)."""
    return position_from_json(
        position_json(
            hands=hands,
            pyramid=pyramid,
            piles=piles,
            to_move=to_move,
            players=players,
            rules=rules,
            turn=turn,
            out=out,
            pending=pending,
            quenched=quenched,
            winner=winner,
            ranking=ranking,
            overlooked=overlooked,
        )
    )


def play(state: FlamingState, *actions: str) -> list[Event]:
    """Apply the actions (text) in order; return every event they caused, in order."""
    events: list[Event] = []
    for text in actions:
        state.apply(state.parse_action(text))
        events.extend(state.events())
    return events


def kinds(events: Sequence[Event]) -> list[str]:
    """The kinds of the events, in order."""
    return [e.kind for e in events]


def of_kind(events: Sequence[Event], kind: str) -> list[Event]:
    """The events of one kind, in order."""
    return [e for e in events if e.kind == kind]


def pyramid(state: FlamingState) -> list[str]:
    """The pyramid as written in the notation, base first."""
    result: list[str] = state.to_json()["pyramid"]
    return result


def piles(state: FlamingState) -> list[list[str]]:
    """Every seat's draw pile, top first."""
    result: list[list[str]] = state.to_json()["piles"]
    return result


def hands(state: FlamingState) -> list[list[str]]:
    """Every seat's hand."""
    result: list[list[str]] = state.to_json()["hands"]
    return result


def out(state: FlamingState) -> list[str]:
    """The tiles removed from the game."""
    result: list[str] = state.to_json()["out"]
    return result


def spots(state: FlamingState) -> list[str]:
    """The placement spots as ``row,col``, in scan order."""
    return [spot_name(k) for k in state.placement_spots()]


def legal(state: FlamingState) -> list[str]:
    """The legal actions as text."""
    return [state.action_to_string(a) for a in state.legal_actions()]
