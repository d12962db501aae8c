"""The native Flaming Pyramids engine against the Python one, replayed action by action.

Seeded games run through both engines; after every action everything the protocol shows
must be equal: the legal actions (same order), the position JSON, the events (kinds and
data), every seat's view and the spectator's (``==`` and ``to_json``), the information
state keys, the returns and outcome, the history, the deciding seat, the chance
outcomes, and the refusal (class, code, facts) of a few probe actions. Random, greedy and mayhem-seeking policies; every preset, 2-6 players, curse on
and off, fire die on and off, call-out family and competitive, the max_turns ranking.
``long_run`` is the long version (``scripts/native_differential.py``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("pyramids._native")

from pyramids import _native
from pyramids.core.errors import PyramidsError
from pyramids.core.game import CHANCE, State
from pyramids.flaming import FlamingGame, FlamingOptions
from pyramids.flaming.actions import (
    CALL_BASE,
    CHECK_OK,
    DIE_BASE,
    LEFT,
    PLACE_BASE,
    call_action,
    decode_place,
    is_place,
    place_action,
)
from pyramids.flaming.mayhem import CURSE, EXPLOSION, called_keys
from pyramids.flaming.position import add_tile
from pyramids.flaming.tiles import key_of
from pyramids.games.flaming.policy import GreedyFlamingBot
from pyramids.native.flaming import NativeFlamingGame, NativeFlamingState

Policy = Callable[[State, random.Random], int]


class MismatchError(AssertionError):
    """The two engines disagree; the message says on what and where."""


def _events(state: State) -> list[tuple[str, dict[str, Any]]]:
    return [(e.kind, e.data) for e in state.events()]


def refusal_of(err: PyramidsError | None) -> tuple[Any, ...] | None:
    """A refusal as the differential compares it: its class, code and facts."""
    if err is None:
        return None
    return (type(err).__name__, err.code, err.data)


REFUSAL_PROBES = (
    LEFT,
    DIE_BASE + 2,
    PLACE_BASE + 45,
    CHECK_OK,
    CALL_BASE,
    call_action(key_of(1, 1)),
    place_action(0, key_of(0, 0)),
    place_action(44, key_of(1, 1)),
)
"""Actions of every kind whose refusal (or None) is compared after each step."""


def _refusals(state: State) -> list[Any]:
    return [refusal_of(state.illegal_reason(a)) for a in REFUSAL_PROBES]  # type: ignore[attr-defined]


def compare(py: State, nat: State, where: str, *, views: bool = True) -> int:
    """Raise MismatchError on the first difference; the number of checks made."""
    checks: list[tuple[str, Any, Any]] = [
        ("legal actions", py.legal_actions(), nat.legal_actions()),
        ("position", py.to_json(), nat.to_json()),
        ("current player", py.current_player(), nat.current_player()),
        ("events", _events(py), _events(nat)),
        ("raw events", py.raw_events(), nat.raw_events()),  # type: ignore[attr-defined]
        ("returns", py.returns(), nat.returns()),
        ("outcome", py.outcome(), nat.outcome()),
        ("history", py.history(), nat.history()),
        ("chance outcomes", py.chance_outcomes(), nat.chance_outcomes()),
        ("terminal", py.is_terminal(), nat.is_terminal()),
        ("refusals", _refusals(py), _refusals(nat)),
    ]
    if views:
        for seat in [None, *range(py.num_players)]:
            pv, nv = py.view(seat), nat.view(seat)
            checks.append((f"view({seat})", pv, nv))
            checks.append((f"view({seat}).to_json", pv.to_json(), nv.to_json()))
            checks.append(
                (f"key({seat})", py.information_state_key(seat), nat.information_state_key(seat))
            )
    for what, want, got in checks:
        if want != got:
            raise MismatchError(f"{what} differs {where}:\n  python: {want}\n  native: {got}")
    return len(checks)


# --- policies ------------------------------------------------------------------------------


def random_policy(state: State, rng: random.Random) -> int:
    """Any legal action, uniformly."""
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


_GREEDY = GreedyFlamingBot()


def greedy_policy(state: State, rng: random.Random) -> int:
    """The greedy bot on the deciding seat's view."""
    return _GREEDY.act(state.view(state.current_player()), state.legal_actions(), rng)


