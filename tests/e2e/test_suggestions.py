"""The suggestions panel (web/js/suggestions.js): after an event recorded by
taps, the panel lists the core's `suggest` answer for the exported table (the
same moves in the same order, the exact probabilities in the DOM's data
attributes); tapping a move pre-fills the recorder so only the outcome is left
to confirm (dual cut, solo cut, reveal red); entropy mode shows progress and can
be cancelled; the player picker asks for another player. Screenshots at phone
and laptop size go to tests/artifacts/."""
from __future__ import annotations

import base64
import json

from conftest import LAPTOP
from e2e_helpers import ARTIFACTS, cli, cli_suggest, export_table, open_app, sample_table, screenshot, slot, words

SHOWN_CALLS = 5  # web/js/suggestions.js: ranked dual cuts shown before "Show all"
TOLERANCE = 1e-9


def share_link(url: str, table: dict) -> str:
    return url + "#game=" + base64.urlsafe_b64encode(json.dumps(table).encode()).decode().rstrip("=")


def wait_suggestions(page, player=None, mode="exact"):
    selector = f".suggestions[data-state='ok'][data-mode='{mode}']"
    if player is not None:
        selector += f"[data-player='{player}']"
    page.wait_for_selector(selector + " .suggestion")




def tap_value(page, value):
    page.click(f".recorder .option[data-value='{json.dumps(value)}']")


def same_json(a, b, path="$"):
    """Equal JSON, floats to TOLERANCE."""
    if isinstance(a, float) or isinstance(b, float):
        assert isinstance(a, (int, float)) and isinstance(b, (int, float)), f"{path}: {a!r} vs {b!r}"
        assert abs(a - b) <= TOLERANCE, f"{path}: {a!r} vs {b!r}"
    elif isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), f"{path}: keys {sorted(a)} vs {sorted(b)}"
        for key in a:
            same_json(a[key], b[key], f"{path}.{key}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), f"{path}: length {len(a)} vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            same_json(x, y, f"{path}[{i}]")
    else:
        assert a == b, f"{path}: {a!r} vs {b!r}"


def group_of(s: dict) -> str:
    if s["kind"] not in ("dual_cut", "solo_cut", "reveal_red"):
        return "equipment"
    return "calls" if s["kind"] == "dual_cut" and not s["certain"] else "forced"


def shown_items(page) -> list[dict]:
    return page.eval_on_selector_all(".suggestions .suggestion", """buttons => buttons.map((b) => ({
        rank: Number(b.dataset.rank), kind: b.dataset.kind, targets: JSON.parse(b.dataset.targets),
        value: JSON.parse(b.dataset.value), p_success: Number(b.dataset.pSuccess), p_red: Number(b.dataset.pRed),
        bits: Number(b.dataset.bits), certain: b.dataset.certain === "true", highlighted: b.classList.contains("certain"),
        text: b.innerText}))""")


def check_panel_equals_cli(page, cli: dict) -> None:
    """The DOM lists the certain moves, the first ranked calls and the equipment, in the CLI's order and numbers."""
    expected = []
    calls = 0
    for rank, s in enumerate(cli["suggestions"]):
        group = group_of(s)
        if group == "calls":
            calls += 1
            if calls > SHOWN_CALLS:
                continue
        expected.append(rank)
    items = shown_items(page)
    assert [item["rank"] for item in items] == expected
    for item in items:
        s = cli["suggestions"][item["rank"]]
        assert item["kind"] == s["kind"]
        assert item["targets"] == ([s["target"]] if "target" in s else s["targets"])
        assert item["value"] == s.get("values", s.get("value"))
        for field in ("p_success", "p_red", "bits"):
            assert abs(item[field] - s[field]) <= TOLERANCE, (item, s)
        assert item["certain"] == s["certain"] and item["highlighted"] == s["certain"]
        # The engine's reason is shown unless it only repeats the figures (one percentage per call).
        if s["why"].startswith("P(success)"):
            assert "P(success)" not in item["text"] and item["text"].count("%") <= 3
        elif s["why"].startswith("certain if the player holds"):  # the condition in the player's name (issue 21)
            assert "✓ certain if " in item["text"] and s["why"].split(": ", 1)[1] in item["text"]
        elif s["why_code"] == "futile":  # worded from its code, without the figures the stats show
            assert words("en", "sug.why.futile") in item["text"] and "bits" not in item["text"]
        elif s["why_code"] == "last_space":
            assert "the next failure loses: this move succeeds" in item["text"] and "bits" not in item["text"]
        else:
            assert s["why"] in item["text"]


def test_panel_matches_cli_and_tapping_prefills_a_dual_cut(page, server):
    open_app(page, share_link(server.url, sample_table()))
    wait_suggestions(page, player=0)
    # Record one more event by taps: Ann calls 3 on Di's second wire, fails, token 2.
    page.click(".recorder [data-action='dual_cut']")
    page.click(".recorder .option[data-player='0']")
    slot(page, 3, 1).click()
    tap_value(page, 3)
    tap_value(page, False)
    tap_value(page, 2)
    page.wait_for_function("document.querySelectorAll('.log .events li').length === 4")
    wait_suggestions(page, player=0)
    table = export_table(page)
    assert table["events"][-1] == {"type": "dual_cut", "actor": 0, "target": {"player": 3, "stand": 0, "slot": 1},
                                   "value": 3, "success": False, "token": 2}

    cli = cli_suggest(table, "--player", "0")
    api = page.evaluate("async (table) => await window.bombbuster.suggest(table, {player: 0})", table)
    same_json(api, cli)
    check_panel_equals_cli(page, cli)
    assert page.locator(".suggestions .suggestion.certain").count() >= 1
    screenshot(page, "phone-suggestions")
    page.locator(".suggestions").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "phone-suggestions-screen.png"))  # what the phone shows, sticky bars in place

    # "Show all" lists every move once, each section (certain moves, calls, equipment) in the CLI's
    # order: the core may rank a card within the red cap above a call too red (docs/suggestions.md).
    page.click(".suggestions [data-action='more-suggestions']")
    items = shown_items(page)
    ranks = [item["rank"] for item in items]
    assert sorted(ranks) == list(range(len(cli["suggestions"])))
    sections = [group_of(cli["suggestions"][rank]) for rank in ranks]
    assert sections == sorted(sections, key=["forced", "calls", "equipment"].index)
    for group in ("forced", "calls", "equipment"):
        within = [rank for rank, section in zip(ranks, sections) if section == group]
        assert within == sorted(within), group
    page.click(".suggestions [data-action='more-suggestions']")

    # Tap the best uncertain call: the recorder asks only "Did the cut succeed?".
    best = next(s for s in cli["suggestions"] if group_of(s) == "calls")
    rank = cli["suggestions"].index(best)
    page.click(f".suggestions .suggestion[data-rank='{rank}']")
    page.wait_for_selector(".recorder.active")
    assert page.locator(".recorder .prompt").inner_text() == "Did the cut succeed?"
    summary = page.locator(".recorder .draft-summary").inner_text()
    target = best["target"]
    name = ["Ann", "Bob", "Cy", "Di"][target["player"]]
    assert summary == f"Ann · → {name} slot {target['slot'] + 1} · value {best['value']}"
    assert page.locator(f".suggestions .suggestion.chosen[data-rank='{rank}']").count() == 1
    screenshot(page, "phone-suggestion-prefilled")
    page.click(".recorder [data-action='cancel']")

    # Tap a certain dual cut and confirm success: my wire of that value is pre-filled too.
    certain = next(s for s in cli["suggestions"] if s["kind"] == "dual_cut" and s["certain"])
    page.click(f".suggestions .suggestion[data-rank='{cli['suggestions'].index(certain)}']")
    tap_value(page, True)
    page.wait_for_function("document.querySelectorAll('.log .events li').length === 5")
    event = export_table(page)["events"][-1]
    mine = table["me"]["stands"][0]
    assert event == {"type": "dual_cut", "actor": 0, "target": certain["target"], "value": certain["value"],
                     "success": True, "actor_slot": {"stand": 0, "slot": mine.index(certain["value"])}}
    wait_suggestions(page, player=0)


