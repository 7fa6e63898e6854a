"""Issue 35: the weight of each kind of page, footnotes a reader can read, and print.

The site built on the official results, in headless Chromium: no page over 300 KB of HTML; the
Vega bundle requested on a page with a chart only, after the page's DOMContentLoaded, and never by
a page's own markup; the provenance appendix on the review view and in ``figures.json``, not on
the reader's page; a reader's page that grows by a few bytes per entry it cites; on the round
overview, at most a tenth of the 5,455 tab stops it had, markers that do not repeat within a
paragraph, short hover previews, every entry ID on the page and printed; print keeping captions
with their tables, charts at the column's width, the page's URL and retrieval date. Screenshots
of the home page and both project articles at 390 and 1280 px go to ``screenshots/`` (README).
Timings on the slow-phone profile are printed by ``bench/pages.py``, not asserted here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.article.functions import Library, Prices
from generator.article.render import Renderer, load_article
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable
from generator.site.build import build
from generator.site.pages import without_provenance
from generator.site.reader import NoteContext, details_urls, entries_markdown, reader_markdown

from .browser import need_chromium, offline_page, serve_dir
from .conftest import ROOT, official_project, tiny_row, write_results

pytestmark = pytest.mark.browser

HOME = "index.html"
ARTICLE = "mlperf-inference-v6.1-per-gpu.html"
OVERVIEW = "mlperf-inference-v6.1-round-overview.html"
SCREENSHOTS = ROOT / "screenshots"
MAX_HTML = 300 * 1024
#: the round overview's tab stops before issue 35 (every focusable element, as Chromium counts them)
OVERVIEW_TAB_STOPS_BEFORE = 5455
#: every element a keyboard can tab to, hidden or not (how the 5,455 were counted)
TAB_STOPS = """() => [...document.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex]")]
  .filter(e => e.tabIndex >= 0 && !e.disabled).length"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> Path:
    need_chromium()
    out = tmp_path_factory.mktemp("weight") / "site"
    project = official_project(out.parent / "project")
    build(project=project, results=shared_dir, site_dir=out, log=lambda _: None)
    return out


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    with serve_dir(site) as url:
        yield url


def open_page(browser: Any, url: str, width: int = 1280, requested: list[str] | None = None) -> Any:
    outside: list[str] = []
    page = offline_page(browser, outside, viewport={"width": width, "height": 900})
    if requested is not None:
        page.on("request", lambda r: requested.append(r.url))
    page.goto(url, wait_until="networkidle")
    assert outside == []
    return page


# ------------------------------------------------------------------------------------- weight
def test_no_page_is_over_300_kb_and_the_reader_page_leaves_the_provenance_to_the_review(site: Path) -> None:
    sizes = {str(p.relative_to(site)): p.stat().st_size for p in site.rglob("*.html")}
    assert {k: v for k, v in sizes.items() if v > MAX_HTML} == {}
    for name in (ARTICLE, OVERVIEW):
        assert "gi-provenance" not in (site / name).read_text("utf-8")
        assert '<details class="gi-provenance"' in (site / "review" / name).read_text("utf-8")
    ledger = json.loads((site / "figures.json").read_text("utf-8"))
    overview = [x for x in ledger if x["article"] == OVERVIEW.removesuffix(".html")]
    assert len(overview) > 200 and sum(len(x["entries"]) for x in overview) > 1000  # every row, each figure
    # the chart library is loaded by assets/charts.js, on a chart's page: no page names it
    assert [k for k in sizes if "vega-bundle" in (site / k).read_text("utf-8")] == []


