"""Record ``suggest``'s JSON on random tables of every kind: tests/data/suggest_recorded.jsonl.gz.

    python tests/data/make_suggest_recorded.py [--out PATH]
    python tests/data/make_suggest_recorded.py --refresh [--out PATH]

Made once, on the code before suggest.py became a package (issue 20), for
tests/test_suggest_recorded.py, which replays every record and compares the
output byte for byte.  Each record stores its table and request, so the test
does not depend on this script's random stream; re-running it on changed
code records that code's answers, which is the point only when the change
is meant to change them.  ``--refresh`` keeps every stored table and request
and records the current code's output for them, printing the name of each
record whose output changed (a deliberate change: its reason goes in the
test's docstring); a full re-run would also deal other tables wherever the
simulator's policies changed.

What the records cover (names say which family a record comes from):

* ``basic-N``: tests/gamegen.py's ``random_game``: 2-5 players, observer or
  public view, 0-6 random legal turns (successes with and without keys,
  failures with and without a token, solo cuts, reveals), setup tokens,
  yellow / red / uncertain ("k of m") wires, some ending in an explosion;
* ``mid-N``: ``random_game`` on mid-size wire sets (blue 1-4 .. 1-8, yellows,
  reds), 3-5 players, 2-12 turns: mid and late game;
* ``full-N``: ``random_full_game``: X and flipped stands, Nano, counts-as-red,
  token modes (value, null, parity, count, false Post-its) and every event
  kind of FULL_KINDS (detector, X-or-Y ray, radar, moves, swaps, ...);
* ``mission-M-Pp-N``: a mission preset dealt and played by the simulator's
  random or greedy policy for some turns (random games end early, by the
  dial or a red; greedy ones reach the mid and late game), as seen by one player or in public view: the
  table lists the mission's rules, its equipment and characters;
* ``refusal-*`` / ``impossible`` / ``budget-*``: the requests ``suggest``
  refuses (the SuggestError and EngineLimit messages are the output) and a
  table no deal satisfies.

Requests vary the mode (the entropy mode only on small tables: it runs two
analyses per call), ``probabilities``, ``player``, ``top``, the engine (brute
and signatures on small tables), every Policy field (equipment subsets,
red_cap, seed, per_kind, the equipment budget, failure_token) and whether an
executor maps the analyses.  The script prints the CPU seconds per family:
the test replays them all, so keep the total well under a minute.
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(TESTS.parent), str(TESTS)]

from gamegen import SPECIALS, TOKEN_MODES, random_full_game, random_game  # noqa: E402
from test_suggest_recorded import RECORDED, answer  # noqa: E402

from bombbuster_core.sim import POLICIES  # noqa: E402
from bombbuster_core.sim.actions import SimError  # noqa: E402
from bombbuster_core.sim.deal import new_game  # noqa: E402
from bombbuster_core.sim.view import View  # noqa: E402

EQUIPMENT = ("xy_ray", "double_detector", "super_detector", "triple_detector")
SMALL = 16  # wires on the stands: the entropy mode and the slow engines only up to this
MISSIONS = (1, 2, 5, 8, 9, 11, 13, 17, 20, 21, 22, 24, 27, 31, 35, 38, 41, 43, 46, 48, 52, 56, 58, 64)


def wires_on_stands(table: dict[str, Any]) -> int:
    return sum(s if isinstance(s, int) else s["size"] for p in table["players"] for s in p["stands"])


def request_for(rng: random.Random, table: dict[str, Any]) -> dict[str, Any]:
    small = wires_on_stands(table) <= SMALL
    players = len(table["players"])
    request: dict[str, Any] = {}
    if "me" not in table or rng.random() < 0.25:
        request["player"] = rng.randrange(players)
    if small and rng.random() < 0.35:
        request["mode"] = "entropy"
        request["probabilities"] = rng.choice(["seed", "exact"])
    if small and rng.random() < 0.15:
        request["engine"] = rng.choice(["brute", "signatures"])
    request["top"] = rng.choice([None, 20, 20, 10, 5, 0])
    policy: dict[str, Any] = {}
    if rng.random() < 0.7:
        kinds = EQUIPMENT if wires_on_stands(table) <= 36 else EQUIPMENT[:2]
        policy["equipment"] = [k for k in kinds if rng.random() < 0.5]
    if rng.random() < 0.5:
        policy["red_cap"] = rng.choice([0.0, 0.05, 0.2, 1.0])
    policy["seed"] = rng.randrange(100)
    if rng.random() < 0.5:
        policy["per_kind"] = rng.choice([0, 1, 2, 3])
    if rng.random() < 0.4:
        policy["equipment_budget"] = rng.choice([None, None, 0, 3, 30] if small else [0, 3])
    if rng.random() < 0.15:
        policy["failure_token"] = False
    request["policy"] = policy
    if rng.random() < 0.1:
        request["executor"] = True
    return request


def basic(rng: random.Random) -> dict[str, Any]:
    options: dict[str, Any] = {"players": rng.randint(2, 5), "turns": rng.randint(0, 6)}
    if rng.random() < 0.1:
        options["explode"] = 1.0
    table, _ = random_game(rng, **options)
    return table


def mid(rng: random.Random) -> dict[str, Any]:
    top = rng.randint(4, 8)
    wires = {"blue": list(range(1, top + 1)),
             "yellow": sorted(rng.sample([n + 0.1 for n in range(1, top + 1)], rng.randint(0, 2))),
             "red": sorted(rng.sample([n + 0.5 for n in range(1, top + 1)], rng.randint(0, 2)))}
    table, _ = random_game(rng, players=rng.randint(3, 5), wires=wires, turns=rng.randint(2, 12))
    return table


def full(rng: random.Random) -> dict[str, Any]:
    options: dict[str, Any] = {"players": rng.randint(2, 4), "turns": rng.randint(0, 5),
                               "special": rng.choice([None, "mixed", *SPECIALS]),
                               "token_mode": rng.choice(TOKEN_MODES), "explode": rng.choice([0, 0, 0.3])}
    if rng.random() < 0.25:
        options["nano"] = rng.randint(1, 2)
    if rng.random() < 0.2:
        options["counts_as_red"] = True
    table, _ = random_full_game(rng, **options)
    return table


def mission_table(rng: random.Random, mission: int, players: int) -> dict[str, Any] | None:
    """A snapshot of a random-policy game of the preset, from one player's view or the public one."""
    try:
        game = new_game(random.Random(rng.getrandbits(32)), mission=mission, players=players)
    except SimError:
        return None
    policy = POLICIES[rng.choice(["random", "greedy"])](random.Random(rng.getrandbits(32)))
    for p in game.setup_token_players():
        game.place_token(policy.setup_token(View(game.table(p), p)))
    public = players <= 3 and rng.random() < 0.4
    viewer = None if public else rng.randrange(players)
    turns = rng.randint(0, 25)
    snapshot = game.table(viewer)
    for _ in range(turns):
        if game.over:
            break
        snapshot = game.table(viewer)
        game.play(policy.move(View(game.table(game.turn), game.turn)))
    if not game.over:
        snapshot = game.table(viewer)
    return snapshot


