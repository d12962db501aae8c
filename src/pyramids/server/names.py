"""What a name or a chat line may hold: the text rules of issue 29 (items 5 and 11).

Three kinds of text a player types and every other player sees:

- **Account names** (:func:`check_account_name`, used by ``accounts.check_name``): NFKC;
  no invisible character at all (Unicode's ``Default_Ignorable_Code_Point``: zero-width
  spaces and joiners, BOM, LRM/RLM, tag characters, Hangul fillers, the combining grapheme
  joiner, variation selectors); letters, combining marks and decimal digits of **one
  script** (each character's ``Script_Extensions``; Common and Inherited go with any
  script; Han may go with Hiragana, Katakana, Bopomofo or Hangul, and Latin with those:
  UTS #39's "highly restrictive" level); at most :data:`MAX_MARKS` combining marks on one
  character. Two accounts may not have the same **skeleton** (:func:`skeleton_key`: the
  UTS #39 skeleton, case-insensitively): a name that looks like a taken one is taken.
  "deleted player" is reserved in every script and spelling (:func:`is_reserved`).
- **Display text**, i.e. seat names (``POST /api/tables`` seats, lobby claims) and chat
  messages (:func:`clean_display_text`): invisible characters inside visible text are
  **removed**, except those that do a visible job (a zero-width joiner or non-joiner
  between two visible characters: emoji sequences, Persian and Indic spelling; a
  variation selector after a visible character; the tag characters of a flag's emoji tag
  sequence). Text that is nothing but invisible characters, or that stacks more than
  :data:`MAX_MARKS` combining marks on one character, is refused.

Why remove rather than refuse inside chat: the writer cannot see what to take out (text
copied from a web page often carries a zero-width space or a BOM), and what is kept is
exactly what every reader sees; an invisible payload (tag characters smuggling ASCII,
direction marks) is gone all the same. A name is different: it identifies someone, so
an invisible character in it is refused, never silently dropped.

Unicode data comes from libraries, not tables written here: scripts and
``Default_Ignorable_Code_Point`` from the ``regex`` module's properties, the UTS #39
confusables from ``confusable-homoglyphs`` (its ``confusables.json`` holds each line of
Unicode's ``confusables.txt`` in both directions; :func:`_prototypes` turns it back into
the one-way map the skeleton needs). Every refusal is a :class:`TextRefusedError` whose
message comes from the catalogue (``pyramids.texts``, keys ``names.*``) and names the
offending character in words (``U+200B ZERO WIDTH SPACE``).
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable
from functools import cache
from typing import Any

import regex
from confusable_homoglyphs import categories as _categories
from confusable_homoglyphs import confusables as _confusables

from pyramids import texts

MAX_MARKS = 4
"""The most combining marks one character may carry (counted after NFD, so a precomposed
letter counts its accents). Vietnamese needs 2, Hebrew with points and cantillation 3 or 4,
a Tibetan stack 4; the "letter with 299 marks" attack needs a few hundred."""
SHOWN_CHARS = 3
"""How many distinct offending characters a refusal names."""

ACCOUNT, SEAT, CHAT = "name", "seat", "chat"
"""What a text is, for the refusal's wording (the catalogue's ``what`` select)."""

DELETED_NAME = "deleted player"
"""The name a deleted account's seats and messages take (``accounts.DELETED_NAME``)."""
SEPARATORS = "_-. "
"""Characters ignored when comparing a name with the reserved one."""

_IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
_ANY_SCRIPT = regex.compile(r"[\p{scx=Common}\p{scx=Inherited}]")
JOINERS = frozenset("\u200c\u200d")
"""Zero-width non-joiner and joiner: kept between two visible characters."""
_SELECTOR = regex.compile(r"[\ufe00-\ufe0f\U000e0100-\U000e01ef\u180b-\u180d\u180f]")
"""Variation selectors (emoji or text style, CJK variants, Mongolian forms)."""
LRM = "\u200e"
BLACK_FLAG = "\U0001f3f4"
CANCEL_TAG = "\U000e007f"
_TAG = regex.compile(r"[\U000e0020-\U000e007e]")
BLANKS = frozenset("\u2800")
"""Characters that draw nothing although Unicode calls them symbols (BRAILLE PATTERN BLANK)."""

