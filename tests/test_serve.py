"""The local server of `python build.py serve` (build.py): it serves the site, and a client
that drops a download prints no traceback while any other error still does."""
from __future__ import annotations

import threading
import urllib.request

import pytest

import build


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
