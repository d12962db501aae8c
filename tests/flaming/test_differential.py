"""The fast engine against a naive full-rescan transcription of the contract.

Every rule of the mayhem loop (FP-MAYHEM-1: each check a full scan in scan order,
first event resolved, then start again) is exercised by random play; after every
action both implementations must print the same position.
"""

from __future__ import annotations

import random

import pytest

from pyramids.flaming import FlamingGame, FlamingOptions
from tests.flaming.reference import Reference

CASES = [
    (players, preset, fire_die)
    for players in range(2, 7)
    for preset in ("basic", "family", "standard")
    for fire_die in (False, True)
    if not (preset == "basic" and fire_die)
]


@pytest.mark.parametrize(("players", "preset", "fire_die"), CASES)
def test_engine_matches_naive_contract_transcription(
    players: int, preset: str, fire_die: bool
) -> None:
    """FP-MAYHEM-1 "each of these checks is performed from top to bottom, left to right"."""
    game = FlamingGame(players, FlamingOptions(preset=preset, fire_die=fire_die, max_turns=200))
    for seed in range(6):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            before = state.to_json()
            action = rng.choice(state.legal_actions())
            text = state.action_to_string(action)
            state.apply(action)
            ref = Reference(before)
            ref.apply(text)
            assert state.to_json() == ref.to_json(), f"seed {seed}: {text} from {before}"


def test_standing_mayhem_in_a_hand_made_position_is_resolved_by_the_next_scan() -> None:
    """D2: overlooked mayhem is resolved at once, the active player suffering it."""
    pos = {
        "rules": {"preset": "basic"},
        "players": 2,
        "to_move": 0,
        "turn": 1,
        # B100 on G20 and R6 does not fit, but the position is at rest as written.
        "pyramid": ["G20@0,0", "R6@0,2", "Y30@0,4", "B100@1,1"],
        "hands": [["R2", "Y4"], ["G2"]],
        "piles": [[], ["G4"]],
        "out": [],
    }
    game = FlamingGame(2, FlamingOptions(preset="basic"))
    state = game.state_from_json(pos)
    state.apply(state.parse_action("R2@1,3"))
    ref = Reference(pos)
    ref.apply("R2@1,3")
    assert state.to_json() == ref.to_json()
    assert state.to_json()["pending"] == {"player": 0, "kind": "fall", "tile": "B100@1,1"}


def _random_position(rng: random.Random) -> dict[str, object]:
    """A hand-made-looking position: any tiles anywhere, standing mayhem allowed."""
    players = rng.randint(2, 6)
    preset = rng.choice(["basic", "family", "standard"])
    fire_die = preset != "basic" and rng.random() < 0.5
    game = FlamingGame(players, FlamingOptions(preset=preset, fire_die=fire_die))
    tiles = sorted(game.options_obj.tiles)
    rng.shuffle(tiles)
    from pyramids.flaming.tiles import NAMES

    pyramid = []
    width = rng.randint(1, 6)
    taken = set()
    for _ in range(rng.randint(0, 14)):
        row = rng.choice([0, 0, 0, 1, 1, 2, 3])
        col = rng.randrange(-width, width + 1) * 2 + (row % 2)
        if (row, col) in taken:
            continue
        taken.add((row, col))
        pyramid.append(f"{NAMES[tiles.pop()]}@{row},{col}")
    hands = []
    piles = []
    for _ in range(players):
        hands.append([NAMES[tiles.pop()] for _ in range(min(len(tiles), rng.randint(1, 5)))])
        piles.append([NAMES[tiles.pop()] for _ in range(min(len(tiles), rng.randint(0, 4)))])
    return {
        "rules": {"preset": preset, "fire_die": fire_die, "max_turns": 40},
        "players": players,
        "to_move": rng.randrange(players),
        "turn": 1,
        "pyramid": pyramid,
        "hands": hands,
        "piles": piles,
        "out": [],
    }


def test_engine_matches_transcription_from_arbitrary_hand_made_positions() -> None:
    """D2 and FP-MAYHEM-1 from positions no game would reach: free air, misfits, embers side by side."""
    from pyramids.core.errors import PositionError
    from pyramids.flaming import position_from_json

    rng = random.Random(2026)
    checked = 0
    for _ in range(400):
        pos = _random_position(rng)
        try:
            state = position_from_json(pos)
        except PositionError:
            continue
        if not any(state.hand(s) for s in range(state.num_players)):
            continue
        checked += 1
        for _ in range(25):
            if state.is_terminal():
                break
            before = state.to_json()
            action = rng.choice(state.legal_actions())
            text = state.action_to_string(action)
            state.apply(action)
            ref = Reference(before)
            ref.apply(text)
            assert state.to_json() == ref.to_json(), f"{text} from {before}"
    assert checked > 300


@pytest.mark.parametrize(
    ("quenched", "actions"),
    [
        ({"Y1": ["Y2", "B100"]}, ["R4@1,3", "right"]),
        ({"Y1": ["Y2", "B100", "R4"]}, ["R4@1,3", "right"]),
        ({"Y1": ["Y2", "B100"]}, ["G10@1,3"]),
    ],
)
def test_the_reference_ends_a_quench_at_the_contact_as_the_engine_does(
    quenched: dict[str, list[str]], actions: list[str]
) -> None:
    """FP-DIE-6: a new tile the ember ignites ends the quench when it touches, whatever follows."""
    pos = {
        "rules": {"preset": "family", "curse": False, "fire_die": True},
        "players": 2,
        "to_move": 0,
        "turn": 1,
        "pyramid": ["Y2@0,0", "B100@0,2", "G120@0,4", "Y1@1,1"],
        "hands": [["R4", "G10"], ["B10"]],
        "piles": [[], []],
        "out": [],
        "quenched": quenched,
    }
    state = FlamingGame(2, FlamingOptions(preset="family", curse=False, fire_die=True))
    engine = state.state_from_json(pos)
    ref = Reference(pos)
    assert engine.to_json() == ref.to_json()
    for text in actions:
        engine.apply(engine.parse_action(text))
        ref.apply(text)
        assert engine.to_json() == ref.to_json(), text
