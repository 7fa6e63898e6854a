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
from generator.site.pages import latency_bounds

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
