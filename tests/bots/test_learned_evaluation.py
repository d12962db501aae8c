"""The learned evaluations (descriptor part ``learned_evaluation``; docs/BOTS.md, "The learned evaluation").

Each game ships trained weights (``value.json``) over a few features per seat; the value
of a seat is ``sigmoid(b + w·f)``, normalised over the seats. The tests load the shipped
files, check that hand-made positions where one seat is clearly ahead are ranked the
right way round, that the Python features and values are the native ones on self-play
positions of both engines (the native search evaluates with the Rust copy), and that
``pyramids train-eval`` writes a file the game loads.
"""

from __future__ import annotations

import importlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pyramids.bots import ISMCTSBot, make_bot, parse_settings
from pyramids.bots.ismcts import SearchSettings
from pyramids.cli.main import app
from pyramids.core import CHANCE
from pyramids.core.descriptor import Evaluation
from pyramids.core.game import State
from pyramids.flaming import position_from_json
from pyramids.games import descriptor, make_game
from pyramids.games.value import ValueWeights
from tests.flags import state as flags_state

GAMES = ("flaming", "flags")


def learned(game: str) -> Evaluation:
    """The game's learned evaluation, loaded from its registry entry as the search loads it."""
    part = descriptor(game).learned_evaluation
    assert part is not None
    return part.get().evaluate


def module(game: str, part: str) -> Any:
    """``pyramids.games.<game>.<part>``."""
    return importlib.import_module(f"pyramids.games.{game}.{part}")


def flaming(hands: list[list[str]], piles: list[list[str]]) -> State:
    """A Flaming Pyramids position on a small base; seat 0 to move."""
    data: dict[str, Any] = {
        "rules": {"preset": "basic"},
        "players": len(hands),
        "to_move": 0,
        "turn": 9,
        "pyramid": ["R60@0,0", "Y10@0,2", "G10@0,4"],
        "hands": hands,
        "piles": piles,
        "out": [],
    }
    return position_from_json(data)


@pytest.mark.parametrize("game", GAMES)
def test_the_shipped_weights_load_and_say_how_they_were_trained(game: str) -> None:
    """value.json names the game's features in order, a weight each, and its training:
    the command, the seed, the positions, and held-out figures that beat the hand-made
    evaluation's log-loss."""
    value = module(game, "learned").weights()
    assert value.features == module(game, "features").FEATURES
    assert len(value.weights) == len(value.features)
    training = value.training
    assert training["command"].startswith(f"pyramids train-eval {game}")
    assert training["positions"] >= 20_000
    held = training["held_out"]
    assert held["log_loss"] < held["handmade_log_loss"]


def test_flaming_two_tiles_left_is_worth_more_than_twelve() -> None:
    """FP-END: the first to place every tile wins; 2 tiles left (hand and pile) beat 12."""
    evaluate = learned("flaming")
    hand = ["B4", "Y4", "G6", "R40", "Y2"]
    pile = ["B10", "G20", "R2", "Y20", "B20", "G30", "R30"]
    ahead = flaming([["B2", "G2"], hand], [[], pile])
    behind = flaming([hand, ["B2", "G2"]], [pile, []])
    for s in (ahead, behind):
        values = evaluate(s)
        assert len(values) == 2 and sum(values) == pytest.approx(1.0)
    assert evaluate(ahead)[0] > 0.5 > evaluate(ahead)[1]
    assert evaluate(behind)[0] < 0.5 < evaluate(behind)[1]


def test_flags_four_flags_scored_is_worth_more_than_none() -> None:
    """PF-WIN: five flags win; a seat with four scored is nearer than one with none."""
    evaluate = learned("flags")
    hands = [["AUT", "BWA", "CUB", "IRN"], ["BEL", "CMR", "HTI", "KWT"]]
    ahead = flags_state(hands=hands, scored=[["ARG", "BRA", "CHN", "JPN"], []])
    behind = flags_state(hands=hands, scored=[[], ["ARG", "BRA", "CHN", "JPN"]])
    for s in (ahead, behind):
        values = evaluate(s)
        assert len(values) == 2 and sum(values) == pytest.approx(1.0)
    assert evaluate(ahead)[0] > 0.5 > evaluate(ahead)[1]
    assert evaluate(behind)[0] < 0.5 < evaluate(behind)[1]


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_game_is_worth_its_returns(game: str) -> None:
    """At the end the learned evaluation is the game's result, not an estimate."""
    evaluate = learned(game)
    s = make_game(game, 3).new_initial_state(5)
    rng = random.Random(5)
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            s.apply(s.sample_chance(rng))
        else:
            s.apply(rng.choice(s.legal_actions()))
    assert evaluate(s) == s.returns()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("engine", ["python", "native"])
