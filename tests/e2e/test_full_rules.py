"""Full-rules games played by taps on a phone (390×844, touch): a mission
preset chosen on the setup screen, equipment and mission tokens recorded with
the step-by-step recorder, and at the end the page's probabilities equal to
the CLI's for the table the page exports (docs/table-format.md, "Full
rules").

The games follow a real deal, generated here with a fixed seed and replayed
by `Truth` (moves and swaps renumber stands), so every recorded event is what
a table with that deal could see."""
from __future__ import annotations

import bisect
import json
import random

from e2e_helpers import (ARTIFACTS, action, cli_analyze, export_table, js, open_app, screenshot, slot, tap,
                         touch_phone, value, wait_events)





def gameplay(key):
    """The gameplay value of a sort key: a blue int, "yellow" or "red"."""
    tenth = round(key * 10) % 10
    return "yellow" if tenth == 1 else "red" if tenth == 5 else int(key)


class Truth:
    """The true deal and every wire's place, replaying moves/swaps as the table does."""

    def __init__(self, keys, sizes, seed):
        rng = random.Random(seed)
        keys = list(keys)
        rng.shuffle(keys)
        self.stands = []
        for size in sizes:
            self.stands.append([{"key": k, "cut": False} for k in sorted(keys[:size])])
            keys = keys[size:]

    def key(self, p, j):
        return self.stands[p][j]["key"]

    def uncut(self, p):
        return [j for j, w in enumerate(self.stands[p]) if not w["cut"]]

    def find(self, p, test):
        return [j for j in self.uncut(p) if test(self.stands[p][j]["key"])]

    def count_on_stand(self, p, j):
        value = gameplay(self.key(p, j))
        return sum(1 for w in self.stands[p] if gameplay(w["key"]) == value)

    def swap(self, a, b):
        """Walkie-Talkies between (p, j) and (q, k): returns (a_to, b_to)."""
        (p, j), (q, k) = a, b
        wire_a = self.stands[p].pop(j)
        wire_b = self.stands[q].pop(k)
        a_to = bisect.bisect_left([w["key"] for w in self.stands[q]], wire_a["key"])
        b_to = bisect.bisect_left([w["key"] for w in self.stands[p]], wire_b["key"])
        self.stands[q].insert(a_to, wire_a)
        self.stands[p].insert(b_to, wire_b)
        return a_to, b_to


# ---------------------------------------------------------------- page helpers












def player(page, p):
    tap(page, f".recorder .option[data-player='{p}']")


def position(page, index):
    tap(page, f".recorder .positions .option[data-index='{index}']")


def displayed_matches_cli(page, table):
    expected = cli_analyze(table)
    assert expected["consistent"], expected
    assert page.locator("#worlds").get_attribute("data-worlds") == str(expected["worlds"])
    for entry in expected["slots"]:
        element = slot(page, entry["player"], entry["slot"], entry["stand"])
        assert json.loads(element.get_attribute("data-dist")) == entry["p"], entry
        assert ("cut" in element.get_attribute("class").split()) == entry["cut"], entry


SMALL_CONTROLS = """() => [...document.querySelectorAll('button, select, input')]
  .filter((b) => b.offsetParent !== null)
  .map((b) => { const r = b.getBoundingClientRect(); return [b.className, b.textContent.slice(0, 24), r.width, r.height]; })
  .filter(([, , w, h]) => w < 44 || h < 44)"""


def small_controls(page):
    """Visible controls smaller than 44 × 44 px."""
    return page.evaluate(SMALL_CONTROLS)




def choose_mission(page, mission, names, drawn):
    page.wait_for_selector("#mission option[value='1']", state="attached")
    page.select_option("#mission", str(mission))
    for p, name in enumerate(names):
        field = page.locator(f"input[data-player='{p}']")
        field.fill(name)
        field.dispatch_event("change")
    for colour, keys in drawn.items():
        for key in keys:
            tap(page, f".chips[aria-label='drawn {colour}'] .chip[data-key='{key}']")
    # These games record equipment without naming its card: the board is not followed.
    skip_equipment(page)
    # The preset with the drawn values has arrived: no placeholder warning left.
    page.wait_for_function("!document.querySelector('.setup .warn')")


def skip_equipment(page):
    """Setup's "Don't follow the equipment" (shown once the mission's preset, with its pool, has come)."""
    page.wait_for_selector("[data-action='skip-equipment'][aria-pressed='false']")
    tap(page, "[data-action='skip-equipment']")


def enter_my_wires(page, keys):
    for key in keys:
        tap(page, f".keypad[aria-label='add my wire'] .key[data-key='{key}']")


# ---------------------------------------------------------------- mission 9


