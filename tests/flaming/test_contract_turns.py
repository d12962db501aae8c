"""Contract sections 3, 6 (curse), 7 and 8: setup, the curse, end of turn, end of game,
presets and matches.

Rules FP-SETUP-*, FP-CURSE-*, FP-END-*, FP-OPT-* of docs/RULES.md.
"""

from __future__ import annotations

import random

import pytest

from pyramids.core import TERMINAL, IllegalActionError
from pyramids.flaming import FlamingGame, FlamingOptions, FlamingState
from pyramids.flaming.match import Match
from pyramids.flaming.tiles import ALL_TILES, BASIC_TILES, EMBERS, IS_EMBER, MILLSTONE, NAMES
from tests.flaming.helpers import hands, kinds, of_kind, piles, play, position, pyramid

# --- setup (FP-SETUP) --------------------------------------------------------------------

_DEALS = [
    # preset, players, tiles per player, leftovers (FP-SETUP-2)
    ("standard", 2, 22, 1),
    ("standard", 3, 15, 0),
    ("standard", 4, 11, 1),
    ("standard", 5, 9, 0),
    ("standard", 6, 7, 3),
    ("basic", 2, 20, 0),
    ("basic", 3, 13, 1),
    ("basic", 4, 10, 0),
    ("basic", 5, 8, 0),
    ("basic", 6, 6, 4),
]


@pytest.mark.parametrize(("preset", "players", "each", "leftovers"), _DEALS)
def test_setup_deals_equal_piles_and_the_leftovers_form_the_base(
    preset: str, players: int, each: int, leftovers: int
) -> None:
    """FP-SETUP-1..3: "deal every player floor(N / players) tiles face down as their draw
    pile ... The leftover tiles become the base row at columns 0, 2, 4, ... any ember among
    them is removed from the game first and the rest close up. Each player draws a hand
    of 5."
    """
    game = FlamingGame(players, FlamingOptions(preset=preset))
    expected_tiles = {NAMES[t] for t in (BASIC_TILES if preset == "basic" else ALL_TILES)}
    for seed in range(25):
        state = game.new_initial_state(seed)
        data = state.to_json()
        assert [len(h) for h in data["hands"]] == [5] * players
        assert [len(p) for p in data["piles"]] == [each - 5] * players
        base = data["pyramid"]
        assert len(base) + len(data["out"]) == leftovers
        assert base == [f"{t.split('@')[0]}@0,{2 * i}" for i, t in enumerate(base)]
        assert all(IS_EMBER[_tile(t)] for t in data["out"])
        assert not any(IS_EMBER[_tile(t.split("@")[0])] for t in base)
        removed = [e.data["tile"] for e in of_kind(state.events(), "setup_removed")]
        assert removed == data["out"]
        every = [t.split("@")[0] for t in base] + data["out"]
        for seat in range(players):
            every += data["hands"][seat] + data["piles"][seat]
        assert sorted(every) == sorted(expected_tiles)
        assert data["to_move"] == 0
        assert data["turn"] == 1
        assert "pending" not in data
        assert state.current_player() == 0


def _tile(name: str) -> int:
    return NAMES.index(name)


def test_setup_removes_an_ember_among_the_leftovers_and_closes_up() -> None:
    """FP-SETUP-2, R "Set Up": "If any of the leftover tiles are an Ember ... remove it";
    the rest close up with no gap.

    Six players, 45 tiles: 3 leftovers. Some seeds deal an ember among them.
    """
    game = FlamingGame(6, FlamingOptions(preset="standard"))
    seen_removal = False
    for seed in range(300):
        data = game.new_initial_state(seed).to_json()
        if data["out"]:
            seen_removal = True
            cols = [int(t.split(",")[1]) for t in data["pyramid"]]
            assert cols == list(range(0, 2 * (3 - len(data["out"])), 2))
    assert seen_removal


def test_setup_first_player_option_chooses_who_starts() -> None:
    """FP-SETUP-4: "Seat 0 plays first unless option first_player names another seat."."""
    state = FlamingGame(4, FlamingOptions(first_player=2)).new_initial_state(1)
    assert state.to_move == 2
    assert state.current_player() == 2


