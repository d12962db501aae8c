"""Ratings: OpenSkill Plackett-Luce per game and player-count band, from final placements.

When a table's game is over (``TableManager.finished_hooks``) one write transaction stores
a ``results`` row per seat (its place from ``standings.placements``, forfeits last; the game's
own per-seat statistics from its descriptor's ``player_stats``; the account; the pool) and,
for a rated game, each account's new rating and a ``rating_history`` row. Nothing happens
when the table already has results, so the hook may run twice (a restart, another server
process catching up on the same table) and a game is never rated twice. At start
(``started_hooks``) every finished table without results is rated in order of its end:
games that ended while the server was down, or before ratings existed (those count
unrated, since they were not marked rated).

A game counts in one pool, or in none (its results are stored all the same):

- ``rated``: the table is rated, every seat a human bound to an account, no account twice;
- ``bots``: the table is rated, at least one bot, every human seat bound to an account, no
  account twice; the bots enter at their fixed, published ratings (``data/bot_ratings.json``,
  measured with ``pyramids tournament``) and are never updated.

Players are rated apart per game, band (``2``, ``3-4``, ``5-6`` players) and pool: one team
per seat, ranked by place (tied seats share a place), ``PlackettLuce().rate`` with the model's
default parameters; a new account starts at the model's default rating. The number shown is
the ordinal mu - 3 sigma (``display``, rounded for display only).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import json
import logging
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from openskill.models import PlackettLuce
from sqlalchemy import Connection, Table, insert, select, update
from sqlalchemy.exc import IntegrityError

from pyramids.core import GameRecord
from pyramids.core.errors import PyramidsError
from pyramids.core.game import State
from pyramids.games import descriptor, make_game
from pyramids.games.engine import Engine, engine_of
from pyramids.server import store
from pyramids.server.database import Database
from pyramids.server.db import Base, RatingHistoryRow, RatingRow, ResultRow
from pyramids.server.live import FINISHED, LiveTable
from pyramids.server.rebuild import StartupError, rebuild
from pyramids.server.standings import placements
from pyramids.server.store import TableRecord, utcnow

log = logging.getLogger("pyramids.server")

RATINGS: Table = Base.metadata.tables[RatingRow.__tablename__]
HISTORY: Table = Base.metadata.tables[RatingHistoryRow.__tablename__]
RESULTS: Table = Base.metadata.tables[ResultRow.__tablename__]

BANDS: tuple[str, ...] = ("2", "3-4", "5-6")
"""The player-count bands, smallest first."""
BAND_OF: Mapping[int, str] = {2: "2", 3: "3-4", 4: "3-4", 5: "5-6", 6: "5-6"}
RATED, BOTS = "rated", "bots"
POOLS: tuple[str, ...] = (RATED, BOTS)
"""The rating pools: games between accounts, and games of accounts against bots."""
ORDINAL_Z = 3.0
"""The rating shown is mu - ORDINAL_Z * sigma (openskill's ``ordinal()``)."""
DISPLAY_DIGITS = 1
"""Decimals of ``display`` (the stored mu and sigma are never rounded)."""
BOT_RATINGS_FILE = Path(__file__).resolve().parent / "data" / "bot_ratings.json"
WRITE_ATTEMPTS = 3
"""Tries of a game's rating transaction when another writer stored a rating row first."""


def band_of(players: int) -> str:
    """The band of a table with ``players`` seats (ValueError outside 2-6)."""
    try:
        return BAND_OF[players]
    except KeyError:
        raise ValueError(f"no rating band for {players} players") from None


def bands_for(min_players: int, max_players: int) -> tuple[str, ...]:
    """The bands a game with this seat range can be played in, smallest first."""
    found = {BAND_OF[p] for p in range(min_players, max_players + 1) if p in BAND_OF}
    return tuple(b for b in BANDS if b in found)


def ordinal(mu: float, sigma: float) -> float:
    """The cautious skill estimate mu - 3 sigma."""
    return mu - ORDINAL_Z * sigma


def display(mu: float, sigma: float) -> float:
    """The rating as shown: the ordinal, rounded."""
    return round(ordinal(mu, sigma), DISPLAY_DIGITS)


@functools.cache
def model() -> PlackettLuce:
    """The rating model: Plackett-Luce with openskill's default parameters."""
    return PlackettLuce()


# --- the bots' fixed ratings ---------------------------------------------------------------


@dataclass(frozen=True)
class BotRating:
    """A bot's fixed rating in one game and band."""

    mu: float
    sigma: float


@functools.cache
def bot_ratings_file(path: Path = BOT_RATINGS_FILE) -> dict[str, Any]:
    """The published bot ratings file (``data/bot_ratings.json``), parsed once."""
    with path.open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def rated_bots() -> tuple[str, ...]:
    """The bots the published file rates (its ``bots``: name -> spec), as it lists them."""
    return tuple(bot_ratings_file().get("bots", {}))


BOT_ALIASES: Mapping[str, str] = {"ismcts": "normal"}
"""Old bot kinds stored with tables and games, and the level each now plays."""


def bot_rating(game: str, band: str, bot: str) -> BotRating | None:
    """The fixed rating of ``bot`` (``random`` or a level of ``pyramids.bots.LADDER``) in a
    game and band, or None when none is published. An old kind (``ismcts``) takes its own
    published rating, else the one of the level it now plays (``BOT_ALIASES``)."""
    for name in (bot, BOT_ALIASES.get(bot)):
        try:
            entry = bot_ratings_file()["games"][game][band]["ratings"][name]
            return BotRating(float(entry["mu"]), float(entry["sigma"]))
        except (KeyError, TypeError, ValueError):
            continue
    return None


# --- what a finished game is -----------------------------------------------------------------


@dataclass(frozen=True)
class SeatFact:
    """Who sat at a seat of a finished game."""

    seat: int
    kind: str
    bot: str | None
    account_id: int | None

    @property
    def is_human(self) -> bool:
        """Whether a person held the seat."""
        return self.kind == "human"


@dataclass(frozen=True)
class FinishedGame:
    """What rating a finished table needs to know, read off the live table or its record."""

    table_id: str
    game: str
    players: int
    options: Mapping[str, Any]
    seed: int
    rules_version: str
    actions: tuple[str, ...]
    forfeits: tuple[int, ...]
    rated: bool
    finished: dt.datetime
    seats: tuple[SeatFact, ...]

    @classmethod
    def of_live(cls, table: LiveTable) -> FinishedGame:
        """A finished live table's facts."""
        return cls(
            table_id=table.id,
            game=table.game_name,
            players=table.players,
            options=dict(table.options),
            seed=table.seed,
            rules_version=table.rules_version,
            actions=tuple(text for _, text in table.actions),
            forfeits=tuple(table.forfeits),
            rated=table.rated,
            finished=table.finished or utcnow(),
            seats=tuple(SeatFact(s.seat, s.kind, s.bot, s.account_id) for s in table.seats),
        )

    @classmethod
    def of_record(cls, record: TableRecord) -> FinishedGame:
        """A finished stored table's facts."""
        return cls(
            table_id=record.id,
            game=record.game,
            players=record.players,
            options=dict(record.options),
            seed=record.seed,
            rules_version=record.rules_version,
            actions=tuple(text for _, _, text in record.actions),
            forfeits=tuple(record.forfeits or ()),
            rated=record.rated,
            finished=record.finished or record.updated,
            seats=tuple(SeatFact(s.seat, s.kind, s.bot, s.account_id) for s in record.seats),
        )

    def record(self) -> GameRecord:
        """The game record (what the game's ``player_stats`` reads)."""
        return GameRecord(
            game=self.game,
            options=dict(self.options),
            players=self.players,
            seed=self.seed,
            actions=list(self.actions),
            rules_version=self.rules_version,
        )


def pool_of(game: FinishedGame) -> str | None:
    """The pool a finished game counts in (``rated``, ``bots``), or None: unrated.

    Both need a rated table whose human seats are all bound to accounts, no account twice;
    ``rated`` has no bot (so at least two accounts), ``bots`` has at least one bot and one
    account, and a published rating for each of its bots in the game's band.
    """
    if not game.rated or game.players not in BAND_OF:
        return None
    humans = [s for s in game.seats if s.is_human]
    bots = [s for s in game.seats if not s.is_human]
    accounts = [s.account_id for s in humans]
    if not humans or any(a is None for a in accounts) or len(set(accounts)) != len(accounts):
        return None
    if not bots:
        return RATED if len(humans) >= 2 else None
    band = band_of(game.players)
    if any(bot_rating(game.game, band, s.bot or "") is None for s in bots):
        log.warning(
            "table %s: no published rating of its bots in %s %s; counted unrated",
            game.table_id,
            game.game,
            band,
        )
        return None
    return BOTS


def seat_stats(game: FinishedGame, engine: Engine | None = None) -> list[dict[str, Any]]:
    """The game's own statistics of each seat (its descriptor's ``player_stats``, replayed
    on ``engine``; None: auto); empty dicts when the game has none or they cannot be
    computed (logged)."""
    empty: list[dict[str, Any]] = [{} for _ in range(game.players)]
    try:
        desc = descriptor(game.game)
        if desc.player_stats is None:
            return empty
        stats = desc.player_stats.get()(
            make_game(game.game, game.players, game.options, engine=engine), game.record()
        )
        out = [dict(s) for s in stats]
    except Exception:
        log.exception("table %s: its players' statistics cannot be computed", game.table_id)
        return empty
    if len(out) != game.players:
        log.error("table %s: player_stats gave %d seats", game.table_id, len(out))
        return empty
    return out


@dataclass
class Assessed:
    """A finished game ready to store: places, statistics and pool."""

    game: FinishedGame
    places: list[int]
    stats: list[dict[str, Any]]
    pool: str | None

    @property
    def band(self) -> str:
        """The game's player-count band."""
        return band_of(self.game.players)


def assess(game: FinishedGame, state: State) -> Assessed | None:
    """Places (``standings.placements``: forfeits last), statistics and pool of a finished game
    whose final state is ``state``; None when it has no final placing (logged). The
    statistics replay the game on the engine ``state`` runs on."""
    places = placements(state, game.forfeits)
    if places is None:
        log.error("table %s is finished but its game gives no placing", game.table_id)
        return None
    return Assessed(game, places, seat_stats(game, engine_of(state)), pool_of(game))


# --- storing results and ratings ----------------------------------------------------------------


@dataclass
class RatedSeat:
    """An account's rating before and after one game."""

    seat: int
    account_id: int
    before: tuple[float, float]
    after: tuple[float, float]


@dataclass
class Stored:
    """What one game's transaction stored."""

    table_id: str
    pool: str | None
    places: list[int]
    rated: list[RatedSeat] = field(default_factory=list)


def has_results(conn: Connection, table_id: str) -> bool:
    """Whether a table's results are stored (then it was rated, if it counted)."""
    row = conn.execute(select(RESULTS.c.seat).where(RESULTS.c.table_id == table_id).limit(1))
    return row.first() is not None


def current_ratings(
    conn: Connection, account_ids: Sequence[int], game: str, band: str, pool: str
) -> dict[int, tuple[float, float, int]]:
    """(mu, sigma, games) of each account that has a rating in (game, band, pool), locked
    for the transaction where the database can."""
    rows = conn.execute(
        select(RATINGS.c.account_id, RATINGS.c.mu, RATINGS.c.sigma, RATINGS.c.games)
        .where(
            RATINGS.c.account_id.in_(list(account_ids)),
            RATINGS.c.game == game,
            RATINGS.c.band == band,
            RATINGS.c.pool == pool,
        )
        .with_for_update()
    )
    return {r.account_id: (float(r.mu), float(r.sigma), int(r.games)) for r in rows}


def new_ratings(
    teams: Sequence[tuple[float, float]], places: Sequence[int]
) -> list[tuple[float, float]]:
    """Each seat's (mu, sigma) after a game: one team per seat, ranked by place."""
    m = model()
    rated = m.rate([[m.rating(mu=mu, sigma=sigma)] for mu, sigma in teams], ranks=list(places))
    return [(float(team[0].mu), float(team[0].sigma)) for team in rated]


def store_game(conn: Connection, assessed: Assessed) -> Stored | None:
    """Store a finished game's results and, if it counts, its ratings, in ``conn``'s
    transaction; None (nothing written) when its results are already there."""
    game = assessed.game
    if has_results(conn, game.table_id):
        return None
    pool = assessed.pool
    conn.execute(
        insert(RESULTS),
        [
            {
                "table_id": game.table_id,
                "seat": s.seat,
                "account_id": s.account_id,
                "game": game.game,
                "players": game.players,
                "place": assessed.places[s.seat],
                "pool": pool,
                "stats": assessed.stats[s.seat],
                "finished": game.finished,
            }
            for s in game.seats
        ],
    )
    stored = Stored(game.table_id, pool, list(assessed.places))
    if pool is None:
        return stored
    band = assessed.band
    humans = [s for s in game.seats if s.is_human and s.account_id is not None]
    ids = [s.account_id for s in humans if s.account_id is not None]
    known = current_ratings(conn, ids, game.game, band, pool)
    default = model().rating()
    teams: list[tuple[float, float]] = []
    for s in game.seats:
        if s.account_id is not None:
            mu, sigma, _ = known.get(s.account_id, (default.mu, default.sigma, 0))
            teams.append((mu, sigma))
        else:
            fixed = bot_rating(game.game, band, s.bot or "")
            assert fixed is not None  # pool_of checked it
            teams.append((fixed.mu, fixed.sigma))
    after = new_ratings(teams, assessed.places)
    now = utcnow()
    for s in humans:
        account = s.account_id
        assert account is not None
        mu, sigma = after[s.seat]
        key = {"account_id": account, "game": game.game, "band": band, "pool": pool}
        if account in known:
            conn.execute(
                update(RATINGS)
                .where(*(RATINGS.c[k] == v for k, v in key.items()))
                .values(mu=mu, sigma=sigma, games=known[account][2] + 1, updated=now)
            )
        else:
            conn.execute(insert(RATINGS).values(**key, mu=mu, sigma=sigma, games=1, updated=now))
        conn.execute(
            insert(HISTORY).values(
                **key, table_id=game.table_id, mu=mu, sigma=sigma, at=game.finished
            )
        )
        stored.rated.append(RatedSeat(s.seat, account, teams[s.seat], (mu, sigma)))
    return stored


async def store_assessed(database: Database, assessed: Assessed) -> Stored | None:
    """Commit one game's results and ratings (tried again when another writer stored a
    rating row or the results first: then the results are there, or the rows to update)."""
    for attempt in range(WRITE_ATTEMPTS):
        try:
            return await database.write(partial(store_game, assessed=assessed))
        except IntegrityError:
            if attempt == WRITE_ATTEMPTS - 1:
                raise
    return None  # pragma: no cover (the loop returns or raises)


async def rate_table(database: Database, table: LiveTable) -> Stored | None:
    """The finished hook: store a finished live table's results and ratings (once)."""
    if table.status != FINISHED:
        return None
    game, state = FinishedGame.of_live(table), table.state
    assessed = await asyncio.to_thread(assess, game, state)
    if assessed is None:
        return None
    try:
        return await store_assessed(database, assessed)
    except Exception:
        log.exception("table %s: its results and ratings could not be stored", table.id)
        return None


# --- catching up at start ------------------------------------------------------------------------


def unrated_ids(conn: Connection) -> list[str]:
    """Every finished table without results, in order of its end."""
    done = select(RESULTS.c.table_id).distinct()
    rows = conn.execute(
        select(store.TABLES.c.id)
        .where(store.TABLES.c.status == FINISHED, store.TABLES.c.id.not_in(done))
        .order_by(store.TABLES.c.finished, store.TABLES.c.updated, store.TABLES.c.id)
    )
    return [r.id for r in rows]


def load_finished(conn: Connection, table_id: str, engine: Engine | None = None) -> Assessed | None:
    """A stored finished table, replayed on ``engine`` (the server's; None: auto) and
    assessed; None if it cannot be (logged)."""
    record = store.load_table(conn, table_id)
    if record is None or record.status != FINISHED:
        return None
    try:
        state = rebuild(record, engine).state
    except StartupError as exc:
        log.warning("table %s: not rated, its record does not replay: %s", table_id, exc)
        return None
    except PyramidsError as exc:
        log.warning("table %s: not rated: %s", table_id, exc)
        return None
    return assess(FinishedGame.of_record(record), state)


async def catch_up(database: Database, engine: Engine | None = None) -> list[Stored]:
    """The started hook: store every finished table that has no results yet, oldest end
    first (so ratings follow the order in which the games ended), replayed on ``engine``."""
    out: list[Stored] = []
    for table_id in await database.read(unrated_ids):
        try:
            assessed = await database.read(partial(load_finished, table_id=table_id, engine=engine))
            if assessed is None:
                continue
            stored = await store_assessed(database, assessed)
        except Exception:
            log.exception("table %s: its results and ratings could not be stored", table_id)
            continue
        if stored is not None:
            out.append(stored)
    if out:
        log.info("rated %d games that had finished without results", len(out))
    return out


class GameHooks(Protocol):
    """Where the runtime (``tables.TableManager``) keeps the work to do when a game ends
    and when it has started."""

    @property
    def finished_hooks(self) -> list[Callable[[LiveTable], Coroutine[Any, Any, None]]]:
        """Called once a table's game is over and committed."""
        ...

    @property
    def started_hooks(self) -> list[Callable[[], Coroutine[Any, Any, None]]]:
        """Called once the runtime has started."""
        ...


def install(manager: GameHooks, database: Database, engine: Engine | None = None) -> None:
    """Rate every game that finishes (``manager.finished_hooks``) and, at start, every
    finished game not rated yet (``manager.started_hooks``, replayed on ``engine``: the
    server's ``Settings.engine``), in ``database``."""

    async def on_finished(table: LiveTable) -> None:
        await rate_table(database, table)

    async def on_started() -> None:
        await catch_up(database, engine)

    manager.finished_hooks.append(on_finished)
    manager.started_hooks.append(on_started)
