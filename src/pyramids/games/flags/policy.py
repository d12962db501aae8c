"""Pyramids and Flags' greedy bot: one ply, from the seat's view only.

The game's default policy (``pyramids.games.flags.descriptor``'s ``policy``; the player-facing
``greedy`` bot of ``pyramids.bots`` delegates to it). It never simulates the engine. From the view it rebuilds the table (which piece stands
directly on which) and scores each legal action with a static estimate in "flag" units:

- **scoring** (PF-SCORE): every card of its own hand whose flag stands after the move is
  worth the gain in its *standing* (below) after the best capture, plus a fresh card;
- **reach**: each unscored card of its hand is worth ``REACH[d]``, where ``d`` estimates
  how many moves its flag still needs (one per missing link, plus one when a piece that
  is not part of the flag sits on the lower piece of that link);
- **opponents**: a flag it would build for a card it does not hold costs the chance that
  an opponent holds it (unseen hand slots over unseen cards; certain for a card it saw go
  into that hand) times that opponent's gain; bringing an opponent's possible flag nearer
  costs ``OPP_REACH_W`` times the same reach values, pushing one away gains ``BLOCK_W`` of
  that. These terms fade out after turn ``FADE_START``, so that seats which keep undoing
  each other's moves end up going for their own flags;
- **trees** (PF-TREE): a move that makes a tree earns the estimated worth of its action;
- **exchange** (PF-SWAP): a card's reach is traded for the mean reach of an unseen card.

A seat's standing is ``FLAG_W`` per scored flag, ``GROUP_W[k]`` per group with ``k`` flags,
``PT_W`` per point of its scoring pyramids (plus ``NEXT_W`` of what the best next pyramid
would add beyond its own point), and ``WIN`` when it meets a win condition (PF-WIN).
Captures, trades and the other tree actions are chosen with the same measures. Ties are
broken with the generator the bot is given.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from pyramids.core.bits import bits_of
from pyramids.core.game import Action, View
from pyramids.flags.actions import (
    DONE,
    GROW,
    NEWSTART,
    PIRATE_BASE,
    SPLIT_BASE,
    SWAP_BASE,
    TABLE,
    WILD_BASE,
    WILD_COLOURS,
    decode_move,
    decode_take,
    decode_trade,
    trade_action,
)
from pyramids.flags.cards import BY_CODE, GROUP_MASK, NUM_CARDS, PIECES_MASK, TOWER
from pyramids.flags.pieces import FIRST_SCORING, NUM_FLAG_PIECES, NUM_PIECES
from pyramids.flags.rules import tree_made
from pyramids.flags.scoring import WIN_FLAGS, WIN_GROUP_FLAGS, WIN_POINTS, group_counts, points
from pyramids.flags.view import FlagsView


def add_up(values: Iterable[float]) -> float:
    """The sum of ``values`` added left to right: ``sum()`` up to Python 3.11, which 3.12
    replaced by a compensated sum. The native core adds in this order, so its greedy bot and
    evaluation stay bit-equal to these on every Python version."""
    total = 0.0
    for value in values:
        total += value
    return total


# --- tuning (variants played against each other, see docs/BOTS.md) ----------------------

WIN = 1000.0
"""Standing of a seat that meets a win condition."""
FLAG_W = 1.0
"""Standing per scored flag (five win)."""
GROUP_W = (0.0, 0.25, 0.9)
"""Standing of a group by its number of scored flags (three win)."""
PT_W = 0.3
"""Standing per point of the scoring pyramids (eight win)."""
NEXT_W = 0.25
"""Share of the best next pyramid's extra points (beyond its own point) in the standing."""
REACH = (0.9, 0.4, 0.15, 0.05, 0.02)
"""Worth of a hand card whose flag needs d more moves (index d, 0 to 4; 0 = standing now).

The estimate counts at most two per link and a flag has at most two links."""
OPP_REACH_W = 1.0
"""Weight of an opponent's reach gains against our own."""
BLOCK_W = 0.5
"""Share of an opponent's reach loss (a flag pushed further away) that counts as our gain."""
VICTIM_W = 1.0
"""Weight of the points an opponent loses to a capture or a trade, for the leader."""
OTHER_VICTIM_W = 0.3
"""The same weight for an opponent who is not the leader."""
FADE_START = 60
"""From this turn on the opponent terms fade out linearly ..."""
FADE_TURNS = 60
"""... reaching zero this many turns later."""
SWAP_COST = 0.02
"""An exchange gives up the move: a small cost so that an equal move is preferred."""
FIRST_TAKE_W = 0.01
"""Between two bank takes leading to the same pair, take the one worth more alone first."""
SPLIT_GAIN = 0.05
"""Estimated worth of a destroy action before it is used (towers to split)."""
_EPS = 1e-9

