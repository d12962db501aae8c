"""Pebble Pyramid, the third game: registered only in the test session (see tests/conftest.py).

It exists to prove that every host (CLI, simulate, tournament, ISMCTS, conformance,
PettingZoo, the server's HTTP and WebSocket API) runs a game it has never heard of.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from pyramids.core.descriptor import Evaluation, GameDescriptor, Lazy, Messages, OptionSpec, Preset
from pyramids.core.game import Bot, Game
from tests.thirdgame.rules import INFO, Coin, PebblesGame, Take, load_position

# The loaders are named load_*: a function named like a submodule of this package
# (``policy``) would be replaced by the submodule once it is imported, and a pickled
# descriptor could no longer find it.


def load_policy() -> Callable[[], Bot]:
    """The default policy."""
    from tests.thirdgame.policy import GreedyPebblesBot

    return GreedyPebblesBot


def load_evaluation() -> Evaluation:
    """The evaluation of a search cut short."""
    from tests.thirdgame.policy import evaluate

    return evaluate


def load_terminal() -> object:
    """The terminal interface (needs rich)."""
    from tests.thirdgame.host import UI

    return UI()


def load_rl_encoding() -> Callable[[Game], object]:
    """The RL encoding (needs numpy)."""
    from tests.thirdgame.host import PebblesEncoding

    return PebblesEncoding


def load_messages() -> Messages:
    """The game's words: event sentences, option help, preset labels, refusals."""
    from tests.thirdgame.texts import MESSAGES
    from tests.thirdgame.words import MESSAGES as REFUSALS

    return {lang: {**MESSAGES[lang], **REFUSALS.get(lang, {})} for lang in MESSAGES}


DESCRIPTOR = GameDescriptor(
    info=INFO,
    factory=PebblesGame.from_options,
    load_position=load_position,
    titles={"en": "Pebble Pyramid", "fr": "Pyramide de galets"},
    options=(OptionSpec("rows", "int", 3, minimum=2, maximum=4),),
    presets=(Preset("small", {"rows": 2}), Preset("classic", {"rows": 3})),
    default_preset="classic",
    event_kinds=(Take, Coin),
    policy=Lazy(load_policy),
    evaluation=Lazy(load_evaluation),
    terminal=Lazy(load_terminal),
    rl_encoding=Lazy(load_rl_encoding),
    messages=Lazy(load_messages),
)
"""The one registry entry of the game: everything else is found through it."""

ENV = {"PYRAMIDS_GAMES": "tests.thirdgame:DESCRIPTOR"}
"""What a subprocess (a server, the CLI) needs in its environment to register the game
(with the repository root on ``PYTHONPATH``)."""


def python_path() -> str:
    """``$PYTHONPATH`` for such a subprocess: the repository root, then the current one (a
    worktree's ``src`` stays first for the pyramids package)."""
    root = str(Path(__file__).resolve().parents[2])
    return os.pathsep.join(p for p in (os.environ.get("PYTHONPATH", ""), root) if p)


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
