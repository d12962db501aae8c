"""Records as tables (``pyramids.analysis.records``) and the example notebook.

A record replayed gives its game again exactly (docs/NOTATION.md, "Game records"): the
table's outcome and counts are the replay's, and the notebook's cells all run.
"""

from __future__ import annotations

import io
import json
import sys
import tempfile
from pathlib import Path

import pytest

from pyramids import texts
from pyramids.analysis import records as records_mod
from pyramids.analysis.records import (
    actions_frame,
    actions_table,
    load_records,
    read_record,
    records_frame,
    records_table,
)
from pyramids.bots import make_bot
from pyramids.core.errors import PositionError
from pyramids.core.record import GameRecord, play_game
from pyramids.games import make_game

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "docs" / "examples" / "workbench.ipynb"


def bot_game(name: str, seed: int, players: int = 2, options: dict | None = None):
    game = make_game(name, players, options or {})
    bots = [make_bot("greedy")] + [make_bot("random")] * (players - 1)
    return play_game(game, bots, seed)


@pytest.fixture(scope="module")
def played():
    return [bot_game("flaming", seed, options={"preset": "family"}) for seed in range(3)] + [
        bot_game("flags", 1)
    ]


def test_records_table_row_per_record_matches_the_replay(played):
    rows = records_table([record for _, record in played])
    assert len(rows) == 4
    for row, (final, record) in zip(rows, played, strict=True):
        outcome = final.outcome()
        assert row["game"] == record.game
        assert row["rules_version"] == record.rules_version and row["rules_current"]
        assert row["seed"] == record.seed
        assert row["seats"] == record.seats
        assert row["actions"] == len(record.actions)
        assert row["winner"] == outcome.winner
        assert row["winner_name"] == record.seats[outcome.winner]
        assert row["finished"] and row["outcome"] == "winner"
        assert row["error"] is None and row["id"] is None
        for key, value in record.options.items():
            assert row[f"options.{key}"] == value
    flaming = rows[0]
    assert 0 < flaming["turns"] <= flaming["actions"]


def test_records_table_keeps_one_game_and_the_ids_of_a_mapping(played):
    keyed = {f"g{i}.json": record for i, (_, record) in enumerate(played)}
    rows = records_table(keyed, game="flags")
    assert [r["id"] for r in rows] == ["g3.json"]


def test_a_record_that_does_not_replay_is_refused_or_kept_with_its_error(played):
    good = played[0][1]
    bad = GameRecord.from_json({**good.to_json(), "actions": ["W200@5,5"]})
    with pytest.raises(PositionError) as info:
        records_table([good, bad])
    assert info.value.code == "record.not_replayable"
    assert info.value.data["source"] == "record 1"
    assert info.value.data["cause"] == "record.action_illegal"
    assert (info.value.data["seq"], info.value.data["action_text"]) == (1, "W200@5,5")
    rows = records_table([good, bad], strict=False)
    assert rows[0]["error"] is None
    assert "W200@5,5" in rows[1]["error"]


def test_actions_table_one_row_per_action(played):
    _, record = played[0]
    rows = actions_table(record)
    assert [r["action"] for r in rows] == record.actions
    assert [r["index"] for r in rows] == list(range(1, len(record.actions) + 1))
    assert rows[0]["seat"] == 0 and "place" in rows[0]["events"]
    assert rows[-1]["turn"] == records_table([record])[0]["turns"]


def test_frames_are_dataframes(played):
    frame = records_frame([record for _, record in played])
    assert list(frame["seed"]) == [0, 1, 2, 1]
    assert (frame.groupby("winner").size() / len(frame)).sum() == pytest.approx(1)
    moves = actions_frame(played[3][1])
    assert list(moves.columns) == ["index", "seat", "action", "events", "turn"]


def test_without_pandas_the_error_says_how_to_install_it(monkeypatch, played):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now fails
    with pytest.raises(ImportError, match=r"pip install 'pyramids\[notebook\]'"):
        records_frame([played[0][1]])
    with pytest.raises(ImportError, match="notebook"):
        actions_frame(played[0][1])
    assert records_table([played[0][1]])  # the plain table needs no pandas
    assert records_mod.NOTEBOOK_EXTRA == "pip install 'pyramids[notebook]'"


def test_load_records_reads_files_and_folders_as_written(tmp_path, played):
    """As `pyramids play` saves them and the server's record endpoint returns them."""
    for i, (_, record) in enumerate(played):
        data = record.to_json()
        if i == 0:  # a server table's record: its seed committed to
            data.update(salt="ab", commitment="cd" * 32, seeded=False)
        (tmp_path / f"r{i}.json").write_text(json.dumps(data, indent=2), encoding="utf-8")
    loaded = load_records(tmp_path)
    assert list(loaded) == ["r0.json", "r1.json", "r2.json", "r3.json"]
    assert loaded["r1.json"] == played[1][1]
    assert loaded["r0.json"].commitment == "cd" * 32
    assert load_records(tmp_path / "r2.json") == {"r2.json": played[2][1]}
    (tmp_path / "r9.json").write_text('{"game": "flaming"}', encoding="utf-8")
    with pytest.raises(PositionError, match=r"r9\.json is not a valid game record") as info:
        load_records(tmp_path)
    assert info.value.code == "record.invalid_record"
    assert info.value.data["cause"] == "record.missing_field"
    assert str(info.value).endswith(
        "is not a valid game record: record is missing the field 'options'"
    )
    assert texts.refusal(info.value, "fr").endswith(
        "n'est pas un enregistrement de partie valide : il manque le champ « options » à "
        "l'enregistrement"
    )


def test_read_record_names_the_source_of_bad_json():
    with pytest.raises(PositionError, match=r"mine\.json: invalid JSON") as info:
        read_record(io.StringIO("{"), "mine.json")
    assert info.value.code == "record.invalid_json"
    assert (info.value.data["source"], info.value.data["line"]) == ("mine.json", 1)
    with pytest.raises(PositionError, match="expected a JSON object") as info:
        read_record(io.StringIO("[]"), "mine.json")
    assert (info.value.code, info.value.data) == ("record.not_a_record", {"source": "mine.json"})


def test_example_notebook_runs_every_code_cell(monkeypatch, tmp_path):
    """docs/examples/workbench.ipynb: valid nbformat 4, every code cell run in order."""
    notebook = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    assert notebook["nbformat"] == 4
    cells = notebook["cells"]
    assert {c["cell_type"] for c in cells} == {"markdown", "code"}
    assert all(c.get("outputs", []) == [] for c in cells if c["cell_type"] == "code")
    monkeypatch.setattr(tempfile, "mkdtemp", lambda *a, **k: str(tmp_path))
    namespace: dict[str, object] = {}
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "code":
            source = "".join(cell["source"])
            exec(compile(source, f"{NOTEBOOK.name} cell {index}", "exec"), namespace)
    assert namespace["with_hand"] is True
    assert len(namespace["saved"]) == len(namespace["records"])