# --- tables built at import --------------------------------------------------------------

_N = NUM_FLAG_PIECES
_ALL_CARDS = (1 << NUM_CARDS) - 1

_Masks = tuple[int, ...]
_Tables = tuple[
    _Masks, _Masks, _Masks, _Masks, tuple[tuple[tuple[int, int], ...], ...], tuple[float, ...]
]


def _build_tables() -> _Tables:
    by_piece = [0] * _N
    as_lower = [0] * _N
    as_upper = [0] * _N
    tower_mask = []
    links = []
    for c in range(NUM_CARDS):
        t = TOWER[c]
        m = 0
        for p in t:
            m |= 1 << p
            by_piece[p] |= 1 << c
        tower_mask.append(m)
        links.append(tuple((t[i], t[i + 1]) for i in range(len(t) - 1)))
        for lo, up in links[-1]:
            as_lower[lo] |= 1 << c
            as_upper[up] |= 1 << c
    n = NUM_PIECES - FIRST_SCORING
    pot = []
    for idx in range(1 << n):
        mask = idx << FIRST_SCORING
        now = points(mask)
        best = now
        for q in range(n):
            if not (idx >> q) & 1:
                best = max(best, points(mask | (1 << (FIRST_SCORING + q))))
        pot.append(now + NEXT_W * max(0, best - now - 1))
    return (
        tuple(by_piece),
        tuple(as_lower),
        tuple(as_upper),
        tuple(tower_mask),
        tuple(links),
        tuple(pot),
    )


CARDS_WITH_PIECE, CARDS_LOWER, CARDS_UPPER, TOWER_MASK, LINKS, _POT = _build_tables()
"""Piece -> mask of the cards whose flag uses it, as the lower piece of a link, as the upper
piece of a link; card -> mask of its flag pieces; card -> its links (lower, upper);
scoring-mask index -> points plus the next-pyramid bonus."""


def pot(mask: int) -> float:
    """Points of a scoring mask plus NEXT_W of what the best next pyramid would add."""
    return _POT[mask >> FIRST_SCORING]


def flag_distance(card: int, below: Sequence[int], above: Sequence[int]) -> int:
    """Estimated moves before ``card``'s flag stands (0: it stands now, at most 4).

    ``below[p]``/``above[p]``: the piece directly under/on piece ``p`` (-1: none).
    """
    d = 0
    fmask = TOWER_MASK[card]
    for lo, up in LINKS[card]:
        if below[up] != lo:
            d += 1
            a = above[lo]
            if a >= 0 and not (fmask >> a) & 1:
                d += 1
    return d


def standing(flags: int, groups: Sequence[int], mask: int) -> float:
    """A seat's standing: WIN when it meets a win condition, else its weighted progress."""
    if flags >= WIN_FLAGS or max(groups) >= WIN_GROUP_FLAGS or points(mask) >= WIN_POINTS:
        return WIN
    return FLAG_W * flags + add_up(GROUP_W[g] for g in groups) + PT_W * pot(mask)


