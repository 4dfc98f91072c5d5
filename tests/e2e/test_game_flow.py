"""A 4-player game played through the UI on a phone-sized screen: setup by
taps, my wires, events recorded by taps, the displayed probabilities checked
against the CLI for the exported table, undo/redo, an impossible event refused,
and the game restored after a reload. Screenshots go to tests/artifacts/."""
from __future__ import annotations

import json

import pytest

from e2e_helpers import cli_analyze, export_table, open_app, screenshot, slot, words

LANGUAGES = {"en": "en-GB", "fr": "fr-FR", "de": "de-DE"}  # the page speaks the browser's language

MY_WIRES_TAPPED = [12, 1, 3.1, 5, 2, 10, 1, 9, 3, 8, 4, 7, 6]  # any order: the page sorts them
MY_WIRES_SORTED = [1, 1, 2, 3, 3.1, 4, 5, 6, 7, 8, 9, 10, 12]


def percent(p: float) -> str:
    """The page's rendering of a probability (web/js/ui.js percent)."""
    if p >= 1:
        return "✓"
    rounded = int(p * 100 + 0.5)  # JS Math.round on non-negative numbers
    if rounded >= 100:
        return ">99%"
    if rounded <= 0:
        return "<1%"
    return f"{rounded}%"




def wait_analysed(page):
    page.wait_for_selector(".analysis-status.ok #worlds")


def event_count(page) -> int:
    return page.locator(".log .events li").count()


def set_up_four_player_game(page):
    page.wait_for_selector("#start-game")
    for player, name in enumerate(["Ann", "Bob", "Cy", "Di"]):
        field = page.locator(f"input[data-player='{player}']")
        field.fill(name)
        field.dispatch_event("change")
    page.click(".chips[data-group='yellow-wires'] .chip[data-key='3.1']")
    page.click(".chips[data-group='yellow-wires'] .chip[data-key='8.1']")
    page.click(".chips[data-group='red-wires'] .chip[data-key='5.5']")
    sizes = [page.locator(f"input[data-stand='{i}']").input_value() for i in range(4)]
    assert sizes == ["13", "13", "13", "12"]  # 51 wires dealt evenly, earlier seats first
    assert page.locator(".chip[data-me='0']").get_attribute("aria-pressed") == "true"
    for key in MY_WIRES_TAPPED:
        page.click(f".keypad[data-group='add-my-wire'] .key[data-key='{key}']")
    assert page.locator(".my-wires .wire").all_inner_texts() == [
        "Y3" if k == 3.1 else str(k) for k in MY_WIRES_SORTED]


def tap_value(page, value):
    page.click(f".recorder .option[data-value='{json.dumps(value)}']")


def record_info_token(page, player, index, value):
    page.click(".recorder [data-action='info_token']")
    slot(page, player, index).click()
    tap_value(page, value)
    wait_analysed(page)


def record_dual_cut(page, actor, target, value, success, token=None, actor_slot=None, keys=()):
    before = event_count(page)
    page.click(".recorder [data-action='dual_cut']")
    page.click(f".recorder .option[data-player='{actor}']")
    slot(page, *target).click()
    tap_value(page, value)
    tap_value(page, success)
    if success:
        slot(page, actor, actor_slot).click()
        for key in keys:  # printed yellow values: the teammate's, then the cutter's
            tap_value(page, key)
    else:
        tap_value(page, token)
    page.wait_for_function(
        f"document.querySelectorAll('.log .events li').length > {before} || document.querySelector('.refusal')")


def displayed_matches_cli(page, table, language="en"):
    expected = cli_analyze(table)
    assert expected["consistent"]
    assert page.locator("#worlds").get_attribute("data-worlds") == str(expected["worlds"])
    for entry in expected["slots"]:
        element = slot(page, entry["player"], entry["slot"], entry["stand"])
        assert json.loads(element.get_attribute("data-dist")) == entry["p"], entry
        top = max(entry["p"].values())
        shown = element.locator(".slot-p").inner_text()
        assert shown == (words(language, "slot.cut") if entry["cut"] else percent(top)), entry


@pytest.fixture(params=list(LANGUAGES))
def language(request):
    return request.param


@pytest.fixture
def language_page(new_context, language):
    """A phone-sized page whose browser speaks `language` (navigator.languages); fails on uncaught errors."""
    page = new_context(locale=LANGUAGES[language]).new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    assert not errors, f"uncaught errors in the page: {errors}"


