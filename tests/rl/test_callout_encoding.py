"""Call-out checks in the RL encoding (FP-CALL, docs/RL.md "Call-out games").

A call-out game gives every check action an index: ``ok`` is 722, a call of the
``slot``-th occupied position in scan order is 723 + slot (768 indices in all); the
observation adds the occupied positions (as ``spots`` lists the spots), the pending
check and the variant. Games without the option keep 722 indices and 1137 floats. The
observation never tells whether mayhem stands overlooked: spotting it is the game.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
from pettingzoo.test import api_test

import pyramids.rl.openspiel_game  # noqa: F401  (registers the OpenSpiel games)
from pyramids.core import CHANCE
from pyramids.flaming import FlamingState, position_from_json
from pyramids.flaming.actions import CHECK_OK, call_action, is_check
from pyramids.flaming.tiles import key_of
from pyramids.games import make_game
from pyramids.games.flaming.encoding import (
    CALL_OFFSET,
    CALLOUT_NUM_ACTIONS,
    CHECK_OK_INDEX,
    FLAMING_NUM_ACTIONS,
    FlamingEncoding,
    call_index,
)
from pyramids.rl.pettingzoo_env import FlamingPyramidsEnv
from pyramids.rl.spaces import encoding_for
from tests.flaming.helpers import position_json

FAMILY = {"preset": "standard", "callout": "family"}


def misfit_check(overlooked: bool = False) -> FlamingState:
    """Seat 0 put B100 on G20 and R6 (it does not fit); seat 1 checks (``overlooked``: an
    earlier check left that mayhem standing)."""
    data = position_json(
        hands=[["R40", "G4"], ["Y6", "B4"]],
        pyramid=["G20@0,0", "R6@0,2", "Y30@0,4", "B100@1,1"],
        piles=[["Y4", "R2"], ["G2", "B2"]],
        rules=FAMILY,
        pending={"player": 1, "kind": "check"},
    )
    if overlooked:
        data["overlooked"] = True
    state = position_from_json(data)
    assert state.overlooked is overlooked
    return state


def test_games_without_call_out_keep_their_722_indices_and_1137_floats() -> None:
    """Old policies and datasets stay valid: nothing changes unless callout is on."""
    enc = encoding_for("flaming", make_game("flaming", 2))
    assert enc.num_actions == FLAMING_NUM_ACTIONS == 722
    assert enc.obs_size == 1137
    assert enc.index_table([CHECK_OK], 1) == {}


def test_a_check_gives_ok_and_a_call_of_every_occupied_position_an_index() -> None:
    """FP-CALL-3: ok is 722; the calls follow the occupied positions in scan order."""
    state = misfit_check()
    enc = encoding_for("flaming", state.game)
    assert isinstance(enc, FlamingEncoding)
    assert enc.num_actions == CALLOUT_NUM_ACTIONS == 768
    legal = state.legal_actions()
    table = enc.index_table(legal, 1)
    assert len(table) == len(legal) == 5
    assert table[CHECK_OK_INDEX] == CHECK_OK
    scan = [key_of(1, 1), key_of(0, 0), key_of(0, 2), key_of(0, 4)]  # top row first
    assert [table[call_index(i)] for i in range(4)] == [call_action(k) for k in scan]
    assert CALL_OFFSET == 723 and enc.to_index(CHECK_OK, 1) == CHECK_OK_INDEX
    assert enc.to_engine(call_index(0), legal, 1) == call_action(key_of(1, 1))
    assert int(enc.mask(legal, 1).sum()) == 5


def test_the_observation_says_a_check_is_pending_and_whose_it_is() -> None:
    """The checker (the placer's left) decides; the positions part matches the call slots."""
    state = misfit_check()
    enc = encoding_for("flaming", state.game)
    assert isinstance(enc, FlamingEncoding)
    assert enc.obs_size == 1137 + 45 * 3 + 3
    g = {name: i for i, name in enumerate(enc.global_features)}
    checker = enc._parts(enc.observe(state.view(1)))
    placer = enc._parts(enc.observe(state.view(0)))
    assert checker["global"][g["pending_check"]] == 1.0
    assert checker["global"][g["pending_none"]] == 0.0
    assert checker["global"][g["my_decision"]] == 1.0
    assert placer["global"][g["my_decision"]] == 0.0
    assert checker["global"][g["callout_family"]] == 1.0
    assert checker["global"][g["callout_competitive"]] == 0.0
    positions = checker["positions"]
    assert positions[:, 0].tolist() == [1.0] * 4 + [0.0] * 41
    assert positions[0, 1] == 0.1  # slot 0 is 1,1: row 1 / 10


def test_the_observation_never_tells_that_mayhem_stands_overlooked() -> None:
    """FP-VIEW: the overlooked mark is public history, but saying it would do the spotting."""
    enc = encoding_for("flaming", misfit_check().game)
    plain = enc.observe(misfit_check(False).view(1))
    marked = enc.observe(misfit_check(True).view(1))
    assert np.array_equal(plain, marked)


def test_every_legal_action_of_random_call_out_games_has_one_index() -> None:
    """Over whole random games, every check, placement and fall is addressable and distinct."""
    game = make_game("flaming", 3, {"callout": "competitive", "max_turns": 80})
    enc = encoding_for("flaming", game)
    checks = 0
    for g in range(3):
        rng = random.Random(g)
        s = game.new_initial_state(g)
        while not s.is_terminal():
            p = s.current_player()
            if p == CHANCE:
                s.apply(s.sample_chance(rng))
                continue
            legal = s.legal_actions()
            table = enc.index_table(legal, p)
            assert sorted(table.values()) == sorted(legal)
            assert all(0 <= i < enc.num_actions for i in table)
            checks += all(is_check(a) for a in legal)
            s.apply(rng.choice(legal))
    assert checks > 50


def test_pettingzoo_and_openspiel_play_call_out_games() -> None:
    """The environments take the option: PettingZoo's api_test, OpenSpiel's random test."""
    env = FlamingPyramidsEnv(players=2, options={"callout": "family", "max_turns": 60})
    api_test(env, num_cycles=200)
    assert env.action_space("player_0").n == 768
    game = pyspiel.load_game(
        "python_flaming_pyramids", {"players": 2, "max_turns": 60, "callout": "competitive"}
    )
    assert game.num_distinct_actions() == 768
    assert game.observation_tensor_shape() == [1275]
    assert game.max_game_length() == 60 * (2 + 45 * 44 + 44)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
