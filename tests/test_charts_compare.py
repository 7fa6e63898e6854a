"""Charts that compare: families on shared axes, captions as sentences, colours readable on both
themes, rounds told apart by more than transparency, details on tap, and each chart to take away
(its figure as SVG and PNG with caption and footnote numbers, its data as CSV).

The unit tests draw charts of tiny inline rows; the browser tests build a site on the official
results with one inline article of two multi-family charts and read it in Chromium."""

from __future__ import annotations

import csv
import io
import re
import struct
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.article import charts
from generator.article.functions import Library, Prices
from generator.article.render import Renderer, load_article
from generator.article.svgdraw import captioned_svg, figure_files
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable
from generator.project import Project
from generator.site.build import build

from .browser import need_chromium, offline_page, serve_dir
from .conftest import ROOT, tiny_row, write_results

GPT = "gpt-oss-120b"
MI355 = "AMD Instinct MI355X 288GB HBM3e"
B200 = "NVIDIA B200-SXM-180GB"
ROWS = [
    tiny_row("6.0-0001", GPT, "Server", 64000.0),
    tiny_row("6.0-0002", GPT, "Server", 48000.0, accelerator=B200),
    tiny_row("6.0-0003", GPT, "Server", 56000.0, accelerator=MI355),
    tiny_row("6.1-0001", GPT, "Server", 80000.0),
    tiny_row("6.1-0002", GPT, "Server", 60000.0, accelerator=B200),
    tiny_row("6.1-0003", GPT, "Server", 72000.0, accelerator=MI355),
    tiny_row("6.1-0004", GPT, "Server", 76000.0, accelerator=MI355, has_power=True),
]
SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture()
def lib(tmp_path: Path, manifest: Manifest) -> Library:
    table = ResultsTable.from_dir(write_results(tmp_path / "results", ROWS), manifest)
    return Library(table, manifest, Prices.load(ROOT / "data" / "prices.toml"))


def dataset(chart: charts.Chart) -> list[dict[str, Any]]:
    [rows] = chart.spec["datasets"].values()
    return rows


def layer_encoding(chart: charts.Chart, mark: str) -> dict[str, Any]:
    """The encoding of the chart's layer of *mark* (``line``, ``point``, ``bar``, ``text``)."""
    for layer in chart.spec["layer"]:
        kind = layer["mark"] if isinstance(layer["mark"], str) else layer["mark"]["type"]
        if kind == mark:
            return {**chart.spec.get("encoding", {}), **layer.get("encoding", {})}
    raise AssertionError(f"no {mark} layer")


# ---------------------------------------------------------------- families on shared axes
def test_trend_of_several_families_draws_a_line_per_family_not_one_pooled_line(lib: Library) -> None:
    chart = charts.trend(lib, GPT, "Server", stat="best", family=["B300", "B200", "MI355X"])
    got = [(d["family"], d["round"], d["printed"]) for d in dataset(chart)]
    assert got == [
        ("B300", "v6.0", "8,000"),
        ("B300", "v6.1", "10,000"),
        ("B200", "v6.0", "6,000"),
        ("B200", "v6.1", "7,500"),
        ("MI355X", "v6.0", "7,000"),
        ("MI355X", "v6.1", "9,500"),
    ]
    line, point = layer_encoding(chart, "line"), layer_encoding(chart, "point")
    assert line["detail"]["field"] == "line"  # a line per family (and compatible span)
    names, colours = charts.family_colors(lib)
    site = dict(zip(names, colours, strict=True))
    assert line["color"]["field"] == "family"
    assert line["color"]["scale"] == {
        "domain": ["B300", "B200", "MI355X"],
        "range": [site[f] for f in line["color"]["scale"]["domain"]],
    }
    shapes = dict(zip(*charts.family_shapes(lib), strict=True))
    assert point["shape"]["scale"]["range"] == [shapes["B300"], shapes["B200"], shapes["MI355X"]]
    assert len(set(point["shape"]["scale"]["range"])) == 3  # colour plus a second cue
    assert point["shape"]["legend"]["orient"] == "top"


