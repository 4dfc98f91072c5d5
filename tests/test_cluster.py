"""Tournaments on Dask distributed (issue 19 item 3) and the tournament's small-sample figures (issue 21 item 9).

* ``--cluster`` gives the numbers of ``--jobs 1`` for the same seed: a real local
  cluster of two worker processes, started once for the whole test run (a session
  fixture), plays the games through ``run(cluster=client)`` and through the CLI's
  ``--cluster ADDRESS``; ``--cluster local`` starts and shuts down its own.
* A sweep (``--missions``) writes one log per mission and player count, skips the
  player counts a mission does not allow, reports a refused mission or a failed game
  without stopping, and ``--resume`` plays only the games its logs lack.
* Ctrl-C on ``--cluster local`` exits 130 at once and leaves no process.
* The paired interval (Newcombe's method 10) stays inside [-1, 1] and matches a hand-worked
  value; the progress bar counts games, not games x policies; the text prints the
  median game's seconds per decision (the column of docs/results/base-game-policies.md).

Dask is a test requirement (build.py installs it): without it this module fails, it does not skip.
"""
from __future__ import annotations

import json
import math
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from distributed import Client, LocalCluster

from bombbuster_core.sim import tournament
from bombbuster_core.sim.actions import SimError
from bombbuster_core.sim.tournament import paired_difference, run, summary, sweep, text, wilson
from interrupt import STOPS_WITHIN, started, wait_for, wait_for_end  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, PYTHONPATH=str(ROOT))
CLI = [sys.executable, "-m", "bombbuster_core", "tournament"]


@pytest.fixture(scope="session")
def cluster():
    """One local Dask cluster for the test run: two worker processes, one thread each."""
    local = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                         silence_logs=40)
    client = Client(local)
    try:
        assert len(set(client.run(os.getpid).values())) == 2
        yield client
    finally:
        client.close()
        local.close()


def numbers(records: list[dict]) -> list[dict]:
    """A game's numbers: every field but its wall-clock seconds."""
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


def figures(summary_json: dict) -> dict:
    """A summary without its timings."""
    return {"policies": [{k: v for k, v in r.items() if not k.startswith("seconds")} for r in summary_json["policies"]],
            "pairs": summary_json["pairs"]}


# ---------------------------------------------------------------- the cluster gives --jobs 1's numbers


@pytest.mark.parametrize("mission, players, games", [(1, 4, 8), (4, 4, 4), (8, 5, 3)])
def test_cluster_gives_the_numbers_of_jobs_1(cluster, mission: int, players: int, games: int) -> None:
    policies = ["greedy", "random"]
    serial = run(mission, players, games, policies, seed=19, jobs=1)
    on_cluster = run(mission, players, games, policies, seed=19, cluster=cluster)
    assert numbers(on_cluster) == numbers(serial)
    assert [(r["policy"], r["game"]) for r in on_cluster] == [(p, i) for p in policies for i in range(games)]


def test_cli_cluster_address_gives_the_numbers_of_jobs_1(cluster, tmp_path: Path) -> None:
    address = cluster.scheduler.address
    base = [*CLI, "--mission", "1", "--players", "3", "--games", "5", "--policy", "greedy", "--policy", "random",
            "--seed", "5", "--json"]
    serial = subprocess.run([*base, "--jobs", "1"], cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=120)
    log = tmp_path / "cluster.log"
    remote = subprocess.run([*base, "--cluster", address, "--log", str(log)], cwd=tmp_path, env=ENV,
                            capture_output=True, text=True, timeout=120)
    assert serial.returncode == 0 and remote.returncode == 0, remote.stdout + remote.stderr
    assert figures(json.loads(remote.stdout)) == figures(json.loads(serial.stdout))
    records = [json.loads(line) for line in log.read_text().splitlines()]
    settings = {"mission": 1, "players": 3, "seed": 5, "equipment": True, "sim": tournament.SIM_VERSION}
    versions = {"greedy": {"version": tournament.POLICIES["greedy"].version}, "random": {}}  # greedy's rule changed
    assert len(records) == 10 and all(r["settings"] == {**settings, **versions[r["policy"]]} for r in records)
    again = subprocess.run([*base, "--jobs", "2", "--cluster", address], cwd=tmp_path, env=ENV, capture_output=True,
                           text=True, timeout=60)
    assert again.returncode == 2 and "--jobs sets a --cluster local's workers" in json.loads(again.stdout)["error"]


