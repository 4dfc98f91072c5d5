"""The page in English, French and German (docs/i18n.md), in real Chromium: every screen and
sheet is rendered in each language — the setup form with the first-use help, the menu and its
sheets, the table with the suggestions and the log, a wire's sheet and "Why", the recorder's
steps and a refusal, the edit form, the review — and the test fails on a key missing from the
catalogue (window.bombbusterI18n.missing) or, on a French or German page, on a text of the English
catalogue left on screen. The menu's switch changes the language and is remembered on reload. The
messages worded from a code are checked in each language too: a mission's note on the dial, an
equipment use the core refuses and malformed tables (their codes and fields), a live table's code that
is not one, a full storage.
(Unused keys and the catalogues' parity: tests/test_i18n_catalogues.py.)"""
from __future__ import annotations

import json
import re

import pytest

from e2e_helpers import ROOT, SUGGESTIONS_SETTLED, TAPS_TAKEN, open_app, sample_table, slot, wait_events, words
from test_companion import share_link
from test_storage import FULL_STORAGE

LOCALES = {"en": "en-US", "fr": "fr-CH", "de": "de-AT"}  # a regional tag: the page takes its language


def catalogue(language: str) -> dict[str, str]:
    return json.loads((ROOT / "web" / "js" / "i18n" / f"{language}.json").read_text(encoding="utf-8"))


def english_leftovers(language: str) -> list[str]:
    """English texts of the catalogue a French or German page must not show: whole sentences
    (two words or more, no placeholder) that the language words differently."""
    english, other = catalogue("en"), catalogue(language)
    return sorted({text for key, text in english.items()
                   if " " in text and len(text) >= 12 and "{" not in text and other[key] != text})


class Screens:
    """Checks each rendered screen: nothing missing from the catalogue, no English left."""

    def __init__(self, page, language: str):
        self.page = page
        self.language = language
        self.leftovers = english_leftovers(language) if language != "en" else []
        self.seen: list[str] = []

    def check(self, name: str) -> None:
        self.seen.append(name)
        missing = self.page.evaluate("[...window.bombbusterI18n.missing]")
        assert missing == [], f"{name}: keys missing from {self.language}.json: {missing}"
        shown = self.page.evaluate("document.body.innerText + ' ' + [...document.querySelectorAll('[aria-label],[title]')]"
                                   ".map((e) => `${e.getAttribute('aria-label') || ''} ${e.getAttribute('title') || ''}`).join(' ')")
        left = [text for text in self.leftovers if text in shown]
        assert left == [], f"{name}: English left on the {self.language} page: {left}"


@pytest.fixture(params=list(LOCALES))
def language(request):
    return request.param


@pytest.fixture
def localized(new_context, language):
    """A phone page whose browser prefers `language`; fails on uncaught errors."""
    page = new_context(locale=LOCALES[language]).new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    assert not errors, f"uncaught errors in the page: {errors}"


def sheet(page, action: str, screens: Screens, name: str, ready: str = "#sheet:not([hidden])") -> None:
    """Open the menu, then one of its items; check the sheet; close it."""
    page.click("#menu-button")
    screens.check("menu")
    page.click(f".menu-item[data-action='{action}']")
    page.wait_for_selector(ready)
    screens.check(name)
    if page.locator("#sheet:not([hidden])").count():
        page.click("#sheet [data-action='close-sheet']")


