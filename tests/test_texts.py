"""The message catalogue (``pyramids.texts``): every word of every host in English and French.

Events hold facts; the catalogue's JSON files say them, and the terminal's, the report's,
the charts' and the pages' words too (``cli.``, ``report.``, ``charts.``, ``web.`` keys).
These tests check that every event kind of every registered game has both sentences, that
both languages have the same entries, that seeded games of every game are told without an
error or an unfilled placeholder (as every viewer sees them), that the format's conventions
hold (the number formatter among them), and that the browser's formatter
(``static/js/messageformat.js``) says exactly what the Python one says.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyramids import texts
from pyramids.core import CHANCE, Event, State
from pyramids.games import descriptors
from pyramids.texts import MessageError, describe, message
from pyramids.texts.format import format_message

ROOT = Path(__file__).resolve().parents[1]
JS_FORMATTER = ROOT / "src" / "pyramids" / "server" / "static" / "js" / "messageformat.js"
PLACEHOLDER = re.compile(r"[{}]")
GAMES = [d for d in descriptors() if d.event_kinds]


def _play(name: str, players: int, options: dict[str, Any], seed: int) -> Iterator[State]:
    """Each state of one seeded random game (at most 400 steps)."""
    desc = next(d for d in GAMES if d.info.short_name == name)
    state = desc.factory(players, options).new_initial_state(seed)
    rng = random.Random(seed)
    yield state
    for _ in range(400):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
        elif legal:
            state.apply(rng.choice(legal))
        else:
            return
        yield state


def _events(state: State) -> list[Event]:
    """The last action's events as everyone may see them (full, each seat, spectator)."""
    seen = list(state.events())
    for viewer in [None, *range(state.num_players)]:
        seen.extend(state.events_for(viewer))
    return seen


def _told(event: Event) -> None:
    for lang in texts.LANGS:
        text = describe(event, lang)
        assert text and not PLACEHOLDER.search(text), f"{event!r} in {lang}: {text!r}"


def test_every_event_kind_of_every_game_has_an_english_and_a_french_sentence() -> None:
    """Each registered game's event kinds: a message in each language, FR not EN's copy."""
    assert {d.info.short_name for d in GAMES} >= {"flaming", "flags"}
    for desc in GAMES:
        for kind in desc.event_kinds:
            assert kind.game == desc.info.short_name, kind
            key = f"{kind.game}.{kind.kind}"
            assert texts.has_message(kind, "en") and texts.has_message(kind, "fr"), key
            assert texts.catalogue("en")[key] != texts.catalogue("fr")[key], key


def test_both_languages_have_the_same_keys_and_every_message_parses() -> None:
    """The two files list the same entries; each is a well-formed message."""
    en, fr = texts.catalogue("en"), texts.catalogue("fr")
    assert en.keys() == fr.keys()
    for entries in (en, fr):
        for text in entries.values():
            texts.format.parse(text)


PLACEHOLDERS_DIFFER = {
    # the French page never shows the server's English message (docs/WEB.md)
    **{
        f"web.err_{code}": {"message"}
        for code in (
            "weak_password",
            "generic",
            "out_of_turn",
            "stale",
            "illegal",
            "malformed",
            "bad_token",
            "bad_options",
        )
    },
    # French places the owner after the piece ("la petite pyramide rouge de Bob")
    **{f"web.f_piece_of_{size}": {"de", "who"} for size in (1, 2, 3)},
    "report.seat.read": {"seat", "Seat"},  # capitalised in English only
    "report.holdings.done": {"what"},  # "over every card" / "sur toutes"
}
"""The entries whose two languages use different facts, and those facts."""


def _facts_named(message: texts.format.Message, into: set[str]) -> set[str]:
    for node in message:
        if isinstance(node, texts.format.Placeholder):
            into.add(node.name.split(".")[0])
            for _, branch in node.branches:
                _facts_named(branch, into)
            if node.item is not None:
                _facts_named(node.item, into)
    return into


