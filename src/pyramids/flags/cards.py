"""The 36 goal cards (PF-CARD), from the generated module ``deck.py`` (no file is read).

A card is an int: its index in alphabetical order of ISO 3166 alpha-3 code, so card
order is the scoring order (PF-SCORE-2). Each card has a flag (PF-CARD-2: a tower of
2 or 3 flag pieces, bottom to top, checked by tests/flags/test_cards.py), groups
(PF-CARD-4), and four scoring pieces (orange, purple, cyan, clear) that rate its facts
(PF-CARD-3).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyramids.core.errors import PositionError
from pyramids.core.fields import json_fact
from pyramids.flags.deck import CARD_DATA
from pyramids.flags.pieces import BY_NAME, mask_of

GROUPS = ("EU", "Africa", "Caribbean", "Oil")
"""The card groups (PF-CARD-4: a card may be in two) of the win condition PF-WIN-2, in this order."""


@dataclass(frozen=True)
class Card:
    """One goal card: identifier, names, groups, flag tower, scoring pieces and facts."""

    index: int
    code: str
    country: str
    capital: str
    groups: tuple[str, ...]
    tower: tuple[int, ...]
    """Flag pieces, bottom to top."""
    pieces: tuple[int, ...]
    """The four scoring pieces, in the order O, P, C, X."""
    facts: dict[str, Any]
    """Raw facts per scoring colour letter: value, unit, size (and name, year)."""

    @property
    def group_mask(self) -> int:
        """Bit i set when the card belongs to GROUPS[i]."""
        return sum(1 << GROUPS.index(g) for g in self.groups)


def _cards() -> tuple[Card, ...]:
    entries = sorted(CARD_DATA, key=lambda c: c["code"])
    return tuple(
        Card(
            index=i,
            code=c["code"],
            country=c["country"],
            capital=c["capital"],
            groups=tuple(c["groups"]),
            tower=tuple(BY_NAME[p] for p in c["tower"]),
            pieces=tuple(BY_NAME[p] for p in c["pieces"]),
            facts=c["facts"],
        )
        for i, c in enumerate(entries)
    )


CARDS: tuple[Card, ...] = _cards()
NUM_CARDS = len(CARDS)
CODES: tuple[str, ...] = tuple(c.code for c in CARDS)
BY_CODE: dict[str, int] = {c.code: c.index for c in CARDS}
TOWER: tuple[tuple[int, ...], ...] = tuple(c.tower for c in CARDS)
PIECES_MASK: tuple[int, ...] = tuple(mask_of(c.pieces) for c in CARDS)
"""Card -> bit mask of its four scoring pieces."""
GROUP_MASK: tuple[int, ...] = tuple(c.group_mask for c in CARDS)
ALL_CARDS_MASK = (1 << NUM_CARDS) - 1


def parse_card(text: object, field: str = "card") -> int:
    """A card from its ISO alpha-3 code (case-insensitive); PositionError when unknown
    (``field`` names where the code was read, e.g. ``hands[1]``)."""
    if not isinstance(text, str):
        raise PositionError("flags.card_not_text", field=field, value=json_fact(text))
    c = BY_CODE.get(text.strip().upper())
    if c is None:
        raise PositionError("flags.unknown_card", field=field, value=text)
    return c