def test_one_colour_and_shape_per_family_across_the_site(lib: Library) -> None:
    """A family's colour and shape do not depend on the chart or the other families in it."""
    a = charts.trend(lib, GPT, "Server", family=["MI355X", "B300"])
    b = charts.per_gpu_by_family(lib, GPT, "Server", round="6.1", families=["B200", "MI355X"], category=None)
    scale_a = layer_encoding(a, "line")["color"]["scale"]
    scale_b = layer_encoding(b, "bar")["color"]["scale"]
    assert (
        dict(zip(scale_a["domain"], scale_a["range"], strict=True))["MI355X"]
        == dict(zip(scale_b["domain"], scale_b["range"], strict=True))["MI355X"]
    )
    names, colours = charts.family_colors(lib)
    pairs = list(zip(colours, charts.family_shapes(lib)[1], strict=True))
    assert len(set(pairs)) == len(names)  # no two families of accelerators.toml share both cues


def test_grouped_bars_put_each_familys_rounds_side_by_side(lib: Library) -> None:
    chart = charts.per_gpu_by_family(
        lib, GPT, "Server", round=["6.0", "6.1"], families=["B300", "B200"], category=None
    )
    bars = layer_encoding(chart, "bar")
    assert bars["y"]["field"] == "family" and bars["yOffset"] == {
        "field": "round",
        "type": "nominal",
        "sort": ["v6.0", "v6.1"],
    }
    assert "opacity" not in bars  # rounds are never told apart by transparency
    assert bars["fill"]["condition"]["test"] == "datum.round === 'v6.1'"  # the newest filled
    assert (
        bars["fill"]["value"] == "transparent" and bars["stroke"]["field"] == "family"
    )  # the older outlined
    assert layer_encoding(chart, "text")["text"]["field"] == "shown"
    assert [d["shown"] for d in dataset(chart)] == [
        "v6.0: 8,000",
        "v6.1: 10,000",
        "v6.0: 6,000",
        "v6.1: 7,500",
    ]


def test_cross_round_outlines_the_older_round_instead_of_fading_it(lib: Library) -> None:
    chart = charts.cross_round(lib, [["8x B300", "6.0-0001", "6.1-0001"]], GPT, "Server")
    bars = layer_encoding(chart, "bar")
    assert "opacity" not in bars
    assert bars["fill"]["condition"]["test"] == "datum.round === 'v6.1'"  # the newest filled
    assert bars["fill"]["condition"]["scale"] == bars["stroke"]["scale"]  # in the family's colour
    assert bars["fill"]["value"] == "transparent"  # the older outlined


# ---------------------------------------------------------------- captions
def test_captions_are_sentences_that_never_print_filter_arguments_or_lists(
    tmp_path: Path, lib: Library
) -> None:
    body = (
        '{{ chart("trend", "gpt-oss-120b", "Server", family=["B300", "MI355X"], gpus=8, has_power=False, '
        'category="available") }}\n'
    )
    path = tmp_path / "article.md"
    path.write_text(f"---\ntitle: T\n---\n{body}", encoding="utf-8")
    out = Renderer(lib).render(load_article(path)).markdown
    caption = (
        "*Figure 1: Each point is the median per-GPU result of the Available Closed 8-GPU systems without "
        "power measurements of an accelerator family in gpt-oss-120b Server, in each loaded round of MLPerf® "
        "Inference (v6.0 and v6.1). One line per family: B300 and MI355X. Per-GPU values are derived metrics.*"
    )
    assert caption in out
    for said in ("[", "has power", "gpus 8", "category available", "False", ".toml"):
        assert said not in caption


@pytest.mark.parametrize(
    ("filters", "said"),
    [
        ({"gpus": [4, 8]}, "Closed 4- or 8-GPU systems"),
        ({"division": None, "min_gpus": 8}, "Closed and Open systems with at least 8 GPUs"),
        (
            {"kind": ["cloud", "neocloud"], "has_power": True},
            "Closed systems with power measurements from cloud or neocloud submitters",
        ),
        ({"category": ["available", "rdi"], "family": "B300"}, "Available or RDI Closed B300 systems"),
        ({"division": "open", "nodes": 2, "submitter": "Azure"}, "Open 2-node systems submitted by Azure"),
    ],
)
def test_a_selection_is_said_in_words(filters: dict[str, Any], said: str) -> None:
    assert charts._systems(filters) == said


