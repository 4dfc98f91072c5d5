"""The page as a game companion (issue 10), in Chromium at phone size (390×844,
touch) and laptop size: the game state derived from the log, a 4-player
mission played from setup to the win announcement by taps, privacy-safe
sharing with a QR code that an independent decoder (jsQR) reads back,
readable slots, undo of deletes, games list, axe-core and the keyboard; a
loss by an explosion recorded, announced and undone."""
from __future__ import annotations

import base64
import json
import random
import sys
from pathlib import Path

import pytest

from conftest import LAPTOP, PHONE
from e2e_helpers import (
    ROOT, cli_analyze, export_table, open_app, sample_table, saved_game, saved_names, screenshot, slot, tap, touch_phone, wait_events,
    wait_until,
)
from test_game_flow import displayed_matches_cli

sys.path.insert(0, str(ROOT))
import build  # noqa: E402


def tool(name: str) -> str:
    try:
        return build.fetch_test_tool(name).read_text()
    except build.BuildError as exc:  # no npm / no registry: say so rather than pass
        pytest.fail(f"the e2e test tool {name} could not be fetched: {exc}")










def share_link(url: str, table: dict) -> str:
    return url + "#game=" + base64.urlsafe_b64encode(json.dumps(table).encode()).decode().rstrip("=")


def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


# ---------------------------------------------------------------- game state, unit-like


STATE = """async (table) => {
  const { gameState } = await import('./js/gamestate.js');
  const s = gameState(table);
  return { failures: s.failures, limit: s.limit, turn: s.turn, validated: s.validated, unlocked: s.unlocked,
           won: s.won, lost: s.lost, wiresLeft: s.wiresLeft, turns: s.turns, lostBy: s.lostBy, exploded: s.exploded };
}"""


def test_game_state_is_derived_from_the_log(page, server):
    page.goto(server.url + "?nosw")
    page.wait_for_function("window.bombbuster !== undefined")
    three = {"players": [{"name": n, "stands": [4]} for n in "ABC"], "wires": {"blue": [1, 2, 3]}, "events": []}
    at = lambda p, j: {"player": p, "stand": 0, "slot": j}  # noqa: E731
    fail = lambda a, p, j, v, **kw: {"type": "dual_cut", "actor": a, "target": at(p, j), "value": v, "success": False, "token": 1, **kw}  # noqa: E731
    ok = lambda a, p, j, v, mine: {"type": "dual_cut", "actor": a, "target": at(p, j), "value": v, "success": True,  # noqa: E731
                                   "actor_slot": {"stand": 0, "slot": mine}}
    state = page.evaluate(STATE, three)
    assert state == {"failures": 0, "limit": 3, "turn": 0, "validated": [], "unlocked": [], "won": False, "lost": False,
                     "wiresLeft": 12, "turns": 0, "lostBy": None, "exploded": None}
    # A failure moves the dial; the Stabilizer keeps it still; the turn passes in seat order.
    state = page.evaluate(STATE, {**three, "events": [fail(0, 1, 0, 2), fail(1, 2, 0, 3, stabilizer=True)]})
    assert (state["failures"], state["turn"], state["turns"]) == (1, 2, 2)
    # 2 cut of a value unlock its equipment, 4 validate it.
    two = [ok(0, 1, 0, 1, 0)]
    state = page.evaluate(STATE, {**three, "events": two})
    assert state["unlocked"] == ["1"] and state["validated"] == [] and state["turn"] == 1
    four = two + [ok(1, 2, 0, 1, 1)]
    state = page.evaluate(STATE, {**three, "events": four})
    assert state["validated"] == [1] and state["wiresLeft"] == 8
    # A player with an empty stand is skipped: B's and C's wires are all cut.
    emptied = [{"type": "solo_cut", "actor": p, "value": 9, "slots": [{"stand": 0, "slot": j} for j in range(4)]} for p in (1, 2)]
    deck = {"players": three["players"], "wires": {"deck": {"1": 4, "9": 8}}, "events": emptied}
    state = page.evaluate(STATE, deck)
    assert state["turn"] == 0
    deck["events"] = emptied + [{"type": "dual_cut", "actor": 0, "target": at(1, 0), "value": 1, "success": False, "token": 9}]
    assert page.evaluate(STATE, deck)["turn"] == 0  # A again: B and C hold nothing
    # The N-th failure explodes: lost; every wire cut: won.
    state = page.evaluate(STATE, {**three, "events": [fail(0, 1, 0, 2), fail(1, 2, 0, 3), fail(2, 0, 0, 2)]})
    assert state["lost"] and state["lostBy"] == "dial" and state["turn"] is None
    # An explosion loses at once, apart from the dial (which it does not move).
    boom = {"type": "dual_cut", "actor": 1, "target": at(2, 3), "value": 2, "success": False, "exploded": True}
    state = page.evaluate(STATE, {**three, "events": [fail(0, 1, 0, 2), boom]})
    assert (state["lost"], state["lostBy"], state["exploded"], state["failures"], state["turn"]) == (True, "explosion", 1, 1, None)
    solo = [{"type": "solo_cut", "actor": p, "value": p + 1, "slots": [{"stand": 0, "slot": j} for j in range(4)]} for p in range(3)]
    state = page.evaluate(STATE, {**three, "events": solo})
    assert state["won"] and not state["lost"] and state["validated"] == [1, 2, 3] and state["turn"] is None
    # A tripwire success moves the dial back.
    state = page.evaluate(STATE, {**three, "events": [fail(0, 1, 0, 2), {"type": "tripwire", "actor": 1, "target": at(2, 0), "success": True}]})
    assert state["failures"] == 0


