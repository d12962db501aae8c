"""Chunks of games as Ray tasks: the ``--cluster`` side of ``parallel.play_chunks`` (docs/RAY.md).

Ray is an optional extra (``pip install 'pyramids[ray]'``) and is imported only here and
only when a cluster is asked for. Two spellings: ``ray://HOST:PORT`` (the Ray Client port of
the cluster's head, 10001 by default) and ``auto`` (``ray.init()``: ``$RAY_ADDRESS`` when set,
else the Ray instance ``ray start`` began on this machine, else a new local instance for this
run, stopped at the end). The chunks are the ones a local run would play; each task plays its
chunk on the engine its work names (``SimConfig.engine``, a value) with the driver's
``PYRAMIDS_GAMES`` (and the caller's ``environ``), and returns what its worker runs (pyramids version, rules versions, engine) next
to its results, so that a node with another installation is refused instead of mixing its
games in. Every failure is a ``ClusterError`` with a one-line message.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import ipaddress
import logging
import os
import pickle
import re
import socket
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import ModuleType
from typing import Any, TypeVar
from urllib.parse import urlsplit

import pyramids

C = TypeVar("C")
R = TypeVar("R")

AUTO = "auto"
SCHEME = "ray://"
CLIENT_PORT = 10001
"""The Ray Client server's default port on the head (``ray start --ray-client-server-port``)."""
RAY_MISSING = "--cluster needs Ray: pip install 'pyramids[ray]'"
CLIENT_MISSING = "--cluster ray://… needs the Ray Client: pip install 'pyramids[ray]'"
FORWARDED = ("PYRAMIDS_GAMES",)
"""The driver's variables every task sees as the driver has them (unset: empty): the added
games (``pyramids.games.ENV_VAR``). The engine choice travels with the work, as a value
(``SimConfig.engine``), never through the environment.
A task sets them before it imports the registry, so this module imports it only in functions."""
REACH_SECONDS = 5.0
"""How long to wait for a TCP connection to a ``ray://`` address before saying it is unreachable."""


class ClusterError(RuntimeError):
    """The cluster cannot be used or a task on it failed; the message is one line."""


# --- the address ---------------------------------------------------------------------------


_HOST_PORT = re.compile(r"(\[[0-9a-fA-F:.]+\]|[^:/\s\[\]]+):\d+")


def check_address(cluster: str) -> str:
    """``cluster`` spelled canonically (``auto`` or ``ray://HOST:PORT``); ClusterError if not."""
    text = cluster.strip()
    if text.lower() == AUTO:
        return AUTO
    if not text.lower().startswith(SCHEME):
        if _HOST_PORT.fullmatch(text):
            raise ClusterError(
                f"--cluster {text}: write ray://{text} for a cluster's Ray Client port "
                f"({CLIENT_PORT} by default) or auto for the Ray instance on this machine"
            )
        raise ClusterError(f"--cluster {text!r}: give ray://HOST:PORT or auto")
    parts = urlsplit(text)
    try:
        port = parts.port
    except ValueError:
        port = -1
    host = parts.hostname
    if (
        not host
        or port is None
        or not 0 < port < 65536
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username is not None
        or not _is_host(host)
    ):
        raise ClusterError(f"--cluster {text!r}: give ray://HOST:PORT (e.g. ray://10.0.0.5:10001)")
    shown = f"[{host}]" if ":" in host else host
    return f"{SCHEME}{shown}:{port}"


def _is_host(host: str) -> bool:
    """An IP address or a DNS name (letters, digits, hyphens and dots)."""
    with contextlib.suppress(ValueError):
        ipaddress.ip_address(host)
        return True
    labels = host.rstrip(".").split(".")
    return all(
        0 < len(label) < 64
        and label[0] != "-"
        and label[-1] != "-"
        and all(ch.isascii() and (ch.isalnum() or ch == "-") for ch in label)
        for label in labels
    )


def import_ray(address: str = AUTO) -> ModuleType:
    """The ``ray`` module; ClusterError without it (or without its client for ``ray://``)."""
    try:
        ray = importlib.import_module("ray")
    except ImportError:
        raise ClusterError(RAY_MISSING) from None
    if address.startswith(SCHEME) and importlib.util.find_spec("grpc") is None:
        raise ClusterError(CLIENT_MISSING)
    return ray


# --- what a worker runs --------------------------------------------------------------------


def installation() -> dict[str, Any]:
    """What this process plays with: pyramids' version, each game's rules version and engine."""
    # imported here, not at the top: a task sets FORWARDED before the registry loads
    from pyramids.games import descriptor, engine_for, names
    from pyramids.games.engine import EngineError

    games: dict[str, str] = {}
    for name in names():
        desc = descriptor(name)
        try:
            played = engine_for(desc)
        except EngineError as exc:
            played = f"unavailable ({exc})"
        games[name] = f"{desc.info.rules_version} on {played}"
    return {"pyramids": pyramids.__version__, "games": games}


