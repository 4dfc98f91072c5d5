"""Win-rate tournament: the same deals played by several policies, with confidence intervals.

Game ``i`` of a tournament with seed ``S`` is dealt from ``Random(f"{S}-{i}")``
for every policy (a paired comparison: each policy meets the same deals);
the policy's own random choices come from ``Random(f"{S}-{i}-{policy}")``,
except for the search policies (lookahead, ismcts: ``rng_stream``), whose
greedy choices (the ranking's tie-breaks) come from greedy's stream
``Random(f"{S}-{i}-greedy")`` and whose search from ``Random(f"{S}-{i}-{policy}-search")``:
where the search keeps greedy's move, its game stays greedy's game, so the
pairs differ only where a decision did (common random numbers).
A game's numbers therefore depend on (seed, i, policy) only, so any number
of worker processes gives the same tables (decision times aside).

Per policy: wins, the win rate with its 95% Wilson score interval, mean
failed cuts (detonator advances), losses by cause (a red cut, the
detonator), and seconds per decision (mean over decisions, and the median
game's).  Per pair of policies: the paired difference of the win rates over
the same deals, with Newcombe's 95% interval for paired proportions (his
method 10, from the two Wilson intervals and the correlation of the pairs:
it stays inside [-1, 1] and is fit for a handful of games; at 1,000 games it
is the normal interval within a few thousandths).

The games run in this process (``jobs`` 1), in a fork pool (``jobs`` > 1) or
as tasks on a Dask cluster (``cluster``: ``"local"`` starts one with ``jobs``
worker processes, an address joins a running one; :func:`sweep` plays many
missions and player counts, one log per cell).  Whichever runs them, the
records are sorted in game order, so the numbers are the same.
"""
from __future__ import annotations

import json
import math
import os
import random
import statistics
import sys
import time
from itertools import combinations

from . import POLICIES
from .deal import new_game
from .view import View

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
    """The paired difference of two win rates over the same games (win indicators ``a``, ``b``) and
    Newcombe's interval for it (Stat. Med. 1998; 17: 2635-50, method 10).

    With ``both`` games won by both, ``only_a``, ``only_b`` and ``neither``: p1 = (both + only_a) / n,
    p2 = (both + only_b) / n, (l1, u1) and (l2, u2) their Wilson intervals, and phi the correlation
    of the pairs, (both * neither - only_a * only_b) / sqrt of the product of the four margins (0
    when a margin is 0).  The interval is p1 - p2 - delta to p1 - p2 + epsilon, with
    delta^2 = (p1 - l1)^2 - 2 phi (p1 - l1)(u2 - p2) + (u2 - p2)^2 and
    epsilon^2 = (u1 - p1)^2 - 2 phi (u1 - p1)(p2 - l2) + (p2 - l2)^2: never outside [l1 - u2, u1 - l2],
    so inside [-1, 1], and asymmetric near the edges where the normal interval is wrong.
    No games: (0, -1, 1)."""
    n = len(a)
    if n == 0:
        return 0.0, -1.0, 1.0
    both = sum(1 for x, y in zip(a, b) if x and y)
    only_a = sum(1 for x, y in zip(a, b) if x and not y)
    only_b = sum(1 for x, y in zip(a, b) if y and not x)
    neither = n - both - only_a - only_b
    wins_a, wins_b = both + only_a, both + only_b
    p1, p2 = wins_a / n, wins_b / n
    l1, u1 = wilson(wins_a, n, z)
    l2, u2 = wilson(wins_b, n, z)
    margins = wins_a * (n - wins_a) * wins_b * (n - wins_b)
    phi = (both * neither - only_a * only_b) / math.sqrt(margins) if margins else 0.0
    delta = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    epsilon = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    d = p1 - p2
    return d, max(-1.0, d - delta), min(1.0, d + epsilon)