def test_setup_is_deterministic_from_the_seed() -> None:
    """FP-SETUP-1: the shuffle is a chance event drawn from the seed."""
    game = FlamingGame(3)
    assert game.new_initial_state(7) == game.new_initial_state(7)
    assert game.new_initial_state(7).to_json() != game.new_initial_state(8).to_json()


# --- presets and options (FP-OPT) ----------------------------------------------------------


def test_presets_set_the_tiles_and_the_curse() -> None:
    """FP-OPT-1: basic has no embers and no millstone (40 tiles) and no curse; family has
    all 45 tiles and no curse; standard has all 45 and the curse.
    """
    basic = FlamingOptions(preset="basic")
    assert len(basic.tiles) == 40
    assert not set(EMBERS) & basic.tiles
    assert MILLSTONE not in basic.tiles
    assert basic.curse_on is False
    family = FlamingOptions(preset="family")
    assert len(family.tiles) == 45
    assert family.curse_on is False
    standard = FlamingOptions()
    assert standard.preset == "standard"
    assert len(standard.tiles) == 45
    assert standard.curse_on is True
    assert standard.fire_die is False
    assert standard.max_turns == 1000


# --- the curse (FP-CURSE) --------------------------------------------------------------------


def test_curse_is_off_in_the_family_preset() -> None:
    """FP-CURSE-1: "The curse applies only when option curse is on (by default only in
    preset standard)."

    ``Y6@1,1`` on ``R6@0,0 B6@0,2`` in a family game: the three 6s stay.
    """
    state = position(
        pyramid=["R6@0,0", "B6@0,2"],
        hands=[["Y6", "G4"], ["G2"], ["B2"]],
        rules={"preset": "family"},
    )
    events = play(state, "Y6@1,1")
    assert kinds(events) == ["place"]
    assert pyramid(state) == ["R6@0,0", "B6@0,2", "Y6@1,1"]


@pytest.mark.parametrize(
    ("rules", "cursed"),
    [
        ({"preset": "standard", "curse": False}, False),
        ({"preset": "family", "curse": True}, True),
        ({"preset": "basic", "curse": True}, True),
    ],
)
def test_curse_option_is_independent_of_the_preset(rules: dict[str, object], cursed: bool) -> None:
    """FP-OPT-2: "Options set independently of the preset: curse (on/off) ..."."""
    state = position(
        pyramid=["R6@0,0", "B6@0,2"], hands=[["Y6", "G4"], ["G2"], ["B2"]], rules=rules
    )
    events = play(state, "Y6@1,1")
    assert bool(of_kind(events, "curse")) is cursed


def test_curse_passes_the_fall_choice_and_follow_up_tiles_to_the_player_on_the_right() -> None:
    """FP-CURSE-3, FP-CURSE-5, FP-END-1: "Any tiles from follow-up collapses or fires also go
    under the draw pile of the player to the right. That player decides the direction
    tiles fall after a collapse."

        row 1:   (Y6 played)  B60@1,3
        row 0: R6@0,0   B6@0,2    G100@0,4

    Seat 0 of 3 plays ``Y6@1,1``: Y6, R6, B6 go under seat 2's pile and seat 2 becomes P.
    B60 is left on G100 alone, which it does not match: G100 goes under seat 2's pile too
    and seat 2 chooses the fall. Then seat 0 (not seat 2) draws, and seat 1 plays next.
    """
    state = position(
        pyramid=["R6@0,0", "B6@0,2", "G100@0,4", "B60@1,3"],
        hands=[["Y6", "Y2", "G2", "G4", "R4"], ["G6"], ["B2", "B4"]],
        piles=[["Y4"], ["R2"], ["G10"]],
    )
    events = play(state, "Y6@1,1")
    assert kinds(events) == ["place", "curse", "collapse"]
    assert of_kind(events, "curse")[0].data["target"] == 2
    assert of_kind(events, "collapse")[0].data["seat"] == 2
    assert state.current_player() == 2
    assert state.responsible == 2
    assert state.to_json()["pending"] == {"player": 2, "kind": "fall", "tile": "B60@1,3"}

    events = play(state, "right")
    assert kinds(events) == ["fall", "draw"]
    assert events[0].data["seat"] == 2
    assert of_kind(events, "draw")[0].data["seat"] == 0
    assert pyramid(state) == ["B60@0,4"]
    assert piles(state) == [[], ["R2"], ["G10", "Y6", "R6", "B6", "G100"]]
    assert hands(state) == [["Y2", "G2", "G4", "R4", "Y4"], ["G6"], ["B2", "B4"]]
    assert state.to_move == 1
    assert state.turn == 2


