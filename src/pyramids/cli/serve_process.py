"""A `pyramids serve` child process, as tests, benchmarks and scripts start one.

:class:`ServeProcess` runs ``python -m pyramids.cli.main serve --port 0 ARGS`` in its own
process group (so that a signal reaches its search workers too), reads its standard
output until it prints :data:`~pyramids.cli.serve_cmd.READY_LINE`, and knows the address
from it. Its standard error goes to a file, shown when it fails to start.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from typing import IO

SERVING_RE = re.compile(r"^pyramids: serving on (http://\S+?)/?\s*$")
"""The line ``pyramids serve`` prints once it accepts connections (``serve_cmd.READY_LINE``)."""
START_TIMEOUT = 60.0
"""Seconds a start may take: migrations and a cold import on a busy machine."""
STOP_TIMEOUT = 15.0
"""Seconds a SIGTERM may take before the process group gets a SIGKILL."""


class ServeError(RuntimeError):
    """The server process did not start."""


class ServeProcess:
    """One ``pyramids serve`` process on a free port; ``start()`` again after a stop."""

    def __init__(
        self, args: Sequence[str], stderr_path: Path, env: Mapping[str, str] | None = None
    ) -> None:
        self.args = list(args)
        """Arguments after ``serve --port 0`` (``--db``, ``--data-dir``, ``--limit`` ...)."""
        self.stderr_path = stderr_path
        self.env = dict(env or {})
        """Variables set for the process on top of this one's environment."""
        self.url = ""
        self.ws_url = ""
        self.port = 0
        self.proc: subprocess.Popen[str] | None = None
        self._stderr: IO[str] | None = None

    @property
    def pid(self) -> int | None:
        """The process id of the running server, or None."""
        return self.proc.pid if self.proc is not None and self.proc.poll() is None else None

    def is_running(self) -> bool:
        """Whether the server process is alive."""
        return self.proc is not None and self.proc.poll() is None

    def start(self, timeout: float = START_TIMEOUT) -> None:
        """Start the server and wait until it accepts connections; ServeError if it exits
        or says nothing within ``timeout`` seconds (its standard error in the message)."""
        if self.is_running():
            raise ServeError("the server is already running")
        self._stderr = self.stderr_path.open("w+", encoding="utf-8")
        cmd = [sys.executable, "-m", "pyramids.cli.main", "serve", "--port", "0", *self.args]
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **self.env},
            start_new_session=True,
        )
        self.proc = proc
        found: list[str] = []
        ready = threading.Event()

        def pump(stream: IO[str]) -> None:
            # Reads standard output to its end so that the pipe never fills.
            for line in stream:
                match = SERVING_RE.match(line)
                if match and not found:
                    found.append(match.group(1))
                    ready.set()
            ready.set()

        if proc.stdout is None:  # pragma: no cover - a pipe above
            raise ServeError("no standard output to read")
        threading.Thread(target=pump, args=(proc.stdout,), daemon=True).start()
        answered = ready.wait(timeout)
        if not answered or not found:
            if answered:  # its output ended without the line: it is exiting
                with suppress(subprocess.TimeoutExpired):
                    proc.wait(STOP_TIMEOUT)
            alive = proc.poll() is None
            self.kill()
            why = f"did not print its address within {timeout:.0f} s" if alive else "exited"
            raise ServeError(
                f"`{' '.join(cmd)}` {why} (exit status {proc.returncode}); stderr:\n"
                + self.stderr()
            )
        self.url = found[0].rstrip("/")
        self.ws_url = "ws" + self.url.removeprefix("http")
        self.port = int(self.url.rsplit(":", 1)[1])

    def stderr(self) -> str:
        """Everything the current (or last) process wrote to standard error."""
        try:
            return self.stderr_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def stop(self) -> float:
        """SIGTERM, then SIGKILL past STOP_TIMEOUT; the seconds until the process exited."""
        started = time.monotonic()
        self._signal(signal.SIGTERM)
        self._reap()
        return time.monotonic() - started

    def kill(self) -> None:
        """SIGKILL the process group: no shutdown code runs, as in a crash."""
        self._signal(signal.SIGKILL)
        self._reap()

    def _signal(self, sig: signal.Signals) -> None:
        proc = self.proc
        if proc is not None and proc.poll() is None:
            with suppress(ProcessLookupError):
                os.killpg(proc.pid, sig)

    def _reap(self) -> None:
        proc = self.proc
        if proc is not None:
            try:
                proc.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self._signal(signal.SIGKILL)
                proc.wait(STOP_TIMEOUT)
            if proc.stdout is not None:
                proc.stdout.close()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
