"""Pages a reader can take away: latency bounds, minus signs, stable anchors, family pages, tables as CSV."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from generator import audit
from generator.article.figures import Figure
from generator.article.functions import Library, Prices
from generator.article.render import Rendered, Renderer, load_article
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable
from generator.site.anchors import heading_ids, slugify, with_figure_ids, with_heading_ids
from generator.site.families import citing, families_index, families_of, family_slug
from generator.site.pages import Publication, family_page, latency_bounds, page_makers, site_nav

from .conftest import ROOT, tiny_row, write_results
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
