"""Equipment on the table (issue 19, the page): at setup the players tap the
cards drawn for the board (or let the page draw them) and, from M31, choose
each player's character; the board strip shows each card locked / ready / used
from the core's analysis; the recorder offers only what can be used now and
writes the `card` each use spent; the core's refusal keeps the log; old games
without a board, and old card names, work as before. Chromium at phone size
(390×844, touch); every action by taps; exported events checked field by field
against docs/table-format.md; the pure helpers of equipment.js / recorder.js
checked in the page."""
from __future__ import annotations

import json

from e2e_helpers import (action, cli_analyze, export_table, open_app, sample_table, screenshot, slot,
                         start_without_following_the_equipment, tap, touch_phone, value, wait_events)
from test_companion import AXE, share_link, tool
from test_tap_targets import offenders


def board(page):
    """The board strip: card ID → state, as the page shows it."""
    return dict(page.eval_on_selector_all("#board .board-card[data-card]",
                                          "cards => cards.map((c) => [c.dataset.card, c.dataset.state])"))


def characters(page):
    return page.eval_on_selector_all("#board .board-card[data-player]",
                                      "cards => cards.map((c) => [c.dataset.character, c.dataset.state])")


def offered(page):
    """Every action the recorder offers (its row and More…)."""
    page.wait_for_selector(".recorder:not(.active)")
    if page.locator(".recorder [data-action='more'][aria-expanded='false']").count():
        tap(page, ".recorder [data-action='more']")
    names = page.eval_on_selector_all(".recorder .action-button", "buttons => buttons.map((b) => b.dataset.action)")
    tap(page, ".recorder [data-action='more']")  # folded again, as a player leaves it
    return set(names)


def start_mission_34(page):
    """Mission 34 for Ann, Bob, Cy, Di (red 5.5), watched in public: the cards tapped, Bob takes E3."""
    page.wait_for_selector("#mission option[value='34']", state="attached")
    page.select_option("#mission", "34")
    for p, name in enumerate(["Ann", "Bob", "Cy", "Di"]):
        field = page.locator(f"input[data-player='{p}']")
        field.fill(name)
        field.dispatch_event("change")
    tap(page, ".chips[aria-label='drawn red'] .chip[data-key='5.5']")
    page.wait_for_selector(".equipment-setup")
    assert page.locator(".equipment-setup .warn").count() == 1  # the board is not settled yet
    tap(page, "#start-game")  # refused: the cards first
    assert page.locator("#start-game").count() == 1
    for card in ("3", "6", "7", "12", "3"):  # a second tap on 3 takes it back
        tap(page, f".equipment-setup .card-chip[data-card='{card}']")
    tap(page, ".equipment-setup .card-chip[data-card='3']")
    assert page.locator(".equipment-setup h3").first.inner_text().endswith("(4/4)")
    pressed = page.eval_on_selector_all(".card-chip[aria-pressed='true']", "chips => chips.map((c) => c.dataset.card)")
    assert sorted(pressed, key=float) == ["3", "6", "7", "12"]
    # From M31: the Captain keeps the Double Detector; Bob takes E3, which nobody else may take then.
    assert page.locator("select[data-character='0']").count() == 0
    page.select_option("select[data-character='1']", "triple_detector")
    assert page.locator("select[data-character='2'] option[value='triple_detector']").is_disabled()
    assert not page.locator("select[data-character='2'] option[value='xy_ray']").is_disabled()
    page.wait_for_function("!document.querySelector('.setup .warn')")
    assert offenders(page, "equipment setup") == ([], [])
    assert page.evaluate(AXE, tool("axe-core")) == [], "equipment setup"
    screenshot(page, "phone-equipment-setup")
    tap(page, ".chip[data-me='none']")
    tap(page, "#start-game")
    page.wait_for_selector(".analysis-status.ok #worlds")


