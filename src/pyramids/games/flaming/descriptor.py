"""The Flaming Pyramids entry of the game registry (``pyramids.games``): the game as data.

The rules come from ``pyramids.flaming``; every host-side part is a ``Lazy`` of a
function below that imports it on first use (the terminal interface needs ``rich``, the
RL encoding ``numpy``, the native engine the extension module). The options' help lines
and the presets' labels are catalogue entries (``option.flaming.<name>``,
``preset.flaming.<name>`` in ``pyramids/texts/messages/<lang>/options.json``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pyramids.core.descriptor import (
    GameDescriptor,
    Lazy,
    LearnedEvaluation,
    NativeEngine,
    OptionSpec,
    PlayerStats,
    Preset,
    Reflex,
)
from pyramids.core.game import Bot, Game, State, View
from pyramids.flaming.events import EVENT_KINDS
from pyramids.flaming.game import INFO, FlamingGame, position_from_json
from pyramids.flaming.options import CALLOUT_MODES, DEFAULT_MAX_TURNS, PRESETS
from pyramids.flaming.view import FlamingView, placement_hints

__all__ = ["DESCRIPTOR"]


def hints(view: View) -> Mapping[str, Any] | None:
    """``placement_hints`` of a Flaming Pyramids view (None for any other view)."""
    return placement_hints(view) if isinstance(view, FlamingView) else None


def policy() -> Callable[[], Bot]:
    """The default policy: the greedy bot."""
    from pyramids.games.flaming.policy import GreedyFlamingBot

    return GreedyFlamingBot


def evaluation() -> Callable[[State], list[float]]:
    """The hand-made evaluation."""
    from pyramids.games.flaming.evaluation import evaluate

    return evaluate


def learned_evaluation() -> LearnedEvaluation:
    """The learned evaluation, its features and its shipped weights."""
    from pyramids.games.flaming import learned
    from pyramids.games.flaming.features import FEATURES
    from pyramids.games.value import VALUE_FILE

    path = Path(learned.__file__).with_name(VALUE_FILE)
    return LearnedEvaluation(learned.evaluate, learned.weights, FEATURES, str(path))


def reflex() -> Callable[[], Reflex]:
    """The call-out checks (``CheckReflex``)."""
    from pyramids.games.flaming.policy import CheckReflex

    return CheckReflex


def terminal() -> object:
    """The terminal interface."""
    from pyramids.games.flaming.terminal import UI

    return UI


def analysis() -> object:
    """What ``simulate``, ``bench`` and ``analyse`` read of the game."""
    from pyramids.games.flaming.analysis import Analysis

    return Analysis


def rl_encoding() -> Callable[[Game], object]:
    """The RL encoding (needs numpy)."""
    from pyramids.games.flaming.encoding import FlamingEncoding

    return FlamingEncoding


def player_stats() -> PlayerStats:
    """Each seat's own statistics of a finished game."""
    from pyramids.games.flaming.stats import player_stats

    return player_stats


def native() -> NativeEngine:
    """The native engine (the extension module is imported when a game is made on it)."""
    from pyramids.native.flaming import ENGINE

    return ENGINE


DESCRIPTOR = GameDescriptor(
    info=INFO,
    factory=FlamingGame.from_options,
    load_position=position_from_json,
    titles={"en": "Flaming Pyramids", "fr": "Pyramides en flammes"},
    options=(
        OptionSpec("preset", "choice", "standard", choices=PRESETS),
        OptionSpec("curse", "bool", None, nullable=True),
        OptionSpec("fire_die", "bool", False),
        OptionSpec("callout", "choice", "off", choices=CALLOUT_MODES),
        OptionSpec("max_turns", "int", DEFAULT_MAX_TURNS, minimum=1),
        OptionSpec("first_player", "int", 0, minimum=0),
    ),
    presets=tuple(Preset(p, {"preset": p}) for p in PRESETS),
    default_preset="standard",
    event_kinds=EVENT_KINDS,
    browser_module="js/flaming-table.js",
    hints=hints,
    policy=Lazy(policy),
    evaluation=Lazy(evaluation),
    learned_evaluation=Lazy(learned_evaluation),
    reflex=Lazy(reflex),
    terminal=Lazy(terminal),
    analysis=Lazy(analysis),
    rl_encoding=Lazy(rl_encoding),
    player_stats=Lazy(player_stats),
    native=Lazy(native),
)
"""Flaming Pyramids as the hosts see it."""
