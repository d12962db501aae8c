"""The one mark of a state that runs on a native engine: ``NativeState`` (docs/NATIVE.md).

A native engine's wrapper state (``pyramids.native.<game>``) exposes its engine object
under one name, ``native``; the search recognises native states by this protocol only
(``pyramids.bots.native_search``), and hands ``state.native`` to the native search without
reloading anything. A Python engine's state has no ``native`` attribute.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class NativeState(Protocol):
    """A state whose rules run natively; ``native`` is the engine's own state object."""

    @property
    def native(self) -> Any:
        """The native engine's state object (e.g. a ``pyramids._native.FlamingState``)."""
        ...


_KINDS: dict[type, bool] = {}
"""``isinstance(state, NativeState)`` by the state's type (a runtime protocol check costs
some 25 µs on Python 3.11; the wrappers' ``native`` is a class-level member)."""


def is_native_state(state: object) -> bool:
    """Whether ``state`` runs on a native engine (``NativeState``), checked once per type."""
    kind = type(state)
    known = _KINDS.get(kind)
    if known is None:
        known = _KINDS[kind] = isinstance(state, NativeState)
    return known


__all__ = ["NativeState", "is_native_state"]
