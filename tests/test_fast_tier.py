"""The fast tier (issue 33 item 4): ``BOMBBUSTER_FAST=1``, set by ``build.py test --fast``.

It keeps a few values of each ``range(N)`` parametrization and a seed of each scenario, a
sample of each long list (engines whole), the same ones on every run, and skips the tests
marked ``slow``; without it every value runs.
"""
from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

import build

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_TESTS = '''
import pytest

@pytest.mark.parametrize("seed", range(50))
def test_seeds(seed):
    pass

@pytest.mark.parametrize("chunk", range(3))
def test_chunks(chunk):
    pass

@pytest.mark.parametrize("name", ["a", "b", "c", "d", "e"])
def test_names(name):
    pass

@pytest.mark.parametrize("case", [f"case{i}" for i in range(20)])
def test_long_list(case):
    pass

@pytest.mark.parametrize("engine", [f"engine{i}" for i in range(20)])
def test_every_engine(engine):
    pass

@pytest.mark.parametrize("name,seed", [(n, s) for n in ("a", "b") for s in range(5)])
def test_scenarios(name, seed):
    pass

@pytest.mark.slow
def test_slow():
    pass
'''


def run_sample(pytester: pytest.Pytester) -> tuple[pytest.RunResult, list[str]]:
    result = pytester.runpytest_subprocess("-v", "-p", "no:cacheprovider")
    return result, re.findall(r"::(test_\w+\[?[^\] ]*\]?) (?:PASSED|SKIPPED)", result.stdout.str())


def test_the_fast_tier_samples_seed_ranges_and_skips_slow_tests(pytester: pytest.Pytester,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # The project's hooks, loaded under another name: the sample directory's own conftest is this one.
    pytester.makeconftest(f"""
import importlib.util
spec = importlib.util.spec_from_file_location("project_conftest", {str(ROOT / "tests" / "conftest.py")!r})
project = importlib.util.module_from_spec(spec)
spec.loader.exec_module(project)
pytest_generate_tests = project.pytest_generate_tests
pytest_collection_modifyitems = project.pytest_collection_modifyitems
""")
    pytester.makepyfile(test_sample=SAMPLE_TESTS)
    pytester.makeini("[pytest]\nmarkers =\n    slow: skipped by the fast tier\n")
    monkeypatch.setenv("BOMBBUSTER_FAST", "1")
    fast, ran = run_sample(pytester)
    # 3 seeds of the range; short lists whole; 12 of a long list; engines whole; a seed per scenario.
    fast.assert_outcomes(passed=3 + 3 + 5 + 12 + 20 + 2, skipped=1)
    seeds = [name for name in ran if name.startswith("test_seeds")]
    assert len(seeds) == 3 and run_sample(pytester)[1] == ran  # the same sample every run
    scenarios = sorted(name.split("[")[1][0] for name in ran if name.startswith("test_scenarios"))
    assert scenarios == ["a", "b"]
    monkeypatch.delenv("BOMBBUSTER_FAST")
    run_sample(pytester)[0].assert_outcomes(passed=50 + 3 + 5 + 20 + 20 + 10 + 1)


def test_build_test_fast_sets_the_fast_tier(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # build.main moves there; put back after
    calls: list[tuple[list[str], bool]] = []
    run_tests = build.run_tests
    monkeypatch.setattr(build, "run_tests", lambda args, fast=False: calls.append((args, fast)) or 0)
    assert build.main(["test", "--fast", "-k", "engines"]) == 0 and build.main(["test"]) == 0
    assert calls == [(["-k", "engines"], True), ([], False)]
    with pytest.raises(SystemExit):
        build.main(["serve", "--fast"])

    envs: list[dict[str, str]] = []
    commands: list[list[str]] = []  # each run's arguments after "python -m pytest tests"
    for name in ("ensure_venv", "build_site", "fetch_test_tool"):
        monkeypatch.setattr(build, name, lambda *args: Path("python"))
    monkeypatch.setattr(build, "ensure_chromium", lambda python: "chromium")
    monkeypatch.setattr(build.subprocess, "run",
                        lambda cmd, **kwargs: envs.append(kwargs["env"]) or commands.append(cmd[4:])
                        or subprocess.CompletedProcess(cmd, 0))
    monkeypatch.delenv("BOMBBUSTER_FAST", raising=False)
    assert run_tests([], fast=True) == 0 and run_tests([]) == 0
    assert envs[0]["BOMBBUSTER_FAST"] == "1" and "BOMBBUSTER_FAST" not in envs[1]
    # The fast tier runs a worker per core; the full suite one process; a -n of one's own is kept.
    assert commands[0][-4:] == ["-n", "auto", "--dist", "worksteal"] and "-n" not in commands[1]
    assert run_tests(["-n", "1"], fast=True) == 0 and commands[2][-2:] == ["-n", "1"] and commands[2].count("-n") == 1


def test_every_test_the_fast_tier_names_exists() -> None:
    """FAST_SKIPPED and FAST_BROWSER_TESTS name tests by their ids: a renamed or removed test
    would leave a stale entry that skips nothing (or keeps nothing) without a word."""
    # Read from tests/conftest.py's source: in a whole run the name `conftest` may be tests/e2e's.
    lists = {node.targets[0].id: ast.literal_eval(node.value)
             for node in ast.parse((ROOT / "tests" / "conftest.py").read_text(encoding="utf-8")).body
             if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
             and node.targets[0].id in ("FAST_SKIPPED", "FAST_BROWSER_TESTS")}
    assert len(lists) == 2 and all(lists.values())
    stale = []
    for entry in (*lists["FAST_SKIPPED"], *lists["FAST_BROWSER_TESTS"]):
        path, _, name = entry.partition("::")
        source = ROOT / "tests" / path
        function = name.split("[", 1)[0]
        if not source.is_file() or (function and not re.search(rf"^(async )?def {re.escape(function)}\(", source.read_text(encoding="utf-8"), re.M)):
            stale.append(entry)
    assert stale == []
