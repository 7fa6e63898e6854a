"""Errata where the reader reads: a published claim the official results contradict is marked at
its sentence (a link to the erratum), listed in the review view's findings, flagged on the
article's listing entry and in its feed item, and fails ``build --strict``."""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from generator.data.manifest import Manifest
from generator.data.table import ResultsTable
from generator.errors import BuildError
from generator.site.build import build

from .conftest import TINY_ROWS, write_results
from .test_build import GOLDEN, quiet, tiny_project
from .test_render import render

CLAIM = (
    '{% set t = constant(8500, "the published threshold") %}Only B300 rows clear {{ t }} tokens/s per GPU.'
    '{{ holds(only(["B300"], "gpt-oss-120b", "Server", round="6.1", max_gpus=8, above=t), '
    '"only B300 rows clear 8,500", erratum="published text of October 5, 2026") }}'
)
MARK = (
    '<sup class="gi-erratum"><a href="#erratum-1" title="The official results contradict this sentence: '
    'see the Errata">erratum</a></sup>'
)


def test_a_contradicted_claim_is_marked_at_its_sentence(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    out = render(tmp_path, tiny, manifest, f"Intro.\n\n{CLAIM} More text.\n")
    assert f"Only B300 rows clear 8,500 tokens/s per GPU.{MARK} More text." in out.splitlines()
    assert (
        '- <a id="erratum-1"></a>**Erratum (published text of October 5, 2026).** The text says that only B300 '
        "rows clear 8,500. The official results contradict it: entry 6.1-0003 gpt-oss-120b Server (ExampleCorp, "
        "MI355X, 8 GPUs): 9,000 per GPU."
    ) in out


def project_with_erratum(tmp_path: Path) -> Path:
    content = tmp_path / "content"
    content.mkdir()
    text = (GOLDEN / "content" / "tiny.md").read_text("utf-8")
    text = text.replace("\n## MLPerf® result footnotes", f"\n{CLAIM}\n\n## MLPerf® result footnotes")
    (content / "tiny.md").write_text(text, "utf-8")
    return content


def test_errata_show_on_the_page_listing_feed_and_review(tmp_path: Path) -> None:
    project = tiny_project(tmp_path, project_with_erratum(tmp_path))
    results = write_results(tmp_path / "results", TINY_ROWS)
    site = build(project=project, results=results, site_dir=tmp_path / "site", log=quiet).site_dir
    page = (site / "tiny.html").read_text("utf-8")
    assert 'Only B300 rows clear 8,500 tokens/s per GPU.<sup class="gi-erratum"><a href="#erratum-1"' in page
    assert '<li><a id="erratum-1"></a><strong>Erratum (published text of October 5, 2026).</strong>' in page
    home = (site / "index.html").read_text("utf-8")
    assert (
        '<p class="gi-erratum-note"><strong>Erratum:</strong> the official results contradict a sentence of '
        'this article, marked in its text; see <a href="tiny.html#errata">the errata</a>.</p>'
    ) in home
    feed = html.unescape((site / "feed_rss_created.xml").read_text("utf-8"))
    # the feed item says so first, then what it says of any article (here an excerpt, without
    # the erratum mark's own link text)
    assert (
        "<description>Erratum: the official results contradict a sentence of this article, marked in its "
        "text. On gpt-oss-120b Server"
    ) in feed
    assert "per GPU.erratum" not in feed
    review = html.unescape((site / "review" / "tiny.html").read_text("utf-8"))
    assert "findings: 0 errors, 1 warnings, 0 infos" in review
    assert "erratum warning, template line 19:1" in review
    assert (
        "published claim contradicted by the official results (published text of October 5, 2026): only B300 "
        "rows clear 8,500; contradicted by entry 6.1-0003"
    ) in review
    assert "<strong>1 erratum</strong>" in (site / "review" / "index.html").read_text("utf-8")


def test_strict_build_fails_on_an_erratum_and_keeps_the_site(tmp_path: Path) -> None:
    project = tiny_project(tmp_path, project_with_erratum(tmp_path))
    results = write_results(tmp_path / "results", TINY_ROWS)
    site = tmp_path / "site"
    lines: list[str] = []
    build(project=project, results=results, site_dir=site, log=quiet)
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    with pytest.raises(BuildError) as exc:
        build(project=project, results=results, site_dir=site, log=lines.append, strict=True)
    assert exc.value.message == (
        "1 erratum of published text in strict mode: a published claim the official results contradict "
        "(see the warnings above); the previous site is left as it was"
    )
    article = project.content_dir / "tiny.md"
    assert (
        f"warning: {article}:19: erratum: only B300 rows clear 8,500; contradicted by entry 6.1-0003 "
        "gpt-oss-120b Server (ExampleCorp, MI355X, 8 GPUs): 9,000 per GPU"
    ) in lines
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == before
