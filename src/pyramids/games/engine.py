"""Which engine plays: the readable Python reference or the native core (docs/NATIVE.md).

The choice is a value, ``Engine``: ``auto`` (the native core when it is built, else
Python), ``native`` (the native core, an error when it is not built) or ``python``. It is
carried as an argument from the entry points (the CLI's ``--engine``, the server's
settings) down to everything that plays: game factories (``pyramids.games.make``), bots
and the search, simulation and tournament workers (their configs). ``$PYRAMIDS_ENGINE``
is read only by the entry points (``engine_from_env``); nothing passes the choice on
through the environment. A game's descriptor names its native engine (``native``); a game
without one always plays on Python, whatever the choice. The native core is the extension
module ``pyramids._native``, built by ``./run`` when ``cargo`` is there.
"""

from __future__ import annotations

import functools
import importlib
import os
from collections.abc import Mapping
from enum import StrEnum

from pyramids.core.native import is_native_state


class Engine(StrEnum):
    """An engine choice: ``auto`` (resolved by ``resolve_engine``), ``native`` or ``python``."""

    AUTO = "auto"
    NATIVE = "native"
    PYTHON = "python"


ENV_VAR = "PYRAMIDS_ENGINE"
"""The environment variable the entry points read when no engine is given."""
AUTO = Engine.AUTO
NATIVE = Engine.NATIVE
PYTHON = Engine.PYTHON
ENGINES: tuple[Engine, ...] = tuple(Engine)
"""The engine choices, default first."""


class EngineError(RuntimeError):
    """The engine asked for cannot be used (an unknown name, or native without the build)."""


def check_engine(engine: str | None, *, source: str = "engine") -> Engine:
    """``engine`` as an ``Engine`` (None or blank: ``auto``); EngineError if unknown.
    ``source`` names where it came from in the refusal."""
    if isinstance(engine, Engine):
        return engine
    raw = "" if engine is None else engine
    choice = raw.strip().lower() or AUTO
    try:
        return Engine(choice)
    except ValueError:
        raise EngineError(f"unknown {source} {raw!r} (choose {', '.join(ENGINES)})") from None


def engine_from_env(engine: str | None = None, environ: Mapping[str, str] | None = None) -> Engine:
    """For an entry point only: ``engine`` if given, else ``$PYRAMIDS_ENGINE``, else
    ``auto``, checked (EngineError naming the option or the variable)."""
    if engine is not None:
        return check_engine(engine)
    env = os.environ if environ is None else environ
    return check_engine(env.get(ENV_VAR), source=ENV_VAR)


@functools.cache
def native_build_error() -> str | None:
    """None when the native core imports, else why not (one line)."""
    try:
        importlib.import_module("pyramids._native")
    except ImportError as err:
        return f"the native core is not built ({err}); ./run builds it when cargo is installed"
    return None


def native_available() -> bool:
    """Whether the native core is built and imports."""
    return native_build_error() is None


def engine_of(state: object) -> Engine:
    """The engine ``state`` runs on: ``native`` for a ``NativeState``, else ``python``."""
    return NATIVE if is_native_state(state) else PYTHON


def resolve_engine(engine: str | None = None, *, has_native: bool = True) -> Engine:
    """The engine that plays (``native`` or ``python``) for the choice ``engine`` (None:
    ``auto``) and a game that has a native engine when ``has_native``. ``native`` insists
    on the native core being built (EngineError otherwise); a game that has no native
    engine plays on Python under every choice, so a run on the native core still plays
    every registered game."""
    choice = check_engine(engine)
    if choice == PYTHON or not has_native:
        return PYTHON
    if choice == NATIVE:
        reason = native_build_error()
        if reason is not None:
            raise EngineError(reason)
        return NATIVE
    return NATIVE if native_available() else PYTHON
