"""Pebble Pyramid, the third game: registered only in the test session (see tests/conftest.py).

It exists to prove that every host (CLI, simulate, tournament, ISMCTS, conformance,
PettingZoo, the server's HTTP and WebSocket API) runs a game it has never heard of.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from pyramids.core.descriptor import Evaluation, GameDescriptor, Lazy, Messages, OptionSpec, Preset
from pyramids.core.game import Bot, Game
from tests.thirdgame.rules import INFO, Coin, PebblesGame, Take, load_position


def policy() -> Callable[[], Bot]:
    """The default policy."""
    from tests.thirdgame.policy import GreedyPebblesBot

    return GreedyPebblesBot


def evaluation() -> Evaluation:
    """The evaluation of a search cut short."""
    from tests.thirdgame.policy import evaluate

    return evaluate


def terminal() -> object:
    """The terminal interface (needs rich)."""
    from tests.thirdgame.host import UI

    return UI()


def rl_encoding() -> Callable[[Game], object]:
    """The RL encoding (needs numpy)."""
    from tests.thirdgame.host import PebblesEncoding

    return PebblesEncoding


def messages() -> Messages:
    """The game's words: event sentences, option help, preset labels."""
    from tests.thirdgame.texts import MESSAGES

    return MESSAGES


DESCRIPTOR = GameDescriptor(
    info=INFO,
    factory=PebblesGame.from_options,
    load_position=load_position,
    titles={"en": "Pebble Pyramid", "fr": "Pyramide de galets"},
    options=(OptionSpec("rows", "int", 3, minimum=2, maximum=4),),
    presets=(Preset("small", {"rows": 2}), Preset("classic", {"rows": 3})),
    default_preset="classic",
    event_kinds=(Take, Coin),
    policy=Lazy(policy),
    evaluation=Lazy(evaluation),
    terminal=Lazy(terminal),
    rl_encoding=Lazy(rl_encoding),
    messages=Lazy(messages),
)
"""The one registry entry of the game: everything else is found through it."""

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