def test_mission_9_equipment_by_taps(new_context, server):
    page, errors = touch_phone(new_context)
    open_app(page, server.url)
    yellow, red = [3.1, 8.1], [5.5]
    keys = [v for v in range(1, 13) for _ in range(4)] + yellow + red
    truth = Truth(keys, [13, 13, 13, 12], seed=9)
    holder = next(p for p in range(4) for w in truth.stands[p] if w["key"] == 5.5)
    assert holder != 0, "the seed puts the red wire in a teammate's hand"

    choose_mission(page, 9, ["Ann", "Bob", "Cy", "Di"], {"yellow": yellow, "red": red})
    assert [page.locator(f"input[data-stand='{i}']").input_value() for i in range(4)] == ["13", "13", "13", "12"]
    mine = [w["key"] for w in truth.stands[0]]
    enter_my_wires(page, list(reversed(mine)))
    screenshot(page, "phone-mission-setup")
    tap(page, "#start-game")
    page.wait_for_selector(".analysis-status.ok #worlds")
    expected = []

    # Setup tokens: every teammate on their first blue wire.
    for p in (1, 2, 3):
        j = truth.find(p, lambda k: gameplay(k) not in ("yellow", "red"))[0]
        action(page, "info_token")
        slot(page, p, j).tap()
        value(page, gameplay(truth.key(p, j)))
        expected.append({"type": "info_token", "at": {"player": p, "stand": 0, "slot": j}, "value": gameplay(truth.key(p, j))})
        wait_events(page, len(expected))

    # Double Detector failure: Ann calls a value of hers on two of Bob's wires, neither holds it.
    my_blue = sorted({gameplay(truth.key(0, j)) for j in truth.find(0, lambda k: gameplay(k) not in ("yellow", "red"))})
    v = next(v for v in my_blue if len(truth.find(1, lambda k, v=v: gameplay(k) != v)) >= 2)
    pair = [j for j in truth.find(1, lambda k, v=v: gameplay(k) != v)][-2:]
    token_at = next(j for j in pair if gameplay(truth.key(1, j)) != "red")
    token = gameplay(truth.key(1, token_at))
    action(page, "double_detector")
    player(page, 0)
    for j in pair:
        slot(page, 1, j).tap()
    value(page, v)
    value(page, False)
    value(page, token)
    slot(page, 1, token_at).tap()
    expected.append({"type": "detector", "actor": 0, "kind": "double",
                     "targets": [{"player": 1, "stand": 0, "slot": j} for j in pair], "value": v, "success": False,
                     "token": token, "token_at": {"player": 1, "stand": 0, "slot": token_at}})
    wait_events(page, len(expected))
    assert page.locator(f".player[data-player='1'] .token-mark[data-slot='{token_at}']").inner_text() == \
        ("Y" if token == "yellow" else str(token))

    # Double Detector success: Ann calls a value Cy holds; Cy cuts it, Ann cuts hers.
    v2 = next(v for v in my_blue if truth.find(2, lambda k, v=v: gameplay(k) == v))
    hit = truth.find(2, lambda k: gameplay(k) == v2)[0]
    other = next(j for j in truth.uncut(2) if j != hit)
    mine_v2 = truth.find(0, lambda k: gameplay(k) == v2)[0]
    action(page, "double_detector")
    player(page, 0)
    slot(page, 2, other).tap()
    slot(page, 2, hit).tap()
    value(page, v2)
    value(page, True)
    slot(page, 2, hit).tap()
    slot(page, 0, mine_v2).tap()
    truth.stands[2][hit]["cut"] = truth.stands[0][mine_v2]["cut"] = True
    expected.append({"type": "detector", "actor": 0, "kind": "double",
                     "targets": [{"player": 2, "stand": 0, "slot": other}, {"player": 2, "stand": 0, "slot": hit}],
                     "value": v2, "success": True, "cut": {"player": 2, "stand": 0, "slot": hit},
                     "actor_slot": {"stand": 0, "slot": mine_v2}})
    wait_events(page, len(expected))
    assert "cut" in slot(page, 2, hit).get_attribute("class").split()

    # Walkie-Talkies: one of Ann's wires for one of Bob's; Ann notes the wire she receives.
    a = truth.find(0, lambda k: gameplay(k) not in ("yellow", "red"))[-1]
    b = next(j for j in truth.uncut(1) if j != token_at and gameplay(truth.key(1, j)) not in ("red",))
    received = truth.key(1, b)
    a_to, b_to = truth.swap((0, a), (1, b))
    action(page, "walkie_talkies")
    slot(page, 0, a).tap()
    slot(page, 1, b).tap()
    position(page, a_to)
    position(page, b_to)
    value(page, received)
    swap_index = len(expected)
    expected.append({"type": "swap", "a": {"player": 0, "stand": 0, "slot": a}, "b": {"player": 1, "stand": 0, "slot": b},
                     "a_to": a_to, "b_to": b_to})
    wait_events(page, len(expected))
    assert "moved" in slot(page, 0, b_to).get_attribute("class").split()
    assert slot(page, 1, a_to).get_attribute("data-tile") == f"0.0.{a}"  # Ann's wire, now on Bob's stand
    seen = [{"at": {"player": 0, "stand": 0, "slot": b_to}, "value": received, "after": swap_index}]
    assert export_table(page)["me"].get("seen") == seen

    # Undo and redo the swap: my private sighting goes and comes back with it.
    tap(page, ".recorder [data-action='undo']")
    page.wait_for_function(f"document.querySelectorAll('.log .events li').length === {len(expected) - 1}")
    page.wait_for_selector(".analysis-status.ok #worlds")
    assert "seen" not in export_table(page)["me"]
    tap(page, ".recorder [data-action='redo']")
    wait_events(page, len(expected))
    assert export_table(page)["me"].get("seen") == seen

    # General Radar: every stand answers whether it holds an uncut blue of the value.
    r = next(r for r in range(1, 13)
             if len({bool(truth.find(p, lambda k, r=r: k == r)) for p in range(4)}) == 2)
    answers = [[bool(truth.find(p, lambda k: k == r))] for p in range(4)]
    action(page, "radar")
    value(page, r)
    for p in range(4):
        tap(page, f".answer-row[data-player='{p}'][data-stand='0'] button[data-answer='{js(answers[p][0])}']")
    tap(page, ".recorder .answers [data-action='done']")
    expected.append({"type": "radar", "value": r, "answers": answers})
    wait_events(page, len(expected))

    # A label on two of Di's adjacent wires (tap the left one).
    j = truth.uncut(3)[0]
    kind = "equal" if gameplay(truth.key(3, j)) == gameplay(truth.key(3, j + 1)) else "different"
    action(page, f"label_{kind}")
    slot(page, 3, j).tap()
    expected.append({"type": "label", "kind": kind, "at": {"player": 3, "stand": 0, "slot": j}})
    wait_events(page, len(expected))
    assert page.locator(f".player[data-player='3'] .label-mark[data-slot='{j}']").inner_text() == ("=" if kind == "equal" else "≠")

    # Stabilizer: Ann calls a value of hers on the red wire: it fails, no token, the wire is red.
    red_at = next(j for j, w in enumerate(truth.stands[holder]) if w["key"] == 5.5)
    s = next(gameplay(truth.key(0, j)) for j in truth.find(0, lambda k: gameplay(k) not in ("yellow", "red")))
    action(page, "stabilizer")
    player(page, 0)
    slot(page, holder, red_at).tap()
    value(page, s)
    assert page.locator(".recorder .option[data-value='\"stabilizer\"']").count() == 0  # already the Stabilizer
    value(page, False)
    assert page.locator(".recorder .option[data-value='null']").inner_text() == "No token: it is red"
    value(page, None)
    expected.append({"type": "dual_cut", "actor": 0, "target": {"player": holder, "stand": 0, "slot": red_at},
                     "value": s, "success": False, "stabilizer": True, "token": None})
    wait_events(page, len(expected))
    assert json.loads(slot(page, holder, red_at).get_attribute("data-dist")) == {"5.5": 1.0}

    table = export_table(page)
    assert table["meta"]["mission"] == 9
    assert table["events"] == expected
    assert table["me"] == {"player": 0, "stands": [mine], "seen": seen}
    # Every control on the table screen is at least 44 × 44 px, also with every action shown and mid-recording.
    assert small_controls(page) == []
    tap(page, ".recorder [data-action='more']")
    assert small_controls(page) == []
    action(page, "walkie_talkies")
    assert small_controls(page) == []
    slot(page, 0, 1).tap()
    assert small_controls(page) == []
    tap(page, ".recorder [data-action='cancel']")
    screenshot(page, "phone-mission-9")
    page.screenshot(path=str(ARTIFACTS / "phone-mission-9-screen.png"))  # what the phone shows
    (ARTIFACTS / "mission-9.table.json").write_text(json.dumps(table, indent=1))
    displayed_matches_cli(page, table)
    page.click("#view-toggle button[data-view='public']")
    page.wait_for_selector(".game[data-view='public'] .analysis-status.ok #worlds")
    displayed_matches_cli(page, {k: v for k, v in table.items() if k != "me"})
    assert not errors, errors


