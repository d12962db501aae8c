"""Server settings: where the database lives, message limits, and per-table defaults.

The database URL comes from ``--db``, else the environment variable ``PYRAMIDS_DB``, else
an SQLite file in the user data directory (``platformdirs.user_data_dir("pyramids")``).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import platformdirs

from pyramids.bots import LEVEL_SPECS
from pyramids.games.engine import Engine, engine_from_env

DB_ENV = "PYRAMIDS_DB"
"""Environment variable that overrides the default database URL."""

DB_FILE = "pyramids.sqlite3"
INSTANCE_ENV = "PYRAMIDS_INSTANCE"
"""Environment variable naming this server instance (``pyramids serve --instance``)."""
CLUSTER_ENV = "PYRAMIDS_CLUSTER"
"""Environment variable forcing cluster mode on (``1``) or off (``0``) for ``pyramids serve``
(default: on for PostgreSQL; off only for a single instance that has its database alone)."""
LEASE_TTL_ENV = "PYRAMIDS_LEASE_TTL"
"""Environment variable setting ``Settings.lease_ttl`` (seconds) of ``pyramids serve``."""
LEASE_RENEW_ENV = "PYRAMIDS_LEASE_RENEW"
"""Environment variable setting ``Settings.lease_renew`` (seconds) of ``pyramids serve``."""
TURN_TIME_ENV = "PYRAMIDS_TURN_TIME"
"""Environment variable setting ``Settings.turn_time`` (seconds) of ``pyramids serve``."""
RATED_TURN_TIME_ENV = "PYRAMIDS_RATED_TURN_TIME"
"""Environment variable setting ``Settings.rated_turn_time`` (seconds) of ``pyramids serve``."""
MAX_TURN_TIME = 86_400.0
"""The longest ``turn_time`` (seconds) of any table, and of the server's defaults."""
POSTGRES_SCHEMES = frozenset({"postgresql", "postgres"})
"""URL schemes of PostgreSQL, the database a cluster's instances share."""
PLAYER_BOT_SPECS: dict[str, str] = {
    "random": "random",
    **LEVEL_SPECS,
    "ismcts": LEVEL_SPECS["normal"],
}
"""The bots a seat may have, by the name the API uses, and the default spec each plays:
the ladder's levels (``pyramids.bots.LADDER``), random, and ``ismcts``, the old name of
``normal`` (tables and rematches stored before the ladder)."""


def default_data_dir() -> Path:
    """The per-user data directory of the server (created on demand, not here)."""
    return Path(platformdirs.user_data_dir("pyramids"))


def sqlite_url(path: Path) -> str:
    """The SQLAlchemy URL of an SQLite file."""
    return f"sqlite:///{path}"


LIMITS_ENV_PREFIX = "PYRAMIDS_"
"""Each limit below can be set by the environment variable ``PYRAMIDS_<NAME>`` (upper case)."""


