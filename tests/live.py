"""A real `pyramids serve` process for tests: start, SIGKILL, restart on the same database.

`live_server()` runs ``python -m pyramids.cli.main serve --port 0 --db URL`` as a
subprocess (SQLite in a temporary directory unless a URL is given), waits for its
``pyramids: serving on http://HOST:PORT/`` line and yields a `LiveServer`. `kill()` is a
SIGKILL (what a crash or a power cut looks like to the storage); `start()` starts the
server again on the same database, on a new port (read `.url` again afterwards).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO

SERVING_RE = re.compile(r"^pyramids: serving on (http://\S+?)/?\s*$")
START_TIMEOUT = 60.0  # seconds; generous: migrations and a cold import on a busy CI machine
STOP_TIMEOUT = 15.0
TEST_LIMITS = {"PYRAMIDS_EXEMPT": "127.0.0.1,::1", "PYRAMIDS_MIN_ALL_BOT_DELAY": "0"}
"""Tests play faster than people: no per-address limit on loopback, and all-bot tables at
the bot delay they ask for, unless a test's ``env`` says otherwise
(tests/server/test_limits.py sets ``PYRAMIDS_EXEMPT`` to "")."""


class LiveServerError(RuntimeError):
    """The server process did not start or stopped unexpectedly."""


class LiveServer:
    """One server subprocess on a fixed database; restartable."""

    def __init__(self, db_url: str, data_dir: Path, env: dict[str, str] | None = None) -> None:
        self.db_url = db_url
        self.data_dir = data_dir
        self.env = dict(env or {})
        self.url = ""
        self.ws_url = ""
        self.starts = 0
        self._proc: subprocess.Popen[str] | None = None
        self._stderr: IO[str] | None = None
        self._stderr_path: Path | None = None

    @property
    def pid(self) -> int | None:
        """The process id of the running server, or None."""
        return self._proc.pid if self._proc is not None else None

    def is_running(self) -> bool:
        """Whether the server process is alive."""
        return self._proc is not None and self._proc.poll() is None

    def start(self, timeout: float = START_TIMEOUT) -> None:
        """Start the server (again) on the same database and wait until it accepts connections."""
        if self.is_running():
            raise LiveServerError("the server is already running")
        self.starts += 1
        self._stderr_path = self.data_dir / f"server-{self.starts}.stderr"
        self._stderr = self._stderr_path.open("w+", encoding="utf-8")
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **TEST_LIMITS, **self.env}
        cmd = [
            sys.executable,
            "-m",
            "pyramids.cli.main",
            "serve",
            "--port",
            "0",
            "--db",
            self.db_url,
            "--data-dir",
            str(self.data_dir),
        ]
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            env=env,
            start_new_session=True,  # its own process group: kill() reaches any child too
        )
        self._proc = proc
        found: list[str] = []
        ready = threading.Event()

        def pump(stream: IO[str]) -> None:
            # Reads stdout until EOF so the pipe never fills; notes the "serving on" line.
            for line in stream:
                match = SERVING_RE.match(line)
                if match and not found:
                    found.append(match.group(1))
                    ready.set()
            ready.set()

        assert proc.stdout is not None
        threading.Thread(target=pump, args=(proc.stdout,), daemon=True).start()
        if not ready.wait(timeout) or not found:
            alive = proc.poll() is None
            self._kill_group(signal.SIGKILL)
            why = f"did not print its address within {timeout:.0f} s" if alive else "exited"
            raise LiveServerError(
                f"`{' '.join(cmd)}` {why} (exit status {proc.returncode}); stderr:\n"
                + self.stderr()
            )
        self.url = found[0].rstrip("/")
        self.ws_url = "ws" + self.url.removeprefix("http")

    def stderr(self) -> str:
        """Everything the current (or last) server process wrote to stderr."""
        if self._stderr_path is None:
            return ""
        try:
            return self._stderr_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def _kill_group(self, sig: signal.Signals) -> None:
        proc = self._proc
        if proc is None or proc.poll() is not None:
            return
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)

    def _reap(self) -> None:
        if self._proc is not None:
            try:
                self._proc.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self._kill_group(signal.SIGKILL)
                self._proc.wait(STOP_TIMEOUT)
            if self._proc.stdout is not None:
                self._proc.stdout.close()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
        self._proc = None

    def kill(self) -> None:
        """SIGKILL the server: no shutdown code runs, as in a crash."""
        self._kill_group(signal.SIGKILL)
        self._reap()

    def stop(self) -> None:
        """Stop the server politely (SIGTERM), or with SIGKILL if it does not go in time."""
        self._kill_group(signal.SIGTERM)
        self._reap()


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