# ---------------------------------------------------------------- mission 24


def test_mission_24_count_tokens_by_taps(new_context, server):
    page, errors = touch_phone(new_context)
    open_app(page, server.url)
    red = [2.5, 9.5]
    keys = [v for v in range(1, 13) for _ in range(4)] + red
    truth = Truth(keys, [13, 13, 12, 12], seed=24)
    choose_mission(page, 24, ["Ann", "Bob", "Cy", "Di"], {"red": red})
    tap(page, ".chip[data-me='none']")  # public: nobody's wires
    tap(page, "#start-game")
    page.wait_for_selector(".analysis-status.ok #worlds")
    expected = []

    def countable(p):
        return [j for j in truth.uncut(p)
                if gameplay(truth.key(p, j)) != "red" and truth.count_on_stand(p, j) <= 3]

    # x-count setup tokens: the token keypad offers the counts first in this mission.
    for p in range(4):
        j = countable(p)[0]
        c = truth.count_on_stand(p, j)
        action(page, "info_token")
        slot(page, p, j).tap()
        first = page.locator(".recorder .options.keypad .option").first.get_attribute("data-value")
        assert first == js({"count": 1})
        value(page, {"count": c})
        expected.append({"type": "info_token", "at": {"player": p, "stand": 0, "slot": j}, "count": c})
        wait_events(page, len(expected))
        assert page.locator(f".player[data-player='{p}'] .token-mark[data-slot='{j}']").inner_text() == f"×{c}"

    # Failed dual cuts with an x-count token: the value is not shown, its count on the stand is.
    for actor, target_player in ((0, 1), (2, 3)):
        v = gameplay(truth.key(actor, truth.find(actor, lambda k: gameplay(k) != "red")[0]))
        j = next(j for j in countable(target_player)[1:] if gameplay(truth.key(target_player, j)) != v)
        c = truth.count_on_stand(target_player, j)
        action(page, "dual_cut")
        player(page, actor)
        slot(page, target_player, j).tap()
        value(page, v)
        value(page, False)
        value(page, {"count": c})
        expected.append({"type": "dual_cut", "actor": actor, "target": {"player": target_player, "stand": 0, "slot": j},
                         "value": v, "success": False, "token": {"count": c}})
        wait_events(page, len(expected))

    table = export_table(page)
    assert table["meta"]["mission"] == 24 and "count_tokens" in table["meta"]["rules"]
    assert table["wires"]["red"] == red and "me" not in table
    assert table["events"] == expected
    screenshot(page, "phone-mission-24")
    (ARTIFACTS / "mission-24.table.json").write_text(json.dumps(table, indent=1))
    displayed_matches_cli(page, table)
    assert not errors, errors


