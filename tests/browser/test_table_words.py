"""The live table in words, with one source of truth for whose turn it is, and an end
worth reading (issue 14, items 3, 5 and 6 for the Flaming Pyramids table).

A real `pyramids serve` process, Debian's Chromium: Ann plays against two bots by clicking,
with the animations on. A recorder in the page notes every settled pair of status line and
hand hint: they never contradict each other (the issue's "Your decision: where does Y120
fall?" next to "Wait for your turn.", and "À vous de jouer" during a collapse animation).
Along the way: log lines and buttons read as words with the notation in tooltips and behind
a remembered toggle; the turn banner stays in view on a 1366x900 window once the pyramid is
tall; the tab title says when it is Ann's turn. At the end: the statistics (tiles shed,
mayhem caused and suffered, biggest chain) agree with the server's replay, the chart starts
and ends at each seat's tiles left, and "Play again" opens a new table with the same seats,
Ann on her seat.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx

from tests.browser.conftest import PageErrors, seat_token, shown_seq, wait_after_action
from tests.live import LiveServer

WIDE = {"width": 1366, "height": 900}
SEED = 2
"""The seed of tests/browser/test_play_in_browser.py: falls for Ann, mayhem, a 5-row pyramid."""
MAX_DECISIONS = 400

NEXT_DECISION = """() => {
  const shown = (el) => el !== null && el.offsetParent !== null;
  if (shown(document.querySelector('[data-testid=ranking]'))) return 'over';
  if (shown(document.querySelector('[data-testid=fall-left]'))) return 'fall';
  if (document.querySelector('[data-testid=hand-tile]:not([disabled])')) return 'place';
  return false;
}"""

RECORDER = """(() => {
  // every settled look of the status line, the hand and the fall choice, as the player saw it
  window.__looks = [];
  let last = '';
  const look = () => {
    const turn = document.querySelector('[data-testid=turn]');
    const hint = document.querySelector('.hand-hint');
    const fall = document.querySelector('[data-testid=fall-choice]');
    if (!turn || !hint || !fall) return;
    const rec = {
      turn: turn.textContent,
      phase: turn.dataset.phase || '',
      mine: turn.classList.contains('mine'),
      hint: hint.textContent,
      enabled: document.querySelectorAll('[data-testid=hand-tile]:not([disabled])').length,
      fall: !fall.hidden,
      title: document.title,
    };
    const key = JSON.stringify(rec);
    if (key !== last) {
      window.__looks.push(rec);
      last = key;
    }
  };
  document.addEventListener('DOMContentLoaded', () => {
    new MutationObserver(look).observe(document.body,
      { subtree: true, childList: true, characterData: true, attributes: true });
  });
})();"""

NOTATION = re.compile(r"^[YRGBW]\d+@-?\d+,-?\d+$")


def _create(server: LiveServer, seats: list[dict[str, Any]], **extra: Any) -> tuple[str, str]:
    """A new table through the API; (table id, the invite URL of seat 0)."""
    body = {"game": "flaming", "seats": seats, "bot_delay": 0, **extra}
    created = httpx.post(f"{server.url}/api/tables", json=body)
    assert created.status_code == 201, created.text
    data = created.json()
    return data["table"]["id"], server.url + data["invites"][0]["url"]


def _contradictions(looks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The looks where status, hand and controls disagree about whose turn it is."""
    bad = []
    for rec in looks:
        waiting_hand = rec["hint"].startswith("Wait")
        if rec["mine"] and waiting_hand:
            bad.append(rec)  # "Your turn" / "Your decision" with a hand that says wait
        elif not rec["mine"] and (rec["enabled"] or rec["fall"]):
            bad.append(rec)  # a control to act with while the status says it is not Ann's turn
        elif rec["phase"] == "playing" and (rec["mine"] or "Your turn" in rec["turn"]):
            bad.append(rec)  # "Your turn" while the last move is still being shown
        elif rec["mine"] != rec["title"].startswith("● Your turn"):
            bad.append(rec)  # the tab title tells another story
    return bad


