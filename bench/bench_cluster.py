"""Benchmark: what a local 2-worker Ray or Dask cluster costs against ``tournament --jobs 2`` (not a test).

    python bench/bench_cluster.py [--games N] [--mission M --players P] [--engines dask,ray,jobs]

Each engine is measured in a fresh Python process (so its imports count):

* start-up: from before ``import ray`` / ``import distributed`` until two worker
  processes have each answered a task (Ray starts its workers lazily);
* RSS: the resident memory of that process and every process it started (for Ray
  also the processes its ``ray.init`` daemonises: the new processes of this user),
  read from /proc once the cluster is up, and the same after the games;
* per game: ``--games`` greedy games of the mission (default M1, 4 players: the
  cheapest games, so the overhead shows most) played as one task each through the
  engine (``dask``: ``bombbuster_core.sim.tournament``'s own cluster path, as
  ``--cluster local`` starts it; ``dask-defaults``: a LocalCluster with Dask's defaults,
  whose workers profile every task; ``ray``: one ``ray.remote`` task per game), wall
  clock / games, against ``run(jobs=2)``;
* CPU per game: the user + system CPU seconds of every process of the engine (driver,
  scheduler, workers) while the games play, / games: on a busy machine the wall clock
  mostly measures the others' load, the CPU time what the engine itself spends;
* empty tasks: 1,000 tasks that return at once, the engine's own cost per task;
* shut-down: closing the cluster, and until its worker processes are gone.

The games are played ``--repeat`` times on the same cluster (or pool), the fastest kept.

Every engine must give the same records (the game numbers) as ``--jobs 2``: checked.
Which engines are installed decides what is measured (``pip install ray`` and
``pip install "dask[distributed]"``; the test requirements install Dask only).
Timings are wall clock on whatever else the machine runs: quote the load average.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _rss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _processes() -> dict[int, tuple[int, int]]:
    """pid -> (parent pid, uid) of every process."""
    out = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/status") as f:
                    fields = dict(line.split(":", 1) for line in f if ":" in line)
                out[int(name)] = (int(fields["PPid"]), int(fields["Uid"].split()[0]))
            except (OSError, KeyError, ValueError):
                continue
    return out


def _is_ray(pid: int) -> bool:
    """A process of Ray's (its daemons are not all this process's descendants)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"ray" in f.read()
    except OSError:
        return False


def _tree(root: int, extra: set[int]) -> list[int]:
    """``root``, its descendants and ``extra`` (with their descendants), alive now."""
    procs = _processes()
    keep = {root} | (extra & procs.keys())
    changed = True
    while changed:
        changed = False
        for pid, (ppid, _) in procs.items():
            if ppid in keep and pid not in keep:
                keep.add(pid)
                changed = True
    return sorted(keep)


