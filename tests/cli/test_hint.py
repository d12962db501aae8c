"""`pyramids hint POSITION`: the ISMCTS estimate of each legal action, for the seat to decide.

Positions are written in the notations of the contracts (FP-NOTE, PF-NOTE). The hint
searches the deciding seat's view only (FP-VIEW). Every refusal exits with status 2,
says why on stderr and prints nothing on stdout.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from typer.testing import Result

from pyramids.bots import make_bot
from pyramids.core import CHANCE, play_game
from pyramids.flags.cards import CODES
from pyramids.flaming import FlamingGame, FlamingOptions
from tests.cli.runner import run

# Seat 0 holds G6 and Y2 over R100 B120 Y30; seat 1 holds B4 with B6 on its pile.
COLLAPSE = {
    "players": 2,
    "pyramid": ["R100@0,0", "B120@0,2", "Y30@0,4"],
    "hands": [["G6", "Y2"], ["B4"]],
    "piles": [[], ["B6"]],
}


def czech_position() -> dict[str, Any]:
    """Seat 0 holds CZE (flag B3 R2 W1) and R2 stands on B3: W1>R2 builds it (PF-FLAG)."""
    hands = [["CZE", "FRA"], ["DEU", "ITA"]]
    singles = ["K1", "K2", "K3", "W2", "W3", "Y1", "Y2", "Y3", "B1", "B2", "G1", "G2", "G3"]
    used = {c for hand in hands for c in hand}
    return {
        "players": 2,
        "towers": [["B3", "R2"], ["W1"], *[[p] for p in [*singles, "R1", "R3"]]],
        "bank": ["O1", "O3", "P1", "P2", "P3", "C1", "C2", "C3", "X1", "X2", "X3"],
        "scoring": [[], ["O2"]],
        "hands": hands,
        "scored": [[], []],
        "deck": [c for c in CODES if c not in used],
    }


def refused(result: Result) -> str:
    """Assert a refusal (exit 2, nothing on stdout) and return the stderr text."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    return result.stderr


def test_hint_prints_each_legal_placement_with_share_and_win_chance(tmp_path: Path) -> None:
    """FP-PLACE-4: "the legal placements are all (hand tile, spot) pairs": one line each,
    most visited first, with its share of the visits and its estimated win chance."""
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(COLLAPSE))
    result = run("hint", str(path), "--iterations", "120")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith(
        "Seat 0 to decide (turn 1); 120 iterations, greedy rollouts"
    )  # normal's
    assert lines[1].split() == ["action", "visits", "share", "win"]
    rows = [line.split() for line in lines[2:]]
    assert {row[0] for row in rows} == {"G6@1,1", "G6@1,3", "Y2@1,1", "Y2@1,3"}
    assert sum(int(row[1]) for row in rows) == 120
    visits = [int(row[1]) for row in rows]
    assert visits == sorted(visits, reverse=True)
    assert all(row[2].endswith("%") and row[3].endswith("%") for row in rows)


def test_hint_json_is_a_list_and_top_limits_it() -> None:
    """--json prints a list of {action, visits, share, win}; --top K keeps the K first."""
    result = run("hint", json.dumps(COLLAPSE), "-i", "80", "--json", "--top", "2", "--seed", "3")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data) == 2
    assert set(data[0]) == {"action", "visits", "share", "win"}
    assert data[0]["visits"] >= data[1]["visits"]
    assert all(0 <= item["win"] <= 1 for item in data)
    again = run("hint", json.dumps(COLLAPSE), "-i", "80", "--json", "--top", "2", "--seed", "3")
    assert again.stdout == result.stdout  # seeded: reproducible


