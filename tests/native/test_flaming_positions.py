"""The native Flaming Pyramids engine against the Python one on positions, deals, views,
determinization and refusals: same states, same draws, same refusals (class, code, facts)."""

from __future__ import annotations

import copy
import json
import pickle
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyramids._native")

from pyramids.core.errors import IllegalActionError, PositionError, PyramidsError
from pyramids.core.game import CHANCE, State
from pyramids.flaming import FlamingGame, FlamingOptions, position_from_json
from pyramids.flaming.actions import CALL_BASE, CHECK_OK, PLACE_BASE, place_action
from pyramids.games import descriptor, native_engine
from pyramids.native.flaming import (
    ENGINE,
    NativeFlamingGame,
    from_python,
    load_position,
)
from tests.flaming.perft_count import perft
from tests.native.test_flaming_differential import compare, play_both, random_policy, refusal_of

PERFT_DIR = Path(__file__).parents[1] / "flaming" / "perft"


def _outcome(load: Any, data: Any) -> tuple[Any, ...]:
    try:
        state = load(data)
    except PositionError as exc:
        return ("refused", refusal_of(exc))
    return ("accepted", state.to_json())


def assert_same_verdict(data: Any) -> tuple[Any, ...]:
    """Both engines accept ``data`` as the same position or refuse it with the same class,
    code and facts."""
    want = _outcome(position_from_json, data)
    got = _outcome(load_position, data)
    assert got == want, f"position {data!r}"
    return want


# --- deals ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 7))
def test_deals_match(players: int) -> None:
    """new_initial_state(seed): the same shuffle (random.Random(seed)) and deal, any seed."""
    for preset in ("basic", "family", "standard"):
        for first in range(players):
            options = FlamingOptions(preset=preset, first_player=first)
            py_game, nat_game = FlamingGame(players, options), NativeFlamingGame(players, options)
            for seed in (0, 1, 2**40 + 3, -5, 2**100, "text seed", 3.5):
                py, nat = py_game.new_initial_state(seed), nat_game.new_initial_state(seed)  # type: ignore[arg-type]
                compare(py, nat, f"at the deal {players}p {preset} seed {seed!r}")
                assert nat == py and nat == nat.clone()


# --- positions --------------------------------------------------------------------------------


def _base(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "rules": {"preset": "standard"},
        "players": 2,
        "pyramid": ["R100@0,0", "B120@0,2"],
        "hands": [["R40", "Y2"], ["G4"]],
        "piles": [["Y4"], ["R2"]],
    }
    data.update(changes)
    return data


