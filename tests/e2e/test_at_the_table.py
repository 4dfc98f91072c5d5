"""What a player trips over at the table (issue 21), each reproduced on a touch phone
(390×844; landscape 844×390) and checked after the fix:

1. a call that is certain only if the player holds the value says so ("✓ certain if
   Bob holds a 12 (40%)"), and the panel says whose moves it lists;
2. a double tap (two real taps 150 ms apart) does not let the second tap land on
   the control the first one put under the finger;
3. a game opened from ☰ → Games is the one a reload reopens;
4. the first tap after editing a player's name is not lost;
5. landscape: the table beside the recorder, a dual cut recorded by taps with the
   table on screen, and a refusal's toast never over Back/Cancel (portrait too);
6. texts name seats and stands as the page does, not the engine's "player 3 stand 0";
7. the Walkie-Talkies' private step can be skipped; the token keypad marks the value
   that just failed ✗; even/odd and ×1–×3 tokens only where the mission uses them;
   my own wires pre-filled (radar answer, own-wire steps); "the deal is known" once
   every wire is cut; after the last cut the win banner on screen and no cut button;
8. axe-core with label-content-name-mismatch finds nothing serious on a mid-game
   table with values, tokens and cut wires, and while recording.
"""
from __future__ import annotations

import json
import time

import pytest

from conftest import PHONE
from e2e_helpers import (
    action, cli_suggest, export_table, open_app, sample_table, slot, tap, touch_phone, value, wait_events,
)
from test_companion import AXE, share_link, tool

LANDSCAPE = {"width": 844, "height": 390}
DOUBLE_TAP_GAP_S = 0.15  # a finger's double tap: the second tap 150 ms after the first


