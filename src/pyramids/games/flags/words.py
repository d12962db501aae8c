"""Pyramids and Flags' own words at the terminal, in English and French.

The table, the status under it, the cards' facts, the play help and the reasons a
human's input is refused: the catalogue entries ``cli.flags.<key>``
(``pyramids/texts/messages/<lang>/cli-flags.json``). ``tr`` looks there first, then among
the CLI's shared words (``cli.<key>``).
"""

from __future__ import annotations

from pyramids.cli.i18n import catalogue
from pyramids.texts import message

tr = catalogue("cli.flags")
"""``tr(key, lang, **fields)``: a Pyramids and Flags word, or a shared one."""


def tree_words(colour: str, lang: str = "en") -> tuple[str, str]:
    """(action name, colour name) of the tree of ``colour`` in ``lang``, from the catalogue."""
    return message(f"flags.action.{colour}", lang), message(f"flags.colour.{colour}", lang)
