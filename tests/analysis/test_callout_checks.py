"""How often mayhem is overlooked at call-out checks, and what it costs (FP-CALL, issue 13).

``simulate`` and ``tournament`` count, per bot, the checks it made and what it did about
the mayhem standing at them, and what overlooked mayhem cost when found later (docs/
TOURNAMENTS.md, "Call-out checks"). The tests replay small seeded runs and recount
every figure from the games themselves: the positions a right call could name before
each check (``called_keys``), the checker's answer as written in the record, and the
events that followed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pyramids.analysis import simulate as sim
from pyramids.analysis import tournament as tour
from pyramids.bots import make_bot
from pyramids.cli.main import app
from pyramids.core import play_game
from pyramids.core.game import Event
from pyramids.flaming import FlamingGame, FlamingState
from pyramids.flaming.mayhem import called_keys
from pyramids.flaming.tiles import IS_EMBER, NAMES, key_of
from pyramids.games.flaming.analysis import CHECK_FIELDS

SENT = {
    "collapse": "collapsed",
    "explosion": "victims",
    "fire": "burnt",
    "die_explosion": "victims",
}


@dataclass
class Recount:
    """The counts of one game, recomputed from its record and events."""

    players: int
    seats: list[dict[str, int]] = field(init=False)
    non_ember_out: int = 0
    placements: int = 0

    def __post_init__(self) -> None:
        self.seats = [dict.fromkeys(CHECK_FIELDS, 0) for _ in range(self.players)]


def destinations(event: Event) -> list[int | None]:
    """Where each tile an event sends away goes: a seat's pile, or None (out of the game)."""
    data: dict[str, Any] = event.data
    if event.kind == "curse":
        return [None if data["out"] else data["target"]] * len(data["tiles"])
    if event.kind in SENT:
        return [None if data["out"] else data["seat"]] * len(data[SENT[event.kind]])
    return []


def recount(game: FlamingGame, bots: Sequence[str], seed: int) -> Recount:
    """Play the game again and count every check as the record and events tell it (on the
    Python engine, reading its position: whichever engine played the run being checked)."""
    game = FlamingGame.from_options(game.num_players, game.options)
    _final, record = play_game(game, [make_bot(b) for b in bots], seed)
    state = game.new_initial_state(seed)
    assert isinstance(state, FlamingState)
    result = Recount(game.num_players)
    episode: set[int] = set()  # who overlooked the mayhem standing now
    resolving: tuple[int, int] | None = None  # (caller, active player) of a penalized call
    tiles: list[int | None] = []
    for text in record.actions:
        seat = state.current_player()
        checking = state.checker is not None
        right = called_keys(state.position.clone(), state.options.curse_on) if checking else {}
        active = state.to_move
        state.apply(state.parse_action(text))
        events = state.events()
        result.placements += sum(e.kind == "place" for e in events)
        if checking:
            c = result.seats[seat]
            c["checks"] += 1
            c["mayhem_standing"] += bool(right)
            called = None
            if text.startswith("call:"):
                row, col = (int(x) for x in text[5:].split(","))
                called = key_of(row, col)
            if called is not None and called in right:
                c["right_calls"] += 1
                call = next(e for e in events if e.kind == "call")
                if call.data["overlooked"]:
                    c["found_overlooked"] += 1
                    resolving, tiles = (seat, active), []
                else:
                    assert not episode
            elif right:
                c["overlooked"] += 1
                c["overlooked_ok" if text == "ok" else "overlooked_false_alarm"] += 1
                episode.add(seat)
            elif called is not None:
                c["false_alarms_clean"] += 1
            if not right and episode:  # the mark went with the mayhem: nothing to find
                for s in episode:
                    result.seats[s]["overlooks_not_found"] += 1
                episode = set()
        if resolving is not None:
            for e in events:
                tiles += destinations(e)
            if any(e.kind in ("draw", "win", "max_turns") for e in events) or (
                state.pending[0] == 0 and not state.is_terminal() and state.checker is None
            ):
                caller, player = resolving
                outs = tiles.count(None)
                mine = tiles.count(player)
                for s in episode:
                    c = result.seats[s]
                    c["overlooks_found_later"] += 1
                    c["tiles_out"] += outs
                    c["tiles_to_active_pile"] += mine
                    c["tiles_avoided_by_opponents"] += outs + tiles.count(s)
                result.seats[caller]["found_tiles_out"] += outs
                result.seats[caller]["found_tiles_to_active_pile"] += mine
                episode, resolving = set(), None
    for s in episode:
        result.seats[s]["overlooks_not_found"] += 1
    result.non_ember_out = sum(1 for t in state.to_json()["out"] if not IS_EMBER[NAMES.index(t)])
    return result


def by_name(per_game: Sequence[tuple[list[str], Recount]]) -> dict[str, dict[str, int]]:
    """The recounted figures summed per bot name."""
    sums: dict[str, dict[str, int]] = {}
    for names, counts in per_game:
        for name, seat in zip(names, counts.seats, strict=True):
            row = sums.setdefault(name, dict.fromkeys(CHECK_FIELDS, 0))
            for key in CHECK_FIELDS:
                row[key] += seat[key]
    return sums


