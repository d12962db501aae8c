"""A player's page and the leaderboards (docs/PLAYERS.md).

``GET /api/players/{name}`` is an account's page as JSON: its ratings (``ratings.py``), the
history of each, statistics summed over its finished games (``results``: played, won, mean
place, and the game's own per-seat statistics: numbers summed, strings counted into
favourites), and its finished games, newest first, with replay and record links.
``GET /api/leaderboard`` ranks the accounts of one game, band and pool by the rating shown
(mu - 3 sigma). ``/players/{name}`` and ``/leaderboard`` are the pages that show them.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict
from sqlalchemy import Connection, func, select

from pyramids.games import GAMES, descriptor
from pyramids.server import ratings
from pyramids.server.accounts import name_key
from pyramids.server.auth import ACCOUNTS
from pyramids.server.database import database_of
from pyramids.server.pages import static_page
from pyramids.server.protocol import ProtocolError, iso
from pyramids.server.ratings import HISTORY, POOLS, RATED, RATINGS, RESULTS, display
from pyramids.server.schemas import ErrorOut
from pyramids.server.store import SEATS, as_utc

router = APIRouter(tags=["players"])

GAMES_DEFAULT = 20
"""Finished games a player's page lists unless ``?limit=`` says otherwise."""
GAMES_MAX = 100
HISTORY_MAX = 2000
"""Rating history entries a player's page carries at most (the newest)."""
FAVOURITES = 3
"""How many of a string statistic's most frequent values are listed (favourite tiles)."""
LEADERBOARD_DEFAULT = 100
LEADERBOARD_MAX = 100
NAME_MAX = 64


# --- response models -----------------------------------------------------------------------------


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RatingOut(_Out):
    """An account's current rating in one game, band and pool."""

    game: str
    band: str
    pool: str
    mu: float
    sigma: float
    display: float
    """mu - 3 sigma, rounded to one decimal (what the pages show)."""
    games: int


class HistoryOut(_Out):
    """A rating after one game."""

    game: str
    band: str
    pool: str
    table_id: str
    mu: float
    sigma: float
    display: float
    at: str


class FinishedGameOut(_Out):
    """One of the player's finished games."""

    table_id: str
    game: str
    players: int
    seat: int
    place: int
    pool: str | None
    finished: str
    seats: list[str]
    replay: str
    record: str


class PlayerOut(_Out):
    """A player's page."""

    name: str
    created: str
    ratings: list[RatingOut]
    history: list[HistoryOut]
    stats: dict[str, dict[str, Any]]
    games: list[FinishedGameOut]
    more: bool
    """Whether older games than these exist (ask again with ``before`` = the last one's
    ``finished``)."""


class LeaderOut(_Out):
    """A row of a leaderboard."""

    rank: int
    name: str
    display: float
    mu: float
    sigma: float
    games: int


class BotOut(_Out):
    """A bot at its fixed rating (the ``bots`` pool)."""

    bot: str
    display: float
    mu: float
    sigma: float


class LeaderboardOut(_Out):
    """The accounts of one game, band and pool, best first."""

    game: str
    band: str
    pool: str
    bands: list[str]
    """The bands the game has."""
    players: list[LeaderOut]
    bots: list[BotOut]
    """The bots' fixed ratings in this game and band (``bots`` pool only; else empty)."""


ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorOut, "description": "unknown_player"},
    422: {"model": ErrorOut, "description": "malformed, unknown_game, unknown_band, unknown_pool"},
}


# --- the player's page ----------------------------------------------------------------------------


def summed_stats(rows: list[Any]) -> dict[str, dict[str, Any]]:
    """Per game: ``played``, ``won`` (place 1, shared wins included), ``mean_place``, and
    the game's own statistics: each number summed, each string counted into its
    ``FAVOURITES`` most frequent values (``[{"value", "count"}]``, most frequent first)."""
    by_game: dict[str, list[Any]] = defaultdict(list)
    for r in rows:
        by_game[r.game].append(r)
    out: dict[str, dict[str, Any]] = {}
    for game, results in by_game.items():
        sums: dict[str, float] = {}
        counts: dict[str, Counter[str]] = {}
        for r in results:
            for key, value in (r.stats or {}).items():
                if isinstance(value, bool):
                    value = int(value)
                if isinstance(value, int | float):
                    sums[key] = sums.get(key, 0) + value
                elif isinstance(value, str):
                    counts.setdefault(key, Counter())[value] += 1
                elif value is None:
                    counts.setdefault(key, Counter())
        entry: dict[str, Any] = {
            "played": len(results),
            "won": sum(1 for r in results if r.place == 1),
            "mean_place": round(sum(r.place for r in results) / len(results), 3),
        }
        entry.update(sums)
        for key, counter in counts.items():
            ranked = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
            entry[key] = [{"value": v, "count": c} for v, c in ranked[:FAVOURITES]]
        out[game] = entry
    return out