def _highest_fit(server: LiveServer, pg: Any, invite: str) -> tuple[str, str]:
    """Ann's placement that builds the pyramid highest: a spot the server's hints say fits,
    in the highest row (the first placement when nothing fits)."""
    table, token = invite.split("/t/")[1].split("?token=")
    token = seat_token(pg, table, token)  # the page used the invite (issue 29)
    msg = httpx.get(f"{server.url}/api/tables/{table}/state", params={"token": token}).json()
    options = []
    for action in msg["legal"]:
        tile, spot = action.split("@")
        fits = bool(msg["hints"]["spots"].get(tile, {}).get(spot, {}).get("fits"))
        options.append((fits, int(spot.split(",")[0]), tile, spot))
    fits, _, tile, spot = max(options, key=lambda o: (o[0], o[1]))
    return tile, spot


def _max_row(page: Any) -> int:
    spots = page.locator("[data-testid=pyramid] [data-testid=tile]").evaluate_all(
        "els => els.map((e) => Number(e.dataset.spot.split(',')[0]))"
    )
    return max(spots, default=0)


def _check_banner_stays(page: Any, artifacts: Path) -> None:
    """At 1366x900 with a tall pyramid, the page scrolls and the turn banner stays in view."""
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_function("() => window.scrollY > 0")
    page.screenshot(path=str(artifacts / "table-words-scrolled.png"))
    box = page.locator(".status-bar").bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= WIDE["height"], box
    assert page.locator("[data-testid=turn]").is_visible()
    # nothing covers it: the banner is what the browser finds at its own centre
    assert page.evaluate(
        """() => {
          const bar = document.querySelector('.status-bar');
          const r = bar.getBoundingClientRect();
          return bar.contains(document.elementFromPoint(r.left + 8, r.top + r.height / 2));
        }"""
    )
    page.evaluate("() => window.scrollTo(0, 0)")


def _check_log_words(page: Any) -> None:
    """Log lines read as words; the notation is in each line's tooltip and behind the toggle."""
    lines = page.locator("[data-testid=log] li.log-entry")
    words = page.locator("[data-testid=log-words]").all_inner_texts()
    assert words, "the log is empty"
    for text in words:
        assert not NOTATION.search(text.strip()), text
        assert "@" not in text, text
    for text in page.locator("[data-testid=log] .log-event").all_text_contents():
        assert "@" not in text and not re.search(r"from -?\d+,-?\d+ to", text), text
    assert any(
        re.match(r"^Ann plays the (yellow|red|green|blue) \d+ on -?\d+,-?\d+$", w) for w in words
    ), words
    placed = lines.filter(has=page.locator(".log-action")).first
    action = placed.locator(".log-action").text_content()
    assert action and placed.get_attribute("title") == action
    assert not placed.locator(".log-action").is_visible(), "notation shown without the toggle"
    assert "seq" not in page.locator(".status-bar").inner_text()
    assert page.locator("[data-testid=seq]").text_content() == str(shown_seq(page))
    page.check("[data-testid=notation-toggle]")
    assert placed.locator(".log-action").is_visible()
    page.reload()
    page.locator("[data-testid=log] li.log-entry").first.wait_for()
    assert page.locator("[data-testid=notation-toggle]").is_checked(), (
        "the toggle is not remembered"
    )
    assert page.locator("[data-testid=log] .log-action").first.is_visible()
    page.uncheck("[data-testid=notation-toggle]")
    assert not page.locator("[data-testid=log] .log-action").first.is_visible()


def _replay_stats(
    server: LiveServer, table: str, players: int
) -> tuple[list[int], list[int], list[int]]:
    """From the server's replay: placements per seat, tiles left per seat at the start and
    at the end (hand + pile of the full positions)."""
    steps = httpx.get(f"{server.url}/api/tables/{table}/replay").json()
    shed = [0] * players
    for step in steps:
        if step["action"] and "@" in step["action"]:
            shed[step["seat"]] += 1

    def left(state: dict[str, Any]) -> list[int]:
        return [len(state["hands"][i]) + len(state["piles"][i]) for i in range(players)]

    return shed, left(steps[0]["state"]), left(steps[-1]["state"])


