"""The fixed encodings (pyramids.games.<game>.encoding, found by pyramids.rl.spaces) and
the PettingZoo AEC environments.

PettingZoo's own ``api_test`` and ``seed_test`` run on both games; the rest checks what
they cannot: every legal engine action has exactly one index, observations come from
the seat's view only, chance and mid-turn decisions are handled as docs/RL.md says.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from pyramids.core import CHANCE
from pyramids.core.game import State
from pyramids.flags.actions import PIRATE_BASE, take_action, trade_action
from pyramids.flaming.state import FALL, decode_place
from pyramids.games import make_game, names
from pyramids.games.flags.encoding import FLAGS_NUM_ACTIONS, FlagsEncoding
from pyramids.games.flaming.encoding import (
    FALL_LEFT,
    FALL_RIGHT,
    FLAMING_NUM_ACTIONS,
    MAX_SPOTS,
    FlamingEncoding,
    decode_place_index,
)
from pyramids.rl.pettingzoo_env import (
    FlamingPyramidsEnv,
    PyramidsAECEnv,
    PyramidsAndFlagsEnv,
    agent_name,
    env,
    env_class,
    env_games,
)
from pyramids.rl.spaces import encoding_for, has_encoding

GAMES = [("flaming", 3, {"fire_die": True}), ("flags", 3, {})]


def random_states(
    name: str, players: int, options: dict[str, object], games: int, seed: int
) -> Iterator[tuple[State, int]]:
    """Every decision state of ``games`` random playouts (state, deciding seat)."""
    game = make_game(name, players, options)
    for g in range(games):
        rng = random.Random(seed + g)
        s = game.new_initial_state(seed + g)
        while not s.is_terminal():
            p = s.current_player()
            if p == CHANCE:
                s.apply(s.sample_chance(rng))
                continue
            yield s, p
            s.apply(rng.choice(s.legal_actions()))


@pytest.mark.parametrize(("name", "players", "options"), GAMES)
def test_every_legal_action_has_exactly_one_index_and_maps_back(
    name: str, players: int, options: dict[str, object]
) -> None:
    """FP-PLACE-4: "the legal placements are all (hand tile, spot of F) pairs"; PF-NOTE-1 actions: one index each."""
    game = make_game(name, players, options)
    enc = encoding_for(name, game)
    for s, p in random_states(name, players, options, 3, 10):
        legal = s.legal_actions()
        table = enc.index_table(legal, p)
        assert sorted(table.values()) == legal
        assert all(0 <= i < enc.num_actions for i in table)
        mask = enc.mask(legal, p)
        assert mask.dtype == np.int8 and int(mask.sum()) == len(legal)
        for i, a in table.items():
            assert enc.to_engine(i, legal, p) == a


def test_encodings_and_environments_come_from_the_registry() -> None:
    """Hosts name no game: every registered game with an encoding has an environment class."""
    assert env_games() == [n for n in names() if has_encoding(n)]
    assert {"flaming", "flags"} <= set(env_games())
    assert env_class("flaming") is FlamingPyramidsEnv
    assert env_class("flags") is PyramidsAndFlagsEnv
    assert FlamingPyramidsEnv.metadata["name"] == "flaming_pyramids_v0"
    assert PyramidsAndFlagsEnv.metadata["name"] == "pyramids_and_flags_v0"
    assert isinstance(encoding_for("flags", make_game("flags", 2)), FlagsEncoding)
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        encoding_for("chess", make_game("flags", 2))
    with pytest.raises(ValueError, match="unknown game"):
        env("chess")


def test_flaming_indices_are_falls_then_tile_times_spot_slot() -> None:
    """FP-PLACE-4, FP-GEOM-4: placements index as tile * 16 + spot slot, spots in scan order."""
    assert FLAMING_NUM_ACTIONS == 2 + 45 * MAX_SPOTS
    game = make_game("flaming", 3, {})
    enc = FlamingEncoding(game)
    s = game.new_initial_state(4)
    p = s.current_player()
    legal = s.legal_actions()
    spots = s.placement_spots()
    table = enc.index_table(legal, p)
    assert len(table) == len(legal) == len(spots) * len(s.hand(p))
    for i, a in table.items():
        tile, slot = decode_place_index(i)
        assert decode_place(a) == (tile, spots[slot])
    assert enc.index_table([0, 1], 0) == {FALL_LEFT: 0, FALL_RIGHT: 1}


def test_flags_seats_in_actions_are_counted_from_the_decider() -> None:
    """PF-CAPTURE-2, PF-TREE: take:P@S, trade:M:T@S, pirate:S name a seat; its index counts from the decider."""
    game = make_game("flags", 4, {})
    enc = FlagsEncoding(game)
    assert FLAGS_NUM_ACTIONS == 1044
    me = 2
    nxt = (me + 1) % 4
    assert enc.to_index(take_action(20, nxt), me) == take_action(20, 1)
    assert enc.to_index(take_action(20, None), me) == take_action(20, None)
    assert enc.to_index(trade_action(18, 19, (me + 3) % 4), me) == trade_action(18, 19, 3)
    assert enc.to_index(PIRATE_BASE + nxt, me) == PIRATE_BASE + 1
    legal = [take_action(20, nxt), take_action(21, None)]
    assert enc.index_table(legal, me) == {
        take_action(20, 1): take_action(20, nxt),
        take_action(21, None): take_action(21, None),
    }


@pytest.mark.parametrize(("name", "players", "options"), GAMES)
def test_observations_come_from_the_view_only(
    name: str, players: int, options: dict[str, object]
) -> None:
    """FP-VIEW-3 "It holds nothing else"; PF-VIEW-4 "Other players' hidden cards are ?": resampling what a seat cannot see changes nothing it observes."""
    game = make_game(name, players, options)
    enc = encoding_for(name, game)
    rng = random.Random(5)
    checked = 0
    for k, (s, p) in enumerate(random_states(name, players, options, 2, 30)):
        if k % 7:
            continue
        view = s.view(p)
        other = game.determinize(view, rng)
        assert other.view(p).to_json() == view.to_json()
        obs = enc.observe(view)
        assert obs.shape == (enc.obs_size,) and obs.dtype == np.float32
        assert np.array_equal(obs, enc.observe(other.view(p)))
        checked += 1
    assert checked > 5


def test_flaming_observation_layout_marks_own_hand_and_spots() -> None:
    """FP-VIEW-1: "its own hand ... the pyramid"; the spot slots are the placement spots."""
    game = make_game("flaming", 3, {})
    enc = FlamingEncoding(game)
    s = game.new_initial_state(8)
    p = s.current_player()
    obs = enc.observe(s.view(p))
    parts = {name: obs[sl] for name, sl in enc.slices().items()}
    tiles = parts["tiles"].reshape(45, -1)
    mine = tiles[:, enc.tile_features.index("in_my_hand")]
    assert sorted(np.flatnonzero(mine).tolist()) == sorted(s.hand(p))
    spots = parts["spots"].reshape(MAX_SPOTS, 3)
    assert int(spots[:, 0].sum()) == len(s.placement_spots())


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize("cls", [FlamingPyramidsEnv, PyramidsAndFlagsEnv])
def test_the_environments_pass_pettingzoo_api_test(cls: type) -> None:
    """PettingZoo's API conformance test (FP-VIEW, PF-VIEW: one observation per seat).

    The two filtered warnings are about dict observations ({"observation", "action_mask"}),
    which PettingZoo's own classic environments use too.
    """
    api_test(cls(players=3), num_cycles=300, verbose_progress=False)


@pytest.mark.parametrize("cls", [FlamingPyramidsEnv, PyramidsAndFlagsEnv])
def test_the_environments_pass_pettingzoo_seed_test(cls: type) -> None:
    """PettingZoo's determinism test: the same seed gives the same game."""
    seed_test(lambda: cls(players=2), num_cycles=300)


