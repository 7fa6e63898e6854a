"""Pages a reader can take away: latency bounds, minus signs, stable anchors, family pages, tables as CSV."""

from __future__ import annotations

import csv
import dataclasses
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator import audit
from generator.article.figures import Figure
from generator.article.functions import Library, Prices
from generator.article.render import Rendered, Renderer, load_article
from generator.article.tables import cell_text, derived_tables
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable
from generator.site.anchors import heading_ids, slugify, with_figure_ids, with_heading_ids
from generator.site.build import build
from generator.site.families import citing, families_index, families_of, family_slug
from generator.site.pages import (
    Publication,
    family_page,
    latency_bounds,
    page_makers,
    reader_source,
    site_nav,
    table_files,
)

from .browser import need_chromium, serve_dir
from .conftest import ROOT, official_project, tiny_row, write_results
from .test_render import render


# ---------------------------------------------------------------- latency bounds
def test_a_benchmark_page_gives_the_bounds_stated_and_names_the_scenarios_not_stated(
    manifest: Manifest,
) -> None:
    assert latency_bounds("gpt-oss-120b", ["Server", "Offline", "Interactive"], manifest) == [
        "",
        "Latency bounds of the inference rules: Server: TTFT 3,000 ms, TPOT 80 ms. The latency bounds "
        "of the inference rules for Interactive are not stated in the sources this publication holds.",
    ]


def test_llama2_70b_bounds_are_said_to_be_not_stated_never_guessed(manifest: Manifest) -> None:
    """No source the publication holds states Llama2-70b's bounds: the page says so (it said nothing)."""
    assert latency_bounds("llama2-70b-99.9", ["Offline", "Server", "Interactive"], manifest) == [
        "",
        "The latency bounds of the inference rules for Server and Interactive are not stated in the "
        "sources this publication holds.",
    ]


def test_a_benchmark_without_a_bounded_scenario_prints_no_bounds(manifest: Manifest) -> None:
    assert latency_bounds("resnet", ["Offline", "SingleStream"], manifest) == []


def test_a_bound_in_a_scenario_the_data_lacks_is_still_printed(manifest: Manifest) -> None:
    rules = manifest.rules
    rule = dataclasses.replace(rules.benchmarks["resnet"], latency={"Server": {"latency_ms": 15.5}})
    mine = dataclasses.replace(
        manifest, rules=dataclasses.replace(rules, benchmarks={**rules.benchmarks, "resnet": rule})
    )
    assert latency_bounds("resnet", ["Offline"], mine) == [
        "",
        "Latency bounds of the inference rules: Server: LATENCY 15.5 ms.",
    ]


