"""Full rules (docs/table-format.md, "Full rules"): the core equals the oracle.

Random legal full-rules games (tests/gamegen.py ``random_full_game``: X and
flipped stands, Nano, counts-as-red, every token mode, every equipment and
mission event) are analysed by the core through its public API and enumerated
by the independent oracle (tests/oracle.py), which replays the events on every
concrete deal, moving wires by identity.  For the columns and brute engines the
integer worlds, the cut flags and every current slot's exact probabilities must
be equal; the signatures engine must be equal or refuse (EngineLimit /
Unsupported).  Impossible variants (one event made false) must be blamed on the
same event as the oracle's first failing prefix.
"""
from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from gamegen import FULL_KINDS, random_full_game
from oracle import enumerate_table

from bombbuster_core.analysis import analyze, beliefs
from bombbuster_core.beliefs import EngineLimit, Inconsistent
from bombbuster_core.table import load_table
from bombbuster_core.wires import key_str

_PROBE = {"players": [{"name": "A", "stands": [2]}, {"name": "B", "stands": [2]}],
          "wires": {"blue": [1]}, "events": [{"type": "radar", "value": 1, "answers": [[True], [True]]}]}
try:
    load_table(_PROBE)
except Exception as exc:  # the core does not parse the full-rules format yet
    pytest.skip(f"the core does not parse the full-rules format yet ({exc})", allow_module_level=True)

BASE = {"success": 2.0, "failure": 1.0}


def _focus(*kinds: str, weight: float = 4.0) -> dict[str, float]:
    return {**BASE, **{k: weight for k in kinds}}


# name -> random_full_game options (besides the seed's rng)
SCENARIOS: dict[str, dict[str, Any]] = {
    "x_any": {"special": "x_any"},
    "x_blue": {"special": "x_blue"},
    "flip1": {"special": "flip1"},
    "flip2": {"special": "flip2"},
    "lowhigh": {"special": "lowhigh", "players": 2},
    "mixed": {"special": "mixed"},
    "nano": {"nano": 2, "kinds": _focus("nano", "move")},
    "counts_as_red": {"counts_as_red": True, "kinds": _focus("reveal_red", "stabilizer")},
    "token_null": {"token_mode": "null", "kinds": _focus("failure", "detector")},
    "token_parity": {"token_mode": "parity", "kinds": _focus("post_it", "failure", "detector")},
    "token_count": {"token_mode": "count", "kinds": _focus("post_it", "failure", "detector")},
    "token_false": {"token_mode": "false", "kinds": _focus("post_it", "failure")},
    **{kind: {"kinds": _focus(kind)} for kind in FULL_KINDS if kind not in BASE},
    "all_kinds_special": {"special": "mixed", "nano": 1},
    # the new stand kinds under the events whose meaning they change
    "flip_count": {"special": "flip1", "token_mode": "count", "kinds": _focus("post_it", "failure", "detector")},
    "mixed_parity": {"special": "mixed", "token_mode": "parity", "kinds": _focus("post_it", "failure", "xy")},
    "lowhigh_seen_by_owner": {"special": "lowhigh", "players": 2, "me": True,
                              "kinds": _focus("absent", "dealt", "radar", "failure", "solo")},
    "flip2_equipment": {"special": "flip2", "kinds": _focus("move", "swap", "label", "radar", "disintegrator")},
    "x_equipment": {"special": "x_any", "kinds": _focus("move", "swap", "detector", "disintegrator", "fast_pass")},
    "nano_solo": {"nano": 2, "kinds": _focus("nano", "solo", "multi_cut", "disintegrator", "reveal_red")},
    "counts_as_red_detector": {"counts_as_red": True, "kinds": _focus("detector", "xy", "failure", "stabilizer")},
    "me_seen_moves": {"special": "mixed", "nano": 1, "me": True, "kinds": _focus("move", "nano", "swap")},
    # larger tables: 14 and 16 wires, every kind
    "large_14": {"total": 14, "special": "mixed", "nano": 1, "players": 3},
    "large_16": {"total": 16, "special": "mixed", "players": 4, "turns": 8},
}
SEEDS = 24


def core_rows(table: dict[str, Any], engine: str) -> tuple[int, list[tuple]]:
    t = load_table(table)
    b = beliefs(t, engine)
    board = t.board()
    rows = []
    for p, stands in enumerate(board.stands):
        for s, row in enumerate(stands):
            for j, wire in enumerate(row):
                rows.append((p, s, j, wire in board.cut, {key_str(k): v for k, v in b.exact(wire).items()}))
    return b.worlds, rows


def oracle_rows(result: dict[str, Any]) -> list[tuple]:
    return [(r["player"], r["stand"], r["slot"], r["cut"], dict(r["p"])) for r in result["exact"]]


def _game(name: str, seed: int) -> tuple[dict[str, Any], Any]:
    rng = random.Random(hash(name) % 10_000 * 1000 + seed)
    options = dict(SCENARIOS[name])
    options.setdefault("turns", rng.randint(1, 6))
    return random_full_game(rng, **options)


CASES = [(name, seed) for name in SCENARIOS for seed in range(SEEDS)]


@pytest.mark.parametrize("name,seed", CASES)
def test_core_equals_oracle(name: str, seed: int) -> None:
    table, _ = _game(name, seed)
    truth = enumerate_table(table)
    assert truth["consistent"]
    expected = oracle_rows(truth)
    for engine in ("columns", "brute"):
        worlds, rows = core_rows(table, engine)
        assert worlds == truth["worlds"], engine
        assert rows == expected, engine
    try:
        worlds, rows = core_rows(table, "signatures")
    except EngineLimit:
        return
    assert worlds == truth["worlds"] and rows == expected, "signatures"


