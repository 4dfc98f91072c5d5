"""Mission 12 ("Wrapped in Red Tape") on a game that does not follow its equipment: the table lists
no board, so no Number card covering a card is recorded, and a card's own pair is not enough to
unlock it there (bombbuster_core/equipment.py COVER_NEEDS, BoardState.unlocked). The page's
"Equipment unlocked" line says it is not told, instead of naming the values whose own pair is cut
(web/js/gamestate.js once listed them as for any other mission). A mission without covers keeps the
list. Chromium at phone size (390x844, touch), every action by taps."""
from __future__ import annotations

import json

from e2e_helpers import open_app, start_without_following_the_equipment, tap, touch_phone, wait_events
from test_m12_covers_page import dual_cut


def unfollowed_game(page, url, mission, yellows, red):
    """A game of ``mission`` whose equipment the players do not follow, nobody's view."""
    open_app(page, url)
    page.wait_for_selector(f"#mission option[value='{mission}']", state="attached")
    page.select_option("#mission", str(mission))
    for key in yellows:
        tap(page, f"[data-group='drawn-yellow'] .chip[data-key='{key}']")
    tap(page, f"[data-group='drawn-red'] .chip[data-key='{red}']")
    page.wait_for_selector(".equipment-setup")
    return start_without_following_the_equipment(page)


def unlocked_line(page):
    """The line's words and the values it lists (None: not told)."""
    line = page.locator("#unlocked")
    return line.inner_text(), json.loads(line.get_attribute("data-values"))


def test_m12_without_its_board_does_not_call_a_card_unlocked(new_context, server):
    page, errors = touch_phone(new_context)
    table = unfollowed_game(page, server.url, 12, ("2.1", "4.1", "7.1", "9.1"), "5.5")
    assert table["meta"]["equipment"]["covers"] == {"range": [1, 12]}  # the core's word: M12 covers its cards
    # The Captain cuts two 6s: the 6's own pair, but whichever Number card covers it is not recorded.
    dual_cut(page, (1, 4), (0, 4), 6)
    wait_events(page, 1)
    words, values = unlocked_line(page)
    assert values is None and "6" not in words
    assert words == "not told: the equipment is not followed, and each card also waits for its Number card's pair"
    assert page.locator("#board").count() == 0
    assert errors == []


def test_a_mission_without_covers_still_lists_the_cards_unlocked(new_context, server):
    page, errors = touch_phone(new_context)
    table = unfollowed_game(page, server.url, 3, (), "5.5")
    assert "covers" not in table["meta"]["equipment"]
    dual_cut(page, (1, 4), (0, 4), 6)
    wait_events(page, 1)
    assert unlocked_line(page) == ("6", ["6"])
    assert errors == []
