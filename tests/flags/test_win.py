"""Winning and the safeguard endings (PF-WIN, contract section 5)."""

from __future__ import annotations

from pyramids.core.errors import IllegalActionError, PositionError
from pyramids.flags import position_from_json as state_from
from tests.flags import event_kinds, play, state
from tests.flags.refusals import refused

CZE_READY = {"towers": [["B3", "R2"]]}  # W1>R2 builds CZE (B3 R2 W1; pieces O2 P2 C1 X3)


def test_five_flags_win_at_once_without_capture_or_draw() -> None:
    """PF-WIN-1, PF-WIN-4: "A player wins at once on 5 scored flags ... with no further take, draw"."""
    s = state(**CZE_READY, hands=[["CZE"], ["ITA"]], scored=[["ARG", "BRA", "CHN", "JPN"], []])
    play(s, "W1>R2")
    assert s.winner == 0 and s.is_terminal()
    assert event_kinds(s) == ["move", "flag", "win"]
    assert s.events()[-1].data == {"seat": 0, "condition": "flags", "detail": 5}
    assert s.to_json()["bank"] == [
        "O1",
        "O2",
        "O3",
        "P1",
        "P2",
        "P3",
        "C1",
        "C2",
        "C3",
        "X1",
        "X2",
        "X3",
    ]
    assert s.returns() == [1.0, 0.0]
    assert s.legal_actions() == []
    with refused(IllegalActionError, "flags.game_over"):
        s.apply(0)


def test_three_flags_of_one_group_win() -> None:
    """PF-WIN-2: "3 scored flags of one group (EU, Africa, Caribbean, Oil)"."""
    s = state(**CZE_READY, hands=[["CZE"], ["ITA"]], scored=[["AUT", "BEL"], []])
    play(s, "W1>R2")
    assert s.winner == 0
    assert s.events()[-1].data["detail"] == "EU"


def test_a_card_in_two_groups_counts_for_both() -> None:
    """PF-WIN-2: "a card in two groups counts for both": NGA (Africa, Oil) after SAU and KWT (Oil)."""
    s = state(towers=[["G3", "W2"]], hands=[["NGA"], ["ITA"]], scored=[["SAU", "KWT"], []])
    play(s, "G1>W2")
    assert s.winner == 0
    assert s.events()[-1].data["detail"] == "Oil"
    s = state(towers=[["G3", "W2"]], hands=[["NGA"], ["ITA"]], scored=[["EGY", "KEN"], []])
    play(s, "G1>W2")
    assert s.events()[-1].data["detail"] == "Africa"


def test_two_groups_of_two_do_not_win() -> None:
    """PF-WIN-2: three flags of ONE group; EU + Africa + Caribbean is no group win."""
    s = state(**CZE_READY, hands=[["CZE"], ["ITA"]], scored=[["EGY", "CUB"], []])
    play(s, "W1>R2")
    assert s.winner is None


def test_eight_points_win_at_the_take() -> None:
    """PF-WIN-3, PF-WIN-4: 8 points; "The check runs ... after each take"; no second take, no draw."""
    s = state(**CZE_READY, hands=[["CZE"], ["ITA"]], scoring=[["O1", "O3", "P1"], []])
    play(s, "W1>R2")
    assert s.points(0) == 3
    play(s, "take:O2")  # O1 O2 O3 one-colour trio (7) + P1 (1) = 8
    assert s.winner == 0
    assert event_kinds(s) == ["take", "win"]
    assert s.events()[-1].data == {"seat": 0, "condition": "points", "detail": 8}


def test_the_holder_of_a_flag_built_by_another_wins_out_of_turn() -> None:
    """PF-WIN-4: the check after a card goes face up; the holder may win on another's move."""
    s = state(**CZE_READY, hands=[["ITA"], ["CZE"]], scored=[[], ["AUT", "BEL"]])
    play(s, "W1>R2")
    assert s.winner == 1
    assert s.returns() == [0.0, 1.0]


