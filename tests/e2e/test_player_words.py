"""Issue 32 item 3: the page speaks as players do, on a phone (390×844) and,
where the issue says, in landscape (844×390). No "bits" on the main screen
(what a move tells the team is said in words), and the other points of the
item, each checked on the built page."""
from __future__ import annotations

import re

from e2e_helpers import open_app, screenshot
from test_suggestions import share_link, wait_suggestions

BITS = re.compile(r"\bbits?\b", re.IGNORECASE)


def main_screen_text(page) -> str:
    """What the page shows, without the details sheet (which may keep the figures)."""
    return page.evaluate("""() => [...document.body.children].filter((e) => e.id !== 'sheet' && e.tagName !== 'DIALOG')
        .map((e) => e.innerText).join('\\n')""")


def expected_words(bits: float) -> str:
    """web/js/suggestions.js infoWords: a lot from one bit (the core's INFO_NOW), nothing new below 0.005."""
    return "a lot" if bits >= 1 else "a little" if bits >= 0.005 else "nothing new"


def test_no_bits_on_the_main_screen(page, server):
    """Every suggestion says what it tells the team in words that follow its exact information
    figure; the card advice (the General Radar, the marks) too; the figure stays in the details."""
    from test_pyodide_bridge import advised_table  # a board with the Radar (E1) and the Post-it unlocked

    open_app(page, share_link(server.url, advised_table()))
    wait_suggestions(page, player=0)
    page.wait_for_selector(".sug-cards li.card-advice", timeout=120_000)
    shown = page.eval_on_selector_all(".suggestions .suggestion", """buttons => buttons.map((b) =>
        [Number(b.dataset.bits), b.querySelector('.sug-bits').innerText])""")
    assert shown
    for bits, words in shown:
        assert words == f"tells the team {expected_words(bits)}", (bits, words)
    assert {words for _, words in shown} != {"tells the team nothing new"}, shown  # the table's calls tell something
    text = main_screen_text(page)
    assert not BITS.search(text), BITS.search(text) and text[max(0, BITS.search(text).start() - 200):BITS.search(text).end() + 50]
    radar = page.locator(".card-advice[data-card='general_radar']")
    assert re.search(r"tells the team (a lot|a little|nothing new)", radar.inner_text()), radar.inner_text()
    post_it = page.locator(".card-advice[data-card='4'] .sug-why").inner_text()
    assert re.fullmatch(r"the best mark tells the team (a lot|a little|nothing new)(: keep it)?", post_it), post_it
    screenshot(page, "phone-player-words")
