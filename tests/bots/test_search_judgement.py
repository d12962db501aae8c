"""Judgement in the search (issue 28, point 2): what the search does with its horizon,
its observation keys and a position that has a win or a loss one move away.

- A rollout cut at the horizon (``rollout_cap``) is scored by the game's evaluation, never
  ``1/players``; a game without one is told so.
- The search takes a win in one (Flaming Pyramids: the last tile placed where it fits,
  FP-END; Pyramids and Flags: the winning flag, PF-WIN) and avoids a placement that lets
  the next seat place its last tile.
- With ``observe`` another seat's exchange is one child (``swap:?``, PF-VIEW-4), and the
  decisions stay legal and reproducible on both searches.

Positions are in the project's notation (docs/NOTATION.md, "Positions (JSON)"), found
by seeded greedy self-play. Both searches run where the native core is built.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramids.bots import ISMCTSBot, SearchSettings, ismcts
from pyramids.bots.greedy import GreedyBot
from pyramids.core import CHANCE, State
from pyramids.core.game import Action
from pyramids.games import descriptor, load_position, make_game

FLAMING_LAST_TILE: dict[str, Any] = {
    "rules": {"preset": "standard", "curse": True, "fire_die": False, "max_turns": 1000},
    "players": 2,
    "to_move": 1,
    "turn": 76,
    "pyramid": [
        "Y30@0,-12",
        "Y40@0,-10",
        "G100@0,-8",
        "Y120@0,-6",
        "B40@0,-4",
        "R120@0,-2",
        "R100@0,0",
        "Y100@0,2",
        "B60@0,4",
        "G40@1,-11",
        "G4@1,-9",
        "Y20@1,-7",
        "B100@1,-5",
        "B30@1,-3",
        "W200@1,-1",
        "R20@1,1",
        "B120@1,3",
        "B10@2,-4",
        "R10@2,-2",
        "R60@2,0",
        "G20@2,2",
        "G10@3,-5",
        "B4@3,-3",
        "R6@3,-1",
        "R40@3,1",
        "G1@4,-6",
        "R4@4,-2",
        "R30@4,0",
        "G30@5,-1",
    ],
    "hands": [["B20", "G6", "Y2", "G2", "R2"], ["B2"]],
    "piles": [["B6", "Y6", "Y10", "Y4", "G120", "G60", "Y60"], []],
    "out": ["R7", "B7", "Y1"],
}
"""Seat 1 holds one tile, B2, and an empty pile: of its four placements one fits (a win)."""

FLAGS_WINNING_FLAG: dict[str, Any] = {
    "rules": {"actions": True, "max_turns": 3000},
    "players": 2,
    "to_move": 0,
    "turn": 15,
    "towers": [
        ["K3"],
        ["W1"],
        ["W3", "R2", "K1"],
        ["Y3"],
        ["B1"],
        ["B3", "K2"],
        ["G1"],
        ["G2", "Y1"],
        ["G3", "Y2", "R1"],
        ["R3", "W2", "B2"],
    ],
    "bank": ["O1", "O3", "P1", "C2", "C3", "X2"],
    "scoring": [["O2", "P3", "C1", "X3"], ["P2", "X1"]],
    "hands": [["TTO", "DEU", "GRC", "AUT"], ["NOR", "LTU", "BWA", "CZE"]],
    "scored": [["HTI", "SWE", "JPN", "BEL"], ["JAM", "DNK", "GHA"]],
    "deck": [
        "SAU",
        "VEN",
        "NGA",
        "ITA",
        "ESP",
        "LBY",
        "ARG",
        "MAR",
        "BRA",
        "CHN",
        "KWT",
        "EGY",
        "IRN",
        "FRA",
        "FIN",
        "KEN",
        "ROU",
        "CMR",
        "GAB",
        "BRB",
        "CUB",
    ],
    "last_moved": ["Y1"],
}
"""Seat 0 to move with 87 legal actions, one of which builds the flag that wins."""

FLAMING_DO_NOT_HELP: dict[str, Any] = {
    "rules": {"preset": "standard", "curse": True, "fire_die": False, "max_turns": 1000},
    "players": 2,
    "to_move": 0,
    "turn": 77,
    "pyramid": [
        "R30@0,-6",
        "G6@0,-4",
        "G30@0,-2",
        "W200@0,0",
        "R20@0,2",
        "Y120@0,4",
        "Y1@0,6",
        "G100@0,8",
        "R2@1,-5",
        "G4@1,-3",
        "Y30@1,-1",
        "B100@1,1",
        "R4@1,3",
        "Y100@1,5",
        "R100@1,7",
        "B2@2,-4",
        "B30@2,-2",
        "Y6@2,0",
        "R40@2,2",
        "Y20@2,4",
        "R6@2,6",
        "B20@3,-3",
        "B6@3,-1",
        "Y40@3,1",
        "G40@3,3",
        "Y10@3,5",
        "G20@4,-2",
        "B4@4,0",
        "G60@4,2",
        "R10@4,4",
        "G2@5,-1",
        "B40@5,1",
        "G10@6,0",
    ],
    "hands": [["B10", "Y4", "Y2", "B60", "Y60"], ["R60"]],
    "piles": [[], []],
    "out": ["G1", "R7", "B7", "B120", "G120", "R120"],
}
"""Seat 1 holds one tile, R60, and no pile; seat 0 sees every other tile, so it knows
R60 (the one unseen tile). After Y60@5,3 or B60@5,3 R60 fits (seat 1 then wins); after
the other three placements it does not."""

LEGAL_FLAMING_WIN = 67008200361
SAFE_FLAMING = (66806874313, 66806874314, 66806874349)
FLAGS_WIN = 313


def _native() -> bool:
    try:
        import pyramids._native  # noqa: F401
    except ImportError:
        return False
    return True


SEARCHES = [
    "python",
    pytest.param("native", marks=pytest.mark.skipif(not _native(), reason="no native core")),
]

JUDGED = SearchSettings(iterations=300, rollout="greedy", guided=True, rollout_cap=10)
"""A search with a horizon, greedy rollouts and the policy's order (the strong levels' kind)."""


def decide(data: dict[str, Any], game: str, settings: SearchSettings, seed: int = 0) -> Action:
    """The search's decision for the seat to move in ``data``."""
    state = load_position(descriptor(game), data, engine="python")
    seat = state.current_player()
    return ISMCTSBot(settings).act(state.view(seat), state.legal_actions(), random.Random(seed))


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize("observe", [False, True])
def test_flaming_search_places_its_last_tile_where_it_fits(search: str, observe: bool) -> None:
    """FP-END-1: the first to place every tile wins; of four spots only one takes B2."""
    settings = replace(JUDGED, search=search, observe=observe)
    for seed in range(3):
        assert decide(FLAMING_LAST_TILE, "flaming", settings, seed) == LEGAL_FLAMING_WIN


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize("observe", [False, True])
def test_flags_search_builds_the_winning_flag(search: str, observe: bool) -> None:
    """PF-WIN: one move of 87 wins the game; the search finds it."""
    settings = replace(JUDGED, search=search, observe=observe)
    for seed in range(2):
        assert decide(FLAGS_WINNING_FLAG, "flags", settings, seed) == FLAGS_WIN