# ---------------------------------------------------------------- colours, labels, axes
def luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_mark_colour_reaches_3_to_1_against_the_page(theme: str) -> None:
    """WCAG 1.4.11: graphics at 3:1 or more; the old palette's orange and yellow had 2.5:1 and 1.6:1."""
    background = charts.BACKGROUNDS[theme]
    got = {c: round(contrast(c, background), 2) for c in (*charts.PALETTE, charts.OTHER_COLOR)}
    assert min(got.values()) >= 3.0, got


def test_round_labels_are_horizontal_and_axis_numbers_read_in_thousands(lib: Library) -> None:
    chart = charts.trend(lib, GPT, "Server", stat="best")
    x = layer_encoding(chart, "line")["x"]
    assert x["axis"]["labelAngle"] == 0
    svg = figure_svg(chart)
    axis = [t.text for t in svg.iter(f"{SVG_NS}text") if t.text and re.fullmatch(r"[\d,.]+[kKM]?", t.text)]
    assert "10,000" in axis and "0" in axis
    assert not [t for t in axis if t.endswith("k")]


def figure_svg(chart: charts.Chart) -> ET.Element:
    import vl_convert as vlc  # the chart drawn as the build draws it

    from generator.site.pages import fallback_spec

    return ET.fromstring(vlc.vegalite_to_svg(fallback_spec(chart.spec)))


# ---------------------------------------------------------------- figures and data to take away
def test_a_figure_to_take_away_has_its_caption_and_notes_under_the_chart(tmp_path: Path) -> None:
    chart = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="200" viewBox="0 0 640 200"><g/></svg>'
    )
    caption = "Figure 2: Each bar is the best row of an accelerator family among the Closed 8-GPU systems & more. [1][5]"
    svg = captioned_svg(chart, caption)
    root = ET.fromstring(svg)
    assert (root.get("width"), root.get("height")) == ("640", "256")  # two caption lines under the chart
    assert " ".join(t.text or "" for t in root.iter(f"{SVG_NS}tspan")) == caption
    files = figure_files(chart, caption, tmp_path)
    png = files[".png"]
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (1280, 512)  # twice the SVG's size
    assert figure_files(chart, caption, tmp_path)[".png"] == png  # kept in the cache


def test_a_charts_data_is_csv_of_what_the_page_prints(lib: Library) -> None:
    chart = charts.per_gpu_by_family(
        lib, GPT, "Server", round="6.1", families=["B300", "MI355X"], category=None
    )
    rows = list(csv.DictReader(io.StringIO(charts.chart_csv(chart.rows))))
    assert rows == [
        {
            "Family": "B300",
            "Round": "v6.1",
            "Entry": "6.1-0001",
            "Submitter": "ExampleCorp",
            "System": "Example 8x",
            "GPUs": "8",
            "Per GPU (derived)": "10,000",
            "Per GPU, unrounded": "10000.0",
            "Units": "Tokens/s per GPU",
        },
        {
            "Family": "MI355X",
            "Round": "v6.1",
            "Entry": "6.1-0004",
            "Submitter": "ExampleCorp",
            "System": "Example 8x",
            "GPUs": "8",
            "Per GPU (derived)": "9,500",
            "Per GPU, unrounded": "9500.0",
            "Units": "Tokens/s per GPU",
        },
    ]
    assert [d["printed"] for d in dataset(chart)] == [r["Per GPU (derived)"] for r in rows]


