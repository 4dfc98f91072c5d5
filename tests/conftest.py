"""Fixtures shared by every test directory: the built site, what a test does when
a piece it needs (a browser, Playwright, Node) is missing, and the fast tier
(BOMBBUSTER_FAST=1: a sample of each seed range, no slow tests)."""
from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import NoReturn

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (repo root's build.py: site builder, server and the skip policy)


@pytest.fixture(scope="session")
def site_dir() -> Path:
    dist = Path(os.environ.get("BOMBBUSTER_DIST") or build.DIST)
    if not (dist / "index.html").exists():
        build.build_site(dist)
    return dist


@pytest.fixture(scope="session")
def missing_piece():
    """missing_piece(why) fails the test: a skip would let a run that never tested the
    page pass green.  A developer without a browser may set BOMBBUSTER_SKIP_E2E=1 to
    skip instead; under CI that is refused (build.e2e_skip_allowed)."""
    def missing(why: str) -> NoReturn:
        if build.e2e_skip_allowed():
            pytest.skip(f"{why} (skipped: {build.SKIP_E2E}=1)")
        pytest.fail(f"{why}; {build.SKIP_E2E}=1 skips this on a machine without it (never under CI)",
                    pytrace=False)

    return missing


# ---------------------------------------------------------------- the fast tier

# BOMBBUSTER_FAST=1 (build.py test --fast): the edit-test loop's tier, the same sample on every run
# (drawn from the test's id).  A parametrization over a range(N) of seeds or chunks keeps FAST_SAMPLE
# of its values; a list of cases with a ``seed`` field keeps FAST_SEEDS_PER_SCENARIO seed(s) of each
# scenario, every scenario kept (so every rule kind and every engine still meets the oracle); any
# other list of more than FAST_LIST cases (presets, recorded tables, missions, modules) keeps
# FAST_LIST of them, but a parametrization over engines stays whole.  Tests marked `slow` (whole
# self-play games, browser-heavy page tests) are skipped.  CI runs everything.
FAST = "BOMBBUSTER_FAST"
FAST_SAMPLE = 3
FAST_SEEDS_PER_SCENARIO = 1
FAST_LIST = 12


def fast_tier() -> bool:
    return os.environ.get(FAST) == "1"


def pytest_report_header(config: pytest.Config) -> str | None:
    if fast_tier():
        return (f"fast tier ({FAST}=1): {FAST_SAMPLE} values of each range(N), {FAST_SEEDS_PER_SCENARIO} seed of "
                f"each scenario, {FAST_LIST} cases of longer lists (engines whole), tests marked slow skipped")
    return None


@pytest.hookimpl(tryfirst=True)  # before pytest's own hook turns the marks into items
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if not fast_tier():
        return
    marks = metafunc.definition.own_markers
    for i, mark in enumerate(marks):
        if mark.name != "parametrize" or len(mark.args) < 2:
            continue
        values = mark.args[1]
        kept = fast_sample(mark.args[0], values, random.Random(metafunc.definition.nodeid))
        if kept is None:
            continue
        kwargs = dict(mark.kwargs)
        if isinstance(kwargs.get("ids"), (list, tuple)):  # the ids of the cases kept
            kwargs["ids"] = [kwargs["ids"][k] for k in kept]
        marks[i] = pytest.mark.parametrize(mark.args[0], [values[k] for k in kept], *mark.args[2:], **kwargs).mark


def fast_sample(argnames: str | list[str] | tuple[str, ...], values: object, rng: random.Random) -> list[int] | None:
    """The indexes of the fast tier's cases of one parametrization (the rules above), in order; None
    to keep it whole."""
    names = [n.strip() for n in argnames.split(",")] if isinstance(argnames, str) else list(argnames)
    if isinstance(values, range):
        return sorted(rng.sample(range(len(values)), FAST_SAMPLE)) if len(values) > FAST_SAMPLE else None
    if not isinstance(values, (list, tuple)) or any("engine" in n for n in names):
        return None
    by_seed = seeds_sampled(names, values, rng)
    if by_seed is not None:
        return by_seed
    return sorted(rng.sample(range(len(values)), FAST_LIST)) if len(values) > FAST_LIST else None


def seeds_sampled(names: list[str], values: list | tuple, rng: random.Random) -> list[int] | None:
    """The indexes kept of a list of cases with a ``seed`` among their fields (``"name,seed"``: each
    scenario over many seeds): FAST_SEEDS_PER_SCENARIO seed(s) of each scenario, every scenario kept.
    None when there is no such field."""
    if "seed" not in names or len(names) < 2 \
            or not all(isinstance(v, tuple) and len(v) == len(names) for v in values):
        return None
    at = names.index("seed")
    groups: dict[tuple, list[int]] = {}
    for k, case in enumerate(values):
        groups.setdefault(case[:at] + case[at + 1:], []).append(k)
    return sorted(k for ks in groups.values() for k in rng.sample(ks, min(FAST_SEEDS_PER_SCENARIO, len(ks))))


# The browser tests the fast tier keeps: the page's analysis and suggestions equal the CLI's, and one
# game recorded through the UI (in English; its French and German runs are in the full suite).  The
# others (~100, 15-60 s each on a busy machine) run in the full suite.
FAST_BROWSER_TESTS = (
    "e2e/test_api.py::test_analyze_equals_cli",
    "e2e/test_game_flow.py::test_four_player_game_through_the_ui[en]",
    "e2e/test_suggestions.py::test_panel_matches_cli_and_tapping_prefills_a_dual_cut",
)

# What else the fast tier leaves to the full suite: the slowest tests of a fast-tier run
# (`build.py test --fast --durations=50`), none of them an engine against the oracle.
FAST_SKIPPED = (
    # real processes killed and reaped, a Dask cluster started and stopped: waits on the machine
    "test_hardening.py::test_killing_the_cli_leaves_no_process",
    "test_hardening.py::test_ctrl_c_exits_130_without_traceback",
    "test_cluster.py::",
    "test_build.py::test_the_browser_fixture_fails_unless_a_developer_opts_out",
    # whole self-play games, searches and replays of logged games
    "test_sim_missions.py::test_random_setup_tokens_and_predealt_colours",
    "test_sim_equipment.py::test_the_captain_of_m17_and_m28_uses_no_card",
    # it needs every sighted game of the file, which the fast tier samples
    "test_sim_equipment.py::test_every_card_and_character_appears",
    "test_fullinfo.py::test_late_mission_positions",
    "test_ismcts.py::test_search_gain_prints_the_paired_comparison_from_a_log",
    "test_ismcts.py::test_a_search_that_keeps_greedys_move_plays_greedys_game",
    "test_ismcts.py::test_search_departures_replays_the_logged_games_and_refuses_one_that_differs",
    "test_ismcts.py::test_the_tournament_pairs_ismcts_with_greedy_on_the_same_deals",
    "test_public_state.py::test_the_core_reads_the_simulators_state_after_every_action",
    "test_lookahead.py::test_restore_spends_the_character_only_by_the_characters_own_detector",
    "test_sighted.py::test_sighted_never_fails_when_a_sure_call_exists",
    "test_sim.py::test_tiny_tournament_is_the_same_for_any_jobs",
    # every bridge call split over workers by the brute-force engine; the columns engine's stays
    "test_bridge_security.py::test_every_call_function_splits_equal_to_serial[brute]",
    # random JSON values at every place of a table: thousands of analyses
    "test_fuzz.py::test_any_json_value_anywhere_gets_a_clear_answer",
)


def slow(item: pytest.Item) -> bool:
    """Marked slow, left to the full suite (FAST_SKIPPED), or a browser test the fast tier does not keep."""
    if item.get_closest_marker("slow"):
        return True
    where = item.nodeid.split("tests/", 1)[-1]
    if where.startswith(FAST_SKIPPED):
        return True
    return where.startswith("e2e/") and not where.startswith(FAST_BROWSER_TESTS)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if fast_tier():
        skip = pytest.mark.skip(reason=f"slow: not in the fast tier ({FAST}=1)")
        for item in items:
            if slow(item):
                item.add_marker(skip)
