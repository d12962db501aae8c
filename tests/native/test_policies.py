"""The native greedy bots, evaluations and call-out reflex choose exactly as the Python ones.

For many positions of seeded games of both games (played in lockstep on the Python and
the native engine), with the full legal list and with random subsets of it, the native
greedy bot returns the Python bot's action AND leaves the generator in the same state
(same tie breaks, same draws); the evaluations are bit-equal; the careful answer of the
call-out reflex is the same. Native self-play (``_native.<game>_self_play``) plays the
very games of ``pyramids.analysis.bench.play_timed`` on the Python engine: same turns,
same actions, same returns.
"""

from __future__ import annotations

import importlib
import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

native = pytest.importorskip("pyramids._native")

from pyramids.analysis.bench import CHANCE_SEED_OFFSET, play_timed, setup_of  # noqa: E402
from pyramids.bots import make_bot  # noqa: E402
from pyramids.core.game import CHANCE, Game, State  # noqa: E402
from pyramids.core.native import NativeState  # noqa: E402
from pyramids.flags.actions import MOVE_BASE, SWAP_BASE, TABLE, decode_move  # noqa: E402
from pyramids.flags.rules import tree_made  # noqa: E402
from pyramids.games import make_game  # noqa: E402
from pyramids.games.flags.evaluation import evaluate as flags_evaluate  # noqa: E402
from pyramids.games.flags.policy import GreedyFlagsBot  # noqa: E402
from pyramids.games.flaming.evaluation import evaluate as flaming_evaluate  # noqa: E402
from pyramids.games.flaming.policy import CheckReflex, GreedyFlamingBot  # noqa: E402

FLAMING_CONFIGS: list[dict[str, Any]] = [
    *({"preset": p} for p in ("basic", "family", "standard")),
    {"preset": "standard", "fire_die": True},
    {"preset": "family", "curse": True, "fire_die": True},
    {"preset": "standard", "curse": False},
    {"preset": "standard", "callout": "family"},
    {"preset": "family", "callout": "competitive", "fire_die": True},
    {"preset": "basic", "callout": "competitive", "curse": True},
]
FLAMING_PLAYERS = (2, 3, 4, 5, 6)
FLAGS_CONFIGS: list[dict[str, Any]] = [{"actions": True}, {"actions": False}]
FLAGS_PLAYERS = (2, 3, 4)
FLAGS_SEEDS = 5
MAX_DECISIONS = 400
"""Decisions compared per game at most (long Flags games are cut short)."""


def _inner(state: State) -> Any:
    """The PyO3 state object under a native wrapper state (``NativeState.native``)."""
    assert isinstance(state, NativeState)
    return state.native


def _games(name: str, players: int, options: dict[str, Any]) -> tuple[Game, Game]:
    return (
        make_game(name, players, options, engine="python"),
        importlib.import_module(f"pyramids.native.{name}").ENGINE.make(players, options),
    )


def _play(
    name: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    check: Callable[[State, State, list[int], random.Random], int],
) -> int:
    """Play one seeded game in lockstep on both engines; ``check`` compares each decision
    and returns the action to play. Chance outcomes come from a chance generator. Returns
    the number of decisions compared."""
    py_game, nat_game = _games(name, players, options)
    py_state = py_game.new_initial_state(seed)
    nat_state = nat_game.new_initial_state(seed)
    chance = random.Random(f"{seed}/chance")
    picker = random.Random(seed)
    decisions = 0
    while not py_state.is_terminal() and decisions < MAX_DECISIONS:
        if py_state.current_player() == CHANCE:
            action = py_state.sample_chance(chance)
        else:
            legal = py_state.legal_actions()
            assert nat_state.legal_actions() == legal
            action = check(py_state, nat_state, legal, picker)
            decisions += 1
        py_state.apply(action)
        nat_state.apply(action)
    return decisions


def _subsets(legal: list[int], rng: random.Random) -> Iterator[list[int]]:
    """The full legal list, then two random subsets of it (ascending, never empty)."""
    yield legal
    for _ in range(2):
        if len(legal) > 1:
            yield sorted(rng.sample(legal, rng.randint(1, len(legal) - 1)))


