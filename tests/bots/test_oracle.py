"""The oracle yardstick: MCTS on the true state, legal, registered, never offered to players.

``oracle`` implements ``core.OracleBot``: drivers (``core.choose``) hand it a clone of
the true state, hidden hands and piles included (what FP-VIEW / PF-VIEW hide from
honest bots). It exists to measure what hidden information costs the ISMCTS bot.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from pyramids.bots import BOTS, PLAYER_BOTS, OracleMCTSBot, SearchSettings, make_bot
from pyramids.bots.ismcts import game_of
from pyramids.core import Action, Game, OracleBot, State, play_game
from pyramids.flags import FlagsGame, FlagsOptions
from pyramids.flaming import FlamingGame, FlamingOptions

from .test_ismcts import greedy_until, twin_states


def oracle(iterations: int = 30) -> OracleMCTSBot:
    """An oracle with a small iteration budget."""
    return OracleMCTSBot(SearchSettings(iterations=iterations))


def test_oracle_is_registered_but_never_offered_to_players() -> None:
    """The oracle cheats: simulations may use it (BOTS), players never see it (PLAYER_BOTS)."""
    assert "oracle" in BOTS
    assert "oracle" not in PLAYER_BOTS
    bot = make_bot("oracle:50+greedy")
    assert isinstance(bot, OracleMCTSBot)
    assert isinstance(bot, OracleBot)
    assert bot.reads_true_state is True
    assert (bot.settings.iterations, bot.settings.rollout) == (50, "greedy")


def test_oracle_refuses_a_view() -> None:
    """Given only a view it cannot play: it says to drive it with core.choose."""
    state = FlamingGame(2).new_initial_state(0)
    with pytest.raises(TypeError, match="true state"):
        oracle().act(state.view(0), state.legal_actions(), random.Random(0))


@pytest.mark.parametrize(
    "game",
    [
        FlamingGame(3, FlamingOptions(preset="family", fire_die=True, max_turns=15)),
        FlagsGame(2, FlagsOptions(max_turns=12)),
    ],
)
def test_oracle_plays_legal_actions_in_driven_games(game: Game) -> None:
    """core.play_game gives the oracle clones of the true state; every action it returns
    is legal there and the state it got is untouched."""
    seen: list[bool] = []

    class Check:
        name = "check"
        reads_true_state = True

        def act_on_state(self, state: State, legal: Sequence[Action], rng: random.Random) -> Action:
            before = state.to_json()
            action = oracle(15).act_on_state(state, legal, rng)
            seen.append(action in legal and state.to_json() == before)
            return action

    players = game.num_players
    for seed in range(2):
        play_game(game, [Check(), *(make_bot("random") for _ in range(players - 1))], seed)
    assert len(seen) >= 4
    assert all(seen)


def test_oracle_answers_depend_on_hidden_facts() -> None:
    """The yardstick does read what the seat cannot see: two states with the same view for
    the deciding seat but different hidden tiles get different analyses."""
    state = greedy_until(FlamingGame(2, FlamingOptions(preset="standard")), 7, 30)
    seat = state.current_player()
    first, second = twin_states(state, seat)
    stats = [
        oracle(80).analyse_state(s, s.legal_actions(), random.Random(5)) for s in (first, second)
    ]
    assert stats[0] != stats[1]


def test_seeded_oracle_games_are_reproducible() -> None:
    """play_game with an oracle seat: the same seed replays the same game."""
    game = FlamingGame(2, FlamingOptions(preset="basic", max_turns=10))
    records = [play_game(game, [oracle(10), make_bot("random")], 3)[1] for _ in range(2)]
    assert records[0] == records[1]
    assert records[0].seats == ["oracle", "random"]


def test_game_of_is_not_needed_by_the_oracle() -> None:
    """The oracle searches the state it is given: no game is rebuilt from a view."""
    state = greedy_until(FlagsGame(2), 1, 4)
    seat = state.current_player()
    assert seat >= 0
    assert game_of(state.view(seat)) == state.game  # type: ignore[attr-defined]
    stats = oracle(20).analyse_state(state, state.legal_actions(), random.Random(0))
    assert sum(s.visits for s in stats) == 20
