"""`pyramids tournament`: a fair seating schedule, reproducible reports, clear refusals.

Wins are the seats' returns summed (FP-END-5: "the winner gets 1 and every other seat 0";
PF-WIN-4 the same for Pyramids and Flags); placements and ratings come from
``pyramids.analysis.ratings`` (tested in test_ratings.py).
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pyramids.analysis.ratings import SkillRatings, placements
from pyramids.analysis.tournament import (
    HISTOGRAM_MS,
    Schedule,
    TournamentConfig,
    histogram_ms,
    percentile,
    play_games,
    play_one,
    run_tournament,
    summarize,
    to_markdown,
)
from pyramids.bots import make_bot
from pyramids.cli.main import app
from pyramids.core import play_game

runner = CliRunner()

# --- the schedule ---------------------------------------------------------------------


def seat_counts(schedule: Schedule) -> Counter[tuple[int, int]]:
    """How often each (contestant, seat) occurs in one block of ``schedule``."""
    return Counter((c, j) for seats in schedule.block for j, c in enumerate(seats))


def test_schedule_three_bots_two_seats_is_every_pair_both_ways() -> None:
    """K=3, P=2: the 3 pairs, then the 3 pairs swapped; each bot plays 4 games, 2 per seat."""
    schedule = Schedule.build(3, 2)
    assert schedule.block == ((0, 1), (0, 2), (1, 2), (1, 0), (2, 0), (2, 1))
    assert set(seat_counts(schedule).values()) == {2}
    assert len(seat_counts(schedule)) == 3 * 2


def test_schedule_two_bots_four_seats_alternates_them() -> None:
    """K=2, P=4: each bot holds two seats a game, every seat once per two games."""
    schedule = Schedule.build(2, 4)
    assert schedule.kind == "cyclic"
    assert schedule.block == ((0, 1, 0, 1), (1, 0, 1, 0))
    assert set(seat_counts(schedule).values()) == {1}
    assert len(seat_counts(schedule)) == 2 * 4


@pytest.mark.parametrize("kind", ["rotations", "permutations"])
@pytest.mark.parametrize(
    ("k", "p"), [(k, p) for k in range(1, 7) for p in range(2, 7) if math.perm(k, p) <= 720]
)
def test_schedule_seats_every_bot_in_every_seat_equally_often(kind: str, k: int, p: int) -> None:
    """Over one block every contestant holds every seat the same number of times, so it plays
    the same number of seat-games; with K >= P the seats of a game are distinct contestants."""
    schedule = Schedule.build(k, p, kind)
    counts = seat_counts(schedule)
    assert len(counts) == k * p
    assert len(set(counts.values())) == 1
    for seats in schedule.block:
        assert len(seats) == p
        if k >= p:
            assert len(set(seats)) == p
    assert schedule.seats(len(schedule.block) + 1) == schedule.block[1 % len(schedule.block)]


@pytest.mark.parametrize(("k", "p"), [(3, 2), (4, 2), (4, 3), (5, 3), (5, 4)])
def test_rotations_meet_every_set_of_contestants_equally_often(k: int, p: int) -> None:
    """The rotations schedule: every set of P contestants meets P times per block."""
    schedule = Schedule.build(k, p, "rotations")
    sets = Counter(frozenset(seats) for seats in schedule.block)
    assert len(sets) == math.comb(k, p)
    assert set(sets.values()) == {p}


@pytest.mark.parametrize(("k", "p"), [(3, 3), (4, 3), (4, 4)])
def test_permutations_balance_who_sits_after_whom(k: int, p: int) -> None:
    """The permutations schedule: each ordered seating once, so every contestant sits directly
    after every other equally often."""
    schedule = Schedule.build(k, p, "permutations")
    assert len(set(schedule.block)) == len(schedule.block) == math.perm(k, p)
    follows = Counter((seats[j], seats[(j + 1) % p]) for seats in schedule.block for j in range(p))
    assert len(follows) == k * (k - 1)
    assert len(set(follows.values())) == 1


def test_rotations_keep_list_order_around_the_table() -> None:
    """The rotations schedule with K = P = 3 only rotates 0, 1, 2: contestant 0 always plays
    right after 2, never after 1 (why permutations is the default)."""
    schedule = Schedule.build(3, 3, "rotations")
    follows = {(seats[j], seats[(j + 1) % 3]) for seats in schedule.block for j in range(3)}
    assert follows == {(0, 1), (1, 2), (2, 0)}


def test_schedule_refusals() -> None:
    """Unknown schedules and huge permutation blocks are refused with a reason."""
    with pytest.raises(ValueError, match="unknown schedule"):
        Schedule.build(3, 2, "swiss")
    with pytest.raises(ValueError, match="games per block"):
        Schedule.build(20, 6, "permutations")


# --- a real tournament ------------------------------------------------------------------

TINY = TournamentConfig(
    bots=("random", "greedy"),
    game="flaming",
    players=2,
    games=10,
    seed=3,
    options={"preset": "basic"},
)


def test_tiny_tournament_is_the_same_with_one_or_two_processes() -> None:
    """Game i is seeded S+i and seated by the schedule: reports differ only in timing."""
    one = run_tournament(TINY)
    two = run_tournament(TournamentConfig(**{**TINY.__dict__, "jobs": 2}))
    assert one["timing"]["jobs"] == 1 and two["timing"]["jobs"] == 2
    del one["timing"], two["timing"]
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)


def test_tiny_tournament_report_adds_up() -> None:
    """FP-END-5: "the winner gets 1 and every other seat 0": wins sum to the games won,
    seat-games to games times seats, and the ratings are the games rated in order."""
    outcomes = play_games(TINY)
    report = summarize(TINY, outcomes, 1.0)
    assert report["game"] == "flaming" and report["players"] == 2
    assert report["options"]["preset"] == "basic"
    assert report["seeds"] == {"first": 3, "last": 12}
    assert report["schedule"]["balanced"] is True
    by_name = {c["name"]: c for c in report["contestants"]}
    assert set(by_name) == {"random", "greedy"}
    won = report["endings"]["win"]
    assert sum(c["wins"] for c in by_name.values()) == pytest.approx(won)
    assert sum(s["wins"] for s in report["seat_win_rates"]) == pytest.approx(won)
    for c in by_name.values():
        assert c["games"] == c["seat_games"] == 10
        assert [s["games"] for s in c["by_seat"]] == [5, 5]
        assert sum(c["placements"].values()) == 10
    ratings = SkillRatings(2)
    for o in outcomes:
        ratings.update(o.seats, o.places)
    assert by_name["greedy"]["rating"] == ratings.ratings[1].to_json()
    assert report["standings"][0] == "greedy"
    assert by_name["greedy"]["win_rate"] > by_name["random"]["win_rate"]


def test_decision_time_percentile_is_the_nearest_rank() -> None:
    """The 95th percentile of 20 decisions is the 19th fastest; of one decision, that one."""
    times = [float(i) for i in range(20, 0, -1)]
    assert percentile(times, 0.95) == 19.0
    assert percentile(times, 0.5) == 10.0
    assert percentile([7.0], 0.95) == 7.0
    assert percentile([], 0.95) is None
    with pytest.raises(ValueError, match="share"):
        percentile(times, 0.0)


def test_decision_time_histogram_counts_each_decision_in_its_bin() -> None:
    """A decision on a bin's edge counts in that bin; one slower than the last edge after it."""
    counts = histogram_ms([0.0005, 0.001, 0.002, 0.25, 0.3, 0.31, 10.0])
    assert counts[0] == 2  # <= 1 ms
    assert counts[1] == 1  # <= 3 ms
    assert counts[5] == 2  # <= 300 ms
    assert counts[6] == 1  # <= 1000 ms
    assert counts[-1] == 1 and sum(counts) == 7