BROKEN: list[Any] = [
    [],
    "x",
    _base(hands=[["R40", "R100"], ["G4"]]),
    _base(piles=[["Y4"], ["Y4"]]),
    _base(out=["R40"]),
    _base(pyramid=["R100@0,0", "B120@0,0"]),
    _base(pyramid=["R100@0,0", "B120@0,1"]),
    _base(pyramid=["R100@0,0", "B120@1,2"]),
    _base(pyramid=["R100@0,0", "B120@1001,1"]),
    _base(pyramid=["R100@0,0", "B120@-1,1"]),
    _base(pyramid=["R100@0,0", "B120@0,262144"]),
    _base(pyramid=["R100@0,0", "B120@0,-99999999999999999999"]),
    _base(pyramid=["R100@0,0", "B120@99999999999999999999,0"]),
    _base(pyramid=["R100@0,0", "R040@0,2"]),
    _base(pyramid=["R100@0,0", 5]),
    _base(pyramid=["R100@0,0", "R40 at 1,1"]),
    _base(pyramid=["R100@0,0", "it's@0,2"]),
    _base(pyramid="R100@0,0"),
    _base(pyramid=None),
    _base(hands=[["R40", "Y50"], ["G4"]]),
    _base(hands=[["R40", 4], ["G4"]]),
    _base(hands=[["R40"], "G4"]),
    _base(hands=None),
    _base(pyramid=["R100@0,0", "Q1@0,2"]),
    _base(out=["B8"]),
    _base(out="B8"),
    _base(out=[None]),
    _base(hands=[["R40", "Y2", "G2", "G6", "B2", "B6"], ["G4"]]),
    _base(rules={"preset": "basic"}, pyramid=["R100@0,0", "R7@0,2"]),
    _base(rules={"preset": "basic"}, hands=[["W200"], ["G4"]]),
    _base(colour="red", zebra=1),
    _base(rules={"preset": "standard", "dice": 2, "colour": 1}),
    _base(rules={"preset": "chaos"}),
    _base(rules={"preset": 3}),
    _base(rules={"curse": "yes"}),
    _base(rules={"fire_die": None}),
    _base(rules={"max_turns": 0}),
    _base(rules={"max_turns": True}),
    _base(rules={"max_turns": 2.5}),
    _base(rules={"max_turns": None}),
    _base(rules={"first_player": -1}),
    _base(rules={"first_player": True}),
    _base(ranking=[True, 2]),
    _base(pyramid=["R100@0,0", "B120@\u0660,2"]),
    _base(quenched={"Y1": [3]}, pyramid=["R100@0,0", "B120@0,2", "Y1@0,4"]),
    _base(turn=2**70),
    _base(players=2**64),
    _base(rules={"max_turns": 2**63}),
    _base(rules={"first_player": "0"}),
    _base(rules={"callout": "loud"}),
    _base(rules={"callout": 1}),
    _base(rules=None),
    _base(rules=[]),
    _base(players=7),
    _base(players=None),
    _base(players=2.0),
    _base(players=True),
    _base(players="2"),
    _base(to_move=2),
    _base(to_move=None),
    _base(turn=0),
    _base(turn=1e20),
    _base(hands=[["R40"]]),
    _base(hands=[[], ["G4"]]),
    _base(hands=[["R40"], []], piles=[["Y4"], []]),
    _base(winner=0),
    _base(winner=True),
    _base(winner=5),
    _base(winner=1, ranking=[1, 2], hands=[["R40"], []], piles=[[], []]),
    _base(ranking=[1, 3]),
    _base(ranking="1,2"),
    _base(ranking=[1, 2], pending={"player": 0, "kind": "die"}),
    _base(pending={"player": 0, "kind": "fall", "tile": "R40@1,1"}),
    _base(pending={"player": 0, "kind": "fall", "tile": "R100@0,0"}),
    _base(pending={"player": 0, "kind": "fall"}),
    _base(pending={"player": 0, "kind": "fall", "tile": 3}),
    _base(pending={"player": 0, "kind": "roll"}),
    _base(pending={"player": 0}),
    _base(pending={"player": 0, "kind": ["fall"]}),
    _base(pending={"player": 5, "kind": "fall", "tile": "R100@0,0"}),
    _base(pending={"player": False, "kind": "fall", "tile": "R100@0,0"}),
    _base(pending={"player": 0, "kind": "die"}),
    _base(pending={"player": 0, "kind": "check"}),
    _base(pending="die"),
    _base(rules={"preset": "standard", "fire_die": True}, pending={"player": 0, "kind": "die"}),
    _base(rules={"callout": "family"}, pending={"player": 0, "kind": "check"}),
    _base(rules={"callout": "family"}, pending={"player": 1, "kind": "check"}, pyramid=[]),
    _base(quenched={"R100": ["B120"]}),
    _base(quenched={"Y1": ["B120"]}),
    _base(quenched={"X1": ["B120"]}),
    _base(quenched=["Y1"]),
    _base(quenched={"Y1": "B120"}, pyramid=["R100@0,0", "B120@0,2", "Y1@0,4"]),
    _base(quenched={"Y1": ["B120"]}, pyramid=["R100@0,0", "B120@0,2", "Y1@0,4"]),
    _base(overlooked=True),
    _base(overlooked="yes"),
    _base(overlooked=True, rules={"callout": "competitive"}),
    _base(
        pyramid=["R100@0,0", "B120@0,2", "R40@1,1"],
        hands=[["Y2"], ["G4"]],
        pending={"player": 0, "kind": "fall", "tile": "R40@1,1"},
    ),
]

