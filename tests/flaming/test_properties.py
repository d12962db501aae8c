"""Property tests (Hypothesis) of Flaming Pyramids invariants over seeded random games.

Each example draws a setup (seed, 2-6 players, preset, curse, fire die, max_turns) and a
seed for the actions; the game is played to its end with random legal actions and
chance outcomes, and the invariant under test is checked after every action: tiles are
conserved, no mayhem stands at rest, clones and JSON round trips are faithful, views
hold nothing hidden, replays agree and every game ends.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from pyramids.core import TERMINAL
from pyramids.flaming import PRESETS, FlamingGame, FlamingOptions, FlamingState, position_from_json
from pyramids.flaming.state import NONE
from pyramids.flaming.tiles import (
    BY_NAME,
    IGNITES,
    IS_EMBER,
    MATERIAL,
    NAMES,
    NEIGHBOURS,
    SUPPORT_LEFT,
    SUPPORT_RIGHT,
    WEIGHT,
    fits,
    is_base,
    spot_name,
)
from pyramids.texts import describe

MAX_ACTIONS = 100_000
"""No game may take more actions than this (every turn has a bounded mayhem)."""

_TILE_TOKEN = re.compile(r"^([A-Z]\d+)(@-?\d+,-?\d+)?$")


@dataclass(frozen=True)
class Setup:
    """One example: the game's options and seeds."""

    players: int
    preset: str
    curse: bool | None
    fire_die: bool
    max_turns: int
    seed: int
    action_seed: int

    def game(self) -> FlamingGame:
        """The game these options describe."""
        return FlamingGame(
            self.players,
            FlamingOptions(
                preset=self.preset,
                curse=self.curse,
                fire_die=self.fire_die,
                max_turns=self.max_turns,
            ),
        )


setups = st.builds(
    Setup,
    players=st.sampled_from([2, 3, 4, 5, 6]),
    preset=st.sampled_from(PRESETS),
    curse=st.sampled_from([None, True, False]),
    fire_die=st.booleans(),
    max_turns=st.one_of(st.just(1000), st.integers(1, 40)),
    seed=st.integers(0, 2**32 - 1),
    action_seed=st.integers(0, 2**32 - 1),
)


def play(setup: Setup) -> Iterator[tuple[FlamingState, str | None]]:
    """Yield (state, action text that led to it): the initial state, then after every action.

    The state is the live game: callers must not change it.
    """
    state = setup.game().new_initial_state(setup.seed)
    rng = random.Random(setup.action_seed)
    yield state, None
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        action = state.sample_chance(rng) if state.chance_outcomes() else rng.choice(legal)
        text = state.action_to_string(action)
        state.apply(action)
        yield state, text
    raise AssertionError(f"{setup}: no end after {MAX_ACTIONS} actions")


