"""Determinization with inference: hidden cards sampled by how well they explain the
opponents' moves (search setting ``inference``, spec extra ``+infer``; docs/BOTS.md).

A view carries no history, so the bot remembers it: ``Memory`` keeps the view of its last
decision and what it played. At the next decision, the turn of the opponent who moved in
between is rebuilt: one determinization of the remembered view, the bot's action applied,
chance drawn, up to that opponent's decision (its public part is exact; its hidden cards are
what the particles replace). The game's ``Inference`` (descriptor part ``inference``) names
the actions of that turn that agree with the current view.

Moves the game calls ``additive`` (a hand's score is the empty hand's plus each card's
change) are read card by card: the policy scores them once per card the opponent may hold,
and ``PARTICLES`` Metropolis chains over hands (one card swapped a step, ``STEPS`` steps) draw
the hands at the belief times the softmax (``CARD_TEMPERATURE``, ``FLOOR``) of the observed
move; each chain's last hand is a particle. The chains' per-card frequencies become the
belief (log-odds against the uniform share), the prior of the next read: evidence adds up
over the opponent's turns. Other actions (an exchange) are read whole: ``PARTICLES``
determinizations weighted by the softmax at ``TEMPERATURE`` and resampled (``systematic``);
the belief fades. Each particle is the current view with that opponent's hand known, and the
search draws one of them per iteration before determinizing the rest (deck order):
``pick_particle`` (the native search draws the same).

With two seats, the opponent's turn is rebuilt from the remembered decision as above. With
more, several opponents move between two decisions: the host shows the bot the seat's view
after every action (``observe``, ``pyramids.core.game.observe``), and each opponent turn
those views hold (the view where that seat was to decide, and the first view of the next
turn) is read the same way, card by card (``READ_CHAINS`` chains), into that seat's belief; the
particles then hold a hand for every believed opponent, drawn seat after seat from its
belief without replacement (``_weighted_hand``: disjoint hands).
A memory that cannot follow (a new game, a view from another table, a bot without memory
after a restart) gives no particles: the search samples as without inference. Every draw is
from the bot's generator, so decisions stay reproducible from (game, seed, budget).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from pyramids.core.descriptor import Inference
from pyramids.core.game import CHANCE, Action, Game, State, View

PARTICLES = 32
"""Determinizations weighted per decision (and views handed to the search)."""

TEMPERATURE = 0.1
"""Softmax temperature of the policy's scores (in the game's score units)."""

CARD_TEMPERATURE = 0.01
"""Softmax temperature of the per-card model of a move (sharper: its scores are summed from
one-card hands, and greedy play is what it reads best)."""

FLOOR = 0.05
"""Share of the uniform choice in the opponent model."""

CHANCE_STEPS = 64
"""Most chance outcomes drawn while rebuilding the opponent's turn."""

STEPS = 60
"""Metropolis steps of each particle's chain over hands (one card swapped a step)."""

BURN = 20
"""Steps of a chain before its hands count in the belief."""

SMOOTH = 2.0
"""Weight of the uniform share in a card's belief (hands' worth of prior counts)."""

BELIEF_CAP = 4.0
"""Largest belief (log-odds against the uniform share) a card keeps."""

EXCHANGE_KEEP = 0.5
"""Share of the belief an exchange leaves (a card of the hand went back unseen)."""

READ_CHAINS = 16
"""Chains of a read of one opponent turn among several (three or four players): only their
per-card marginals are used (the belief), and a decision may read three turns."""

SEEN_CAP = 512
"""Most views a memory keeps between two decisions (the oldest go first)."""


Move = tuple[list[float], dict[int, list[float]], list[int]]
"""The per-card model of an observed move: each additive action's score with no hidden card,
each hidden card's change to those scores, and the indices of the observed actions."""


def pick_particle(particles: Sequence[View], rng: random.Random) -> View:
    """The view one search iteration determinizes: uniform (the particles were resampled)."""
    return particles[rng.randrange(len(particles))]


def likelihoods(
    scores: Sequence[float], chosen: Sequence[int], temperature: float = TEMPERATURE
) -> float:
    """The chance of playing one of the actions at indices ``chosen`` under the softmax of
    ``scores`` at ``temperature`` mixed with the uniform share ``FLOOR``."""
    top = max(scores)
    weights = [math.exp((s - top) / temperature) for s in scores]
    total = sum(weights)
    soft = sum(weights[i] for i in chosen) / total
    return (1.0 - FLOOR) * soft + FLOOR * len(chosen) / len(scores)


