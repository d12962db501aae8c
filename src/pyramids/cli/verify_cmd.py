"""``pyramids verify RECORD``: prove a server table's game followed from its committed seed.

The record of a finished server table (``GET /api/tables/{id}/record``) reveals the seed
and salt behind the commitment the table published at its start. This command checks,
with :func:`pyramids.core.fairness.verify_record`, that SHA-256 of ``"{seed}:{salt}"`` is
that commitment, re-deals ``new_initial_state(seed)`` and replays every action, checking
that each chance outcome is the server's draw from the seed and each action is legal. A
record that says seats forfeited on time must prove it: from the table's clock and every
action's time it carries, each forfeited seat was to move and its time had run out.
Any game of the registry; exit 0 when verified, 2 with the reason otherwise.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pyramids.cli.engine_opt import use_engine
from pyramids.cli.io import InputError, fail, load_record
from pyramids.core import PyramidsError
from pyramids.core.clock import format_time
from pyramids.core.fairness import verify_record
from pyramids.games import make_game


def verify(
    record_file: Annotated[
        Path,
        typer.Argument(metavar="RECORD", help="A finished server table's record (JSON file)."),
    ],
) -> None:
    """Check a server record: its seed's commitment, the deal, every chance draw, every action,
    and every forfeit (against the record's clock or turn time and its actions' times)."""
    try:
        record = load_record(record_file)
    except InputError as exc:
        fail(str(exc))
    try:
        game = make_game(record.game, record.players, record.options, engine=use_engine(None))
    except PyramidsError as exc:
        fail(f"{record_file}: {exc}")
    verdict = verify_record(game, record)
    if verdict.failure is not None:
        fail(f"{record_file}: NOT VERIFIED: {verdict.failure.message}")
    seeded = "chosen by the creator (a seeded table: every other seat a bot)"
    lines = [
        f"{record_file}: verified",
        f"  commitment  {record.commitment}",
        f'              = SHA-256 of "{record.seed}:{record.salt}"',
        f"  seed        {seeded if record.seeded else 'drawn by the server'}",
        f"  deal        new_initial_state({record.seed})",
        f"  chance      all {verdict.chance_draws} draws follow from the seed",
        f"  actions     all {verdict.actions} legal, and the game is over"
        + (
            f" (ended by forfeit on time: seats {', '.join(str(s) for s in record.forfeits)})"
            if verdict.ended_by_forfeit
            else ""
        ),
    ]
    if verdict.forfeits and record.started is not None:
        c = record.clock
        rule = (
            f"bank {c.bank:g} s, increment {c.increment:g} s, per move {c.per_move:g} s, "
            f"on expiry {c.on_expiry}"
            if c is not None
            else f"{record.turn_time or 0:g} s a decision, {record.forfeit_after} turn times "
            "in a row forfeit"
        )
        lines.append(f"  clock       {rule}; started {format_time(record.started)}")
        for proof in verdict.forfeits:
            end = "the game ended" if proof.seq == len(record.actions) else "the stand-in moved"
            lines.append(
                f"  forfeit     seat {proof.seat} at seq {proof.seq}: its time ran out at "
                f"{format_time(proof.deadline)}, {end} at {format_time(proof.at)}"
            )
    typer.echo("\n".join(lines))