def test_every_screen_in_every_language(localized, server, language):
    page = localized
    screens = Screens(page, language)

    # Setup: the form, the first-use help card and its three pages, a mission's form.
    open_app(page, server.url)
    assert page.evaluate("document.documentElement.lang") == language
    assert page.locator("#title").inner_text() == words(language, "setup.title")
    page.wait_for_selector("#start-game")
    screens.check("setup")
    for _ in range(2):
        page.click("[data-action='help-next']")
        screens.check("help card")
    page.select_option("#mission", "4")
    page.wait_for_selector(".mission-summary")
    screens.check("setup of mission 4")
    sheet(page, "help", screens, "help")
    sheet(page, "about", screens, "about the numbers")
    sheet(page, "engine", screens, "engine")
    sheet(page, "language", screens, "language")

    # A table with my wires (a share link): the table, the suggestions, the log.
    page.goto(share_link(server.url, sample_table()))
    page.wait_for_selector("#engine-status[data-state='ready']", state="attached")
    wait_events(page, 3)
    page.wait_for_selector(".suggestions .sug-list li")
    screens.check("table")
    page.click("#worlds")
    screens.check("possible deals")
    page.click("#sheet [data-action='close-sheet']")
    slot(page, 3, 5).click()
    page.wait_for_selector("#distribution li")
    screens.check("a wire's sheet")
    page.click("#sheet [data-action='close-sheet']")
    slot(page, 1, 0).click()  # Bob's 1, below its token: certain
    page.click("#sheet [data-action='why']")
    page.wait_for_selector("#sheet .why-list li, #sheet #why .hint")
    screens.check("why")
    page.click("#sheet [data-action='close-sheet']")
    page.click("#view-toggle button[data-view='public']")
    page.wait_for_selector(".analysis-status.ok #worlds")
    screens.check("public view")
    page.click("#view-toggle button[data-view='me']")
    page.wait_for_selector(".analysis-status.ok #worlds")

    # The recorder, step by step, and a refusal (Ann holds no 11).
    page.click(".recorder [data-action='more']")
    screens.check("all actions")
    page.click(".recorder [data-action='dual_cut']")
    screens.check("recorder: who")
    page.click(".recorder .option[data-player='0']")
    screens.check("recorder: wire")
    slot(page, 2, 3).click()
    screens.check("recorder: value")
    page.click(".recorder .option[data-value='11']")
    screens.check("recorder: outcome")
    page.click(".recorder .option[data-value='false']")
    screens.check("recorder: token")
    page.click(".recorder .option[data-value='4']")
    page.wait_for_selector(".recorder .refusal")
    screens.check("refusal")
    assert words(language, "refusal.impossibleEvent", event=4).split("{what}")[0] in page.locator(".refusal").inner_text()
    page.click(".recorder [data-action='cancel']")
    page.click(".log li[data-index='0'] [data-action='edit']")
    screens.check("edit form")
    page.click(".recorder [data-action='cancel']")

    # The menu's sheets on a game, and the review.
    sheet(page, "share", screens, "share")
    sheet(page, "rename", screens, "rename")
    sheet(page, "export", screens, "export")
    sheet(page, "review", screens, "review", ready=".review[data-review='ready']")

    # The switch: another language, kept on reload.
    other = "de" if language != "de" else "fr"
    page.click("#menu-button")
    page.click(".menu-item[data-action='language']")
    with page.expect_navigation():
        page.click(f"#sheet [data-language='{other}']")
    page.wait_for_selector("#engine-status[data-state='ready']", state="attached")
    assert page.evaluate("document.documentElement.lang") == other
    page.reload()
    page.wait_for_selector(".log .events li")
    assert page.evaluate("document.documentElement.lang") == other
    assert page.locator(".log h2").inner_text() == words(other, "log.title", n=3)
    assert len(screens.seen) >= 25


# A listed board whose Label ≠ (card 1) is used before two 1s are cut: the core refuses it (card_locked).
LOCKED_CARD_TABLE = {
    "players": [{"name": "Ann", "stands": [5]}, {"name": "Bob", "stands": [5]}],
    "wires": {"deck": {"1": 4, "2": 4, "1.1": 1, "2.1": 1}}, "equipment": [{"card": "1"}, {"card": "8"}],
    "events": [{"type": "label", "kind": "different", "at": {"player": 0, "stand": 0, "slot": 1}, "card": "1"}],
}

# Malformed tables the table reader refuses, each with its own code: a dual cut on a wire already cut
# (slot_cut, a slot in the fields) and a label's slot past the stand's end (out_of_range, the place at
# fault and the range, shown 1-based).
CUT = {"type": "dual_cut", "actor": 0, "target": {"player": 1, "stand": 0, "slot": 0}, "value": 1, "success": True,
       "actor_slot": {"stand": 0, "slot": 0}}
CUT_TWICE_TABLE = {**LOCKED_CARD_TABLE, "equipment": [], "events": [CUT, {**CUT, "actor_slot": {"stand": 0, "slot": 1}}]}
SLOT_OUT_OF_RANGE_TABLE = {**LOCKED_CARD_TABLE, "events": [
    {**LOCKED_CARD_TABLE["events"][0], "at": {"player": 0, "stand": 0, "slot": 9}}]}
# A board card that is a list, not a card's ID: named by its JSON kind in the page's words (no event at fault).
LIST_CARD_TABLE = {**LOCKED_CARD_TABLE, "equipment": [{"card": "1"}, {"card": ["8"]}], "events": []}


