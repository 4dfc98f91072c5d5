"""The game's public state (public_state.py): the simulator is the oracle, the page's copy must agree.

Games of every mission (1-66, but the simulator's refused M54) and every player count it allows
are played by the simulator with the mission's equipment, as the sweep plays them: a random
game (most end on the dial or a red wire) and a "lucky" one (a sure cut three turns in four,
a random move otherwise: long games with failures, rewinds and wins).  After every action the
core's reading of the table file's events must be the simulator's own state: its dial where the
core reads one, its result (or the core says the mission may end unrecorded), its player to move
where the core reads the turn.  The page's copy (web/js/gamestate.js, run by Node:
tests/page_state.mjs) must give the core's state after every event, lost games included.
"""
from __future__ import annotations

import json
import random
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bombbuster_core.analysis import analyze
from bombbuster_core.board import Board
from bombbuster_core.public_state import Dial, dial
from bombbuster_core.missions import MISSIONS, mission as mission_preset, new_table
from bombbuster_core.public_state import StateReader, public_state
from bombbuster_core.sim.actions import UseCard
from bombbuster_core.sim.deal import REFUSED, new_game
from bombbuster_core.sim.random_policy import RandomPolicy
from bombbuster_core.sim.view import View
from bombbuster_core.sim.sighted import sure_cuts
from bombbuster_core.suggest import SuggestError, suggest
from bombbuster_core.table import TableError, load_table
from bombbuster_core.table_model import advance

ROOT = Path(__file__).resolve().parents[1]
SIM_RESULT = {None: (None, None), "stuck": (None, None), "win": ("won", None), "red": ("lost", "red"),
              "detonator": ("lost", "dial"), "explosion": ("lost", "mission")}


def lucky_move(game: Any, rng: random.Random, wild: RandomPolicy) -> Any:
    pending = game.queue[0] if game.queue else None
    if pending is not None and pending["kind"] == "turn":
        uses = {u["card"] for u in game.card_uses(game.turn, pending)}
        if "6" in uses and rng.random() < 0.5:
            return UseCard("6")  # the Rewinder
        sure = sure_cuts(game, pending)
        if sure and rng.random() < 0.75:
            return rng.choice(sure)
    return wild.move(View(game.table(game.turn), game.turn))


def sim_point(game: Any) -> tuple[int, tuple[int, int] | None, tuple[str | None, str | None], int | None]:
    """The simulator's own state now: events so far, dial (start, moved), result, player to move."""
    turn = game.turn if not game.over and game.queue and game.queue[0]["kind"] == "turn" else None
    return (len(game.events), None if game.mission == 53 else (game.dial_start, game.dial_start - game.dial),
            SIM_RESULT[game.result], turn)


def play(mission: int, players: int, seed: int, kind: str) -> dict[str, Any]:
    rng = random.Random(f"{mission}-{players}-{seed}-{kind}")
    game = new_game(rng, mission=mission, players=players, equipment=True)
    wild = RandomPolicy(random.Random(rng.random()))
    for p in game.setup_token_players():
        game.place_token(wild.setup_token(View(game.table(p), p)))
    points = [sim_point(game)]
    while not game.over:
        game.play(lucky_move(game, rng, wild) if kind == "lucky" else wild.move(View(game.table(game.turn), game.turn)))
        points.append(sim_point(game))
    raw = game.table()
    table = {**raw, "meta": {k: v for k, v in raw["meta"].items() if k != "sim"}}  # a page's table: no meta.sim
    return {"mission": mission, "players": players, "kind": kind, "result": game.result, "table": table,
            "points": points}


def core_states(table: dict[str, Any]) -> list[Any]:
    """The core's state after every prefix of the events (0 ... all), read in one pass."""
    parsed = load_table(table)
    board = Board(*parsed.deal())
    reader = StateReader(parsed.mission, len(parsed.players))
    reader.board = board
    out = [reader.state()]
    for i, e in enumerate(parsed.events):
        advance(board, e)
        reader.step(i, e, board)
        out.append(reader.state())
    return out


@pytest.fixture(scope="module")
def games() -> list[dict[str, Any]]:
    out = []
    for m in MISSIONS:
        if m in REFUSED:
            continue
        for players in sorted(mission_preset(m).wires):
            for kind in ("random", "lucky"):
                out.append(play(m, players, 0, kind))
    return out


