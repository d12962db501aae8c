"""The bot runner: one bot's decision for a seat, from that seat's view alone.

A bot is made for every decision (``pyramids.bots.make_bot``); a search bot that infers
hidden hands gets back what the seat's bot remembered (``LiveTable.bot_memory``) and the
views since (``LiveTable.seen_by``). A bot that fails, or answers an illegal action, is
replaced by a random legal choice (logged), so that a table never stalls on a bot's bug.
Both functions run on the event loop or in a search worker process (``search.py``).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence

from pyramids.bots import ISMCTSBot, make_bot
from pyramids.bots.inference import Memory
from pyramids.core import View
from pyramids.games.engine import Engine

log = logging.getLogger("pyramids.server")


def bot_action(
    spec: str, view: View, legal: Sequence[int], rng: random.Random, engine: Engine | None = None
) -> int:
    """The action the ``spec`` bot chooses from ``view`` among ``legal``, searching on
    ``engine`` (its table's; None: auto); a bot that fails or answers an illegal action is
    replaced by a random legal choice (logged) so that a table never stalls on a bot's bug."""
    action, _ = bot_action_remembering(spec, view, legal, rng, (None, []), engine=engine)
    return action


def bot_action_remembering(
    spec: str,
    view: View,
    legal: Sequence[int],
    rng: random.Random,
    recall: tuple[Memory | None, Sequence[View]],
    *,
    engine: Engine | None = None,
) -> tuple[int, Memory | None]:
    """:func:`bot_action` for a bot that plays on from what the seat's bot remembered
    (``LiveTable.bot_memory``) having seen the views since (``LiveTable.seen_by``):
    ``recall``, as if the seat's bot had played on; the decision and what the bot
    remembers after it (None for a bot without memory)."""
    memory, seen = recall
    kept: Memory | None = None
    try:
        bot = make_bot(spec, engine=engine)
        if isinstance(bot, ISMCTSBot):
            bot.restore(memory, seen)
        action = bot.act(view, legal, rng)
        if isinstance(bot, ISMCTSBot):
            kept = bot.memory
    except Exception:
        log.exception("the %s bot failed; playing a random legal action instead", spec)
        return rng.choice(list(legal)), None
    if action not in legal:
        log.error("the %s bot chose an illegal action %r; playing a random one", spec, action)
        return rng.choice(list(legal)), None
    return action, kept
