"""Issue 32 item 3: the page speaks as players do, on a phone (390×844) and,
where the issue says, in landscape (844×390). No "bits" on the main screen
(what a move tells the team is said in words), and the other points of the
item, each checked on the built page."""
from __future__ import annotations

import re

from e2e_helpers import SUGGESTIONS_SETTLED, cli_suggest, open_app, sample_table, screenshot
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
    page.wait_for_selector(".sug-cards li.card-advice")
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


RED_FRAMES = """() => [...document.querySelectorAll('.table .slot[data-dist]')].filter((b) => !b.classList.contains('cut')).map((b) => {
    const dist = JSON.parse(b.dataset.dist);
    const red = Object.entries(dist).filter(([k]) => Number(k) % 1 === 0.5).reduce((sum, [, p]) => sum + p, 0);
    const top = Math.max(...Object.values(dist));
    return { red, top, framed: b.classList.contains('has-red'), badge: (b.querySelector('.risk-badge.red') || {}).textContent || null,
             trace: Boolean(b.querySelector('.risk-trace.red')) };
})"""


def test_red_frame_only_at_the_red_cap(page, server):
    """A wire gets the red frame only where its red chance reaches the red cap the suggestions rank
    by (the core's, reported in every suggest answer); below it the chance stays as text."""
    table = sample_table()
    open_app(page, share_link(server.url, table))
    wait_suggestions(page, player=0)
    cap = cli_suggest(table, "--player", "0")["red_cap"]
    assert page.evaluate("async () => (await import('./js/suggestions.js')).RED_CAP") == cap
    slots = page.evaluate(RED_FRAMES)
    unsure = [s for s in slots if s["top"] < 1]
    assert [s["framed"] for s in unsure] == [s["red"] >= cap for s in unsure], slots
    assert any(s["framed"] for s in unsure), slots
    below = [s for s in unsure if 0 < s["red"] < cap]
    assert below, slots  # the case the frame used to alarm about
    for s in below:  # the chance stays as text: a badge from 0.5%, a trace (and words for screen readers) below
        assert s["badge"] is not None if s["red"] >= 0.005 else s["trace"], s
    screenshot(page, "phone-red-frames")


def keypad(page) -> dict:
    """The value step's keys: data-value → marked ✗ (class contradicts)."""
    page.wait_for_selector(".recorder .keypad .option")
    return dict(page.eval_on_selector_all(".recorder .keypad .option[data-value]",
                                          "keys => keys.map((k) => [k.dataset.value, k.classList.contains('contradicts')])"))