# ---------------------------------------------------------------- mission 64: flipped wires, a Grappling Hook


def test_mission_64_flipped_wires_and_a_grappling_hook(new_context, server):
    page, errors = touch_phone(new_context)
    open_app(page, server.url)
    red = [7.5]
    keys = [v for v in range(1, 13) for _ in range(4)] + red
    rng = random.Random(64)
    rng.shuffle(keys)
    sizes = [13, 12, 12, 12]
    stands = []  # per player: [lower flipped, sorted..., higher flipped], as at the table
    for size in sizes:
        dealt, keys = keys[:size], keys[size:]
        low, high = sorted(dealt[:2])  # flipped without looking: the lower to the far left, the higher to the far right
        stands.append([low, *sorted(dealt[2:]), high])
    me = 1
    my_dealt = list(stands[me][1:-1])
    choose_mission(page, 64, ["Ann", "Bob", "Cy", "Di"], {"red": red})
    assert page.locator("select[data-special='1']").input_value() == "f2"
    tap(page, f".chip[data-me='{me}']")
    enter_my_wires(page, stands[me][1:-1])
    assert page.locator(".my-wires .wire.flipped").count() == 2
    seen = []
    for p in (0, 2, 3):
        for j in (0, sizes[p] - 1):
            page.select_option(f"select[data-seen='{p}.0.{j}']", str(stands[p][j]))
            seen.append({"at": {"player": p, "stand": 0, "slot": j}, "value": stands[p][j]})
    screenshot(page, "phone-mission-64-setup")
    tap(page, "#start-game")
    page.wait_for_selector(".analysis-status.ok #worlds")
    assert slot(page, 0, 0).get_attribute("class").split().count("special-flipped") == 1
    expected = []

    # Grappling Hook: Bob takes one of Cy's sorted wires and puts it in order in his stand.
    j = 1 + len(stands[2][1:-1]) // 2
    moved = stands[2].pop(j)
    to = 1 + bisect.bisect_left(stands[me][1:-1], moved)
    stands[me].insert(to, moved)
    action(page, "grappling_hook")
    slot(page, 2, 0).tap()  # a flipped wire: equipment cannot reach it
    assert page.locator(".recorder").get_attribute("data-step") == "from"
    slot(page, 2, j).tap()
    tap(page, f".recorder .option[data-player='{me}'][data-stand='0']")
    position(page, to)
    value(page, moved)
    expected.append({"type": "move", "from": {"player": 2, "stand": 0, "slot": j}, "to": {"player": me, "stand": 0, "slot": to}})
    seen.append({"at": {"player": me, "stand": 0, "slot": to}, "value": moved, "after": 0})
    wait_events(page, 1)
    assert slot(page, me, to).get_attribute("data-tile") == f"2.0.{j}"
    assert slot(page, 2, sizes[2] - 2).get_attribute("data-tile") == f"2.0.{sizes[2] - 1}"  # Cy's flipped wire shifted left

    # Di's hand holds none of these values (a skip, or tokens beside the stand); her flipped wires do not count.
    absent = [v for v in range(1, 13) if v not in stands[3][1:-1]][:2]
    action(page, "absent")
    player(page, 3)
    for v in absent:
        value(page, v)
    tap(page, ".recorder [data-action='done']")
    expected.append({"type": "absent", "player": 3, "values": absent})
    wait_events(page, 2)
    assert page.locator(".player[data-player='3'] .beside-note.absent").count() == 1

    table = export_table(page)
    assert table["players"][me]["stands"] == [{"size": 12, "flipped": 2}]
    assert table["me"] == {"player": me, "stands": [[None, *my_dealt, None]], "seen": seen}
    assert table["events"] == expected
    screenshot(page, "phone-mission-64")
    displayed_matches_cli(page, table)
    assert not errors, errors


