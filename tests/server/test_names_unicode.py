"""The text rules themselves (``pyramids.server.names``, issue 29 items 5 and 11): the
catalogue's refusals, the UTS #39 skeleton read back from confusable-homoglyphs' table,
and properties of what an accepted name or a cleaned text may hold, for any input
(Hypothesis). The rules as players meet them are in test_names.py."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic_core import PydanticCustomError

from pyramids import texts
from pyramids.server import names
from pyramids.server.accounts import check_name
from pyramids.server.protocol import ProtocolError
from pyramids.server.schemas import clean_name

ZWSP = "\u200b"


def test_every_refusal_of_a_name_has_an_english_and_a_french_sentence() -> None:
    """The refusals come from the catalogue (keys ``names.*``), French not English's copy."""
    keys = [k for k in texts.catalogue("en") if k.startswith("names.")]
    assert len(keys) >= 10
    for key in keys:
        assert (
            key in texts.catalogue("fr")
            and texts.catalogue("fr")[key] != texts.catalogue("en")[key]
        )
    with pytest.raises(names.TextRefusedError) as refused:
        names.check_account_name("An" + ZWSP + "na")
    assert "U+200B ZERO WIDTH SPACE" in refused.value.in_language("fr")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_any_accepted_name_is_its_own_nfkc_form_and_holds_nothing_invisible(raw: str) -> None:
    """Whatever is typed: an accepted name is NFKC, has no default-ignorable code point,
    one script, and at most 4 marks on a character."""
    try:
        name = check_name(raw)
    except ProtocolError:
        return
    assert unicodedata.normalize("NFKC", name) == name
    assert not any(names.is_ignorable(c) for c in name)
    names.check_one_script(name)
    names.check_marks(name, names.ACCOUNT)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["anna", "maria", "deleted player", "paypal"]), st.data())
def test_a_name_spelled_with_look_alikes_has_the_skeleton_of_the_original(
    original: str, data: st.DataObject
) -> None:
    """Replace any letters by characters Unicode lists as their look-alikes: same skeleton."""
    by_prototype: dict[str, list[str]] = {}
    for source, prototype in names._prototypes().items():
        if unicodedata.normalize("NFKC", source) == source:  # names are NFKC
            by_prototype.setdefault(prototype, []).append(source)
    spelled = "".join(data.draw(st.sampled_from([c, *by_prototype.get(c, [])])) for c in original)
    assert names.name_skeleton(spelled) == names.name_skeleton(original)


def test_every_confusable_pair_unicode_lists_has_one_skeleton() -> None:
    """The skeleton read back from confusable-homoglyphs' two-way table: each of its pairs
    (a source and its prototype in Unicode's confusables.txt) maps to one skeleton. Pairs
    with a precomposed letter are left out: the skeleton decomposes (NFD) before it looks
    characters up, so Unicode's own skeleton does not apply such a line as written."""
    pairs = [
        (key, other)
        for key, others in names.confusable_pairs().items()
        for other in others
        if _decomposed(key) and _decomposed(other)
    ]
    assert len(pairs) > 10000
    different = [(a, b) for a, b in pairs if names.skeleton(a) != names.skeleton(b)]
    assert different == []
    assert names.skeleton("p\u0430ypal") == "paypal" and names.skeleton("m") == "rn"


def _decomposed(text: str) -> bool:
    return unicodedata.normalize("NFD", text) == text


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_cleaned_display_text_shows_what_it_holds(raw: str) -> None:
    """Whatever is sent: the cleaned text is its own cleaning, shows something unless it is
    blank, and keeps no default-ignorable character but a joiner, a selector or a flag tag."""
    try:
        kept = names.clean_display_text(raw, names.CHAT)
    except names.TextRefusedError:
        return
    assert names.clean_display_text(kept, names.CHAT) == kept
    assert kept.strip() == "" or any(names.is_visible(c) for c in kept)
    allowed = names.JOINERS | {chr(c) for c in range(0xFE00, 0xFE10)}
    for c in kept:
        assert (
            not names.is_ignorable(c)
            or c in allowed
            or names._SELECTOR.match(c)
            or (names._TAG.match(c) or c == names.CANCEL_TAG)
        ), names.char_name(c)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_a_cleaned_seat_name_is_its_own_cleaning(raw: str) -> None:
    """A seat name is cleaned when the request is read and again by the claim route: the
    second cleaning changes nothing and refuses nothing (no mark stack left behind)."""
    try:
        name = clean_name(raw)
    except PydanticCustomError:
        return
    assert name is None or clean_name(name) == name