def phone(new_context, viewport=PHONE):
    context = new_context(viewport=viewport, has_touch=True, is_mobile=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, errors


def public(table: dict) -> dict:
    return {k: v for k, v in table.items() if k != "me"}


def center(page, selector):
    box = page.locator(selector).first.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def double_tap(page, selector):
    x, y = center(page, selector)
    page.touchscreen.tap(x, y)
    time.sleep(DOUBLE_TAP_GAP_S)
    page.touchscreen.tap(x, y)


def uncovered(page, selector) -> bool:
    """The element is on screen and its centre is not under anything else (a toast, a bar)."""
    return page.locator(selector).first.evaluate("""(e) => {
      const r = e.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
      const hit = document.elementFromPoint(x, y);
      return Boolean(hit) && (hit === e || e.contains(hit));
    }""")


def an_article(v) -> str:
    return "a yellow" if v == "yellow" else f"{'an' if v in (8, 11, 18) else 'a'} {v}"


def percent_text(p: float) -> str:
    """web/js/suggestions.js riskText for 10 % ≤ p < 99.5 %."""
    return f"{round(p * 100)}%" if p >= 0.1 else f"{p * 100:.1f}%"


# ---------------------------------------------------------------- 1. advice that hides its condition


def test_a_certain_call_names_its_condition_and_the_panel_says_whose_moves(new_context, server):
    page, errors = phone(new_context)
    table = public(sample_table())  # a public game: Bob is to move after Ann's failed cut
    open_app(page, share_link(server.url, table))
    page.wait_for_selector(".suggestions[data-state='ok'][data-player='1'] .suggestion", timeout=120_000)
    cli = cli_suggest(table, "--player", "1")
    conditional = [s for s in cli["suggestions"] if s["certain"] and s["p_legal"] < 1]
    assert conditional, "the sample's public view has calls that are certain only if Bob holds the value"
    for s in conditional:
        rank = cli["suggestions"].index(s)
        text = page.locator(f".suggestions .suggestion[data-rank='{rank}']").inner_text()
        assert f"✓ certain if Bob holds {an_article(s['value'])} ({percent_text(s['p_legal'])})" in text, text
        assert "the player" not in text
    assert page.locator("#sug-whose").inner_text() == "Moves for Bob · to play now"
    # With my wires: the list stays mine while a teammate plays, and says so.
    page2, errors2 = phone(new_context)
    open_app(page2, share_link(server.url, sample_table()))
    page2.wait_for_selector(".suggestions[data-state='ok'][data-player='0'] .suggestion", timeout=120_000)
    assert page2.locator("#sug-whose").inner_text() == "Moves for Ann (you) · Bob plays now"
    assert page2.locator(".sug-players button[data-player='1'] .to-move").count() == 1
    assert not errors and not errors2


# ---------------------------------------------------------------- 2. double taps


def test_a_double_tap_does_not_reach_the_control_that_replaced_the_first(new_context, server):
    page, errors = phone(new_context)
    open_app(page, share_link(server.url, sample_table()))
    wait_events(page, 3)
    turn = page.locator("#turn").get_attribute("data-player")
    double_tap(page, ".recorder [data-action='dual_cut']")
    page.wait_for_selector(".recorder[data-step]")
    time.sleep(0.3)
    assert page.locator(".recorder").get_attribute("data-step") == "target"
    assert page.locator(".recorder .who[aria-pressed='true']").get_attribute("data-player") == turn
    tap(page, ".recorder [data-action='cancel']")
    page.wait_for_selector(".recorder [data-action='solo_cut']")
    time.sleep(0.6)  # past the guard of the Cancel tap
    double_tap(page, ".recorder [data-action='solo_cut']")
    time.sleep(0.3)
    assert page.locator(".recorder").get_attribute("data-step") == "value", "the second tap picked a value"
    # A tap meant for the new step, a moment later, is taken.
    time.sleep(0.5)
    x, y = center(page, ".recorder .who[data-player='0']")
    page.touchscreen.tap(x, y)
    page.wait_for_selector(".recorder .who[data-player='0'][aria-pressed='true']")
    assert not errors


# ---------------------------------------------------------------- 3. the game a reload reopens


def test_a_game_opened_from_the_menu_is_the_one_a_reload_reopens(new_context, server):
    page, errors = phone(new_context)
    first = sample_table()
    second = {**sample_table(), "players": [{"name": n, "stands": [s]} for n, s in
                                            zip(["Eve", "Fay", "Gus", "Hal"], [13, 13, 13, 12])]}
    open_app(page, share_link(server.url, first))
    wait_events(page, 3)
    page.goto(share_link(server.url, second))
    page.wait_for_function("document.getElementById('title').textContent.includes('Eve')")
    wait_events(page, 3)
    tap(page, "#menu-button")
    games = page.locator(".saved-games .menu-item")
    assert games.count() == 2
    page.locator(".saved-games .menu-item", has_text="Ann").tap()
    page.wait_for_function("document.getElementById('title').textContent.includes('Ann')")
    page.reload()
    page.wait_for_selector(".analysis-status.ok #worlds", timeout=120_000)
    assert "Ann" in page.locator("#title").inner_text()
    assert not errors


# ---------------------------------------------------------------- 4. the tap after a name


def test_the_first_tap_after_editing_a_name_is_taken(new_context, server):
    page, errors = phone(new_context)
    open_app(page, server.url)
    tap(page, "[data-action='help-skip']")
    page.wait_for_selector("#mission option[value='1']", state="attached", timeout=120_000)
    for p, name in [(1, "Bob"), (2, "Cy")]:
        page.locator(f"input[data-player='{p}']").tap()
        page.keyboard.type(name)
        # The next tap, on a chip of the form: taken at once (the name too).
        page.locator(f".chips[aria-label='me'] .chip[data-me='{p}']").tap()
        page.wait_for_selector(f".chips[aria-label='me'] .chip[data-me='{p}'][aria-pressed='true']", timeout=3000)
        assert page.locator(f".chips[aria-label='me'] .chip[data-me='{p}']").inner_text() == name
    assert not errors
