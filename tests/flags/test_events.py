"""Events with reasons, in English and French (core protocol; PF-VIEW-4 for masking)."""

from __future__ import annotations

import random

from pyramids.core import CHANCE
from pyramids.flags import FlagsGame
from pyramids.texts import describe
from tests.flags import play, state

KINDS = {
    "move", "tree", "swap", "draw", "no_draw", "flag", "no_capture", "take", "capture_done",
    "win", "action", "lapse", "decline", "action_over", "split", "trade", "grow", "newstart",
    "deal", "pirate", "steal", "wild", "deck_out", "max_turns",
}  # fmt: skip


def test_every_event_of_random_games_has_a_known_kind_and_both_texts() -> None:
    """Events: typed, one per thing that happened, told by the catalogue in both languages."""
    seen: set[str] = set()
    for seed in range(12):
        s = FlagsGame(2 + seed % 3).new_initial_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            if s.current_player() == CHANCE:
                s.apply(s.sample_chance(rng))
            else:
                legal = s.legal_actions()
                s.apply(legal[rng.randrange(len(legal))])
            for viewer in (None, 0):
                for e in (*s.events(), *s.events_for(viewer)):
                    assert e.kind in KINDS
                    en, fr = describe(e, "en"), describe(e, "fr")
                    assert en and fr and en != fr
                    seen.add(e.kind)
    assert {"move", "flag", "take", "draw", "win", "swap", "tree"} <= seen


def test_a_flag_event_says_which_tower_and_country() -> None:
    """PF-FLAG-1: the event gives the reason: the tower standing and the card it matches."""
    s = play(state(towers=[["B3", "R2"]], hands=[["FRA"], ["CZE"]]), "W1>R2")
    flag = s.events()[1]
    assert flag.kind == "flag"
    assert flag.data == {
        "seat": 1,
        "card": "CZE",
        "tower": ["B3", "R2", "W1"],
        "country": "Czech Republic",
        "pieces": ["O2", "P2", "C1", "X3"],
    }
    text = describe(flag, "en")
    assert "B3 R2 W1" in text and "Czech Republic" in text
    assert "drapeau" in describe(flag, "fr")


def test_a_masked_exchange_hides_the_card_from_the_others() -> None:
    """PF-VIEW-4: `swap:?` for everyone but the exchanger."""
    s = play(state(hands=[["CZE"], ["ITA"]], deck=["FRA"]), "swap:CZE")
    assert [e.data["card"] for e in s.events_for(1)] == ["?", "?"]
    assert [e.data["card"] for e in s.events_for(0)] == ["CZE", "FRA"]
    assert [e.data["card"] for e in s.events_for(None)] == ["?", "?"]
