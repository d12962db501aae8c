"""Flaming Pyramids' greedy bot: a one-ply static estimate of what each placement or fall sends back.

The game's default policy (``pyramids.games.flaming.descriptor``'s ``policy``; the player-facing
``greedy`` bot of ``pyramids.bots`` delegates to it). It never simulates. For every legal
placement it looks only at the spot's supports and neighbours on the view's pyramid and
estimates how many tiles mayhem would send under its own pile (FP-MAYHEM-3):

- a misfit (FP-FIT) collapses: its supports come back, and it drops somewhere;
- an ember touching an ember explodes (FP-EXPLODE): the group's neighbours come back;
- an ember touching fuel, or fuel placed against an ember, burns (FP-FIRE): the
  connected fuel comes back (and the placed tile too, when it is the fuel);
- a tile on two supports of its own number completes a curse (FP-CURSE): three tiles go
  to the player on the right, which is good for us.

Among placements of equal risk it sheds the tiles that are hard to place later (a
small cost per tile, proportional to how often that tile fits on a random pair of
supports) and an ember that burns nothing. Falls pick the side whose landing costs
least by the same estimate. Ties are broken with the generator it is given.

In call-out mode (FP-CALL) it checks perfectly (``perfect_check``): it calls the first
event the engine's checks find on the view's pyramid, or says ok. ``CheckReflex``
offers the same answer to the search bots, with ``ok`` as the careless one.

Which tile fits where is the engine's answer (``pyramids.flaming.tiles.fits``, asked
once per support pair at import into bit-mask tables); placements are read with
``pyramids.flaming.state.decode_place``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence

from pyramids.core.game import Action, Game, State, View
from pyramids.flaming.actions import CHECK_OK, call_action, is_place
from pyramids.flaming.mayhem import fire_reach, first_event
from pyramids.flaming.state import FALL, LEFT, FlamingState, decode_place
from pyramids.flaming.tiles import (
    ALL_TILES,
    EMBERS,
    HALF,
    IGNITES,
    IS_EMBER,
    MATERIAL,
    NEIGHBOURS,
    NUM_TILES,
    SUPPORT_LEFT,
    SUPPORT_RIGHT,
    Material,
    completes_curse,
    fits,
)
from pyramids.flaming.view import FlamingView, public_position
from pyramids.games.flaming.evaluation import is_flaming_state

# --- tuning (variants played against each other, see docs/BOTS.md) -------------------

FALL_COST = 0.5
"""Expected extra tiles after a misfit's drop (it may land badly again)."""
AIR_COST = 0.25
"""A drop into free air only postpones the landing."""
CURSE_GAIN = 1.5
"""A curse gives the player on the right three tiles: worth this many of our own."""
EMBER_SHED_GAIN = 0.5
"""Shedding an ember that burns nothing removes a future risk and sets a trap."""
KEEP_COST = 1.0
"""Per unit of flexibility (0..1): playing a tile that fits almost anywhere wastes it."""
_EPS = 1e-9
_INF = float("inf")

# --- tables built at import ------------------------------------------------------------

_EMBER = int(Material.EMBER)
_ALL_MASK = (1 << NUM_TILES) - 1


def _mask(tiles: Sequence[int] | frozenset[int]) -> int:
    m = 0
    for t in tiles:
        m |= 1 << t
    return m


def _fit_mask(left: int | None, right: int | None) -> int:
    """Mask of the tiles that fit on these supports, asked of the engine (FP-FIT)."""
    return _mask([t for t in range(NUM_TILES) if fits(t, left, right)])


_FIT2 = [[_fit_mask(a, b) for b in range(NUM_TILES)] for a in range(NUM_TILES)]
"""Left support, right support -> mask of the tiles that fit on both."""
_FIT1 = [_fit_mask(a, None) for a in range(NUM_TILES)]
"""The only support -> mask of the tiles that fit on it."""


_CURSE2 = [
    [_mask([t for t in range(NUM_TILES) if completes_curse(t, a, b)]) for b in range(NUM_TILES)]
    for a in range(NUM_TILES)
]
"""Left support, right support -> mask of the tiles that complete a curse on them (FP-CURSE)."""

