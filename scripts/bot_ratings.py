"""Measure the server's bots' fixed ratings (the "vs bots" pool, docs/PLAYERS.md) and write
``src/pyramids/server/data/bot_ratings.json``.

Each game and player-count band is one ``pyramids tournament`` of the bots a seat may
have: ``random`` and the ladder of levels (``pyramids.bots.LADDER``: ``beginner``,
``greedy``, ``normal`` and ``hard``, which the server plays as ``level_spec(level)``,
iteration budgets on the native search, so the games are reproducible), seeds
S..S+N-1, with the tool's default schedule and the game's default rules; a bot's fixed
rating is its final OpenSkill (mu, sigma) there. A band is measured at its smallest player
count (3-4 with 3, 5-6 with 5). The tournaments play on ``--engine`` (default:
``$PYRAMIDS_ENGINE``, else auto; the published ratings were measured on the native engine).
Old tables' ``ismcts`` seats take ``normal``'s rating (``pyramids.server.ratings.BOT_ALIASES``).

Size: ``--games`` 60 per band by default, three blocks of the 2-player schedule (20 ordered
seatings of 5 bots) and one of the 3-player one (60), so the seven bands play 420 games, sized
to take about 15 minutes on 2 cores with ``--jobs 2`` (the ``hard`` seats, 6000 iterations a
move, take most of it). Run from the repository root::

    .venv/bin/python scripts/bot_ratings.py --jobs 2                  # every band (~15 min)
    .venv/bin/python scripts/bot_ratings.py --only flags:3 --reports /tmp/r --jobs 2

The tournament reports (JSON and Markdown) are kept in ``--reports`` (default: a
``bot-ratings`` folder in the system's temporary directory); a band whose report is already
there is not played again, so an interrupted run resumes and ``--only`` refreshes one band
while the others are read back. A band with no report takes the nearest measured band's
ratings and says so (``"measured": false``); a game with no measured band is left out (the
server then rates none of its games against bots).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import subprocess
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path
from typing import Any

from pyramids.bots import LEVEL_SPECS
from pyramids.bots.ladder import OFFERED
from pyramids.cli.engine_opt import add_engine_argument, parsed_engine

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "pyramids" / "server" / "data" / "bot_ratings.json"
BOTS = {LEVEL_SPECS.get(name, name): name for name in OFFERED}
"""The tournament's contestant spec of each server bot name."""
BANDS = {"flaming": {"2": 2, "3-4": 3, "5-6": 5}, "flags": {"2": 2, "3-4": 3}}
"""Each game's bands and the player count each is measured at."""
ABOUT = (
    "Fixed ratings of the server's bots (OpenSkill Plackett-Luce, default parameters), used "
    "in the 'bots' rating pool and never updated. Each measured band is one `pyramids "
    "tournament` run of the bots the server offers (random and the levels beginner, greedy, "
    "normal = ismcts:normal and hard = ismcts:hard; old ismcts seats take normal's rating) "
    "with the tool's default schedule "
    "(every ordered seating for 2 and 3 players; cyclic for 5, each bot holding several "
    "seats) and the game's default rules options; mu and sigma are the tournament's final "
    "online ratings. Where one bot always beats another, the gap between them is what these "
    "games gave: more games would widen it. A band not measured takes the nearest measured "
    "band's ratings (measured: false, from_band). Made by scripts/bot_ratings.py."
)


def command(
    game: str, players: int, *, games: int, seed: int, jobs: int, name: str, engine: str
) -> list[str]:
    """The ``pyramids tournament`` arguments of one band, on ``engine``."""
    return [
        "tournament",
        f"--game={game}",
        f"--players={players}",
        f"--bots={','.join(BOTS)}",
        f"--games={games}",
        f"--jobs={jobs}",
        f"--seed={seed}",
        f"--out-json={name}.json",
        f"--out-md={name}.md",
        f"--engine={engine}",
        "--quiet",
    ]


def entry(report: dict[str, Any], args: list[str]) -> dict[str, Any]:
    """A measured band of the JSON file, from its tournament report."""
    return {
        "measured": True,
        "players": report["players"],
        "games": report["games"],
        "seeds": [report["seeds"]["first"], report["seeds"]["last"]],
        "rules_version": report["rules_version"],
        "options": report["options"],
        "engine": report["engine"],
        "command": "pyramids " + " ".join(a.replace("=", " ", 1) for a in args),
        "schedule": report["schedule"]["description"],
        "seconds": report["timing"]["seconds"],
        "ratings": {
            BOTS[c["spec"]]: {
                "mu": c["rating"]["mu"],
                "sigma": c["rating"]["sigma"],
                "ordinal": c["rating"]["ordinal"],
                "win_rate": c["win_rate"],
                "mean_placement": c["mean_placement"],
            }
            for c in report["contestants"]
        },
    }


def main() -> None:
    """Play the bands asked for (those without a report), then write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60, help="games per band (default 60)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--reports", type=Path, default=Path(tempfile.gettempdir()) / "bot-ratings")
    parser.add_argument(
        "--only", action="append", default=[], help="GAME:PLAYERS to play (again), e.g. flags:3"
    )
    parser.add_argument("--out", type=Path, default=OUT, help="the JSON file to write")
    add_engine_argument(parser)
    opts = parser.parse_args()
    engine = parsed_engine(parser, opts.engine)
    opts.reports.mkdir(parents=True, exist_ok=True)
    games: dict[str, dict[str, Any]] = {}
    for game, bands in BANDS.items():
        games[game] = {}
        for band, players in bands.items():
            name = f"{game}-{players}"
            args = command(
                game,
                players,
                games=opts.games,
                seed=opts.seed,
                jobs=opts.jobs,
                name=name,
                engine=engine,
            )
            report_path = opts.reports / f"{name}.json"
            wanted = f"{game}:{players}" in opts.only
            if wanted or (not opts.only and not report_path.exists()):
                print(f"bot_ratings: {' '.join(args)}", file=sys.stderr)
                pyramids = [sys.executable, "-m", "pyramids.cli.main"]
                subprocess.run([*pyramids, *args], cwd=opts.reports, check=True)
            if report_path.exists():
                report = json.loads(report_path.read_text(encoding="utf-8"))
                args = command(
                    game,
                    players,
                    games=report["games"],
                    seed=report["seeds"]["first"],
                    jobs=report["timing"]["jobs"],
                    name=name,
                    engine=report["engine"],
                )
                games[game][band] = entry(report, args)
        order = list(bands)
        measured = [b for b in order if b in games[game]]
        if not measured:
            # the server then rates no game of it against bots (no published ratings)
            print(f"bot_ratings: warning: no band of {game} is measured: left out", file=sys.stderr)
            del games[game]
            continue
        for band in order:
            if band not in games[game]:
                source = min(measured, key=lambda b: abs(order.index(b) - order.index(band)))
                games[game][band] = {
                    "measured": False,
                    "from_band": source,
                    "note": f"not measured: the ratings of band {source}",
                    "ratings": games[game][source]["ratings"],
                }
        games[game] = {band: games[game][band] for band in order}
    data = {
        "format": 1,
        "about": ABOUT,
        "date": dt.date.today().isoformat(),
        "model": {
            "name": "PlackettLuce",
            "package": "openskill",
            "version": version("openskill"),
            "mu": 25.0,
            "sigma": 25 / 3,
            "beta": 25 / 6,
            "tau": 25 / 300,
        },
        "bots": {name: spec for spec, name in BOTS.items()},
        "games": games,
    }
    opts.out.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"bot_ratings: wrote {opts.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
