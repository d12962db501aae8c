"""Tree actions (PF-TREE, contract section 6; P's advanced rules)."""

from __future__ import annotations

import random

import pytest

from pyramids.core import CHANCE
from pyramids.core.errors import IllegalActionError
from pyramids.flags.actions import DEAL_BASE
from tests.flags import event_kinds, legal_texts, play, state
from tests.flags.refusals import refused


def tree_of(s: object) -> list[str]:
    """Colours of the tree events of the last apply."""
    return [e.data["colour"] for e in s.events() if e.kind == "tree"]  # type: ignore[attr-defined]


def test_lowest_piece_becoming_the_small_makes_a_tree() -> None:
    """PF-TREE-1: "its lowest moved piece becomes the medium or the small of a run C3 C2 C1"."""
    s = play(state(towers=[["Y3", "Y2"]], hands=[["ITA"], ["FRA"]]), "Y1>Y2")
    assert tree_of(s) == ["Y"]
    assert s.to_json()["pending"] == {"player": 0, "kind": "action", "colour": "Y"}


def test_lowest_piece_becoming_the_medium_makes_a_tree() -> None:
    """PF-TREE-1: the medium with the small on it lands on the large."""
    s = play(state(towers=[["Y2", "Y1"]], hands=[["ITA"], ["FRA"]]), "Y2>Y3")
    assert tree_of(s) == ["Y"]


def test_other_pieces_below_or_above_a_tree_do_not_matter() -> None:
    """PF-TREE-1: "(other pieces may be below or above)"."""
    s = state(towers=[["B3", "Y3", "Y2"], ["Y1", "W1"]], hands=[["ITA"], ["FRA"]])
    play(s, "Y1>Y2")
    assert tree_of(s) == ["Y"]


def test_moving_a_whole_tree_or_a_lone_medium_makes_no_tree() -> None:
    """PF-TREE-1: only a move whose lowest piece becomes the tree's medium or small."""
    s = play(state(towers=[["Y3", "Y2", "Y1"]], hands=[["ITA"], ["FRA"]]), "Y3>B3")
    assert tree_of(s) == [] and s.current_player() == 1
    s = play(state(hands=[["ITA"], ["FRA"]]), "Y2>Y3")
    assert tree_of(s) == [] and s.current_player() == 1
    s = play(state(towers=[["Y3", "Y2"], ["Y1", "W1"]], hands=[["ITA"], ["FRA"]]), "W1>Y2")
    assert tree_of(s) == []


def test_no_tree_actions_when_the_option_is_off() -> None:
    """PF-TREE-1: tree actions are "option `actions`, on by default"."""
    s = play(state(towers=[["Y3", "Y2"]], hands=[["ITA"], ["FRA"]], actions=False), "Y1>Y2")
    assert tree_of(s) == [] and s.current_player() == 1


def test_the_action_comes_after_all_scoring() -> None:
    """PF-TREE-2: "The mover may then use that colour's action, after all scoring"."""
    s = state(
        towers=[["B3", "R2", "W1"], ["G3", "G2"]],
        hands=[["ITA"], ["CZE"]],
    )
    play(s, "G1>G2")
    assert event_kinds(s) == ["move", "tree", "flag"]
    assert s.current_player() == 1  # seat 1 captures for CZE first
    play(s, "done")
    assert event_kinds(s)[-1] == "action"
    assert s.current_player() == 0
    assert legal_texts(s) == ["done", "grow"]


def test_no_action_once_the_game_has_ended() -> None:
    """PF-TREE-2: "... after all scoring, unless the game has ended"."""
    s = state(
        towers=[["B3", "R2", "W1"], ["G3", "G2"]],
        hands=[["CZE"], ["ITA"]],
        scored=[["AUT", "BEL"], []],
    )
    play(s, "G1>G2")
    assert s.winner == 0 and "action" not in event_kinds(s)


def test_every_action_may_be_declined() -> None:
    """PF-TREE-2: "Every action may be declined with `done`"."""
    s = play(state(towers=[["G3", "G2"]], hands=[["ITA"], ["FRA"]]), "G1>G2")
    hand = list(s.hand(0))
    play(s, "done")
    assert event_kinds(s) == ["decline"]
    assert list(s.hand(0)) == hand and s.current_player() == 1


def test_an_action_with_nothing_to_act_on_lapses() -> None:
    """PF-TREE-3: "one with nothing to act on lapses": grow with an empty deck."""
    s = state(towers=[["G3", "G2"]], hands=[["ITA"], ["FRA"]], deck=[], leftover=1)
    play(s, "G1>G2")
    assert event_kinds(s) == ["move", "tree", "lapse"]
    assert s.current_player() == 1


def test_red_destroys_towers_one_at_a_time() -> None:
    """PF-TREE-4: "split towers, one at a time, into single pyramids ... repeated, then done"."""
    s = state(towers=[["R3", "R2"], ["B3", "W2", "K1"], ["G3", "G2"]], hands=[["ITA"], ["FRA"]])
    play(s, "R1>R2")
    assert legal_texts(s) == ["done", "split:B3", "split:G3", "split:R3"]
    play(s, "split:B3")
    assert ["B3"] in s.to_json()["towers"] and ["W2"] in s.to_json()["towers"]
    assert legal_texts(s) == ["done", "split:G3", "split:R3"]
    play(s, "done")
    assert s.current_player() == 1
    assert ["G3", "G2"] in s.to_json()["towers"]


