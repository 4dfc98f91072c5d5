"""The Review screen (web/js/review.js) in real Chromium: a recorded Mission 4 game with one
deliberate bad call (tests/data/review_m4.json) is reviewed in the workers; the screen marks
that call the costliest, with the odds the CLI prints, and a hypothetical tried there shows
its odds without changing the game's log."""
from __future__ import annotations

import json
from pathlib import Path

from e2e_helpers import export_table, open_app

ROOT = Path(__file__).resolve().parents[2]
RECORDED = json.loads((ROOT / "tests" / "data" / "review_m4.json").read_text(encoding="utf-8"))


def open_review(page, url: str, table: dict, tmp_path: Path) -> None:
    """The app with `table` imported and analysed, and its Review screen once the review is in."""
    open_app(page, url)
    path = tmp_path / "reviewed.bombbuster.json"
    path.write_text(json.dumps(table))
    page.set_input_files("#import-file", str(path))
    page.wait_for_selector(".analysis-status.ok #worlds")
    page.click("#menu-button")
    page.click(".menu-item[data-action='review']")
    page.wait_for_selector(".review[data-review='ready']")


def test_review_marks_the_bad_call_and_tries_a_hypothetical(page, server, tmp_path):
    from bombbuster_core.review import review

    table, bad = RECORDED["table"], RECORDED["bad_call"]
    expected = review(table)["decisions"]
    open_review(page, server.url, table, tmp_path)
    page.click("[data-action='review-costliest']")
    card = page.locator(".review-card")
    assert card.get_attribute("data-event") == str(bad["event"])
    assert card.locator(".review-costliest").count() == 1
    (entry,) = [e for e in expected if e["event"] == bad["event"]]
    cost = card.locator("[data-field='cost']").inner_text()
    assert cost == f"{entry['cost'] * 100:.0f}% success chance given up"
    assert "success 0.01%" in card.locator("[data-field='played']").inner_text()
    assert "success 100%" in card.locator("[data-field='best']").inner_text()
    # Stepping away and back keeps the mark on that decision only.
    page.click("[data-action='review-next']")
    assert page.locator(".review-card .review-costliest").count() == 0

    page.click("[data-action='review-prev']")
    best = entry["best"]["target"]
    page.click(".review-try summary")
    # The best move's wire, chosen by its place among the teammates' wires, and its value.
    targets = [(p, s, j) for p, player in enumerate(table["players"]) if p != entry["actor"]
               for s, size in enumerate(player["stands"]) for j in range(size)]
    assert page.locator("[data-field='try-target'] option").count() == len(targets)
    page.select_option("[data-field='try-target']", str(targets.index((best["player"], best["stand"], best["slot"]))))
    page.select_option("[data-field='try-value']", json.dumps(entry["best"]["value"]))
    page.click("[data-action='review-try']")
    page.wait_for_selector(".review-tried[data-state='done']")
    tried = page.locator(".review-tried").inner_text()
    assert "success 100%" in tried and "cost none" in tried
    page.click("#sheet button[aria-label='Close']")
    assert export_table(page)["events"] == table["events"]  # the hypothetical is not written into the game


SEARCHED = json.loads((ROOT / "tests" / "data" / "review_search.json").read_text(encoding="utf-8"))


def test_the_search_judges_my_decision_as_the_cli_does(page, server, tmp_path):
    """At one of my decisions with no certain move (tests/data/review_search.json), "Ask the search"
    shows the search's pick and the win chances of its rollouts: those `review --search 20 --search-work
    500` prints (the Search mode's budget, web/js/suggestions.js SEARCH)."""
    from bombbuster_core.review import review
    assert "SEARCH = { iterations: 20, work: 500 }" in (ROOT / "web" / "js" / "suggestions.js").read_text()
    table, event = SEARCHED["table"], SEARCHED["event"]
    (entry,) = [e for e in review(table, search=20, search_work=500)["decisions"] if e["event"] == event]
    judged = entry["search"]
    assert judged["searched"]
    open_review(page, server.url, table, tmp_path)
    while page.locator(".review-card").get_attribute("data-event") != str(event):
        page.click("[data-action='review-next']")
    page.click("[data-action='review-search']")
    page.wait_for_selector(".review-search[data-state='done']")
    said = page.locator(".review-search").inner_text()
    win = lambda p: f"{p * 100:.0f}%"  # noqa: E731  (the page's percent above 1 %)
    played = "not tried" if judged["played_win"] is None else win(judged["played_win"])
    assert said.startswith("The search (20 games) picks dual cut") and said.endswith(
        f": wins {win(judged['pick']['win'])}; the move played: {played}"), said
