"""The site built from the official results, in real headless Chromium at 1280 and 390 px, offline.

On every kind of page: no horizontal page overflow and no table wider than its column, charts at
least 90% of their column with text of at least 11 px, entry IDs on one line, results cells
right-aligned, no request outside localhost; on the article: footnote previews on hover,
separated markers that are tap targets, one visible back-link per note leading back to the
marker followed, entry IDs linked, chart labels as the text prints them, a print layout
without entry URLs; axe-core finds no serious or critical violation on any page. Screenshots
of the article at both widths go to ``screenshots/`` (see README).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import feedparser
import pytest

from generator.site.build import build

from .browser import need_chromium, offline_page, serve_dir
from .conftest import ROOT, official_project

pytestmark = pytest.mark.browser

ARTICLE = "mlperf-inference-v6.1-per-gpu.html"
OVERVIEW = "mlperf-inference-v6.1-round-overview.html"
#: one page of every kind the site has
PAGE_KINDS = [
    "index.html",
    ARTICLE,
    OVERVIEW,
    "rounds/v6.1.html",
    "benchmarks/index.html",
    "benchmarks/gpt-oss-120b.html",
    "data/v6.1.html",
    f"review/{ARTICLE}",
    "review/index.html",
    f"review/compliance-{ARTICLE}",
]
WIDTHS = [1280, 390]
SCREENSHOTS = ROOT / "screenshots"

#: the layout facts a test asserts on, measured in the page
MEASURE = """() => {
  const col = document.querySelector("article.md-content__inner");
  const cs = getComputedStyle(col);
  const column = col.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const charts = [...document.querySelectorAll(".gi-vega.gi-drawn svg")].map(svg => {
    const scale = svg.getBoundingClientRect().width / (svg.width.baseVal.value || 1);
    const sizes = [...svg.querySelectorAll("text")].filter(t => t.textContent.trim())
      .map(t => parseFloat(getComputedStyle(t).fontSize) * scale);
    return {width: svg.getBoundingClientRect().width, smallest: Math.min(...sizes)};
  });
  const wrapped = [...document.querySelectorAll(".gi-id")]
    .filter(e => e.offsetParent !== null && e.getClientRects().length > 1).map(e => e.textContent);
  const tables = [...document.querySelectorAll(".md-typeset table")].filter(t => t.offsetParent !== null);
  return {
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    wideTables: tables.filter(t => t.scrollWidth > t.parentElement.clientWidth + 1).map(t => t.rows[0].innerText),
    numberAlign: [...new Set([...document.querySelectorAll("td")].filter(td => td.querySelector(".gi-sub"))
      .map(td => getComputedStyle(td).textAlign))],
    column, charts, wrapped, ids: document.querySelectorAll(".gi-id").length,
    expected: document.querySelectorAll(".gi-vega").length,
  };
}"""


@pytest.fixture(scope="module")
def served_site(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> Iterator[tuple[str, Path]]:
    need_chromium()
    site = tmp_path_factory.mktemp("browser") / "site"
    project = official_project(site.parent / "project")  # the project's articles, not content/'s
    build(project=project, results=shared_dir, site_dir=site, log=lambda _: None)
    with serve_dir(site) as url:
        yield url, site


def open_page(browser: Any, url: str, width: int, outside: list[str], scheme: str = "light") -> Any:
    page = offline_page(browser, outside, viewport={"width": width, "height": 900}, color_scheme=scheme)
    page.goto(url, wait_until="networkidle")
    if page.locator(".gi-vega").count():
        # a chart is drawn when it comes near the screen (assets/charts.js): bring each there
        for chart in page.locator(".gi-vega").all():
            chart.scroll_into_view_if_needed()
            page.wait_for_function(
                "e => e.classList.contains('gi-drawn')", arg=chart.element_handle(), timeout=20_000
            )
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_function(
            "[...document.querySelectorAll('.gi-vega')].every(e => e.classList.contains('gi-drawn'))",
            timeout=20_000,
        )
    return page


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", PAGE_KINDS)
def test_every_page_kind_fits_the_screen(
    served_site: tuple[str, Path], browser: Any, name: str, width: int
) -> None:
    url, _ = served_site
    outside: list[str] = []
    errors: list[str] = []
    page = open_page(browser, f"{url}/{name}", width, outside)
    page.on("pageerror", lambda e: errors.append(str(e)))
    m = page.evaluate(MEASURE)
    assert m["overflow"] <= 0, f"{name} at {width}px overflows by {m['overflow']}px"
    assert len(m["charts"]) == m["expected"]
    for ch in m["charts"]:
        assert ch["width"] >= 0.9 * m["column"], (name, width, ch, m["column"])
        assert ch["smallest"] >= 11, (name, width, ch)
    assert m["wrapped"] == [], f"entry IDs broken across lines on {name} at {width}px"
    assert m["wideTables"] == [], f"tables scroll sideways on {name} at {width}px"
    assert m["numberAlign"] in ([], ["right"])
    assert errors == [] and outside == []
    page.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_footnote_preview_on_hover_and_back_link(
    served_site: tuple[str, Path], browser: Any, width: int
) -> None:
    url, _ = served_site
    outside: list[str] = []
    page = open_page(browser, f"{url}/{ARTICLE}", width, outside)
    # a later marker of note 1: its back-link must lead back here, not to the note's first marker
    ref = page.locator("sup a.footnote-ref[href='#fn:1']").nth(4)
    ref.scroll_into_view_if_needed()
    ref.hover()
    tip = page.locator(".md-tooltip2--active .md-tooltip2__inner")
    tip.wait_for(state="visible", timeout=5_000)
    assert tip.inner_text().startswith(
        "MLPerf® Inference v6.1 Closed Datacenter: DeepSeek-R1 (Server, Offline"
    )
    assert len(tip.inner_text()) < 600  # what the note cites: not its statements and entry IDs
    marker = ref.locator("xpath=..").get_attribute("id")
    assert marker == "fnref5:1"
    ref.click()
    note_id = ref.get_attribute("href")
    assert note_id is not None
    page.wait_for_function(f"location.hash === {note_id!r}")
    note = page.locator(f"li[id='{note_id[1:]}']")
    # its many entries collapsed, each linked to its official result on the article's list of entries
    assert len(re.findall(r"6\.1-\d{4}", note.locator("details.gi-ids").text_content() or "")) > 8
    link = f"entries/{ARTICLE.removesuffix('.html')}/v6.1.html#v6-1-closed-datacenter"
    assert note.locator(f"a[href='{link}']").count() == 1
    back = note.locator("a.footnote-backref:visible")
    assert back.count() == 1
    back.click()
    page.wait_for_function(f"location.hash === '#{marker}'")
    box = page.locator(f"[id='{marker}']").bounding_box()
    assert box is not None and 0 <= box["y"] < 900
    SCREENSHOTS.mkdir(exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"article-{width}.png"), full_page=True)
    assert outside == []
    page.close()


#: every block drawn, as each is when it comes near the screen (site.css: content-visibility): axe reads
#: the colours of blocks not yet drawn wrongly (dequelabs/axe-core#2768: false colour-contrast reports)
ALL_DRAWN = ".md-content__inner > * { content-visibility: visible !important; }"


def test_axe_finds_no_serious_or_critical_violation_on_any_page(
    served_site: tuple[str, Path], browser: Any
) -> None:
    from axe_playwright_python.sync_playwright import Axe  # the browser tests alone need it

    url, site = served_site
    axe = Axe()
    found: dict[str, list[str]] = {}
    pages = sorted(str(p.relative_to(site)) for p in site.rglob("*.html"))
    assert len(pages) > len(PAGE_KINDS)
    for name in pages:
        outside: list[str] = []
        page = open_page(browser, f"{url}/{name}", 1280, outside)
        page.add_style_tag(content=ALL_DRAWN)
        violations = axe.run(page).response["violations"]
        bad = [f"{v['id']} ({v['impact']})" for v in violations if v["impact"] in ("serious", "critical")]
        if bad:
            found[name] = bad
        page.close()
    for name in PAGE_KINDS:  # the phone width, in the dark palette
        outside = []
        page = open_page(browser, f"{url}/{name}", 390, outside, scheme="dark")
        assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
        page.add_style_tag(content=ALL_DRAWN)
        violations = axe.run(page).response["violations"]
        bad = [f"{v['id']} ({v['impact']})" for v in violations if v["impact"] in ("serious", "critical")]
        if bad:
            found[f"{name} (390 px, dark)"] = bad
        page.close()
    assert found == {}


def test_charts_have_tooltips_descriptions_and_follow_the_dark_palette(
    served_site: tuple[str, Path], browser: Any
) -> None:
    url, _ = served_site
    outside: list[str] = []
    page = open_page(browser, f"{url}/{ARTICLE}", 390, outside)
    svg = page.locator(".gi-vega.gi-drawn svg").first
    svg.scroll_into_view_if_needed()  # its caption is drawn as it comes near the screen (site.css)
    page.evaluate("() => new Promise(ok => requestAnimationFrame(() => requestAnimationFrame(ok)))")
    caption = page.locator(".gi-chart + p em").first.inner_text()
    assert svg.get_attribute("aria-label") == caption.split(": ", 1)[1]
    svg.scroll_into_view_if_needed()
    page.locator(".gi-vega.gi-drawn svg .mark-rect path").first.hover()
    tip = page.locator("#vg-tooltip-element.visible")
    tip.wait_for(state="visible", timeout=5_000)
    text = tip.inner_text()
    for key in ("Entry", "Submitter", "System", "GPUs", "Per GPU"):
        assert key in text
    bars = [b for b in (x.bounding_box() for x in svg.locator(".mark-rect path").all()) if b]
    right = max(bars, key=lambda b: b["x"] + b["width"])  # the tooltip of the right-most bar end
    page.mouse.move(right["x"] + right["width"] - 2, right["y"] + right["height"] / 2, steps=8)
    page.wait_for_timeout(300)
    box = tip.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    light = page.evaluate(
        "getComputedStyle(document.querySelector('.gi-vega svg .role-axis-label text')).fill"
    )
    page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    page.wait_for_function(
        f"getComputedStyle(document.querySelector('.gi-vega svg .role-axis-label text')).fill !== {light!r}",
        timeout=10_000,
    )
    dark = page.evaluate(
        "getComputedStyle(document.querySelector('.gi-vega svg .role-axis-label text')).fill"
    )
    assert dark == "rgb(226, 228, 233)"
    page.emulate_media(media="print")
    assert page.locator(".md-sidebar--primary").first.is_hidden()
    assert outside == []
    page.close()


def published_charts(site: Path) -> list[Path]:
    """The chart specs the reader's pages draw."""
    names = {
        m
        for page in site.glob("*.html")
        for m in re.findall(r'data-spec="(charts/[^"]+)"', page.read_text("utf-8"))
    }
    return sorted(site / n for n in names)