def test_both_languages_use_the_same_facts() -> None:
    """An entry names the same facts in English and French, but for the few listed."""
    en, fr = texts.catalogue("en"), texts.catalogue("fr")
    differ = {}
    for key, text in en.items():
        ours = _facts_named(texts.format.parse(text), set())
        theirs = _facts_named(texts.format.parse(fr[key]), set())
        if ours != theirs:
            differ[key] = ours ^ theirs
    assert differ == PLACEHOLDERS_DIFFER


@pytest.mark.parametrize("desc", GAMES, ids=[d.info.short_name for d in GAMES])
def test_seeded_games_of_every_preset_and_seat_count_are_told_in_full(desc: Any) -> None:
    """Exhaustive over presets and seat counts: no error, no unfilled placeholder."""
    kinds = set()
    for players in range(desc.info.min_players, desc.info.max_players + 1):
        for preset in desc.presets or (None,):
            options = dict(preset.options) if preset else {}
            for seed in range(2):
                for state in _play(desc.info.short_name, players, options, seed):
                    for event in _events(state):
                        _told(event)
                        kinds.add(event.kind)
    assert len(kinds) >= 5


@given(
    game=st.sampled_from([d.info.short_name for d in GAMES]),
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    extra=st.sampled_from([{}, {"max_turns": 3}]),
)
def test_describe_never_raises_nor_leaves_a_placeholder(
    game: str, seed: int, players: int, extra: dict[str, Any]
) -> None:
    """Property: any seeded game, any viewer, both languages, every event told."""
    desc = next(d for d in GAMES if d.info.short_name == game)
    players = min(max(players, desc.info.min_players), desc.info.max_players)
    options = {**(dict(desc.presets[0].options) if desc.presets else {}), **extra}
    for state in _play(game, players, options, seed):
        for event in _events(state):
            _told(event)


def test_the_list_select_plural_and_term_conventions() -> None:
    """``{x, list}`` joins with "and"/"et"; select, plural =N, term and dotted paths work."""
    lookup = {"list.and": "and", "w.c.R": "red {n}"}.get
    fill = format_message
    assert fill("{x, list}", {"x": ["a", "b", "c"]}, lookup) == "a, b and c"
    assert fill("{x, list}", {"x": ["a"]}, lookup) == "a"
    assert fill("{x, list, plus}", {"x": [1, 2]}, lookup) == "1 + 2"
    assert fill("{x, list, space, {{t}!}}", {"x": [{"t": "p"}, {"t": "q"}]}, lookup) == "p! q!"
    assert fill("{x, list, semicolon, {{_index}={_}}}", {"x": ["a", "b"]}, lookup) == "0=a; 1=b"
    assert fill("{n, plural, =1 {one} other {{n} many}}", {"n": 0}, lookup) == "0 many"
    assert fill("{x, plural, =1 {one} other {more}}", {"x": ["a"]}, lookup) == "one"
    assert fill("{v, select, null {none} other {{v}}}", {"v": None}, lookup) == "none"
    assert fill("{v, select, true {yes} other {no}}", {"v": True}, lookup) == "yes"
    assert fill("{c, term, w.c}", {"c": "R", "n": 3}, lookup) == "red 3"
    assert fill("at {t.1.at} {r}", {"t": [{"at": "0,0"}, {"at": "1,1"}], "r": [1, 2]}, lookup) == (
        "at 1,1 [1, 2]"
    )
    assert message("list.and", "fr") == "et"


@pytest.mark.parametrize(
    "text", ["{missing}", "{x, select, a {b}}", "{x", "x}", "{x, frob}", "{c, term, nope}"]
)
def test_a_bad_message_or_a_missing_fact_is_an_error(text: str) -> None:
    """A catalogue mistake raises MessageError (the property test above then catches it)."""
    with pytest.raises(MessageError):
        format_message(text, {"x": "z", "c": "R"}, {}.get)