def play_game(task: tuple[int, int, int, str, int, str | None, dict[str, Any], bool]) -> dict[str, Any]:
    """One game of one policy: (mission, players, seed, policy, index, save dir, the policy's options,
    whether the mission's equipment is dealt) -> its record."""
    mission, players, seed, name, index, save, options, equipment = task
    game = new_game(random.Random(f"{seed}-{index}"), mission=mission, players=players, equipment=equipment)
    cls = POLICIES[name]
    search = {"search_rng": random.Random(f"{seed}-{index}-{name}-search")} if cls.rng_stream else {}
    policy = cls(random.Random(f"{seed}-{index}-{cls.rng_stream or name}"), **options, **search)
    if policy.sees_the_deal:
        policy.watch(game)
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
              "settings": _settings(mission, players, seed, options, equipment, name)}
    if save:
        stem = os.path.join(save, f"{name}-{index:05d}")
        table = game.table()
        table["meta"] = {**table.get("meta", {}), "simulated": {**record, "seed": seed}}
        with open(stem + ".json", "w", encoding="utf-8") as f:
            json.dump(table, f)
        with open(stem + ".deal.json", "w", encoding="utf-8") as f:
            json.dump({**game.deal_json(), "result": game.result}, f)
    return record


# The simulator's version in every record's settings: raise it whenever a change makes the same
# seed play other games, so that --resume refuses a log of the old games instead of mixing them.
# Version 2: every mission's rules and the equipment (logs without "sim" are version 1, the base game).
SIM_VERSION = 2


def _settings(mission: int, players: int, seed: int, options: dict[str, Any], equipment: bool,
              policy: str) -> dict[str, Any]:
    """What a game's record depends on besides its index and policy: a resumed log must match it.
    A policy that sees the true deal is marked ``"sees_the_deal": true`` (a ceiling, not a way to play);
    a policy whose rule changed since its first logs names its ``version``."""
    cls = POLICIES[policy]
    marks = {"sees_the_deal": True} if cls.sees_the_deal else {}
    if cls.version > 1:
        marks["version"] = cls.version
    return {"mission": mission, "players": players, "seed": seed, **({"budget": options} if options else {}),
            "equipment": equipment, "sim": SIM_VERSION, **marks}


class LogError(ValueError):
    """A log being resumed is not a log of this run (other settings, or not a log at all)."""


class OutputError(ValueError):
    """A ``save`` directory or ``log`` file that cannot be written (the message names the CLI option)."""


class ClusterError(ValueError):
    """A cluster that cannot be started or joined, or whose workers cannot play (the message says why)."""


