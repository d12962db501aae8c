"""The Pyramids and Flags state: the core game protocol over the rules of ``rules``.

Legal actions, chance outcomes (the pirate's steal, the new start's deal), applying an
action with its refusal reasons, results, clones, equality, read-only accessors and
text (PF-NOTE). The rules themselves live in ``rules.FlagsRules``.
"""

from __future__ import annotations

import random
from typing import Any, Self

from pyramids.core.bits import bits_of
from pyramids.core.errors import IllegalActionError
from pyramids.core.game import CHANCE, TERMINAL, Action, Event, Outcome, State, sample_chance
from pyramids.flags.actions import (
    DEAL_BASE,
    DONE,
    GROW,
    MOVE_BASE,
    PIRATE_BASE,
    SPLIT_BASE,
    STEAL_BASE,
    SWAP_BASE,
    TAKE_BASE,
    TRADE_BASE,
    WILD_BASE,
    deal_action,
    decode_deal,
    decode_move,
    decode_take,
    decode_trade,
    is_deal,
)
from pyramids.flags.cards import CODES, PIECES_MASK
from pyramids.flags.pieces import COLOUR_NAMES_EN, NAMES
from pyramids.flags.rules import (
    ACTION,
    CAPTURE,
    DEAL,
    HAND_SIZE,
    MAX_ENUMERATED_DEALS,
    NONE,
    PENDING_NAMES,
    STEAL,
    FlagsRules,
    deal_sizes,
    enumerate_deals,
    multinomial,
)
from pyramids.flags.scoring import points

__all__ = [
    "ACTION",
    "CAPTURE",
    "DEAL",
    "HAND_SIZE",
    "MAX_ENUMERATED_DEALS",
    "NONE",
    "PENDING_NAMES",
    "STEAL",
    "FlagsState",
    "deal_sizes",
]


