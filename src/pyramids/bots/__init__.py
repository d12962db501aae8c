"""Bots: programs that choose actions from a seat's view only (never the hidden state).

The registry ``BOTS`` maps names to factories; ``make_bot(spec)`` also reads a search
budget after the name. Spec grammar (case and surrounding blanks ignored)::

    random | beginner | greedy | careless
    ismcts[:BUDGET][+EXTRA...]
    oracle[:BUDGET][+EXTRA...]
    BUDGET  = easy | normal | hard     a level of BOT_LEVELS (its settings per game)
            | N                        N iterations per decision (e.g. 500)
            | Xs                       X seconds per decision (e.g. 1s, 0.1s)
    ROLLOUT = random | greedy | mixed  overrides the level's rollout (mixed: 80% greedy)
    guided                             the greedy bot orders and biases the expansion
    EVALUATION = handmade | learned    what scores a cut rollout (default: handmade)
    observe                            other seats' moves keyed by what the bot sees
    infer                              hidden hands read from the opponent's moves (inference)
    hN | bX | cX                       rollout horizon N actions, progressive bias X,
                                       exploration constant X
    SEARCH  = native | python          which search runs (default: the native one when
                                       the game plays on the native engine); python
                                       also plays its search on the Python engine

Each EXTRA (ROLLOUT, guided, EVALUATION, observe, infer, hN, bX, cX, SEARCH) applies on top of
the budget's settings, in every game for a level. ``ismcts`` alone is ``ismcts:normal``. ``+python`` / ``+native`` put both searches in one
game (``scripts/strength.py`` plays the native search against the Python one); for an
iteration budget both give the same statistics (docs/BOTS.md, "The native search"). Every bot plays every game of the registry
(``pyramids.games``) and names none: ``greedy`` plays the view's game's default policy
(its descriptor's ``policy``), the search bots rebuild the game from ``view.game`` and
roll out with that policy. ``oracle`` reads the true state: it is a
yardstick for simulations, never offered to players, so it is in ``BOTS`` but not in
``PLAYER_BOTS`` (the names a human may pick as opponent).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pyramids.bots.beginner import BeginnerBot
from pyramids.bots.capped import CappedSearchBot, SettingsFor
from pyramids.bots.greedy import CarelessBot, GreedyBot
from pyramids.bots.ismcts import (
    EVALUATIONS,
    GREEDY_ROLLOUT,
    GUIDED,
    INFER,
    LEARNED_EVALUATION,
    NATIVE_SEARCH,
    OBSERVE,
    PYTHON_SEARCH,
    RANDOM_ROLLOUT,
    ROLLOUTS,
    ActionStats,
    ISMCTSBot,
    SearchSettings,
)
from pyramids.bots.oracle import OracleMCTSBot
from pyramids.bots.random_bot import RandomBot
from pyramids.core.game import Bot
from pyramids.games.engine import check_engine

EASY_OVERLOOK = 0.25
"""The easy level's chance of saying ok over standing mayhem at a call-out check
(FP-CALL), drawn from the bot's generator, so a seeded game repeats exactly. Normal and
hard check perfectly. A family table misses about that much: enough to matter, rarely
enough that a careful player is rewarded."""


@dataclass(frozen=True)
class BotLevel:
    """A difficulty level of the search bots: its budget, rollout and what it costs.

    ``python_seconds``: the time cap a move gets when the Python search has to run (no
    native core on this machine, or ``+python``); the iteration budget is reproducible
    from a seed on any machine only on the native search. None: no cap.
    """

    name: str
    settings: SearchSettings
    description: str
    python_seconds: float | None = None
    games: Mapping[str, SearchSettings] = field(default_factory=dict)
    """Settings of particular games, by ``game`` or ``game/players`` (the latter first)."""

    def settings_for(self, game: str, players: int) -> SearchSettings:
        """How this level searches ``game`` with ``players`` seats."""
        found = self.games.get(f"{game}/{players}") or self.games.get(game)
        return found if found is not None else self.settings


SEARCH_LEVEL_SETTINGS = SearchSettings(
    iterations=4000, rollout=GREEDY_ROLLOUT, guided=True, rollout_cap=40
)
"""How the offered search levels search a game by default (Flaming Pyramids, and any game
without its own line below): guided expansion, greedy rollouts cut at 40 actions and judged
by the game's evaluation. Measured with ``scripts/strength.py`` (docs/STRENGTH.md)."""

FLAGS_LEVEL_SETTINGS = replace(
    SEARCH_LEVEL_SETTINGS,
    iterations=2000,
    rollout_cap=30,
    evaluation=LEARNED_EVALUATION,
    inference=True,
)
"""Pyramids and Flags: decisions have up to ~150 legal moves, so fewer iterations a move;
rollouts cut at 30 actions, judged by the learned evaluation (it beat the hand-made one at
equal time), and inference (the opponents' hands read from their moves; at 4 players 88 of
200 first places against 72 of 200 without, docs/BOTS.md). Measured with
``scripts/strength.py`` (docs/STRENGTH.md)."""