_HAN, _HIRAGANA, _KATAKANA, _HANGUL, _BOPOMOFO, _LATIN = (
    "HAN",
    "HIRAGANA",
    "KATAKANA",
    "HANGUL",
    "BOPOMOFO",
    "LATIN",
)
JAPANESE, KOREAN, CHINESE = "Japanese", "Korean", "Han with Bopomofo"
AUGMENTED = {
    _HAN: {CHINESE, JAPANESE, KOREAN},
    _HIRAGANA: {JAPANESE},
    _KATAKANA: {JAPANESE},
    _HANGUL: {KOREAN},
    _BOPOMOFO: {CHINESE},
}
"""UTS #39's augmented script sets: the writing systems that mix scripts by design."""


class TextRefusedError(ValueError):
    """A name or a text that breaks a rule: the catalogue key, its facts, the message."""

    def __init__(self, key: str, **facts: Any) -> None:
        self.key = key
        self.facts = facts
        self.message = texts.message(key, "en", **facts)
        super().__init__(self.message)

    def in_language(self, lang: str) -> str:
        """The refusal in ``lang`` (``en`` or ``fr``)."""
        return texts.message(self.key, lang, **self.facts)


# --- characters ------------------------------------------------------------------------------


def char_name(c: str) -> str:
    """A character in words: ``U+200B ZERO WIDTH SPACE``."""
    return f"U+{ord(c):04X} {unicodedata.name(c, '(unnamed)')}"


def describe_chars(chars: Iterable[str]) -> str:
    """The first :data:`SHOWN_CHARS` distinct characters, in words, comma-separated."""
    seen = list(dict.fromkeys(chars))
    shown = ", ".join(char_name(c) for c in seen[:SHOWN_CHARS])
    return shown + (", …" if len(seen) > SHOWN_CHARS else "")


def is_ignorable(c: str) -> bool:
    """Whether ``c`` is a default-ignorable code point (drawn as nothing)."""
    return _IGNORABLE.match(c) is not None


def is_visible(c: str) -> bool:
    """Whether ``c`` draws something: a letter, digit, punctuation or symbol that is not
    default-ignorable (a Hangul filler is a letter that draws nothing) nor a blank."""
    return unicodedata.category(c)[0] in "LNPS" and not is_ignorable(c) and c not in BLANKS


def is_mark(c: str) -> bool:
    """Whether ``c`` is a combining mark (it draws on the character before it)."""
    return unicodedata.category(c)[0] == "M"


def check_marks(text: str, what: str) -> None:
    """Refuse (``names.marks``) more than :data:`MAX_MARKS` combining marks on one character
    (an invisible character between two marks neither counts nor ends the run)."""
    base = ""
    run = 0
    for c in [*unicodedata.normalize("NFD", text), ""]:
        if c and is_ignorable(c):
            continue
        if c and is_mark(c):
            run += 1
            continue
        if run > MAX_MARKS:
            shown = char_name(base) if base else "none"
            raise TextRefusedError("names.marks", what=what, most=MAX_MARKS, base=shown, count=run)
        base, run = c, 0


# --- display text: seat names and chat ---------------------------------------------------------


def strip_invisible(text: str) -> tuple[str, list[str]]:
    """``text`` without its default-ignorable characters, except the joiners, selectors and
    flag tags that do a visible job (see the module's docstring); and what was removed."""
    out: list[str] = []
    removed: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == BLACK_FLAG:
            j = i + 1
            while j < len(text) and _TAG.match(text[j]):
                j += 1
            if j > i + 1 and j < len(text) and text[j] == CANCEL_TAG:
                out.append(text[i : j + 1])  # a flag's emoji tag sequence (England, Wales…)
                i = j + 1
                continue
        (out if _is_kept(c, out, text, i) else removed).append(c)
        i += 1
    return "".join(out), removed


