"""Win-rate tournament: the same deals played by several policies, with confidence intervals.

Game ``i`` of a tournament with seed ``S`` is dealt from ``Random(f"{S}-{i}")``
for every policy (a paired comparison: each policy meets the same deals);
the policy's own random choices come from ``Random(f"{S}-{i}-{policy}")``.
A game's numbers therefore depend on (seed, i, policy) only, so any number
of worker processes gives the same tables (decision times aside).

Per policy: wins, the win rate with its 95% Wilson score interval, mean
failed cuts (detonator advances), losses by cause (a red cut, the
detonator), and mean seconds per decision.  Per pair of policies: the mean
paired difference of the win indicators over the same deals, with a 95%
normal interval from the paired differences' standard deviation.
"""
from __future__ import annotations

import json
import math
import os
import random
import sys
import time
from itertools import combinations

from .game import new_game
from .policies import POLICIES, View

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

Z95 = 1.959963984540054


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (0, 1 when n = 0)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def paired_difference(a: list[int], b: list[int], z: float = Z95) -> tuple[float, float, float]:
    """Mean of a_i - b_i and its normal interval (sample standard deviation of the differences)."""
    n = len(a)
    d = [x - y for x, y in zip(a, b)]
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else 0.0
    half = z * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def play_game(task: tuple[int, int, int, str, int, str | None, dict[str, Any]]) -> dict[str, Any]:
    """One game of one policy: (mission, players, seed, policy, index, save dir, the policy's options)
    -> its record."""
    mission, players, seed, name, index, save, options = task
    game = new_game(random.Random(f"{seed}-{index}"), mission=mission, players=players)
    policy = POLICIES[name](random.Random(f"{seed}-{index}-{name}"), **options)
    spent, decisions = 0.0, 0
    for p in game.setup_token_players():
        t0 = time.perf_counter()
        slot = policy.setup_token(View(game.table(p), p))
        spent, decisions = spent + time.perf_counter() - t0, decisions + 1
        game.place_token(slot)
    while not game.over:
        t0 = time.perf_counter()
        action = policy.move(View(game.table(game.turn), game.turn))
        spent, decisions = spent + time.perf_counter() - t0, decisions + 1
        game.play(action)
    record = {"policy": name, "game": index, "result": game.result, "failed_cuts": game.strikes,
              "turns": game.turns, "decisions": decisions, "seconds": spent,
              "settings": _settings(mission, players, seed, options)}
    if save:
        stem = os.path.join(save, f"{name}-{index:05d}")
        table = game.table()
        table["meta"] = {**table.get("meta", {}), "simulated": {**record, "seed": seed}}
        with open(stem + ".json", "w", encoding="utf-8") as f:
            json.dump(table, f)
        with open(stem + ".deal.json", "w", encoding="utf-8") as f:
            json.dump({**game.deal_json(), "result": game.result}, f)
    return record