HAND = {"players": [{"stands": [4]}, {"stands": [4]}, {"stands": [4]}], "wires": {"blue": [1, 2, 3]},
        "me": {"player": 0, "stands": [[1, 2, 3, 3]]}}
REFUSALS: dict[str, dict[str, Any]] = {
    "refusal-mode": {"mode": "nope"},
    "refusal-probabilities": {"mode": "entropy", "probabilities": "nope"},
    "refusal-equipment": {"policy": {"equipment": ["double_detector", "laser"]}},
    "refusal-top": {"top": -1},
    "refusal-red-cap": {"policy": {"red_cap": 1.5}},
    "refusal-red-cap-bool": {"policy": {"red_cap": True}},
    "refusal-per-kind": {"policy": {"per_kind": -1}},
    "refusal-budget": {"policy": {"equipment_budget": -2}},
    "refusal-player": {"player": 3},
    "refusal-engine": {"engine": "oracle"},
}


def handmade() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    cases = [(name, HAND, request) for name, request in REFUSALS.items()]
    public = {k: v for k, v in HAND.items() if k != "me"}
    cases.append(("refusal-no-player", public, {}))
    exploded = {**HAND, "events": [{"type": "dual_cut", "actor": 0, "target": {"player": 1, "stand": 0, "slot": 0},
                                    "value": 2, "success": False, "exploded": True}]}
    cases.append(("refusal-exploded", exploded, {}))
    impossible = {**HAND, "events": [{"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 0}, "value": 3},
                                     {"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 3}, "value": 1}]}
    cases.append(("impossible", impossible, {}))
    wide = {"players": [{"stands": [5]}] * 4, "wires": {"blue": [1, 2, 3, 4, 5]},
            "me": {"player": 0, "stands": [[1, 2, 3, 4, 5]]}}
    cases.append(("budget-entropy-refused", wide, {"mode": "entropy", "state_budget": 250}))
    cases.append(("budget-entropy-shared", wide, {"mode": "entropy", "state_budget": 10_000, "top": 10}))
    cases.append(("budget-exact-fits", wide, {"state_budget": 1000, "top": 10}))
    cases.append(("hand-entropy-brute-executor", HAND, {"mode": "entropy", "engine": "brute", "executor": True}))
    cases.append(("hand-everything", HAND, {"policy": {"equipment": list(EQUIPMENT), "red_cap": 1.0,
                                                       "per_kind": 100, "equipment_budget": None}}))
    return cases


def refresh(path: str) -> None:
    """Answer the stored records again on this code; print the names of those that changed."""
    with gzip.open(RECORDED, "rt", encoding="utf-8") as f:
        records = [json.loads(line) for line in f]
    changed = []
    for record in records:
        output = answer(record["table"], record["request"])
        if output != record["output"]:
            changed.append(record["name"])
            record["output"] = output
    with gzip.open(path, "wt", encoding="utf-8") as f:
        for record in records:
            f.write(json.dumps(record) + "\n")
    print(f"{len(records)} records, {len(changed)} changed: {', '.join(changed)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(RECORDED))
    ap.add_argument("--refresh", action="store_true", help="the stored tables and requests, answered again")
    args = ap.parse_args()
    if args.refresh:
        refresh(args.out)
        return
    rng = random.Random(20)
    cases: list[tuple[str, dict[str, Any], dict[str, Any]]] = handmade()
    for n in range(60):
        cases.append((f"basic-{n}", basic(rng), {}))
    for n in range(30):
        cases.append((f"mid-{n}", mid(rng), {}))
    for n in range(65):
        cases.append((f"full-{n}", full(rng), {}))
    n = 0
    while n < 50:
        mission, players = rng.choice(MISSIONS), rng.randint(2, 5)
        table = mission_table(rng, mission, players)
        if table is not None:
            cases.append((f"mission-{mission}-{players}p-{n}", table, {}))
            n += 1
    seconds: dict[str, float] = {}
    with gzip.open(args.out, "wt", encoding="utf-8") as f:
        for name, table, request in cases:
            family = name.split("-")[0]
            if not request and family in ("basic", "mid", "full", "mission"):
                request = request_for(rng, table)
            t0 = time.process_time()
            output = answer(table, request)
            seconds[family] = seconds.get(family, 0.0) + time.process_time() - t0
            f.write(json.dumps({"name": name, "table": table, "request": request, "output": output}) + "\n")
    print(f"{len(cases)} records; CPU seconds: " + ", ".join(f"{k} {v:.1f}" for k, v in seconds.items())
          + f"; total {sum(seconds.values()):.1f}")


if __name__ == "__main__":
    main()
