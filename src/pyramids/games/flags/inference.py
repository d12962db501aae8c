"""Pyramids and Flags' part of inference (``pyramids.core.descriptor.Inference``).

The first action of a turn is a move (its group is the view's ``last_moved``, bottom to
top, so the piece it went onto is read off the table) or an exchange (``last_moved``
empty; the card given away is hidden, so every exchange agrees). The greedy bot's turn
scores (``policy.turn_scores``) rate it. A seat's hand at its move is its hand now plus
the cards it scored in that turn (the fresh cards drawn since stay in: a card too many,
never one missing).

Moves are close to additive over the hand's cards (each card adds what its own flag gains),
so inference can rate many hands from one-card hands (``additive``); exchanges are not.
"""

from __future__ import annotations

from collections.abc import Sequence

from pyramids.core.game import Action, State, View
from pyramids.flags.actions import MOVE_BASE, SWAP_BASE, TABLE, TAKE_BASE, move_action
from pyramids.flags.cards import NUM_CARDS
from pyramids.flags.view import FlagsView
from pyramids.games.flags.policy import turn_scores


def _flags_view(view: View) -> FlagsView:
    if not isinstance(view, FlagsView):
        raise TypeError("Pyramids and Flags inference reads Pyramids and Flags views")
    return view


class FlagsInference:
    """Reads an opponent's hand from the first action of its turn."""

    def observed(self, before: State, after: View) -> list[Action] | None:
        """The turn's first actions that agree with ``after`` (see the module doc)."""
        now = _flags_view(after)
        seat = before.current_player()
        then = _flags_view(before.view(seat))
        if then.pending or then.to_move != seat or now.turn != then.turn + 1:
            return None
        legal = before.legal_actions()
        if not now.last_moved:
            swaps = [a for a in legal if SWAP_BASE <= a < TAKE_BASE]
            return swaps or None
        lowest = now.last_moved[0]
        for tower in now.towers:
            if lowest in tower:
                i = tower.index(lowest)
                action = move_action(lowest, tower[i - 1] if i else TABLE)
                return [action] if action in legal else None
        return None

    def scores(self, view: View, legal: Sequence[Action]) -> list[float]:
        """The greedy bot's turn scores (``policy.turn_scores``)."""
        return turn_scores(_flags_view(view), legal)

    def view_then(self, before: State, seat: int, now: State, after: View) -> View:
        """``seat``'s view at ``before`` holding its hand in ``now`` and what it scored since."""
        then = _flags_view(before.view(seat))
        hand = _flags_view(now.view(seat)).hand or ()
        scored = set(_flags_view(after).scored[seat]) - set(then.scored[seat])
        cards = tuple(sorted(set(hand) | scored))
        sizes = list(then.hand_sizes)
        sizes[seat] = len(cards)
        return then._replace(hand=cards, hand_sizes=tuple(sizes))

    def particle(self, after: View, seat: int, now: State) -> View:
        """``after`` with ``seat``'s hand known as ``now`` deals it."""
        view = _flags_view(after)
        hand = _flags_view(now.view(seat)).hand or ()
        known = list(view.known_hands)
        known[seat] = tuple(sorted(hand))
        return view._replace(known_hands=tuple(known))

    def hidden(self, after: View, seat: int) -> tuple[list[int], int]:
        """The cards ``seat`` may hold that the viewer of ``after`` does not know, and how
        many of its hand's cards are among them."""
        view = _flags_view(after)
        known = set(view.hand or ())
        for cards in view.scored:
            known.update(cards)
        for cards in view.known_hands:
            known.update(cards)
        known.update(c for _, c in view.known_deck)
        unknown = [c for c in range(NUM_CARDS) if c not in known]
        return unknown, view.hand_sizes[seat] - len(view.known_hands[seat])

    def additive(self, legal: Sequence[Action]) -> list[Action]:
        """The actions of ``legal`` whose scores add up over the hand's cards: the moves."""
        return [a for a in legal if MOVE_BASE <= a < SWAP_BASE]

    def view_holding(self, before: State, seat: int, cards: Sequence[int], after: View) -> View:
        """``seat``'s view at ``before`` holding ``cards`` (hidden from the viewer of
        ``after``), the cards of its hand the viewer knows and what it scored since."""
        then = _flags_view(before.view(seat))
        now = _flags_view(after)
        scored = set(now.scored[seat]) - set(then.scored[seat])
        hand = tuple(sorted(set(cards) | scored | set(now.known_hands[seat])))
        sizes = list(then.hand_sizes)
        sizes[seat] = len(hand)
        return then._replace(hand=hand, hand_sizes=tuple(sizes))

    def particle_holding(self, after: View, seat: int, cards: Sequence[int]) -> View:
        """``after`` with ``seat``'s hidden cards known to be ``cards``."""
        view = _flags_view(after)
        known = list(view.known_hands)
        known[seat] = tuple(sorted(set(known[seat]) | set(cards)))
        return view._replace(known_hands=tuple(known))