def _best_capture(seat: int, card: int, bank: int, masks: Sequence[int]) -> tuple[int, int, int]:
    """(seat's new mask, new bank, victim seat or -1) after the best capture for ``card``."""
    shown = PIECES_MASK[card]
    mine = masks[seat]
    avail = bits_of(shown & bank)
    best_mask, best_bank, victim = mine, bank, -1
    best = pot(mine)
    for i, p in enumerate(avail):
        single = mine | (1 << p)
        for q in avail[i + 1 :] or [-1]:
            m = single if q < 0 else single | (1 << q)
            v = pot(m)
            if v > best + _EPS:
                best, best_mask, best_bank = v, m, bank & ~(m & ~mine)
    for q, held in enumerate(masks):
        if q == seat:
            continue
        for p in bits_of(shown & held):
            m = mine | (1 << p)
            v = pot(m)
            if v > best + _EPS:
                best, best_mask, best_bank, victim = v, m, bank, q
    return best_mask, best_bank, victim


class _Position:
    """What the heuristic reads from one view, computed once per decision."""

    def __init__(self, view: FlagsView) -> None:
        seat = view.player
        if seat is None or view.hand is None:
            raise ValueError("the greedy bot needs a seat's view, not a spectator's")
        self.seat = seat
        self.n = view.players
        below = [-1] * _N
        above = [-1] * _N
        for tower in view.towers:
            for i in range(1, len(tower)):
                below[tower[i]] = tower[i - 1]
                above[tower[i - 1]] = tower[i]
        self.below = below
        self.above = above
        self.hand = view.hand
        self.hand_sizes = view.hand_sizes
        self.deck_size = view.deck_size
        self.bank = sum(1 << p for p in view.bank)
        self.masks = list(view.scoring)
        self.flags = [len(s) for s in view.scored]
        self.groups = [group_counts(s) for s in view.scored]
        self.standings = [
            standing(self.flags[q], self.groups[q], self.masks[q]) for q in range(self.n)
        ]
        opponents = [q for q in range(self.n) if q != seat]
        self.leader = max(opponents, key=lambda q: (self.standings[q], -q))
        # Where the cards may be: ours, scored, seen in a hand or the deck, or unseen.
        known_hand = [sum(1 << c for c in cards) for cards in view.known_hands]
        known_deck = sum(1 << c for _, c in view.known_deck)
        placed = sum(1 << c for c in view.hand) | known_deck
        for s in view.scored:
            placed |= sum(1 << c for c in s)
        for q in opponents:
            placed |= known_hand[q]
        unknown = _ALL_CARDS & ~placed
        n_unknown = unknown.bit_count()
        self.unknown = unknown
        self.owner: list[tuple[int, float, int]] = []
        """Per opponent: (seat, chance it holds a given unseen card, cards seen in its hand)."""
        others = unknown
        for q in opponents:
            slots = view.hand_sizes[q] - len(view.known_hands[q])
            self.owner.append((q, slots / n_unknown if n_unknown else 0.0, known_hand[q]))
            others |= known_hand[q]
        self.others = others
        """Cards an opponent may hold."""
        self.p_held = [0.0] * NUM_CARDS
        """Chance that some opponent holds each card."""
        for c in bits_of(others):
            bit = 1 << c
            self.p_held[c] = add_up(
                1.0 if known & bit else p for _, p, known in self.owner if (known | unknown) & bit
            )
        self.dist = [flag_distance(c, below, above) for c in range(NUM_CARDS)]
        self.hand_mask = sum(1 << c for c in view.hand)
        self.hand_standing = [c for c in view.hand if self.dist[c] == 0]
        """Cards of our hand whose flag stands now (drawn since it was built)."""
        self.hand_base = add_up(REACH[self.dist[c]] for c in view.hand if self.dist[c])
        """Worth of the rest of our hand as the table stands."""
        deck_cards = bits_of(unknown | known_deck)
        self.fresh = (
            add_up(REACH[self.dist[c]] for c in deck_cards) / len(deck_cards) if deck_cards else 0.0
        )
        """Mean worth of a card drawn blind."""
        self.actions_on = bool(view.options.get("actions", True))
        late = view.turn - FADE_START
        self.opp_w = 1.0 if late <= 0 else max(0.0, 1.0 - late / FADE_TURNS)
        """Weight of the opponent terms (1, fading to 0 in long games)."""
        self._opp_value: dict[int, float] = {}
        self._tree_value: dict[str, float] = {}

    # --- standings -----------------------------------------------------------------------

    def gain(self, seat: int, cards: Sequence[int]) -> float:
        """Gain in ``seat``'s standing from scoring ``cards`` in order, best captures taken."""
        flags = self.flags[seat]
        groups = list(self.groups[seat])
        masks = list(self.masks)
        bank = self.bank
        before = self.standings[seat]
        for c in cards:
            flags += 1
            g = GROUP_MASK[c]
            for i in range(len(groups)):
                if (g >> i) & 1:
                    groups[i] += 1
            if standing(flags, groups, masks[seat]) >= WIN:
                return WIN - before
            new_mask, bank, victim = _best_capture(seat, c, bank, masks)
            if victim >= 0:
                masks[victim] &= ~(new_mask & ~masks[seat])
            masks[seat] = new_mask
        return standing(flags, groups, masks[seat]) - before

    def opp_value(self, card: int) -> float:
        """Expected gain in standing of the opponents if ``card``'s flag is scored now."""
        cached = self._opp_value.get(card)
        if cached is None:
            bit = 1 << card
            cached = 0.0
            for q, p, known in self.owner:
                prob = 1.0 if known & bit else (p if self.unknown & bit else 0.0)
                if prob > 0:
                    cached += prob * self.gain(q, [card])
            self._opp_value[card] = cached
        return cached

    def opp_term(self, card: int, d: int) -> float:
        """What a card an opponent may hold is worth to them at distance ``d``."""
        if d == 0:
            return self.opp_value(card)
        return OPP_REACH_W * self.p_held[card] * REACH[d]

    def victim_weight(self, q: int) -> float:
        """How much we care about ``q`` losing points: the leader most."""
        return VICTIM_W if q == self.leader else OTHER_VICTIM_W

    def hand_reach(self) -> float:
        """Worth of our hand as the table stands."""
        return add_up(REACH[self.dist[c]] for c in self.hand)

    # --- table changes -------------------------------------------------------------------

    def table_value(self, touched: int) -> float:
        """Worth of the table now in ``below``/``above`` (our hand, less opponents' gains).

        Only the cards in mask ``touched`` may have a distance other than ``self.dist``;
        the opponents' terms count their change from ``self.dist``.
        """
        below = self.below
        above = self.above
        dist = self.dist
        value = self.hand_base
        scored = [c for c in self.hand_standing if not (touched >> c) & 1]
        m = touched & self.hand_mask
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            d = flag_distance(c, below, above)
            value -= REACH[dist[c]] if dist[c] else 0.0
            if d == 0:
                scored.append(c)
            else:
                value += REACH[d]
        if scored:
            scored.sort()  # PF-SCORE-2: a seat scores its cards in code order
            value += self.gain(self.seat, scored) + len(scored) * self.fresh
        w = self.opp_w
        if w <= 0:
            return value
        m = touched & self.others
        p_held = self.p_held
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            d = flag_distance(c, below, above)
            d0 = dist[c]
            if d == d0:
                continue
            if d and d0:
                helped = OPP_REACH_W * p_held[c] * (REACH[d] - REACH[d0])
            else:
                helped = self.opp_term(c, d) - self.opp_term(c, d0)
            value -= w * (helped if helped > 0 else BLOCK_W * helped)
        return value

    def move_value(self, lowest: int, target: int) -> float:
        """Worth of moving ``lowest`` (and what is on it) onto ``target``."""
        below = self.below
        above = self.above
        old = below[lowest]
        # A distance reads below[] of a link's upper piece and above[] of its lower piece.
        touched = CARDS_UPPER[lowest]
        if old >= 0:
            above[old] = -1
            touched |= CARDS_LOWER[old]
        if target == TABLE:
            below[lowest] = -1
        else:
            below[lowest] = target
            above[target] = lowest
            touched |= CARDS_LOWER[target]
        value = self.table_value(touched)
        if self.actions_on:
            tree = tree_made(lowest, below, above)
            if tree:
                value += self.tree_value(tree)
        if target != TABLE:
            above[target] = -1
        below[lowest] = old
        if old >= 0:
            above[old] = lowest
        return value

    def split_value(self, bottom: int) -> float:
        """Gain of splitting the tower on ``bottom`` into single pyramids."""
        below = self.below
        above = self.above
        group = [bottom]
        while above[group[-1]] >= 0:
            group.append(above[group[-1]])
        touched = 0
        for p in group:
            touched |= CARDS_WITH_PIECE[p]
            below[p] = -1
            above[p] = -1
        value = self.table_value(touched) - self.table_value(0)
        for i, p in enumerate(group):
            below[p] = group[i - 1] if i else -1
            above[p] = group[i + 1] if i + 1 < len(group) else -1
        return value

    def best_split(self) -> float:
        """Gain of the best split available now (0 when none helps)."""
        towers = [b for b in range(_N) if self.below[b] < 0 and self.above[b] >= 0]
        return max([0.0, *(self.split_value(b) for b in towers)])

    # --- tree actions --------------------------------------------------------------------

    def trade_value(self, action: Action) -> float:
        """Worth of a blue trade: our gain plus the weighted loss of the other seat."""
        mine, theirs, q = decode_trade(action)
        ours_before = self.masks[self.seat]
        me = (ours_before & ~(1 << mine)) | (1 << theirs)
        other = (self.masks[q] & ~(1 << theirs)) | (1 << mine)
        if points(me) >= WIN_POINTS:
            return WIN
        if points(other) >= WIN_POINTS:
            return -WIN
        ours = pot(me) - pot(ours_before)
        loss = pot(self.masks[q]) - pot(other)
        return PT_W * (ours + self.victim_weight(q) * loss)

    def best_trade(self) -> float:
        """Worth of the best trade available now (0 when none helps)."""
        best = 0.0
        seat = self.seat
        for m in bits_of(self.masks[seat]):
            for q in range(self.n):
                if q != seat:
                    for t in bits_of(self.masks[q]):
                        best = max(best, self.trade_value(trade_action(m, t, q)))
        return best

    def newstart_value(self) -> float:
        """Expected change in our hand's worth if all hands are dealt again (PF-TREE yellow)."""
        total = sum(self.hand_sizes)
        if total == 0:
            return 0.0
        each, extra = divmod(total, self.n)
        share = each + (1 if extra else 0)  # the dealer is served first
        mine = self.hand_reach()
        mean = (mine + (total - len(self.hand)) * self.fresh) / total
        return share * mean - mine

    def tree_value(self, colour: str) -> float:
        """Estimated worth of earning ``colour``'s tree action (before seeing its options)."""
        cached = self._tree_value.get(colour)
        if cached is not None:
            return cached
        if colour == "G":
            value = min(2, self.deck_size) * self.fresh
        elif colour == "K":
            robbed = any(s for q, s in enumerate(self.hand_sizes) if q != self.seat)
            value = 2 * self.fresh if robbed else 0.0
        elif colour == "B":
            value = self.best_trade()
        elif colour == "Y":
            value = max(0.0, self.newstart_value())
        elif colour == "R":
            value = SPLIT_GAIN
        else:
            value = max(self.tree_value(c) for c in WILD_COLOURS)
        self._tree_value[colour] = value
        return value