_SUPPORTS = sorted(ALL_TILES - set(EMBERS))
FLEX: tuple[float, ...] = tuple(
    sum((_FIT2[a][b] >> t) & 1 for a in _SUPPORTS for b in _SUPPORTS if a != b)
    / (len(_SUPPORTS) * (len(_SUPPORTS) - 1))
    for t in range(NUM_TILES)
)
"""Per tile, the share of ordered support pairs (no embers) it fits on: high = easy to place."""

# The static part of playing tile t: keeping flexible tiles, shedding embers.
_BASE_COST = tuple(KEEP_COST * FLEX[t] for t in range(NUM_TILES))


def _fuel_chain(board: dict[int, int], k: int, fuel: int) -> int:
    """How many tiles of material ``fuel`` are joined to ``k`` through such tiles (not k)."""
    return len(fire_reach(board, k, fuel))


def _blast(board: dict[int, int], k: int) -> int:
    """Tiles sent back by an explosion of the ember group through ``k`` (FP-EXPLODE)."""
    group = {k}
    queue = [k]
    for q in queue:
        for off in NEIGHBOURS:
            n = q + off
            if n not in group and (nt := board.get(n)) is not None and IS_EMBER[nt]:
                group.add(n)
                queue.append(n)
    victims = {e + off for e in group for off in NEIGHBOURS if (e + off) in board}
    return len(victims - group)


_Facts = tuple[int, float, int, int, int]


def _spot_facts(board: dict[int, int], k: int, curse_on: bool) -> _Facts:
    """What the estimate needs about the empty position ``k``.

    (mask of tiles that fit, cost of a misfit, mask of tiles that complete a curse,
    materials touching k, materials the touching embers ignite).
    """
    near = 0
    ignited_by = 0
    for off in NEIGHBOURS:
        nt = board.get(k + off)
        if nt is not None:
            near |= MATERIAL[nt]
            ignited_by |= IGNITES[nt]
    if k >= -HALF:  # base: always fits (FP-FIT-4)
        return _ALL_MASK, 0.0, 0, near, ignited_by
    left = board.get(k + SUPPORT_LEFT)
    right = board.get(k + SUPPORT_RIGHT)
    if left is None:
        if right is None:  # free air (FP-AIR): no misfit, only a further drop
            return 0, AIR_COST, 0, near, ignited_by
        return _FIT1[right], 1 + FALL_COST, 0, near, ignited_by
    if right is None:
        return _FIT1[left], 1 + FALL_COST, 0, near, ignited_by
    curse = _CURSE2[left][right] if curse_on else 0
    return _FIT2[left][right], 2 + FALL_COST, curse, near, ignited_by


def _ember_cost(board: dict[int, int], k: int, t: int, facts: _Facts) -> float:
    """Cost of a fitting tile ``t`` at ``k`` when an ember is involved (FP-EXPLODE, FP-FIRE)."""
    _, _, curse, near, ignited_by = facts
    if IS_EMBER[t]:
        if near & _EMBER:
            return float(_blast(board, k))
        if near & IGNITES[t]:
            return float(_fuel_chain(board, k, IGNITES[t]))
        return -EMBER_SHED_GAIN
    if MATERIAL[t] & ignited_by:
        return 1.0 + _fuel_chain(board, k, ignited_by)
    return -CURSE_GAIN if (curse >> t) & 1 else 0.0


def _cost(board: dict[int, int], k: int, t: int, curse_on: bool) -> float:
    """Estimated tiles coming back to us if ``t`` lands at ``k`` (negative: a gain)."""
    facts = _spot_facts(board, k, curse_on)
    fit, lost, curse, near, _ = facts
    if not (fit >> t) & 1:
        return lost
    if IS_EMBER[t] or near & _EMBER:
        return _ember_cost(board, k, t, facts)
    return -CURSE_GAIN if (curse >> t) & 1 else 0.0


