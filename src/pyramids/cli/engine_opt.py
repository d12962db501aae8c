"""The ``--engine`` option of the commands that play (docs/NATIVE.md, docs/CLI.md).

``auto`` (the native core when it is built, else the Python engines), ``native`` or
``python``; without the option, ``$PYRAMIDS_ENGINE``, else ``auto``. A command resolves
the choice once (``use_engine``) and passes the ``Engine`` value down to everything it
starts (game factories, bots, worker processes, the server's settings); the environment
is only read here, never written. The scripts and benches (``scripts/``, ``bench/``) take the
same option in their argparse parsers (``add_engine_argument``, ``parsed_engine``).
"""

from __future__ import annotations

import argparse
from typing import Annotated

import typer

from pyramids.games.engine import (
    ENGINES,
    ENV_VAR,
    Engine,
    EngineError,
    engine_from_env,
    resolve_engine,
)

ENGINE_HELP = (
    "Rules engine: auto (the native core when built, else Python), native or python "
    f"(default: ${ENV_VAR}, else auto)."
)
EngineOption = Annotated[
    str | None, typer.Option("--engine", help=ENGINE_HELP, metavar="|".join(ENGINES))
]
"""The option's type, for a command's signature: ``engine: EngineOption = None``."""


def use_engine(engine: str | None) -> Engine:
    """The command's engine choice: ``engine`` (None: ``$PYRAMIDS_ENGINE``, else auto),
    checked, and the native core present when it is ``native``. An unknown name, or
    ``native`` without the build: the reason on stderr, exit status 2. The choice is
    returned (``auto`` stays ``auto``: each game resolves it, ``pyramids.games.engine_for``)."""
    try:
        choice = engine_from_env(engine)
        resolve_engine(choice)
    except EngineError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    return choice


def add_engine_argument(parser: argparse.ArgumentParser) -> None:
    """Give a script's argparse ``parser`` the commands' ``--engine`` option."""
    parser.add_argument(
        "--engine", choices=[str(e) for e in ENGINES], default=None, help=ENGINE_HELP
    )


def parsed_engine(parser: argparse.ArgumentParser, engine: str | None) -> Engine:
    """A script's engine choice: ``--engine`` (None: ``$PYRAMIDS_ENGINE``, else auto),
    checked like ``use_engine``; ``parser.error`` (exit status 2) when it cannot be used."""
    try:
        choice = engine_from_env(engine)
        resolve_engine(choice)
    except EngineError as exc:
        parser.error(str(exc))
    return choice
