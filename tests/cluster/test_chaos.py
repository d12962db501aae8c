"""The cluster under chaos: instances killed -9 while tables play through the balancer.

A short sample of ``bench/chaos.py`` (part c of ``bench/cluster.py``) on the module's
three-instance cluster: 8 tables of bots and scripted players (some acting over HTTP),
one spectator per table on each instance, 4 kills (one instance down at a time, each
restarted half a second later), driven by the games' progress: kill k once some table
reaches seq 8k, the players holding their next action until it has happened, so all four
come while every table plays, however busy the machine. The cluster's promises (docs/DEPLOY.md): an action
acknowledged is stored at the seq its acknowledgement named, whatever dies after; no
action is applied twice; a dead instance's tables are taken over and finish; every
client, wherever it is connected, sees every move of its table.
"""

from __future__ import annotations

import copy
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.cluster.cluster import Cluster

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load_chaos() -> ModuleType:
    """bench/chaos.py as a module (bench/ is not a package; its ``chaos_clients`` is
    imported from bench/ itself)."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("bench_chaos", BENCH / "chaos.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def chaos() -> ModuleType:
    """The chaos driver."""
    return load_chaos()


@pytest.fixture(scope="module")
def run(cluster: Cluster, chaos: ModuleType) -> Iterator[Any]:
    """One chaos run on the module's cluster: 8 tables, 4 kills (about 40 s)."""
    cfg = chaos.ChaosConfig(tables=8, kills=4, think=0.4, bot_delay=0.4, timeout=120.0)
    done = chaos.chaos(cluster, cfg)
    yield done
    for name in cluster.names:  # leave the cluster whole for the module's other tests
        if not cluster.is_running(name):
            cluster.restart(name)


def why(report: Any) -> str:
    """The report's problems, for an assertion's message."""
    return "\n".join([report.summary(), *report.problems[:20], *report.errors[:10]])


def test_no_table_of_the_sample_can_end_before_its_last_kill(chaos: ModuleType) -> None:
    """The pace that guarantees the kills: 3 seats of 15 family tiles and max_turns 40 make
    no game shorter than 40 actions, so 4 kills 8 actions apart all fall inside every game;
    a plan whose last kill could come after a table ended is refused."""
    cfg = chaos.ChaosConfig(tables=8, kills=4)
    assert chaos.shortest_game(cfg) == 40
    assert chaos.kill_pace(cfg).every == 8
    for too_many in (
        chaos.ChaosConfig(kills=4, kill_every=10),
        chaos.ChaosConfig(kills=40),  # one action apart is still 40 actions
    ):
        with pytest.raises(ValueError, match="before the last kill"):
            chaos.kill_pace(too_many)


def test_the_players_hold_their_next_action_until_the_kill_due_before_it() -> None:
    """The pace's gates: with kills every 8 actions, an action decided at seq 7 goes, one
    at seq 8 waits for the first kill, and once all kills happened every action goes."""
    load_chaos()
    from chaos_clients import Pace  # bench/ is on sys.path once the driver is loaded

    pace = Pace(8, 2)
    assert pace.may_act(7) and not pace.may_act(8) and not pace.kill_due()
    pace.seen(8)
    assert pace.kill_due()
    pace.killed()
    assert pace.may_act(15) and not pace.may_act(16) and not pace.kill_due()
    pace.seen(17)
    pace.killed()
    assert pace.may_act(40)


def test_every_planned_kill_hit_an_instance_while_the_tables_played(run: Any) -> None:
    """4 kills, each followed by a restart, each once the leading table had reached its
    mark, and none after a table had ended: every kill found tables to take from their
    owner."""
    kills = run.report.kills
    assert len(kills) == 4, why(run.report)
    assert [k["mark"] >= 8 * (i + 1) for i, k in enumerate(kills)] == [True] * 4, kills
    assert all(k["restarted"] for k in kills), kills
    assert any(k["owned"] > 0 for k in kills), kills


def test_no_acknowledged_action_is_lost_across_kills(run: Any) -> None:
    """Every ack (WebSocket or HTTP 200) names a seq where the stored record holds that
    seat's action."""
    report = run.report
    assert report.acked > 100, why(report)
    assert report.lost == 0, why(report)


def test_no_action_is_applied_twice(run: Any) -> None:
    """Seqs 1..n, the record replays and verifies, each human entry is what its player
    decided on the state before, and no seq is acknowledged twice."""
    report = run.report
    assert report.duplicated == 0, why(report)
    assert report.duplicates == {}


def test_every_table_finishes_despite_the_kills(run: Any) -> None:
    """A dead owner's tables are taken over and played to their end."""
    report = run.report
    assert report.tables_finished == report.tables == 8, why(report)


def test_every_client_saw_every_move_of_its_table(run: Any) -> None:
    """Players through the balancer and spectators on each instance: the final state at
    the record's length, every seq in their log as stored, no state skipped on a socket."""
    report = run.report
    assert report.spectators == 8 * 3
    assert report.clients_complete == report.clients, why(report)
    assert report.gaps == 0 and report.conflicts == 0, why(report)
    assert report.reconnects > 0  # the kills did break connections


def test_the_checks_count_a_lost_an_unexplained_and_an_unacked_action(
    run: Any, cluster: Cluster
) -> None:
    """The same run checked again with players' memories altered: an ack of an action the
    record does not hold counts as lost, a stored action its player never decided counts
    as duplicated (so the two zeros above can fail), and an action answered ``stale`` that
    the record holds counts as applied without an ack."""
    players = [copy.copy(p) for p in run.players]
    first, second = [p for p in players if p.acked][:2]
    seq, sent = next(iter(first.acked.items()))
    first.acked = {**first.acked, seq: type(sent)(sent.table, sent.seat, sent.seq, "nonsense")}
    first.decisions = {k: v for k, v in first.decisions.items() if k != sent.seq}
    seq, sent = next(iter(second.acked.items()))
    second.acked = {k: v for k, v in second.acked.items() if k != seq}
    second.unresolved = [*second.unresolved, sent]
    altered = copy.copy(run)
    altered.players = players
    report = altered.check(cluster.db_url)
    assert report.lost == 1
    assert report.duplicates == {"unexplained": 1}
    assert report.applied_unacked == run.report.applied_unacked + 1
    assert report.acked == run.report.acked - 1