def test_one_colour_per_family_in_every_chart(served_site: tuple[str, Path]) -> None:
    _, site = served_site
    seen: dict[str, set[str]] = {}
    charts = 0
    for spec_file in published_charts(site):
        spec = json.loads(spec_file.read_text("utf-8"))
        assert spec["width"] == "container", spec_file.name  # every chart follows the column
        bars = spec["layer"][0]["encoding"]
        scale = (bars.get("color") or bars.get("stroke") or {}).get("scale")
        if scale is None:
            continue  # a chart of rounds or benchmarks, not of families
        charts += 1
        for fam, colour in zip(scale["domain"], scale["range"], strict=True):
            seen.setdefault(fam, set()).add(colour)
    assert charts == 3
    assert {"B200", "B300", "MI355X"} <= set(seen)
    assert all(len(colours) == 1 for colours in seen.values()), seen


def test_the_feed_lists_every_article_of_the_site_with_its_date(served_site: tuple[str, Path]) -> None:
    _, site = served_site
    feed = feedparser.parse((site / "feed_rss_created.xml").read_bytes())
    assert feed.bozo == 0
    got = sorted((e.link.rsplit("/", 1)[-1], e.published_parsed[:3]) for e in feed.entries)
    assert got == [(ARTICLE, (2026, 10, 5)), (OVERVIEW, (2026, 10, 5))]