@pytest.mark.parametrize(
    ("variant", "players", "bots"),
    [("family", 2, ("greedy", "random")), ("competitive", 3, ("random", "greedy"))],
)
def test_simulate_counts_every_check_as_the_games_tell_it(
    variant: str, players: int, bots: tuple[str, ...]
) -> None:
    """FP-CALL-3 to FP-CALL-6: checks, mayhem standing, overlooks, false alarms, right calls
    and the tiles overlooked mayhem cost, per bot, equal a recount from the games."""
    config = sim.SimConfig(
        game="flaming", players=players, bots=bots, seed=11, games=4,
        options={"callout": variant, "max_turns": 120},
    )  # fmt: skip
    summary = sim.summarize(config, sim.play_games(config), 1.0)
    game = config.make_game()
    assert isinstance(game, FlamingGame)
    per_game = []
    for i in range(config.games):
        names = sim.seat_bots(bots, players, i)
        per_game.append((names, recount(game, names, config.seed + i)))
    expected = by_name(per_game)
    checks = summary["checks"]
    for name in bots:
        got = {k: checks["by_bot"][name][k] for k in CHECK_FIELDS}
        assert got == expected[name], name
    total = checks["total"]
    assert total["mayhem_standing"] == total["right_calls"] + total["overlooked"]
    assert total["overlooked"] > 0 and total["right_calls"] > 0  # the run has both
    # every placement is checked once (FP-CALL-2)
    assert total["checks"] == sum(r.placements for _, r in per_game)
    # non-ember tiles leave the game only by the family penalty (FP-CALL-6)
    out = sum(r.non_ember_out for _, r in per_game)
    assert total["found_tiles_out"] == out
    if variant == "family":
        assert total["found_tiles_to_active_pile"] == 0 and out > 0
    else:
        assert out == 0 and total["found_tiles_to_active_pile"] > 0
    # greedy checks perfectly: it never overlooks and never cries wolf
    greedy = checks["by_bot"]["greedy"]
    assert greedy["overlooked"] == 0 and greedy["false_alarms_clean"] == 0
    assert greedy["overlook_rate"] == 0.0
    random_bot = checks["by_bot"]["random"]
    assert random_bot["overlook_rate"] == round(
        random_bot["overlooked"] / random_bot["mayhem_standing"], 4
    )


def test_games_without_call_out_report_no_checks() -> None:
    """The default rules (callout off) keep the summary as it was: no ``checks``."""
    config = sim.SimConfig(game="flaming", players=2, bots=("greedy", "random"), games=2)
    summary = sim.simulate(config)
    assert "checks" not in summary
    report = tour.run_tournament(tour.TournamentConfig(bots=("greedy", "random"), games=2))
    assert "checks" not in report and "checks" not in report["contestants"][0]
    assert "Checks (call-out mode" not in tour.to_markdown(report)


def test_tournament_reports_each_contestants_checks_as_the_games_tell_it() -> None:
    """Per contestant (self-play labels apart), the same recount; JSON and Markdown."""
    config = tour.TournamentConfig(
        bots=("random", "greedy", "random"), players=2, games=6, seed=3,
        options={"callout": "family", "max_turns": 120},
    )  # fmt: skip
    report = tour.run_tournament(config)
    game = config.make_game()
    assert isinstance(game, FlamingGame)
    schedule = config.make_schedule()
    labels = config.contestant_names()
    per_game = []
    for i in range(config.games):
        seats = schedule.seats(i)
        specs = [config.bots[c] for c in seats]
        per_game.append(([labels[c] for c in seats], recount(game, specs, config.seed + i)))
    expected = by_name(per_game)
    for entry in report["contestants"]:
        got = {k: entry["checks"][k] for k in CHECK_FIELDS}
        assert got == expected[entry["name"]], entry["name"]
    total = report["checks"]["total"]
    assert total["checks"] == sum(e["checks"]["checks"] for e in report["contestants"])
    md = tour.to_markdown(report)
    assert "Checks (call-out mode; overlooked = ok or a wrong call while mayhem stood):" in md
    greedy = next(e for e in report["contestants"] if e["name"] == "greedy")["checks"]
    table = md[md.index("Checks (call-out mode") :].splitlines()
    row = next(line for line in table if line.startswith("| greedy | "))
    assert row.startswith(f"| greedy | {greedy['checks']} | {greedy['mayhem_standing']} |")
    assert "| all (each resolution once) | " in md


def test_callout_option_works_end_to_end_from_the_command_line(tmp_path: Path) -> None:
    """``--callout family`` comes from the descriptor's OptionSpec, for both commands;
    an unknown mode is refused with exit status 2."""
    runner = CliRunner()
    result = runner.invoke(app, [
        "simulate", "--games", "2", "--bots", "greedy,random", "--callout", "family",
        "--max-turns", "80", "-j", "1", "-q",
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["options"]["callout"] == "family"
    assert set(summary["checks"]["by_bot"]) == {"greedy", "random"}
    out = tmp_path / "t.json"
    result = runner.invoke(app, [
        "tournament", "--games", "2", "--bots", "greedy,random", "--callout", "competitive",
        "--max-turns", "80", "-j", "1", "-q", "--out-json", str(out),
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Cost of overlooked mayhem" in result.stdout
    assert json.loads(out.read_text())["options"]["callout"] == "competitive"
    for command in ("simulate", "tournament"):
        bad = runner.invoke(app, [command, "--games", "1", "--callout", "party", "-q"])
        assert bad.exit_code == 2
        assert "unknown callout mode 'party'" in bad.output
