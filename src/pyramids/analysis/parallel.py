"""Many games in worker processes or on a Ray cluster: the one runner behind ``simulate``,
``tournament`` and ``analyse``."""

from __future__ import annotations

import math
import multiprocessing
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import TypeVar

from pyramids.analysis import ray_runner

C = TypeVar("C")
R = TypeVar("R")


def chunks(games: int, jobs: int, *, per_job: int, at_most: int) -> list[range]:
    """Game indices in chunks: about ``per_job`` chunks per process, ``at_most`` games each."""
    size = max(1, min(at_most, math.ceil(games / (jobs * per_job))))
    return [range(lo, min(games, lo + size)) for lo in range(0, games, size)]


def play_chunks(
    play_chunk: Callable[[C, Sequence[int]], list[R]],
    config: C,
    games: int,
    jobs: int,
    *,
    per_job: int,
    at_most: int,
    on_progress: Callable[[int], None] | None = None,
    environ: Mapping[str, str] | None = None,
    cluster: str | None = None,
) -> list[R]:
    """``play_chunk(config, indices)`` over games ``0..games-1``; results in game order.

    One job (or one game) plays here, a game at a time, so progress moves per game;
    otherwise ``jobs`` spawned processes take chunks (see ``chunks``). ``play_chunk`` must
    be a module-level function and ``config`` picklable; each result's game order is its
    position in its chunk's list. ``environ``: variables set in each worker process on top
    of this one's (the engine is not one: it travels with the work, as a value).

    ``cluster`` (``ray://HOST:PORT`` or ``auto``, docs/RAY.md): the same chunks as Ray tasks
    instead (``ray_runner.play_on_cluster``), at most ``jobs`` at once; ``jobs`` 0 there
    means one per CPU of the cluster. The results are the same as a local run's;
    ``ray_runner.ClusterError`` says why the cluster cannot be used or a task failed.
    """
    if cluster is not None:
        return ray_runner.play_on_cluster(
            play_chunk,
            config,
            lambda width: chunks(games, width, per_job=per_job, at_most=at_most),
            jobs,
            cluster,
            on_progress=on_progress,
            environ=environ,
        )
    if jobs == 1 or games == 1:
        work = [range(i, i + 1) for i in range(games)]
        ordered: list[R] = []
        for chunk in work:
            done = play_chunk(config, chunk)
            ordered.extend(done)
            if on_progress is not None:
                on_progress(len(done))
        return ordered
    work = chunks(games, jobs, per_job=per_job, at_most=at_most)
    by_chunk: dict[int, list[R]] = {}
    # spawn, not fork: the caller may run threads (a progress bar), and fork copies their locks.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=context,
        initializer=_set_environ,
        initargs=(dict(environ or {}),),
    ) as pool:
        futures = {pool.submit(play_chunk, config, chunk): i for i, chunk in enumerate(work)}
        for future in as_completed(futures):
            done = future.result()
            by_chunk[futures[future]] = done
            if on_progress is not None:
                on_progress(len(done))
    return [r for i in range(len(work)) for r in by_chunk[i]]


def _set_environ(environ: dict[str, str]) -> None:
    """A worker's start: the variables its parent asked for."""
    os.environ.update(environ)