def _is_kept(c: str, out: list[str], text: str, i: int) -> bool:
    """Whether ``text[i]`` stays: it is not default-ignorable, or it is a joiner between
    two visible characters, or a variation selector after a visible character."""
    if not is_ignorable(c):
        return True
    if c in JOINERS:
        return _joins(out, text, i)
    return bool(_SELECTOR.match(c)) and bool(out) and is_visible(out[-1][-1])


def _joins(out: list[str], text: str, i: int) -> bool:
    """Whether the joiner at ``text[i]`` stands between two visible characters (a variation
    selector or mark may come between the first and the joiner: ``❤️‍🔥``)."""
    if not out or i + 1 >= len(text) or not is_visible(text[i + 1]):
        return False
    before = out[-1][-1]
    return is_visible(before) or bool(_SELECTOR.match(before)) or is_mark(before)


def clean_display_text(text: str, what: str) -> str:
    """``text`` with its invisible characters removed (:func:`strip_invisible`); refused
    (:class:`TextRefusedError`) when nothing visible is left although something was typed
    (``names.invisible_only``) or when a character carries too many marks
    (``names.marks``). Blank text is returned blank: the caller decides what it means."""
    kept, removed = strip_invisible(text)
    if not any(is_visible(c) for c in kept):
        hidden = removed + [c for c in kept if not c.isspace()]
        if hidden:
            raise TextRefusedError("names.invisible_only", what=what, chars=describe_chars(hidden))
    check_marks(kept, what)
    return kept


# --- account names ---------------------------------------------------------------------------


@cache
def _script_patterns() -> tuple[tuple[str, Any], ...]:
    """One compiled ``\\p{scx=…}`` per Unicode script (names from the Scripts.txt that
    confusable-homoglyphs ships), Common and Inherited left out."""
    names = _categories.categories_data["iso_15924_aliases"]
    return tuple(
        (name, regex.compile(rf"\p{{scx={name}}}"))
        for name in names
        if name not in ("COMMON", "INHERITED")
    )


@cache
def scripts_of(c: str) -> frozenset[str] | None:
    """The scripts ``c`` is written in (``Script_Extensions``, augmented as UTS #39 says);
    None for a character of Common or Inherited, which goes with any script."""
    if _ANY_SCRIPT.match(c):
        return None
    found = {name for name, pattern in _script_patterns() if pattern.match(c)}
    for name in list(found):
        found |= AUGMENTED.get(name, set())
    return frozenset(found)


def script_name(c: str) -> str:
    """The script ``c`` belongs to, in words (``Cyrillic``)."""
    return str(_categories.alias(c)).replace("_", " ").title()


def check_one_script(name: str) -> None:
    """Refuse (``names.mixed_scripts``) a name whose letters come from two scripts, other
    than Latin with Chinese, Japanese or Korean (UTS #39, "highly restrictive")."""
    if _resolved(name) or _latin_with_cjk(name):
        return
    common: frozenset[str] | None = None
    first = ""
    for c in name:
        sets = scripts_of(c)
        if sets is None:
            continue
        if common is None:
            common, first = sets, c
            continue
        if not common & sets:
            raise TextRefusedError(
                "names.mixed_scripts",
                name=name,
                first=script_name(first),
                first_char=char_name(first),
                second=script_name(c),
                second_char=char_name(c),
            )
        common &= sets


def _resolved(name: str, skip: frozenset[str] = frozenset()) -> frozenset[str] | None:
    """The scripts every character of ``name`` shares (None: only Common and Inherited);
    characters whose scripts include one of ``skip`` are left out."""
    common: frozenset[str] | None = None
    for c in name:
        sets = scripts_of(c)
        if sets is None or sets & skip:
            continue
        common = sets if common is None else common & sets
    return common


def _latin_with_cjk(name: str) -> bool:
    rest = _resolved(name, skip=frozenset({_LATIN}))
    return rest is not None and bool(rest & {JAPANESE, KOREAN, CHINESE})


