"""Flags and scoring (PF-FLAG, PF-SCORE, contract section 4)."""

from __future__ import annotations

from pyramids.flags.cards import BY_CODE
from tests.flags import event_kinds, legal_texts, play, state


def scored(s: object) -> list[list[str]]:
    """Face-up cards per seat."""
    return s.to_json()["scored"]  # type: ignore[attr-defined, no-any-return]


def test_a_flag_is_built_by_its_exact_pieces_in_order() -> None:
    """PF-FLAG-1: "some tower on the table contains exactly those pieces in that order"."""
    cze = BY_CODE["CZE"]  # B3 R2 W1
    assert state(towers=[["B3", "R2", "W1"]]).is_built(cze)
    assert not state(towers=[["B3", "R2"]]).is_built(cze)
    assert not state(towers=[["R3", "R2", "W1"]]).is_built(cze)
    assert not state(towers=[["B3", "W2", "R1"]]).is_built(cze)


def test_pieces_below_or_above_a_flag_do_not_matter() -> None:
    """PF-FLAG-1: "pieces below or above do not matter"."""
    cze = BY_CODE["CZE"]
    assert state(towers=[["G3", "B3", "R2", "W1", "K1"]]).is_built(cze)
    dnk = BY_CODE["DNK"]  # R3 W2
    assert state(towers=[["K3", "R3", "W2", "Y2", "Y1"]]).is_built(dnk)


def test_a_piece_between_breaks_a_flag() -> None:
    """PF-FLAG-1: "a piece between does" (P: "It is not allowed for any other pieces to interrupt the flag")."""
    assert not state(towers=[["B3", "R2", "K1", "W1"]]).is_built(BY_CODE["CZE"])
    assert not state(towers=[["R3", "K3", "W2"]]).is_built(BY_CODE["DNK"])


def test_building_your_flag_scores_it_face_up() -> None:
    """PF-SCORE-3: "it goes face up in front of its holder; then the holder captures"."""
    s = play(state(towers=[["B3", "R2"]], hands=[["CZE", "FRA"], ["ITA"]]), "W1>R2")
    assert scored(s) == [["CZE"], []]
    assert s.to_json()["hands"][0] == ["FRA"]
    assert event_kinds(s)[:2] == ["move", "flag"]
    assert s.to_json()["pending"] == {"player": 0, "kind": "capture", "card": "CZE", "taken": []}


def test_a_flag_built_by_someone_else_counts_for_its_holder() -> None:
    """PF-SCORE-1: P "Even if your flag is completed by someone else by chance, it counts"."""
    s = play(state(towers=[["B3", "R2"]], hands=[["FRA"], ["CZE"]]), "W1>R2")
    assert scored(s) == [[], ["CZE"]]
    assert s.current_player() == 1, "the holder captures, out of turn"
    play(s, "done")
    assert s.current_player() == 1 and s.to_move == 1 and s.turn == 2


def test_built_means_standing_even_if_the_move_did_not_touch_it() -> None:
    """PF-FLAG-2: "built means standing, whether or not the last move touched it"."""
    s = play(state(towers=[["B3", "R2", "W1"]], hands=[["CZE"], ["ITA"]]), "K1>K3")
    assert scored(s) == [["CZE"], []]


def test_seats_score_in_turn_order_starting_with_the_mover() -> None:
    """PF-SCORE-1: "seats in turn order starting with the mover"."""
    s = state(
        players=3,
        towers=[["B3", "R2"], ["R3", "W2"]],
        hands=[["DNK"], ["FRA"], ["CZE"]],
        to_move=1,
    )
    play(s, "W1>R2")  # builds CZE (seat 2) and DNK stands (seat 0): seat 2 first, then seat 0
    assert scored(s) == [[], [], ["CZE"]]
    assert s.current_player() == 2
    play(s, "done")
    assert scored(s) == [["DNK"], [], ["CZE"]]
    assert s.current_player() == 0


def test_a_seat_scores_its_cards_alphabetically_including_drawn_cards() -> None:
    """PF-SCORE-2: "one at a time in alphabetical order of card code, including a card drawn during this scoring"."""
    s = state(
        towers=[["B3", "R2", "W1"], ["R3", "W2", "R1"]],  # CZE, and AUT over DNK, stand
        hands=[["DNK", "CZE"], ["ITA"]],
        deck=["AUT", "FRA"],
    )
    play(s, "K1>K3")
    assert scored(s)[0] == ["CZE"]
    play(s, "done")  # draws AUT, now the first built card of the hand
    assert scored(s)[0] == ["CZE", "AUT"]
    play(s, "done")
    assert scored(s)[0] == ["CZE", "AUT", "DNK"]


def test_a_drawn_card_whose_flag_stands_is_scored_at_once() -> None:
    """PF-SCORE-2: a card drawn during scoring "whose flag stands" is scored in the same scoring."""
    s = state(towers=[["B3", "R2"], ["R3", "W2"]], hands=[["CZE"], ["ITA"]], deck=["DNK"])
    play(s, "W1>R2", "done")
    assert scored(s)[0] == ["CZE", "DNK"]


def test_flags_stay_standing_as_ordinary_towers() -> None:
    """PF-FLAG-3: "Built towers stay on the table ... their pieces may be moved later"."""
    s = play(state(towers=[["B3", "R2"]], hands=[["CZE"], ["ITA"]]), "W1>R2", "done")
    assert ["B3", "R2", "W1"] in s.to_json()["towers"]
    assert "W1>K1" not in legal_texts(s)  # W1 alone is the group seat 0 just moved
    play(s, "R2>K3")  # a larger group is allowed and takes the flag apart
    assert ["K3", "R2", "W1"] in s.to_json()["towers"]


def test_scoring_runs_after_every_move_for_every_seat_only_once_per_card() -> None:
    """PF-SCORE-1: a face-up card is out of the hand and never scores again."""
    s = play(state(towers=[["B3", "R2"]], hands=[["CZE"], ["ITA"]]), "W1>R2", "done")
    play(s, "K1>K3")
    assert scored(s) == [["CZE"], []]
    assert "flag" not in event_kinds(s)
