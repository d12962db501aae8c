"""Call-out mode at the terminal (FP-CALL, issue 13): the checker's prompt, hot seat, replay.

The checker is shown the pyramid and asked "Everything OK? (Enter) or call a tile (r,c)":
Enter says ``ok``, ``r,c`` calls the tile there, anything else is refused with a reason
and asked again. In hot-seat play the keyboard is handed over before the check, and the
placer's hand is never on the checker's screen.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from pyramids.bots import make_bot
from pyramids.cli.hands import play_hand
from pyramids.cli.terminal import HUMAN, PlayerLeftError, Seats, Terminal
from pyramids.core import GameRecord, play_game
from pyramids.core.game import Action
from pyramids.flaming import FlamingGame, FlamingOptions, FlamingState
from pyramids.flaming.actions import CHECK_OK, call_action
from pyramids.flaming.tiles import key_of
from pyramids.games.flaming.terminal import UI, ask_human, read_check
from pyramids.texts import describe
from tests.cli.runner import run
from tests.flaming.helpers import position

FAMILY = {"preset": "standard", "callout": "family"}


def misfit_check() -> FlamingState:
    """Seat 0 has just put B100 on G20 and R6 (too heavy, no match); seat 1 checks.

    Y30 at 0,4 breaks no rule. Seat 0's hand is R40 and G4 (never shown to seat 1).
    """
    return position(
        hands=[["R40", "G4"], ["Y6", "B4"]],
        pyramid=["G20@0,0", "R6@0,2", "Y30@0,4", "B100@1,1"],
        piles=[["Y4", "R2"], ["G2", "B2"]],
        rules=FAMILY,
        pending={"player": 1, "kind": "check"},
    )


def terminal(lines: list[str], lang: str = "en") -> tuple[Terminal, io.StringIO]:
    """A terminal reading ``lines`` and writing to a buffer."""
    out = io.StringIO()
    console = Console(file=out, width=100, highlight=False, color_system=None)
    return Terminal(console, io.StringIO("".join(f"{x}\n" for x in lines)), lang), out


def check_by(lines: list[str], lang: str = "en") -> tuple[Action, str, FlamingState]:
    """Seat 1 (the human) answers the check of ``misfit_check`` with ``lines``."""
    state = misfit_check()
    term, out = terminal(lines, lang)
    seats = Seats(["greedy", HUMAN], [make_bot("greedy"), None])
    action = ask_human(term, state, 1, seats)
    return action, out.getvalue(), state


def said(state: FlamingState, action: Action, lang: str = "en") -> list[str]:
    """The sentences of what ``action`` did, as the terminal shows them."""
    state.apply(action)
    return [describe(e, lang) for e in state.events()]


def test_the_checker_is_shown_the_pyramid_and_enter_says_ok() -> None:
    """FP-CALL-3: ``ok`` (Enter): the mayhem stays, overlooked (FP-CALL-5)."""
    action, shown, state = check_by([""])
    assert action == CHECK_OK
    assert "seat 1 (you), check the pyramid: seat 0 (greedy) has just placed a tile." in shown
    assert "[B100]" in shown and "[ G20]" in shown
    assert "Everything OK? (Enter) or call a tile (r,c):" in shown
    assert said(state, action)[0] == "seat 1 checks the pyramid: everything looks fine"
    assert state.overlooked


def test_a_right_call_by_position_resolves_the_mayhem_and_says_so() -> None:
    """FP-CALL-4: a right call (the misfit at 1,1) resolves it at once, in words."""
    action, _shown, state = check_by(["1,1"])
    assert action == call_action(key_of(1, 1))
    words = said(state, action)
    assert words[0].startswith("seat 1 calls B100 at 1,1: right, a tile that does not fit")
    assert "G20 and R6 collapse under seat 0's pile" in words[1]


def test_a_support_of_a_misfit_is_a_right_call_too_typed_as_call_or_by_its_code() -> None:
    """FP-CALL-3: a tile that does not fit *or one of its present supports* is a right call."""
    for typed in ("call:0,2", "R6", " 0 , 2 ", "(0,2)"):
        action, _shown, state = check_by([typed])
        assert action == call_action(key_of(0, 2)), typed
        assert said(state, action)[0].startswith("seat 1 calls R6 at 0,2: right")


def test_a_false_alarm_is_said_and_nothing_moves() -> None:
    """FP-CALL-4: a wrong call is a false alarm: nothing moves, and it says only that."""
    action, _shown, state = check_by(["0,4"])
    before = state.to_json()["pyramid"]
    assert said(state, action)[:1] == ["seat 1 calls the tile at 0,4: false alarm"]
    assert state.to_json()["pyramid"] == before


def test_bad_check_input_is_refused_with_a_reason_and_asked_again() -> None:
    """Anything but Enter, ok or a tile on the pyramid is refused, then asked again."""
    lines = ["hello", "3,3", "1,2", "-1,1", "R40", "?", "1,1"]
    action, shown, _state = check_by(lines)
    assert action == call_action(key_of(1, 1))
    assert "Cannot read 'hello': press Enter if everything is OK, or call a tile" in shown
    assert "There is no tile at 3,3: call a tile on the pyramid" in shown
    assert "There is no position 1,2: the tiles of row 1 sit on odd columns." in shown
    assert "There is no position -1,1: rows are numbered from 0, the base, upwards." in shown
    assert "R40 is not on the pyramid" in shown
    assert "Press Enter (or type ok) if no tile breaks a rule." in shown
    assert shown.count("Everything OK? (Enter) or call a tile (r,c):") == len(lines)


def test_the_check_shows_no_hand_no_spots_and_no_hints() -> None:
    """FP-VIEW-1: the checker sees the public pyramid only (no hand, no spot to play)."""
    _action, shown, state = check_by([""])
    assert "hand (" not in shown.lower() and "Hand of" not in shown
    assert "R40" not in shown and "Y6" not in shown  # seat 0's hand, and seat 1's own
    assert "·" not in shown and "Spots to play" not in shown
    assert "seat 1 (you) checks the pyramid after seat 0 (greedy)'s placement" in shown
    assert state.checker == 1


def test_the_check_in_french() -> None:
    """The CLI speaks French too: the prompt and the refusals."""
    action, shown, _state = check_by(["bonjour", "oui"], lang="fr")
    assert action == CHECK_OK
    assert "Tout va bien ? (Entrée) ou signalez une tuile (r,c) :" in shown
    assert "Impossible de lire 'bonjour'" in shown
    assert read_check(misfit_check(), "0,3", "fr")[1] == (
        "La position 0,3 n'existe pas : les tuiles de la rangée 0 sont sur les colonnes paires."
    )


def test_ok_typed_outside_a_check_is_refused_with_a_reason() -> None:
    """``ok`` and ``call:r,c`` only answer a check."""
    state = position(
        hands=[["R40", "G4"], ["Y6"]],
        pyramid=["G20@0,0", "R6@0,2"],
        piles=[["Y4"], ["G2"]],
        rules=FAMILY,
    )
    term, out = terminal(["ok", "q"])
    seats = Seats([HUMAN, "greedy"], [None, make_bot("greedy")])
    with pytest.raises(PlayerLeftError):
        ask_human(term, state, 0, seats)
    assert "Not allowed: there is nothing to check now" in out.getvalue()


# --- hot seat -------------------------------------------------------------------------------


def hot_seat_game(lines: list[str]) -> tuple[str, GameRecord]:
    """Two humans at one (real) terminal play a call-out game from seed 3 until ``q``."""
    out = io.StringIO()
    console = Console(file=out, width=100, highlight=False, force_terminal=True, color_system=None)
    term = Terminal(console, io.StringIO("".join(f"{x}\n" for x in lines)))
    game = FlamingGame(2, FlamingOptions(callout="family"))
    result = play_hand(term, game, 3, Seats([HUMAN, HUMAN], [None, None]), UI)
    return out.getvalue(), result.record


def test_hot_seat_hands_the_keyboard_over_before_the_check() -> None:
    """The checker is another seat than the placer: the keyboard is handed over first, the
    placer's screen (their hand) is wiped, and the check shows no hand."""
    shown, record = hot_seat_game(["1", "", "", "q"])
    assert record.actions[:2] == ["Y2@0,-2", "ok"]
    placed = shown.index("seat 0 plays Y2 at 0,-2")
    handed = shown.index("Pass the keyboard to seat 1 (human), then press Enter:")
    check = shown.index("seat 1 (human), check the pyramid: seat 0 (human) has just placed")
    assert placed < handed < check
    hand_0 = shown.index("Your hand (seat 0):")
    wiped = shown.index("\x1b[2J", hand_0)  # the screen is cleared once seat 0 has decided
    assert wiped < placed
    between = shown[handed : shown.index("seat 1 checks the pyramid: everything looks fine")]
    assert "hand (" not in between.lower()
    # seat 1 plays next: the checker is already at the keyboard, no second hand-over
    assert shown.count("Pass the keyboard to") == 1


