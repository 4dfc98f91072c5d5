"""Equipment advice against brute force: every probability, law and information figure.

The truth is test_suggest's enumerator (every deal into sorted stands, weighted by
the shuffle prior, kept when ``tests/oracle.py`` accepts it); a public-view
figure enumerates the table without its ``me``.  The board is patched to hold
every card, unlocked, so that each advisor runs on every random table.
"""
from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from typing import Any

import pytest

from bombbuster_core import equipment as eq
from bombbuster_core.bridge import handle
from bombbuster_core.cli import main
from bombbuster_core.suggest import Policy, suggest
from bombbuster_core.suggest.equipment import NOTE_NO_BOARD
from bombbuster_core.table import Table, load_table

from gamegen import random_game
from test_suggest import MAX_WIRES, Truth, slot_of, small_game

ALL_CARDS = ("8", "9", "4", "12", "1", "2.2", "11.11", "2", "9.9", "10.10", "6", "11", "7", "3.3", "Y")
OPEN = Policy(equipment_budget=None)


@pytest.fixture
def every_card(monkeypatch):
    """Every card on the board and unlocked (the cut counts say 4 of everything)."""
    def board(self: Table) -> eq.BoardState:
        cut = {v: 4 for v in [*range(1, 13), "yellow"]}
        return eq.BoardState(ALL_CARDS, tuple(p.character for p in self.players), cut)
    monkeypatch.setattr(Table, "equipment_board", board)


def advice(result: dict[str, Any], card: str) -> dict[str, Any]:
    return next(c for c in result["equipment"]["cards"] if c["card"] == card)


def public(table: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in table.items() if k != "me"}


def exact(row: dict[str, Any], field: str = "exact") -> Fraction:
    return Fraction(row[field])


def entropy(ps) -> float:
    return sum(-float(p) * math.log2(float(p)) for p in ps if p)


def support_h(truth: Truth, given) -> float:
    """The entropy mode's H: sum over uncut player slots of log2 |possible gameplay values|."""
    slots = [x for q in range(len(truth.table["players"])) for x in truth.uncut(q)]
    return sum(math.log2(len({truth.g(d, x) for d, _ in truth.deals if given(d)})) for x in slots)


def stand_yes(truth: Truth, d, p: int, s: int, v: int) -> bool:
    return any(truth.g(d, x) == v for x in truth.uncut(p) if x[1] == s)


def game(seed: int, **options: Any) -> dict[str, Any]:
    rng = random.Random(seed)
    return small_game(rng, me=True, players=rng.choice([2, 3, 4]), turns=rng.randint(0, 4), **options)


# Other engines take the per-condition path (one analysis each) instead of packed columns runs.
ENGINE_CASES = [(seed, "columns") for seed in range(12)] + [(seed, "signatures") for seed in range(3)]


@pytest.mark.parametrize("seed, engine", ENGINE_CASES)
def test_general_radar_law_equals_brute_force(seed: int, engine: str, every_card) -> None:
    table = game(5000 + seed)
    me = table["me"]["player"]
    view, pub = Truth(table, me), Truth(public(table), me)
    radar = advice(suggest(load_table(table), policy=OPEN, engine=engine), "8")
    assert radar["incomplete"] == []
    best = 0.0
    for v in sorted({pub.g(d, x) for d, _ in pub.deals for q in range(len(table["players"])) for x in pub.uncut(q)}
                    - {"red", "yellow"}):
        stands = [(p, s) for p, pl in enumerate(table["players"]) for s in range(len(pl["stands"]))]
        law: dict[tuple, Fraction] = {}
        for d, w in pub.deals:
            a = tuple(stand_yes(pub, d, p, s, v) for p, s in stands)
            law[a] = law.get(a, 0) + Fraction(w, pub.total)
        best = max(best, entropy(law.values()))
        row = next(r for r in radar["candidates"] if r["value"] == v)
        for st, (p, s) in zip(row["stands"], stands):
            assert (st["player"], st["stand"]) == (p, s)
            assert Fraction(st["p_yes_exact"]) == view.p(lambda d: stand_yes(view, d, p, s, v))
            assert Fraction(st["p_yes_public_exact"]) == pub.p(lambda d: stand_yes(pub, d, p, s, v))
        if row["bits"] is None:  # not computed: its bound proves it no better than the first
            assert entropy(law.values()) <= row["bits_at_most"] + 1e-6
            assert row["bits_at_most"] <= radar["candidates"][0]["bits"] + 1e-6
            continue
        assert {tuple(a["yes"]): exact(a) for a in row["answers"]} == law
        assert row["bits"] == pytest.approx(entropy(law.values()), abs=1e-6)
    if radar["candidates"]:
        assert radar["candidates"][0]["bits"] == pytest.approx(best, abs=1e-6), "the first value is the best"


