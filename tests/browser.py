"""Helpers for real-browser tests: Debian's Chromium through Playwright, offline."""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def need_chromium() -> None:
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        pytest.fail("Debian chromium is required for the browser tests: apt-get install chromium")


@contextmanager
def serve_dir(site: Path) -> Iterator[str]:
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *a: None  # type: ignore[method-assign]
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@contextmanager
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright  # the browser tests alone need it

    need_chromium()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def offline_page(browser: Any, outside: list[str], **kw: Any) -> Any:
    """A page whose requests outside localhost are blocked and recorded in *outside*."""
    page = browser.new_page(**kw)

    def guard(route: Any, request: Any) -> None:
        host = urlparse(request.url).hostname
        if request.url.startswith(("data:", "blob:")) or host in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            outside.append(request.url)
            route.abort()

    page.route("**/*", guard)
    return page