def _play_task(
    work: bytes, indices: Sequence[int], environ: Mapping[str, str]
) -> tuple[dict[str, Any], list[Any]]:
    """One Ray task: the driver's variables, then the chunk; what this worker runs, and the results.

    ``work`` is ``(play_chunk, config)`` pickled by the driver and unpickled here, in the
    worker, so that a worker missing a module fails this task with ModuleNotFoundError
    (Ray Client would otherwise drop the connection).
    """
    os.environ.update(environ)
    play_chunk, config = pickle.loads(work)
    return installation(), play_chunk(config, indices)


def worker_environ(environ: Mapping[str, str] | None) -> dict[str, str]:
    """The variables of every task: the driver's ``FORWARDED`` ones, then ``environ``."""
    env = {name: os.environ.get(name, "") for name in FORWARDED}
    env.update(environ or {})
    return env


@contextlib.contextmanager
def _applied(environ: Mapping[str, str]) -> Iterator[None]:
    """This process's environment with ``environ`` on top, for as long as the block runs."""
    saved = {name: os.environ.get(name) for name in environ}
    os.environ.update(environ)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _differences(driver: Mapping[str, Any], worker: Mapping[str, Any]) -> str:
    """What differs between two ``installation()`` dicts, in words."""
    if driver["pyramids"] != worker["pyramids"]:
        return f"pyramids {worker['pyramids']} (this process: {driver['pyramids']})"
    theirs, ours = worker["games"], driver["games"]
    diffs = [
        f"{name} {theirs.get(name, 'missing')} (this process: {ours.get(name, 'missing')})"
        for name in sorted(set(theirs) | set(ours))
        if theirs.get(name) != ours.get(name)
    ]
    return "; ".join(diffs)


# --- connecting -------------------------------------------------------------------------------


def _check_reachable(address: str) -> None:
    """A TCP connection to a ``ray://`` address, so that a wrong one fails at once (Ray Client
    retries for 30 s)."""
    parts = urlsplit(address)
    host, port = parts.hostname or "", parts.port or CLIENT_PORT
    try:
        with socket.create_connection((host, port), timeout=REACH_SECONDS):
            pass
    except socket.gaierror:
        raise ClusterError(f"cannot reach {address}: unknown host {host}") from None
    except OSError as exc:
        why = exc.strerror or str(exc) or type(exc).__name__
        raise ClusterError(
            f"cannot reach {address}: {why.lower()} (is `ray start --head` running there, "
            f"with its Ray Client port {port} open?)"
        ) from None


