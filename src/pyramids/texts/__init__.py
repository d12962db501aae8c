"""The message catalogue: every word of every host, in English and French.

The rules packages record typed events that hold facts, not sentences
(``pyramids.core.Event``: ``game``, ``kind``, ``data``), and refuse with codes and facts
(``pyramids.core.errors``). This host-level package turns them into words for the
terminal, the server and the browser: ``describe(event, lang)``, ``refusal(err, lang)``;
and it holds every other word the hosts say: ``message(key, lang, **facts)``. The
sentences live in ``messages/<lang>/*.json``: each file one flat object, merged per
language (a key in two files of one language is an error). Keys by file:

- ``events.json``: ``<game>.<kind>`` for the games' events (``flaming.collapse``, ``flags.draw``),
  ``<game>.<word>.<value>`` for shared words (``flags.action.R``), ``list.and``;
- ``refusals-*.json``: ``refusal.<code>``;
- ``numbers.json``: ``number.group``, ``number.decimal``, ``number.percent``, the number
  format of the language (``format_number``, ``format_percent``, ``{x, number, 1}``);
- ``cli.json``, ``cli-<game>.json``: the terminal's words, ``cli.<key>`` and
  ``cli.<game>.<key>`` (``pyramids.cli.i18n.tr``);
- ``report.json``, ``charts.json``: the workbench's report and charts, ``report.<key>``
  and ``charts.<key>``;
- ``workbench.json``: each game's workbench words (event names, option changes, what a seat
  holds), ``workbench.<game>.<key>`` (``pyramids.analysis.workbench.catalogue_label``);
- ``server.json``: the server's notices, ``server.<kind>`` (``server.clock``,
  ``server.stand_in``);
- ``web.json``, ``web-*.json``: the browser pages' words, ``web.<key>`` (``t(key)`` in
  ``static/js/i18n.js``).

The syntax is a small ICU MessageFormat subset (named placeholders, ``select``,
``plural`` with ``=N``, ``number``, plus ``list`` and ``term``), documented in
``pyramids.texts.format``. The catalogue names no game: it reads ``event.game``,
``event.kind`` and ``event.data`` only.

Why JSON with ICU-style placeholders and not gettext/Babel: the browser reads the very
same files (the server serves each language's merged catalogue at ``/texts/<lang>.json``;
``static/js/messageformat.js`` implements the same subset) with no build step and no compiled
``.mo`` files; gettext keys messages by their English text, which would tie the French
sentences and the browser to English wording, while event facts are named data
(``{tile}``, ``{seat}``) that both languages place where their grammar wants; and
the rules engines stay installable without a translation toolchain.

A game outside this repository brings its sentences through its descriptor's
``messages`` (or adds them with ``add_messages``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from pyramids.core.errors import PyramidsError, plain, set_renderer
from pyramids.core.game import Event
from pyramids.games import descriptors, names
from pyramids.texts.format import Lookup, MessageError, format_message, parse

__all__ = [
    "LANGS",
    "MessageError",
    "add_messages",
    "catalogue",
    "describe",
    "event_key",
    "format_number",
    "format_percent",
    "has_entry",
    "has_message",
    "message",
    "refusal",
    "refusal_key",
]

LANGS = ("en", "fr")
"""The catalogue's languages; English is the fallback."""

_ADDED: dict[str, dict[str, str]] = {lang: {} for lang in LANGS}
_VERSION = [0]
"""Bumped by ``add_messages`` so the merged catalogue (and cached sentences) are built again."""


@cache
def _files(lang: str) -> dict[str, str]:
    """Every ``messages/<lang>/*.json`` merged (files in name order; no key twice)."""
    folder = resources.files(__name__).joinpath("messages", lang)
    merged: dict[str, str] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        data = json.loads(entry.read_text("utf-8"))
        where = f"messages/{lang}/{entry.name}"
        if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
            raise MessageError(f"{where} is not an object of strings")
        twice = sorted(set(merged) & set(data))
        if twice:
            raise MessageError(f"{where} repeats keys of another file: {', '.join(twice)}")
        merged.update(data)
    return merged


def _game_messages(lang: str) -> dict[str, str]:
    """The sentences registered games bring along (their descriptor's ``messages``)."""
    entries: dict[str, str] = {}
    for desc in descriptors():
        if desc.messages is not None:
            entries.update(desc.messages.get().get(lang, {}))
    return entries


@cache
def _merged(lang: str, games: tuple[str, ...], version: int) -> dict[str, str]:
    """The catalogue of ``lang`` for these registered games and this ``add_messages`` state
    (built once: every event of every message the server sends is described through it)."""
    return {**_files(lang), **_game_messages(lang), **_ADDED[lang]}