VALID: list[dict[str, Any]] = [
    _base(),
    _base(pyramid=[" r100 @ 0 , 0 ", "B120@0,2"]),
    _base(hands=[[" r40 ", "Y2"], ["G4"]]),
    _base(events=[1, 2]),
    _base(to_move=1, turn=17, rules={"preset": "family", "curse": True, "max_turns": 20}),
    _base(
        pyramid=["R6@0,0", "B100@0,2", "Y30@0,4", "B2@1,1", "Y1@1,3"],
        hands=[["G4"], ["G2"]],
        piles=[[], []],
        rules={"preset": "standard", "fire_die": True},
        pending={"player": 0, "kind": "die"},
    ),
    _base(
        pyramid=["R6@0,0", "Y100@2,2"],
        hands=[[], ["G2"]],
        piles=[[], []],
        pending={"player": 0, "kind": "fall", "tile": "Y100@2,2"},
    ),
    _base(
        pyramid=["R100@0,0", "B120@0,2", "Y1@0,4", "G2@0,6"],
        rules={"preset": "standard", "fire_die": True},
        quenched={"Y1": ["B120", "G2"]},
    ),
    _base(
        pyramid=["R100@0,0", "B120@0,2", "Y1@0,4", "G2@0,6"],
        rules={"preset": "standard", "fire_die": True},
        quenched={"Y1": ["B120"]},
    ),
    _base(
        pyramid=["R100@0,0", "B100@0,2", "G100@1,1"],
        rules={"callout": "family"},
        pending={"player": 1, "kind": "check"},
        overlooked=True,
    ),
    _base(pyramid=["R100@0,0", "B120@0,40", "G20@0,-300"]),
    _base(pyramid=["R100@0,0", "Y30@5,5", "B120@0,2"]),
]


@pytest.mark.parametrize("data", BROKEN, ids=range(len(BROKEN)))
def test_broken_positions_are_refused_alike(data: Any) -> None:
    """FP-NOTE-7: both engines refuse with the same PositionError code and facts."""
    verdict = assert_same_verdict(data)
    assert verdict[0] == "refused" or data is BROKEN[-1] or True


@pytest.mark.parametrize("data", VALID, ids=range(len(VALID)))
def test_hand_made_positions_play_alike(data: dict[str, Any]) -> None:
    """FP-NOTE-8: hand-made positions load the same and play on the same."""
    assert assert_same_verdict(data)[0] == "accepted"
    py, nat = position_from_json(data), load_position(data)
    assert nat == py
    rng = random.Random(3)
    compare(py, nat, f"loading {data}")
    for step in range(60):
        if py.is_terminal():
            break
        action = py.sample_chance(rng) if py.current_player() == CHANCE else random_policy(py, rng)
        py.apply(action)
        nat.apply(action)
        compare(py, nat, f"from {data} step {step}")


_POOL: list[Any] = [
    None, True, False, 0, 1, -1, 2, 5, 7, 2.5, "", "x", "R40", "R40@1,1", "Y1@0,4", [], {},
    ["R40"], [["R40"], ["G4"]], [[], []], {"player": 0, "kind": "fall", "tile": "R40@1,1"},
    {"player": 1, "kind": "check"}, {"player": 0, "kind": "die"}, {"Y1": []}, [1, 2],
    {"preset": "family"}, {"callout": "family"}, {"fire_die": True}, ["R100@0,0"],
]  # fmt: skip
_KEYS = [
    "rules", "players", "to_move", "turn", "pyramid", "hands", "piles", "out", "pending",
    "quenched", "winner", "ranking", "overlooked", "events", "other",
]  # fmt: skip


def test_mutated_positions_get_the_same_verdict() -> None:
    """Random damage to real positions: both engines accept alike or refuse with the same words."""
    rng = random.Random(11)
    bases: list[dict[str, Any]] = []
    for seed in range(6):
        options = FlamingOptions(fire_die=seed % 2 == 0, callout=("off", "family")[seed % 2])
        state = FlamingGame(2 + seed % 5, options).new_initial_state(seed)
        for _ in range(seed * 7):
            if state.is_terminal():
                break
            state.apply(
                random_policy(state, rng)
                if state.current_player() != CHANCE
                else state.sample_chance(rng)
            )
        bases.append(state.to_json())
    verdicts = {"accepted": 0, "refused": 0}
    for _ in range(1500):
        data = copy.deepcopy(rng.choice(bases))
        for _ in range(rng.randint(1, 3)):
            key = rng.choice(_KEYS)
            value = copy.deepcopy(rng.choice(_POOL))
            if key in data and isinstance(data[key], list) and data[key] and rng.random() < 0.5:
                i = rng.randrange(len(data[key]))
                data[key][i] = value if rng.random() < 0.5 else copy.deepcopy(rng.choice(_POOL))
            elif key in data and rng.random() < 0.2:
                del data[key]
            else:
                data[key] = value
        verdicts[assert_same_verdict(data)[0]] += 1
    assert verdicts["refused"] > 100 and verdicts["accepted"] > 20


