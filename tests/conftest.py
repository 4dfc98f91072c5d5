"""Fixtures shared by every test directory: the built site, and what a test does when
a piece it needs (a browser, Playwright, Node) is missing."""
from __future__ import annotations

import os
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
