"""Flaming Pyramids' own words at the terminal, in English and French.

The status lines under the pyramid, the legend, the reasons a human's input is refused,
the words of a check (call-out mode) and the match results: the catalogue entries
``cli.flaming.<key>`` (``pyramids/texts/messages/<lang>/cli-flaming.json``). ``tr`` looks
there first, then among the CLI's shared words (``cli.<key>``).
"""

from __future__ import annotations

from pyramids.cli.i18n import catalogue

tr = catalogue("cli.flaming")
"""``tr(key, lang, **fields)``: a Flaming Pyramids word, or a shared one."""
