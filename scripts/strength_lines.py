"""What scripts/strength.py measures: its lines, levels and targets (see its docstring)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from pyramids.bots import BOT_LEVELS, LADDER, level_spec, make_bot
from pyramids.bots.ismcts import BIAS, SearchSettings

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "STRENGTH.md"
RESULTS = ROOT / "docs" / "strength-lines.json"
LEVELS_JSON = ROOT / "src" / "pyramids" / "bots" / "strength.json"
GAMES = ("flaming", "flags")
TITLES = {"flaming": "Flaming", "flags": "Flags"}
FULL_GAMES = 100
"""Games of a line (the issue: at least 100)."""
FULL_GAMES_SMALL = 50
"""Games of a line with the strongest level or OpenSpiel (the issue: at least 50)."""
QUICK_GAMES = 4
QUICK_GAMES_SMALL = 2
HEADLINE_TARGETS = {
    ("flaming", 2): 0.90,
    ("flaming", 4): 0.50,
    ("flags", 2): 0.75,
    ("flags", 4): 0.45,
}
LADDER_TARGET = 0.60
OPENSPIEL_TARGET = 0.70
NORMAL_P95_MS = 300.0
STRONGEST_P95_MS = 1500.0
LENGTH_RATIO = 1.5
FALLBACK_SECONDS = 0.05
"""Equal-time budget when ``normal``'s time a decision was never measured (said on the page)."""
ORACLE_PLAYERS = {"flaming": 4, "flags": 2}
"""Players of the oracle's line (the issue gives no count): in two-player Flaming Pyramids
two searches of ``normal``'s strength keep the game from ending (each blocks the other's last
tiles) until ``max_turns`` (1000 turns, ~40 s a game), and head to head the oracle's
perfect-information search is level with the honest one (docs/BOTS.md, "The oracle
yardstick"); against three honest searches the games end and it is ahead."""
LEARNED_SECONDS = {"flaming": 0.01}
"""Seconds a decision of the learned-against-hand-made line where ``normal``'s time does not
fit the hour: Flaming Pyramids, where two (or four) searches at ``normal``'s time play to
``max_turns`` (four at 4 players took 30+ minutes for 100 games). At 10 ms (about 1000
iterations) two-player games end (~440 turns)."""
OPENSPIEL = "openspiel"
"""The contestant name of OpenSpiel's ISMCTS in a line."""
TIME = "{T}"
"""Stands for the equal-time seconds in a line's bot specs until they are measured."""


# --- the lines ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One measurement: ``bots[0]`` (the subject) against the others, seats rotated."""

    id: str
    title: str
    game: str
    players: int
    bots: tuple[str, ...]
    full_games: int
    equal_time: bool = False
    """Specs hold ``TIME``: the seconds of ``normal``'s mean decision in ``GAME-2p-normal``
    (or ``seconds``)."""
    seconds: float | None = None
    """With ``equal_time``: these seconds a decision instead of ``normal``'s."""

    def games(self, quick: bool) -> int:
        """Games of this line at full size or in a quick run."""
        if not quick:
            return self.full_games
        return QUICK_GAMES_SMALL if self.full_games < FULL_GAMES else QUICK_GAMES


def timed_spec(
    level: str, seconds: str, game: str, *, drop: Sequence[str] = ()
) -> tuple[str, list[str]]:
    """``level``'s bot spec in 2-player ``game`` (``BotLevel.settings_for``) with ``seconds``
    (text, e.g. ``0.05`` or ``TIME``) a decision instead of its budget, and the settings it
    could not carry over (empty when none).

    ``drop`` names settings left at their default for the caller to add as spec extras
    (``evaluation``, ``inference``: a spec takes one of each)."""
    found = BOT_LEVELS.get(level_spec(level).partition(":")[2])
    if found is None:
        raise ValueError(f"level {level!r} is not a search: it has no time budget")
    settings = found.settings_for(game, 2)
    default = SearchSettings()
    extras = [settings.rollout] + (["guided"] if settings.guided else [])
    if settings.rollout_cap != default.rollout_cap:
        extras.append(f"h{settings.rollout_cap}")  # also scores cut rollouts by the evaluation
    if settings.bias != BIAS:
        extras.append(f"b{settings.bias:g}")
    if settings.exploration != default.exploration:
        extras.append(f"c{settings.exploration:g}")
    evaluation: object = getattr(settings, "evaluation", None)
    named = isinstance(evaluation, str) and evaluation != getattr(default, "evaluation", None)
    if named and "evaluation" not in drop:
        extras.append(str(evaluation))  # a named evaluation: handmade or learned
    if getattr(settings, "inference", False) and "inference" not in drop:
        extras.append("infer")
    if settings.search != default.search:
        extras.append(settings.search)
    spec = f"ismcts:{seconds}s+" + "+".join(extras)
    made = getattr(make_bot(spec.replace(TIME, "1")), "settings", None)
    lost = [
        f.name
        for f in fields(SearchSettings)
        if f.name not in ("iterations", "seconds", *drop)
        and (made is None or getattr(made, f.name) != getattr(settings, f.name))
    ]
    return spec, lost


