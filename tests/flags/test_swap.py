"""Exchanging a goal card (PF-SWAP, contract section 3)."""

from __future__ import annotations

from pyramids.core.errors import IllegalActionError
from tests.flags import event_kinds, legal_texts, play, state
from tests.flags.refusals import refused


def test_exchange_puts_the_card_under_the_deck_and_draws_the_top() -> None:
    """PF-SWAP-1: "it goes to the bottom of the deck and the player draws the top card"."""
    s = state(hands=[["CZE", "FRA"], ["ITA"]], deck=["DNK", "AUT"])
    play(s, "swap:CZE")
    data = s.to_json()
    assert data["hands"][0] == ["FRA", "DNK"]
    assert data["deck"][0] == "AUT" and data["deck"][-1] == "CZE"
    assert event_kinds(s) == ["swap", "draw"]
    assert s.current_player() == 1 and s.turn == 2


def test_exchange_with_one_card_in_the_deck_draws_that_card() -> None:
    """PF-SWAP-1: the exchanged card goes under first, so the player never draws it back."""
    s = state(hands=[["CZE"], ["ITA"]], deck=["DNK"], leftover=1)
    play(s, "swap:CZE")
    assert s.to_json()["hands"][0] == ["DNK"]
    assert s.to_json()["deck"] == ["CZE"]


def test_no_exchange_with_an_empty_deck() -> None:
    """PF-SWAP-2: "Not allowed when the deck is empty"."""
    s = state(hands=[["CZE"], ["ITA"]], deck=[], leftover=1)
    assert not [t for t in legal_texts(s) if t.startswith("swap:")]
    with refused(IllegalActionError, "flags.deck_empty"):
        s.parse_action("swap:CZE")


def test_only_a_card_in_hand_may_be_exchanged() -> None:
    """PF-SWAP-1: the player exchanges "one goal card" of their own hand."""
    s = state(hands=[["CZE"], ["ITA"]])
    with refused(IllegalActionError, "flags.not_in_hand", card="ITA", seat=0):
        s.parse_action("swap:ITA")


def test_no_flags_are_checked_after_an_exchange() -> None:
    """PF-SWAP-3: "No flags are checked after an exchange"; PF-SCORE-4: they score after the next move."""
    s = state(
        towers=[["B3", "R2", "W1"], ["R3", "W2"]],
        hands=[["FRA"], ["ITA"]],
        deck=["CZE"],
    )
    play(s, "swap:FRA")  # seat 0 draws CZE, whose flag stands
    assert "flag" not in event_kinds(s)
    assert s.to_json()["hands"][0] == ["CZE"] and s.to_json()["scored"] == [[], []]
    play(s, "K1>K3")  # seat 1 moves: scoring runs for every seat, seat 1 first
    assert "flag" in event_kinds(s)
    assert s.to_json()["scored"][0] == ["CZE"]
