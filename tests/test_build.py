"""`python build.py test` and the test fixtures never pass a run that missed a piece:
no Chromium (or Playwright) fails the run instead of skipping the end-to-end tests,
unless a developer opts out with BOMBBUSTER_SKIP_E2E=1, which CI ignores (issue 18, item 6).
And what makes the site installable from any host: the manifest's PNG icons, the
apple-touch-icon, the GitHub Pages workflow (issue 31, item 2)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import build

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def no_chromium(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """build.py's setup with no Chromium to be had; returns the commands run_tests ran."""
    ran: list[list[str]] = []
    monkeypatch.setattr(build, "ensure_venv", lambda: Path("/venv/bin/python"))
    monkeypatch.setattr(build, "ensure_chromium", lambda python: None)
    monkeypatch.setattr(build, "build_site", lambda: {})
    monkeypatch.setattr(build, "fetch_test_tool", lambda name: Path(name))

    def run(cmd: list[str], **kwargs: object) -> subprocess.CompletedProcess:
        ran.append(cmd)
        assert kwargs["env"]["BOMBBUSTER_CHROMIUM"] == ""  # type: ignore[index]
        return subprocess.CompletedProcess(cmd, 0)

    monkeypatch.setattr(build.subprocess, "run", run)
    for name in ("CI", build.SKIP_E2E):
        monkeypatch.delenv(name, raising=False)
    return ran


@pytest.mark.parametrize("env", [{}, {"CI": "true"}, {"CI": "1", build.SKIP_E2E: "1"}],
                         ids=["default", "CI", "CI with the opt-out"])
def test_no_chromium_fails_the_run_without_running_pytest(no_chromium: list[list[str]], monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture, env: dict[str, str]) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert build.run_tests([]) == 1
    assert no_chromium == []
    assert "no Chromium available" in capsys.readouterr().out


@pytest.mark.parametrize("ci", ["", "0", "false"])
def test_a_developer_may_skip_the_browser_tests_loudly(no_chromium: list[list[str]], monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture, ci: str) -> None:
    monkeypatch.setenv(build.SKIP_E2E, "1")
    monkeypatch.setenv("CI", ci)
    assert build.run_tests(["-q"]) == 0
    assert [cmd[1:] for cmd in no_chromium] == [["-m", "pytest", "tests", "-q"]]
    assert "WARNING" in capsys.readouterr().out


def fake_playwright(tmp_path: Path) -> Path:
    """A path entry on which `import playwright.sync_api` fails, as where it is not installed."""
    (tmp_path / "playwright").mkdir()
    (tmp_path / "playwright" / "__init__.py").write_text("raise ImportError('not installed (test)')\n")
    return tmp_path


@pytest.mark.parametrize("missing", ["chromium", "playwright"])
@pytest.mark.parametrize("env", [{"CI": "true"}, {"CI": "true", build.SKIP_E2E: "1"}, {}, {build.SKIP_E2E: "1"}],
                         ids=["CI", "CI with the opt-out", "default", "opt-out"])
def test_the_browser_fixture_fails_unless_a_developer_opts_out(tmp_path: Path, missing: str,
                                                               env: dict[str, str]) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("<!doctype html>")  # no build: the fixture fails first
    run_env = {k: v for k, v in os.environ.items() if k not in ("CI", build.SKIP_E2E)}
    run_env.update(env, BOMBBUSTER_DIST=str(tmp_path / "site"), BOMBBUSTER_CHROMIUM=str(tmp_path / "no-chromium"))
    if missing == "playwright":
        run_env["PYTHONPATH"] = os.pathsep.join([str(fake_playwright(tmp_path)), str(ROOT)])
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rs",
                           "tests/e2e/test_api.py::test_analyze_equals_cli"], cwd=ROOT, env=run_env,
                          capture_output=True, text=True, timeout=300)
    why = "playwright is not installed" if missing == "playwright" else "Chromium could not be started"
    assert why in proc.stdout, proc.stdout[-3000:]
    if env.get(build.SKIP_E2E) and "CI" not in env:
        assert proc.returncode == 0 and "skipped" in proc.stdout, proc.stdout[-3000:]
    else:
        assert proc.returncode != 0 and "skipped" not in proc.stdout, proc.stdout[-3000:]


# ---------------------------------------------------------------- installable anywhere (issue 31, item 2)

WEB = ROOT / "web"


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", f"{path.name} is no PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_the_manifest_names_png_icons_of_the_sizes_phones_ask_for() -> None:
    manifest = json.loads((WEB / "manifest.webmanifest").read_text())
    assert manifest["start_url"] == manifest["scope"] == "./"  # relative: any host, any path
    pngs = [icon for icon in manifest["icons"] if icon["type"] == "image/png"]
    for icon in pngs:
        width, height = png_size(WEB / icon["src"])
        assert icon["sizes"] == f"{width}x{height}" and not icon["src"].startswith("/")
    assert {(icon["sizes"], icon["purpose"]) for icon in pngs} >= {
        ("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}


def test_index_links_an_opaque_180_px_apple_touch_icon() -> None:
    index = (WEB / "index.html").read_text()
    assert '<link rel="apple-touch-icon" href="icons/apple-touch-icon.png">' in index
    assert png_size(WEB / "icons" / "apple-touch-icon.png") == (180, 180)
    color_type = (WEB / "icons" / "apple-touch-icon.png").read_bytes()[25]
    assert color_type == 2  # RGB, no alpha: iOS draws transparent corners black


def test_the_pages_workflow_builds_with_node_and_publishes_dist() -> None:
    workflow = (ROOT / ".github" / "workflows" / "pages.yml").read_text()
    assert "run: python build.py\n" in workflow
    assert "actions/setup-node@" in workflow  # build.py fetches Pyodide with npm pack
    assert "actions/upload-pages-artifact@" in workflow and "path: dist\n" in workflow
    assert "actions/deploy-pages@" in workflow
