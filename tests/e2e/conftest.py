"""Fixtures for the end-to-end tests: the built site served on localhost, and
headless Chromium driven by Playwright with every non-localhost request blocked.

`python build.py test` builds dist/, installs Chromium and sets
BOMBBUSTER_DIST / BOMBBUSTER_CHROMIUM. Run directly, the fixtures build the site
themselves (tests/conftest.py) and look for a system Chromium; without a browser the
tests fail, unless BOMBBUSTER_SKIP_E2E=1 (never under CI) makes them skip.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path
from urllib.parse import urlparse

import build  # the repo root's build.py (on the path from tests/conftest.py): the server
import pytest

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 800}
# Every wait of the browser tests is for a signal (a state the page shows); this cap only stops a
# page that hangs.  Not a guess of how long the page takes: a busy 2-core machine (a tournament
# beside the suite) made a 60 s wait for a tiny table's analysis fail (issue 30 item 8).
SIGNAL_CAP_MS = 600_000
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]


class SiteServer:
    """The static site on 127.0.0.1 in a background thread; can be stopped."""

    def __init__(self, directory: Path):
        self.httpd = build.make_server(directory, 0)
        self.url = f"http://localhost:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        if self.thread.is_alive():
            self.httpd.shutdown()
            self.httpd.server_close()


@pytest.fixture(scope="session")
def server(site_dir):
    site = SiteServer(site_dir)
    yield site
    site.stop()


@pytest.fixture
def private_server(site_dir):
    """A server of its own, for tests that stop it (offline)."""
    site = SiteServer(site_dir)
    yield site
    site.stop()


@pytest.fixture(scope="session")
def browser(missing_piece):
    try:
        from playwright.sync_api import Error as PlaywrightError, sync_playwright
    except ImportError:
        missing_piece("playwright is not installed: run `python build.py test`, which sets it up")
    setting = os.environ.get("BOMBBUSTER_CHROMIUM")
    if setting is None:
        setting = build.find_chromium()
        if setting is None:
            missing_piece("no Chromium found: run `python build.py test`, which installs it")
    with sync_playwright() as playwright:
        try:
            launched = playwright.chromium.launch(executable_path=setting or None, args=CHROMIUM_FLAGS)
        except PlaywrightError as exc:
            missing_piece(f"Chromium could not be started ({setting or 'Playwright bundled'}): {exc}")
        yield launched
        launched.close()


def block_outside(route):
    host = urlparse(route.request.url).hostname
    if host in ("localhost", "127.0.0.1", "::1") or route.request.url.startswith(("data:", "blob:")):
        route.continue_()
    else:
        route.abort()


@pytest.fixture
def new_context(browser):
    """Factory: new_context(viewport=PHONE) → a context with outside requests blocked, whose waits
    are capped by SIGNAL_CAP_MS only."""
    contexts = []

    def make(viewport=PHONE, **options):
        context = browser.new_context(viewport=viewport, accept_downloads=True, **options)
        context.set_default_timeout(SIGNAL_CAP_MS)
        context.route("**/*", block_outside)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_context, server):
    """A phone-sized page; the test fails if the page throws an uncaught error."""
    context = new_context()
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    assert not errors, f"uncaught errors in the page: {errors}"