def test_solo_cut_offers_only_cuttable_values_and_my_wires_mark_the_keypad(page, server):
    """The solo-cut step offers only the values that can be solo-cut (the last copies of a value all in
    the actor's hand, rules §3.2); the keypad of a call I make marks ✗ the values I hold none of."""
    table = sample_table()
    table["me"]["stands"] = [[1, 1, 2, 3, 3.1, 4, 5, 6, 7, 8, 9, 12, 12]]  # Ann: no 10 or 11, two 12s
    table["events"] = [  # the other two 12s are cut: Ann holds the last ones
        {"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 0}, "value": 1},
        {"type": "dual_cut", "actor": 2, "target": {"player": 3, "stand": 0, "slot": 11}, "value": 12, "success": True,
         "actor_slot": {"stand": 0, "slot": 12}},
    ]
    open_app(page, share_link(server.url, table))
    wait_suggestions(page, player=0)
    solo = next(s for s in cli_suggest(table, "--player", "0")["suggestions"] if s["kind"] == "solo_cut")
    assert solo["value"] == 12  # the core agrees: Ann may solo-cut her 12s

    if not page.locator(".recorder [data-action='solo_cut']").count():
        page.click(".recorder [data-action='more']")
    page.click(".recorder [data-action='solo_cut']")
    page.click(".recorder .option[data-player='0']")
    assert list(keypad(page)) == ["12"], keypad(page)  # 1: Bob holds one; the rest: others may hold them
    page.click(".recorder [data-action='cancel']")

    page.wait_for_selector(".recorder [data-action='dual_cut']")
    page.click(".recorder [data-action='dual_cut']")
    page.click(".recorder .option[data-player='0']")
    page.click(".table .slot[data-player='1'][data-stand='0'][data-slot='5']")
    keys = keypad(page)
    assert {value for value, marked in keys.items() if marked} == {"10", "11"}, keys
    assert page.locator(".recorder .keypad .option[data-value='11']").get_attribute("title").startswith("Your own wires rule this out")
    screenshot(page, "phone-keypad-my-wires")



IN_SIGHT = """(e) => {
  const r = e.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return Boolean(hit) && (hit === e || e.contains(hit));
}"""


def test_landscape_the_wire_the_recorder_asks_for_is_in_sight(new_context, server):
    """In landscape (844×390) the stand the recorder asks a wire of is brought out from under the top bar:
    after Bob's successful call, every wire of Bob's he may cut too is in sight, and Back/Cancel too."""
    context = new_context(viewport={"width": 844, "height": 390}, has_touch=True, is_mobile=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_app(page, share_link(server.url, sample_table()))
    wait_suggestions(page, player=0)
    assert page.locator("#turn").get_attribute("data-player") == "1"  # Bob plays now
    page.click(".recorder [data-action='dual_cut']")
    page.locator(".table .slot[data-player='2'][data-slot='6']").click()
    page.click(".recorder .option[data-value='6']")
    page.click(".recorder .option[data-value='true']")
    page.wait_for_selector(".recorder[data-step='actor_slot']")
    asked = page.locator(".table .slot.selectable")
    assert asked.count() == 13
    hidden = [j for j in range(asked.count()) if not asked.nth(j).evaluate(IN_SIGHT)]
    assert not hidden, f"Bob's wires out of sight: {hidden}"
    for control in ("back", "cancel"):
        assert page.locator(f".recorder [data-action='{control}']").evaluate(IN_SIGHT), control
    screenshot(page, "landscape-asked-wire")
    assert not errors


GAP_ABOVE_FIRST_GROUP = """() => {
  const whose = document.querySelector('.suggestions .sug-whose').getBoundingClientRect();
  const first = document.querySelector('.suggestions .sug-group h3').getBoundingClientRect();
  return [first.top - whose.bottom, document.querySelector('.suggestions .sug-group h3').innerText];
}"""


def test_no_empty_gap_above_certain_moves(new_context, server):
    """Once the list is in, "Certain moves" follows the line saying whose moves they are, in portrait
    and in landscape: no empty status row between them."""
    for viewport in ({"width": 390, "height": 844}, {"width": 844, "height": 390}):
        page = new_context(viewport=viewport, has_touch=True, is_mobile=True).new_page()
        open_app(page, share_link(server.url, sample_table()))
        wait_suggestions(page, player=0)
        page.wait_for_function(SUGGESTIONS_SETTLED)
        gap, heading = page.evaluate(GAP_ABOVE_FIRST_GROUP)
        assert heading.lower() == "certain moves"
        assert gap < 16, f"{viewport}: {gap:.0f} px between the whose line and Certain moves"


def test_landscape_equipment_row_and_back_cancel_are_not_cut(new_context, server):
    """In landscape (844×390) every button of the game's equipment row is whole on screen (none cut at
    the recorder's edge), and Back/Cancel are in sight at the value keypad, the tallest common step."""
    from test_pyodide_bridge import advised_table  # a board with cards 1, 4, 2 unlocked: an equipment row

    page = new_context(viewport={"width": 844, "height": 390}, has_touch=True, is_mobile=True).new_page()
    open_app(page, share_link(server.url, advised_table()))
    wait_suggestions(page, player=0)
    page.wait_for_function(SUGGESTIONS_SETTLED)
    if page.locator("[data-action='help-skip']").count():  # the first visit's help card, above the game
        page.click("[data-action='help-skip']")
    row = page.locator(".recorder .mission-actions .action-button")
    assert row.count() >= 3
    cut = page.eval_on_selector(".recorder", """(recorder) => {
      const edge = recorder.getBoundingClientRect();
      return [...recorder.querySelectorAll('.mission-actions .action-button')].filter((b) => {
        const r = b.getBoundingClientRect();
        return r.left < edge.left - 0.5 || r.right > edge.right + 0.5 || b.scrollWidth > b.clientWidth + 1;
      }).map((b) => b.innerText);
    }""")
    assert not cut, f"equipment buttons cut: {cut}"
    page.click(".recorder [data-action='dual_cut']")
    page.locator(".table .slot.selectable").first.click()
    page.wait_for_selector(".recorder[data-step='value']")
    for control in ("back", "cancel"):
        assert page.locator(f".recorder [data-action='{control}']").evaluate(IN_SIGHT), control
    screenshot(page, "landscape-equipment-row")
