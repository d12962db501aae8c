"""`--cluster`: simulate and tournament on a real Ray head give a local run's results.

Game i of a run is seeded ``seed + i`` and seated by i alone, so where a chunk of games
is played cannot change what it returns: the summaries on a Ray cluster equal the local
ones except for the fields that say how long and where (docs/RAY.md). A module fixture
starts a Ray head of this venv (2 CPUs, no dashboard, its own temp dir and ports) and kills
its process group at the end; the address checks and the "Ray missing" message need no head.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

from pyramids.analysis import ray_runner
from pyramids.analysis import simulate as sim
from pyramids.analysis import tournament as tour
from pyramids.analysis.parallel import play_chunks
from pyramids.analysis.ray_runner import ClusterError, check_address
from pyramids.cli.main import app
from pyramids.games import ENV_VAR as GAMES_VAR
from pyramids.games.engine import ENV_VAR as ENGINE_VAR
from tests.ray_head import HeadError, free_port, ray_executable, ray_head

pytestmark = pytest.mark.xdist_group("ray")

runner = CliRunner()
SIM_TIMING = ("seconds", "games_per_s", "jobs", "cluster")


@pytest.fixture(scope="module")
def head() -> Iterator[str]:
    """A Ray head on this machine; its Ray Client address (``ray://127.0.0.1:PORT``)."""
    if ray_executable() is None:
        pytest.skip("Ray is not installed in this venv (pip install 'pyramids[ray]')")
    try:
        with ray_head(cpus=2, object_store_mb=80) as address:
            yield address
    except HeadError as exc:
        pytest.fail(str(exc))


def without(summary: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """The summary less the given top-level keys."""
    return {k: v for k, v in summary.items() if k not in keys}


def tournament_less_timing(report: dict[str, Any]) -> dict[str, Any]:
    """A tournament report less its ``timing`` (clock, jobs, cluster)."""
    return without(report, ("timing",))


# --- without a head -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "canonical"),
    [
        ("auto", "auto"),
        (" AUTO ", "auto"),
        ("ray://127.0.0.1:10001", "ray://127.0.0.1:10001"),
        ("ray://Head.Example.org:10001", "ray://head.example.org:10001"),
        ("RAY://10.0.0.5:1", "ray://10.0.0.5:1"),
        ("ray://[::1]:10001", "ray://[::1]:10001"),
    ],
)
def test_cluster_addresses_are_spelled_canonically(given: str, canonical: str) -> None:
    """`--cluster ray://HOST:PORT` (the Ray Client port) or `auto`."""
    assert check_address(given) == canonical


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("10.0.0.5:10001", "write ray://10.0.0.5:10001"),
        ("[::1]:10001", r"write ray://\[::1\]:10001"),
        ("localhost", "give ray://HOST:PORT or auto"),
        ("ray://10.0.0.5", "give ray://HOST:PORT"),
        ("ray://10.0.0.5:0", "give ray://HOST:PORT"),
        ("ray://10.0.0.5:70000", "give ray://HOST:PORT"),
        ("ray://10.0.0.5:port", "give ray://HOST:PORT"),
        ("ray://:10001", "give ray://HOST:PORT"),
        ("ray://bad_host!:10001", "give ray://HOST:PORT"),
        ("ray://10.0.0.5:10001/path", "give ray://HOST:PORT"),
        ("http://10.0.0.5:10001", "give ray://HOST:PORT or auto"),
    ],
)
def test_bad_cluster_addresses_are_refused_before_connecting(given: str, says: str) -> None:
    """A misspelt address is refused with what to write, before any connection."""
    with pytest.raises(ClusterError, match=says):
        check_address(given)