@pytest.mark.parametrize("search", SEARCHES)
def test_flaming_search_leaves_the_next_seat_no_spot_for_its_last_tile(search: str) -> None:
    """Two placements give seat 1 a spot for its last tile (an immediate win): never those."""
    settings = replace(JUDGED, search=search)
    state = load_position(descriptor("flaming"), FLAMING_DO_NOT_HELP, engine="python")
    assert set(SAFE_FLAMING) < set(state.legal_actions())
    for seed in range(3):
        assert decide(FLAMING_DO_NOT_HELP, "flaming", settings, seed) in SAFE_FLAMING


def _after(state: State, action: Action) -> State:
    child = state.clone()
    child.apply(action)
    return child


@pytest.mark.parametrize("search", SEARCHES)
def test_a_rollout_cut_at_the_horizon_is_scored_by_the_evaluation(search: str) -> None:
    """Horizon 0: every new leaf is judged by the evaluation. Seat 1 has shed all tiles but
    one and seat 0 holds twelve, so the evaluation is lopsided; each root action's mean is
    exactly seat 1's value after it (1 for the win), never 1/2."""
    state = load_position(descriptor("flaming"), FLAMING_LAST_TILE, engine="python")
    seat = state.current_player()
    legal = state.legal_actions()
    evaluate = descriptor("flaming").evaluation.get()
    settings = SearchSettings(iterations=len(legal), rollout_cap=0, search=search)
    stats = ISMCTSBot(settings).analyse(state.view(seat), legal, random.Random(3))
    for s in stats:
        assert s.visits == 1
        assert s.win == evaluate(_after(state, s.action))[seat]
        assert s.win > 0.5
    assert {s.action for s in stats if s.win == 1.0} == {LEGAL_FLAMING_WIN}


