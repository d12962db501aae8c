"""`pyramids flags apply|show`, `pyramids play --game flags`, `pyramids replay` of flags records.

Positions are written in the notation of contract section 9 (PF-NOTE). Every refusal
exits with status 2, says why on stderr and prints nothing on stdout. Bot-only games
must be the very games ``core.play_game`` plays with the same seed and bots.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from pyramids.bots import make_bot
from pyramids.cli.io import dumps_compact
from pyramids.cli.terminal import Seats
from pyramids.core import GameRecord, play_game, replay
from pyramids.core.game import Action, View
from pyramids.flags import FlagsGame, FlagsOptions, FlagsState, position_from_json
from pyramids.flags.cards import CODES
from pyramids.flags.pieces import BY_NAME
from pyramids.games import make_game
from pyramids.games.flags.render import render_towers_text
from pyramids.games.flags.terminal import FlagsUI, read_choice
from pyramids.texts import describe
from tests.cli.runner import run

HANDS = [["CZE", "FRA"], ["DEU", "ITA"]]
SINGLES = ["K1", "K2", "K3", "W2", "W3", "Y1", "Y2", "Y3", "B1", "B2", "G1", "G2", "G3", "R1", "R3"]


def czech_position() -> dict[str, Any]:
    """Seat 0 holds CZE (flag B3 R2 W1; O2 P2 C1 X3) and R2 stands on B3: W1>R2 builds it.

    Seat 1 holds O2, so O2 can only be taken from seat 1; the deck is every other card
    in code order (ARG on top).
    """
    used = {c for hand in HANDS for c in hand}
    return {
        "players": 2,
        "towers": [["B3", "R2"], ["W1"], *[[p] for p in SINGLES]],
        "bank": ["O1", "O3", "P1", "P2", "P3", "C1", "C2", "C3", "X1", "X2", "X3"],
        "scoring": [[], ["O2"]],
        "hands": [list(h) for h in HANDS],
        "scored": [[], []],
        "deck": [c for c in CODES if c not in used],
    }


def write(tmp_path: Path, data: Any, name: str = "pos.json") -> str:
    """Write ``data`` as JSON (a string as is) and return the path."""
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def refused(result: Result) -> str:
    """Assert a refusal (exit 2, nothing on stdout) and return the stderr text."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    return result.stderr


def applied(tmp_path: Path, *actions: str, data: Any = None) -> dict[str, Any]:
    """The JSON printed by ``flags apply`` on the Czech position (or ``data``)."""
    result = run("flags", "apply", write(tmp_path, data or czech_position()), *actions)
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def load(path: Path) -> GameRecord:
    """A record file."""
    return GameRecord.from_json(json.loads(path.read_text()))


def final_state(record: GameRecord) -> FlagsState:
    """The state after the last action of ``record``."""
    # the Python reference replays the record, whichever engine the command played on
    game = make_game(record.game, record.players, record.options, engine="python")
    state = game.new_initial_state(record.seed)
    for _, after in replay(game, record):
        state = after
    assert isinstance(state, FlagsState)
    return state


# --- apply ------------------------------------------------------------------------------


def test_apply_building_a_flag_stops_at_the_capture_decision(tmp_path: Path) -> None:
    """PF-FLAG-1, PF-CAPTURE-1: "A card's flag is built when some tower holds exactly its
    pieces in order"; the card goes face up, then its holder decides the capture."""
    data = applied(tmp_path, "W1>R2")
    assert ["B3", "R2", "W1"] in data["towers"]
    assert ["W1"] not in data["towers"]
    assert data["scored"] == [["CZE"], []]
    assert data["hands"] == [["FRA"], ["DEU", "ITA"]]
    assert data["pending"] == {"player": 0, "kind": "capture", "card": "CZE", "taken": []}
    assert data["last_moved"] == ["W1"]
    assert data["events"] == [
        "seat 0 moves W1 onto R2",
        "B3 R2 W1 stands on the table: the flag of CZE (Czech Republic); seat 0 lays it face "
        "up and may capture O2 P2 C1 X3",
    ]