def test_red_ends_by_itself_when_every_tower_is_single() -> None:
    """PF-TREE-3, PF-TREE-4: with nothing left to split the action is over."""
    s = play(state(towers=[["R3", "R2"]], hands=[["ITA"], ["FRA"]]), "R1>R2", "split:R3")
    assert event_kinds(s) == ["split", "action_over"]
    assert s.current_player() == 1
    assert all(len(t) == 1 for t in s.to_json()["towers"])


def test_blue_trades_one_scoring_pyramid_with_an_opponent() -> None:
    """PF-TREE-5: "swap one of your scoring pyramids with one of an opponent's"."""
    s = state(
        players=3,
        towers=[["B3", "B2"]],
        scoring=[["O1"], ["P2"], ["C3", "X1"]],
        hands=[["ITA"], ["FRA"], ["JPN"]],
    )
    play(s, "B1>B2")
    assert legal_texts(s) == ["done", "trade:O1:P2@1", "trade:O1:C3@2", "trade:O1:X1@2"]
    play(s, "trade:O1:C3@2")
    assert s.to_json()["scoring"] == [["C3"], ["P2"], ["O1", "X1"]]
    with pytest.raises(IllegalActionError):
        s.parse_action("done")


def test_blue_lapses_without_pyramids_to_trade() -> None:
    """PF-TREE-3: a trade needs a pyramid of yours and one of an opponent's."""
    s = play(state(towers=[["B3", "B2"]], scoring=[[], ["O1"]], hands=[["ITA"], ["FRA"]]), "B1>B2")
    assert event_kinds(s)[-1] == "lapse"


def test_green_draws_two_more_cards() -> None:
    """PF-TREE-6: "draw two more goal cards and keep them"."""
    s = state(towers=[["G3", "G2"]], hands=[["ITA"], ["FRA"]], deck=["CZE", "DNK"])
    play(s, "G1>G2", "grow")
    assert s.to_json()["hands"][0] == ["ITA", "CZE", "DNK"]


def test_green_draws_fewer_from_a_short_deck() -> None:
    """PF-TREE-6: "(fewer if the deck is short)"."""
    s = state(towers=[["G3", "G2"]], hands=[["ITA"], ["FRA"]], deck=["CZE"], leftover=1)
    play(s, "G1>G2", "grow")
    assert s.to_json()["hands"][0] == ["ITA", "CZE"]
    assert event_kinds(s) == ["grow", "draw", "no_draw"]


def test_yellow_new_start_deals_from_the_mover_earlier_seats_get_extras() -> None:
    """PF-TREE-7: "gather all hands, shuffle, deal one at a time starting with yourself"."""
    s = state(players=3, towers=[["Y3", "Y2"]], hands=[["ITA"], ["FRA", "JPN"], ["CZE"]], to_move=1)
    play(s, "Y1>Y2", "newstart")
    assert s.to_json()["hands"] == [[], [], []]
    assert s.to_json()["pending"] == {"kind": "deal", "cards": ["CZE", "FRA", "ITA", "JPN"]}
    for left, text in zip(
        (4, 3, 2, 1), ("deal:CZE", "deal:FRA", "deal:ITA", "deal:JPN"), strict=True
    ):
        assert s.current_player() == CHANCE
        outcomes = s.chance_outcomes()
        assert len(outcomes) == left  # one card at a time: each card left, equally likely
        assert all(p == pytest.approx(1 / left) for _, p in outcomes)
        assert s.legal_actions() == [a for a, _ in outcomes]
        play(s, text)  # to seat 1, 2, 0, then 1 again
    assert s.to_json()["hands"] == [["ITA"], ["CZE", "JPN"], ["FRA"]]
    assert event_kinds(s) == ["deal"]
    assert s.current_player() == 2


def test_yellow_deal_deals_only_the_gathered_cards() -> None:
    """PF-TREE-7: the deal hands out the gathered cards, each once."""
    s = play(state(towers=[["Y3", "Y2"]], hands=[["ITA"], ["FRA"]]), "Y1>Y2", "newstart")
    with refused(IllegalActionError, "flags.deal_a_card"):
        s.parse_action("deal:CZE")
    assert [s.action_to_string(a) for a, _ in s.chance_outcomes()] == ["deal:FRA", "deal:ITA"]
    play(s, "deal:ITA")
    with refused(IllegalActionError, "flags.deal_a_card"):
        s.parse_action("deal:ITA")
    assert [s.action_to_string(a) for a in s.legal_actions()] == ["deal:FRA"]


