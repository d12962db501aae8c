"""Actions and positions as text (PF-NOTE, contract section 9), and every refusal."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from pyramids.core.errors import ActionParseError, IllegalActionError, PositionError
from pyramids.flags import FlagsGame, action_to_text, parse_action, position_from_json
from pyramids.flags.actions import DEAL_BASE
from tests.flags import FLAG_PIECES, play, position, state
from tests.flags.refusals import refused


@pytest.mark.parametrize(
    "text",
    [
        "W1>R2",
        "B3>table",
        "swap:CZE",
        "take:O2",
        "take:O2@1",
        "done",
        "split:B3",
        "trade:O1:P2@1",
        "grow",
        "newstart",
        "pirate:1",
        "wild:R",
        "steal:CZE",
        "deal:CZE",
    ],
)
def test_every_kind_of_action_prints_as_it_parses(text: str) -> None:
    """PF-NOTE-1: the notation of sections 6 and 9 (`W1>R2`, `swap:CZE`, `take:O2@1`, ...)."""
    action = parse_action(text, 2)
    assert action_to_text(action) == text


def test_parsing_is_lenient_about_case_and_spaces() -> None:
    """PF-NOTE-1: codes are case-insensitive; the printed form is canonical."""
    assert action_to_text(parse_action(" w1 > r2 ", 2)) == "W1>R2"
    assert action_to_text(parse_action("B3>TABLE", 2)) == "B3>table"
    assert action_to_text(parse_action("swap:cze", 2)) == "swap:CZE"
    assert action_to_text(parse_action("take: o2 @ 1", 2)) == "take:O2@1"


def test_a_deal_names_one_card() -> None:
    """PF-NOTE-1: a new start deals one card at a time: `deal:CARD` (to the next seat served)."""
    a = parse_action("deal:jpn", 2)
    assert action_to_text(a) == "deal:JPN"
    assert a >= DEAL_BASE


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "flags.unreadable_action"),
        ("%%", "flags.unreadable_action"),
        ("B3>", "flags.unreadable_action"),
        ("Q3>R2", "flags.action_unknown_piece"),
        ("O1>R2", "flags.scoring_piece_moved"),
        ("B3>O1", "flags.scoring_piece_not_on_table"),
        ("swap:XYZ", "flags.action_unknown_card"),
        ("take:B3", "flags.flag_piece_taken"),
        ("take:O1@9", "flags.action_no_seat"),
        ("take:O1@", "flags.bad_take"),
        ("split:O1", "flags.scoring_piece_not_on_table"),
        ("trade:O1:B2@1", "flags.flag_piece_traded"),
        ("trade:O1@1", "flags.bad_trade"),
        ("pirate:x", "flags.bad_pirate"),
        ("pirate:2", "flags.action_no_seat"),
        ("wild:W", "flags.bad_wild"),
        ("deal:?", "flags.masked_deal"),
        ("deal:CZE,FRA", "flags.deal_one_card"),
        ("deal:", "flags.action_unknown_card"),
        ("hello:1", "flags.unknown_action_word"),
    ],
)
def test_text_that_is_no_action_is_a_parse_error(text: str, code: str) -> None:
    """PF-NOTE-1: "cannot parse" (ActionParseError) is told apart from "illegal"."""
    with refused(ActionParseError, code):
        state().parse_action(text)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("B3>R2", "flags.onto_smaller_piece"),
        ("K1>table", "flags.whole_tower_to_table"),
        ("swap:ITA", "flags.not_in_hand"),
        ("take:O2", "flags.move_or_exchange"),
        ("done", "flags.move_or_exchange"),
        ("grow", "flags.move_or_exchange"),
        ("steal:CZE", "flags.move_or_exchange"),
        ("deal:CZE", "flags.move_or_exchange"),
    ],
)
def test_an_action_that_parses_but_breaks_a_rule_is_illegal(text: str, code: str) -> None:
    """PF-NOTE-1: IllegalActionError says why (its code), and the state is unchanged."""
    s = state(hands=[["CZE"], ["ITA"]])
    before = s.to_json()
    with refused(IllegalActionError, code):
        s.parse_action(text)
    with refused(IllegalActionError, code):
        s.apply(parse_action(text, 2))
    assert s.to_json() == before


def test_illegal_tree_action_choices_say_why() -> None:
    """PF-TREE-2: during an action only its own choices (and done) are legal."""
    s = play(state(towers=[["R3", "R2"]], hands=[["ITA"], ["FRA"]]), "R1>R2")
    with refused(IllegalActionError, "flags.single_pyramid", piece="K3"):
        s.parse_action("split:K3")
    with refused(IllegalActionError, "flags.not_bottom", piece="R2"):
        s.parse_action("split:R2")
    with refused(IllegalActionError, "flags.tree_action", colour="R"):
        s.parse_action("grow")


def test_position_json_round_trips() -> None:
    """PF-NOTE-2: to_json then position_from_json gives the same position."""
    s = play(state(towers=[["B3", "R2"]], hands=[["CZE"], ["ITA"]], scoring=[[], ["O2"]]), "W1>R2")
    data = json.loads(json.dumps(s.to_json()))
    assert data["pending"] == {"player": 0, "kind": "capture", "card": "CZE", "taken": []}
    back = position_from_json(data)
    assert back.to_json() == data
    assert back.legal_actions() == s.legal_actions()


def test_position_json_lists_every_field_of_the_contract() -> None:
    """PF-NOTE-2: rules, players, to_move, turn, towers, bank, scoring, hands, scored, deck, last_moved."""
    data = FlagsGame(2).new_initial_state(0).to_json()
    assert list(data) == [
        "rules",
        "players",
        "to_move",
        "turn",
        "towers",
        "bank",
        "scoring",
        "hands",
        "scored",
        "deck",
        "last_moved",
    ]
    assert data["rules"] == {"actions": True, "max_turns": 3000}


def test_towers_are_listed_in_piece_order_of_their_bottoms() -> None:
    """PF-NOTE-4: one canonical order: towers by bottom piece (K W Y B G R, small to large)."""
    data = position(towers=[["R3", "W2"], ["B3", "R2", "W1"]])
    towers = position_from_json(data).to_json()["towers"]
    assert towers[:3] == [["K1"], ["K2"], ["K3"]]
    assert towers.index(["B3", "R2", "W1"]) < towers.index(["R3", "W2"])


def _with(key: str, value: Any, **kwargs: Any) -> Callable[[], dict[str, Any]]:
    def make() -> dict[str, Any]:
        data = position(**{"hands": [["CZE"], ["ITA"]], **kwargs})
        data[key] = value
        return data

    return make


def _made(**kwargs: Any) -> Callable[[], dict[str, Any]]:
    return lambda: position(**{"hands": [["CZE"], ["ITA"]], **kwargs})


_SINGLES = [[p] for p in FLAG_PIECES if p != "R3"]

REFUSALS: list[tuple[str, Callable[[], dict[str, Any]], str, dict[str, Any]]] = [
    (
        "unknown field",
        _with("colour", 1),
        "position.unknown_fields",
        {"field": None, "fields": ["colour"]},
    ),
    (
        "unknown option",
        _with("rules", {"preset": "x"}),
        "position.unknown_fields",
        {"field": "rules", "fields": ["preset"]},
    ),
    (
        "players",
        _with("players", 5),
        "position.out_of_range",
        {"field": "players", "value": 5, "low": 2, "high": 4},
    ),
    (
        "to_move",
        _with("to_move", 2),
        "position.out_of_range",
        {"field": "to_move", "value": 2, "low": 0, "high": 1},
    ),
    (
        "turn",
        _with("turn", 0),
        "position.out_of_range",
        {"field": "turn", "value": 0, "low": 1, "high": 3000},
    ),
    (
        "turn past max",
        _with("turn", 3001),
        "position.out_of_range",
        {"field": "turn", "value": 3001, "low": 1, "high": 3000},
    ),
    ("piece missing", _with("towers", _SINGLES), "flags.pieces_missing", {"pieces": ["R3"]}),
    (
        "piece twice",
        _with("towers", [*_SINGLES, ["R3"], ["R3"]]),
        "flags.piece_twice",
        {"piece": "R3", "first": "towers[17]", "second": "towers[18]"},
    ),
    (
        "wrong side",
        _with("towers", [*_SINGLES, ["R3"], ["O1"]]),
        "flags.scoring_piece_on_table",
        {"piece": "O1"},
    ),
    (
        "smaller under",
        _with("towers", [*_SINGLES[:-1], ["R2", "R3"]]),
        "flags.on_smaller_piece",
        {"piece": "R3", "below": "R2"},
    ),
    (
        "empty tower",
        _with("towers", [*_SINGLES, ["R3"], []]),
        "flags.empty_tower",
        {"field": "towers[18]"},
    ),
    (
        "unknown piece",
        _with("towers", [*_SINGLES, ["R4"]]),
        "flags.unknown_piece",
        {"field": "towers[17]", "value": "R4"},
    ),
    (
        "flag in bank",
        _with("bank", ["K1"]),
        "flags.flag_piece_off_table",
        {"piece": "K1", "field": "bank"},
    ),
    (
        "flag in hold",
        _with("scoring", [["K1"], []]),
        "flags.flag_piece_off_table",
        {"piece": "K1", "field": "scoring[0]"},
    ),
    ("bank missing", _with("bank", []), "flags.pieces_missing", {}),
    (
        "scoring per seat",
        _with("scoring", [[]]),
        "flags.not_per_seat",
        {"field": "scoring", "players": 2},
    ),
    (
        "unknown card",
        _with("deck", ["XYZ"]),
        "flags.unknown_card",
        {"field": "deck", "value": "XYZ"},
    ),
    ("card missing", _with("deck", []), "flags.cards_missing", {}),
    (
        "card twice",
        _with("hands", [["CZE"], ["CZE"]]),
        "flags.card_twice",
        {"card": "CZE", "first": "hands[0]", "second": "hands[1]"},
    ),
    ("last_moved", _with("last_moved", ["O1"]), "flags.last_moved_not_flag_pieces", {}),
    ("last_moved twice", _with("last_moved", ["K1", "K1"]), "flags.last_moved_twice", {}),
    (
        "win already",
        _made(scoring=[["O1", "O2", "O3", "P1"], []]),
        "flags.win_undeclared",
        {"seat": 0, "win": "points", "detail": 8},
    ),
    ("both endings", _with("ranking", [1, 1], winner=0), "flags.winner_and_ranking", {}),
    (
        "winner seat",
        _with("winner", 3),
        "position.out_of_range",
        {"field": "winner", "value": 3, "low": 0, "high": 1},
    ),
    ("winner no win", _with("winner", 0), "flags.winner_without_win", {"seat": 0}),
    (
        "pending kind",
        _with("pending", {"kind": "fall"}),
        "flags.bad_pending_kind",
        {"value": "fall"},
    ),
    (
        "pending fields",
        _with("pending", {"kind": "deal", "x": 1}),
        "position.unknown_fields",
        {"field": "pending", "fields": ["x"]},
    ),
    ("pending object", _with("pending", 3), "position.not_an_object", {"field": "pending"}),
]


@pytest.mark.parametrize(("name", "make", "code", "facts"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_inconsistent_positions_are_refused(
    name: str, make: Callable[[], dict[str, Any]], code: str, facts: dict[str, Any]
) -> None:
    """PF-NOTE-3: "A position is refused when a piece is missing, listed twice or on the wrong side,
    a piece sits on a smaller one, a card is unknown or listed twice, or a player already meets a
    win condition"."""
    with pytest.raises(PositionError) as refused:
        position_from_json(make())
    assert refused.value.code == code
    assert {k: refused.value.data[k] for k in facts} == facts


