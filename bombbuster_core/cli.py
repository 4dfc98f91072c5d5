"""Command line: ``python -m bombbuster_core analyze TABLE.json [--engine NAME]``,
``python -m bombbuster_core suggest TABLE.json [--player P] [--mode exact|entropy] ...``
``python -m bombbuster_core new --mission N --players P [--yellow KEYS] [--red KEYS] [--number V]``,
``python -m bombbuster_core sample TABLE.json --n N [--seed S]`` (exact posterior deals, one JSON line each),
``python -m bombbuster_core explain TABLE.json --slot P:S:J [--value V | --not V]`` (the events that force a wire),
``python -m bombbuster_core review TABLE.json [--player P] [--search N] [--progress]`` (each decision's odds, the best move, the cost:
a JSON list; exit 1 with the ``analyze`` JSON for an impossible table)
and ``python -m bombbuster_core tournament --mission N --players P --games G --policy NAME ...`` (sim/).

Exit status: 0 with the analysis JSON (``new``: the mission's format-1
table); 1 with ``{"consistent": false, ...}`` for an impossible table; 2 with
``{"error": ...}`` for a malformed file or command line, a table too large
for the chosen engine, or a mission, player count or option the game does
not allow.  Never a traceback.
"""
from __future__ import annotations

import sys
from types import SimpleNamespace

from . import jsonio
from .analysis import analyze
from .beliefs import EngineLimit
from .engines import DEFAULT, ENGINES, columns
from .table import TableError, load_table

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from .events import SlotRef
    from .wires import Value


def _emit(obj: Any) -> None:
    sys.stdout.write(jsonio.dumps(obj) + "\n")


def _refuse_table(e: TableError) -> int:
    """Exit status 2 with the loader's words (and the event they name, if any)."""
    _emit({"error": str(e), **({"event": e.event} if e.event is not None else {})})
    return 2


def read_table(path: str):
    """Load and validate a table file; raise TableError with a clear message."""
    return load_table(read_json(path))


def read_json(path: str) -> Any:
    """A table file's JSON, not yet validated; TableError when it cannot be read or decoded."""
    try:
        with open(path, encoding="utf-8") as f:
            return jsonio.loads_strict(f.read(jsonio.MAX_CHARS + 1))
    except OSError as e:
        raise TableError(f"cannot read {path}: {e.strerror}", "file_unreadable", {"file": path}) from None
    except ValueError as e:  # json.JSONDecodeError, UnicodeDecodeError
        raise TableError(f"{path} is not valid JSON: {e}", "file_not_json", {"file": path}) from None


def main(argv: list[str] | None = None) -> int:
    """Run one command; Ctrl-C stops it with exit status 130 and no traceback."""
    try:
        return _run(sys.argv[1:] if argv is None else argv)
    except KeyboardInterrupt:
        return 130


def _run(argv: list[str]) -> int:
    args = _plain_analyze(argv) or _parse(argv)
    if args.command == "new":
        return _new(args)
    if args.command == "tournament":
        return _tournament(args)
    columns.PARALLEL_SWEEPS = True  # the CLI is single-threaded, so forking is safe
    if getattr(args, "state_budget", None) is not None:
        columns.BUDGET = args.state_budget
    if args.command == "review":
        return _review(args)
    try:
        table = read_table(args.table)
    except TableError as e:
        return _refuse_table(e)
    if args.command == "sample":
        return _sample(table, args)
    if args.command == "explain":
        return _explain(table, args)
    refused: tuple[type[Exception], ...] = (EngineLimit,)  # exit 2 with {"error": ...}
    if args.command == "suggest":
        from .suggest import SuggestError
        refused += (SuggestError,)
    try:
        result = analyze(table, args.engine) if args.command == "analyze" else _suggest(table, args)
    except refused as e:
        _emit({"error": str(e)})
        return 2
    _emit(result)
    return 0 if result["consistent"] else 1


