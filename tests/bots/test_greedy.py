"""The greedy bot: legal, deterministic, blind to hidden tiles, and better than random.

Positions are written in the contract's JSON notation (section 11). The greedy bot sees
only ``state.view(seat)``; its choices in the hand-made positions follow from the rules
it estimates (FP-FIT, FP-COLLAPSE, FP-FIRE, FP-EXPLODE, FP-CURSE).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

import pytest

from pyramids.bots import BOTS, GreedyBot, RandomBot, make_bot
from pyramids.core import CHANCE, play_game
from pyramids.core.game import Action
from pyramids.flaming import FlamingGame, FlamingOptions, FlamingState, position_from_json
from pyramids.flaming.state import FALL, LEFT, RIGHT
from pyramids.games import descriptor, register, unregister

GREEDY = GreedyBot()


def pos(
    pyramid: list[str],
    hands: list[list[str]],
    *,
    preset: str = "basic",
    piles: list[list[str]] | None = None,
    pending: dict[str, Any] | None = None,
) -> FlamingState:
    """A hand-made position (contract section 11); seat 0 to move."""
    data: dict[str, Any] = {
        "rules": {"preset": preset},
        "players": len(hands),
        "to_move": 0,
        "turn": 1,
        "pyramid": pyramid,
        "hands": hands,
        "piles": piles if piles is not None else [[] for _ in hands],
        "out": [],
    }
    if pending is not None:
        data["pending"] = pending
    return position_from_json(data)


def greedy_text(state: FlamingState, seed: int = 0) -> str:
    """The greedy bot's choice for the deciding seat, as text."""
    seat = state.current_player()
    action = GREEDY.act(state.view(seat), state.legal_actions(), random.Random(seed))
    assert action in state.legal_actions()
    return state.action_to_string(action)


def test_greedy_is_registered() -> None:
    """make_bot("greedy") gives the greedy bot; the registry keeps "random"."""
    assert make_bot("greedy").name == "greedy"
    assert make_bot(" Greedy ").name == "greedy"
    assert set(BOTS) >= {"random", "greedy"}


@pytest.mark.parametrize(
    ("preset", "fire_die"),
    [
        ("basic", False),
        ("family", False),
        ("family", True),
        ("standard", False),
        ("standard", True),
    ],
)
def test_greedy_always_returns_a_legal_action(preset: str, fire_die: bool) -> None:
    """FP-PLACE-4 "the legal placements are all (hand tile, spot of F) pairs"; falls too."""
    game = FlamingGame(3, FlamingOptions(preset=preset, fire_die=fire_die))
    decisions = falls = 0
    for seed in range(8):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            action = GREEDY.act(state.view(seat), legal, rng)
            assert action in legal
            decisions += 1
            falls += action in (LEFT, RIGHT)
            state.apply(action)
    assert decisions > 100
    assert falls > 0


def test_greedy_collapse_fall_lands_where_the_tile_fits() -> None:
    """FP-COLLAPSE-1 "P chooses left or right and the tile drops": it drops where it fits.

    R40 on Y4 and G6 (10) is too heavy: both go under seat 0's pile. Dropping left puts
    R40 on R60 and Y10 (fits: red, 40 <= 70); right on Y10 and G10 (20 < 40: collapses again).
    """
    state = pos(
        ["R60@0,0", "Y10@0,2", "G10@0,4", "Y4@1,1", "G6@1,3"],
        [["R40", "B2"], ["B4"]],
    )
    state.apply(state.parse_action("R40@2,2"))
    assert state.pending == (FALL, state.pending[1])
    assert greedy_text(state) == "left"


