"""Fixtures for the browser tests: a live server, Debian's Chromium driven by Playwright.

The browser is the system's ``/usr/bin/chromium`` (no browser download: never run
``playwright install``). Without it the tests are skipped, except when env ``CI`` is set:
CI must run them, so there they fail. Screenshots go to env ``PYRAMIDS_ARTIFACTS`` or
``test-artifacts/`` at the repository root.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.live import LiveServer, live_server

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
REPO_ROOT = Path(__file__).resolve().parents[2]
DESKTOP = {"width": 1280, "height": 900}


def _unavailable(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run in CI: {why}")
    pytest.skip(why)


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    """A `pyramids serve` process on a fresh SQLite database, for the module."""
    with live_server() as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, launched through Playwright's sync API."""
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} is not installed")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - a dev dependency
        _unavailable("the playwright package is not installed")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where screenshots go (created if needed)."""
    path = Path(os.environ.get("PYRAMIDS_ARTIFACTS") or REPO_ROOT / "test-artifacts")
    path.mkdir(parents=True, exist_ok=True)
    return path


@dataclass
class PageErrors:
    """Console errors and uncaught exceptions a page produced."""

    messages: list[str] = field(default_factory=list)


def watch_errors(pg: Any) -> PageErrors:
    """Collect ``pg``'s console errors and uncaught exceptions from now on."""
    errors = PageErrors()
    pg.on(
        "console",
        lambda msg: (
            errors.messages.append(f"console.{msg.type}: {msg.text}")
            if msg.type == "error"
            else None
        ),
    )
    pg.on("pageerror", lambda exc: errors.messages.append(f"page error: {exc}"))
    return errors


@contextmanager
def page_of(browser: Any, locale: str = "en-GB") -> Iterator[tuple[Any, PageErrors]]:
    """A fresh browser context and page at desktop size in ``locale``, collecting console
    errors; closed after."""
    context = browser.new_context(viewport=DESKTOP, locale=locale)
    context.set_default_timeout(30_000)
    pg = context.new_page()
    errors = watch_errors(pg)
    try:
        yield pg, errors
    finally:
        context.close()


@pytest.fixture
def browser_page(browser: Any) -> Iterator[tuple[Any, PageErrors]]:
    """A fresh page at desktop size in English, collecting console errors."""
    with page_of(browser) as page:
        yield page


def wait_for_hello(
    page: Any, errors: PageErrors | None = None, server: LiveServer | None = None
) -> None:
    """Wait until the table page ``page`` has had its first hello (its chat input is drawn
    then). On a timeout, fail saying what the page showed instead (connection status,
    banner, console errors) and the end of the server's log, so that the cause is read."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.locator("[data-testid=chat-input]").wait_for()
    except PlaywrightTimeout:
        status = page.locator("[data-testid=connection]").text_content(timeout=2_000)
        banner = page.locator("#banner").text_content(timeout=2_000)
        log = ""
        if server is not None and server.stderr_path.exists():
            log = server.stderr_path.read_text(errors="replace")[-3000:]
        messages = errors.messages if errors is not None else []
        raise AssertionError(
            f"no hello at {page.url}: connection {status!r}, banner {banner!r}, "
            f"page errors {messages}, server log ends:\n{log}"
        ) from None


def shown_seq(page: Any) -> int:
    """The state number the table page shows (``data-testid=seq``)."""
    return int(page.locator("[data-testid=seq]").inner_text() or "0")


def wait_after_action(page: Any, before: int) -> None:
    """Until the page shows a state later than ``before``, or the server refused (a toast)."""
    page.wait_for_function(
        """(before) => {
          const seq = Number(document.querySelector('[data-testid=seq]').textContent || 0);
          return seq > before || document.querySelector('.toast-error') !== null;
        }""",
        arg=before,
    )


def submit_create(pg: Any) -> str:
    """In the lobby, with the form filled: create the table; the new table's id."""
    watch = pg.locator("#created-watch")
    before = watch.get_attribute("href")
    pg.click("[data-testid=create-submit]")
    pg.wait_for_function(
        "(before) => document.getElementById('created-watch').getAttribute('href') !== before",
        arg=before,
    )
    href: str | None = watch.get_attribute("href")
    assert href is not None
    return href.removeprefix("/t/")


def seat_token(page: Any, table: str, invite: str) -> str:
    """The seat's credential the table page holds once it opened ``invite``: the server
    hands it over in the hello and the page keeps it instead of the invite, which is dead
    from then on (issue 29: an invite is used once)."""
    key = f"pyramids.token.{table}"
    page.wait_for_function(
        "([key, invite]) => { const v = sessionStorage.getItem(key); return v && v !== invite; }",
        arg=[key, invite],
    )
    return str(page.evaluate("(key) => sessionStorage.getItem(key)", key))
