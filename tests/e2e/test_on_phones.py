"""Getting the page onto the table's phones (issue 31, items 1 and 2).

- Hosted anywhere: dist/ served under a sub-path (as a static host serves a project page)
  loads, asks for nothing outside that path, registers its service worker for that path
  only, has a manifest whose start URL, scope and PNG icons resolve there, and reloads
  offline with the server stopped.
- On the local network (`build.py serve --lan`): opened by this machine's LAN address, which
  is no secure context, the page says it cannot work offline or be installed and what to do;
  it still works, and its share link carries the address the phone opened.
"""
from __future__ import annotations

import threading
from urllib.parse import urlparse

import build
import pytest
from conftest import PHONE
from e2e_helpers import open_app, sample_table
from test_files_and_offline import import_file, wait_analysed

SUB_PATH = "some/sub/path/"
ICON_SIZES = {"icons/icon-192.png": 192, "icons/icon-512.png": 512, "icons/icon-maskable-512.png": 512,
              "icons/apple-touch-icon.png": 180}


@pytest.fixture
def sub_path_server(site_dir, tmp_path):
    """The built site at http://127.0.0.1:PORT/some/sub/path/ (a link to dist/ inside an empty root)."""
    mount = tmp_path / "root" / SUB_PATH
    mount.parent.mkdir(parents=True)
    mount.symlink_to(site_dir.resolve(), target_is_directory=True)
    httpd = build.make_server(tmp_path / "root", 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd, f"{build.site_url(httpd)}{SUB_PATH}"
    finally:
        httpd.shutdown()
        httpd.server_close()


IMAGE_SIZE = """async (url) => {
    const image = new Image();
    image.src = url;
    await image.decode();
    return [image.naturalWidth, image.naturalHeight];
}"""


def test_the_site_works_under_a_sub_path_and_offline_there(new_context, sub_path_server, tmp_path):
    httpd, base = sub_path_server
    context = new_context()
    requested = []
    context.on("request", lambda request: requested.append(request.url))
    page = context.new_page()
    open_app(page, base)
    page.evaluate("navigator.serviceWorker.ready")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    assert page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)") == base

    # The manifest: start URL and scope are the sub-path; every icon is a PNG of its stated size.
    manifest_url = page.evaluate("document.querySelector('link[rel=manifest]').href")
    assert manifest_url == base + "manifest.webmanifest"
    manifest = page.evaluate("url => fetch(url).then(r => r.json())", manifest_url)
    resolve = lambda relative: page.evaluate("([r, b]) => new URL(r, b).href", [relative, manifest_url])  # noqa: E731
    assert resolve(manifest["start_url"]) == base and resolve(manifest["scope"]) == base
    pngs = {icon["src"]: icon for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in pngs.values()}
    assert any(icon["purpose"] == "maskable" for icon in pngs.values())
    touch_icon = page.evaluate("document.querySelector('link[rel=apple-touch-icon]').href")
    assert touch_icon == base + "icons/apple-touch-icon.png"
    for src in [*pngs, "icons/apple-touch-icon.png"]:
        size = ICON_SIZES[src]
        assert page.evaluate(IMAGE_SIZE, resolve(src)) == [size, size], src
        if src in pngs:
            assert pngs[src]["sizes"] == f"{size}x{size}"

    # Every file the page, its workers and its service worker asked for lies under the sub-path,
    # and so does every file the service worker keeps.
    outside = [url for url in requested if not url.startswith(base) and not url.startswith(("data:", "blob:"))]
    assert not outside, outside
    cached = page.evaluate("caches.keys().then(names => caches.open(names[0])).then(c => c.keys())"
                           ".then(requests => requests.map(r => r.url))")
    assert len(cached) > 20 and all(url.startswith(base) for url in cached)
    assert base + "pyodide/pyodide.asm.wasm" in cached and base + "icons/icon-maskable-512.png" in cached

    import_file(page, tmp_path, sample_table())
    wait_analysed(page)
    expected_worlds = page.locator("#worlds").get_attribute("data-worlds")
    httpd.shutdown()
    httpd.server_close()
    context.set_offline(True)
    page.reload()
    page.wait_for_selector("#engine-status[data-state='ready']", state="attached")
    wait_analysed(page)
    assert page.url.startswith(base)
    assert page.locator("#worlds").get_attribute("data-worlds") == expected_worlds


def test_on_localhost_no_insecure_notice_is_shown(page, server):
    open_app(page, server.url)
    assert page.evaluate("window.isSecureContext")
    assert page.locator("#insecure-notice").is_hidden()


@pytest.fixture
def lan_page(browser, site_dir):
    """A phone-sized page opened by this machine's LAN address, served on every interface
    (as `build.py serve --lan` does); nothing else is reachable."""
    lan = build.lan_address()
    if lan is None:
        pytest.skip("this machine has no local network address to open the page by")
    httpd = build.make_server(site_dir, 0, build.ALL_INTERFACES)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    context = browser.new_context(viewport=PHONE)
    try:
        url = build.phone_url(httpd)
        context.route("**/*", lambda route: route.continue_() if urlparse(route.request.url).hostname == lan
                      or route.request.url.startswith(("data:", "blob:")) else route.abort())
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        yield page, url
        assert not errors, f"uncaught errors in the page: {errors}"
    finally:
        context.close()
        httpd.shutdown()
        httpd.server_close()


def test_by_the_lan_address_the_page_says_it_cannot_go_offline_and_shares_that_address(lan_page, tmp_path):
    page, url = lan_page
    open_app(page, url)
    assert not page.evaluate("window.isSecureContext")
    notice = page.locator("#insecure-notice")
    assert notice.is_visible()
    text = " ".join(notice.inner_text().split())
    assert "cannot work offline or be installed" in text and "https" in text
    assert page.evaluate("'serviceWorker' in navigator") is False  # what the notice is about

    import_file(page, tmp_path, sample_table())
    wait_analysed(page)
    page.click("#menu-button")
    page.click(".menu-item[data-action='share']")
    link = page.locator("textarea.share-url").input_value()
    assert link.startswith(url + "#game=")