_DOUBLE_CURSE = [
    "G40@0,0",
    "B40@0,2",
    "Y20@0,4",
    "G20@0,6",
    "G10@1,1",
    "B10@1,3",
    "Y10@1,5",
    "B20@2,4",
]
"""
    row 2:          (R10 played)  B20@2,4
    row 1:     G10@1,1      B10@1,3      Y10@1,5
    row 0: G40@0,0   B40@0,2      Y20@0,4      G20@0,6
"""


def test_a_second_curse_passes_one_more_seat_to_the_right() -> None:
    """FP-CURSE-4: "Each further curse in the same turn passes again, one seat to the right
    of the current P."

    Seat 0 of 3 plays ``R10@2,2``: R10, G10, B10 are cursed to seat 2. B20 is left on Y10
    alone (20 > 10): Y10 goes to seat 2, who lets B20 fall right onto Y20 and G20: a
    mini-pyramid of 20s, cursed to seat 1 (seat 2's right). Seat 0 still draws and seat 1
    plays next.
    """
    state = position(
        pyramid=_DOUBLE_CURSE,
        hands=[["R10", "Y2", "G2", "G4", "R4"], ["G6"], ["B2"]],
        piles=[["Y4"], ["R2"], ["B4"]],
    )
    events = play(state, "R10@2,2")
    assert kinds(events) == ["place", "curse", "collapse"]
    assert state.current_player() == 2
    events = play(state, "right")
    assert kinds(events) == ["fall", "curse", "draw"]
    curse = of_kind(events, "curse")[0]
    assert (curse.data["seat"], curse.data["target"]) == (2, 1)
    assert state.responsible == 1  # a new turn: P is again the active player
    assert pyramid(state) == ["G40@0,0", "B40@0,2"]
    assert piles(state) == [[], ["R2", "B20", "Y20", "G20"], ["B4", "R10", "G10", "B10", "Y10"]]
    assert hands(state)[0] == ["Y2", "G2", "G4", "R4", "Y4"]
    assert state.to_move == 1


def test_with_two_players_a_second_curse_comes_back_to_the_active_player() -> None:
    """FP-CURSE-4: "(with 2 players, back and forth)".

    The same position with two seats: the 10s and Y10 go to seat 1, who chooses the fall;
    the 20s go back to seat 0, the active player, who then draws from the top of the pile.
    """
    state = position(
        pyramid=_DOUBLE_CURSE,
        hands=[["R10", "Y2", "G2", "G4", "R4"], ["G6"]],
        piles=[["Y4"], ["R2"]],
    )
    play(state, "R10@2,2")
    assert state.current_player() == 1
    events = play(state, "right")
    assert (of_kind(events, "curse")[0].data["target"]) == 0
    assert piles(state) == [["B20", "Y20", "G20"], ["R2", "R10", "G10", "B10", "Y10"]]
    assert hands(state)[0] == ["Y2", "G2", "G4", "R4", "Y4"]
    assert state.to_move == 1


# --- end of turn (FP-END) ----------------------------------------------------------------------


def test_the_active_player_draws_up_to_five_from_the_top_of_the_pile() -> None:
    """FP-END-1: "the active player ... draws from the top of their pile until they hold 5
    tiles or the pile is empty."
    """
    state = position(
        pyramid=["R100@0,0", "B120@0,2"],
        hands=[["R40", "Y2", "G2"], ["G4"]],
        piles=[["Y4", "B4", "R4", "G6"], ["R2"]],
    )
    events = play(state, "R40@1,1")
    assert kinds(events) == ["place", "draw"]
    assert events[1].data == {"seat": 0, "count": 3}
    assert hands(state)[0] == ["Y2", "G2", "Y4", "B4", "R4"]
    assert piles(state)[0] == ["G6"]


