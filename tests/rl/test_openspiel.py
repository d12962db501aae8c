"""Every registered game as an OpenSpiel Python game: OpenSpiel's own random simulation
test, ISMCTS, the chance nodes (the setup's seed digits, the engine's outcomes, a new
start dealt card by card) and the observer."""

from __future__ import annotations

import json
import pickle
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation

from pyramids.core import CHANCE
from pyramids.flags.cards import CODES
from pyramids.flags.position import DEAL
from pyramids.games import make_game
from pyramids.games.engine import engine_of
from pyramids.rl.openspiel_game import (
    SEED_BASE,
    SEED_DIGITS,
    PyramidsSpielGame,
    PyramidsSpielState,
    make_resampler,
    seed_digits,
    spiel_games,
    spiel_short_name,
)

FLAMING_SHORT_NAME = spiel_short_name("flaming")
FLAGS_SHORT_NAME = spiel_short_name("flags")


def load(name: str, **params: object) -> PyramidsSpielGame:
    """pyspiel.load_game with parameters."""
    game = pyspiel.load_game(name, params)
    assert isinstance(game, PyramidsSpielGame)
    return game


@pytest.mark.parametrize(
    ("name", "params"),
    [
        (FLAMING_SHORT_NAME, {"players": 3, "fire_die": True}),
        (FLAMING_SHORT_NAME, {"players": 2, "preset": "basic", "curse": "on"}),
        (FLAGS_SHORT_NAME, {"players": 2, "max_turns": 120}),
        (FLAGS_SHORT_NAME, {"players": 4, "max_turns": 60}),
    ],
)
def test_openspiel_random_simulation_test_passes(name: str, params: dict[str, object]) -> None:
    """OpenSpiel's random_sim_test: legal actions, masks, clones, serialization, returns."""
    game = load(name, **params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_every_registered_game_is_an_openspiel_game() -> None:
    """The adapter names no game: one OpenSpiel game per registered game with an encoding."""
    assert {"flaming", "flags"} <= set(spiel_games())
    assert FLAMING_SHORT_NAME == "python_flaming_pyramids"
    assert FLAGS_SHORT_NAME == "python_pyramids_and_flags"
    names = {t.short_name for t in pyspiel.registered_games()}
    assert {spiel_short_name(g) for g in spiel_games()} <= names


def test_game_metadata_and_spaces() -> None:
    """The fixed index spaces and the setup chance nodes are what docs/RL.md says."""
    g = load(FLAMING_SHORT_NAME, players=2)
    assert g.num_distinct_actions() == 722
    assert g.max_chance_outcomes() == SEED_BASE
    assert g.observation_tensor_shape() == [1137]
    assert g.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    f = load(FLAGS_SHORT_NAME, players=3)
    assert f.num_distinct_actions() == 1044
    assert f.max_chance_outcomes() == SEED_BASE
    assert f.observation_tensor_shape() == [951]
    root = f.new_initial_state()
    for digit in seed_digits(17):
        assert root.is_chance_node() and len(root.chance_outcomes()) == SEED_BASE
        assert root.engine_state is None
        root.apply_action(digit)
    assert not root.is_chance_node()
    assert root.engine_state == make_game("flags", 3).new_initial_state(17)
    assert len(root.history()) == SEED_DIGITS


def test_setup_seeds_are_uniform_and_distinct() -> None:
    """The setup is explicit chance: every seed digit equally likely, other seeds other deals."""
    f = load(FLAGS_SHORT_NAME, players=2)
    root = f.new_initial_state()
    assert all(p == pytest.approx(1 / SEED_BASE) for _, p in root.chance_outcomes())
    deals = set()
    for seed in (0, 1, 2**40 + 5):
        s = f.new_initial_state()
        for d in seed_digits(seed):
            s.apply_action(d)
        deals.add(str(s))
    assert len(deals) == 3


def test_nullable_options_are_string_parameters() -> None:
    """A nullable option (Flaming Pyramids' curse) reads 'default', 'on' or 'off'."""
    assert load(FLAMING_SHORT_NAME, curse="on").engine.options["curse"] is True
    default = load(FLAMING_SHORT_NAME, curse="default").engine.options
    assert default == make_game("flaming", 2).options
    with pytest.raises(ValueError, match="curse"):
        load(FLAMING_SHORT_NAME, curse="maybe")


def test_fire_die_outcomes_are_the_six_faces() -> None:
    """FP-DIE-1: "a chance event with outcomes die:1 … die:6, each 1/6"."""
    g = load(FLAMING_SHORT_NAME, players=3, fire_die=True)
    rng = random.Random(0)
    for _ in range(30):
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                if s.engine_state is not None:
                    assert [a for a, _ in outcomes] == list(range(6))
                    assert [s.action_to_string(a) for a, _ in outcomes] == [
                        f"die:{k}" for k in range(1, 7)
                    ]
                    assert all(p == pytest.approx(1 / 6) for _, p in outcomes)
                    return
                s.apply_action(rng.choice([a for a, _ in outcomes]))
            else:
                s.apply_action(rng.choice(s.legal_actions()))
    pytest.fail("no fire-die roll in 30 random games")


def deal_position(small: bool) -> dict[str, object]:
    """A 4-seat position with a new start's deal pending: 16 cards in hands, or 3."""
    hands = [["BWA", "BRA", "DEU", "AUT"], ["CZE", "ESP", "FIN", "LTU"], ["CMR", "KWT", "JAM"]]
    hands.append(["ITA", "ARG", "NGA", "IRN", "LBY"])
    deck = ["KEN", "ROU", "TTO", "FRA", "BRB", "BEL", "NOR", "VEN", "CUB"]
    if small:
        deck += hands[0][1:] + hands[1][1:] + hands[2] + hands[3][1:]
        hands = [hands[0][:1], hands[1][:1], [], hands[3][:1]]
    return {
        "rules": {"actions": True, "max_turns": 3000},
        "players": 4,
        "to_move": 1,
        "turn": 1310,
        "towers": [
            ["K3", "G1"],
            ["W3", "R3", "B3"],
            ["Y3", "Y2", "Y1", "B1", "K1"],
            ["B2", "G2", "W2"],
            ["G3", "K2", "R2", "R1", "W1"],
        ],
        "bank": ["O1", "O3", "C3"],
        "scoring": [["P3", "X2"], [], ["O2", "X1", "X3"], ["P1", "P2", "C1", "C2"]],
        "hands": hands,
        "scored": [
            ["MAR", "CHN"],
            ["GAB", "JPN"],
            ["GHA", "SWE", "EGY"],
            ["GRC", "SAU", "DNK", "HTI"],
        ],
        "deck": deck,
        "last_moved": ["Y1", "B1", "K1"],
        "pending": {"kind": "deal"},
    }


def test_a_new_start_is_dealt_card_by_card() -> None:
    """PF-TREE-7: a new start's deal of 16 cards is 16 chance nodes, each card left equally likely."""
    g = load(FLAGS_SHORT_NAME, players=4)
    engine = g.engine.state_from_json(deal_position(small=False))
    assert engine.pending == DEAL  # type: ignore[attr-defined]
    s = g.state_from_engine(engine)
    before = sorted(engine.to_deal)  # type: ignore[attr-defined]
    assert len(before) == 16
    for left in range(16, 0, -1):
        assert s.is_chance_node()
        outcomes = s.chance_outcomes()
        assert [a for a, _ in outcomes] == list(range(left))
        assert all(p == pytest.approx(1 / left) for _, p in outcomes)
        assert s.action_to_string(pyspiel.PlayerId.CHANCE, 0).startswith("deal:")
        a, b = s.clone(), s.clone()
        a.apply_action(left - 1)
        b.apply_action(left - 1)
        assert str(a) == str(b)
        s = a
    assert not s.is_chance_node()
    after = sorted(c for seat in range(4) for c in s.engine_state.hand(seat))  # type: ignore[union-attr]
    assert before == after


def test_a_small_deal_lists_every_outcome() -> None:
    """PF-TREE-7: each card of a deal is explicit chance with the engine's outcomes."""
    g = load(FLAGS_SHORT_NAME, players=4)
    engine = g.engine.state_from_json(deal_position(small=True))
    listed = engine.chance_outcomes()
    assert len(listed) == 3
    s = g.state_from_engine(engine)
    outcomes = s.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(3))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    texts = {s.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in outcomes}
    assert texts == {engine.action_to_string(a) for a, _ in listed}