def systematic(weights: Sequence[float], count: int, rng: random.Random) -> list[int]:
    """``count`` indices drawn in proportion to ``weights`` with one draw (systematic
    resampling)."""
    total = sum(weights)
    step = total / count
    point = rng.random() * step
    out: list[int] = []
    acc = 0.0
    i = 0
    last = len(weights) - 1
    for _ in range(count):
        while i < last and acc + weights[i] <= point:
            acc += weights[i]
            i += 1
        out.append(i)
        point += step
    return out


class Memory:
    """What one bot saw at its last decision of the game it is playing."""

    def __init__(self) -> None:
        self.view: View | None = None
        self.action: Action | None = None
        self.beliefs: dict[int, dict[int, float]] = {}
        """Per opponent seat, per card it may hold: log-odds against the uniform share."""
        self.seat: int | None = None
        """The seat the newest belief is about."""
        self._next: tuple[View, int, dict[int, float]] | None = None
        """The belief the last ``particles`` read, kept when that view's action is remembered
        (so a search can be run again from the same memory and give the same result)."""
        self.seen: list[View] = []
        """The seat's views after each action since the turns last read (``observe``)."""
        self._read: tuple[View, int, dict[int, dict[int, float]]] | None = None
        """With more than two seats: the view the last ``particles`` read up to, how many
        ``seen`` views that read, and the beliefs after them (kept by ``remember``)."""

    def remember(self, view: View, action: Action) -> None:
        """The bot played ``action`` from ``view`` (the belief read at ``view`` is kept)."""
        if self._next is not None and self._next[0] == view:
            _, seat, belief = self._next
            self.beliefs[seat] = belief
            self.seat = seat
        if self._read is not None and self._read[0] == view:
            _, used, beliefs = self._read
            self.beliefs = beliefs
            del self.seen[:used]
        elif getattr(view, "players", 2) <= 2:
            self.seen.clear()  # two seats: the turn is rebuilt from this decision instead
        self._next = None
        self._read = None
        self.view = view
        self.action = action

    def copy(self) -> Memory:
        """An independent copy (the views, which never change, shared)."""
        twin = Memory()
        twin.view, twin.action, twin.seat = self.view, self.action, self.seat
        twin.beliefs = {seat: dict(belief) for seat, belief in self.beliefs.items()}
        twin.seen = list(self.seen)
        twin._next, twin._read = self._next, self._read
        return twin

    def observe(self, view: View) -> None:
        """An action was played: ``view`` is the seat's view after it (hosts call this after
        every action; with more than two seats ``particles`` reads the turns they hold)."""
        self.seen.append(view)
        if len(self.seen) > SEEN_CAP:
            del self.seen[: len(self.seen) - SEEN_CAP]

    def forget(self) -> None:
        """A new game: nothing remembered."""
        self.view = None
        self.action = None
        self.beliefs = {}
        self.seat = None
        self._next = None
        self.seen = []
        self._read = None

    def before(self, view: View, game: Game, rng: random.Random) -> State | None:
        """The start of the opponent's turn that led to ``view``, hidden cards sampled; None
        when the memory does not lead there (then it is forgotten if it cannot be this game's)."""
        last, action = self.view, self.action
        if last is None or action is None:
            return None
        if not _follows(last, view):
            self.forget()
            return None
        try:
            state = game.determinize(last, rng)
            state.apply(action)
            steps = 0
            while state.current_player() == CHANCE and steps < CHANCE_STEPS:
                state.apply(state.sample_chance(rng))
                steps += 1
        except Exception:
            self.forget()
            return None
        if state.is_terminal() or state.current_player() in (CHANCE, view.player):
            return None
        return state

    def particles(
        self, view: View, game: Game, inference: Inference, rng: random.Random
    ) -> list[View] | None:
        """Views of ``view`` with the last mover's hand drawn by inference (see the module
        doc); None when there is nothing to infer. The belief it reads is kept by
        ``remember`` of the same view."""
        self._next = None
        self._read = None
        if getattr(view, "players", 2) > 2:
            return self._several(view, game, inference, rng)
        before = self.before(view, game, rng)
        if before is None:
            return self._from_belief(view, inference, rng)
        observed = inference.observed(before, view)
        if not observed:
            return self._from_belief(view, inference, rng)
        seat = before.current_player()
        legal = before.legal_actions()
        moves = inference.additive(legal)
        if moves and all(a in moves for a in observed):
            return self._per_card(
                before=before,
                seat=seat,
                moves=moves,
                observed=observed,
                view=view,
                inference=inference,
                rng=rng,
            )
        # an exchange: the whole-hand particles, and what was believed of the hand fades
        faded = {c: b * EXCHANGE_KEEP for c, b in self.beliefs.get(seat, {}).items()}
        self._next = (view, seat, faded)
        chosen = [legal.index(a) for a in observed]
        nows = [game.determinize(view, rng) for _ in range(PARTICLES)]
        weights = [
            likelihoods(
                inference.scores(inference.view_then(before, seat, now, view), legal), chosen
            )
            for now in nows
        ]
        picked = systematic(weights, PARTICLES, rng)
        return [inference.particle(view, seat, nows[i]) for i in picked]

    def _per_card(
        self,
        *,
        before: State,
        seat: int,
        moves: list[Action],
        observed: list[Action],
        view: View,
        inference: Inference,
        rng: random.Random,
    ) -> list[View] | None:
        """Hands drawn by the per-card model of a move (module doc), the belief updated."""
        cards, size = inference.hidden(view, seat)
        if size <= 0 or size >= len(cards):
            return None
        move = _card_model(before, seat, moves, observed, cards, after=view, inference=inference)
        hands = self._sample(seat, cards, size, move, rng=rng, view=view)
        return [inference.particle_holding(view, seat, hand) for hand in hands]

    def _from_belief(
        self, view: View, inference: Inference, rng: random.Random
    ) -> list[View] | None:
        """Hands drawn from the belief alone (no new move to read); None without one."""
        seat = self.seat
        if seat is None or seat == view.player or not self.beliefs.get(seat):
            return None
        cards, size = inference.hidden(view, seat)
        if size <= 0 or size >= len(cards):
            return None
        hands = self._sample(seat, cards, size, None, rng=rng, view=view)
        return [inference.particle_holding(view, seat, hand) for hand in hands]

    def _several(
        self, view: View, game: Game, inference: Inference, rng: random.Random
    ) -> list[View] | None:
        """More than two seats: every opponent turn in the observed views read into that
        seat's belief, then ``PARTICLES`` views holding a hand for each believed opponent
        (module doc); None when no opponent is believed yet."""
        seen = self.seen
        if any(not _follows(v, view) for v in seen) or (
            self.view is not None and not _follows(self.view, view)
        ):
            self.forget()
            return None
        beliefs = {s: dict(b) for s, b in self.beliefs.items()}
        for turn in _turns([*seen, view], view.player):
            self._read_turn(turn, beliefs, game=game, inference=inference, rng=rng)
        self._read = (view, len(seen), beliefs)
        players = int(getattr(view, "players", 2))
        seats = [s for s in _after(view.player, players) if beliefs.get(s)]
        if not seats:
            return None
        particles: list[View] = []
        for _ in range(PARTICLES):
            held = view
            for seat in seats:
                cards, size = inference.hidden(held, seat)
                if 0 < size < len(cards):
                    belief = beliefs[seat]
                    hand = _weighted_hand([belief.get(c, 0.0) for c in cards], cards, size, rng)
                    held = inference.particle_holding(held, seat, hand)
            particles.append(held)
        return particles

    @staticmethod
    def _read_turn(
        turn: tuple[View, View],
        beliefs: dict[int, dict[int, float]],
        *,
        game: Game,
        inference: Inference,
        rng: random.Random,
    ) -> None:
        """Read the opponent's turn from ``start`` (its decision) to ``end`` (the next turn's
        first view) into ``beliefs``: a move card by card, an exchange fades the belief."""
        start, end = turn
        try:
            before = game.determinize(start, rng)
        except Exception:
            return
        if before.is_terminal() or before.current_player() in (CHANCE, start.player):
            return
        observed = inference.observed(before, end)
        if not observed:
            return
        seat = before.current_player()
        moves = inference.additive(before.legal_actions())
        if not (moves and all(a in moves for a in observed)):
            beliefs[seat] = {c: b * EXCHANGE_KEEP for c, b in beliefs.get(seat, {}).items()}
            return
        cards, size = inference.hidden(end, seat)
        if size <= 0 or size >= len(cards):
            return
        move = _card_model(before, seat, moves, observed, cards, after=end, inference=inference)
        prior = {c: beliefs.get(seat, {}).get(c, 0.0) for c in cards}
        _, beliefs[seat] = _chains(prior, cards, size, move, count=READ_CHAINS, rng=rng)

    def _sample(
        self,
        seat: int,
        cards: list[int],
        size: int,
        move: Move | None,
        *,
        rng: random.Random,
        view: View,
    ) -> list[list[int]]:
        """``PARTICLES`` hands of ``size`` of ``cards`` by ``_chains`` from the seat's
        belief and the observed ``move``; the belief the chains give is kept for
        ``remember``."""
        belief = self.beliefs.get(seat, {})
        prior = {c: belief.get(c, 0.0) for c in cards}
        hands, updated = _chains(prior, cards, size, move, count=PARTICLES, rng=rng)
        self._next = (view, seat, updated)
        return hands


