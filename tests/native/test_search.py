"""The native search is the Python search: same statistics, same generator after (issue 11.5).

For an iteration budget and a generator state, ``pyramids._native.search`` (Rust crate
``native/search``) must give exactly the visits and win means of ``ismcts.run_search``
and leave the generator where the Python search leaves it: both draw the same numbers
in the same order (determinization, chance, expansion, UCB ties, rollouts) and do the
same float arithmetic in the same order. Each case searches one position twice from
``random.Random(seed)``: ``+python`` (the Python search on the Python engine) and
``+native`` (the native search on the native engine), and compares everything.
Positions: seeded greedy self-play of both games, 2 and 4 players, Flaming call-out
games too (the reflex below the root and in rollouts, and call-out checks at the root).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from pyramids.bots import ISMCTSBot, OracleMCTSBot, SearchSettings, make_bot
from pyramids.bots.ismcts import reflex_of
from pyramids.core import CHANCE, State
from pyramids.core.game import Action
from pyramids.games import descriptor, make_game, native_engine

native: Any = pytest.importorskip("pyramids._native")
if not hasattr(native, "search"):
    pytest.skip("the native core has no search", allow_module_level=True)


def needs_native(game: str) -> None:
    """Skip when ``game`` has no native engine (yet)."""
    if descriptor(game).native is None:
        pytest.skip(f"{game} has no native engine")


POSITIONS: list[tuple[str, int, dict[str, Any], int, int]] = [
    # (game, players, options, seed, plies of greedy self-play before the position)
    ("flaming", 2, {}, 1, 12),
    ("flaming", 2, {"preset": "family"}, 2, 30),
    ("flaming", 4, {}, 3, 20),
    ("flaming", 3, {"preset": "family", "fire_die": True}, 4, 9),
    ("flaming", 2, {"callout": "family"}, 5, 16),
    ("flaming", 4, {"callout": "competitive"}, 6, 24),
    ("flags", 2, {}, 7, 6),
    ("flags", 4, {}, 8, 10),
    ("flags", 3, {"actions": False}, 9, 8),
]


def _settings() -> list[SearchSettings]:
    out = []
    for rollout in ("random", "greedy", "mixed"):
        for guided in (False, True):
            out.append(
                SearchSettings(iterations=40, rollout=rollout, guided=guided, rollout_cap=12)
            )
    out += [
        SearchSettings(iterations=60),
        SearchSettings(iterations=40, rollout_cap=0),
        SearchSettings(iterations=40, rollout_cap=3, rollout="mixed"),
        SearchSettings(iterations=40, evaluation="learned", rollout_cap=0),
        SearchSettings(iterations=40, evaluation="learned", rollout_cap=3, rollout="mixed"),
        SearchSettings(iterations=40, guided=True, widening=0.0, rollout_cap=5),
        SearchSettings(iterations=40, guided=True, bias=0.0, widening=2.0, rollout_cap=5),
        SearchSettings(iterations=40, exploration=1.4, rollout_cap=20),
        SearchSettings(iterations=40, observe=True, rollout_cap=6),
        SearchSettings(iterations=40, observe=True, guided=True, rollout="mixed", rollout_cap=4),
        SearchSettings(iterations=40, observe=True, guided=True, bias=0.5, widening=0.0),
    ]
    return out


SETTINGS = _settings()


def position(
    game: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    plies: int,
    *,
    engine: str = "python",
) -> State:
    """The state (on ``engine``) after ``plies`` actions of greedy self-play from ``seed``,
    then on to the next decision with two or more legal actions."""
    needs_native(game)
    state = make_game(game, players, options, engine=engine).new_initial_state(seed)
    rng = random.Random(seed)
    greedy = make_bot("greedy")
    done = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        if done >= plies and len(legal) > 1:
            return state
        state.apply(greedy.act(state.view(player), legal, rng))
        done += 1
    raise AssertionError("the game ended before the position")


def both(state: State, settings: SearchSettings, seed: int) -> list[Any]:
    """(stats, generator state) of the Python and the native search of ``state``'s seat."""
    seat = state.current_player()
    view = state.view(seat)
    legal = state.legal_actions()
    out = []
    for search in ("python", "native"):
        rng = random.Random(seed)
        result = ISMCTSBot(replace(settings, search=search)).search(view, legal, rng)
        assert result.iterations == settings.iterations
        stats = [(s.action, s.visits, s.win, s.share) for s in result.stats]
        out.append((stats, rng.getstate()))
    return out


def case_id(case: tuple[str, int, dict[str, Any], int, int]) -> str:
    game, players, options, seed, plies = case
    extra = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{game}-{players}p-{extra or 'default'}-s{seed}-{plies}"


