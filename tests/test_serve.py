"""The local server of `python build.py serve` (build.py): it serves the site, and a client
that drops a download prints no traceback while any other error still does. With --lan (or
--host 0.0.0.0) it serves the table's phones and prints the address they open, with a QR code
drawn by the page's encoder that an independent decoder reads back (issue 31, item 1)."""
from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

import build

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def server(tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html><title>t</title>", encoding="utf-8")
    (tmp_path / "core.wasm").write_bytes(b"\0asm")
    httpd = build.make_server(tmp_path, 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def test_the_printed_url_is_the_address_bound(server):
    # "localhost" may resolve to ::1, where another server on the port would answer
    assert build.site_url(server) == f"http://127.0.0.1:{server.server_address[1]}/"


def test_it_serves_the_site_with_the_types_pyodide_needs(server):
    url = build.site_url(server)
    with urllib.request.urlopen(url + "core.wasm") as response:
        assert response.headers["Content-Type"] == "application/wasm"
        assert response.headers["Cache-Control"] == "no-cache"
        assert response.read() == b"\0asm"


@pytest.mark.parametrize("error", [BrokenPipeError(32, "Broken pipe"), ConnectionResetError(104, "reset")])
def test_a_client_gone_mid_download_prints_no_traceback(server, capsys, error):
    try:
        raise error
    except ConnectionError:  # where socketserver calls handle_error: inside the handler's except
        server.handle_error(None, ("127.0.0.1", 50000))
    assert capsys.readouterr().err == ""


def test_other_errors_still_print_their_traceback(server, capsys):
    try:
        raise ValueError("a real bug")
    except ValueError:
        server.handle_error(None, ("127.0.0.1", 50000))
    err = capsys.readouterr().err
    assert "Traceback" in err and "a real bug" in err


# ---------------------------------------------------------------- serving to the table's phones (issue 31, item 1)

SERVE_SCRIPT = ("import sys, build; from pathlib import Path; build.DIST = Path(sys.argv[1]); "
                "sys.exit(build.main(sys.argv[2:]))")
LAST_LINE = "Over plain http"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# A QR code's printed rows back to modules: each character holds two rows (top, bottom).
HALF_BLOCKS = {" ": (False, False), "▀": (True, False), "▄": (False, True), "█": (True, True)}


@contextlib.contextmanager
def serve_process(site: Path, *options: str, env: dict[str, str] | None = None) -> Iterator[list[str]]:
    """`build.py serve --no-build --port 0 OPTIONS` on `site`; yields what it printed up to its last
    announcement (the readiness lines), and stops it on the way out, failed or not."""
    proc = subprocess.Popen([sys.executable, "-c", SERVE_SCRIPT, str(site), "serve", "--no-build", "--port", "0",
                             *options], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, encoding="utf-8")
    # A server that never prints would leave readline() waiting: past this, it is killed and the test fails.
    watchdog = threading.Timer(120, proc.kill)
    watchdog.start()
    try:
        lines: list[str] = []
        local = "--lan" not in options and "0.0.0.0" not in options
        while not lines or not (lines[-1].startswith(LAST_LINE if not local else "Serving")
                                or lines[-1].startswith("No local network address")):
            line = proc.stdout.readline()
            assert line, f"the server stopped before it was ready: {''.join(lines)}"
            lines.append(line)
        yield lines
    finally:
        watchdog.cancel()
        proc.kill()
        proc.wait()
        proc.stdout.close()


def printed_qr(lines: list[str]) -> list[list[bool]]:
    """The modules of the QR code printed in `lines` (quiet zone included)."""
    rows: list[list[bool]] = []
    for line in lines:
        cells = ANSI.sub("", line.rstrip("\n"))
        if "\x1b[" not in line or not cells:
            continue
        pairs = [HALF_BLOCKS[c] for c in cells]
        rows += [[top for top, _ in pairs], [bottom for _, bottom in pairs]]
    return rows


def decode_qr(modules: list[list[bool]]) -> str:
    """What jsQR (an independent decoder, the e2e tests' tool) reads from the modules, drawn 8 px each."""
    jsqr = build.fetch_test_tool("jsqr")
    script = """
const jsQR = require(process.argv[1]);
const modules = JSON.parse(require("fs").readFileSync(0, "utf8"));
const scale = 8, n = modules[0].length, rows = modules.length;
const data = new Uint8ClampedArray(n * scale * rows * scale * 4);
for (let y = 0; y < rows * scale; y++) for (let x = 0; x < n * scale; x++) {
  const v = modules[Math.floor(y / scale)][Math.floor(x / scale)] ? 0 : 255;
  data.set([v, v, v, 255], (y * n * scale + x) * 4);
}
const code = jsQR(data, n * scale, rows * scale);
process.stdout.write(code ? code.data : "");
"""
    done = subprocess.run(["node", "-e", script, str(jsqr)], input=json.dumps(modules), capture_output=True,
                          text=True, check=True)
    return done.stdout


@pytest.fixture
def site(tmp_path: Path) -> Path:
    (tmp_path / "index.html").write_text("<!doctype html><title>bombbuster test site</title>", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("option", [["--lan"], ["--host", "0.0.0.0"]], ids=["--lan", "--host 0.0.0.0"])
def test_serving_to_the_network_prints_the_address_a_phone_opens_and_its_qr_code(site: Path, option: list[str],
                                                                                  missing_piece) -> None:
    if not shutil.which("node"):
        missing_piece("node is not installed: the terminal QR code is drawn by web/js/qr.js under Node")
    lan = build.lan_address()
    with serve_process(site, *option) as lines:
        local = re.search(r"Serving bombbuster at (http://\S+)", lines[0]).group(1)
        if lan is None:  # a machine off any network: said plainly, no address to print
            assert lines[-1].startswith("No local network address found")
            return
        phone = re.search(r"open (http://\S+)  or scan:", lines[1]).group(1)
        port = urllib.parse.urlsplit(local).port
        assert phone == f"http://{lan}:{port}/"
        assert not ipaddress.ip_address(lan).is_loopback
        for url in (phone, local):  # reachable by the address phones use, and on this machine
            with urllib.request.urlopen(url) as response:
                assert b"bombbuster test site" in response.read()
        assert decode_qr(printed_qr(lines[2:-1])) == phone
        assert "cannot keep it offline or install it" in lines[-1] and "https" in lines[-1]


def test_without_node_it_says_plainly_that_no_qr_code_is_printed(site: Path, tmp_path: Path) -> None:
    if build.lan_address() is None:
        pytest.skip("this machine has no local network address (the no-address line is tested above)")
    no_node = tmp_path / "bin"
    no_node.mkdir()
    (no_node / "python").symlink_to(sys.executable)
    with serve_process(site, "--lan", env={**os.environ, "PATH": str(no_node)}) as lines:
        text = "".join(lines)
    assert "No QR code printed" in text and "Node" in text
    assert "\x1b[" not in text  # no half-drawn code either


def test_localhost_only_announces_no_phone_address(site: Path) -> None:
    with serve_process(site) as lines:
        assert len(lines) == 1 and lines[0].startswith("Serving bombbuster at http://127.0.0.1:")


def test_the_phone_address_is_the_lan_address_for_every_interface_and_none_for_loopback(tmp_path: Path) -> None:
    everywhere = build.make_server(tmp_path, 0, "0.0.0.0")
    loopback = build.make_server(tmp_path, 0)
    try:
        lan = build.lan_address()
        port = everywhere.server_address[1]
        assert build.phone_url(everywhere) == (None if lan is None else f"http://{lan}:{port}/")
        assert build.site_url(everywhere) == f"http://127.0.0.1:{port}/"
        assert build.phone_url(loopback) is None
    finally:
        everywhere.server_close()
        loopback.server_close()
