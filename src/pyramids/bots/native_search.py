"""The bridge to the native search (``pyramids._native.search``, Rust crate ``pyramids-search``)
and the one place that decides which search runs (``runs_natively``).

``pyramids.bots.ismcts`` (from a view) and ``pyramids.bots.oracle`` (from a state) ask
``runs_natively``: the search follows the state's engine (a ``NativeState`` is searched
natively, a Python state by the Python search) or, from a view, the engine the bot plays
on, unless ``SearchSettings.search`` says ``native`` or ``python``. The native search is
the same algorithm as ``run_search`` and draws from the caller's generator as the Python
search would: the generator's state (``getstate()[1]``) goes in, the state after comes
back and is set on the caller's ``random.Random``, so the caller continues exactly as
after a Python search (docs/BOTS.md, "The native search"). Views cross as dicts by field
name (``ENGINE.view_record``); a native state's Rust object is handed over as it is, a
Python state's is built from its fields (``ENGINE.native_of``). Results come back as raw
``(action, visits, reward total)`` per legal root action; ``ismcts.root_stats`` turns
them into ``ActionStats``.

The extension module is imported on first use, so this module imports without the build.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from typing import Any

from pyramids.core.descriptor import GameDescriptor
from pyramids.core.game import Action, State, View
from pyramids.core.native import is_native_state
from pyramids.games import engine_for, native_engine
from pyramids.games.engine import Engine, EngineError

RawStats = list[tuple[Action, int, float]]
"""(action, visits, reward total) per legal root action."""

RawResult = tuple[RawStats, int, float]
"""Raw statistics, iterations, seconds."""


def _core() -> Any:
    """The extension module ``pyramids._native``."""
    return importlib.import_module("pyramids._native")


def can_mirror(rng: random.Random) -> bool:
    """Whether the native core can draw as ``rng`` does: a plain ``random.Random`` only (a
    subclass may draw differently; it gets the Python search)."""
    return type(rng) is random.Random


def runs_natively(
    desc: GameDescriptor,
    search: str,
    rng: random.Random,
    *,
    state: State | None = None,
    engine: Engine | str | None = None,
) -> bool:
    """Whether a search of ``desc``'s game runs natively: the one search switch.

    ``search`` (``SearchSettings.search``) ``python``: never; ``native``: always
    (EngineError when the game has no native engine or the core is not built, TypeError
    for a generator the core cannot mirror); ``auto``: from a ``state``, when it is a
    ``NativeState``; from a view (no ``state``), when the game plays on the native engine
    for the choice ``engine`` (``pyramids.games.engine_for``); either way only with a
    plain ``random.Random``.
    """
    if search == Engine.PYTHON:
        return False
    if search == Engine.NATIVE:
        if desc.native is None:
            raise EngineError(f"game {desc.name!r} has no native engine for the native search")
        engine_for(desc, Engine.NATIVE)  # EngineError when the core is not built
        if not can_mirror(rng):
            raise TypeError(f"the native search draws as random.Random, not {type(rng).__name__}")
        return True
    if not can_mirror(rng):
        return False
    if state is not None:
        return is_native_state(state)
    return desc.native is not None and engine_for(desc, engine) == Engine.NATIVE


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
    record = native_engine(desc).view_record(view)
    raw = _core().search(
        desc.name,
        record,
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
        [engine.view_record(v) for v in views],
        player,
        list(legal),
        settings_record(settings, desc),
        list(rng.getstate()[1]),
    )
    return _answer(raw, rng)


def core_state(desc: GameDescriptor, state: State) -> Any:
    """The Rust state to search from: a ``NativeState``'s own object (no copy, no reload),
    a Python state's built from its fields by the game's native engine (``native_of``:
    every hidden fact and what each seat knows, never through text)."""
    if is_native_state(state):
        return state.native  # type: ignore[attr-defined]
    return native_engine(desc).native_of(state)


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