BOT_LEVELS: dict[str, BotLevel] = {
    "easy": BotLevel(
        "easy",
        SearchSettings(iterations=200, rollout=RANDOM_ROLLOUT, overlook=EASY_OVERLOOK),
        "200 iterations, random rollouts: in call-out games it overlooks standing mayhem at "
        "one check in four (kept so that old specs parse; not offered)",
    ),
    "normal": BotLevel(
        "normal",
        SEARCH_LEVEL_SETTINGS,
        "4000 iterations (Flaming Pyramids), 2000 (Pyramids and Flags, with inference; 1500 "
        "at 3–4 players), guided, greedy rollouts judged by the evaluation at their horizon",
        python_seconds=1.0,
        games={
            "flags": FLAGS_LEVEL_SETTINGS,
            # reading three opponents' turns costs ~50 ms more a move: 95% of moves within
            # 300 ms on 2 cores (docs/STRENGTH.md)
            "flags/3": replace(FLAGS_LEVEL_SETTINGS, iterations=1500),
            "flags/4": replace(FLAGS_LEVEL_SETTINGS, iterations=1500),
        },
    ),
    "hard": BotLevel(
        "hard",
        replace(SEARCH_LEVEL_SETTINGS, iterations=12000),
        "12000 iterations (Flaming Pyramids), 6000 (Pyramids and Flags), otherwise as normal",
        python_seconds=3.0,
        games={"flags": replace(FLAGS_LEVEL_SETTINGS, iterations=6000)},
    ),
}
"""Difficulty levels of ``ismcts`` (and ``oracle``), easiest first (see docs/BOTS.md).
``normal`` and ``hard`` are offered to players (``LADDER``); ``easy`` only parses. A level's
``settings`` is its default; ``games`` holds the games (and player counts) it searches its
own way (``BotLevel.settings_for``)."""

LADDER: tuple[str, ...] = ("beginner", "greedy", "normal", "hard")
"""The levels offered to players, weakest first: each plays ``level_spec(level)``."""

LEVEL_SPECS: dict[str, str] = {
    "beginner": "beginner",
    "greedy": "greedy",
    "normal": "ismcts:normal",
    "hard": "ismcts:hard",
}
"""The bot spec each level of ``LADDER`` plays."""


def level_spec(name: str) -> str:
    """The bot spec the ladder level ``name`` plays (``normal`` -> ``ismcts:normal``).

    ValueError names the levels.
    """
    try:
        return LEVEL_SPECS[name]
    except KeyError:
        raise ValueError(f"unknown level {name!r} (levels: {', '.join(LADDER)})") from None


def python_cap(level: str) -> float | None:
    """Seconds a move of search level ``level`` may take on the Python search (None: none)."""
    found = BOT_LEVELS.get(level)
    return found.python_seconds if found is not None else None


DEFAULT_LEVEL = "normal"

SEARCH_BOTS: dict[str, Callable[[SearchSettings, str], Bot]] = {
    "ismcts": lambda settings, name: ISMCTSBot(settings, name=name),
    "oracle": lambda settings, name: OracleMCTSBot(settings, name=name),
}
"""Bots that take a budget in their spec, by name: factory(settings, name)."""

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "beginner": lambda: BeginnerBot(EASY_OVERLOOK),
    "greedy": GreedyBot,
    "careless": lambda: CarelessBot(EASY_OVERLOOK),
    "ismcts": lambda: make_bot("ismcts"),
    "oracle": lambda: make_bot("oracle"),
}
"""Every bot by name (its default budget for the search bots), the oracle included."""

PLAYER_BOTS: tuple[str, ...] = ("random", "beginner", "greedy", "ismcts")
"""The bots a human may pick as opponent (never the oracle, which cheats): the ladder's
bots (``ismcts`` at any level) and ``random``."""