# ---------------------------------------------------------------- minus signs
def test_a_negative_change_prints_the_minus_sign_in_prose_and_tables(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    out = render(
        tmp_path,
        tiny,
        manifest,
        '{% set a = per_gpu("6.1-0001", "gpt-oss-120b", "Server") %}'
        '{% set b = per_gpu("6.1-0002", "gpt-oss-120b", "Server") %}'
        "B200 is {{ pct_change(b, a) }} against B300.\n\n| Change |\n|--:|\n| {{ pct_change(b, a) }} |\n",
    )
    assert "B200 is \u221225.0% against B300." in out
    assert "| \u221225.0% |" in out
    assert "-25" not in out


def test_the_audit_prints_the_minus_sign_as_the_article_does() -> None:
    assert audit.printed(-14.46, "pct", {}) == "\u221214.5%"
    assert audit.printed(-0.04, "pct", {}) == "0.0%"
    assert str(Figure(-14.46, "pct")) == "\u221214.5%"


# ---------------------------------------------------------------- anchors
HEADED = (
    '{% set a = per_gpu("6.1-0001", "gpt-oss-120b", "Server") %}'
    '{% set b = per_gpu("6.1-0002", "gpt-oss-120b", "Server") %}'
    "# B300 against B200 in v6.1\n\n"
    "## B300 is {{ pct_change(a, b) }} ahead of the B200, at {{ a }} tokens/s on {{ a.family }}\n\n"
    "Text.\n\n## Details\n\nMore.\n\n## Details\n\nAgain.\n"
)


def rendered(tmp_path: Path, table: ResultsTable, manifest: Manifest, body: str) -> Rendered:
    path = tmp_path / "article.md"
    path.write_text(f"---\ntitle: T\n---\n{body}", encoding="utf-8")
    lib = Library(table, manifest, Prices.load(ROOT / "data" / "prices.toml"))
    return Renderer(lib).render(load_article(path))


def test_a_heading_anchor_leaves_out_the_numbers_it_prints_so_a_correction_keeps_links(
    tmp_path: Path, manifest: Manifest
) -> None:
    ids = []
    for b200 in (60000.0, 61000.0):  # a corrected B200 result: every printed number changes
        rows = [
            tiny_row("6.1-0001", "gpt-oss-120b", "Server", 80000.0),
            tiny_row("6.1-0002", "gpt-oss-120b", "Server", b200, accelerator="NVIDIA B200-SXM-180GB"),
        ]
        table = ResultsTable.from_dir(write_results(tmp_path / f"r{b200:.0f}", rows), manifest)
        ids.append(heading_ids(rendered(tmp_path, table, manifest, HEADED)))
    assert (
        ids[0]
        == ids[1]
        == {
            0: "b300-against-b200-in-v61",
            2: "b300-is-ahead-of-the-b200-at-tokenss-on-b300",
            6: "details",
            10: "details_1",
            14: "mlperf-result-footnotes-and-entry-ids",  # generated: its words
        }
    )


def test_a_heading_naming_its_own_id_and_a_hand_written_article_keep_their_words(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    r = rendered(tmp_path, tiny, manifest, "## Mine {: #chosen }\n\nText.\n\n## 8 GPUs, 26% apart\n\nText.\n")
    assert heading_ids(r) == {4: "8-gpus-26-apart"}  # typed numbers are the author's words
    assert with_heading_ids(r).split("\n")[:5] == [
        "## Mine {: #chosen }",
        "",
        "Text.",
        "",
        "## 8 GPUs, 26% apart {#8-gpus-26-apart}",
    ]


def test_slugify_drops_markers_links_and_markup() -> None:
    assert slugify("Why the **5.7×** [headline](x.md) in MLPerf® v6.1[^\\[1\\]](#mlperf-fn-1)") == (
        "why-the-57-headline-in-mlperf-v61"
    )


def test_a_figure_caption_gets_an_anchor_by_its_number_and_a_permalink() -> None:
    out = with_figure_ids("text\n\n*Figure 2: Best rows, 14,211 per GPU.*[^1]\n")
    assert out.split("\n")[2:4] == [
        '*Figure 2: Best rows, 14,211 per GPU.*[^1] <a class="headerlink" href="#figure-2" '
        'title="Link to this figure">¶</a>',
        "{: #figure-2 .gi-figure-caption }",
    ]


# ---------------------------------------------------------------- family pages
def test_family_slugs_name_one_page_each() -> None:
    assert family_slug("RTX PRO 6000") == "rtx-pro-6000"
    assert family_slug("MI325X+MI300X") == "mi325x-mi300x"


def test_a_family_page_lists_its_rows_by_round_and_the_articles_citing_it(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    r = rendered(tmp_path, tiny, manifest, 'B300: {{ per_gpu("6.1-0001", "gpt-oss-120b", "Server") }}.\n')
    assert families_of(tiny) == ["B200", "B300", "GB300", "MI355X"]
    assert citing([r]) == {"B300": [r]}
    page = family_page("B300", tiny, manifest, [r], Publication("My publication"))
    lines = page.split("\n")
    assert lines[0] == "# B300 in MLPerf® Inference"
    assert lines[2] == (
        "Every official MLPerf® Inference result of NVIDIA B300 systems in the rounds this site loaded "
        "([v6.1](../rounds/v6.1.md), [v6.0](../rounds/v6.0.md)): 3 results of 2 systems from 1 submitter, "
        "newest round first."
    )
    assert "derived metrics computed by My publication" in lines[4]
    at = lines.index("## v6.1")
    assert lines[at : at + 15] == [
        "## v6.1",
        "",
        "### Closed Datacenter, v6.1",
        "",
        "#### gpt-oss-120b Server (Tokens/s) {#v6-1-closed-datacenter-gpt-oss-120b-server}",
        "",
        "| Entry | Submitter | GPUs | Result | Per GPU |",
        "|---|---|--:|--:|--:|",
        '| <span class="gi-id">6.1-0001</span> | ExampleCorp | 8 | 80,000 | 10,000 |',
        "",
        "#### gpt-oss-120b Offline (Tokens/s) {#v6-1-closed-datacenter-gpt-oss-120b-offline}",
        "",
        "| Entry | Submitter | GPUs | Result | Per GPU |",
        "|---|---|--:|--:|--:|",
        '| <span class="gi-id">6.1-0001</span> | ExampleCorp | 8 | 88,000 | 11,000 |',
    ]
    assert lines.index("## v6.0") > at
    assert "### [T](../article.md)" in page
    assert page.rstrip().endswith("See www.mlcommons.org for more information.")


def test_every_family_has_a_page_and_the_navigation_lists_the_cited_ones(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    r = rendered(tmp_path, tiny, manifest, 'B300: {{ per_gpu("6.1-0001", "gpt-oss-120b", "Server") }}.\n')
    names = [name for name, _ in page_makers([r], tiny, manifest, True, [], Publication())]
    assert [n for n in names if n.startswith("families/")] == [
        "families/index.md",
        "families/b200.md",
        "families/b300.md",
        "families/gb300.md",
        "families/mi355x.md",
    ]
    nav = site_nav([r], tiny, manifest, changes=False, sample=True)
    assert {
        "Accelerators": [{"All accelerator families": "families/index.md"}, {"B300": "families/b300.md"}]
    } in nav
    index = families_index(tiny, manifest, citing([r]))
    assert "| [B300](b300.md) | NVIDIA | v6.1, v6.0 | 3 | 2 | 1 |" in index


# ---------------------------------------------------------------- in Chromium, on the official results
ARTICLE = "mlperf-inference-v6.1-per-gpu.html"


@pytest.fixture(scope="module")
def official_site(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> Iterator[tuple[str, Path]]:
    need_chromium()
    site = tmp_path_factory.mktemp("takeaway") / "site"
    project = official_project(site.parent / "project")
    build(project=project, results=shared_dir, site_dir=site, log=lambda _: None)
    with serve_dir(site) as url:
        yield url, site


def _page(browser: Any, url: str, width: int = 1280) -> tuple[Any, Any, list[str]]:
    outside: list[str] = []
    context = browser.new_context(viewport={"width": width, "height": 900}, accept_downloads=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin="/".join(url.split("/")[:3]))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route("**/*", lambda route, request: _local(route, request, outside))
    page.goto(url, wait_until="networkidle")
    return context, page, errors + outside


def _local(route: Any, request: Any, outside: list[str]) -> None:
    if request.url.startswith(("data:", "blob:", "http://127.0.0.1")):
        route.continue_()
    else:
        outside.append(request.url)
        route.abort()


SORTED = """(id) => {
  const heading = document.getElementById(id);
  let el = heading.nextElementSibling;
  while (el && !el.querySelector("table")) el = el.nextElementSibling;
  const table = el.querySelector("table");
  return {
    sort: [...table.tHead.rows[0].cells].map(c => c.getAttribute("aria-sort")),
    perGpu: [...table.tBodies[0].rows].map(r => r.cells[4].textContent.trim()),
    buttons: table.tHead.querySelectorAll("button.gi-sort").length,
  };
}"""


def test_a_long_table_sorts_by_keyboard_and_says_its_order(
    official_site: tuple[str, Path], browser: Any
) -> None:
    url, _ = official_site
    context, page, problems = _page(browser, f"{url}/families/b300.html")
    table = "v6-1-closed-datacenter-deepseek-r1-server"
    before = page.evaluate(SORTED, table)
    assert before["buttons"] == 5 and before["sort"] == [None] * 5
    per_gpu = page.locator(f"#{table} ~ div table button.gi-sort").nth(4)
    per_gpu.focus()
    page.keyboard.press("Enter")
    up = page.evaluate(SORTED, table)
    assert up["sort"] == [None, None, None, None, "ascending"]
    numbers = [float(v.replace(",", "")) for v in up["perGpu"]]
    assert numbers == sorted(numbers) and len(numbers) > 5
    page.keyboard.press("Space")
    down = page.evaluate(SORTED, table)
    assert down["sort"][4] == "descending" and down["perGpu"] == up["perGpu"][::-1]
    assert problems == []
    context.close()


def test_a_derived_table_downloads_as_csv_matching_the_page(
    official_site: tuple[str, Path], browser: Any
) -> None:
    url, _ = official_site
    context, page, problems = _page(browser, f"{url}/{ARTICLE}")
    with page.expect_download() as info:
        page.get_by_role("link", name="Download Table 1 as CSV").click()
    rows = list(csv.reader(io.StringIO(Path(info.value.path()).read_text("utf-8"))))
    shown = page.evaluate(
        """() => { const line = document.querySelector("p.gi-table-csv");
        let el = line.previousElementSibling;
        while (!el.querySelector("table")) el = el.previousElementSibling;
        const t = el.querySelector("table");
        return [...t.rows].map(r => [...r.cells].map(c => c.innerText.replace(/\\s+/g, " ").trim())); }"""
    )
    assert rows[0] == [*shown[0], "Entry IDs"]
    assert len(rows) == len(shown) == 9
    number = re.compile(r"\d[\d,.]*-?\d*")
    for got, want in zip(rows[1:], shown[1:], strict=True):
        assert got[0] == want[0]  # the family
        for cell, page_cell in zip(got[1:-1], want[1:], strict=True):
            assert number.findall(cell) == number.findall(page_cell)  # every value and entry ID as printed
        ids = got[-1].split()
        assert all(i in ids for c in got[1:-1] for i in re.findall(r"\d+\.\d+-\d{4}", c))
    assert problems == []
    context.close()


def test_a_heading_permalink_copies_a_link_a_correction_keeps(
    official_site: tuple[str, Path], browser: Any
) -> None:
    url, _ = official_site
    context, page, problems = _page(browser, f"{url}/{ARTICLE}")
    anchor = "software-moved-the-mi355x-in-six-months-the-b300-versus-b200-gap-is"
    assert (
        page.locator(f"h2#{anchor}").inner_text().startswith("Software moved the MI355X 37.9% in six months")
    )
    page.locator(f"h2#{anchor}").hover()
    page.locator(f"h2#{anchor} a.headerlink").click()
    page.wait_for_function(
        "() => document.querySelector('.gi-status')?.textContent.startsWith('Link copied')"
    )
    assert page.evaluate("() => navigator.clipboard.readText()") == f"{url}/{ARTICLE}#{anchor}"
    assert page.locator("#figure-1 a.headerlink").get_attribute("href") == "#figure-1"
    assert problems == []
    context.close()


def test_searching_an_entry_id_answers_without_a_wall_of_marks(
    official_site: tuple[str, Path], browser: Any
) -> None:
    """Searching "6.1-0052" answered with the notes' and the appendix's walls of entry IDs: 3,011
    marks, one section holding hundreds of "6.1". The walls are out of the index now: the article
    citing the entry and its family's page come first, no section with more than a table's marks."""
    url, _ = official_site
    context, page, problems = _page(browser, f"{url}/index.html")
    page.evaluate(
        "() => { const c = document.getElementById('__search'); c.checked = true; c.dispatchEvent(new Event('change')); }"
    )
    page.wait_for_timeout(1000)  # the index loaded
    page.focus(".md-search__input")
    page.keyboard.type("6.1-0052")
    page.wait_for_function(
        # the whole ID is one word of the index (issue 35): its mark is "6.1-0052", no longer "0052"
        "() => [...document.querySelectorAll('.md-search-result mark')].some(m => m.textContent.includes('0052'))",
        timeout=20_000,
    )
    page.wait_for_timeout(1000)  # the answer to the whole ID, not to a part typed
    found = page.evaluate(
        """() => [...document.querySelectorAll('.md-search-result__item')].map(i => ({
          title: i.querySelector('h1').textContent.trim(),
          marks: [...i.querySelectorAll('article')].map(a => a.querySelectorAll('mark').length)}))"""
    )
    assert [f["title"] for f in found[:2]] == [
        "MLPerf® Inference v6.1 Per-GPU Results: The 5.7× Headline, Recomputed for Hardware You Can Buy",
        "B300 in MLPerf® Inference",
    ]
    assert max(m for f in found for m in f["marks"]) <= 40, found
    page.keyboard.press("Control+A")
    page.keyboard.type("B300")
    page.wait_for_function(
        "() => document.querySelector('.md-search-result__item h1')?.textContent.trim() === 'B300 in MLPerf® Inference'",
        timeout=20_000,
    )
    assert problems == []
    context.close()


# ---------------------------------------------------------------- tables as CSV
TABLED = (
    '{% set a = per_gpu("6.1-0001", "gpt-oss-120b", "Server") %}'
    '{% set b = per_gpu("6.1-0002", "gpt-oss-120b", "Server") %}'
    "| Plain | Words |\n|---|---|\n| no | figure |\n\n"
    "*Table 2: two rows.*\n\n"
    "| Part | Per GPU | Change |\n|---|--:|--:|\n"
    "| **B300** | {{ a }} | {{ pct_change(a, b) }} |\n"
    "| B200 | {{ b }} (entry {{ b.entry }}) | — |\n"
)


def test_a_table_that_prints_figures_is_a_csv_with_the_entry_ids_of_each_row(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    r = rendered(tmp_path, tiny, manifest, TABLED)
    tables = derived_tables(r.markdown, r.uses)
    assert [(t.number, t.title, t.end) for t in tables] == [(1, "Table 2", 9)]  # the plain table has none
    assert tables[0].csv() == (
        "Part,Per GPU,Change,Entry IDs\r\n"
        'B300,"10,000",33.3%,6.1-0001 6.1-0002\r\n'
        'B200,"7,500 (entry 6.1-0002)",—,6.1-0002\r\n'
    )
    assert [name for name, _ in table_files(r)] == ["tables/article-1.csv"]
    source = reader_source(r).split("\n")
    assert source[10:13] == [
        "",
        '[Download Table 2 as CSV](tables/article-1.csv){: download="article-1.csv" } (the cells as printed, '
        "and the entry IDs each row cites)",
        "{: .gi-table-csv }",
    ]


def test_cell_text_is_the_cell_as_a_reader_reads_it() -> None:
    assert (
        cell_text(" **14,211**<br>median 13,604 of 9[^\\[1\\]](#mlperf-fn-1) ")
        == "14,211; median 13,604 of 9"
    )
    assert cell_text(" [B300](families/b300.md) \\| *x* &amp; y ") == "B300 | x & y"
