"""Bot hints at the table and the computer analysis of the replay (issue 30).

"A Hint button visible only to a seated player, only when the table allows bot hints,
enabled only on that seat's turn and never during a call-out check. Pressing it shows the
best moves in words, each with its estimated win chance in percent, best first, and the best
move drawn on the table." For each game Ann (the human, whose page this is) plays against a
greedy bot; at her turn she presses Hint with the keyboard: the panel lists the moves the
server's ``POST /api/tables/{id}/hint`` answers (the same seat and seq: no second search),
in words with "NN% to win", and the best one is outlined on the table; once the turn has
passed, the panel and the outline are gone. A table created without bot hints, and a
spectator, get no Hint button; the lobby's box follows its default (off for call-out).

"The replay's computer analysis: a chart of each seat's estimated chance to win, mistakes
marked on it, and every decision in words, mistakes marked." For each game a seeded game
with one clear blunder of Ann's is staged (tests/browser/advice_fixtures.py) and played over
HTTP; its replay page, after "Analyse this game", shows the chart (one line per seat) and
marks as mistakes exactly the decisions that ``GET /api/tables/{id}/analysis`` marks, the
blunder among them; a marked decision jumps the replay to the step that plays it.

The server runs with small search budgets (``ADVICE_ENV``), so every search is quick.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.advice_fixtures import (
    ADVICE_ENV,
    ANALYSIS_ITERATIONS,
    analysis_json,
    create_table,
    plan_blunder,
    play_staged,
)
from tests.browser.conftest import (
    PageErrors,
    seat_token,
    shown_seq,
    submit_create,
    wait_for_hello,
    watch_errors,
)
from tests.live import LiveServer, live_server
from tests.waiting import wait_until

SEEDS = {"flaming": 3, "flags": 3}
"""The staged games' seeds: with them Ann's worst move at her 9th (Flaming) or 1st (Flags)
decision is marked as a mistake (advice_fixtures.plan_blunder finds it)."""
WIN = re.compile(r"^(\d{1,3})% to win$")
WIN_FR = re.compile(r"^(\d{1,3})\u202f?\u00a0?% de chances de gagner$")
MOVES = """() => [...document.querySelectorAll('[data-testid=hint-move]')].map((li) => ({
  action: li.dataset.action,
  words: li.querySelector('.hint-words').innerText,
  win: li.querySelector('[data-testid=hint-win]').innerText }))"""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    """A server whose hints and analyses search on small budgets (the conftest's own, with
    ``PYRAMIDS_HINT_ITERATIONS`` and ``PYRAMIDS_ANALYSIS_ITERATIONS`` set)."""
    with live_server(env=ADVICE_ENV) as srv:
        yield srv


def _open_seat(pg: Any, errors: PageErrors, server: LiveServer, table: str, invite: str) -> str:
    """Open Ann's invite in `pg`, wait for the hello; the seat's credential."""
    pg.goto(invite)
    wait_for_hello(pg, errors, server)
    return seat_token(pg, table, invite.split("token=", 1)[1])


def _wait_my_turn(pg: Any) -> None:
    pg.wait_for_function("() => document.body.classList.contains('my-turn')")


def _server_hint(server: LiveServer, table: str, token: str, seq: int) -> dict[str, Any]:
    """The hint the server gives Ann at `seq` (asked again until done)."""

    def done() -> dict[str, Any] | None:
        r = httpx.post(
            f"{server.url}/api/tables/{table}/hint", json={"token": token, "seq": seq}, timeout=30
        )
        assert r.status_code in (200, 202), r.text
        body: dict[str, Any] = r.json()
        return body if body["status"] == "done" else None

    return wait_until(done, f"table {table}: the hint at seq {seq}")


def _check_outline(pg: Any, game: str, best: str) -> None:
    """The best move is drawn on the table: what it plays and where, outlined."""
    if game == "flaming":
        tile, spot = best.split("@")
        mark = pg.locator(f"[data-testid=pyramid] [data-testid=hint-spot][data-spot='{spot}']")
        assert mark.count() == 1
        assert "hint-best" in (mark.get_attribute("class") or "")
        assert mark.get_attribute("data-tile") == tile
        assert pg.locator(f"[data-testid=hand-tile][data-tile='{tile}'].hint-best").count() == 1
        box = mark.bounding_box()
        assert box and box["width"] > 10 and box["height"] > 10
    else:
        button = pg.locator(
            f"[data-testid=flags-actions] [data-testid=action][data-action='{best}']"
        )
        assert button.count() == 1 and "hint-best" in (button.get_attribute("class") or "")
        move = re.match(r"^(\w\d)>(\w\d|table)$", best)
        if move:
            piece = pg.locator(f"[data-testid=towers] [data-piece='{move.group(1)}'].hint-best")
            assert piece.count() == 1 and piece.is_visible()
        elif best.startswith("take:") and "@" not in best:
            assert pg.locator("[data-testid=bank] .hint-best").count() == 1
        elif best.startswith("swap:"):
            assert pg.locator(f"[data-testid=card][data-card='{best[5:]}'].hint-best").count() == 1


@pytest.mark.parametrize("game", ["flaming", "flags"])
def test_hint_lists_the_best_moves_in_words_and_outlines_the_best(
    browser_page: tuple[Any, PageErrors], server: LiveServer, artifacts: Path, game: str
) -> None:
    """At Ann's turn, Hint (pressed with the keyboard) shows the server's best moves in
    words with their chances in percent, best first, and outlines the best on the table;
    they go when the turn passes."""
    pg, errors = browser_page
    table, invite = create_table(server.url, game, seed=SEEDS[game], bot_hints=True)
    token = _open_seat(pg, errors, server, table, invite)
    button = pg.locator("[data-testid=hint-button]")
    _wait_my_turn(pg)
    assert button.is_visible() and button.inner_text() == "Hint"
    pg.wait_for_function("() => !document.querySelector('[data-testid=hint-button]').disabled")
    seq = shown_seq(pg)
    button.focus()
    pg.keyboard.press("Enter")
    pg.wait_for_selector("[data-testid=hint-panel][data-status=done] [data-testid=hint-move]")
    shown = pg.evaluate(MOVES)
    answer = _server_hint(server, table, token, seq)  # the same seat and seq: already done
    assert answer["seat"] == 0
    assert 1 <= len(answer["moves"]) <= 3
    assert [m["action"] for m in shown] == [m["action"] for m in answer["moves"]]
    for move, said in zip(answer["moves"], shown, strict=True):
        found = WIN.match(said["win"])
        assert found, said
        assert int(found.group(1)) == round(move["win"] * 100), (move, said)
        # words, not the notation: the notation is hidden (tooltip, "Show notation")
        assert said["words"] and said["action"] not in said["words"], said
    _check_outline(pg, game, answer["moves"][0]["action"])
    pg.screenshot(path=str(artifacts / f"hint-{game}.png"), full_page=True)

    pg.click("[data-testid=lang-fr]")
    pg.wait_for_function("() => document.documentElement.lang === 'fr'")
    assert button.inner_text() == "Conseil"
    first = pg.locator("[data-testid=hint-move] [data-testid=hint-win]").first.inner_text()
    assert WIN_FR.match(first), first
    pg.click("[data-testid=lang-en]")

    # Ann plays (over HTTP: the page follows): the hint and its outline are gone
    r = httpx.post(
        f"{server.url}/api/tables/{table}/actions",
        json={"token": token, "seq": seq, "action": answer["moves"][0]["action"]},
        timeout=30,
    )
    assert r.status_code == 200, r.text
    pg.wait_for_function(
        "(before) => Number(document.querySelector('[data-testid=seq]').textContent || 0) > before",
        arg=seq,
    )
    assert pg.locator("[data-testid=hint-move]").count() == 0
    assert pg.locator("[data-testid=hint-spot]").count() == 0
    assert pg.locator("#game-area .hint-best, #decision-area .hint-best").count() == 0
    assert errors.messages == [], errors.messages


def test_no_hint_button_without_bot_hints_or_a_seat(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """A table created with bot_hints false shows no Hint button, even at Ann's turn; at a
    table that allows them, a spectator's page shows none while Ann's does."""
    pg, errors = browser_page
    table, invite = create_table(server.url, "flaming", bot_hints=False)
    summary = httpx.get(f"{server.url}/api/tables/{table}").json()
    assert summary["settings"]["bot_hints"] is False
    _open_seat(pg, errors, server, table, invite)
    _wait_my_turn(pg)  # drawn for Ann's decision: the hint box too
    assert pg.locator("[data-testid=hint-button]").count() == 0
    assert pg.locator("[data-testid=hint-box]").is_hidden()

    allowed, invite = create_table(server.url, "flaming", bot_hints=True)
    _open_seat(pg, errors, server, allowed, invite)
    pg.locator("[data-testid=hint-button]").wait_for()  # the game runs: Ann's page has it
    watcher = pg.context.new_page()  # a tab of its own: no seat token
    watched = watch_errors(watcher)
    watcher.goto(f"{server.url}/t/{allowed}")
    wait_for_hello(watcher, watched, server)
    watcher.wait_for_selector("[data-testid=seat-info]")  # drawn: the hint box too
    assert watcher.locator("[data-testid=hint-button]").count() == 0
    assert watcher.locator("[data-testid=hint-box]").is_hidden()
    assert errors.messages == [] and watched.messages == [], (errors.messages, watched.messages)


def test_no_hint_during_a_call_out_check(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """At a call-out table that allows bot hints, Ann's check of the pyramid gets no hint:
    the button is disabled (H does nothing) and the server refuses with `check`."""
    pg, errors = browser_page
    table, invite = create_table(
        server.url, "flaming", seed=SEEDS["flaming"], bot_hints=True, options={"callout": "family"}
    )
    token = _open_seat(pg, errors, server, table, invite)
    button = pg.locator("[data-testid=hint-button]")

    def ann_decides() -> dict[str, Any] | None:
        st: dict[str, Any] = httpx.get(
            f"{server.url}/api/tables/{table}/state", params={"token": token}
        ).json()
        return st if st.get("legal") else None

    for _ in range(6):  # Ann places, Bob checks and places, Ann checks
        st = wait_until(ann_decides, f"table {table}: Ann's decision")
        pg.wait_for_function(
            "(seq) => Number(document.querySelector('[data-testid=seq]').textContent) === seq"
            " && document.body.classList.contains('my-turn')",
            arg=st["seq"],
        )
        if (st["view"].get("pending") or {}).get("kind") == "check":
            break
        assert not button.is_disabled()  # a placement: a hint may be asked
        r = httpx.post(
            f"{server.url}/api/tables/{table}/actions",
            json={"token": token, "seq": st["seq"], "action": st["legal"][0]},
        )
        assert r.status_code == 200, r.text
    else:
        raise AssertionError("Ann never had to check the pyramid")
    assert pg.locator("[data-testid=check-panel]").is_visible()
    assert button.is_visible() and button.is_disabled()
    pg.locator("body").press("h")
    assert pg.locator("[data-testid=hint-panel]").inner_text() == ""
    r = httpx.post(f"{server.url}/api/tables/{table}/hint", json={"token": token, "seq": st["seq"]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "check", r.text
    assert errors.messages == [], errors.messages


def test_lobby_bot_hints_box_follows_its_default(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """The lobby's "Bot hints" box is ticked for an ordinary game, unticked by a call-out
    variant (as the server's default), in English and French; the table gets what it says."""
    pg, errors = browser_page
    pg.goto(server.url + "/")
    form = pg.locator("[data-testid=create-form]")
    form.locator("select[name=game]").select_option("flaming")
    pg.wait_for_selector("[data-testid=option-callout]")
    box = pg.locator("[data-testid=create-bot-hints]")
    label = pg.locator("label:has([data-testid=create-bot-hints])")
    assert label.inner_text().strip() == "Bot hints (best moves with win chances)"
    assert box.is_checked()
    pg.select_option("[data-testid=option-callout]", "family")
    assert not box.is_checked()
    pg.select_option("[data-testid=option-callout]", "off")
    assert box.is_checked()
    pg.click("[data-testid=lang-fr]")
    assert label.inner_text().strip() == "Conseils du robot (meilleurs coups et chances de gagner)"
    pg.click("[data-testid=lang-en]")
    box.uncheck()
    table = submit_create(pg)
    summary = httpx.get(f"{server.url}/api/tables/{table}").json()
    assert summary["settings"]["bot_hints"] is False
    assert errors.messages == [], errors.messages


@pytest.mark.parametrize("game", ["flaming", "flags"])
def test_replay_analysis_charts_the_game_and_marks_the_mistakes(
    browser_page: tuple[Any, PageErrors], server: LiveServer, artifacts: Path, game: str
) -> None:
    """The replay of a game with a blunder of Ann's: after "Analyse this game" the chart has
    one line per seat, and the decisions marked as mistakes (in words and on the chart) are
    exactly those of the analysis's JSON, the blunder among them; one jumps the replay to
    its step."""
    pg, errors = browser_page
    staged = plan_blunder(game, SEEDS[game])
    table = play_staged(server.url, staged)
    pg.goto(f"{server.url}/t/{table}/replay")
    pg.wait_for_selector("[data-testid=replay-step][data-seq]")
    start = pg.locator("[data-testid=analysis-button]")
    assert start.inner_text() == "Analyse this game"
    start.focus()
    pg.keyboard.press("Enter")
    chart = pg.locator("[data-testid=analysis-chart]")
    chart.wait_for()
    analysis = analysis_json(server.url, table)  # already done: the page asked for it
    assert analysis["iterations"] == ANALYSIS_ITERATIONS  # the test server's budget
    assert chart.locator("polyline[data-testid=analysis-line]").count() == 2
    for seat in (0, 1):
        points = chart.locator(f"polyline[data-seat='{seat}']").get_attribute("points") or ""
        own = [d for d in analysis["decisions"] if d["seat"] == seat]
        assert len(points.split()) == len(own)
    decisions = pg.locator("[data-testid=analysis-decision]")
    assert decisions.count() == len(analysis["decisions"])
    marked = {
        int(i)
        for i in pg.locator("[data-testid=analysis-decision].mistake").evaluate_all(
            "(items) => items.map((li) => li.dataset.index)"
        )
    }
    expected = {d["index"] for d in analysis["decisions"] if d["mistake"]}
    assert marked == expected
    assert staged.blunder in marked, (staged.blunder, sorted(marked))
    on_chart = {
        int(i)
        for i in chart.locator("[data-testid=analysis-mistake-mark]").evaluate_all(
            "(marks) => marks.map((m) => m.dataset.index)"
        )
    }
    assert on_chart == expected
    blunder = next(d for d in analysis["decisions"] if d["index"] == staged.blunder)
    row = pg.locator(f"[data-testid=analysis-decision][data-index='{staged.blunder}']")
    drop = round(blunder["drop"] * 100)
    assert row.locator("[data-testid=analysis-mistake]").inner_text() == f"Mistake: −{drop} points"
    assert blunder["action"] not in row.locator(".analysis-move").inner_text()  # words
    pg.screenshot(path=str(artifacts / f"analysis-{game}.png"), full_page=True)

    row.locator("button").click()
    step = pg.locator("[data-testid=replay-step]")
    assert step.get_attribute("data-seq") == str(staged.blunder + 1)
    assert "current" in (row.get_attribute("class") or "")

    pg.click("[data-testid=lang-fr]")
    pg.wait_for_function("() => document.documentElement.lang === 'fr'")
    assert row.locator("[data-testid=analysis-mistake]").inner_text() == f"Erreur : −{drop} points"
    assert errors.messages == [], errors.messages
