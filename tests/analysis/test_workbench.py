"""`pyramids analyse`'s numbers: the plan, the statistics, and what they find in both games.

Every figure is checked against the games it was computed from (counted again here from
the per-game facts) or against a known value (the chi-squared tail), and the findings
the issue names are found by the workbench by itself: Pyramids and Flags' first-seat
advantage in two-player games (PF-SETUP: seat 0 moves first), greedy beating random.
"""

from __future__ import annotations

import json
import math
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pyramids.analysis import workbench as wb
from pyramids.cli.main import app

runner = CliRunner()


def run(
    game: str, players: list[int], games: int, **kw: object
) -> tuple[wb.Plan, list[wb.GameFacts], dict]:
    bots = kw.pop("bots", ["greedy", "random"])
    plan = wb.make_plan(game, players, bots, games=games, **kw)  # type: ignore[arg-type]
    results = wb.play_plan(plan, jobs=1)
    data = wb.summarize(plan, results, bots=bots, command="test", seconds=1.0, jobs=1)
    return plan, results, data


@pytest.fixture(scope="module")
def flaming() -> tuple[wb.Plan, list[wb.GameFacts], dict]:
    return run("flaming", [2, 4], 24)


@pytest.fixture(scope="module")
def flags() -> tuple[wb.Plan, list[wb.GameFacts], dict]:
    return run("flags", [2, 3], 24)


# --- the statistics ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wins", "chi2", "p"),
    [
        ([60, 40], 4.0, 0.0455),  # one degree of freedom: z = 2
        ([50, 50], 0.0, 1.0),
        ([30, 20, 10], 10.0, 0.0067),  # 2 degrees: e^(-5)
        ([25, 25, 25, 25], 0.0, 1.0),
    ],
)
def test_seat_advantage_is_pearsons_chi2_against_equal_shares(
    wins: list[int], chi2: float, p: float
) -> None:
    assert wb.chisquare(wins) == (pytest.approx(chi2), pytest.approx(p, abs=1e-4))


def test_without_scipy_analyse_says_what_to_install_before_playing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in list(sys.modules):
        if name == "scipy" or name.startswith("scipy."):
            monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "scipy", None)
    result = CliRunner().invoke(
        app,
        [
            "analyse",
            "--game",
            "flaming",
            "--players",
            "2",
            "--games",
            "1",
            "--out",
            str(tmp_path / "a"),
        ],
    )
    assert result.exit_code == 2, result.output
    assert "pip install 'pyramids[analysis]'" in result.output
    assert not (tmp_path / "a" / "games.jsonl").exists()


def test_mean_interval_is_the_normal_one() -> None:
    m, lo, hi = wb.mean_ci([1.0, 2.0, 3.0, 4.0])
    half = 1.96 * math.sqrt(5 / 3) / 2
    assert (m, lo, hi) == pytest.approx((2.5, 2.5 - half, 2.5 + half))


def test_distribution_histogram_counts_every_game() -> None:
    d = wb.distribution([3, 5, 5, 9, 40])
    assert sum(d["hist"]["counts"]) == 5
    assert d["min"] == 3 and d["max"] == 40 and d["median"] == 5
    assert d["hist"]["edges"][0] <= 3 and d["hist"]["edges"][-1] > 40


@pytest.mark.parametrize(
    ("text", "expected"), [("2-4", [2, 3, 4]), ("4", [4]), ("3,2,3", [2, 3]), ("2-3,6", [2, 3, 6])]
)
def test_player_counts_are_read_as_ranges_and_lists(text: str, expected: list[int]) -> None:
    assert wb.parse_players(text, 2, 6) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("7", "7 is not a player count"),
        ("x", "give counts like"),
        ("4-2", "empty"),
        ("", "at least one"),
    ],
)
def test_bad_player_counts_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        wb.parse_players(text, 2, 6)


def test_an_unknown_bot_or_game_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        wb.make_plan("chess", [2], ["greedy"], games=2)
    with pytest.raises(ValueError):
        wb.make_plan("flaming", [2], ["grandmaster"], games=2)
    with pytest.raises(ValueError, match="at least 1"):
        wb.make_plan("flaming", [2], ["greedy"], games=0)


# --- the plan ---------------------------------------------------------------------------


