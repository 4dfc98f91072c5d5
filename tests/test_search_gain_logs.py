"""bench/search_gain.py --greedy-log: a log's search (or greedy) paired with another log's greedy on the same deals.

Issue 34 item 4 re-measures against greedy 3 the search games logged against
greedy 1, and greedy 3 against greedy 1, without playing the old games again:
the pairs must be the deals both logs hold, the sides named with their
versions, and logs of another cell refused.
"""
from __future__ import annotations

import json

from test_ismcts import bench_script

CELL = {"mission": 8, "players": 5, "seed": 2026, "equipment": True, "sim": 2}


def record(policy: str, game: int, result: str, version: int | None = None, **cell: object) -> dict:
    settings = {**CELL, **cell, **({"version": version} if version else {})}
    return {"policy": policy, "game": game, "result": result, "failed_cuts": 1 if result == "win" else 4,
            "turns": 30, "decisions": 35, "seconds": 3.5, "settings": settings}


def write(path, records: list[dict]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(path)


def test_a_search_log_is_paired_with_another_logs_greedy_on_the_deals_both_hold(tmp_path, capsys) -> None:
    search_gain = bench_script("search_gain")
    old = write(tmp_path / "old.log", [record("greedy", i, "win" if i else "red") for i in range(4)]
                + [record("ismcts", i, "win", version=2) for i in range(4)])
    new = write(tmp_path / "new.log", [record("greedy", i, "red" if i == 1 else "win", version=3) for i in range(3)])
    assert search_gain.main([old, "ismcts"]) == 0  # the old command: the log's own greedy
    assert "ismcts - greedy +0.250" in capsys.readouterr().out
    assert search_gain.main([old, "ismcts", "--greedy-log", new]) == 0
    out = capsys.readouterr().out
    assert "3 paired games" in out  # game 3 is only in the old log
    assert "ismcts v2 - greedy v3 +0.333" in out and "won by ismcts v2 only: 1; by greedy v3 only: 0" in out
    # two versions of greedy: the policy's games from the log, greedy's from the other
    assert search_gain.main([new, "greedy", "--greedy-log", old]) == 0
    out = capsys.readouterr().out
    assert "greedy v3 - greedy v1 +0.000" in out and "won by greedy v3 only: 1; by greedy v1 only: 1" in out
    assert "greedy's very game: 1 of 3" in out


def test_a_greedy_log_of_another_cell_is_refused(tmp_path, capsys) -> None:
    search_gain = bench_script("search_gain")
    search = write(tmp_path / "s.log", [record("ismcts", i, "win", version=2) for i in range(2)])
    other = write(tmp_path / "g.log", [record("greedy", 0, "win", version=3),
                                       record("greedy", 1, "win", version=3, equipment=False)])
    assert search_gain.main([search, "ismcts", "--greedy-log", other]) == 2
    err = capsys.readouterr().err
    assert "game 1:" in err and "other equipment" in err
