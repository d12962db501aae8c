"""The CLI in-process (typer's ``CliRunner``), as the command-line tests call it."""

from __future__ import annotations

from typer.testing import CliRunner, Result

from pyramids.cli.main import app


def run(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> Result:
    """Invoke the CLI with ``args`` (``stdin`` typed in, ``env`` added to the environment)."""
    return CliRunner().invoke(app, list(args), input=stdin, env=env)


def refused(result: Result) -> str:
    """Assert a refusal (exit 2, nothing on stdout, stderr ``error: ...``); the stderr text."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    return result.stderr