def test_drawing_stops_when_the_pile_is_empty() -> None:
    """FP-END-1: "until they hold 5 tiles or the pile is empty."."""
    state = position(
        pyramid=["R100@0,0", "B120@0,2"], hands=[["R40", "Y2"], ["G4"]], piles=[["Y4"], ["R2"]]
    )
    play(state, "R40@1,1")
    assert hands(state)[0] == ["Y2", "Y4"]
    assert piles(state)[0] == []


def test_play_passes_to_the_left() -> None:
    """FP-END-3, FP-SETUP-5: "the player to the left of seat s is seat s+1 mod n (the next
    to play)."
    """
    state = position(
        pyramid=["R100@0,0", "B120@0,2"],
        hands=[["G4"], ["R2"], ["R40", "Y2"]],
        to_move=2,
        turn=9,
    )
    play(state, "R40@1,1")
    assert state.to_move == 0
    assert state.turn == 10
    assert state.current_player() == 0


def test_the_last_tile_that_fits_wins() -> None:
    """FP-END-2: "If the active player then has no tiles in hand or pile, they win and the
    game ends."
    """
    state = position(pyramid=["R100@0,0", "B120@0,2"], hands=[["R40"], ["G4"]])
    events = play(state, "R40@1,1")
    assert kinds(events) == ["place", "win"]
    assert state.winner == 0
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    assert state.returns() == [1.0, 0.0]
    assert state.to_json()["winner"] == 0


def test_the_last_tile_that_collapses_its_supports_does_not_win() -> None:
    """FP-END-2: "emptying the hand is not enough when mayhem gave tiles back" (F 001 "sans
    en récupérer suite à un chaos").

    The last tile ``Y100@1,1`` is too heavy on ``R10@0,0 B10@0,2``: they come back under
    the pile and are drawn; no one wins and seat 1 plays.
    """
    state = position(pyramid=["R10@0,0", "B10@0,2"], hands=[["Y100"], ["G4"]])
    events = play(state, "Y100@1,1", "left")
    assert kinds(events) == ["place", "collapse", "fall", "draw"]
    assert state.winner is None
    assert not state.is_terminal()
    assert hands(state)[0] == ["R10", "B10"]
    assert pyramid(state) == ["Y100@0,0"]
    assert state.to_move == 1


def test_an_empty_hand_with_tiles_left_in_the_pile_is_not_a_win() -> None:
    """FP-END-2: "no tiles in hand or pile"."""
    state = position(pyramid=["R100@0,0", "B120@0,2"], hands=[["R40"], ["G4"]], piles=[["Y4"], []])
    events = play(state, "R40@1,1")
    assert kinds(events) == ["place", "draw"]
    assert state.winner is None
    assert hands(state)[0] == ["Y4"]


def _ranked(counts: list[int], max_turns: int = 5, turn: int = 5) -> FlamingState:
    """Seat 0 plays ``R40@1,1`` at ``turn``; afterwards seat i has ``counts[i]`` tiles."""
    spare = ["Y2", "Y4", "Y6", "R2", "R4", "R6", "G2", "G4", "G6", "B2", "B4", "B6"]
    spare += ["Y10", "Y20", "Y30", "G10", "G20", "G30", "B10", "B20", "B30", "B40"]
    hands_: list[list[str]] = [["R40"]]
    for _ in range(counts[0]):
        hands_[0].append(spare.pop())
    for c in counts[1:]:
        hands_.append([spare.pop() for _ in range(c)])
    return position(
        pyramid=["R100@0,0", "B120@0,2"],
        hands=hands_,
        rules={"preset": "standard", "max_turns": max_turns},
        turn=turn,
    )


def test_max_turns_ranks_by_tiles_left_with_ties_sharing() -> None:
    """FP-END-4: "Seats are ranked by tiles left (hand plus pile), fewest first; tied seats
    share a rank and the next rank skips (standard competition ranking: 1, 2, 2, 4)."
    """
    state = _ranked([1, 3, 3, 5])
    events = play(state, "R40@1,1")
    assert kinds(events) == ["place", "max_turns"]
    assert state.ranking == [1, 2, 2, 4]
    assert state.to_json()["ranking"] == [1, 2, 2, 4]
    assert state.winner is None
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.returns() == [1.0, 0.0, 0.0, 0.0]