ROUND_TRIP = """async ([event, table]) => {
  const r = await import('./js/recorder.js');
  return r.eventFromDraft(r.draftFromEvent(event, table, table.events.length));
}"""


def test_every_explosion_survives_edit(page, server):
    """Edit opens an explosion with its fields and saves it unchanged: draft -> event is the identity."""
    page.goto(server.url + "?nosw")
    page.wait_for_function("window.bombbuster !== undefined")
    table = {"players": [{"name": "A", "stands": [{"size": 4, "flipped": 1}]}, {"name": "B", "stands": [4]}],
             "wires": {"blue": [1, 2], "red": [1.5]}, "events": []}
    at = lambda p, j: {"player": p, "stand": 0, "slot": j}  # noqa: E731
    explosions = [
        {"type": "dual_cut", "actor": 1, "target": at(0, 1), "value": 2, "success": False, "exploded": True},
        {"type": "dual_cut", "actor": 0, "target": at(1, 0), "value": 1, "success": True,
         "actor_slot": {"stand": 0, "slot": 3}, "exploded": True},
        {"type": "detector", "actor": 0, "kind": "double", "targets": [at(1, 1), at(1, 2)], "value": 1,
         "success": False, "exploded": True},
        {"type": "multi_cut", "actor": 0, "value": "red", "slots": [at(1, 0), at(1, 3)], "success": False,
         "exploded": True},
        {"type": "tripwire", "actor": 0, "target": at(1, 2), "success": False, "exploded": True},
    ]
    for event in explosions:
        assert page.evaluate(ROUND_TRIP, [event, table]) == event


def test_engine_messages_use_the_page_numbers(page, server):
    page.goto(server.url + "?nosw")
    page.wait_for_function("window.bombbuster !== undefined")
    translate = "async (m) => (await import('./js/ui.js')).pageMessage(m)"
    assert page.evaluate(translate, "event 8 (dual_cut) is impossible") == "event 9 (dual_cut) is impossible"
    assert page.evaluate(translate, "event 3 (dual_cut) field 'target' field 'slot': 7 is out of range (0..5)") == \
        "event 4 (dual_cut) field 'target' field 'slot': 8 is out of range (1..6)"
    assert page.evaluate(translate, "at player 1 stand 0 slot 4") == "at player 2 stand 1 slot 5"
    sci = "async (n) => (await import('./js/ui.js')).scientific(BigInt(n))"
    assert page.evaluate(sci, "812361076316160000") == "8.1 × 10¹⁷"
    assert page.evaluate(sci, "123456") == "123,456"


