"""`pyramids simulate` and `pyramids bench`: summaries that add up, reproducible across jobs.

The summary counts come from the engine's raw events (FP-MAYHEM; for Pyramids and Flags
PF-SCORE, PF-CAPTURE, PF-SWAP, PF-TREE) and its end of game (FP-END-2 a winner, FP-END-4
max_turns; PF-WIN); they must agree with a direct recount.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from pyramids.analysis.simulate import SimConfig, play_one, seat_bots
from pyramids.bots import make_bot
from pyramids.cli.main import app
from pyramids.core import play_game, replay
from pyramids.flags import FlagsGame
from pyramids.flaming import FlamingGame, FlamingOptions
from pyramids.games.flags.analysis import FLAGS_EVENT_KINDS, WIN_CONDITIONS
from pyramids.games.flaming.analysis import MAYHEM_KINDS

runner = CliRunner()

TIMING_KEYS = ("seconds", "games_per_s", "jobs")


def run_simulate(*args: str) -> dict[str, Any]:
    """Run `pyramids simulate ARGS` and parse the JSON it prints."""
    result = runner.invoke(app, ["simulate", *args])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def without_timing(summary: dict[str, Any]) -> dict[str, Any]:
    """The summary less what depends on the clock or the number of processes."""
    return {k: v for k, v in summary.items() if k not in TIMING_KEYS}


def test_simulate_summary_fields_and_totals_add_up() -> None:
    """FP-END-4 "ends a game nobody has won after that many turns": such games have no winner,
    so wins add up to the games less those ended by max_turns."""
    s = run_simulate(
        "--games", "12", "--players", "3", "--preset", "family", "--bots", "greedy,random",
        "--seed", "5", "--jobs", "1", "--max-turns", "48", "-q",
    )  # fmt: skip
    for key in (
        "game", "rules_version", "options", "players", "bots", "seed", "games", "seconds",
        "games_per_s", "turns_per_game", "wins_by_seat", "wins_by_bot", "win_rate_by_bot",
        "mayhem", "mayhem_per_game", "games_ended_by_max_turns",
    ):  # fmt: skip
        assert key in s, key
    assert s["game"] == "flaming"
    assert s["options"]["preset"] == "family"
    assert s["options"]["max_turns"] == 48
    assert s["bots"] == ["greedy", "random"]
    assert s["games"] == 12
    ended = s["games_ended_by_max_turns"]
    assert 0 < ended < 12, "some games (not all) should reach 48 turns"
    assert sum(s["wins_by_seat"]) == 12 - ended
    assert sum(s["wins_by_bot"].values()) == 12 - ended
    assert len(s["wins_by_seat"]) == 3
    # greedy,random fills 3 seats as greedy,random,greedy: 12 games x 2 greedy seats.
    assert s["seat_games_by_bot"] == {"greedy": 24, "random": 12}
    assert s["win_rate_by_bot"]["greedy"] == round(s["wins_by_bot"]["greedy"] / 24, 4)
    assert set(s["mayhem"]) == set(MAYHEM_KINDS)
    assert s["turns_per_game"]["max"] <= 48
    assert s["turns_per_game"]["median"] <= s["turns_per_game"]["max"]
    for kind in MAYHEM_KINDS:
        assert s["mayhem_per_game"][kind] == round(s["mayhem"][kind] / 12, 4)


def test_simulate_is_independent_of_jobs() -> None:
    """Game i always uses seed S+i and the bots rotated by i, whatever the process count."""
    args = ["--games", "9", "--players", "2", "--preset", "standard", "--seed", "3", "-q"]
    one = run_simulate(*args, "--jobs", "1", "--bots", "greedy,random")
    two = run_simulate(*args, "--jobs", "2", "--bots", "greedy,random")
    assert without_timing(one) == without_timing(two)
    assert one["jobs"] == 1
    assert two["jobs"] == 2


def test_simulate_fire_die_and_curse_options_reach_the_games(tmp_path: Path) -> None:
    """FP-OPT-2 "curse (on/off), fire_die (on/off)" are set independently of the preset."""
    out = tmp_path / "summary.json"
    result = runner.invoke(
        app,
        [
            "simulate", "--games", "6", "--players", "4", "--preset", "family", "--bots",
            "random", "--curse", "--fire-die", "--seed", "1", "--jobs", "1", "--out", str(out),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    s = json.loads(out.read_text(encoding="utf-8"))
    assert s["options"]["curse"] is True
    assert s["options"]["fire_die"] is True
    assert s["wins_by_bot"] == {"random": 6 - s["games_ended_by_max_turns"]}
    # With the fire die, a fire is first a roll: no plain fire without a die outcome.
    rolls = s["mayhem"]["fire"] + s["mayhem"]["die_explosion"] + s["mayhem"]["quench"]
    assert rolls > 0


def test_seats_rotate_so_every_bot_sits_everywhere() -> None:
    """Game i rotates the bots by i seats: over `players` games each bot takes each seat."""
    assert seat_bots(["greedy", "random"], 2, 0) == ["greedy", "random"]
    assert seat_bots(["greedy", "random"], 2, 1) == ["random", "greedy"]
    assert seat_bots(["greedy"], 3, 1) == ["greedy"] * 3
    seats = [seat_bots(["a", "b", "c"], 3, i) for i in range(3)]
    for seat in range(3):
        assert sorted(s[seat] for s in seats) == ["a", "b", "c"]


def test_mayhem_counts_match_a_replay_of_the_game() -> None:
    """FP-MAYHEM-1: the counted events are exactly those of the game's record, replayed."""
    config = SimConfig(
        game="flaming",
        players=3,
        options={"preset": "standard", "fire_die": True},
        bots=("greedy", "random"),
        seed=7,
    )
    game = FlamingGame(3, FlamingOptions(preset="standard", fire_die=True))
    result = play_one(config, 2, game)
    names = seat_bots(config.bots, 3, 2)
    final, record = play_game(game, [make_bot(n) for n in names], 9)
    counts = dict.fromkeys(MAYHEM_KINDS, 0)
    turns = 0
    for _text, state in replay(game, record):
        for event in state.events():
            if event.kind in counts:
                counts[event.kind] += 1
            turns += event.kind == "place"
    assert result.counts == counts
    assert result.ending == ("win" if final.winner is not None else "max_turns")
    assert result.turns == turns
    assert result.winner == final.winner
    assert result.seats == names


