"""Contract section 10 (hidden information): what each seat's view holds, and sampling
the hidden rest with ``determinize``.

Rules FP-VIEW-1..3 of docs/RULES.md (with D6).
"""

from __future__ import annotations

import random
from typing import Any

from pyramids.flaming import FlamingGame, FlamingState, FlamingView
from pyramids.flaming.tiles import BY_NAME, NAMES
from tests.flaming.helpers import play, position


def _tile_names(data: Any) -> set[str]:
    """Every tile name written anywhere in a JSON value (``R40`` or ``R40@1,1``)."""
    if isinstance(data, str):
        head = data.split("@")[0]
        return {head} if head in BY_NAME else set()
    if isinstance(data, dict):
        return set().union(*(_tile_names(v) for v in data.values())) if data else set()
    if isinstance(data, list | tuple):
        return set().union(*(_tile_names(v) for v in data)) if data else set()
    return set()


def _names(tiles: tuple[int, ...] | None) -> list[str]:
    assert tiles is not None
    return [NAMES[t] for t in tiles]


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others() -> None:
    """FP-VIEW-1, FP-VIEW-3: "its own hand, the number of tiles in every hand and every
    pile ... It holds nothing else: not the other hands, not the order of any pile".
    """
    state = FlamingGame(3).new_initial_state(4)
    view = state.view(1)
    assert view.player == 1
    assert list(view.hand or ()) == state.hand(1)
    assert view.hand_sizes == (5, 5, 5)
    assert view.pile_sizes == (10, 10, 10)
    assert view.pile_known == ((), (), ())
    assert view.hand_known == ((), (), ())
    hidden = {NAMES[t] for s in (0, 2) for t in state.hand(s)}
    hidden |= {NAMES[t] for s in range(3) for t in state.pile(s)}
    assert {NAMES[t] for t in view.unseen} == hidden
    data = view.to_json()
    assert data["hand"] == [NAMES[t] for t in state.hand(1)]
    assert not _tile_names(data) & hidden


def test_a_hand_made_position_hides_every_pile_and_every_other_hand() -> None:
    """FP-VIEW-3 (D6): "A hand-made position has no history, so in its views every pile and
    every other hand is hidden."
    """
    state = position(
        pyramid=["R100@0,0", "B120@0,2"],
        hands=[["R40", "Y2"], ["G4", "B6"]],
        piles=[["Y4", "B4"], ["R2"]],
    )
    view = state.view(0)
    assert view.pile_known == ((), ())
    assert view.hand_known == ((), ())
    assert sorted(_names(view.unseen)) == ["B4", "B6", "G4", "R2", "Y4"]
    assert not _tile_names(view.to_json()) & {"G4", "B6", "Y4", "B4", "R2"}


def test_a_spectator_view_has_no_hand() -> None:
    """FP-VIEW-1: a view for no seat (a spectator) holds only public facts."""
    state = FlamingGame(2).new_initial_state(9)
    view = state.view(None)
    assert view.player is None
    assert view.hand is None
    data = view.to_json()
    assert data["hand"] is None
    assert data["viewer"] is None
    private = {NAMES[t] for s in range(2) for t in (*state.hand(s), *state.pile(s))}
    assert not _tile_names(data) & private
    assert {NAMES[t] for t in view.unseen} == private


def _public_history() -> FlamingState:
    """Seat 0's G30 collapses R100 and B120 under its pile, on top of one hidden tile Y4.

    Turn 1: ``G30@1,1`` (no match) collapses R100 then B120; G30 falls left to (0,0);
    seat 0 draws the hidden Y4. Turn 2: seat 1 plays ``B2@0,2``.
    """
    state = position(
        pyramid=["R100@0,0", "B120@0,2"],
        hands=[["G30", "Y2", "G2", "G4", "R4"], ["B2", "B6", "B10"]],
        piles=[["Y4"], []],
    )
    play(state, "G30@1,1", "left", "B2@0,2")
    return state