# ---------------------------------------------------------------- a 4-player mission to the win


def test_mission_1_played_to_the_win_on_a_phone(new_context, server):
    """Mission 1, 4 players: set up by taps (names and my wires are the only input),
    then every turn recorded by taps for the pre-selected player to move, to the
    win announcement; the page's turn, dial and validated values follow."""
    page, errors = touch_phone(new_context)
    open_app(page, server.url)
    rng = random.Random(1)
    deck = [v for v in range(1, 7) for _ in range(4)]
    rng.shuffle(deck)
    hands = [sorted(deck[6 * p:6 * p + 6]) for p in range(4)]
    names = ["Ann", "Bob", "Cy", "Di"]

    tap(page, "[data-action='help-skip']")
    page.wait_for_selector("#mission option[value='1']", state="attached")
    page.select_option("#mission", "1")
    for p, name in enumerate(names):
        field = page.locator(f"input[data-player='{p}']")
        field.fill(name)
        field.dispatch_event("change")
    for key in reversed(hands[0]):
        tap(page, f".keypad[aria-label='add my wire'] .key[data-key='{key}']")
    tap(page, "#start-game")
    page.wait_for_selector(".analysis-status.ok #worlds")

    cut = [[False] * 6 for _ in range(4)]
    turn, events, failures = 0, 0, 0
    while any(not c for row in cut for c in row):
        while all(cut[turn]):
            turn = (turn + 1) % 4
        assert page.locator("#turn").get_attribute("data-player") == str(turn)
        mine = next(j for j in range(6) if not cut[turn][j])
        v = hands[turn][mine]
        target = next(((q, k) for q in range(4) if q != turn for k in range(6) if not cut[q][k] and hands[q][k] == v), None)
        if target is None:  # every remaining copy of v is in this hand: solo cut
            tap(page, ".recorder [data-action='solo_cut']")
            assert page.locator(".recorder .who[aria-pressed='true']").get_attribute("data-player") == str(turn)
            tap(page, f".recorder .option[data-value='{v}']")
            for j in range(6):
                if not cut[turn][j] and hands[turn][j] == v:
                    slot(page, turn, j).tap()
                    cut[turn][j] = True
            tap(page, ".recorder [data-action='done']")
        else:
            q, k = target
            if events == 3:  # one failure on the way: the dial moves and the game goes on
                wrong = next(u for u in range(1, 7) if u != hands[q][k] and u in [hands[turn][j] for j in range(6) if not cut[turn][j]])
                tap(page, ".recorder [data-action='dual_cut']")
                slot(page, q, k).tap()
                # Only values the actor can hold come first (in my view, mine exactly).
                if turn == 0:
                    legal = json.loads(page.locator(".recorder .keypad").get_attribute("data-legal"))
                    assert sorted(legal) == sorted({hands[0][j] for j in range(6) if not cut[0][j]})
                tap(page, f".recorder .option[data-value='{wrong}']")
                tap(page, ".recorder .option[data-value='false']")
                tap(page, f".recorder .option[data-value='{hands[q][k]}']")
                events += 1
                failures += 1
                wait_events(page, events)
                assert page.locator(".dial").get_attribute("data-failures") == "1"
                turn = (turn + 1) % 4
                continue
            tap(page, ".recorder [data-action='dual_cut']")
            assert page.locator(".recorder .who[aria-pressed='true']").get_attribute("data-player") == str(turn)
            slot(page, q, k).tap()
            tap(page, f".recorder .option[data-value='{v}']")
            tap(page, ".recorder .option[data-value='true']")
            slot(page, turn, mine).tap()
            cut[q][k] = cut[turn][mine] = True
        events += 1
        wait_events(page, events)
        assert no_sideways_scroll(page)
        turn = (turn + 1) % 4
    banner = page.locator(".game-over[data-result='won']")
    banner.wait_for()
    assert "Mission won" in banner.inner_text()
    assert f"{failures} failure" in banner.inner_text()
    assert json.loads(page.locator("#validated").get_attribute("data-values")) == [1, 2, 3, 4, 5, 6]
    screenshot(page, "phone-mission-1-won")
    assert not errors