def test_simulate_refuses_bad_arguments() -> None:
    """Unknown bots, too many bots and bad presets are refused with exit status 2."""
    for args in (
        ["--bots", "nosuchbot"],
        ["--bots", "random,random,random", "--players", "2"],
        ["--preset", "deluxe"],
        ["--games", "0"],
    ):
        result = runner.invoke(app, ["simulate", "-q", "--jobs", "1", *args])
        assert result.exit_code == 2, (args, result.output)


def test_bench_json_has_the_figures() -> None:
    """`pyramids bench --json` prints exactly one JSON object with the agreed keys."""
    result = runner.invoke(app, ["bench", "--json", "--seconds", "0.05"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    assert len(lines) == 1
    figures = json.loads(lines[0])
    for key in (
        "turns_per_s_random", "turns_per_s_greedy", "games_per_s_random", "games_per_s_greedy",
        "clone_us",
    ):  # fmt: skip
        assert isinstance(figures[key], float), key
        assert figures[key] > 0, key
    assert len(figures["by_config"]) == 15
    assert figures["bench_games"] == ["flaming", "flags"]
    assert figures["turns_per_s_greedy_flags"] > 0


def test_bench_table_output() -> None:
    """Without --json, bench prints tables."""
    result = runner.invoke(app, ["bench", "--seconds", "0.05"])
    assert result.exit_code == 0, result.output
    assert "turns/s" in result.stdout
    assert "clone" in result.stdout


# --- Pyramids and Flags ---------------------------------------------------------------


def test_simulate_flags_summary_fields_and_totals_add_up() -> None:
    """PF-WIN-5 "max_turns ... ends a game no one has won": such games count no win, so wins
    add up to the games less those ended by max_turns (or an empty deck, PF-WIN-6)."""
    s = run_simulate(
        "--game", "flags", "--games", "12", "--players", "3", "--bots", "greedy,random",
        "--seed", "5", "--jobs", "1", "--max-turns", "12", "-q",
    )  # fmt: skip
    for key in (
        "game", "rules_version", "options", "players", "bots", "seed", "games", "seconds",
        "games_per_s", "turns_per_game", "wins_by_seat", "wins_by_bot", "win_rate_by_bot",
        "win_rate_ci95_by_bot", "events", "events_per_game", "wins_by_condition",
        "games_ended_by_max_turns", "games_ended_by_empty_deck",
    ):  # fmt: skip
        assert key in s, key
    assert "mayhem" not in s
    assert s["game"] == "flags"
    assert s["options"] == {"actions": True, "max_turns": 12, "first_player": 0}
    ended = s["games_ended_by_max_turns"] + s["games_ended_by_empty_deck"]
    assert 0 < ended < 12, "some games (not all) should reach 12 turns"
    assert sum(s["wins_by_seat"]) == 12 - ended
    assert sum(s["wins_by_bot"].values()) == 12 - ended
    assert sum(s["wins_by_condition"].values()) == 12 - ended
    assert set(s["wins_by_condition"]) == set(WIN_CONDITIONS)
    assert s["seat_games_by_bot"] == {"greedy": 24, "random": 12}
    assert list(s["events"]) == list(FLAGS_EVENT_KINDS)
    for kind in FLAGS_EVENT_KINDS:
        assert s["events_per_game"][kind] == round(s["events"][kind] / 12, 4)
    assert s["turns_per_game"]["max"] <= 12
    # Every flag scored captures something or nothing; never more than two bank takes.
    assert s["events"]["take_bank"] <= 2 * s["events"]["flag"]
    assert s["events"]["flag"] > 0


def test_simulate_flags_is_independent_of_jobs() -> None:
    """Game i always uses seed S+i and the bots rotated by i, whatever the process count."""
    args = ["--game", "flags", "--games", "8", "--players", "4", "--seed", "3", "-q"]
    one = run_simulate(*args, "--jobs", "1", "--bots", "greedy,random")
    two = run_simulate(*args, "--jobs", "2", "--bots", "greedy,random")
    assert without_timing(one) == without_timing(two)
    assert (one["jobs"], two["jobs"]) == (1, 2)


def test_flags_counts_match_a_replay_of_the_game() -> None:
    """PF-SCORE-1, PF-CAPTURE-1, PF-SWAP-1, PF-TREE-1: the counted events are exactly those of
    the game's record, replayed; a turn is a move or an exchange (PF-WIN-5)."""
    config = SimConfig(game="flags", players=3, bots=("greedy", "random"), seed=7)
    game = FlagsGame(3)
    for index in range(3):
        result = play_one(config, index, game)
        names = seat_bots(config.bots, 3, index)
        final, record = play_game(game, [make_bot(n) for n in names], 7 + index)
        counts = dict.fromkeys(FLAGS_EVENT_KINDS, 0)
        turns = 0
        condition = None
        for _text, state in replay(game, record):
            for event in state.events():
                kind = event.kind
                if kind == "take":
                    counts["take_bank" if event.data["from"] is None else "take_opponent"] += 1
                elif kind == "tree":
                    counts[f"tree_{event.data['colour']}"] += 1
                elif kind == "win":
                    condition = event.data["condition"]
                elif kind in counts:
                    counts[kind] += 1
                turns += kind in ("move", "swap")
        assert result.counts == counts
        assert result.turns == turns == final.turn
        assert result.winner == final.winner
        assert result.condition == condition
        assert result.ending == "win"
        assert result.seats == names


def test_simulate_flags_without_tree_actions() -> None:
    """PF-TREE-1 tree actions are "option `actions`, on by default": --no-actions turns them off."""
    s = run_simulate(
        "--game", "flags", "--games", "6", "--players", "2", "--bots", "random", "--no-actions",
        "--seed", "2", "--jobs", "1", "--max-turns", "200", "-q",
    )  # fmt: skip
    assert s["options"]["actions"] is False
    for colour in "RBGYKW":
        assert s["events"][f"tree_{colour}"] == 0


def test_simulate_refuses_options_of_the_other_game() -> None:
    """Flaming-only options (--preset, --curse, --fire-die) are refused with --game flags, and
    --actions without it; an unknown game or 5 flags players too (exit status 2)."""
    for args in (
        ["--game", "flags", "--preset", "basic"],
        ["--game", "flags", "--curse"],
        ["--game", "flags", "--no-curse"],
        ["--game", "flags", "--fire-die"],
        ["--actions"],
        ["--game", "flaming", "--no-actions"],
        ["--game", "chess"],
        ["--game", "flags", "--players", "5"],
    ):
        result = runner.invoke(app, ["simulate", "-q", "--jobs", "1", "--games", "1", *args])
        assert result.exit_code == 2, (args, result.output)


def test_bench_flags_json_has_the_figures() -> None:
    """`pyramids bench --game flags --json`: the flags figures only (keys ending in _flags)."""
    result = runner.invoke(app, ["bench", "--game", "flags", "--json", "--seconds", "0.05"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    for key in (
        "turns_per_s_random_flags", "turns_per_s_greedy_flags", "games_per_s_random_flags",
        "games_per_s_greedy_flags", "clone_us_flags", "view_us_flags",
    ):  # fmt: skip
        assert isinstance(figures[key], float), key
        assert figures[key] > 0, key
    assert [row["players"] for row in figures["by_config_flags"]] == [2, 3, 4]
    assert figures["bench_games"] == ["flags"]
    assert "turns_per_s_random" not in figures
    assert "clone_us" not in figures


def test_bench_refuses_an_unknown_game() -> None:
    """`pyramids bench --game chess` is refused with exit status 2."""
    result = runner.invoke(app, ["bench", "--game", "chess", "--seconds", "0.05"])
    assert result.exit_code == 2