def test_vega_is_requested_on_a_page_with_a_chart_only_and_after_dom_content_loaded(
    served: str, browser: Any
) -> None:
    for name in (HOME, "rounds/v6.1.html", "benchmarks/index.html"):
        requested: list[str] = []
        page = open_page(browser, f"{served}/{name}", 390, requested)
        assert [u for u in requested if "vega-bundle" in u] == [], name
        page.close()
    requested = []
    page = open_page(browser, f"{served}/{ARTICLE}", 390, requested)
    charts = page.locator(".gi-vega")
    assert charts.count() >= 3
    charts.last.scroll_into_view_if_needed()  # a chart is drawn when it comes near the screen
    page.wait_for_function("document.querySelector('.gi-vega.gi-drawn') !== null", timeout=20_000)
    timing = page.evaluate(
        """() => ({dcl: performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd,
                   vega: performance.getEntriesByType("resource").filter(r => r.name.includes("vega-bundle"))
                     .map(r => r.startTime)})"""
    )
    assert len(timing["vega"]) == 1 and timing["vega"][0] >= timing["dcl"], timing
    page.close()


def grown(tmp_path: Path, manifest: Manifest, n: int) -> tuple[int, str]:
    """The reader's page (bytes) of an article citing *n* made-up entries, and their list."""
    rows = [
        {**tiny_row(f"6.1-{i:04d}", "gpt-oss-120b", "Server", 1000.0 + i), "Details": f"https://e.org/r/{i}"}
        for i in range(1, n + 1)
    ]
    table = ResultsTable.from_dir(write_results(tmp_path / f"results-{n}", rows), manifest)
    article = tmp_path / f"grown-{n}.md"
    article.write_text(
        '---\ntitle: "Grown"\ndate: 2026-10-05\nrounds: ["6.1"]\n---\n\n# Grown\n\n'
        '{% set g = group("gpt-oss-120b", "Server", round="6.1") %}'
        "Submissions: {{ count(g) }}.{{ cite() }}\n\n{{ footnotes() }}\n",
        "utf-8",
    )
    r = Renderer(Library(table, manifest, Prices.load(ROOT / "data" / "prices.toml"))).render(
        load_article(article)
    )
    ctx = NoteContext(manifest, {}, details_urls(table))
    return len(without_provenance(reader_markdown(r, ctx)).encode()), entries_markdown(r, ctx, "6.1")


def test_an_article_grows_by_a_few_bytes_per_entry_it_cites(tmp_path: Path, manifest: Manifest) -> None:
    """Each entry cited adds its ID to a collapsed list (about 40 bytes), not a link and a line of
    provenance (about 350 bytes before issue 35); its link is on the article's list of entries."""
    small, _ = grown(tmp_path, manifest, 20)
    large, listed = grown(tmp_path, manifest, 220)
    assert (large - small) / 200 <= 40, (small, large)
    assert listed.count("](https://e.org/r/") + listed.count('href="https://e.org/r/') == 220


# ---------------------------------------------------------------------------------- footnotes
def test_the_round_overview_has_a_tenth_of_its_tab_stops_and_readable_notes(
    served: str, browser: Any
) -> None:
    page = open_page(browser, f"{served}/{OVERVIEW}")
    assert page.evaluate(TAB_STOPS) <= OVERVIEW_TAB_STOPS_BEFORE // 10
    repeated = page.evaluate(
        """() => [...document.querySelectorAll("article p")].map(p => {
          const refs = [...p.querySelectorAll("a.footnote-ref")].map(a => a.getAttribute("href"));
          return refs.length - new Set(refs).size;
        }).filter(n => n > 0).length"""
    )
    assert repeated == 0
    notes = page.locator("div.footnote > ol > li")
    assert notes.count() == 12  # one per round, division and suite cited
    # the notes are drawn as they come near the screen (site.css: content-visibility)
    notes.first.scroll_into_view_if_needed()
    page.wait_for_function(
        "document.querySelector('div.footnote > ol').checkVisibility({contentVisibilityAuto: true})"
    )
    first = notes.first.inner_text()
    assert first.startswith(
        "MLPerf® Inference v6.1 Closed Datacenter: DeepSeek-R1 (Server, Offline, Interactive)"
    )
    # a long list of entries collapsed under its count, every ID still in the page
    lists = page.locator("div.footnote details.gi-ids .gi-ids-list")
    listed = re.findall(r"\b\d\.\d-\d{4}\b", " ".join(lists.all_text_contents()))
    assert len(listed) == len(set(listed)) > 600 and not lists.first.is_visible()
    assert page.locator("div.footnote details.gi-ids summary").first.inner_text() == "98 entries"
    # the hover preview: what the note cites, not its statements and IDs
    ref = page.locator("sup a.footnote-ref[href='#fn:12']").first
    ref.scroll_into_view_if_needed()
    ref.hover()
    tip = page.locator(".md-tooltip2--active .md-tooltip2__inner")
    tip.wait_for(state="visible", timeout=5_000)
    assert tip.inner_text().startswith("MLPerf® Inference v5.1 Open Edge:") and len(tip.inner_text()) < 600
    page.close()


