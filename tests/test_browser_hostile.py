"""A site built from hostile results data, opened page by page in Chromium: no script from
the data runs (zero dialogs) and nothing is requested outside localhost."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from generator.project import Project
from generator.site.build import build

from .browser import chromium, offline_page, serve_dir
from .conftest import ROOT, tiny_row, write_results

pytestmark = pytest.mark.browser

PAYLOADS = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(2)>',
    "[x](javascript:alert(3))",
    "</title><script>alert(4)</script>",
    "{: onclick=alert(5) } <svg onload=alert(6)>",
    "`<iframe src=javascript:alert(7)>`",
]
ARTICLE = """---
title: "{t}"
description: "{t}"
author: "{t}"
date: 2026-10-05
rounds: ["6.1"]
---

# {{{{ meta.title }}}}

{{% set x = per_gpu("6.1-0001", "gpt-oss-120b", "Server") %}}
System {{{{ x.system }}}} from {{{{ x.submitter }}}} ({{{{ software("6.1-0001", "gpt-oss-120b", "Server") }}}})
delivers {{{{ x }}}} tokens/s per GPU in MLPerf® Inference v6.1 Closed Datacenter gpt-oss-120b Server.{{{{ cite() }}}}

| System | Per GPU |
|---|--:|
| {{{{ x.system }}}} | {{{{ x }}}} |

{{{{ chart("per_gpu_by_family", "gpt-oss-120b", "Server", round="6.1", families=["B300", "B200"]) }}}}

{{{{ footnotes() }}}}
"""


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str]]]:
    tmp = tmp_path_factory.mktemp("hostile")
    project = Project(ROOT).clone(tmp / "p", content=ROOT / "tests" / "golden" / "content")
    for p in project.content_dir.glob("*.md"):
        p.unlink()
    text = " ".join(PAYLOADS)
    (project.content_dir / "hostile.md").write_text(ARTICLE.format(t=text.replace('"', '\\"')), "utf-8")
    fields = {k: text for k in ("System", "Submitter", "Software", "Platform")}
    rows = [
        tiny_row("6.1-0001", "gpt-oss-120b", "Server", 80000.0, **fields),
        tiny_row(
            "6.1-0002", "gpt-oss-120b", "Server", 60000.0, accelerator="NVIDIA B200-SXM-180GB", **fields
        ),
        # Suite: a suite or refused at load (tests/test_data_as_published.py)
        tiny_row("6.1-0003", text, "Offline", 9000.0, Accelerator=text, **fields),
    ]
    site = build(
        project=project, results=write_results(tmp / "r", rows), site_dir=tmp / "site", log=lambda _: None
    )
    pages = sorted(str(p.relative_to(site.site_dir)) for p in site.site_dir.rglob("*.html"))
    with serve_dir(site.site_dir) as url:
        yield url, pages


def test_hostile_data_runs_no_script_on_any_page_and_requests_nothing_outside(
    hostile_site: tuple[str, list[str]],
) -> None:
    url, pages = hostile_site
    assert "hostile.html" in pages and "review/compliance-hostile.html" in pages and "data/v6.1.html" in pages
    dialogs: list[str] = []
    outside: list[str] = []
    with chromium() as browser:
        page = offline_page(browser, outside)
        page.on("dialog", lambda d: (dialogs.append(f"{page.url}: {d.message}"), d.dismiss()))
        for name in pages:
            page.goto(f"{url}/{name}", wait_until="networkidle")
            for link in page.locator("a[href^='javascript:']").all():
                dialogs.append(f"{name}: javascript: link {link.get_attribute('href')}")
            handlers = page.evaluate("document.querySelectorAll('[onclick],[onerror],[onload]').length")
            if handlers:
                dialogs.append(f"{name}: {handlers} event-handler attribute(s) in the page")
        page.goto(f"{url}/hostile.html", wait_until="networkidle")
        page.wait_for_selector(".gi-vega.gi-drawn svg", timeout=20_000)
        page.locator(".gi-vega svg").first.hover()
    assert dialogs == []
    assert outside == []
