"""Learning the games at the terminal (issue 14, item 10).

The legend of materials, the warning before a placement that collapses or burns (the
engine's answers: ``placement_hints`` and a trial placement on a clone; never in call-out
mode), Pyramids and Flags moves summed up and filtered (``K1``, ``>K2``, ``?`` for all),
hot-seat privacy (the screen and its scrollback wiped, then "pass the keyboard to …, press
Enter"), replay stepping back and showing every hand of a finished game, words without
rule IDs, events wrapped at word boundaries, output paths checked before any work (exit 2,
no traceback) and ``./run help``.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import pytest
from rich.console import Console

from pyramids.bots import make_bot
from pyramids.cli.hands import play_hand
from pyramids.cli.terminal import HUMAN, PlayerLeftError, Seats, Terminal, for_players
from pyramids.core import play_game
from pyramids.flags import FlagsGame, FlagsOptions, FlagsState
from pyramids.flaming import FlamingGame, FlamingOptions, FlamingState
from pyramids.games.flags.terminal import UI as FLAGS_UI
from pyramids.games.flags.terminal import filter_options, options_overview, read_choice
from pyramids.games.flaming.render import render_materials
from pyramids.games.flaming.terminal import ask_human, placement_warnings, warned_labels
from tests.cli.runner import run
from tests.flaming.helpers import position

ROOT = Path(__file__).resolve().parents[2]


def terminal(
    lines: list[str], *, width: int = 100, real: bool = False, confirm: bool | None = None
) -> tuple[Terminal, io.StringIO]:
    """A terminal reading ``lines``; ``real``: it behaves as a terminal (clears, wraps)."""
    out = io.StringIO()
    console = Console(
        file=out, width=width, highlight=False, color_system=None, force_terminal=real
    )
    stdin = io.StringIO("".join(f"{x}\n" for x in lines))
    return Terminal(console, stdin, confirm=confirm), out


# --- Flaming Pyramids: the legend and the warning before a placement -----------------------


def risky_position(rules: dict[str, str] | None = None) -> FlamingState:
    """Seat 0 holds B100, R2 and Y4; the base is G20@0,0, R10@0,2 and the coal Y1@0,4.

    B100 on 1,1 is too heavy (100 > 20 + 10): it collapses. Y4 fits on 1,3 (4 <= 11, yellow
    like Y1) but is straw touching a coal: it burns. R2 on 1,1 fits and touches no ember.
    """
    return position(
        hands=[["B100", "R2", "Y4"], ["G6", "B4"]],
        pyramid=["G20@0,0", "R10@0,2", "Y1@0,4"],
        piles=[["Y2", "G2"], ["R4", "B2"]],
        rules=rules or {"preset": "standard"},
    )


def test_legend_says_each_material_and_what_each_ember_ignites() -> None:
    """FP-TILE-2..6: straw 2-6, wood 10-40, stone 60 and up; coals ignite straw,
    blowtorches straw and wood; read from the engine's tile tables."""
    text = render_materials("en").plain
    assert "straw 2 4 6, wood 10 20 30 40, stone 60 100 120 200 (never burns)" in text
    assert "Y1 G1 ignite straw; R7 B7 ignite straw and wood" in text
    french = render_materials("fr").plain
    assert "paille 2 4 6" in french and "R7 B7 enflamment la paille et le bois" in french


def test_placements_that_collapse_or_burn_are_marked_in_the_options() -> None:
    """FP-FIT-1 (the browser's fit hints) and a trial placement's events: B100@1,1
    collapses, Y4@1,3 burns, R2@1,1 is marked with nothing."""
    state = risky_position()
    legal = state.legal_actions()
    warnings = placement_warnings(state, legal, "en")
    labels = dict(
        zip(
            (state.action_to_string(a) for a in legal),
            warned_labels([state.action_to_string(a) for a in legal], legal, warnings),
            strict=True,
        )
    )
    assert labels["B100@1,1"].startswith("B100@1,1 (!) collapses")
    assert labels["Y4@1,3"] == "Y4@1,3 (!) burns"
    assert labels["R2@1,1"] == "R2@1,1"
    term, out = terminal(["R2@1,1"])
    seats = Seats([HUMAN, "greedy"], [None, make_bot("greedy")])
    assert state.action_to_string(ask_human(term, state, 0, seats)) == "R2@1,1"
    shown = out.getvalue()
    assert "Materials: straw" in shown
    assert "(!) marks a placement that sets off mayhem" in shown


