"""A Pyramids and Flags position as data: the public dataclass ``FlagsPosition``.

Everything the rules need, hidden facts included, as public fields: the table (two
arrays over the 18 flag pieces, ``below`` and ``above``, -1 for the table / nothing on
top), the bank and each seat's scoring pieces as bit masks (bit p for piece p), hands,
face-up cards, the deck (top first), what each seat knows of the hidden cards, the
turn, the pending decision or chance point, and the rules in force. The rules are the
functions of ``rules`` over it; ``game.FlagsState`` wraps one for the game protocol.

``copy`` is derived from the fields' types (``pyramids.core.copying``), equality is the
dataclass's: no field is listed by hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pyramids.core.copying import make_clone
from pyramids.core.errors import PositionError
from pyramids.flags.cards import NUM_CARDS
from pyramids.flags.options import FlagsOptions
from pyramids.flags.pieces import NUM_FLAG_PIECES, SCORING_PIECES_MASK

# Pending decisions or chance points in the middle of a turn.
NONE: int = 0
CAPTURE: int = 1
ACTION: int = 2
STEAL: int = 3
DEAL: int = 4
PENDING_NAMES = ("none", "capture", "action", "steal", "deal")

HAND_SIZE = 4
"""Cards dealt to each seat at setup (PF-SETUP-2)."""


@dataclass(slots=True, eq=True)
class FlagsPosition:
    """A full position (every hidden fact). Mutable: the rules change it in place.

    Lists are copied (lists of lists two levels deep); the other fields hold immutable
    values (ints, strings, tuples, the frozen options) and are shared by copies.
    """

    options: FlagsOptions
    """The rules in force (tree actions, max_turns, first player)."""
    below: list[int] = field(default_factory=list)
    """Flag piece -> the piece directly under it (-1: it stands on the table)."""
    above: list[int] = field(default_factory=list)
    """Flag piece -> the piece directly on it (-1: it is a top)."""
    bank: int = SCORING_PIECES_MASK
    """Bit mask of the scoring pieces in the bank."""
    scoring: list[int] = field(default_factory=list)
    """Per seat, bit mask of its scoring pieces."""
    hands: list[list[int]] = field(default_factory=list)
    """Per seat, its hidden cards in the order they came into the hand."""
    scored: list[tuple[int, ...]] = field(default_factory=list)
    """Per seat, its face-up cards in the order they were scored."""
    deck: list[int] = field(default_factory=list)
    """The deck, top first."""
    known: list[int] = field(default_factory=list)
    """Per seat, bit mask of the hidden cards not in its hand whose place it knows (PF-VIEW-3)."""
    last: tuple[int, ...] = ()
    """The pieces the last move moved, bottom to top (``last_moved``; () after an exchange)."""
    last_mask: int = 0
    """Bit mask of ``last``."""
    to_move: int = 0
    turn: int = 1
    pending: int = NONE
    """NONE, CAPTURE, ACTION, STEAL or DEAL."""
    player: int = -1
    """The capturing seat (CAPTURE) or the mover (ACTION); -1 otherwise."""
    card: int = -1
    """The card being captured for (CAPTURE); -1 otherwise."""
    taken: tuple[int, ...] = ()
    """The pieces already taken from the bank in the pending capture."""
    colour: str = ""
    """The colour of the pending tree action (ACTION)."""
    victim: int = -1
    """The seat the pirate robs (STEAL); -1 otherwise."""
    tree: str = ""
    """The colour of the tree action owed after the current scoring ('' if none)."""
    to_deal: tuple[int, ...] = ()
    """The cards of a new start still to deal, in card order (DEAL)."""
    winner: int = -1
    ranking: list[int] | None = None
    """A rank per seat after a safeguard ending (1 the best); never mutated in place."""

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.hands)

    @classmethod
    def start(cls, players: int, options: FlagsOptions) -> FlagsPosition:
        """PF-SETUP-1, PF-SETUP-3: 18 single towers, a full bank, empty hands and deck.

        Seat ``options.first_player`` is to move.
        """
        return cls(
            options,
            below=[-1] * NUM_FLAG_PIECES,
            above=[-1] * NUM_FLAG_PIECES,
            scoring=[0] * players,
            hands=[[] for _ in range(players)],
            scored=[()] * players,
            known=[0] * players,
            to_move=options.first_player,
        )

    @classmethod
    def from_deal(cls, cards: Sequence[int], players: int, options: FlagsOptions) -> FlagsPosition:
        """The start with ``cards`` (all 36, top first) dealt: 4 to each seat one at a time
        from seat 0, the rest is the deck (PF-SETUP-2)."""
        if sorted(cards) != list(range(NUM_CARDS)):
            raise PositionError("flags.bad_deal")
        pos = cls.start(players, options)
        dealt = HAND_SIZE * players
        for i in range(dealt):
            pos.hands[i % players].append(cards[i])
        pos.deck = list(cards[dealt:])
        return pos

    @classmethod
    def from_seed(cls, seed: int, players: int, options: FlagsOptions) -> FlagsPosition:
        """PF-SETUP-2: the cards in code order shuffled with ``random.Random(seed)``, then dealt."""
        deck = list(range(NUM_CARDS))
        random.Random(seed).shuffle(deck)
        return cls.from_deal(deck, players, options)

    def copy(self) -> FlagsPosition:
        """An independent copy (derived from the fields' types)."""
        return copy_position(self)

    def _repr_svg_(self) -> str:
        """The position drawn as SVG, every hand shown (Jupyter calls this; ``flags.svg``)."""
        from pyramids.flags.svg import position_svg  # here: svg imports this module

        return position_svg(self)


copy_position: Callable[[FlagsPosition], FlagsPosition] = make_clone(FlagsPosition)
"""``copy_position(pos)`` is ``pos.copy()`` (one call less on hot paths)."""