def test_the_core_reads_the_simulators_state_after_every_action(games: list[dict[str, Any]]) -> None:
    seen: Counter[str] = Counter()
    for g in games:
        states = core_states(g["table"])
        where = (g["mission"], g["players"], g["kind"])
        for n, sim_dial, sim_result, sim_turn in g["points"]:
            state = states[n]
            if state.dial is not None:
                assert (state.dial.start, state.dial.moved) == sim_dial, (*where, n)
                seen["dial read"] += 1
            core_result = (state.result.outcome, state.result.cause)
            if core_result != sim_result:  # only a way to end the events do not record, or the simulator gave up
                assert core_result == (None, None) and (state.result_unread or g["result"] == "stuck"), (*where, n)
                seen["unrecorded end"] += 1
            if state.turn_unread is None and sim_turn is not None:
                assert state.turn == sim_turn, (*where, n)
                seen["turn read"] += 1
        final = states[-1].result
        seen[f"{final.outcome} {final.cause}"] += 1
        events = g["table"]["events"]
        if g["mission"] in (56, 64) and final.cause == "dial":
            seen["M56/M64 lost by the dial"] += 1
        if g["mission"] == 48 and any(e["type"] == "multi_cut" and not e["success"] for e in events):
            seen["M48 failed yellows"] += 1
        if g["mission"] in (14, 28) and final.cause == "mission":
            seen["M14/M28 own explosion"] += 1
        seen["rewinder"] += sum(1 for e in events if e["type"] == "equipment" and e["card"] == "6")
    # The games reach every case the state reads (a test that cannot fail would prove nothing).
    for case, least in {"won None": 20, "lost dial": 100, "lost red": 20, "lost mission": 5, "rewinder": 10,
                        "M56/M64 lost by the dial": 1, "M14/M28 own explosion": 1, "turn read": 500}.items():
        assert seen[case] >= least, (case, seen)


def test_the_pages_copy_is_the_cores_after_every_event(games: list[dict[str, Any]], tmp_path: Path,
                                                       missing_piece: Any) -> None:
    if not shutil.which("node"):
        missing_piece("Node is not installed: it runs the page's copy here")
    tables = [g["table"] for g in games]
    (tmp_path / "tables.json").write_text(json.dumps(tables))
    subprocess.run(["node", str(ROOT / "tests" / "page_state.mjs"), str(tmp_path / "tables.json"),
                    str(tmp_path / "states.json")], check=True, timeout=300)
    compared = 0
    for g, page in zip(games, json.loads((tmp_path / "states.json").read_text())):
        core = [s.json() for s in core_states(g["table"])]
        assert len(page) == len(core)
        for upto, (a, b) in enumerate(zip(page, core)):
            assert a == b, (g["mission"], g["players"], g["kind"], upto)
            compared += 1
    assert compared >= 3000


# ---------------------------------------------------------------- hand-made cases


def at(p: int, s: int, j: int) -> dict[str, int]:
    return {"player": p, "stand": s, "slot": j}


def lost_game(mission: int, players: int, cause: str) -> dict[str, Any]:
    """The first simulated game of this cell lost this way (random games, seeds in order)."""
    for seed in range(200):
        g = play(mission, players, seed, "random")
        if SIM_RESULT[g["result"]] == ("lost", cause):
            return g
    raise AssertionError(f"no M{mission} {players}p game lost by {cause}")


def test_m56_two_players_lost_by_the_dial_with_a_flipped_wire_cost() -> None:
    """The issue's case: cutting a teammate's flipped wire costs a space; the core and the page read
    the loss (before: the core did not follow M56's dial, the page showed the game live)."""
    g = lost_game(56, 2, "dial")
    state = public_state(load_table(g["table"]))
    assert state.result.outcome == "lost" and state.result.cause == "dial" and state.dial.spaces_left == 0
    assert state.dial.start == 2


def test_a_teammates_flipped_wire_costs_a_space_in_m56() -> None:
    table = new_table(56, 4)
    sizes = [p["stands"][0]["size"] for p in table["players"]]
    cost = {"type": "dual_cut", "actor": 0, "target": at(1, 0, sizes[1] - 1), "value": 1, "success": False,
            "token": 2}
    state = public_state(load_table({**table, "events": [cost]}))
    assert state.dial == Dial(4, 2)  # the failure and the flipped wire
    plain = {**cost, "target": at(1, 0, 0)}
    assert public_state(load_table({**table, "events": [plain]})).dial == Dial(4, 1)
    again = {**cost, "actor": 1, "target": at(2, 0, sizes[2] - 1)}
    lost = public_state(load_table({**table, "events": [cost, again]}))
    assert (lost.result.outcome, lost.result.cause, lost.result.at, lost.dial) == ("lost", "dial", 1, Dial(4, 4))
    with pytest.raises(TableError, match=r"^event 2 \(dual_cut\): the detonator dial reached the skull at event 1"):
        load_table({**table, "events": [cost, again, plain]})


