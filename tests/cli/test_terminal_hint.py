"""``?`` at a human's decision in ``pyramids play`` (issue 30): the help, then a hint.

The hint is the search's (``pyramids.bots.advice.hint``) from the seat's view and legal
actions only, on ``--hint-iterations`` (here 200, to stay quick), seeded from the game's
seed and the number of actions played: its best three options with their numbers and
labels from the list, each with the estimated chance to win, the preferred one marked.
``?`` is not a move: the prompt asks again and the game goes on. A call-out check gets
no hint (spotting mayhem is the game). ``h`` is the help without the hint.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner, Result

from pyramids.bots.advice import Hint, advice_settings, hint
from pyramids.cli.main import app
from pyramids.core import CHANCE, GameRecord
from pyramids.games import make_game

ITERATIONS = 200


def run(*args: str, stdin: str) -> Result:
    """Invoke the CLI with ``args``, ``stdin`` typed at the prompts."""
    return CliRunner().invoke(app, list(args), input=stdin)


def play(game: str, seed: int, lines: list[str], path: Path, *extra: str) -> Result:
    """A human (seat 0) against a random bot, typing ``lines``, hints at 200 iterations."""
    return run(
        "play", "--game", game, "--seats", "human,random", "--seed", str(seed), "--delay", "0",
        "--record", str(path), "--hint-iterations", str(ITERATIONS), *extra,
        stdin="".join(f"{line}\n" for line in lines),
    )  # fmt: skip


def expected_hint(path: Path) -> Hint:
    """The hint seat 0 gets at its first decision of the recorded game, searched here from
    its view alone, with the seed ``play`` derives (the game's seed, the actions so far)."""
    record = GameRecord.from_json(json.loads(path.read_text(encoding="utf-8")))
    game = make_game(record.game, record.players, record.options)
    state = game.new_initial_state(record.seed)
    for text in record.actions:
        if state.current_player() == 0:
            break
        state.apply(state.parse_action(text))
    assert state.current_player() not in (CHANCE, 1)
    settings = advice_settings(record.game, record.players, iterations=ITERATIONS)
    seed = f"{record.seed}/{len(state.history())}"
    return hint(state.view(0), state.legal_actions(), settings, seed)


def hint_lines(out: str) -> list[str]:
    """The lines of the first hint shown: ``  7) Y6@0,2   55% to win ...`` (or French)."""
    head = re.search(r"^(Hint for|Conseil pour) .*:$", out, re.M)
    assert head is not None, out
    return out[head.end() :].splitlines()[1:4]


def test_question_mark_shows_the_search_best_three_then_the_game_goes_on(tmp_path: Path) -> None:
    """Flaming Pyramids: ``?`` shows the help, the options and the hint; ``1`` then plays."""
    path = tmp_path / "g.json"
    result = play("flaming", 3, ["?", "1", "q"], path)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "? lists the options again with a hint" in out
    assert f"Hint for seat 0 (you), from what you can see ({ITERATIONS} search iterations):" in out
    lines = hint_lines(out)
    assert len(lines) == 3
    assert lines[0].endswith("← the search prefers this")
    assert sum("prefers" in line for line in lines) == 1
    found = expected_hint(path)
    state = make_game("flaming", 2, {}).new_initial_state(3)
    legal = state.legal_actions()
    for line, move in zip(lines, found.moves, strict=True):
        number = legal.index(move.action) + 1
        text = state.action_to_string(move.action)
        assert re.match(rf"\s*{number}\) {re.escape(text)}\b", line), line
        assert f"  {round(move.win * 100)}% to win" in line
    assert out.index("search iterations") < out.index("seat 0 plays")
    record = GameRecord.from_json(json.loads(path.read_text(encoding="utf-8")))
    assert record.actions[0] == state.action_to_string(legal[0])


def test_question_mark_gives_a_hint_in_french(tmp_path: Path) -> None:
    """``--lang fr``: the hint's words are French."""
    result = play("flaming", 3, ["?", "q"], tmp_path / "g.json", "--lang", "fr")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Conseil pour joueur 0 (vous), d'après ce que vous voyez (200 itérations" in out
    assert "? affiche les choix avec un conseil" in out
    lines = hint_lines(out)
    # a percentage in French: the catalogue's narrow no-break space before the sign
    assert len(lines) == 3 and all("\u202f% de chances de gagner" in line for line in lines)
    assert lines[0].endswith("← la recherche préfère celui-ci")


def test_question_mark_gives_a_hint_in_pyramids_and_flags(tmp_path: Path) -> None:
    """Pyramids and Flags: the hint's options are numbered as in the full list."""
    path = tmp_path / "f.json"
    result = play("flags", 1, ["?", "1", "q"], path)
    assert result.exit_code == 0, result.output
    out = result.stdout
    lines = hint_lines(out)
    found = expected_hint(path)
    state = make_game("flags", 2, {}).new_initial_state(1)
    legal = state.legal_actions()
    for line, move in zip(lines, found.moves, strict=True):
        number = legal.index(move.action) + 1
        assert re.match(rf"\s*{number}\) {re.escape(state.action_to_string(move.action))} ", line)
        assert f"  {round(move.win * 100)}% to win" in line
    assert "seat 0 moves" in out[out.index("search iterations") :]


def test_h_shows_the_help_without_a_hint(tmp_path: Path) -> None:
    """``h`` is the help and the options alone: no search."""
    result = play("flaming", 3, ["h", "q"], tmp_path / "g.json")
    assert result.exit_code == 0, result.output
    assert "Type the number of an option" in result.stdout
    assert "Hint for" not in result.stdout and "% to win" not in result.stdout


def test_no_hint_at_a_call_out_check(tmp_path: Path) -> None:
    """FP-CALL: at a check ``?`` shows the help and the pyramid, and says there is no hint;
    Enter then says ``ok``."""
    path = tmp_path / "c.json"
    result = play("flaming", 3, ["1", "?", "", "q"], path, "--callout", "family")
    assert result.exit_code == 0, result.output
    out = result.stdout
    check = out[out.index("Everything OK? (Enter) or call a tile (r,c): ?") :]
    assert "Press Enter (or type ok) if no tile breaks a rule." in check
    assert "No hint at a check: spotting mayhem is the game." in check
    assert "Hint for" not in out
    record = GameRecord.from_json(json.loads(path.read_text(encoding="utf-8")))
    assert record.actions[3] == "ok"