# ---------------------------------------------------------------- a loss by an explosion


def test_a_red_cut_explodes_the_bomb_on_a_phone(new_context, server):
    """Bob's dual cut hits the red wire: recorded by taps ("Red — the bomb exploded"), the loss
    announced as an explosion (not the dial), the log says it, the recorder offers only undo and
    edit; the exported table is what the CLI analyses; Undo brings the game back."""
    page, errors = touch_phone(new_context)
    table = sample_table()
    open_app(page, share_link(server.url, table))
    wait_events(page, 3)
    assert page.locator("#turn").get_attribute("data-player") == "1"  # Bob, after Ann's cut
    tap(page, ".recorder [data-action='dual_cut']")
    slot(page, 2, 6).tap()  # Cy's 7th wire: it may be the red 5.5
    tap(page, ".recorder .option[data-value='6']")
    tap(page, ".recorder .option[data-value='false']")
    explode = page.locator(".recorder .option[data-value='\"exploded\"']")
    assert explode.inner_text() == "Red — the bomb exploded" and "contradicts" not in explode.get_attribute("class")
    explode.tap()
    wait_events(page, 4)
    banner = page.locator(".game-over[data-result='lost'][data-cause='explosion']")
    banner.wait_for()
    assert "The bomb exploded at event 4" in banner.inner_text() and "detonator" not in banner.inner_text().lower()
    assert page.locator(".dial").get_attribute("data-failures") == "1"  # the explosion is no dial move
    assert page.locator("#turn").count() == 0
    assert "red wire, the bomb exploded" in page.locator(".log li[data-index='3']").inner_text()
    # Nothing more can be recorded: the recorder holds only undo/redo; a wire's sheet starts nothing.
    actions = page.locator(".recorder button").evaluate_all("(bs) => bs.map((b) => b.dataset.action)")
    assert actions == ["undo", "redo"]
    assert page.locator(".recorder[data-over='explosion']").count() == 1
    assert page.locator(".suggestions[data-state='over'] button").count() == 0  # no next move to suggest
    exported = export_table(page)
    assert exported["events"][-1] == {"type": "dual_cut", "actor": 1, "target": {"player": 2, "stand": 0, "slot": 6},
                                      "value": 6, "success": False, "exploded": True}
    expected = cli_analyze(exported)
    assert expected["slots"][2 * 13 + 6]["p"] == {"5.5": 1.0} and not expected["slots"][2 * 13 + 6]["cut"]
    displayed_matches_cli(page, exported)
    screenshot(page, "phone-exploded")
    # Edit is still offered; Undo brings the game back, and the recorder with it.
    assert page.locator(".log li[data-index='3'] [data-action='edit']").count() == 1
    tap(page, ".recorder [data-action='undo']")
    wait_events(page, 3)
    assert page.locator(".game-over").count() == 0
    assert page.locator("#turn").get_attribute("data-player") == "1"
    assert page.locator(".recorder [data-action='dual_cut']").count() == 1
    assert not errors