def play_game_or_error(task: tuple[Any, ...]) -> dict[str, Any]:
    """:func:`play_game`, with a game the simulator cannot play as a record ``{"error": ...}`` (a sweep
    reports the cell and goes on)."""
    try:
        return play_game(task)
    except Exception as e:  # noqa: BLE001 - a sweep of hours must not end on one cell's bug
        mission, players, _, name, index = task[:5]
        return {"error": str(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {e}", "policy": name,
                "game": index, "mission": mission, "players": players}


class _Cell:
    """One mission and player count: its tasks, the records it has, its log and its finished games."""

    def __init__(self, mission: int, players: int, games: int, policies: list[str], seed: int,
                 save: str | None, lookahead: dict[str, Any] | None, log: str | None, resume: bool,
                 equipment: bool = True, save_option: str = "--save", log_option: str = "--log",
                 ismcts: dict[str, Any] | None = None) -> None:
        self.mission, self.players, self.games, self.policies = mission, players, games, policies
        self.error: str | None = None
        if save:
            try:
                os.makedirs(save, exist_ok=True)
            except OSError as e:
                raise OutputError(f"{save_option} {save}: cannot create this directory ({e.strerror})") from None
        budgets = {"lookahead": lookahead, "ismcts": ismcts}
        options = {name: dict(budgets.get(name) or {}) for name in policies}
        logged = _logged(log, policies, games, {name: _settings(mission, players, seed, options[name], equipment, name)
                                                for name in policies}) if resume and log else {}
        self.tasks = [(mission, players, seed, name, i, save, options[name], equipment) for i in range(games)
                      for name in policies if (name, i) not in logged]
        self.records: list[dict[str, Any]] = list(logged.values())
        self.played = [0] * games  # policies that finished each game
        for _, i in logged:
            self.played[i] += 1
        try:
            self.out = open(log, "a", encoding="utf-8") if log else None
        except OSError as e:
            raise OutputError(f"{log_option} {log}: cannot append to this file ({e.strerror})") from None

    def finished(self) -> int:
        """Games every policy has finished."""
        return sum(n == len(self.policies) for n in self.played)

    def add(self, record: dict[str, Any]) -> bool:
        """Keep a finished game (and log it); True when that game is now finished by every policy."""
        self.records.append(record)
        if self.out:
            self.out.write(json.dumps(record) + "\n")
            self.out.flush()
        self.played[record["game"]] += 1
        return self.played[record["game"]] == len(self.policies)

    def close(self) -> None:
        if self.out:
            self.out.close()
            self.out = None

    def sorted_records(self) -> list[dict[str, Any]]:
        order = {name: i for i, name in enumerate(self.policies)}
        return sorted(self.records, key=lambda r: (order[r["policy"]], r["game"]))


def run(mission: int, players: int, games: int, policies: list[str], seed: int = 0, jobs: int = 1,
        save: str | None = None, progress: Callable[[int, int], None] | None = None,
        lookahead: dict[str, Any] | None = None, log: str | None = None,
        resume: bool = False, cluster: Any = None, equipment: bool = True,
        ismcts: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Every (policy, game) record, sorted by policy order then game index.  ``lookahead``: the
    lookahead policy's budget (``deals``, ``depth``, ``width``; default: policies.py's); ``ismcts``:
    the ismcts policy's (``iterations`` or ``seconds``, ``horizon``, ``endgame``; default: ismcts.py's).  ``log``: a
    file that gets each record as a JSON line when its game ends, so a long run stopped early
    still has its finished games (:func:`read_log`).  ``resume``: the games ``log`` already holds
    are taken from it, not played again (their settings must be this run's: :class:`LogError`).
    ``progress(done, total)`` counts games (a game is done when every policy has played it).
    ``cluster``: ``"local"`` (a Dask cluster of ``jobs`` worker processes, shut down at the end),
    a scheduler's address, or a ``distributed.Client``: the games are its tasks.  ``equipment``
    False: the missions' equipment cards are not dealt (the same deals: to measure what they change)."""
    unknown = [p for p in policies if p not in POLICIES]
    if unknown:
        raise ValueError(f"unknown policy {unknown[0]!r} (choose from {', '.join(POLICIES)})")
    cell = _Cell(mission, players, games, policies, seed, save, lookahead, log, resume, equipment, ismcts=ismcts)
    finished = cell.finished()

    def done(record: dict[str, Any]) -> None:
        nonlocal finished
        if cell.add(record):
            finished += 1
            if progress:
                progress(finished, games)

    if progress:
        progress(finished, games)
    try:
        _play(cell.tasks, jobs, done, cluster)
    finally:
        cell.close()
    return cell.sorted_records()


def sweep(missions: list[int], players: list[int], games: int, policies: list[str], seed: int = 0,
          jobs: int = 1, save: str | None = None, progress: Callable[[int, int], None] | None = None,
          lookahead: dict[str, Any] | None = None, log_dir: str | None = None, resume: bool = False,
          cluster: Any = None, note: Callable[[str], None] | None = None,
          equipment: bool = True, ismcts: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """:func:`run` for every mission and player count, the games of all cells in one stream of
    tasks (no worker waits for a cell's last game).  Each cell's log is ``log_dir/mNN-pP.log``
    (``save``: ``save/mNN-pP/``), in :func:`run`'s format, and ``resume`` takes each cell's logged
    games.  One entry per cell, in order: ``{"mission", "players", "records"}``; a player count
    the mission does not allow ``{..., "skipped": why}``; a mission the simulator refuses
    ``{..., "refused": why}``; a cell one of whose games failed ``{..., "failed": why, "records"}``
    (its other games still play).  ``note(text)`` hears of every skipped, refused or failed cell."""
    from ..missions import MissionError, mission as mission_preset
    from .actions import SimError

    unknown = [p for p in policies if p not in POLICIES]
    if unknown:
        raise ValueError(f"unknown policy {unknown[0]!r} (choose from {', '.join(POLICIES)})")
    if log_dir:
        try:
            os.makedirs(log_dir, exist_ok=True)
        except OSError as e:
            raise OutputError(f"--log-dir {log_dir}: cannot create this directory ({e.strerror})") from None
    entries: list[dict[str, Any]] = []
    cells: dict[tuple[int, int], _Cell] = {}
    say = note or (lambda text: None)
    try:
        for m in missions:
            for p in players:
                entry: dict[str, Any] = {"mission": m, "players": p}
                entries.append(entry)
                try:
                    allowed = sorted(mission_preset(m).wires)
                except MissionError as e:
                    entry["refused"] = str(e)
                    say(f"mission {m}, {p} players: refused: {e}")
                    continue
                if p not in allowed:
                    entry["skipped"] = f"mission {m} is played with {', '.join(map(str, allowed))} players"
                    say(f"mission {m}, {p} players: skipped ({entry['skipped']})")
                    continue
                try:
                    new_game(random.Random(f"{seed}-0"), mission=m, players=p)
                except (SimError, MissionError) as e:
                    entry["refused"] = str(e)
                    say(f"mission {m}, {p} players: refused: {e}")
                    continue
                name = f"m{m:02d}-p{p}"
                cells[m, p] = _Cell(m, p, games, policies, seed, save and os.path.join(save, name), lookahead,
                                    log_dir and os.path.join(log_dir, name + ".log"), resume, equipment,
                                    ismcts=ismcts)
        total = games * len(cells)
        finished = sum(cell.finished() for cell in cells.values())

        def done(record: dict[str, Any]) -> None:
            nonlocal finished
            cell = cells[record.get("mission") or record["settings"]["mission"],
                         record.get("players") or record["settings"]["players"]]
            if "error" in record:
                if cell.error is None:
                    cell.error = f"{record['policy']} game {record['game']}: {record['error']}"
                    say(f"mission {cell.mission}, {cell.players} players: failed: {cell.error}")
                return  # not logged: the cell stays short of that game
            if cell.add(record):
                finished += 1
                if progress:
                    progress(finished, total)

        if progress:
            progress(finished, total)
        _play([t for cell in cells.values() for t in cell.tasks], jobs, done, cluster, play_game_or_error)
    finally:
        for cell in cells.values():
            cell.close()
    for entry in entries:
        cell = cells.get((entry["mission"], entry["players"]))
        if cell:
            entry["records"] = cell.sorted_records()
            if cell.error:
                entry["failed"] = cell.error
    return entries


def _play(tasks: list[tuple[Any, ...]], jobs: int, done: Callable[[dict[str, Any]], None], cluster: Any = None,
          game: Callable[[tuple[Any, ...]], dict[str, Any]] | None = None) -> None:
    """Play every task (:func:`play_game` unless ``game``) and hand each record to ``done`` as it ends."""
    if not tasks:
        return
    game = game or play_game  # looked up now: tests replace it
    if cluster is not None:
        with _client(cluster, jobs) as client:
            _on_cluster(tasks, client, done, game)
    elif jobs <= 1:
        for task in tasks:
            done(game(task))
    else:
        from ..children import bind_to_parent, pool_context  # not in Pyodide: jobs 1 there

        pool = pool_context().Pool(jobs, initializer=bind_to_parent, initargs=(os.getpid(),))
        try:
            for record in pool.imap_unordered(game, tasks):
                done(record)
        finally:
            # Also on Ctrl-C or a failed game: end the workers now.  A pool that is closed
            # instead (concurrent.futures' shutdown) plays every queued game first.
            pool.terminate()


# ---------------------------------------------------------------- the cluster (Dask distributed)

def _on_cluster(tasks: list[tuple[Any, ...]], client: Any, done: Callable[[dict[str, Any]], None],
                game: Callable[[tuple[Any, ...]], dict[str, Any]] = play_game) -> None:
    """Each task one Dask task, a few per worker thread in flight (a sweep of 100,000 games is not
    100,000 futures at once), ``done`` called as each ends (in any order: the caller sorts)."""
    from distributed import as_completed

    queue = iter(tasks)
    window = max(8, 4 * sum(client.nthreads().values()))
    first = [client.submit(game, t, pure=False) for _, t in zip(range(window), queue)]
    running = as_completed(first)
    try:
        for future in running:
            record = future.result()
            future.release()
            task = next(queue, None)
            if task is not None:
                running.add(client.submit(game, task, pure=False))
            done(record)
    finally:
        running.clear()


def code_version() -> str:
    """A digest of the core's source files: a worker must play the same code as the driver."""
    import hashlib

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    digest = hashlib.sha256()
    for folder, dirs, files in sorted(os.walk(root)):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                digest.update(os.path.relpath(os.path.join(folder, name), root).encode())
                with open(os.path.join(folder, name), "rb") as f:
                    digest.update(f.read())
    return digest.hexdigest()[:16]


def check_workers(client: Any, address: str, version: str) -> None:
    """:class:`ClusterError` unless the cluster has a worker and every worker plays the code of ``version``."""
    try:
        if not client.nthreads():
            client.wait_for_workers(1, timeout=60)
        versions = client.run(code_version)
    except Exception as e:  # noqa: BLE001 - a worker without the package, no worker in time ...
        raise ClusterError(f"--cluster {address}: its workers cannot play ({type(e).__name__}: {e}); "
                           f"every worker needs this bombbuster installed") from None
    other = sorted(w for w, v in versions.items() if v != version)
    if other:
        raise ClusterError(f"--cluster {address}: worker(s) {', '.join(other)} run other bombbuster code than "
                           f"this one (a game's numbers depend on the code)")


class _client:
    """``with _client(cluster, workers) as client``: a Dask client for ``cluster`` (``"local"``,
    an address or a client).  A local cluster's workers get SIGINT blocked (Ctrl-C is the
    driver's to handle; they also die with it: Dask ends a worker whose parent is gone); on
    Ctrl-C they are killed at once, not drained, otherwise the cluster is shut down."""

    def __init__(self, cluster: Any, workers: int) -> None:
        self.cluster, self.workers = cluster, max(1, workers)
        self.local = self.client = None
        self.pids: list[int] = []

    def __enter__(self) -> Any:
        if not isinstance(self.cluster, str):
            return self.cluster  # the caller's client: theirs to close
        try:
            import logging

            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise ClusterError('--cluster needs Dask distributed: pip install "dask[distributed]"') from None
        # Dask's workers sample every running task's stack every 10 ms by default, for a dashboard
        # profile no one looks at here.  Local workers inherit this setting; remote ones take
        # DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False (docs/architecture.md, "Sweeps and a cluster").
        dask.config.set({"distributed.worker.profile.enabled": False})
        if self.cluster == "local":
            import signal
            import threading

            # Threads and processes inherit the signal mask: the cluster's threads, and through them
            # its worker processes, never see Ctrl-C.  A Ctrl-C meanwhile waits here, then stops us.
            mask = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
            try:
                if mask:
                    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
                try:
                    self.local = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                              dashboard_address=None, silence_logs=logging.ERROR)
                    self.client = Client(self.local)
                    self.pids = sorted(self.client.run(os.getpid).values())
                finally:
                    if mask:  # a Ctrl-C that came meanwhile is raised here
                        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
            except BaseException:
                self._end()
                raise
        else:
            logging.getLogger("distributed").setLevel(logging.ERROR)
            try:
                self.client = Client(self.cluster, timeout="20s")
            except (OSError, ValueError, TypeError) as e:
                raise ClusterError(f"--cluster {self.cluster}: cannot connect to a Dask scheduler there ({e})") from None
            try:
                check_workers(self.client, self.cluster, code_version())
            except BaseException:
                self.client.close()
                raise
        return self.client

    def __exit__(self, kind: Any, value: Any, traceback: Any) -> None:
        if self.client is None:
            return
        if kind is KeyboardInterrupt:
            self._end()
            return
        self.client.close()
        if self.local is not None:
            self.local.close()

    def _end(self) -> None:
        """Stop now: kill a local cluster's workers (closing it would wait for them), drop the client."""
        import signal

        for pid in self.pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if self.local is None and self.client is not None:
            try:
                self.client.close(timeout=2)
            except Exception:  # noqa: BLE001 - already stopping
                pass


def read_records(path: str) -> list[dict[str, Any]]:
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
    for r in read_records(path):
        if r["policy"] not in policies or r["game"] >= games:
            continue
        if r.get("settings") != settings[r["policy"]]:
            older = r.get("settings", {}).get("sim", 1) != SIM_VERSION
            why = (f"by simulator version {r.get('settings', {}).get('sim', 1)}, whose games differ from this "
                   f"version's ({SIM_VERSION}): start a new log" if older else "with other settings")
            raise LogError(f"{path}: game {r['game']} of {r['policy']} was played {why}: "
                           f"{r.get('settings')}, not {settings[r['policy']]}")
        kept[r["policy"], r["game"]] = r
    return kept


def read_log(path: str, policies: list[str]) -> list[dict[str, Any]]:
    """The records of a :func:`run` log for the games every one of ``policies`` finished (a paired
    comparison needs both sides of a game), sorted as :func:`run` sorts them."""
    by = {(r["policy"], r["game"]): r for r in read_records(path) if r["policy"] in policies}
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
                     "seconds_per_decision": sum(r["seconds"] for r in rs) / decisions if decisions else 0.0,
                     "seconds_per_decision_median_game": statistics.median(
                         [r["seconds"] / r["decisions"] for r in rs if r["decisions"]] or [0.0])})
    pairs = []
    for a, b in combinations(policies, 2):
        wa = [int(r["result"] == "win") for r in by[a]]
        wb = [int(r["result"] == "win") for r in by[b]]
        if wa:
            mean, lo, hi = paired_difference(wa, wb)
            pairs.append({"a": a, "b": b, "difference": mean, "ci95": [lo, hi]})
    return {"policies": rows, "pairs": pairs}


