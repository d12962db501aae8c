"""The game registry: every host finds its games here, by name, as data.

A game is a ``GameDescriptor`` (``pyramids.core.descriptor``), which lives with the game's
host-side code (``pyramids.games.<game>.descriptor``). Games are registered the same way
whether built in or not, by the address of their descriptor object (``"module:attr"``):
the built-ins below, an entry point in the ``pyramids.games`` group, ``$PYRAMIDS_GAMES``
(addresses separated by commas: how tests hand a test-only game to a server subprocess),
or a descriptor object given to ``register`` at run time. Hosts iterate
``descriptors()`` or look one up with ``descriptor(name)``; they never import a game
package by name, and read a game's parts through the descriptor's typed fields.
"""

from __future__ import annotations

import importlib
import os
import warnings
from collections.abc import Mapping
from importlib.metadata import entry_points
from types import MappingProxyType
from typing import Any

from pyramids.core.descriptor import GameDescriptor, NativeEngine
from pyramids.core.errors import PositionError
from pyramids.core.game import Game, State, View
from pyramids.games.engine import NATIVE, EngineError, resolve_engine

BUILTIN: tuple[str, ...] = (
    "pyramids.games.flaming.descriptor:DESCRIPTOR",
    "pyramids.games.flags.descriptor:DESCRIPTOR",
)
"""The descriptors that ship with the package, by address (registration order). Read like a
plug-in's, so the registry imports no game's module (import-linter checks each game's
descriptor module with the game's own contracts)."""

ENTRY_POINT_GROUP = "pyramids.games"
ENV_VAR = "PYRAMIDS_GAMES"

_REGISTRY: dict[str, GameDescriptor] = {}

GAMES: Mapping[str, GameDescriptor] = MappingProxyType(_REGISTRY)
"""Every registered game by short name (a live, read-only view of the registry)."""


def register(desc: GameDescriptor, *, replace: bool = False) -> GameDescriptor:
    """Add a game; ValueError if its name is taken (unless ``replace``)."""
    if not isinstance(desc, GameDescriptor):
        raise TypeError(f"not a GameDescriptor: {desc!r}")
    if desc.name in _REGISTRY and not replace and _REGISTRY[desc.name] is not desc:
        raise ValueError(f"a game named {desc.name!r} is already registered")
    _REGISTRY[desc.name] = desc
    return desc


def unregister(name: str) -> None:
    """Remove a game (tests that register a game of their own clean up with this)."""
    _REGISTRY.pop(name, None)


def descriptors() -> list[GameDescriptor]:
    """Every registered game, in registration order."""
    return list(_REGISTRY.values())


def names() -> tuple[str, ...]:
    """The short names of the registered games."""
    return tuple(_REGISTRY)


def descriptor(name: str) -> GameDescriptor:
    """The game called ``name``; PositionError naming the known games otherwise."""
    desc = _REGISTRY.get(name)
    if desc is None:
        raise PositionError(f"unknown game {name!r} (known: {', '.join(sorted(_REGISTRY))})")
    return desc


def make_game(
    name: str, players: int, options: Mapping[str, Any] | None = None, *, engine: str | None = None
) -> Game:
    """A game by its short name on ``engine`` (``pyramids.games.engine.Engine``; None: auto,
    the native core when built); PositionError for an unknown name or bad options, EngineError
    (``pyramids.games.engine``) for an engine that cannot be used."""
    return make(descriptor(name), players, options, engine=engine)


def make(
    desc: GameDescriptor,
    players: int,
    options: Mapping[str, Any] | None = None,
    *,
    engine: str | None = None,
) -> Game:
    """``desc``'s game with ``players`` seats and these options, on ``engine`` (see ``make_game``)."""
    if engine_for(desc, engine) == NATIVE:
        game: Game = native_engine(desc).make(players, options or {})
        return game
    return desc.make(players, options)


def load_position(
    desc: GameDescriptor, data: Mapping[str, Any], *, engine: str | None = None
) -> State:
    """A state from ``desc``'s position JSON, on ``engine`` (see ``make_game``)."""
    if engine_for(desc, engine) == NATIVE:
        state: State = native_engine(desc).load_position(data)
        return state
    return desc.load_position(data)


def engine_for(desc: GameDescriptor, engine: str | None = None) -> str:
    """The engine ``desc``'s games play on for the choice ``engine``: ``native`` or ``python``."""
    return resolve_engine(engine, has_native=desc.native is not None)


def native_engine(desc: GameDescriptor) -> NativeEngine:
    """``desc``'s native engine (its descriptor's ``native``); EngineError when it has none."""
    if desc.native is None:
        raise EngineError(f"game {desc.name!r} has no native engine")
    return desc.native.get()


def descriptor_of(thing: View | State | Game) -> GameDescriptor:
    """The descriptor of the game a view, state or game belongs to."""
    if isinstance(thing, Game):
        return descriptor(thing.info.short_name)
    if isinstance(thing, State):
        return descriptor(thing.game.info.short_name)
    return descriptor(thing.game)


def game_of_view(view: View, *, engine: str | None = None) -> Game:
    """The game (with its players and rules options) that ``view`` was taken from, on
    ``engine`` (see ``make_game``)."""
    return make(descriptor(view.game), view.players, view.options, engine=engine)  # type: ignore[attr-defined]


def load_path(path: str) -> Any:
    """The object at the address ``"package.module:attr"`` (an entry point's value)."""
    module, _, attr = path.partition(":")
    obj: Any = importlib.import_module(module)
    for name in attr.split(".") if attr else ():
        obj = getattr(obj, name)
    return obj


def _load_all() -> None:
    """Register the built-ins, then the entry points and ``$PYRAMIDS_GAMES``.

    A built-in that fails to load is a broken installation and raises; an added game that
    fails to load is skipped with a warning that names it and says why.
    """
    for path in BUILTIN:
        register(load_path(path))
    added = [(f"entry point {ep.name!r}", ep.value) for ep in entry_points(group=ENTRY_POINT_GROUP)]
    added += [
        (f"${ENV_VAR}", p.strip()) for p in os.environ.get(ENV_VAR, "").split(",") if p.strip()
    ]
    for source, path in added:
        try:
            desc = load_path(path)
            if not isinstance(desc, GameDescriptor):
                raise TypeError(f"{path} is a {type(desc).__name__}, not a GameDescriptor")
            if desc.name not in _REGISTRY:
                register(desc)
        except Exception as exc:  # a plug-in must not break every command
            warnings.warn(
                f"game {path!r} from {source} not registered: {exc}", RuntimeWarning, stacklevel=2
            )


_load_all()

__all__ = [
    "GAMES",
    "GameDescriptor",
    "descriptor",
    "descriptor_of",
    "descriptors",
    "engine_for",
    "game_of_view",
    "load_position",
    "make",
    "make_game",
    "names",
    "native_engine",
    "register",
    "unregister",
]