def player_page(
    conn: Connection, key: str, limit: int, before: dt.datetime | None
) -> dict[str, Any] | None:
    """The page of the account whose name key is ``key``; None if there is none."""
    account = conn.execute(
        select(ACCOUNTS.c.id, ACCOUNTS.c.name, ACCOUNTS.c.created).where(ACCOUNTS.c.name_key == key)
    ).first()
    if account is None:
        return None
    aid = account.id
    rating_rows = conn.execute(
        select(RATINGS).where(RATINGS.c.account_id == aid).order_by(*_rating_order())
    ).all()
    history_rows = conn.execute(
        select(HISTORY)
        .where(HISTORY.c.account_id == aid)
        .order_by(HISTORY.c.at.desc(), HISTORY.c.id.desc())
        .limit(HISTORY_MAX)
    ).all()
    result_rows = conn.execute(
        select(RESULTS.c.game, RESULTS.c.place, RESULTS.c.stats).where(RESULTS.c.account_id == aid)
    ).all()
    query = (
        select(RESULTS)
        .where(RESULTS.c.account_id == aid)
        .order_by(RESULTS.c.finished.desc(), RESULTS.c.table_id.desc())
        .limit(limit + 1)
    )
    if before is not None:
        query = query.where(RESULTS.c.finished < before)
    game_rows = conn.execute(query).all()
    more = len(game_rows) > limit
    game_rows = game_rows[:limit]
    names: dict[str, list[str]] = defaultdict(list)
    ids = [r.table_id for r in game_rows]
    if ids:
        for s in conn.execute(
            select(SEATS.c.table_id, SEATS.c.name)
            .where(SEATS.c.table_id.in_(ids))
            .order_by(SEATS.c.table_id, SEATS.c.seat)
        ):
            names[s.table_id].append(s.name)
    return {
        "name": account.name,
        "created": iso(as_utc(account.created)),
        "ratings": [
            {
                "game": r.game,
                "band": r.band,
                "pool": r.pool,
                "mu": r.mu,
                "sigma": r.sigma,
                "display": display(r.mu, r.sigma),
                "games": r.games,
            }
            for r in rating_rows
        ],
        "history": [
            {
                "game": h.game,
                "band": h.band,
                "pool": h.pool,
                "table_id": h.table_id,
                "mu": h.mu,
                "sigma": h.sigma,
                "display": display(h.mu, h.sigma),
                "at": iso(as_utc(h.at)),
            }
            for h in reversed(history_rows)
        ],
        "stats": summed_stats(list(result_rows)),
        "games": [
            {
                "table_id": g.table_id,
                "game": g.game,
                "players": g.players,
                "seat": g.seat,
                "place": g.place,
                "pool": g.pool,
                "finished": precise(g.finished),
                "seats": names.get(g.table_id, []),
                "replay": f"/t/{g.table_id}/replay",
                "record": f"/api/tables/{g.table_id}/record",
            }
            for g in game_rows
        ],
        "more": more,
    }


def precise(value: dt.datetime | None) -> str:
    """A timestamp to the microsecond, ``2026-11-29T20:41:03.123456Z`` (a game's
    ``finished``, which ``before`` pages by: whole seconds would skip games)."""
    when = as_utc(value) or dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
    return when.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _rating_order() -> list[Any]:
    return [RATINGS.c.game, RATINGS.c.band, RATINGS.c.pool]


def parse_before(text: str | None) -> dt.datetime | None:
    """``?before=``: an ISO 8601 time (UTC when it names no zone); 422 malformed otherwise."""
    if text is None or text == "":
        return None
    try:
        value = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ProtocolError(
            "malformed",
            f"before: {text[:40]!r} is not an ISO 8601 time (e.g. 2026-01-31T18:00:00Z)",
            422,
        ) from None
    return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)


@router.get("/api/players/{name}", response_model=PlayerOut, responses=ERRORS)
async def get_player(
    request: Request,
    name: str,
    limit: Annotated[int, Query(ge=1, le=GAMES_MAX)] = GAMES_DEFAULT,
    before: Annotated[str | None, Query(max_length=64)] = None,
) -> dict[str, Any]:
    """A player's page: ratings, their history, statistics, finished games (newest first;
    ``before``: only games that finished before this ISO time, for the next page)."""
    when = parse_before(before)
    page = None
    if 0 < len(name) <= NAME_MAX:
        page = await database_of(request).read(
            partial(player_page, key=name_key(name), limit=limit, before=when)
        )
    if page is None:
        raise ProtocolError("unknown_player", f"there is no player called {name[:64]!r}", 404)
    return page


# --- leaderboards --------------------------------------------------------------------------------


