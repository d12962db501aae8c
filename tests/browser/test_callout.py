"""Call-out mode in the browser (issue 13, point 5 and its browser test).

"A browser test: a game in call-out mode where the human makes a right call and a false
alarm by clicking, to the end." Ann (the human) plays a family game against Bob, a greedy
bot, on a seeded table. The test keeps its own copy of the game (replaying the actions
the page's log shows from the seed) as its oracle: at each of Ann's checks it knows
whether mayhem stands, and Ann makes a right call (clicking a tile the engine says takes
part in the mayhem), a false alarm (clicking a tile of a clean pyramid) and says "Looks
fine" over mayhem once, which Bob, who checks perfectly, finds at his next check: the
"Overlooked mayhem found" badge must show then, and never before. Ann places the first
tile that fits by the oracle (the table sends no fit hints: none may show). Along the
way: no spot, fit mark or hint during a check, every tile callable, "Bob is checking the
pyramid" on Ann's page, the French check panel; at the end the replay marks where mayhem
was overlooked and where it was found. A second test checks the lobby's option.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from pyramids.core import CHANCE
from pyramids.flaming.mayhem import called_keys
from pyramids.flaming.state import FlamingState
from pyramids.flaming.tiles import spot_name
from pyramids.flaming.view import placement_hints
from pyramids.games import make_game
from tests.browser.conftest import (
    PageErrors,
    seat_token,
    shown_seq,
    submit_create,
    wait_after_action,
)
from tests.live import LiveServer

SEED = 26
"""With Ann's choices below this deal gives a right call at Ann's 6th decision, the false
alarm at her 2nd, the overlooked "Looks fine" at her 16th and Bob finding it right after;
about 56 decisions of Ann in all (the server seeds its bot, so the game is the same every
run)."""
OPTIONS = {"preset": "basic", "callout": "family"}
MAX_DECISIONS = 400

NEXT_DECISION = """() => {
  const shown = (el) => el !== null && el.offsetParent !== null;
  if (shown(document.querySelector('[data-testid=ranking]'))) return 'over';
  if (shown(document.querySelector('[data-testid=check-panel]'))) return 'check';
  if (shown(document.querySelector('[data-testid=fall-left]'))) return 'fall';
  if (document.querySelector('[data-testid=hand-tile]:not([disabled])')) return 'place';
  return false;
}"""

RECORDER = """(() => {
  // What the page showed between the test's looks: every text of the turn line, and
  // the first moment the overlooked badge appeared (with the log's latest entry then).
  window.__seen = { turns: [], badge: null };
  const latest = () => Math.max(0, ...[...document.querySelectorAll('[data-testid=log] li.log-entry')]
    .map((li) => Number(li.dataset.seq)));
  const look = () => {
    const turn = document.querySelector('[data-testid=turn]');
    const text = turn ? turn.textContent : '';
    const turns = window.__seen.turns;
    if (text && turns[turns.length - 1] !== text) turns.push(text);
    const badge = document.querySelector('[data-testid=overlooked-badge]');
    if (badge && window.__seen.badge === null) {
      window.__seen.badge = { latest: latest(), text: badge.textContent, variant: badge.dataset.variant };
    }
  };
  document.addEventListener('DOMContentLoaded', () => {
    new MutationObserver(look).observe(document.body,
      { subtree: true, childList: true, characterData: true, attributes: true });
  });
})();"""

LOG = """() => [...document.querySelectorAll('[data-testid=log] li.log-entry')].map((li) => [
  Number(li.dataset.seq), li.querySelector('.log-action').textContent,
  [...li.querySelectorAll('.log-event')].map((e) => e.className)])"""


def _wait_after_action(page: Any, before: int) -> None:
    """Until the page shows a later state; the server refused nothing (no toast)."""
    wait_after_action(page, before)
    assert page.locator(".toast-error").count() == 0, page.locator(".toast-error").inner_text()


class Oracle:
    """The test's own copy of the game: the seed's deal and every action of the page's log."""

    def __init__(self, options: dict[str, Any]) -> None:
        game = make_game("flaming", 2, options, engine="python")  # the test's own, Python copy
        state = game.new_initial_state(SEED)
        assert isinstance(state, FlamingState)
        self.state: FlamingState = state
        self.seq = 0
        self.events: dict[int, list[Any]] = {}

    def catch_up(self, page: Any) -> FlamingState:
        """Apply the actions the page's log shows since the last look; the true state."""
        entries = sorted(page.evaluate(LOG))
        for seq, action, _classes in entries:
            if seq <= self.seq:
                continue
            assert seq == self.seq + 1, (seq, self.seq)
            self.state.apply(self.state.parse_action(action))
            self.events[seq] = self.state.events()
            self.seq = seq
        assert self.seq == shown_seq(page), (self.seq, shown_seq(page))
        assert self.state.current_player() != CHANCE
        return self.state

    def first_fitting_placement(self, legal: list[str]) -> tuple[str, str]:
        """Ann's placement: the first legal one whose tile fits (the engine's own fit rule),
        else the first; (tile, spot)."""
        hints = placement_hints(self.state.view(0))
        assert hints is not None
        for action in legal:
            tile, spot = action.split("@")
            if hints["spots"][tile][spot]["fits"]:
                return tile, spot
        tile, spot = legal[0].split("@")
        return tile, spot