def _cpu_s(pids: list[int]) -> float:
    """User + system CPU seconds of the live processes ``pids`` (this one included if listed)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


def _mib(pids: list[int]) -> float:
    return sum(_rss_kib(p) for p in pids) / 1024


def _children_cpu_s() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _games(args: argparse.Namespace) -> list[tuple]:
    return [(args.mission, args.players, args.seed, "greedy", i, None, {}) for i in range(args.games)]


def _numbers(records: list[dict]) -> list[tuple]:
    return sorted((r["game"], r["result"], r["failed_cuts"], r["turns"], r["decisions"]) for r in records)


def child(engine: str, args: argparse.Namespace) -> dict:
    """One engine's figures, measured in this (fresh) process."""
    from bombbuster_core.sim import tournament

    before = set(_processes())
    me = os.getpid()
    base = _mib([me])
    out: dict = {"engine": engine}
    t0 = time.perf_counter()
    if engine == "jobs":
        out["games_s"] = out["cpu_s"] = math.inf
        for _ in range(args.repeat):
            t, cpu = time.perf_counter(), _children_cpu_s()
            records = tournament.run(args.mission, args.players, args.games, ["greedy"], seed=args.seed, jobs=2)
            out["games_s"] = min(out["games_s"], time.perf_counter() - t)
            out["cpu_s"] = min(out["cpu_s"], _children_cpu_s() - cpu)  # the pool is joined: its workers count
        out["numbers"] = _numbers(records)
        return out
    if engine == "dask":
        context = tournament._client("local", 2)  # what --cluster local starts
        client = context.__enter__()
        pids = set(client.run(os.getpid).values())
        assert len(pids) == 2
        out["startup_s"] = time.perf_counter() - t0
        extra: set[int] = set()
    elif engine == "dask-defaults":  # Dask's own defaults: its workers profile every task
        from distributed import Client, LocalCluster

        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
        client.wait_for_workers(2)
        pids = set(client.run(os.getpid).values())
        assert len(pids) == 2
        out["startup_s"] = time.perf_counter() - t0
        extra: set[int] = set()
    else:
        import ray

        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)

        @ray.remote
        def pid_after(delay: float) -> int:
            time.sleep(delay)
            return os.getpid()

        pids = set()
        while len(pids) < 2:  # two tasks at once: two workers
            pids |= set(ray.get([pid_after.remote(0.2), pid_after.remote(0.2)]))
        out["startup_s"] = time.perf_counter() - t0
        procs = _processes()
        extra = {p for p in procs if p not in before and _is_ray(p)}
    tree = _tree(me, extra)
    out["processes"] = len(tree)
    out["rss_mib"] = _mib(tree)
    out["rss_driver_before_mib"] = base
    out["workers_rss_mib"] = _mib(sorted(pids))

    t = time.perf_counter()
    if engine.startswith("dask"):
        futures = client.map(lambda i: i, range(1000), pure=False)
        client.gather(futures)
    else:
        noop = ray.remote(lambda i: i)
        ray.get([noop.remote(i) for i in range(1000)])
    out["empty_task_ms"] = (time.perf_counter() - t)

    out["games_s"] = out["cpu_s"] = math.inf
    for _ in range(args.repeat):
        tree = _tree(me, extra)
        t, cpu = time.perf_counter(), _cpu_s(tree)
        if engine.startswith("dask"):
            records = []
            tournament._on_cluster(_games(args), client, records.append)
        else:
            play = ray.remote(tournament.play_game)
            records = ray.get([play.remote(task) for task in _games(args)])
        out["games_s"] = min(out["games_s"], time.perf_counter() - t)
        out["cpu_s"] = min(out["cpu_s"], _cpu_s(tree) - cpu)
    out["numbers"] = _numbers(records)
    out["rss_after_games_mib"] = _mib(_tree(me, extra))

    t = time.perf_counter()
    if engine == "dask":
        context.__exit__(None, None, None)
    elif engine == "dask-defaults":
        client.close()
        cluster.close()
    else:
        ray.shutdown()
    out["shutdown_s"] = time.perf_counter() - t
    deadline = time.time() + 30
    while any(os.path.exists(f"/proc/{p}") for p in pids) and time.time() < deadline:
        time.sleep(0.1)
    out["gone_s"] = time.perf_counter() - t
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--mission", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--engines", default="jobs,dask,dask-defaults,ray")
    parser.add_argument("--repeat", type=int, default=3, help="play the games this many times, keep the fastest")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        sys.path[:0] = [ROOT]
        print(json.dumps(child(args.child, args)))
        return
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    print(f"load average {os.getloadavg()[0]:.2f}; {args.games} greedy games of M{args.mission}, "
          f"{args.players} players, seed {args.seed}")
    rows = {}
    for engine in args.engines.split(","):
        proc = subprocess.run([sys.executable, __file__, "--child", engine, "--games", str(args.games),
                               "--mission", str(args.mission), "--players", str(args.players),
                               "--seed", str(args.seed), "--repeat", str(args.repeat)], env=env, capture_output=True, text=True)
        if proc.returncode:
            last = (proc.stderr.strip().splitlines() or ["?"])[-1]
            print(f"{engine}: not measured ({last})")
            continue
        rows[engine] = json.loads(proc.stdout.strip().splitlines()[-1])
    jobs = rows.get("jobs")
    for engine, r in rows.items():
        per_game = r["games_s"] / args.games
        cpu = r["cpu_s"] / args.games
        line = f"{engine:5} {per_game * 1000:7.1f} ms/game, CPU {cpu * 1000:6.1f} ms/game"
        if jobs and engine != "jobs":
            extra = per_game - jobs["games_s"] / args.games
            same = "same numbers" if r["numbers"] == jobs["numbers"] else "NUMBERS DIFFER from --jobs 2"
            line += (f" ({extra * 1000:+.1f} wall, {(cpu - jobs['cpu_s'] / args.games) * 1000:+.1f} CPU "
                     f"vs --jobs 2; {same}); start-up {r['startup_s']:.2f} s; "
                     f"RSS {r['rss_mib']:.0f} MiB in {r['processes']} processes (workers {r['workers_rss_mib']:.0f}, "
                     f"driver before import {r['rss_driver_before_mib']:.0f}; {r['rss_after_games_mib']:.0f} after "
                     f"the games); empty task {r['empty_task_ms']:.2f} ms; shut-down {r['shutdown_s']:.2f} s "
                     f"(workers gone {r['gone_s']:.2f} s)")
        print(line)


if __name__ == "__main__":
    main()