def test_a_position_must_be_an_object_with_players() -> None:
    """PF-NOTE-3: the notation's shape."""
    with pytest.raises(PositionError) as refused:
        position_from_json([])  # type: ignore[arg-type]
    assert (refused.value.code, refused.value.data) == ("position.not_an_object", {"field": None})
    data = position()
    del data["players"]
    with pytest.raises(PositionError) as refused:
        position_from_json(data)
    assert (refused.value.code, refused.value.data) == (
        "position.missing_field",
        {"field": "players"},
    )


def test_a_ranking_must_follow_points_then_flags() -> None:
    """PF-WIN-5: a ranking that does not follow points then flags is refused."""
    data = position(scoring=[["O1"], []], hands=[["CZE"], ["ITA"]])
    data["ranking"] = [2, 1]
    with refused(PositionError, "flags.wrong_ranking", value=[2, 1]):
        position_from_json(data)
    data["ranking"] = [1, 2]
    assert position_from_json(data).returns() == [1.0, 0.0]
    data["ranking"] = "first"
    with refused(PositionError, "flags.bad_ranking", value="first"):
        position_from_json(data)


def _capture(**kwargs: Any) -> dict[str, Any]:
    """Seat 0 just built CZE with W1>R2 and is capturing (overridable by keyword)."""
    args: dict[str, Any] = {
        "towers": [["B3", "R2", "W1"]],
        "hands": [[], ["ITA"]],
        "scored": [["CZE"], []],
        "last_moved": ["W1"],
        "pending": {"player": 0, "kind": "capture", "card": "CZE", "taken": []},
    }
    args.update(kwargs)
    return position(**args)


