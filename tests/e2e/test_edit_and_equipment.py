"""Edit one field of a recorded event, the `equipment` event (Rewinder, Coffee
Mug, ...) recorded by taps and read by the game state, mission dial starts, and
the X-or-Y ray's outcomes naming their values. Chromium at phone size (390×844,
touch); every action by taps; the exported events are checked against the
docs' JSON (docs/table-format.md) field by field; axe-core on the new screens."""
from __future__ import annotations

import copy
import json

from e2e_helpers import (action, cli_analyze, export_table, open_app, sample_table, screenshot, slot, tap,
                         touch_phone, value, wait_events)
from test_companion import AXE, share_link, tool








def edit(page, index):
    tap(page, f".log li[data-index='{index}'] [data-action='edit']")
    page.wait_for_selector(".recorder .edit-form")


def change(page, field):
    tap(page, f".recorder .edit-field[data-field='{field}'] [data-action='change']")


def field_text(page, field):
    return page.locator(f".recorder .edit-field[data-field='{field}'] .edit-value").inner_text()


def save(page):
    tap(page, ".recorder [data-action='save-edit']")


def open_sample(new_context, server, table=None):
    page, errors = touch_phone(new_context)
    open_app(page, share_link(server.url, table or sample_table()))
    page.wait_for_selector(".analysis-status.ok #worlds")
    return page, errors


def dial(page):
    element = page.locator(".dial")
    return int(element.get_attribute("data-failures")), int(element.get_attribute("data-limit"))


# ---------------------------------------------------------------- edit one field


def test_edit_one_field_of_a_dual_cut_and_a_detector_then_undo(new_context, server):
    page, errors = open_sample(new_context, server)
    axe = tool("axe-core")
    original = export_table(page)
    cut = original["events"][2]  # Ann calls 1 on Di's first wire: failed, token 2
    assert cut["token"] == 2

    # The event opens with every field filled in; nothing changed yet, so Save waits.
    edit(page, 2)
    assert "editing event 3" in page.locator(".recorder-head").inner_text()
    fields = page.eval_on_selector_all(".recorder .edit-field", "rows => rows.map((r) => r.dataset.field)")
    assert fields == ["actor", "target", "value", "success", "token"]
    assert field_text(page, "actor") == "Ann"
    assert field_text(page, "target") == "Di slot 1"
    assert field_text(page, "value") == "1"
    assert field_text(page, "success") == "Failed"
    assert field_text(page, "token") == "2"
    assert page.locator(".recorder [data-action='save-edit']").is_disabled()
    # The table is drawn as it stood before the event.
    assert page.locator(".edit-note").inner_text() == "The table as it stood before event 3."
    assert page.evaluate(AXE, axe) == [], "edit form"

    # Change the token only: 2 → 3; Back first leaves it as it was.
    change(page, "token")
    assert page.locator(".recorder").get_attribute("data-step") == "token"
    tap(page, ".recorder [data-action='back']")
    assert field_text(page, "token") == "2"
    change(page, "token")
    assert page.evaluate(AXE, axe) == [], "changing a field"
    value(page, 3)
    assert field_text(page, "token") == "3"
    assert "changed" in page.locator(".recorder .edit-field[data-field='token']").get_attribute("class")
    screenshot(page, "phone-edit-form")
    save(page)
    page.wait_for_selector(".recorder:not(.active)")
    wait_events(page, 3)
    edited = export_table(page)
    assert edited["events"][2] == {**cut, "token": 3}
    assert edited["events"][:2] == original["events"][:2]
    assert page.locator(".log li[data-index='2'] .event-text").inner_text().endswith("failed, token 3")

    # Undo brings the old token back, Redo the edit.
    tap(page, ".recorder [data-action='undo']")
    page.wait_for_selector(".analysis-status.ok #worlds")
    assert export_table(page)["events"][2] == cut
    tap(page, ".recorder [data-action='redo']")
    page.wait_for_selector(".analysis-status.ok #worlds")
    assert export_table(page)["events"][2]["token"] == 3

    # An edit that makes the table impossible is refused with the engine's
    # message in the page's numbers; the log keeps the event as it was.
    impossible = copy.deepcopy(edited)
    impossible["events"][2]["token"] = 12
    expected = cli_analyze(impossible)
    assert not expected["consistent"] and expected["event"] == 2
    edit(page, 2)
    change(page, "token")
    value(page, 12)
    save(page)
    page.wait_for_selector(".recorder .refusal")
    refusal = page.locator(".recorder .refusal").inner_text()
    assert "(event 3 in the log)" in refusal and "event 2 " not in refusal.replace("event 2)", "")
    assert page.locator(".recorder .edit-form").count() == 1  # the form stays: change another field or Cancel
    assert page.evaluate(AXE, axe) == [], "refused edit"
    tap(page, ".recorder [data-action='cancel']")
    assert export_table(page)["events"] == edited["events"]

    # A Double Detector failure by taps (Bob, the player to move), then edit its token wire only.
    assert page.locator("#turn").get_attribute("data-player") == "1"
    action(page, "double_detector")
    slot(page, 2, 1).tap()
    slot(page, 2, 2).tap()
    value(page, 5)
    value(page, False)
    value(page, 2)
    slot(page, 2, 1).tap()
    wait_events(page, 4)
    detector = export_table(page)["events"][3]
    assert detector == {"type": "detector", "actor": 1, "kind": "double",
                        "targets": [{"player": 2, "stand": 0, "slot": 1}, {"player": 2, "stand": 0, "slot": 2}],
                        "value": 5, "success": False, "token": 2, "token_at": {"player": 2, "stand": 0, "slot": 1}}
    edit(page, 3)
    fields = page.eval_on_selector_all(".recorder .edit-field", "rows => rows.map((r) => r.dataset.field)")
    assert fields == ["actor", "targets", "value", "success", "token", "token_at"]
    assert field_text(page, "token_at") == "Cy slot 2"
    change(page, "token_at")
    slot(page, 2, 2).tap()
    assert field_text(page, "token_at") == "Cy slot 3"
    save(page)
    page.wait_for_selector(".recorder:not(.active)")
    wait_events(page, 4)
    after = export_table(page)
    assert after["events"][3] == {**detector, "token_at": {"player": 2, "stand": 0, "slot": 2}}
    assert page.locator(".player[data-player='2'] .token-mark[data-slot='2']").inner_text() == "2"
    assert not page.locator(".player[data-player='2'] .token-mark[data-slot='1']").count()
    tap(page, ".recorder [data-action='undo']")
    page.wait_for_selector(".analysis-status.ok #worlds")
    assert export_table(page)["events"][3] == detector
    assert not errors, errors