def test_the_board_from_setup_to_each_card_used(new_context, server):
    page, errors = touch_phone(new_context)
    open_app(page, server.url)
    start_mission_34(page)
    table = export_table(page)
    assert table["equipment"] == [{"card": "3"}, {"card": "6"}, {"card": "7"}, {"card": "12"}]  # the pool's order
    assert [p.get("character") for p in table["players"]] == [None, "triple_detector", None, None]
    assert table["meta"]["equipment"]["count"] == 4

    # The strip: every card locked, every character ready; the old "Equipment unlocked" line is gone.
    assert board(page) == {"3": "locked", "6": "locked", "7": "locked", "12": "locked"}
    assert characters(page) == [["double_detector", "unlocked"], ["triple_detector", "unlocked"],
                                ["double_detector", "unlocked"], ["double_detector", "unlocked"]]
    assert page.locator("#unlocked").count() == 0
    # Locked cards, and cards not on the board, are not offered; characters are.
    actions = offered(page)
    assert {"rewinder", "emergency_batteries", "stabilizer", "label_equal", "super_detector", "radar", "coffee_mug"} & actions == set()
    assert {"double_detector", "triple_detector", "dual_cut"} <= actions
    # The suggestions search only what the player to move can use: Ann's Double Detector, no X or Y ray.
    page.wait_for_selector(".suggestions[data-state='ok'] .suggestion")
    kinds = set(page.eval_on_selector_all(".suggestions .suggestion", "items => items.map((i) => i.dataset.kind)"))
    assert "double_detector" in kinds and not kinds & {"xy_ray", "super_detector", "triple_detector"}, kinds

    # Ann cuts two 6s (Bob's and hers): the Rewinder unlocks and joins the recorder's row.
    # M34's turn is not followed (a player who cannot play is skipped with no event:
    # public_state.TURN_UNREAD), so the recorder asks who cuts.
    action(page, "dual_cut")
    tap(page, ".recorder .options .option[data-player='0']")
    slot(page, 1, 5).tap()
    value(page, 6)
    value(page, True)
    slot(page, 0, 5).tap()
    wait_events(page, 1)
    assert board(page)["6"] == "unlocked"
    assert page.locator(".recorder .mission-actions [data-action='rewinder']").count() == 1
    assert export_table(page)["events"][0].get("card") is None  # a plain cut spends nothing

    # Cy uses it: the event names the card by ID; the strip shows it used; the recorder no longer offers it.
    action(page, "rewinder")
    tap(page, ".recorder .options .option[data-player='2']")
    wait_events(page, 2)
    assert export_table(page)["events"][1] == {"type": "equipment", "card": "6", "actor": 2}
    assert board(page)["6"] == "used"
    assert "rewinder" not in offered(page)
    assert page.locator(".log li[data-index='1'] .event-text").inner_text() == "Cy uses the Rewinder: the dial moves back one space"

    # Bob uses his E3 character: one way to provide it, so no card question; it records "character".
    action(page, "triple_detector")
    tap(page, ".recorder .who-row .option[data-player='1'], .recorder .options .option[data-player='1']")
    for j in (0, 1, 2):
        slot(page, 2, j).tap()
    value(page, 2)
    value(page, True)
    slot(page, 2, 1).tap()
    slot(page, 1, 1).tap()
    wait_events(page, 3)
    detector = export_table(page)["events"][2]
    assert detector == {"type": "detector", "actor": 1, "kind": "triple",
                        "targets": [{"player": 2, "stand": 0, "slot": j} for j in (0, 1, 2)], "value": 2,
                        "success": True, "cut": {"player": 2, "stand": 0, "slot": 1},
                        "actor_slot": {"stand": 0, "slot": 1}, "card": "character"}
    assert characters(page)[1] == ["triple_detector", "used"]
    assert "triple_detector" not in offered(page)  # card 3 still locked, Bob's E3 spent
    assert page.locator(".log li[data-index='2'] .event-text").inner_text().endswith("[a character]")

    # Cy's Double Detector cuts two 3s: card 3 unlocks, so the Triple Detector is offered again (the card).
    action(page, "double_detector")
    tap(page, ".recorder .who-row .option[data-player='2'], .recorder .options .option[data-player='2']")
    slot(page, 3, 2).tap()
    slot(page, 3, 3).tap()
    value(page, 3)
    value(page, True)
    slot(page, 3, 2).tap()
    slot(page, 2, 2).tap()
    wait_events(page, 4)
    exported = export_table(page)
    assert exported["events"][3]["card"] == "character" and exported["events"][3]["actor"] == 2
    assert board(page)["3"] == "unlocked"
    assert characters(page)[2] == ["double_detector", "used"]
    assert "triple_detector" in offered(page)
    # Cy's and Bob's cannot use a Double Detector now: the who-row does not offer them.
    action(page, "double_detector")
    disabled = page.eval_on_selector_all(".recorder .who-row .option, .recorder .options .option[data-player]",
                                         "options => options.map((o) => o.disabled)")
    assert disabled == [False, True, True, False]
    tap(page, ".recorder [data-action='cancel']")
    # Di cuts two 7s: Emergency Batteries unlock; Ann gives Bob his E3 back (Bob and Cy have used theirs).
    action(page, "dual_cut")
    tap(page, ".recorder .options .option[data-player='3']")
    slot(page, 0, 6).tap()
    value(page, 7)
    value(page, True)
    slot(page, 3, 6).tap()
    wait_events(page, 5)
    assert board(page)["7"] == "unlocked"
    action(page, "emergency_batteries")
    tap(page, ".recorder .options .option[data-player='0']")
    assert page.locator(".recorder").get_attribute("data-step") == "characters"
    whose = page.eval_on_selector_all(".recorder .options .option[data-value]", "options => options.map((o) => o.dataset.value)")
    assert whose == ["1", "2"]
    assert offenders(page, "Emergency Batteries: whose character") == ([], [])
    tap(page, ".recorder .option[data-value='1']")
    tap(page, ".recorder [data-action='done']")
    wait_events(page, 6)
    assert export_table(page)["events"][5] == {"type": "equipment", "card": "7", "actor": 0, "characters": [1]}
    assert page.locator(".log li[data-index='5'] .event-text").inner_text() == "Ann uses the Emergency Batteries: the character of Bob can be used again"
    assert board(page)["7"] == "used" and characters(page)[1] == ["triple_detector", "unlocked"]

    # Now Bob's Triple Detector has two ways: card 3 or his character. The player says which.
    action(page, "triple_detector")
    tap(page, ".recorder .who-row .option[data-player='1'], .recorder .options .option[data-player='1']")
    for j in (8, 9, 10):
        slot(page, 3, j).tap()
    value(page, 10)
    value(page, True)
    slot(page, 3, 9).tap()
    slot(page, 1, 9).tap()
    assert page.locator(".recorder").get_attribute("data-step") == "card_triple"
    choices = page.eval_on_selector_all(".recorder .options .option", "options => options.map((o) => o.innerText)")
    assert choices == ["Card 3: Triple Detector", "Bob's character (E3 Triple Detector)"]
    assert offenders(page, "which card") == ([], [])
    assert page.evaluate(AXE, tool("axe-core")) == [], "which card"
    tap(page, f".recorder .option[data-value='{json.dumps({'card': '3'}, separators=(',', ':'))}']")
    wait_events(page, 7)
    assert export_table(page)["events"][6]["card"] == "3"
    assert board(page)["3"] == "used" and characters(page)[1] == ["triple_detector", "unlocked"]
    assert "triple_detector" in offered(page)  # his E3 is still there
    screenshot(page, "phone-equipment-board")
    assert page.evaluate(AXE, tool("axe-core")) == [], "the board strip"
    expected = cli_analyze(export_table(page))
    assert expected["consistent"] and expected["equipment"]["cards"] == [
        {"card": "3", "name": "Triple Detector", "state": "used"}, {"card": "6", "name": "Rewinder", "state": "used"},
        {"card": "7", "name": "Emergency Batteries", "state": "used"}, {"card": "12", "name": "Label =", "state": "locked"}]

    # The core refuses what the board did not allow, and nothing recorded is lost:
    # (1) deleting Ann's cut leaves the Rewinder used while still locked;
    before = export_table(page)
    tap(page, ".log li[data-index='0'] [data-action='delete']")
    page.wait_for_selector(".toast.error")
    page.wait_for_selector(".analysis-status.ok #worlds")
    assert export_table(page)["events"] == before["events"]
    # (2) an edit of Bob's Triple Detector to card 3 (an edit offers every card on the board: the page
    # knows the board after the last event only): card 3 was still locked then, so the core refuses it.
    tap(page, ".log li[data-index='2'] [data-action='edit']")
    page.wait_for_selector(".recorder .edit-form")
    assert page.locator(".recorder .edit-field[data-field='card_triple'] .edit-name").inner_text() == "Triple Detector used"
    assert page.locator(".recorder .edit-field[data-field='card_triple'] .edit-value").inner_text() == "Bob's character (E3 Triple Detector)"
    tap(page, ".recorder .edit-field[data-field='card_triple'] [data-action='change']")
    tap(page, f".recorder .option[data-value='{json.dumps({'card': '3'}, separators=(',', ':'))}']")
    tap(page, ".recorder [data-action='save-edit']")
    page.wait_for_selector(".recorder .refusal")
    refusal = page.locator(".recorder .refusal").inner_text()
    assert "locked" in refusal and "card" in refusal, refusal
    assert page.locator(".recorder .edit-form").count() == 1
    tap(page, ".recorder [data-action='cancel']")
    assert export_table(page)["events"] == before["events"]
    assert not errors, errors