def test_an_event_kind_without_a_message_reads_as_its_key_and_data() -> None:
    """A game that added no messages does not break the hosts."""

    class Odd(Event):
        kind = "odd"
        game = "nogame"

    assert describe(Odd(), "fr") == "nogame.odd {}"


def test_added_messages_tell_a_game_outside_the_repository() -> None:
    """``add_messages`` extends the catalogue (and what the browser is served)."""

    class Ping(Event):
        kind = "ping"
        game = "texttest"

    texts.add_messages("en", {"texttest.ping": "ping"})
    texts.add_messages("fr", {"texttest.ping": "pong"})
    assert (describe(Ping(), "en"), describe(Ping(), "fr")) == ("ping", "pong")
    assert texts.catalogue("fr")["texttest.ping"] == "pong"
    with pytest.raises(MessageError):
        texts.add_messages("en", {"texttest.bad": "{oops"})


def _sample_events() -> list[Event]:
    """Events of a few seeded games of every game, as every viewer sees them."""
    out: list[Event] = []
    for desc in GAMES:
        name = desc.info.short_name
        for preset in desc.presets or (None,):
            options = {**(dict(preset.options) if preset else {}), "max_turns": 4}
            for seed in range(3):
                for state in _play(name, desc.info.min_players + seed % 2, options, seed):
                    out.extend(_events(state))
    return out


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_browser_formatter_says_what_the_python_formatter_says(tmp_path: Path) -> None:
    """messageformat.js over the same catalogue and events gives the same sentences."""
    events = _sample_events()
    want = {lang: [describe(e, lang) for e in events] for lang in texts.LANGS}
    sent = [{"game": e.game, "kind": e.kind, "data": e.data} for e in events]
    catalogues = {lang: texts.catalogue(lang) for lang in texts.LANGS}
    payload = tmp_path / "events.json"
    payload.write_text(json.dumps({"events": sent, "catalogue": catalogues}), encoding="utf-8")
    script = tmp_path / "run.mjs"
    script.write_text(
        "\n".join(
            [
                f"import {{ formatMessage }} from {json.dumps(JS_FORMATTER.as_uri())};",
                'import { readFileSync } from "node:fs";',
                f"const input = JSON.parse(readFileSync({json.dumps(str(payload))}, 'utf8'));",
                "const out = {};",
                "for (const [lang, cat] of Object.entries(input.catalogue)) {",
                "  const lookup = (k) => cat[k] ?? input.catalogue.en[k];",
                "  out[lang] = input.events.map((e) =>",
                "    formatMessage(cat[`${e.game}.${e.kind}`], e.data, lookup));",
                "}",
                "process.stdout.write(JSON.stringify(out));",
            ]
        ),
        encoding="utf-8",
    )
    done = subprocess.run(
        ["node", str(script)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    for lang in texts.LANGS:
        for event, w, g in zip(events, want[lang], got[lang], strict=True):
            assert w == g, f"{lang} {event!r}: python {w!r}, js {g!r}"


def test_numbers_in_each_language_take_its_marks() -> None:
    """``{x, number, STYLE}`` and ``format_number``: grouped thousands, the decimal mark,
    a true minus, a sign on request, percentages; French with U+202F and a comma."""
    assert texts.format_number(1234.5, "en", 1) == "1,234.5"
    assert texts.format_number(1234.5, "fr", 1) == "1\u202f234,5"
    assert texts.format_number(1234567, "fr") == "1\u202f234\u202f567"
    assert texts.format_number(-1.25, "en", 1, sign=True) == "\u22121.2"  # ties to even
    assert texts.format_number(-0.04, "en", 1) == "0.0"
    assert texts.format_number(3.2, "fr", 1, sign=True) == "+3,2"
    assert texts.format_number(None, "fr") == "–"
    assert texts.format_percent(0.616, "fr") == "61,6\u202f%"
    assert texts.format_percent(0.5, "en", 0) == "50%"
    lookup = texts.catalogue("fr").get
    assert format_message("{x, number, +1%} ({n, number})", {"x": 0.25, "n": 9999}, lookup) == (
        "+25,0\u202f% (9\u202f999)"
    )
    for bad in ("{x, number, one}", "{x, number, 1.5}"):
        with pytest.raises(MessageError):
            format_message(bad, {"x": 1}, lookup)
    with pytest.raises(MessageError):
        format_message("{x, number}", {"x": "12"}, lookup)


def _node(script: str, payload: Any, tmp_path: Path) -> Any:
    """Run ``script`` (an ES module reading ``input``) under node; its JSON output."""
    data = tmp_path / "input.json"
    data.write_text(json.dumps(payload), encoding="utf-8")
    path = tmp_path / "run.mjs"
    path.write_text(
        "\n".join(
            [
                f"import {{ formatMessage }} from {json.dumps(JS_FORMATTER.as_uri())};",
                'import { readFileSync } from "node:fs";',
                f"const input = JSON.parse(readFileSync({json.dumps(str(data))}, 'utf8'));",
                script,
            ]
        ),
        encoding="utf-8",
    )
    done = subprocess.run(
        ["node", str(path)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_browser_writes_numbers_as_python_does(tmp_path: Path) -> None:
    """Every number style over awkward values (ties, grouping, signs, zero) digit for digit."""
    rng = random.Random(32)
    values: list[float | None] = [None, 0, 0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, -1.25, 0.015]
    values += [1234.5, 54.105, 999.95, 1e9 + 0.5, -1234567.891, 1e-7]
    values += [rng.uniform(-1e6, 1e6) for _ in range(200)] + [
        rng.randint(-999, 999) / 8 for _ in range(200)
    ]
    styles = ["", "0", "1", "2", "3", "+1", "0%", "1%", "+1%", "+0"]
    cases = [
        (lang, f"{{x, number{', ' + s if s else ''}}}", v)
        for lang in texts.LANGS
        for s in styles
        for v in values
    ]
    catalogues = {lang: texts.catalogue(lang) for lang in texts.LANGS}
    want = [format_message(t, {"x": v}, catalogues[lang].get) for lang, t, v in cases]
    got = _node(
        "process.stdout.write(JSON.stringify(input.cases.map(([lang, text, x]) =>"
        " formatMessage(text, { x }, (k) => input.catalogues[lang][k]))));",
        {"cases": cases, "catalogues": catalogues},
        tmp_path,
    )
    wrong = [(c, w, g) for c, w, g in zip(cases, want, got, strict=True) if w != g]
    assert wrong == []


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_every_entry_reads_the_same_in_the_browser(tmp_path: Path) -> None:
    """Each entry of both languages filled with sample facts (a string, then a number, for
    every plain placeholder): messageformat.js says what the Python formatter says."""
    cases = []
    for lang in texts.LANGS:
        for key, text in texts.catalogue(lang).items():
            names = set(re.findall(r"\{(\w+)\}", text))
            if re.search(r"\{\s*\w+\s*,", text):
                continue  # select, plural, list, term, number: the event tests cover them
            for sample in ("x", 7):
                cases.append((lang, key, {n: f"<{n}>" if sample == "x" else 7 for n in names}))
    catalogues = {lang: texts.catalogue(lang) for lang in texts.LANGS}
    want = [message(key, lang, **facts) for lang, key, facts in cases]
    got = _node(
        "process.stdout.write(JSON.stringify(input.cases.map(([lang, key, facts]) =>"
        " formatMessage(input.catalogues[lang][key], facts, (k) => input.catalogues[lang][k]))));",
        {"cases": cases, "catalogues": catalogues},
        tmp_path,
    )
    wrong = [(c, w, g) for c, w, g in zip(cases, want, got, strict=True) if w != g]
    assert len(cases) > 2000 and wrong == []


def test_the_server_serves_the_catalogue_to_the_browser(tmp_path: Path) -> None:
    """GET /texts/<lang>.json is the catalogue itself (gzipped when asked, a 304 for its
    ETag); another language is a 404."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from pyramids.server import Settings, create_app
    from pyramids.server.config import sqlite_url

    settings = Settings(db_url=sqlite_url(tmp_path / "t.sqlite3"), data_dir=tmp_path)
    with TestClient(create_app(settings)) as client:
        for lang in texts.LANGS:
            r = client.get(f"/texts/{lang}.json")
            assert r.status_code == 200 and r.json() == texts.catalogue(lang)
            assert r.headers["content-encoding"] == "gzip"
            again = client.get(f"/texts/{lang}.json", headers={"If-None-Match": r.headers["etag"]})
            assert again.status_code == 304
            plain = client.get(f"/texts/{lang}.json", headers={"Accept-Encoding": "identity"})
            assert "content-encoding" not in plain.headers and plain.json() == r.json()
        assert client.get("/texts/de.json").status_code == 404


def test_the_hosts_words_read_as_they_did_before_the_catalogue() -> None:
    """A sample of the terminal's, the report's and the charts' words, pinned as the old
    word tables (``str.format``) printed them: a game's own word first, then the CLI's."""
    from pyramids.analysis.charts import word
    from pyramids.analysis.report_words import text
    from pyramids.cli.i18n import tr
    from pyramids.games.flags.words import tr as flags_tr
    from pyramids.games.flaming.words import tr as flaming_tr

    assert tr("turn_line", "fr", turn=3, who="joueur 1") == "Tour 3 : au tour de joueur 1"
    assert tr("seed_line", "en", seed=True) == "Seed: True"  # str.format's spelling kept
    assert tr("replay_cannot_read", "en", text=repr("zz")) == (
        "Cannot read 'zz': Enter, b, a number or q (? for help)."
    )
    line = flaming_tr("seat_line", "en", mark="▶", who="seat 1".ljust(8), hand=" 5", pile="12")
    assert line == "▶ seat 1    hand  5  pile 12"
    assert flaming_tr("none", "fr") == "aucune"  # the CLI's shared word
    assert flags_tr("f_deck", "fr", n=12) == "Pioche : 12 cartes"
    assert text("time", "fr", s="12,5", jobs=2) == "12,5 s avec 2 processus"
    assert text("ci", "fr", range="1–2") == "95\u202f% : 1–2"
    assert word("n_players", "fr", n=3) == "3 joueurs"


def test_the_servers_notices_are_entries_of_the_catalogue_files() -> None:
    """``server.clock`` and ``server.stand_in`` are ``messages/<lang>/server.json``'s (the
    server adds no entry at import) and tell a clock notice as before in both languages."""
    import inspect

    from pyramids.server import clocks
    from pyramids.server.table_log import StandIn

    for lang in texts.LANGS:
        path = ROOT / "src" / "pyramids" / "texts" / "messages" / lang / "server.json"
        entries = json.loads(path.read_text(encoding="utf-8"))
        assert set(entries) == {"server.clock", "server.stand_in"}
        assert all(texts.catalogue(lang)[key] == text for key, text in entries.items())
    assert "add_messages" not in inspect.getsource(clocks)
    notice = clocks.ClockNotice(seat=1, name="Alice", reason="forfeit_end")
    assert describe(notice, "en") == "Alice's time ran out: Alice forfeits and the game is over"
    assert describe(notice, "fr") == (
        "le temps de Alice est écoulé : Alice abandonne et la partie est finie"
    )
    assert describe(clocks.ClockNotice(seat=1, name="Bob", reason="forfeit"), "fr") == (
        "Bob a perdu au temps : un bot joue à sa place"
    )
    assert describe(StandIn(seat=0, name="Bob", reason="timeout"), "fr") == (
        "temps écoulé : un bot a joué pour Bob"
    )