# ---------------------------------------------------------------- equipment events and the game state


def test_rewinder_moves_the_dial_back_and_the_coffee_mug_passes_the_turn(new_context, server):
    page, errors = open_sample(new_context, server)
    axe = tool("axe-core")
    assert dial(page) == (1, 4)  # the sample's failed dual cut
    assert page.locator("#turn").get_attribute("data-player") == "1"  # Ann played last

    # Rewinder: who uses it (not pre-selected: any time, anyone), then recorded; the dial moves back.
    action(page, "rewinder")
    assert page.locator(".recorder").get_attribute("data-step") == "actor"
    assert page.evaluate(AXE, axe) == [], "equipment step"
    tap(page, ".recorder .options .option[data-player='2']")
    wait_events(page, 4)
    assert dial(page) == (0, 4)
    assert page.locator(".log li[data-index='3'] .event-text").inner_text() == "Cy uses the Rewinder: the dial moves back one space"
    # Never past the start; the button now sits in this game's row.
    assert page.locator(".recorder .mission-actions [data-action='rewinder']").count() == 1
    action(page, "rewinder")
    tap(page, ".recorder [data-action='no-actor']")
    wait_events(page, 5)
    assert dial(page) == (0, 4)
    assert page.locator("#turn").get_attribute("data-player") == "1"  # equipment is not a turn

    # Coffee Mug: Bob gives the next turn to Di.
    action(page, "coffee_mug")
    tap(page, ".recorder .options .option[data-player='1']")
    assert page.locator(".recorder").get_attribute("data-step") == "next"
    tap(page, ".recorder .options .option[data-player='3']")
    wait_events(page, 6)
    assert page.locator("#turn").get_attribute("data-player") == "3"
    assert page.locator(".log li[data-index='5'] .event-text").inner_text() == "Bob uses the Coffee Mug: Di plays next"
    # The recorder pre-selects Di; after Di's turn, seat order from Di: Ann.
    action(page, "dual_cut")
    assert page.locator(".recorder .who-row .option[aria-pressed='true']").get_attribute("data-player") == "3"
    tap(page, ".recorder [data-action='cancel']")
    exported = export_table(page)
    assert exported["events"][3:] == [  # cards by printed ID (6 Rewinder, 11 Coffee Mug)
        {"type": "equipment", "card": "6", "actor": 2},
        {"type": "equipment", "card": "6"},
        {"type": "equipment", "card": "11", "actor": 1, "next": 3},
    ]
    assert cli_analyze(exported)["consistent"]
    # Edit the Coffee Mug's next player only: Cy.
    edit(page, 5)
    assert field_text(page, "next") == "Di"
    change(page, "next")
    tap(page, ".recorder .options .option[data-player='2']")
    save(page)
    page.wait_for_selector(".recorder:not(.active)")
    wait_events(page, 6)
    assert page.locator("#turn").get_attribute("data-player") == "2"
    assert export_table(page)["events"][5] == {"type": "equipment", "card": "11", "actor": 1, "next": 2}
    # Emergency Batteries, False Bottom, Emergency Drop: recorded, shown, no effect on the dial or turn.
    for card, name in [("emergency_batteries", "Emergency Batteries"), ("false_bottom", "False Bottom"),
                       ("emergency_drop", "Emergency Drop")]:
        count = page.locator(".log .events li").count()
        action(page, card)
        tap(page, ".recorder .options .option[data-player='0']")
        wait_events(page, count + 1)
        assert page.locator(f".log li[data-index='{count}'] .event-text").inner_text() == f"Ann uses the {name}"
    assert dial(page) == (0, 4) and page.locator("#turn").get_attribute("data-player") == "2"
    screenshot(page, "phone-equipment")
    assert not errors, errors