def test_links_under_the_caption_name_the_files_the_build_writes(tmp_path: Path, lib: Library) -> None:
    path = tmp_path / "cmp.md"
    body = '{{ chart("per_gpu_by_family", "gpt-oss-120b", "Server", round="6.1", families=["B300"]) }}\n'
    path.write_text(f"---\ntitle: T\n---\n{body}", encoding="utf-8")
    rendered = Renderer(lib).render(load_article(path))
    links = re.findall(r'<a class="gi-chart-file" href="([^"]+)" download>', rendered.markdown)
    assert links == ["charts/cmp-1.figure.svg", "charts/cmp-1.png", "charts/cmp-1.csv"]
    [out] = rendered.charts
    assert re.fullmatch(r"Figure 1: Each bar .* derived metrics\. \[1\]", out.figure_caption)


# ---------------------------------------------------------------- in Chromium, on the official results
ARTICLE = """---
title: "Accelerator families on shared axes"
date: 2026-10-05
rounds: ["5.1", "6.0", "6.1"]
---

# Accelerator families on shared axes

{{ chart("trend", "llama2-70b-99.9", "Server", gpus=8, family=["B200", "B300", "H200", "MI355X"]) }}

{{ chart("per_gpu_by_family", "llama2-70b-99.9", "Server", round=["6.0", "6.1"], families=["B200", "B300", "MI355X"], gpus=8) }}

## MLPerf® result footnotes and entry IDs

{{ footnotes() }}

{{ compliance() }}
"""
PAGE = "families-compared.html"

#: the colours of a chart's marks (fills and strokes, none transparent) and their contrast with the
#: background the chart is drawn on (the first ancestor with one)
COLOURS = """(chart) => {
  const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
  const opaque = c => c.length === 3 || (c.length === 4 && c[3] > 0);
  const lum = c => { const f = v => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  let el = chart, bg = [255, 255, 255];
  while (el) { const c = rgb(getComputedStyle(el).backgroundColor); if (opaque(c)) { bg = c; break; } el = el.parentElement; }
  const out = {};
  for (const m of chart.querySelectorAll(".role-mark path, .role-legend-symbol path")) {
    const cs = getComputedStyle(m);
    for (const v of [cs.fill, cs.stroke]) { const c = rgb(v); if (v !== "none" && opaque(c)) out[v] = ratio(c, bg); }
  }
  return {background: bg, colours: out};
}"""


@pytest.fixture(scope="module")
def compared_site(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> Iterator[tuple[str, Path]]:
    need_chromium()
    root = tmp_path_factory.mktemp("compare")
    (root / "content").mkdir()
    (root / "content" / "families-compared.md").write_text(ARTICLE, encoding="utf-8")
    project = Project(ROOT).clone(root / "project", content=root / "content")
    build(project=project, results=shared_dir, site_dir=root / "site", log=lambda _: None)
    with serve_dir(root / "site") as url:
        yield url, root / "site"


def open_charts(browser: Any, url: str, **kw: Any) -> Any:
    outside: list[str] = []
    page = offline_page(browser, outside, viewport={"width": 390, "height": 900}, **kw)
    page.goto(f"{url}/{PAGE}", wait_until="networkidle")
    page.wait_for_function(
        "[...document.querySelectorAll('.gi-vega')].every(e => e.classList.contains('gi-drawn'))",
        timeout=20_000,
    )
    assert outside == []
    return page


@pytest.mark.browser
def test_a_multi_family_chart_reaches_3_to_1_in_both_themes(
    compared_site: tuple[str, Path], browser: Any
) -> None:
    url, _ = compared_site
    page = open_charts(browser, url, color_scheme="light")
    measured = {}
    for theme in ("light", "dark"):
        if theme == "dark":
            page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
            page.wait_for_function(
                "getComputedStyle(document.querySelector('.gi-vega svg .role-axis-label text')).fill "
                "=== 'rgb(226, 228, 233)'",
                timeout=10_000,
            )
        measured[theme] = [
            page.evaluate(COLOURS, svg) for svg in page.query_selector_all(".gi-vega.gi-drawn svg")
        ]
    assert [m["background"] for m in measured["light"]] == [[255, 255, 255]] * 2
    assert [m["background"] for m in measured["dark"]] == [[30, 33, 41]] * 2
    for theme, found in measured.items():
        trend = found[0]["colours"]
        assert len(trend) == 4, (theme, trend)  # a colour per family: B200, B300, H200, MI355X
        for chart in found:
            low = min(chart["colours"].values())
            assert low >= 3.0, (theme, chart)
    legend = page.locator(".gi-vega svg").first.locator(".role-legend-label text").all_text_contents()
    assert legend == ["B200", "B300", "H200", "MI355X"]
    page.close()


@pytest.mark.browser
def test_tapping_a_mark_shows_its_details_under_the_chart(
    compared_site: tuple[str, Path], browser: Any
) -> None:
    url, site = compared_site
    page = open_charts(browser, url, has_touch=True, is_mobile=True)
    bars = page.locator(".gi-vega").nth(1)
    bars.scroll_into_view_if_needed()
    bar = bars.locator(".role-mark path").first
    bar.tap()
    details = bars.locator(".gi-chart-details")
    details.wait_for(state="visible", timeout=5_000)
    shown = dict(
        zip(details.locator("dt").all_inner_texts(), details.locator("dd").all_inner_texts(), strict=True)
    )
    assert list(shown) == ["Round", "Entry", "Submitter", "System", "GPUs", "Per GPU"]
    rows = read_csv(site / "charts" / "families-compared-2.csv")
    assert (shown["Round"], shown["Entry"], shown["Per GPU"]) in {
        (r["Round"], r["Entry"], r["Per GPU (derived)"]) for r in rows
    }
    bar.tap()  # the same mark again: hidden
    details.wait_for(state="hidden", timeout=5_000)
    page.close()


def _notes(sups: list[str]) -> list[int]:
    """The notes a citation's superscripts say, a range ("1", "–", "3") counted in full."""
    out: list[int] = []
    pending = False
    for text in (t.strip() for t in sups):
        if text == "\u2013":
            pending = True
        elif text.isdigit():
            n = int(text)
            out += list(range(out[-1] + 1, n)) if pending and out else []
            out.append(n)
            pending = False
    return out


def read_csv(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text("utf-8"))))


