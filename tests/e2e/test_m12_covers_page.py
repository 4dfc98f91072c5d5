"""Mission 12, "Wrapped in Red Tape", on the page: at setup the players record the Number card laid
over each equipment card (one of each value; "Draw them for us" draws them too), Start waits for
them, the exported table carries them (equipment[i].cover), and the board strip keeps a card locked
until both its own pair and its Number card's pair are cut, as the core says (equipment.py).
Chromium at phone size (390x844, touch), every action by taps."""
from __future__ import annotations

from e2e_helpers import action, export_table, open_app, slot, tap, touch_phone, value, wait_events
from test_companion import AXE, tool
from test_equipment_board import board, offered
from test_tap_targets import offenders

CARDS = ("1", "4", "6", "9")  # Label ≠, Post-it, Rewinder, Stabilizer
COVERS = {"1": 3, "4": 10, "6": 9, "9": 2}  # the Rewinder (6) lies under the Number card 9


def covers_shown(page):
    """The strip's Number cards: card ID -> (value, struck through)."""
    return {card: (int(cover), removed) for card, cover, removed in page.eval_on_selector_all(
        "#board .board-card[data-card]",
        "cards => cards.map((c) => { const s = c.querySelector('.card-cover');"
        " return [c.dataset.card, s && s.dataset.cover, Boolean(s && s.classList.contains('removed'))]; })")
        if cover is not None}


def dual_cut(page, target, mine, v):
    """The player to move cuts ``v`` on ``target`` (player, slot) with their own slot ``mine``: a success."""
    action(page, "dual_cut")
    slot(page, *target).tap()
    value(page, v)
    value(page, True)
    slot(page, *mine).tap()


def test_a_covered_card_stays_locked_until_both_pairs_are_cut(new_context, server):
    page, errors = touch_phone(new_context)
    open_app(page, server.url)
    page.wait_for_selector("#mission option[value='12']", state="attached")
    page.select_option("#mission", "12")
    for key in ("2.1", "4.1", "7.1", "9.1"):
        tap(page, f"[data-group='drawn-yellow'] .chip[data-key='{key}']")
    tap(page, "[data-group='drawn-red'] .chip[data-key='5.5']")
    page.wait_for_selector(".equipment-setup")
    for card in CARDS:
        tap(page, f".equipment-setup .card-chip[data-card='{card}']")
    # The cards are tapped but not their Number cards: the board is not settled, Start waits.
    assert page.locator(".equipment-setup select[data-cover]").count() == 4
    page.wait_for_selector(".equipment-setup .warn")
    tap(page, ".chip[data-me='none']")
    tap(page, "#start-game")
    assert page.locator("#start-game").count() == 1
    # "Draw them for us" draws 4 different Number cards for the 4 cards drawn
    tap(page, "[data-action='draw-equipment']")
    drawn = page.eval_on_selector_all(".equipment-setup select[data-cover]", "s => s.map((e) => Number(e.value))")
    assert len(drawn) == 4 and len(set(drawn)) == 4 and all(1 <= v <= 12 for v in drawn)
    pressed = page.eval_on_selector_all(".card-chip[aria-pressed='true']", "chips => chips.map((c) => c.dataset.card)")
    for card in pressed:  # taken back: the table's own cards, and their Number cards by hand
        tap(page, f".equipment-setup .card-chip[data-card='{card}']")
    assert page.locator(".equipment-setup select[data-cover]").count() == 0
    for card in CARDS:
        tap(page, f".equipment-setup .card-chip[data-card='{card}']")
    for card, cover in COVERS.items():
        page.select_option(f"select[data-cover='{card}']", str(cover))
    # one Number card of each value: a value another card took is not offered
    assert page.locator("select[data-cover='1'] option[value='9']").is_disabled()
    page.wait_for_function("!document.querySelector('.setup .warn')")
    assert offenders(page, "M12 covers") == ([], [])
    assert page.evaluate(AXE, tool("axe-core")) == [], "M12 covers"
    tap(page, "#start-game")
    page.wait_for_selector(".analysis-status.ok #worlds")

    table = export_table(page)
    assert table["equipment"] == [{"card": c, "cover": COVERS[c]} for c in CARDS]
    assert table["meta"]["equipment"]["covers"] == {"range": [1, 12]}
    assert board(page) == {c: "locked" for c in CARDS}
    assert covers_shown(page) == {c: (v, False) for c, v in COVERS.items()}

    # The Captain cuts two 6s: the Rewinder's own pair, but its Number card 9 still covers it.
    dual_cut(page, (1, 4), (0, 4), 6)
    wait_events(page, 1)
    assert board(page)["6"] == "locked" and covers_shown(page)["6"] == (9, False)
    assert "rewinder" not in offered(page)
    # Player 2 cuts two 9s: the Number card goes, the Rewinder is ready and offered.
    dual_cut(page, (2, 8), (1, 8), 9)
    wait_events(page, 2)
    assert board(page)["6"] == "unlocked" and covers_shown(page)["6"] == (9, True)
    assert "rewinder" in offered(page)
    # The Stabilizer (9) has its own pair now but lies under the Number card 2: still locked.
    assert board(page)["9"] == "locked" and covers_shown(page)["9"] == (2, False)
    assert errors == []
