"""The mission difficulty table: greedy's win rate per mission and player count, from committed logs.

    python bench/difficulty.py [--log-dir bench/tournaments/difficulty-greedy3] [--write]

Reads every ``mNN-pP.log`` a tournament sweep wrote (issue 19: at least 200
greedy games per cell, simulator version 2 — equipment dealt and played; issue
34: greedy's current version, 3, the ranking that knows the stakes)::

    python -m bombbuster_core tournament --missions 1-66 --players 2-5 --games 200 \\
        --policy greedy --seed 2026 --log-dir bench/tournaments/difficulty-greedy3 --resume --jobs 2

and prints docs/results/difficulty.md's table (win rate, 95 % Wilson interval, games).
``--write`` also writes what is derived from the same figures:
``docs/difficulty.svg`` (win rate per mission with interval bars, a series per
player count) and ``web/difficulty.json`` (the page shows the chosen mission's
figure at setup).  A log whose games were played with other settings (another
policy or policy version, simulator version, seed, or without equipment) is
refused, so every published figure comes from one kind of game.
``bench/tournaments/difficulty/`` keeps greedy 1's sweep (the same deals), which
docs/results/issue34-stakes.md compares cell by cell.
"""
from __future__ import annotations

import argparse
import html
import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

import random  # noqa: E402

from bombbuster_core.missions import catalogue  # noqa: E402
from bombbuster_core.sim.actions import SimError  # noqa: E402
from bombbuster_core.sim.deal import new_game  # noqa: E402
from bombbuster_core.sim.greedy import GreedyPolicy  # noqa: E402
from bombbuster_core.sim.tournament import SIM_VERSION, read_log, wilson  # noqa: E402

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

POLICY = "greedy"
LOSSES = ("red", "detonator", "explosion", "stuck")  # the simulator's results other than "win" (sim/game.py)
HARD = 0.10  # cells won less often than this get a line saying how their games were lost
LOG_NAME = re.compile(r"m(\d\d)-p([2-5])\.log$")
SERIES = {2: "#1b9e77", 3: "#d95f02", 4: "#4f46e5", 5: "#e7298a"}  # colour-blind-safe (Dark2)


class DifficultyError(ValueError):
    pass


def cells(log_dir: str) -> list[dict[str, Any]]:
    """One entry per log: ``{"mission", "players", "games", "wins", "ci95", "losses", "seed"}``, by mission
    then players.  Every record must be greedy's current version's, of this simulator version, with equipment."""
    out = []
    for name in sorted(os.listdir(log_dir)):
        match = LOG_NAME.match(name)
        if not match:
            continue
        mission, players = int(match[1]), int(match[2])
        records = read_log(os.path.join(log_dir, name), [POLICY])
        if not records:
            continue
        settings = {json.dumps(r["settings"], sort_keys=True) for r in records}
        if len(settings) != 1:
            raise DifficultyError(f"{name}: games played with different settings: {sorted(settings)}")
        s = records[0]["settings"]
        if ((s.get("mission"), s.get("players"), s.get("sim"), s.get("equipment"), s.get("version"))
                != (mission, players, SIM_VERSION, True, GreedyPolicy.version)):
            raise DifficultyError(f"{name}: not greedy {GreedyPolicy.version}'s games of M{mission} {players}p by "
                                  f"simulator version {SIM_VERSION} with equipment: {s}")
        n, wins = len(records), sum(r["result"] == "win" for r in records)
        losses = {kind: sum(r["result"] == kind for r in records) for kind in LOSSES}
        if sum(losses.values()) != n - wins:
            raise DifficultyError(f"{name}: a result other than {', '.join(('win',) + LOSSES)}")
        out.append({"mission": mission, "players": players, "games": n, "wins": wins, "ci95": list(wilson(wins, n)),
                    "losses": losses, "seed": s["seed"],
                    # The dial starts `players` spaces from the skull (most missions): a detonator loss
                    # with fewer failed cuts was moved there by something else (skips, costs, Nano).
                    "detonator_few_failures": sum(r["result"] == "detonator" and r["failed_cuts"] < players
                                                  for r in records)})
    return out


def hard_cells(measured: list[dict[str, Any]]) -> str:
    """A line per cell won less than HARD of the time: its losses by kind, and how many detonator
    losses came with fewer failed cuts than players (the dial moved for another reason)."""
    lines = []
    for c in measured:
        if c["wins"] < HARD * c["games"]:
            kinds = ", ".join(f"{kind} {n}" for kind, n in c["losses"].items() if n)
            lines.append(f"M{c['mission']} {c['players']}p: {c['wins']}/{c['games']} won; lost: {kinds}; detonator "
                         f"with fewer failed cuts than players: {c['detonator_few_failures']}")
    return "\n".join(lines)


def refused() -> dict[int, str]:
    """The missions the simulator refuses to deal (at 4 players), with its reason."""
    out = {}
    for entry in catalogue():
        try:
            new_game(random.Random(0), mission=entry["mission"], players=entry["players"][-1])
        except SimError as e:
            out[entry["mission"]] = str(e)
    return out


def _percent(x: float) -> str:
    return f"{100 * x:.0f}"