def oracle_spec(spec: str) -> str:
    """The oracle with the settings of the search ``spec`` (``ismcts:...``)."""
    name, sep, _budget = spec.partition(":")
    if name.split("+")[0] != "ismcts":
        raise ValueError(f"{spec!r} is not an ismcts spec")
    return "oracle" + spec[len("ismcts") :] if sep or "+" in name else "oracle"


def ladder_pairs(game: str) -> list[tuple[str, str, str]]:
    """(upper, lower, line id) of each level against the level below (random below the
    first), weakest first; ``normal`` against ``greedy`` is the line ``GAME-2p-normal``."""
    rungs = ("random", *LADDER)
    return [
        (
            upper,
            lower,
            f"{game}-2p-normal"
            if (upper, lower) == ("normal", "greedy")
            else f"{game}-{upper}-{lower}",
        )
        for lower, upper in itertools.pairwise(rungs)
    ]


def lines() -> list[Line]:
    """Every line, in the order they run (the ones setting equal time first)."""
    strongest = LADDER[-1]
    normal = level_spec("normal")
    out: list[Line] = []
    for game in GAMES:
        t = TITLES[game]
        for p in (2, 4):
            out.append(
                Line(
                    f"{game}-{p}p-normal",
                    f"{t} {p}p: normal vs {'three greedy' if p == 4 else 'greedy'}",
                    game,
                    p,
                    (normal,) + ("greedy",) * (p - 1),
                    FULL_GAMES,
                )
            )
        for p in (2, 4):
            out.append(
                Line(
                    f"{game}-{p}p-greedy",
                    f"{t} {p}p: greedy vs greedy (game length)",
                    game,
                    p,
                    ("greedy",) * p,
                    FULL_GAMES,
                )
            )
        for upper, lower, lid in ladder_pairs(game):
            if lid == f"{game}-2p-normal":
                continue  # the headline line
            specs = tuple(
                "random" if name == "random" else level_spec(name) for name in (upper, lower)
            )
            small = strongest in (upper, lower)
            out.append(
                Line(
                    lid,
                    f"{t} 2p: {upper} vs {lower}",
                    game,
                    2,
                    specs,
                    FULL_GAMES_SMALL if small else FULL_GAMES,
                )
            )
        p = ORACLE_PLAYERS[game]
        out.append(
            Line(
                f"{game}-oracle",
                f"{t} {p}p: oracle vs {_honest(p)} at normal's budget",
                game,
                p,
                (oracle_spec(normal),) + (normal,) * (p - 1),
                FULL_GAMES,
            )
        )
    for game in GAMES:
        t = TITLES[game]
        timed, _ = timed_spec("normal", TIME, game)
        bare, _ = timed_spec("normal", TIME, game, drop=("evaluation",))
        out.append(
            Line(
                f"{game}-openspiel",
                f"{t} 2p: normal vs OpenSpiel's ISMCTS at equal time",
                game,
                2,
                (timed, OPENSPIEL),
                FULL_GAMES_SMALL,
                equal_time=True,
            )
        )
        fixed = LEARNED_SECONDS.get(game)
        at = "equal time" if fixed is None else f"equal time ({1000 * fixed:g} ms a decision)"
        out.append(
            Line(
                f"{game}-learned",
                f"{t} 2p: learned vs hand-made evaluation at {at}",
                game,
                2,
                (bare + "+learned", bare + "+handmade"),
                FULL_GAMES,
                equal_time=True,
                seconds=fixed,
            )
        )
    bare, _ = timed_spec("normal", TIME, "flags", drop=("inference",))
    out.append(
        Line(
            "flags-inference",
            "Flags 2p: inference on vs off at equal time",
            "flags",
            2,
            (bare + "+infer", bare),
            FULL_GAMES,
            equal_time=True,
        )
    )
    return out


def _honest(players: int) -> str:
    return "honest search" if players == 2 else f"{players - 1} honest searches"


def equal_seconds(game: str, results: dict[str, dict[str, Any]]) -> tuple[float, str]:
    """The equal-time seconds of ``game`` and where they come from."""
    ref = results.get(f"{game}-2p-normal")
    ms = None if ref is None or ref.get("skipped") else ref["ms_mean"].get(ref["bots"][0])
    if ms is None:
        return FALLBACK_SECONDS, f"{FALLBACK_SECONDS:g} s (normal's time was not measured)"
    seconds = round(ms / 1000, 4)
    return seconds, f"{seconds:g} s (normal's mean decision in {game}-2p-normal)"