def text(result: dict[str, Any]) -> str:
    """The summary as a plain table: seconds per decision over all decisions (mean) and the median
    of the games' own (docs/results/base-game-policies.md: a busy machine's slow spells move the mean more)."""
    sighted = [r["policy"] for r in result["policies"] if POLICIES[r["policy"]].sees_the_deal]
    note = [f"({', '.join(sighted)}: sees the true deal, FOR MEASUREMENT ONLY: a ceiling, not a way to play)"]
    return "\n".join(_policy_lines(result, header=True) + note * bool(sighted) + _pair_lines(result, "  "))


def _policy_lines(result: dict[str, Any], header: bool, cell: str = "") -> list[str]:
    lines = [f"{'cell':9}" * bool(cell) + f"{'policy':14} {'games':>6} {'wins':>5} {'win rate':>8} {'95% CI':>15} "
             f"{'failed':>7} {'red':>4} {'deton.':>6} {'s/decision':>10} {'median game':>11}"] if header else []
    for r in result["policies"]:
        lo, hi = r["ci95"]
        lines.append(f"{cell:9}" * bool(cell) + f"{r['policy']:14} {r['games']:6d} {r['wins']:5d} "
                     f"{r['win_rate']:8.3f} {f'[{lo:.3f}, {hi:.3f}]':>15} {r['mean_failed_cuts']:7.2f} "
                     f"{r['losses']['red']:4d} {r['losses']['detonator']:6d} {r['seconds_per_decision']:10.4f} "
                     f"{r['seconds_per_decision_median_game']:11.4f}")
    return lines


