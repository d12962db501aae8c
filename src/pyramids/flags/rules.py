"""The mechanics of a Pyramids and Flags turn: moves, exchanges, flags, captures, wins, trees.

Covers PF-MOVE, PF-SWAP, PF-FLAG, PF-SCORE, PF-CAPTURE, PF-WIN and PF-TREE of
``docs/RULES.md`` (contract sections 3 to 6). The table is two arrays over the 18 flag
pieces, ``below`` and ``above`` (-1: on the table / nothing on top), so a flag is
checked in O(1) and towers are walked on demand. A turn is a little state machine:
move, then scoring seat by seat (each capture a decision of the card's holder), then
the mover's tree action (decisions and chance points), then the end of the turn.
``FlagsState`` (``state``) adds the game protocol on top.

Each seat also remembers which hidden cards it knows the whereabouts of (``_known``):
a card it put under the deck, a card stolen from it, a card known to be drawn by
someone; views report them (PF-VIEW-3).
"""

from __future__ import annotations

from math import factorial
from typing import TYPE_CHECKING, Any

from pyramids.core.bits import bits_of
from pyramids.core.game import Action
from pyramids.flags.actions import (
    DONE,
    GROW,
    MOVE_BASE,
    NEWSTART,
    PIRATE_BASE,
    SPLIT_BASE,
    TABLE,
    WILD_BASE,
    WILD_COLOURS,
    deal_action,
    decode_trade,
    take_action,
    trade_action,
)
from pyramids.flags.cards import NUM_CARDS, PIECES_MASK, TOWER
from pyramids.flags.pieces import (
    COLOUR_OF,
    COLOURS,
    NAMES,
    NUM_FLAG_PIECES,
    SCORING_PIECES_MASK,
    SIZE,
)
from pyramids.flags.scoring import points, win_reason

if TYPE_CHECKING:
    from pyramids.flags.game import FlagsGame

# Pending decisions or chance points in the middle of a turn.
NONE: int = 0
CAPTURE: int = 1
ACTION: int = 2
STEAL: int = 3
DEAL: int = 4
PENDING_NAMES = ("none", "capture", "action", "steal", "deal")

HAND_SIZE = 4
MAX_ENUMERATED_DEALS = 720
"""chance_outcomes() lists a yellow deal's outcomes only up to this many (see there)."""

_N = NUM_FLAG_PIECES
_TREE = tuple((c * 3 + 2, c * 3 + 1, c * 3) for c in range(6))
"""Flag colour index -> its tree, bottom to top: C3, C2, C1."""


def multinomial(sizes: list[int]) -> int:
    """The number of ways to split sum(sizes) items into groups of these sizes."""
    out = factorial(sum(sizes))
    for s in sizes:
        out //= factorial(s)
    return out


def deal_sizes(total: int, players: int) -> list[int]:
    """Cards per seat served, from the dealer on: one at a time, earlier seats get extras."""
    each, extra = divmod(total, players)
    return [each + (1 if k < extra else 0) for k in range(players)]


def enumerate_deals(
    pool: list[int], sizes: list[int], slots: list[list[int]], out: list[Action]
) -> None:
    """Append to ``out`` every deal of ``pool`` with ``sizes`` cards per slot (code order)."""
    from itertools import combinations

    k = len(slots)
    if k == len(sizes) or not pool:
        out.append(deal_action(slots))
        return
    for combo in combinations(pool, sizes[k]):
        rest = [c for c in pool if c not in combo]
        enumerate_deals(rest, sizes, [*slots, list(combo)], out)


