"""What each seat may know (PF-VIEW, contract section 7), and sampling the rest.

A view holds the table, the bank, every seat's scoring pyramids and face-up cards,
every hand's size and the deck's, the viewer's own hand, and what the viewer saw
happen: the hidden cards whose place it knows for sure (a card it put under the deck,
and where that card went when drawn; a card stolen from it; the cards of the only
other seat served in a new start). Other hidden cards appear as ``?``.
``determinize`` deals the unknown cards at random into the unknown places.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from typing import Any, NamedTuple

from pyramids.core.bits import bits_of
from pyramids.core.errors import PositionError
from pyramids.core.fields import json_fact
from pyramids.flags.cards import CODES, NUM_CARDS
from pyramids.flags.options import FlagsOptions
from pyramids.flags.pieces import NAMES
from pyramids.flags.position import ACTION, CAPTURE, DEAL, NONE, STEAL, FlagsPosition
from pyramids.flags.rules import towers
from pyramids.flags.scoring import points
from pyramids.flags.text import pending_json

_PENDING_KINDS = {"capture": CAPTURE, "action": ACTION, "steal": STEAL, "deal": DEAL}


class FlagsView(NamedTuple):
    """One seat's knowledge (``player`` None: a spectator's). Treat every field as read-only."""

    player: int | None
    players: int
    options: Mapping[str, Any]
    to_move: int
    turn: int
    towers: tuple[tuple[int, ...], ...]
    """Each tower bottom to top, in piece order of the bottoms."""
    bank: tuple[int, ...]
    scoring: tuple[int, ...]
    """Bit mask of each seat's scoring pieces."""
    scored: tuple[tuple[int, ...], ...]
    hand: tuple[int, ...] | None
    """The viewer's own hand (None for a spectator)."""
    hand_sizes: tuple[int, ...]
    deck_size: int
    known_hands: tuple[tuple[int, ...], ...]
    """Per seat, cards of that hand the viewer knows (never the viewer's own)."""
    known_deck: tuple[tuple[int, int], ...]
    """(index from the top, card) for deck cards the viewer knows."""
    last_moved: tuple[int, ...]
    pending: Mapping[str, Any]
    """The pending decision as in the position notation ({} if none)."""
    tree: str
    """Colour of the tree action owed after the current scoring ('' if none)."""
    winner: int | None
    ranking: tuple[int, ...] | None

    @property
    def game(self) -> str:
        """The game's short name (its registry key)."""
        return "flags"

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.winner is not None or self.ranking is not None

    def points(self, seat: int) -> int:
        """Seat's points (best-trio scoring)."""
        return points(self.scoring[seat])

    def masked_hands(self) -> list[list[str]]:
        """Every hand as codes the viewer knows and ``?`` for the rest."""
        out = []
        for seat, size in enumerate(self.hand_sizes):
            if seat == self.player and self.hand is not None:
                out.append([CODES[c] for c in self.hand])
            else:
                known = [CODES[c] for c in self.known_hands[seat]]
                out.append(known + ["?"] * (size - len(known)))
        return out

    def masked_deck(self) -> list[str]:
        """The deck, top first, with ``?`` for every card the viewer does not know."""
        deck = ["?"] * self.deck_size
        for i, c in self.known_deck:
            deck[i] = CODES[c]
        return deck

    def _repr_svg_(self) -> str:
        """What this seat may know drawn as SVG (Jupyter calls this; ``flags.svg``)."""
        from pyramids.flags.svg import view_svg  # here: svg imports this module

        return view_svg(self)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data; hidden cards appear as ``?``."""
        data: dict[str, Any] = {
            "viewer": self.player,
            "rules": {k: v for k, v in self.options.items() if k != "first_player"},
            "players": self.players,
            "to_move": self.to_move,
            "turn": self.turn,
            "towers": [[NAMES[p] for p in t] for t in self.towers],
            "bank": [NAMES[p] for p in self.bank],
            "scoring": [
                [NAMES[p] for p in range(len(NAMES)) if (m >> p) & 1] for m in self.scoring
            ],
            "points": [points(m) for m in self.scoring],
            "hands": self.masked_hands(),
            "scored": [[CODES[c] for c in s] for s in self.scored],
            "deck": self.masked_deck(),
            "last_moved": [NAMES[p] for p in self.last_moved],
        }
        if self.pending:
            data["pending"] = dict(self.pending)
        if self.tree:
            data["tree"] = self.tree
        if self.winner is not None:
            data["winner"] = self.winner
        if self.ranking is not None:
            data["ranking"] = list(self.ranking)
        return data


def make_view(pos: FlagsPosition, options: Mapping[str, Any], player: int | None) -> FlagsView:
    """PF-VIEW-1, PF-VIEW-2, PF-VIEW-3: the view of ``player`` (None: public) of ``pos``.

    ``options`` is the game's options record (shown as the view's ``rules``).
    """
    hands = pos.hands
    n = len(hands)
    if player is not None and not 0 <= player < n:
        raise PositionError("flags.no_seat", seat=json_fact(player), players=n)
    known_hands: list[tuple[int, ...]] = [()] * n
    known_deck: list[tuple[int, int]] = []
    mask = pos.known[player] if player is not None else 0
    if mask:
        for seat, hand in enumerate(hands):
            cards = sorted(c for c in hand if (mask >> c) & 1)
            known_hands[seat] = tuple(cards)
        known_deck = [(i, c) for i, c in enumerate(pos.deck) if (mask >> c) & 1]
    pending = pending_json(pos)
    if pos.pending == DEAL:
        pending["cards"] = ["?"] * len(pos.to_deal)
    return FlagsView(
        player=player,
        players=n,
        options=options,
        to_move=pos.to_move,
        turn=pos.turn,
        towers=tuple(tuple(t) for t in towers(pos)),
        bank=tuple(bits_of(pos.bank)),
        scoring=tuple(pos.scoring),
        scored=tuple(pos.scored),
        hand=None if player is None else tuple(hands[player]),
        hand_sizes=tuple(len(h) for h in hands),
        deck_size=len(pos.deck),
        known_hands=tuple(known_hands),
        known_deck=tuple(known_deck),
        last_moved=pos.last,
        pending=pending,
        tree=pos.tree,
        winner=pos.winner if pos.winner >= 0 else None,
        ranking=None if pos.ranking is None else tuple(pos.ranking),
    )


def determinize(options: FlagsOptions, view: FlagsView, rng: random.Random) -> FlagsPosition:
    """PF-VIEW-5: a full position agreeing with ``view``; unknown cards shuffled into the
    unknown places (other hands, the deck, the cards left to deal).

    The sampled position remembers the viewer's knowledge; the other seats know nothing
    beyond their own hands in it.
    """
    n = view.players
    pos = FlagsPosition.start(n, options)
    for tower in view.towers:
        for lower, upper in itertools.pairwise(tower):
            pos.below[upper] = lower
            pos.above[lower] = upper
    pos.bank = sum(1 << p for p in view.bank)
    pos.scoring = list(view.scoring)
    pos.scored = list(view.scored)
    placed = 0
    for s in view.scored:
        for c in s:
            placed |= 1 << c
    own = view.hand if view.player is not None and view.hand is not None else ()
    for c in own:
        placed |= 1 << c
    known = 0
    for cards in view.known_hands:
        for c in cards:
            known |= 1 << c
    for _, c in view.known_deck:
        known |= 1 << c
    unknown = [c for c in range(NUM_CARDS) if not ((placed | known) >> c) & 1]
    pending = view.pending
    to_deal = len(pending.get("cards", ())) if pending else 0
    places = view.deck_size - len(view.known_deck) + to_deal
    for seat in range(n):
        if seat != view.player or view.hand is None:
            places += view.hand_sizes[seat] - len(view.known_hands[seat])
    if places != len(unknown):
        raise PositionError("flags.view_unknown_cards", cards=len(unknown), places=places)
    rng.shuffle(unknown)
    for seat in range(n):
        if seat == view.player and view.hand is not None:
            pos.hands[seat] = list(view.hand)
        else:
            hand = list(view.known_hands[seat])
            for _ in range(view.hand_sizes[seat] - len(hand)):
                hand.append(unknown.pop())
            pos.hands[seat] = hand
    deck: list[int] = [-1] * view.deck_size
    for i, c in view.known_deck:
        deck[i] = c
    for i in range(len(deck)):
        if deck[i] < 0:
            deck[i] = unknown.pop()
    pos.deck = deck
    if view.player is not None:
        pos.known[view.player] = known
    pos.last = view.last_moved
    pos.last_mask = sum(1 << p for p in view.last_moved)
    pos.to_move = view.to_move
    pos.turn = view.turn
    if pending:
        kind = _PENDING_KINDS[pending["kind"]]
        pos.pending = kind
        if kind == CAPTURE:
            pos.player = pending["player"]
            pos.card = CODES.index(pending["card"])
            pos.taken = tuple(NAMES.index(p) for p in pending["taken"])
        elif kind == ACTION:
            pos.player = view.to_move
            pos.colour = pending["colour"]
        elif kind == STEAL:
            pos.victim = pending["from"]
        elif kind == DEAL:
            pos.to_deal = tuple(sorted(unknown.pop() for _ in range(to_deal)))
    else:
        pos.pending = NONE
    pos.tree = view.tree
    pos.winner = -1 if view.winner is None else view.winner
    pos.ranking = None if view.ranking is None else list(view.ranking)
    return pos