def play_out(e: PyramidsAECEnv, seed: int) -> list[int]:
    """Play random legal indices to the end; the chosen indices."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    chosen = []
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"]).tolist()  # type: ignore[index]
        a = rng.choice(legal)
        assert e.legal_indices(agent) == legal
        chosen.append(a)
        e.step(a)
    return chosen


def test_reset_with_a_seed_replays_the_same_game() -> None:
    """Chance is explicit (STYLE): same seed and same actions, same game."""
    a = FlamingPyramidsEnv(players=3, options={"fire_die": True})
    b = FlamingPyramidsEnv(players=3, options={"fire_die": True})
    assert play_out(a, 11) == play_out(b, 11)
    assert play_out(a, 11) != play_out(a, 12)


@pytest.mark.parametrize("game", ["flaming", "flags"])
def test_rewards_are_the_returns_at_the_end(game: str) -> None:
    """FP-END-5 / PF-WIN-5: "the winner gets 1 and every other seat 0" (a shared 1 after max_turns)."""
    e = env(game, players=2, options={"max_turns": 60})
    e.reset(seed=3)
    rng = random.Random(3)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    final = None
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        if term or trunc:
            final = info["returns"]
            e.step(None)
            continue
        assert reward == 0.0
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))  # type: ignore[index]
    assert final is not None and sum(final) == pytest.approx(1.0)
    assert [totals[agent_name(s)] for s in range(2)] == final
    assert e.agents == []


def test_a_fall_is_the_next_agents_decision() -> None:
    """FP-MAYHEM (falls): "a fall direction during mayhem is just the next decision", owned by P."""
    e = FlamingPyramidsEnv(players=3)
    rng = random.Random(0)
    for seed in range(40):
        e.reset(seed=seed)
        for _ in e.agent_iter():
            state = e.state_now
            obs, _, term, _, _ = e.last()
            if term:
                e.step(None)
                continue
            kind, _ = state.pending  # type: ignore[attr-defined]
            if kind == FALL:
                assert e.agent_selection == agent_name(state.responsible)  # type: ignore[attr-defined]
                assert np.flatnonzero(obs["action_mask"]).tolist() == [FALL_LEFT, FALL_RIGHT]  # type: ignore[index]
                return
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))  # type: ignore[index]
    pytest.fail("no fall in 40 random games")


def test_an_illegal_index_raises_and_changes_nothing() -> None:
    """Errors say what is wrong (STYLE): an illegal index is refused with the legal ones."""
    e = PyramidsAndFlagsEnv(players=2)
    e.reset(seed=1)
    before = e.state_now.to_json()
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)
    assert e.state_now.to_json() == before


def test_other_agents_see_an_empty_mask() -> None:
    """Only the deciding seat has legal actions (OpenSpiel/PettingZoo convention)."""
    e = FlamingPyramidsEnv(players=3)
    e.reset(seed=2)
    for agent in e.possible_agents:
        mask = e.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == e.agent_selection)


def test_ansi_render_shows_the_public_position() -> None:
    """FP-VIEW-1: the render is the spectator's view, nothing hidden."""
    e = PyramidsAndFlagsEnv(players=2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and "to move: player_0" in text
    hand = e.state_now.hand(1)  # type: ignore[attr-defined]
    from pyramids.flags.cards import CODES

    assert not any(CODES[c] in text for c in hand)
    assert FlamingPyramidsEnv(players=2).render() is None