class FlagsState(FlagsRules, State):
    """A Pyramids and Flags game in progress (all hidden facts included)."""

    __slots__ = ()

    # --- the protocol -------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return len(self._hands)

    def is_terminal(self) -> bool:
        """Whether someone has won or a safeguard (max_turns, no cards left) ended the game."""
        return self._winner >= 0 or self._ranking is not None

    def current_player(self) -> int:
        """The deciding seat (the mover, or a card's holder capturing), CHANCE, or TERMINAL."""
        if self._winner >= 0 or self._ranking is not None:
            return TERMINAL
        pending = self._pending
        if pending in (NONE, ACTION):
            return self._to_move
        if pending == CAPTURE:
            return self._player
        return CHANCE

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions (chance outcomes at a chance point; see chance_outcomes)."""
        if self._winner >= 0 or self._ranking is not None:
            return []
        pending = self._pending
        if pending == NONE:
            actions = self._move_actions()
            if self._deck:
                actions.extend(SWAP_BASE + c for c in sorted(self._hands[self._to_move]))
            return actions
        if pending == CAPTURE:
            return self._capture_actions()
        if pending == ACTION:
            return [DONE, *self._action_options(self._colour)]
        return [a for a, _ in self.chance_outcomes()]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Outcomes of a pirate's steal or a new start's deal, each with its probability.

        A steal takes each card of the victim's hand with equal chance. A deal is every
        way to hand the gathered cards to the seats (one at a time from the dealer, so
        the sizes are fixed), all equally likely; the order within a hand is card order.
        Their number is a multinomial coefficient, quickly astronomical (16 cards among
        4 seats: 63 million), so the outcomes are listed only when there are at most
        MAX_ENUMERATED_DEALS; otherwise this returns [] (and so does legal_actions) and
        ``sample_chance`` draws a uniform deal. Any sound deal can always be applied.
        """
        if self._winner >= 0 or self._ranking is not None:
            return []
        if self._pending == STEAL:
            hand = sorted(self._hands[self._from])
            return [(STEAL_BASE + c, 1.0 / len(hand)) for c in hand]
        if self._pending != DEAL:
            return []
        pool = sorted(c for h in self._hands for c in h)
        sizes = deal_sizes(len(pool), len(self._hands))
        count = multinomial(sizes)
        if count > MAX_ENUMERATED_DEALS:
            return []
        deals: list[Action] = []
        enumerate_deals(pool, sizes, [], deals)
        deals.sort()
        p = 1.0 / len(deals)
        return [(a, p) for a in deals]

    def deal_count(self) -> int:
        """How many outcomes the pending deal has (0 when no deal is pending)."""
        if self._pending != DEAL:
            return 0
        total = sum(len(h) for h in self._hands)
        return multinomial(deal_sizes(total, len(self._hands)))

    def sample_chance(self, rng: random.Random) -> Action:
        """Draw a chance outcome: a deal by shuffling the gathered cards, else by probability."""
        if self._pending == DEAL and not self.is_terminal():
            pool = sorted(c for h in self._hands for c in h)
            rng.shuffle(pool)
            n = len(self._hands)
            slots: list[list[int]] = [sorted(pool[k::n]) for k in range(n)]
            return deal_action(slots)
        return sample_chance(self, rng)

    def apply(self, action: Action) -> None:
        """Apply one action or chance outcome; IllegalActionError (changing nothing) if illegal."""
        if self._winner >= 0 or self._ranking is not None:
            raise IllegalActionError("the game is over")
        pending = self._pending
        if pending == NONE:
            if MOVE_BASE <= action < SWAP_BASE:
                lowest, target = decode_move(action)
                if self._move_reason(lowest, target) is not None:
                    raise IllegalActionError(self.illegal_reason(action) or "illegal move")
                self._events = []
                self._apply_move(lowest, target)
                return
            reason = self.illegal_reason(action)
            if reason is not None:
                raise IllegalActionError(reason)
            self._events = []
            self._apply_swap(action - SWAP_BASE)
            return
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(reason)
        self._events = []
        if pending == CAPTURE:
            if action == DONE:
                self._events.append(("capture_done", self._player, self._card))
                self._end_capture()
            else:
                piece, source = decode_take(action)
                self._apply_take(piece, source)
        elif pending == ACTION:
            self._apply_action(action)
        elif pending == STEAL:
            self._apply_steal(action - STEAL_BASE)
        else:
            self._apply_deal(decode_deal(action))

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is illegal here, or None when it is legal."""
        if self.is_terminal():
            return "the game is over"
        if not isinstance(action, int) or isinstance(action, bool) or action < 0:
            return f"{action!r} is not an action"
        pending = self._pending
        seat = self._to_move
        if pending == NONE:
            if MOVE_BASE <= action < SWAP_BASE:
                lowest, target = decode_move(action)
                return self._move_reason(lowest, target)
            if SWAP_BASE <= action < TAKE_BASE:
                card = action - SWAP_BASE
                if card not in self._hands[seat]:
                    return f"{CODES[card]} is not in seat {seat}'s hand"
                if not self._deck:
                    return "the deck is empty: no card can be exchanged (PF-SWAP-2)"
                return None
            return f"seat {seat} must move pyramids or exchange a card (PF-MOVE-1)"
        if pending == CAPTURE:
            holder = self._player
            code = CODES[self._card]
            if action == DONE:
                return None
            if not TAKE_BASE <= action < SPLIT_BASE:
                return f"seat {holder} is capturing for {code}: take:PIECE, take:PIECE@SEAT or done"
            piece, source = decode_take(action)
            name = NAMES[piece]
            if not (PIECES_MASK[self._card] >> piece) & 1:
                shown = " ".join(NAMES[p] for p in bits_of(PIECES_MASK[self._card]))
                return f"{name} is not shown on {code} ({shown}) (PF-CAPTURE-2)"
            if source is None:
                if not (self._bank >> piece) & 1:
                    return f"{name} is not in the bank"
                return None
            if self._taken:
                return "after a take from the bank, only the bank remains: takes are not mixed (PF-CAPTURE-3)"
            if source == holder or source >= len(self._hands):
                return f"seat {holder} takes from an opponent, not from seat {source}"
            if not (self._scoring[source] >> piece) & 1:
                return f"seat {source} does not hold {name}"
            return None
        if pending == ACTION:
            if action == DONE or action in self._action_options(self._colour):
                return None
            return self._action_reason(action)
        if pending == STEAL:
            victim = self._from
            if STEAL_BASE <= action < DEAL_BASE and action - STEAL_BASE in self._hands[victim]:
                return None
            return f"the pirate steals one card of seat {victim}'s hand: steal:CARD"
        if not is_deal(action):
            return "the new start's deal is pending: deal:CARD,CARD,..."
        return self._deal_slots_ok(decode_deal(action))

    def _action_reason(self, action: Action) -> str:
        colour = self._colour
        seat = self._to_move
        words = {
            "R": "split:BOTTOM (a tower of two or more pieces)",
            "B": "trade:MINE:THEIRS@SEAT",
            "G": "grow",
            "Y": "newstart",
            "K": "pirate:SEAT (an opponent holding a card)",
            "W": "wild:C for a colour whose action has something to act on",
        }
        if colour == "R" and SPLIT_BASE <= action < TRADE_BASE:
            b = action - SPLIT_BASE
            if self._below[b] >= 0:
                return f"{NAMES[b]} is not the bottom of a tower"
            return f"the tower of {NAMES[b]} is a single pyramid: nothing to split"
        if colour == "B" and TRADE_BASE <= action < GROW:
            mine, theirs, q = decode_trade(action)
            if not (self._scoring[seat] >> mine) & 1:
                return f"seat {seat} does not hold {NAMES[mine]}"
            if q == seat or q >= len(self._hands):
                return f"trade with an opponent, not seat {q}"
            return f"seat {q} does not hold {NAMES[theirs]}"
        if colour == "K" and PIRATE_BASE <= action < WILD_BASE:
            q = action - PIRATE_BASE
            if q == seat or q >= len(self._hands):
                return f"the pirate robs an opponent, not seat {q}"
            return f"seat {q} holds no card"
        return (
            f"seat {seat} is using the {COLOUR_NAMES_EN[colour]} tree's action: "
            f"{words[colour]}, or done"
        )

    def outcome(self) -> Outcome:
        """Won by a seat, ranked after the turn limit, or ongoing."""
        if self._winner >= 0:
            return Outcome.won_by(self._winner, len(self._hands))
        if self._ranking is not None:
            return Outcome.ranked(self._ranking)
        return Outcome.ongoing()

    def returns(self) -> list[float]:
        """1 for the winner, 0 for the others; after a safeguard ending, 1 shared by the firsts."""
        n = len(self._hands)
        if self._winner >= 0:
            return [1.0 if i == self._winner else 0.0 for i in range(n)]
        if self._ranking is not None:
            firsts = self._ranking.count(1)
            return [1.0 / firsts if r == 1 else 0.0 for r in self._ranking]
        return [0.0] * n

    def clone(self) -> Self:
        """An independent copy."""
        c = object.__new__(type(self))
        c.game = self.game
        c._below = self._below.copy()
        c._above = self._above.copy()
        c._bank = self._bank
        c._scoring = self._scoring.copy()
        c._hands = [h.copy() for h in self._hands]
        c._scored = [s.copy() for s in self._scored]
        c._deck = self._deck.copy()
        c._known = self._known.copy()
        c._last = self._last
        c._last_mask = self._last_mask
        c._to_move = self._to_move
        c._turn = self._turn
        c._pending = self._pending
        c._player = self._player
        c._card = self._card
        c._taken = self._taken.copy()
        c._colour = self._colour
        c._from = self._from
        c._tree = self._tree
        c._winner = self._winner
        c._ranking = self._ranking
        c._events = self._events
        return c

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FlagsState):
            return NotImplemented
        return self._identity() == other._identity()

    __hash__ = None  # type: ignore[assignment]  # mutable state

    def _identity(self) -> tuple[Any, ...]:
        return (
            self.game.num_players,
            self.game.options,
            self._below,
            self._bank,
            self._scoring,
            self._hands,
            self._scored,
            self._deck,
            self._known,
            self._last,
            self._to_move,
            self._turn,
            self._pending,
            self._player,
            self._card,
            self._taken,
            self._colour,
            self._from,
            self._tree,
            self._winner,
            self._ranking,
        )

    # --- read-only accessors ------------------------------------------------------------

    @property
    def bank(self) -> list[int]:
        """Scoring pieces in the bank, in piece order."""
        return bits_of(self._bank)

    def scoring(self, seat: int) -> list[int]:
        """Seat's scoring pieces, in piece order."""
        return bits_of(self._scoring[seat])

    def points(self, seat: int) -> int:
        """Seat's points under best-trio scoring (PF-WIN-3)."""
        return points(self._scoring[seat])

    def hand(self, seat: int) -> list[int]:
        """Seat's hidden cards in the order they came into the hand (do not mutate)."""
        return self._hands[seat]

    def scored(self, seat: int) -> list[int]:
        """Seat's face-up cards, in the order they were scored (do not mutate)."""
        return self._scored[seat]

    @property
    def deck(self) -> list[int]:
        """The deck, top first (do not mutate)."""
        return self._deck

    @property
    def last_moved(self) -> tuple[int, ...]:
        """The pieces the last move moved, bottom to top; () at the start and after an exchange."""
        return self._last

    def below(self, piece: int) -> int:
        """The piece directly under ``piece`` (-1: it stands on the table)."""
        return self._below[piece]

    def above(self, piece: int) -> int:
        """The piece directly on ``piece`` (-1: it is a top)."""
        return self._above[piece]

    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        return self._to_move

    @property
    def turn(self) -> int:
        """The turn number, from 1."""
        return self._turn

    @property
    def pending(self) -> int:
        """NONE, CAPTURE, ACTION, STEAL or DEAL."""
        return self._pending

    @property
    def pending_info(self) -> dict[str, Any]:
        """The pending decision as the position notation's ``pending`` object ({} if none)."""
        kind = self._pending
        if kind == CAPTURE:
            return {
                "player": self._player,
                "kind": "capture",
                "card": CODES[self._card],
                "taken": [NAMES[p] for p in self._taken],
            }
        if kind == ACTION:
            return {"player": self._to_move, "kind": "action", "colour": self._colour}
        if kind == STEAL:
            return {"kind": "steal", "from": self._from}
        if kind == DEAL:
            return {"kind": "deal"}
        return {}

    @property
    def tree_owed(self) -> str:
        """The colour of the tree action owed after the current scoring ('' if none)."""
        return self._tree

    @property
    def winner(self) -> int | None:
        """The winning seat, if any."""
        return self._winner if self._winner >= 0 else None

    @property
    def ranking(self) -> list[int] | None:
        """A rank per seat after a safeguard ending (1 the best, ties sharing)."""
        return None if self._ranking is None else list(self._ranking)

    def known_cards(self, seat: int) -> int:
        """Bit mask of the hidden cards (not in seat's hand) whose place seat knows."""
        return self._known[seat]

    def raw_events(self) -> list[tuple[Any, ...]]:
        """The last apply's events as raw tuples (cheap)."""
        return self._events

    # --- text -------------------------------------------------------------------------------

    def action_to_string(self, action: Action) -> str:
        """The action in the notation (PF-NOTE-1), e.g. ``W1>R2``, ``swap:CZE``, ``take:O2@1``."""
        return action_to_text(action)

    def action_text_for(self, action: Action, viewer: int | None) -> str:
        """The action as ``viewer`` sees it: other players' hidden cards as ``?`` (PF-VIEW-4)."""
        return masked_action_text(self, action, viewer)

    def parse_action(self, text: str) -> Action:
        """Parse and check an action here; ActionParseError or IllegalActionError (with why)."""
        action = parse_action(text, len(self._hands))
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(reason)
        return action

    def events(self) -> list[Event]:
        """The last apply's events with their reasons (every card named)."""
        return [describe(e, None) for e in self._events]

    def events_for(self, viewer: int | None) -> list[Event]:
        """The last apply's events as ``viewer`` may see them (hidden cards as ``?``)."""
        return [describe(e, viewer, masked=True) for e in self._events]

    def to_json(self) -> dict[str, Any]:
        """The position in the contract's JSON notation (PF-NOTE-2)."""
        return position_to_json(self)

    def view(self, player: int | None) -> FlagsView:
        """What ``player`` may know (PF-VIEW); None for a spectator."""
        return make_view(self, player)

    def __repr__(self) -> str:
        return f"FlagsState({self.to_json()!r})"


# Imported last: these modules build on FlagsState (they import this module).
from pyramids.flags.events import describe  # noqa: E402
from pyramids.flags.notation import (  # noqa: E402
    action_to_text,
    masked_action_text,
    parse_action,
    position_to_json,
)
from pyramids.flags.view import FlagsView, make_view  # noqa: E402