def check_account_name(name: str) -> None:
    """Refuse (:class:`TextRefusedError`) an NFKC name with an invisible character
    (``names.invisible``), too many marks on a character (``names.marks``) or letters of
    two scripts (``names.mixed_scripts``)."""
    hidden = [c for c in name if is_ignorable(c)]
    if hidden:
        raise TextRefusedError("names.invisible", chars=describe_chars(hidden))
    check_marks(name, ACCOUNT)
    check_one_script(name)


# --- skeletons -------------------------------------------------------------------------------


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype (UTS #39 ``confusables.txt``: source ->
    prototype). confusable-homoglyphs keeps every line in both directions; a prototype
    never is a source, so a prototype is the character whose homoglyphs are all sources.
    When a line's two ends have no other homoglyph either could be the prototype: one is
    chosen, the same for both, which keeps "same skeleton" Unicode's relation (a prototype
    is renamed one to one). A precomposed letter is chosen first (the skeleton looks
    characters up after NFD, so a precomposed source would never be found), then the
    lower code point."""
    data = confusable_pairs()
    out: dict[str, str] = {}
    for key, entries in data.items():
        if len(key) != 1 or len(entries) != 1:
            continue  # a sequence, or a prototype with several sources
        (other,) = entries
        if len(other) > 1 or len(data.get(other, ())) > 1:
            out[key] = other
        else:
            out[key] = min(key, other, key=lambda c: (not _is_composite(c), ord(c)))
    return {k: v for k, v in out.items() if k != v}


@cache
def confusable_pairs() -> dict[str, frozenset[str]]:
    """confusable-homoglyphs' table as {character or sequence: its homoglyphs}, without the
    LEFT-TO-RIGHT MARKs that wrap right-to-left characters in ``confusables.txt``'s
    comments (the table is read from them: ``\u200eﱞ\u200e`` is ``ﱞ``)."""
    table: dict[str, list[dict[str, str]]] = _confusables.confusables_data
    out: dict[str, set[str]] = {}
    for key, entries in table.items():
        clean = key.replace(LRM, "")
        out.setdefault(clean, set()).update(e["c"].replace(LRM, "") for e in entries)
    return {k: frozenset(v - {k}) for k, v in out.items() if k}


def _is_composite(c: str) -> bool:
    return unicodedata.normalize("NFD", c) != c


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, default-ignorables removed, each character replaced by its
    prototype, NFD again (repeated until it holds still: a renamed prototype may sit inside
    another's sequence). Two strings with one skeleton look alike."""
    prototypes = _prototypes()
    current = unicodedata.normalize("NFD", text)
    for _ in range(4):
        mapped = "".join(prototypes.get(c, c) for c in current if not is_ignorable(c))
        mapped = unicodedata.normalize("NFD", mapped)
        if mapped == current:
            break
        current = mapped
    return current


def name_skeleton(name: str) -> str:
    """The skeleton names are compared by: skeleton, case-folded, skeleton again, so that
    ``PayPaI`` (capital I) and ``paypal`` or ``Аnna`` (Cyrillic А) and ``anna`` collide."""
    nfkc = unicodedata.normalize("NFKC", name)
    return skeleton(skeleton(nfkc).casefold())


def skeleton_key(name: str) -> str:
    """What ``accounts.name_skeleton`` stores: the SHA-256 (hex) of :func:`name_skeleton`
    (a fixed width whatever the skeleton's length: one character may stand for 20)."""
    return hashlib.sha256(name_skeleton(name).encode("utf-8", "surrogatepass")).hexdigest()


def is_reserved(name: str) -> bool:
    """Whether ``name`` spells "deleted player" in any script, case or spelling (its
    skeleton with ``_ - .`` and spaces left out)."""
    return _compact(name) == _compact(DELETED_NAME)


def _compact(name: str) -> str:
    text = name_skeleton(name)
    for mark in SEPARATORS:
        text = text.replace(skeleton(mark), "").replace(mark, "")
    return text
