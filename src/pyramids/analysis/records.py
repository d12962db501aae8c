"""Game records as tables: one row per record, or one row per action, for notebooks.

``records_table`` replays each record (``pyramids.core.record.replay_actions``, on the engine
``make_game`` picks) and returns plain dicts: the game, its rules version, options
(flattened as ``options.NAME``), seed, seats, how many actions, the outcome, the turns
(counted as ``simulate`` counts them, by the game's ``EventTally``). ``records_frame``
is the same as a pandas DataFrame (the optional extra ``notebook``); ``actions_table``
and ``actions_frame`` list one record's actions with the seat that chose each and the
kinds of the events it caused. ``load_records`` reads record files as ``pyramids play``
and the server's ``GET /api/tables/{id}/record`` write them, with the one record parser,
``GameRecord.from_json``.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, Any

from pyramids.analysis.simulate import tally_of
from pyramids.core.errors import PositionError, PyramidsError
from pyramids.core.record import GameRecord, replay_actions, wrapped_facts
from pyramids.games import make_game

NOTEBOOK_EXTRA = "pip install 'pyramids[notebook]'"

Records = Iterable[GameRecord] | Mapping[str, GameRecord]
"""Records as a list (rows without ids) or keyed by an id (a file name: the ``id`` column)."""


def read_record(stream: IO[str], source: str = "record") -> GameRecord:
    """One record from an open text stream; PositionError names ``source`` and what is wrong."""
    try:
        data = json.load(stream)
    except json.JSONDecodeError as exc:
        raise PositionError(
            "record.invalid_json",
            source=source,
            problem=exc.msg,
            line=exc.lineno,
            column=exc.colno,
        ) from None
    if not isinstance(data, dict):
        raise PositionError("record.not_a_record", source=source)
    try:
        return GameRecord.from_json(data)
    except PyramidsError as exc:
        raise PositionError(
            "record.invalid_record", **wrapped_facts(exc, "cause", source=source)
        ) from None


def load_records(*paths: str | Path) -> dict[str, GameRecord]:
    """Records from files and folders (a folder: its ``*.json`` files, by name), keyed by
    file name; PositionError names the first file that is not a record."""
    files: list[Path] = []
    for given in paths:
        path = Path(given).expanduser()
        files.extend(sorted(path.glob("*.json")) if path.is_dir() else [path])
    records: dict[str, GameRecord] = {}
    for file in files:
        with file.open(encoding="utf-8") as stream:
            key = file.name if file.name not in records else str(file)
            records[key] = read_record(stream, str(file))
    return records


def _items(records: Records) -> list[tuple[str | None, GameRecord]]:
    if isinstance(records, Mapping):
        return [(str(k), r) for k, r in records.items()]
    return [(None, r) for r in records]


def record_row(record: GameRecord, *, engine: str | None = None) -> dict[str, Any]:
    """One record as a row: what it says and what replaying it gives; PositionError (or
    EngineError) when it cannot be replayed."""
    game = make_game(record.game, record.players, record.options, engine=engine)
    tally = tally_of(record.game)
    state = game.new_initial_state(record.seed)  # replayed in place: the result
    turns = 0
    for step in replay_actions(state, record.actions):
        turns += tally.turns(step.state.events())
    outcome = state.outcome()
    winner = outcome.winner
    seats = list(record.seats)
    return {
        "game": record.game,
        "rules_version": record.rules_version,
        "rules_current": record.rules_version == game.info.rules_version,
        **{f"options.{k}": v for k, v in sorted(record.options.items())},
        "seed": record.seed,
        "players": record.players,
        "seats": seats,
        "actions": len(record.actions),
        "turns": turns,
        "finished": state.is_terminal(),
        "outcome": outcome.kind.value,
        "winner": winner,
        "winner_name": seats[winner] if winner is not None and winner < len(seats) else None,
        "ranking": None if outcome.ranking is None else list(outcome.ranking),
        "ended": record.ended,
        "forfeits": list(record.forfeits),
        "seeded": record.seeded,
        "commitment": record.commitment,
    }


def records_table(
    records: Records, game: str | None = None, *, engine: str | None = None, strict: bool = True
) -> list[dict[str, Any]]:
    """One row per record (see ``record_row``), first the ``id`` (the mapping's key, else
    None) and ``error`` (None). ``game``: keep only that game's records. ``strict=False``
    keeps a record that cannot be replayed as a row with its ``error`` and no outcome."""
    rows: list[dict[str, Any]] = []
    for index, (key, record) in enumerate(_items(records)):
        if game is not None and record.game != game:
            continue
        head: dict[str, Any] = {"id": key, "error": None}
        try:
            rows.append({**head, **record_row(record, engine=engine)})
        except (PyramidsError, LookupError) as exc:
            where = key if key is not None else f"record {index}"
            if strict:
                raise _not_replayable(where, exc) from None
            rows.append({**head, "error": str(exc), "game": record.game, "seed": record.seed})
    return rows


def _not_replayable(where: str, exc: Exception) -> PositionError:
    """``record.not_replayable`` {source, cause (a refusal's code) and its facts; or cause
    None and ``reason``, the words of a LookupError}."""
    if isinstance(exc, PyramidsError):
        return PositionError("record.not_replayable", **wrapped_facts(exc, "cause", source=where))
    return PositionError("record.not_replayable", source=where, cause=None, reason=str(exc))


def actions_table(record: GameRecord, *, engine: str | None = None) -> list[dict[str, Any]]:
    """One row per action of ``record``: ``index`` (from 1), ``seat`` (-1: chance), the
    ``action`` text, the ``events`` kinds it caused and the ``turn`` count after it."""
    game = make_game(record.game, record.players, record.options, engine=engine)
    tally = tally_of(record.game)
    rows: list[dict[str, Any]] = []
    turns = 0
    # a ReplayError (a PositionError) names the first action that does not apply
    for step in replay_actions(game.new_initial_state(record.seed), record.actions):
        events = step.state.events()
        turns += tally.turns(events)
        rows.append(
            {
                "index": step.seq,
                "seat": step.seat,
                "action": step.text,
                "events": [e.kind for e in events],
                "turn": turns,
            }
        )
    return rows


def _pandas() -> Any:
    """The pandas module, or an ImportError saying how to install it."""
    try:
        # optional (the extra notebook), and untyped: imported by name
        pandas = importlib.import_module("pandas")
    except ImportError:
        raise ImportError(f"records as a DataFrame need pandas: {NOTEBOOK_EXTRA}") from None
    return pandas


def records_frame(records: Records, game: str | None = None, **kwargs: Any) -> Any:
    """``records_table`` as a ``pandas.DataFrame`` (ImportError without pandas)."""
    pd = _pandas()
    return pd.DataFrame(records_table(records, game, **kwargs))


def actions_frame(record: GameRecord, **kwargs: Any) -> Any:
    """``actions_table`` as a ``pandas.DataFrame`` (ImportError without pandas)."""
    pd = _pandas()
    return pd.DataFrame(actions_table(record, **kwargs))