@pytest.mark.parametrize("seed, engine", ENGINE_CASES)
def test_marks_information_equals_brute_force(seed: int, engine: str, every_card) -> None:
    check_marks(game(6000 + seed), engine)


def test_label_equal_on_two_reds(every_card) -> None:
    """By hand: two reds side by side count as one value (rules §5, Label =)."""
    table = {"format": 1, "wires": {"blue": [7, 8, 9], "red": [7.5, 8.5]},
             "players": [{"name": "A", "stands": [6]}, {"name": "B", "stands": [8]}],
             "me": {"player": 0, "stands": [[7, 7, 7.5, 8.5, 9, 9]]}}
    rows = advice(suggest(load_table(table), policy=OPEN), "12")["candidates"]
    assert [(0, 0, 2), (0, 0, 3)] in [[slot_of(t) for t in r["targets"]] for r in rows]
    check_marks(table, "columns")


def check_marks(table: dict[str, Any], engine: str) -> None:
    me = table["me"]["player"]
    view, pub = Truth(table, me), Truth(public(table), me)
    result = suggest(load_table(table), policy=OPEN, engine=engine)
    (hand,) = [d for d, _ in view.deals[:1]]
    cut = view.cut
    mine = [(me, s, j) for s, n in enumerate(table["players"][me]["stands"]) for j in range(n)]
    g = {x: view.g(hand, x) for x in mine}
    facts = {  # card -> {targets: the mark's fact on a deal}
        "4": {(x,): (lambda d, x=x, v=g[x]: pub.g(d, x) == v)
              for x in mine if x not in cut and isinstance(g[x], int)},
        "12": {(a, b): (lambda d, a=a, b=b: pub.g(d, a) == pub.g(d, b))
               for a, b in zip(mine, mine[1:]) if a[1] == b[1] and not {a, b} <= cut and g[a] == g[b]},
        "1": {(a, b): (lambda d, a=a, b=b: pub.g(d, a) != pub.g(d, b))
              for a, b in zip(mine, mine[1:]) if a[1] == b[1] and not {a, b} <= cut and g[a] != g[b]},
        # The x1 token shows no number: the wire is not red (the recorded token's meaning, as the
        # M24 x-tokens; the card says blue) and its value is alone on its stand.
        "2.2": {(x,): (lambda d, x=x: pub.g(d, x) != "red"
                       and sum(pub.g(d, y) == pub.g(d, x) for y in mine if y[1] == x[1]) == 1)
                for x in mine if isinstance(g[x], int) and sum(g[y] == g[x] for y in mine if y[1] == x[1]) == 1},
    }
    h0 = support_h(pub, lambda d: True)
    for card, marks in facts.items():
        rows = advice(result, card)["candidates"]
        got = {tuple(slot_of(t) for t in (r["targets"] if "targets" in r else [r["target"]])): r for r in rows}
        assert set(got) == set(marks), card
        for targets, fact in marks.items():
            p = pub.p(fact)
            assert exact(got[targets], "p_fact_public_exact") == p, (card, targets)
            assert got[targets]["information"] == pytest.approx(-math.log2(p), abs=1e-6)
            assert got[targets]["bits"] == pytest.approx(h0 - support_h(pub, fact), abs=1e-6), (card, targets)
        assert [r["bits"] for r in rows] == sorted((r["bits"] for r in rows), reverse=True)


