"""The replay's controls and the lobby's "Play now" and copy (issue 14, items 7 and 8).

"Replay: autoplay with speed, step back, jump to the next mayhem, hands shown for finished
games, a link to a given step." and "Lobby: after "Create", "Play now" takes the creator to
their seat; invite links copyable with one click." A finished all-bot game (seeded: the same
game every run) is read from GET /api/tables/{id}/replay and compared with what the page shows.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.browser.conftest import DESKTOP, PageErrors, seat_token, submit_create, watch_errors
from tests.http_play import wait_finished
from tests.live import LiveServer
from tests.waiting import wait_until

CALM_KINDS = {"place", "draw", "move"}
"""Event kinds of the ordinary course of play; any other is mayhem (the replay's jump)."""


def finished_table(url: str, game: str, seed: int) -> str:
    """A seeded greedy-against-random game played to its end; its id."""
    body = {
        "game": game,
        "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
        "bot_delay": 0,
        "seed": seed,
    }
    tid: str = httpx.post(f"{url}/api/tables", json=body).json()["table"]["id"]
    wait_finished(url, tid)
    return tid


def is_mayhem(step: dict[str, Any]) -> bool:
    """Whether a step has an event other than a placement, a draw or a move."""
    return any(ev["kind"] not in CALM_KINDS for ev in step["events"] if ev.get("game") != "server")


@pytest.fixture(scope="module")
def flaming_game(server: LiveServer) -> tuple[str, list[dict[str, Any]]]:
    """A finished Flaming Pyramids table and its replay steps."""
    tid = finished_table(server.url, "flaming", 1414)
    return tid, httpx.get(f"{server.url}/api/tables/{tid}/replay").json()


def shown_step(pg: Any) -> int:
    """The seq of the step the replay shows."""
    return int(pg.locator("[data-testid=replay-step]").get_attribute("data-seq") or "-1")


def open_replay(pg: Any, url: str, tid: str, fragment: str = "") -> None:
    """Open a replay and wait until it shows a step."""
    pg.goto(f"{url}/t/{tid}/replay{fragment}")
    pg.wait_for_selector("[data-testid=replay-step][data-seq]")


def test_autoplay_advances_at_the_chosen_speed_and_pauses(
    browser_page: tuple[Any, PageErrors],
    server: LiveServer,
    flaming_game: tuple[str, list[dict[str, Any]]],
) -> None:
    """Play moves through the steps by itself; Pause stops it where it is."""
    pg, errors = browser_page
    tid, _ = flaming_game
    open_replay(pg, server.url, tid)
    assert shown_step(pg) == 0
    pg.select_option("[data-testid=replay-speed]", "4")
    play = pg.locator("[data-testid=replay-play]")
    play.click()
    assert play.get_attribute("aria-pressed") == "true"
    assert play.inner_text() == "Pause"
    pg.wait_for_function(
        "() => Number(document.querySelector('[data-testid=replay-step]').dataset.seq) >= 3"
    )
    play.click()
    assert play.get_attribute("aria-pressed") == "false"
    stopped = shown_step(pg)
    pg.wait_for_timeout(800)
    assert shown_step(pg) == stopped
    assert errors.messages == [], errors.messages


def test_step_back_and_a_link_to_a_step_opens_there(
    browser_page: tuple[Any, PageErrors],
    server: LiveServer,
    flaming_game: tuple[str, list[dict[str, Any]]],
) -> None:
    """`#step=N` opens at step N; ◀ and ← step back; the address follows the step; the
    "Link to this step" button copies that address."""
    pg, errors = browser_page
    pg.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    tid, steps = flaming_game
    n = min(7, len(steps) - 1)
    open_replay(pg, server.url, tid, f"#step={n}")
    assert shown_step(pg) == n
    assert pg.locator("[data-testid=replay-step]").inner_text().startswith(f"{n} /")
    pg.click("[data-testid=replay-prev]")
    assert shown_step(pg) == n - 1
    pg.keyboard.press("ArrowLeft")
    assert shown_step(pg) == n - 2
    assert pg.evaluate("location.hash") == f"#step={n - 2}"
    pg.click("[data-testid=replay-link]")
    pg.wait_for_function("() => document.querySelector('[data-testid=replay-link]').dataset.url")
    copied = pg.evaluate("navigator.clipboard.readText()")
    assert copied == f"{server.url}/t/{tid}/replay#step={n - 2}"
    # The copied link, opened in a fresh page, shows that step.
    other = pg.context.new_page()
    open_replay(other, server.url, tid, f"#step={n - 2}")
    assert shown_step(other) == n - 2
    other.close()
    assert errors.messages == [], errors.messages


def test_next_mayhem_jumps_to_the_next_step_with_mayhem(
    browser_page: tuple[Any, PageErrors],
    server: LiveServer,
    flaming_game: tuple[str, list[dict[str, Any]]],
) -> None:
    """Each press lands on the next step whose events include more than place/draw/move."""
    pg, errors = browser_page
    tid, steps = flaming_game
    mayhem = [s["seq"] for s in steps if is_mayhem(s)]
    assert len(mayhem) >= 2, "the seeded game should hold mayhem"
    open_replay(pg, server.url, tid)
    button = pg.locator("[data-testid=replay-next-mayhem]")
    for expected in mayhem[:3]:
        button.click()
        assert shown_step(pg) == expected
        assert "mayhem" in (
            pg.locator("[data-testid=replay-sentence]").get_attribute("class") or ""
        )
    pg.click("[data-testid=replay-last]")
    assert button.is_disabled()
    assert errors.messages == [], errors.messages


def test_steps_read_as_sentences_with_the_notation_in_the_tooltip(
    browser_page: tuple[Any, PageErrors],
    server: LiveServer,
    flaming_game: tuple[str, list[dict[str, Any]]],
) -> None:
    """Steps read "greedy plays G10 at 3,-1", not "greedy: G10@3,-1"; notation in the title."""
    pg, errors = browser_page
    tid, steps = flaming_game
    step = next(s for s in steps if s["action"] and "@" in s["action"])
    open_replay(pg, server.url, tid, f"#step={step['seq']}")
    sentence = pg.locator("[data-testid=replay-sentence]")
    text = sentence.inner_text()
    assert step["action"] not in text and "@" not in text, text
    assert ["greedy", "random"][step["seat"]] in text
    assert step["action"] in (sentence.get_attribute("title") or "")
    pg.click("[data-testid=lang-fr]")
    assert " pose " in sentence.inner_text(), sentence.inner_text()
    assert errors.messages == [], errors.messages


def test_hands_are_shown_at_every_step_of_a_finished_game(
    browser_page: tuple[Any, PageErrors],
    server: LiveServer,
    flaming_game: tuple[str, list[dict[str, Any]]],
) -> None:
    """The game is over, so the replay shows every seat's hand as it was at that step."""
    pg, errors = browser_page
    tid, steps = flaming_game
    open_replay(pg, server.url, tid)
    assert pg.locator("[data-testid=replay-hands-open]").is_visible()
    for step in (steps[0], steps[len(steps) // 2], steps[-1]):
        pg.evaluate(f"location.hash = 'step={step['seq']}'")
        pg.wait_for_function(
            f"() => document.querySelector('[data-testid=replay-step]').dataset.seq === "
            f"'{step['seq']}'"
        )
        for seat, hand in enumerate(step["state"]["hands"]):
            tiles = pg.locator(f".replay-hand[data-seat='{seat}'] .mini-tiles svg")
            assert tiles.count() == len(hand), (step["seq"], seat, hand)
            if hand:
                assert tiles.first.is_visible()
    assert errors.messages == [], errors.messages


def test_flags_replay_shows_both_hands_and_jumps_to_mayhem(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """The same controls for Pyramids and Flags: the page names no game."""
    pg, errors = browser_page
    tid = finished_table(server.url, "flags", 1415)
    steps = httpx.get(f"{server.url}/api/tables/{tid}/replay").json()
    open_replay(pg, server.url, tid)
    hands = pg.locator(".replay-hand")
    assert hands.count() == len(steps[0]["state"]["hands"])
    assert hands.first.is_visible()
    mayhem = [s["seq"] for s in steps if is_mayhem(s)]
    if mayhem:
        pg.click("[data-testid=replay-next-mayhem]")
        assert shown_step(pg) == mayhem[0]
    assert errors.messages == [], errors.messages


def _create_two_humans(pg: Any) -> str:
    """In the lobby: Flaming Pyramids, Ann and Bob (humans) and a greedy bot; the table id."""
    form = pg.locator("[data-testid=create-form]")
    form.locator("select[name=game]").select_option("flaming")
    form.locator("select[name=players]").select_option("3")
    pg.wait_for_selector("[data-testid=seat-kind-2]")
    pg.select_option("[data-testid=seat-kind-0]", "human")
    pg.select_option("[data-testid=seat-kind-1]", "human")
    pg.select_option("[data-testid=seat-kind-2]", "greedy")
    pg.fill("[data-testid=seat-name-0]", "Ann")
    pg.fill("[data-testid=seat-name-1]", "Bob")
    return submit_create(pg)


def test_play_now_takes_the_creator_to_their_own_seat(
    browser_page: tuple[Any, PageErrors], server: LiveServer
) -> None:
    """After Create, "Play now" opens seat 1's invite: the creator plays Ann."""
    pg, errors = browser_page
    pg.goto(server.url + "/")
    tid = _create_two_humans(pg)
    play = pg.locator("[data-testid=play-now]")
    assert play.is_visible() and play.inner_text() == "Play now"
    ann = pg.locator("[data-testid=invite-link][data-seat='0']").get_attribute("href")
    assert ann and play.get_attribute("href") in ann
    play.click()
    pg.wait_for_url(f"**/t/{tid}**")
    pg.locator("[data-testid=pyramid]").wait_for()
    # the table page keeps the seat's credential it got for the invite (and takes the invite
    # out of the address): it is Ann's
    token = seat_token(pg, tid, ann.split("token=")[1])
    pg.wait_for_function(
        "(token) => (localStorage.getItem('pyramids.seats') || '').includes(token)", arg=token
    )
    held = pg.evaluate("JSON.parse(localStorage.getItem('pyramids.seats'))")
    assert [(s["table"], s["seat"]) for s in held if s["token"] == token] == [(tid, 0)]
    wait_until(
        lambda: httpx.get(f"{server.url}/api/tables/{tid}").json()["seats"][0]["claimed"],
        "Ann's seat taken",
    )
    assert not httpx.get(f"{server.url}/api/tables/{tid}").json()["seats"][1]["claimed"]
    assert errors.messages == [], errors.messages


@pytest.mark.parametrize("clipboard_api", [True, False], ids=["clipboard", "fallback"])
def test_copy_puts_the_invite_link_on_the_clipboard(
    browser: Any, server: LiveServer, clipboard_api: bool
) -> None:
    """One click copies Bob's link and says "Copied"; without navigator.clipboard (or when
    it refuses) the old copy command stands in."""
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    context.set_default_timeout(30_000)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    try:
        pg = context.new_page()
        errors = watch_errors(pg)
        if not clipboard_api:
            pg.add_init_script(
                "navigator.clipboard.writeText = () => Promise.reject(new Error('refused'));"
            )
        pg.goto(server.url + "/")
        _create_two_humans(pg)
        bob = pg.locator("[data-testid=invite-link][data-seat='1']").get_attribute("href")
        button = pg.locator("[data-testid=copy-invite][data-seat='1']")
        button.click()
        pg.wait_for_function(
            "() => document.querySelector(\"[data-testid=copy-invite][data-seat='1']\")"
            ".textContent === 'Copied'"
        )
        assert pg.evaluate("navigator.clipboard.readText()") == bob
        pg.wait_for_function(
            "() => document.querySelector(\"[data-testid=copy-invite][data-seat='1']\")"
            ".textContent === 'Copy'"
        )
        assert errors.messages == [], errors.messages
    finally:
        context.close()
