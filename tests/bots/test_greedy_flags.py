"""The greedy bot on Pyramids and Flags: legal, deterministic, blind to hidden cards, and
better than random.

Positions are written with ``tests.flags.state`` (the contract's JSON notation, towers not
listed stand as single pyramids). The greedy bot sees only ``state.view(seat)``; its
choices in the hand-made positions follow from the rules it estimates (PF-FLAG, PF-SCORE,
PF-CAPTURE, PF-WIN, PF-TREE, PF-SWAP).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pyramids.bots import GreedyBot, RandomBot, make_bot
from pyramids.core import CHANCE, play_game
from pyramids.core.game import Action
from pyramids.flags import FlagsGame, FlagsOptions, FlagsState
from pyramids.flags.cards import BY_CODE
from pyramids.games.flags.policy import flag_distance
from tests.flags import legal_texts, state

GREEDY = GreedyBot()


def greedy_text(s: FlagsState, seed: int = 0) -> str:
    """The greedy bot's choice for the deciding seat, as text (checked legal)."""
    seat = s.current_player()
    legal = s.legal_actions()
    action = GREEDY.act(s.view(seat), legal, random.Random(seed))
    assert action in legal
    return s.action_to_string(action)


def test_registered_greedy_plays_flags_views() -> None:
    """make_bot("greedy") is one bot for both games: a Flags view gets the flags heuristic."""
    s = FlagsGame(2).new_initial_state(0)
    bot = make_bot("greedy")
    assert bot.act(s.view(0), s.legal_actions(), random.Random(0)) in s.legal_actions()


def test_greedy_answers_every_kind_of_decision_legally() -> None:
    """PF-MOVE-1 "a move or an exchange", PF-CAPTURE-1 captures, PF-TREE-4..9 every tree
    action: over seeded self-play (2, 3, 4 players) greedy meets each and answers legally."""
    kinds: Counter[str] = Counter()
    for players in (2, 3, 4):
        game = FlagsGame(players)
        for seed in range(20):
            s = game.new_initial_state(seed)
            rng = random.Random(seed)
            while not s.is_terminal():
                seat = s.current_player()
                if seat == CHANCE:
                    s.apply(s.sample_chance(rng))
                    continue
                legal = s.legal_actions()
                view = s.view(seat)
                action = GREEDY.act(view, legal, rng)
                assert action in legal
                pending = view.pending
                if not pending:
                    kind = "swap" if s.action_to_string(action).startswith("swap:") else "move"
                elif pending["kind"] == "action":
                    kind = f"action:{pending['colour']}"
                else:
                    kind = str(pending["kind"])
                kinds[kind] += 1
                s.apply(action)
    expected = {"move", "swap", "capture"} | {f"action:{c}" for c in "RBGYKW"}
    assert set(kinds) == expected, kinds


def test_greedy_plays_without_tree_actions() -> None:
    """PF-TREE-1 tree actions are an option: with ``actions`` off greedy still plays on."""
    game = FlagsGame(3, FlagsOptions(actions=False))
    final, record = play_game(game, [GreedyBot(), RandomBot(), GreedyBot()], 4)
    assert final.is_terminal()
    assert not any(
        a.startswith(("split", "trade", "grow", "newstart", "pirate", "wild"))
        for a in record.actions
    )


def test_greedy_builds_its_own_flag() -> None:
    """PF-FLAG-1 "built when some tower holds exactly its pieces in order": GRC is B3 W2,
    and W2 onto B3 scores it (PF-SCORE-1)."""
    assert greedy_text(state(hands=[["GRC"], ["FRA"]])) == "W2>B3"


def test_greedy_completes_a_three_piece_flag() -> None:
    """PF-FLAG-1: ARG is B3 W2 B1; with B1 already on W2, moving W2 onto B3 builds it."""
    assert greedy_text(state(towers=[["W2", "B1"]], hands=[["ARG"], ["FRA"]])) == "W2>B3"