@pytest.mark.parametrize("case", POSITIONS, ids=case_id)
def test_native_statistics_and_generator_are_the_python_ones(
    case: tuple[str, int, dict[str, Any], int, int],
) -> None:
    """Every setting combination (random, greedy and mixed rollouts, guided with widening
    and bias, the hand-made and the learned evaluation of capped rollouts, exploration): identical visits, win means,
    shares, and the generator in the same state afterwards."""
    state = position(*case)
    for k, settings in enumerate(SETTINGS):
        py, nat = both(state, settings, seed=100 + k)
        assert nat[0] == py[0], settings
        assert nat[1] == py[1], settings


def _many() -> list[tuple[str, int, dict[str, Any], int, int]]:
    out: list[tuple[str, int, dict[str, Any], int, int]] = []
    k = 0
    for players in (2, 3, 4, 5, 6):
        for preset in ("basic", "family", "standard"):
            for callout in ("off", "family"):
                k += 1
                options = {"preset": preset, "callout": callout, "fire_die": k % 3 == 0}
                out.append(("flaming", players, options, 200 + k, 4 + 7 * (k % 5)))
    for players in (2, 3, 4):
        for actions in (True, False):
            for plies in (3, 9):
                k += 1
                out.append(("flags", players, {"actions": actions}, 200 + k, plies))
    return out


CUT_AT_A_CHECK_ROOT = (
    "flaming",
    5,
    {"preset": "standard", "callout": "family", "fire_die": True},
    224,
    32,
)
"""A call-out check at the root: the greedy policy answers a check with the careful call even
when asked among the untried answers only, so guided expansion must not re-create (Python:
overwrite; Rust: duplicate) the child of an answer already tried."""

MANY = _many()
MANY_SETTINGS = (
    SearchSettings(iterations=80),
    SearchSettings(iterations=30, rollout="mixed", guided=True, rollout_cap=6),
    SearchSettings(iterations=30, rollout="greedy", rollout_cap=2),
    SearchSettings(iterations=30, rollout="mixed", evaluation="learned", rollout_cap=4),
)


@pytest.mark.parametrize("case", MANY, ids=case_id)
def test_many_positions_every_player_count_preset_and_callout(
    case: tuple[str, int, dict[str, Any], int, int],
) -> None:
    """Flaming 2-6 players, every preset, call-out off and on, fire die on a third;
    Flags 2-4 players, tree actions on and off: identical statistics and generator."""
    state = position(*case)
    for k, settings in enumerate(MANY_SETTINGS):
        py, nat = both(state, settings, seed=k)
        assert nat == py, settings


def test_guided_expansion_never_replaces_a_child_the_policy_names_again() -> None:
    """Regression: at ``CUT_AT_A_CHECK_ROOT`` the policy names the tried call again; the
    search then draws among the untried answers, so every iteration counts at the root."""
    state = position(*CUT_AT_A_CHECK_ROOT)
    settings = SearchSettings(iterations=30, rollout="mixed", guided=True, rollout_cap=6)
    py, nat = both(state, settings, seed=1)
    assert nat == py
    assert sum(visits for _, visits, _, _ in py[0]) == 30


def callout_check() -> State:
    """A call-out check at the root: a seat must say ok or call a tile (the reflex's decision)."""
    needs_native("flaming")
    reflex = reflex_of(descriptor("flaming"))
    assert reflex is not None
    for seed in range(40):
        game = make_game("flaming", 2, {"callout": "family"}, engine="python")
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        greedy = make_bot("random")
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if reflex.applies(legal) and len(legal) > 1:
                return state
            state.apply(greedy.act(state.view(player), legal, rng))
    raise AssertionError("no call-out check met")


def test_a_callout_check_at_the_root_is_searched_identically() -> None:
    """At the root the search branches on every answer of a check (analyse rates each);
    below the root and in rollouts it plays the careful one: both searches alike."""
    state = callout_check()
    for settings in SETTINGS[:4]:
        py, nat = both(state, settings, seed=7)
        assert nat == py


@pytest.mark.parametrize("case", POSITIONS[::2], ids=case_id)
def test_the_bot_decides_the_same_and_the_caller_generator_continues_the_same(
    case: tuple[str, int, dict[str, Any], int, int],
) -> None:
    """``act`` (search, then ``pick``'s tie break) plays the same action, and the next
    draw of the caller's generator is the same after either search."""
    state = position(*case)
    seat = state.current_player()
    answers = []
    for search in ("python", "native"):
        rng = random.Random(3)
        bot = make_bot(f"ismcts:50+{search}")
        action = bot.act(state.view(seat), state.legal_actions(), rng)
        answers.append((action, rng.random()))
    assert answers[0] == answers[1]


