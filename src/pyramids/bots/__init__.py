"""Bots: programs that choose actions from a seat's view only (never the hidden state).

Both registered bots play both games; ``greedy`` hands Pyramids and Flags views to
``greedy_flags``.
"""

from __future__ import annotations

from collections.abc import Callable

from pyramids.bots.greedy import GreedyBot
from pyramids.bots.random_bot import RandomBot
from pyramids.core.game import Bot

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def make_bot(spec: str) -> Bot:
    """A bot from its name (e.g. ``random``, ``greedy``); ValueError lists the known names."""
    factory = BOTS.get(spec.strip().lower())
    if factory is None:
        raise ValueError(f"unknown bot {spec!r} (known: {', '.join(sorted(BOTS))})")
    return factory()


__all__ = ["BOTS", "GreedyBot", "RandomBot", "make_bot"]