def _pick(scored: list[tuple[float, Action]], rng: random.Random) -> Action:
    """The best-valued action; ties (within 1e-9) broken with ``rng``."""
    top = max(v for v, _ in scored)
    best = [a for v, a in scored if v >= top - _EPS]
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


def _turn_choice(pos: _Position, legal: Sequence[Action], rng: random.Random) -> Action:
    """A move (PF-MOVE) or an exchange (PF-SWAP)."""
    return _pick(_turn_scores(pos, legal), rng)


def _turn_scores(pos: _Position, legal: Sequence[Action]) -> list[tuple[float, Action]]:
    """Each move (PF-MOVE) or exchange (PF-SWAP) of ``legal`` with its estimated worth."""
    scored: list[tuple[float, Action]] = []
    base = -1.0
    for a in legal:
        if a < SWAP_BASE:
            lowest, target = decode_move(a)
            scored.append((pos.move_value(lowest, target), a))
        else:
            if base < 0:
                base = pos.hand_reach() + pos.fresh - SWAP_COST
            scored.append((base - REACH[pos.dist[a - SWAP_BASE]], a))
    return scored


def _capture_choice(
    pos: _Position, view: FlagsView, legal: Sequence[Action], rng: random.Random
) -> Action:
    """A take (PF-CAPTURE): the most points for us, or from the leader; never ``done``."""
    mine = pos.masks[pos.seat]
    shown = PIECES_MASK[BY_CODE[str(view.pending["card"])]]
    first = not view.pending.get("taken")
    scored: list[tuple[float, Action]] = []
    for a in legal:
        if a == DONE:
            scored.append((pot(mine) - 1.0, a))
            continue
        piece, source = decode_take(a)
        bit = 1 << piece
        me = mine | bit
        if points(me) >= WIN_POINTS:
            scored.append((WIN, a))
        elif source is None:
            best = pot(me)
            if first:  # a second bank take follows; the better single first, in case of ties
                for q in bits_of(shown & pos.bank & ~bit):
                    best = max(best, pot(me | (1 << q)))
                best += FIRST_TAKE_W * pot(me)
            scored.append((best, a))
        else:
            loss = pot(pos.masks[source]) - pot(pos.masks[source] & ~bit)
            scored.append((pot(me) + pos.victim_weight(source) * loss, a))
    return _pick(scored, rng)