STATE = """async (table) => {
  const { gameState } = await import('./js/gamestate.js');
  const s = gameState(table);
  return { failures: s.failures, limit: s.limit, left: s.left, turn: s.turn, lost: s.lost, note: s.dialNote,
           unread: s.dialUnread };
}"""


def test_mission_dial_starts_and_equipment_in_the_game_state(page, server):
    page.goto(server.url + "?nosw")
    page.wait_for_function("window.bombbuster !== undefined")
    four = {"players": [{"name": n, "stands": [4]} for n in "ABCD"], "wires": {"blue": [1, 2, 3, 4]}, "events": []}
    at = lambda p, j: {"player": p, "stand": 0, "slot": j}  # noqa: E731
    fail = lambda a, p: {"type": "dual_cut", "actor": a, "target": at(p, 0), "value": 4, "success": False, "token": 1}  # noqa: E731
    rewinder = {"type": "equipment", "card": "rewinder", "actor": 0}
    mission = lambda m, events=(): {**four, "meta": {"mission": m}, "events": list(events)}  # noqa: E731
    # Standard: the 4th failure explodes; the Rewinder moves back one, never past the start.
    assert page.evaluate(STATE, mission(1, [rewinder]))["failures"] == 0
    state = page.evaluate(STATE, mission(1, [fail(0, 1), fail(1, 2), rewinder]))
    assert (state["failures"], state["limit"], state["note"]) == (1, 4, None)
    assert page.evaluate(STATE, mission(1, [fail(0, 1), fail(1, 2), fail(2, 3), rewinder, fail(3, 0)]))["lost"] is False
    # M51: a designated player without the value moves the dial with no event of its own, so the
    # dial is not followed (the core's reading, public_state.DIAL_UNREAD): said, never a loss.
    state = page.evaluate(STATE, mission(51, [fail(0, 1), fail(1, 2), fail(2, 3), fail(3, 0)]))
    assert state["lost"] is False and "no event of its own" in state["unread"] == state["note"]
    # M41: next to the skull, the first failure explodes; a tripwire success first moves it back.
    assert page.evaluate(STATE, mission(41, [fail(0, 1)]))["lost"] is True
    tripwire = {"type": "tripwire", "actor": 0, "target": at(1, 0), "success": True}
    state = page.evaluate(STATE, mission(41, [tripwire, fail(1, 2)]))
    assert (state["failures"], state["limit"], state["lost"]) == (0, 1, False)
    # M55/60/62: cards the events do not hold move the dial back: not followed, and the page says why.
    for m in (55, 60, 62):
        state = page.evaluate(STATE, mission(m))
        assert "not in the events" in state["unread"] == state["note"]
    # Coffee Mug: the chosen player plays next, then seat order from them; a turn clears the choice.
    mug = {"type": "equipment", "card": "coffee_mug", "actor": 0, "next": 2}
    assert page.evaluate(STATE, mission(1, [fail(0, 1), mug]))["turn"] == 2
    assert page.evaluate(STATE, mission(1, [fail(0, 1), mug, fail(2, 0)]))["turn"] == 3


def test_mission_51_dial_on_the_page(new_context, server):
    """A mission whose dial moves by what the events do not hold: the page says it does not follow it, and why."""
    page, errors = touch_phone(new_context)
    open_app(page, server.url)
    table = page.evaluate("async () => await window.bombbuster.newTable({mission: 51, players: 4})")
    page.goto(share_link(server.url, table))
    page.wait_for_selector(".analysis-status.ok #worlds, .analysis-status.error")
    assert "no event of its own" in page.locator("#dial-mission").inner_text()
    assert page.locator("#dial-note").inner_text() == "not followed here"
    assert not errors, errors


# ---------------------------------------------------------------- X or Y ray outcomes


def test_xy_ray_suggestion_names_both_values(new_context, server):
    page, errors = open_sample(new_context, server)
    page.wait_for_selector(".suggestions[data-state='ok'][data-player='0'] .suggestion")
    ray = page.locator(".suggestions .suggestion.xy-ray").first
    values = json.loads(ray.get_attribute("data-value"))
    assert len(values) == 2
    ray.tap()
    page.wait_for_selector("#sheet .sug-outcomes li")
    outcomes = page.eval_on_selector_all("#sheet .sug-outcomes li .dist-key", "items => items.map((i) => i.textContent)")
    for v in values:
        shown = "yellow" if v == "yellow" else str(v)
        assert any(text.startswith(f"success: it is {shown}") for text in outcomes), (v, outcomes)
    assert sum(text.startswith("success") for text in outcomes) == 2
    screenshot(page, "phone-xy-outcomes")
    assert not errors, errors