def test_coded_messages_in_every_language(localized, server, language):
    """What the page words from a code rather than shows as another module wrote it (issue 32
    item 4): a mission's note on the dial (gamestate.js dialNoteCode), an equipment use the core
    refuses (the bridge's code and fields), the Rewinder's advice where the dial is not followed, a
    handshake code that is not one, a storage that is full; malformed tables the table reader refuses
    (each its own code: no English sentence of the parser on a French or German page)."""
    page = localized
    page.context.add_init_script(FULL_STORAGE)
    screens = Screens(page, language)
    open_app(page, server.url)

    # Mission 51: the dial is not followed, and the page says why in its language.
    table = page.evaluate("async () => await window.bombbuster.newTable({mission: 51, players: 4})")
    page.goto(share_link(server.url, table))
    note = page.wait_for_selector("#dial-mission")
    screens.check("dial note")
    said = words(language, "dial.unreadAt", mission=51, why=words(language, "dial.unread.m51"))
    assert note.inner_text() == said

    # The Rewinder's advice there: the core's reason carries the mission's rule in English; the page words the note.
    table = {**table, "me": {"player": 0, "stands": [[1, 2, 3, 4, 5, 6, 6, 7, 8, 9, 10, 11, 12]]},
             "equipment": [{"card": "6"}, {"card": "8"}],
             "events": [{"type": "dual_cut", "actor": 0, "target": {"player": 1, "stand": 0, "slot": 6}, "value": 6,
                         "success": True, "actor_slot": {"stand": 0, "slot": 5}}]}
    page.goto(share_link(server.url, table))
    why = page.wait_for_selector(".card-advice .sug-why[data-code='dial_unread']")
    screens.check("the Rewinder's advice where the dial is not followed")
    assert why.inner_text() == words(language, "advice.dial_unread", reason=said)

    # A table whose card is used while still locked: refused with the core's code, worded here.
    page.goto(share_link(server.url, LOCKED_CARD_TABLE))
    toast = page.wait_for_selector(".toast.error")
    screens.check("refused equipment use")
    card = words(language, "reason.card", id="1", name="Label ≠")
    reason = words(language, "reason.atEvent", event=1, what=words(language, "reason.card_locked", card=card, needs=2, unlock=1, cut=0))
    assert toast.inner_text() == words(language, "table.cannotUse", reason=reason)

    # Malformed tables: each refusal's code worded here, its slot and numbers as the page shows them.
    bob_slot_1 = words(language, "name.slot", stand="Bob", slot=1)
    refused = [(CUT_TWICE_TABLE, 2, words(language, "reason.slot_cut", slot=bob_slot_1)),
               (SLOT_OUT_OF_RANGE_TABLE, 1, words(language, "reason.out_of_range", place="at.slot", value=10, low=1, high=5))]
    refused.append((LIST_CARD_TABLE, None, words(language, "reason.card_unknown", given=words(language, "reason.card_kind.list"))))
    for table, event, what in refused:
        page.goto(share_link(server.url, table))  # the link's hash changes: the last refusal's toast may still show
        reason = what if event is None else words(language, "reason.atEvent", event=event, what=what)
        said = words(language, "table.cannotUse", reason=reason)
        page.wait_for_function("(text) => [...document.querySelectorAll('.toast.error')].some((e) => e.innerText === text)",
                               arg=said)
        screens.check(f"refused table: {what}")

    # A handshake code that is not one (sdp.js's refusal has a code): said in the page's language.
    page.click("#menu-button")
    page.click(".menu-item[data-action='live-join']")
    page.fill("#live-join-code", "not a code")
    page.click("[data-action='live-join']")
    said = words(language, "live.badCode", reason=words(language, "live.code.notCode"))
    page.wait_for_function("(text) => [...document.querySelectorAll('.toast.error')].some((e) => e.textContent === text)",
                           arg=said)
    screens.check("a code that is not one")
    page.click("#sheet [data-action='close-sheet']")

    # The storage full: said in the page's language.
    page.goto(share_link(server.url, sample_table()))
    wait_events(page, 3)
    page.evaluate("window.__storageFull = true")
    page.wait_for_function(SUGGESTIONS_SETTLED)  # a list arriving above the recorder moves it under a click
    page.click(".recorder [data-action='info_token']")
    slot(page, 2, 0).click()
    page.wait_for_function(TAPS_TAKEN)  # the next click may land where the last did: the double-tap guard
    page.click(".recorder .option[data-value='1']")
    notice = page.wait_for_selector("#save-problem")
    screens.check("storage full")
    assert words(language, "save.problem.why", reason=words(language, "saved.error.full")) in notice.inner_text()


def test_the_card_advice_in_every_language(localized, server, language):
    """A board with cards unlocked: each card's reason is worded from the core's code (or, for an
    information card, from its best candidate's figure), with nothing missing and no English left."""
    from test_pyodide_bridge import advised_table  # a board with the Radar (E1) and the Post-it unlocked

    page = localized
    screens = Screens(page, language)
    open_app(page, share_link(server.url, advised_table()))
    page.wait_for_selector(".sug-cards li.card-advice")
    screens.check("card advice")
    reasons = page.eval_on_selector_all(".card-advice .sug-why", "ps => ps.map((p) => [p.dataset.code, p.innerText])")
    assert reasons and all(text for _, text in reasons), reasons
    worded = catalogue(language)
    for code, text in reasons:
        if code and f"advice.{code}" in worded and "{" not in worded[f"advice.{code}"]:
            assert text == worded[f"advice.{code}"], (code, text)