def test_hot_seat_hands_the_keyboard_back_for_the_placers_fall() -> None:
    """A right call's falls are the placer's (FP-CALL-4): the keyboard goes back to them."""
    game = FlamingGame(2, FlamingOptions(callout="family"))
    lines, seat = _lines_to_a_right_call(game)
    shown, record = hot_seat_game([*lines, "", "1", "q"])
    assert record.actions[-2].startswith("call:") and record.actions[-1] == "left"
    checker = 1 - seat
    call = shown.index(f"seat {checker} calls ")
    assert shown.index("right, ", call) < shown.index("\n", call)
    back = shown.index(f"Pass the keyboard to seat {seat} (human), then press Enter:", call)
    assert back < shown.index(f"seat {seat} (human) must choose where", call)


def _lines_to_a_right_call(game: FlamingGame) -> tuple[list[str], int]:
    """Typed lines for seed 3: always the first option, ``ok`` unless a call is right, and
    Enter at every hand-over, up to a right call leaving a fall to its placer."""
    from pyramids.flaming.mayhem import called_keys
    from pyramids.flaming.tiles import spot_name

    state = game.new_initial_state(3)
    assert isinstance(state, FlamingState)
    lines: list[str] = []
    at_keyboard = None
    for _ in range(200):
        seat = state.current_player()
        if at_keyboard is not None and seat != at_keyboard:
            lines.append("")
        at_keyboard = seat
        if state.checker is not None:
            found = called_keys(state.position.clone(), True)
            if found:
                key = min(found)
                lines.append(spot_name(key))
                state.apply(call_action(key))
                if state.pending[0] != 0:
                    return lines, state.current_player()
                continue
            lines.append("")
            state.apply(CHECK_OK)
            continue
        lines.append("1")
        state.apply(state.legal_actions()[0])
    raise AssertionError("no right call with a fall in 200 decisions")


