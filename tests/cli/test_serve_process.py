"""``pyramids.cli.serve_process``: the child process that tests and benchmarks start."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyramids.cli.serve_cmd import READY_LINE
from pyramids.cli.serve_process import SERVING_RE, ServeError, ServeProcess


def test_the_ready_line_is_the_one_the_launcher_waits_for() -> None:
    """What ``pyramids serve`` prints once it listens gives the launcher its address."""
    match = SERVING_RE.match(READY_LINE.format(host="127.0.0.1", port=8123))
    assert match is not None
    assert match.group(1).rstrip("/") == "http://127.0.0.1:8123"


def test_a_server_that_cannot_start_is_reported_with_its_stderr(tmp_path: Path) -> None:
    """A bad database URL makes the process exit: the error says so and shows why."""
    server = ServeProcess(["--db", "nosuchdb://x", "--data-dir", str(tmp_path)], tmp_path / "e")
    with pytest.raises(ServeError, match="exited") as caught:
        server.start(timeout=60)
    assert "nosuchdb" in str(caught.value)
    assert not server.is_running()