def test_greedy_prepares_a_flag_without_building_one_for_others() -> None:
    """PF-SCORE-1 "a flag built by someone else counts for its holder": for ARG (B3 W2 B1)
    greedy puts B1 on W2 first; W2 onto B3 would build GRC (B3 W2) for whoever holds it."""
    assert greedy_text(state(hands=[["ARG"], ["FRA"]])) == "B1>W2"


def test_greedy_exchanges_a_card_out_of_reach() -> None:
    """PF-SWAP-1 "An exchange puts a card of one's hand under the deck, then draws": ITA
    (G3 W2 R1) has a foreign piece on G3 and on W2, so greedy exchanges it."""
    s = state(towers=[["G3", "Y2", "K1"], ["W2", "B1"]], hands=[["ITA"], ["FRA"]])
    assert greedy_text(s) == "swap:ITA"
    s = state(towers=[["G3", "Y2", "K1"], ["W2", "B1"]], hands=[["ITA", "GRC"], ["FRA"]])
    assert greedy_text(s) == "W2>B3", "a flag to build beats an exchange"


def capture(scoring: list[list[str]]) -> FlagsState:
    """Seat 0 has just scored ARG (shows O3 P3 C2 X2) and captures."""
    return state(
        towers=[["B3", "W2", "B1"]],
        scoring=scoring,
        hands=[["CZE"], ["FRA"]],
        scored=[["ARG"], []],
        last_moved=["B1"],
        pending={"player": 0, "kind": "capture", "card": "ARG", "taken": []},
    )


def test_greedy_capture_takes_the_winning_piece() -> None:
    """PF-WIN-3 "8 points": O1 O2 P1 and O3 make a one-colour trio and one more, 7 + 1."""
    assert greedy_text(capture([["O1", "O2", "P1"], []])) == "take:O3"


def test_greedy_capture_takes_from_the_leader_when_the_bank_is_worse() -> None:
    """PF-CAPTURE-1 "exactly one of them from an opponent": O3 from seat 1 completes the orange
    trio (7 points) and hurts seat 1; the best bank pair (O1 O2 P3 C2) makes only 6."""
    s = capture([["O1", "O2"], ["O3", "X1"]])
    assert "take:P3" in legal_texts(s)
    assert greedy_text(s) == "take:O3@1"


def test_greedy_capture_takes_two_from_the_bank_piece_by_piece() -> None:
    """PF-CAPTURE-1 "up to two ... from the bank": O3 then any piece wins (O1 O2 O3 + 1)."""
    s = capture([["O1", "O2"], []])
    assert greedy_text(s) == "take:O3"
    s.apply(s.parse_action("take:O3"))
    assert s.current_player() == 0
    s.apply(s.parse_action(greedy_text(s)))  # any second take wins
    assert s.winner == 0


OTHER_TOWERS = {
    "R": [["B3", "W2"], ["G3", "Y2"]],
    "B": [["R3", "W2"], ["G3", "Y2"]],
    "G": [["B3", "W2"], ["R3", "Y2"]],
    "Y": [["B3", "W2"], ["R3", "G2"]],
    "K": [["B3", "W2"], ["R3", "G2"]],
    "W": [["B3", "Y2"], ["R3", "G2"]],
}


def tree_action(colour: str) -> FlagsState:
    """Seat 0 has just made the ``colour`` tree and uses its action (PF-TREE-2)."""
    return state(
        towers=[[f"{colour}3", f"{colour}2", f"{colour}1"], *OTHER_TOWERS[colour]],
        scoring=[["O1", "P3"], ["O2", "C3"]],
        hands=[["CZE", "ITA"], ["FRA", "DEU", "ESP"]],
        last_moved=[f"{colour}1"],
        pending={"player": 0, "kind": "action", "colour": colour},
    )


@pytest.mark.parametrize(
    ("colour", "expected"),
    [
        ("R", "split:G3"),  # frees G3 for its ITA (G3 W2 R1)
        ("B", "trade:P3:O2@1"),  # O1 O2 is one piece from an orange trio
        ("G", "grow"),
        ("Y", "newstart"),  # 2 cards against 3: the dealer gets 3 of the 5
        ("K", "pirate:1"),
    ],
)
def test_greedy_tree_actions(colour: str, expected: str) -> None:
    """PF-TREE-4..8: destroy, trade, grow, new start and pirate are used when they help."""
    assert greedy_text(tree_action(colour)) == expected


