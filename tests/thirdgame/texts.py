"""Pebble Pyramid's words for the catalogue (``pyramids.texts``), through its descriptor's
``messages``: the event sentences, the option's help line and the presets' labels (the
keys every game uses: ``<game>.<kind>``, ``option.<game>.<option>``, ``preset.<game>.<preset>``)."""

from __future__ import annotations

MESSAGES = {
    "en": {
        "pebbles.take": "seat {seat} takes the {number} at {at} and scores {points}",
        "pebbles.coin": "the coin shows {face}: seat {seat} scores {points} more",
        "option.pebbles.rows": "Rows of the pyramid.",
        "preset.pebbles.small": "Small: 3 tiles",
        "preset.pebbles.classic": "Classic: 6 tiles",
    },
    "fr": {
        "pebbles.take": "la place {seat} prend le {number} en {at} et marque {points}",
        "pebbles.coin": "la pièce montre {face} : la place {seat} marque {points} de plus",
        "option.pebbles.rows": "Rangées de la pyramide.",
        "preset.pebbles.small": "Petite : 3 tuiles",
        "preset.pebbles.classic": "Classique : 6 tuiles",
    },
}
"""The game's entries by language."""