def test_a_pending_capture_resumes_mid_turn() -> None:
    """PF-NOTE-2: pending `{"player": 2, "kind": "capture", "card": "CZE", "taken": ["O2"]}`."""
    s = position_from_json(_capture(scoring=[[], ["P2"]]))
    assert s.current_player() == 0
    assert "take:P2@1" in [s.action_to_string(a) for a in s.legal_actions()]
    taken = {"player": 0, "kind": "capture", "card": "CZE", "taken": ["O2"]}
    s = position_from_json(_capture(scoring=[["O2"], ["P2"]], pending=taken))
    assert [s.action_to_string(a) for a in s.legal_actions()] == ["done", "take:C1", "take:X3"]
    play(s, "take:C1")
    assert s.current_player() == 1 and s.to_json()["scoring"][0] == ["O2", "C1"]


def _pend(**kw: Any) -> dict[str, Any]:
    return {"player": 0, "kind": "capture", "card": "CZE", "taken": [], **kw}


PENDING_REFUSALS: list[tuple[str, dict[str, Any], str]] = [
    ("player", {"pending": _pend(player=5)}, "position.out_of_range"),
    ("not last scored", {"pending": _pend(player=1)}, "flags.capture_not_last_scored"),
    ("flag down", {"towers": [["B3", "R2"]]}, "flags.capture_flag_down"),
    ("last_moved", {"last_moved": ["R2"]}, "flags.capture_not_last_group"),
    ("two taken", {"pending": _pend(taken=["O2", "P2"])}, "flags.capture_two_takes"),
    ("taken not shown", {"pending": _pend(taken=["O1"])}, "flags.capture_not_shown"),
    ("taken not held", {"pending": _pend(taken=["O2"])}, "flags.capture_taken_not_held"),
    ("nothing left", {"scoring": [["O2", "P2", "C1", "X3"], []]}, "flags.capture_nothing_left"),
    (
        "one bank take, bank empty",
        {"scoring": [["O2", "P2", "C1"], ["X3"]], "pending": _pend(taken=["O2"])},
        "flags.capture_nothing_left",
    ),
]