def test_at_a_terminal_a_warned_placement_is_said_in_full_and_confirmed() -> None:
    """The warning names what happens, in the words of the events; n chooses again."""
    state = risky_position()
    seats = Seats([HUMAN, "greedy"], [None, make_bot("greedy")])
    term, out = terminal(["Y4@1,3", "n", "B100@1,1", ""], confirm=True)
    action = ask_human(term, state, 0, seats)
    assert state.action_to_string(action) == "B100@1,1"
    shown = out.getvalue()
    assert "Careful, Y4 at 1,3 sets off mayhem:" in shown
    assert "Y1 at 0,4 sets fire to straw: Y4 burns" in shown
    assert "Choose again." in shown
    assert "B100 at 1,1 is too heavy (100 > 20 + 10)" in shown
    assert shown.count("Place it anyway?") == 2


def test_piped_input_is_never_asked_to_confirm() -> None:
    """Piped lines are actions, never answers to a confirmation (tests and scripts)."""
    state = risky_position()
    seats = Seats([HUMAN, "greedy"], [None, make_bot("greedy")])
    term, out = terminal(["B100@1,1"])
    assert state.action_to_string(ask_human(term, state, 0, seats)) == "B100@1,1"
    assert "Place it anyway?" not in out.getvalue()


def test_call_out_mode_shows_no_warning() -> None:
    """FP-CALL: spotting mayhem is the game, so nothing warns of it."""
    state = risky_position({"preset": "standard", "callout": "competitive"})
    assert placement_warnings(state, state.legal_actions(), "en") == {}
    seats = Seats([HUMAN, "greedy"], [None, make_bot("greedy")])
    term, out = terminal(["B100@1,1"], confirm=True)
    assert state.action_to_string(ask_human(term, state, 0, seats)) == "B100@1,1"
    assert "(!)" not in out.getvalue() and "Careful" not in out.getvalue()


# --- Pyramids and Flags: moves summed up and filtered --------------------------------------


def flags_start() -> FlagsState:
    """The first decision of a 2-player game from seed 1 (198 moves, 4 exchanges)."""
    state = FlagsGame(2, FlagsOptions()).new_initial_state(1)
    assert isinstance(state, FlagsState)
    return state


def test_flags_prompt_sums_up_the_moves_instead_of_listing_two_hundred() -> None:
    """The board and the cards stay on screen: the pieces that can move, the exchanges."""
    state = flags_start()
    legal = state.legal_actions()
    text = options_overview(state, legal, "en", 80).plain
    assert len(legal) == 202
    assert "198 moves (LOWEST>TARGET) and 202 in all" in text
    assert "Pieces that can move: K1 K2 K3 W1" in text
    assert "199) swap:" in text
    assert "K1>K2" not in text
    assert len(text.splitlines()) <= 6


def test_flags_filter_by_piece_or_target_keeps_the_numbers() -> None:
    """``K1``: its moves and the moves onto it; ``>K2``: onto K2 only; ``R3>``: R3's only;
    the numbers are those of the whole list, so typing one picks that move."""
    state = flags_start()
    legal = state.legal_actions()
    k1 = filter_options(state, legal, "k1", "en", 80)
    assert k1 is not None
    assert "K1 moves (with what is on it):" in k1.plain and "1) K1>K2" in k1.plain
    assert "Onto K1:" in k1.plain and "34) W1>K1" in k1.plain
    onto = filter_options(state, legal, ">K2", "en", 80)
    assert onto is not None and "K1 moves" not in onto.plain and "35) W1>K2" in onto.plain
    mine = filter_options(state, legal, "R3>", "en", 80)
    assert mine is not None and "Onto" not in mine.plain and "194) R3>K3" in mine.plain
    table = filter_options(state, legal, ">table", "en", 80)
    assert table is not None and "No move onto table now" in table.plain
    assert filter_options(state, legal, "swap:BEL", "en", 80) is None
    assert read_choice(state, "34", legal, "en")[0] == state.parse_action("W1>K1")


def test_flags_play_filters_and_question_mark_lists_everything(tmp_path: Path) -> None:
    """At the prompt a piece filters, ``?`` lists every option grouped by piece."""
    answers = ["W1", "?", "34", "q"]
    result = run(
        "play", "--game", "flags", "--seats", "human,random", "--seed", "1", "--delay", "0",
        "--record", str(tmp_path / "f.json"), stdin="\n".join(answers) + "\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    first = out[: out.index("quit): W1")]
    assert "Pieces that can move:" in first and " 1) K1>K2" not in first
    assert "W1 moves (with what is on it):" in out
    assert " 1) K1>K2" in out and "202) swap:" in out
    assert "seat 0 moves W1 onto K1" in out