def test_trade_checks_the_acting_player_first() -> None:
    """PF-WIN-4: "the acting player first, then the others in turn order; the first winner found"."""
    # Seat 0 trades P3 for seat 1's O3: both then hold 8 points; seat 0 acts, so seat 0 wins.
    s = state(
        towers=[["B3", "B2"]],
        scoring=[["O1", "O2", "P3", "C1"], ["O3", "P1", "P2", "C2"]],
        hands=[["ITA"], ["FRA"]],
    )
    play(s, "B1>B2", "trade:P3:O3@1")
    assert s.to_json()["scoring"] == [["O1", "O2", "O3", "C1"], ["P1", "P2", "P3", "C2"]]
    assert s.points(0) == s.points(1) == 8
    assert s.winner == 0


def test_trade_can_make_the_opponent_win() -> None:
    """PF-WIN-4: the check after a trade covers "the others in turn order"."""
    s = state(
        towers=[["B3", "B2"]],
        scoring=[["O3", "C1"], ["O1", "O2", "P3"]],
        hands=[["ITA"], ["FRA"]],
    )
    play(s, "B1>B2", "trade:O3:P3@1")
    assert s.points(1) == 7 + 0 and s.winner is None
    s = state(
        towers=[["B3", "B2"]],
        scoring=[["O3", "C1"], ["O1", "O2", "P3", "C2"]],
        hands=[["ITA"], ["FRA"]],
    )
    play(s, "B1>B2", "trade:O3:P3@1")
    assert s.points(1) == 8 and s.points(0) < 8
    assert s.winner == 1


def test_max_turns_ranks_by_points_then_flags() -> None:
    """PF-WIN-5: "players are ranked by points, then flags, ties sharing"."""
    s = state(
        players=3,
        max_turns=1,
        scoring=[["O1"], ["O2"], ["O3", "P3"]],
        scored=[[], ["ARG"], []],
        hands=[["ITA"], ["FRA"], ["JPN"]],
    )
    play(s, "K1>K3")
    assert s.ranking == [3, 2, 1]
    assert event_kinds(s)[-1] == "max_turns"
    assert s.returns() == [0.0, 0.0, 1.0]
    assert s.current_player() < 0 and s.legal_actions() == []


def test_max_turns_ties_share_the_rank_and_the_result() -> None:
    """PF-WIN-5: "ties sharing"; the first place's result is shared."""
    s = state(max_turns=2, turn=2, scoring=[["O1"], ["O2"]], hands=[["ITA"], ["FRA"]])
    play(s, "K1>K3")
    assert s.ranking == [1, 1]
    assert s.returns() == [0.5, 0.5]


def test_max_turns_counts_turns_not_actions() -> None:
    """PF-WIN-5: "a turn is one move or exchange with everything it triggers"."""
    s = state(**CZE_READY, max_turns=2, hands=[["CZE"], ["ITA"]])
    play(s, "W1>R2", "take:P2", "take:C1")
    assert s.turn == 2 and not s.is_terminal()
    play(s, "K1>K3")
    assert s.ranking is not None


def test_a_position_where_someone_already_won_is_refused() -> None:
    """PF-NOTE-3: "A position is refused when ... a player already meets a win condition"."""
    with refused(PositionError, "flags.win_undeclared", seat=1):
        state(scoring=[[], ["O1", "O2", "O3", "P1"]])
    with refused(PositionError, "flags.win_undeclared", win="flags", detail=5):
        state(scored=[["ARG", "BRA", "CHN", "JPN", "NOR"], []])


def test_the_empty_deck_ending_needs_every_card_face_up() -> None:
    """PF-WIN-6: "an empty deck with no card in any hand" ends the game; then all 36 cards are
    face up, some seat holds 9 or more flags, and the five-flag win came first."""
    from pyramids.flags.cards import CODES

    data = state(players=4).to_json()
    data["hands"] = [[], [], [], []]
    data["deck"] = []
    data["scored"] = [list(CODES[i::4]) for i in range(4)]
    with refused(PositionError, "flags.win_undeclared"):
        state_from(data)