def test_max_turns_shares_the_win_between_tied_leaders() -> None:
    """FP-END-4, FP-END-5: "after max_turns, 1 is split equally among the seats ranked 1"."""
    state = _ranked([2, 2, 4])
    play(state, "R40@1,1")
    assert state.ranking == [1, 1, 3]
    assert state.returns() == [0.5, 0.5, 0.0]


def test_the_game_goes_on_before_max_turns() -> None:
    """FP-END-4: max_turns "ends a game nobody has won after that many turns"."""
    state = _ranked([1, 3, 3, 5], max_turns=5, turn=4)
    play(state, "R40@1,1")
    assert not state.is_terminal()
    assert state.turn == 5


def test_a_win_on_the_last_allowed_turn_is_a_win() -> None:
    """FP-END-2, FP-END-4: max_turns ends only "a game that no one has won by then"."""
    state = position(
        pyramid=["R100@0,0", "B120@0,2"],
        hands=[["R40"], ["G4"]],
        rules={"preset": "standard", "max_turns": 3},
        turn=3,
    )
    play(state, "R40@1,1")
    assert state.winner == 0
    assert state.ranking is None


# --- matches (FP-OPT-4) ------------------------------------------------------------------------


def test_match_first_player_moves_one_seat_to_the_left_each_hand() -> None:
    """FP-OPT-4: "each hand's first player sits one seat to the left of the previous
    hand's."
    """
    match = Match(players=3, hands=4, seed=5)
    firsts = [
        match.game_for_hand(i).new_initial_state(match.seed_for_hand(i)).to_move for i in range(4)
    ]
    assert firsts == [0, 1, 2, 0]
    shifted = Match(players=3, hands=3, options=FlamingOptions(first_player=1))
    assert [shifted.game_for_hand(i).options_obj.first_player for i in range(3)] == [1, 2, 0]


def test_match_each_hand_is_dealt_afresh() -> None:
    """FP-OPT-4: "Each hand is dealt afresh from the full tile set of the preset"."""
    match = Match(players=2, hands=2, seed=3)
    first = match.game_for_hand(0).new_initial_state(match.seed_for_hand(0))
    second = match.game_for_hand(1).new_initial_state(match.seed_for_hand(1))
    assert first.to_json()["hands"] != second.to_json()["hands"]


def test_match_scores_tiles_left_and_the_lowest_total_wins() -> None:
    """FP-OPT-4: "at its end every player scores the tiles they have left (the winner 0);
    the lowest match total wins".
    """
    match = Match(players=3, hands=2)
    first = position(
        pyramid=["R100@0,0"],
        hands=[["R40", "Y2"], [], ["G2"]],
        piles=[["B4"], [], []],
        winner=1,
    )
    assert match.record_hand(first) == [3, 0, 1]
    assert not match.is_over
    second = position(
        pyramid=["R100@0,0"], hands=[[], ["R40", "Y2"], ["G2"]], piles=[[], ["B4"], []], winner=0
    )
    assert match.record_hand(second) == [0, 3, 1]
    assert match.is_over
    assert match.totals == [3, 3, 2]
    assert match.winners() == [2]


def test_match_refuses_to_score_an_unfinished_hand() -> None:
    """FP-OPT-4: a hand is scored "at its end"."""
    match = Match(players=2, hands=1)
    with pytest.raises(IllegalActionError) as caught:
        match.record_hand(position(pyramid=["R100@0,0"], hands=[["R40"], ["G2"]]))
    assert caught.value.code == "flaming.hand_not_over"


def test_match_scores_a_played_hand_with_the_winner_at_zero() -> None:
    """FP-OPT-4, FP-END-2: a real hand, played to its end by always taking the first legal
    action (die rolls drawn from a seeded generator), scores the winner 0.
    """
    match = Match(players=2, hands=1, options=FlamingOptions(fire_die=True), seed=11)
    state = match.game_for_hand(0).new_initial_state(match.seed_for_hand(0))
    rng = random.Random(0)
    while not state.is_terminal():
        if state.chance_outcomes():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(state.legal_actions()[0])
    scores = match.record_hand(state)
    if state.winner is not None:
        assert scores[state.winner] == 0
        assert all(s > 0 for i, s in enumerate(scores) if i != state.winner)
    else:
        assert state.ranking is not None
    assert scores == [len(state.hand(s)) + len(state.pile(s)) for s in range(2)]