class FlagsRules:
    """The rules' state and mechanics; ``FlagsState`` adds the protocol (all hidden facts included)."""

    __slots__ = (
        "_above",
        "_bank",
        "_below",
        "_card",
        "_colour",
        "_deck",
        "_events",
        "_from",
        "_hands",
        "_known",
        "_last",
        "_last_mask",
        "_pending",
        "_player",
        "_ranking",
        "_scored",
        "_scoring",
        "_taken",
        "_to_move",
        "_tree",
        "_turn",
        "_winner",
        "game",
    )

    game: FlagsGame
    _below: list[int]
    _above: list[int]
    _hands: list[list[int]]
    _scored: list[list[int]]
    _scoring: list[int]
    _deck: list[int]
    _known: list[int]
    _last: tuple[int, ...]
    _taken: list[int]
    _events: list[tuple[Any, ...]]
    _ranking: list[int] | None

    def __init__(self, game: FlagsGame) -> None:
        self.game = game
        n = game.num_players
        self._below = [-1] * _N
        self._above = [-1] * _N
        self._bank = SCORING_PIECES_MASK
        self._scoring = [0] * n
        self._hands = [[] for _ in range(n)]
        self._scored = [[] for _ in range(n)]
        self._deck = []
        self._known = [0] * n
        self._last = ()
        self._last_mask = 0
        self._to_move = 0
        self._turn = 1
        self._pending = NONE
        self._player = -1
        self._card = -1
        self._taken = []
        self._colour = ""
        self._from = -1
        self._tree = ""
        self._winner = -1
        self._ranking = None
        self._events = []

    # --- the table ----------------------------------------------------------------------

    def _group(self, p: int) -> list[int]:
        """``p`` and every piece above it, bottom to top."""
        above = self._above
        out = [p]
        while above[p] >= 0:
            p = above[p]
            out.append(p)
        return out

    def towers(self) -> list[list[int]]:
        """The towers, each bottom to top, in piece order of their bottom pieces."""
        return [self._group(b) for b in range(_N) if self._below[b] < 0]

    def is_built(self, card: int) -> bool:
        """PF-FLAG-1: whether the card's flag stands on the table (anywhere in a tower)."""
        tower = TOWER[card]
        below = self._below
        if below[tower[1]] != tower[0]:
            return False
        return len(tower) == 2 or below[tower[2]] == tower[1]

    def _tree_made(self, lowest: int) -> str:
        """PF-TREE-1: the colour of the tree whose medium or small ``lowest`` now is, or ''."""
        c = COLOUR_OF[lowest]
        big, mid, small = _TREE[c]
        below = self._below
        if lowest == mid:
            if below[mid] == big and self._above[mid] == small:
                return COLOURS[c]
        elif lowest == small and below[small] == mid and below[mid] == big:
            return COLOURS[c]
        return ""

    # --- moves and exchanges ------------------------------------------------------------

    def _move_actions(self) -> list[Action]:
        below = self._below
        above = self._above
        bottom = [0] * _N
        group_mask = [0] * _N
        tops = []
        for b in range(_N):
            if below[b] < 0:
                chain = []
                p = b
                while p >= 0:
                    chain.append(p)
                    bottom[p] = b
                    p = above[p]
                tops.append(chain[-1])
                m = 0
                for p in reversed(chain):
                    m |= 1 << p
                    group_mask[p] = m
        tops.sort()
        last = self._last_mask
        actions = []
        for p in range(_N):
            if group_mask[p] == last:
                continue
            sp = SIZE[p]
            bp = bottom[p]
            base = MOVE_BASE + p * (_N + 1)
            for t in tops:
                if bottom[t] != bp and SIZE[t] >= sp:
                    actions.append(base + t)
            if below[p] >= 0:
                actions.append(base + TABLE)
        return actions

    def _move_reason(self, lowest: int, target: int) -> str | None:
        """Why moving ``lowest`` onto ``target`` breaks PF-MOVE, or None."""
        name = NAMES[lowest]
        group = self._group(lowest)
        if target == TABLE:
            if self._below[lowest] < 0:
                return f"{name} is the bottom of its tower: a whole tower may not be put back on the table (PF-MOVE-4)"
        else:
            tname = NAMES[target]
            if target in group:
                return f"{tname} moves with {name}: a group cannot land on itself"
            if self._above[target] >= 0:
                return f"{tname} is not the top of its tower ({NAMES[self._above[target]]} is on it) (PF-MOVE-2)"
            if SIZE[lowest] > SIZE[target]:
                return f"{name} is larger than {tname}: a piece may not be put on a smaller one (PF-MOVE-3)"
        mask = 0
        for p in group:
            mask |= 1 << p
        if mask == self._last_mask:
            moved = " ".join(NAMES[p] for p in self._last)
            return f"{moved} is exactly the group the previous turn moved (PF-MOVE-5)"
        return None

    def _apply_move(self, lowest: int, target: int) -> None:
        below = self._below
        above = self._above
        old = below[lowest]
        if old >= 0:
            above[old] = -1
        if target == TABLE:
            below[lowest] = -1
        else:
            below[lowest] = target
            above[target] = lowest
        group = self._group(lowest)
        mask = 0
        for p in group:
            mask |= 1 << p
        self._last = tuple(group)
        self._last_mask = mask
        seat = self._to_move
        self._events.append(("move", seat, lowest, target, self._last, old))
        tree = self._tree_made(lowest) if self.game.options_obj.actions else ""
        if tree:
            self._events.append(("tree", seat, tree, lowest))
        self._tree = tree
        self._run_scoring(seat)

    def _apply_swap(self, card: int) -> None:
        seat = self._to_move
        hand = self._hands[seat]
        bit = 1 << card
        known = self._known
        if len(hand) > 1:
            hand_mask = 0
            for c in hand:
                hand_mask |= 1 << c
            for p in range(len(known)):
                if p != seat:
                    known[p] &= ~hand_mask
        hand.remove(card)
        self._deck.append(card)
        known[seat] |= bit
        self._last = ()
        self._last_mask = 0
        self._events.append(("swap", seat, card))
        self._draw(seat, "swap")
        self._end_turn()

    # --- cards --------------------------------------------------------------------------

    def _draw(self, seat: int, why: str) -> bool:
        """The top card of the deck goes to ``seat``'s hand; False when the deck is empty."""
        if not self._deck:
            self._events.append(("no_draw", seat, why))
            return False
        card = self._deck.pop(0)
        self._hands[seat].append(card)
        self._known[seat] &= ~(1 << card)
        self._events.append(("draw", seat, card, why))
        return True

    def _first_built(self, seat: int) -> int:
        best = NUM_CARDS
        for c in self._hands[seat]:
            if c < best and self.is_built(c):
                best = c
        return best if best < NUM_CARDS else -1

    # --- scoring and captures (PF-SCORE, PF-CAPTURE) ----------------------------------

    def _run_scoring(self, seat: int) -> None:
        """Score built cards from ``seat`` on, in turn order up to the mover (PF-SCORE-1)."""
        n = len(self._hands)
        mover = self._to_move
        known = self._known
        while True:
            card = self._first_built(seat)
            if card < 0:
                seat = (seat + 1) % n
                if seat == mover:
                    break
                continue
            self._hands[seat].remove(card)
            self._scored[seat].append(card)
            bit = ~(1 << card)
            for p in range(n):
                known[p] &= bit
            self._events.append(("flag", seat, card))
            if self._check_wins(seat):
                return
            if self._capture_choices(seat, card, ()):
                self._pending = CAPTURE
                self._player = seat
                self._card = card
                self._taken = []
                return
            self._events.append(("no_capture", seat, card))
            self._draw(seat, "flag")
        self._after_scoring()

    def _capture_choices(self, seat: int, card: int, taken: tuple[int, ...] | list[int]) -> bool:
        cm = PIECES_MASK[card]
        if cm & self._bank:
            return True
        if taken:
            return False
        return any(q != seat and cm & held for q, held in enumerate(self._scoring))

    def _capture_actions(self) -> list[Action]:
        seat = self._player
        cm = PIECES_MASK[self._card]
        bank = self._bank
        taken = self._taken
        actions = [DONE]
        for piece in bits_of(cm):
            bit = 1 << piece
            if bank & bit:
                actions.append(take_action(piece, None))
            if not taken:
                for q, held in enumerate(self._scoring):
                    if q != seat and held & bit:
                        actions.append(take_action(piece, q))
        return actions

    def _end_capture(self) -> None:
        seat = self._player
        self._pending = NONE
        self._player = -1
        self._card = -1
        self._taken = []
        self._draw(seat, "flag")
        self._run_scoring(seat)

    def _apply_take(self, piece: int, source: int | None) -> None:
        seat = self._player
        bit = 1 << piece
        if source is None:
            self._bank &= ~bit
        else:
            self._scoring[source] &= ~bit
        self._scoring[seat] |= bit
        self._events.append(("take", seat, piece, -1 if source is None else source))
        if self._check_wins(seat):
            return
        if source is None:
            self._taken.append(piece)
            if len(self._taken) < 2 and PIECES_MASK[self._card] & self._bank:
                return
        self._end_capture()

    # --- winning and the end (PF-WIN) -------------------------------------------------

    def _check_wins(self, actor: int) -> bool:
        """PF-WIN-4: the actor first, then the others in turn order; the first winner ends it."""
        n = len(self._hands)
        for i in range(n):
            s = (actor + i) % n
            reason = win_reason(self._scored[s], self._scoring[s])
            if reason is not None:
                self._winner = s
                self._pending = NONE
                self._player = -1
                self._card = -1
                self._taken = []
                self._colour = ""
                self._from = -1
                self._tree = ""
                self._events.append(("win", s, reason[0], reason[1]))
                return True
        return False

    def _rank(self) -> list[int]:
        keys = [(points(m), len(sc)) for m, sc in zip(self._scoring, self._scored, strict=True)]
        return [1 + sum(1 for k in keys if k > mine) for mine in keys]

    def _end_turn(self) -> None:
        """PF-WIN-5, PF-WIN-6: end the game by the safeguards, or pass to the next seat."""
        self._pending = NONE
        self._player = -1
        self._colour = ""
        self._from = -1
        self._tree = ""
        if not self._deck and not any(self._hands):
            self._ranking = self._rank()
            self._events.append(("deck_out", tuple(self._ranking)))
            return
        if self._turn >= self.game.options_obj.max_turns:
            self._ranking = self._rank()
            self._events.append(("max_turns", tuple(self._ranking)))
            return
        self._to_move = (self._to_move + 1) % len(self._hands)
        self._turn += 1

    # --- tree actions (PF-TREE) -------------------------------------------------------

    def _after_scoring(self) -> None:
        tree = self._tree
        self._tree = ""
        if tree and self.game.options_obj.actions:
            self._start_action(tree)
        else:
            self._end_turn()

    def _start_action(self, colour: str) -> None:
        seat = self._to_move
        if not self._action_options(colour):
            self._events.append(("lapse", seat, colour))
            self._end_turn()
            return
        self._events.append(("action", seat, colour))
        self._pending = ACTION
        self._player = seat
        self._colour = colour

    def _action_options(self, colour: str) -> list[Action]:
        """The actions (``done`` aside) of ``colour``'s tree action; empty: nothing to act on."""
        seat = self._to_move
        if colour == "R":
            above = self._above
            return [SPLIT_BASE + b for b in range(_N) if self._below[b] < 0 and above[b] >= 0]
        if colour == "B":
            mine = bits_of(self._scoring[seat])
            if not mine:
                return []
            out = [
                trade_action(m, t, q)
                for q, held in enumerate(self._scoring)
                if q != seat
                for t in bits_of(held)
                for m in mine
            ]
            out.sort()
            return out
        if colour == "G":
            return [GROW] if self._deck else []
        if colour == "Y":
            return [NEWSTART] if any(self._hands) else []
        if colour == "K":
            return [PIRATE_BASE + q for q, hand in enumerate(self._hands) if q != seat and hand]
        if colour == "W":
            return [WILD_BASE + i for i, c in enumerate(WILD_COLOURS) if self._action_options(c)]
        return []

    def _apply_action(self, action: Action) -> None:
        seat = self._to_move
        colour = self._colour
        events = self._events
        if action == DONE:
            events.append(("decline", seat, colour))
            self._end_turn()
        elif colour == "R":
            group = self._group(action - SPLIT_BASE)
            below = self._below
            above = self._above
            for p in group:
                below[p] = -1
                above[p] = -1
            events.append(("split", seat, tuple(group)))
            if not self._action_options("R"):
                events.append(("action_over", seat, "R"))
                self._end_turn()
        elif colour == "B":
            mine, theirs, q = decode_trade(action)
            self._scoring[seat] = (self._scoring[seat] & ~(1 << mine)) | (1 << theirs)
            self._scoring[q] = (self._scoring[q] & ~(1 << theirs)) | (1 << mine)
            events.append(("trade", seat, mine, theirs, q))
            if not self._check_wins(seat):
                self._end_turn()
        elif colour == "G":
            events.append(("grow", seat))
            if self._draw(seat, "grow"):
                self._draw(seat, "grow")
            self._end_turn()
        elif colour == "Y":
            events.append(("newstart", seat, sum(len(h) for h in self._hands)))
            self._pending = DEAL
        elif colour == "K":
            victim = action - PIRATE_BASE
            events.append(("pirate", seat, victim))
            self._pending = STEAL
            self._from = victim
        else:  # white: the chosen colour's action follows
            chosen = WILD_COLOURS[action - WILD_BASE]
            events.append(("wild", seat, chosen))
            self._colour = chosen

    def _deal_slots_ok(self, slots: list[list[int]]) -> str | None:
        n = len(self._hands)
        pool = sorted(c for h in self._hands for c in h)
        sizes = deal_sizes(len(pool), n)
        if len(slots) > n:
            return f"a deal serves at most {n} seats"
        got = sorted(c for s in slots for c in s)
        if got != pool:
            return f"a new start deals exactly the {len(pool)} cards of all hands, each once"
        for k, s in enumerate(slots):
            if len(s) != sizes[k]:
                return (
                    f"dealt one at a time from the dealer, the seats get {sizes} cards "
                    "(earlier seats get the extra cards)"
                )
        return None

    def _apply_deal(self, slots: list[list[int]]) -> None:
        n = len(self._hands)
        seat = self._to_move
        pool_mask = 0
        for h in self._hands:
            for c in h:
                pool_mask |= 1 << c
        hands: list[list[int]] = [[] for _ in range(n)]
        for k, s in enumerate(slots):
            hands[(seat + k) % n] = list(s)
        self._hands = hands
        known = self._known
        masks = []
        for h in hands:
            m = 0
            for c in h:
                m |= 1 << c
            masks.append(m)
        for p in range(n):
            known[p] &= ~pool_mask
            others = [q for q in range(n) if q != p and hands[q]]
            if len(others) == 1:
                known[p] |= masks[others[0]]
        self._events.append(("deal", seat, tuple(tuple(h) for h in hands)))
        self._end_turn()

    def _apply_steal(self, card: int) -> None:
        thief = self._to_move
        victim = self._from
        hand = self._hands[victim]
        known = self._known
        if len(hand) > 1:
            hand_mask = 0
            for c in hand:
                hand_mask |= 1 << c
            for p in range(len(known)):
                if p not in (thief, victim):
                    known[p] &= ~hand_mask
        hand.remove(card)
        self._hands[thief].append(card)
        known[thief] &= ~(1 << card)
        known[victim] |= 1 << card
        self._events.append(("steal", thief, victim, card))
        self._end_turn()