@pytest.mark.parametrize(
    ("name", "changes", "code"), PENDING_REFUSALS, ids=[r[0] for r in PENDING_REFUSALS]
)
def test_bad_pending_captures_are_refused(name: str, changes: dict[str, Any], code: str) -> None:
    """PF-NOTE-3: a pending capture must be one that play could reach."""
    with pytest.raises(PositionError) as refused:
        position_from_json(_capture(**changes))
    assert refused.value.code == code


def test_a_pending_capture_after_a_seat_that_still_holds_a_built_card_is_refused() -> None:
    """PF-SCORE-1: seats score in turn order from the mover; a passed seat has nothing built left."""
    # Seat 1 moved R1 onto W2 (B3 W2 R1 is FRA, seat 0's) while GRC (B3 W2) stands in seat 1's hand:
    # seat 1 scores before seat 0, so this capture by seat 0 cannot happen.
    data = _capture(
        towers=[["B3", "W2", "R1"]],
        hands=[[], ["GRC"]],
        scored=[["FRA"], []],
        last_moved=["R1"],
        to_move=1,
        pending=_pend(card="FRA"),
    )
    with refused(PositionError, "flags.capture_scoring_over", seat=1, card="GRC"):
        position_from_json(data)
    data["to_move"] = 0
    assert position_from_json(data).current_player() == 0


