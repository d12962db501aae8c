"""Pebble Pyramid's refusal words (its ``pebbles.*`` codes), English and French.

The third game brings every word it needs through its descriptor's ``messages``:
``tests.thirdgame.load_messages`` merges these entries with its events' sentences. The
shared codes it also raises (``position.*``, ``game.*``) have their words in the
catalogue's ``refusals-core.json``.
"""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "refusal.pebbles.not_legal": "{action} is not legal here",
        "refusal.pebbles.unreadable": "cannot read '{text}': write take:r,c, heads or tails",
        "refusal.pebbles.bad_tile": "bad tile '{tile}': {number}",
        "refusal.pebbles.off_pyramid": "tile {tile} is off a {rows}-row pyramid",
        "refusal.pebbles.not_a_pair": "'{field}' must be two numbers from {low} to {high}",
    },
    "fr": {
        "refusal.pebbles.not_legal": "{action} n'est pas permis ici",
        "refusal.pebbles.unreadable": "impossible de lire « {text} » : écrivez take:r,c, heads ou tails",
        "refusal.pebbles.bad_tile": "tuile invalide « {tile} » : {number}",
        "refusal.pebbles.off_pyramid": "la tuile {tile} est hors d'une pyramide de {rows} rangées",
        "refusal.pebbles.not_a_pair": "« {field} » doit être deux nombres de {low} à {high}",
    },
}
"""The refusal words, merged into the descriptor's ``messages`` (``tests.thirdgame.host``)."""
