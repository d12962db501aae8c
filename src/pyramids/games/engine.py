"""Which engine plays: the readable Python reference or the native core (docs/NATIVE.md).

The choice sits in the registry's layer, not in ``core``: it reads the environment.
``PYRAMIDS_ENGINE`` (or an explicit ``engine=`` argument) is ``auto`` (the default: the
native core when it is built, else Python), ``native`` (the native core, an error when it
is not built) or ``python``. A game's descriptor names its native engine (``native``); a
game without one always plays on Python, whatever the choice. The native core is the extension module
``pyramids._native``, built by ``./run`` when ``cargo`` is there.
"""

from __future__ import annotations

import functools
import importlib
import os

ENV_VAR = "PYRAMIDS_ENGINE"
AUTO = "auto"
NATIVE = "native"
PYTHON = "python"
ENGINES = (AUTO, NATIVE, PYTHON)
"""The engine choices, default first."""


class EngineError(RuntimeError):
    """The engine asked for cannot be used (an unknown name, or native without the build)."""


def check_engine(engine: str | None) -> str:
    """``engine`` (or ``$PYRAMIDS_ENGINE``, else ``auto``) checked; EngineError if unknown."""
    raw = engine if engine is not None else os.environ.get(ENV_VAR, "")
    choice = raw.strip().lower() or AUTO
    if choice not in ENGINES:
        source = "engine" if engine is not None else ENV_VAR
        raise EngineError(f"unknown {source} {raw!r} (choose {', '.join(ENGINES)})")
    return choice


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


def resolve_engine(engine: str | None = None, *, has_native: bool = True) -> str:
    """The engine that plays (``native`` or ``python``) for a game that has a native
    engine when ``has_native``. ``native`` insists on the native core being built
    (EngineError otherwise); a game that has no native engine plays on Python under every
    choice, so a run on the native core still plays every registered game."""
    choice = check_engine(engine)
    if choice == PYTHON or not has_native:
        return PYTHON
    if choice == NATIVE:
        reason = native_build_error()
        if reason is not None:
            raise EngineError(reason)
        return NATIVE
    return NATIVE if has_native and native_available() else PYTHON
