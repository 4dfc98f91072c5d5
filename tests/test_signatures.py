"""The "signatures" engine: parity with brute/columns/oracle, cache, parallel path, budget.

* Fact level: on ``random_problem`` (test_engines) worlds and every exact
  marginal equal brute force and "columns".
* Table level: on random legal games (gamegen) with pools, two-stand players
  and uneven stands, the engine equals the independent oracle; on full-size
  games (53 wires) it equals "columns".
* The signature cache is reused across analyses; a process pool and the
  JSON worker tasks give identical results; past its budget the engine stops
  with :class:`EngineLimit` (and the CLI prints it as an error, exit 2).
"""
from __future__ import annotations

import json
import random

import pytest

from bombbuster_core import bridge, cli
from bombbuster_core.analysis import beliefs
from bombbuster_core.beliefs import Inconsistent
from bombbuster_core.engines import brute, columns, signatures
from bombbuster_core.engines.signatures import BlockSpec, Budget, EngineLimit, SignatureCache
from bombbuster_core.executor import ProcessExecutor, SerialExecutor, process_pool_available, run_json_task
from bombbuster_core.beliefs import Unsupported
from bombbuster_core.facts import CountIn, Order, Problem, SameValue, SameValueCount, Stand, compile_table
from bombbuster_core.table import load_table
from bombbuster_core.wires import key_str
from gamegen import random_game
from oracle import enumerate_table
from test_engines import exact_table, random_problem

CHUNK = 150


def fresh(problem: Problem, **kw) -> tuple[int, dict]:
    """Exact result of the engine with an empty cache (so phase 1 really runs)."""
    return exact_table(problem, lambda p: signatures.analyze(p, cache=SignatureCache(), **kw))


@pytest.mark.parametrize("chunk", range(20))
def test_equals_brute_and_columns_on_random_problems(chunk: int) -> None:
    for seed in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        problem, _ = random_problem(random.Random(seed))
        expected = exact_table(problem, brute.analyze)
        assert exact_table(problem, signatures.analyze) == expected, seed
        assert exact_table(problem, columns.analyze) == expected, seed


GAME_OPTIONS = [
    {},  # 2-5 players, standard layouts (two-stand players with 2 or 3 players)
    {"sizes": "random"},  # uneven stands
    {"players": 2, "sizes": "random", "setup_tokens": True},
    {"players": 3, "me": False},
]


def oracle_exact(table: dict) -> tuple[int, dict]:
    ref = enumerate_table(table)
    if not ref["consistent"]:
        return 0, {}
    return ref["worlds"], {(r["player"], r["stand"], r["slot"]): r["p"] for r in ref["exact"]}


def engine_exact(table: dict) -> tuple[int, dict]:
    t = load_table(table)
    try:
        b = beliefs(t, "signatures")
    except Inconsistent:
        return 0, {}
    out, sid = {}, 0
    for p, player in enumerate(t.players):
        for s, n in enumerate(player.stands):
            for j in range(n):
                out[(p, s, j)] = {key_str(k): f for k, f in b.exact((sid, j)).items()}
            sid += 1
    return b.worlds, out


@pytest.mark.parametrize("chunk", range(8))
def test_equals_oracle_on_random_games(chunk: int) -> None:
    pools = 0
    for seed in range(chunk * 50, (chunk + 1) * 50):
        rng = random.Random(seed)
        table, _ = random_game(rng, **GAME_OPTIONS[seed % len(GAME_OPTIONS)])
        pools += bool(table["wires"].get("uncertain"))
        worlds, marginals = engine_exact(table)
        assert worlds > 0, seed  # a game played from a true deal is consistent
        assert (worlds, marginals) == oracle_exact(table), seed
    assert pools  # every chunk covers set-aside pools


REAL_WIRES = {"blue": list(range(1, 13)), "yellow": [3.1, 7.1], "red": [5.5],
              "uncertain": [{"candidates": [2.5, 8.5, 10.5], "count": 2}]}


@pytest.mark.parametrize("seed", range(12))
def test_equals_columns_on_full_size_games(seed: int) -> None:
    # 53 wires, 4-5 players, past the first turns: too big for brute force, so the two exact
    # engines check each other (exact worlds and every marginal).
    rng = random.Random(seed)
    table, _ = random_game(rng, players=rng.choice([4, 5]), wires=REAL_WIRES, me=0 if rng.random() < 0.5 else False,
                           setup_tokens=True, turns=rng.randint(20, 40))
    problem = compile_table(load_table(table))
    assert exact_table(problem, signatures.analyze) == exact_table(problem, columns.analyze)


