"""The mission difficulty table (issue 19): bench/difficulty.py reads the committed sweep logs, refuses
logs of another kind of game, and the page's web/difficulty.json and docs/difficulty.svg are what it
derives from the committed logs (regenerate them with ``python bench/difficulty.py --write``)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import difficulty  # noqa: E402

from bombbuster_core.sim.greedy import GreedyPolicy  # noqa: E402
from bombbuster_core.sim.tournament import SIM_VERSION  # noqa: E402


def record(game: int, result: str, failed_cuts: int = 0, **settings) -> str:
    base = {"mission": 34, "players": 4, "seed": 2026, "equipment": True, "sim": SIM_VERSION,
            "version": GreedyPolicy.version}
    return json.dumps({"policy": "greedy", "game": game, "result": result, "failed_cuts": failed_cuts, "turns": 9,
                       "decisions": 9, "seconds": 0.1, "settings": {**base, **settings}})


def write(tmp_path: Path, name: str, lines: list[str]) -> str:
    (tmp_path / name).write_text("\n".join(lines) + "\n")
    return str(tmp_path)


def test_the_committed_page_data_and_chart_are_derived_from_the_committed_logs():
    measured = difficulty.cells(str(ROOT / "bench" / "tournaments" / "difficulty-greedy3"))
    refusals = difficulty.refused()
    assert measured and min(c["games"] for c in measured) >= 200
    assert (ROOT / "web" / "difficulty.json").read_text() == difficulty.page_json(measured, refusals)
    assert (ROOT / "docs" / "difficulty.svg").read_text() == difficulty.svg(measured, refusals)


def test_a_cell_counts_wins_with_wilson_interval_and_the_table_marks_what_is_not_measured(tmp_path):
    log_dir = write(tmp_path, "m34-p4.log", [record(0, "win"), record(1, "red"), record(2, "win"),
                                              record(3, "detonator")])
    [cell] = difficulty.cells(log_dir)
    assert (cell["mission"], cell["players"], cell["games"], cell["wins"]) == (34, 4, 4, 2)
    assert cell["losses"] == {"red": 1, "detonator": 1, "explosion": 0, "stuck": 0}
    assert cell["ci95"] == pytest.approx([0.15004, 0.84996], abs=1e-5)  # Wilson, z = 1.96, 2 of 4
    table = difficulty.markdown([cell], {54: "no audio"}).splitlines()
    assert table[0] == "| Mission | 4 players |"
    assert next(r for r in table if r.startswith("| 34 ·")).endswith("| 50 % [15–85] (4) |")
    assert next(r for r in table if r.startswith("| 54 ·")).endswith("| refused |")
    assert next(r for r in table if r.startswith("| 1 ·")).endswith("| — |")
    two = difficulty.markdown([cell, {**cell, "mission": 1, "players": 2}], {}).splitlines()
    assert two[0] == "| Mission | 2 players | 4 players |"
    assert next(r for r in two if r.startswith("| 34 ·")).endswith("| n/a | 50 % [15–85] (4) |")  # M34: 3-5 players


@pytest.mark.parametrize("other", [{"sim": 1}, {"equipment": False}, {"seed": 7}, {"players": 5},
                                   {"version": GreedyPolicy.version - 1}])
def test_a_log_of_another_kind_of_game_is_refused(tmp_path, other):
    mixed = [record(0, "win"), record(1, "win", **other)]
    with pytest.raises(difficulty.DifficultyError):
        difficulty.cells(write(tmp_path, "m34-p4.log", mixed))
    if other != {"seed": 7}:  # a whole log of another seed is a measurement too; of another game it is not
        with pytest.raises(difficulty.DifficultyError):
            difficulty.cells(write(tmp_path, "m34-p4.log", [record(0, "win", **other)]))


def test_the_missions_the_simulator_refuses_are_named_with_its_reason():
    refusals = difficulty.refused()
    assert list(refusals) == [54] and "audio" in refusals[54]


def test_a_hard_cell_says_how_its_games_were_lost(tmp_path):
    """A cell won under 10 %: its losses by kind, and the detonator losses with fewer failed cuts
    than players (the dial moved by something else: skips, costs, Nano)."""
    lines = [record(g, "detonator", failed_cuts=g % 5) for g in range(10)] + [record(10, "stuck"), record(11, "red")]
    [cell] = difficulty.cells(write(tmp_path, "m34-p4.log", lines))
    assert cell["detonator_few_failures"] == 8  # failed cuts 0-3 of 0-4, at 4 players
    assert difficulty.hard_cells([cell]) == ("M34 4p: 0/12 won; lost: red 1, detonator 10, stuck 1; "
                                             "detonator with fewer failed cuts than players: 8")
    won = [record(g, "win") for g in range(12)]
    assert difficulty.hard_cells(difficulty.cells(write(tmp_path, "m34-p4.log", won))) == ""


def test_a_result_the_table_does_not_know_is_refused(tmp_path):
    with pytest.raises(difficulty.DifficultyError, match="a result other than"):
        difficulty.cells(write(tmp_path, "m34-p4.log", [record(0, "win"), record(1, "abandoned")]))