def test_draw_for_us_and_a_game_that_does_not_follow_its_board(new_context, server):
    page, errors = touch_phone(new_context)
    open_app(page, server.url)
    page.wait_for_selector("#mission option[value='3']", state="attached")
    page.select_option("#mission", "3")
    tap(page, ".chips[aria-label='drawn red'] .chip[data-key='5.5']")
    page.wait_for_selector(".equipment-setup")
    assert page.locator("select[data-character]").count() == 0  # before M31: nobody chooses a character
    pool = page.eval_on_selector_all(".card-chip", "chips => chips.map((c) => c.dataset.card)")
    assert pool == [str(n) for n in range(1, 13)]
    tap(page, "[data-action='draw-equipment']")
    drawn = page.eval_on_selector_all(".card-chip[aria-pressed='true']", "chips => chips.map((c) => c.dataset.card)")
    assert len(drawn) == 4 and len(set(drawn)) == 4 and set(drawn) <= set(pool)
    # "Don't follow the equipment": the table lists no board, as the page's games did before.
    table = start_without_following_the_equipment(page)
    assert all("character" not in p for p in table["players"])
    assert page.locator("#board").count() == 0 and page.locator("#unlocked").count() == 1
    assert {"rewinder", "stabilizer", "super_detector", "label_equal"} <= offered(page)
    assert not errors, errors