def _card_model(
    before: State,
    seat: int,
    moves: list[Action],
    observed: list[Action],
    cards: list[int],
    *,
    after: View,
    inference: Inference,
) -> Move:
    """``seat``'s ``moves`` at ``before`` scored holding none of ``cards`` and each alone
    (``after``: the view after the turn), and where the ``observed`` ones are."""
    base = inference.scores(inference.view_holding(before, seat, (), after), moves)
    deltas = {
        c: [
            x - b
            for x, b in zip(
                inference.scores(inference.view_holding(before, seat, (c,), after), moves),
                base,
                strict=True,
            )
        ]
        for c in cards
    }
    return base, deltas, [moves.index(a) for a in observed]


def _chains(
    prior: dict[int, float],
    cards: list[int],
    size: int,
    move: Move | None,
    *,
    count: int,
    rng: random.Random,
) -> tuple[list[list[int]], dict[int, float]]:
    """``count`` hands of ``size`` of ``cards``: one Metropolis chain each, swapping one card
    a step, at the ``prior`` (log-odds per card) times the likelihood of the observed
    ``move`` (base scores, per-card score changes, observed indices; None: the prior alone).
    Also the chains' per-card marginals as the new belief."""
    base, deltas, chosen = move if move is not None else ([0.0], {c: [0.0] for c in cards}, [0])

    def log_chance(total: list[float]) -> float:
        if move is None:
            return 0.0
        return math.log(likelihoods(total, chosen, CARD_TEMPERATURE))

    counts = dict.fromkeys(cards, 0)
    seen = 0
    hands: list[list[int]] = []
    for _ in range(count):
        hand = rng.sample(cards, size)
        held = set(hand)
        total = list(base)
        for c in hand:
            total = [t + d for t, d in zip(total, deltas[c], strict=True)]
        chance = log_chance(total)
        for step in range(STEPS):
            i = rng.randrange(size)
            new = cards[rng.randrange(len(cards))]
            if new not in held:
                old = hand[i]
                trial = [t - a + b for t, a, b in zip(total, deltas[old], deltas[new], strict=True)]
                trial_chance = log_chance(trial)
                gain = trial_chance - chance + prior[new] - prior[old]
                if gain >= 0.0 or rng.random() < math.exp(gain):
                    held.discard(old)
                    held.add(new)
                    hand[i] = new
                    total, chance = trial, trial_chance
            if step >= BURN:
                seen += 1
                for c in hand:
                    counts[c] += 1
        hands.append(sorted(hand))
    share = size / len(cards)
    odds = math.log(share / (1.0 - share))
    updated: dict[int, float] = {}
    for c in cards:
        p = (counts[c] + SMOOTH * share) / (seen + SMOOTH)
        updated[c] = max(-BELIEF_CAP, min(BELIEF_CAP, math.log(p / (1.0 - p)) - odds))
    return hands, updated