def test_cli_refuses_a_bad_cluster_address_with_exit_2() -> None:
    """CLI errors are one line on stderr and exit status 2, never a traceback."""
    result = runner.invoke(app, ["simulate", "-n", "2", "--cluster", "10.0.0.5:10001", "-q"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --cluster 10.0.0.5:10001: write ray://10.0.0.5:10001")
    assert result.stdout == ""


def test_without_ray_cluster_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray is an optional extra: without it --cluster says which extra to install."""
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    with pytest.raises(ClusterError, match=r"^--cluster needs Ray: pip install 'pyramids\[ray\]'$"):
        ray_runner.import_ray("auto")
    for command in (["simulate"], ["tournament"]):
        result = runner.invoke(app, [*command, "-n", "2", "--cluster", "auto", "-q"])
        assert result.exit_code == 2, result.output
        assert result.stderr == "error: --cluster needs Ray: pip install 'pyramids[ray]'\n"


def test_unreachable_cluster_is_a_one_line_error() -> None:
    """Nothing listening on the port: refused at once, not after Ray Client's 30 s of retries."""
    port = free_port()
    start = time.monotonic()
    result = runner.invoke(
        app, ["tournament", "-n", "2", "--cluster", f"ray://127.0.0.1:{port}", "-q"]
    )
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: cannot reach ray://127.0.0.1:{port}: ")
    assert result.stderr.count("\n") == 1
    assert time.monotonic() - start < 10


def test_tasks_see_the_engine_and_games_variables_of_the_driver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The variables a local worker would inherit: unset ones are sent empty (their default)."""
    assert GAMES_VAR in ray_runner.FORWARDED
    assert ENGINE_VAR not in ray_runner.FORWARDED  # the engine travels with the work
    monkeypatch.setenv(ENGINE_VAR, "python")
    monkeypatch.delenv(GAMES_VAR, raising=False)
    env = ray_runner.worker_environ({"EXTRA": "1"})
    assert env == {GAMES_VAR: "", "EXTRA": "1"}


def test_jobs_zero_means_the_clusters_cpus_only_on_a_cluster() -> None:
    """`jobs` 0 (the default with --cluster) is refused for a local run."""
    with pytest.raises(ValueError, match="--jobs must be at least 1"):
        sim.check_config(sim.SimConfig(games=2, jobs=0))
    sim.check_config(sim.SimConfig(games=2, jobs=0, cluster="auto"))


# --- on a head ------------------------------------------------------------------------------


def test_simulate_on_the_cluster_equals_the_local_run(head: str) -> None:
    """The CLI end to end: same summary as a local run except time, jobs and cluster."""
    args = ["simulate", "-n", "12", "--players", "3", "--bots", "greedy,random", "--seed", "7"]
    args += ["--callout", "family", "-q"]
    local = runner.invoke(app, [*args, "--jobs", "1"])
    remote = runner.invoke(app, [*args, "--cluster", head])
    assert local.exit_code == 0, local.output
    assert remote.exit_code == 0, remote.output
    here, there = json.loads(local.stdout), json.loads(remote.stdout)
    assert there["cluster"] == head and there["jobs"] == 0
    assert "cluster" not in here
    assert without(there, SIM_TIMING) == without(here, SIM_TIMING)


def test_simulate_flags_on_the_cluster_equals_the_local_run(head: str) -> None:
    """Pyramids and Flags too, with `jobs` 1: one task at a time, four chunks of two games."""
    config = sim.SimConfig(game="flags", players=2, bots=("greedy", "random"), seed=3, games=8)
    local = sim.simulate(config)
    remote = sim.simulate(replace(config, jobs=1, cluster=head))
    assert without(remote, SIM_TIMING) == without(local, SIM_TIMING)


def test_tournament_on_the_cluster_equals_the_local_run(head: str, tmp_path: Path) -> None:
    """The CLI end to end: the JSON report less `timing`, and the Markdown less its time line."""
    args = ["tournament", "-n", "6", "--bots", "greedy,random,careless", "--seed", "2", "-q"]
    reports = []
    for where, extra in (("local", ["--jobs", "1"]), ("remote", ["--cluster", head])):
        path = tmp_path / f"{where}.json"
        result = runner.invoke(app, [*args, *extra, "--out-json", str(path)])
        assert result.exit_code == 0, result.output
        reports.append((json.loads(path.read_text()), result.stdout))
    (here, here_md), (there, there_md) = reports
    assert there["timing"]["cluster"] == head
    assert tournament_less_timing(there) == tournament_less_timing(here)
    assert f"on the Ray cluster {head} (one task per CPU)" in there_md

    def untimed(md: str) -> list[str]:
        return [line for line in md.splitlines() if not line.startswith(("- time:", "| "))]

    assert untimed(there_md) == untimed(here_md)


def test_tournament_flags_on_the_cluster_on_python_engine(head: str) -> None:
    """`environ` reaches the workers: with engine python they report python, as this process."""
    config = tour.TournamentConfig(
        game="flags", bots=("greedy", "random"), games=4, seed=5, engine="python"
    )
    local = tour.run_tournament(config)
    remote = tour.run_tournament(replace(config, cluster=head))
    assert local["engine"] == "python"
    assert tournament_less_timing(remote) == tournament_less_timing(local)


def test_analyse_on_the_cluster_equals_the_local_run(head: str, tmp_path: Path) -> None:
    """`pyramids analyse`: the same analysis.json, games.jsonl and charts but for time and place."""
    args = ["analyse", "--game", "flaming", "-p", "2,3", "-n", "3", "--seed", "4", "-q"]
    local = runner.invoke(app, [*args, "--jobs", "1", "--out", str(tmp_path / "here")])
    remote = runner.invoke(app, [*args, "--cluster", head, "--out", str(tmp_path / "there")])
    assert local.exit_code == 0, local.output
    assert remote.exit_code == 0, remote.output
    here, there = (
        json.loads((tmp_path / d / "analysis.json").read_text()) for d in ("here", "there")
    )
    assert there["cluster"] == head and there["jobs"] == 0 and here["cluster"] is None
    volatile = ("created", "seconds", "command", "jobs", "cluster")
    assert without(there, volatile) == without(here, volatile)
    assert (tmp_path / "here" / "games.jsonl").read_text() == (
        tmp_path / "there" / "games.jsonl"
    ).read_text()


def test_a_dropped_connection_reconnects_and_plays_the_rest(
    head: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ray Client's data channel can drop under load: the run connects again, plays the
    chunks not back yet, and its results are still the local run's."""
    import ray

    real_get = ray.get
    calls = {"n": 0}

    def dropping_get(refs: Any, *args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 2:  # one chunk is back, the others are lost with the connection
            raise ConnectionError(
                "Request can't be sent because the Ray client has already been disconnected"
            )
        return real_get(refs, *args, **kwargs)

    monkeypatch.setattr(ray, "get", dropping_get)
    config = sim.SimConfig(game="flaming", players=3, bots=("greedy", "random"), seed=5, games=12)
    local = sim.simulate(config)
    remote = sim.simulate(replace(config, jobs=1, cluster=head))
    assert calls["n"] > 2
    assert without(remote, SIM_TIMING) == without(local, SIM_TIMING)


def test_a_connection_that_keeps_dropping_is_a_one_line_error(
    head: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ray

    def always_dropping(*_args: Any, **_kwargs: Any) -> Any:
        raise ConnectionError("the data channel is gone")

    monkeypatch.setattr(ray, "get", always_dropping)
    with pytest.raises(
        ClusterError, match=r"^lost the connection to the Ray cluster .* \(3 times\)"
    ):
        play_chunks(
            sim._play_chunk, sim.SimConfig(games=2), 2, 1, per_job=1, at_most=1, cluster=head
        )


def test_a_failing_task_is_a_one_line_cluster_error(head: str) -> None:
    """An error inside a game names its type and message, without the remote traceback."""
    bad = sim.SimConfig(bots=("nosuchbot",), games=4)
    with pytest.raises(ClusterError, match=r"^a game task failed on the cluster: ValueError: "):
        play_chunks(sim._play_chunk, bad, 4, 2, per_job=1, at_most=2, cluster=head)


def test_a_worker_without_the_code_is_refused(
    head: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chunk function the workers cannot import (as on a node without pyramids) says so."""
    (tmp_path / "only_here.py").write_text(
        "def play(config, indices):\n    return list(indices)\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import only_here

    with pytest.raises(ClusterError, match=r"^a Ray node cannot import only_here: install"):
        play_chunks(only_here.play, None, 4, 2, per_job=1, at_most=2, cluster=head)


def test_a_worker_with_another_version_is_refused(
    head: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Workers must run this pyramids: another version is refused, naming both."""
    real = ray_runner.installation()
    monkeypatch.setattr(ray_runner, "installation", lambda: {**real, "pyramids": "0.0.0-other"})
    with pytest.raises(ClusterError, match=r"another installation: pyramids \S+ \(this process: 0"):
        play_chunks(
            sim._play_chunk, sim.SimConfig(games=2), 2, 1, per_job=1, at_most=1, cluster=head
        )


def test_a_call_the_cluster_never_answers_is_dropped_and_the_run_goes_on(
    head: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ray Client has no timeout: a request its data channel lost waits forever (a put hung
    so in a CI run). Here the run's first put is a get of a task that sleeps 30 s, a real
    call on the real connection that goes unanswered: after STALL_SECONDS the connection is
    dropped, the run connects again, and its results are still the local run's."""
    import ray

    monkeypatch.setattr(ray_runner, "STALL_SECONDS", 3.0)
    real_put, real_connect = ray.put, ray_runner.connect
    seen = {"puts": 0, "cut": 0, "connects": 0}

    def unanswered_put(value: Any, *args: Any, **kwargs: Any) -> Any:
        seen["puts"] += 1
        if seen["puts"] == 1:
            sleeper = ray.remote(num_cpus=0)(lambda: __import__("time").sleep(30))
            try:
                ray.get(sleeper.remote())
            except Exception:
                seen["cut"] += 1  # the watchdog ended the call: it would have answered at 30 s
                raise
        return real_put(value, *args, **kwargs)

    def counted_connect(*args: Any) -> None:
        seen["connects"] += 1
        real_connect(*args)

    monkeypatch.setattr(ray, "put", unanswered_put)
    monkeypatch.setattr(ray_runner, "connect", counted_connect)
    config = sim.SimConfig(game="flaming", players=3, bots=("greedy", "random"), seed=9, games=12)
    local = sim.simulate(config)
    remote = sim.simulate(replace(config, jobs=1, cluster=head))
    assert seen == {"puts": 2, "cut": 1, "connects": 2}
    assert without(remote, SIM_TIMING) == without(local, SIM_TIMING)


def test_an_error_of_a_call_on_a_connection_the_client_gave_up_is_a_lost_connection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A call that fails while the client still holds its connection fails as it is (a
    task's own error is the run's error); one that fails after the client gave its data
    channel up is a lost connection, which the run answers by connecting again. So is Ray's
    "not found for client" (the head forgot the client's objects) before the client's own
    data thread has given up (seen so in a loaded run: neither flag was set yet)."""
    data = SimpleNamespace(_in_shutdown=False)
    worker = SimpleNamespace(channel=None, _in_shutdown=False, data_client=data)
    monkeypatch.setattr(ray_runner, "_client_worker", lambda ray: worker)
    dog = ray_runner._Watchdog(ray=None)  # type: ignore[arg-type]
    forgotten = "ClientObjectRef b'\\xdb$' is not found for client 26b8edc43aba"
    try:
        with pytest.raises(ValueError, match="a task's own"), dog.call():
            raise ValueError("a task's own error")
        with pytest.raises(ConnectionError, match=r"connection was lost: .* not found"), dog.call():
            raise ValueError(forgotten)
        data._in_shutdown = True
        with pytest.raises(ConnectionError, match=r"connection was lost: a task's own"), dog.call():
            raise ValueError("a task's own error")
    finally:
        dog.stop()