def game_bands(game: str) -> tuple[str, ...]:
    """The rating bands of a registered game."""
    info = descriptor(game).info
    return ratings.bands_for(info.min_players, info.max_players)


def busiest_band(conn: Connection, game: str, pool: str, bands: tuple[str, ...]) -> str:
    """The band with the most rated players of ``game`` in ``pool`` (the smallest band on a
    tie); ``2`` when nobody is rated."""
    rows = conn.execute(
        select(RATINGS.c.band, func.count())
        .where(RATINGS.c.game == game, RATINGS.c.pool == pool)
        .group_by(RATINGS.c.band)
    ).all()
    counts = {r[0]: int(r[1]) for r in rows if r[0] in bands}
    if not counts:
        return bands[0] if bands else "2"
    return max(bands, key=lambda b: (counts.get(b, 0), -bands.index(b)))


def leaderboard_rows(
    conn: Connection,
    game: str,
    band: str | None,
    pool: str,
    *,
    limit: int,
    bands: tuple[str, ...],
) -> tuple[str, list[dict[str, Any]]]:
    """(the band, its accounts best first by mu - 3 sigma) for a leaderboard."""
    band = band or busiest_band(conn, game, pool, bands)
    score = RATINGS.c.mu - ratings.ORDINAL_Z * RATINGS.c.sigma
    rows = conn.execute(
        select(ACCOUNTS.c.name, RATINGS.c.mu, RATINGS.c.sigma, RATINGS.c.games)
        .join(ACCOUNTS, ACCOUNTS.c.id == RATINGS.c.account_id)
        .where(RATINGS.c.game == game, RATINGS.c.band == band, RATINGS.c.pool == pool)
        .order_by(score.desc(), RATINGS.c.games.desc(), ACCOUNTS.c.name_key)
        .limit(limit)
    ).all()
    out: list[dict[str, Any]] = []
    for i, r in enumerate(rows):
        shown = display(r.mu, r.sigma)
        # competition ranking on the number shown: equal ratings share a rank
        rank = out[-1]["rank"] if out and out[-1]["display"] == shown else i + 1
        out.append(
            {
                "rank": rank,
                "name": r.name,
                "display": shown,
                "mu": r.mu,
                "sigma": r.sigma,
                "games": r.games,
            }
        )
    return band, out


def bots_of(game: str, band: str) -> list[dict[str, Any]]:
    """The bots' fixed ratings in a game and band, best first."""
    out = []
    for bot in ratings.rated_bots():
        fixed = ratings.bot_rating(game, band, bot)
        if fixed is not None:
            out.append(
                {
                    "bot": bot,
                    "display": display(fixed.mu, fixed.sigma),
                    "mu": fixed.mu,
                    "sigma": fixed.sigma,
                }
            )
    return sorted(out, key=lambda b: -ratings.ordinal(b["mu"], b["sigma"]))


@router.get("/api/leaderboard", response_model=LeaderboardOut, responses=ERRORS)
async def get_leaderboard(
    request: Request,
    game: Annotated[str, Query(max_length=40)],
    band: Annotated[str | None, Query(max_length=8)] = None,
    pool: Annotated[str, Query(max_length=16)] = RATED,
    limit: Annotated[int, Query(ge=1, le=LEADERBOARD_MAX)] = LEADERBOARD_DEFAULT,
) -> dict[str, Any]:
    """A game's ratings, best first: one band (default: the one with most rated players)
    and pool (``rated``: between accounts, ``bots``: against the bots)."""
    if game not in GAMES:
        known = ", ".join(sorted(GAMES))
        raise ProtocolError("unknown_game", f"game {game[:40]!r} is unknown (games: {known})", 422)
    bands = game_bands(game)
    if band is not None and band not in bands:
        raise ProtocolError(
            "unknown_band",
            f"band {band!r} is not one of {game}'s player-count bands: {', '.join(bands)}",
            422,
        )
    if pool not in POOLS:
        raise ProtocolError(
            "unknown_pool", f"pool {pool[:16]!r} is not a rating pool: {', '.join(POOLS)}", 422
        )
    chosen, rows = await database_of(request).read(
        partial(leaderboard_rows, game=game, band=band, pool=pool, limit=limit, bands=bands)
    )
    return {
        "game": game,
        "band": chosen,
        "pool": pool,
        "bands": list(bands),
        "players": rows,
        "bots": bots_of(game, chosen) if pool == ratings.BOTS else [],
    }


# --- pages ---------------------------------------------------------------------------------------


@router.get("/players/{name}", include_in_schema=False)
async def player_html(name: str) -> Response:
    """A player's page (the page reads the name from the address)."""
    return static_page("player.html")


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_html() -> Response:
    """The leaderboards."""
    return static_page("leaderboard.html")