def _settings(mission: int, players: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """What a game's record depends on besides its index and policy: a resumed log must match it."""
    return {"mission": mission, "players": players, "seed": seed, **({"budget": options} if options else {})}


class LogError(ValueError):
    """A log being resumed is not a log of this run (other settings, or not a log at all)."""


class OutputError(ValueError):
    """A ``save`` directory or ``log`` file that cannot be written (the message names the CLI option)."""


def run(mission: int, players: int, games: int, policies: list[str], seed: int = 0, jobs: int = 1,
        save: str | None = None, progress: Callable[[int, int], None] | None = None,
        lookahead: dict[str, Any] | None = None, log: str | None = None,
        resume: bool = False) -> list[dict[str, Any]]:
    """Every (policy, game) record, sorted by policy order then game index.  ``lookahead``: the
    lookahead policy's budget (``deals``, ``depth``, ``width``; default: policies.py's).  ``log``: a
    file that gets each record as a JSON line when its game ends, so a long run stopped early
    still has its finished games (:func:`read_log`).  ``resume``: the games ``log`` already holds
    are taken from it, not played again (their settings must be this run's: :class:`LogError`)."""
    unknown = [p for p in policies if p not in POLICIES]
    if unknown:
        raise ValueError(f"unknown policy {unknown[0]!r} (choose from {', '.join(POLICIES)})")
    if save:
        try:
            os.makedirs(save, exist_ok=True)
        except OSError as e:
            raise OutputError(f"--save {save}: cannot create this directory ({e.strerror})") from None
    options = {name: dict(lookahead or {}) if name == "lookahead" else {} for name in policies}
    logged = _logged(log, policies, games, {name: _settings(mission, players, seed, options[name])
                                            for name in policies}) if resume and log else {}
    tasks = [(mission, players, seed, name, i, save, options[name]) for i in range(games) for name in policies
             if (name, i) not in logged]
    records: list[dict[str, Any]] = list(logged.values())
    total = len(tasks) + len(logged)
    try:
        out = open(log, "a", encoding="utf-8") if log else None
    except OSError as e:
        raise OutputError(f"--log {log}: cannot append to this file ({e.strerror})") from None

    def done(record: dict[str, Any]) -> None:
        records.append(record)
        if out:
            out.write(json.dumps(record) + "\n")
            out.flush()
        if progress:
            progress(len(records), total)

    if progress:
        progress(len(records), total)
    try:
        _play(tasks, jobs, done)
    finally:
        if out:
            out.close()
    order = {name: i for i, name in enumerate(policies)}
    return sorted(records, key=lambda r: (order[r["policy"]], r["game"]))


def _play(tasks: list[tuple[Any, ...]], jobs: int, done: Callable[[dict[str, Any]], None]) -> None:
    if jobs <= 1:
        for task in tasks:
            done(play_game(task))
    else:
        import multiprocessing  # not in Pyodide: jobs 1 there

        from ..children import bind_to_parent

        # Fork on Linux: the workers of a fork server (Python 3.14's default there) are not this
        # process's children, which bind_to_parent refuses (and the pool would start them forever).
        context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
        pool = context.Pool(jobs, initializer=bind_to_parent, initargs=(os.getpid(),))
        try:
            for record in pool.imap_unordered(play_game, tasks):
                done(record)
        finally:
            # Also on Ctrl-C or a failed game: end the workers now.  A pool that is closed
            # instead (concurrent.futures' shutdown) plays every queued game first.
            pool.terminate()


def _read_records(path: str) -> list[dict[str, Any]]:
    """Every record of a :func:`run` log; :class:`LogError` when the file is not one."""
    try:
        with open(path, encoding="utf-8") as f:
            records = [json.loads(line) for line in f if line.strip()]
        if not all(isinstance(r, dict) and isinstance(r.get("policy"), str) and isinstance(r.get("game"), int)
                   for r in records):
            raise ValueError("a line is not a game record")
    except (OSError, ValueError) as e:
        raise LogError(f"{path}: not a tournament log ({e})") from None
    return records


def _logged(path: str, policies: list[str], games: int,
            settings: dict[str, dict[str, Any]]) -> dict[tuple[str, int], dict[str, Any]]:
    """The records a log being resumed already holds for this run's policies and first ``games`` games."""
    if not os.path.exists(path):
        return {}
    kept = {}
    for r in _read_records(path):
        if r["policy"] not in policies or r["game"] >= games:
            continue
        if r.get("settings") != settings[r["policy"]]:
            raise LogError(f"{path}: game {r['game']} of {r['policy']} was played with "
                           f"{r.get('settings')}, not {settings[r['policy']]}")
        kept[r["policy"], r["game"]] = r
    return kept


def read_log(path: str, policies: list[str]) -> list[dict[str, Any]]:
    """The records of a :func:`run` log for the games every one of ``policies`` finished (a paired
    comparison needs both sides of a game), sorted as :func:`run` sorts them."""
    by = {(r["policy"], r["game"]): r for r in _read_records(path) if r["policy"] in policies}
    games = sorted({g for _, g in by if all((name, g) in by for name in policies)})
    return [by[name, g] for name in policies for g in games]


def summary(records: list[dict[str, Any]], policies: list[str]) -> dict[str, Any]:
    """Per-policy figures and paired differences (module docstring)."""
    by: dict[str, list[dict[str, Any]]] = {name: [r for r in records if r["policy"] == name] for name in policies}
    rows = []
    for name, rs in by.items():
        n, wins = len(rs), sum(r["result"] == "win" for r in rs)
        lo, hi = wilson(wins, n)
        decisions = sum(r["decisions"] for r in rs)
        rows.append({"policy": name, "games": n, "wins": wins, "win_rate": wins / n if n else 0.0,
                     "ci95": [lo, hi], "mean_failed_cuts": sum(r["failed_cuts"] for r in rs) / n if n else 0.0,
                     "losses": {"red": sum(r["result"] == "red" for r in rs),
                                "detonator": sum(r["result"] == "detonator" for r in rs)},
                     "seconds_per_decision": sum(r["seconds"] for r in rs) / decisions if decisions else 0.0})
    pairs = []
    for a, b in combinations(policies, 2):
        wa = [int(r["result"] == "win") for r in by[a]]
        wb = [int(r["result"] == "win") for r in by[b]]
        if wa:
            mean, lo, hi = paired_difference(wa, wb)
            pairs.append({"a": a, "b": b, "difference": mean, "ci95": [lo, hi]})
    return {"policies": rows, "pairs": pairs}


def text(result: dict[str, Any]) -> str:
    """The summary as a plain table."""
    lines = [f"{'policy':14} {'games':>6} {'wins':>5} {'win rate':>8} {'95% CI':>15} {'failed':>7} "
             f"{'red':>4} {'deton.':>6} {'s/decision':>10}"]
    for r in result["policies"]:
        lo, hi = r["ci95"]
        lines.append(f"{r['policy']:14} {r['games']:6d} {r['wins']:5d} {r['win_rate']:8.3f} "
                     f"{f'[{lo:.3f}, {hi:.3f}]':>15} {r['mean_failed_cuts']:7.2f} {r['losses']['red']:4d} "
                     f"{r['losses']['detonator']:6d} {r['seconds_per_decision']:10.4f}")
    if result["pairs"]:
        lines.append("")
        lines.append("paired difference of win rates (a - b), same deals, 95% interval:")
        for p in result["pairs"]:
            lo, hi = p["ci95"]
            lines.append(f"  {p['a']:>14} - {p['b']:<14} {p['difference']:+.3f}  [{lo:+.3f}, {hi:+.3f}]")
    return "\n".join(lines)


def progress_bar(done: int, total: int) -> None:
    """A one-line progress bar on stderr."""
    width = 30
    filled = width * done // total if total else width
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()