def test_entropy_progress_cancel_and_player_picker(page, server):
    table = sample_table()
    open_app(page, share_link(server.url, table))
    wait_suggestions(page, player=0)
    page.click(".suggestions .sug-modes button[data-mode='entropy']")
    page.wait_for_selector(".suggestions[data-state='busy'][data-mode='entropy']")
    page.wait_for_function("/\\d\\.\\d s/.test(document.querySelector('.suggestions .sug-elapsed').textContent)")
    # The worker reports the branch analyses done so far beside the elapsed time.
    page.wait_for_function(
        "/\\d+\\/\\d+ analyses/.test(document.querySelector('.suggestions .sug-elapsed').textContent)")
    page.click(".suggestions [data-action='cancel-suggestions']")
    page.wait_for_selector(".suggestions[data-state='cancelled']")
    page.click(".suggestions .sug-modes button[data-mode='exact']")
    wait_suggestions(page, player=0)  # from the panel's cache: no new request

    # Another player: Bob's calls in my view.
    page.click(".suggestions .sug-players button[data-player='1']")
    wait_suggestions(page, player=1)
    check_panel_equals_cli(page, cli_suggest(table, "--player", "1"))
    # The public view asks about the chosen player without my wires.
    page.click("#view-toggle button[data-view='public']")
    wait_suggestions(page, player=1)
    public = {k: v for k, v in table.items() if k != "me"}
    check_panel_equals_cli(page, cli_suggest(public, "--player", "1"))