def _server_state(server: LiveServer, table: str, token: str) -> dict[str, Any]:
    response = httpx.get(f"{server.url}/api/tables/{table}/state", params={"token": token})
    assert response.status_code == 200, response.text
    return dict(response.json())


def _check_nothing_tells(page: Any, msg: dict[str, Any]) -> None:
    """During Ann's check: the question and its answers, every tile callable and alike,
    no spot, no fit mark, no hint (issue 13: "never show anything that tells whether
    mayhem stands")."""
    panel = page.locator("[data-testid=check-panel]")
    assert "Check the pyramid: does anything break a rule?" in panel.inner_text()
    assert page.locator("[data-testid=check-ok]").inner_text().strip() == "Looks fine"
    tiles = page.locator("[data-testid=pyramid] [data-testid=tile]")
    callable_ = page.locator("[data-testid=pyramid] [data-testid=tile].callable")
    assert tiles.count() == len(msg["view"]["pyramid"]) == callable_.count()
    classes = set(
        callable_.evaluate_all(
            "els => els.map(e => [...e.classList].filter(c => c !== 'quenched').sort().join(' '))"
        )
    )
    assert classes == {"callable tile"}, classes
    assert page.locator("[data-testid=spot], .spot.misfit, .spot-hint").count() == 0
    assert msg["hints"] is None
    assert msg["legal"][0] == "ok"
    assert sorted(msg["legal"][1:]) == sorted(
        f"call:{item.split('@')[1]}" for item in msg["view"]["pyramid"]
    )
    assert "overlooked" not in msg["view"]


def _check_french(page: Any) -> None:
    """The check panel in French, then back in English."""
    page.click("[data-testid=lang-fr]")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    panel = page.locator("[data-testid=check-panel]")
    assert "Vérifiez la pyramide" in panel.inner_text()
    assert page.locator("[data-testid=check-ok]").inner_text().strip() == "Tout va bien"
    page.click("[data-testid=lang-en]")
    page.wait_for_function("() => document.documentElement.lang === 'en'")


def _entry_kinds(page: Any, seq: int) -> set[str]:
    """The event kinds of the page's log entry ``seq``."""
    for entry_seq, _action, classes in page.evaluate(LOG):
        if entry_seq == seq:
            return {c.removeprefix("log-event ev-") for c in classes}
    raise AssertionError(f"no log entry {seq}")


