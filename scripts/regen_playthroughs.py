"""Write tests/flaming/playthroughs/*.txt: golden seeded games, every step written out.

OpenSpiel's ``integration_tests/playthroughs`` habit: a few seeded games played by
random bots through ``pyramids.core.play_game``; for each of the first actions the file
shows the seat to decide, the legal actions, that seat's view, the action, what
happened (event texts, from the message catalogue ``pyramids.texts``) and the position
after it; then the final position and returns.
``tests/flaming/test_playthroughs.py`` regenerates them in memory and diffs. When the
rules change on purpose, bump the rules version, run this from the repository root and
review the diff:

    .venv/bin/python scripts/regen_playthroughs.py
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyramids.bots import make_bot
from pyramids.core import CHANCE, State, play_game
from pyramids.flaming import FlamingGame, FlamingOptions
from pyramids.texts import describe

ROOT = Path(__file__).resolve().parent.parent
PLAYTHROUGH_DIR = ROOT / "tests" / "flaming" / "playthroughs"
SHOWN_ACTIONS = 60
"""Steps written out in full; the rest of the game shows only in the final position."""


@dataclass(frozen=True)
class Spec:
    """One golden game."""

    name: str
    players: int
    options: FlamingOptions
    seed: int
    bots: tuple[str, ...]


SPECS = (
    # Seeds chosen so the shown steps include free air, a curse, die rolls (quench,
    # lone explosion), an ember explosion and, for 6 players, the end of the game.
    Spec("2p_basic", 2, FlamingOptions(preset="basic"), 2, ("random", "random")),
    Spec("3p_standard", 3, FlamingOptions(preset="standard"), 5, ("random",) * 3),
    Spec(
        "4p_family_fire_die", 4, FlamingOptions(preset="family", fire_die=True), 4, ("random",) * 4
    ),
    Spec("6p_standard", 6, FlamingOptions(preset="standard"), 11, ("random",) * 6),
    # Call-out mode (FP-CALL): seeds chosen so the shown steps include ok and false alarms
    # over standing mayhem, right calls of a collapse and of a fire, and overlooked mayhem
    # found later (in the family game its tiles go out of the game).
    Spec(
        "3p_callout_family",
        3,
        FlamingOptions(preset="family", callout="family"),
        1,
        ("random",) * 3,
    ),
    Spec(
        "4p_callout_competitive",
        4,
        FlamingOptions(preset="standard", callout="competitive"),
        2,
        ("random",) * 4,
    ),
)


def _compact(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _decision(state: State, step: int) -> list[str]:
    """The lines that show the decision point before action ``step``."""
    player = state.current_player()
    who = "chance" if player == CHANCE else f"seat {player}"
    viewer = None if player == CHANCE else player
    legal = " ".join(state.action_to_string(a) for a in state.legal_actions())
    return [
        f"[step {step}]",
        f"decides: {who}",
        f"legal: {legal}",
        f"view({'public' if viewer is None else viewer}): {_compact(state.view(viewer).to_json())}",
    ]


def render(spec: Spec) -> str:
    """The playthrough text of ``spec`` (deterministic: same code, same text)."""
    game = FlamingGame(spec.players, spec.options)
    bots = [make_bot(name) for name in spec.bots]
    initial = game.new_initial_state(spec.seed)
    lines = [
        "# Golden playthrough of Flaming Pyramids (OpenSpiel style), written by",
        "# scripts/regen_playthroughs.py; checked by tests/flaming/test_playthroughs.py.",
        f"# The first {SHOWN_ACTIONS} actions in full, then the final position.",
        f"game: {game.info.short_name}",
        f"rules_version: {game.info.rules_version}",
        f"players: {spec.players}",
        f"options: {_compact(dict(game.options))}",
        f"seed: {spec.seed}",
        f"bots: {', '.join(spec.bots)}",
        f"initial: {_compact(initial.to_json())}",
        *[f"setup event: {describe(e, 'en')}" for e in initial.events()],
        "",
        *_decision(initial, 0),
    ]
    count = 0

    def on_step(state: State, text: str) -> None:
        nonlocal count
        count += 1
        if count > SHOWN_ACTIONS:
            return
        lines.append(f"action: {text}")
        lines.extend(f"event: {e.kind}: {describe(e, 'en')}" for e in state.events())
        lines.append(f"position: {_compact(state.to_json())}")
        lines.append("")
        if count < SHOWN_ACTIONS and not state.is_terminal():
            lines.extend(_decision(state, count))

    final, record = play_game(game, bots, spec.seed, on_step=on_step, game_name="flaming")
    if count > SHOWN_ACTIONS:
        lines.append(f"... {count - SHOWN_ACTIONS} more actions not shown")
        lines.append("")
    lines += [
        f"[final] after {len(record.actions)} actions, turn {final.to_json()['turn']}",
        f"position: {_compact(final.to_json())}",
        f"returns: {_compact(final.returns())}",
    ]
    return "\n".join(lines) + "\n"


def path_of(spec: Spec) -> Path:
    """Where the golden file of ``spec`` lives."""
    return PLAYTHROUGH_DIR / f"{spec.name}.txt"


def main() -> None:
    """Write every golden playthrough."""
    PLAYTHROUGH_DIR.mkdir(parents=True, exist_ok=True)
    for spec in SPECS:
        path_of(spec).write_text(render(spec), encoding="utf-8")
        print(f"wrote {path_of(spec).relative_to(ROOT)}")


if __name__ == "__main__":
    main()