def _weighted_hand(
    belief: Sequence[float], cards: Sequence[int], size: int, rng: random.Random
) -> list[int]:
    """``size`` of ``cards`` drawn without replacement, each in proportion to e^belief
    (Efraimidis–Spirakis keys: one draw a card), sorted."""
    keys = [
        math.log(1.0 - rng.random()) * math.exp(-b) for b in belief
    ]  # log(u) / weight, largest first
    ranked = sorted(range(len(cards)), key=keys.__getitem__, reverse=True)
    return sorted(cards[i] for i in ranked[:size])


def _follows(earlier: View, later: View) -> bool:
    """Whether ``earlier`` can be a view of the same seat, game and table before ``later``."""
    return (
        getattr(earlier, "game", None) == getattr(later, "game", None)
        and getattr(earlier, "players", None) == getattr(later, "players", None)
        and earlier.player == later.player
        and getattr(earlier, "turn", 0) <= getattr(later, "turn", 0)
    )


def _after(seat: int | None, players: int) -> list[int]:
    """The other seats in play order after ``seat``."""
    first = 0 if seat is None else seat
    return [(first + k) % players for k in range(1, players)]


def _turns(views: Sequence[View], me: int | None) -> list[tuple[View, View]]:
    """(an opponent's decision, the next turn's first view) for each opponent turn the
    chronological ``views`` hold whole: the first view of a turn where an opponent is to
    decide with nothing pending, and the first view of the following turn."""
    out: list[tuple[View, View]] = []
    start: tuple[int, View] | None = None
    read: set[int] = set()
    for v in views:
        turn = int(getattr(v, "turn", 0))
        if start is not None and turn == start[0] + 1:
            out.append((start[1], v))
            read.add(start[0])
            start = None
        elif start is not None and turn != start[0]:
            start = None  # a turn not seen whole
        mover = getattr(v, "to_move", None)
        if (
            start is None
            and turn not in read
            and not getattr(v, "pending", None)
            and isinstance(mover, int)
            and mover >= 0
            and mover != me
            and not getattr(v, "is_terminal", False)
        ):
            start = (turn, v)
    return out
