"""The built reference article in real headless Chromium, offline: charts draw, notes link."""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

from generator.site import build

CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def served_site(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> Iterator[str]:
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        pytest.fail("Debian chromium is required for the browser test: apt-get install chromium")
    site = tmp_path_factory.mktemp("browser") / "site"
    build(results=shared_dir, site_dir=site, log=lambda _: None)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *a: None  # type: ignore[method-assign]
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_article_renders_offline_with_charts_and_working_footnotes(served_site: str) -> None:
    from playwright.sync_api import sync_playwright

    outside: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        try:
            page = browser.new_page()

            def guard(route, request):  # type: ignore[no-untyped-def]
                host = urlparse(request.url).hostname
                if request.url.startswith("data:") or host in ("127.0.0.1", "localhost"):
                    route.continue_()
                else:
                    outside.append(request.url)
                    route.abort()

            page.route("**/*", guard)
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{served_site}/mlperf-inference-v6.1-per-gpu.html", wait_until="networkidle")
            page.wait_for_selector(".gi-vega.gi-drawn svg", timeout=20_000)
            drawn = page.locator(".gi-vega.gi-drawn").count()
            assert drawn == page.locator(".gi-vega").count() == 3
            assert page.locator(".gi-vega.gi-drawn svg .mark-rect path").count() > 0

            link = page.locator('a[href="#mlperf-fn-2"]').first
            link.click()
            page.wait_for_function("location.hash === '#mlperf-fn-2'")
            note = page.locator("#mlperf-fn-2")
            assert note.count() == 1
            box = note.bounding_box()
            assert box is not None and 0 <= box["y"] < page.viewport_size["height"]  # type: ignore[index]
            li_text = page.locator("li", has=page.locator("#mlperf-fn-2")).inner_text()
            assert li_text.startswith(
                "MLPerf® Inference v6.0 Closed Datacenter; gpt-oss-120b (Server, Offline)."
            )
            assert errors == []
        finally:
            browser.close()
    assert outside == []
