"""A cluster on this machine for tests and benchmarks: scripts/cluster.sh driven from Python.

:class:`Cluster` runs ``scripts/cluster.sh start|stop|kill|restart|status`` on a directory
of its own: a throwaway PostgreSQL, N ``pyramids serve`` instances (``i1`` … ``iN``) on
one database, and HAProxy in front of them on 127.0.0.1 (docs/DEPLOY.md). The script owns
the processes; this class only runs it and reads what it writes (``cluster.env``, the pid
files, the logs), so a test and a person at a shell see the same cluster.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType

REPO_ROOT = Path(__file__).resolve().parents[2]
SCRIPT = REPO_ROOT / "scripts" / "cluster.sh"
HAPROXY = Path("/usr/sbin/haproxy")
POSTGRES_ROOT = Path("/usr/lib/postgresql")
SCRIPT_TIMEOUT = 240.0
"""Seconds one script run may take: a start waits up to 60 s for each of its stages."""


class ClusterError(RuntimeError):
    """scripts/cluster.sh refused (exit status 2) or failed (1); the message is its own."""

    def __init__(self, command: Sequence[str], status: int, output: str) -> None:
        super().__init__(f"`{shlex.join(command)}` exited with status {status}:\n{output}")
        self.status = status
        self.output = output


def missing_services() -> str | None:
    """Why no cluster can run here (HAProxy or PostgreSQL not installed), or None."""
    if not HAPROXY.exists():
        return f"{HAPROXY} is not installed (apt-get install haproxy)"
    if not any(POSTGRES_ROOT.glob("*/bin/initdb")):
        return f"no PostgreSQL server in {POSTGRES_ROOT} (apt-get install postgresql)"
    return None


def is_process_alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie does not: nothing may reap the instances)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's (PostgreSQL's, when we are not root)
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True  # no /proc here: kill's answer is all there is
    return stat.rpartition(")")[2].split()[0] != "Z"


def read_env_file(path: Path) -> dict[str, str]:
    """The ``NAME=VALUE`` lines of ``cluster.env`` (values as bash's ``printf %q`` wrote them)."""
    values: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        name, sep, value = line.partition("=")
        if sep:
            words = shlex.split(value)
            values[name] = words[0] if words else ""
    return values


class Cluster:
    """PostgreSQL, ``instances`` servers and HAProxy on 127.0.0.1, run by scripts/cluster.sh
    in ``directory``; the balancer on ``port`` (0: a free port, known after ``start()``)."""

    def __init__(
        self,
        directory: Path,
        port: int = 0,
        instances: int = 3,
        env: Mapping[str, str] | None = None,
        args: Sequence[str] = (),
    ) -> None:
        self.directory = directory
        self.port = port
        self.names = [f"i{k}" for k in range(1, instances + 1)]
        """The instances' names, ``i1`` … ``iN`` (also their ``X-Pyramids-Instance``)."""
        self.env = {
            "PYTHON": sys.executable,
            "INSTANCES": str(instances),
            "PYRAMIDS_CLUSTER_ARGS": shlex.join(args),
            **(env or {}),
        }
        """What the script (and so every instance) gets on top of this process's environment."""
        self.db_url = ""
        self.instance_ports: dict[str, int] = {}

    # --- addresses -----------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The balancer's address, ``http://127.0.0.1:PORT`` (no trailing slash)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """The balancer's address for WebSockets, ``ws://127.0.0.1:PORT``."""
        return f"ws://127.0.0.1:{self.port}"

    def instance_url(self, name: str) -> str:
        """Instance ``name``'s own address, past the balancer."""
        return f"http://127.0.0.1:{self.instance_ports[name]}"

    # --- the script ----------------------------------------------------------------------------

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """``scripts/cluster.sh ARGS`` (its DIR argument is ours); ClusterError when it exits
        non-zero and ``check``. Standard output and error are read together."""
        command = ["bash", str(SCRIPT), *args]
        done = subprocess.run(
            command,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            env={**os.environ, **self.env},
            timeout=SCRIPT_TIMEOUT,
            check=False,
        )
        if check and done.returncode != 0:
            raise ClusterError(command, done.returncode, done.stdout + done.stderr)
        return done

    def start(self) -> None:
        """Start everything and wait until the balancer answers; ClusterError if refused."""
        self.run("start", str(self.directory), str(self.port))
        values = read_env_file(self.directory / "cluster.env")
        self.port = int(values["PORT"])
        self.db_url = values["DB_URL"]
        self.instance_ports = {name: int(values[f"INSTANCE_{name}_PORT"]) for name in self.names}

    def stop(self) -> None:
        """End every process of the cluster (fine when nothing runs)."""
        self.run("stop", str(self.directory))

    def kill(self, name: str) -> None:
        """SIGKILL one process (``i1``…, ``postgres`` or ``balancer``), as a crash does."""
        self.run("kill", str(self.directory), name)

    def restart(self, name: str) -> None:
        """Start ``name`` again on its port; returns once it serves (an instance: once the
        balancer sends it requests again)."""
        self.run("restart", str(self.directory), name)

    def status(self) -> dict[str, str]:
        """Each process's line of ``scripts/cluster.sh status`` by name, without the name
        (``running  pid 123  port 456 balancer UP``)."""
        done = self.run("status", str(self.directory), check=False)
        lines = (line.split(None, 1) for line in done.stdout.splitlines() if line.strip())
        return {words[0]: " ".join(words[1].split()) for words in lines if len(words) == 2}

    # --- its files -----------------------------------------------------------------------------

    def pid(self, name: str) -> int | None:
        """The process id in ``pids/NAME.pid`` (alive or not), or None without the file."""
        try:
            return int((self.directory / "pids" / f"{name}.pid").read_text().strip())
        except (OSError, ValueError):
            return None

    def is_running(self, name: str) -> bool:
        """Whether ``name``'s pid file names a live process."""
        pid = self.pid(name)
        return pid is not None and is_process_alive(pid)

    def log_path(self, name: str) -> Path:
        """Where ``name`` writes its log (``logs/NAME.log``)."""
        return self.directory / "logs" / f"{name}.log"

    def log(self, name: str, tail: int = 40) -> str:
        """The last ``tail`` lines of ``name``'s log (for a failing test's message)."""
        try:
            text = self.log_path(name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-tail:])

    # --- with ----------------------------------------------------------------------------------

    def __enter__(self) -> Cluster:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