def test_the_demo_for_the_sample_is_not_published_on_the_official_site(served_site: tuple[str, Path]) -> None:
    _, site = served_site
    assert not (site / "demo-per-gpu-sample.html").exists()
    for name in (
        "index.html",
        "rounds/v6.1.html",
        "benchmarks/gpt-oss-120b.html",
        "sitemap.xml",
        "feed_rss_created.xml",
    ):
        assert "demo-per-gpu-sample" not in (site / name).read_text("utf-8"), name
    # nor built at all: no review page, chart, rendered source or ledger row is left unlinked
    assert not (site / "review" / "demo-per-gpu-sample.html").exists()
    assert not (site / "sources" / "demo-per-gpu-sample.md").exists()
    assert "demo-per-gpu-sample" not in (site / "figures.json").read_text("utf-8")


def test_benchmarks_are_named_alike_and_a_long_list_is_summarised(served_site: tuple[str, Path]) -> None:
    _, site = served_site
    listing = (site / "benchmarks" / "index.html").read_text("utf-8")
    nav = re.findall(
        r'<a href="([\w.-]+)\.html" class="md-nav__link">\s*<span class="md-ellipsis">\s*([^<]*?)\s*<',
        listing,
    )
    benchmarks = {(page, label) for page, label in nav if page != "index"}
    assert len(benchmarks) == 27 and all(page == label for page, label in benchmarks)
    home = (site / "index.html").read_text("utf-8")
    assert '<a href="benchmarks/index.html">27 benchmarks</a>' in home
    assert (
        '<a href="benchmarks/deepseek-r1.html">deepseek-r1</a>, <a href="benchmarks/gpt-oss-120b.html">gpt-oss-120b</a>'
        in home
    )