def token_game(seed: int, kind: str, named: bool) -> dict[str, Any]:
    """A small game of a mission whose tokens are even/odd (M21) or x-counts (M24): one such setup
    token placed by a random player, true of the deal; ``named``: the table names its mission
    (else the Post-it's token is read off that token)."""
    rng = random.Random(seed)
    while True:
        table, deal = random_game(rng, me=True, players=rng.choice([2, 3]), turns=rng.randint(0, 3),
                                  setup_tokens=False)
        if sum(sum(p["stands"]) for p in table["players"]) > MAX_WIRES:
            continue
        blue = [(p, s, j) for p, hand in enumerate(deal) for s, row in enumerate(hand) for j, k in enumerate(row)
                if isinstance(k, int)]
        if blue:
            break
    p, s, j = rng.choice(blue)
    v = deal[p][s][j]
    token = {"parity": "even" if v % 2 == 0 else "odd"} if kind == "parity" else {"count": deal[p][s].count(v)}
    if token.get("count", 0) > 3:
        token = {"count": 1} if deal[p][s].count(v) == 1 else {"parity": "even"}
        return token_game(seed + 1000, kind, named)
    table["events"] = [{"type": "info_token", "at": {"player": p, "stand": s, "slot": j}, **token}, *table["events"]]
    if named:
        table["meta"] = {"mission": 21 if kind == "parity" else 24}
    return table


@pytest.mark.parametrize("seed, kind, named", [(seed, kind, seed % 2 == 0) for seed in range(8)
                                               for kind in ("parity", "count")])
def test_post_it_places_the_missions_token_with_its_information_equal_brute_force(
        seed: int, kind: str, named: bool, every_card) -> None:
    """M21/M33 even/odd and M24/M40 x-count tokens replace the Post-it's number too (rules.md §6):
    each mark's P(fact) and bits against the rule's text on every deal of the public view."""
    table = token_game(11000 + seed, kind, named)
    me = table["me"]["player"]
    view, pub = Truth(table, me), Truth(public(table), me)
    (hand,) = [d for d, _ in view.deals[:1]]
    mine = [(me, s, j) for s, n in enumerate(table["players"][me]["stands"]) for j in range(n)]
    g = {x: view.g(hand, x) for x in mine}

    def on_stand(x):
        return [y for y in mine if y[1] == x[1]]

    if kind == "parity":  # an uncut blue wire: blue, of its parity
        marks = {x: (lambda d, x=x, v=g[x]: isinstance(pub.g(d, x), int) and pub.g(d, x) % 2 == v % 2)
                 for x in mine if x not in view.cut and isinstance(g[x], int)}
    else:  # a blue wire, cut or not: not red, and its stand holds that many of its value, cut ones included
        marks = {x: (lambda d, x=x, c=sum(g[y] == g[x] for y in on_stand(x)):
                     pub.g(d, x) != "red" and sum(pub.g(d, y) == pub.g(d, x) for y in on_stand(x)) == c)
                 for x in mine if isinstance(g[x], int) and sum(g[y] == g[x] for y in on_stand(x)) <= 3}
    post_it = advice(suggest(load_table(table), policy=OPEN), "4")
    rows = {slot_of(r["target"]): r for r in post_it["candidates"]}
    assert set(rows) == set(marks)
    h0 = support_h(pub, lambda d: True)
    for x, fact in marks.items():
        r = rows[x]
        assert r["value"] == g[x]
        if kind == "parity":
            assert r["parity"] == ("odd" if g[x] % 2 else "even") and "count" not in r
        else:
            assert r["count"] == sum(g[y] == g[x] for y in on_stand(x)) and "parity" not in r
        p = pub.p(fact)
        assert exact(r, "p_fact_public_exact") == p, x
        assert r["information"] == pytest.approx(-math.log2(p), abs=1e-6)
        assert r["bits"] == pytest.approx(h0 - support_h(pub, fact), abs=1e-6), x
    assert [r["bits"] for r in post_it["candidates"]] == sorted((r["bits"] for r in post_it["candidates"]),
                                                                reverse=True)


