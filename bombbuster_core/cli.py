"""Command line: ``python -m bombbuster_core analyze TABLE.json [--engine NAME]``.

Exit status: 0 with the analysis JSON; 1 with ``{"consistent": false, ...}``
for an impossible table; 2 with ``{"error": ...}`` for a malformed file or
command line, or a table too large for the chosen engine.  Never a traceback.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .analysis import analyze
from .engines import DEFAULT, ENGINES, columns
from .engines.signatures import EngineLimit
from .table import TableError, load_table


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # usage errors as JSON too, exit 2
        _emit({"error": f"{self.prog}: {message}"})
        sys.exit(2)


def _emit(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")


def read_table(path: str):
    """Load and validate a table file; raise TableError with a clear message."""
    try:
        with open(path, encoding="utf-8") as f:
            raw = json.load(f)
    except OSError as e:
        raise TableError(f"cannot read {path}: {e.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise TableError(f"{path} is not valid JSON: {e}") from None
    return load_table(raw)


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog="bombbuster_core", description="Exact deduction for Bomb Busters tables.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_an = sub.add_parser("analyze", help="possible values and exact probabilities of every wire")
    p_an.add_argument("table", help="table file, format 1 (JSON)")
    p_an.add_argument("--engine", choices=sorted(ENGINES), default=DEFAULT)
    args = parser.parse_args(argv)
    columns.PARALLEL_SWEEPS = True  # the CLI is single-threaded, so forking is safe
    try:
        table = read_table(args.table)
    except TableError as e:
        _emit({"error": str(e), **({"event": e.event} if e.event is not None else {})})
        return 2
    try:
        result = analyze(table, args.engine)
    except EngineLimit as e:
        _emit({"error": str(e)})
        return 2
    _emit(result)
    return 0 if result["consistent"] else 1
