"""The Pyramids and Flags entry of the game registry (``pyramids.games``): the game as data.

The rules come from ``pyramids.flags``; every host-side part is a ``Lazy`` of a function
below that imports it on first use (the terminal interface needs ``rich``, the RL
encoding ``numpy``, the native engine the extension module). The options' help lines and
the presets' labels are catalogue entries (``option.flags.<name>``,
``preset.flags.<name>`` in ``pyramids/texts/messages/<lang>/options.json``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pyramids.core.descriptor import (
    GameDescriptor,
    Inference,
    Lazy,
    LearnedEvaluation,
    NativeEngine,
    OptionSpec,
    PlayerStats,
    Preset,
)
from pyramids.core.game import Bot, Game, State
from pyramids.flags.events import EVENT_KINDS
from pyramids.flags.game import INFO, FlagsGame, position_from_json
from pyramids.flags.options import DEFAULT_MAX_TURNS

__all__ = ["DESCRIPTOR"]


def policy() -> Callable[[], Bot]:
    """The default policy: the greedy bot."""
    from pyramids.games.flags.policy import GreedyFlagsBot

    return GreedyFlagsBot


def evaluation() -> Callable[[State], list[float]]:
    """The hand-made evaluation."""
    from pyramids.games.flags.evaluation import evaluate

    return evaluate


def learned_evaluation() -> LearnedEvaluation:
    """The learned evaluation, its features and its shipped weights."""
    from pyramids.games.flags import learned
    from pyramids.games.flags.features import FEATURES
    from pyramids.games.value import VALUE_FILE

    path = Path(learned.__file__).with_name(VALUE_FILE)
    return LearnedEvaluation(learned.evaluate, learned.weights, FEATURES, str(path))


def inference() -> Callable[[], Inference]:
    """Reading the opponents' hidden cards from their moves."""
    from pyramids.games.flags.inference import FlagsInference

    return FlagsInference


def terminal() -> object:
    """The terminal interface."""
    from pyramids.games.flags.terminal import UI

    return UI


def analysis() -> object:
    """What ``simulate``, ``bench`` and ``analyse`` read of the game."""
    from pyramids.games.flags.analysis import Analysis

    return Analysis


def rl_encoding() -> Callable[[Game], object]:
    """The RL encoding (needs numpy)."""
    from pyramids.games.flags.encoding import FlagsEncoding

    return FlagsEncoding


def player_stats() -> PlayerStats:
    """Each seat's own statistics of a finished game."""
    from pyramids.games.flags.stats import player_stats

    return player_stats


def native() -> NativeEngine:
    """The native engine (the extension module is imported when a game is made on it)."""
    from pyramids.native.flags import ENGINE

    return ENGINE


DESCRIPTOR = GameDescriptor(
    info=INFO,
    factory=FlagsGame.from_options,
    load_position=position_from_json,
    titles={"en": "Pyramids and Flags", "fr": "Pyramides et drapeaux"},
    options=(
        OptionSpec("actions", "bool", True),
        OptionSpec("max_turns", "int", DEFAULT_MAX_TURNS, minimum=1),
        OptionSpec("first_player", "int", 0, minimum=0),
    ),
    presets=(Preset("advanced", {"actions": True}), Preset("basic", {"actions": False})),
    default_preset="advanced",
    event_kinds=EVENT_KINDS,
    browser_module="js/flags-table.js",
    policy=Lazy(policy),
    evaluation=Lazy(evaluation),
    learned_evaluation=Lazy(learned_evaluation),
    inference=Lazy(inference),
    terminal=Lazy(terminal),
    analysis=Lazy(analysis),
    rl_encoding=Lazy(rl_encoding),
    player_stats=Lazy(player_stats),
    native=Lazy(native),
)
"""Pyramids and Flags as the hosts see it."""