def test_cluster_workers_must_run_this_code(cluster) -> None:
    tournament.check_workers(cluster, "ADDRESS", tournament.code_version())
    with pytest.raises(tournament.ClusterError, match="ADDRESS: worker.* run other bombbuster code"):
        tournament.check_workers(cluster, "ADDRESS", "other")


def descendants(pid: int) -> set[int]:
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                status = (entry / "status").read_text()
            except OSError:
                continue
            ppid = next(line.split()[1] for line in status.splitlines() if line.startswith("PPid:"))
            parents[int(entry.name)] = int(ppid)
    found, changed = set(), True
    while changed:
        changed = False
        for child, parent in parents.items():
            if (parent == pid or parent in found) and child not in found:
                found.add(child)
                changed = True
    return found


def alive(pids: set[int]) -> set[int]:
    out = set()
    for pid in pids:
        try:
            if "State:\tZ" not in Path(f"/proc/{pid}/status").read_text():
                out.add(pid)
        except OSError:
            pass
    return out


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to list processes")
def test_cli_cluster_local_gives_the_numbers_and_shuts_down(tmp_path: Path) -> None:
    base = [*CLI, "--mission", "1", "--players", "4", "--games", "4", "--policy", "greedy", "--seed", "3", "--json"]
    serial = subprocess.run(base, cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=120)
    seen: set[int] = set()

    def ended() -> bool:
        seen.update(descendants(proc.pid))
        return proc.poll() is not None

    with started([*base, "--cluster", "local", "--jobs", "2"], tmp_path / "children", cwd=tmp_path,
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        wait_for(ended, None, "the run ended")
        out, err = proc.communicate()
        assert proc.returncode == 0 and "Traceback" not in err, err
        assert figures(json.loads(out)) == figures(json.loads(serial.stdout))
        assert len(seen) >= 2  # its two workers and the helper...
        wait_for_end(sorted(seen))  # ...are gone (multiprocessing's helper ends as its pipe closes)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to list processes")
def test_ctrl_c_stops_a_local_cluster_at_once_and_leaves_no_process(tmp_path: Path) -> None:
    log = tmp_path / f"stop-{random.randrange(10**9)}.log"
    seen: set[int] = set()

    def two_games_logged() -> bool:
        seen.update(descendants(proc.pid))
        return log.exists() and log.read_text().count("\n") >= 2

    with started([*CLI, "--mission", "1", "--players", "4", "--policy", "greedy", "--games", "3000",
                  "--cluster", "local", "--jobs", "2", "--log", str(log)], tmp_path / "children", cwd=tmp_path,
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        wait_for(two_games_logged, proc, "two games were logged")
        seen |= descendants(proc.pid)
        assert len(alive(seen)) >= 2  # the two workers
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the terminal's whole process group
        out, err = proc.communicate(timeout=STOPS_WITHIN)
        assert proc.returncode == 130 and "Traceback" not in out + err, err
        wait_for_end(sorted(seen))
    lines = log.read_text().split("\n")
    assert lines[-1] == "" and len(lines) > 2  # whole lines only
    records = [json.loads(line) for line in lines[:-1]]
    assert len(records) < 3000 and len({r["game"] for r in records}) == len(records)


# ---------------------------------------------------------------- the sweep


def test_sweep_writes_a_log_per_cell_and_resumes(cluster, tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    notes: list[str] = []
    cells = sweep([1, 34], [2, 4], 3, ["greedy", "random"], seed=8, log_dir=str(logs), cluster=cluster,
                  note=notes.append)
    assert [(c["mission"], c["players"]) for c in cells] == [(1, 2), (1, 4), (34, 2), (34, 4)]
    assert "records" not in cells[2] and "34" in cells[2]["skipped"] and "3, 4, 5 players" in cells[2]["skipped"]
    assert any("mission 34, 2 players: skipped" in n for n in notes)
    assert sorted(os.listdir(logs)) == ["m01-p2.log", "m01-p4.log", "m34-p4.log"]
    for cell in (cells[0], cells[1], cells[3]):
        serial = run(cell["mission"], cell["players"], 3, ["greedy", "random"], seed=8, jobs=1)
        assert numbers(cell["records"]) == numbers(serial)
    # Resume to 5 games: only games 3 and 4 are played; nothing is played twice.
    cells = sweep([1, 34], [2, 4], 5, ["greedy", "random"], seed=8, log_dir=str(logs), resume=True, cluster=cluster)
    for name, cell in (("m01-p2.log", cells[0]), ("m01-p4.log", cells[1]), ("m34-p4.log", cells[3])):
        logged = [json.loads(line) for line in (logs / name).read_text().splitlines()]
        assert sorted((r["policy"], r["game"]) for r in logged) == [(p, i) for p in ("greedy", "random")
                                                                    for i in range(5)]
        assert [r["game"] for r in logged[6:]] and all(r["game"] >= 3 for r in logged[6:])
        assert numbers(cell["records"]) == numbers(run(cell["mission"], cell["players"], 5, ["greedy", "random"],
                                                       seed=8))
    before = {name: (logs / name).read_text() for name in os.listdir(logs)}
    played: list[tuple] = []
    real = tournament.play_game_or_error
    tournament.play_game_or_error = lambda task: played.append(task) or real(task)
    try:
        sweep([1, 34], [2, 4], 5, ["greedy", "random"], seed=8, log_dir=str(logs), resume=True)
    finally:
        tournament.play_game_or_error = real
    assert played == [] and {name: (logs / name).read_text() for name in os.listdir(logs)} == before


def test_sweep_reports_a_refused_mission_and_a_failed_game_and_goes_on(tmp_path: Path, monkeypatch) -> None:
    real_new_game, real_play = tournament.new_game, tournament.play_game

    def new_game(rng, *, mission, players, **options):
        if mission == 2:
            raise SimError("mission 2: the simulator does not play its rule(s) test_rule")
        return real_new_game(rng, mission=mission, players=players, **options)

    def play_game(task):
        if task[0] == 3 and task[4] == 1:
            raise SimError("player 2 cannot call 6")
        return real_play(task)

    monkeypatch.setattr(tournament, "new_game", new_game)
    monkeypatch.setattr(tournament, "play_game", play_game)
    notes: list[str] = []
    cells = sweep([1, 2, 3, 99], [4], 2, ["greedy"], log_dir=str(tmp_path), note=notes.append)
    assert [c["mission"] for c in cells] == [1, 2, 3, 99]
    assert len(cells[0]["records"]) == 2 and "failed" not in cells[0]
    assert "test_rule" in cells[1]["refused"] and "records" not in cells[1]
    assert cells[2]["failed"] == "greedy game 1: player 2 cannot call 6" and [r["game"] for r in cells[2]["records"]] == [0]
    assert "99" in cells[3]["refused"]
    assert len(notes) == 3 and sorted(os.listdir(tmp_path)) == ["m01-p4.log", "m03-p4.log"]


def test_cli_sweep_prints_every_cell_and_its_notes(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    base = [*CLI, "--missions", "1,34", "--players", "2-3", "--games", "2", "--policy", "greedy", "--policy", "random",
            "--log-dir", str(logs)]
    proc = subprocess.run(base, cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "note: mission 34, 2 players: skipped" in proc.stderr
    assert proc.stderr.rstrip().endswith("6/6 games")  # 3 cells of 2 games (M34 2p skipped)
    for cell in ("M1 2p", "M1 3p", "M34 3p"):
        assert cell in proc.stdout
    assert "M34 2p    skipped" in proc.stdout
    again = subprocess.run([*base, "--resume", "--json"], cwd=tmp_path, env=ENV, capture_output=True, text=True,
                           timeout=300)
    cells = json.loads(again.stdout)["cells"]
    assert [c["policies"][0]["games"] if "policies" in c else c["skipped"][:10] for c in cells] == [2, 2, "mission 34", 2]
    shown = subprocess.run([*CLI, "--missions", "1,34", "--players", "2-3", "--games", "0", "--policy", "greedy",
                            "--policy", "random", "--from-log", str(logs), "--json"], cwd=tmp_path, env=ENV,
                           capture_output=True, text=True, timeout=300)
    assert figures(json.loads(shown.stdout)["cells"][0]) == figures(cells[0])
    bad = subprocess.run([*CLI, "--mission", "1", "--players", "2-5", "--games", "1", "--policy", "greedy"],
                         cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--players takes one number" in json.loads(bad.stdout)["error"]
    bad = subprocess.run([*base, "--log", "x.log"], cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--log-dir DIR, not --log" in json.loads(bad.stdout)["error"]


# ---------------------------------------------------------------- small-sample figures (issue 21 item 9)


def test_paired_interval_by_hand() -> None:
    # 5 games: A wins 4 that B loses, both lose 1 (the old normal interval: +0.800 [+0.408, +1.192]).
    # p1 = 0.8, p2 = 0; phi = 0 (a margin is 0).  Wilson, z = 1.96: (0.3755, 0.9638) and (0, 0.4345).
    # delta = sqrt(0.4245^2 + 0.4345^2) = 0.6075, epsilon = sqrt(0.1638^2 + 0) = 0.1638.
    d, lo, hi = paired_difference([1, 1, 1, 1, 0], [0, 0, 0, 0, 0], z=1.96)
    assert d == 0.8 and lo == pytest.approx(0.1925, abs=1e-4) and hi == pytest.approx(0.9638, abs=1e-4)
    # 10 games: both win 5, A only 3, B only 1, neither 1: p1 = 0.8, p2 = 0.6.
    # Wilson: (0.4902, 0.9433) and (0.3127, 0.8318); phi = (5 - 3) / sqrt(8 * 2 * 6 * 4) = 0.1021.
    # delta^2 = 0.3098^2 - 2 (0.1021)(0.3098)(0.2318) + 0.2318^2 = 0.13500; delta = 0.3674.
    # epsilon^2 = 0.1433^2 - 2 (0.1021)(0.1433)(0.2873) + 0.2873^2 = 0.09466; epsilon = 0.3077.
    a = [1] * 5 + [1] * 3 + [0] + [0]
    b = [1] * 5 + [0] * 3 + [1] + [0]
    d, lo, hi = paired_difference(a, b, z=1.96)
    assert d == pytest.approx(0.2) and lo == pytest.approx(0.2 - 0.3674, abs=2e-4)
    assert hi == pytest.approx(0.2 + 0.3077, abs=2e-4)
    assert wilson(8, 10, z=1.96) == pytest.approx((0.4902, 0.9433), abs=1e-4)


def test_paired_interval_stays_inside_minus_1_1_and_holds_its_estimate() -> None:
    for n in range(1, 9):
        for both in range(n + 1):
            for only_a in range(n + 1 - both):
                for only_b in range(n + 1 - both - only_a):
                    neither = n - both - only_a - only_b
                    a = [1] * both + [1] * only_a + [0] * only_b + [0] * neither
                    b = [1] * both + [0] * only_a + [1] * only_b + [0] * neither
                    d, lo, hi = paired_difference(a, b)
                    assert -1 <= lo <= d <= hi <= 1, (both, only_a, only_b, neither, lo, d, hi)
                    if n >= 3 and only_a + only_b:
                        assert lo < hi
    assert paired_difference([], []) == (0.0, -1.0, 1.0)


def test_paired_interval_is_the_normal_one_at_1000_games() -> None:
    """The published win-rate figures moved by at most 0.002 (M4 greedy - random: 704 wins against 0)."""
    rng = random.Random(1)
    a = [int(rng.random() < 0.7) for _ in range(1000)]
    b = [int(x and rng.random() < 0.9) for x in a]
    d, lo, hi = paired_difference(a, b)
    diff = [x - y for x, y in zip(a, b)]
    sd = math.sqrt(sum((x - d) ** 2 for x in diff) / 999)
    half = 1.959963984540054 * sd / math.sqrt(1000)
    assert abs(lo - (d - half)) < 0.003 and abs(hi - (d + half)) < 0.003
    d, lo, hi = paired_difference([1] * 704 + [0] * 296, [0] * 1000)
    assert (round(d, 3), round(lo, 3), round(hi, 3)) == (0.704, 0.675, 0.731)  # normal: [0.676, 0.732]


def test_progress_counts_games_not_games_times_policies(tmp_path: Path) -> None:
    calls: list[tuple[int, int]] = []
    log = tmp_path / "p.log"
    run(1, 2, 3, ["greedy", "random"], seed=2, progress=lambda done, total: calls.append((done, total)), log=str(log))
    assert {total for _, total in calls} == {3} and calls[0] == (0, 3) and calls[-1] == (3, 3)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
    calls.clear()
    run(1, 2, 5, ["greedy", "random"], seed=2, progress=lambda done, total: calls.append((done, total)), log=str(log),
        resume=True)
    assert calls[0] == (3, 5) and calls[-1] == (5, 5) and len(calls) == 3
    proc = subprocess.run([*CLI, "--mission", "1", "--players", "2", "--games", "3", "--policy", "greedy",
                           "--policy", "random"], cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr.rstrip().endswith("3/3 games"), proc.stderr


def test_text_prints_the_median_games_seconds_per_decision() -> None:
    records = [{"policy": "greedy", "game": i, "result": "win", "failed_cuts": 0, "turns": 4, "decisions": 10,
                "seconds": s} for i, s in enumerate([0.1, 0.2, 9.0])]
    result = summary(records, ["greedy"])
    row = result["policies"][0]
    assert row["seconds_per_decision"] == pytest.approx(0.31) and row["seconds_per_decision_median_game"] == 0.02
    assert "median game" in text(result).splitlines()[0] and text(result).splitlines()[1].endswith("0.0200")


def test_from_log_prints_the_readme_column() -> None:
    """docs/results/base-game-policies.md's column 's/decision (median game)' is what --from-log prints."""
    log = ROOT / "bench" / "tournaments" / "m8-greedy-lookahead.log"
    proc = subprocess.run([*CLI, "--mission", "8", "--players", "5", "--games", "0", "--policy", "greedy",
                           "--policy", "lookahead", "--from-log", str(log)], cwd=ROOT, env=ENV, capture_output=True,
                          text=True, timeout=120)
    rows = {line.split()[0]: line.split() for line in proc.stdout.splitlines()[1:3]}
    readme = (ROOT / "docs" / "results" / "base-game-policies.md").read_text()
    assert "| M8, 5 players | m8-greedy-lookahead.log | lookahead | 672/1,000 |" in readme
    line = next(x for x in readme.splitlines() if x.startswith("| M8, 5 players | m8-greedy-lookahead.log | lookahead"))
    assert float(line.rstrip(" |").rsplit("|", 1)[1]) == pytest.approx(float(rows["lookahead"][-1]), abs=0.0006)
    assert "greedy - lookahead      -0.059  [-0.095, -0.023]" in proc.stdout
