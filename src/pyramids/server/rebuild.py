"""Rebuilding a table from its stored record, as a restart does.

:func:`rebuild` replays the record with the one replay loop
(:func:`pyramids.core.record.replay_actions`), checking that its seqs follow each other,
that each action is stored for the seat whose decision it was and applies, and that
every stored snapshot equals the replayed state; it writes each viewer's log on the way
(``table_log.log_entries``). A record that does not replay raises :class:`StartupError`
naming the table and the action: at startup the server refuses to start (a table stored
under older rules is left unresumed), later the table is unavailable.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

from pyramids.core import Game, State
from pyramids.core.errors import PyramidsError
from pyramids.core.record import ReplayError, ReplayFault, ReplayStep, replay_actions
from pyramids.games import descriptor, make_game
from pyramids.games.engine import Engine
from pyramids.server.store import TableRecord
from pyramids.server.table_log import log_entries, stand_in_event, viewers
from pyramids.server.wire import encode


class StartupError(RuntimeError):
    """The stored games cannot be resumed (a record that does not replay, a bad snapshot)."""


@dataclass
class GameSoFar:
    """A table's game so far: its rules, the current state, the plain actions (seat and
    text, seq 1 first) and each viewer's log; rebuilt from a record, or a new table's."""

    game: Game
    state: State
    actions: list[tuple[int, str]]
    logs: list[list[bytes]]
    """Each viewer's log entries, encoded (JSON as UTF-8): a table's log is kept for its
    whole game, and as bytes it costs the garbage collector nothing."""


def is_older_rules(record: TableRecord) -> bool:
    """Whether ``record`` was stored under another rules version than its game's today."""
    try:
        return record.rules_version != descriptor(record.game).info.rules_version
    except PyramidsError:
        return False


def rebuild(record: TableRecord, engine: Engine | None = None) -> GameSoFar:
    """Replay a stored table's record on ``engine`` (None: auto), checking seats, seqs and
    snapshots (StartupError).

    A table stored under an older rules version is replayed with today's rules; when
    that fails, the error names both versions (the game cannot be continued faithfully).
    """
    where = f"table {record.id}"
    try:
        game = make_game(record.game, record.players, record.options, engine=engine)
    except PyramidsError as exc:
        raise StartupError(f"{where}: its rules do not load: {exc}") from None
    if record.rules_version != game.info.rules_version:
        where += (
            f" (recorded under rules {record.rules_version}, this server plays "
            f"{game.info.rules_version})"
        )
    state = game.new_initial_state(record.seed)
    who = viewers(record.players)
    logs: list[list[bytes]] = [[] for _ in who]
    actions: list[tuple[int, str]] = []
    texts: list[str] = []

    def read_texts(step: ReplayStep) -> None:
        # what each viewer is told the action was: only the state it is decided in says
        texts[:] = [step.state.action_text_for(step.action, v) for v in who]

    steps = replay_actions(
        state,
        _texts_in_order(record, where),
        deciders=(seat for _, seat, _ in record.actions),
        before=read_texts,
    )
    try:
        for step in steps:
            seq, seat = step.seq, step.seat
            actions.append((seat, step.text))
            notice = stand_in_event(record.stand_ins.get(seq), seat, record.seats)
            for i, entry in enumerate(log_entries(state, seq, seat, texts, notice)):
                logs[i].append(encode(entry))
            snapshot = record.snapshots.get(seq)
            if snapshot is not None and json.loads(json.dumps(state.to_json())) != snapshot:
                raise StartupError(
                    f"{where}: the snapshot at seq {seq} does not match the replay of its "
                    "record (the stored game is inconsistent; refusing to start)"
                )
    except ReplayError as exc:
        if exc.fault is ReplayFault.WRONG_SEAT:
            raise StartupError(
                f"{where}: action {exc.seq} ({exc.text!r}) is stored for seat "
                f"{exc.stored_seat} but it was seat {exc.to_move}'s decision"
            ) from None
        raise StartupError(
            f"{where}: action {exc.seq} ({exc.text!r}) does not apply: {exc.reason}"
        ) from None
    for seq in record.snapshots:
        if seq > len(actions) or seq < 0:
            raise StartupError(f"{where}: a snapshot at seq {seq} has no action")
    return GameSoFar(game, state, actions, logs)


def _texts_in_order(record: TableRecord, where: str) -> Iterator[str]:
    """The record's action texts, each checked to follow the one before (StartupError at
    the first seq missing) as the replay comes to it."""
    for index, (seq, _seat, text) in enumerate(record.actions, start=1):
        if seq != index:
            raise StartupError(f"{where}: action {index} is missing (found seq {seq})")
        yield text