def parse_extras(extras: Sequence[str]) -> dict[str, Any]:
    """The ``SearchSettings`` fields the spec extras ``extras`` (the parts after ``+``) set.

    ValueError names the extras a spec may have.
    """
    changes: dict[str, Any] = {}
    for extra in (e.strip() for e in extras):
        if extra == GUIDED:
            changes["guided"] = True
        elif extra == OBSERVE:
            changes["observe"] = True
        elif extra == INFER:
            changes["inference"] = True
        elif extra[:1] == "h" and extra[1:].isdigit():
            changes["rollout_cap"] = int(extra[1:])
        elif extra[:1] == "b" and _is_number(extra[1:]):
            changes["bias"] = float(extra[1:])
        elif extra[:1] == "c" and _is_number(extra[1:]):
            changes["exploration"] = float(extra[1:])
        elif extra in ROLLOUTS and "rollout" not in changes:
            changes["rollout"] = extra
        elif extra in EVALUATIONS and "evaluation" not in changes:
            changes["evaluation"] = extra
        elif extra in (NATIVE_SEARCH, PYTHON_SEARCH) and "search" not in changes:
            changes["search"] = extra
        else:
            raise ValueError(
                f"unknown rollout {extra!r} (choose {', '.join(ROLLOUTS)}, or {GUIDED}, "
                f"{OBSERVE}, {INFER}, hN (horizon), bX (bias), cX (exploration), "
                f"or the evaluation: {', '.join(EVALUATIONS)}, "
                f"or the search: {NATIVE_SEARCH}, {PYTHON_SEARCH})"
            )
    return changes


def _is_number(text: str) -> bool:
    return text.replace(".", "", 1).isdigit()


def parse_budget(budget: str) -> SearchSettings:
    """The settings of a budget: a level's (its default settings), iterations or seconds.

    ValueError if bad.
    """
    budget = budget.strip()
    if not budget:
        return BOT_LEVELS[DEFAULT_LEVEL].settings
    if budget in BOT_LEVELS:
        return BOT_LEVELS[budget].settings
    if budget.endswith("s"):
        try:
            seconds = float(budget[:-1])
        except ValueError:
            raise ValueError(
                f"bad budget {budget!r}: seconds are written like 1s or 0.5s"
            ) from None
        if not 0 < seconds < float("inf"):
            raise ValueError(f"bad budget {budget!r}: seconds must be a positive number")
        return SearchSettings(iterations=None, seconds=seconds)
    if budget.isdigit():
        if int(budget) < 1:
            raise ValueError(f"bad budget {budget!r}: at least 1 iteration")
        return SearchSettings(iterations=int(budget))
    levels = ", ".join(BOT_LEVELS)
    raise ValueError(
        f"bad budget {budget!r}: a level ({levels}), iterations (500) or seconds (0.5s)"
    )


def parse_settings(text: str) -> SearchSettings:
    """Search settings from ``BUDGET[+EXTRA...]`` (see the module docstring); a level's
    settings for games it does not search its own way (``BotLevel.settings_for``).

    ValueError if bad.
    """
    budget, *extras = text.split("+")
    changes = parse_extras(extras)
    return replace(parse_budget(budget), **changes)


def _per_game(level: BotLevel, changes: dict[str, Any]) -> SettingsFor:
    """``level``'s settings per (game, players) with a spec's extras ``changes`` applied."""

    def settings_for(game: str, players: int) -> SearchSettings:
        return replace(level.settings_for(game, players), **changes)

    return settings_for


def make_bot(spec: str, *, engine: str | None = None) -> Bot:
    """A bot from its spec (``greedy``, ``ismcts:hard``, ``ismcts:0.5s+greedy`` ...); a
    search bot's games play on ``engine`` (``pyramids.games.engine.Engine``; None: auto).

    ValueError lists the known names or says what is wrong with the budget.
    """
    text = spec.strip().lower()
    name, colon, budget = text.partition(":")
    name, plus, extras = name.partition("+")
    if name in SEARCH_BOTS:
        settings = parse_settings(budget + plus + extras)
        level_name, *more = budget.split("+")
        level = BOT_LEVELS.get(level_name.strip() or DEFAULT_LEVEL)
        settings_for = (
            _per_game(level, parse_extras([*more, *extras.split("+")] if extras else more))
            if level is not None and level.games
            else None
        )
        if name == "oracle" and settings_for is not None:
            return OracleMCTSBot(settings, name=text, settings_for=settings_for)
        if name == "ismcts" and level is not None and level.python_seconds is not None:
            return CappedSearchBot(
                settings,
                name=text,
                python_seconds=level.python_seconds,
                settings_for=settings_for,
                engine=engine,
            )
        bot = SEARCH_BOTS[name](settings, text)
        if isinstance(bot, ISMCTSBot):
            bot.engine = check_engine(engine)
        return bot
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {spec!r} (known: {', '.join(sorted(BOTS))})")
    if colon or plus:
        raise ValueError(f"bot {name!r} takes no budget or rollout ({spec!r})")
    return factory()


__all__ = [
    "BOTS",
    "BOT_LEVELS",
    "LADDER",
    "PLAYER_BOTS",
    "ActionStats",
    "BeginnerBot",
    "BotLevel",
    "CappedSearchBot",
    "CarelessBot",
    "GreedyBot",
    "ISMCTSBot",
    "OracleMCTSBot",
    "RandomBot",
    "SearchSettings",
    "level_spec",
    "make_bot",
    "parse_settings",
]