def test_states_without_a_past_cannot_be_serialized() -> None:
    """A state made from a position has no history to replay (documented limit)."""
    g = load(FLAGS_SHORT_NAME, players=4)
    s = g.state_from_engine(g.engine.state_from_json(deal_position(small=True)))
    with pytest.raises(TypeError):
        pickle.dumps(s._core)


def test_serialized_states_replay_to_the_same_state() -> None:
    """Same seed and same actions, same game (STYLE): pickling replays the engine actions."""
    g = load(FLAMING_SHORT_NAME, players=3, fire_die=True)
    rng = random.Random(3)
    s = g.new_initial_state()
    for _ in range(40):
        if s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    t = g.deserialize_state(s.serialize())
    assert str(t) == str(s) and t.history() == s.history()
    assert t.information_state_string(1) == s.information_state_string(1)


def play_to_middle(g: PyramidsSpielGame, seed: int, moves: int) -> PyramidsSpielState:
    """A state after ``moves`` random decisions (chance drawn at random too)."""
    rng = random.Random(seed)
    s = g.new_initial_state()
    n = 0
    while not s.is_terminal() and n < moves:
        if s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
        else:
            s.apply_action(rng.choice(s.legal_actions()))
            n += 1
    return s


def test_observations_show_only_the_seats_view() -> None:
    """PF-VIEW-4: "Other players' hidden cards are ?" in observations and information states."""
    g = load(FLAGS_SHORT_NAME, players=3)
    s = play_to_middle(g, 2, 12)
    engine = s.engine_state
    assert engine is not None
    for seat in range(3):
        info = s.information_state_string(seat)
        obs = s.observation_string(seat)
        assert json.loads(obs) == engine.view(seat).to_json()
        assert info.startswith(obs) and "history: setup" in info
        for other in range(3):
            if other == seat:
                continue
            for card in engine.hand(other):  # type: ignore[attr-defined]
                if card not in engine.view(seat).known_hands[other]:  # type: ignore[attr-defined]
                    assert CODES[card] not in info
        tensor = np.asarray(s.observation_tensor(seat), dtype=np.float32)
        assert np.array_equal(tensor, g.encoding.observe(engine.view(seat)))