def tiles_in_view(data: Any) -> set[str]:
    """Every tile code written anywhere in a JSON value (whole strings and keys only)."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            m = _TILE_TOKEN.match(item)
            if m and m.group(1) in BY_NAME:
                found.add(m.group(1))
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


# --- tiles are conserved --------------------------------------------------------------


@given(setups)
def test_every_tile_is_in_exactly_one_place(setup: Setup) -> None:
    """FP-NOTE-3: "A tile listed nowhere is not in the game"; FP-TILE-7 (basic has 40 tiles).

    After every action each tile of the preset is on the pyramid, in one hand, in one
    pile or out of the game, exactly once; tiles of other presets appear nowhere.
    """
    expected = {NAMES[t] for t in setup.game().options_obj.tiles}
    for state, text in play(setup):
        data = state.to_json()
        places = [entry.split("@")[0] for entry in data["pyramid"]]
        for seat in range(setup.players):
            places += data["hands"][seat] + data["piles"][seat]
        places += data["out"]
        counts = Counter(places)
        twice = sorted(t for t, c in counts.items() if c > 1)
        assert not twice, f"after {text}: {twice} in two places: {data}"
        assert set(counts) == expected, (
            f"after {text}: missing {sorted(expected - set(counts))}, "
            f"extra {sorted(set(counts) - expected)}"
        )
        assert all(len(data["hands"][s]) <= 5 for s in range(setup.players))


# --- no mayhem stands at rest -----------------------------------------------------------


def standing_mayhem(state: FlamingState) -> list[str]:
    """Everything the five mayhem checks would still find in ``state`` (FP-MAYHEM-1)."""
    board = state.board
    curse = state.game.options_obj.curse_on
    found = []
    for k, t in board.items():
        here = f"{NAMES[t]}@{spot_name(k)}"
        if not is_base(k):
            left = board.get(k + SUPPORT_LEFT)
            right = board.get(k + SUPPORT_RIGHT)
            if left is None and right is None:
                found.append(f"{here} is in free air")
            elif not fits(t, left, right):
                found.append(f"{here} does not fit")
            elif (
                curse
                and left is not None
                and right is not None
                and WEIGHT[t] == WEIGHT[left] == WEIGHT[right]
            ):
                found.append(f"{here} stands on a curse triple")
        if IS_EMBER[t]:
            quench = state.quenched.get(t, 0)
            for off in NEIGHBOURS:
                n = board.get(k + off)
                if n is None:
                    continue
                if IS_EMBER[n]:
                    found.append(f"embers {here} and {NAMES[n]} touch")
                elif MATERIAL[n] & IGNITES[t] and not (quench >> n) & 1:
                    found.append(f"{here} touches {NAMES[n]}, which it ignites")
    return found


@given(setups)
def test_no_mayhem_stands_when_the_pyramid_is_at_rest(setup: Setup) -> None:
    """FP-MAYHEM-2: "when no check finds anything the turn moves to its end".

    So whenever no decision is pending, every tile above the base has a support and
    fits (FP-FIT-1, FP-FIT-3), no two embers touch (FP-EXPLODE-1), no ember touches a
    tile it ignites except those it was quenched against (FP-FIRE-1, FP-DIE-6), and with
    the curse on no curse triple stands (FP-CURSE-2).
    """
    for state, text in play(setup):
        if state.pending[0] != NONE:
            continue
        mayhem = standing_mayhem(state)
        assert not mayhem, f"after {text}: {mayhem} in {state.to_json()}"


# --- clones, JSON, replays ----------------------------------------------------------------


@given(setups)
def test_a_clone_is_equal_and_independent(setup: Setup) -> None:
    """Core protocol: clone() is an equal copy that shares nothing mutable with its source."""
    rng = random.Random(setup.action_seed ^ 0x5EED)
    for state, text in play(setup):
        copy = state.clone()
        assert copy == state, f"after {text}"
        before = state.to_json()
        legal = copy.legal_actions()
        if legal:
            copy.apply(rng.choice(legal))
            assert state.to_json() == before, (
                f"after {text}: changing the clone changed the original"
            )
            assert state.legal_actions() == legal


@given(setups)
def test_a_position_round_trips_through_json_and_plays_on_the_same(setup: Setup) -> None:
    """FP-NOTE-3/FP-NOTE-4: a position (mid-turn decisions included) is fully written in JSON.

    to_json -> position_from_json -> to_json is the identity, the loaded position offers
    the same decisions, and the next action leads to the same position from both.
    """
    loaded: FlamingState | None = None
    for state, text in play(setup):
        data = state.to_json()
        if loaded is not None:
            assert text is not None
            loaded.apply(loaded.parse_action(text))
            assert loaded.to_json() == data, f"{text} from a loaded position went elsewhere"
        loaded = position_from_json(json.loads(json.dumps(data)))
        assert loaded.to_json() == data, f"after {text}"
        assert loaded.current_player() == state.current_player(), f"after {text}"
        assert loaded.legal_actions() == state.legal_actions(), f"after {text}"


@given(setups)
def test_the_same_seed_and_actions_give_the_same_game(setup: Setup) -> None:
    """FP-SETUP-1 and core: the deal comes from the seed; actions then decide everything."""
    positions = []
    events = []
    texts = []
    for state, text in play(setup):
        positions.append(state.to_json())
        events.append([describe(e, "en") for e in state.events()] if text else [])
        if text is not None:
            texts.append(text)
    again = setup.game().new_initial_state(setup.seed)
    assert again.to_json() == positions[0]
    for i, text in enumerate(texts, start=1):
        again.apply(again.parse_action(text))
        assert again.to_json() == positions[i], f"action {i} ({text})"
        assert [describe(e, "en") for e in again.events()] == events[i], f"action {i} ({text})"


@given(setups)
def test_every_game_ends_within_max_turns(setup: Setup) -> None:
    """FP-END-4: "Option max_turns ... ends a game nobody has won after that many turns"."""
    state = setup.game().new_initial_state(setup.seed)
    for state, _ in play(setup):
        assert state.turn <= setup.max_turns
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    if state.winner is not None:
        assert state.hand(state.winner) == [] and state.pile(state.winner) == []
        assert sum(state.returns()) == 1.0
    else:
        assert state.turn == setup.max_turns
        left = [len(state.hand(s)) + len(state.pile(s)) for s in range(setup.players)]
        ranking = state.ranking
        assert ranking is not None
        for s in range(setup.players):
            assert ranking[s] == 1 + sum(1 for x in left if x < left[s])
        assert abs(sum(state.returns()) - 1.0) < 1e-9


# --- views hold nothing hidden ---------------------------------------------------------


class PublicMemory:
    """What perfect memory of public events tells (FP-VIEW-2), rebuilt from raw events.

    Per seat: how many tiles at the top of the pile nobody saw go there, the tiles
    publicly sent under the pile (top to bottom), and the tiles drawn from that public
    part, known to be in the hand until played.
    """

    def __init__(self, state: FlamingState) -> None:
        n = state.num_players
        self.hidden = [len(state.pile(s)) for s in range(n)]
        self.pile: list[list[int]] = [[] for _ in range(n)]
        self.hand: list[set[int]] = [set() for _ in range(n)]

    def update(self, raw_events: list[tuple[Any, ...]]) -> None:
        """Follow one action's raw events."""
        for raw in raw_events:
            kind = raw[0]
            if kind == "place":
                self.hand[raw[1]].discard(raw[2])
            elif kind == "collapse":
                self.pile[raw[1]] += [t for t, _ in raw[4]]
            elif kind == "explosion":
                self.pile[raw[1]] += [t for t, _ in raw[3]]
            elif kind in ("fire", "die_explosion"):
                self.pile[raw[1]] += [t for t, _ in raw[4]]
            elif kind == "curse":
                self.pile[raw[2]] += [t for t, _ in raw[3]]
            elif kind == "draw":
                seat, drawn = raw[1], raw[2]
                for _ in range(drawn):
                    if self.hidden[seat]:
                        self.hidden[seat] -= 1
                    else:
                        self.hand[seat].add(self.pile[seat].pop(0))


