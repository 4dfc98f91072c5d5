"""Greedy plays the logged games again, move for move (the speed-ups of its decisions change no game).

The 4-player difficulty logs (bench/tournaments/difficulty/mNN-p4.log, 200
version-2 greedy games a mission, with equipment) were played before greedy's
decisions were made cheaper.  A few games of several missions, replayed with
``play_game``, must give the logged records (all but ``seconds``, the decision
time) and the final public table recorded on that code
(tests/data/greedy_logged.json, made by tests/data/make_greedy_logged.py):
every event, card and choice of the game.

Those games are greedy's version 1: since issue 34 greedy (version 2) weighs
the dial and avoids a call too red with a card, and its records name its
version, so a log of version 1 is never resumed as its games.  Version 1
stays as policies.FormerGreedyPolicy, which these replays play under
greedy's name: its games must still be the logged ones.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "data"))
from make_greedy_logged import PLAYERS, SEED, replay  # noqa: E402

from bombbuster_core.sim import POLICIES  # noqa: E402
from bombbuster_core.sim.greedy import FormerGreedyPolicy, GreedyPolicy  # noqa: E402

LOGS = ROOT / "bench" / "tournaments" / "difficulty"
RECORDED = json.loads((ROOT / "tests" / "data" / "greedy_logged.json").read_text(encoding="utf-8"))
TIMINGS = ("seconds",)  # play_game's only field that is not a function of (settings, game, policy)


def logged(mission: int, index: int) -> dict[str, Any]:
    """The log's record of greedy's game ``index`` of ``mission``."""
    with open(LOGS / f"m{mission:02d}-p{PLAYERS}.log", encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            if record.get("game") == index and record.get("policy") == "greedy":
                return record
    raise LookupError(f"game {index} is not in the log of mission {mission}")


def untimed(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in TIMINGS}


@pytest.mark.parametrize("row", RECORDED, ids=lambda r: f"M{r['mission']}-game{r['game']}")
def test_logged_game_replays(row: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(POLICIES, "greedy", FormerGreedyPolicy)  # the logs' greedy: version 1
    log = logged(row["mission"], row["game"])
    assert log["settings"] == {"mission": row["mission"], "players": PLAYERS, "seed": SEED, "equipment": True,
                               "sim": 2}
    record, digest = replay(row["mission"], row["game"])
    assert untimed(record) == untimed(log)
    assert digest == row["table_sha256"]


def test_greedy_names_its_version_and_the_former_rule_does_not() -> None:
    assert GreedyPolicy.version == 3 and GreedyPolicy.stakes
    assert FormerGreedyPolicy.version == 1 and not FormerGreedyPolicy.stakes
    assert FormerGreedyPolicy.name == "greedy" and POLICIES["greedy"] is GreedyPolicy
