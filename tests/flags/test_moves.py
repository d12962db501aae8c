"""Moves (PF-MOVE, contract section 3): LOWEST>TARGET, the size rule and the two bans."""

from __future__ import annotations

from pyramids.core.errors import IllegalActionError
from pyramids.flags.actions import DONE
from tests.flags import legal_texts, play, state
from tests.flags.refusals import refused


def towers(s: object) -> list[list[str]]:
    """The position's towers."""
    return s.to_json()["towers"]  # type: ignore[attr-defined, no-any-return]


def test_move_a_single_pyramid_onto_a_larger_one() -> None:
    """PF-MOVE-2, PF-MOVE-3: "put them ... on top of another tower"; small on large is fine."""
    s = play(state(), "W1>R3")
    assert ["R3", "W1"] in towers(s)
    assert s.to_json()["last_moved"] == ["W1"]
    assert s.current_player() == 1 and s.turn == 2


def test_equal_sizes_may_stack() -> None:
    """PF-MOVE-3: "equal sizes are allowed"."""
    s = play(state(), "W2>R2")
    assert ["R2", "W2"] in towers(s)


def test_a_piece_may_not_land_on_a_smaller_one() -> None:
    """PF-MOVE-3: "The lowest moved piece may not be larger than the piece it lands on"."""
    s = state()
    with refused(IllegalActionError, "flags.onto_smaller_piece", piece="B3", target="R2"):
        s.parse_action("B3>R2")
    assert "B3>R2" not in legal_texts(s)


def test_the_lowest_moved_piece_sets_the_size() -> None:
    """PF-MOVE-3: P "When moving more pyramids, the bottom pyramid sets the size"."""
    s = state(towers=[["R2", "W1"]])
    with refused(IllegalActionError, "flags.onto_smaller_piece", piece="R2", target="K1"):
        s.parse_action("R2>K1")
    play(s, "R2>K2")
    assert ["K2", "R2", "W1"] in towers(s)
    assert s.to_json()["last_moved"] == ["R2", "W1"]


def test_top_pieces_move_in_order_to_the_table() -> None:
    """PF-MOVE-2: "Take the top k ≥ 1 pieces of one tower ... put them, in the same order, on the table"."""
    s = play(state(towers=[["B3", "R2", "W1"]]), "R2>table")
    assert ["B3"] in towers(s) and ["R2", "W1"] in towers(s)


def test_a_whole_tower_may_move_onto_another_tower() -> None:
    """PF-MOVE-2: "(a whole tower included)"."""
    s = play(state(towers=[["R2", "W1"]]), "R2>B3")
    assert ["B3", "R2", "W1"] in towers(s)


def test_a_whole_tower_may_not_go_back_on_the_table() -> None:
    """PF-MOVE-4: "A whole tower may not be put back on the table (that changes nothing)"."""
    s = state(towers=[["R2", "W1"]])
    with refused(IllegalActionError, "flags.whole_tower_to_table"):
        s.parse_action("R2>table")
    with refused(IllegalActionError, "flags.whole_tower_to_table"):
        s.parse_action("K1>table")


def test_the_target_is_the_top_of_another_tower() -> None:
    """PF-MOVE-2, PF-MOVE-6: a group lands on a top piece, never inside its own tower."""
    s = state(towers=[["B3", "R2"], ["G3", "G2", "G1"]])
    with refused(IllegalActionError, "flags.target_not_top", target="B3"):
        s.parse_action("W1>B3")
    with refused(IllegalActionError, "flags.target_not_top", target="G3"):
        s.parse_action("G1>G3")
    with refused(IllegalActionError, "flags.lands_on_itself", piece="G2"):
        s.parse_action("G2>G1")


def test_the_previous_group_is_barred() -> None:
    """PF-MOVE-5: "The moved group may not be exactly the set of pieces that the previous turn moved"."""
    s = play(state(towers=[["B3", "R2", "W1"]]), "R2>G3")
    with refused(IllegalActionError, "flags.same_group_again"):
        s.parse_action("R2>K3")
    assert not [t for t in legal_texts(s) if t.startswith("R2>")]


def test_a_larger_or_smaller_group_is_allowed() -> None:
    """PF-MOVE-5: P "if he or she moved two pyramids, you can still move the top piece alone"."""
    s = play(state(towers=[["B3", "R2", "W1"]]), "R2>G3")
    assert "W1>K1" in legal_texts(s)  # smaller: the top piece alone
    s = play(state(towers=[["B3", "R2", "W1"]]), "W1>G3")
    assert "G3>R3" in legal_texts(s)  # larger: G3 with W1 on it


def test_the_bar_lasts_one_turn() -> None:
    """PF-MOVE-5: only "the previous turn" bars; two turns later the group may move again."""
    s = play(state(), "W1>R3", "K1>K3")
    assert "W1>K2" in legal_texts(s)


def test_after_an_exchange_no_group_is_barred() -> None:
    """PF-MOVE-5, PF-SWAP-3: "After an exchange turn no group is barred"."""
    s = state(hands=[["CZE"], ["FRA"]], last_moved=["W1"])
    assert "W1>R3" not in legal_texts(s)
    play(s, "swap:CZE")
    assert s.to_json()["last_moved"] == []
    assert "W1>R3" in legal_texts(s)


def test_only_one_action_a_turn_moves_or_exchange() -> None:
    """PF-MOVE-1: "The player to move does exactly one of: Move ... Exchange"."""
    s = state(hands=[["CZE", "FRA"], ["ITA"]])
    texts = legal_texts(s)
    assert all(">" in t or t.startswith("swap:") for t in texts)
    assert "swap:CZE" in texts and "swap:ITA" not in texts
    with refused(IllegalActionError, "flags.move_or_exchange"):
        s.apply(DONE)
