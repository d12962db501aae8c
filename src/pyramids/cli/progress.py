"""The progress bar of the commands that play many games (simulate, tournament, analyse)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


@contextmanager
def games_bar(
    label: str, total: int, console: Console, *, quiet: bool = False
) -> Iterator[Callable[[int], None]]:
    """A bar on ``console`` (stderr) while the block runs: ``label``, done of ``total`` games,
    time spent and time left; yields the callback that moves it on by a number of games.
    ``quiet``: no bar. It disappears when the block ends."""
    with Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=quiet,
    ) as progress:
        task = progress.add_task("games", total=total)
        yield lambda done: progress.advance(task, done)