def test_an_own_flipped_wire_and_a_special_cut_explode_on_a_phone(new_context, server):
    """M38: Ann's own flipped wire, cut as her 1 after Bob's wire proved to be 1, is not 1; a
    special cut (M23) that is wrong explodes too. Both by taps, each exported = the CLI."""
    page, errors = touch_phone(new_context)
    table = {"players": [{"name": "Ann", "stands": [{"size": 4, "flipped": 1}]}, {"name": "Bob", "stands": [4]}],
             "wires": {"blue": [1, 2]}, "events": []}
    open_app(page, share_link(server.url, table))
    page.wait_for_selector(".analysis-status.ok #worlds")
    tap(page, ".recorder [data-action='dual_cut']")
    slot(page, 1, 0).tap()
    tap(page, ".recorder .option[data-value='1']")
    tap(page, ".recorder .option[data-value='true']")
    slot(page, 0, 3).tap()  # Ann's flipped wire: she cannot see it
    tap(page, ".recorder .option[data-value='\"exploded\"']")
    wait_events(page, 1)
    assert page.locator(".game-over[data-cause='explosion']").count() == 1
    exported = export_table(page)
    assert exported["events"] == [{"type": "dual_cut", "actor": 0, "target": {"player": 1, "stand": 0, "slot": 0},
                                   "value": 1, "success": True, "actor_slot": {"stand": 0, "slot": 3}, "exploded": True}]
    assert "1" not in cli_analyze(exported)["slots"][3]["p"]
    displayed_matches_cli(page, exported)
    tap(page, ".recorder [data-action='undo']")
    wait_events(page, 0)

    tap(page, ".recorder [data-action='more']")
    tap(page, ".recorder [data-action='multi_cut']")
    tap(page, ".recorder .option[data-value='2']")
    slot(page, 1, 0).tap()
    slot(page, 1, 1).tap()
    tap(page, ".recorder [data-action='done']")
    tap(page, ".recorder .option[data-value='\"exploded\"']")
    wait_events(page, 1)
    assert "failed, the bomb exploded" in page.locator(".log li[data-index='0']").inner_text()
    exported = export_table(page)
    assert exported["events"][0]["exploded"] is True and "tokens" not in exported["events"][0]
    displayed_matches_cli(page, exported)
    assert not errors


# ---------------------------------------------------------------- sharing, QR, privacy


DECODE_QR = """(jsqr) => {
  const svg = document.querySelector('#share-qr svg');
  const n = svg.viewBox.baseVal.width;
  const scale = 4;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = n * scale;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#000';
  const path = new Path2D();
  path.addPath(new Path2D(svg.querySelector('path').getAttribute('d')), new DOMMatrix().scale(scale));
  ctx.fill(path);
  const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
  (0, eval)(jsqr);
  const result = jsQR(image.data, image.width, image.height);
  return result && result.data;
}"""