def test_greedy_wild_takes_an_action_worth_having() -> None:
    """PF-TREE-9 "wild: use one of the other actions": never a declined or useless one."""
    choice = greedy_text(tree_action("W"))
    assert choice in ("wild:K", "wild:G", "wild:B")


def test_greedy_declines_a_destroy_that_only_helps_others() -> None:
    """PF-TREE-2 "Every action may be declined with done": splitting B3 W2 (a scored flag;
    our KEN is G3 R2 K1) would only free B3 and W2 for the others' flags."""
    s = state(
        towers=[["R3", "R2", "R1"], ["B3", "W2"]],
        hands=[["KEN"], ["FRA", "DEU"]],
        scored=[["GRC"], []],
        scoring=[["O2", "P2"], []],
        last_moved=["R1"],
        pending={"player": 0, "kind": "action", "colour": "R"},
    )
    assert legal_texts(s) == ["done", "split:B3", "split:R3"]
    assert greedy_text(s) == "done"


def test_flag_distance_counts_links_and_foreign_pieces() -> None:
    """PF-FLAG-1: "each directly on the next ... a piece between does [matter]": distance 0
    when built, one per missing link, one more per foreign piece on that link's lower piece."""
    s = state(towers=[["G3", "Y2", "K1"], ["W2", "B1"]], hands=[["ITA"], ["FRA"]])
    below = [s.below(p) for p in range(18)]
    above = [s.above(p) for p in range(18)]
    assert flag_distance(BY_CODE["ITA"], below, above) == 4  # G3 W2 R1, both links blocked
    assert flag_distance(BY_CODE["GRC"], below, above) == 1  # B3 W2: W2 onto B3
    assert flag_distance(BY_CODE["CHN"], below, above) == 1  # R3 Y2: Y2 (K1 on it) onto R3
    assert flag_distance(BY_CODE["SAU"], below, above) == 2  # G3 W2: Y2 off G3, W2 onto it


def test_greedy_is_deterministic_for_a_seed() -> None:
    """Same view, legal actions and generator seed: same choice (records are reproducible)."""
    game = FlagsGame(4)
    first = play_game(game, [GreedyBot(), RandomBot(), GreedyBot(), GreedyBot()], 11)[1].actions
    second = play_game(game, [GreedyBot(), RandomBot(), GreedyBot(), GreedyBot()], 11)[1].actions
    assert first == second


def test_greedy_sees_only_the_view() -> None:
    """PF-VIEW-1/2 a view holds the public facts and the viewer's own hand: two states that
    differ only in hidden cards show the same view, and greedy makes the same choice."""
    game = FlagsGame(3)
    compared = 0
    for seed in range(8):
        s = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            seat = s.current_player()
            if seat == CHANCE:
                s.apply(s.sample_chance(rng))
                continue
            view = s.view(seat)
            one = game.determinize(view, random.Random(1))
            two = game.determinize(view, random.Random(2))
            if one.to_json() != two.to_json():
                compared += 1
                assert one.view(seat) == two.view(seat) == view
                choices: list[Action] = [
                    GREEDY.act(t.view(seat), t.legal_actions(), random.Random(seed))
                    for t in (one, two)
                ]
                assert choices[0] == choices[1]
            s.apply(GREEDY.act(view, s.legal_actions(), rng))
    assert compared > 100


def test_greedy_clearly_beats_random_heads_up() -> None:
    """Greedy vs random, 40 two-player games (seeds 0..39, seats alternating): > 65%."""
    game = FlagsGame(2)
    wins = 0
    for seed in range(40):
        seat = seed % 2
        bots = [RandomBot(), RandomBot()]
        bots[seat] = GreedyBot()
        final, _ = play_game(game, bots, seed)
        wins += final.winner == seat
    assert wins / 40 > 0.65