# ---------------------------------------------------------------- mission 43: Nano and the rest of the equipment


def test_mission_43_nano_and_equipment_by_taps(new_context, server):
    """Opened from a share link of the mission's preset (bombbuster_core.missions) with my hand;
    then a Nano wire into my hand, Triple and Super Detectors, an X or Y ray, a Fast Pass, a
    Disintegrator, a multi cut and dealt colours, all by taps."""
    import base64

    from bombbuster_core.missions import new_table

    page, errors = touch_phone(new_context)
    red = [1.5, 2.5, 3.5]
    keys = [v for v in range(1, 13) for _ in range(4)] + red
    truth = Truth(keys, [12, 12, 12, 11, 4], seed=43)  # the last "stand" is Nano's 4 hidden wires
    nano = [w["key"] for w in truth.stands.pop()]
    table = new_table(43, 4, red=red)
    table["players"] = [{"name": n, "stands": [len(truth.stands[p])]} for p, n in enumerate(["Ann", "Bob", "Cy", "Di"])]
    table["me"] = {"player": 0, "stands": [[w["key"] for w in truth.stands[0]]]}
    encoded = base64.urlsafe_b64encode(json.dumps(table).encode()).decode().rstrip("=")
    open_app(page, server.url + "#game=" + encoded)
    page.wait_for_selector(".analysis-status.ok #worlds")
    assert page.locator(".nano-line").get_attribute("data-nano") == "4"
    expected = []
    blue = lambda k: gameplay(k) not in ("yellow", "red")  # noqa: E731

    # Nano gives Ann a wire (its first hidden one, as the page replays it); she notes its value.
    key = nano[0]
    to = bisect.bisect_left([w["key"] for w in truth.stands[0]], key)
    truth.stands[0].insert(to, {"key": key, "cut": False})
    action(page, "nano")  # a rule tag of this mission: shown without "More actions"
    tap(page, f".recorder .option[data-player='0'][data-stand='0']")
    position(page, to)
    value(page, key)
    expected.append({"type": "move", "from": "nano", "to": {"player": 0, "stand": 0, "slot": to}})
    wait_events(page, len(expected))
    assert page.locator(".nano-line").get_attribute("data-nano") == "3"
    assert "moved" in slot(page, 0, to).get_attribute("class").split()

    def mine(v):
        return truth.find(0, lambda k: gameplay(k) == v)

    # Triple Detector success on Bob.
    v = next(v for v in range(1, 13) if mine(v) and truth.find(1, lambda k, v=v: k == v))
    hit = truth.find(1, lambda k: k == v)[0]
    targets = [hit] + [j for j in truth.uncut(1) if j != hit][:2]
    action(page, "triple_detector")
    player(page, 0)
    for j in targets:
        slot(page, 1, j).tap()
    value(page, v)
    value(page, True)
    slot(page, 1, hit).tap()
    slot(page, 0, mine(v)[0]).tap()
    expected.append({"type": "detector", "actor": 0, "kind": "triple",
                     "targets": [{"player": 1, "stand": 0, "slot": j} for j in targets], "value": v, "success": True,
                     "cut": {"player": 1, "stand": 0, "slot": hit}, "actor_slot": {"stand": 0, "slot": mine(v)[0]}})
    truth.stands[1][hit]["cut"] = truth.stands[0][mine(v)[0]]["cut"] = True
    wait_events(page, len(expected))

    # Super Detector failure on Cy's stand: none of her uncut wires is w; a token on a blue one.
    w = next(w for w in range(1, 13) if mine(w) and not truth.find(2, lambda k, w=w: k == w))
    token_at = truth.find(2, blue)[0]
    action(page, "super_detector")
    player(page, 0)
    slot(page, 2, truth.uncut(2)[-1]).tap()
    value(page, w)
    value(page, False)
    value(page, truth.key(2, token_at))
    slot(page, 2, token_at).tap()
    expected.append({"type": "detector", "actor": 0, "kind": "super",
                     "targets": [{"player": 2, "stand": 0, "slot": j} for j in truth.uncut(2)], "value": w,
                     "success": False, "token": truth.key(2, token_at), "token_at": {"player": 2, "stand": 0, "slot": token_at}})
    wait_events(page, len(expected))

    # X or Y ray on one of Di's wires: it was the first value.
    x = next(x for x in range(1, 13) if mine(x) and truth.find(3, lambda k, x=x: k == x))
    y = next(y for y in range(1, 13) if y != x and mine(y))
    target = truth.find(3, lambda k: k == x)[0]
    action(page, "xy_ray")
    player(page, 0)
    slot(page, 3, target).tap()
    value(page, x)
    value(page, y)
    value(page, True)
    value(page, x)
    slot(page, 0, mine(x)[0]).tap()
    expected.append({"type": "dual_cut", "actor": 0, "target": {"player": 3, "stand": 0, "slot": target},
                     "values": [x, y], "success": True, "cut_value": x, "actor_slot": {"stand": 0, "slot": mine(x)[0]}})
    truth.stands[3][target]["cut"] = truth.stands[0][mine(x)[0]]["cut"] = True
    wait_events(page, len(expected))

    # Fast Pass: Bob cuts two equal wires of his.
    f, pair = next((f, js_) for f in range(1, 13) if len(js_ := truth.find(1, lambda k, f=f: k == f)) >= 2)
    action(page, "fast_pass")
    player(page, 1)
    value(page, f)
    slot(page, 1, pair[0]).tap()
    slot(page, 1, pair[1]).tap()
    expected.append({"type": "fast_pass", "actor": 1, "value": f, "slots": [{"stand": 0, "slot": j} for j in pair[:2]]})
    for j in pair[:2]:
        truth.stands[1][j]["cut"] = True
    wait_events(page, len(expected))

    # Disintegrator: every uncut wire of the drawn value is cut, wherever it is.
    d = next(d for d in range(1, 13) if 0 < sum(len(truth.find(p, lambda k, d=d: k == d)) for p in range(4)) < 4)
    where = [(p, j) for p in range(4) for j in truth.find(p, lambda k: k == d)]
    action(page, "disintegrator")
    value(page, d)
    for p, j in where:
        slot(page, p, j).tap()
    tap(page, ".recorder [data-action='done']")
    expected.append({"type": "disintegrator", "value": d, "slots": [{"player": p, "stand": 0, "slot": j} for p, j in where]})
    for p, j in where:
        truth.stands[p][j]["cut"] = True
    wait_events(page, len(expected))

    # A multi cut: Cy points at every uncut wire of a number, all at once.
    m = next(m for m in range(1, 13) if m != d and sum(len(truth.find(p, lambda k, m=m: k == m)) for p in range(4)) == 4)
    where = [(p, j) for p in range(4) for j in truth.find(p, lambda k: k == m)]
    action(page, "multi_cut")
    player(page, 2)
    value(page, m)
    for p, j in where:
        slot(page, p, j).tap()
    tap(page, ".recorder [data-action='done']")
    value(page, True)
    expected.append({"type": "multi_cut", "actor": 2, "value": m, "slots": [{"player": p, "stand": 0, "slot": j} for p, j in where],
                     "success": True})
    wait_events(page, len(expected))

    # Dealt colours: how many reds Di was dealt.
    reds = sum(1 for w in truth.stands[3] if gameplay(w["key"]) == "red")
    action(page, "dealt")
    player(page, 3)
    value(page, "red")
    value(page, reds)
    expected.append({"type": "dealt", "player": 3, "value": "red", "count": reds})
    wait_events(page, len(expected))
    assert page.locator(".player[data-player='3'] .beside-note.dealt").inner_text() == f"dealt {reds} red"

    # Edit the Nano move (shown on the table as it stood before it: Ann's 12 dealt wires): its
    # landing position asked again, the wire I noted kept.
    tap(page, ".log li[data-index='0'] [data-action='edit']")
    assert page.locator(".table .slot[data-player='0']").count() == 12
    assert page.locator(".nano-line").get_attribute("data-nano") == "4"
    assert page.locator(".recorder .edit-field[data-field='toIndex'] .edit-value").inner_text() == f"position {to + 1}"
    tap(page, ".recorder .edit-field[data-field='toIndex'] [data-action='change']")
    position(page, to)
    tap(page, ".recorder [data-action='save-edit']")
    page.wait_for_selector(".recorder:not(.active)")
    page.wait_for_selector(".analysis-status.ok #worlds")
    assert page.locator(".table .slot[data-player='0']").count() == 13

    exported = export_table(page)
    assert exported["events"] == expected
    assert exported["me"]["seen"] == [{"at": {"player": 0, "stand": 0, "slot": to}, "value": key, "after": 0}]
    screenshot(page, "phone-mission-43")
    displayed_matches_cli(page, exported)
    assert not errors, errors