def test_post_it_follows_the_named_mission_before_any_token(every_card) -> None:
    """By hand.  M21 named, no token on the table yet: the Post-it's token is even/odd, not a
    number; M24: x-counts, a cut wire included, none for a value held 4 times (there is no x4);
    M17: a true number for a teammate (Rhett's own advice: below); M52: the rules do not say what a Post-it says when every token is false, so it is
    not advised; false tokens on a table that names no mission (M17 or M52?) neither."""
    hands = [[1, 1, 1, 1, 2, 3], [1, 2, 2, 3, 3, 3]]
    cut = {"type": "dual_cut", "actor": 0, "target": {"player": 1, "stand": 0, "slot": 1}, "value": 2,
           "success": True, "actor_slot": {"stand": 0, "slot": 4}}

    def post_it(mission: int | None, me: int = 0, events: tuple = (), engine: str = "columns") -> dict[str, Any]:
        table = {"format": 1, "wires": {"blue": [1, 2, 3]}, "meta": {"mission": mission},
                 "players": [{"name": "A", "stands": [6]}, {"name": "B", "stands": [6]}],
                 "me": {"player": me, "stands": [hands[me]]}, "events": [cut, *events]}
        return advice(suggest(load_table(table), policy=OPEN, engine=engine), "4")

    def marks(row: dict[str, Any]) -> list[tuple]:
        return [(r["target"]["slot"], r["value"], r.get("parity"), r.get("count")) for r in row["candidates"]]

    assert sorted(marks(post_it(21))) == [(j, 1, "odd", None) for j in range(4)] + [(5, 3, "odd", None)]
    assert sorted(marks(post_it(24))) == [(4, 2, None, 1), (5, 3, None, 1)], "the cut 2 too; no x4 on the 1s"
    assert sorted(marks(post_it(None))) == [(j, 1, None, None) for j in range(4)] + [(5, 3, None, None)]
    assert sorted(marks(post_it(17, me=1))) == [(0, 1, None, None), (2, 2, None, None), (3, 3, None, None),
                                                (4, 3, None, None), (5, 3, None, None)]
    unmodelled = post_it(24, engine="signatures")  # no count facts there: it says so, it does not guess
    assert unmodelled["candidates"] == [] and "signatures engine does not model" in unmodelled["incomplete"][0]
    m52 = post_it(52)
    assert m52["candidates"] == [] and "M52" in m52["why"]
    assert (m52["code"], m52["fields"]) == ("post_it_all_false", {"mission": 52})  # the page words the code
    false = {"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 0}, "value": 3, "false": True}
    unnamed = post_it(None, events=(false,))
    assert unnamed["candidates"] == [] and "names no mission" in unnamed["why"]
    assert (unnamed["code"], unnamed["fields"]) == ("post_it_false_unnamed", {"event": 1})  # the false token's
    x2 = {"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 1}, "count": 2}
    assert sorted(marks(post_it(None, me=1, events=(x2,)))) == [(0, 1, None, 1), (1, 2, None, 2), (2, 2, None, 2),
                                                                (3, 3, None, 3), (4, 3, None, 3), (5, 3, None, 3)]


@pytest.mark.parametrize("seed", range(10))
def test_hook_walkie_fast_pass_disintegrator_equal_brute_force(seed: int, every_card) -> None:
    table = game(7000 + seed)
    me = table["me"]["player"]
    view = Truth(table, me)
    result = suggest(load_table(table), policy=OPEN)
    players = range(len(table["players"]))

    def held(d, q):
        return {view.g(d, x) for x in view.uncut(q)}

    hook = advice(result, "11.11")
    teammate = [x for q in players if q != me for x in view.uncut(q)]
    assert len(hook["candidates"]) == min(len(teammate), 3)
    matches = {x: view.p(lambda d, x=x: view.g(d, x) in held(d, me) - {"red"}) for x in teammate}
    assert [exact(r, "p_match_exact") for r in hook["candidates"]] == sorted(matches.values(), reverse=True)[:3]
    for r in hook["candidates"]:
        t = slot_of(r["target"])
        assert exact(r, "p_match_exact") == matches[t]
        assert {x["value"]: exact(x) for x in r["values"]} == {
            w: view.p(lambda d, w=w: view.g(d, t) == w) for w in {view.g(d, t) for d, _ in view.deals}}

    gifts = advice(result, "2")["candidates"]
    order = [(not r["alone"], -exact(r, "p_teammate_holds_exact")) for r in gifts]
    assert order == sorted(order), "a lone wire first, then the likeliest to pair"
    for r in gifts:
        assert view.g(view.deals[0][0], slot_of(r["give"])) == r["value"]
        assert r["alone"] == (sum(view.g(view.deals[0][0], x) == r["value"] for x in view.uncut(me)) == 1)
        assert exact(r, "p_teammate_holds_exact") == view.p(lambda d: r["value"] in held(d, r["to"]))

    (hand,) = [d for d, _ in view.deals[:1]]
    twice = {v for v in held(hand, me) - {"red"} if sum(view.g(hand, x) == v for x in view.uncut(me)) >= 2}
    assert {r["value"] for r in advice(result, "9.9")["candidates"]} == twice

    for r in advice(result, "10.10")["candidates"]:
        expected = sum(Fraction(w, view.total) * sum(view.g(d, x) == r["value"] for q in players for x in view.uncut(q))
                       for d, w in view.deals)
        assert exact(r, "expected_cut_exact") == expected


@pytest.mark.parametrize("seed", range(8))
def test_hook_in_public_view_conditions_on_what_the_player_holds(seed: int, every_card) -> None:
    rng = random.Random(8000 + seed)
    table = small_game(rng, me=False, players=3, turns=rng.randint(0, 4))
    player = rng.randrange(3)
    truth = Truth(table, player)
    hook = advice(suggest(load_table(table), player=player, policy=OPEN), "11.11")
    for r in hook["candidates"]:
        t = slot_of(r["target"])
        assert exact(r, "p_match_exact") == truth.p(
            lambda d: truth.g(d, t) in {truth.g(d, x) for x in truth.uncut(player)} - {"red"})
    # The marks and the gift are the owner's choice among wires only they see.
    result = suggest(load_table(table), player=player, policy=OPEN)
    for card in ("4", "12", "1", "2.2", "2"):
        assert advice(result, card)["candidates"] == [] and "view" in advice(result, card)["why"]


@pytest.mark.parametrize("seed", range(6))
def test_stabilizer_lists_the_likeliest_calls_with_their_red_and_failure_odds(seed: int, every_card) -> None:
    table = game(9000 + seed)
    me = table["me"]["player"]
    truth = Truth(table, me)
    result = suggest(load_table(table), policy=OPEN, top=None)
    calls = [s for s in result["suggestions"] if s["kind"] == "dual_cut"]
    rows = advice(result, "9")["candidates"]
    assert [r["p_success"] for r in rows] == sorted((c["p_success"] for c in calls), reverse=True)[:3]
    for r in rows:
        t, v = slot_of(r["target"]), r["value"]
        assert exact(r, "p_success_exact") == truth.p(lambda d: truth.g(d, t) == v)
        assert exact(r, "p_red_exact") == truth.p(lambda d: truth.g(d, t) == "red")
        assert exact(r, "p_failure_exact") == truth.p(lambda d: truth.g(d, t) not in (v, "red"))


def test_no_board_no_card_advice() -> None:
    table = game(1)
    result = suggest(load_table(table))
    assert result["equipment"] is None and result["equipment_note"] == NOTE_NO_BOARD
    assert "equipment" not in suggest(load_table(table), cards=False)


def test_the_captain_of_m17_and_m28_gets_no_card_advice(every_card) -> None:
    """Rhett (M17) uses none of the board's cards, his character still; Captain Careless (M28)
    neither (their character is out of the game): their advice says why; a teammate's is as in
    any mission."""
    table = game(2)
    everything = suggest(load_table(table), player=0)["equipment"]
    assert "barred" not in everything
    character = [c["card"] for c in everything["cards"] + everything["your_turn_only"] if c["source"] == "character"]
    assert character and len(everything["cards"] + everything["your_turn_only"]) > len(character)
    for mission, who, kept in ((17, "Rhett", character), (28, "Captain Careless", [])):
        named = {**table, "meta": {"mission": mission}}
        captain = suggest(load_table(named), player=0)["equipment"]
        assert [c["card"] for c in captain["cards"] + captain["your_turn_only"]] == kept
        assert who in captain["barred"]
        teammate = suggest(load_table(named), player=1)["equipment"]
        assert teammate["cards"] and "barred" not in teammate


def test_your_turn_cards_only_for_the_player_to_move(every_card) -> None:
    table = game(2)
    moving = {c["card"] for c in suggest(load_table(table))["equipment"]["cards"]}
    waiting = suggest(load_table(table), moving=False)["equipment"]
    assert {c["card"] for c in waiting["cards"]} == moving - {"9", "11", "9.9", "double_detector"}
    assert {c["card"] for c in waiting["your_turn_only"]} == {"9", "11", "9.9", "double_detector"}


def test_budget_cuts_the_radar_short_and_says_so(every_card) -> None:
    table = game(5003)
    radar = advice(suggest(load_table(table), policy=Policy(equipment_budget=1)), "8")
    assert radar["analyses"] <= 1 and radar["incomplete"]


def unlocked_table() -> dict[str, Any]:
    """A hand-made table whose two cut 8s unlock the General Radar on its board."""
    return {"format": 1, "wires": {"blue": [7, 8, 9]},
            "players": [{"name": "A", "stands": [6]}, {"name": "B", "stands": [6]}],
            "me": {"player": 0, "stands": [[7, 7, 8, 8, 9, 9]]},
            "equipment": [{"card": "8"}, {"card": "9"}],
            "events": [{"type": "dual_cut", "actor": 0, "target": {"player": 1, "stand": 0, "slot": 2},
                        "value": 8, "success": True, "actor_slot": {"stand": 0, "slot": 2}}]}


def test_cli_and_bridge_return_the_advice(tmp_path, capsys) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(unlocked_table()))
    assert main(["suggest", str(path), "--top", "all"]) == 0
    cli = json.loads(capsys.readouterr().out)
    cards = {c["card"]: c for c in cli["equipment"]["cards"]}
    assert set(cards) == {"8", "double_detector"}, "the Stabilizer's 9s are not cut: still locked"
    assert cards["8"]["candidates"][0]["bits"] > 0
    reply = handle(json.dumps({"id": 1, "method": "suggest", "params": {"table": unlocked_table(), "cards": True}}))
    assert json.loads(reply)["result"]["equipment"] == cli["equipment"]
    assert main(["suggest", str(path), "--not-moving"]) == 0
    waiting = json.loads(capsys.readouterr().out)["equipment"]
    assert [c["card"] for c in waiting["cards"]] == ["8"]


def test_bridge_advises_only_when_asked(tmp_path, capsys) -> None:
    """The bridge's default is no advice (the page's list stays fast): the CLI's --no-cards."""
    path = tmp_path / "t.json"
    path.write_text(json.dumps(unlocked_table()))
    assert main(["suggest", str(path), "--top", "all", "--no-cards"]) == 0
    cli = json.loads(capsys.readouterr().out)
    reply = json.loads(handle(json.dumps({"id": 1, "method": "suggest", "params": {"table": unlocked_table()}})))
    assert reply["result"] == cli and "equipment" not in cli


def test_walkie_talkies_give_the_lone_wire_where_it_surely_pairs(every_card) -> None:
    """By hand: after the 8s' cut, my 8 is alone and B surely holds the last 8 (the deck is 7-9)."""
    walkie = advice(suggest(load_table(unlocked_table())), "2")
    assert walkie["candidates"][0] == {"give": {"player": 0, "stand": 0, "slot": 3}, "value": 8, "to": 1,
                                       "alone": True, "p_teammate_holds": 1.0, "p_teammate_holds_exact": "1/1"}
    assert walkie["verdict"] == "use now"
