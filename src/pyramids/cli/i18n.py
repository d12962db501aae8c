"""The terminal's words in English and French, looked up in the message catalogue.

Every word lives in ``pyramids.texts`` (``messages/<lang>/cli.json``: what the CLI says
about every game alike, seat names, prompts, saving, replay, refusals of options; keys
``cli.<key>``). A game's own terminal words (its status lines, its reasons for refusing an
input) are ``cli.<game>.<key>`` (``messages/<lang>/cli-<game>.json``), looked up by the
``tr`` that ``catalogue("cli.<game>")`` makes. ``tr(key, lang, **fields)`` formats one entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum

from pyramids.texts import has_entry, message


class Lang(StrEnum):
    """The languages the terminal speaks."""

    EN = "en"
    FR = "fr"


LANGS = tuple(lang.value for lang in Lang)


def _facts(fields: Mapping[str, object]) -> dict[str, object]:
    """The fields as the catalogue's facts; a value that is not a string or a number reads
    as ``str`` gives it (these sentences were written for ``str.format``)."""
    return {
        name: value
        if isinstance(value, str | int | float) and not isinstance(value, bool)
        else str(value)
        for name, value in fields.items()
    }


def tr(key: str, lang: str = "en", /, **fields: object) -> str:
    """The catalogue entry ``cli.<key>`` in ``lang`` (English if missing), filled with
    ``fields``."""
    return message(f"cli.{key}", lang, **_facts(fields))


def catalogue(prefix: str) -> Callable[..., str]:
    """A ``tr`` that looks ``<prefix>.<key>`` up first, then the shared ``cli.<key>``."""

    def translate(key: str, lang: str = "en", /, **fields: object) -> str:
        own = f"{prefix}.{key}"
        return message(own if has_entry(own) else f"cli.{key}", lang, **_facts(fields))

    return translate


def seat_name(seat: int, lang: str = "en") -> str:
    """``seat 2`` / ``joueur 2``."""
    return tr("seat", lang, n=seat)


def join_words(items: list[str], lang: str = "en") -> str:
    """``a, b or c`` / ``a, b ou c``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {tr('or', lang)} {items[-1]}"