@pytest.mark.browser
def test_the_svg_png_and_csv_downloads_open_and_match_the_page(
    compared_site: tuple[str, Path], browser: Any
) -> None:
    url, _ = compared_site
    page = open_charts(browser, url)
    for n, chart in enumerate(page.locator(".gi-chart").all(), 1):
        files = page.locator(".gi-chart-files").nth(n - 1)
        links = files.locator("a").evaluate_all(
            "as => as.map(a => [a.textContent, a.href, a.hasAttribute('download')])"
        )
        assert [(text, bool(d)) for text, _, d in links] == [("SVG", True), ("PNG", True), ("CSV", True)]
        got = {text: page.request.get(href) for text, href, _ in links}
        assert all(r.ok for r in got.values())
        caption = page.locator(".gi-chart + p").nth(n - 1)
        said = caption.locator("em").inner_text()
        cited = _notes(caption.locator("sup").all_inner_texts())  # "1", "–", "3": notes 1 to 3
        notes = "".join(f"[{x}]" for x in cited)
        svg = ET.fromstring(got["SVG"].body())
        [under] = svg.findall(f"{SVG_NS}text")  # the caption, under the chart
        assert " ".join(t.text or "" for t in under.iter(f"{SVG_NS}tspan")) == f"{said} {notes}"
        png = got["PNG"].body()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">I", png[16:20]) == (1280,)
        rows = list(csv.DictReader(io.StringIO(got["CSV"].text())))
        drawn = chart.locator(".gi-vega svg")
        if n == 1:  # the lines: a point per row, each row's value in the ledger of the page's figures
            assert drawn.locator(".role-mark.mark-symbol path").count() == len(rows) > 0
            assert {r["Family"] for r in rows} == {"B200", "B300", "H200", "MI355X"}
        else:  # the bars: the labels the page draws are the CSV's rounds and values
            labels = drawn.locator(".role-mark text").all_text_contents()
            assert sorted(labels) == sorted(f"{r['Round']}: {r['Per GPU (derived)']}" for r in rows)
            figure_labels = [t.text for t in svg.iter(f"{SVG_NS}text") if t.text and ": " in t.text]
            assert sorted(figure_labels) == sorted(labels)
    page.close()