def _pair_lines(result: dict[str, Any], indent: str, cell: str = "") -> list[str]:
    lines = []
    for p in result["pairs"]:
        lo, hi = p["ci95"]
        lines.append(f"{indent}{cell}{p['a']:>14} - {p['b']:<14} {p['difference']:+.3f}  [{lo:+.3f}, {hi:+.3f}]")
    if lines and not cell:
        lines[:0] = ["", "paired difference of win rates (a - b), same deals, 95% interval (Newcombe):"]
    return lines


def sweep_text(result: dict[str, Any]) -> str:
    """A sweep's summary: a row per cell and policy, then the pairs, then the cells not played."""
    lines: list[str] = []
    pairs: list[str] = []
    notes: list[str] = []
    for cell in result["cells"]:
        name = f"M{cell['mission']} {cell['players']}p"
        if "policies" in cell:
            lines += _policy_lines(cell, header=not lines, cell=name)
            pairs += _pair_lines(cell, "  ", f"{name:9}")
        for kind in ("skipped", "refused", "failed"):
            if kind in cell:
                notes.append(f"  {name:9} {kind}: {cell[kind]}")
    if pairs:
        lines += ["", "paired difference of win rates (a - b), same deals, 95% interval (Newcombe):", *pairs]
    if notes:
        lines += ["", "not played:" if not any("failed" in c for c in result["cells"]) else "not played or failed:",
                  *notes]
    return "\n".join(lines)


def progress_bar(done: int, total: int) -> None:
    """A one-line progress bar on stderr."""
    width = 30
    filled = width * done // total if total else width
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()
