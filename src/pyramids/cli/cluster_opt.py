"""The ``--cluster`` option of the commands that play many games (docs/RAY.md, docs/CLI.md).

``ray://HOST:PORT`` plays the games as tasks on a Ray cluster through its head's Ray Client
port (10001 by default); ``auto`` on the Ray instance of this machine (the one ``ray start``
began, else a new one for the run). Ray is an optional extra: ``pip install 'pyramids[ray]'``.
Without the option the games play in local processes. Results are the same either way.
"""

from __future__ import annotations

from typing import Annotated

import typer

from pyramids.analysis.ray_runner import AUTO, CLIENT_PORT, ClusterError, check_address, import_ray
from pyramids.cli.io import fail

CLUSTER_HELP = (
    "Play the games on a Ray cluster: ray://HOST:PORT (the head's Ray Client port, "
    f"{CLIENT_PORT} by default) or {AUTO} (this machine's Ray instance, else a new local one); "
    "--jobs then caps the tasks at once (default: one per CPU of the cluster). "
    # rich markup: a backslash keeps the bracket
    "Needs pip install 'pyramids\\[ray]' (docs/RAY.md)."
)
JOBS_HELP = (
    "Worker processes (default: one per CPU); with --cluster, the most tasks at once "
    "(default: one per CPU of the cluster)."
)
"""The ``--jobs`` help of the commands that take ``--cluster``."""
ClusterOption = Annotated[
    str | None, typer.Option("--cluster", help=CLUSTER_HELP, metavar="ray://HOST:PORT|auto")
]
"""The option's type, for a command's signature: ``cluster: ClusterOption = None``."""


def check_cluster(value: str | None) -> str | None:
    """``value`` spelled canonically (None: no cluster) once Ray is known to be installed. A bad
    spelling or Ray missing: the reason on stderr, exit status 2 (nothing is contacted yet)."""
    if value is None:
        return None
    try:
        address = check_address(value)
        import_ray(address)
    except ClusterError as exc:
        fail(str(exc))
    return address