def test_a_cut_rollout_without_an_evaluation_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """No opinion is invented: a game that cannot judge a cut rollout says so."""
    monkeypatch.setattr(ismcts, "_evaluation_of", lambda desc, name: None)
    state = load_position(descriptor("flaming"), FLAMING_LAST_TILE, engine="python")
    seat = state.current_player()
    bot = ISMCTSBot(SearchSettings(iterations=20, rollout_cap=0, search="python"))
    with pytest.raises(ValueError, match="provides no evaluation"):
        bot.analyse(state.view(seat), state.legal_actions(), random.Random(0))


def test_another_seats_exchanges_share_one_child(monkeypatch: pytest.MonkeyPatch) -> None:
    """PF-VIEW-4: seat 0 cannot tell seat 1's exchanges apart (``swap:?``), so with
    ``observe`` they are one child of its tree; its own exchanges stay apart."""
    seen: list[set[Any]] = []
    select = ismcts._select_observed

    def spy(state: State, node: Any, kids: dict[Any, Any], *args: Any, **kw: Any) -> Any:
        out = select(state, node, kids, *args, **kw)
        seen.append(set(kids))
        return out

    monkeypatch.setattr(ismcts, "_select_observed", spy)
    state = load_position(descriptor("flags"), FLAGS_WINNING_FLAG, engine="python")
    settings = SearchSettings(iterations=400, rollout_cap=2, observe=True, search="python")
    ISMCTSBot(settings).analyse(state.view(0), state.legal_actions(), random.Random(1))
    keys = set().union(*seen)
    assert "swap:?" in keys
    assert not any(isinstance(k, str) and k.startswith("swap:") and k != "swap:?" for k in keys)


def _position(game: str, players: int, seed: int, plies: int) -> State:
    state = make_game(game, players, engine="python").new_initial_state(seed)
    rng = random.Random(seed)
    greedy = GreedyBot()
    done = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        if done >= plies and len(legal) > 1:
            break
        state.apply(greedy.act(state.view(seat), legal, rng))
        done += 1
    return state


@settings(max_examples=12, deadline=None)
@given(
    game=st.sampled_from(["flaming", "flags"]),
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 30),
    guided=st.booleans(),
)
def test_observed_decisions_are_legal_and_reproducible_on_both_searches(
    game: str, players: int, seed: int, plies: int, guided: bool
) -> None:
    """With ``observe`` on: a legal decision, the same for the same seed and budget, and the
    native search's statistics and generator are the Python search's."""
    state = _position(game, players, seed, plies)
    if state.is_terminal():
        return
    seat = state.current_player()
    legal = state.legal_actions()
    view = state.view(seat)
    base = SearchSettings(
        iterations=30, observe=True, guided=guided, rollout="mixed", rollout_cap=6
    )
    answers = []
    for search in ["python", "native"] if _native() else ["python"]:
        for _ in range(2):
            rng = random.Random(seed)
            bot = ISMCTSBot(replace(base, search=search))
            stats = bot.analyse(view, legal, rng)
            action = ismcts.pick(stats, rng)
            assert action in legal
            answers.append(([(s.action, s.visits, s.win) for s in stats], rng.getstate(), action))
    assert all(a == answers[0] for a in answers)
