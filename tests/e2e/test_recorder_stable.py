"""The recorder stays where it is when a suggestion list lands (web/js/suggestions.js, "settle").

On a touch phone (390×844) the suggestions panel sits above the recorder: a list
arriving from a worker while the player records must not move the recorder
under their finger. The recorder sticks to the screen's foot while the table
above it is read (a list landing then moves nothing: the panel takes its full
height), and sits in the page's flow right under the panel when the page is
scrolled down to them (the panel then keeps its height, a longer list scrolls
inside it). The tests hold the worker's answer in the page (the scripting
API's `suggest` is wrapped and answers only when the test lets it: no sleep
races the worker), open a draft, place the page, let the list land, and
compare the recorder's box before and after. The list is there, and the panel
takes its full height once that moves nothing under the finger (the page
scrolled, or a tap on the panel's "Show in full").
"""
from __future__ import annotations

import pytest

from e2e_helpers import SUGGESTIONS_SETTLED, action, open_app, sample_table, slot, tap, touch_phone, value, wait_events
from test_companion import share_link

# The panel's requests wait in window.heldSuggestions until RELEASE; PASS_THROUGH ends the holding.
HOLD_SUGGESTIONS = """() => {
  const api = window.bombbuster;
  const suggest = api.suggest;
  window.heldSuggestions = [];
  window.passSuggestions = () => { api.suggest = suggest; };
  api.suggest = (table, options) => new Promise((resolve, reject) => {
    window.heldSuggestions.push(() => suggest(table, options).then(resolve, reject));
  });
}"""
# The same from the page's first request on: the API is wrapped as app.js installs it.
HOLD_FROM_THE_START = """{
  const hold = (""" + HOLD_SUGGESTIONS + """);
  Object.defineProperty(window, "bombbuster", { configurable: true, get() { return this.heldApi; },
    set(api) { this.heldApi = api; hold(); } });
}"""
RELEASE = "() => window.heldSuggestions.splice(0).forEach((answer) => answer())"
PASS_THROUGH = "() => window.passSuggestions()"
REQUEST_HELD = "window.heldSuggestions.length > 0 && document.querySelector(\".suggestions[data-state='busy']\")"
LIST_SHOWN = ".suggestions[data-state='ok'] .suggestion:not([disabled])"
PANEL = """() => { const panel = document.querySelector('.suggestions');
  return { held: panel.dataset.held === 'true', height: panel.getBoundingClientRect().height,
           clipped: panel.scrollHeight > panel.clientHeight + 1 }; }"""


# Where the recorder is: "stuck" to the screen's foot (above its place in the page) or "in flow" under the panel.
RECORDER_PLACE = """() => { const panel = document.querySelector('.suggestions').getBoundingClientRect();
  const recorder = document.querySelector('.recorder');
  const natural = panel.bottom + parseFloat(getComputedStyle(recorder).marginTop);
  return recorder.getBoundingClientRect().top < natural - 0.5 ? 'stuck' : 'in flow'; }"""
# Scrolls the panel's foot to mid-screen: the recorder then follows it in the page.
PANEL_FOOT_MID_SCREEN = """() => window.scrollBy(0,
  document.querySelector('.suggestions').getBoundingClientRect().bottom - window.innerHeight / 2)"""


def place(page, where: str) -> None:
    """Scrolls the page so that the recorder is ``where`` (RECORDER_PLACE) and checks it is."""
    page.evaluate("window.scrollTo(0, 0)" if where == "stuck" else PANEL_FOOT_MID_SCREEN)
    assert page.evaluate(RECORDER_PLACE) == where


def recorder_y(page) -> float:
    return page.locator(".recorder").bounding_box()["y"]


def recorder_y_on_screen(page) -> float:
    y = recorder_y(page)
    assert 0 <= y < 844, f"the recorder is on screen while the player records (y = {y})"
    return y


@pytest.mark.parametrize("where", ["stuck", "in flow"])
def test_a_list_landing_during_a_draft_does_not_move_the_recorder(new_context, server, where):
    """After an event, the next list is computed while the player opens a dual cut."""
    page, errors = touch_phone(new_context)
    open_app(page, share_link(server.url, sample_table()))
    wait_events(page, 3)
    page.evaluate(HOLD_SUGGESTIONS)
    action(page, "info_token")  # Cy's first wire carries a 1
    slot(page, 2, 0).tap()
    value(page, 1)
    page.wait_for_function("document.querySelectorAll('.log .events li').length === 4")
    page.wait_for_selector(".analysis-status.ok #worlds")
    page.wait_for_function(REQUEST_HELD)
    tap(page, ".recorder [data-action='dual_cut']")
    page.wait_for_selector(".recorder[data-step='target']")
    place(page, where)
    before = recorder_y_on_screen(page)
    page.evaluate(RELEASE)
    page.wait_for_selector(LIST_SHOWN)
    assert page.locator(".recorder").get_attribute("data-step") == "target"
    moved = recorder_y(page) - before
    assert abs(moved) < 0.5, f"the recorder moved by {moved:.1f} px when the list landed"
    # Stuck, the recorder cannot move: the panel shows the whole list. In flow, it keeps its height.
    assert page.evaluate(PANEL)["held"] == (where == "in flow")

    # The draft goes on where the finger expects it: Bob calls 6 on Cy's 7th wire, it fails, token 7.
    page.evaluate(PASS_THROUGH)
    slot(page, 2, 6).tap()
    value(page, 6)
    value(page, False)
    value(page, 7)
    wait_events(page, 5)
    # Scrolled up to the table, nothing below the panel is on screen: it shows the whole list.
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_function("document.querySelector('.suggestions').dataset.held !== 'true'")
    panel = page.evaluate(PANEL)
    assert not panel["clipped"], panel
    assert page.locator(LIST_SHOWN).count() > 0
    assert not errors