def _place_choice(view: FlamingView, legal: Sequence[Action], rng: random.Random) -> Action:
    """The placement with the lowest estimate plus the cost of giving up that tile.

    The same computation as ``_cost``, with the spot's facts computed once per spot
    (legal placements come grouped by spot).
    """
    board = view.board
    curse_on = bool(view.options.get("curse"))
    k = fit = curse = near = 0
    spot = None
    lost = 0.0
    facts: _Facts = (0, 0.0, 0, 0, 0)
    best: list[Action] = []
    best_cost = _INF
    for a in legal:
        t, k = decode_place(a)
        if k != spot:
            spot = k
            facts = _spot_facts(board, k, curse_on)
            fit, lost, curse, near, _ = facts
        if not (fit >> t) & 1:
            c = lost
        elif IS_EMBER[t] or near & _EMBER:
            c = _ember_cost(board, k, t, facts)
        else:
            c = -CURSE_GAIN if (curse >> t) & 1 else 0.0
        c += _BASE_COST[t]
        if c < best_cost - _EPS:
            best_cost = c
            best = [a]
        elif c <= best_cost + _EPS:
            best.append(a)
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


def _fall_choice(view: FlamingView, legal: Sequence[Action], rng: random.Random) -> Action:
    """The fall side whose landing spot has the lowest estimate for the falling tile."""
    board = dict(view.board)  # a copy: the falling tile leaves its place
    k = view.pending_key
    t = board.pop(k)
    curse_on = bool(view.options.get("curse"))
    costs = [
        _cost(board, k + (SUPPORT_LEFT if a == LEFT else SUPPORT_RIGHT), t, curse_on) for a in legal
    ]
    low = min(costs)
    best = [a for a, c in zip(legal, costs, strict=True) if c <= low + _EPS]
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


def perfect_check(view: FlamingView) -> Action:
    """FP-CALL-3: the right answer to a check of ``view``'s pyramid.

    A call of the first event the engine's checks find (FP-MAYHEM-2), or ``ok`` when
    nothing stands. Everything it reads is public: the pyramid and the quenched embers.
    """
    cat, k = first_event(public_position(view), bool(view.options.get("curse")))
    return call_action(k) if cat else CHECK_OK


class CheckReflex:
    """The call-out checks as a ``pyramids.core.descriptor.Reflex``: careful is
    ``perfect_check``, careless is ``ok``."""

    def in_play(self, game: Game) -> bool:
        """Call-out games only (rules option ``callout`` on)."""
        return bool(game.options.get("callout", "off") != "off")

    def applies(self, legal: Sequence[Action]) -> bool:
        """A check: its sorted legal actions start with ``ok``."""
        return bool(legal) and legal[0] == CHECK_OK

    def answer(self, view: View, legal: Sequence[Action]) -> tuple[Action, Action]:
        """(the right call or ok, ok)."""
        if not isinstance(view, FlamingView):
            raise TypeError("CheckReflex answers Flaming Pyramids views")
        return perfect_check(view), CHECK_OK

    def careful(self, state: State, legal: Sequence[Action]) -> Action:
        """``perfect_check`` on the state's own pyramid (the engine's scan of it).

        A state of the native engine (``pyramids.native.flaming``) is answered by the
        native mirror of this scan (``_native.flaming_careful``, the same answer).
        """
        if isinstance(state, FlamingState):
            pos = state.position
            cat, k = first_event(pos, state.options.curse_on)
            return call_action(k) if cat else CHECK_OK
        if not is_flaming_state(state):
            raise TypeError("CheckReflex answers Flaming Pyramids states")
        extension = importlib.import_module("pyramids._native")  # built: a native state exists
        return int(extension.flaming_careful(getattr(state, "native"), list(legal)))  # noqa: B009


class GreedyFlamingBot:
    """Plays the placement (or fall) whose static mayhem estimate costs least; checks perfectly."""

    name = "greedy"

    def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """The cheapest legal action by the static estimate; ties broken with ``rng``."""
        if not isinstance(view, FlamingView):
            raise TypeError("GreedyFlamingBot plays Flaming Pyramids views")
        if len(legal) == 1:
            return legal[0]
        if legal[0] == CHECK_OK:
            return perfect_check(view)
        if is_place(legal[0]):
            return _place_choice(view, legal, rng)
        if view.pending == FALL:
            return _fall_choice(view, legal, rng)
        return legal[rng.randrange(len(legal))]