def test_a_call_out_game_with_a_right_call_and_a_false_alarm_by_clicking(
    browser_page: tuple[Any, PageErrors], server: LiveServer, artifacts: Path
) -> None:
    """Issue 13: "a browser test: a game in call-out mode where the human makes a right
    call and a false alarm by clicking, to the end"."""
    pg, errors = browser_page
    body = {
        "game": "flaming",
        "seats": [
            {"kind": "human", "name": "Ann"},
            {"kind": "bot", "bot": "greedy", "name": "Bob"},
        ],
        "options": OPTIONS,
        "seed": SEED,
        "bot_delay": 0,
    }
    created = httpx.post(f"{server.url}/api/tables", json=body).json()
    table = created["table"]
    assert table["settings"]["hints"] is False  # a call-out table sends no fit hints
    token = created["invites"][0]["token"]
    oracle = Oracle(table["options"])
    pg.add_init_script(RECORDER)
    pg.goto(f"{server.url}{created['invites'][0]['url']}")
    pg.locator("[data-testid=pyramid]").wait_for()
    token = seat_token(pg, table["id"], token)  # the page used the invite (issue 29)
    panel = pg.locator("[data-testid=callout-panel]").inner_text().lower()
    assert panel.startswith("call-out: family") and "out of the game" in panel
    assert "no fit hints at this table" in panel

    done = {"right": 0, "alarm": 0, "overlooked": 0}
    overlooked_at = 0  # the seq of Ann's "Looks fine" over mayhem
    decisions = 0
    quick = False
    shot = False
    while True:
        kind = pg.wait_for_function(NEXT_DECISION, timeout=60_000).json_value()
        if kind == "over":
            break
        decisions += 1
        assert decisions <= MAX_DECISIONS, "the game does not end"
        state = oracle.catch_up(pg)
        seen = pg.evaluate("() => window.__seen")
        if not done["overlooked"]:
            assert seen["badge"] is None, "the badge showed before any mayhem was overlooked"
        elif not shot and pg.locator("[data-testid=overlooked-badge]").count():
            shot = True
            pg.screenshot(path=str(artifacts / "callout-found.png"), full_page=True)
        before = shown_seq(pg)
        msg = _server_state(server, table["id"], token)
        assert msg["seq"] == before and msg["hints"] is None
        if kind == "check":
            _check_nothing_tells(pg, msg)
            if not any(done.values()):
                pg.screenshot(path=str(artifacts / "callout-check.png"), full_page=True)
                _check_french(pg)
            keys = called_keys(state.position, state.options.curse_on)
            if keys and (not done["right"] or done["overlooked"]):
                spot = spot_name(min(keys))
                pg.click(f"[data-testid=pyramid] [data-testid=tile][data-spot='{spot}']")
                _wait_after_action(pg, before)
                assert "call" in _entry_kinds(pg, before + 1)
                done["right"] += 1
            elif keys:
                pg.click("[data-testid=check-ok]")
                _wait_after_action(pg, before)
                assert "check_ok" in _entry_kinds(pg, before + 1)
                overlooked_at = before + 1
                done["overlooked"] += 1
            elif not done["alarm"]:
                spot = msg["legal"][1].removeprefix("call:")
                pg.click(f"[data-testid=pyramid] [data-testid=tile][data-spot='{spot}']")
                _wait_after_action(pg, before)
                pg.locator("[data-testid=false-alarm]").wait_for()
                assert pg.locator("[data-testid=false-alarm]").inner_text() == "False alarm"
                assert "false_alarm" in _entry_kinds(pg, before + 1)
                done["alarm"] += 1
            else:
                pg.click("[data-testid=check-ok]")
                _wait_after_action(pg, before)
        elif kind == "fall":
            pg.click("[data-testid=fall-left]")
            _wait_after_action(pg, before)
        else:
            tile, spot = oracle.first_fitting_placement(msg["legal"])
            pg.click(f"[data-testid=hand-tile][data-tile='{tile}']")
            pg.locator(f"[data-testid=spot][data-spot='{spot}']").wait_for()
            marks = pg.locator("[data-testid=spot] .spot-hint").evaluate_all(
                "els => els.map(e => e.textContent.trim())"
            )
            assert marks and set(marks) == {""}, "a fit mark without hints"
            assert pg.locator("[data-testid=spot].misfit").count() == 0
            pg.click(f"[data-testid=spot][data-spot='{spot}']")
            _wait_after_action(pg, before)
        if all(done.values()) and not quick and pg.evaluate("() => window.__seen")["badge"]:
            quick = True
            pg.select_option("[data-testid=speed]", "off")  # the rest: no animations
    assert done["right"] and done["alarm"] and done["overlooked"], done
    oracle.catch_up(pg)
    seen = pg.evaluate("() => window.__seen")
    assert "Bob is checking the pyramid" in seen["turns"]
    assert "Your check: does anything break a rule?" in seen["turns"]
    badge = seen["badge"]
    assert badge is not None, "the overlooked mayhem was never found"
    assert badge["text"].startswith("Overlooked mayhem found")
    assert "the tiles go out of the game" in badge["text"] and badge["variant"] == "family"
    found_at = [
        seq
        for seq, events in oracle.events.items()
        if any(e.kind == "call" and e.data["overlooked"] for e in events)
    ]
    assert found_at and found_at[0] > overlooked_at
    assert badge["latest"] == found_at[0], (badge, found_at)  # when the call came, not before
    assert pg.locator("[data-testid=ranking] li").count() == 2
    assert oracle.state.is_terminal()
    pg.screenshot(path=str(artifacts / "callout-end.png"), full_page=True)

    # The replay: where mayhem was overlooked and where it was found.
    pg.goto(f"{server.url}/t/{table['id']}/replay")
    marks = pg.locator("[data-testid=replay-mark]")
    marks.first.wait_for()
    kinds = marks.evaluate_all("els => els.map(e => [e.dataset.kind, Number(e.dataset.index)])")
    assert ["overlooked", overlooked_at] in kinds and ["found", found_at[0]] in kinds, kinds
    pg.locator(f"[data-testid=replay-mark][data-kind=found][data-index='{found_at[0]}']").click()
    assert pg.locator("[data-testid=replay-step]").inner_text().startswith(f"{found_at[0]} /")
    assert pg.locator("[data-testid=replay-found]").inner_text() == "Overlooked mayhem found"
    pg.locator(
        f"[data-testid=replay-mark][data-kind=overlooked][data-index='{overlooked_at}']"
    ).click()
    assert pg.locator("[data-testid=replay-overlooked]").is_visible()
    pg.screenshot(path=str(artifacts / "callout-replay.png"), full_page=True)
    assert errors.messages == [], errors.messages