# ---------------------------------------------------------------- mission 20: X slots and the remaining recorder paths


def test_mission_20_x_slots_and_more_tokens(new_context, server):
    page, errors = touch_phone(new_context)
    open_app(page, server.url)
    yellow, red = [4.1, 9.1], [6.5, 10.5]
    keys = [v for v in range(1, 13) for _ in range(4)] + yellow + red
    rng = random.Random(20)
    rng.shuffle(keys)
    stands = []  # per player: 12 sorted wires, then the X wire (the last one dealt)
    for _ in range(4):
        dealt, keys = keys[:13], keys[13:]
        stands.append([*sorted(dealt[:12]), dealt[12]])
    choose_mission(page, 20, ["Ann", "Bob", "Cy", "Di"], {"yellow": yellow, "red": red})
    enter_my_wires(page, stands[0][:12])
    tap(page, ".my-wires [data-action='x-wire']")
    tap(page, f".keypad[aria-label='add my wire'] .key[data-key='{stands[0][12]}']")
    assert page.locator(".my-wires [data-action='x-wire']").inner_text() == f"X: {label_of(stands[0][12])}"
    tap(page, "#start-game")
    page.wait_for_selector(".analysis-status.ok #worlds")
    assert "special-x" in slot(page, 1, 12).get_attribute("class").split()
    expected = []
    cut = set()

    def sorted_where(p, test):
        return [j for j in range(12) if (p, j) not in cut and test(stands[p][j])]

    mine = {gameplay(k) for k in stands[0][:12] if gameplay(k) not in ("red",)}
    blue_mine = sorted(v for v in mine if v != "yellow")

    # A dual cut on Bob's X wire (a plain cut may target it): failed, its true value as token.
    xp = next(p for p in (1, 2, 3) if gameplay(stands[p][12]) != "red")
    v = next(v for v in blue_mine if v != gameplay(stands[xp][12]))
    action(page, "dual_cut")
    player(page, 0)
    slot(page, xp, 12).tap()
    value(page, v)
    value(page, False)
    value(page, gameplay(stands[xp][12]))
    expected.append({"type": "dual_cut", "actor": 0, "target": {"player": xp, "stand": 0, "slot": 12}, "value": v,
                     "success": False, "token": gameplay(stands[xp][12])})
    wait_events(page, len(expected))

    # The Stabilizer chosen at the outcome of a plain dual cut: failed, a token as usual.
    j = sorted_where(2, lambda k: gameplay(k) not in ("red",) and gameplay(k) != blue_mine[0])[0]
    action(page, "dual_cut")
    player(page, 0)
    slot(page, 2, j).tap()
    value(page, blue_mine[0])
    value(page, "stabilizer")
    value(page, gameplay(stands[2][j]))
    expected.append({"type": "dual_cut", "actor": 0, "target": {"player": 2, "stand": 0, "slot": j}, "value": blue_mine[0],
                     "success": False, "stabilizer": True, "token": gameplay(stands[2][j])})
    wait_events(page, len(expected))

    # A Double Detector with the X or Y ray: two values, neither on the two wires; the token on one of them.
    a, b = blue_mine[0], blue_mine[-1]
    pair = sorted_where(3, lambda k: gameplay(k) not in (a, b, "red"))[:2]
    action(page, "double_detector")
    player(page, 0)
    for j in pair:
        slot(page, 3, j).tap()
    tap(page, ".recorder [data-action='xy']")
    value(page, a)
    value(page, b)
    value(page, False)
    value(page, gameplay(stands[3][pair[1]]))
    slot(page, 3, pair[1]).tap()
    expected.append({"type": "detector", "actor": 0, "kind": "double",
                     "targets": [{"player": 3, "stand": 0, "slot": j} for j in pair], "values": [a, b], "success": False,
                     "token": gameplay(stands[3][pair[1]]), "token_at": {"player": 3, "stand": 0, "slot": pair[1]}})
    wait_events(page, len(expected))

    # A false token (the wire is NOT that value) and a Single Wire Label (×1).
    j = sorted_where(1, lambda k: True)[3]
    wrong = next(w for w in range(1, 13) if w != gameplay(stands[1][j]))
    action(page, "false_token")
    slot(page, 1, j).tap()
    value(page, wrong)
    expected.append({"type": "info_token", "at": {"player": 1, "stand": 0, "slot": j}, "value": wrong, "false": True})
    wait_events(page, len(expected))
    assert page.locator(f".player[data-player='1'] .token-mark[data-slot='{j}']").inner_text() == f"≠{wrong}"
    values2 = [gameplay(k) for k in stands[2]]
    single = next(j for j in range(12) if isinstance(values2[j], int) and values2.count(values2[j]) == 1)
    action(page, "single_wire_label")
    slot(page, 2, single).tap()
    expected.append({"type": "info_token", "at": {"player": 2, "stand": 0, "slot": single}, "count": 1})
    wait_events(page, len(expected))

    # Tripwire calls: one on a yellow (cut), one on a blue (a token).
    yp, yj = next((p, j) for p in (1, 2, 3) for j in sorted_where(p, lambda k: gameplay(k) == "yellow"))
    action(page, "tripwire")
    player(page, 0)
    slot(page, yp, yj).tap()
    value(page, True)
    expected.append({"type": "tripwire", "actor": 0, "target": {"player": yp, "stand": 0, "slot": yj}, "success": True})
    cut.add((yp, yj))
    wait_events(page, len(expected))
    bj = sorted_where(1, lambda k: isinstance(gameplay(k), int))[0]
    action(page, "tripwire")
    player(page, 0)
    slot(page, 1, bj).tap()
    value(page, False)
    value(page, gameplay(stands[1][bj]))
    expected.append({"type": "tripwire", "actor": 0, "target": {"player": 1, "stand": 0, "slot": bj}, "success": False,
                     "token": gameplay(stands[1][bj])})
    wait_events(page, len(expected))

    # A failed multi cut (as in M48): true-value tokens on every wire pointed at.
    pointed = [(2, sorted_where(2, lambda k: isinstance(gameplay(k), int))[-1]),
               (3, sorted_where(3, lambda k: isinstance(gameplay(k), int))[-1])]
    action(page, "multi_cut")
    player(page, 1)
    value(page, "yellow")
    for p, j in pointed:
        slot(page, p, j).tap()
    tap(page, ".recorder [data-action='done']")
    value(page, False)
    for p, j in pointed:
        value(page, gameplay(stands[p][j]))
    expected.append({"type": "multi_cut", "actor": 1, "value": "yellow",
                     "slots": [{"player": p, "stand": 0, "slot": j} for p, j in pointed], "success": False,
                     "tokens": [gameplay(stands[p][j]) for p, j in pointed]})
    wait_events(page, len(expected))

    table = export_table(page)
    assert table["me"] == {"player": 0, "stands": [stands[0]]}
    assert table["players"][0]["stands"] == [{"size": 13, "x_slot": "any"}]
    assert table["events"] == expected
    screenshot(page, "phone-mission-20")
    displayed_matches_cli(page, table)
    assert not errors, errors