def test_the_plan_has_a_baseline_each_variant_and_skill_per_player_count() -> None:
    plan = wb.make_plan("flaming", [2, 5], ["greedy", "random"], games=3)
    studies = [(c.study, c.players) for c in plan.cells]
    names = {s for s, _ in studies}
    assert {
        "baseline",
        "skill",
        "fire_die",
        "preset_basic",
        "preset_family",
        "callout_family",
        "callout_competitive",
    } == names  # no_curse is preset_family
    assert studies.count(("baseline", 2)) == 1 and studies.count(("skill", 5)) == 1
    skill = next(c for c in plan.cells if c.study == "skill" and c.players == 5)
    assert skill.bots == ("greedy", "random", "random", "random", "random")
    assert plan.total == 3 * len(plan.cells)


def test_variants_change_one_option_of_the_base() -> None:
    plan = wb.make_plan("flaming", [3], ["greedy"], games=1, options={"fire_die": True})
    by = {c.study: c.options for c in plan.cells}
    assert by["baseline"] == {"fire_die": True}
    assert by["no_fire_die"] == {"fire_die": False}
    assert by["preset_basic"] == {"fire_die": True, "preset": "basic"}
    assert "skill" not in by  # one bot: no skill study


def test_results_do_not_depend_on_the_number_of_processes() -> None:
    plan = wb.make_plan("flaming", [3], ["greedy", "random"], games=6, variants=False)
    one = wb.play_plan(plan, jobs=1)
    two = wb.play_plan(plan, jobs=2)
    assert [vars(r) for r in one] == [vars(r) for r in two]


# --- what the figures say, checked against the games -----------------------------------


def test_seat_advantage_counts_each_seats_wins(flaming: tuple) -> None:
    plan, results, data = flaming
    for row in data["seat_advantage"]["by_players"]:
        games = [
            r
            for r in results
            if plan.cells[r.cell].study == "baseline"
            and plan.cells[r.cell].players == row["players"]
        ]
        assert row["games"] == len(games) == 24
        assert row["wins"] == [sum(r.winner == s for r in games) for s in range(row["players"])]
        for rate, (lo, hi) in zip(row["rate"], row["ci95"], strict=True):
            assert lo <= rate <= hi


def test_mirror_games_seat_the_same_bot_everywhere(flaming: tuple) -> None:
    plan, results, _ = flaming
    for r in results:
        if plan.cells[r.cell].study != "skill":
            assert set(r.seats) == {"greedy"}


def test_skill_seats_the_strong_bot_in_every_seat_equally(flaming: tuple) -> None:
    plan, results, data = flaming
    skill4 = [r for r in results if plan.cells[r.cell].study == "skill" and len(r.seats) == 4]
    assert [r.seats.index("greedy") for r in skill4[:4]] == [0, 3, 2, 1]
    row = next(s for s in data["skill"]["by_players"] if s["players"] == 4)
    assert row["chance"] == 0.25
    assert row["skill"] > 0.5  # greedy beats three random players most of the time


def test_fire_die_events_happen_only_with_the_fire_die(flaming: tuple) -> None:
    _, _, data = flaming
    rows = {r["variant"]: r for r in data["options"]["by_players"][0]["rows"]}
    assert rows["baseline"]["events_per_game"]["die_explosion"] == 0
    assert rows["preset_family"]["events_per_game"]["curse"] == 0  # FP-OPT-1: no curse
    assert rows["baseline"]["delta_turns"] == 0


def test_mayhem_costs_its_placer_the_tiles_sent_under_its_pile(flaming: tuple) -> None:
    """FP-MAYHEM-3: a collapse sends its tiles under the placer's pile, a curse (FP-CURSE)
    under the next player's, so a curse costs its placer nothing."""
    _, _, data = flaming
    rows = {r["kind"]: r for r in data["events"]["by_players"][0]["rows"]}
    assert rows["collapse"]["cost_mean"] >= 1
    assert rows["curse"]["cost_mean"] in (None, 0.0)
    assert rows["free_air"]["cost_mean"] in (None, 0.0)


def test_every_seat_holds_the_five_tiles_it_is_dealt(flaming: tuple) -> None:
    """FP-SETUP: five tiles in each hand."""
    plan, results, data = flaming
    baseline = [r for r in results if plan.cells[r.cell].study == "baseline"]
    assert all(len(s["held"]) == 5 for r in baseline for s in r.per_seat)
    assert sum(row["held"] for row in data["holdings"]["rows"]) == 5 * sum(
        len(r.seats) for r in baseline
    )


def test_flags_cards_scored_are_cards_held(flags: tuple) -> None:
    """PF-SCORE-3: a scored card goes face up before its holder."""
    _, results, data = flags
    for r in results:
        for s in r.per_seat:
            assert set(s["done"]) <= set(s["held"])
            assert len(s["done"]) == s["triggered"]["flag"]
    rows = data["holdings"]["rows"]
    assert all(0 <= row["done_rate"] <= 1 for row in rows)
    assert [row["done_rate"] for row in rows] == sorted(row["done_rate"] for row in rows)