def test_four_player_game_through_the_ui(language_page, server, language):
    """The same game in every language the page speaks: the page's own words come from its
    catalogue (the refusal's reason worded from the core's code), and no key is missing."""
    page = language_page
    suffix = "" if language == "en" else f"-{language}"
    open_app(page, server.url)
    assert page.evaluate("document.documentElement.lang") == language
    set_up_four_player_game(page)
    screenshot(page, f"phone-setup{suffix}")
    page.click("#start-game")
    wait_analysed(page)

    # Mid-recording: the wires that can be chosen pulse.
    page.click(".recorder [data-action='dual_cut']")
    page.click(".recorder .option[data-player='0']")
    assert slot(page, 2, 3).get_attribute("class").count("selectable") == 1
    assert "selectable" not in slot(page, 0, 3).get_attribute("class")  # never one's own wire
    screenshot(page, f"phone-recording{suffix}")
    page.click(".recorder [data-action='cancel']")

    record_info_token(page, 1, 0, 1)
    record_info_token(page, 2, 12, 12)
    record_dual_cut(page, actor=0, target=(3, 0), value=1, success=False, token=2)
    record_dual_cut(page, actor=0, target=(1, 0), value=1, success=True, actor_slot=0)
    wait_analysed(page)
    assert event_count(page) == 4
    assert "cut" in slot(page, 1, 0).get_attribute("class")
    screenshot(page, f"phone-table{suffix}")

    table = export_table(page)
    assert table["me"] == {"player": 0, "stands": [MY_WIRES_SORTED]}
    assert [e["type"] for e in table["events"]] == ["info_token", "info_token", "dual_cut", "dual_cut"]
    assert table["events"][3] == {"type": "dual_cut", "actor": 0, "target": {"player": 1, "stand": 0, "slot": 0},
                                  "value": 1, "success": True, "actor_slot": {"stand": 0, "slot": 0}}
    displayed_matches_cli(page, table, language)

    # The full distribution of one hidden wire.
    slot(page, 3, 1).click()
    page.wait_for_selector("#distribution li")
    expected = cli_analyze(table)
    entry = next(s for s in expected["slots"] if s["player"] == 3 and s["slot"] == 1)
    shown = page.locator("#distribution li").evaluate_all(
        "items => items.map(li => [li.dataset.key, li.querySelector('.dist-p').textContent])")
    assert sorted(map(tuple, shown)) == sorted((k, percent(p)) for k, p in entry["p"].items())
    screenshot(page, f"phone-slot-detail{suffix}")
    page.click("#sheet [data-action='close-sheet']")

    # Public view: what every teammate can deduce (the table without "me").
    page.click("#view-toggle button[data-view='public']")
    wait_analysed(page)
    public = dict(table)
    del public["me"]
    displayed_matches_cli(page, public, language)
    page.click("#view-toggle button[data-view='me']")
    wait_analysed(page)

    # An impossible event: Ann holds no 11, so she cannot announce it.
    record_dual_cut(page, actor=0, target=(2, 3), value=11, success=False, token=4)
    refusal = page.locator(".recorder .refusal")
    assert refusal.is_visible()
    impossible = {"type": "dual_cut", "actor": 0, "target": {"player": 2, "stand": 0, "slot": 3}, "value": 11,
                  "success": False, "token": 4}
    verdict = cli_analyze({**table, "events": table["events"] + [impossible]})
    assert not verdict["consistent"]
    # The core's reason, worded from its code: here the two own wires (Ann's 10 and 12) that rule out an 11.
    assert verdict["code"] == "contradicts_together"
    assert [r["own"] for r in verdict["contradicts"]] == [{"stand": 0, "slot": 11}, {"stand": 0, "slot": 12}]
    reasons = [words(language, "reason.own", wire=str(int(float(r["value"]))),  # blue wires: their number
                     slot=words(language, "name.slot", stand="Ann", slot=r["own"]["slot"] + 1)) for r in verdict["contradicts"]]
    said = refusal.inner_text()
    assert words(language, "reason.contradicts_together", what="; ".join(reasons)) in said
    # The headline names the event as the log would, with its number in the log (1-based).
    before, after = words(language, "refusal.impossibleEvent", event=verdict["event"] + 1).split("{what}")
    assert said.startswith(before) and after in said
    assert event_count(page) == 4
    screenshot(page, f"phone-refusal{suffix}")
    page.click(".recorder [data-action='cancel']")

    # Undo, redo, undo: the log and the analysis follow.
    page.click(".recorder [data-action='undo']")
    wait_analysed(page)
    assert event_count(page) == 3
    assert "cut" not in slot(page, 1, 0).get_attribute("class")
    page.click(".recorder [data-action='redo']")
    wait_analysed(page)
    assert event_count(page) == 4
    page.click(".recorder [data-action='undo']")
    wait_analysed(page)
    assert event_count(page) == 3

    # Reload: the game is restored from the autosave, redo included.
    page.reload()
    wait_analysed(page)
    assert event_count(page) == 3
    assert not page.locator(".recorder [data-action='redo']").is_disabled()
    restored = export_table(page)
    assert restored["events"] == table["events"][:3]
    displayed_matches_cli(page, restored, language)
    assert page.evaluate("[...window.bombbusterI18n.missing]") == []