def _same_greedy(
    *,
    bot: Any,
    native_greedy: Callable[[Any, list[int], list[int]], tuple[int, list[int]]],
    py_state: State,
    nat_state: State,
    legal: list[int],
    rng: random.Random,
) -> int:
    """Assert the native and Python greedy choices agree for ``legal`` and its subsets
    (action and generator state after); return the Python choice for the full list."""
    view = py_state.view(py_state.current_player())
    first = None
    for subset in _subsets(legal, rng):
        gen = random.Random(rng.getrandbits(64))
        before = list(gen.getstate()[1])
        chosen = bot.act(view, subset, gen)
        got, after = native_greedy(_inner(nat_state), subset, before)
        assert got == chosen, (py_state.to_json(), subset)
        assert after == list(gen.getstate()[1]), (py_state.to_json(), subset)
        if first is None:
            first = chosen
    assert first is not None
    return first


# --- Flaming Pyramids ------------------------------------------------------------------------


def _flaming_check(py_state: State, nat_state: State, legal: list[int], rng: random.Random) -> int:
    chosen = _same_greedy(
        bot=GreedyFlamingBot(),
        native_greedy=native.flaming_greedy,
        py_state=py_state,
        nat_state=nat_state,
        legal=legal,
        rng=rng,
    )
    assert native.flaming_evaluate(_inner(nat_state)) == flaming_evaluate(py_state)
    reflex = CheckReflex()
    if reflex.applies(legal):
        careful = reflex.careful(py_state, legal)
        assert native.flaming_careful(_inner(nat_state), legal) == careful
        assert reflex.careful(nat_state, legal) == careful
    return chosen if rng.random() < 0.6 else legal[rng.randrange(len(legal))]


@pytest.mark.parametrize(
    "options", FLAMING_CONFIGS, ids=lambda o: "-".join(f"{v}" for v in o.values())
)
def test_flaming_greedy_evaluation_and_reflex_match_python(options: dict[str, Any]) -> None:
    """Every preset and variant, 2 to 6 players: same choices, draws, values and checks."""
    compared = 0
    for players in FLAMING_PLAYERS:
        compared += _play("flaming", players, options, 100 + players, _flaming_check)
    assert compared > 50


def test_flaming_evaluation_matches_python_at_the_end() -> None:
    """A finished game evaluates to its returns on both engines."""
    py_game, nat_game = _games("flaming", 3, {"preset": "basic"})
    py_state = py_game.new_initial_state(5)
    nat_state = nat_game.new_initial_state(5)
    rng = random.Random(5)
    while not py_state.is_terminal():
        legal = py_state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        py_state.apply(action)
        nat_state.apply(action)
    assert native.flaming_evaluate(_inner(nat_state)) == flaming_evaluate(py_state)


# --- Pyramids and Flags ---------------------------------------------------------------------


def _tree_moves(state: State, legal: list[int]) -> list[int]:
    """The moves of ``legal`` that make a tree (PF-TREE-1), when tree actions are on."""
    pos = state.position  # type: ignore[attr-defined]
    if not pos.options.actions:
        return []
    out = []
    for a in legal:
        if not MOVE_BASE <= a < SWAP_BASE:
            continue
        lowest, target = decode_move(a)
        below, above = list(pos.below), list(pos.above)
        if below[lowest] >= 0:
            above[below[lowest]] = -1
        below[lowest] = -1 if target == TABLE else target
        if target != TABLE:
            above[target] = lowest
        if tree_made(lowest, below, above):
            out.append(a)
    return out


def _flags_check(
    kinds: Counter[str],
) -> Callable[[State, State, list[int], random.Random], int]:
    """The Flags comparison of one decision, counting the decision kinds in ``kinds``."""

    def check(py_state: State, nat_state: State, legal: list[int], rng: random.Random) -> int:
        pending = py_state.view(py_state.current_player()).pending
        kinds[f"{pending.get('kind', 'turn')}{pending.get('colour', '')}"] += 1
        chosen = _same_greedy(
            bot=GreedyFlagsBot(),
            native_greedy=native.flags_greedy,
            py_state=py_state,
            nat_state=nat_state,
            legal=legal,
            rng=rng,
        )
        assert native.flags_evaluate(_inner(nat_state)) == flags_evaluate(py_state)
        trees = _tree_moves(py_state, legal)
        if trees and rng.random() < 0.5:  # steer into tree actions, rare otherwise
            return trees[rng.randrange(len(trees))]
        return chosen if rng.random() < 0.5 else legal[rng.randrange(len(legal))]

    return check