def test_python_and_native_give_the_same_features_and_values(game: str, engine: str) -> None:
    """On random self-play positions of either engine, the Python features and learned
    values are bit-equal to the native core's (which the native search evaluates with)."""
    native = pytest.importorskip("pyramids._native")
    from pyramids.bots.native_search import core_state

    desc = descriptor(game)
    evaluate = learned(game)
    features = module(game, "features").features
    value = module(game, "learned").weights()
    checked = 0
    for seed in range(4):
        s = make_game(game, 2 + seed % 3, engine=engine).new_initial_state(seed)
        rng = random.Random(seed)
        for _ in range(300):
            if s.is_terminal():
                break
            if s.current_player() == CHANCE:
                s.apply(s.sample_chance(rng))
                continue
            core = core_state(desc, s)
            assert features(s) == getattr(native, f"{game}_features")(core)
            weights = (list(value.weights), value.bias)
            assert evaluate(s) == getattr(native, f"{game}_learned")(core, *weights)
            checked += 1
            s.apply(rng.choice(s.legal_actions()))
    assert checked > 100


def test_the_spec_names_the_evaluation() -> None:
    """``+learned`` / ``+handmade`` pick what scores a cut rollout; hand-made by default."""
    assert parse_settings("500").evaluation == "handmade"
    assert parse_settings("500+greedy+learned+h10").evaluation == "learned"
    assert parse_settings("500+handmade").evaluation == "handmade"
    bot = make_bot("ismcts:200+learned")
    assert isinstance(bot, ISMCTSBot)
    assert bot.settings.evaluation == "learned"
    with pytest.raises(ValueError, match="unknown evaluation 'clever'"):
        SearchSettings(evaluation="clever")


@pytest.mark.parametrize("game", GAMES)
def test_the_search_scores_cut_rollouts_with_the_learned_evaluation(game: str) -> None:
    """A search set to ``learned`` runs on either search and scores every new leaf
    (rollout_cap 0) with the learned values, which are never a plain 1/players."""
    s = make_game(game, 2).new_initial_state(3)
    rng = random.Random(3)
    while s.current_player() == CHANCE:
        s.apply(s.sample_chance(rng))
    seat = s.current_player()
    for search in ("python", "native"):
        settings = SearchSettings(iterations=20, rollout_cap=0, evaluation="learned", search=search)
        result = ISMCTSBot(settings).search(s.view(seat), s.legal_actions(), random.Random(0))
        assert sum(st.visits for st in result.stats) == 20
        assert all(0.0 < st.win < 1.0 and st.win != 0.5 for st in result.stats if st.visits)


def test_a_value_file_with_other_features_is_refused() -> None:
    """A file trained for other features says so, and how to make a new one."""
    data = {"features": ["left"], "weights": [1.0], "bias": 0.0}
    with pytest.raises(ValueError, match="train the file again with pyramids train-eval"):
        ValueWeights.from_json(data, ("left", "hand"), "value.json")
    data = {"features": ["left"], "weights": ["x"], "bias": 0.0}
    with pytest.raises(ValueError, match="weights must be 1 finite numbers"):
        ValueWeights.from_json(data, ("left",), "value.json")


@pytest.mark.parametrize("game", GAMES)
def test_train_eval_on_a_tiny_size_writes_a_loadable_file(game: str, tmp_path: Path) -> None:
    """``pyramids train-eval GAME --positions 240 --out FILE`` writes weights the game's
    learned evaluation reads, with the command that made them."""
    pytest.importorskip("numpy")
    pytest.importorskip("pyramids._native")
    out = tmp_path / "value.json"
    result = CliRunner().invoke(
        app, ["train-eval", game, "--positions", "240", "--seed", "7", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "held out" in result.output
    names = module(game, "features").FEATURES
    value = ValueWeights.from_json(json.loads(out.read_text()), names, str(out))
    assert value.training["command"] == f"pyramids train-eval {game} --positions 240 --seed 7"
    s = make_game(game, 2).new_initial_state(1)
    values = module(game, "learned").evaluate(s, value)
    assert sum(values) == pytest.approx(1.0)


def test_train_eval_refuses_a_game_without_a_learned_evaluation(tmp_path: Path) -> None:
    """An unknown game is refused with the games that can be trained, exit status 2."""
    result = CliRunner().invoke(app, ["train-eval", "chess", "--out", str(tmp_path / "v.json")])
    assert result.exit_code == 2
    assert "no learned evaluation to train for game 'chess'" in result.output
