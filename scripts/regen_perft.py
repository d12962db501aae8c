"""Write tests/flaming/perft/*.txt: fixed positions and their perft counts to depth 3.

Perft, as in python-chess's ``examples/perft``: perft(0) = 1 and perft(d) is the sum,
over the legal actions a of the position, of perft(d - 1) of the position after a.
Fall sides, die faces and, in call-out mode, check answers (``ok`` and a call of each
occupied position) are actions like placements (each die face is one branch, whatever
its probability); a finished game has no legal action, so it contributes 0 at every
depth >= 1.

Each count is computed by the engine and, independently, by the naive contract
transcription in ``tests/flaming/reference.py``; the script refuses to write a file
when they disagree. The depth-1 and depth-2 counts are also explained by hand in
each file's header. Run from the repository root:

    .venv/bin/python scripts/regen_perft.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.flaming.perft_count import perft, reference_perft  # noqa: E402
from tests.flaming.reference import Reference  # noqa: E402

from pyramids.flaming import FlamingGame, FlamingOptions, position_from_json  # noqa: E402

PERFT_DIR = ROOT / "tests" / "flaming" / "perft"
MAX_DEPTH = 3

HEADER = """\
# Flaming Pyramids perft: {title}
# perft(0) = 1; perft(d) = sum over the legal actions a of perft(d-1) after a (python-chess).
# Fall sides and die faces count as actions, one branch each; a finished game has no
# legal action and contributes 0. Counts: engine, checked against tests/flaming/reference.py.
# Regenerate: .venv/bin/python scripts/regen_perft.py
#"""


def _pos(
    rules: dict[str, Any],
    pyramid: list[str],
    hands: list[list[str]],
    piles: list[list[str]],
    **extra: Any,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "rules": rules,
        "players": len(hands),
        "to_move": 0,
        "turn": 1,
        "pyramid": pyramid,
        "hands": hands,
        "piles": piles,
        "out": [],
    }
    data.update(extra)
    return data


def _initial(players: int, preset: str, seed: int) -> dict[str, Any]:
    return FlamingGame(players, FlamingOptions(preset=preset)).new_initial_state(seed).to_json()


BASIC = {"preset": "basic", "curse": False, "fire_die": False, "max_turns": 1000}
FAMILY = {"preset": "family", "curse": False, "fire_die": False, "max_turns": 1000}
STANDARD = {"preset": "standard", "curse": True, "fire_die": False, "max_turns": 1000}
FAMILY_DIE = {"preset": "family", "curse": False, "fire_die": True, "max_turns": 1000}
CALLOUT_FAMILY = {**FAMILY, "callout": "family"}
CALLOUT_FAMILY_DIE = {**FAMILY_DIE, "callout": "family"}
CALLOUT_COMPETITIVE = {**STANDARD, "callout": "competitive"}