def test_the_first_list_landing_under_a_finger_on_the_recorder(new_context, server):
    """The page's first list (the largest change: from a status line to the whole list)
    lands while a draft is open; "Show all" then shows it at its full height."""
    page, errors = touch_phone(new_context)
    page.add_init_script(HOLD_FROM_THE_START)
    open_app(page, share_link(server.url, sample_table()))
    page.wait_for_selector(".analysis-status.ok #worlds")
    page.wait_for_function(REQUEST_HELD)
    assert page.locator(".suggestions .suggestion").count() == 0
    tap(page, ".recorder [data-action='dual_cut']")
    page.wait_for_selector(".recorder[data-step='target']")
    place(page, "in flow")
    before = recorder_y_on_screen(page)
    page.evaluate(PASS_THROUGH)
    page.evaluate(RELEASE)
    page.wait_for_function(SUGGESTIONS_SETTLED)
    page.wait_for_selector(".suggestions[data-state='ok']")
    moved = recorder_y(page) - before
    assert abs(moved) < 0.5, f"the recorder moved by {moved:.1f} px when the list landed"
    # The list is in the panel, which says so: it does not fit the height kept.
    show = page.locator(".suggestions [data-action='show-suggestions']")
    assert show.is_visible() and page.evaluate(PANEL)["clipped"]
    show.tap()
    panel = page.evaluate(PANEL)
    assert not panel["held"] and not panel["clipped"], panel
    assert page.locator(LIST_SHOWN).count() > 0
    assert page.locator(".recorder").get_attribute("data-step") == "target"  # the draft is still open
    assert not errors


def test_the_top_bar_and_the_recorder_stay_on_screen_while_the_table_scrolls(new_context, server):
    """Reading a long table on a phone, the game's bar stays at the top and the recorder at the foot
    (a page-wide overflow-x: hidden once made the body a scroll container and neither stuck)."""
    page, errors = touch_phone(new_context)
    open_app(page, share_link(server.url, sample_table()))
    wait_events(page, 3)
    for scroll in (0, 400, 1200):
        page.evaluate(f"window.scrollTo(0, {scroll})")
        assert page.evaluate("window.scrollY") == scroll
        assert page.locator(".topbar").bounding_box()["y"] == 0
        box = page.locator(".recorder").bounding_box()
        assert abs(box["y"] + box["height"] - 844) < 0.5, (scroll, box)
    page.evaluate("window.scrollTo(300, 0)")
    assert page.evaluate("window.scrollX") == 0  # nothing wider than the phone
    assert not errors


HOLD_ANALYSES = """() => {
  const api = window.bombbuster;
  const analyze = api.analyze;
  window.heldAnalyses = [];
  api.analyze = (table, options) => new Promise((resolve, reject) => {
    window.heldAnalyses.push(() => analyze(table, options).then(resolve, reject));
  });
}"""
RELEASE_ANALYSES = "() => window.heldAnalyses.splice(0).forEach((answer) => answer())"


def test_an_analysis_landing_does_not_move_the_recorder_scrolled_to(new_context, server):
    """A recorded info token is checked by the engine; when its analysis lands, the status row
    and the new token change the height of what is above the recorder (36 px here)."""
    page, errors = touch_phone(new_context)
    open_app(page, share_link(server.url, sample_table()))
    wait_events(page, 3)
    page.wait_for_selector(".analysis-status.ok #worlds")
    page.evaluate(HOLD_ANALYSES)
    action(page, "info_token")  # Cy's first wire carries a 1
    slot(page, 2, 0).tap()
    place(page, "in flow")
    value(page, 1)
    page.wait_for_selector(".analysis-status.checking")
    page.wait_for_function("window.heldAnalyses.length > 0")
    before = recorder_y_on_screen(page)
    height = page.locator(".top-area").bounding_box()["height"] + page.locator(".table").bounding_box()["height"]
    page.evaluate(RELEASE_ANALYSES)
    page.wait_for_function("document.querySelectorAll('.log .events li').length === 4")
    page.wait_for_selector(".analysis-status.ok")
    grown = page.locator(".top-area").bounding_box()["height"] + page.locator(".table").bounding_box()["height"] - height
    assert grown > 10  # what the test is about: the content above the recorder changed height
    moved = recorder_y(page) - before
    assert abs(moved) < 0.5, f"the recorder moved by {moved:.1f} px when the analysis landed"
    assert not errors