@pytest.mark.parametrize("options", FLAGS_CONFIGS, ids=lambda o: f"actions-{o['actions']}")
def test_flags_greedy_and_evaluation_match_python(options: dict[str, Any]) -> None:
    """2 to 4 players, tree actions on and off: same choices, draws and values, for
    moves and exchanges, captures and (with tree actions) the tree actions."""
    kinds: Counter[str] = Counter()
    for players in FLAGS_PLAYERS:
        for seed in range(FLAGS_SEEDS):
            _play("flags", players, options, 200 + 10 * players + seed, _flags_check(kinds))
    assert kinds["turn"] > 200
    assert kinds["capture"] > 20
    if options["actions"]:
        assert {f"action{c}" for c in "GKBYRW"} <= set(kinds)


# --- native self-play is bench's play_timed ---------------------------------------------------


def _python_self_play(
    game: Game, bot_name: str, seed: int, turns: tuple[int, int]
) -> tuple[int, list[int], list[float]]:
    """``play_timed``'s loop on the Python engine, recording the actions."""
    bot = make_bot(bot_name)
    rng = random.Random(seed)
    chance = random.Random(seed + CHANCE_SEED_OFFSET)
    state = game.new_initial_state(seed)
    low, high = turns
    count = 0
    actions = []
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            action = state.sample_chance(chance)
        else:
            action = bot.act(state.view(player), state.legal_actions(), rng)
            if low <= action < high:
                count += 1
        actions.append(action)
        state.apply(action)
    assert count == play_timed(game, bot, seed, views=True, turn_actions=turns)[0]
    return count, actions, state.returns()


SELF_PLAY_CASES = [
    ("flaming", 2, {"preset": "basic"}, "random", (0, 1)),
    ("flaming", 3, {"preset": "standard"}, "greedy", (0, 1)),
    ("flaming", 6, {"preset": "family", "fire_die": True}, "greedy", (2,)),
    ("flaming", 4, {"preset": "standard", "callout": "family"}, "random", (3,)),
    ("flaming", 5, {"preset": "standard", "callout": "competitive"}, "greedy", (4,)),
    ("flags", 2, {"actions": True}, "random", (0, 1)),
    ("flags", 3, {"actions": True}, "greedy", (0,)),
    ("flags", 4, {"actions": False}, "greedy", (1,)),
    ("flags", 4, {"actions": True}, "random", (2,)),
]


@pytest.mark.parametrize(
    ("name", "players", "options", "bot", "seeds"),
    SELF_PLAY_CASES,
    ids=[f"{c[0]}-{c[1]}-{c[3]}-{i}" for i, c in enumerate(SELF_PLAY_CASES)],
)
def test_native_self_play_is_bench_play_timed(
    name: str, players: int, options: dict[str, Any], bot: str, seeds: tuple[int, ...]
) -> None:
    """Same turns, actions and returns as ``bench.play_timed`` on the Python engine."""
    game = make_game(name, players, options, engine="python")
    turns = setup_of(name).turn_actions
    run = getattr(native, f"{name}_self_play")
    for seed in seeds:
        expected = _python_self_play(game, bot, seed, turns)
        got = run(
            players,
            dict(game.options),
            seed,
            bot,
            list(random.Random(seed).getstate()[1]),
            list(random.Random(seed + CHANCE_SEED_OFFSET).getstate()[1]),
            turns[0],
            turns[1],
        )
        assert (got[0], list(got[1]), list(got[2])) == expected


# --- bad input is refused, never a crash -----------------------------------------------------


def test_bindings_refuse_bad_generators_actions_and_policies() -> None:
    """ValueError for a malformed generator state, an illegal action or an unknown policy."""
    nat_game = _games("flaming", 3, {"preset": "basic"})[1]
    state = nat_game.new_initial_state(0)
    legal = state.legal_actions()
    good = list(random.Random(1).getstate()[1])
    with pytest.raises(ValueError):
        native.flaming_greedy(_inner(state), legal, good[:-1])
    with pytest.raises(ValueError):
        native.flaming_greedy(_inner(state), [legal[-1] + 1_000_000], good)
    with pytest.raises(ValueError):
        native.flaming_greedy(_inner(state), [], good)
    with pytest.raises(ValueError):
        native.flaming_self_play(3, dict(nat_game.options), 0, "mayhem", good, good, 0, 1)
