"""scripts/cluster.sh, run for real: what `start` leaves behind, the balancer in front of
three instances (every instance answers, WebSockets pass, a killed instance is out within
a second or two and `restart` brings it back), `stop`, and the refusals (docs/DEPLOY.md)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.cluster.cluster import Cluster, ClusterError, is_process_alive, read_env_file
from tests.cluster.conftest import cluster_dir, require_services
from tests.live import TEST_LIMITS
from tests.waiting import wait_until

COMMANDS = {"postgres": "postgres", "balancer": "haproxy"}
"""What each process's command line holds (an instance's: ``pyramids.cli.main serve``)."""
INSTANCE_HEADER = "X-Pyramids-Instance"


def command_line(pid: int) -> str:
    """Process ``pid``'s command line, arguments joined by spaces."""
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


def instances_answering(cluster: Cluster, requests: int) -> list[str]:
    """Which instance answered each of ``requests`` GET /healthz through the balancer."""
    with httpx.Client(base_url=cluster.url, timeout=10) as http:
        answers = [http.get("/healthz") for _ in range(requests)]
    assert [r.status_code for r in answers] == [200] * requests
    return [r.headers[INSTANCE_HEADER] for r in answers]


def test_start_leaves_a_live_process_a_pid_file_and_a_log_for_each(cluster: Cluster) -> None:
    for name in ["postgres", *cluster.names, "balancer"]:
        pid = cluster.pid(name)
        assert pid is not None, f"no pids/{name}.pid"
        assert is_process_alive(pid), f"{name} (pid {pid}) is not running"
        assert COMMANDS.get(name, "pyramids.cli.main serve") in command_line(pid)
        assert cluster.log_path(name).exists()


def test_cluster_env_names_the_database_the_balancer_and_each_instance_port(
    cluster: Cluster,
) -> None:
    values = read_env_file(cluster.directory / "cluster.env")
    assert values["DB_URL"].startswith("postgresql+psycopg://")
    assert values["DB_URL"].endswith("/pyramids")
    assert values["PORT"] == str(cluster.port)
    assert values["INSTANCES"] == "3"
    for name in cluster.names:
        r = httpx.get(f"http://127.0.0.1:{values[f'INSTANCE_{name}_PORT']}/healthz", timeout=10)
        assert r.json() == {"ok": True, "instance": name, "cluster": True}


def test_status_lists_every_process_running_and_up_in_the_balancer(cluster: Cluster) -> None:
    status = cluster.status()
    assert list(status) == ["postgres", *cluster.names, "balancer"]
    assert all(line.startswith("running") for line in status.values()), status
    assert all(status[name].endswith("balancer UP") for name in cluster.names), status


def test_balancer_sends_requests_to_every_instance_in_turn(cluster: Cluster) -> None:
    answered = instances_answering(cluster, 3 * len(cluster.names))
    assert set(answered) == set(cluster.names), answered


def test_websocket_through_the_balancer_gets_its_hello(cluster: Cluster) -> None:
    body = {
        "game": "flaming",
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}],
        "bot_delay": 0,
    }
    created = httpx.post(f"{cluster.url}/api/tables", json=body, timeout=10)
    assert created.status_code == 201, created.text
    table = created.json()["table"]["id"]
    token = created.json()["invites"][0]["token"]
    with connect(f"{cluster.ws_url}/ws/tables/{table}?token={token}", open_timeout=10) as ws:
        assert ws.response is not None
        assert ws.response.headers[INSTANCE_HEADER] in cluster.names
        hello = json.loads(ws.recv(timeout=10))
    assert hello["type"] == "hello"
    assert hello["table"]["id"] == table
    assert hello["seat"] == 0


def test_killed_instance_is_out_of_the_balancer_and_restart_brings_it_back(
    cluster: Cluster,
) -> None:
    victim = "i2"
    before = cluster.pid(victim)
    assert before is not None
    try:
        cluster.kill(victim)
        assert not is_process_alive(before)
        # Requests right after the kill are sent on (a refused connection is redispatched),
        # and the health checks take the instance out (every 0.5 s, out after two failures:
        # about a second; how soon is the balancer's, the wait below only guards a hang).
        answered: list[str] = []

        def out_of_the_balancer() -> bool:
            answered.extend(instances_answering(cluster, 3))
            return cluster.status()[victim].endswith("balancer DOWN")

        wait_until(out_of_the_balancer, f"{victim} out of the balancer after its kill")
        assert victim not in answered
        assert cluster.status()[victim].startswith("dead")

        cluster.restart(victim)
        after = cluster.pid(victim)
        assert after is not None and after != before and is_process_alive(after)
        assert victim in instances_answering(cluster, 3 * len(cluster.names))
    finally:
        if not cluster.is_running(victim):
            cluster.restart(victim)


def test_start_refuses_a_directory_whose_cluster_runs(cluster: Cluster) -> None:
    with pytest.raises(ClusterError) as refused:
        Cluster(cluster.directory, env=TEST_LIMITS).start()
    assert refused.value.status == 2
    assert "already holds a running cluster" in refused.value.output
    assert all(cluster.is_running(name) for name in ["postgres", *cluster.names, "balancer"])


def test_start_refuses_a_port_that_is_taken(tmp_path: Path) -> None:
    require_services()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ClusterError) as refused:
            Cluster(tmp_path / "c", port=port).start()
    assert refused.value.status == 2
    assert f"port {port} is taken" in refused.value.output
    assert not list((tmp_path / "c" / "pids").glob("*.pid"))


def test_stop_ends_every_process_and_a_second_stop_is_fine() -> None:
    require_services()
    with cluster_dir() as tmp:
        small = Cluster(Path(tmp), instances=1, env=TEST_LIMITS)
        small.start()
        names = ["postgres", "i1", "balancer"]
        pids = {name: small.pid(name) for name in names}
        assert all(pid is not None and is_process_alive(pid) for pid in pids.values()), pids
        small.stop()
        assert [name for name, pid in pids.items() if pid and is_process_alive(pid)] == []
        assert not list((Path(tmp) / "pids").glob("*.pid"))
        small.stop()
        assert small.run("status", tmp, check=False).returncode == 3


def test_failed_start_names_the_log_to_read_and_leaves_nothing_running() -> None:
    require_services()
    with cluster_dir() as tmp:
        broken = Cluster(Path(tmp), instances=1, args=["--limit", "no_such_limit=1"])
        with pytest.raises(ClusterError) as failed:
            broken.start()
        assert failed.value.status == 1
        assert f"{tmp}/logs/i1.log" in failed.value.output
        assert "no_such_limit" in failed.value.output  # the log's end, shown
        left = [
            pid
            for pid in (int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit())
            if is_process_alive(pid) and tmp in _command_line_or_empty(pid)
        ]
        assert left == []


def _command_line_or_empty(pid: int) -> str:
    try:
        return command_line(pid)
    except OSError:
        return ""
