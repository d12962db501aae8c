"""A real `pyramids serve` process for tests: start, SIGKILL, restart on the same database.

`live_server()` runs ``python -m pyramids.cli.main serve --port 0 --db URL`` as a
subprocess (SQLite in a temporary directory unless a URL is given), waits for its
``pyramids: serving on http://HOST:PORT/`` line and yields a `LiveServer`. `kill()` is a
SIGKILL (what a crash or a power cut looks like to the storage); `start()` starts the
server again on the same database, on a new port (read `.url` again afterwards).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pyramids.cli.serve_process import START_TIMEOUT, ServeProcess

TEST_LIMITS = {"PYRAMIDS_EXEMPT": "127.0.0.1,::1", "PYRAMIDS_MIN_ALL_BOT_DELAY": "0"}
"""Tests play faster than people: no per-address limit on loopback, and all-bot tables at
the bot delay they ask for, unless a test's ``env`` says otherwise
(tests/server/test_limits.py sets ``PYRAMIDS_EXEMPT`` to "")."""


class LiveServer(ServeProcess):
    """One server subprocess on a fixed database; restartable (each start on a new port,
    its standard error in a file of its own)."""

    def __init__(self, db_url: str, data_dir: Path, env: dict[str, str] | None = None) -> None:
        args = ["--db", db_url, "--data-dir", str(data_dir)]
        super().__init__(args, data_dir / "server-0.stderr", {**TEST_LIMITS, **(env or {})})
        self.db_url = db_url
        self.data_dir = data_dir
        self.starts = 0

    def start(self, timeout: float = START_TIMEOUT) -> None:
        """Start the server (again) on the same database and wait until it accepts connections."""
        self.starts += 1
        self.stderr_path = self.data_dir / f"server-{self.starts}.stderr"
        super().start(timeout)


@contextmanager
def live_server(
    db_url: str | None = None, env: dict[str, str] | None = None
) -> Iterator[LiveServer]:
    """Run a server on `db_url` (a fresh SQLite file when None) for the block; stop it after."""
    with tempfile.TemporaryDirectory(prefix="pyramids-live-") as tmp:
        data_dir = Path(tmp)
        url = db_url or f"sqlite:///{data_dir / 'pyramids.db'}"
        server = LiveServer(url, data_dir, env)
        server.start()
        try:
            yield server
        finally:
            server.stop()