def test_flags_win_conditions_add_up_to_the_games(flags: tuple) -> None:
    """PF-WIN-1..3: every decided game is won by one condition."""
    _, _, data = flags
    for row in data["conditions"]["by_players"]:
        assert sum(row["counts"].values()) == row["games"]


def test_no_tree_actions_means_no_action_events(flags: tuple) -> None:
    """PF-TREE with ``actions`` off: trees are made, no action is used."""
    _, _, data = flags
    rows = {r["variant"]: r for r in data["options"]["by_players"][0]["rows"]}
    off = rows["no_actions"]["events_per_game"]
    assert all(off[k] == 0 for k in ("split", "trade", "grow", "newstart", "pirate", "wild"))


def test_the_workbench_finds_the_flags_first_seat_advantage() -> None:
    """The issue's finding: in two-player Pyramids and Flags between greedy players, seat 0
    (who moves first) wins well over half the games; 300 games find it at p < 0.01."""
    _, _, data = run("flags", [2], 300, bots=["greedy"], variants=False, skill=False)
    row = data["seat_advantage"]["by_players"][0]
    assert row["rate"][0] > 0.55
    assert row["ci95"][0][0] > 0.5
    assert row["p_value"] < 0.01


# --- the command ------------------------------------------------------------------------


def test_analyse_writes_the_report_the_data_and_every_game(tmp_path: Path) -> None:
    out = tmp_path / "flags"
    result = runner.invoke(
        app,
        [
            "analyse",
            "--game",
            "flags",
            "-p",
            "2",
            "-n",
            "4",
            "-j",
            "1",
            "--seed",
            "7",
            "--out",
            str(out),
            "-q",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads((out / "analysis.json").read_text())
    assert data["seed"] == 7 and data["games"] == 4
    assert "--seed 7" in data["command"]
    lines = (out / "games.jsonl").read_text().splitlines()
    assert len(lines) == data["total_games"] == 12  # baseline, no_actions, skill
    assert json.loads(lines[0])["seed"] == 7
    html = (out / "report.html").read_text()
    assert "pyramids analyse" in html and "<svg" in html
    assert "3-piece flags" in html  # the holdings by kind


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "chess"], "unknown game"),
        (["--players", "9"], "not a player count"),
        (["--bots", "nobody"], "nobody"),
        (["--games", "0"], "at least 1"),
        (["--game", "flags", "--fire-die"], "not for --game flags"),
    ],
)
def test_analyse_refuses_bad_input_clearly(tmp_path: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["analyse", "--out", str(tmp_path / "o"), "-q", *args])
    assert result.exit_code == 2
    assert message in result.output
    assert not (tmp_path / "o").exists()


def test_analyse_refuses_a_file_as_its_folder(tmp_path: Path) -> None:
    path = tmp_path / "file"
    path.write_text("x")
    result = runner.invoke(app, ["analyse", "--out", str(path), "-q"])
    assert result.exit_code == 2
    assert "is a file" in result.output


