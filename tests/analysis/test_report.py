"""The workbench's report: files written, one self-contained HTML page, both languages.

The data is the hand-written fixture ``data/analysis_sample.json`` (schema 1, Flaming, 2 and 3
players); the sentences are checked against its numbers.
"""

from __future__ import annotations

import copy
import importlib
import json
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("matplotlib")

from pyramids.analysis import charts, report

SAMPLE = Path(__file__).parent / "data" / "analysis_sample.json"
SECTIONS = ("seat_advantage", "length", "options", "events", "conditions", "skill", "holdings")
HEADER_ONLY = (
    "schema",
    "kind",
    "game",
    "title",
    "rules_version",
    "engine",
    "pyramids_version",
    "command",
    "created",
    "seconds",
    "total_games",
    "jobs",
    "cluster",
    "seed",
    "games",
    "players",
    "bots",
    "base_options",
)


def sample() -> dict[str, Any]:
    """A fresh copy of the fixture."""
    data: dict[str, Any] = json.loads(SAMPLE.read_text(encoding="utf-8"))
    return data


class Page(HTMLParser):
    """The tags, attributes, headings and text of an HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.headings: dict[str, list[str]] = {"h1": [], "h2": []}
        self.text: list[str] = []
        self._heading: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag in self.headings:
            self._heading = tag
            self.headings[tag].append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == self._heading:
            self._heading = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._heading:
            self.headings[self._heading][-1] += data

    def count(self, tag: str) -> int:
        return sum(1 for t, _ in self.tags if t == tag)


def parse(page: str) -> Page:
    parser = Page()
    parser.feed(page)
    parser.close()
    return parser


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    out = tmp_path_factory.mktemp("report-en")
    return out, report.write_report(sample(), out, lang="en")


@pytest.fixture(scope="module")
def french(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    out = tmp_path_factory.mktemp("report-fr")
    return out, report.write_report(sample(), out, lang="fr")


def test_write_report_writes_the_data_every_chart_and_the_page(
    english: tuple[Path, list[Path]],
) -> None:
    out, written = english
    expected = [out / "analysis.json"]
    for stem in SECTIONS:
        expected += [out / "charts" / f"{stem}.png", out / "charts" / f"{stem}.svg"]
    expected.append(out / "report.html")
    assert sorted(written) == sorted(expected)
    assert all(p.is_file() and p.stat().st_size > 0 for p in written)
    assert json.loads((out / "analysis.json").read_text(encoding="utf-8")) == sample()
    assert (out / "charts" / "length.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_html_is_one_self_contained_page_with_every_chart_inlined(
    english: tuple[Path, list[Path]],
) -> None:
    out, _ = english
    page = (out / "report.html").read_text(encoding="utf-8")
    parsed = parse(page)
    for tag in ("script", "link", "img", "iframe", "object", "embed"):
        assert parsed.count(tag) == 0, tag
    for tag, attrs in parsed.tags:
        for name in ("src", "href", "xlink:href"):
            value = attrs.get(name) or ""
            assert value == "" or value.startswith("#"), (tag, name, value)
    assert 'src="http' not in page
    assert 'href="http' not in page
    assert "url(http" not in page
    assert "@import" not in page
    assert "<?xml" not in page
    assert "<!DOCTYPE svg" not in page
    assert parsed.count("svg") == len(SECTIONS)
    ids = [attrs["id"] for _, attrs in parsed.tags if attrs.get("id")]
    assert len(ids) == len(set(ids)), "two charts share an element id"
    text = "".join(parsed.text)
    command = sample()["command"]
    assert command in text
    assert parsed.count("pre") == 1
    assert "seeds 0 to 999" in text
    assert "seed 0 + i" in text
    for value in ("flaming-1.4", "native", "0.1.0", "greedy, random", "12000", "123.4 s"):
        assert value in text, value


def test_report_headings_are_the_sections_in_english(english: tuple[Path, list[Path]]) -> None:
    out, _ = english
    parsed = parse((out / "report.html").read_text(encoding="utf-8"))
    assert parsed.headings["h1"] == ["Flaming Pyramids: balance report"]
    assert parsed.headings["h2"] == [
        "Seat advantage",
        "Game length",
        "Options",
        "Events",
        "How games end",
        "Skill against luck",
        "Each tile's effect",
    ]


def test_french_report_speaks_french(french: tuple[Path, list[Path]]) -> None:
    out, _ = french
    page = (out / "report.html").read_text(encoding="utf-8")
    parsed = parse(page)
    assert ("html", {"lang": "fr"}) in parsed.tags
    assert parsed.headings["h1"] == ["Pyramides en flammes : rapport d'équilibre"]
    assert parsed.headings["h2"] == [
        "Avantage selon la place",
        "Durée des parties",
        "Effet des options",
        "Événements",
        "Fins de partie",
        "Talent ou chance",
        "Effet de chaque tuile",
    ]
    text = "".join(parsed.text)
    assert "Le joueur 1 gagne 61,6\u202f% des parties à 2 joueurs" in text
    assert "Taux de victoire par joueur" in text  # the chart's own title, inlined as text
    for english_word in ("Seat advantage", "Game length", "win rate", "Players"):
        assert english_word not in text, english_word


def test_svg_charts_are_identical_from_run_to_run(
    english: tuple[Path, list[Path]], tmp_path: Path
) -> None:
    out, _ = english
    again = report.write_report(sample(), tmp_path, lang="en")
    for path in again:
        if path.suffix in (".svg", ".html"):
            assert path.read_bytes() == (out / path.relative_to(tmp_path)).read_bytes(), path.name


def test_save_writes_png_and_svg_without_a_date(tmp_path: Path) -> None:
    fig = charts.skill(sample(), "en")
    assert fig is not None
    png, svg = charts.save(fig, tmp_path / "c", "skill")
    assert (png.name, svg.name) == ("skill.png", "skill.svg")
    body = svg.read_text(encoding="utf-8")
    assert "<dc:date>" not in body
    assert "<title>Skill against luck: greedy against random</title>" in body


def test_a_report_with_only_its_header_writes_the_data_and_the_page(tmp_path: Path) -> None:
    data = {k: v for k, v in sample().items() if k in HEADER_ONLY}
    written = report.write_report(data, tmp_path, lang="fr")
    assert written == [tmp_path / "analysis.json", tmp_path / "report.html"]
    parsed = parse((tmp_path / "report.html").read_text(encoding="utf-8"))
    assert parsed.headings["h2"] == []
    assert parsed.count("svg") == 0
    assert "pyramids analyse" in "".join(parsed.text)
    assert report.render_markdown(data, "en").startswith("# Flaming Pyramids: balance report\n")


@pytest.mark.parametrize("section", SECTIONS)
@pytest.mark.parametrize("absence", ["missing", "empty"])
def test_a_missing_or_empty_section_is_left_out(section: str, absence: str) -> None:
    data = sample()
    if absence == "missing":
        del data[section]
    else:
        part = data[section]
        for key in ("by_players", "rows"):
            if key in part:
                part[key] = []
    assert getattr(charts, section)(data, "en") is None
    keys = [s.key for s in report.sections(data, "en")]
    assert keys == [s for s in SECTIONS if s != section]
    page = report.render_html(data, "en")
    assert f'<section id="{section}">' not in page
    parse(page)
    report.render_markdown(data, "fr")


def test_every_string_from_the_data_is_escaped() -> None:
    data = sample()
    hostile = "<script>alert('x')</script>"
    data["bots"] = [hostile, "random"]
    data["command"] = f"pyramids analyse --bots '{hostile}' --games 10 && echo \"<b>\""
    data["title"] = {"en": f"Flaming {hostile}", "fr": hostile}
    data["seat_advantage"]["bot"] = hostile
    data["skill"]["strong"] = hostile
    data["holdings"]["rows"][0]["label"] = hostile
    data["options"]["variants"][0]["label"] = {"en": hostile, "fr": hostile}
    data["events"]["kinds"][0]["label"] = {"en": hostile, "fr": hostile}
    data["created"] = hostile
    for lang in ("en", "fr"):
        page = report.render_html(data, lang)
        assert "<script" not in page.lower()
        assert "<b>" not in page
        assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
        text = "".join(parse(page).text)
        assert data["command"] in text  # the command reads back exactly, ready to copy


def test_hostile_strings_are_escaped_inside_the_charts_too(tmp_path: Path) -> None:
    data = {k: v for k, v in sample().items() if k in (*HEADER_ONLY, "skill")}
    data["skill"]["strong"] = "<script>$x$</script>"
    report.write_report(data, tmp_path)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "<script" not in page.lower()
    assert page.count("<svg") == 1


def test_seat_advantage_sentence_names_the_leading_seat_and_its_numbers() -> None:
    data = sample()
    (section,) = [s for s in report.sections(data, "en") if s.key == "seat_advantage"]
    assert section.reading.startswith(
        "Seat 1 wins 61.6% of 2-player games (95%: 58.6–64.6%), the fair share being 50%: "
        "a significant advantage (p < 0.001). "
        "Seat 1 wins 34.1% of 3-player games (95%: 31.2–37.1%), the fair share being 33.3%: "
        "no significant difference between the seats (p = 0.85)."
    )
    two = data["seat_advantage"]["by_players"][0]
    for key in ("wins", "rate", "ci95"):
        two[key].reverse()
    (section,) = [s for s in report.sections(data, "fr") if s.key == "seat_advantage"]
    assert section.reading.startswith(
        "Le joueur 2 gagne 61,6\u202f% des parties à 2 joueurs (95\u202f% : 58,6–64,6\u202f%), "
        "la part équitable étant 50\u202f% : un avantage significatif (p < 0,001)."
    )
    assert section.tables[0].rows[1][2:5] == ("Joueur 2", "616", "61,6\u202f% (58,6–64,6\u202f%)")


def test_length_options_and_skill_sentences_read_the_numbers() -> None:
    readings = {s.key: s.reading for s in report.sections(sample(), "en")}
    assert readings["length"].startswith(
        "With 2 players a game lasts 49.2 turns on average (95%: 48.1–50.3); half the games "
        "last 46 turns or fewer, 80% between 30 and 70 (from 12 to 93)"
    )
    assert readings["options"].startswith(
        "Fire die on changes the mean length by +1.1 to +3.2 turns (significant for 1 of 2 "
        "player counts) and seat 1's win rate by −1.2 to +1.1 points (significant for 0 of 2)."
    )
    assert (
        "No curse changes the mean length by −4.1 to −2.2 turns (significant for 2 of 2"
        in (readings["options"])
    )
    assert readings["skill"].startswith(
        "greedy wins 90.0% of 2-player games against random (95%: 88.0–91.7%), chance alone "
        "giving 50%: a skill index of 0.80 (95%: 0.76–0.84)."
    )
    assert "chance alone giving 33.3%: a skill index of 0.55" in readings["skill"]


def test_events_sentence_compares_the_trigger_with_the_others() -> None:
    (section,) = [s for s in report.sections(sample(), "en") if s.key == "events"]
    # collapse, 2 players: 765/1700 = 45.0% against 235/300 = 78.3%: −33.3 points
    assert section.reading.startswith(
        "Collapse happens 3.1 to 4.4 times per game depending on the player count, in 93.0% "
        "to 97.0% of games. Players who trigger at least one win 31.5% to 45.0% of the time "
        "against 44.5% to 78.3% for the others: −33.3 to −13.0 points (significant for 2 of 2 "
        "player counts). Each costs its trigger 2.4 to 2.6 tiles to own pile on average."
    )
    assert "Each costs" not in section.reading.split("Curse happens")[1]
    first = section.tables[0].rows[0]
    assert first[:2] == ("2", "Collapse")
    assert first[6].startswith("−33.3 (−")


def test_events_without_a_cost_unit_keep_a_plain_cost_column() -> None:
    data = sample()
    data["events"]["cost_label"] = None
    (section,) = [s for s in report.sections(data, "en") if s.key == "events"]
    assert section.tables[0].headers[-1] == "Cost (95%)"
    assert "Each costs its trigger 2.4 to 2.6 on average." in section.reading


def test_newcombe_interval_of_a_difference_of_two_rates() -> None:
    diff, ci = charts.newcombe(0.45, [0.4266, 0.4736], 0.7833, [0.7338, 0.8258])
    assert diff == pytest.approx(-0.3333)
    assert ci is not None
    assert ci[0] == pytest.approx(-0.3333 - ((0.45 - 0.4266) ** 2 + (0.8258 - 0.7833) ** 2) ** 0.5)
    assert ci[1] == pytest.approx(-0.3333 + ((0.4736 - 0.45) ** 2 + (0.7833 - 0.7338) ** 2) ** 0.5)


def test_holdings_sentence_names_the_best_and_the_worst() -> None:
    (section,) = [s for s in report.sections(sample(), "fr") if s.key == "holdings"]
    assert section.reading == (
        "Sur 4 tuiles, 2 modifient significativement les chances de leur détenteur (intervalle "
        "excluant 1). R40 aide le plus : ses détenteurs gagnent 1,14 fois les parties que le "
        "hasard leur donnerait (95\u202f% : 1,06–1,22) ; B100 nuit le plus : 0,86 "
        "(95\u202f% : 0,80–0,92)."
    )
    assert [row[0] for row in section.tables[0].rows] == ["R40", "Y1", "G20", "B100"]


def test_many_holdings_show_the_best_and_worst_twelve() -> None:
    data = sample()
    template = data["holdings"]["rows"][0]
    data["holdings"]["rows"] = [
        {**template, "item": f"C{i}", "label": f"C{i}", "lift": 2 - i / 50, "lift_ci95": None}
        for i in range(60)
    ]
    shown, hidden = charts.shown_holdings(data["holdings"]["rows"])
    assert [r["item"] for r in shown[:2]] == ["C0", "C1"]
    assert shown[-1]["item"] == "C59"
    assert (len(shown), hidden) == (24, 36)
    assert charts.holdings(data, "en") is not None
    markdown = report.render_markdown(data, "en")
    assert "| C11 |" in markdown
    assert "| C12 |" not in markdown
    assert "| C48 |" in markdown
    assert "The table shows the 12 best and the 12 worst of 60" in markdown


def test_markdown_summary_has_the_header_readings_and_tables() -> None:
    markdown = report.render_markdown(sample(), "en")
    assert markdown.startswith("# Flaming Pyramids: balance report\n")
    assert "```\npyramids analyse --game flaming" in markdown
    assert "## Seat advantage\n\nSeat 1 wins 61.6% of 2-player games" in markdown
    assert (
        "| 2 | 1000 (998) | Seat 1 | 616 | 61.6% (58.6–64.6%) | 50% | 54.80 (p < 0.001) |"
        in markdown
    )
    french = report.render_markdown(sample(), "fr")
    assert "## Avantage selon la place" in french
    assert "| Joueurs |" in french


def test_numbers_in_french_take_a_decimal_comma_and_a_spaced_percent() -> None:
    assert charts.pct(0.616, "en") == "61.6%"
    assert charts.pct(0.616, "fr") == "61,6\u202f%"
    assert charts.num(12345.6, "fr") == "12\u202f345,6"
    assert charts.num(-0.04, "en") == "0.0"
    assert charts.num(-1.25, "en", 1, sign=True) == "−1.2"
    assert charts.num(3.2, "fr", sign=True) == "+3,2"
    assert charts.pct(None, "en") == "–"
    assert report.p_text(0.0004, "fr") == "p < 0,001"
    assert report.p_text(0.18, "en") == "p = 0.18"
    assert charts.seat_name(0, "en", capital=True) == "Seat 1"
    assert charts.seat_name(2, "fr") == "joueur 3"


def test_an_unknown_language_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="en or fr"):
        report.write_report(sample(), tmp_path, lang="de")


def test_without_matplotlib_the_import_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in list(sys.modules):
        if name == "matplotlib" or name.startswith("matplotlib."):
            monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.delitem(sys.modules, "pyramids.analysis.report")
    monkeypatch.delitem(sys.modules, "pyramids.analysis.charts")
    with pytest.raises(ImportError, match=r"pip install 'pyramids\[analysis\]'"):
        importlib.import_module("pyramids.analysis.report")
    monkeypatch.undo()
    assert importlib.import_module("pyramids.analysis.report") is report


def test_the_fixture_follows_schema_1() -> None:
    data = sample()
    assert (data["schema"], data["kind"]) == (1, "pyramids-analysis")
    for group in data["options"]["by_players"]:
        assert group["rows"][0]["variant"] == "baseline"
    lifts = [r["lift"] for r in data["holdings"]["rows"]]
    assert lifts == sorted(lifts, reverse=True)
    for group in data["seat_advantage"]["by_players"]:
        assert [w / group["games"] for w in group["wins"]] == group["rate"]
    assert copy.deepcopy(data) == sample()