def test_an_old_game_without_equipment_loads_and_records_as_before(new_context, server):
    page, errors = touch_phone(new_context)
    old = sample_table()
    old["events"].append({"type": "equipment", "card": "rewinder", "actor": 2})  # a card's name from before IDs
    open_app(page, share_link(server.url, old))
    wait_events(page, 4)
    assert page.locator(".log li[data-index='3'] .event-text").inner_text() == "Cy uses the Rewinder: the dial moves back one space"
    assert page.locator(".dial").get_attribute("data-failures") == "0"
    assert page.locator("#board").count() == 0 and page.locator("#unlocked").count() == 1
    assert {"rewinder", "stabilizer", "super_detector", "label_equal", "post_it"} <= offered(page)
    # A Label = with no board: no card question, no card written.
    action(page, "label_equal")
    slot(page, 1, 3).tap()
    wait_events(page, 5)
    exported = export_table(page)
    assert exported["events"][3] == {"type": "equipment", "card": "rewinder", "actor": 2}  # kept as it was read
    assert exported["events"][4] == {"type": "label", "kind": "equal", "at": {"player": 1, "stand": 0, "slot": 3}}
    # Edit the old event: it is written back by its ID.
    tap(page, ".log li[data-index='3'] [data-action='edit']")
    page.wait_for_selector(".recorder .edit-form")
    tap(page, ".recorder .edit-field[data-field='actor'] [data-action='change']")
    tap(page, ".recorder .options .option[data-player='3']")
    tap(page, ".recorder [data-action='save-edit']")
    page.wait_for_selector(".recorder:not(.active)")
    wait_events(page, 5)
    assert export_table(page)["events"][3] == {"type": "equipment", "card": "6", "actor": 3}
    assert not errors, errors