def test_chart_labels_print_what_the_text_prints(served_site: tuple[str, Path]) -> None:
    _, site = served_site
    for spec_file in published_charts(site):
        spec = json.loads(spec_file.read_text("utf-8"))
        text = (site / "sources" / f"{spec_file.name.rsplit('-', 1)[0]}.md").read_text("utf-8")
        [rows] = spec["datasets"].values()
        for row in rows:
            if "printed" in row:
                assert row["printed"] in text, (spec_file.name, row)
    [rows] = json.loads((site / "charts" / "mlperf-inference-v6.1-per-gpu-1.vl.json").read_text("utf-8"))[
        "datasets"
    ].values()
    assert [r["printed"] for r in rows] == ["8,846", "16,427"]  # 8,846.46: never 8,847


@pytest.mark.parametrize("width", WIDTHS)
def test_the_gains_chart_shows_every_label_whole(
    served_site: tuple[str, Path], browser: Any, width: int
) -> None:
    url, _ = served_site
    outside: list[str] = []
    page = open_page(browser, f"{url}/{OVERVIEW}", width, outside)
    facts = page.evaluate(
        """() => {
      const svg = document.querySelector(".gi-vega.gi-drawn svg");
      const box = svg.getBoundingClientRect();
      const texts = [...svg.querySelectorAll("text")].filter(t => t.textContent.trim());
      return {
        rows: [...svg.querySelectorAll(".role-axis-label text")].map(t => t.textContent),
        values: [...svg.querySelectorAll(".role-mark text")].map(t => t.textContent),
        outside: texts.filter(t => { const b = t.getBoundingClientRect();
          return b.left < box.left - 0.5 || b.right > box.right + 0.5; }).map(t => t.textContent),
      };
    }"""
    )
    assert "Qwen3-VL-235B-A22BServer" in facts["rows"] and "Qwen3-VL-235B-A22BOffline" in facts["rows"]
    assert not [r for r in facts["rows"] if "…" in r]
    assert facts["values"][:2] == ["199.1%", "117.0%"]
    assert facts["outside"] == []
    assert outside == []
    page.close()


def test_markers_are_separated_readable_tap_targets(served_site: tuple[str, Path], browser: Any) -> None:
    url, _ = served_site
    outside: list[str] = []
    page = open_page(browser, f"{url}/{ARTICLE}", 390, outside)
    first = page.locator("article p").filter(has_text="recomputed from the official results sheet").first
    first.scroll_into_view_if_needed()  # drawn as it comes near the screen (site.css: content-visibility)
    first.evaluate("p => new Promise(ok => requestAnimationFrame(() => requestAnimationFrame(ok)))")
    assert "sheet it is 5.65×1,3. But" in first.inner_text()
    sizes = page.evaluate(
        """() => [...document.querySelectorAll("a.footnote-ref")].map(a => ({
          font: parseFloat(getComputedStyle(a).fontSize), height: a.getBoundingClientRect().height}))"""
    )
    assert sizes and min(s["font"] for s in sizes) >= 12 and min(s["height"] for s in sizes) >= 24
    # one back-link per note, visible without hovering (a phone has no hover)
    notes = page.locator("div.footnote > ol > li")
    for i in range(notes.count()):
        back = notes.nth(i).locator("a.footnote-backref:visible")
        assert back.count() == 1
        assert back.evaluate("a => getComputedStyle(a).opacity") == "1"
    assert outside == []
    page.close()