@dataclass
class LimitSettings:
    """What one client may do, and how long the server waits for slow ones (docs/SECURITY.md).

    A client is its address (an IPv6 address counts by its /64 network). Rates are in the
    notation of the ``limits`` library, several joined by ``;`` (``"20/minute;200/hour"``);
    an empty rate turns that limit off. A cap or timeout of 0 turns it off. Every field can
    be set with ``pyramids serve --limit NAME=VALUE`` or the variable ``PYRAMIDS_<NAME>``.
    """

    rate_create: str = "20/minute;200/hour"
    """Tables one address may create (``POST /api/tables``); over it: 429 ``rate_limited``."""
    rate_claim: str = "30/minute"
    """Seats one address may claim from the lobby."""
    rate_action: str = "20/second;1200/minute"
    """Actions one address may send, over HTTP and WebSockets together."""
    rate_connect: str = "60/minute"
    """Table WebSockets one address may open."""
    rate_signup: str = "5/hour;20/day"
    """Accounts one address may create (``POST /api/accounts``)."""
    rate_login: str = "10/minute;50/hour"
    """Log-in attempts one address may make (``POST /api/session``), right or wrong."""
    rate_login_failures: str = "5/15minutes"
    """Failed log-ins (and wrong current passwords) one account name may take, from any
    address, exempt ones too; past it every log-in to the name is 429 ``rate_limited``,
    right or wrong, until the window has room. A log-in that succeeds clears the count."""
    rate_chat: str = "5/10seconds;60/hour"
    """Chat messages one address may send (every table together)."""
    rate_chat_connection: str = "8/10seconds"
    """Chat messages and switches of the spectators' channel one connection may send,
    counted exactly (in any 10 seconds) and whatever its address, exempt ones too: one
    page cannot flood a table from a shared or exempt address. Refused messages that were
    malformed do not count."""
    rate_hint: str = "6/minute;60/hour"
    """Hints one address may ask for (``POST /api/tables/{id}/hint``; asking again for the
    same decision while it is computed or shown counts once)."""
    rate_hint_table: str = "12/minute;200/hour"
    """Hints all the seats of one table may ask for, whatever their addresses."""
    rate_analysis: str = "6/hour;20/day"
    """Analyses one address may start (``GET /api/tables/{id}/analysis`` of a finished table
    not yet analysed; a stored one is read freely)."""
    max_hints_waiting: int = 8
    """Hints queued in the search pool at once (every table); past it: 503 ``busy``."""
    max_analyses_waiting: int = 4
    """Analyses queued or running at once; past it: 503 ``busy``."""
    hint_iterations: int = 0
    """Search iterations of a hint; 0: the ``normal`` level's for the game and player count."""
    analysis_iterations: int = 0
    """Search iterations per decision of an analysis; 0: the ``normal`` level's."""
    ws_flood: str = "100/10seconds"
    """Messages of any type one WebSocket may send; past it the socket is closed (1008)."""
    exempt: str = ""
    """Addresses or networks (comma-separated, ``127.0.0.1,10.0.0.0/8``) that no per-address
    rate or cap applies to (a load test on loopback, a trusted front end)."""
    max_tables_per_address: int = 20
    """Unfinished (open or running) tables one address may have created at once."""
    max_spectators: int = 200
    """Spectator connections on one table."""
    max_connections_per_address: int = 64
    """Table WebSockets one address may hold open at once."""
    max_http_connections_per_address: int = 128
    """HTTP connections (before any WebSocket upgrade) one address may hold open at once."""
    max_turns: int = 10_000
    """The largest ``max_turns`` rules option a table may ask for."""
    min_all_bot_delay: float = 0.5
    """The least ``bot_delay`` (seconds) of a table where every seat is a bot."""
    open_table_ttl: float = 86_400.0
    """Seconds an invited table may wait for its players; then it is marked ``expired``."""
    header_timeout: float = 10.0
    """Seconds a client has to send a request's head (line and headers) once it connected or
    began the request; then the server answers 408 and closes the connection."""
    body_timeout: float = 30.0
    """Seconds a client has to send a request's body once its head arrived."""
    keep_alive_timeout: float = 5.0
    """Seconds an idle keep-alive connection stays open (uvicorn's ``timeout_keep_alive``)."""
    max_header_bytes: int = 16 * 1024
    """The largest request head; over it: 431 and the connection is closed."""
    max_json_depth: int = 32
    """The deepest nesting of arrays and objects in a WebSocket message (deeper: malformed)."""
    trusted_proxies: str = ""
    """Addresses of reverse proxies whose ``X-Forwarded-For`` names the client (uvicorn's
    ``forwarded_allow_ips``); empty: the peer address is the client, whatever it sends."""

    def with_values(self, values: Mapping[str, str]) -> LimitSettings:
        """A copy with fields set from text (``{"max_spectators": "50"}``); ValueError names
        an unknown field or a value of the wrong type."""
        known = {f.name: f for f in fields(self)}
        changes: dict[str, Any] = {}
        for name, text in values.items():
            key = name.strip().lower().replace("-", "_")
            if key not in known:
                raise ValueError(f"unknown limit {name!r}; the limits are {', '.join(known)}")
            default = getattr(self, key)
            try:
                changes[key] = type(default)(text.strip()) if not isinstance(default, str) else text
            except ValueError:
                raise ValueError(
                    f"limit {key}: {text!r} is not a {type(default).__name__}"
                ) from None
        return replace(self, **changes)

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> LimitSettings:
        """The defaults, changed by every ``PYRAMIDS_<NAME>`` variable set."""
        names = [f.name for f in fields(cls)]
        found = {n: environ[k] for n in names if (k := LIMITS_ENV_PREFIX + n.upper()) in environ}
        return cls().with_values(found)