@pytest.mark.parametrize("case", POSITIONS[1::2], ids=case_id)
def test_the_oracle_native_search_is_the_python_one(
    case: tuple[str, int, dict[str, Any], int, int],
) -> None:
    """The oracle's search on the true state: the Python search on the Python engine's
    state and the native search on the native engine's state of the same game (same seed,
    same actions) give identical statistics and generator; the state is left unchanged."""
    state = position(*case)
    twin = position(*case, engine="native")
    assert twin.to_json() == state.to_json()
    before = twin.to_json()
    legal = state.legal_actions()
    for settings in (SETTINGS[0], SETTINGS[3], SETTINGS[7]):
        out = []
        for search, s in (("python", state), ("native", twin)):
            rng = random.Random(11)
            bot = OracleMCTSBot(replace(settings, search=search))
            result = bot.search_state(s, legal, rng)
            out.append(([(a.action, a.visits, a.win) for a in result.stats], rng.getstate()))
        assert out[0] == out[1], settings
    assert twin.to_json() == before


def test_the_oracle_plays_the_native_search_on_native_states_by_default() -> None:
    """``oracle`` (auto) searches a native state natively and a Python state in Python:
    both give the same decision from the same generator."""
    state = position(*POSITIONS[2])
    twin = position(*POSITIONS[2], engine="native")
    legal = state.legal_actions()
    answers = []
    for s in (state, twin):
        rng = random.Random(4)
        answers.append((make_bot("oracle:50").act_on_state(s, legal, rng), rng.random()))  # type: ignore[attr-defined]
    assert answers[0] == answers[1]


def test_threads_search_independent_trees_reproducibly() -> None:
    """Root-parallel (threads=2): every iteration counted once, the same result from the
    same generator (not the one-thread result: other trees, other draws)."""
    state = position(*POSITIONS[0])
    seat = state.current_player()
    legal = state.legal_actions()
    settings = SearchSettings(iterations=301, threads=2, search="native")
    runs = []
    for _ in range(2):
        rng = random.Random(5)
        result = ISMCTSBot(settings).search(state.view(seat), legal, rng)
        assert result.iterations == 301
        assert sum(s.visits for s in result.stats) == 301
        runs.append(([(s.action, s.visits, s.win) for s in result.stats], rng.getstate()))
    assert runs[0] == runs[1]


def test_a_time_budget_runs_and_reports_its_iterations() -> None:
    """A seconds budget: at least one iteration, about that long at least, visits = iterations.
    The upper bound only catches a budget ignored or misread (the search looks at the
    clock between iterations of a few milliseconds; a busy machine stretches those, not
    to seconds); how long a decision takes is a figure of ``pyramids bench``."""
    state = position(*POSITIONS[2])
    seat = state.current_player()
    result = make_bot("ismcts:0.05s+native").search(  # type: ignore[attr-defined]
        state.view(seat), state.legal_actions(), random.Random(0)
    )
    assert result.iterations >= 1
    assert 0.04 < result.seconds < 10.0
    assert sum(s.visits for s in result.stats) == result.iterations


def test_bad_input_is_an_error_not_a_crash() -> None:
    """The bindings refuse a malformed view, generator state or setting with ValueError."""
    state = position(*POSITIONS[0])
    legal: list[Action] = state.legal_actions()
    good = list(random.Random(0).getstate()[1])
    settings = {"iterations": 5}
    view_json = native_engine(descriptor("flaming")).view_record(state.view(state.current_player()))
    seat = state.current_player()
    with pytest.raises(ValueError):
        native.search("flaming", "{not json", seat, legal, settings, good)
    with pytest.raises(ValueError):
        native.search("flaming", view_json, seat, legal, settings, good[:10])
    with pytest.raises(ValueError):
        native.search("flaming", view_json, seat, legal, {"iterations": 0}, good)
    with pytest.raises(ValueError):
        native.search("flaming", view_json, seat, legal, {"rollout": "smart"}, good)
    with pytest.raises(ValueError):
        native.search("chess", view_json, seat, legal, settings, good)
    with pytest.raises(ValueError):
        native.search("flaming", view_json, seat, [], settings, good)


def test_spec_suffixes_choose_the_search() -> None:
    """``+native`` / ``+python`` after the budget force either search; the default is auto."""
    assert make_bot("ismcts:50+native").settings.search == "native"  # type: ignore[attr-defined]
    assert make_bot("ismcts:hard+python").settings.search == "python"  # type: ignore[attr-defined]
    assert make_bot("oracle:0.1s+greedy+native").settings.search == "native"  # type: ignore[attr-defined]
    assert make_bot("ismcts").settings.search == "auto"  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        make_bot("ismcts:50+native+python")
