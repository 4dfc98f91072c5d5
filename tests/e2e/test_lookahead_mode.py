"""The suggestions panel's Lookahead mode (web/js/suggestions.js) on a touch phone.

Tapping "Lookahead" asks the workers' `lookahead` (bombbuster_core/sim/lookahead_advice.py)
for "me": the panel shows the pick first — the very move CPython's lookahead
gives for the exported table with the page's budget and seed, a legal move —
and how many deals it used. Asked for another player, it says it decides for
"me" only. The time from the tap to the answer is printed (phone budget:
docs/results/lookahead-cost.md).
"""
from __future__ import annotations

import base64
import json
import time

from e2e_helpers import export_table, open_app, sample_table, screenshot, tap, touch_phone

from bombbuster_core.sim.lookahead_advice import lookahead

PAGE_BUDGET = {"deals": 8, "depth": 3, "work": 60, "seed": 0}  # web/js/suggestions.js: LOOKAHEAD


def share_link(url: str, table: dict) -> str:
    return url + "#game=" + base64.urlsafe_b64encode(json.dumps(table).encode()).decode().rstrip("=")


def test_lookahead_mode_shows_a_legal_pick_and_its_deals(new_context, server):
    page, errors = touch_phone(new_context)
    table = sample_table()
    # No certain move for Ann (a token of a value she does not hold), so the lookahead draws its deals.
    table["events"] = [{"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 12}, "value": 11}]
    open_app(page, share_link(server.url, table))
    page.wait_for_selector(".suggestions[data-state='ok'][data-mode='exact'] .suggestion")
    started = time.perf_counter()
    tap(page, ".sug-modes button[data-mode='lookahead']")
    page.wait_for_selector(".suggestions[data-state='ok'][data-mode='lookahead'] .suggestion")
    seconds = time.perf_counter() - started
    print(f"lookahead in the page (Chromium, phone size): {seconds:.2f} s")
    screenshot(page, "phone-lookahead")
    deals = int(page.get_attribute(".suggestions .sug-body", "data-deals"))
    foot = page.inner_text(".suggestions .sug-deals")
    expected = lookahead({"table": export_table(page), **PAGE_BUDGET})
    assert deals == expected["deals"] and 1 <= deals <= PAGE_BUDGET["deals"]
    assert f"{deals} deals" in foot
    pick = page.eval_on_selector(".suggestions [data-group='pick'] .suggestion", """b => ({
        kind: b.dataset.kind, targets: JSON.parse(b.dataset.targets), value: JSON.parse(b.dataset.value)})""")
    first = expected["suggestions"][0]
    assert pick == {"kind": first["kind"], "targets": [first["target"]] if "target" in first else first["targets"],
                    "value": first.get("value")}
    # A legal move for Ann (player 0): a teammate's uncut wire, a value she holds uncut.
    assert pick["kind"] in ("dual_cut", "double_detector")
    held = {k for k in table["me"]["stands"][0] if k == int(k)}
    assert pick["value"] in held and all(t["player"] != 0 for t in pick["targets"])
    # For another player: a clear refusal, not a guess.
    tap(page, ".sug-players button[data-player='1']")
    page.wait_for_selector(".suggestions[data-state='error'][data-mode='lookahead']")
    assert "decides for you only" in page.inner_text(".suggestions .sug-status")
    assert not errors
