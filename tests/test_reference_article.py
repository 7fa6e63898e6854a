"""The reference article, rewritten as a template, reproduces the published article."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from altair.utils.schemapi import validate_jsonschema
from altair.vegalite.v6.schema import core

from generator.article.functions import Library, Prices
from generator.article.render import Rendered, Renderer, load_article
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable

from .conftest import ROOT, shared_reference_dir

ARTICLE = ROOT / "content" / "mlperf-inference-v6.1-per-gpu.md"


@pytest.fixture(scope="module")
def rendered(official: ResultsTable, manifest: Manifest) -> Rendered:
    lib = Library(official, manifest, Prices.load(ROOT / "data" / "prices.toml"))
    return Renderer(lib).render(load_article(ARTICLE))


def _normalize(text: str) -> list[str]:
    text = re.sub(r"\[\^?\\\[(\d+)\\\]\]\(#mlperf-fn-\d+\)", "", text)  # our markers
    text = re.sub(r'<sup class="gi-erratum">.*?</sup>', "", text)  # our marks of a contradicted claim
    text = re.sub(r"\^\[\d+\](\[\d+\])*", "", text)  # the published markers
    text = re.sub(r"^(#+ |- |• )", "", text, flags=re.M).replace("**", "")
    return [p.strip() for p in text.split("\n") if p.strip()]


def published() -> str:
    return (shared_reference_dir() / "article-mlperf-inference-v6.1-per-gpu.txt").read_text("utf-8")


def test_every_prose_paragraph_matches_the_published_article(rendered: Rendered) -> None:
    """Word for word, apart from the markers (and the mark at the sentence the data contradict:
    :func:`test_the_contradicted_takeaway_is_marked_at_its_sentence`)."""
    ours = set(_normalize(rendered.markdown))
    theirs = [p for p in _normalize(published()) if not re.match(r"\d\. MLPerf® Inference v", p)]
    missing = [p for p in theirs if p not in ours]
    assert missing == []
    assert len(theirs) == 75


# Every data-derived figure the published article prints, each to its printed precision.
PUBLISHED_FIGURES = [
    "5.65×",
    "3.04×",
    "2.74×",
    "1.65×",
    "1.9",
    "2,907",
    "16,427",
    "6,006",
    "16,435",
    "8,846",
    "5,842",
    "9,629",
    "5.75",
    "11,229",
    "14,726",
    "76.3%",
    "3,000 ms",
    "80 ms",
    "0.4%",
    "14,211",
    "11,276",
    "16,022",
    "14,155",
    "10,944",
    "26.0%",
    "42.1%",
    "25.5%",
    "2.9%",
    "6.3%",
    "4.7×",
    "10,267",
    "37.9%",
    "11,876",
    "15,227",
    "28.2%",
    "53,463",
    "58,196",
    "8.85%",
    "60,220",
    "65,512",
    "8.79%",
    "14",
    "12,523",
    "13.5%",
    "eight",
    "13,604",
    "4.0%",
    "4%",
    "13%",
    "9%",
    "38%",
    "16.9%",
    "7.8%",
    "64",
    "72",
    "1.97×",
    "1.74×",
    "2.57×",
    "1,500 ms",
    "15 ms",
    "99.5%",
    "9,393",
    "288",
    "9,441",
    "94.6%",
    "94.9%",
    "8",
    "512",
    "5,749,440",
    "2,901,950",
    "5,392,930",
    "2,405,310",
    "6.6%",
    "1.260",
    "1.255",
    "1.421",
    "0.971",
    "3.9%",
    "$5.00",
    "50%",
    "$0.246",
    "$0.195",
    "20.7%",
    "$6.30",
    "40%",
    "$5",
    "$7",
    "30%",
    "67%",
    "5%",
    "24%",
    "8.9%",
    "36",
]


def test_every_published_figure_comes_from_a_placeholder(rendered: Rendered) -> None:
    printed = {u.text for u in rendered.uses}
    assert [f for f in PUBLISHED_FIGURES if f not in printed] == []


def test_the_headline_ratio_is_derived_from_the_cited_rows(rendered: Rendered) -> None:
    use = next(u for u in rendered.uses if u.text == "5.65×")
    assert sorted(r.result_id for r in use.figure.entries) == ["5.1-0072", "6.1-0107"]
    assert use.figure.derived


def test_footnotes_name_suite_division_benchmarks_source_and_every_cited_entry(
    rendered: Rendered,
) -> None:
    notes = [ln for ln in rendered.markdown.splitlines() if re.match(r"\d\. <a id=\"mlperf-fn-", ln)]
    assert len(notes) == 3
    assert "summary\\_results.json" in notes[1]  # names from the data are escaped Markdown text
    notes = [re.sub(r"\\(.)", r"\1", n) for n in notes]  # as Markdown reads them
    v61, v60, v51 = notes
    assert v61.startswith(
        '1. <a id="mlperf-fn-1"></a>MLPerf® Inference v6.1 Closed Datacenter; DeepSeek-R1 '
        "(Server, Offline, Interactive), gpt-oss-120b (Server, Offline), Llama2-70b-99.9 (Server). "
        "Retrieved from https://mlcommons.org/benchmarks/inference-datacenter/ (official results "
        "repository, summary_results.json) on 2 October 2026; entries 6.1-0003, "
    )
    assert v60.startswith(
        '2. <a id="mlperf-fn-2"></a>MLPerf® Inference v6.0 Closed Datacenter; gpt-oss-120b '
        "(Server, Offline). Retrieved from https://github.com/mlcommons/inference_results_v6.0 "
        "(summary_results.json) on 2 October 2026; entries 6.0-0002, 6.0-0016, 6.0-0063, 6.0-0092."
    )
    assert v51.startswith(
        '3. <a id="mlperf-fn-3"></a>MLPerf® Inference v5.1 Closed Datacenter; DeepSeek-R1 '
        "(Server, Offline). Retrieved from https://github.com/mlcommons/inference_results_v5.1 "
        "(summary_results.json) on 2 October 2026; entries 5.1-0072, 5.1-0097."
    )
    # every entry the published footnotes list is cited by ours too
    theirs = [ln for ln in published().splitlines() if re.match(r"\d\. MLPerf® Inference v", ln)]
    for note, ours in zip(theirs, notes, strict=True):
        ids = re.findall(r"\d\.\d-\d{4}", note)
        assert ids and [i for i in ids if i not in ours] == []
    for note in notes:
        assert "are derived metrics computed by GPU Insights and are not official MLPerf® metrics." in note
        assert note.endswith(
            "Result not verified by MLCommons Association. The MLPerf name and logo are registered "
            "and unregistered trademarks of MLCommons Association in the United States and other "
            "countries. All rights reserved. Unauthorized use strictly prohibited. See "
            "www.mlcommons.org for more information."
        )


def test_markers_link_to_existing_notes(rendered: Rendered) -> None:
    targets = set(re.findall(r"\]\(#(mlperf-fn-\d+)\)", rendered.markdown))
    anchors = set(re.findall(r'<a id="(mlperf-fn-\d+)"></a>', rendered.markdown))
    assert targets == anchors == {"mlperf-fn-1", "mlperf-fn-2", "mlperf-fn-3"}


def test_table_one_has_best_rows_gpu_counts_and_medians(rendered: Rendered) -> None:
    md = rendered.markdown
    assert "| B300 | 14,211 (8 GPUs, 6.1-0052)<br>median 13,417 of 16 |" in md
    assert "14,496 (1 GPU, 6.1-0103)" in md
    assert "| H200 | — | — | — | — |" in md


def test_provenance_appendix_lists_formula_and_entries(rendered: Rendered) -> None:
    assert '<details class="gi-provenance" markdown="1">' in rendered.markdown
    assert (
        "| 5.65× | per\\_gpu(6.1-0107 deepseek-r1 Server) / per\\_gpu(5.1-0072 deepseek-r1 Server) | "
        "5.1-0072 deepseek-r1 Server, 6.1-0107 deepseek-r1 Server |"
    ) in rendered.markdown


def test_reference_article_is_not_built_from_the_sample(manifest: Manifest, tmp_path: Path) -> None:
    sample = ResultsTable.from_dir(ROOT / "data" / "sample", manifest)
    lib = Library(sample, manifest, Prices.load(ROOT / "data" / "prices.toml"))
    r = Renderer(lib, sample=True).render(load_article(ARTICLE))
    assert r.missing.startswith("this article needs the official results of round(s) v5.1, v6.0, v6.1")
    assert "`gpu-insights fetch ROUND`" in r.markdown


def test_the_14000_sentence_is_reported_as_the_published_texts_erratum(rendered: Rendered) -> None:
    sentence = (
        "only the GB300 and B300 rows clear 14,000 tokens/s per GPU on gpt-oss-120b Server among 8-GPU or "
        "smaller systems"
    )
    assert sentence in published()
    [e] = rendered.errata
    assert (e.message, e.why) == (
        sentence,
        "entry 6.1-0003 gpt-oss-120b Server (AMD, MI355X, 8 GPUs): 14,155 per GPU",
    )
    assert (
        '## Errata\n\n- <a id="erratum-1"></a>**Erratum (published text of October 5, 2026).** The text says that '
        + sentence
        + ". "
        "The official results contradict it: entry 6.1-0003 gpt-oss-120b Server (AMD, MI355X, 8 GPUs): "
        "14,155 per GPU."
    ) in rendered.markdown


def test_the_template_uses_the_query_api() -> None:
    text = ARTICLE.read_text("utf-8")
    assert "|string" not in text.replace(" ", "")
    assert text.count("{%- set") < 59  # 59 before the query API


def test_every_chart_spec_is_valid_vega_lite(
    rendered: Rendered, official: ResultsTable, manifest: Manifest
) -> None:
    """Charts are made without altair's validation (a fifth of a second each); the schema holds them here."""
    overview = ROOT / "content" / "mlperf-inference-v6.1-round-overview.md"
    lib = Library(official, manifest, Prices.load(ROOT / "data" / "prices.toml"))
    charts = rendered.charts + Renderer(lib).render(load_article(overview)).charts
    assert len(charts) >= 5
    schema = core.load_schema()
    for ch in charts:
        validate_jsonschema(ch.spec, schema)  # raises on the first error


def test_the_contradicted_takeaway_is_marked_at_its_sentence(rendered: Rendered) -> None:
    """ "only the GB300 and B300 rows clear 14,000 tokens/s per GPU" stood unmarked, as if true."""
    line = next(ln for ln in rendered.markdown.splitlines() if "Takeaway: only the GB300 and B300 rows" in ln)
    assert line.endswith(
        'below the B300 row.[^\\[1\\]](#mlperf-fn-1)<sup class="gi-erratum"><a href="#erratum-1" '
        'title="The official results contradict this sentence: see the Errata">erratum</a></sup>'
    )
    assert '- <a id="erratum-1"></a>**Erratum (published text of October 5, 2026).**' in rendered.markdown