# --- play and replay ----------------------------------------------------------------------------


def test_play_names_the_variant_and_a_human_checks_a_bots_placement(tmp_path: Path) -> None:
    """``pyramids play --callout family``: the opening line says so; a human checker is asked."""
    path = tmp_path / "c.json"
    result = run(
        "play", "--seats", "human,random", "--callout", "family", "--seed", "3",
        "--delay", "0", "--record", str(path), stdin="1\n\nq\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "fire die off, call-out family" in result.stdout
    assert (
        "seat 0 (you), check the pyramid: seat 1 (random) has just placed a tile." in result.stdout
    )
    record = GameRecord.from_json(json.loads(path.read_text()))
    assert record.options["callout"] == "family"
    assert record.actions[3] == "ok"


def overlooking_record(tmp_path: Path) -> tuple[Path, GameRecord]:
    """A random-bot call-out game (seed 5) in which an ``ok`` leaves mayhem standing."""
    game = FlamingGame(2, FlamingOptions(callout="competitive", max_turns=60))
    _final, record = play_game(game, [make_bot("random"), make_bot("random")], 5)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record.to_json()))
    return path, record


def test_replay_of_a_call_out_record_says_when_mayhem_was_overlooked(tmp_path: Path) -> None:
    """``pyramids replay`` steps through checks, and says (only there) what an ok overlooked."""
    from pyramids.flaming.mayhem import standing_mayhem

    path, record = overlooking_record(tmp_path)
    game = FlamingGame(2, FlamingOptions(callout="competitive", max_turns=60))
    state = game.new_initial_state(record.seed)
    overlooked_at = None
    for i, text in enumerate(record.actions, start=1):
        state.apply(state.parse_action(text))
        if text == "ok" and standing_mayhem(state.position.clone(), True):
            overlooked_at = i
            break
    assert overlooked_at is not None, "seed 5 has an ok over standing mayhem"
    result = run("replay", str(path), "--auto")
    assert result.exit_code == 0, result.output
    out = result.stdout
    step = out.index(f"Action {overlooked_at}/{len(record.actions)}")
    note = out.index("(replay) Mayhem overlooked: it stands on the pyramid", step)
    assert note < out.index(f"Action {overlooked_at + 1}/", step)
    assert "End of the record." in out