def markdown(measured: list[dict[str, Any]], refusals: dict[int, str]) -> str:
    """The difficulty table (docs/results/difficulty.md): a row per mission, a column per player count ("—": not measured yet;
    "n/a": the mission is not played with that many; "refused": the simulator cannot play it)."""
    by = {(c["mission"], c["players"]): c for c in measured}
    counts = sorted({c["players"] for c in measured}) or [4]
    lines = ["| Mission | " + " | ".join(f"{p} players" for p in counts) + " |",
             "|---|" + "---:|" * len(counts)]
    for entry in catalogue():
        m = entry["mission"]
        row = []
        for p in counts:
            c = by.get((m, p))
            if c:
                lo, hi = c["ci95"]
                row.append(f"{_percent(c['wins'] / c['games'])} % [{_percent(lo)}–{_percent(hi)}] ({c['games']})")
            elif p not in entry["players"]:
                row.append("n/a")
            elif m in refusals:
                row.append("refused")
            else:
                row.append("—")
        lines.append(f"| {m} · {entry['name']} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def svg(measured: list[dict[str, Any]], refusals: dict[int, str]) -> str:
    """Win rate per mission (x) with 95 % interval bars, one colour per player count; a grey
    "not simulated" mark on the missions the simulator refuses."""
    width, height, left, right, top, bottom = 1200, 420, 56, 16, 40, 46
    plot_w, plot_h = width - left - right, height - top - bottom
    counts = sorted({c["players"] for c in measured})
    step = plot_w / 66
    offset = {p: (i - (len(counts) - 1) / 2) * min(4.0, step / (len(counts) + 1)) for i, p in enumerate(counts)}

    def x(mission: int, players: int) -> float:
        return left + (mission - 0.5) * step + offset[players]

    def y(rate: float) -> float:
        return top + (1 - rate) * plot_h

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
             f'<rect width="{width}" height="{height}" fill="#fff"/>',
             f'<text x="{left}" y="18" font-size="14" font-weight="bold">Greedy {GreedyPolicy.version} win rate per mission '
             f'(simulator v{SIM_VERSION}: equipment dealt and played), 95 % Wilson intervals</text>']
    for tick in range(0, 11, 2):
        rate = tick / 10
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(rate):.1f}" y2="{y(rate):.1f}" '
                     f'stroke="#ddd"/><text x="{left - 6}" y="{y(rate) + 4:.1f}" text-anchor="end">'
                     f'{tick * 10} %</text>')
    for m in range(1, 67):
        if m == 1 or m % 5 == 0:
            parts.append(f'<text x="{left + (m - 0.5) * step:.1f}" y="{height - bottom + 16}" '
                         f'text-anchor="middle">{m}</text>')
    parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 8}" text-anchor="middle">mission</text>')
    for c in measured:
        p, m = c["players"], c["mission"]
        lo, hi = c["ci95"]
        cx, colour = x(m, p), SERIES[p]
        label = html.escape(f"M{m} {p}p: {c['wins']}/{c['games']} won, [{_percent(lo)}–{_percent(hi)}] %")
        parts.append(f'<g><title>{label}</title><line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(hi):.1f}" '
                     f'y2="{y(lo):.1f}" stroke="{colour}" stroke-width="1.5"/><circle cx="{cx:.1f}" '
                     f'cy="{y(c["wins"] / c["games"]):.1f}" r="2.6" fill="{colour}"/></g>')
    for m, why in refusals.items():
        cx = left + (m - 0.5) * step
        parts.append(f'<g><title>{html.escape(why)}</title><text x="{cx:.1f}" y="{y(0.5):.1f}" fill="#888" '
                     f'text-anchor="middle" transform="rotate(-90 {cx:.1f} {y(0.5):.1f})">not simulated</text></g>')
    for i, p in enumerate(counts):
        lx = width - right - 90 * (len(counts) - i)
        parts.append(f'<circle cx="{lx}" cy="30" r="4" fill="{SERIES[p]}"/>'
                     f'<text x="{lx + 8}" y="34">{p} players</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def page_json(measured: list[dict[str, Any]], refusals: dict[int, str]) -> str:
    """What the page's setup shows: ``{"policy", "version", "sim", "cells": {"M": {"P": {games, wins, ci95}}},
    "refused": {"M": why}}``."""
    table: dict[str, dict[str, Any]] = {}
    for c in measured:
        table.setdefault(str(c["mission"]), {})[str(c["players"])] = {
            "games": c["games"], "wins": c["wins"], "ci95": [round(v, 4) for v in c["ci95"]]}
    return json.dumps({"policy": POLICY, "version": GreedyPolicy.version, "sim": SIM_VERSION, "cells": table,
                       "refused": {str(m): why for m, why in refusals.items()}}, indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--log-dir", default=str(ROOT / "bench" / "tournaments" / "difficulty-greedy3"))
    parser.add_argument("--write", action="store_true", help="also write docs/difficulty.svg and web/difficulty.json")
    args = parser.parse_args(argv)
    try:
        measured = cells(args.log_dir)
    except (OSError, ValueError) as e:
        print(f"difficulty: {e}", file=sys.stderr)
        return 2
    refusals = refused()
    print(markdown(measured, refusals))
    for m, why in refusals.items():
        print(f"\nM{m}: {why}")
    print(f"\nCells won less than {HARD:.0%} of the time, and how their games were lost:\n{hard_cells(measured)}")
    games = sum(c["games"] for c in measured)
    print(f"\n{len(measured)} cells, {games} games, fewest in a cell: {min((c['games'] for c in measured), default=0)}")
    if args.write:
        (ROOT / "docs" / "difficulty.svg").write_text(svg(measured, refusals), encoding="utf-8")
        (ROOT / "web" / "difficulty.json").write_text(page_json(measured, refusals), encoding="utf-8")
        print("wrote docs/difficulty.svg and web/difficulty.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
