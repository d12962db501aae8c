"""The deck (PF-CARD, contract section 8): 36 cards built from the CSV into package data."""

from __future__ import annotations

from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from pyramids.core.errors import PositionError
from pyramids.flags.cards import BY_CODE, CARDS, GROUPS, NUM_CARDS, parse_card
from pyramids.flags.deck import CARD_DATA
from pyramids.flags.pieces import COLOUR_OF, NAMES, SIZE, is_flag_piece, is_scoring_piece
from tests.flags.refusals import refused

ROOT = Path(__file__).resolve().parents[2]
CSV = ROOT.parent / "shared" / "data" / "flags-countries.csv"

# The contract's table, written out again here on purpose (not imported from the package).
CONTRACT_TABLE = {
    "O": lambda m: 1 if m < 1500 else 2 if m < 3000 else 3,
    "P": lambda mil: 1 if mil < 10 else 2 if mil < 40 else 3,
    "C": lambda t: 1 if t < 12 else 2 if t < 25 else 3,
    "X": lambda usd: 1 if usd < 18000 else 2 if usd < 47500 else 3,
}
EXPECTED_COUNTS = {
    "O1": 10, "O2": 13, "O3": 13,
    "P1": 12, "P2": 12, "P3": 12,
    "C1": 13, "C2": 11, "C3": 12,
    "X1": 11, "X2": 13, "X3": 12,
}  # fmt: skip


def test_deck_has_36_cards_with_unique_iso_codes() -> None:
    """PF-CARD-1: "The deck is package data ... the ISO 3166 alpha-3 code (the card's identifier)"."""
    assert NUM_CARDS == 36
    codes = [c.code for c in CARDS]
    assert len(set(codes)) == 36
    assert codes == sorted(codes), "card order is alphabetical order of code"
    assert all(len(c) == 3 and c.isalpha() and c.isupper() for c in codes)


def test_deck_is_package_data_not_shared() -> None:
    """PF-CARD-1: the deck is the package's own generated module (nothing from shared/)."""
    assert len(CARD_DATA) == 36
    readme = resources.files("pyramids.flags").joinpath("data/README.md").read_text("utf-8")
    assert "CC BY 4.0" in readme and "public domain" in readme


def test_no_two_flag_towers_alike() -> None:
    """PF-CARD-2: "no two towers alike"."""
    towers = [c.tower for c in CARDS]
    assert len(set(towers)) == 36


def test_every_flag_tower_is_buildable() -> None:
    """PF-CARD-2: "every tower buildable": 2 or 3 flag pieces, sizes never grow upwards, no piece twice."""
    for card in CARDS:
        tower = card.tower
        assert len(tower) in (2, 3), card.code
        assert all(is_flag_piece(p) for p in tower), card.code
        assert len(set(tower)) == len(tower), card.code
        sizes = [SIZE[p] for p in tower]
        assert sizes == sorted(sizes, reverse=True), card.code


def test_no_flag_is_a_one_colour_tree() -> None:
    """PF-CARD-2: "no flag that is a one-colour tree" (P: "No flag consists of three same-color pyramids")."""
    for card in CARDS:
        colours = {COLOUR_OF[p] for p in card.tower}
        assert not (len(card.tower) == 3 and len(colours) == 1), card.code


def test_ratings_follow_the_contract_table() -> None:
    """PF-CARD-3: "highest point < 1,500 m small ... GDP per capita ≥ $47,500 large"."""
    for card in CARDS:
        for colour, piece in zip("OPCX", card.pieces, strict=True):
            assert is_scoring_piece(piece)
            assert NAMES[piece][0] == colour
            value = card.facts[colour]["value"]
            assert card.facts[colour]["size"] == SIZE[piece] == CONTRACT_TABLE[colour](value), (
                card.code,
                colour,
                value,
            )


def test_czech_card_is_o2_p2_c1_x3() -> None:
    """PF-CARD-3: "These reproduce the known Czech card (O2 P2 C1 X3)"; flag B3 R2 W1 (P)."""
    cze = CARDS[BY_CODE["CZE"]]
    assert [NAMES[p] for p in cze.pieces] == ["O2", "P2", "C1", "X3"]
    assert [NAMES[p] for p in cze.tower] == ["B3", "R2", "W1"]
    assert cze.country == "Czech Republic" and cze.capital == "Prague"
    assert cze.groups == ("EU",)


def test_each_scoring_piece_on_10_to_13_cards() -> None:
    """PF-CARD-3: ratings "show each scoring piece on 10–13 cards"."""
    counts = Counter(NAMES[p] for card in CARDS for p in card.pieces)
    assert dict(counts) == EXPECTED_COUNTS
    assert all(10 <= n <= 13 for n in counts.values())


def test_groups_are_the_four_of_the_rules() -> None:
    """PF-CARD-4: groups EU, Africa, Caribbean, Oil; a card may be in two (e.g. NGA)."""
    assert GROUPS == ("EU", "Africa", "Caribbean", "Oil")
    for card in CARDS:
        assert set(card.groups) <= set(GROUPS)
    assert CARDS[BY_CODE["NGA"]].groups == ("Africa", "Oil")
    counts = Counter(g for c in CARDS for g in c.groups)
    assert all(counts[g] >= 3 for g in GROUPS), "each group can give a win"


def test_parse_card_is_case_insensitive_and_refuses_unknown_codes() -> None:
    """PF-NOTE-1: cards are named by their ISO code."""
    assert parse_card("cze") == BY_CODE["CZE"]
    with refused(PositionError, "flags.unknown_card", value="XYZ"):
        parse_card("XYZ")


@pytest.mark.skipif(not CSV.exists(), reason="shared/data is not checked out next to the repo")
def test_build_script_reproduces_the_package_data(tmp_path: Path) -> None:
    """PF-CARD-1: deck.py is exactly what scripts/build_flags_deck.py makes from the CSV."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "build_flags_deck", ROOT / "scripts" / "build_flags_deck.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "deck.py"
    assert module.main(["--csv", str(CSV), "--out", str(out)]) == 0
    packaged = resources.files("pyramids.flags").joinpath("deck.py").read_text("utf-8")
    assert out.read_text("utf-8") == packaged