@dataclass
class Settings:
    """Everything the server needs to know at start; tables take their own copies of the defaults."""

    db_url: str = ""
    data_dir: Path = field(default_factory=default_data_dir)
    max_message_bytes: int = 4096
    max_body_bytes: int = 64 * 1024
    snapshot_every: int = 20
    bot_delay: float = 0.8
    absent_after: float = 30.0
    turn_time: float = 600.0
    """Seconds a human has for each decision at an unrated table that does not say (its
    ``turn_time`` absent or 0); then the takeover bot plays that decision (``timers.py``).
    Every table has a deadline per move, so nobody can hold a game for ever."""
    rated_turn_time: float = 300.0
    """The same at a rated table (``timers.RATED_TURN_TIME_MIN``..``MAX`` bound what a
    creator may ask there; ``timers.FORFEIT_AFTER_TIMEOUTS`` in a row forfeit)."""
    takeover_bot: str = "greedy"
    ismcts_spec: str = LEVEL_SPECS["normal"]
    """The spec of the ``normal`` level (and of its old name ``ismcts``)."""
    hard_spec: str = LEVEL_SPECS["hard"]
    """The spec of the ``hard`` level."""
    search_workers: int = 2
    """Worker processes for the search bots of all tables (``search.SearchPool``)."""
    search_reserved: int = 1
    """Of those, how many only tables with a human seat use (all-bot tables never)."""
    finished_cache: int = 256
    """Finished tables kept in memory after their last use, at most (``finished.py``; 0: no
    bound by number)."""
    finished_cache_bytes: int = 64 * 1024 * 1024
    """Estimated bytes of the finished tables kept in memory, at most: the least recently
    used are dropped first (a long game of Pyramids and Flags weighs about 2.5 MB, one of
    Flaming Pyramids 0.3–0.6 MB; 0: no bound by bytes). Tables someone watches stay."""
    send_queue_limit: int = 2000
    spectator_linger: float = 0.2
    """Seconds a spectator's message waits for the next ones to go out in the same write
    (at most five writes a second per spectator however fast the game; 0: at once)."""
    allowed_origins: tuple[str, ...] = ()
    """Origins besides the server's own whose pages may open table WebSockets (``*``: any);
    ``pyramids serve --allowed-origin``. A handshake without ``Origin`` is always allowed."""
    shutdown_grace: int = 1
    """Seconds uvicorn waits for open connections at shutdown before closing them."""
    limits: LimitSettings = field(default_factory=LimitSettings)
    """Per-address rates and caps, expiry of unstarted tables, slow-client timeouts."""
    instance: str = ""
    """This instance's name in logs, health checks, leases and the ``X-Pyramids-Instance``
    header (``--instance``, else ``PYRAMIDS_INSTANCE``, else the host name)."""
    cluster: bool | None = None
    """Run as one instance of several sharing the database (docs/DEPLOY.md): table leases,
    live updates through the database. None: on for PostgreSQL, off for SQLite (which one
    process uses alone)."""
    lease_ttl: float = 3.0
    """Seconds a table's lease lasts unless renewed: an instance that dies loses its
    tables this long after its last renewal (cluster mode)."""
    lease_renew: float = 1.0
    """Seconds between an instance's renewals of its leases, and between its looks for
    tables that have no owner (cluster mode)."""
    engine: Engine = Engine.AUTO
    """The rules engine the tables play on (``pyramids serve --engine``, else
    ``$PYRAMIDS_ENGINE``, else auto; ``pyramids.games.engine``): new tables and tables
    rebuilt from storage; bots search on their table's engine."""

    def __post_init__(self) -> None:
        if not self.db_url:
            self.db_url = os.environ.get(DB_ENV) or sqlite_url(self.data_dir / DB_FILE)
        if not self.instance:
            self.instance = os.environ.get(INSTANCE_ENV) or socket.gethostname() or "pyramids"
        if self.cluster is None:  # postgresql://, postgres://, postgresql+psycopg://…
            self.cluster = self.db_url.partition(":")[0].partition("+")[0] in POSTGRES_SCHEMES

    def bot_spec(self, name: str) -> str:
        """The ``make_bot`` spec a seat named ``name`` (random, a level of the ladder, or
        ismcts, the old name of normal) plays."""
        if name in ("normal", "ismcts"):
            return self.ismcts_spec
        if name == "hard":
            return self.hard_spec
        return PLAYER_BOT_SPECS[name]


def resolve_settings(
    db: str | None = None,
    data_dir: Path | None = None,
    allowed_origins: Sequence[str] = (),
    limits: Mapping[str, str] | None = None,
    instance: str | None = None,
    *,
    engine: str | None = None,
) -> Settings:
    """Settings from the command line: ``--db`` beats ``PYRAMIDS_DB`` beats the data dir's file;
    ``--limit NAME=VALUE`` (``limits``) beats ``PYRAMIDS_<NAME>`` beats the default;
    ``--engine`` beats ``PYRAMIDS_ENGINE`` beats auto."""
    base = data_dir if data_dir is not None else default_data_dir()
    limit_settings = LimitSettings.from_env(os.environ).with_values(limits or {})
    settings = Settings(
        db_url=db or "",
        data_dir=base,
        allowed_origins=tuple(allowed_origins),
        limits=limit_settings,
        instance=instance or "",
        engine=engine_from_env(engine),
    )
    cluster = os.environ.get(CLUSTER_ENV, "").strip()
    if cluster:
        if cluster not in ("0", "1"):
            raise ValueError(f"{CLUSTER_ENV}: {cluster!r} is neither 0 nor 1")
        settings.cluster = cluster == "1"
    for name, var in (
        ("lease_ttl", LEASE_TTL_ENV),
        ("lease_renew", LEASE_RENEW_ENV),
        ("turn_time", TURN_TIME_ENV),
        ("rated_turn_time", RATED_TURN_TIME_ENV),
    ):
        if os.environ.get(var):
            try:
                setattr(settings, name, float(os.environ[var]))
            except ValueError:
                raise ValueError(f"{var}: {os.environ[var]!r} is not a number") from None
    for name, var in (("turn_time", TURN_TIME_ENV), ("rated_turn_time", RATED_TURN_TIME_ENV)):
        value = getattr(settings, name)
        if not 0 < value <= MAX_TURN_TIME:  # (NaN fails too) every table keeps a deadline
            raise ValueError(f"{var}: {value!r} is not above 0 and at most {MAX_TURN_TIME:g} s")
    return settings