def test_tiles_that_went_under_a_pile_are_known_to_everyone_in_order() -> None:
    """FP-VIEW-2: "for each pile, the tiles that went under it, in order"."""
    state = _public_history()
    assert state.pile(0) == [BY_NAME["R100"], BY_NAME["B120"]]
    for seat in (0, 1, None):
        view = state.view(seat)
        assert _names(view.pile_known[0]) == ["R100", "B120"]
        assert view.pile_sizes[0] == 2
        assert view.hand_known == ((), ())
    # Seat 1 does not know that seat 0 drew Y4: it is unseen.
    assert "Y4" in _names(state.view(1).unseen)
    assert "R100" not in _names(state.view(1).unseen)


def test_a_known_tile_drawn_by_its_owner_stays_known_until_played() -> None:
    """FP-VIEW-2 (D6): "a tile drawn that way is known to be in its owner's hand until
    played."

    Turn 3: seat 0 plays ``Y2@1,1`` (number 2 like B2) and draws R100, which everyone saw
    go under its pile. Turn 4: seat 1 plays ``B6@0,4``. Turn 5: seat 0 plays R100.
    """
    state = _public_history()
    play(state, "Y2@1,1")
    view = state.view(1)
    assert _names(view.hand_known[0]) == ["R100"]
    assert _names(view.pile_known[0]) == ["B120"]
    assert "R100" not in _names(view.unseen)
    assert state.view(None).hand_known == view.hand_known
    play(state, "B6@0,4", "R100@1,3")
    assert state.view(1).hand_known[0] == ()


def _views_equal_after_determinize(state: FlamingState, seat: int | None) -> list[FlamingState]:
    view = state.view(seat)
    samples = [state.game.determinize(view, random.Random(r)) for r in (1, 2)]
    for sample in samples:
        assert isinstance(sample.view(seat), FlamingView)
        assert sample.view(seat) == view
    return samples


def test_determinize_keeps_everything_the_seat_knows() -> None:
    """FP-VIEW-1..3: a determinized state is consistent with the view: its view for that
    seat is the original view.
    """
    state = _public_history()
    for seat in (0, 1, None):
        samples = _views_equal_after_determinize(state, seat)
        for sample in samples:
            assert sample.pile(0)[-2:] == [BY_NAME["R100"], BY_NAME["B120"]]
    game = FlamingGame(3)
    fresh = game.new_initial_state(21)
    actions = 0
    while not fresh.is_terminal() and actions < 40:
        for seat in (fresh.to_move, None):
            _views_equal_after_determinize(fresh, seat)
        if fresh.chance_outcomes():
            fresh.apply(fresh.sample_chance(random.Random(actions)))
        else:
            fresh.apply(fresh.legal_actions()[0])
        actions += 1


def test_determinize_with_different_generators_deals_the_hidden_tiles_differently() -> None:
    """FP-VIEW-3: the hidden tiles are sampled: what the seat cannot know varies."""
    state = FlamingGame(3).new_initial_state(5)
    view = state.view(0)
    first, second = (state.game.determinize(view, random.Random(r)) for r in (1, 2))
    assert sorted(first.hand(0)) == sorted(second.hand(0)) == sorted(state.hand(0))
    assert first.board == second.board == state.board
    hidden_first = (first.to_json()["hands"][1:], first.to_json()["piles"])
    hidden_second = (second.to_json()["hands"][1:], second.to_json()["piles"])
    assert hidden_first != hidden_second


def test_a_view_carries_the_public_facts() -> None:
    """FP-VIEW-1: "the public facts of the position (rules, seat to move, turn, pending
    decision, quenched embers, result)".
    """
    state = position(
        pyramid=["R100@0,0", "B120@0,2"],
        hands=[["G30", "Y2"], ["B2"]],
        rules={"preset": "family", "fire_die": True},
        turn=4,
    )
    play(state, "G30@1,1")
    data = state.view(1).to_json()
    assert data["rules"]["preset"] == "family"
    assert data["rules"]["fire_die"] is True
    assert data["to_move"] == 0
    assert data["turn"] == 4
    assert data["pending"] == {"player": 0, "kind": "fall", "tile": "G30@1,1"}
    assert data["pyramid"] == ["G30@1,1"]
    assert data["pile_known"] == [["R100", "B120"], []]