@pytest.mark.parametrize("name,seed", CASES[::4])
def test_cli_json_floats(name: str, seed: int) -> None:
    table, _ = _game(name, seed)
    truth = enumerate_table(table)
    got = analyze(load_table(table), "columns")
    assert got["consistent"] and got["worlds"] == truth["worlds"]
    assert len(got["slots"]) == len(truth["slots"])
    for mine, theirs in zip(got["slots"], truth["slots"]):
        assert {k: mine[k] for k in ("player", "stand", "slot", "cut")} == \
            {k: theirs[k] for k in ("player", "stand", "slot", "cut")}
        assert mine["p"].keys() == theirs["p"].keys()
        for k, v in mine["p"].items():
            assert abs(v - theirs["p"][k]) <= 1e-12


# ------------------------------------------------------------- impossible variants


def _falsify(ev: dict[str, Any], rng: random.Random, blues: list[int]) -> dict[str, Any] | None:
    """The event with one of its claims reversed (None: nothing simple to reverse)."""
    ev = {**ev}
    kind = ev["type"]
    if kind == "radar":
        answers = [list(a) for a in ev["answers"]]
        p = rng.randrange(len(answers))
        s = rng.randrange(len(answers[p]))
        answers[p][s] = not answers[p][s]
        ev["answers"] = answers
    elif kind == "label":
        ev["kind"] = "equal" if ev["kind"] == "different" else "different"
    elif kind == "info_token" and "parity" in ev:
        ev["parity"] = "odd" if ev["parity"] == "even" else "even"
    elif kind == "info_token" and "count" in ev:
        ev["count"] = rng.choice([c for c in (1, 2, 3) if c != ev["count"]])
    elif kind == "info_token":
        if ev.get("false"):
            return None
        others = [v for v in blues if v != ev["value"]]
        if not others:
            return None
        ev["value"] = rng.choice(others)
    elif kind == "dealt":
        ev["count"] += 1
    elif kind == "tripwire" and not ev["success"]:
        others = [v for v in blues if v != ev["token"]]
        if not others:
            return None
        ev["token"] = rng.choice(others)
    elif kind == "dual_cut" and not ev["success"] and isinstance(ev.get("token"), int):
        others = [v for v in blues if v != ev["token"] and v not in ev.get("values", [ev.get("value")])]
        if not others:
            return None
        ev["token"] = rng.choice(others)
    else:
        return None
    return ev


def test_impossible_variants_blame_the_oracles_first_failing_prefix() -> None:
    checked = refused = 0
    for n, (name, seed) in enumerate(CASES):
        if n % 3 or name.startswith("large"):  # a short prefix of a large table enumerates every deal
            continue
        table, deal = _game(name, seed)
        rng = random.Random(seed)
        tiles = [k for hand in deal for st in hand for k in st] + list(deal.nano)
        blues = sorted({k for k in tiles if isinstance(k, int)})
        spots = [i for i, ev in enumerate(table["events"]) if _falsify(ev, random.Random(0), blues)]
        if not spots:
            continue
        i = rng.choice(spots)
        events = list(table["events"])
        events[i] = _falsify(events[i], rng, blues)
        bad = {**table, "events": events}
        truth = enumerate_table(bad)
        got = analyze(load_table(bad), "columns")
        checked += 1
        assert got["consistent"] == truth["consistent"], (name, seed, i)
        if got["consistent"]:
            assert got["worlds"] == truth["worlds"]
            continue
        refused += 1
        # consistency only shrinks as events are added: bisect for the first failing prefix
        lo, hi = 0, len(events)  # prefix hi fails; find the smallest failing one
        if not enumerate_table(bad, upto=0)["consistent"]:
            hi = 0
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if enumerate_table(bad, upto=mid)["consistent"]:
                lo = mid
            else:
                hi = mid
        first = hi
        assert got["event"] == (None if first == 0 else first - 1), (name, seed, i)
    assert checked >= 60 and refused >= 20, (checked, refused)


def test_hand_worked_trap_through_the_core() -> None:
    # Deck {1,1,2}, stands 2 | 1 | 2 (I am P2 holding the two 4s): P0's right
    # wire is 1 with 1/3; a move to my far left keeps it (see test_oracle).
    table = {"players": [{"name": "A", "stands": [2]}, {"name": "B", "stands": [1]}, {"name": "C", "stands": [2]}],
             "wires": {"deck": {"1": 2, "2": 1, "4": 2}}, "me": {"player": 2, "stands": [[4, 4]]},
             "events": [{"type": "move", "from": {"player": 0, "stand": 0, "slot": 1},
                         "to": {"player": 2, "stand": 0, "slot": 0}}]}
    for engine in ("columns", "brute"):
        worlds, rows = core_rows(table, engine)
        assert worlds == 3
        assert rows[2][4] == {"1": Fraction(1, 3), "2": Fraction(2, 3)}


def test_inconsistent_generated_games_never_happen() -> None:
    # the generator's games are legal: the core never calls one impossible
    for name, seed in CASES[::7]:
        table, _ = _game(name, seed)
        try:
            beliefs(load_table(table), "columns")
        except Inconsistent:  # pragma: no cover - reported by the assertion
            pytest.fail(f"{name} seed {seed}: the core finds a legal game impossible")