def test_report_times_every_decision_of_each_contestant() -> None:
    """The report's p95, max and histogram pool each contestant's decisions over its seats."""
    outcomes = play_games(TINY)
    for o in outcomes:  # replace the clock's readings by known ones
        o.decision_seconds = [
            [0.001 * (c + 1)] * n for c, n in zip(o.seats, o.decisions, strict=True)
        ]
    timing = summarize(TINY, outcomes, 1.0)["timing"]
    names = TINY.contestant_names()
    decisions = dict.fromkeys(names, 0)
    for o in outcomes:
        for c, n in zip(o.seats, o.decisions, strict=True):
            decisions[names[c]] += n
    for c, name in enumerate(names):
        assert timing["ms_p95"][name] == timing["ms_max"][name] == pytest.approx(c + 1)
        assert sum(timing["ms_histogram"]["counts"][name]) == decisions[name] > 0
    assert timing["ms_histogram"]["edges_ms"] == list(HISTOGRAM_MS)


def test_a_tournament_game_is_core_play_game_with_its_seed_and_seats() -> None:
    """Game i: seed S+i, seat j played by a fresh bot of the scheduled contestant."""
    game = TINY.make_game()
    outcome = play_one(TINY, 5, game)
    seats = TINY.make_schedule().seats(5)
    final, _ = play_game(game, [make_bot(TINY.bots[c]) for c in seats], TINY.seed + 5)
    assert outcome.seats == list(seats)
    assert outcome.places == placements(final)
    assert outcome.returns == final.returns()