def test_the_lobby_offers_call_out_with_both_variants_explained_in_english_and_french(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """Issue 13: "the lobby offers the option with a one-line explanation of both variants
    in English and French"; the hints box follows it ("hints are off in call-out games
    unless the table allows them")."""
    pg, errors = browser_page
    pg.goto(server.url + "/")
    form = pg.locator("[data-testid=create-form]")
    form.locator("select[name=game]").select_option("flaming")
    form.locator("select[name=players]").select_option("2")
    pg.wait_for_selector("[data-testid=seat-kind-1]")
    select = pg.locator("[data-testid=option-callout]")
    assert select.is_visible()  # with the other options, not under "More settings"
    labels = select.locator("option").evaluate_all("els => els.map(e => [e.value, e.textContent])")
    assert labels == [
        ["off", "off: the game resolves mayhem"],
        ["family", "family"],
        ["competitive", "competitive"],
    ]
    family = pg.locator("[data-testid=option-help-callout-family]")
    competitive = pg.locator("[data-testid=option-help-callout-competitive]")
    assert family.inner_text() == (
        "Family: overlooked mayhem found later puts the tiles out of the game."
    )
    assert competitive.inner_text() == (
        "Competitive: the player whose turn it is when it is found takes the tiles."
    )
    hints = pg.locator("[data-testid=create-hints]")
    assert hints.is_checked()  # an ordinary game: hints on
    select.select_option("family")
    assert not hints.is_checked()  # a call-out game: off unless the table allows them

    pg.click("[data-testid=lang-fr]")
    pg.wait_for_function("() => document.documentElement.lang === 'fr'")
    assert family.inner_text() == (
        "Famille : un chaos passé inaperçu et découvert plus tard met les tuiles hors du jeu."
    )
    assert competitive.inner_text() == (
        "Compétition : le joueur dont c'est le tour quand on le découvre prend les tuiles."
    )
    assert select.input_value() == "family"  # the choice survives the language switch
    assert "famille" in select.locator("option:checked").inner_text()
    assert not hints.is_checked()
    pg.click("[data-testid=lang-en]")
    pg.wait_for_function("() => document.documentElement.lang === 'en'")

    pg.select_option("[data-testid=seat-kind-0]", "human")
    pg.select_option("[data-testid=seat-kind-1]", "greedy")
    ids = []
    for allow in (False, True):
        if allow:
            hints.check()
        ids.append(submit_create(pg))
    for table_id, allow in zip(ids, (False, True), strict=True):
        summary = httpx.get(f"{server.url}/api/tables/{table_id}").json()
        assert summary["options"]["callout"] == "family"
        assert summary["settings"]["hints"] is allow
    assert errors.messages == [], errors.messages