def test_apply_two_bank_takes_end_the_capture_and_draw(tmp_path: Path) -> None:
    """PF-CAPTURE-4, PF-CAPTURE-5: "The capture ends by itself after two bank takes";
    "Then the holder draws"; the turn passes."""
    data = applied(tmp_path, "W1>R2", "take:P2", "take:X3")
    assert "pending" not in data
    assert data["scoring"] == [["P2", "X3"], ["O2"]]
    assert data["hands"][0] == ["FRA", "ARG"]
    assert data["deck"][0] == "AUT"
    assert (data["to_move"], data["turn"]) == (1, 2)
    assert data["events"][-3:] == [
        "seat 0 captures P2 from the bank",
        "seat 0 captures X3 from the bank",
        "seat 0 draws ARG after a flag",
    ]


def test_apply_one_take_from_an_opponent_ends_the_capture(tmp_path: Path) -> None:
    """PF-CAPTURE-1, PF-CAPTURE-4: "or exactly one of them from an opponent who holds it"."""
    data = applied(tmp_path, "W1>R2", "take:O2@1")
    assert data["scoring"] == [["O2"], []]
    assert "O2 from seat 1" in data["events"][2]
    assert "pending" not in data


def test_apply_done_ends_the_capture_in_french(tmp_path: Path) -> None:
    """PF-CAPTURE-3: "`done` ends the capture"; --lang fr gives the French texts."""
    result = run(
        "flags", "apply", write(tmp_path, czech_position()), "W1>R2", "done", "--lang", "fr"
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["scoring"] == [[], ["O2"]]
    assert data["events"][0] == "le joueur 0 déplace W1 sur R2"
    assert "le joueur 0 termine la capture pour CZE" in data["events"]


def test_apply_output_feeds_back_into_apply(tmp_path: Path) -> None:
    """PF-NOTE-2: the printed position (with its `events`) is itself a position, so apply
    calls can be chained."""
    first = run("flags", "apply", write(tmp_path, czech_position()), "W1>R2")
    second = run("flags", "apply", "-", "take:P2", "done", stdin=first.stdout)
    assert second.exit_code == 0, second.output
    data = json.loads(second.stdout)
    assert data["scoring"][0] == ["P2"]
    assert data["events"][0] == "seat 0 captures P2 from the bank"


def test_apply_with_no_action_prints_the_position_normalized(tmp_path: Path) -> None:
    """PF-NOTE-4 ("one canonical form"): no action prints the position normalized."""
    literal = json.dumps(czech_position())
    result = run("flags", "apply", literal)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["rules"] == {"actions": True, "max_turns": 3000}
    assert (data["to_move"], data["turn"], data["last_moved"], data["events"]) == (0, 1, [], [])


def test_apply_refuses_a_piece_on_a_smaller_one(tmp_path: Path) -> None:
    """PF-NOTE-3, PF-MOVE-3: "A position is refused ... when a piece is on a smaller one"."""
    data = czech_position()
    data["towers"] = [["B3", "R2"], ["W1", "K2"], *[[p] for p in SINGLES if p != "K2"]]
    err = refused(run("flags", "apply", write(tmp_path, data)))
    assert "bad position: K2 sits on W1, a smaller piece" in err


def test_apply_refuses_an_unknown_card(tmp_path: Path) -> None:
    """PF-NOTE-3: "A position is refused ... when ... a card is unknown"."""
    data = czech_position()
    data["hands"][0] = ["CZE", "ZZZ"]
    assert "'ZZZ' is not a card of the deck" in refused(
        run("flags", "apply", write(tmp_path, data))
    )


def test_apply_refuses_an_illegal_move_with_the_engine_reason(tmp_path: Path) -> None:
    """PF-MOVE-3: "The lowest moved piece may not be larger than the piece it lands on"."""
    err = refused(
        run("flags", "apply", write(tmp_path, czech_position()), "W1>R2", "done", "B3>W2")
    )
    assert err.startswith("error: action 3 (B3>W2): ")
    assert "B3 is larger than W2" in err


def test_apply_refuses_mixed_takes_and_moves_during_a_capture(tmp_path: Path) -> None:
    """PF-CAPTURE-3: "Bank and opponent takes are not mixed"; a capture is answered by
    take or done, not by a move."""
    path = write(tmp_path, czech_position())
    err = refused(run("flags", "apply", path, "W1>R2", "take:P2", "take:O2@1"))
    assert "action 3 (take:O2@1)" in err
    assert "not mixed" in err
    err = refused(run("flags", "apply", path, "W1>R2", "K1>K2"))
    assert "action 2 (K1>K2): seat 0 is capturing for CZE" in err


def test_apply_refuses_an_unparseable_action(tmp_path: Path) -> None:
    """PF-NOTE-1: "Unreadable text is an ActionParseError", named with its index."""
    err = refused(run("flags", "apply", write(tmp_path, czech_position()), "W1>R2", "hello"))
    assert "action 2 (hello): cannot read action 'hello'" in err


def test_apply_refuses_bad_json_and_missing_files(tmp_path: Path) -> None:
    """Bad JSON names the line and column; a missing file is named."""
    err = refused(run("flags", "apply", "-", stdin='{"players": 2,\n "towers": [}'))
    assert "invalid JSON in standard input" in err
    assert "line 2" in err
    assert "no such file" in refused(run("flags", "apply", str(tmp_path / "none.json")))
    assert "not an object" in refused(run("flags", "apply", write(tmp_path, "[1, 2]")))


def test_compact_json_round_trips() -> None:
    """The compact layout of flags positions is still JSON, equal to the data."""
    state = position_from_json(czech_position())
    for width in (20, 60, 100):
        assert json.loads(dumps_compact(state.to_json(), width)) == state.to_json()
    odd = {"a": [[], [1, [2, {"b": "é"}]], "x" * 150], "c": {"d": [None, True, 2.5]}}
    assert json.loads(dumps_compact(odd, 30)) == odd


# --- show -------------------------------------------------------------------------------


def test_towers_are_drawn_bottom_up_with_sizes_visible() -> None:
    """PF-PIECE-1: pieces are "named colour letter + size"; towers are drawn bottom up."""
    text = render_towers_text([[BY_NAME["B3"], BY_NAME["R2"], BY_NAME["W1"]], [BY_NAME["K1"]]])
    assert text.splitlines() == ["  W1", " [R2]", "[ B3 ]   K1", "────── ──────"]


def test_show_without_colour_draws_codes_bank_seats_and_pending(tmp_path: Path) -> None:
    """PF-NOTE-2: everything of the position is drawn, and reads the same without colour."""
    first = run("flags", "apply", write(tmp_path, czech_position()), "W1>R2", "take:P2")
    result = run("flags", "show", "-", "--no-color", stdin=first.stdout)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "\x1b[" not in out
    for code in ("[ B3 ]", "[R2]", "W1", "[ K3 ]", "[K2]", "K1"):
        assert code in out
    assert "Bank: O1 O3 P1 P3 C1 C2 C3 X1 X2 X3" in out
    assert "seat 0  hand 1  flags 1  points 1" in out
    assert "pyramids P2  flags CZE" in out
    assert "pyramids O2" in out
    assert "Deck: 32 cards" in out
    assert "Last moved: W1" in out
    assert "seat 0 captures for CZE (Czech Republic): up to two of O2 P2 C1 X3" in out
    assert "already taken: P2" in out
    assert "Events:" in out
    assert "seat 0 captures P2 from the bank" in out


def test_show_seat_lists_each_card_with_country_flag_and_facts(tmp_path: Path) -> None:
    """PF-CARD-3: "Each card shows four scoring pieces rating its facts"."""
    result = run("flags", "show", write(tmp_path, czech_position()), "--seat", "0", "--no-color")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Hand of seat 0:" in out
    assert "CZE Czech Republic (EU): flag B3 R2 W1" in out
    assert "FRA France (EU): flag B3 W2 R1" in out
    assert "O2 highest point" in out
    assert "P2 population" in out
    assert "C1 average temperature" in out
    assert "X3 GDP per head $" in out
    assert "DEU" not in out  # seat 1's hand stays hidden
    bad = refused(run("flags", "show", write(tmp_path, czech_position()), "--seat", "2"))
    assert "--seat 2: the position has seats 0 to 1" in bad


def test_show_with_colour_keeps_the_codes(tmp_path: Path) -> None:
    """With colour forced on, pieces are coloured and still written as codes."""
    result = run("flags", "show", write(tmp_path, czech_position()), "--color", "--lang", "fr")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "\x1b[" in out
    for code in ("B3", "R2", "W1", "K1"):
        assert code in out
    assert "Banque :" in out
    assert "Pioche : 32 cartes" in out


def test_show_names_the_winner_and_how(tmp_path: Path) -> None:
    """PF-WIN-3: "... or on 8 points"; the drawing says who won and how."""
    data = czech_position()
    data["bank"] = ["C1", "C2", "C3", "X1", "X2", "X3"]
    data["scoring"] = [["O1", "O2", "O3", "P1", "P2", "P3"], []]
    data["winner"] = 0
    result = run("flags", "show", write(tmp_path, data), "--no-color")
    assert result.exit_code == 0, result.output
    assert "seat 0 wins with 14 points!" in result.stdout


def test_show_ranks_a_game_without_winner(tmp_path: Path) -> None:
    """PF-WIN-5: "seats are ranked by points, then flags, ties sharing"."""
    data = czech_position()
    data["scoring"] = [[], ["O2", "O3"]]
    data["bank"].remove("O3")
    data["ranking"] = [2, 1]
    result = run("flags", "show", write(tmp_path, data), "--no-color")
    assert result.exit_code == 0, result.output
    assert "Game over (turn limit reached). Ranking by points, then flags:" in result.stdout
    assert "  1. seat 1 (2 points, 0 flags)\n  2. seat 0 (0 points, 0 flags)" in result.stdout


# --- play -------------------------------------------------------------------------------


def test_bot_game_is_core_play_game_with_the_same_seed(tmp_path: Path) -> None:
    """PF-SETUP-2: "The cards ... are shuffled with random.Random(seed)"; same seed, same
    bots, same game as play_game, and its record replays to the same final position."""
    path = tmp_path / "g.json"
    result = run(
        "play", "--game", "flags", "--seats", "random,random,random", "--seed", "5",
        "--max-turns", "90", "--delay", "0", "--record", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Pyramids and Flags, 3 players, tree actions on, at most 90 turns" in result.stdout
    assert f"Record saved to {path}" in result.stdout
    assert "wins with" in result.stdout or "Game over" in result.stdout
    record = load(path)
    game = FlagsGame(3, FlagsOptions(max_turns=90))
    expected_state, expected = play_game(game, [make_bot("random")] * 3, 5)
    assert record.game == "flags"
    assert record.actions == expected.actions
    assert record.options == expected.options
    assert record.seats == ["random", "random", "random"]
    assert final_state(record) == expected_state
    replayed = run("replay", str(path), "--json")
    assert json.loads(replayed.stdout) == expected_state.to_json()


def test_bot_game_without_tree_actions(tmp_path: Path) -> None:
    """PF-TREE-1 (option `actions`, P's advanced rules): --no-actions and --first-player
    (PF-SETUP-3) are recorded and played as such."""
    path = tmp_path / "n.json"
    result = run(
        "play", "--game", "flags", "--seats", "random,random", "--no-actions", "--seed", "2",
        "--max-turns", "30", "--first-player", "1", "--delay", "0", "--record", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    record = load(path)
    assert record.options == {"actions": False, "max_turns": 30, "first_player": 1}
    game = FlagsGame(2, FlagsOptions(actions=False, max_turns=30, first_player=1))
    _expected_state, expected = play_game(game, [make_bot("random")] * 2, 2)
    assert record.actions == expected.actions
    assert "earns the" not in result.stdout


class FlamingOnlyBot:
    """A bot that declares it plays only Flaming Pyramids."""

    name = "flaming-only"
    games = ("flaming",)

    def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """Refuse every Pyramids and Flags view."""
        raise TypeError("this bot plays Flaming Pyramids views")


def test_a_bot_that_does_not_play_flags_is_replaced_by_random(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot that does not play the game gives its seat to the random bot, with a note."""
    from pyramids import bots
    from pyramids.cli import terminal

    monkeypatch.setitem(bots.BOTS, "flamingonly", FlamingOnlyBot)
    monkeypatch.setattr(terminal, "PLAYER_BOTS", (*terminal.PLAYER_BOTS, "flamingonly"))
    path = tmp_path / "b.json"
    result = run(
        "play", "--game", "flags", "--seats", "flamingonly,random", "--seed", "1",
        "--max-turns", "4", "--delay", "0", "--record", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "the flamingonly bot does not play Pyramids and Flags yet" in result.stdout
    assert load(path).seats == ["random", "random"]


def test_human_wrong_inputs_then_numbers_play_to_the_end(tmp_path: Path) -> None:
    """PF-MOVE-1, PF-NOTE-1: anything that is not a legal action is refused with the reason
    and asked again; numbers pick from the list of legal actions."""
    path = tmp_path / "h.json"
    answers = ["hello", "999", "W3>W1", "K1>table", "swap:ZZZ", "take:O2", "?", ""] + ["1"] * 60
    result = run(
        "play", "--game", "flags", "--seats", "human,random", "--seed", "1", "--max-turns", "8",
        "--delay", "0", "--record", str(path), stdin="\n".join(answers) + "\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Cannot read 'hello'" in out
    assert "There is no option 999: choose 1 to 202." in out
    assert "Not allowed: W3 is larger than W1: a piece may not be put on a smaller one." in out
    assert "Not allowed: K1 is the bottom of its tower" in out
    assert "'ZZZ' is not a card of the deck" in out
    assert "Not allowed: move pyramids (LOWEST>TARGET) or exchange a card" in out
    assert "Type the number of an option, or an action: LOWEST>TARGET" in out
    assert "Your hand (seat 0):" in out
    assert "TTO Trinidad and Tobago (Caribbean): flag R3 K2 W1" in out
    assert " 1) K1>K2" in out
    assert "seat 0 moves K1 onto K2" in out
    assert "Game over (turn limit reached)" in out or "wins with" in out
    record = load(path)
    assert record.seats == ["human", "random"]
    assert record.actions[0] == "K1>K2"
    assert final_state(record).is_terminal()


def test_human_sees_only_their_own_cards_in_events() -> None:
    """PF-VIEW-4: "Views and records show other players' hidden cards as `?`"."""
    state = position_from_json(czech_position())
    state.apply(state.parse_action("swap:FRA"))
    ui = FlagsUI()
    opponent = Seats(["random", "human"])
    texts = [describe(e, "en") for e in ui.events(state, opponent)]
    assert texts == [
        "seat 0 exchanges ?: it goes under the deck",
        "seat 0 draws ? for the exchanged card",
    ]
    mover = [describe(e, "en") for e in ui.events(state, Seats(["human", "random"]))]
    assert mover[1] == "seat 0 draws ARG for the exchanged card"


def test_human_capture_choice_is_read_and_explained() -> None:
    """PF-CAPTURE-1: "The decision is the holder's": take:PIECE, take:PIECE@SEAT or done."""
    state = position_from_json(czech_position())
    state.apply(state.parse_action("W1>R2"))
    legal = state.legal_actions()
    labels = [state.action_to_string(a) for a in legal]
    assert labels == ["done", "take:O2@1", "take:P2", "take:C1", "take:X3"]
    assert read_choice(state, "take:P2", legal, "en") == (state.parse_action("take:P2"), "")
    assert read_choice(state, "2", legal, "en")[0] == state.parse_action("take:O2@1")
    action, why = read_choice(state, "K1>K2", legal, "en")
    assert action is None
    assert why == (
        "Not allowed: you are capturing for CZE: done, take:O2@1, take:P2, take:C1 or take:X3."
    )
    _, why = read_choice(state, "take:O1", legal, "en")
    assert "O1 is not shown on CZE" in why
    _, french = read_choice(state, "K1>K2", legal, "fr")
    assert french.startswith("Interdit : vous capturez pour CZE : done, take:O2@1")


def test_play_flags_in_french(tmp_path: Path) -> None:
    """Everything play says is in French with --lang fr, engine events included."""
    result = run(
        "play", "--game", "flags", "--seats", "human,random", "--seed", "1", "--max-turns", "4",
        "--delay", "0", "--lang", "fr", "--record", str(tmp_path / "fr.json"),
        stdin="bonjour\nW3>W1\n1\n1\n1\n1\n1\n1\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Pyramides et drapeaux, 2 joueurs" in out
    assert "Graine : 1" in out
    assert "Impossible de lire 'bonjour'" in out
    assert "Interdit : W3 est plus grande que W1" in out
    assert "Votre main (joueur 0) :" in out
    assert "point culminant" in out
    assert "le joueur 0 déplace K1 sur K2" in out
    assert "Partie enregistrée dans" in out


def test_human_quits_and_the_record_replays(tmp_path: Path) -> None:
    """`q` saves the record so far; it replays."""
    path = tmp_path / "q.json"
    result = run(
        "play", "--game", "flags", "--seats", "human,random,random", "--seed", "3", "--delay",
        "0", "--record", str(path), stdin="B1>B2\nq\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"Record so far saved to {path}" in result.stdout
    record = load(path)
    assert record.actions[0] == "B1>B2"
    assert record.players == 3
    final_state(record)


def test_play_refuses_options_of_the_other_game(tmp_path: Path) -> None:
    """PF-SETUP-4 ("2 to 4 players"); flaming-only options are refused for flags and
    flags-only options for flaming."""
    for option in (["--preset", "basic"], ["--no-curse"], ["--fire-die"], ["--hands", "2"]):
        err = refused(run("play", "--game", "flags", "--seats", "random,random", *option))
        assert "is an option of Flaming Pyramids, not of Pyramids and Flags" in err
    err = refused(run("play", "--seats", "random,random", "--no-actions"))
    assert "--actions/--no-actions is an option of Pyramids and Flags" in err
    err = refused(run("play", "--game", "flags", "--seats", "random,random,random,random,random"))
    assert "Pyramids and Flags is for 2 to 4 players, not 5" in err
    err = refused(run("play", "--game", "flags", "--seats", "random,random", "--first-player", "2"))
    assert "first_player 2" in err


# --- replay -----------------------------------------------------------------------------


def test_replay_of_a_flags_record_draws_towers_and_events(tmp_path: Path) -> None:
    """A flags record replays action by action, drawn with the flags renderer."""
    game = FlagsGame(2, FlagsOptions(max_turns=12))
    state, record = play_game(game, [make_bot("random"), make_bot("random")], 7)
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(record.to_json()))
    result = run("replay", str(path), "--auto")
    assert result.exit_code == 0, result.output
    out = result.stdout
    count = len(record.actions)
    assert f"Replay: flags, 2 players, seed 7, {count} actions" in out
    for i, text in enumerate(record.actions, start=1):
        assert f"Action {i}/{count}" in out
        assert text in out
    assert "Bank:" in out
    assert "[ K3 ]" in out
    assert "End of the record." in out
    states = [s.to_json() for _, s in replay(game, record)]
    middle = run("replay", str(path), "--to", "3", "--json")
    assert json.loads(middle.stdout) == states[2]
    assert json.loads(run("replay", str(path), "--json").stdout) == state.to_json()
    french = run("replay", str(path), "--to", "2", "--lang", "fr")
    assert "Banque :" in french.stdout