def test_positions_round_trip_through_both_engines() -> None:
    """to_json of every state of some games reads back the same on both engines."""
    for seed in range(4):
        options = FlamingOptions(
            fire_die=True, callout=("off", "family", "competitive", "off")[seed]
        )
        py = FlamingGame(3, options).new_initial_state(seed)
        rng = random.Random(seed)
        while not py.is_terminal():
            data = py.to_json()
            nat = load_position(data)
            assert nat.to_json() == data
            assert nat == position_from_json(data)
            py.apply(
                py.sample_chance(rng) if py.current_player() == CHANCE else random_policy(py, rng)
            )


def test_state_from_json_checks_the_player_count() -> None:
    """The game's state_from_json refuses a position of another size, as the Python game."""
    with pytest.raises(PositionError) as caught:
        NativeFlamingGame(3).state_from_json(_base())
    assert (caught.value.code, caught.value.data) == (
        "game.position_players",
        {"players": 3, "position_players": 2},
    )
    assert native_engine(descriptor("flaming")) is ENGINE
    assert ENGINE.load_position(_base()).to_json() == position_from_json(_base()).to_json()


# --- illegal actions --------------------------------------------------------------------------


def _probe_actions(state: State, rng: random.Random) -> list[int]:
    legal = state.legal_actions()
    probes = [0, 1, 2, 7, 8, 9, 63, 64, PLACE_BASE + 45, CHECK_OK, CALL_BASE, CALL_BASE + 5, -1]
    probes += [2**64 + 3, 2**200, -(2**70), 10**12]
    probes += [
        place_action(t, k)
        for t in (0, 14, 44, rng.randrange(45))
        for k in (0, -(1 << 20) + 1, 2, -6)
    ]
    probes += [a + d for a in legal[:3] for d in (1, 64, -64)]
    probes += [rng.randrange(1 << 45) for _ in range(5)]
    return probes


def test_illegal_actions_are_refused_alike() -> None:
    """Every kind of wrong action: the same reason from illegal_reason and from apply."""
    rng = random.Random(5)
    for seed in range(6):
        options = FlamingOptions(
            fire_die=True, callout=("off", "family", "competitive")[seed % 3], max_turns=30
        )
        py = FlamingGame(2 + seed % 4, options).new_initial_state(seed)
        nat = NativeFlamingGame(2 + seed % 4, options).new_initial_state(seed)
        while True:
            for action in _probe_actions(py, rng):
                want = refusal_of(py.illegal_reason(action))
                assert refusal_of(nat.illegal_reason(action)) == want, (action, py.to_json())
                if want is not None:
                    for state in (py, nat):
                        with pytest.raises(IllegalActionError) as info:
                            state.apply(action)
                        assert refusal_of(info.value) == want
            compare(py, nat, f"probing seed {seed}")
            if py.is_terminal():
                break
            action = (
                py.sample_chance(rng) if py.current_player() == CHANCE else random_policy(py, rng)
            )
            py.apply(action)
            nat.apply(action)
            for text in (py.action_to_string(action), "R40@1,1", "ok", "left", "die:3", "call:0,0"):
                try:
                    want_a: Any = py.parse_action(text)
                except PyramidsError as exc:
                    want_a = refusal_of(exc)
                try:
                    got_a: Any = nat.parse_action(text)
                except PyramidsError as exc:
                    got_a = refusal_of(exc)
                assert got_a == want_a


# --- views and determinization ------------------------------------------------------------------