HELPERS = """async () => {
  const eq = await import('./js/equipment.js');
  const rec = await import('./js/recorder.js');
  const players = [{name: 'A', stands: [4]}, {name: 'B', stands: [4], character: 'general_radar'}, {name: 'C', stands: [4]}];
  const table = {players, wires: {blue: [1, 2, 3]}, equipment: [{card: '8'}, {card: '9'}, {card: '10'}],
                 meta: {mission: 18, rules: ['radar_each_turn'], equipment: {characters: ['double_detector', 'general_radar']}}};
  const board = {cards: [{card: '8', state: 'unlocked'}, {card: '9', state: 'locked'}, {card: '10', state: 'used'}],
                 characters: [{used: false}, {used: false}, {used: true}]};
  const out = {};
  out.radar = eq.providers('radar', {table, board});
  out.radarUsedCharacter = eq.providers('radar', {table, board: {...board, characters: [{used: false}, {used: true}, {used: false}]}});
  out.stabilizer = eq.providers('stabilizer', {table, board});
  out.stabilizerEdit = eq.providers('stabilizer', {table, board, anyState: true});
  out.xy = eq.providers('xy', {table, board});
  out.doubleA = eq.providers('double', {table, board, actor: 0});
  out.doubleC = eq.providers('double', {table, board, actor: 2});
  out.noCharacters = eq.providers('double', {table: {...table, meta: {equipment: {characters: []}}}, board, actor: 0});
  out.beforeAnalysis = eq.providers('stabilizer', {table, board: null});
  out.ids = ['rewinder', 'coffee_mug', 'emergency_drop', '6', 'Y'].map(eq.cardId);
  let seed = 0;
  out.drawn = eq.drawCards(['1', '2', '3', '4', '5'], 3, () => [0.9, 0.0, 0.5][seed++]);
  out.drawAll = eq.drawCards(['1', '2'], 5).length;
  const offer = {table, board};
  out.offered = rec.ACTIONS.filter((a) => rec.usesEquipment(a) && rec.actionOffered(a, offer)).map((a) => a.id);
  out.plainOffered = rec.ACTIONS.filter((a) => !rec.usesEquipment(a)).every((a) => rec.actionOffered(a, offer));
  out.offeredOld = rec.ACTIONS.filter((a) => !a.base && rec.actionOffered(a, null)).length === rec.ACTIONS.filter((a) => !a.base).length;
  // A radar by B's character names B as the card's user; a Stabilizer with the X or Y ray lists both cards.
  out.radarEvent = rec.eventFromDraft({type: 'radar', action: 'radar', value: 2, answers: [[true], [false], [false]],
                                       card_radar: {card: 'character', user: 1}});
  const cut = {type: 'dual_cut', actor: 0, target: {player: 1, stand: 0, slot: 0}, values: [1, 2], success: false,
               stabilizer: true, token: 3, card: ['9', '10']};
  const draft = rec.draftFromEvent(cut, table, 0);
  out.needs = rec.needsOf(draft);
  out.cards = [draft.card_xy, draft.card_stabilizer];
  const {editIndex, ...plain} = draft;
  out.roundTrip = rec.eventFromDraft(plain);
  out.oldEquipment = rec.eventFromDraft(rec.draftFromEvent({type: 'equipment', card: 'coffee_mug', actor: 1, next: 2}, table, 0));
  out.batteries = rec.eventFromDraft({type: 'equipment', action: 'emergency_batteries', card: '7', actor: 0, characters: [2]});
  // The steps of False Bottom and Emergency Batteries on a followed board: the pool's cards not on the board; used characters.
  const withPool = {...table, meta: {...table.meta, equipment: {...table.meta.equipment, pool: ['8', '9', '10', '11', 'Y']}}};
  const screen = {table: withPool, layout: () => ({stands: [], nano: []}), announceable: () => [1, 2, 3], keys: () => ({blue: [1, 2, 3], yellow: [], red: []}),
                  playerName: (p) => players[p].name, equipmentOffer: () => ({table: withPool, board})};
  const steps = (draft) => rec.stepsFor(draft, screen).map((step) => [step.field, (step.choices || []).map(([, v]) => v)]);
  out.falseBottom = steps({type: 'equipment', action: 'false_bottom', card: 'Y'});
  out.batteriesSteps = steps({type: 'equipment', action: 'emergency_batteries', card: '7'});
  out.oldBoardSteps = rec.stepsFor({type: 'equipment', action: 'false_bottom', card: 'Y'}, {...screen, equipmentOffer: () => null}).map((s) => s.field);
  // A detector's card question comes last, filled without a tap when one way is left.
  const detector = rec.stepsFor({type: 'detector', action: 'double_detector', kind: 'double', actor: 0}, screen);
  out.detectorCard = detector.filter((step) => step.field.startsWith('card_')).map((step) => [step.field, step.auto]);
  out.detectorActors = [0, 1, 2].map((p) => detector[0].allow(p));
  return out;
}"""


