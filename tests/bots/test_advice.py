"""Advice from the search (``pyramids.bots.advice``): hints and the analysis of a game.

Small iteration budgets keep each test to seconds; every search is seeded, so each
result repeats exactly on the native search.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pyramids.bots import make_bot
from pyramids.bots.advice import (
    MISTAKE,
    AdviceError,
    advice_settings,
    analyse_record,
    hint,
    is_check,
)
from pyramids.bots.ismcts import ISMCTSBot, SearchResult
from pyramids.core import CHANCE, GameRecord, State
from pyramids.core.game import Action, View
from pyramids.core.record import play_game
from pyramids.games import make_game

ITERATIONS = 120
GAMES = ("flaming", "flags")


def greedy_record(game: str, players: int = 2, seed: int = 3) -> GameRecord:
    g = make_game(game, players)
    _, record = play_game(g, [make_bot("greedy") for _ in range(players)], seed, game_name=game)
    return record


def states_of(record: GameRecord) -> list[State]:
    """The state before each action of ``record``."""
    state = make_game(record.game, record.players, record.options).new_initial_state(record.seed)
    out = []
    for text in record.actions:
        out.append(state.clone())
        state.apply(state.parse_action(text))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_an_analysis_repeats_exactly_for_the_same_record_budget_and_seed(game: str) -> None:
    """(record, budget, seed) fix the analysis: the server's equals the command line's."""
    record = greedy_record(game)
    first = analyse_record(record, iterations=ITERATIONS, seed=4).to_json()
    again = analyse_record(record, iterations=ITERATIONS, seed=4).to_json()
    assert {**first, "cpu_seconds": 0} == {**again, "cpu_seconds": 0}
    other = analyse_record(record, iterations=ITERATIONS, seed=5).to_json()
    assert other["decisions"] != first["decisions"]  # the seed is really used


@pytest.mark.parametrize("game", GAMES)
def test_every_decision_and_only_decisions_are_judged(game: str) -> None:
    """Chance draws and forced moves (one legal action) are not decisions; every other
    action is judged, from its seat, with chances from 0 to 1 and the drop between them."""
    record = greedy_record(game)
    analysis = analyse_record(record, iterations=ITERATIONS)
    expected = [
        i
        for i, state in enumerate(states_of(record))
        if state.current_player() != CHANCE and len(state.legal_actions()) > 1
    ]
    assert [d.index for d in analysis.decisions] == expected
    for d in analysis.decisions:
        assert 0.0 <= d.after <= 1.0 and 0.0 <= d.before <= 1.0
        assert d.drop == max(0.0, d.before - d.after)
        assert d.mistake == (d.action != d.best and d.drop >= MISTAKE - 1e-9)
        assert d.action == record.actions[d.index]


@pytest.mark.parametrize("game", GAMES)
def test_the_analysis_searches_each_seat_s_own_view_only(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every search an analysis runs is given the deciding seat's view at that moment,
    never the state (the record's seed would show every hand)."""
    record = greedy_record(game)
    given: list[View] = []
    search = ISMCTSBot.search

    def spy(self: ISMCTSBot, view: View, legal: Any, rng: random.Random) -> SearchResult:
        given.append(view)
        return search(self, view, legal, rng)

    monkeypatch.setattr(ISMCTSBot, "search", spy)
    analysis = analyse_record(record, iterations=40)
    states = states_of(record)
    views = {d.index: states[d.index].view(d.seat) for d in analysis.decisions}
    assert given, "no search ran"
    assert all(any(v == w for w in views.values()) for v in given)
    assert all(not isinstance(v, State) for v in given)


def staged_blunder(game: str, seed: int = 11) -> tuple[GameRecord, int]:
    """A game of greedy seats in which seat 0 once plays the move the search judges
    worst by at least 30 points (the first decision where one is): (record, its index)."""
    g = make_game(game, 2)
    settings = advice_settings(game, 2, iterations=400)
    state = g.new_initial_state(seed)
    chance = random.Random(f"{seed}/chance")
    greedy = make_bot("greedy")
    actions: list[str] = []
    blunder = -1
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        action: Action
        if seat == CHANCE:
            action = state.sample_chance(chance)
        else:
            action = greedy.act(state.view(seat), legal, random.Random(len(actions)))
            if blunder < 0 and seat == 0 and len(legal) > 1 and not is_check(state.view(0), legal):
                stats = ISMCTSBot(settings).search(state.view(0), legal, random.Random(1)).stats
                judged = [s for s in stats if s.visits >= 20]
                worst = min(judged, key=lambda s: s.win)
                if stats[0].win - worst.win >= 0.3:
                    action, blunder = worst.action, len(actions)
        actions.append(state.action_to_string(action))
        state.apply(action)
    assert blunder >= 0, "no decision of seat 0 had a move 30 points worse than the best"
    record = GameRecord(game, dict(g.options), 2, seed, actions, seats=["Ann", "Bob"])
    return record, blunder


@pytest.mark.parametrize("game", GAMES)
def test_a_clear_blunder_is_marked_as_a_mistake_of_its_seat(game: str) -> None:
    """A move 30 points worse than the best, by the search that staged it, is marked (a
    drop of 10 points or more) at its index, for seat 0."""
    record, blunder = staged_blunder(game)
    analysis = analyse_record(record, iterations=400)
    marked = {d.index: d for d in analysis.mistakes(0)}
    assert blunder in marked, [d.to_json() for d in analysis.decisions if d.index == blunder]
    assert marked[blunder].drop >= MISTAKE


@pytest.mark.parametrize("game", GAMES)
def test_a_hint_is_the_best_few_moves_of_the_view_with_their_chances(game: str) -> None:
    """At most three legal actions, most visited first, the first the bot would play."""
    record = greedy_record(game)
    state = next(
        s for s in states_of(record) if s.current_player() != CHANCE and len(s.legal_actions()) > 3
    )
    seat = state.current_player()
    settings = advice_settings(game, 2, iterations=ITERATIONS)
    got = hint(state.view(seat), state.legal_actions(), settings, "x")
    assert got.seat == seat and len(got.moves) == 3
    assert all(m.action in state.legal_actions() for m in got.moves)
    assert [m.visits for m in got.moves] == sorted((m.visits for m in got.moves), reverse=True)
    assert hint(state.view(seat), state.legal_actions(), settings, "x").moves == got.moves


def test_no_hint_at_a_call_out_check_nor_for_a_spectator() -> None:
    """FP-CALL: a check is the players' to spot; a spectator has no decision."""
    g = make_game("flaming", 2, {"preset": "basic", "callout": "family"})
    state = g.new_initial_state(5)
    chance = random.Random(5)
    greedy = make_bot("greedy")
    settings = advice_settings("flaming", 2, iterations=ITERATIONS)
    with pytest.raises(AdviceError, match="spectator"):
        hint(state.view(None), [0], settings, "x")
    for _ in range(500):
        seat = state.current_player()
        legal = state.legal_actions()
        if seat == CHANCE:
            state.apply(state.sample_chance(chance))
            continue
        if is_check(state.view(seat), legal):
            with pytest.raises(AdviceError, match="call-out check"):
                hint(state.view(seat), legal, settings, "x")
            return
        state.apply(greedy.act(state.view(seat), legal, chance))
    pytest.fail("no check in 500 actions of a call-out game")
