"""Tests of Pyramids and Flags (``pyramids.flags``); helpers to write positions briefly.

``position(...)`` builds a contract JSON position from the few facts a test cares about:
towers not listed stay single pyramids, scoring pieces not held stay in the bank, and
cards not placed go to the deck (or to a hand, for an empty deck) in code order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pyramids.flags import FlagsState, position_from_json
from pyramids.flags.cards import CODES
from pyramids.flags.pieces import NAMES

FLAG_PIECES = NAMES[:18]
SCORING_PIECES = NAMES[18:]


def position(
    players: int = 2,
    *,
    towers: Sequence[Sequence[str]] = (),
    scoring: Sequence[Sequence[str]] | None = None,
    hands: Sequence[Sequence[str]] | None = None,
    scored: Sequence[Sequence[str]] | None = None,
    deck: Sequence[str] | None = None,
    leftover: str | int = "deck",
    to_move: int = 0,
    turn: int = 1,
    last_moved: Sequence[str] = (),
    pending: dict[str, Any] | None = None,
    actions: bool = True,
    max_turns: int = 3000,
    **extra: Any,
) -> dict[str, Any]:
    """A position: the given facts, everything else in its resting place (see module doc).

    ``deck`` lists the top of the deck; unplaced cards go under it (``leftover="deck"``)
    or into that seat's hand (``leftover=seat``), in code order.
    """
    listed = {p for t in towers for p in t}
    all_towers = [list(t) for t in towers] + [[p] for p in FLAG_PIECES if p not in listed]
    scoring_l = [list(s) for s in scoring] if scoring is not None else [[] for _ in range(players)]
    held = {p for s in scoring_l for p in s}
    hands_l = [list(h) for h in hands] if hands is not None else [[] for _ in range(players)]
    scored_l = [list(s) for s in scored] if scored is not None else [[] for _ in range(players)]
    deck_l = list(deck) if deck is not None else []
    used = {c for h in hands_l for c in h} | {c for s in scored_l for c in s} | set(deck_l)
    rest = [c for c in CODES if c not in used]
    if leftover == "deck":
        deck_l += rest
    else:
        hands_l[int(leftover)] += rest
    data: dict[str, Any] = {
        "rules": {"actions": actions, "max_turns": max_turns},
        "players": players,
        "to_move": to_move,
        "turn": turn,
        "towers": all_towers,
        "bank": [p for p in SCORING_PIECES if p not in held],
        "scoring": scoring_l,
        "hands": hands_l,
        "scored": scored_l,
        "deck": deck_l,
        "last_moved": list(last_moved),
    }
    if pending is not None:
        data["pending"] = pending
    data.update(extra)
    return data


def state(**kwargs: Any) -> FlagsState:
    """``position_from_json(position(**kwargs))``."""
    return position_from_json(position(**kwargs))


def play(s: FlagsState, *texts: str) -> FlagsState:
    """Apply actions given as text, in order; returns the same state."""
    for text in texts:
        s.apply(s.parse_action(text))
    return s


def legal_texts(s: FlagsState) -> list[str]:
    """The legal actions as text."""
    return [s.action_to_string(a) for a in s.legal_actions()]


def event_kinds(s: FlagsState) -> list[str]:
    """Kinds of the last apply's events."""
    return [e.kind for e in s.events()]