def test_a_game_in_words_with_one_turn_truth_a_sticky_banner_and_an_end_worth_reading(
    browser_page: tuple[Any, PageErrors], server: LiveServer, artifacts: Path
) -> None:
    """Issue 14: "status and hand agree during a fall choice and an animation"; log lines
    and status read as words; the banner stays in view; the end screen's statistics, chart
    and "Play again" with the same seats."""
    pg, errors = browser_page
    started = time.monotonic()
    pg.set_viewport_size(WIDE)
    pg.context.add_init_script(RECORDER)
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "bot", "bot": "greedy", "name": "Greta"},
        {"kind": "bot", "bot": "random", "name": "Rand"},
    ]
    table, invite = _create(server, seats, options={"preset": "basic"}, seed=SEED)
    pg.goto(invite)
    pg.locator("[data-testid=pyramid]").wait_for()
    decisions = falls = 0
    banner_checked = words_checked = False
    while True:
        kind = pg.wait_for_function(NEXT_DECISION, timeout=60_000).json_value()
        if kind == "over":
            break
        decisions += 1
        assert decisions <= MAX_DECISIONS, "the game does not end"
        before = shown_seq(pg)
        assert pg.title().startswith("● Your turn — "), pg.title()
        if kind == "fall":
            falls += 1
            # the fall choice: the status asks, the hand says to answer it first
            turn = pg.locator("[data-testid=turn]").inner_text()
            assert re.match(
                r"^Your decision: where does the (yellow|red|green|blue) \d+ fall\?$", turn
            ), turn
            assert (
                pg.locator(".hand-hint").inner_text()
                == "First choose where the tile falls (above)."
            )
            assert pg.locator("[data-testid=hand-tile]:not([disabled])").count() == 0
            if falls == 1:
                pg.screenshot(path=str(artifacts / "table-words-fall.png"))
            pg.click("[data-testid=fall-left]" if falls % 2 else "[data-testid=fall-right]")
        else:
            assert pg.locator("[data-testid=turn]").inner_text() == "Your turn"
            assert pg.locator(".hand-hint").inner_text() == "Pick a tile, then a highlighted spot."
            if not words_checked and decisions >= 3:
                words_checked = True
                _check_log_words(pg)
            if not banner_checked and _max_row(pg) >= 3:
                banner_checked = True
                _check_banner_stays(pg, artifacts)
            tile, spot = _highest_fit(server, pg, invite)
            pg.click(f"[data-testid=hand-tile][data-tile='{tile}']")
            pg.click(f"[data-testid=spot][data-spot='{spot}']")
        wait_after_action(pg, before)
    assert falls > 0 and words_checked and banner_checked, (falls, words_checked, banner_checked)

    looks: list[dict[str, Any]] = pg.evaluate("() => window.__looks")
    assert _contradictions(looks) == []
    played = [r for r in looks if r["phase"] == "playing"]
    assert played, "no animation was seen"
    assert all(
        r["hint"] == "Watch what happens on the pyramid…" and not r["enabled"] for r in played
    )
    assert any(r["turn"].endswith("'s move is playing out…") for r in played)
    assert any(r["fall"] and r["mine"] and r["hint"].startswith("First choose") for r in looks)

    # the end screen: statistics that agree with the server's replay, and the chart
    assert pg.locator("[data-testid=turn]").inner_text() == "Game over"
    assert not pg.title().startswith("●")
    rows = pg.locator("[data-testid=end-row]")
    assert rows.count() == 3
    shed, first, last = _replay_stats(server, table, 3)
    for i in range(3):
        row = pg.locator(f"[data-testid=end-row][data-seat='{i}']")
        assert int(row.locator("[data-stat=shed]").inner_text()) == shed[i]
        suffered = int(row.locator("[data-stat=suffered]").inner_text())
        chain = int(row.locator("[data-stat=chain]").inner_text())
        assert suffered >= 0 and chain >= 0
        # tiles left at the end = at the start - shed + suffered (nothing else changes them)
        assert last[i] == first[i] - shed[i] + suffered, (i, first, last, shed, suffered)
        points = pg.locator(f"[data-testid=end-chart] polyline[data-seat='{i}']").get_attribute(
            "points"
        )
        assert points and len(points.split()) >= decisions
    legend = pg.locator(".chart-legend li").all_inner_texts()
    assert [f"({first[i]} → {last[i]})" in legend[i] for i in range(3)] == [True] * 3, legend
    assert sum(int(c) for c in pg.locator("[data-stat=caused]").all_inner_texts()) > 0
    pg.screenshot(path=str(artifacts / "table-words-end.png"), full_page=True)
    pg.click("[data-testid=lang-fr]")
    pg.wait_for_function("() => document.documentElement.lang === 'fr'")
    heads = pg.locator(".end-table thead th").all_inner_texts()
    assert heads == [
        "Joueur",
        "Tuiles posées",
        "Chaos provoqué",
        "Tuiles subies",
        "Plus grande chaîne",
    ]
    assert pg.locator("[data-testid=play-again]").inner_text() == "Rejouer"
    assert (
        pg.locator("[data-testid=log-words]")
        .first.inner_text()
        .startswith(("Ann ", "Greta ", "Rand "))
    )
    assert re.search(
        r" pose le \d+ \w+ en -?\d+,-?\d+",
        " ".join(pg.locator("[data-testid=log-words]").all_inner_texts()),
    )
    pg.click("[data-testid=lang-en]")
    pg.wait_for_function("() => document.documentElement.lang === 'en'")
    assert errors.messages == [], errors.messages

    # Play again: a new table, the same seats and options, Ann lands on her seat
    pg.click("[data-testid=play-again]")
    pg.wait_for_url(re.compile(r"/t/(?!" + table + r")\w+"))
    new_table = urlparse(pg.url).path.split("/t/")[1]
    assert new_table != table
    pg.locator("[data-testid=hand-tile]").first.wait_for()
    assert pg.locator("#you").inner_text() == "You play Ann"
    summary = httpx.get(f"{server.url}/api/tables/{new_table}").json()
    old = httpx.get(f"{server.url}/api/tables/{table}").json()
    assert [(s["kind"], s["name"], s.get("bot")) for s in summary["seats"]] == [
        (s["kind"], s["name"], s.get("bot")) for s in old["seats"]
    ]
    assert summary["options"] == old["options"]
    assert summary["status"] == "running" and not summary["seeded"]
    assert errors.messages == [], errors.messages
    print(f"words game: {decisions} decisions in {time.monotonic() - started:.1f} s")