def test_inconsistent_problem() -> None:
    p = Problem({10: 2, 20: 2}, (Stand(0, 0, 2), Stand(1, 0, 2)),
                {(0, 0): frozenset({20}), (1, 0): frozenset({20}), (0, 1): frozenset({20})})
    with pytest.raises(Inconsistent):
        signatures.analyze(p, cache=SignatureCache())
    # Each stand alone is fine; only the deck (phase 2) rules the pair out.
    p = Problem({10: 2, 20: 2}, (Stand(0, 0, 2), Stand(1, 0, 2)),
                counts=(CountIn(frozenset({(0, 0), (0, 1)}), frozenset({10}), 2, 2),
                        CountIn(frozenset({(1, 0), (1, 1)}), frozenset({10}), 1, 2)))
    with pytest.raises(Inconsistent):
        signatures.analyze(p, cache=SignatureCache())


def test_fact_about_no_slot() -> None:
    p = Problem({10: 2, 20: 2}, (Stand(0, 0, 2), Stand(1, 0, 2)))
    with pytest.raises(Inconsistent):
        signatures.analyze(p.with_count(CountIn(frozenset(), frozenset({10}), 1, 1)), cache=SignatureCache())
    assert signatures.analyze(p.with_count(CountIn(frozenset(), frozenset({10}), 0, 1))).worlds == 6


def four_stands() -> Problem:
    return Problem({10: 3, 20: 3, 30: 3, 40: 3}, tuple(Stand(p, 0, n) for p, n in enumerate((1, 2, 4, 5))))


def test_cache_reuses_the_untouched_stands() -> None:
    cache = SignatureCache()
    problem = four_stands()
    first = signatures.analyze(problem, cache=cache)
    assert (cache.misses, cache.hits) == (4, 0)
    # An info token on stand 2 changes only that stand's block spec.
    after = problem.restrict((2, 1), frozenset({20}))
    b = signatures.analyze(after, cache=cache)
    assert (cache.misses, cache.hits) == (5, 3)
    assert exact_table(after, lambda p: b) == exact_table(after, brute.analyze)
    assert first.worlds > b.worlds
    # A count fact linking stands 0 and 1 makes them one new block; stands 2, 3 are still cached.
    linked = after.with_count(CountIn(frozenset({(0, 0), (1, 0)}), frozenset({10}), 1, 2))
    signatures.analyze(linked, cache=cache)
    assert (cache.misses, cache.hits) == (6, 5)


def test_cache_is_bounded_lru() -> None:
    cache = SignatureCache(max_signatures=5)
    a, b, c = (BlockSpec((), (n,), ((None,) * n,), ()) for n in (1, 2, 3))
    cache.put(a, [((0,), 1)] * 2)
    cache.put(b, [((0,), 1)] * 2)
    assert cache.get(a) is not None  # a is now the most recently used
    cache.put(c, [((0,), 1)] * 2)  # 6 > 5 signatures held: evict b
    assert cache.get(b) is None and cache.get(a) is not None and cache.get(c) is not None


@pytest.mark.skipif(not process_pool_available(), reason="no process pool here")
def test_process_pool_gives_identical_results() -> None:
    with ProcessExecutor(2) as pool:
        for seed in range(40):
            problem, _ = random_problem(random.Random(seed))
            assert fresh(problem, executor=pool) == fresh(problem, executor=SerialExecutor()), seed


def test_no_process_pool_in_pyodide(monkeypatch) -> None:
    monkeypatch.setattr("sys.platform", "emscripten")
    assert not process_pool_available()
    with pytest.raises(RuntimeError, match="SerialExecutor"):
        ProcessExecutor()


def test_browser_worker_tasks_fill_the_cache() -> None:
    cache = SignatureCache()
    problem = four_stands().restrict((2, 1), frozenset({20}))
    tasks = signatures.phase1_tasks(problem, cache=cache)
    assert len(tasks) == 4  # one per distinct block spec
    for task in tasks:  # as a Web Worker would: JSON string in, JSON string out
        signatures.accept_phase1(task, run_json_task(task), cache=cache)
    b = signatures.analyze(problem, cache=cache)
    assert cache.misses == 0
    assert exact_table(problem, lambda p: b) == exact_table(problem, brute.analyze)
    assert "error" in json.loads(run_json_task('{"task": "nope", "params": {}}'))


