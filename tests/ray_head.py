"""A private Ray head on this machine, for the Ray tests and ``bench/ray_throughput.py``.

``ray start --head`` of this venv with its own ports and temp dir, no dashboard and no token
authentication (whatever ``~/.ray/auth_token`` holds), in its own process group, which is
killed at the end: never ``ray stop``, which stops every Ray of the machine.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

WARM_UP = "import sys, ray; ray.init(sys.argv[1], logging_level=40); ray.shutdown()"


class HeadError(RuntimeError):
    """The head did not start, or no Ray Client could connect to it."""


def ray_executable() -> Path | None:
    """The venv's ``ray`` command, None when Ray is not installed."""
    exe = Path(sys.executable).with_name("ray")
    return exe if exe.exists() and shutil.which(str(exe)) else None


def free_port() -> int:
    """A TCP port nobody listens on (now)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def ray_head(cpus: int, object_store_mb: int = 100) -> Iterator[str]:
    """A Ray head with ``cpus`` CPUs while the block runs; its Ray Client address
    (``ray://127.0.0.1:PORT``), already connected to once. HeadError if it fails."""
    exe = ray_executable()
    if exe is None:
        raise HeadError("Ray is not installed in this venv (pip install 'pyramids[ray]')")
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # short: Ray's socket paths must fit
    client = free_port()
    args = [
        str(exe), "start", "--head", "--node-ip-address=127.0.0.1",
        f"--port={free_port()}", f"--ray-client-server-port={client}",
        f"--dashboard-agent-listen-port={free_port()}", f"--dashboard-agent-grpc-port={free_port()}",
        f"--runtime-env-agent-port={free_port()}", f"--metrics-export-port={free_port()}",
        f"--node-manager-port={free_port()}", f"--object-manager-port={free_port()}",
        f"--num-cpus={cpus}", "--include-dashboard=false", "--disable-usage-stats",
        f"--object-store-memory={object_store_mb * 1024 * 1024}", f"--temp-dir={temp}",
    ]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    env["RAY_AUTH_MODE"] = "disabled"
    started = subprocess.Popen(
        args,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group: the head's processes, killed below
    )
    try:
        out, _ = started.communicate(timeout=120)
        if started.returncode != 0:
            raise HeadError(f"ray start failed:\n{out[-2000:]}")
        address = f"ray://127.0.0.1:{client}"
        _first_client(address, env)
        yield address
    finally:
        _kill_group(started.pid)
        shutil.rmtree(temp, ignore_errors=True)


def _first_client(address: str, env: dict[str, str]) -> None:
    """Connect once in a subprocess, retried: the first Ray Client of a new head sometimes
    finds its per-client server dead at start (Ray 2.60 here) and learns it after 40 s."""
    for _ in range(5):
        try:
            subprocess.run(
                [sys.executable, "-c", WARM_UP, address],
                env=env,
                timeout=15,
                check=True,
                capture_output=True,
            )
        except (subprocess.TimeoutExpired, subprocess.CalledProcessError):
            continue
        return
    raise HeadError(f"no Ray Client connection to {address} in 5 tries")


def _kill_group(group: int) -> None:
    """SIGTERM to the head's process group, SIGKILL to what is left after a few seconds."""
    for sig, wait in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 0.0)):
        try:
            os.killpg(group, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                os.killpg(group, 0)
            except ProcessLookupError:
                return
            time.sleep(0.2)  # a process group that is not our child has no exit event: poll
