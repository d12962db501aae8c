"""Fixtures for the cluster tests: a real cluster from scripts/cluster.sh, one per module.

Without HAProxy or a PostgreSQL server the tests are skipped, except when env ``CI`` is
set: CI must run them (scripts/with_test_services.sh installs both), so there they fail.
Each module's cluster has a directory and a balancer port of its own, so modules may run
in parallel (``pytest -n auto``); a module whose tests are spread over several workers
gets one cluster in each.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cluster.cluster import Cluster, missing_services
from tests.live import TEST_LIMITS

CLUSTER_INSTANCES = 3


def require_services() -> None:
    """Skip (fail under CI) when HAProxy or PostgreSQL is not installed."""
    why = missing_services()
    if why is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"cluster tests cannot run in CI: {why}", pytrace=False)
    pytest.skip(why)


def cluster_dir() -> tempfile.TemporaryDirectory[str]:
    """A fresh directory in /tmp for a cluster (pytest's own are closed to user postgres,
    which runs the database when we are root)."""
    return tempfile.TemporaryDirectory(prefix="pyramids-cluster-", ignore_cleanup_errors=True)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """Three instances and a balancer on a free port, at test limits, for the module."""
    require_services()
    with (
        cluster_dir() as tmp,
        Cluster(Path(tmp), instances=CLUSTER_INSTANCES, env=TEST_LIMITS) as c,
    ):
        yield c


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep each cluster module on one xdist worker (``./run test`` runs ``--dist
    loadgroup``), so that it starts one cluster, not one per worker its tests land on."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.xdist_group(f"cluster-{item.path.stem}"))