def test_greedy_fall_from_a_json_position_mid_turn() -> None:
    """FP-NOTE-4 "Mid-turn, pending names the decision and its owner": greedy decides it."""
    state = pos(
        ["R60@0,0", "Y10@0,2", "G10@0,4", "R40@2,2"],
        [["B2"], ["B4"]],
        piles=[["Y4", "G6"], []],
        pending={"player": 0, "kind": "fall", "tile": "R40@2,2"},
    )
    assert state.legal_actions() == [LEFT, RIGHT]
    assert greedy_text(state) == "left"
    mirrored = pos(
        ["G10@0,0", "Y10@0,2", "R60@0,4", "R40@2,2"],
        [["B2"], ["B4"]],
        pending={"player": 0, "kind": "fall", "tile": "R40@2,2"},
    )
    assert greedy_text(mirrored) == "right"


def test_greedy_never_plays_a_misfit_when_a_fitting_tile_exists() -> None:
    """FP-FIT-1 "its weight is at most the sum of their weights AND it shares a colour or a
    number"; a misfit collapses and its supports come back (FP-COLLAPSE-1)."""
    # Only spot: 1,1 on Y10 and G10. B4 shares nothing, R30 is too heavy, Y2 fits.
    state = pos(["Y10@0,0", "G10@0,2"], [["B4", "R30", "Y2"], ["B2"]])
    assert greedy_text(state) == "Y2@1,1"


def test_greedy_keeps_straw_away_from_a_coal() -> None:
    """FP-FIRE-4 "Any contact lights a fire ... fuel placed by an ember": avoid feeding a coal.

    R2 fits on both spots; at 1,3 it would touch the coal G1 at 1,1 and burn (back to us).
    """
    state = pos(
        ["B100@0,0", "G100@0,2", "R100@0,4", "Y100@0,6", "G1@1,1"],
        [["R2"], ["B2"]],
        preset="family",
    )
    assert {state.action_to_string(a) for a in state.legal_actions()} == {"R2@1,3", "R2@1,5"}
    assert greedy_text(state) == "R2@1,5"


def test_greedy_keeps_an_ember_away_from_an_ember() -> None:
    """FP-EXPLODE-2 "Every tile outside the group touching one of its embers goes under P's
    pile": an ember is shed where it touches no ember and no fuel."""
    state = pos(
        ["B100@0,0", "G100@0,2", "Y100@0,4", "Y60@0,6", "G1@1,1"],
        [["Y1"], ["B2"]],
        preset="family",
    )
    # Y1 fits on both spots (yellow); at 1,3 it would touch the coal G1 and explode.
    assert {state.action_to_string(a) for a in state.legal_actions()} == {"Y1@1,3", "Y1@1,5"}
    assert greedy_text(state) == "Y1@1,5"


@pytest.mark.parametrize(("preset", "expected"), [("standard", "Y10@1,1"), ("family", "R20@1,1")])
def test_greedy_completes_a_curse_only_when_the_curse_is_on(preset: str, expected: str) -> None:
    """FP-CURSE-2 "a tile in row >= 1 resting on both supports where all three tiles have the
    same number": the trio goes to the player on the right (FP-CURSE-3), good for us.

    Without the curse, R20 (harder to place later than Y10) is shed instead.
    """
    state = pos(["R10@0,0", "G10@0,2"], [["Y10", "R20"], ["B2"]], preset=preset)
    assert greedy_text(state) == expected


def test_greedy_sheds_the_heaviest_tile_on_the_base() -> None:
    """FP-FIT-4 "A base tile always fits": the base end is where a stone is shed."""
    state = pos(["R10@0,0"], [["Y2", "B120", "G20"], ["B2"]])
    assert greedy_text(state).startswith("B120@0,")


def test_greedy_is_deterministic_for_a_seed() -> None:
    """Same view, legal actions and generator seed: same choice (records are reproducible)."""
    game = FlamingGame(4, FlamingOptions(preset="standard"))
    bots = [GreedyBot(), RandomBot(), GreedyBot(), RandomBot()]
    first = play_game(game, bots, 11)[1].actions
    second = play_game(game, [GreedyBot(), RandomBot(), GreedyBot(), RandomBot()], 11)[1].actions
    assert first == second


