"""A share link opened while the setup screen still waits for what it loads (the difficulty
table, the missions' catalogue from the engine): the shared game stays on screen when those
arrive.  On a slow phone the setup's late redraw put the setup back over the game just opened
(seen on a 2-core machine with a tournament beside the suite, and at 8x CPU throttling)."""
from __future__ import annotations

from e2e_helpers import open_app, sample_table, wait_events
from test_companion import share_link

HANDLED = "body[data-difficulty='handled']"  # setup.js: its handler of the difficulty table has run (any outcome)


def test_a_shared_game_stays_on_screen_when_the_setup_loads_late(new_context, server):
    # No service worker: its install precaches difficulty.json too, and which of its request and the
    # setup's reaches the route first depends on the machine's load; held[0] would then be the worker's
    # and the setup's answer would never come (the signal version of this test timed out so in a suite run).
    context = new_context(service_workers="block")
    held = []
    context.route("**/difficulty.json", lambda route: held.append(route))  # answered once the game is shown
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    table = sample_table()
    open_app(page, share_link(server.url, table))
    wait_events(page, len(table["events"]))
    assert len(held) == 1, "the setup screen asked for the difficulty table once, before the shared game opened"
    assert page.locator(HANDLED).count() == 0
    held[0].fallback()
    page.wait_for_selector(HANDLED, state="attached")
    assert page.locator(".setup").count() == 0
    assert page.locator(".log .events li").count() == len(table["events"])
    assert not errors