def test_solo_cut_and_reveal_red_prefill(page, server):
    table = {"players": [{"name": "Ann", "stands": [1, 4]}, {"name": "Bob", "stands": [2, 2]}],
             "wires": {"blue": [1, 2], "yellow": [], "red": [1.5]},
             "me": {"player": 0, "stands": [[1.5], [1, 1, 1, 1]]}, "events": []}
    open_app(page, share_link(server.url, table))
    wait_suggestions(page, player=0)
    check_panel_equals_cli(page, cli_suggest(table))
    page.click(".suggestions .suggestion[data-kind='solo_cut']")
    assert page.locator(".recorder [data-action='done']").inner_text() == "Done (4 chosen)"
    page.click(".recorder [data-action='done']")
    page.wait_for_function("document.querySelectorAll('.log .events li').length === 1")
    wait_suggestions(page, player=0)
    after = export_table(page)
    assert after["events"] == [{"type": "solo_cut", "actor": 0, "value": 1,
                                "slots": [{"stand": 1, "slot": i} for i in range(4)]}]
    check_panel_equals_cli(page, cli_suggest(after))
    page.click(".suggestions .suggestion[data-kind='reveal_red']")
    assert page.locator(".recorder .prompt").inner_text() == "Which red is at Ann stand 1 slot 1?"
    tap_value(page, 1.5)
    page.wait_for_function("document.querySelectorAll('.log .events li').length === 2")
    assert export_table(page)["events"][-1] == {"type": "reveal_red", "actor": 0,
                                                "slots": [{"stand": 0, "slot": 0, "value": 1.5}]}


def test_laptop_screenshot_and_equipment_details(new_context, server):
    page = new_context(viewport=LAPTOP).new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_app(page, share_link(server.url, sample_table()))
    wait_suggestions(page, player=0)
    screenshot(page, "laptop-suggestions")
    page.click(".suggestions .suggestion[data-kind='double_detector']")
    page.wait_for_selector("#sheet .sug-outcomes li")
    page.screenshot(path=str(ARTIFACTS / "laptop-suggestion-detector.png"))  # the dialog over the visible screen
    page.click("#sheet [data-action='record-equipment']")
    # The detector draft starts with the suggested wires and value: only the outcome is asked.
    assert page.locator(".recorder .recorder-head b").inner_text() == "Double Detector"
    assert page.locator(".recorder .prompt").inner_text() == "Did the cut succeed?"
    assert not errors, errors


def test_card_advice_follows_the_list_and_equals_the_cli(page, server):
    """Issue 20: with the board followed, the panel asks for the equipment advice (`cards: true`)
    after the list and shows every usable card with its verdict and best candidates, as the CLI."""
    from test_pyodide_bridge import advised_table  # the hand-made board: cards 1, 4, 2 unlocked, E1

    table = advised_table()
    open_app(page, share_link(server.url, table))
    wait_suggestions(page, player=0)
    page.wait_for_selector(".sug-cards li.card-advice")
    moving = "· to play now" in page.locator("#sug-whose").inner_text()
    advice = cli("suggest", table, "--top", "all", "--player", "0", *([] if moving else ["--not-moving"]))["equipment"]
    shown = page.eval_on_selector_all(".sug-cards li.card-advice", "rows => rows.map((r) => [r.dataset.card, r.dataset.verdict, r.querySelectorAll('.card-candidates li').length])")
    assert shown == [[c["card"], c["verdict"], min(3, len(c["candidates"]))] for c in advice["cards"]]
    assert {c["card"] for c in advice["cards"]} >= {"1", "4", "2", "general_radar"}  # 12 stays locked (no 12 cut)
    radar = next(c for c in advice["cards"] if c["card"] == "general_radar")
    first = page.locator(".card-advice[data-card='general_radar'] .card-candidates li").first.inner_text()
    best = radar["candidates"][0]
    radar_words = "a lot" if best["bits"] >= 1 else "a little" if best["bits"] >= 0.005 else "nothing new"
    assert first.startswith(f"{best['value']}: tells the team {radar_words}; yes: "), first
    post_it = next(c for c in advice["cards"] if c["card"] == "4")
    text = page.locator(".card-advice[data-card='4'] .card-candidates li").first.inner_text()
    mark = post_it["candidates"][0]["information"]
    assert text.endswith(f"tells the team {'a lot' if mark >= 1 else 'a little' if mark >= 0.005 else 'nothing new'}"), text
    # The mission's token in the Post-it's words: even/odd (M21/M33), x-count (M24/M40), a number.
    words = page.evaluate("""async () => {
      const { candidateText } = await import(new URL("js/cardadvice.js", location.href));
      const screen = { slotName: (s) => `slot ${s.slot + 1}`, playerName: (p) => `P${p}` };
      const at = { player: 0, stand: 0, slot: 2 };
      return [{ parity: "odd" }, { count: 2 }, {}].map((token) =>
        candidateText({ card: "4" }, { target: at, value: 7, bits: 1.5, ...token }, screen));
    }""")
    assert words == ["slot 3 (7, odd token): tells the team a lot", "slot 3 (7, ×2 token): tells the team a lot",
                     "slot 3 (7): tells the team a lot"], words
    # M17/M28's Captain: the core's reason, not "No card can be used now."
    barred = page.evaluate("""async () => {
      const { cardsSection } = await import(new URL("js/cardadvice.js", location.href));
      const advice = { player: 0, moving: true, cards: [], your_turn_only: [], barred: "M28: Captain Careless has no equipment" };
      return cardsSection({ kind: "done", advice }, {}).textContent;
    }""")
    assert "M28: Captain Careless has no equipment." in barred and "No card can be used now" in barred, barred
    screenshot(page, "phone-card-advice")
