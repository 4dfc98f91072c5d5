"""Table files and the offline app: import/export round trip, share links,
several saved games, a bad file refused, the app reloaded with the server
stopped and the network off, and laptop-sized screenshots."""
from __future__ import annotations

import base64
import json
import shutil

from e2e_helpers import cli_analyze, engine_ready, export_table, open_app, sample_table, screenshot, wait_until
from conftest import LAPTOP, SiteServer


def import_file(page, tmp_path, table, name="sample.bombbuster.json"):
    path = tmp_path / name
    path.write_text(json.dumps(table) if not isinstance(table, str) else table)
    page.set_input_files("#import-file", str(path))


def wait_analysed(page):
    page.wait_for_selector(".analysis-status.ok #worlds")


def test_import_export_round_trip(page, server, tmp_path):
    open_app(page, server.url)
    import_file(page, tmp_path, sample_table())
    wait_analysed(page)
    assert page.locator(".log .events li").count() == 3
    assert export_table(page) == sample_table()
    worlds = page.locator("#worlds").get_attribute("data-worlds")
    assert worlds == str(cli_analyze(sample_table())["worlds"])


def test_bad_file_is_refused_with_a_clear_message(page, server, tmp_path):
    open_app(page, server.url)
    import_file(page, tmp_path, "{not json", name="broken.json")
    toast = page.wait_for_selector(".toast.error")
    assert "Import failed: not a JSON file" in toast.inner_text()
    table = sample_table()
    table["events"][0]["at"]["player"] = 9
    import_file(page, tmp_path, table, name="bad-event.json")
    toast = page.wait_for_selector(".toast.error >> text=cannot be used")
    assert "event" in toast.inner_text()
    assert page.locator("#start-game").is_visible()  # still on the setup screen, nothing saved


def test_share_link_opens_the_game_and_games_are_listed(page, server):
    table = sample_table()
    encoded = base64.urlsafe_b64encode(json.dumps(table).encode()).decode().rstrip("=")
    open_app(page, server.url + "#game=" + encoded)
    wait_analysed(page)
    assert page.locator(".log .events li").count() == 3
    assert "#game=" not in page.url
    page.click("#menu-button")
    page.click(".menu-item[data-action='new']")
    page.click("#start-game")  # the default game: 4 players, "Nobody" is not chosen → asks for my wires
    assert page.wait_for_selector(".toast.error").is_visible()
    page.click(".chip[data-me='none']")
    page.click("#start-game")
    wait_analysed(page)
    page.click("#menu-button")
    assert page.locator(".saved-games li").count() == 2


def test_works_offline_after_one_visit(new_context, private_server, tmp_path):
    context = new_context()
    page = context.new_page()
    open_app(page, private_server.url)
    page.evaluate("navigator.serviceWorker.ready")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    import_file(page, tmp_path, sample_table())
    wait_analysed(page)
    expected_worlds = page.locator("#worlds").get_attribute("data-worlds")

    private_server.stop()
    context.set_offline(True)
    page.reload()
    open_app_offline = page.wait_for_selector("#engine-status[data-state='ready']", state="attached")
    assert open_app_offline
    wait_analysed(page)
    assert page.locator("#worlds").get_attribute("data-worlds") == expected_worlds
    assert page.locator(".log .events li").count() == 3


def test_laptop_screens(new_context, server, tmp_path):
    page = new_context(viewport=LAPTOP).new_page()
    open_app(page, server.url)
    screenshot(page, "laptop-setup")
    import_file(page, tmp_path, sample_table())
    wait_analysed(page)
    screenshot(page, "laptop-table")
    page.click(".table .slot[data-player='2'][data-slot='4']")
    page.wait_for_selector("#distribution li")
    screenshot(page, "laptop-slot-detail")


def test_a_new_build_takes_over_on_the_next_load(new_context, site_dir, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(site_dir, site)
    server = SiteServer(site)
    try:
        page = new_context().new_page()
        open_app(page, server.url)
        page.evaluate("navigator.serviceWorker.ready")
        old_cache = page.evaluate("caches.keys()")
        assert len(old_cache) == 1

        # A "new build": a changed page and a new cache version in sw.js.
        index = (site / "index.html").read_text()
        (site / "index.html").write_text(index.replace("<title>", "<title>v2 "))
        sw = (site / "sw.js").read_text()
        version = json.loads((site / "build-info.json").read_text())["version"]
        (site / "sw.js").write_text(sw.replace(version, "new-build"))

        page.reload()  # served by the old cache; the new service worker installs meanwhile
        wait_until(page, "caches.keys().then(keys => keys.length === 1 && keys[0] === 'bombbuster-new-build')")
        page.reload()  # the next load gets the new files
        assert page.title().startswith("v2 ")
        engine_ready(page)
    finally:
        server.stop()


def test_the_shipped_wheel_carries_pyodide_bytecode_for_every_module(site_dir):
    """build.py adds Pyodide's .pyc beside each .py (a cold worker then compiles nothing), listed in RECORD."""
    import hashlib
    import zipfile

    info = json.loads((site_dir / "build-info.json").read_text())
    with zipfile.ZipFile(site_dir / info["wheel"]) as wheel:
        names = set(wheel.namelist())
        record = next(n for n in names if n.endswith(".dist-info/RECORD"))
        listed = {line.split(",")[0]: line.split(",")[1] for line in wheel.read(record).decode().splitlines() if line}
        modules = [n for n in names if n.endswith(".py")]
        assert modules
        for module in modules:
            folder, _, file = module.rpartition("/")
            pyc = f"{folder}/__pycache__/{file[:-3]}.cpython-314.pyc"
            assert pyc in names, pyc
            digest = base64.urlsafe_b64encode(hashlib.sha256(wheel.read(pyc)).digest()).rstrip(b"=").decode()
            assert listed[pyc] == f"sha256={digest}"
            assert wheel.read(pyc)[4:8] == b"\x01\x00\x00\x00"  # PEP 552 flags: hash-based, unchecked