def test_equipment_helpers(page, server):
    page.goto(server.url + "?nosw")
    page.wait_for_function("window.bombbuster !== undefined")
    out = page.evaluate(HELPERS)
    assert out["radar"] == [{"card": "8"}, {"card": "character", "user": 1}, {"card": "mission"}]
    assert out["radarUsedCharacter"] == [{"card": "8"}, {"card": "mission"}]
    assert out["stabilizer"] == [] and out["stabilizerEdit"] == [{"card": "9"}] and out["beforeAnalysis"] == [{"card": "9"}]
    assert out["xy"] == []  # card 10 used, nobody holds E4
    assert out["doubleA"] == [{"card": "character", "user": 0}] and out["doubleC"] == []  # C's is used
    assert out["noCharacters"] == []  # a mission without characters (M27) lends no Double Detector
    assert out["ids"] == ["6", "11", "3.3", "6", "Y"]
    assert out["drawn"] == ["5", "1", "3"] and out["drawAll"] == 2
    assert out["offered"] == ["double_detector", "radar"]  # A's Double Detector, the radar; not 9 (locked) nor 10 (used)
    assert out["offeredOld"] and out["plainOffered"]  # old tables: everything; actions without equipment: always
    assert out["radarEvent"] == {"type": "radar", "value": 2, "answers": [[True], [False], [False]], "card": "character", "actor": 1}
    assert out["needs"] == ["xy", "stabilizer"]
    assert out["cards"] == [{"card": "10"}, {"card": "9"}]
    assert out["roundTrip"] == {"type": "dual_cut", "actor": 0, "target": {"player": 1, "stand": 0, "slot": 0}, "values": [1, 2],
                                "success": False, "stabilizer": True, "token": 3, "card": ["10", "9"]}
    assert out["oldEquipment"] == {"type": "equipment", "card": "11", "actor": 1, "next": 2}
    assert out["batteries"] == {"type": "equipment", "card": "7", "actor": 0, "characters": [2]}
    assert out["falseBottom"] == [["actor", []], ["added", ["11", "Y"]]]  # the pool but 8, 9, 10: on the board
    assert out["batteriesSteps"] == [["actor", []], ["characters", [2]]]  # only C's character is used
    assert out["oldBoardSteps"] == ["actor"]
    assert out["detectorCard"] == [["card_double", {"card": "character", "user": 0}]]
    assert out["detectorActors"] == [True, False, False]  # B holds E1, C's Double Detector is used


def test_setup_shows_the_mission_difficulty_measured_with_equipment(new_context, server, site_dir):
    """Issue 19: at setup the page shows greedy's measured win rate for the chosen mission and player
    count, from web/difficulty.json (bench/difficulty.py over the committed logs), precached offline."""
    import math
    from pathlib import Path

    measured = json.loads((Path(__file__).resolve().parents[2] / "web" / "difficulty.json").read_text())
    assert "difficulty.json" in (site_dir / "sw.js").read_text()  # offline like the rest of the site

    def expected(mission: int, players: int) -> str:
        if str(mission) in measured["refused"]:
            return f"Difficulty: not measured ({measured['refused'][str(mission)]})."
        cell = measured["cells"].get(str(mission), {}).get(str(players))
        if not cell:
            return f"Difficulty: not measured yet with {players} players."
        pct = lambda x: math.floor(100 * x + 0.5)  # noqa: E731  (JS Math.round)
        hard = (" Greedy play has no plan for this mission's own rules (skips, costs, races): a real team can "
                "do better." if cell["wins"] < 0.1 * cell["games"] else "")
        return (f"Difficulty: our simulator's greedy team won {pct(cell['wins'] / cell['games'])} % of "
                f"{cell['games']} games with {players} players and the equipment (95 % interval "
                f"{pct(cell['ci95'][0])}–{pct(cell['ci95'][1])} %).{hard}")

    assert measured["cells"]["4"]["4"]["games"] >= 200  # the figure the test reads is a real measurement
    page, errors = touch_phone(new_context)
    open_app(page, server.url)
    page.wait_for_selector("#mission option[value='4']", state="attached")
    assert page.locator(".difficulty").count() == 0  # free setup: no mission, no figure
    page.select_option("#mission", "4")
    for players in (4, 3, 5):
        tap(page, f".segmented[aria-label='player count'] button[data-value='{players}']")
        page.wait_for_function(f"(document.querySelector('.difficulty') || {{}}).textContent === {json.dumps(expected(4, players))}")
    page.select_option("#mission", "49")  # greedy wins none: the sentence says why that is not the odds
    page.wait_for_function(f"(document.querySelector('.difficulty') || {{}}).textContent === {json.dumps(expected(49, 5))}")
    assert "a real team can do better" in expected(49, 5)
    page.select_option("#mission", "54")
    page.wait_for_function(f"(document.querySelector('.difficulty') || {{}}).textContent === {json.dumps(expected(54, 4))}")
    assert not errors, errors
