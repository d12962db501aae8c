"""Setup (PF-SETUP, PF-PIECE) and the game's metadata."""

from __future__ import annotations

import random

import pytest

from pyramids.core.errors import PositionError
from pyramids.flags import INFO, RULES_VERSION, FlagsGame, FlagsOptions
from pyramids.flags.cards import CODES
from pyramids.flags.pieces import NAMES


def test_thirty_pieces_ten_colours_three_sizes() -> None:
    """PF-PIECE-1: "One trio (sizes 1 small, 2 medium, 3 large) in each of ten colours"."""
    assert len(NAMES) == 30
    assert NAMES[:6] == ("K1", "K2", "K3", "W1", "W2", "W3")
    assert {n[0] for n in NAMES} == set("KWYBGROPCX")
    assert {n[1] for n in NAMES} == {"1", "2", "3"}


def test_setup_18_single_towers_and_the_bank() -> None:
    """PF-SETUP-1: "the 18 flag pieces stand on the table one by one ... The 12 scoring pieces form the bank"."""
    data = FlagsGame(3).new_initial_state(7).to_json()
    assert data["towers"] == [[n] for n in NAMES[:18]]
    assert data["bank"] == list(NAMES[18:])
    assert data["scoring"] == [[], [], []]
    assert data["scored"] == [[], [], []]
    assert data["last_moved"] == []
    assert data["turn"] == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_four_cards_each_from_the_seeded_shuffle(players: int) -> None:
    """PF-SETUP-2: "The 36 goal cards are shuffled and each player is dealt 4"."""
    seed = 1234
    data = FlagsGame(players).new_initial_state(seed).to_json()
    deck = list(range(36))
    random.Random(seed).shuffle(deck)
    expected_hands = [
        [CODES[deck[i]] for i in range(s, 4 * players, players)] for s in range(players)
    ]
    assert data["hands"] == expected_hands
    assert data["deck"] == [CODES[c] for c in deck[4 * players :]]
    assert len(data["deck"]) == 36 - 4 * players


def test_seat_0_starts_unless_first_player() -> None:
    """PF-SETUP-3: "Seat 0 starts; play passes to the next seat" (option first_player)."""
    assert FlagsGame(3).new_initial_state(1).current_player() == 0
    game = FlagsGame(3, FlagsOptions(first_player=2))
    s = game.new_initial_state(1)
    assert s.current_player() == 2
    s.apply(s.legal_actions()[0])
    assert s.current_player() == 0


def test_two_to_four_players() -> None:
    """PF-SETUP-4: "2–4 players"."""
    for bad in (1, 5, True):
        with pytest.raises(PositionError) as caught:
            FlagsGame(bad)
        assert (caught.value.code, caught.value.data) == (
            "game.player_count",
            {"game": "flags", "players": bad, "low": 2, "high": 4},
        )
    with pytest.raises(PositionError) as caught:
        FlagsGame(3, FlagsOptions(first_player=3))
    assert (caught.value.code, caught.value.data) == (
        "game.first_player",
        {"first_player": 3, "players": 3},
    )


def test_same_seed_same_deal_other_seed_other_deal() -> None:
    """PF-SETUP-2: the shuffle is drawn from random.Random(seed) only."""
    game = FlagsGame(4)
    assert game.new_initial_state(5) == game.new_initial_state(5)
    assert game.new_initial_state(5).to_json() != game.new_initial_state(6).to_json()


def test_metadata_and_options() -> None:
    """PF-NOTE-2: the options are the position's rules (actions, max_turns) plus first_player."""
    assert RULES_VERSION == "flags-2"
    assert INFO.short_name == "flags"
    assert (INFO.min_players, INFO.max_players) == (2, 4)
    assert INFO.has_chance and INFO.has_hidden_information
    assert INFO.default_options == {"actions": True, "max_turns": 3000, "first_player": 0}
    game = FlagsGame.from_options(3, {"actions": False, "max_turns": 50})
    assert dict(game.options) == {"actions": False, "max_turns": 50, "first_player": 0}
    assert game == FlagsGame(3, FlagsOptions(actions=False, max_turns=50))
    with pytest.raises(PositionError) as refused:
        FlagsGame.from_options(2, {"preset": "standard"})
    assert refused.value.code == "position.unknown_fields"
    assert refused.value.data == {"field": "rules", "fields": ["preset"]}
    with pytest.raises(PositionError) as refused:
        FlagsOptions(max_turns=0)
    assert refused.value.code == "position.out_of_range"
    assert refused.value.data == {"field": "max_turns", "value": 0, "low": 1, "high": None}
    with pytest.raises(PositionError) as refused:
        FlagsGame.from_options(2, {"actions": "yes"})
    assert refused.value.code == "position.not_a_boolean"
    assert refused.value.data == {"field": "actions", "value": "yes"}
