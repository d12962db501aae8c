"""Determinization with inference: hidden cards sampled by how well they explain the
opponents' moves (search setting ``inference``, spec extra ``+infer``; docs/BOTS.md).

A view carries no history, so the bot remembers it: ``Memory`` keeps the view of its last
decision and what it played. At the next decision, the turn of the opponent who moved in
between is rebuilt: one determinization of the remembered view, the bot's action applied,
chance drawn, up to that opponent's decision (its public part is exact; its hidden cards are
what the particles replace). The game's ``Inference`` (descriptor part ``inference``) names
the actions of that turn that agree with the current view.

Particles: ``PARTICLES`` determinizations of the current view. Each is weighted by the
chance that the game's default policy, holding that particle's hand, plays one of the
observed actions: a softmax of the policy's scores at ``TEMPERATURE``, mixed with a uniform
share ``FLOOR`` (an opponent that is not the policy still moves). Systematic resampling
(one draw) keeps ``PARTICLES`` of them in proportion; each becomes the current view with
that opponent's hand known, and the search draws one of them per iteration before
determinizing the rest (deck order): ``pick_particle`` (the native search draws the same).

Only the last opponent turn before a decision is read, and only when it directly follows
the remembered decision (two seats, or a table where the others did not move). A memory
that cannot follow (a new game, a view from another table, a bot without memory after a
restart) gives no particles: the search samples as without inference. Every draw is from
the bot's generator, so decisions stay reproducible from (game, seed, budget).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from pyramids.core.descriptor import Inference
from pyramids.core.game import CHANCE, Action, Game, State, View

PARTICLES = 16
"""Determinizations weighted per decision (and views handed to the search)."""

TEMPERATURE = 0.1
"""Softmax temperature of the policy's scores (in the game's score units)."""

FLOOR = 0.05
"""Share of the uniform choice in the opponent model."""

CHANCE_STEPS = 64
"""Most chance outcomes drawn while rebuilding the opponent's turn."""


def pick_particle(particles: Sequence[View], rng: random.Random) -> View:
    """The view one search iteration determinizes: uniform (the particles were resampled)."""
    return particles[rng.randrange(len(particles))]


def likelihoods(scores: Sequence[float], chosen: Sequence[int]) -> float:
    """The chance of playing one of the actions at indices ``chosen`` under the softmax of
    ``scores`` at ``TEMPERATURE`` mixed with the uniform share ``FLOOR``."""
    top = max(scores)
    weights = [math.exp((s - top) / TEMPERATURE) for s in scores]
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

    def remember(self, view: View, action: Action) -> None:
        """The bot played ``action`` from ``view``."""
        self.view = view
        self.action = action

    def forget(self) -> None:
        """A new game: nothing remembered."""
        self.view = None
        self.action = None

    def before(self, view: View, game: Game, rng: random.Random) -> State | None:
        """The start of the opponent's turn that led to ``view``, hidden cards sampled; None
        when the memory does not lead there (then it is forgotten if it cannot be this game's)."""
        last, action = self.view, self.action
        if last is None or action is None:
            return None
        if (
            getattr(last, "game", None) != getattr(view, "game", None)
            or getattr(last, "players", None) != getattr(view, "players", None)
            or last.player != view.player
            or getattr(last, "turn", 0) > getattr(view, "turn", 0)
        ):
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
        doc); None when there is nothing to infer."""
        before = self.before(view, game, rng)
        if before is None:
            return None
        observed = inference.observed(before, view)
        if not observed:
            return None
        seat = before.current_player()
        legal = before.legal_actions()
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
