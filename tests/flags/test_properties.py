"""Invariants under random play, with Hypothesis (PF-PIECE, PF-MOVE-3, PF-VIEW, PF-NOTE-2)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pyramids.core import CHANCE
from pyramids.flags import FlagsGame, FlagsOptions, FlagsState, position_from_json
from pyramids.flags.cards import CODES
from pyramids.flags.pieces import BY_NAME, NAMES, SIZE
from tests.playout import random_playout

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLAYERS = st.integers(min_value=2, max_value=4)


def check_invariants(s: FlagsState) -> None:
    """Pieces and cards each in exactly one place; no piece on a smaller one; views hide."""
    data = s.to_json()
    pieces = [p for t in data["towers"] for p in t] + data["bank"]
    pieces += [p for held in data["scoring"] for p in held]
    assert sorted(pieces) == sorted(NAMES), "PF-PIECE-1: every piece exactly once"
    for tower in data["towers"]:
        sizes = [SIZE[BY_NAME[p]] for p in tower]
        assert sizes == sorted(sizes, reverse=True), "PF-MOVE-3: nothing on a smaller piece"
    cards = [c for h in data["hands"] for c in h] + [c for x in data["scored"] for c in x]
    cards += data["deck"]
    assert sorted(cards) == sorted(CODES), "PF-CARD-1: every card exactly once"
    for seat in [*range(s.num_players), None]:
        view = s.view(seat).to_json()
        shown = {c for h in view["hands"] for c in h} | set(view["deck"])
        allowed = {"?"} | {c for x in data["scored"] for c in x}
        if seat is not None:
            allowed |= set(data["hands"][seat])
            allowed |= {CODES[c] for c in range(36) if (s.known_cards(seat) >> c) & 1}
        assert shown <= allowed, f"PF-VIEW: view({seat}) shows {shown - allowed}"
        if seat is None:
            assert shown == {"?"} or not shown


def _step(s: FlagsState, rng: random.Random) -> None:
    if s.current_player() == CHANCE:
        s.apply(s.sample_chance(rng))
    else:
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])


@settings(max_examples=15)
@given(SEEDS, PLAYERS, st.booleans())
def test_invariants_hold_at_every_step(seed: int, players: int, actions: bool) -> None:
    """PF-PIECE-1, PF-MOVE-3, PF-VIEW-4: "all 30 pieces always in exactly one place", no larger
    piece on a smaller one, views hide other hands and the deck."""
    s = FlagsGame(players, FlagsOptions(actions=actions)).new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(250):
        if s.is_terminal():
            break
        _step(s, rng)
        check_invariants(s)


@settings(max_examples=15)
@given(SEEDS, PLAYERS, st.integers(min_value=0, max_value=400))
def test_positions_round_trip_through_json(seed: int, players: int, steps: int) -> None:
    """PF-NOTE-2: to_json -> JSON text -> position_from_json -> to_json is the identity."""
    s = FlagsGame(players).new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        _step(s, rng)
    text = json.dumps(s.to_json())
    back = position_from_json(json.loads(text))
    assert json.dumps(back.to_json()) == text
    assert back.current_player() == s.current_player()
    assert back.legal_actions() == s.legal_actions()


@settings(max_examples=15)
@given(SEEDS, PLAYERS, st.integers(min_value=0, max_value=400))
def test_every_legal_action_prints_and_parses_back(seed: int, players: int, steps: int) -> None:
    """PF-NOTE-1: action_to_string and parse_action are inverse on legal actions."""
    s = FlagsGame(players).new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        _step(s, rng)
    for a in s.legal_actions():
        assert s.parse_action(s.action_to_string(a)) == a


@settings(max_examples=10)
@given(SEEDS, PLAYERS)
def test_same_seed_same_game(seed: int, players: int) -> None:
    """PF-SETUP-2: same seed and same choices give the same game, action for action."""
    game = FlagsGame(players)
    a, b = game.new_initial_state(seed), game.new_initial_state(seed)
    random_playout(a, random.Random(seed))
    random_playout(b, random.Random(seed))
    assert a == b and a.to_json() == b.to_json()


@settings(max_examples=20)
@given(SEEDS, PLAYERS, st.booleans())
def test_every_game_ends_under_random_play(seed: int, players: int, actions: bool) -> None:
    """PF-WIN-5: every game ends (a win, or max_turns at the latest); returns sum to 1."""
    s = FlagsGame(players, FlagsOptions(actions=actions)).new_initial_state(seed)
    random_playout(s, random.Random(seed))
    assert s.is_terminal()
    assert sum(s.returns()) == 1.0
    assert s.turn <= 3000
