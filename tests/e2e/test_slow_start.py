"""A share link opened while the setup screen still waits for what it loads (the difficulty
table, the missions' catalogue from the engine): the shared game stays on screen when those
arrive.  On a slow phone the setup's late redraw put the setup back over the game just opened
(seen on a 2-core machine with a tournament beside the suite, and at 8x CPU throttling)."""
from __future__ import annotations

from e2e_helpers import open_app, sample_table, wait_events
from test_companion import share_link

FRAMES = "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def test_a_shared_game_stays_on_screen_when_the_setup_loads_late(new_context, server):
    context = new_context()
    held = []
    context.route("**/difficulty.json", lambda route: held.append(route))  # answered once the game is shown
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    table = sample_table()
    open_app(page, share_link(server.url, table))
    wait_events(page, len(table["events"]))
    assert held, "the setup screen asked for the difficulty table before the shared game opened"
    with page.expect_response("**/difficulty.json") as response:
        held[0].fallback()
    response.value.finished()
    page.evaluate(FRAMES)  # the setup's handler of the answer has run
    assert page.locator(".setup").count() == 0
    assert page.locator(".log .events li").count() == len(table["events"])
    assert not errors