# --- hot seat ------------------------------------------------------------------------------


def test_flags_hot_seat_wipes_the_screen_then_asks_to_pass_the_keyboard() -> None:
    """Two humans at one terminal: once seat 0 has moved, the screen and its scrollback are
    wiped; then "Pass the keyboard to seat 1 (human), then press Enter"; seat 1's cards
    appear only after Enter, and seat 0's never again."""
    term, out = terminal(["1", "", "q"], real=True)
    game = FlagsGame(2, FlagsOptions())
    result = play_hand(term, game, 1, Seats([HUMAN, HUMAN], [None, None]), FLAGS_UI)
    assert isinstance(result.quit, PlayerLeftError)
    assert result.record.actions == ["K1>K2"]
    shown = out.getvalue()
    moved = shown.index("seat 0 moves K1 onto K2")
    assert shown.index("Your hand (seat 0):") < moved
    wiped = shown.rindex("\x1b[2J", 0, moved)
    assert wiped < shown.index("\x1b[3J", wiped) < moved
    after = shown[wiped:]
    handed = after.index("Pass the keyboard to seat 1 (human), then press Enter:")
    assert handed < after.index("Your hand (seat 1):")
    assert "Your hand (seat 0):" not in after


# --- replay --------------------------------------------------------------------------------


def finished_record(tmp_path: Path) -> tuple[Path, int]:
    """A short finished bot game of Flaming Pyramids saved as a record; its action count."""
    game = FlamingGame(2, FlamingOptions(preset="basic", max_turns=6))
    state, record = play_game(game, [make_bot("random"), make_bot("random")], 2)
    assert state.is_terminal()
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(record.to_json()))
    return path, len(record.actions)


def test_replay_steps_back_and_jumps_and_shows_every_hand_once_over(tmp_path: Path) -> None:
    """Enter: next, b: back, a number: that action; a finished game shows every hand."""
    path, count = finished_record(tmp_path)
    result = run("replay", str(path), stdin="\n\nb\nb\nb\n3\nzzz\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "The game is over: every hand is shown." in out
    assert "Hand of seat 0" in out and "Hand of seat 1" in out
    assert out.count(f"Action 1/{count}") == 2  # forward, then back from action 2
    assert out.count(f"Action 2/{count}") == 1
    assert "This is the start: there is no action before." in out
    assert f"Action 3/{count}" in out
    assert "Cannot read 'zzz'" in out


def test_replay_of_an_unfinished_game_keeps_the_hands_hidden(tmp_path: Path) -> None:
    """A game someone left is not over: its hands stay secret."""
    path = tmp_path / "left.json"
    result = run(
        "play", "--players", "2", "--seed", "3", "--delay", "0", "--record", str(path),
        stdin="1\nq\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    replayed = run("replay", str(path), "--auto")
    assert replayed.exit_code == 0, replayed.output
    assert "Hand of seat" not in replayed.stdout
    assert "every hand is shown" not in replayed.stdout


# --- words for players ---------------------------------------------------------------------


def test_rule_ids_are_kept_out_of_players_messages() -> None:
    """Refusals of the rules packages end with IDs like (PF-MOVE-3): players never see them."""
    assert for_players("K3 is larger than K1 (PF-MOVE-3)") == "K3 is larger than K1"
    assert for_players("no (PF-CAPTURE-2, PF-VIEW-1) here") == "no here"
    state = flags_start()
    term, out = terminal(["swap:ZZZ", "K3>K1", "K1>table", "q"])
    seats = Seats([HUMAN, "random"], [None, make_bot("random")])
    with pytest.raises(PlayerLeftError):
        FLAGS_UI.ask(term, state, 0, seats)
    shown = out.getvalue()
    assert "Not allowed: K3 is larger than K1" in shown
    assert "(PF-" not in shown and "(FP-" not in shown


def test_long_event_lines_wrap_at_word_boundaries_in_a_terminal() -> None:
    """In a terminal a long sentence wraps between words, continuation lines indented."""
    term, out = terminal([], width=40, real=True)
    sentence = "a collapse sends twelve tiles under the pile of the seat"
    term.say("  " + f"{sentence} " * 2)
    lines = [line.rstrip() for line in out.getvalue().splitlines() if line.strip()]
    assert len(lines) > 2
    assert all(len(line) <= 40 for line in lines)
    words = set(sentence.split(" "))
    for line in lines:
        assert set(line.split()) <= words
        assert line.startswith("  ")
    piped, piped_out = terminal([], width=40)
    piped.say("  " + "word " * 20)
    assert len(piped_out.getvalue().strip().splitlines()) == 1


# --- output paths --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--games", "2", "--out", "/nonexistent-pyramids/x.json"],
        ["tournament", "--games", "2", "--out-json", "/nonexistent-pyramids/t.json"],
        ["tournament", "--games", "2", "--out-md", "/nonexistent-pyramids/t.md"],
    ],
)
def test_a_missing_output_folder_is_refused_before_any_game(args: list[str]) -> None:
    """Exit 2 with the reason, no traceback, and no game played (no progress, no report)."""
    result = run(*args, "--quiet")
    assert result.exit_code == 2
    assert "the folder /nonexistent-pyramids does not exist" in result.stderr
    assert "Traceback" not in result.output
    assert result.stdout == ""