def seeking_policy(state: State, rng: random.Random) -> int:
    """Placements that make mayhem stand (ember groups and curses first); at a check mostly
    ``ok`` (so overlooked mayhem piles up), now and then a right call or a false alarm."""
    legal = state.legal_actions()
    pos = state.position  # type: ignore[attr-defined]
    curse_on = state.options.curse_on  # type: ignore[attr-defined]
    if legal[0] == CHECK_OK:
        roll = rng.random()
        if roll < 0.15:
            right = sorted(called_keys(pos, curse_on))
            if right:
                return call_action(right[rng.randrange(len(right))])
        if roll < 0.25:
            return legal[rng.randrange(len(legal))]
        return CHECK_OK
    if not is_place(legal[0]) or rng.random() < 0.3:
        return legal[rng.randrange(len(legal))]
    best: list[int] = []
    best_score = -1
    for action in legal:
        tile, key = decode_place(action)
        trial = pos.clone()
        trial.hands[trial.to_move].remove(tile)
        add_tile(trial, key, tile)
        kinds = set(called_keys(trial, True).values())
        score = 2 * bool(kinds & {EXPLOSION, CURSE}) + bool(kinds)
        if score > best_score:
            best, best_score = [action], score
        elif score == best_score:
            best.append(action)
    return best[rng.randrange(len(best))]


POLICIES: dict[str, Policy] = {
    "random": random_policy,
    "greedy": greedy_policy,
    "seeking": seeking_policy,
}


def games(players: int, options: FlamingOptions) -> tuple[FlamingGame, NativeFlamingGame]:
    """The Python and the native game with these rules."""
    return FlamingGame(players, options), NativeFlamingGame(players, options)


def play_both(
    players: int,
    options: FlamingOptions,
    seed: int,
    policy: Policy,
    *,
    views: bool = True,
    max_actions: int = 100_000,
) -> int:
    """Play the seeded game through both engines (the policy reads the Python state),
    comparing after every action; the number of actions compared."""
    py_game, nat_game = games(players, options)
    py, nat = py_game.new_initial_state(seed), nat_game.new_initial_state(seed)
    compare(py, nat, f"at the deal of seed {seed}", views=views)
    rng = random.Random(seed)
    played: list[str] = []
    while not py.is_terminal() and len(played) < max_actions:
        action = py.sample_chance(rng) if py.current_player() == CHANCE else policy(py, rng)
        played.append(py.action_to_string(action))
        py.apply(action)
        nat.apply(action)
        compare(
            py, nat, f"in {players}p {options} seed {seed} after {' '.join(played)}", views=views
        )
    return len(played)


# --- the CI sample ------------------------------------------------------------------------

CASES = [
    (players, preset, fire_die)
    for players in range(2, 7)
    for preset in ("basic", "family", "standard")
    for fire_die in (False, True)
    if not (preset == "basic" and fire_die)
]


@pytest.mark.parametrize(("players", "preset", "fire_die"), CASES)
def test_random_games_match(players: int, preset: str, fire_die: bool) -> None:
    """Every preset, 2-6 players, fire die on and off: random play, every action compared."""
    options = FlamingOptions(preset=preset, fire_die=fire_die, max_turns=150)
    for seed in range(2):
        play_both(players, options, seed, random_policy)


@pytest.mark.parametrize(("players", "preset", "fire_die"), CASES[::3])
def test_greedy_games_match(players: int, preset: str, fire_die: bool) -> None:
    """The greedy bot's games (its ties drawn from the generator) match."""
    play_both(
        players, FlamingOptions(preset=preset, fire_die=fire_die, max_turns=80), 3, greedy_policy
    )