def label_of(key):
    """The page's short label of a sort key (model.js label)."""
    colour = gameplay(key)
    return f"Y{int(key)}" if colour == "yellow" else f"R{int(key)}" if colour == "red" else str(int(key))


# ---------------------------------------------------------------- the mission picker across missions


def test_mission_setups_start_and_match_the_cli(new_context, server):
    """Missions whose setup asks something else: a k-of-m pool (M5), the Number card (M11),
    pre-dealt reds with a 2-stand Captain (M13, 3 players: recorded as `dealt` events), 5 players
    (M41), Nano (M43). Each starts public and shows what the CLI computes for its table."""
    from bombbuster_core.missions import catalogue, new_table

    page, errors = touch_phone(new_context)
    open_app(page, server.url)
    entries = {m["mission"]: m for m in catalogue()}
    for mission, players in ((5, 4), (11, 4), (13, 3), (41, 5), (43, 2)):
        if page.locator("#start-game").count() == 0:
            tap(page, "#menu-button")
            tap(page, ".menu-item[data-action='new']")
        page.wait_for_selector("#mission option[value='1']", state="attached")
        page.select_option("#mission", str(mission))
        tap(page, f".segmented[aria-label='player count'] button[data-value='{players}']")
        choices = entries[mission]["choices"][str(players)]
        drawn = {}
        for colour in ("yellow", "red"):
            if colour in choices:
                lo, hi = choices[colour]["range"]
                keys = [n + (0.1 if colour == "yellow" else 0.5) for n in range(int(lo), int(hi) + 1)]
                drawn[colour] = keys[:choices[colour]["values"]]
                for key in drawn[colour]:
                    tap(page, f".chips[aria-label='drawn {colour}'] .chip[data-key='{key}']")
        if "number" in choices:
            tap(page, ".segmented[aria-label='number card'] button[data-value='5']")
        skip_equipment(page)
        page.wait_for_function("!document.querySelector('.setup .warn')")
        tap(page, ".chip[data-me='none']")
        tap(page, "#start-game")
        page.wait_for_selector(".analysis-status.ok #worlds")
        table = export_table(page)
        preset = new_table(mission, players, number_card=5 if "number" in choices else None,
                           **{colour: keys for colour, keys in drawn.items()})
        assert table["wires"] == preset["wires"], mission
        assert [p["stands"] for p in table["players"]] == [p["stands"] for p in preset["players"]], mission
        assert table.get("nano") == preset.get("nano"), mission
        assert table["events"] == preset["meta"].get("dealt", []), mission
        assert table["meta"]["mission"] == mission and table["meta"]["rules"] == preset["meta"]["rules"]
        displayed_matches_cli(page, table)
    assert not errors, errors