def test_an_output_path_that_is_a_folder_is_refused(tmp_path: Path) -> None:
    """A folder where a file is wanted: exit 2 naming it, for every output option."""
    for args in (
        ["simulate", "--games", "2", "--out", str(tmp_path)],
        ["tournament", "--games", "2", "--out-md", str(tmp_path)],
        ["play", "--seats", "random,random", "--record", str(tmp_path)],
    ):
        result = run(*args, "--quiet") if args[0] != "play" else run(*args)
        assert result.exit_code == 2, args
        assert "is a folder: give a file name" in result.stderr
        assert "Traceback" not in result.output
        assert "Turn 1" not in result.stdout


def test_an_unwritable_output_is_refused_as_a_command_line_user_sees_it(tmp_path: Path) -> None:
    """Run as a real process: one ``error:`` line, exit status 2, no traceback."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    exe = ROOT / ".venv" / "bin" / "pyramids"
    if not exe.exists():
        pytest.skip("no installed pyramids command")
    done = subprocess.run(
        [str(exe), "simulate", "--games", "1", "--out", str(blocker / "x.json")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == f"error: --out: {blocker} is not a folder"
    assert "Traceback" not in done.stderr


# --- ./run help ----------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["help", "--help"])
def test_run_help_lists_the_commands(word: str) -> None:
    """``./run help`` and ``./run --help`` list the run script's and pyramids' commands."""
    venv = ROOT / ".venv"
    stamp = venv / ".installed"
    if not stamp.exists() or stamp.stat().st_mtime < (ROOT / "pyproject.toml").stat().st_mtime:
        pytest.skip("./run would install packages first")
    env = {**os.environ, "COLUMNS": "100"}
    done = subprocess.run(
        ["bash", str(ROOT / "run"), word],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for line in ("./run serve", "./run play", "./run test", "./run help"):
        assert line in out
    for command in ("play", "replay", "simulate", "tournament", "serve", "verify", "hint"):
        assert f" {command} " in out


# --- line editing --------------------------------------------------------------------------


def test_arrow_up_recalls_the_last_line_at_a_real_terminal(tmp_path: Path) -> None:
    """At a terminal lines are read with readline: ↑ brings back ``hello``, never ``^[[A``."""
    pty = pytest.importorskip("pty")
    import select
    import time

    exe = ROOT / ".venv" / "bin" / "pyramids"
    if not exe.exists():
        pytest.skip("no installed pyramids command")
    record = str(tmp_path / "pty.json")
    pid, fd = pty.fork()
    if pid == 0:  # the child: a game at a terminal
        args = ["pyramids", "play", "--players", "2", "--seed", "3", "--delay", "0"]
        os.execv(str(exe), [*args, "--record", record])
    out = b""

    def read_for(seconds: float) -> None:
        nonlocal out
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    return

    try:
        read_for(6)
        for keys in (b"hello\r", b"\x1b[A\r", b"q\r"):
            os.write(fd, keys)
            read_for(2)
    finally:
        os.close(fd)
        os.waitpid(pid, 0)
    text = out.decode(errors="replace")
    assert text.count("Cannot read 'hello'") == 2
    assert "^[[A" not in text and "'\x1b[A'" not in text