CALLOUT_CASES = [
    (variant, players, curse, fire_die)
    for variant in ("family", "competitive")
    for players in (2, 3, 5, 6)
    for curse in (False, True)
    for fire_die in (False, True)
]


@pytest.mark.parametrize(("variant", "players", "curse", "fire_die"), CALLOUT_CASES)
def test_callout_games_match(variant: str, players: int, curse: bool, fire_die: bool) -> None:
    """FP-CALL: checks, right calls, false alarms, overlooked mayhem and its penalty."""
    options = FlamingOptions(
        preset="standard" if curse else "family",
        curse=curse,
        fire_die=fire_die,
        max_turns=40,
        callout=variant,
    )
    play_both(players, options, players, seeking_policy)
    play_both(players, options, players + 100, random_policy, views=False)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_mayhem_seeking_games_match(players: int) -> None:
    """Curses and explosions on purpose, the curse forced on in the family set and off in standard."""
    for curse, fire_die in ((True, True), (False, False)):
        options = FlamingOptions(preset="family", curse=curse, fire_die=fire_die, max_turns=60)
        play_both(players, options, 7 + players, seeking_policy)


def test_max_turns_ranking_matches() -> None:
    """FP-END-4: a short turn limit ends games with a ranking."""
    for players in range(2, 7):
        play_both(players, FlamingOptions(max_turns=players * 2 + 1), players, random_policy)


# --- the fault switch ---------------------------------------------------------------------


def test_the_differential_catches_a_broken_native_rule() -> None:
    """With the curse check broken in the native engine (test-only switch), a mismatch is found."""
    _native.flaming_set_fault("no_curse")
    try:
        with pytest.raises(MismatchError):
            for seed in range(50):
                play_both(3, FlamingOptions(preset="standard"), seed, seeking_policy, views=False)
    finally:
        _native.flaming_set_fault(None)
    play_both(3, FlamingOptions(preset="standard", max_turns=30), 0, seeking_policy)


def test_unknown_fault_is_refused() -> None:
    """The switch names its faults."""
    with pytest.raises(ValueError, match="unknown fault"):
        _native.flaming_set_fault("everything")


# --- the long run ---------------------------------------------------------------------------

LONG_POLICIES: tuple[Policy, ...] = (random_policy, greedy_policy, random_policy, seeking_policy)


def long_options(seed: int) -> tuple[int, FlamingOptions]:
    """The players and rules of long-run game ``seed``: every combination in turn."""
    r = random.Random(seed * 7919 + 1)
    players = r.randint(2, 6)
    preset = r.choice(("basic", "family", "standard"))
    callout = r.choice(("off", "off", "family", "competitive"))
    return players, FlamingOptions(
        preset=preset,
        curse=r.choice((None, True, False)),
        fire_die=preset != "basic" and r.random() < 0.5,
        max_turns=r.choice((1000, 60, 25)),
        callout=callout,
    )


def long_run(seeds: int, first_seed: int = 0) -> dict[str, Any]:
    """Play ``seeds`` seeded games through both engines, everything compared after every
    action; {"games", "actions", "seconds"}. Raises MismatchError (seed and actions) at the
    first difference."""
    start = time.perf_counter()
    actions = 0
    for seed in range(first_seed, first_seed + seeds):
        players, options = long_options(seed)
        policy = LONG_POLICIES[seed % len(LONG_POLICIES)]
        actions += play_both(players, options, seed, policy, views=seed % 4 == 0)
    return {"games": seeds, "actions": actions, "seconds": time.perf_counter() - start}


def test_long_run_sample() -> None:
    """A few games of the long run's mix."""
    result = long_run(8, 1000)
    assert result["games"] == 8 and result["actions"] > 0


def test_native_state_is_the_native_class() -> None:
    """The native game deals native states."""
    state = NativeFlamingGame(3).new_initial_state(1)
    assert isinstance(state, NativeFlamingState)