@given(setups)
def test_a_view_holds_no_other_seats_hidden_tiles(setup: Setup) -> None:
    """FP-VIEW-3: a view "holds nothing else: no other hand beyond FP-VIEW-2, no pile order".

    Tracking public events independently (FP-VIEW-2), seat p's view JSON names only
    tiles on the pyramid, out of the game, publicly sent under a pile, publicly known
    in a hand, or in p's own hand; its known pile parts and known hands are exactly
    what perfect memory gives. Tile codes are compared as whole strings.
    """
    memory: PublicMemory | None = None
    for state, text in play(setup):
        if memory is None:
            memory = PublicMemory(state)
        else:
            memory.update(state.raw_events())
        public = set(state.board.values()) | set(state.out)
        for seat in range(setup.players):
            pile = state.pile(seat)
            assert pile[memory.hidden[seat] :] == memory.pile[seat], f"after {text}"
            assert memory.hand[seat] <= set(state.hand(seat)), f"after {text}"
            public |= set(memory.pile[seat]) | memory.hand[seat]
        for viewer in [*range(setup.players), None]:
            view = state.view(viewer).to_json()
            own = set() if viewer is None else set(state.hand(viewer))
            allowed = {NAMES[t] for t in public | own}
            leaked = sorted(tiles_in_view(view) - allowed)
            assert not leaked, f"after {text}: view({viewer}) shows hidden {leaked}: {view}"
            for seat in range(setup.players):
                assert view["pile_known"][seat] == [NAMES[t] for t in memory.pile[seat]]
                assert sorted(view["hand_known"][seat]) == sorted(
                    NAMES[t] for t in memory.hand[seat]
                )
                assert view["hand_sizes"][seat] == len(state.hand(seat))
                assert view["pile_sizes"][seat] == len(state.pile(seat))
            if viewer is None:
                assert view["hand"] is None
            else:
                assert view["hand"] == [NAMES[t] for t in state.hand(viewer)]


def test_history_lists_every_action_since_the_deal_and_clones_keep_their_own() -> None:
    """``history()``: every action and chance outcome applied since dealt or loaded, in order."""
    game = FlamingGame(3, FlamingOptions(preset="standard", fire_die=True))
    state = game.new_initial_state(4)
    rng = random.Random(4)
    applied = []
    for _ in range(40):
        if state.is_terminal():
            break
        action = (
            state.sample_chance(rng)
            if state.current_player() < 0
            else rng.choice(state.legal_actions())
        )
        state.apply(action)
        applied.append(action)
    assert state.history() == applied
    copy = state.clone()
    assert copy == state and copy.history() == applied
    if not copy.is_terminal():
        copy.apply(copy.legal_actions()[0])
        assert state.history() == applied and len(copy.history()) == len(applied) + 1
    assert position_from_json(state.to_json()).history() == []