def _first_line(exc: BaseException) -> str:
    """The first non-empty line of an exception's message (or its type's name)."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


CONNECT_ATTEMPTS = 3
"""How many times ``connect`` asks a head whose Ray Client server fails as it starts."""


def connect(ray: ModuleType, address: str) -> None:
    """``ray.init`` for ``address``; ClusterError if it fails.

    No job ``runtime_env``: each task sets its variables itself (``_play_task``), which also
    spares the runtime-environment agent a round trip. Ray Client's per-client server on the
    head sometimes dies as it starts (seen with Ray 2.60 on a new head's first client; the
    client hears of it after ~40 s; seen twice in a row on a loaded 2-core machine): that
    failure is tried up to ``CONNECT_ATTEMPTS`` times in all.
    """
    if ray.is_initialized():
        raise ClusterError(
            "Ray is already initialized in this process: --cluster connects by itself "
            "(call ray.shutdown() first)"
        )
    if address.startswith(SCHEME):
        _check_reachable(address)
    target = address if address.startswith(SCHEME) else None
    for attempt in range(1, CONNECT_ATTEMPTS + 1):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ray.init(target, logging_level=logging.ERROR, log_to_driver=False)
            return
        except Exception as exc:
            with contextlib.suppress(Exception):
                ray.shutdown()
            why = _first_line(exc)
            if attempt < CONNECT_ATTEMPTS and why.startswith("Initialization failure from server"):
                continue
            if "timeout" in why and address.startswith(SCHEME):
                why += (
                    " (is this the head's Ray Client port? a cluster with token "
                    "authentication needs RAY_AUTH_MODE=token and its token here: docs/RAY.md)"
                )
            raise ClusterError(f"cannot connect to the Ray cluster {address}: {why}") from None


# --- running ---------------------------------------------------------------------------------


RECONNECTS = 2
"""How many times a run whose Ray Client connection drops connects again and goes on with
the chunks not yet back (Ray Client's data channel sometimes drops under load)."""
STALL_SECONDS = 60.0
"""How long one call to the cluster (a put, a submission, a wait of ``POLL_SECONDS``, a get of
finished chunks) may go unanswered before the connection counts as lost. Ray Client has no
timeout of its own: a request its data channel lost waits forever (seen under load)."""
POLL_SECONDS = 1.0
"""How long one wait for a finished chunk lasts, so that no call waits on a slow game."""
_NO_MODULE = re.compile(r"No module named '([^']+)'")
_FORGOTTEN = re.compile(r"ClientObjectRef .* is not found for client", re.DOTALL)
"""Ray Client's error for a reference the head no longer knows (``ray.util.client.server``)."""


def _missing_module(exc: BaseException) -> ClusterError | None:
    """The ClusterError of a node that cannot import a module ``exc`` names, if it names one."""
    cause = getattr(exc, "cause", None)
    name = getattr(cause, "name", None) if isinstance(cause, ModuleNotFoundError) else None
    found = _NO_MODULE.search(str(exc))
    name = name or (found.group(1) if found else None)
    if name is None:
        return None
    return ClusterError(
        f"a Ray node cannot import {name}: install pyramids {pyramids.__version__} (the same "
        "wheel, and any package a game comes from) on every node of the cluster (docs/RAY.md)"
    )


def _failure(ray: ModuleType, exc: Exception) -> ClusterError:
    """The one-line ClusterError of a task that failed with ``exc``."""
    missing = _missing_module(exc)
    if missing is not None:
        return missing
    cause = getattr(exc, "cause", None)
    if isinstance(exc, ray.exceptions.RayTaskError):
        text = (
            _first_line(exc) if cause is None else f"{type(cause).__name__}: {_first_line(cause)}"
        )
        return ClusterError(f"a game task failed on the cluster: {text}")
    return ClusterError(f"the cluster lost a task: {_first_line(exc)}")


class _Watchdog:
    """Drops a Ray Client connection one of whose calls went unanswered ``STALL_SECONDS``.

    ``with dog.call():`` around each call to the cluster. A thread checks the running
    call's deadline; past it, it marks the client as shutting down (so it does not try to
    reconnect by itself) and closes its gRPC channel, which ends the call with an error the
    block turns into ConnectionError: ``play_on_cluster`` connects again and goes on. On a
    local Ray (``auto``, no client) there is no channel to lose and no thread is started.
    """

    def __init__(self, ray: ModuleType) -> None:
        self._worker = _client_worker(ray)
        self._deadline: float | None = None
        self._fired = False
        self._done = threading.Event()
        self._lock = threading.Lock()
        if self._worker is not None:
            threading.Thread(target=self._watch, name="ray-watchdog", daemon=True).start()

    def _watch(self) -> None:
        while not self._done.wait(min(1.0, STALL_SECONDS / 4)):
            with self._lock:
                late = self._deadline is not None and time.monotonic() > self._deadline
                if late:
                    self._fired = True
            if late:
                self._drop()
                return

    def _drop(self) -> None:
        """Close the client's channel: every call on it ends with an error."""
        worker = self._worker
        with contextlib.suppress(Exception):
            worker._in_shutdown = True
            channel = worker.channel
            if channel is not None:
                channel.close()

    @contextlib.contextmanager
    def call(self) -> Iterator[None]:
        """The block is one call to the cluster; ConnectionError if the watchdog dropped it."""
        if self._worker is None:
            yield
            return
        with self._lock:
            if self._fired:
                raise self._stalled()
            self._deadline = time.monotonic() + STALL_SECONDS
        try:
            yield
        except Exception as exc:
            if self._fired:
                raise self._stalled() from exc
            if self._lost(exc):
                raise ConnectionError(f"the Ray cluster connection was lost: {exc}") from exc
            raise
        finally:
            with self._lock:
                self._deadline = None
        if self._fired:  # it answered just as the watchdog dropped it
            raise self._stalled()

    def _lost(self, exc: Exception) -> bool:
        """Whether ``exc`` means the connection is gone rather than that the call failed.

        Either the client gave its connection up (``_in_shutdown``: its data channel failed
        for good), or the head did: it forgot the client's objects, and a call ends with Ray's
        "ClientObjectRef … is not found for client" (every reference the run holds came from
        that head, so only a lost session explains it). Loaded runs of the suite saw the
        second with neither flag set: the client noticed nothing until the run shut it down.
        """
        if _FORGOTTEN.search(str(exc)):
            return True
        worker = self._worker
        data = getattr(worker, "data_client", None)
        return bool(getattr(worker, "_in_shutdown", False) or getattr(data, "_in_shutdown", False))

    @staticmethod
    def _stalled() -> ConnectionError:
        return ConnectionError(f"the Ray cluster did not answer for {STALL_SECONDS:g} s")

    def stop(self) -> None:
        """No more calls: the thread ends."""
        self._done.set()


def _client_worker(ray: ModuleType) -> Any:
    """This thread's Ray Client worker (its gRPC channel and state), None without a client."""
    try:
        context = ray.util.client.ray.get_context()
    except AttributeError:
        return None
    worker = getattr(context, "client_worker", None)
    return worker if worker is not None and hasattr(worker, "channel") else None


def play_on_cluster(
    play_chunk: Callable[[C, Sequence[int]], list[R]],
    config: C,
    plan: Callable[[int], list[range]],
    jobs: int,
    cluster: str,
    *,
    on_progress: Callable[[int], None] | None = None,
    environ: Mapping[str, str] | None = None,
) -> list[R]:
    """``play_chunk(config, chunk)`` for every chunk of ``plan(width)`` as Ray tasks; results in
    chunk order.

    ``width`` is ``jobs``, at most that many tasks running at once; ``jobs`` 0: the cluster's
    CPU count when connected, every task submitted at once (Ray queues them). Each task asks
    for one CPU. ``on_progress`` gets each chunk's game count as it finishes. Disconnects at
    the end, also on error or interruption.
    """
    address = check_address(cluster)
    ray = import_ray(address)
    env = worker_environ(environ)
    with _applied(env):
        expected = installation()
    work: list[range] | None = None
    by_chunk: dict[int, list[R]] = {}
    for attempt in range(RECONNECTS + 1):
        connect(ray, address)
        dog = _Watchdog(ray)
        try:
            if work is None:
                with dog.call():
                    cpus = int(ray.cluster_resources().get("CPU", 0))
                if cpus < 1:
                    raise ClusterError(f"the Ray cluster {address} has no CPU to play on")
                work = plan(jobs if jobs > 0 else cpus)
            with dog.call():
                shared = ray.put(pickle.dumps((play_chunk, config)))
            _play_connected(
                ray,
                dog,
                shared,
                work=work,
                jobs=jobs,
                by_chunk=by_chunk,
                env=env,
                expected=expected,
                on_progress=on_progress,
            )
            return [r for i in range(len(work)) for r in by_chunk[i]]
        except ConnectionError as exc:
            missing = _missing_module(exc)
            if missing is not None:
                raise missing from None
            if attempt == RECONNECTS:
                raise ClusterError(
                    f"lost the connection to the Ray cluster {address} "
                    f"({RECONNECTS + 1} times): {_first_line(exc)}"
                ) from None
            # a chunk's games depend only on its indices: the ones not back yet are played
            # again on a new connection, and the results stay those of a local run
        finally:
            dog.stop()
            with contextlib.suppress(Exception):
                ray.shutdown()
    raise AssertionError("unreachable")  # the last attempt returns or raises


def _play_connected(
    ray: ModuleType,
    dog: _Watchdog,
    shared: Any,
    *,
    work: Sequence[range],
    jobs: int,
    by_chunk: dict[int, list[R]],
    env: Mapping[str, str],
    expected: Mapping[str, Any],
    on_progress: Callable[[int], None] | None,
) -> None:
    """On one connection, the chunks of ``work`` not in ``by_chunk`` yet, into ``by_chunk``
    (``jobs`` tasks at once, 0: all); the ones still queued are cancelled if it fails."""
    left = [(i, chunk) for i, chunk in enumerate(work) if i not in by_chunk]
    most = jobs if jobs > 0 else len(left)
    task = ray.remote(num_cpus=1)(_play_task)
    queue = iter(left)
    pending: dict[Any, int] = {}

    def submit() -> None:
        step = next(queue, None)
        if step is not None:
            with dog.call():
                pending[task.remote(shared, step[1], env)] = step[0]

    try:
        for _ in range(most):
            submit()
        while pending:
            # one chunk done, then every chunk done by now in one get (Ray Client pays a
            # round trip of ~5 ms per call) rather than a wait and a get per chunk; each
            # wait is short, so that a call that takes long means a lost connection
            with dog.call():
                first, _ = ray.wait(list(pending), num_returns=1, timeout=POLL_SECONDS)
            if not first:
                continue
            try:
                with dog.call():
                    done, _ = ray.wait(list(pending), num_returns=len(pending), timeout=0)
                    values = ray.get(done)
            except ray.exceptions.RayError as exc:
                raise _failure(ray, exc) from None
            for ref, (worker, results) in zip(done, values, strict=True):
                if worker != expected:
                    raise ClusterError(
                        "a Ray worker plays with another installation: "
                        f"{_differences(expected, worker)}; install the same pyramids wheel "
                        "on every node (docs/RAY.md)"
                    )
                by_chunk[pending.pop(ref)] = results
                if on_progress is not None:
                    on_progress(len(results))
                submit()
    finally:
        for ref in pending:
            with contextlib.suppress(Exception):
                ray.cancel(ref)