def test_a_big_deal_is_dealt_card_by_card_and_replays_from_a_seed() -> None:
    """PF-TREE-7: 12 cards (34650 deals) are 12 chance points of at most 12 outcomes."""
    hands = [
        ["ARG", "AUT", "BEL", "BRA"],
        ["BRB", "BWA", "CHN", "CMR"],
        ["CUB", "DEU", "DNK", "EGY"],
    ]
    s = state(players=3, towers=[["Y3", "Y2"]], hands=hands)
    play(s, "Y1>Y2", "newstart")
    again = s.clone()
    rng, rng2 = random.Random(3), random.Random(3)
    for left in range(12, 0, -1):
        assert len(s.chance_outcomes()) == left == len(s.legal_actions())
        action = s.sample_chance(rng)
        assert action >= DEAL_BASE and s.illegal_reason(action) is None
        s.apply(action)
        again.apply(again.sample_chance(rng2))
    assert s == again and s.history() == again.history()
    assert s.current_player() == 1
    assert sorted(len(h) for h in s.to_json()["hands"]) == [4, 4, 4]
    assert sorted(c for h in s.to_json()["hands"] for c in h) == sorted(c for h in hands for c in h)


def test_black_pirate_steals_a_random_card_from_a_named_opponent() -> None:
    """PF-TREE-8: "take one card at random from the hand of an opponent you name"."""
    s = state(players=3, towers=[["K3", "K2"]], hands=[["ITA"], [], ["CZE", "FRA"]])
    play(s, "K1>K2")
    assert legal_texts(s) == ["done", "pirate:2"]
    play(s, "pirate:2")
    assert s.current_player() == CHANCE
    assert [(s.action_to_string(a), p) for a, p in s.chance_outcomes()] == [
        ("steal:CZE", 0.5),
        ("steal:FRA", 0.5),
    ]
    play(s, "steal:FRA")
    assert s.to_json()["hands"] == [["ITA", "FRA"], [], ["CZE"]]
    assert s.current_player() == 1


def test_black_lapses_when_no_opponent_holds_a_card() -> None:
    """PF-TREE-3: the pirate needs an opponent with a card."""
    s = state(towers=[["K3", "K2"]], hands=[["ITA"], []], deck=[], leftover=0)
    s = play(s, "K1>K2")
    assert event_kinds(s)[-1] == "lapse"


def test_white_is_wild_among_the_actions_with_something_to_act_on() -> None:
    """PF-TREE-9: "use one of the other actions" (`wild:R` ... then that action)."""
    s = state(towers=[["W3", "W2"], ["B3", "B2"]], hands=[["ITA"], ["FRA"]])
    play(s, "W1>W2")
    assert legal_texts(s) == ["done", "wild:R", "wild:G", "wild:Y", "wild:K"]  # no trade
    play(s, "wild:K")
    assert s.to_json()["pending"] == {"player": 0, "kind": "action", "colour": "K"}
    assert legal_texts(s) == ["done", "pirate:1"]
    play(s, "pirate:1", "steal:FRA")
    assert s.to_json()["hands"] == [["ITA", "FRA"], []]


def test_rebuilding_a_tree_earns_the_action_again() -> None:
    """PF-TREE-1: "Rebuilding a tree earns the action again"."""
    s = state(towers=[["G3", "G2"]], hands=[["ITA"], ["FRA"]])
    play(s, "G1>G2", "done", "G2>K3", "K1>K2", "W1>W2", "G2>G3")
    assert tree_of(s) == ["G"]
    assert s.current_player() == 0 and legal_texts(s) == ["done", "grow"]


def test_no_flags_are_checked_after_a_tree_action() -> None:
    """PF-TREE-10 (decision): scoring follows moves only; a grown card whose flag stands waits."""
    s = state(towers=[["G3", "G2"], ["B3", "R2", "W1"]], hands=[["ITA"], ["FRA"]], deck=["CZE"])
    play(s, "G1>G2", "grow")
    assert "flag" not in event_kinds(s)
    play(s, "K1>K3")
    assert s.to_json()["scored"][0] == ["CZE"]


def test_illegal_choices_during_actions_say_why() -> None:
    """PF-TREE-5, PF-TREE-8: trades and pirates name opponents and pyramids they hold."""
    s = state(
        towers=[["B3", "B2"], ["K3", "K2"]],
        scoring=[["O1"], ["P2"]],
        hands=[["ITA"], ["FRA"]],
    )
    play(s, "B1>B2")
    with refused(IllegalActionError, "flags.not_held", seat=0, piece="C1"):
        s.parse_action("trade:C1:P2@1")
    with refused(IllegalActionError, "flags.not_held", seat=1, piece="P3"):
        s.parse_action("trade:O1:P3@1")
    with refused(IllegalActionError, "flags.trade_with_opponent", seat=0):
        s.parse_action("trade:O1:P2@0")
    s = state(towers=[["K3", "K2"]], hands=[["ITA"], ["FRA"]])
    play(s, "K1>K2")
    with refused(IllegalActionError, "flags.rob_opponent", seat=0):
        s.parse_action("pirate:0")
    play(s, "pirate:1")
    with refused(IllegalActionError, "flags.steal_a_card", seat=1):
        s.parse_action("steal:ITA")
    with refused(IllegalActionError, "flags.steal_a_card"):
        s.parse_action("done")
