#!/usr/bin/env python3
"""Weight and timing of each kind of page on a simulated slow phone; prints figures, asserts nothing.

    .venv/bin/python bench/pages.py [--site DIR | --results DIR] [--runs N] [--json]

Without --site it builds the checkout's publication on the official results (--results, default
$GPU_INSIGHTS_SHARED, else ../shared/mlperf) into a temporary folder outside the checkout. The site
is served from 127.0.0.1 by a static server that compresses text with gzip, as a web host does, and
each page kind is opened in Debian's Chromium (``/usr/bin/chromium``) with an empty cache, through
the DevTools protocol on the slow-phone profile of issue 35: 150 ms round trip, 1.6 Mbit/s down,
750 kbit/s up, the CPU slowed down 4x. Per page kind, the median of --runs loads:

- html_kb: the page's HTML as written (uncompressed), and transfer_kb: every byte it downloaded
  (compressed) until the network was quiet, scripts and styles and charts included;
- dcl_s: DOMContentLoaded (the end of its handlers), fcp_s: first contentful paint;
- interactive_s: when the main thread is last free for good: the end of the last long task
  (over 50 ms) seen until the network and the main thread stayed quiet for 2 s, or
  DOMContentLoaded if later (the time-to-interactive of Lighthouse, without its network rule);
- blocking_ms: the total blocking time (each long task's time beyond 50 ms, after first paint).

- tab_stops: the elements a keyboard can tab to, hidden or not (as tests/test_weight.py counts them;
  the round overview had 5,455 before issue 35);
- markers: the most footnote links after one sentence of the page's HTML (the markers in a row).

``largest_html_kb`` is the largest HTML page of the whole site (every page, not only those opened),
``most_markers`` the most footnote links after one sentence on any page of the site.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.project import Project  # noqa: E402
from generator.site.build import build  # noqa: E402
from generator.site.reader import most_markers  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
#: the slow phone of issue 35
LATENCY_MS = 150
DOWN_BPS = 1.6e6 / 8
UP_BPS = 750e3 / 8
CPU_SLOWDOWN = 4
QUIET_S = 2.0
#: one page of each kind (the first of these names that the site has)
KINDS = {
    "home": ["index.html"],
    "article": ["mlperf-inference-v6.1-per-gpu.html"],
    "overview": ["mlperf-inference-v6.1-round-overview.html"],
    "entries": ["entries/mlperf-inference-v6.1-round-overview/v5.1.html"],
    "round": ["rounds/v6.1.html"],
    "benchmark": ["benchmarks/deepseek-r1.html", "benchmarks/gpt-oss-120b.html"],
    "benchmarks": ["benchmarks/index.html"],
    "data": ["data/v6.1.html"],
    "review": ["review/mlperf-inference-v6.1-round-overview.html"],
}
COMPRESSED = (".html", ".js", ".css", ".json", ".svg", ".xml", ".txt")

OBSERVE = """
window.__gi = {long: []};
new PerformanceObserver(list => {
  for (const e of list.getEntries()) window.__gi.long.push([e.startTime, e.duration]);
}).observe({type: "longtask", buffered: true});
"""
TIMINGS = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  const res = performance.getEntriesByType("resource");
  return {dcl: nav.domContentLoadedEventEnd, fcp: fcp ? fcp.startTime : null, long: window.__gi.long,
          transfer: nav.transferSize + res.reduce((s, r) => s + r.transferSize, 0),
          pending: res.filter(r => !r.responseEnd).length, now: performance.now()};
}"""
#: every element a keyboard can tab to, hidden or not (tests/test_weight.py's TAB_STOPS)
TAB_STOPS = """() => [...document.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex]")]
  .filter(e => e.tabIndex >= 0 && !e.disabled).length"""


class GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, text compressed with gzip when the browser accepts it (as a host serves them)."""

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if (
            not path.is_file()
            or path.suffix not in COMPRESSED
            or "gzip" not in self.headers.get("Accept-Encoding", "")
        ):
            super().do_GET()
            return
        body = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def served(site: Path) -> Iterator[str]:
    handler = functools.partial(GzipHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def load_once(browser: Any, url: str) -> dict[str, float]:
    """One load of *url* on the slow phone, from an empty cache."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    conditions = {
        "offline": False,
        "latency": LATENCY_MS,
        "downloadThroughput": DOWN_BPS,
        "uploadThroughput": UP_BPS,
    }
    cdp.send("Network.emulateNetworkConditions", conditions)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    page.add_init_script(OBSERVE)
    page.goto(url, wait_until="load", timeout=120_000)
    quiet_since, seen = time.monotonic(), (0, 0)
    while time.monotonic() - quiet_since < QUIET_S:
        time.sleep(0.25)
        t = page.evaluate(TIMINGS)
        now = (len(t["long"]), t["transfer"])
        if now != seen or t["pending"]:
            quiet_since, seen = time.monotonic(), now
    t = page.evaluate(TIMINGS)
    tab_stops = page.evaluate(TAB_STOPS)
    context.close()
    fcp = t["fcp"] or t["dcl"]
    ends = [start + dur for start, dur in t["long"]]
    blocking = sum(max(0.0, dur - 50) for start, dur in t["long"] if start >= fcp)
    return {
        "dcl_s": t["dcl"] / 1000,
        "fcp_s": fcp / 1000,
        "interactive_s": max([t["dcl"], *ends]) / 1000,
        "blocking_ms": blocking,
        "transfer_kb": t["transfer"] / 1024,
        "tab_stops": tab_stops,
    }


def measure(site: Path, runs: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright  # only this script needs it

    out: dict[str, Any] = {"profile": f"{LATENCY_MS} ms RTT, 1.6 Mbit/s, {CPU_SLOWDOWN}x CPU", "pages": {}}
    pages = sorted(site.rglob("*.html"))
    biggest = max(pages, key=lambda p: p.stat().st_size)
    out["largest_html_kb"] = round(biggest.stat().st_size / 1024, 1)
    out["largest_html"] = str(biggest.relative_to(site))
    marked = {str(p.relative_to(site)): most_markers(p.read_text("utf-8")) for p in pages}
    out["most_markers_page"] = max(sorted(marked), key=lambda k: marked[k])
    out["most_markers"] = marked[out["most_markers_page"]]
    load = os.getloadavg()[0]
    with served(site) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for kind, names in KINDS.items():
            name = next((n for n in names if (site / n).is_file()), None)
            if name is None:
                continue
            loads = [load_once(browser, f"{base}/{name}") for _ in range(runs)]
            row: dict[str, Any] = {"page": name, "html_kb": round((site / name).stat().st_size / 1024, 1)}
            for key in loads[0]:
                row[key] = round(statistics.median(x[key] for x in loads), 2 if key.endswith("_s") else 1)
            row["tab_stops"] = int(row["tab_stops"])
            row["markers"] = marked[name]
            out["pages"][kind] = row
        browser.close()
    # the machine's load (1-minute average) as the loads began and ended: timings are its to judge
    out["load"] = [round(load, 2), round(os.getloadavg()[0], 2)]
    return out


def built_site(results: Path, work: Path) -> Path:
    project = Project(ROOT).clone(work / "project")
    site = work / "site"
    build(project=project, results=results, site_dir=site, log=lambda _: None)
    return site


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--site", type=Path, help="a site built already (default: build one on --results)")
    default = Path(os.environ.get("GPU_INSIGHTS_SHARED", ROOT.parent / "shared" / "mlperf"))
    ap.add_argument("--results", type=Path, default=default)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="gi-pages-"))
    try:
        site = a.site.resolve() if a.site else built_site(a.results.resolve(), work)
        out = measure(site, a.runs)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if a.json:
        print(json.dumps(out, indent=1))
        return
    print(f"profile: {out['profile']}; largest page: {out['largest_html']} {out['largest_html_kb']} KB")
    print(f"machine load (1 min) {out['load'][0]} -> {out['load'][1]} on {os.cpu_count()} cores")
    print(f"most footnote links after one sentence: {out['most_markers']} ({out['most_markers_page']})")
    cols = [
        "html_kb",
        "transfer_kb",
        "fcp_s",
        "dcl_s",
        "interactive_s",
        "blocking_ms",
        "tab_stops",
        "markers",
    ]
    print(f"{'kind':<11}" + "".join(f"{c:>14}" for c in cols) + "  page")
    for kind, row in out["pages"].items():
        print(f"{kind:<11}" + "".join(f"{row[c]:>14}" for c in cols) + f"  {row['page']}")


if __name__ == "__main__":
    main()
