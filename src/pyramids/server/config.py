"""Server settings: where the database lives, message limits, and per-table defaults.

The database URL comes from ``--db``, else the environment variable ``PYRAMIDS_DB``, else
an SQLite file in the user data directory (``platformdirs.user_data_dir("pyramids")``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

DB_ENV = "PYRAMIDS_DB"
"""Environment variable that overrides the default database URL."""

DB_FILE = "pyramids.sqlite3"
PLAYER_BOT_SPECS: dict[str, str] = {
    "random": "random",
    "greedy": "greedy",
    "ismcts": "ismcts:normal",
}
"""The bots a seat may have, by the name the API uses, and the default spec each plays."""


def default_data_dir() -> Path:
    """The per-user data directory of the server (created on demand, not here)."""
    return Path(platformdirs.user_data_dir("pyramids"))


def sqlite_url(path: Path) -> str:
    """The SQLAlchemy URL of an SQLite file."""
    return f"sqlite:///{path}"


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
    turn_time: float = 0.0
    takeover_bot: str = "greedy"
    ismcts_spec: str = "ismcts:normal"
    finished_cache: int = 256
    send_queue_limit: int = 2000

    def __post_init__(self) -> None:
        if not self.db_url:
            self.db_url = os.environ.get(DB_ENV) or sqlite_url(self.data_dir / DB_FILE)

    def bot_spec(self, name: str) -> str:
        """The ``make_bot`` spec a seat named ``name`` (random, greedy, ismcts) plays."""
        if name == "ismcts":
            return self.ismcts_spec
        return PLAYER_BOT_SPECS[name]


def resolve_settings(db: str | None = None, data_dir: Path | None = None) -> Settings:
    """Settings from the command line: ``--db`` beats ``PYRAMIDS_DB`` beats the data dir's file."""
    base = data_dir if data_dir is not None else default_data_dir()
    return Settings(db_url=db or "", data_dir=base)
