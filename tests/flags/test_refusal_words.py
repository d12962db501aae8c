"""Pyramids and Flags refusals read as sentences in English and in French.

The rules raise codes with facts (``flags.not_in_hand`` {card, seat}); the words are the
catalogue's ``refusal.flags.<code>`` (``texts/messages/*/refusals-flags.json``), so a
French page shows a French refusal.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import pyramids.flags
from pyramids.core.errors import ActionParseError, IllegalActionError, PositionError
from pyramids.flags.game import FlagsGame, position_from_json
from pyramids.flags.text import parse_action
from pyramids.texts import refusal
from tests.flags.test_notation import _capture, position, state

MESSAGES = Path(pyramids.flags.__file__).parent.parent / "texts" / "messages"
CODE = re.compile(r"""["'](flags\.[a-z0-9_]+)["']""")


def _codes_raised() -> set[str]:
    """Every ``flags.*`` refusal code written in the rules package and the native crate."""
    root = Path(pyramids.flags.__file__).parent
    sources = [*root.glob("*.py"), *(root.parents[2] / "native" / "flags" / "src").glob("*.rs")]
    codes = {m for path in sources for m in CODE.findall(path.read_text(encoding="utf-8"))}
    # Catalogue prefixes of other entries (terms), not refusal codes.
    return {c for c in codes if c not in {"flags.colour", "flags.action"}}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_flags_refusal_code_has_words(lang: str) -> None:
    """Every code the engines raise has its words in both languages, and no word is left
    without a code."""
    entries = json.loads((MESSAGES / lang / "refusals-flags.json").read_text(encoding="utf-8"))
    written = {key.removeprefix("refusal.") for key in entries}
    assert _codes_raised() == written


def test_an_illegal_exchange_reads_in_english_and_french() -> None:
    """PF-SWAP-2: "exchange a card of your hand"; the refusal names card and seat."""
    s = state(hands=[["CZE"], ["ITA"]])
    with pytest.raises(IllegalActionError) as refused:
        s.parse_action("swap:ITA")
    err = refused.value
    assert (err.code, err.data) == ("flags.not_in_hand", {"card": "ITA", "seat": 0})
    assert refusal(err, "en") == "ITA is not in seat 0's hand"
    assert refusal(err, "fr") == "ITA n'est pas dans la main du joueur 0"
    assert str(err) == refusal(err, "en")


def test_a_move_onto_a_smaller_piece_reads_in_english_and_french() -> None:
    """PF-MOVE-3: "a piece may not be put on a smaller one"."""
    s = FlagsGame(2).new_initial_state(0)
    err = s.illegal_reason(parse_action("B3>K1"))
    assert err is not None
    assert (err.code, err.data) == ("flags.onto_smaller_piece", {"piece": "B3", "target": "K1"})
    assert refusal(err, "en") == (
        "B3 is larger than K1: a piece may not be put on a smaller one (PF-MOVE-3)"
    )
    assert refusal(err, "fr") == (
        "B3 est plus grande que K1 : une pièce ne peut pas aller sur une plus petite (PF-MOVE-3)"
    )


def test_an_unreadable_action_reads_in_english_and_french() -> None:
    """PF-NOTE-1: a word the notation does not know is named."""
    with pytest.raises(ActionParseError) as refused:
        parse_action("fly:K1")
    err = refused.value
    assert (err.code, err.data) == (
        "flags.unknown_action_word",
        {"action": "fly:K1", "word": "fly"},
    )
    assert refusal(err, "en") == "cannot read action 'fly:K1': unknown word 'fly'"
    assert refusal(err, "fr") == "action 'fly:K1' illisible : mot inconnu 'fly'"


def test_a_bad_position_reads_in_english_and_french() -> None:
    """PF-NOTE-3: a card listed twice names the card and both places (the fields)."""
    data = position(hands=[["CZE"], ["CZE"]])
    with pytest.raises(PositionError) as refused:
        position_from_json(data)
    err = refused.value
    assert (err.code, err.data) == (
        "flags.card_twice",
        {"card": "CZE", "first": "hands[0]", "second": "hands[1]"},
    )
    assert refusal(err, "en") == "card CZE is listed twice: in hands[0] and in hands[1]"
    assert refusal(err, "fr") == "la carte CZE figure deux fois : dans hands[0] et dans hands[1]"


def test_a_win_not_declared_reads_with_its_reason() -> None:
    """PF-WIN-3: the refusal says which win condition the seat meets."""
    with pytest.raises(PositionError) as refused:
        position_from_json(
            position(hands=[["CZE"], ["ITA"]], scoring=[["O1", "O2", "O3", "P1"], []])
        )
    err = refused.value
    assert (err.code, err.data) == (
        "flags.win_undeclared",
        {"seat": 0, "win": "points", "detail": 8},
    )
    assert refusal(err, "en") == (
        "seat 0 already meets a win condition (8 points) but the position has no winner"
    )
    assert refusal(err, "fr") == (
        "le joueur 0 remplit déjà une condition de victoire (8 points) "
        "mais la position n'a pas de gagnant"
    )


def test_a_capture_refusal_lists_the_pieces_shown() -> None:
    """PF-CAPTURE-2: only a piece shown on the card is taken; the refusal lists them."""
    s = position_from_json(_capture())
    refused = s.illegal_reason(parse_action("take:X1"))
    assert refused is not None and refused.code == "flags.not_shown"
    shown = " ".join(refused.data["shown"])
    assert refusal(refused, "en") == f"X1 is not shown on CZE ({shown}) (PF-CAPTURE-2)"
    assert refusal(refused, "fr") == f"X1 n'est pas montrée sur CZE ({shown}) (PF-CAPTURE-2)"