def test_hint_reads_standard_input_and_a_pending_fall() -> None:
    """FP-COLLAPSE-1: after G6@1,1 collapses, seat 0 "chooses left or right": the hint
    covers exactly those two actions."""
    fall = dict(COLLAPSE)
    fall["pyramid"] = ["Y30@0,4", "G6@1,1"]
    fall["hands"] = [["Y2"], ["B4"]]
    fall["piles"] = [["R100", "B120"], ["B6"]]
    fall["pending"] = {"player": 0, "kind": "fall", "tile": "G6@1,1"}
    result = run("hint", "-", "-i", "40", "--json", stdin=json.dumps(fall))
    assert result.exit_code == 0, result.output
    assert {item["action"] for item in json.loads(result.stdout)} == {"left", "right"}


def test_hint_for_flags_positions_in_french() -> None:
    """PF-MOVE / PF-SWAP: moves and exchanges are all listed; --lang fr speaks French."""
    result = run(
        "hint", json.dumps(czech_position()), "--game", "flags", "-i", "60", "--top", "3",
        "--lang", "fr", "--rollout", "greedy",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Au joueur 0 de décider")
    assert "gloutonnes" in lines[0]
    assert lines[1].split() == ["action", "visites", "part", "victoire"]
    assert len(lines) == 2 + 3 + 1
    assert lines[-1].startswith("... ")


def test_hint_with_a_time_budget() -> None:
    """--seconds gives the search a time budget instead of iterations."""
    result = run("hint", json.dumps(COLLAPSE), "--seconds", "0.05", "--json")
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)) == 4


def test_hint_refuses_a_chance_point() -> None:
    """FP-DIE-1: "a six-sided die roll is pending for P, a chance event": nothing to hint."""
    game = FlamingGame(2, FlamingOptions(preset="family", fire_die=True))
    state = game.new_initial_state(0)
    rng = random.Random(0)
    greedy = make_bot("greedy")
    while state.current_player() != CHANCE:
        player = state.current_player()
        state.apply(greedy.act(state.view(player), state.legal_actions(), rng))
    assert "chance point" in refused(run("hint", json.dumps(state.to_json())))


def test_hint_refuses_an_ended_game() -> None:
    """FP-END-2: "they win and the game ends": an ended game has no decision left."""
    game = FlamingGame(2, FlamingOptions(preset="basic"))
    final, _ = play_game(game, [make_bot("greedy"), make_bot("random")], 0)
    assert "the game is over" in refused(run("hint", json.dumps(final.to_json())))


def test_hint_refuses_bad_options_and_positions(tmp_path: Path) -> None:
    """A seat that is not to decide, a bad budget, rollout, game or file is refused."""
    position = json.dumps(COLLAPSE)
    assert "seat 0 is the one to decide" in refused(run("hint", position, "--seat", "1"))
    assert "--iterations 0" in refused(run("hint", position, "--iterations", "0"))
    assert "--seconds" in refused(run("hint", position, "--seconds", "0"))
    assert "--rollout" in refused(run("hint", position, "--rollout", "smart"))
    assert "--top 0" in refused(run("hint", position, "--top", "0"))
    assert "--game chess" in refused(run("hint", position, "--game", "chess"))
    assert "no such file" in refused(run("hint", str(tmp_path / "missing.json")))
    assert "bad position" in refused(run("hint", position, "--game", "flags"))


def test_hint_at_a_call_out_check_gives_the_careful_answer() -> None:
    """FP-CALL-3: the bot answers a check without searching; the hint says that answer:
    the right call over standing mayhem (B100 does not fit on G20 and R6), else ok."""
    check = {
        "rules": {"preset": "standard", "callout": "family"},
        "players": 2,
        "pyramid": ["G20@0,0", "R6@0,2", "Y30@0,4", "B100@1,1"],
        "hands": [["R40", "G4"], ["Y6", "B4"]],
        "piles": [["Y4", "R2"], ["G2", "B2"]],
        "pending": {"player": 1, "kind": "check"},
    }
    result = run("hint", json.dumps(check))
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == (
        "Seat 1 to decide (turn 1): a check, which the bot answers without searching: call:1,1"
    )
    clean = {**check, "pyramid": ["G20@0,0", "R6@0,2", "Y30@0,4", "G6@1,1"]}
    result = run("hint", json.dumps(clean), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == [{"action": "ok", "reflex": True}]
