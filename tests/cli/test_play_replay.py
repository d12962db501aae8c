"""`pyramids play` and `pyramids replay`: terminal games, their records, stepping through them.

Bot-only games must be the very games ``core.play_game`` plays with the same seed and
bots (chance and bot generators derived from the seed), so records replay exactly.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyramids.bots import make_bot
from pyramids.core import GameRecord, play_game, replay
from pyramids.flaming import FlamingGame, FlamingOptions, FlamingState
from pyramids.games import make_game
from tests.cli.runner import run


def load(path: Path) -> GameRecord:
    """A record file."""
    return GameRecord.from_json(json.loads(path.read_text()))


def final_state(record: GameRecord) -> FlamingState:
    """The state after the last action of ``record``."""
    # the Python reference replays the record, whichever engine the command played on
    game = make_game(record.game, record.players, record.options, engine="python")
    state = game.new_initial_state(record.seed)
    for _, after in replay(game, record):
        state = after
    assert isinstance(state, FlamingState)
    return state


def test_bot_game_is_core_play_game_with_the_same_seed(tmp_path: Path) -> None:
    """FP-SETUP-1 ("shuffled, a chance event"): same seed, same bots, same game as play_game."""
    path = tmp_path / "g.json"
    result = run(
        "play", "--seats", "random,random", "--preset", "basic", "--seed", "0",
        "--delay", "0", "--record", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"Record saved to {path}" in result.stdout
    assert "seat 1 (random) wins!" in result.stdout
    record = load(path)
    game = FlamingGame(2, FlamingOptions(preset="basic"))
    expected_state, expected = play_game(game, [make_bot("random"), make_bot("random")], 0)
    assert record.actions == expected.actions
    assert record.seed == 0
    assert record.seats == ["random", "random"]
    assert record.options == expected.options
    assert final_state(record) == expected_state


def test_bot_game_with_fire_die_draws_chance_like_play_game(tmp_path: Path) -> None:
    """FP-DIE-1: the fire die is a chance event drawn from the seed's chance generator."""
    path = tmp_path / "die.json"
    result = run(
        "play", "--seats", "greedy,random", "--fire-die", "--max-turns", "40", "--seed", "4",
        "--delay", "0", "--record", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    record = load(path)
    game = FlamingGame(2, FlamingOptions(fire_die=True, max_turns=40))
    expected_state, expected = play_game(game, [make_bot("greedy"), make_bot("random")], 4)
    assert record.actions == expected.actions
    assert final_state(record) == expected_state
    assert "Turn limit reached" in result.stdout or "wins!" in result.stdout


def test_human_wrong_inputs_then_numbers_play_to_the_end(tmp_path: Path) -> None:
    """FP-PLACE-4: the legal placements are all (hand tile, spot) pairs; anything else is
    refused with a reason and asked again, never crashing the game."""
    path = tmp_path / "h.json"
    answers = ["hello", "99", "0", "left", "die:3", "R40@9,9", "?", ""] + ["1"] * 40
    result = run(
        "play", "--seats", "human,random", "--seed", "3", "--max-turns", "12", "--delay", "0",
        "--record", str(path),
        stdin="\n".join(answers) + "\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Cannot read 'hello'" in out
    assert "There is no option 99: choose 1 to 10." in out
    assert "There is no option 0" in out
    assert "Not allowed: no tile is falling" in out
    assert "Not allowed: the fire die is rolled automatically." in out
    assert "Type the number of an option" in out
    assert "Your hand (seat 0):" in out
    assert "Turn limit reached" in out or "wins!" in out
    record = load(path)
    assert record.seats == ["human", "random"]
    assert final_state(record).is_terminal()


def test_human_is_not_told_who_holds_a_tile(tmp_path: Path) -> None:
    """FP-VIEW-1: a seat knows only its own hand, so a refusal never names another hand."""
    game = FlamingGame(2, FlamingOptions())
    state = game.new_initial_state(3)
    other = state.hand(1)[0]
    from pyramids.flaming.tiles import NAMES

    result = run(
        "play", "--seats", "human,random", "--seed", "3", "--delay", "0",
        "--record", str(tmp_path / "r.json"),
        stdin=f"{NAMES[other]}@0,2\nq\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"Not allowed: {NAMES[other]} is not in your hand." in result.stdout
    assert "seat 1 holds" not in result.stdout


def test_human_chooses_a_fall_by_number(tmp_path: Path) -> None:
    """FP-COLLAPSE-1: "then P chooses left or right"; the human is offered both."""
    result = run(
        "play", "--seats", "human,human", "--seed", "3", "--delay", "0", "--max-turns", "3",
        "--record", str(tmp_path / "f.json"),
        stdin="1\n\n1\n1\n\n1\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Pass the keyboard to seat 1 (human), then press Enter:" in out
    assert "seat 1 (human), it is your turn." in out
    assert "1) left → 0,-2" in out
    assert "seat 1 lets R100 fall left, from 1,-1 to 0,-2" in out
    assert load(tmp_path / "f.json").actions[:3] == ["Y2@0,-2", "R100@1,-1", "left"]


def test_human_quits_and_the_record_is_saved(tmp_path: Path) -> None:
    """`q` saves the record so far and exits cleanly."""
    path = tmp_path / "q.json"
    result = run(
        "play", "--seats", "human,random,random", "--seed", "5", "--delay", "0",
        "--record", str(path), stdin="1\nq\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"Record so far saved to {path}" in result.stdout
    record = load(path)
    assert len(record.actions) >= 3
    assert record.players == 3
    final_state(record)  # the partial record replays


def test_end_of_input_saves_and_exits_1(tmp_path: Path) -> None:
    """Running out of input is not a crash: the record is saved, exit status 1."""
    path = tmp_path / "eof.json"
    result = run(
        "play", "--seats", "human,random", "--seed", "5", "--delay", "0", "--record", str(path)
    )
    assert result.exit_code == 1, result.output
    assert "Input ended" in result.stdout
    assert load(path).actions == []


def test_default_record_goes_under_the_user_data_dir(tmp_path: Path) -> None:
    """Without --record the game is saved under $XDG_DATA_HOME/pyramids/records."""
    result = run(
        "play", "--seats", "random,random", "--seed", "9", "--max-turns", "2", "--delay", "0",
        env={"XDG_DATA_HOME": str(tmp_path)},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    saved = list((tmp_path / "pyramids" / "records").glob("*-9.json"))
    assert len(saved) == 1
    assert str(saved[0]) in result.stdout


def test_match_saves_one_record_per_hand_and_adds_scores(tmp_path: Path) -> None:
    """FP-OPT-4: "every player scores the tiles they have left (the winner 0); the lowest
    match total wins; each hand's first player sits one seat to the left"."""
    base = tmp_path / "m.json"
    result = run(
        "play", "--seats", "random,random", "--hands", "2", "--max-turns", "6", "--seed", "2",
        "--delay", "0", "--record", str(base),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    first, second = load(tmp_path / "m-hand1.json"), load(tmp_path / "m-hand2.json")
    assert first.options["first_player"] == 0
    assert second.options["first_player"] == 1
    assert first.seed != second.seed
    assert "Hand 2 scores (tiles left)" in result.stdout
    assert "Totals:" in result.stdout
    assert "Match " in result.stdout


def test_play_in_french(tmp_path: Path) -> None:
    """Everything play says is in French with --lang fr, engine events included."""
    result = run(
        "play", "--seats", "human,random", "--seed", "3", "--max-turns", "4", "--delay", "0",
        "--lang", "fr", "--record", str(tmp_path / "fr.json"),
        stdin="bonjour\n1\n1\n1\n1\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Graine : 3" in out
    assert "Impossible de lire 'bonjour'" in out
    assert "Votre main (joueur 0) :" in out
    assert "le joueur 0 pose" in out
    assert "Partie enregistrée dans" in out


def test_play_refuses_bad_options(tmp_path: Path) -> None:
    """Bad seats, preset or first player: exit 2 with the reason."""
    bad_bot = run("play", "--seats", "human,wizard")
    assert bad_bot.exit_code == 2
    assert "unknown bot 'wizard'" in bad_bot.stderr
    mismatch = run("play", "--seats", "human,random", "--players", "3")
    assert mismatch.exit_code == 2
    assert "--seats lists 2 seats but --players is 3" in mismatch.stderr
    preset = run("play", "--seats", "random,random", "--preset", "huge")
    assert preset.exit_code == 2
    assert "unknown preset 'huge'" in preset.stderr
    first = run("play", "--seats", "random,random", "--first-player", "2")
    assert first.exit_code == 2
    assert "first_player 2" in first.stderr


# --- replay -----------------------------------------------------------------------------


def bot_record(tmp_path: Path) -> tuple[Path, GameRecord, FlamingState]:
    """A short finished bot game saved as a record file."""
    game = FlamingGame(2, FlamingOptions(preset="basic", max_turns=8))
    state, record = play_game(game, [make_bot("random"), make_bot("random")], 1)
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(record.to_json()))
    assert isinstance(state, FlamingState)
    return path, record, state


def test_replay_auto_shows_every_action_its_events_and_the_pyramid(tmp_path: Path) -> None:
    """A record replays action by action (FP-NOTE-2 action texts)."""
    path, record, _ = bot_record(tmp_path)
    result = run("replay", str(path), "--auto")
    assert result.exit_code == 0, result.output
    out = result.stdout
    count = len(record.actions)
    assert f"{count} actions" in out
    for i, text in enumerate(record.actions, start=1):
        assert f"Action {i}/{count}" in out
        assert text in out
    assert "End of the record." in out
    assert "Turn limit reached" in out


def test_replay_to_json_is_the_position_after_that_action(tmp_path: Path) -> None:
    """--to N --json prints the position (FP-NOTE-3) after action N."""
    path, record, state = bot_record(tmp_path)
    game = make_game(record.game, record.players, record.options)
    states = [s.to_json() for _, s in replay(game, record)]
    for n in (1, 5, len(record.actions)):
        result = run("replay", str(path), "--to", str(n), "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout) == states[n - 1]
    start = run("replay", str(path), "--to", "0", "--json")
    assert json.loads(start.stdout) == game.new_initial_state(record.seed).to_json()
    assert json.loads(run("replay", str(path), "--json").stdout) == state.to_json()
    drawn = run("replay", str(path), "--to", "3")
    assert drawn.exit_code == 0
    assert "Turn " in drawn.stdout


def test_replay_steps_on_enter_and_quits_on_q(tmp_path: Path) -> None:
    """Enter steps one action; q stops."""
    path, record, _ = bot_record(tmp_path)
    result = run("replay", str(path), stdin="\n\nq\n")
    assert result.exit_code == 0, result.output
    count = len(record.actions)
    assert f"Action 2/{count}" in result.stdout
    assert f"Action 3/{count}" not in result.stdout


def test_replay_refuses_a_record_whose_action_does_not_apply(tmp_path: Path) -> None:
    """A bad record is refused naming the first action that does not apply."""
    path, record, _ = bot_record(tmp_path)
    data = record.to_json()
    data["actions"][3] = "left"
    path.write_text(json.dumps(data))
    result = run("replay", str(path), "--auto")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "action 4 (left) does not apply: no tile is falling" in result.stderr


def test_replay_refuses_unreadable_records(tmp_path: Path) -> None:
    """Invalid JSON, missing fields, unknown game, missing file: exit 2 with the reason."""
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert "invalid JSON" in run("replay", str(bad)).stderr
    bad.write_text(json.dumps({"game": "flaming"}))
    result = run("replay", str(bad))
    assert result.exit_code == 2
    assert "missing the field" in result.stderr
    bad.write_text(
        json.dumps({"game": "chess", "options": {}, "players": 2, "seed": 1, "actions": []})
    )
    assert "unknown game 'chess'" in run("replay", str(bad)).stderr
    missing = run("replay", str(tmp_path / "none.json"))
    assert missing.exit_code == 2
    assert "no such file" in missing.stderr
    path, record, _ = bot_record(tmp_path)
    beyond = run("replay", str(path), "--to", str(len(record.actions) + 1))
    assert beyond.exit_code == 2
    assert f"the record has {len(record.actions)} actions" in beyond.stderr


def test_replay_a_play_record_reproduces_the_final_position(tmp_path: Path) -> None:
    """The record written by play replays to the position play ended on."""
    path = tmp_path / "p.json"
    result = run(
        "play", "--seats", "greedy,random,random", "--seed", "21", "--max-turns", "15",
        "--delay", "0", "--record", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert load(path).seats == ["greedy", "random", "random"]
    game = FlamingGame(3, FlamingOptions(max_turns=15))
    bots = [make_bot("greedy"), make_bot("random"), make_bot("random")]
    expected_state, _ = play_game(game, bots, 21)
    replayed = run("replay", str(path), "--json")
    assert json.loads(replayed.stdout) == expected_state.to_json()
    french = run("replay", str(path), "--auto", "--lang", "fr")
    assert "Fin de la partie enregistrée." in french.stdout
    assert "le joueur 0 pose" in french.stdout


def test_default_seats_are_one_human_against_greedy(tmp_path: Path) -> None:
    """Without --seats seat 0 is the human and the others the greedy bot."""
    result = run(
        "play", "--players", "2", "--seed", "1", "--record", str(tmp_path / "d.json"), stdin="q\n"
    )
    assert result.exit_code == 0, result.output
    assert "Seats: seat 0 (you), seat 1 (greedy)" in result.stdout
    assert load(tmp_path / "d.json").seats == ["human", "greedy"]


def test_ctrl_c_saves_the_record_and_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An interrupt is a way to leave like `q`: the record so far is kept."""
    from pyramids.cli import play_cmd

    def interrupted(self: play_cmd.Terminal, prompt: str) -> str | None:
        raise KeyboardInterrupt

    monkeypatch.setattr(play_cmd.Terminal, "ask", interrupted)
    path = tmp_path / "c.json"
    result = run("play", "--seats", "human,random", "--seed", "1", "--record", str(path))
    assert result.exit_code == 130, result.output
    assert load(path).actions == []


def test_unwritable_record_path_is_refused_before_playing(tmp_path: Path) -> None:
    """The record place is checked first, so no game is played and then lost."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = run("play", "--seats", "random,random", "--record", str(blocker / "sub" / "g.json"))
    assert result.exit_code == 2
    assert "cannot save the record" in result.stderr
    assert "Turn 1" not in result.stdout


def test_play_refuses_the_oracle_yardstick_as_an_opponent() -> None:
    """The oracle reads hidden state: a yardstick for measurements, never a player's opponent."""
    result = run("play", "--seats", "human,oracle")
    assert result.exit_code == 2
    assert "yardstick" in result.stderr