def test_entry_ids_link_to_their_official_results(served_site: tuple[str, Path], browser: Any) -> None:
    url, _ = served_site
    outside: list[str] = []
    page = open_page(browser, f"{url}/{ARTICLE}", 1280, outside)
    links = page.evaluate(
        """() => ({
      prose: [...document.querySelectorAll("article > p a.gi-entry")].length,
      cells: [...document.querySelectorAll("article td a.gi-entry")].length,
      bare: [...document.querySelectorAll("article > p .gi-id, article td .gi-id")]
        .filter(e => !e.closest("a")).map(e => e.textContent),
      hrefs: [...new Set([...document.querySelectorAll("a.gi-entry")].map(a => a.href.split("/").slice(0, 5).join("/")))],
    })"""
    )
    assert links["prose"] > 30 and links["cells"] > 20 and links["bare"] == []
    assert set(links["hrefs"]) <= {
        "https://github.com/mlcommons/inference_results_v6.1",
        "https://github.com/mlcommons/submissions_inference_v6.0",
        "https://github.com/mlcommons/inference_results_v6.0",
        "https://github.com/mlcommons/inference_results_v5.1",
    }
    assert outside == []
    page.close()


def test_print_leaves_out_entry_urls_and_the_provenance(served_site: tuple[str, Path], browser: Any) -> None:
    url, _ = served_site
    outside: list[str] = []
    page = open_page(browser, f"{url}/{ARTICLE}", 1280, outside)
    page.emulate_media(media="print")
    printed = page.evaluate(
        """() => ({
      entry: getComputedStyle(document.querySelector(".footnote a.gi-entry"), "::after").content,
      source: getComputedStyle(document.querySelector(".footnote a[href^='http']:not(.gi-entry)"), "::after").content,
      provenance: document.querySelectorAll("details.gi-provenance").length,
      backlinks: [...document.querySelectorAll(".footnote-backref")].filter(a => a.offsetParent).length,
    })"""
    )
    assert printed["entry"] == "none" and printed["source"].startswith('" (" attr(href)') is False
    assert printed["source"].startswith('" (https://')
    assert printed["provenance"] == 0 and printed["backlinks"] == 0
    pdf = page.pdf(format="A4")
    pages = max(int(n) for n in re.findall(rb"/Type /Pages\n/Count (\d+)", pdf))
    assert pages <= 16, pages
    assert outside == []
    page.close()


def test_the_reference_article_links_its_sources_and_answers_its_faq(served_site: tuple[str, Path]) -> None:
    _, site = served_site
    page = (site / ARTICLE).read_text("utf-8")
    faq = page[page.find('<h2 id="faq-edge-cases') :]
    assert re.match(
        r'<h2 id="[^"]+">FAQ: edge cases when reading per-GPU benchmark data<a class="headerlink" [^>]*>&para;</a></h2>\s*<h3 ',
        faq,
    )
    for url in (
        "https://mlcommons.org/benchmarks/inference-datacenter/",
        "https://github.com/mlcommons/inference_results_v6.1",
        "https://github.com/mlcommons/inference_results_v6.0",
        "https://github.com/mlcommons/inference_results_v5.1",
        "https://github.com/mlcommons/inference_policies/blob/master/inference_rules.adoc",
        "https://github.com/mlcommons/policies/blob/master/MLPerf_Results_Messaging_Guidelines.adoc",
        "https://github.com/mlcommons/policies/blob/master/MLPerf_Compatibility_Table.adoc",
    ):
        assert f'<a href="{url}">' in page, url
    assert '<a href="mlperf-inference-v6.1-round-overview.html">' in page


WRAPS = """[...document.querySelectorAll('.md-typeset__scrollwrap')].map(w => ({
    wide: w.scrollWidth > w.clientWidth + 1, tab: w.getAttribute('tabindex'), role: w.getAttribute('role'),
    label: w.getAttribute('aria-label')}))"""


def test_a_table_that_scrolls_sideways_is_a_labelled_region_a_keyboard_reaches(
    served_site: tuple[str, Path], browser: Any
) -> None:
    """On a phone a round's data tables scroll sideways: each such wrapper is in the tab order,
    named by its heading; on a wide screen, where they fit, none is."""
    url, _ = served_site
    page = open_page(browser, f"{url}/data/v6.1.html", 390, [])
    wraps = page.evaluate(WRAPS)
    wide = [w for w in wraps if w["wide"]]
    assert wide and all(w["tab"] == "0" and w["role"] == "region" for w in wide)
    assert all(w["label"].endswith(": table, scrolls sideways") for w in wide)
    assert all(w["tab"] is None for w in wraps if not w["wide"])
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_function(
        "[...document.querySelectorAll('.md-typeset__scrollwrap')].every(w => !w.hasAttribute('tabindex'))"
    )
    page.close()