def test_the_reports_command_regenerates_the_same_figures(tmp_path: Path) -> None:
    """The command a report prints is the whole recipe: run again, the figures are equal."""
    first = tmp_path / "a"
    result = runner.invoke(
        app,
        [
            "analyse",
            "--game",
            "flaming",
            "-p",
            "3",
            "-n",
            "3",
            "-j",
            "1",
            "--fire-die",
            "--no-skill",
            "--lang",
            "fr",
            "-q",
            "--out",
            str(first),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads((first / "analysis.json").read_text())
    assert "--fire-die" in data["command"] and "--lang fr" in data["command"]
    assert data["base_options"]["fire_die"] is True
    argv = shlex.split(data["command"])[1:]
    argv[argv.index("--out") + 1] = str(tmp_path / "b")
    again = runner.invoke(app, [*argv, "-q"])
    assert again.exit_code == 0, again.output
    other = json.loads((tmp_path / "b" / "analysis.json").read_text())
    for volatile in ("created", "seconds", "command"):
        data.pop(volatile)
        other.pop(volatile)
    assert data == other
    assert "Avantage selon la place" in (first / "report.html").read_text()


def test_holdings_are_summed_by_kind(flaming: tuple, flags: tuple) -> None:
    """Tiles by material (FP-TILE-2..6), cards by tower height: every holding in one kind."""
    for (_, _, data), names in (
        (flaming, {"straw", "wood", "stone", "ember"}),
        (flags, {"tower_2", "tower_3"}),
    ):
        holdings = data["holdings"]
        kinds = holdings["kinds"]
        assert {k["kind"] for k in kinds} <= names
        assert sum(k["held"] for k in kinds) == sum(r["held"] for r in holdings["rows"])
        assert sum(k["wins"] for k in kinds) == sum(r["wins"] for r in holdings["rows"])
        assert [k["lift"] for k in kinds] == sorted((k["lift"] for k in kinds), reverse=True)
    flags_kinds = {k["kind"]: k for k in flags[2]["holdings"]["kinds"]}
    assert flags_kinds["tower_2"]["items"] <= 9 and flags_kinds["tower_3"]["items"] <= 27


# --- the words: catalogue entries ---------------------------------------------------------


def _every_label(
    part: wb.WorkbenchPart, bases: list[dict[str, object]], items: list[str]
) -> list[wb.Label]:
    """Every label a workbench part gives: its words, its variants over ``bases``, the
    kinds of ``items``."""
    labels = [part.turn_unit, part.holding, part.holding_explain]
    labels += [label for label in (part.cost_label, part.done_label) if label is not None]
    labels += [label for _, label in (*part.kinds, *part.conditions)]
    labels += [label for base in bases for _, label, _ in part.variants(base)]
    kind_of = part.kind_of  # type: ignore[attr-defined]
    labels += [kind[1] for kind in map(kind_of, items) if kind is not None]
    return labels


def _recording(used: set[str]) -> Callable[..., dict[str, str]]:
    """``catalogue_label`` noting each key it is asked for in ``used``."""

    def record(key: str, **facts: object) -> dict[str, str]:
        used.add(key)
        return wb.catalogue_label(key, **facts)

    return record


def test_every_workbench_word_is_a_catalogue_entry_and_every_entry_is_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The games' workbench words are the entries ``workbench.<game>.*`` (both languages,
    none missing, none unused), built into the same ``{"en", "fr"}`` labels as before."""
    from pyramids import texts
    from pyramids.flags.cards import CODES
    from pyramids.flaming.tiles import BY_NAME, MATERIAL, Material
    from pyramids.games.flags import analysis as flags_analysis
    from pyramids.games.flaming import analysis as flaming_analysis

    cases = [
        (
            flaming_analysis,
            "flaming",
            [{}, {"fire_die": True, "curse": False, "callout": "family"}, {"preset": "basic"}],
            list(BY_NAME),
        ),
        (flags_analysis, "flags", [{}, {"actions": False}], list(CODES)),
    ]
    for module, game, bases, items in cases:
        used: set[str] = set()
        monkeypatch.setattr(module, "catalogue_label", _recording(used))
        labels = _every_label(wb.part_of(game), bases, items)  # type: ignore[arg-type]
        assert all(set(label) == set(texts.LANGS) and all(label.values()) for label in labels)
        entries = {k for k in texts.catalogue("en") if k.startswith(f"workbench.{game}.")}
        assert used == entries and all(texts.has_entry(k, "fr") for k in entries)
    flaming_part, flags_part = wb.part_of("flaming"), wb.part_of("flags")
    assert flaming_part is not None and flags_part is not None
    assert dict(flaming_part.kinds)["die_explosion"] == {
        "en": "Fire-die explosion",
        "fr": "Explosion du dé de feu",
    }
    variants = {name: label for name, label, _ in flaming_part.variants({"fire_die": True})}
    assert variants["preset_basic"] == {"en": "Preset basic", "fr": "Préréglage basic"}
    assert variants["no_fire_die"] == {"en": "No fire die", "fr": "Sans dé de feu"}
    ember = next(name for name, i in BY_NAME.items() if MATERIAL[i] is Material.EMBER)
    assert flaming_part.kind_of(ember) == (  # type: ignore[attr-defined]
        "ember",
        {"en": "embers", "fr": "braises"},
    )
    assert flags_part.turn_unit == {"en": "move or exchange", "fr": "coup ou échange"}
    assert dict(flags_part.conditions)["group"]["fr"] == "Trois d’un groupe (PF-WIN-2)"
    card = next(c for c in CODES if len(flags_analysis.CARD_BY_CODE[c].tower) == 3)
    assert flags_part.kind_of(card) == (  # type: ignore[attr-defined]
        "tower_3",
        {"en": "3-piece flags", "fr": "drapeaux de 3 pièces"},
    )
    assert wb.catalogue_label("workbench.turn_unit") == {"en": "action", "fr": "action"}