def test_the_list_of_entries_links_each_once_and_back_to_its_note(served: str, browser: Any) -> None:
    page = open_page(browser, f"{served}/entries/{OVERVIEW.removesuffix('.html')}/v6.1.html")
    hrefs = page.evaluate(
        """() => [...document.querySelectorAll("article a.gi-entry")].map(a => a.textContent)"""
    )
    assert len(hrefs) == len(set(hrefs)) > 100
    page.get_by_role("link", name="Back to note 1", exact=True).click()
    page.wait_for_function("location.hash === '#fn:1'")
    page.close()


# -------------------------------------------------------------------------------------- print
PRINTED = """() => {
  const col = document.querySelector("article.md-content__inner");
  const caption = [...document.querySelectorAll("article p > em:first-child")]
    .find(em => /^Table \\d+:/.test(em.textContent)).parentElement;
  const ids = [...document.querySelectorAll("details.gi-ids .gi-ids-list")];
  return {
    column: col.clientWidth - parseFloat(getComputedStyle(col).paddingLeft) - parseFloat(getComputedStyle(col).paddingRight),
    charts: [...document.querySelectorAll(".gi-chart img, .gi-chart .gi-vega-view svg")]
      .filter(e => e.getClientRects().length).map(e => e.getBoundingClientRect().width),
    captionBreak: getComputedStyle(caption).breakAfter,
    source: document.querySelector(".gi-print-source").innerText,
    sourceShown: document.querySelector(".gi-print-source").checkVisibility(),
    idsShown: ids.filter(e => e.checkVisibility()).length, ids: ids.length,
  };
}"""


def test_print_keeps_captions_with_tables_charts_at_column_width_and_the_url_and_date(
    served: str, browser: Any
) -> None:
    page = open_page(browser, f"{served}/{ARTICLE}")
    page.emulate_media(media="print")
    printed = page.evaluate(PRINTED)
    assert printed["captionBreak"] == "avoid"
    assert printed["charts"] and all(w >= 0.98 * printed["column"] for w in printed["charts"]), printed
    assert printed["sourceShown"]
    assert re.fullmatch(
        rf"Retrieved from https://gpu-insights\.example\.org/{re.escape(ARTICLE)} on \d{{1,2}} [A-Z][a-z]+ \d{{4}}\.",
        printed["source"],
    ), printed["source"]
    assert printed["ids"] >= 1 and printed["idsShown"] == printed["ids"]  # the collapsed IDs print
    page.close()


# -------------------------------------------------------------------------------- screenshots
@pytest.mark.parametrize("width", [390, 1280])
def test_screenshots_of_the_home_page_and_the_project_articles(
    site: Path, served: str, browser: Any, width: int
) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    shots = {"home": HOME, "per-gpu": ARTICLE, "round-overview": OVERVIEW}
    family = sorted((site / "families").glob("*.html"))
    assert family, "the site has a page per accelerator family"
    shots["family"] = str(family[0].relative_to(site))
    for label, name in shots.items():
        page = open_page(browser, f"{served}/{name}", width)
        path = SCREENSHOTS / f"{label}-{width}.png"
        page.screenshot(path=str(path), full_page=label == "home")
        assert path.stat().st_size > 10_000
        page.close()
