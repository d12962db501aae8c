"""Pebble Pyramid, the third game: registered only in the test session (see tests/conftest.py).

It exists to prove that every host (CLI, simulate, tournament, ISMCTS, conformance,
PettingZoo, the server's HTTP and WebSocket API) runs a game it has never heard of.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from pyramids.core.descriptor import GameDescriptor, OptionSpec, Preset
from tests.thirdgame.rules import INFO, Coin, PebblesGame, Take, load_position

DESCRIPTOR = GameDescriptor(
    info=INFO,
    factory=PebblesGame.from_options,
    load_position=load_position,
    titles={"en": "Pebble Pyramid", "fr": "Pyramide de galets"},
    options=(
        OptionSpec(
            "rows",
            "int",
            3,
            minimum=2,
            maximum=4,
            help_en="Rows of the pyramid.",
            help_fr="Rangées de la pyramide.",
        ),
    ),
    presets=(
        Preset("small", {"rows": 2}, "Small: 3 tiles", "Petite : 3 tuiles"),
        Preset("classic", {"rows": 3}, "Classic: 6 tiles", "Classique : 6 tuiles"),
    ),
    default_preset="classic",
    event_kinds=(Take, Coin),
    policy="tests.thirdgame.policy:GreedyPebblesBot",
    evaluation="tests.thirdgame.policy:evaluate",
    terminal="tests.thirdgame.host:UI",
    rl_encoding="tests.thirdgame.host:PebblesEncoding",
    messages="tests.thirdgame.host:MESSAGES",
)

ENV = {"PYRAMIDS_GAMES": "tests.thirdgame:DESCRIPTOR"}
"""What a subprocess (a server, the CLI) needs in its environment to register the game
(with the repository root on ``PYTHONPATH``)."""


@contextmanager
def registered() -> Iterator[str]:
    """The game registered for the duration (removed after, unless it was there before)."""
    from pyramids.games import GAMES, register, unregister

    added = DESCRIPTOR.name not in GAMES
    if added:
        register(DESCRIPTOR)
    try:
        yield DESCRIPTOR.name
    finally:
        if added:
            unregister(DESCRIPTOR.name)