def _entries(lang: str) -> dict[str, str]:
    lang = lang if lang in LANGS else "en"
    return _merged(lang, names(), _VERSION[0])


def catalogue(lang: str) -> dict[str, str]:
    """Every entry in ``lang`` (the files, registered games' own, ``add_messages``), as sent
    to the browser."""
    return dict(_entries(lang))


def add_messages(lang: str, entries: Mapping[str, str]) -> None:
    """Add or replace entries of ``lang`` (a game that is not part of this repository)."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; the catalogue has {', '.join(LANGS)}")
    for text in entries.values():
        parse(text)
    _ADDED[lang].update(entries)
    _VERSION[0] += 1


def _lookup(lang: str) -> Lookup:
    entries = _entries(lang)
    fallback = _entries("en")

    def lookup(key: str) -> str | None:
        return entries.get(key, fallback.get(key))

    return lookup


def event_key(event: Event) -> str:
    """The catalogue key of an event: ``<game>.<kind>``."""
    return f"{event.game}.{event.kind}"


def has_message(event: type[Event] | Event, lang: str) -> bool:
    """Whether ``lang`` itself (no fallback) has the sentence of this event kind."""
    return f"{event.game}.{event.kind}" in _entries(lang)


def has_entry(key: str, lang: str = "en") -> bool:
    """Whether the catalogue of ``lang`` itself (no fallback) has the entry ``key``."""
    return key in _entries(lang)


def message(key: str, lang: str = "en", **facts: Any) -> str:
    """The entry ``key`` in ``lang`` (English if absent there) filled with ``facts``."""
    lookup = _lookup(lang)
    text = lookup(key)
    if text is None:
        raise MessageError(f"no catalogue entry {key!r}")
    return format_message(text, facts, lookup)


def _number_style(digits: int, sign: bool, percent: bool) -> str:
    return f"{'+' if sign else ''}{digits}{'%' if percent else ''}"


def format_number(
    value: float | None, lang: str = "en", digits: int = 0, *, sign: bool = False
) -> str:
    """``value`` in ``lang``'s way, as ``{x, number, N}`` writes it: ``1,234.5`` /
    ``1 234,5`` (U+202F), a true minus, ``+`` before positives when ``sign``, "–" for None."""
    style = _number_style(digits, sign, percent=False)
    return format_message(f"{{x, number, {style}}}", {"x": value}, _lookup(lang))


def format_percent(
    value: float | None, lang: str = "en", digits: int = 1, *, sign: bool = False
) -> str:
    """The fraction ``value`` as a percentage, as ``{x, number, N%}`` writes it: ``61.6%`` /
    ``61,6 %`` (U+202F before the sign), "–" for None."""
    style = _number_style(digits, sign, percent=True)
    return format_message(f"{{x, number, {style}}}", {"x": value}, _lookup(lang))


def describe(event: Event, lang: str = "en") -> str:
    """What ``event`` says in ``lang`` ("en" or "fr"), e.g. "seat 0 plays R40 at 0,0".

    An event kind the catalogue lacks (a game that added no messages) reads as its key
    and data rather than failing the host. Sentences are cached by event value (events
    are frozen): the server describes each event for every viewer and both languages.
    """
    try:
        return _describe_cached(event, lang, names(), _VERSION[0])
    except TypeError:  # an event holding an unhashable fact: describe it afresh
        return _describe(event, lang)


@lru_cache(maxsize=8192)
def _describe_cached(event: Event, lang: str, games: tuple[str, ...], version: int) -> str:
    return _describe(event, lang)


def _describe(event: Event, lang: str) -> str:
    """``describe`` without the cache."""
    lookup = _lookup(lang)
    key = event_key(event)
    text = lookup(key)
    if text is None:
        return f"{key} {json.dumps(event.data, ensure_ascii=False, sort_keys=True)}"
    return format_message(text, event.data, lookup)


def refusal_key(code: str) -> str:
    """The catalogue key of a refusal code: ``refusal.<code>``."""
    return f"refusal.{code}"


def refusal(error: PyramidsError, lang: str = "en") -> str:
    """A refusal (``pyramids.core.errors``) in ``lang``'s words, filled with its facts.

    An unknown code reads as the code and its facts rather than failing the host."""
    try:
        return message(refusal_key(error.code), lang, **error.data)
    except MessageError:
        return plain(error.code, error.data)


def _render_english(code: str, data: Mapping[str, Any]) -> str:
    key = refusal_key(code)
    if _lookup("en")(key) is None:
        raise LookupError(key)
    return message(key, "en", **data)


set_renderer(_render_english)