def test_what_a_card_left_out_and_a_barred_captain_in_every_language(localized, server, language):
    """A card's notes of what it left out and why the Captain may use no card (M17): worded from
    the core's codes and fields (`incomplete_why`, `barred_why`), not shown as the core's English;
    without the codes (an older core) the English stays."""
    page = localized
    open_app(page, server.url)
    shown = page.evaluate("""async () => {
      const { cardsSection } = await import(new URL("js/cardadvice.js", location.href));
      const { CARD_NAMES } = await import(new URL("js/equipment.js", location.href));
      const table = { players: [{ name: "Ann", stands: [6, 5] }, { name: "Bob", stands: [11] }] };
      const screen = { table, playerName: (p) => table.players[p].name, slotName: (s) => `slot ${s.slot + 1}` };
      const card = { card: "4", name: "Post-it", source: "card", verdict: "keep", candidates: [], why: "no wire", code: "",
        incomplete: ["Post-it: 3 of 5 marks not scored (budget)", "Post-it: stand 2 holds a wire this view does not know, so its x-count tokens are not offered"] };
      card.incomplete_why = [{ code: "marks_budget", fields: { card: "4", left: 3, total: 5 } },
                             { code: "count_unknown", fields: { card: "4", player: 0, stand: 1 } }];
      const advice = { player: 0, moving: true, cards: [card], your_turn_only: [], barred: "M17: Rhett (the Captain) cannot use the Equipment cards",
        barred_why: { code: "captain_no_cards", fields: { mission: 17, player: 0 } } };
      const hints = [...cardsSection({ kind: "done", advice }, screen).querySelectorAll(".hint")].map((p) => p.textContent);
      return { hints, postIt: CARD_NAMES[4] };
    }""")
    post_it = shown["postIt"]
    notes = [words(language, "incomplete.marks_budget", card=post_it, left=3, total=5),
             words(language, "incomplete.count_unknown", card=post_it,
                   stand=words(language, "name.stand", name="Ann", stand=2))]
    assert shown["hints"] == [words(language, "barred.captain_no_cards", mission=17, name="Ann"),
                              words(language, "cards.stopped", what="; ".join(notes))], shown
    older = page.evaluate("""async () => {
      const { cardsSection } = await import(new URL("js/cardadvice.js", location.href));
      const advice = { player: 0, moving: true, cards: [], your_turn_only: [], barred: "M17: Rhett (the Captain) cannot use the Equipment cards" };
      return cardsSection({ kind: "done", advice }, { table: { players: [] } }).querySelector(".hint").textContent;
    }""")
    assert older == "M17: Rhett (the Captain) cannot use the Equipment cards."
    # The suggestion list's notes: a detector not searched on a stand whose wires moved, one cut short by the budget.
    listed = page.evaluate("""async () => {
      const { incompleteNotes } = await import(new URL("js/suggestions.js", location.href));
      const { CARD_NAMES, CHARACTER_NAMES } = await import(new URL("js/equipment.js", location.href));
      const table = { players: [{ name: "Ann", stands: [6, 5] }, { name: "Bob", stands: [11] }] };
      const notes = incompleteNotes(["double_detector: not searched on player 0 stand 1 (moved wires)", "super_detector"],
        [{ code: "moved_wires", fields: { kind: "double_detector", player: 0, stand: 1 } },
         { code: "search_budget", fields: { kind: "super_detector" } }], table);
      return { notes, double: CHARACTER_NAMES.double_detector, superDetector: CARD_NAMES[5] };
    }""")
    assert listed["notes"] == [
        words(language, "incomplete.moved_wires", kind=listed["double"], stand=words(language, "name.stand", name="Ann", stand=2)),
        words(language, "incomplete.search_budget", kind=listed["superDetector"])], listed


def test_the_browser_language_is_read_by_its_base(new_context, server):
    """fr-CA is French, pt-BR (not spoken) falls through to the next preferred, else English."""
    for locale, expected in (("fr-CA", "fr"), ("de-CH", "de"), ("pt-BR", "en")):
        page = new_context(locale=locale).new_page()
        page.goto(server.url)
        page.wait_for_function("window.bombbusterI18n !== undefined")
        assert page.evaluate("document.documentElement.lang") == expected, locale
        assert re.fullmatch(r"\w+", page.evaluate("window.bombbusterI18n.language"))
        page.close()
