"""Makes the PNG icons a phone asks for from web/icons/icon.svg (run once by hand; the PNGs are committed).

Android's install prompt wants 192 and 512 px icons plus a "maskable" one whose picture keeps
inside the middle 80 % circle (the launcher crops the rest); iOS ignores the manifest and
takes an opaque 180 px apple-touch-icon, which it rounds itself. SVG is not enough for
either, so headless Chromium draws the SVG at each size and screenshots it:

    .venv/bin/python web/tools/make_icons.py      (needs the `python build.py test` setup)
"""
from __future__ import annotations

import base64
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (find_chromium)
from playwright.sync_api import sync_playwright  # noqa: E402

ICONS = ROOT / "web" / "icons"
BACKGROUND = "#10151f"  # the icon's own background, and the manifest's background_color
MASKABLE_SAFE_ZONE = 0.8  # the picture's share of a maskable icon (the safe zone's diameter)

# (file, size, scale of the picture, full-bleed opaque background)
OUTPUTS = (
    ("icon-192.png", 192, 1.0, False),
    ("icon-512.png", 512, 1.0, False),
    ("icon-maskable-512.png", 512, MASKABLE_SAFE_ZONE, True),
    ("apple-touch-icon.png", 180, 1.0, True),
)


def page_html(svg: str, size: int, scale: float, opaque: bool) -> str:
    image = base64.b64encode(svg.encode()).decode()
    side = round(size * scale)
    background = BACKGROUND if opaque else "transparent"
    return (f"<!doctype html><html><body style='margin:0;background:{background};width:{size}px;height:{size}px;"
            f"display:grid;place-items:center'><img src='data:image/svg+xml;base64,{image}' "
            f"width='{side}' height='{side}'></body></html>")


def main() -> int:
    svg = (ICONS / "icon.svg").read_text()
    chromium = os.environ.get("BOMBBUSTER_CHROMIUM") or build.find_chromium()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium or None, args=["--no-sandbox"])
        for name, size, scale, opaque in OUTPUTS:
            page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            page.set_content(page_html(svg, size, scale, opaque))
            page.wait_for_function("document.images[0].complete && document.images[0].naturalWidth > 0")
            page.screenshot(path=str(ICONS / name), omit_background=not opaque)
            page.close()
            print(f"wrote web/icons/{name} ({size}x{size})")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