def test_share_with_the_table_is_public_and_its_qr_code_decodes(new_context, server):
    page, errors = touch_phone(new_context)
    table = sample_table()
    open_app(page, share_link(server.url, table))
    page.wait_for_selector(".analysis-status.ok #worlds")
    tap(page, "#menu-button")
    tap(page, ".menu-item[data-action='share']")
    page.wait_for_selector("#share-qr svg")
    url = page.locator("textarea.share-url").input_value()
    decoded = page.evaluate(DECODE_QR, tool("jsqr"))
    assert decoded == url, "the page's QR code decodes to its share link"
    assert page.locator("#share-qr").get_attribute("data-ecl") in ("M", "L")
    screenshot(page, "phone-share-qr")
    # The link holds the public table: no `me`.
    shared = page.evaluate("async (h) => (await import('./js/storage.js')).tableFromHash(h)", "#" + url.split("#", 1)[1])
    assert "me" not in shared and shared["events"] == table["events"] and shared["players"] == table["players"]

    # A second phone opens it: it picks a seat and enters its own wires.
    other, other_errors = touch_phone(new_context)
    open_app(other, url)
    other.wait_for_selector(".join-card")
    assert other.locator(".game").get_attribute("data-view") == "public"
    tap(other, ".join-seat[data-seat='1']")
    bob = [1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    for key in bob:
        tap(other, f"#sheet .keypad .key[data-key='{key}']")
    tap(other, "#sheet [data-action='join-done']")
    other.wait_for_selector(".game[data-view='me'] .analysis-status.ok #worlds")
    wait_until(other, "import('./js/storage.js').then((s) => s.storedGame(s.currentGameId())).then((g) => Boolean(g && g.table.me))")
    assert saved_game(other)["table"]["me"] == {"player": 1, "stands": [bob]}
    names = saved_names(other)
    assert names[0].startswith("Shared")

    # Later events, re-shared the same way, update the copy and keep Bob's wires.
    more = {**table, "events": table["events"] + [
        {"type": "info_token", "at": {"player": 3, "stand": 0, "slot": 11}, "value": 12}]}
    more.pop("me")
    link = other.evaluate("async (t) => (await import('./js/storage.js')).shareUrl(t)", more)
    other.evaluate("(h) => { location.hash = h; }", "#" + link.split("#", 1)[1])  # the same, already open tab
    other.wait_for_function("document.querySelectorAll('.log .events li').length === 4")
    wait_until(other, "import('./js/storage.js').then((s) => s.storedGame(s.currentGameId())).then((g) => g.table.events.length === 4)")
    saved = saved_game(other)["table"]
    assert saved["me"] == {"player": 1, "stands": [bob]} and len(saved["events"]) == 4
    assert len(saved_names(other)) == 1

    # An empty or damaged link says so.
    other.evaluate("location.hash = '#game='")
    other.wait_for_selector(".toast.error:has-text('empty')")
    other.evaluate("location.hash = '#game=zAAAA'")
    other.wait_for_selector(".toast.error:has-text('damaged')")
    assert not errors and not other_errors


def test_export_with_my_wires_asks_first(page, server):
    open_app(page, share_link(server.url, sample_table()))
    page.wait_for_selector(".analysis-status.ok #worlds")
    page.click("#menu-button")
    page.click(".menu-item[data-action='export']")
    assert "hidden wires" in page.locator("#sheet").inner_text()
    with page.expect_download() as download:
        page.click("[data-action='export-public']")
    exported = json.loads(Path(download.value.path()).read_text())
    assert "me" not in exported and exported["events"] == sample_table()["events"]


# ---------------------------------------------------------------- readable table, undo, games


def test_readable_table_undo_and_games_list(new_context, server):
    page, errors = touch_phone(new_context)
    open_app(page, share_link(server.url, sample_table()))
    page.wait_for_selector(".analysis-status.ok #worlds")
    # 1-based slot numbers on every stand; risk badges with a legend; the token drawn on its wire.
    assert slot(page, 1, 0).locator(".slot-num").inner_text() == "1"
    assert slot(page, 3, 11).locator(".slot-num").inner_text() == "12"
    assert page.locator("#legend .risk-badge.red").count() == 1
    badges = page.locator(".table .risk-badge.red")
    assert badges.count() > 0
    for i in range(min(badges.count(), 10)):
        assert float(badges.nth(i).get_attribute("data-p")) >= 0.005
    assert page.locator(".player[data-player='1'] .token-mark[data-slot='0']").inner_text() == "1"
    assert no_sideways_scroll(page)
    # Possible deals: a short figure; the exact count behind a tap.
    assert "×" in page.locator("#worlds").inner_text()
    # Tapping a suggestion highlights its target slot.
    page.wait_for_selector(".suggestions .suggestion:not([disabled])")
    first = page.locator(".suggestions .suggestion:not([disabled])").first
    target = json.loads(first.get_attribute("data-targets"))[0]
    first.tap()
    assert "highlight" in slot(page, target["player"], target["slot"], target["stand"]).get_attribute("class")
    tap(page, ".recorder [data-action='cancel']")
    # A long name is truncated, never scrolls the page sideways.
    page.evaluate("""async () => { const s = await import('./js/storage.js'); const g = s.loadGame(s.currentGameId());
      g.table.players[2].name = 'Bartholomew-Maximilian-Featherstonehaugh the Third'; await s.saveGame(g); }""")
    page.reload()
    page.wait_for_selector(".analysis-status.ok #worlds")
    assert no_sideways_scroll(page)
    tap(page, ".recorder [data-action='dual_cut']")
    assert no_sideways_scroll(page)
    tap(page, ".recorder [data-action='cancel']")

    # Delete asks nothing and is undone; redo deletes again.
    tap(page, ".log li[data-index='1'] [data-action='delete']")
    page.wait_for_function("document.querySelectorAll('.log .events li').length === 2")
    tap(page, ".recorder [data-action='undo']")
    page.wait_for_function("document.querySelectorAll('.log .events li').length === 3")
    assert "slot 13" in page.locator(".log li[data-index='1']").inner_text()
    tap(page, ".recorder [data-action='redo']")
    page.wait_for_function("document.querySelectorAll('.log .events li').length === 2")
    tap(page, ".recorder [data-action='undo']")
    page.wait_for_function("document.querySelectorAll('.log .events li').length === 3")

    # Rename; the list shows mission, players and the last change.
    tap(page, "#menu-button")
    tap(page, ".menu-item[data-action='rename']")
    page.fill("#rename-input", "Tuesday night")
    tap(page, "[data-action='save-name']")
    assert page.locator("#title").inner_text() == "Tuesday night"
    tap(page, "#menu-button")
    facts = page.locator(".saved-games li").first.inner_text()
    assert "Tuesday night" in facts and "4 players: Ann, Bob" in facts and "changed" in facts and "3 events" in facts
    screenshot(page, "phone-games-list")
    assert not errors


# ---------------------------------------------------------------- accessibility


AXE = """async (source) => {
  if (!window.axe) (0, eval)(source);
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 8).map((n) => n.target.join(' ')).join(' | ')}`);
}"""


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_axe_finds_no_serious_violations(new_context, server, viewport):
    axe = tool("axe-core")
    page = new_context(viewport=viewport).new_page()
    open_app(page, server.url)
    page.wait_for_selector("#mission option[value='1']", state="attached")
    assert page.evaluate(AXE, axe) == [], "setup screen"
    page.goto(share_link(server.url, sample_table()))
    page.wait_for_selector(".analysis-status.ok #worlds")
    page.wait_for_selector(".suggestions[data-state='ok']")
    assert page.evaluate(AXE, axe) == [], "table screen"
    page.click(".recorder [data-action='dual_cut']")
    assert page.evaluate(AXE, axe) == [], "recording"
    page.click(".recorder [data-action='cancel']")
    page.click(".table .slot[data-player='2'][data-slot='4']")
    page.wait_for_selector("#distribution li")
    assert page.evaluate(AXE, axe) == [], "slot sheet"
    page.keyboard.press("Escape")
    page.click("#menu-button")
    assert page.evaluate(AXE, axe) == [], "menu"


def test_keyboard_records_an_event_on_a_laptop(new_context, server):
    page = new_context(viewport=LAPTOP).new_page()
    open_app(page, share_link(server.url, sample_table()))
    page.wait_for_selector(".analysis-status.ok #worlds")
    page.focus(".recorder [data-action='info_token']")
    page.keyboard.press("Enter")
    page.focus(".table .slot[data-player='2'][data-slot='0']")
    page.keyboard.press("Enter")
    page.focus(".recorder .option[data-value='1']")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('.log .events li').length === 4")
    # Tab reaches the menu button first, and Escape closes a sheet.
    page.reload()
    page.wait_for_selector(".analysis-status.ok #worlds")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "menu-button"
    page.keyboard.press("Enter")
    page.wait_for_selector("#sheet:not([hidden])")
    page.keyboard.press("Escape")
    page.wait_for_selector("#sheet", state="hidden")
    screenshot(page, "laptop-companion")


def test_changing_the_wire_set_keeps_my_valid_wires(page, server):
    open_app(page, server.url)
    page.wait_for_selector("#start-game")
    page.click(".chips[aria-label='yellow wires'] .chip[data-key='3.1']")
    for key in (1, 1, 3.1, 7, 12):
        page.click(f".keypad[aria-label='add my wire'] .key[data-key='{key}']")
    assert page.locator(".my-wires .wire").all_inner_texts() == ["1", "1", "Y3", "7", "12"]
    # Yellow 3 leaves the wire set (in play → maybe → not used): only it is dropped, and the page says so.
    page.click(".chips[aria-label='yellow wires'] .chip[data-key='3.1']")
    assert page.locator(".my-wires .wire").all_inner_texts() == ["1", "1", "Y3", "7", "12"]  # "maybe": still possible
    page.click(".chips[aria-label='yellow wires'] .chip[data-key='3.1']")
    assert page.locator(".my-wires .wire").all_inner_texts() == ["1", "1", "7", "12"]
    page.wait_for_selector(".toast:has-text('Y3')")
    # The blue range shrinks to 1–10: 12 goes too.
    page.fill("input[aria-label='highest blue value']", "10")
    page.dispatch_event("input[aria-label='highest blue value']", "change")
    assert page.locator(".my-wires .wire").all_inner_texts() == ["1", "1", "7"]
