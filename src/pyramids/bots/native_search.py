"""The bridge to the native search (``pyramids._native.search``, Rust crate ``pyramids-search``).

``pyramids.bots.ismcts`` calls these when a view's game plays on the native engine (see
``uses_native_search``). The native search is the same algorithm as ``run_search`` and draws
from the caller's generator as the Python search would: the generator's state
(``getstate()[1]``) goes in, the state after comes back and is set on the caller's
``random.Random``, so the caller continues exactly as after a Python search (docs/BOTS.md,
"The native search"). Results come back as raw ``(action, visits, reward total)`` per legal
root action; ``ismcts.root_stats`` turns them into ``ActionStats``.

The extension module is imported on first use, so this module imports without the build.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from typing import Any

from pyramids.core.descriptor import GameDescriptor
from pyramids.core.game import Action, State, View
from pyramids.games import engine_for, native_engine
from pyramids.games.engine import NATIVE, PYTHON, EngineError

RawStats = list[tuple[Action, int, float]]
"""(action, visits, reward total) per legal root action."""

RawResult = tuple[RawStats, int, float]
"""Raw statistics, iterations, seconds."""

NATIVE_STATE_ATTRIBUTES = ("native", "_native", "inner", "_inner")
"""Where a native wrapper state (``pyramids.native.<game>``) may keep its core pyclass."""


def _core() -> Any:
    """The extension module ``pyramids._native``."""
    return importlib.import_module("pyramids._native")


def can_mirror(rng: random.Random) -> bool:
    """Whether the native core can draw as ``rng`` does: a plain ``random.Random`` only (a
    subclass may draw differently; it gets the Python search)."""
    return type(rng) is random.Random


def uses_native_search(desc: GameDescriptor, search: str, rng: random.Random) -> bool:
    """Whether a search of ``desc``'s game runs natively for the choice ``search``.

    ``auto``: when the game plays on the native engine (``pyramids.games.engine_for``) and
    ``rng`` is a plain ``random.Random``; ``native``: always (EngineError when it cannot);
    ``python``: never.
    """
    if search == PYTHON:
        return False
    if search == NATIVE:
        if desc.native is None:
            raise EngineError(f"game {desc.name!r} has no native engine for the native search")
        engine_for(desc, NATIVE)  # EngineError when the core is not built
        if not can_mirror(rng):
            raise TypeError(f"the native search draws as random.Random, not {type(rng).__name__}")
        return True
    return desc.native is not None and engine_for(desc) == NATIVE and can_mirror(rng)


def value_weights(desc: GameDescriptor) -> tuple[list[float], float]:
    """(weights, bias) of ``desc``'s learned evaluation, read from its ``value.json`` by the
    evaluation's module (``weights()``), so a newly trained file needs no rebuild."""
    if desc.learned_evaluation is None:
        raise ValueError(f"game {desc.name!r} provides no learned evaluation")
    value = desc.learned_evaluation.get().weights()
    return [float(w) for w in value.weights], float(value.bias)


def settings_record(settings: Any, desc: GameDescriptor | None = None) -> dict[str, Any]:
    """The ``SearchSettings`` fields the native search reads (with ``value_weights`` of
    ``desc``'s learned evaluation when the settings name it)."""
    record = {
        "iterations": settings.iterations,
        "seconds": settings.seconds,
        "rollout": settings.rollout,
        "exploration": float(settings.exploration),
        "rollout_cap": settings.rollout_cap,
        "guided": settings.guided,
        "widening": float(settings.widening),
        "bias": float(settings.bias),
        "evaluation": settings.evaluation,
        "observe": settings.observe,
        "threads": settings.threads,
    }
    if settings.evaluation == "learned" and desc is not None:
        record["value_weights"] = value_weights(desc)
    return record


def _continue(rng: random.Random, after: Sequence[int]) -> None:
    """Set the generator state the native search ended with on ``rng``."""
    version, _, gauss = rng.getstate()
    rng.setstate((version, tuple(after), gauss))


def _answer(raw: Any, rng: random.Random) -> RawResult:
    stats, iterations, seconds, after = raw
    _continue(rng, after)
    return [(int(a), int(v), float(t)) for a, v, t in stats], int(iterations), float(seconds)


def search_view(
    desc: GameDescriptor,
    *,
    view: View,
    player: int,
    legal: Sequence[Action],
    settings: Any,
    rng: random.Random,
) -> RawResult:
    """ISMCTS from ``view`` on the native core; ``rng`` continues as after the Python search."""
    view_json = native_engine(desc).view_json(view)
    raw = _core().search(
        desc.name,
        view_json,
        player,
        list(legal),
        settings_record(settings, desc),
        list(rng.getstate()[1]),
    )
    return _answer(raw, rng)


def search_views(
    desc: GameDescriptor,
    *,
    views: Sequence[View],
    player: int,
    legal: Sequence[Action],
    settings: Any,
    rng: random.Random,
) -> RawResult:
    """ISMCTS as ``search_view``, each iteration determinizing one of ``views`` drawn
    uniformly first (``pyramids.bots.inference.pick_particle``: inference's particles)."""
    engine = native_engine(desc)
    raw = _core().search_views(
        desc.name,
        [engine.view_json(v) for v in views],
        player,
        list(legal),
        settings_record(settings, desc),
        list(rng.getstate()[1]),
    )
    return _answer(raw, rng)


def is_native_state(state: State) -> bool:
    """Whether ``state`` is a native engine's state (a ``pyramids.native`` wrapper)."""
    return type(state).__module__.startswith("pyramids.native.")


def core_state(desc: GameDescriptor, state: State) -> Any:
    """The core pyclass of ``state``, loading its position on the native engine when
    ``state`` is a Python engine's (its position holds every hidden fact, not what the
    seats learnt from the history)."""
    if not is_native_state(state):
        state = native_engine(desc).load_position(state.to_json())
    for name in NATIVE_STATE_ATTRIBUTES:
        inner = getattr(state, name, None)
        if inner is not None and type(inner).__module__.startswith("pyramids._native"):
            return inner
    raise TypeError(f"cannot find the native core state inside a {type(state).__name__}")


def search_state(
    desc: GameDescriptor,
    *,
    state: State,
    player: int,
    legal: Sequence[Action],
    settings: Any,
    rng: random.Random,
) -> RawResult:
    """The oracle's search from the full ``state`` (never changed) on the native core."""
    raw = _core().search_state(
        desc.name,
        core_state(desc, state),
        player,
        list(legal),
        settings_record(settings, desc),
        list(rng.getstate()[1]),
    )
    return _answer(raw, rng)
