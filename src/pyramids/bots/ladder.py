"""What the offered levels are, in words: one sentence per level with its measured strength.

The ladder (``pyramids.bots.LADDER``) is offered by the lobby, the terminal and
docs/BOTS.md; each says what a level is with ``level_sentence(level, lang)``. The words
come from the message catalogue (``bots.*`` in ``pyramids/texts/messages/<lang>/``); the
figures from ``strength.json`` beside this module, which
``scripts/strength.py`` writes::

    {"measured": "<date>", "machine": "<text>",
     "levels": {"<level>": {"ms_p95": {"<game>": ms},
                            "vs_below": {"<game>": {"rate": r, "games": n, "ci": [lo, hi]}}}}}

``vs_below`` is the level's 2-player result against the level below it (``beginner``:
against ``random``); a null figure reads "not measured yet". Where a search level would
run the Python search (no native core), the sentence says so and gives its time cap.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from pyramids.bots import BOT_LEVELS, LADDER, python_cap
from pyramids.games import descriptor, names
from pyramids.games.engine import NATIVE, EngineError, resolve_engine
from pyramids.texts import message

STRENGTH_FILE = "strength.json"
"""The measured figures of the levels, beside this module."""

BELOW_LADDER = "random"
"""What the weakest level of the ladder is measured against."""

OFFERED: tuple[str, ...] = (BELOW_LADDER, *LADDER)
"""Every bot kind a player may choose, weakest first: random below the ladder."""


@functools.cache
def strength() -> dict[str, Any]:
    """The parsed ``strength.json`` (read once)."""
    text = resources.files(__package__).joinpath(STRENGTH_FILE).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def below(level: str) -> str:
    """The level under ``level`` on the ladder (``random`` under the first)."""
    i = OFFERED.index(level)
    if i == 0:
        raise ValueError(f"{level!r} is the weakest bot: nothing is below it")
    return OFFERED[i - 1]


def level_name(level: str, lang: str = "en") -> str:
    """The level's name as players read it ("Beginner", "Débutant")."""
    return message(f"bots.name.{level}", lang)


def _figure(value: Any) -> str | None:
    return None if value is None else f"{float(value):.0f}"


def strength_lines(level: str, lang: str = "en") -> list[str]:
    """One line per game: the level's measured 2-player rate against the level below
    (none for ``random``, which is below the ladder)."""
    if level == BELOW_LADDER:
        return []
    figures = strength().get("levels", {}).get(level, {})
    lines = []
    for game in names():
        result = (figures.get("vs_below") or {}).get(game) or {}
        rate = result.get("rate")
        lines.append(
            message(
                "bots.strength",
                lang,
                game=descriptor(game).title(lang),
                rate=None if rate is None else f"{100 * float(rate):.0f}",
                below=level_name(below(level), lang),
                games=result.get("games"),
                ms=_figure((figures.get("ms_p95") or {}).get(game)),
            )
        )
    return lines


def python_note(level: str, lang: str = "en", *, native: bool | None = None) -> str | None:
    """What a search level does on a machine without the native core (None elsewhere, or
    for a level that does not search). ``native``: whether the search runs natively here
    (default: this machine's answer for the choice ``auto``: the core is built)."""
    cap = python_cap(level)
    if cap is None:
        return None
    if native is None:
        try:
            native = resolve_engine() == NATIVE
        except EngineError:
            native = False
    if native:
        return None
    return message("bots.python_cap", lang, level=level_name(level, lang), seconds=f"{cap:g}")


MORE_PLAYERS = range(3, 7)
"""Player counts a level's budget may differ at from its 2-player one (said in ``budgets``)."""


def budgets(level: str, lang: str = "en") -> str | None:
    """A search level's iterations a move per game, ``4000 in Flaming Pyramids, …`` (its
    2-player settings, and those of more players where they differ; None for a level that
    does not search)."""
    found = BOT_LEVELS.get(level)
    if found is None:
        return None
    parts = []
    for game in names():
        iterations = found.settings_for(game, 2).iterations
        title = descriptor(game).title(lang)
        other = {p: found.settings_for(game, p).iterations for p in MORE_PLAYERS}
        differ = [p for p, n in other.items() if n != iterations]
        if not differ:
            parts.append(message("bots.budget", lang, iterations=iterations, game=title))
            continue
        counts = {other[p] for p in differ}
        players = f"{differ[0]}–{differ[-1]}" if len(differ) > 1 else str(differ[0])
        parts.append(
            message(
                "bots.budget_players",
                lang,
                iterations=iterations,
                game=title,
                others="/".join(str(n) for n in sorted(c for c in counts if c is not None)),
                players=players,
            )
        )
    return ", ".join(parts)


def level_sentence(level: str, lang: str = "en", *, native: bool | None = None) -> str:
    """What ``level`` (one of ``OFFERED``) is, its measured strength, and what it does
    without the native core, in ``lang``."""
    if level not in OFFERED:
        raise ValueError(f"unknown level {level!r} (levels: {', '.join(OFFERED)})")
    about = message(f"bots.about.{level}", lang, iterations=budgets(level, lang))
    return message(
        "bots.sentence",
        lang,
        name=level_name(level, lang),
        about=about,
        strength=strength_lines(level, lang),
        note=python_note(level, lang, native=native),
    )
