"""Why is a wire certain? The slot sheet asks the core's ``explain`` (issue 32 item 2) and lists
the recorded events that force it (the CLI's), each named as the page's log names it."""
from __future__ import annotations

from e2e_helpers import cli, open_app, slot, touch_phone
from test_companion import share_link

TABLE = {"players": [{"name": "Ann", "stands": [4]}, {"name": "Bob", "stands": [4]}],
         "wires": {"blue": [1, 2]},
         "events": [
             {"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 1}, "value": 1},
             {"type": "info_token", "at": {"player": 0, "stand": 0, "slot": 2}, "value": 2},
         ]}


def test_a_certain_wire_says_which_events_force_it(new_context, server):
    page, errors = touch_phone(new_context)
    open_app(page, share_link(server.url, TABLE))
    page.wait_for_selector(".analysis-status.ok #worlds")
    slot(page, 1, 0).tap()  # Bob's first wire: a 1, below his token 1
    why = page.locator("#sheet [data-action='why']")
    why.tap()
    page.wait_for_selector("#sheet .why-list li")
    expected = cli("explain", TABLE, "--slot", "1:0:0")
    assert expected["because"] == [{"event": 0, "type": "info_token", "text": "a 1 token on Bob's slot 2"}]
    # The same events as the CLI's, each named as the page's log names it, with its number in the log.
    items = page.locator("#sheet .why-list li")
    assert items.evaluate_all("lis => lis.map((li) => Number(li.dataset.event))") == [r["event"] for r in expected["because"]]
    assert items.all_inner_texts() == ["event 1 (Info token 1 on Bob slot 2)"]
    assert "Bob slot 1 is 1, because:" in page.locator("#sheet #why").inner_text()
    page.click("#sheet [data-action='close-sheet']")
    slot(page, 1, 2).tap()  # Bob's third wire may be a 1 or a 2: nothing to explain
    page.wait_for_selector("#sheet #distribution")
    assert page.locator("#sheet [data-action='why']").count() == 0
    assert not errors
