"""The ``--engine`` option of the commands that play (docs/NATIVE.md, docs/CLI.md).

``auto`` (the native core when it is built, else the Python engines), ``native`` or
``python``; without the option, ``$PYRAMIDS_ENGINE``, else ``auto``. The choice becomes
the process's ``PYRAMIDS_ENGINE``, so that everything the command starts (worker
processes, the server's bots and searches) plays on the same engine.
"""

from __future__ import annotations

import os
from typing import Annotated

import typer

from pyramids.games.engine import ENGINES, ENV_VAR, EngineError, check_engine, resolve_engine

ENGINE_HELP = (
    "Rules engine: auto (the native core when built, else Python), native or python "
    f"(default: ${ENV_VAR}, else auto)."
)
EngineOption = Annotated[
    str | None, typer.Option("--engine", help=ENGINE_HELP, metavar="|".join(ENGINES))
]
"""The option's type, for a command's signature: ``engine: EngineOption = None``."""


def use_engine(engine: str | None) -> str:
    """Check ``engine`` (None: ``$PYRAMIDS_ENGINE``) and make it this process's choice; the
    engine that plays where a game has a native one (``native`` or ``python``). An
    unknown name, or ``native`` without the build: the reason on stderr, exit status 2."""
    try:
        choice = check_engine(engine)
        played = resolve_engine(choice)
    except EngineError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    if engine is not None:
        os.environ[ENV_VAR] = choice
    return played
