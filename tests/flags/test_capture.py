"""Captures after a flag (PF-CAPTURE, contract sections 4 and 9)."""

from __future__ import annotations

from pyramids.core.errors import IllegalActionError
from tests.flags import event_kinds, legal_texts, play, state
from tests.flags.refusals import refused

# CZE: flag B3 R2 W1, scoring pieces O2 P2 C1 X3. Seat 0 builds it with W1>R2.
CZE_READY = {"towers": [["B3", "R2"]]}


def test_capture_offers_the_cards_pieces_from_bank_and_opponents() -> None:
    """PF-CAPTURE-1: "either up to two of the four scoring pieces shown on the card from the bank, or
    exactly one of them from an opponent who holds it"."""
    s = play(state(**CZE_READY, hands=[["CZE"], ["ITA"]], scoring=[[], ["O2", "O1"]]), "W1>R2")
    assert legal_texts(s) == ["done", "take:O2@1", "take:P2", "take:C1", "take:X3"]


def test_only_pieces_shown_on_the_card() -> None:
    """PF-CAPTURE-2: P "you can only capture pyramids of the exact color and size indicated"."""
    s = play(state(**CZE_READY, hands=[["CZE"], ["ITA"]], scoring=[[], ["O1"]]), "W1>R2")
    with refused(IllegalActionError, "flags.not_shown", piece="O3", card="CZE"):
        s.parse_action("take:O3")
    with refused(IllegalActionError, "flags.not_held", seat=1, piece="P2"):
        s.parse_action("take:P2@1")


def test_two_bank_takes_end_the_capture_and_the_holder_draws() -> None:
    """PF-CAPTURE-4: "it ends by itself after two bank takes"; PF-CAPTURE-5: "then draws a new card"."""
    s = play(state(**CZE_READY, hands=[["CZE"], ["ITA"]], deck=["FRA"]), "W1>R2", "take:P2")
    assert s.current_player() == 0
    assert legal_texts(s) == ["done", "take:O2", "take:C1", "take:X3"]
    play(s, "take:X3")
    assert s.to_json()["scoring"][0] == ["P2", "X3"]
    assert event_kinds(s) == ["take", "draw"]
    assert s.to_json()["hands"][0] == ["FRA"]
    assert s.current_player() == 1 and "pending" not in s.to_json()


def test_bank_and_opponent_takes_are_not_mixed() -> None:
    """PF-CAPTURE-3: "bank and opponent takes are not mixed"."""
    s = play(state(**CZE_READY, hands=[["CZE"], ["ITA"]], scoring=[[], ["O2"]]), "W1>R2")
    play(s, "take:P2")
    assert "take:O2@1" not in legal_texts(s)
    with refused(IllegalActionError, "flags.takes_not_mixed"):
        s.parse_action("take:O2@1")


def test_one_opponent_take_ends_the_capture() -> None:
    """PF-CAPTURE-4: "it ends by itself after ... one opponent take"."""
    s = play(state(**CZE_READY, hands=[["CZE"], ["ITA"]], scoring=[[], ["O2", "X3"]]), "W1>R2")
    play(s, "take:X3@1")
    assert s.to_json()["scoring"] == [["X3"], ["O2"]]
    assert event_kinds(s) == ["take", "draw"]
    assert s.current_player() == 1


def test_done_ends_the_capture_even_before_any_take() -> None:
    """PF-CAPTURE-3: "up to two" — `done` takes nothing more; the holder still draws."""
    s = play(state(**CZE_READY, hands=[["CZE"], ["ITA"]], deck=["FRA"]), "W1>R2", "done")
    assert s.to_json()["scoring"] == [[], []]
    assert event_kinds(s) == ["capture_done", "draw"]


def test_no_capture_decision_when_nothing_can_be_taken() -> None:
    """PF-CAPTURE-4: "when nothing can be taken at all there is no capture decision"."""
    s = state(**CZE_READY, hands=[["CZE"], ["ITA"]], scoring=[["O2", "P2", "C1", "X3"], []])
    play(s, "W1>R2")
    assert event_kinds(s) == ["move", "flag", "no_capture", "draw"]
    assert s.current_player() == 1 and "pending" not in s.to_json()


def test_the_capture_ends_when_nothing_more_can_be_taken() -> None:
    """PF-CAPTURE-4: "or when nothing more can be taken": one bank piece left, the take ends it."""
    s = state(**CZE_READY, hands=[["CZE"], ["ITA"]], scoring=[["O2", "P2", "C1"], ["X1"]])
    play(s, "W1>R2")
    assert legal_texts(s) == ["done", "take:X3"]
    play(s, "take:X3")
    assert event_kinds(s) == ["take", "draw"]


def test_a_player_does_not_take_from_themself() -> None:
    """PF-CAPTURE-1: "from an opponent who holds it"."""
    s = play(state(**CZE_READY, hands=[["CZE"], ["ITA"]], scoring=[["O1"], []]), "W1>R2")
    with refused(IllegalActionError, "flags.take_from_opponent", source=0):
        s.parse_action("take:O2@0")


def test_no_draw_from_an_empty_deck() -> None:
    """PF-CAPTURE-5: "then draws a new card (nothing when the deck is empty)"."""
    s = state(**CZE_READY, hands=[["CZE"], ["ITA"]], deck=[], leftover=1)
    play(s, "W1>R2", "done")
    assert event_kinds(s) == ["capture_done", "no_draw"]
    assert s.to_json()["hands"][0] == []
