"""Action numbers of Pyramids and Flags (PF-NOTE): a compact, state-independent encoding.

Every action is one int; the ranges below never overlap, so sorting by number groups
actions by kind. Their text is ``text``'s.

- ``done`` = 0 (ends a capture, declines or ends a tree action)
- moves ``LOWEST>TARGET``: MOVE_BASE + lowest * 19 + target (target 18 = the table)
- ``swap:CARD``: SWAP_BASE + card
- ``take:PIECE`` / ``take:PIECE@SEAT``: TAKE_BASE + (piece - 18) * 5 + (0 bank, 1 + seat)
- ``split:BOTTOM``: SPLIT_BASE + bottom piece
- ``trade:MINE:THEIRS@SEAT``: TRADE_BASE + ((mine - 18) * 12 + theirs - 18) * 4 + seat
- ``grow``, ``newstart``
- ``pirate:SEAT``: PIRATE_BASE + seat; ``wild:C``: WILD_BASE + index of C in WILD_COLOURS
- chance ``steal:CARD``: STEAL_BASE + card
- chance ``deal:CARD``: DEAL_BASE + card (a new start deals one card at a time, to the
  next seat served)
"""

from __future__ import annotations

from pyramids.core.game import Action
from pyramids.flags.cards import NUM_CARDS
from pyramids.flags.pieces import FIRST_SCORING, NUM_FLAG_PIECES

MAX_PLAYERS = 4
TABLE = NUM_FLAG_PIECES
"""The move target meaning 'on the table, as a new tower'."""

DONE: Action = 0
MOVE_BASE: Action = 1
SWAP_BASE: Action = MOVE_BASE + NUM_FLAG_PIECES * (NUM_FLAG_PIECES + 1)
TAKE_BASE: Action = SWAP_BASE + NUM_CARDS
SPLIT_BASE: Action = TAKE_BASE + 12 * (MAX_PLAYERS + 1)
TRADE_BASE: Action = SPLIT_BASE + NUM_FLAG_PIECES
GROW: Action = TRADE_BASE + 12 * 12 * MAX_PLAYERS
NEWSTART: Action = GROW + 1
PIRATE_BASE: Action = NEWSTART + 1
WILD_BASE: Action = PIRATE_BASE + MAX_PLAYERS
WILD_COLOURS = "RBGYK"
"""The colours a white tree may stand for, in the contract's order."""
STEAL_BASE: Action = WILD_BASE + len(WILD_COLOURS)
DEAL_BASE: Action = STEAL_BASE + NUM_CARDS


def move_action(lowest: int, target: int) -> Action:
    """The move of ``lowest`` (and everything on it) onto ``target`` (a piece or TABLE)."""
    return MOVE_BASE + lowest * (NUM_FLAG_PIECES + 1) + target


def decode_move(action: Action) -> tuple[int, int]:
    """(lowest, target) of a move action."""
    return divmod(action - MOVE_BASE, NUM_FLAG_PIECES + 1)


def take_action(piece: int, seat: int | None) -> Action:
    """Capture ``piece`` from the bank (seat None) or from ``seat``."""
    return (
        TAKE_BASE + (piece - FIRST_SCORING) * (MAX_PLAYERS + 1) + (0 if seat is None else 1 + seat)
    )


def decode_take(action: Action) -> tuple[int, int | None]:
    """(piece, seat or None for the bank) of a take action."""
    p, src = divmod(action - TAKE_BASE, MAX_PLAYERS + 1)
    return FIRST_SCORING + p, (None if src == 0 else src - 1)


def trade_action(mine: int, theirs: int, seat: int) -> Action:
    """Blue trade: give ``mine``, get ``theirs`` from ``seat``."""
    return TRADE_BASE + ((mine - FIRST_SCORING) * 12 + theirs - FIRST_SCORING) * MAX_PLAYERS + seat


def decode_trade(action: Action) -> tuple[int, int, int]:
    """(mine, theirs, seat) of a trade action."""
    rest, seat = divmod(action - TRADE_BASE, MAX_PLAYERS)
    mine, theirs = divmod(rest, 12)
    return FIRST_SCORING + mine, FIRST_SCORING + theirs, seat


def deal_action(card: int) -> Action:
    """The chance outcome of a new start dealing ``card`` to the next seat served."""
    return DEAL_BASE + card


def is_deal(action: Action) -> bool:
    """Whether ``action`` deals a card (no check that the card is left to deal)."""
    return DEAL_BASE <= action < DEAL_BASE + NUM_CARDS


NUM_ACTIONS: Action = DEAL_BASE + NUM_CARDS
"""Every action number is below this."""