def test_the_observer_offers_named_parts_and_a_public_view() -> None:
    """OpenSpiel's observation API: the tensor in named parts; a public observer sees no hand."""
    g = load(FLAMING_SHORT_NAME, players=2)
    s = play_to_middle(g, 1, 3)
    obs = make_observation(g)
    obs.set_from(s, 0)
    assert set(obs.dict) == {"tiles", "spots", "seats", "global"}
    public = make_observation(
        g,
        pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
        ),
    )
    public.set_from(s, 0)
    mine = public.dict["tiles"][:, g.encoding.tile_features.index("in_my_hand")]  # type: ignore[attr-defined]
    assert not mine.any()


@pytest.mark.parametrize("name", [FLAMING_SHORT_NAME, FLAGS_SHORT_NAME])
def test_ismcts_plays_a_game(name: str) -> None:
    """OpenSpiel's ISMCTS (information-set MCTS) plays whole games against a random bot.

    One bot resamples through state.resample_from_infostate, the other through
    make_resampler; both rely on the information states of a resampled world matching.
    """
    g = load(name, players=2, max_turns=15)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    for k in range(2):
        bot = ismcts.ISMCTSBot(
            g, evaluator, uct_c=2.0, max_simulations=8, random_state=np.random.RandomState(k)
        )
        if k:
            bot.set_resampler(make_resampler(k))
        other = pyspiel.make_uniform_random_bot(1, 5)
        rng = np.random.RandomState(4)
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                ids, probs = zip(*s.chance_outcomes(), strict=True)
                s.apply_action(int(rng.choice(ids, p=probs)))
            else:
                player = s.current_player()
                s.apply_action(int((bot if player == 0 else other).step(s)))
        assert sum(s.returns()) == pytest.approx(1.0)


def test_resampled_worlds_keep_the_players_information() -> None:
    """FP-VIEW-3: a resampled world differs only in what the seat cannot see."""
    g = load(FLAMING_SHORT_NAME, players=3)
    s = play_to_middle(g, 5, 10)
    seat = s.current_player()
    assert seat != CHANCE
    worlds = [s.resample_from_infostate(seat, None) for _ in range(5)]
    for w in worlds:
        assert w.information_state_string(seat) == s.information_state_string(seat)
        assert w.legal_actions() == s.legal_actions()
    hidden = {json.dumps(w.engine_state.to_json(), sort_keys=True) for w in worlds}  # type: ignore[union-attr]
    assert len(hidden) > 1


@pytest.mark.parametrize("engine", ["python", "native"])
def test_the_engine_parameter_chooses_the_rules_engine_and_survives_a_pickle(engine: str) -> None:
    """``engine`` (docs/NATIVE.md): the states play on the engine asked for, and a pickled
    state comes back on the same engine (the choice is carried as a value, not read from
    the environment of the process that unpickles)."""
    if engine == "native":
        pytest.importorskip("pyramids._native")
    g = load(FLAMING_SHORT_NAME, players=2, engine=engine)
    s = play_to_middle(g, 5, 6)
    assert engine_of(s._core.state) == engine
    t = pickle.loads(pickle.dumps(s))
    assert engine_of(t._core.state) == engine
    assert t.history() == s.history() and str(t) == str(s)