def test_fewer_bots_than_seats_count_each_seat_instance() -> None:
    """K=2 over 4 seats: each contestant holds two seats of every game, each counted."""
    config = TournamentConfig(
        bots=("greedy", "random"), players=4, games=2, options={"preset": "basic"}
    )
    report = run_tournament(config)
    for c in report["contestants"]:
        assert c["games"] == 2 and c["seat_games"] == 4
        assert [s["games"] for s in c["by_seat"]] == [1, 1, 1, 1]


def test_flags_tournament_with_three_bots() -> None:
    """Pyramids and Flags, K=3 over 2 seats, one block of 6 games: 4 games each, 2 per seat."""
    config = TournamentConfig(bots=("greedy", "random", "greedy"), game="flags", games=6)
    report = run_tournament(config)
    assert report["game"] == "flags"
    assert [c["name"] for c in report["contestants"]] == ["greedy", "random", "greedy#2"]
    for c in report["contestants"]:
        assert c["games"] == 4 and [s["games"] for s in c["by_seat"]] == [2, 2]
    scores = report["head_to_head"]["score"]
    for a, b in itertools.permutations(range(3), 2):
        assert scores[a][b] + scores[b][a] == pytest.approx(1.0)
    assert scores[0][0] is None


def test_markdown_report_has_the_standings_table() -> None:
    """The Markdown report: a header, one table row per contestant, seat win rates."""
    report = run_tournament(TINY)
    text = to_markdown(report)
    assert text.startswith("# Tournament: flaming, 2 players, 10 games")
    assert "| rank | contestant | bot (budget) | games | seats | wins | win rate |" in text
    assert "| 1 | greedy | greedy | 10 | 10 |" in text
    assert "| 2 | random | random | 10 | 10 |" in text
    assert "| seat | games | wins | win rate | 95% CI |" in text


# --- the command ----------------------------------------------------------------------------


def invoke(*args: str) -> Any:
    """Run `pyramids tournament ARGS`."""
    return runner.invoke(app, ["tournament", *args])


def test_cli_writes_json_and_markdown(tmp_path: Path) -> None:
    """--out-json and --out-md write the report; the JSON names the bots and the seeds."""
    out_json, out_md = tmp_path / "t.json", tmp_path / "t.md"
    result = invoke(
        "--bots", "greedy,random", "--games", "4", "--jobs", "1", "--seed", "7",
        "--preset", "basic", "--out-json", str(out_json), "--out-md", str(out_md), "-q",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data["seeds"] == {"first": 7, "last": 10}
    assert [c["spec"] for c in data["contestants"]] == ["greedy", "random"]
    assert [c["budget"] for c in data["contestants"]] == [None, None]
    assert "| rank | contestant |" in out_md.read_text(encoding="utf-8")


def test_cli_prints_markdown_and_warns_when_unbalanced() -> None:
    """Without --out-md the Markdown goes to stdout; 5 games of a 6-game block are unbalanced."""
    result = invoke("--bots", "greedy,random,greedy", "--games", "5", "-j", "1", "-q")
    assert result.exit_code == 0, result.output
    assert "| rank | contestant |" in result.stdout
    assert "not a multiple of the schedule's block of 6" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--bots", "greedy,deep-blue"), "unknown bot 'deep-blue'"),
        (("--players", "7"), "2 to 6 players, not 7"),
        (("--players", "1"), "2 to 6 players, not 1"),
        (("--game", "flags", "--players", "5"), "2 to 4 players, not 5"),
        (("--game", "chess"), "unknown game 'chess'"),
        (("--games", "0"), "--games must be at least 1"),
        (("--bots", " , "), "at least one bot"),
        (("--game", "flags", "--preset", "basic"), "not for --game flags"),
        (("--actions",), "not for --game flaming"),
        (("--schedule", "swiss"), "unknown schedule"),
    ],
)
def test_cli_refuses_bad_arguments(args: tuple[str, ...], message: str) -> None:
    """Bad arguments: exit status 2 and a message saying what is wrong."""
    result = invoke(*args) if "--games" in args else invoke(*args, "--games", "2")
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