def test_edit_a_mistaken_event(page, server):
    open_app(page, server.url)
    set_up_four_player_game(page)
    page.click("#start-game")
    wait_analysed(page)
    record_info_token(page, 1, 2, 5)
    # Edit opens the event with its fields; only the value is changed, then saved.
    page.click(".log li[data-index='0'] [data-action='edit']")
    page.click(".recorder .edit-field[data-field='value'] [data-action='change']")
    tap_value(page, 4)
    page.click(".recorder [data-action='save-edit']")
    page.wait_for_selector(".recorder:not(.active)")
    wait_analysed(page)
    assert event_count(page) == 1
    table = export_table(page)
    assert table["events"] == [{"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 2}, "value": 4}]


def test_yellow_cut_with_printed_values(page, server):
    open_app(page, server.url)
    set_up_four_player_game(page)
    page.click("#start-game")
    wait_analysed(page)
    table = export_table(page)
    bob = [s for s in cli_analyze(table)["slots"] if s["player"] == 1]
    target = max(bob, key=lambda s: s["p"].get("8.1", 0))["slot"]
    record_dual_cut(page, actor=0, target=(1, target), value="yellow", success=True, actor_slot=4, keys=(8.1, 3.1))
    wait_analysed(page)
    event = export_table(page)["events"][-1]
    assert event["keys"] == {"target": 8.1, "actor": 3.1}
    assert slot(page, 1, target).locator(".slot-value").inner_text() == "Y8"


def test_two_player_game_with_solo_cut_and_red_reveal(page, server):
    open_app(page, server.url)
    page.wait_for_selector("#start-game")

    def sizes():
        return [field.input_value() for field in page.locator("input[data-stand]").all()]

    page.click(".segmented[aria-label='player count'] button[data-value='3']")
    assert sizes() == ["12", "12", "12", "12"]  # the captain has 2 stands
    assert page.locator(".stand-sizes .row").first.locator("input").count() == 2
    page.click(".segmented[aria-label='player count'] button[data-value='5']")
    assert sizes() == ["10", "10", "10", "9", "9"]  # 48 wires, earlier seats get the extra
    page.click(".segmented[aria-label='player count'] button[data-value='2']")
    page.fill("input[aria-label='highest blue value']", "2")
    page.dispatch_event("input[aria-label='highest blue value']", "change")
    page.click(".chips[aria-label='red wires'] .chip[data-key='2.5']")
    # 2 players → 2 stands each; 9 wires → 3/2/2/2.
    assert [page.locator(f"input[data-stand='{i}']").input_value() for i in range(4)] == ["3", "2", "2", "2"]
    for key in (2.5, 1, 1):
        page.click(f".keypad[aria-label='add my wire'] .key[data-key='{key}']")
    page.click(".segmented[data-group='my-stand'] button[data-value='2']")
    for key in (1, 1):
        page.click(f".keypad[aria-label='add my wire'] .key[data-key='{key}']")
    page.click("#start-game")
    wait_analysed(page)

    # Ann holds all four 1s: a solo cut over both stands.
    page.click(".recorder [data-action='solo_cut']")
    page.click(".recorder .option[data-player='0']")
    tap_value(page, 1)
    for stand, index in ((0, 0), (0, 1), (1, 0), (1, 1)):
        slot(page, 0, index, stand).click()
    page.click(".recorder [data-action='done']")
    wait_analysed(page)
    assert event_count(page) == 1

    # Only her red is left: she reveals it.
    page.click(".recorder [data-action='reveal_red']")
    page.click(".recorder .option[data-player='0']")
    tap_value(page, 2.5)
    wait_analysed(page)
    assert event_count(page) == 2
    table = export_table(page)
    assert table["players"] == [{"name": "Player 1", "stands": [3, 2]}, {"name": "Player 2", "stands": [2, 2]}]
    assert table["events"] == [
        {"type": "solo_cut", "actor": 0, "value": 1,
         "slots": [{"stand": 0, "slot": 0}, {"stand": 0, "slot": 1}, {"stand": 1, "slot": 0}, {"stand": 1, "slot": 1}]},
        {"type": "reveal_red", "actor": 0, "slots": [{"stand": 0, "slot": 2, "value": 2.5}]},
    ]
    displayed_matches_cli(page, table)
    assert all("cut" in slot(page, 0, j, s).get_attribute("class") for s, j in ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1)))