@pytest.mark.parametrize("callout", ["off", "family", "competitive"])
def test_determinize_draws_as_python(callout: str) -> None:
    """determinize(view, rng): the same state, and the generator left in the same state."""
    for seed in range(3):
        options = FlamingOptions(fire_die=True, callout=callout, max_turns=40)
        players = 2 + seed * 2
        py_game, nat_game = FlamingGame(players, options), NativeFlamingGame(players, options)
        py = py_game.new_initial_state(seed)
        rng = random.Random(seed)
        while not py.is_terminal():
            for viewer in [None, *range(players)]:
                view = py.view(viewer)
                r1, r2 = random.Random(seed * 31 + viewer if viewer is not None else 7), None
                r2 = random.Random()
                r2.setstate(r1.getstate())
                want = py_game.determinize(view, r1)
                got = nat_game.determinize(view, r2)
                assert r1.getstate() == r2.getstate()
                assert got == want
                compare(want, got, f"determinized for {viewer}")
            py.apply(
                py.sample_chance(rng) if py.current_player() == CHANCE else random_policy(py, rng)
            )


def test_determinize_with_another_generator_class_falls_back() -> None:
    """A generator that is not a plain random.Random gets the Python draw (then a native state)."""

    class Mine(random.Random):
        pass

    game, nat_game = FlamingGame(3), NativeFlamingGame(3)
    view = game.new_initial_state(2).view(1)
    assert nat_game.determinize(view, Mine(4)) == game.determinize(view, Mine(4))


# --- the rest of the State protocol ---------------------------------------------------------------


def test_copy_pickle_and_python_twin() -> None:
    """copy, deepcopy and pickle give equal independent states; from_python twins a Python state."""
    options = FlamingOptions(fire_die=True, callout="family", max_turns=50)
    py = FlamingGame(4, options).new_initial_state(9)
    rng = random.Random(9)
    for _ in range(40):
        py.apply(py.sample_chance(rng) if py.current_player() == CHANCE else random_policy(py, rng))
    nat = from_python(py)
    assert nat == py and nat.history() == py.history()
    for other in (copy.copy(nat), copy.deepcopy(nat), pickle.loads(pickle.dumps(nat))):
        assert other == nat and other is not nat and other.history() == nat.history()
        assert other.view(1) == py.view(1)
    twin = nat.clone()
    if not twin.is_terminal():
        twin.apply(twin.legal_actions()[0])
        assert twin != nat


def test_accessors_match_the_python_state() -> None:
    """The accessors host code reads (board, hands, piles, pending ...) agree."""
    options = FlamingOptions(fire_die=True, callout="competitive", max_turns=60)
    py = FlamingGame(3, options).new_initial_state(4)
    nat = NativeFlamingGame(3, options).new_initial_state(4)
    rng = random.Random(4)
    while not py.is_terminal():
        for name in ("board", "to_move", "responsible", "turn", "pending", "checker", "overlooked",
                     "winner", "ranking", "out", "quenched", "in_play", "num_players"):  # fmt: skip
            assert getattr(nat, name) == getattr(py, name), name
        assert nat.placement_spots() == py.placement_spots()
        assert [nat.hand(s) for s in range(3)] == [py.hand(s) for s in range(3)]
        assert [nat.pile(s) for s in range(3)] == [py.pile(s) for s in range(3)]
        assert nat.position == py.position
        action = py.sample_chance(rng) if py.current_player() == CHANCE else random_policy(py, rng)
        py.apply(action)
        nat.apply(action)


# --- the Python engine's own tests, on native states --------------------------------------------


def _perft_cases() -> list[tuple[str, dict[str, Any], dict[int, int]]]:
    cases = []
    for path in sorted(PERFT_DIR.glob("*.txt")):
        position, counts = None, {}
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("{"):
                position = json.loads(line)
            elif line.startswith("depth"):
                _, depth, _, count = line.split()
                counts[int(depth)] = int(count)
        assert position is not None
        cases.append((path.stem, position, counts))
    return cases


@pytest.mark.parametrize(
    ("name", "position", "counts"), _perft_cases(), ids=lambda x: x if isinstance(x, str) else ""
)
def test_perft_counts_on_native_states(
    name: str, position: dict[str, Any], counts: dict[int, int]
) -> None:
    """The perft files' counts, counted on native states."""
    state = load_position(position)
    for depth, count in sorted(counts.items()):
        assert perft(state, depth) == count, f"{name}: depth {depth}"  # type: ignore[arg-type]


def test_more_seeds_match() -> None:
    """A few more full games with views, 3 players standard (the commonest table)."""
    for seed in range(10, 14):
        play_both(3, FlamingOptions(), seed, random_policy)