# Start-up time.  Every `analyze` is a short-lived process, so whatever it
# imports besides the analysis shows: argparse with what it loads (gettext,
# locale, shutil) costs it ~10 ms, the suggest package another ~10 ms.  Hence the plain
# `analyze TABLE [--engine NAME]` is read without argparse (tests/test_cli.py
# checks that argparse reads it the same), and any other command line that
# starts with "analyze" gets a parser without the suggest arguments, whose
# choices and defaults come from the suggest package: argparse never looks at a
# sub-command's arguments but those of the one given, even for --help.
def _plain_analyze(argv: list[str]) -> SimpleNamespace | None:
    """What :func:`_parse` makes of ``analyze TABLE`` or ``analyze TABLE --engine NAME``; None for other lines."""
    if len(argv) not in (2, 4) or argv[0] != "analyze" or argv[1].startswith("-"):
        return None
    if len(argv) == 4 and (argv[2] != "--engine" or argv[3] not in ENGINES):
        return None
    return SimpleNamespace(command="analyze", table=argv[1], engine=argv[3] if len(argv) == 4 else DEFAULT,
                           state_budget=None)


def _parse(argv: list[str]) -> argparse.Namespace:
    import argparse  # not at the top: see above

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> None:  # usage errors as JSON too, exit 2
            _emit({"error": f"{self.prog}: {message}"})
            sys.exit(2)

    parser = Parser(prog="bombbuster_core", description="Exact deduction for Bomb Busters tables.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_an = sub.add_parser("analyze", help="possible values and exact probabilities of every wire")
    p_an.add_argument("table", help="table file, format 1 (JSON)")
    p_an.add_argument("--engine", choices=sorted(ENGINES), default=DEFAULT)
    p_an.add_argument("--budget", dest="state_budget", type=state_budget, metavar="STATES",
                      help=f"refuse tables whose analysis would visit more states (default {columns.BUDGET:.0f}; "
                           "'none' = no limit)")
    p_sg = sub.add_parser("suggest", help="ranked cut suggestions for the player to move")
    if not argv or argv[0] != "analyze":
        _suggest_arguments(p_sg)
    p_new = sub.add_parser("new", help="the format-1 table a game of a mission starts from (no events)")
    p_new.add_argument("--mission", type=int, required=True, help="mission number, 1-66")
    p_new.add_argument("--players", type=int, required=True, help="number of players, 2-5")
    p_new.add_argument("--yellow", type=sort_keys, help="comma-separated drawn yellow keys, e.g. 3.1,7.1 "
                       "(every candidate of a 'k of m' pool); default: placeholders")
    p_new.add_argument("--red", type=sort_keys, help="comma-separated drawn red keys, e.g. 5.5 (as --yellow)")
    p_new.add_argument("--number", type=int, help="mission 11: the face-up Number card counted as red")
    p_new.add_argument("--equipment", type=sort_keys, metavar="IDS",
                       help="comma-separated printed IDs of the equipment cards drawn, e.g. 1,8,9.9,Y "
                            "(meta.equipment lists the mission's pool)")
    p_new.add_argument("--covers", type=number_cards, metavar="VALUES",
                       help="mission 12: the Number card over each --equipment card, in the same order, e.g. 7,3,12 "
                            "(default: placeholders)")
    p_ex = sub.add_parser("explain", help="the fewest recorded events that force a wire's value (or rule one out)")
    p_ex.add_argument("table", help="table file, format 1 (JSON)")
    p_ex.add_argument("--slot", type=slot_ref, required=True, metavar="P:S:J",
                      help="the wire: player, stand, slot (0-based, as in the table file)")
    claim = p_ex.add_mutually_exclusive_group()
    claim.add_argument("--value", type=gameplay_value, help="why the wire is this value (default: its certain value)")
    claim.add_argument("--not", dest="not_value", type=gameplay_value, metavar="VALUE",
                       help="why the wire cannot be this value")
    p_ex.add_argument("--engine", choices=sorted(ENGINES), default=DEFAULT)
    p_rv = sub.add_parser("review", help="each decision of a recorded game: its odds then, the best move, the cost")
    p_rv.add_argument("table", help="table file, format 1 (JSON)")
    p_rv.add_argument("--player", type=int, help="only this player's decisions (default: the table's 'me'; "
                      "in public view every decision)")
    p_rv.add_argument("--engine", choices=sorted(ENGINES), default=DEFAULT)
    p_rv.add_argument("--red-cap", type=probability, default=0.05, help="the ranking's red cap, as suggest's")
    p_rv.add_argument("--state-budget", dest="state_budget", type=state_budget, metavar="STATES",
                      help="the columns engine's work budget per analysis, as analyze --budget")
    p_rv.add_argument("--search", type=int, default=0, metavar="ITERATIONS",
                      help="also judge each of the table's player's decisions by the search (the page's Search "
                           "mode) with this many iterations: its pick and the win chance of its rollouts")
    p_rv.add_argument("--seed", type=int, default=0, help="the search's seed")
    p_rv.add_argument("--search-work", dest="search_work", type=int, metavar="WORK",
                      help="bound each decision's search as the page's Search mode does (its 'work'; "
                           "default: the iterations alone)")
    p_rv.add_argument("--progress", action="store_true", help="say on stderr as each decision is reviewed")
    p_sa = sub.add_parser("sample", help="deals drawn exactly from the table's posterior, one JSON line each")
    p_to = sub.add_parser("tournament", help="self-play win rates of policies on the same deals")
    if not argv or argv[0] != "analyze":
        _sim_arguments(p_sa, p_to)
    return parser.parse_args(argv)


def slot_ref(raw: str) -> SlotRef:
    from .events import SlotRef
    parts = raw.split(":")
    if len(parts) != 3 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(raw)
    return SlotRef(*(int(p) for p in parts))


def gameplay_value(raw: str) -> Value:
    from .wires import parse_value
    return parse_value(int(raw) if raw.strip().isdigit() else raw.strip(), allow_red=True)


def _explain(table: Any, args: argparse.Namespace) -> int:
    from .beliefs import Inconsistent
    from .explain import ExplainError, explain
    negated = args.not_value is not None
    try:
        result = explain(table, args.slot, args.not_value if negated else args.value, negated=negated,
                         engine=args.engine)
    except Inconsistent:
        _emit(analyze(table, args.engine))  # names the impossible event
        return 1
    except (ExplainError, EngineLimit) as e:
        _emit({"error": str(e)})
        return 2
    _emit(result)
    return 0


def _review(args: argparse.Namespace) -> int:
    from .analysis import EngineChoiceError
    from .review import ReviewError, review
    from .suggest import Policy

    def progress(done: int, total: int) -> None:
        sys.stderr.write(f"review: {done}/{total} decisions\n")
        sys.stderr.flush()

    try:
        result = review(read_json(args.table), player=args.player, engine=args.engine,
                        policy=Policy(red_cap=args.red_cap), progress=progress if args.progress else None,
                        search=args.search, seed=args.seed, search_work=args.search_work)
    except TableError as e:
        return _refuse_table(e)
    except (ReviewError, EngineChoiceError, EngineLimit) as e:
        _emit({"error": str(e)})
        return 2
    if not result["consistent"]:
        _emit(result)  # names the impossible event
        return 1
    _emit(result["decisions"])
    return 0


def probability(raw: str) -> float:
    p = float(raw)
    if not 0 <= p <= 1:  # also refuses NaN
        raise ValueError(raw)
    return p


def sort_keys(raw: str) -> list[str]:
    return [k.strip() for k in raw.split(",")] if raw.strip() else []


def number_cards(raw: str) -> list[Any]:
    """Comma-separated Number card values: integers where they are digits; the rest stay as given for
    the table loader to refuse by name (cli._new)."""
    return [int(k) if k.isdigit() else k for k in sort_keys(raw)]


def _new(args: argparse.Namespace) -> int:
    from .missions import MissionError, new_table

    try:
        table = new_table(args.mission, args.players, yellow=args.yellow, red=args.red, number_card=args.number,
                          equipment=args.equipment, covers=args.covers)
    except MissionError as e:
        _emit({"error": str(e)})
        return 2
    try:  # new_table writes --covers as given: the loader checks them (coded, naming equipment[i].cover)
        load_table(table)
    except TableError as e:
        return _refuse_table(e)
    _emit(table)
    return 0


def _suggest_arguments(p: argparse.ArgumentParser) -> None:
    from .suggest import EQUIPMENT, MODES, PROBABILITIES, Policy

    p.add_argument("table", help="table file, format 1 (JSON)")
    p.add_argument("--player", type=int, help="player to move (default: the table's 'me')")
    p.add_argument("--mode", choices=MODES, default="exact", help="exact ranking or the entropy suggester")
    p.add_argument("--probabilities", choices=PROBABILITIES, default="exact",
                   help="entropy mode: P(success) of a branch, 'seed' = 1/k or exact")
    p.add_argument("--top", type=top_count, default=TOP, metavar="N|all",
                   help=f"list the first N suggestions (default {TOP}; 'all': every one; 'total' counts them)")
    p.add_argument("--engine", choices=sorted(ENGINES), default=DEFAULT)
    p.add_argument("--red-cap", type=float, default=Policy.red_cap, help="calls riskier than this rank last")
    p.add_argument("--seed", type=int, default=Policy.seed, help="seed of the tie-break among equal calls")
    p.add_argument("--equipment", type=equipment_kinds, default=Policy.equipment,
                   help=f"comma-separated kinds to suggest ({','.join(EQUIPMENT)}) or 'none'")
    p.add_argument("--per-kind", type=nonnegative, default=Policy.per_kind, help="suggestions per equipment kind")
    p.add_argument("--budget", type=budget, default=Policy.equipment_budget,
                   help="most analyses spent on equipment ('none' = no limit)")
    p.add_argument("--no-token", action="store_true", help="a failed cut places no info token (M58, constraint H)")
    p.add_argument("--state-budget", dest="state_budget", type=state_budget, metavar="STATES",
                   help="the columns engine's work budget per analysis, as analyze --budget")
    p.add_argument("--jobs", type=nonnegative, default=1,
                   help="worker processes for the entropy branches and the public view's per-value analyses")
    p.add_argument("--no-cards", dest="cards", action="store_false", help="no equipment advice for the board's cards")
    p.add_argument("--not-moving", dest="moving", action="store_false",
                   help="the player is not the one to move: advise 'any time' cards only")


def state_budget(raw: str) -> float:
    """The columns engine's work budget in states: a positive number, or 'none' (no limit)."""
    if raw == "none":
        return float("inf")
    n = float(raw)
    if not n >= 1 or n == float("inf"):  # also refuses NaN
        raise ValueError(raw)
    return n


TOP = 20  # suggestions the CLI prints by default: a 4-player start has hundreds (553 kB of JSON)


def top_count(raw: str) -> int | None:
    return None if raw == "all" else nonnegative(raw)


def nonnegative(raw: str) -> int:
    n = int(raw)
    if n < 0:
        raise ValueError(raw)
    return n


def number_list(raw: str) -> list[int]:
    """``4``, ``2-5``, ``1,4,8-10``: the numbers in order, each once."""
    out: list[int] = []
    for part in raw.split(","):
        lo, dash, hi = part.strip().partition("-")
        first, last = int(lo), int(hi) if dash else int(lo)
        if last < first or last - first > 1000:
            raise ValueError(raw)
        out += [n for n in range(first, last + 1) if n not in out]
    return out


def positive(raw: str) -> int:
    n = int(raw)
    if n < 1:
        raise ValueError(raw)
    return n


def positive_float(raw: str) -> float:
    x = float(raw)
    if not 0 < x < float("inf"):
        raise ValueError(raw)
    return x


def budget(raw: str) -> int | None:
    return None if raw == "none" else nonnegative(raw)


def equipment_kinds(raw: str) -> tuple[str, ...]:
    from .suggest import EQUIPMENT

    kinds = () if raw == "none" else tuple(k for k in raw.split(",") if k)
    if any(k not in EQUIPMENT for k in kinds):
        raise ValueError(raw)
    return kinds


def _suggest(table: Any, args: argparse.Namespace) -> dict[str, Any]:
    from .suggest import Policy, SuggestError, suggest

    if args.player is None and table.me is None:
        raise SuggestError("the table is in public view (no 'me'): pass --player P, the player to move (0-"
                           f"{len(table.players) - 1})")

    policy = Policy(red_cap=args.red_cap, seed=args.seed, equipment=args.equipment, per_kind=args.per_kind,
                    equipment_budget=args.budget, failure_token=not args.no_token)
    options = dict(player=args.player, mode=args.mode, probabilities=args.probabilities, top=args.top,
                   engine=args.engine, policy=policy, cards=args.cards, moving=args.moving)
    from .children import bind_to_parent, pool_context, usable_jobs

    jobs = usable_jobs(args.jobs)
    if jobs <= 1:
        return suggest(table, **options)
    import os
    from concurrent.futures import ProcessPoolExecutor  # only here: Pyodide has no processes
    columns.PARALLEL_SWEEPS = False  # the pool is the parallelism; no forking beside its threads
    pool = ProcessPoolExecutor(jobs, mp_context=pool_context(), initializer=bind_to_parent, initargs=(os.getpid(),))
    try:
        def executor(fn: Any, work: Any) -> Any:
            work = list(work)  # a few chunks per worker: balanced, yet cheap to ship
            return pool.map(fn, work, chunksize=max(1, len(work) // (4 * jobs)))

        result = suggest(table, executor=executor, **options)
    except KeyboardInterrupt:
        # Stop now: waiting for the workers' chunks is not prompt; they die with this process.
        sys.stdout.flush()
        os._exit(130)
    pool.shutdown()
    return result


def _sim_arguments(p_sa: argparse.ArgumentParser, p_to: argparse.ArgumentParser) -> None:
    from .sim import POLICIES
    from .sim.ismcts import HORIZON, ITERATIONS
    from .sim.lookahead import DEALS, DEPTH, WIDTH

    p_sa.add_argument("table", help="table file, format 1 (JSON)")
    p_sa.add_argument("--n", type=nonnegative, required=True, help="number of deals")
    p_sa.add_argument("--seed", type=int, default=0, help="random seed (the same seed prints the same deals)")
    p_sa.add_argument("--engine", choices=sorted(ENGINES), default=DEFAULT)
    which = p_to.add_mutually_exclusive_group(required=True)
    which.add_argument("--mission", type=int, help="mission number (missions.py presets)")
    which.add_argument("--missions", type=number_list, metavar="N-M",
                       help="a sweep: every mission of this list or range (1-66, 1,4,8-10), one log per cell "
                            "(--log-dir)")
    p_to.add_argument("--players", type=number_list, required=True,
                      help="number of players, 2-5 (a sweep: a list or range, e.g. 2-5)")
    p_to.add_argument("--games", type=nonnegative, required=True, help="deals played by every policy")
    p_to.add_argument("--policy", action="append", choices=sorted(POLICIES), required=True,
                      help="a policy to play (repeat the option for several); sighted is FOR MEASUREMENT ONLY: "
                           "it sees the true deal (greedy with perfect information, a ceiling, not a way to play)")
    p_to.add_argument("--seed", type=int, default=0, help="seed of the deals and of the policies' choices")
    p_to.add_argument("--no-equipment", dest="equipment", action="store_false",
                      help="deal no equipment cards (the same deals: what the equipment changes); logs from "
                           "before the simulator dealt equipment are games without it")
    p_to.add_argument("--jobs", type=nonnegative, help="worker processes (same numbers for any value; default 1, "
                      "with --cluster local: one per core)")
    p_to.add_argument("--cluster", metavar="local|ADDRESS",
                      help="play the games as tasks on Dask distributed: 'local' starts a cluster of --jobs worker "
                           "processes here, ADDRESS (tcp://HOST:8786) joins a running scheduler")
    p_to.add_argument("--json", action="store_true", help="print the summary as JSON")
    p_to.add_argument("--save", help="directory for every game's table file and hidden deal")
    p_to.add_argument("--deals", type=positive, default=DEALS, help=f"lookahead: deals sampled per decision ({DEALS})")
    p_to.add_argument("--depth", type=positive, default=DEPTH, help=f"lookahead: turns per rollout ({DEPTH})")
    p_to.add_argument("--width", type=positive, default=WIDTH,
                      help=f"lookahead: calls compared, greedy's included, plus its best detector use ({WIDTH})")
    p_to.add_argument("--iterations", type=positive, help=f"ismcts: iterations per decision ({ITERATIONS})")
    p_to.add_argument("--seconds", type=positive_float,
                      help="ismcts: seconds of search per decision instead of --iterations (not reproducible)")
    p_to.add_argument("--horizon", type=positive, default=HORIZON,
                      help=f"ismcts: turns simulated per iteration, tree and rollout ({HORIZON})")
    p_to.add_argument("--endgame", type=positive,
                      help="ismcts: search only once at most this many wires are uncut (default: every open decision)")
    p_to.add_argument("--log", help="append every finished game's record to this file (JSON lines)")
    p_to.add_argument("--log-dir", help="a sweep's logs: DIR/mNN-pP.log for each mission and player count")
    p_to.add_argument("--resume", action="store_true",
                      help="with --log: take the games the log already holds instead of playing them again")
    p_to.add_argument("--from-log", help="print the summary of the games a --log file holds for every --policy "
                      "(a run stopped early) instead of playing; a sweep: the --log-dir directory")


def _sample(table: Any, args: argparse.Namespace) -> int:
    import random

    from .beliefs import Inconsistent
    from .engines.sampling import TableSampler

    if args.engine != "columns":
        _emit({"error": f"the sampler draws through the columns engine's tables, not {args.engine!r}"})
        return 2
    try:
        sampler = TableSampler(table)
    except Inconsistent:
        _emit(analyze(table, args.engine))
        return 1
    except EngineLimit as e:
        _emit({"error": str(e)})
        return 2
    for deal in sampler.deals(args.n, random.Random(args.seed)):  # printed as drawn: memory bounded whatever --n
        _emit(deal)
    return 0


def _tournament(args: argparse.Namespace) -> int:
    import os

    from .sim.actions import SimError
    from .sim.ismcts import ITERATIONS
    from .sim.tournament import ClusterError, LogError, OutputError, progress_bar, read_log, run, summary, text
    from .missions import MissionError

    policies = list(dict.fromkeys(args.policy))
    many = args.missions is not None or args.log_dir is not None
    refusal = _tournament_refusal(args, many)
    if refusal:
        _emit({"error": refusal})
        return 2
    lookahead = {"deals": args.deals, "depth": args.depth, "width": args.width}
    ismcts = {"horizon": args.horizon, **({"seconds": args.seconds} if args.seconds is not None else
                                          {"iterations": args.iterations or ITERATIONS}),
              **({"endgame": args.endgame} if args.endgame is not None else {})}
    jobs = args.jobs or ((os.cpu_count() or 1) if args.cluster == "local" else 1)
    try:
        if many:
            result = _sweep(args, policies, jobs, lookahead, ismcts)
            if result is None:
                return 2
            if args.json:
                _emit(result)
            else:
                from .sim.tournament import sweep_text
                sys.stdout.write(sweep_text(result) + "\n")
            return 0
        if args.from_log:
            try:
                records = read_log(args.from_log, policies)
            except LogError as e:
                _emit({"error": f"--from-log: {e}"})
                return 2
        else:
            try:
                records = run(args.mission, args.players[0], args.games, policies, seed=args.seed, jobs=jobs,
                              save=args.save, progress=progress_bar if args.games else None, lookahead=lookahead,
                              log=args.log, resume=args.resume, cluster=args.cluster, equipment=args.equipment,
                              ismcts=ismcts)
            except (SimError, MissionError, LogError, OutputError, ClusterError) as e:
                _emit({"error": str(e)})
                return 2
    except KeyboardInterrupt:
        if args.cluster:
            # Stop now: closing a cluster politely takes seconds; its local workers are killed already.
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(130)
        raise
    result = summary(records, policies)
    if args.json:
        _emit(result)
    else:
        sys.stdout.write(text(result) + "\n")
    return 0


def _tournament_refusal(args: argparse.Namespace, many: bool) -> str | None:
    """What is wrong with a tournament's options, or None."""
    if args.missions is None and len(args.players) != 1:
        return "--players takes one number with --mission (a list or range needs --missions)"
    if many and args.log:
        return "a sweep logs one file per mission and player count: give --log-dir DIR, not --log"
    if args.resume and not (args.log or args.log_dir):
        return "--resume needs --log-dir DIR" if many else "--resume continues a --log file: give --log FILE"
    if args.cluster is not None and args.cluster != "local" and args.jobs:
        return "--jobs sets a --cluster local's workers; a cluster at an address has the workers it was given"
    if args.cluster is not None and args.from_log:
        return "--from-log plays nothing: drop --cluster"
    if args.seconds is not None and args.iterations is not None:
        return "ismcts's budget is --iterations or --seconds, not both"
    return None


def _sweep(args: argparse.Namespace, policies: list[str], jobs: int,
           lookahead: dict[str, Any], ismcts: dict[str, Any]) -> dict[str, Any] | None:
    """A sweep's result (``{"cells": [...]}``), or None after printing the error."""
    import os

    from .sim.tournament import ClusterError, LogError, OutputError, progress_bar, read_log, summary, sweep

    missions = args.missions if args.missions is not None else [args.mission]
    try:
        if args.from_log:
            cells = sweep(missions, args.players, 0, policies, seed=args.seed, note=_note)
            for cell in cells:
                path = os.path.join(args.from_log, f"m{cell['mission']:02d}-p{cell['players']}.log")
                if "records" in cell:
                    cell["records"] = read_log(path, policies) if os.path.exists(path) else []
        else:
            cells = sweep(missions, args.players, args.games, policies, seed=args.seed, jobs=jobs, save=args.save,
                          progress=progress_bar if args.games else None, lookahead=lookahead, log_dir=args.log_dir,
                          resume=args.resume, cluster=args.cluster, note=_note, equipment=args.equipment,
                          ismcts=ismcts)
    except (LogError, OutputError, ClusterError) as e:
        _emit({"error": f"--from-log: {e}" if args.from_log and isinstance(e, LogError) else str(e)})
        return None
    out = []
    for cell in cells:
        records = cell.pop("records", None)
        out.append({**cell, **(summary(records, policies) if records is not None else {})})
    return {"cells": out}


def _note(text: str) -> None:
    """A sweep's cell that is skipped, refused or failed: said on stderr as it is found."""
    sys.stderr.write(f"note: {text}\n")
    sys.stderr.flush()