def test_greedy_sees_only_the_view() -> None:
    """FP-VIEW-3 "It holds nothing else": two states differing only in hidden tiles show the
    same view, and greedy makes the same choice in both."""
    game = FlamingGame(3, FlamingOptions(preset="standard"))
    compared = 0
    for seed in range(6):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_player()
            view = state.view(seat)
            one = game.determinize(view, random.Random(1))
            two = game.determinize(view, random.Random(2))
            if one.to_json() != two.to_json():
                compared += 1
                assert one.view(seat) == two.view(seat)
                choices: list[Action] = [
                    GREEDY.act(s.view(seat), s.legal_actions(), random.Random(seed))
                    for s in (one, two)
                ]
                assert choices[0] == choices[1]
            state.apply(GREEDY.act(view, state.legal_actions(), rng))
    assert compared > 50


def test_greedy_clearly_beats_random_heads_up() -> None:
    """Greedy vs random, 60 two-player basic games (seeds 0..59, seats alternating): > 60%."""
    game = FlamingGame(2, FlamingOptions(preset="basic"))
    wins = 0
    for seed in range(60):
        seat = seed % 2
        bots = [RandomBot(), RandomBot()]
        bots[seat] = GreedyBot()
        final, _ = play_game(game, bots, seed)
        wins += final.winner == seat
    assert wins / 60 > 0.6


def test_greedy_plays_the_policy_the_registry_names() -> None:
    """Hosts name no game: ``greedy`` is the view's game's default policy (its descriptor)."""
    bot = GreedyBot()
    policy = descriptor("flaming").policy.get()()
    game = FlamingGame(3, FlamingOptions(preset="standard", fire_die=True))
    for seed in range(3):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            view, legal = state.view(seat), state.legal_actions()
            mine = bot.act(view, legal, random.Random(seed))
            assert mine == policy.act(view, legal, random.Random(seed))
            state.apply(mine)
    assert type(bot.policy("flaming")).__name__ == "GreedyFlamingBot"
    assert type(bot.policy("flags")).__name__ == "GreedyFlagsBot"


def test_greedy_plays_at_random_in_a_game_without_a_policy() -> None:
    """A registered game whose descriptor names no policy still gets a legal action."""
    flaming = descriptor("flaming")
    bare = replace(flaming, info=replace(flaming.info, short_name="bare"), policy=None)
    register(bare)
    try:

        @dataclass
        class BareView:
            game: str = "bare"

        legal = [3, 5, 8]
        picks = {GreedyBot().act(BareView(), legal, random.Random(s)) for s in range(30)}  # type: ignore[arg-type]
        assert picks == set(legal)
    finally:
        unregister("bare")
    with pytest.raises(TypeError, match="cannot tell which game"):
        GreedyBot().act(object(), [1], random.Random(0))  # type: ignore[arg-type]


# --- careless: greedy with the easy level's overlooks (FP-CALL) -------------------------


@pytest.mark.parametrize("seed", range(4))
def test_careless_plays_greedys_game_without_call_out(seed: int) -> None:
    """Without call-out there is no check, so ``careless`` never draws and plays greedy."""
    game = FlamingGame(3, FlamingOptions())
    _, greedy = play_game(game, [make_bot("greedy") for _ in range(3)], seed)
    _, careless = play_game(game, [make_bot("careless") for _ in range(3)], seed)
    assert careless.actions == greedy.actions


def test_careless_overlooks_standing_mayhem_at_about_one_check_in_four() -> None:
    """FP-CALL: the careless answer (``ok`` over standing mayhem) one time in four."""
    from pyramids.games.flaming.analysis import GameChecks

    game = FlamingGame(3, FlamingOptions(callout="family"))
    standing = overlooked = 0
    for seed in range(40):
        checks = GameChecks(3, curse_on=True)

        def on_step(state: Any, _text: str, checks: GameChecks = checks) -> None:
            checks.step(state, state.events())

        final, _ = play_game(game, [make_bot("careless") for _ in range(3)], seed, on_step=on_step)
        for c in checks.finish(final):
            standing += c["mayhem_standing"]
            overlooked += c["overlooked"]
    assert standing > 150
    assert 0.15 < overlooked / standing < 0.35