def test_m48_a_failed_cut_of_the_yellows_moves_the_dial_and_a_red_among_them_explodes() -> None:
    table = new_table(48, 4)
    failed = {"type": "multi_cut", "actor": 0, "value": "yellow", "slots": [at(1, 0, 0), at(2, 0, 0), at(3, 0, 0)],
              "success": False, "tokens": [1, 1, 1]}
    assert public_state(load_table({**table, "events": [failed]})).dial == Dial(4, 1)
    boom = {k: v for k, v in failed.items() if k != "tokens"} | {"exploded": True}
    state = public_state(load_table({**table, "events": [boom]}))
    assert (state.result.outcome, state.result.cause, state.dial) == ("lost", "red", Dial(4, 0))


@pytest.mark.parametrize("mission", [14, 28])
def test_the_captains_failed_cut_explodes_in_m14_and_m28(mission: int) -> None:
    table = new_table(mission, 4)
    fail = lambda actor: {"type": "dual_cut", "actor": actor, "target": at((actor + 1) % 4, 0, 0), "value": 1,  # noqa: E731
                          "success": False, "token": None}
    teammate = public_state(load_table({**table, "events": [fail(1)]}))
    assert teammate.dial == Dial(4, 1) and teammate.result.outcome is None
    captain = public_state(load_table({**table, "events": [fail(1), fail(0)]}))
    assert (captain.result.outcome, captain.result.cause, captain.result.at) == ("lost", "mission", 1)
    assert captain.dial == Dial(4, 1) and captain.turn is None
    with pytest.raises(TableError, match=r"^event 2 \(dual_cut\): the bomb exploded at event 1"):
        load_table({**table, "events": [fail(1), fail(0), fail(2)]})


@pytest.mark.parametrize("mission", [14, 28])
def test_the_simulator_saves_the_captains_explosion_as_a_loss(mission: int) -> None:
    g = lost_game(mission, 4, "mission")
    state = public_state(load_table(g["table"]))
    assert (state.result.outcome, state.result.cause) == ("lost", "mission")
    assert state.result.at == len(g["table"]["events"]) - 1


def test_missions_the_events_do_not_spell_out_say_why() -> None:
    for m, word in ((53, "Nano"), (51, "designated"), (29, "hidden"), (44, "oxygen")):
        state = public_state(load_table(new_table(m, 4)))
        assert state.dial is None and word in state.dial_unread and state.result_unread
        assert dial(load_table(new_table(m, 4))) is None
    assert public_state(load_table(new_table(51, 4))).dial_unread.startswith("mission 51: ")
    assert public_state(load_table(new_table(41, 4))).dial == Dial(1, 0)
    assert public_state(load_table(new_table(9, 4))).result_unread.startswith("mission 9: ")
    named_none = new_table(8, 5)
    named_none["meta"] = {"title": "no mission named"}
    assert public_state(load_table(named_none)).dial == Dial(5, 0)


def test_analyze_reports_the_public_state() -> None:
    table = new_table(8, 4)
    table["events"] = [{"type": "dual_cut", "actor": 0, "target": at(1, 0, 0), "value": 1, "success": False,
                        "token": 2}]
    out = analyze(load_table(table))
    assert out["state"] == public_state(load_table(table)).json()
    assert out["state"]["dial"] == {"start": 4, "moved": 1, "spaces_left": 3, "failures_left": 2}
    assert (out["state"]["turn"], out["state"]["result"]) == (1, "going on")


def test_no_advice_after_a_loss_by_the_dial_and_never_a_negative_count() -> None:
    table = new_table(8, 2)
    fail = lambda a: {"type": "dual_cut", "actor": a, "target": at(1 - a, 0, 0), "value": 1, "success": False,  # noqa: E731
                      "token": 2}
    table["events"] = [fail(0), fail(1)]
    loaded = load_table(table)
    assert public_state(loaded).result.cause == "dial"
    assert dial(loaded).failures_left == 0  # never "-1 more failure allowed"
    with pytest.raises(SuggestError, match="^the detonator dial reached the skull at event 1: the game is over"):
        suggest(loaded, player=0)