def _action(pending: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Seat 0 just made a white tree with W1>W2 (overridable by keyword)."""
    args: dict[str, Any] = {
        "towers": [["W3", "W2", "W1"]],
        "hands": [["ITA"], ["FRA"]],
        "last_moved": ["W1"],
        "pending": pending,
    }
    args.update(kwargs)
    return position(**args)


WILD = {"player": 0, "kind": "action", "colour": "W"}


@pytest.mark.parametrize(
    ("pending", "changes", "code"),
    [
        (WILD, {"actions": False}, "flags.pending_needs_actions"),
        ({**WILD, "player": 1}, {}, "flags.action_player_not_mover"),
        ({**WILD, "colour": "O"}, {}, "flags.bad_colour"),
        (WILD, {"last_moved": ["W3", "W2", "W1"]}, "flags.action_no_tree"),
        ({**WILD, "colour": "B"}, {}, "flags.action_lapses"),
        ({"kind": "steal", "from": 0}, {}, "flags.steal_from_self"),
        ({"kind": "steal", "from": 7}, {}, "position.out_of_range"),
        (
            {"kind": "steal", "from": 1},
            {"hands": [["ITA"], []], "leftover": 0},
            "flags.steal_empty_hand",
        ),
        ({"kind": "steal", "from": 1}, {"last_moved": ["W3", "W2", "W1"]}, "flags.steal_no_tree"),
        ({"kind": "deal"}, {"last_moved": ["W3", "W2", "W1"]}, "flags.deal_no_tree"),
    ],
)
def test_bad_pending_actions_are_refused(
    pending: dict[str, Any], changes: dict[str, Any], code: str
) -> None:
    """PF-NOTE-3: a pending action, steal or deal must follow a tree of its colour (or white)."""
    with pytest.raises(PositionError) as refused:
        position_from_json(_action(pending, **changes))
    assert refused.value.code == code


def test_pending_actions_that_play_can_reach_are_accepted() -> None:
    """PF-NOTE-2: `{"player": 0, "kind": "action", "colour": "R"}`, `{"kind": "steal", "from": 1}`,
    `{"kind": "deal"}`."""
    for pending in (WILD, {**WILD, "colour": "R"}, {"kind": "steal", "from": 1}):
        s = position_from_json(_action(pending))
        assert s.to_json()["pending"] == pending


def test_a_pending_deal_lists_the_cards_left_to_deal() -> None:
    """PF-NOTE-2, PF-TREE-7: `{"kind": "deal", "cards": [...]}`, the hands holding the cards
    dealt so far; a bare `{"kind": "deal"}` is a deal not begun (every hand gathered)."""
    data = _action({"kind": "deal"})
    gathered = sorted(c for h in data["hands"] for c in h)
    s = position_from_json(data)
    assert s.to_json()["pending"] == {"kind": "deal", "cards": gathered}
    assert s.to_json()["hands"] == [[], []]
    play(s, f"deal:{gathered[1]}")
    mid = s.to_json()
    assert mid["pending"] == {"kind": "deal", "cards": [gathered[0], *gathered[2:]]}
    assert mid["hands"] == [[gathered[1]], []]
    back = position_from_json(mid)
    assert back == s and back.to_json() == mid
    wrong = {**mid, "hands": [[], [gathered[1]]]}
    with refused(PositionError, "flags.deal_uneven", first=0):
        position_from_json(wrong)
    twice = {**mid, "pending": {"kind": "deal", "cards": [gathered[1], *gathered[2:]]}}
    with refused(PositionError, "flags.card_twice"):
        position_from_json(twice)


def test_a_pending_action_with_a_built_card_in_hand_is_refused() -> None:
    """PF-SCORE-1: scoring comes before the tree action, so no hand still holds a built card."""
    data = _action(WILD, towers=[["W3", "W2", "W1"], ["G3", "K2", "R1"]], hands=[["ITA"], ["TTO"]])
    position_from_json(data)  # TTO is R3 K2 W1: not built
    data = _action(WILD, towers=[["W3", "W2", "W1"], ["G3", "K2", "R1"]], hands=[["ITA"], ["LBY"]])
    with refused(PositionError, "flags.scoring_before_tree", seat=1, card="LBY"):
        position_from_json(data)


def test_an_ended_game_has_no_pending_decision() -> None:
    """PF-NOTE-3: `winner`/`ranking` and `pending` exclude each other."""
    data = position(scoring=[["O1"], []], hands=[["CZE"], ["ITA"]])
    data["ranking"] = [1, 2]
    data["pending"] = {"kind": "deal"}
    with refused(PositionError, "flags.ended_with_pending"):
        position_from_json(data)


def test_game_state_from_json_checks_the_number_of_players() -> None:
    """PF-NOTE-2: a game reads only positions with its number of seats."""
    with refused(PositionError, "game.position_players"):
        FlagsGame(2).state_from_json(position(players=3))