POSITIONS: list[tuple[str, str, str, dict[str, Any]]] = [
    (
        "collapse_chain",
        "a collapse chain: a 100 placed in row 2 falls twice",
        """\
# FP-COLLAPSE-1..3, FP-AIR-2. F = {(1,5), (2,2)}; seat 0 holds B100 and G4.
# depth 1 = 2 spots x 2 tiles = 4:
#   B100@2,2  100 > G20 + B6 = 26: collapse, fall pending (left, right)   -> 2
#   B100@1,5  100 > B30 + G40 = 70: collapse, fall pending                 -> 2
#   G4@2,2    fits (green G20, 4 <= 26); turn ends, F = {(1,5)} for seat 1 -> 1 x 2 tiles = 2
#   G4@1,5    fits (green G40, 4 <= 70); F = {(2,2), (2,4)} for seat 1     -> 2 x 2 tiles = 4
# depth 2 = 2 + 2 + 2 + 4 = 10""",
        _pos(
            BASIC,
            ["Y10@0,0", "R20@0,2", "B30@0,4", "G40@0,6", "G20@1,1", "B6@1,3"],
            [["B100", "G4"], ["Y2", "R4"]],
            [["Y4"], ["G2"]],
        ),
    ),
    (
        "fire_die_pending",
        "a fire-die roll pending (the rulebook's straw fire, FP-EX-STRAW)",
        """\
# FP-DIE-1..6. Y1@1,3 touches B2@1,1 (straw); the fire would reach R6@0,0. Roll pending.
# depth 1 = 6 die faces = 6
# depth 2, seat 1 holds G2 and Y4:
#   die:1..3  B2, R6 burn, Y1 stays on B100 Y30: F empty, base ends (0,0), (0,6) -> 3 x (2 x 2) = 12
#   die:4     B2, R6 burn, Y1 out: B100 Y30 side by side, F = {(1,3)}          -> 1 x 2 = 2
#   die:5     Y1 explodes alone; B2, B100, Y30 go: R6 alone, ends (0,-2), (0,2)  -> 2 x 2 = 4
#   die:6     quenched, nothing burns: F = {(2,2)}                              -> 1 x 2 = 2
# depth 2 = 12 + 2 + 4 + 2 = 20""",
        _pos(
            FAMILY_DIE,
            ["R6@0,0", "B100@0,2", "Y30@0,4", "B2@1,1", "Y1@1,3"],
            [["G4", "R40"], ["G2", "Y4"]],
            [["G6", "Y10"], ["R2"]],
            pending={"player": 0, "kind": "die"},
        ),
    ),
    (
        "curse",
        "the curse (FP-EX-CURSE) with three players",
        """\
# FP-CURSE-1..5. F = {(1,1), (1,3)}; seat 0 holds Y6 and G2; seat 1 holds R2 and B4.
# depth 1 = 2 spots x 2 tiles = 4:
#   Y6@1,1  fits (number 6); curse: Y6 R6 B6 go under seat 2's pile; Y30 alone -> ends (0,2), (0,6): 2 x 2 = 4
#   Y6@1,3  fits (yellow Y30); no curse (6 6 30); F = {(1,1)}                  -> 1 x 2 = 2
#   G2@1,1  matches R6 B6 in neither colour nor number: collapse, fall pending  -> 2
#   G2@1,3  matches B6 Y30 in neither: collapse, fall pending                   -> 2
# depth 2 = 4 + 2 + 2 + 2 = 10""",
        _pos(
            STANDARD,
            ["R6@0,0", "B6@0,2", "Y30@0,4"],
            [["Y6", "G2"], ["R2", "B4"], ["G6"]],
            [["Y4"], ["G4"], ["B2"]],
        ),
    ),
    (
        "explosion",
        "the rulebook's explosion (FP-EX-EXPLODE)",
        """\
# FP-EXPLODE-1, 2. F = {(1,5)}; seat 0 holds Y1, G2 and R7; seat 1 holds R2 and Y4.
# depth 1 = 1 spot x 3 tiles = 3
# depth 2:
#   Y1@1,5  fits (yellow Y30); explodes with B7: B60 R60 R100 B100 Y30 go, G20 alone
#           -> ends (0,-2), (0,2): 2 x 2 = 4
#   G2@1,5  matches B100 Y30 in neither: collapse, fall pending -> 2
#   R7@1,5  matches B100 Y30 in neither: collapse first (FP-MAYHEM-2), fall pending -> 2
# depth 2 = 4 + 2 + 2 = 8""",
        _pos(
            FAMILY,
            ["G20@0,0", "R100@0,2", "B100@0,4", "Y30@0,6", "R60@1,1", "B7@1,3", "B60@2,2"],
            [["Y1", "G2", "R7"], ["R2", "Y4"]],
            [["Y6"], ["G4"]],
        ),
    ),
    (
        "base_extension",
        "a complete pyramid: only the base ends (FP-EX-F)",
        """\
# FP-PLACE-5, FP-GEOM-5, 6. R100 B120 R40 is complete: F is empty, the spots are (0,-2), (0,4).
# depth 1 = 2 spots x 3 tiles = 6 (base tiles always fit, FP-FIT-4)
# depth 2: after (0,-2) F = {(1,-1)}, after (0,4) F = {(1,3)}; seat 1 holds 2 tiles
#   -> 6 x (1 x 2) = 12""",
        _pos(
            BASIC,
            ["R100@0,0", "B120@0,2", "R40@1,1"],
            [["Y2", "G30", "B4"], ["G2", "Y4"]],
            [["Y6"], ["G4"]],
        ),
    ),
    (
        "initial_6p_family_seed25",
        "the initial position of seed 25, 6 players, family (Y1 removed at setup)",
        """\
# FP-SETUP-1..3. Three leftovers: Y1 is removed (out), R6 and G4 form the base, F = {(1,1)}.
# Seat 0 holds R7 G40 G100 Y60 R100; seat 1 holds B2 R120 Y2 G120 Y100.
# depth 1 = 1 spot x 5 tiles = 5
# depth 2:
#   R7@1,1   fits (red R6, 7 <= 10); blowtorch fire burns R6 G4, R7 out: empty pyramid,
#            seat 1 plays on (0,0) -> 5
#   G40, G100, Y60, R100 @1,1  heavier than 10: collapse, fall pending -> 4 x 2 = 8
# depth 2 = 5 + 8 = 13""",
        _initial(6, "family", 25),
    ),
    (
        "callout_check_misfit",
        "call-out (family): the check of a misfit, every occupied position a call",
        """\
# FP-CALL: B100@1,3 was just placed on R20 and B30 (100 > 50); seat 1 checks (pending check).
# depth 1 = ok + 6 calls (every occupied position, right or wrong) = 7
# depth 2, seat 1 holds Y2 and R4:
#   ok                        overlooked; seat 1 places on F = {(2,2), (1,5)}      -> 2 x 2 = 4
#   call:0,0, 0,6, 1,1        false alarms (Y10, G40, G20 fit), the same as ok     -> 3 x 4 = 12
#   call:0,2, 0,4, 1,3        right (collapse: B100 and its supports): R20 and B30
#                             under seat 0's pile, B100's fall pending for seat 0  -> 3 x 2 = 6
# depth 2 = 4 + 12 + 6 = 22""",
        _pos(
            CALLOUT_FAMILY,
            ["Y10@0,0", "R20@0,2", "B30@0,4", "G40@0,6", "G20@1,1", "B100@1,3"],
            [["G4"], ["Y2", "R4"]],
            [["Y4"], ["G2"]],
            pending={"player": 1, "kind": "check"},
        ),
    ),
    (
        "callout_overlooked_family",
        "call-out (family): overlooked mayhem, a placement next to it, then the check",
        """\
# FP-CALL: B100@1,1 on G20 and R6 was overlooked (100 > 26, no match). Seat 0 places on
# F = {(1,3)} (the misfit occupies its spot); both tiles fit there (R2 red, Y4 yellow on Y30).
# depth 1 = 1 spot x 2 tiles = 2
# depth 2: a check for seat 1 after each: ok + 5 calls               -> 2 x 6 = 12
# depth 3, after each placement:
#   ok, call of Y30 or of the tile just placed (false alarms): the turn ends, seat 1
#            places G2 on F = {(2,2)}                                  -> 3 x 1 = 3
#   call of B100, G20 or R6 (right): the family penalty sends G20 and R6 out of the
#            game; B100's fall is pending for seat 0                   -> 3 x 2 = 6
# depth 3 = 2 x (3 + 6) = 18""",
        _pos(
            CALLOUT_FAMILY,
            ["G20@0,0", "R6@0,2", "Y30@0,4", "B100@1,1"],
            [["R2", "Y4"], ["G2"]],
            [[], ["G4"]],
            overlooked=True,
        ),
    ),
    (
        "callout_curse_competitive",
        "call-out (competitive): a curse found by a call, three players",
        """\
# FP-CALL, FP-CURSE. Y6@1,1 on R6 and B6 is a cursed trio, already overlooked; seat 1 checks.
# depth 1 = ok + 4 calls = 5
# depth 2, seat 1 holds R2 and B4:
#   ok, call:0,4 (Y30, false alarm)  seat 1 places on F = {(1,3)}                -> 2 x 2 = 4
#   call:1,1, 0,0, 0,2   right: Y6 R6 B6 under seat 2's pile (the player to the right,
#                        competitive: the usual destinations); Y30 alone, base ends
#                        (0,2), (0,6)                                            -> 3 x 4 = 12
# depth 2 = 4 + 12 = 16""",
        _pos(
            CALLOUT_COMPETITIVE,
            ["R6@0,0", "B6@0,2", "Y30@0,4", "Y6@1,1"],
            [["G2"], ["R2", "B4"], ["G6"]],
            [["Y4"], ["G4"], ["B2"]],
            pending={"player": 1, "kind": "check"},
            overlooked=True,
        ),
    ),
    (
        "callout_fire_die_penalty",
        "call-out (family): a fire-die roll in the resolution of overlooked mayhem",
        """\
# FP-CALL, FP-DIE. The rulebook's straw fire was overlooked and then called: the roll is
# pending for seat 0 and the family penalty applies (burnt tiles go out of the game).
# depth 1 = 6 die faces = 6
# depth 2, seat 1 holds G2 and Y4 (the placements as without call-out):
#   die:1..3  B2, R6 out, Y1 stays on B100 Y30: base ends (0,0), (0,6) -> 3 x (2 x 2) = 12
#   die:4     B2, R6, Y1 out: F = {(1,3)}                              -> 1 x 2 = 2
#   die:5     Y1 explodes alone; B2, B100, Y30 out: ends (0,-2), (0,2)  -> 2 x 2 = 4
#   die:6     quenched, nothing burns: F = {(2,2)}                     -> 1 x 2 = 2
# depth 2 = 12 + 2 + 4 + 2 = 20; depth 3 adds the check of each placement.""",
        _pos(
            CALLOUT_FAMILY_DIE,
            ["R6@0,0", "B100@0,2", "Y30@0,4", "B2@1,1", "Y1@1,3"],
            [["G4", "R40"], ["G2", "Y4"]],
            [["G6", "Y10"], ["R2"]],
            pending={"player": 0, "kind": "die"},
            overlooked=True,
        ),
    ),
]


def render(name: str, title: str, notes: str, position: dict[str, Any]) -> str:
    """The perft file text for one position (counts computed and cross-checked)."""
    state = position_from_json(position)
    lines = [HEADER.format(title=title), notes, json.dumps(position, separators=(",", ":"))]
    for depth in range(1, MAX_DEPTH + 1):
        count = perft(state, depth)
        oracle = reference_perft(Reference(position), depth)
        if count != oracle:
            raise SystemExit(f"{name}: depth {depth}: engine {count}, reference {oracle}")
        lines.append(f"depth {depth} count {count}")
    return "\n".join(lines) + "\n"


def main() -> None:
    """Write every perft file."""
    PERFT_DIR.mkdir(parents=True, exist_ok=True)
    for name, title, notes, position in POSITIONS:
        path = PERFT_DIR / f"{name}.txt"
        path.write_text(render(name, title, notes, position), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