def _action_choice(
    pos: _Position, colour: str, legal: Sequence[Action], rng: random.Random
) -> Action:
    """A tree action (PF-TREE): used when it helps, else ``done``."""
    options = [a for a in legal if a != DONE]
    if not options:
        return DONE
    if colour == "G":
        return GROW
    if colour == "K":  # rob the fullest hand, then the leader, then the lowest seat
        return max(
            options,
            key=lambda a: (
                pos.hand_sizes[a - PIRATE_BASE],
                pos.standings[a - PIRATE_BASE],
                -a,
            ),
        )
    if colour == "Y":
        return NEWSTART if pos.newstart_value() > _EPS else DONE
    scored: list[tuple[float, Action]] = [(0.0, DONE)]
    if colour == "R":
        scored += [(pos.split_value(a - SPLIT_BASE), a) for a in options]
    elif colour == "B":
        scored += [(pos.trade_value(a), a) for a in options]
    else:  # white: the colour whose action is worth most now
        for a in options:
            chosen = WILD_COLOURS[a - WILD_BASE]
            value = pos.best_split() if chosen == "R" else pos.tree_value(chosen)
            scored.append((value, a))
    return _pick(scored, rng)


def choose(view: FlagsView, legal: Sequence[Action], rng: random.Random) -> Action:
    """The greedy choice among ``legal`` for the seat of ``view`` (see the module doc)."""
    if len(legal) == 1:
        return legal[0]
    pos = _Position(view)
    kind = view.pending.get("kind") if view.pending else None
    if kind is None:
        return _turn_choice(pos, legal, rng)
    if kind == "capture":
        return _capture_choice(pos, view, legal, rng)
    if kind == "action":
        return _action_choice(pos, str(view.pending["colour"]), legal, rng)
    return legal[rng.randrange(len(legal))]


def turn_scores(view: FlagsView, legal: Sequence[Action]) -> list[float]:
    """The greedy bot's estimated worth of each action of ``legal`` (moves and exchanges, at
    the start of a turn of the seat of ``view``), in the order of ``legal``: the scores it
    picks the best of. Read by inference (``pyramids.games.flags.inference``)."""
    if view.pending:
        raise ValueError("turn scores are for the start of a turn (no pending decision)")
    return [value for value, _ in _turn_scores(_Position(view), legal)]


class GreedyFlagsBot:
    """Plays the action whose one-ply static estimate is worth most (see the module doc)."""

    name = "greedy"

    def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """The best legal action by the static estimate; ties broken with ``rng``."""
        if not isinstance(view, FlagsView):
            raise TypeError("GreedyFlagsBot plays Pyramids and Flags views")
        return choose(view, legal, rng)