def test_budget_stops_with_a_clear_error() -> None:
    problem = four_stands()
    # Stand 1 (two slots) has 10 signatures: counted exactly without generating them.
    with pytest.raises(EngineLimit, match=r"\(10 signatures on player 1's stand 0\); use --engine columns") as refused:
        signatures.analyze(problem, cache=SignatureCache(), budget=Budget(max_signatures=5))
    assert refused.value.json() == {"code": "signatures_count", "fields": {"signatures": 10, "limit": 5}}
    # With a count fact the count is not known in advance: generation stops past the budget.
    # (Stands 0-3 have 4, 10, 31 and 40 signatures.)
    counted = problem.with_count(CountIn(frozenset({(3, 0)}), frozenset({10, 20, 30, 40}), 0, 1))
    with pytest.raises(EngineLimit, match=r"\(more than 35 signatures on player 3's stand 0\)") as refused:
        signatures.analyze(counted, cache=SignatureCache(), budget=Budget(max_signatures=35))
    assert refused.value.json() == {"code": "signatures_count", "fields": {"signatures": None, "limit": 35}}
    with pytest.raises(EngineLimit, match="partial decks") as refused:
        signatures.analyze(problem, cache=SignatureCache(), budget=Budget(max_states=10))
    assert refused.value.json() == {"code": "signatures_decks", "fields": {"limit": 10}}
    with pytest.raises(EngineLimit, match="steps") as refused:
        signatures.analyze(problem, cache=SignatureCache(), budget=Budget(max_steps=100))
    assert refused.value.json() == {"code": "signatures_steps", "fields": {"limit": 100}}
    # Every deal of 12 distinguishable tiles into stands of 1, 2, 4, 5: 12! / (1! 2! 4! 5!).
    assert signatures.analyze(problem, cache=SignatureCache()).worlds == 83160


def test_cli_prints_the_budget_error(tmp_path, capsys, monkeypatch) -> None:
    table = {"players": [{"name": f"P{p}", "stands": [4]} for p in range(3)],
             "wires": {"blue": [1, 2, 3]}, "events": []}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(table))
    monkeypatch.setattr(signatures, "DEFAULT_BUDGET", signatures.DEFAULT_BUDGET)  # restored after the test
    monkeypatch.setattr(signatures, "CACHE", SignatureCache())
    signatures.configure(budget=Budget(max_signatures=3))
    assert cli.main(["analyze", str(path), "--engine", "signatures"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out == {"error": "too large for the signatures engine (15 signatures on "
                            "player 0's stand 0); use --engine columns"}
    reply = json.loads(bridge.handle(json.dumps({"id": 7, "method": "analyze",
                                                 "params": {"table": table, "engine": "signatures"}})))
    # the bridge's reply carries the limit's code and fields, which the page words (limit.CODE)
    assert reply == {"id": 7, "error": {"message": out["error"], "code": "signatures_count",
                                        "fields": {"signatures": 15, "limit": 3}}}
    signatures.configure(budget=Budget())
    assert cli.main(["analyze", str(path), "--engine", "signatures"]) == 0
    assert json.loads(capsys.readouterr().out)["worlds"] == 34650  # 12! / (4!)^3


@pytest.mark.parametrize("fact, named", [
    ({"orders": (Order((0, 1), (1, 0)),)}, "order relations"),
    ({"values": (SameValue((0, 0), (1, 0), True),)}, "SameValue"),
    ({"values": (SameValueCount((0, 0), frozenset({(0, 0), (1, 0)}), 1),)}, "SameValueCount"),
])
def test_refuses_order_and_value_facts(fact: dict, named: str) -> None:
    """Signatures cannot see relations between slots: it refuses (Unsupported, an EngineLimit), never guesses."""
    problem = Problem({10: 2, 20: 1}, (Stand(0, 0, 2), Stand(1, 0, 1))).replace(**fact)
    for run in (lambda: signatures.analyze(problem, cache=SignatureCache()),
                lambda: signatures.phase1_tasks(problem, cache=SignatureCache())):
        with pytest.raises(Unsupported, match=named) as info:
            run()
        assert isinstance(info.value, EngineLimit) and "--engine columns" in str(info.value)
        assert info.value.code == ("signatures_orders" if "orders" in fact else "signatures_values")
        assert info.value.fields == ({} if "orders" in fact else {"kinds": [named]})
    signatures.analyze(problem.replace(orders=(), values=()), cache=SignatureCache())  # the same problem without them