def test_the_leftover_tile_that_starts_the_pyramid_is_told_in_english_and_french(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """Issue 14: "in a 2-player game the leftover tile is already on the pyramid while the
    text says 'Waiting for the first move.'" (FP-SETUP-2: 45 tiles, 2 players: 22 each, 1
    left over)."""
    pg, errors = browser_page
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy", "name": "Greta"}]
    table, invite = _create(server, seats, options={"preset": "standard"}, seed=1, bot_delay=5)
    state = httpx.get(f"{server.url}/api/tables/{table}").json()
    pg.goto(invite)
    pg.locator("[data-testid=pyramid]").wait_for()
    reason = pg.locator("[data-testid=event-reason]")
    tiles = pg.locator("[data-testid=pyramid] [data-testid=tile]").count()
    assert state["seq"] == 0 and tiles == 1
    pg.wait_for_function(
        "() => document.querySelector('[data-testid=event-reason]').textContent !== ''"
    )
    assert re.match(
        r"^The leftover tile starts the pyramid: the \w+ \d+\.$", reason.inner_text()
    ), reason.inner_text()
    pg.click("[data-testid=lang-fr]")
    pg.wait_for_function("() => document.documentElement.lang === 'fr'")
    assert re.match(r"^La tuile restante commence la pyramide : le \d+ \w+\.$", reason.inner_text())
    assert pg.locator("[data-testid=turn]").inner_text() in ("À vous de jouer", "Au tour de Greta")
    pg.click("[data-testid=lang-en]")
    # on a phone too the turn banner stays in view (the top bar scrolls away there)
    pg.set_viewport_size({"width": 375, "height": 667})
    pg.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    pg.wait_for_function("() => window.scrollY > 300")
    box = pg.locator(".status-bar").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 667 * 0.25, box
    for code in ("fr", "en"):  # and the page fits 360 px in both languages
        pg.set_viewport_size({"width": 360, "height": 667})
        pg.click(f"[data-testid=lang-{code}]")
        pg.wait_for_function(f"() => document.documentElement.lang === '{code}'")
        assert pg.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    # the sound on Ann's turn: off by default, a WebAudio beep once asked for
    sound = pg.locator("[data-testid=sound-toggle]")
    assert not sound.is_checked()
    sound.check()
    pg.wait_for_function("() => Number(document.body.dataset.beeps || 0) >= 1")
    pg.reload()
    assert pg.locator("[data-testid=sound-toggle]").is_checked(), (
        "the sound choice is not remembered"
    )
    assert errors.messages == [], errors.messages


def test_play_again_with_two_people_gives_the_other_their_new_link(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """Issue 14: "Play again" with the same seats: with another human at the table, the new
    table's invite for them is shown to copy, and *Go to my seat* lands on one's own seat."""
    pg, errors = browser_page
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    body = {"game": "flaming", "seats": seats, "options": {"preset": "basic", "max_turns": 1}}
    created = httpx.post(f"{server.url}/api/tables", json=body).json()
    table = created["table"]["id"]
    tokens = [inv["token"] for inv in created["invites"]]
    bob = pg.context.new_page()  # each takes their seat by opening their link
    bob.goto(server.url + created["invites"][1]["url"])
    pg.goto(server.url + created["invites"][0]["url"])
    pg.wait_for_function(
        "() => !['Waiting for every player to join', 'Loading…'].includes("
        "document.querySelector('[data-testid=turn]').textContent)"
    )
    # the pages used the invites: the seats' credentials (issue 29)
    tokens = [seat_token(page, table, t) for page, t in zip((pg, bob), tokens, strict=True)]
    for _ in range(50):  # both play their first legal action over HTTP until the turn limit
        states = [
            httpx.get(f"{server.url}/api/tables/{table}/state", params={"token": tok}).json()
            for tok in tokens
        ]
        if states[0]["status"] == "finished":
            break
        seat = next(i for i, st in enumerate(states) if st["legal"])
        action = {
            "token": tokens[seat],
            "seq": states[seat]["seq"],
            "action": states[seat]["legal"][0],
        }
        answer = httpx.post(f"{server.url}/api/tables/{table}/actions", json=action)
        assert answer.status_code == 200, answer.text
    else:
        raise AssertionError("the one-turn game did not end")
    pg.locator("[data-testid=end-row]").first.wait_for()
    bob.close()
    pg.click("[data-testid=play-again]")
    link = pg.locator("[data-testid=again-link]")
    link.wait_for()
    assert link.count() == 1 and link.get_attribute("data-seat") == "1"
    bob_url = link.input_value()
    assert "token=" in bob_url and f"/t/{table}" not in bob_url
    pg.click("[data-testid=again-go]")
    pg.wait_for_url(re.compile(r"/t/(?!" + table + r")\w+"))
    # Ann is seated; Bob's seat is open, so nobody sees a hand yet (issue 29)
    pg.wait_for_function("() => document.querySelector('#you').textContent === 'You play Ann'")
    assert pg.locator("[data-testid=hand-tile]").count() == 0
    new_table = urlparse(pg.url).path.split("/t/")[1]
    assert urlparse(bob_url).path == f"/t/{new_table}"
    summary = httpx.get(f"{server.url}/api/tables/{new_table}").json()
    assert [(s["kind"], s["name"]) for s in summary["seats"]] == [
        ("human", "Ann"),
        ("human", "Bob"),
    ]
    assert summary["options"]["max_turns"] == 1
    assert errors.messages == [], errors.messages
