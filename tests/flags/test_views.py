"""Hidden information (PF-VIEW, contract section 7): views, masked texts, determinize."""

from __future__ import annotations

import json
import random

from pyramids.flags import FlagsGame
from pyramids.texts import describe
from tests.flags import play, state


def vj(s: object, seat: int | None) -> dict[str, object]:
    """view(seat).to_json()."""
    return s.view(seat).to_json()  # type: ignore[attr-defined, no-any-return]


def test_a_view_shows_the_own_hand_and_hides_other_hands_and_the_deck() -> None:
    """PF-VIEW-1, PF-VIEW-2, PF-VIEW-4: "their own hand ... other players' hidden cards as `?`"."""
    s = FlagsGame(3).new_initial_state(11)
    truth = s.to_json()
    view = vj(s, 1)
    assert view["hands"] == [["?"] * 4, truth["hands"][1], ["?"] * 4]
    assert view["deck"] == ["?"] * 24
    for key in ("towers", "bank", "scoring", "scored", "last_moved", "to_move", "turn"):
        assert view[key] == truth[key]
    public = vj(s, None)
    assert public["hands"] == [["?"] * 4] * 3 and public["viewer"] is None
    text = json.dumps(view)
    for seat in (0, 2):
        for card in truth["hands"][seat]:
            assert card not in text


def test_the_exchanger_knows_where_the_exchanged_card_goes() -> None:
    """PF-VIEW-3: "what they saw happen": the card put under the deck, then who draws it."""
    s = state(hands=[["CZE"], ["FRA"]], deck=["DNK"], leftover=1)
    play(s, "swap:CZE")
    assert vj(s, 0)["deck"] == ["CZE"]
    assert vj(s, 1)["deck"] == ["?"]
    assert s.action_text_for(s.parse_action("swap:FRA"), 0) == "swap:?"
    assert s.action_text_for(s.parse_action("swap:FRA"), 1) == "swap:FRA"
    play(s, "swap:FRA")  # seat 1 draws CZE
    assert "CZE" in vj(s, 0)["hands"][1]
    assert vj(s, 1)["deck"] == ["FRA"]
    play(s, "K1>K3", "swap:JPN")  # seat 1 exchanges one of many cards: CZE may have gone
    assert "CZE" not in json.dumps(vj(s, 0)["hands"])


def test_a_stolen_card_is_known_to_thief_and_victim_only() -> None:
    """PF-VIEW-3: "a stolen card is known to thief and victim"."""
    s = state(players=3, towers=[["K3", "K2"]], hands=[["ITA"], ["CZE", "FRA"], ["JPN"]])
    play(s, "K1>K2", "pirate:1")
    steal = s.parse_action("steal:FRA")
    assert [s.action_text_for(steal, v) for v in (0, 1, 2, None)] == [
        "steal:FRA",
        "steal:FRA",
        "steal:?",
        "steal:?",
    ]
    s.apply(steal)
    assert vj(s, 1)["hands"][0] == ["FRA", "?"]
    assert vj(s, 2)["hands"][0] == ["?", "?"]
    assert [e.data["card"] for e in s.events_for(2)] == ["?"]
    assert [e.data["card"] for e in s.events_for(1)] == ["FRA"]


def test_after_a_two_player_new_start_each_knows_the_other_hand() -> None:
    """PF-VIEW-3: the gathered cards not dealt to you went to the only other seat."""
    s = state(towers=[["Y3", "Y2"]], hands=[["ITA", "JPN"], ["CZE", "FRA"]])
    play(s, "Y1>Y2", "newstart")
    for text, seat in (("deal:CZE", 0), ("deal:FRA", 1), ("deal:ITA", 0), ("deal:JPN", 1)):
        deal = s.parse_action(text)
        assert s.action_text_for(deal, seat) == text
        assert s.action_text_for(deal, 1 - seat) == s.action_text_for(deal, None) == "deal:?"
        assert vj(s, seat)["pending"]["cards"] == ["?"] * len(s.to_deal)
        s.apply(deal)
    assert vj(s, 0)["hands"] == [["CZE", "ITA"], ["FRA", "JPN"]]
    assert vj(s, 1)["hands"] == [["CZE", "ITA"], ["FRA", "JPN"]]
    assert vj(s, None)["hands"] == [["?", "?"], ["?", "?"]]
    assert s.events_for(0)[0].data["hands"] == [["CZE", "ITA"], ["?", "?"]]


def test_draws_are_masked_for_the_others() -> None:
    """PF-VIEW-4: "Views and records show other players' hidden cards as `?` (`swap:?`, draws, deals)"."""
    s = state(towers=[["B3", "R2"]], hands=[["CZE"], ["ITA"]], deck=["FRA"])
    play(s, "W1>R2", "done")
    draw = s.events_for(1)[-1]
    assert draw.kind == "draw" and draw.data["card"] == "?" and "?" in describe(draw, "en")
    assert s.events_for(0)[-1].data["card"] == "FRA"
    assert s.events()[-1].data["card"] == "FRA"


def test_determinize_keeps_the_view_and_samples_the_rest() -> None:
    """PF-VIEW-5: determinize(view, rng) is a full state showing the viewer the same view."""
    s = state(hands=[["CZE"], ["FRA", "ITA"]], deck=["DNK"], leftover=1)
    play(s, "swap:CZE")
    game = s.game
    for seat in (0, 1, None):
        view = s.view(seat)
        samples = set()
        for k in range(6):
            det = game.determinize(view, random.Random(k))
            assert det.view(seat).to_json() == view.to_json()
            assert det.current_player() == s.current_player()
            samples.add(json.dumps(det.to_json(), sort_keys=True))
            if seat == 0:
                assert det.to_json()["deck"][-1] == "CZE"
        assert len(samples) > 1


def test_determinize_at_a_capture_gives_the_holder_the_same_choices() -> None:
    """PF-VIEW-5: a sampled state is at the same decision point with the same legal actions."""
    s = play(state(towers=[["B3", "R2"]], hands=[["FRA"], ["CZE"]], scoring=[["O2"], []]), "W1>R2")
    det = s.game.determinize(s.view(1), random.Random(0))
    assert det.legal_actions() == s.legal_actions()
    assert det.to_json()["pending"] == s.to_json()["pending"]
