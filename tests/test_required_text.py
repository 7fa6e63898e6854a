"""Required statements on the reader's page: placeholders make blocks of their own, and the
build reads every article's finished HTML for the footnotes, the derived-metrics and verification
statements, the trademark legend and the compliance paragraph."""

from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs.commands.build import build as mkdocs_build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

from generator.data.manifest import Manifest
from generator.data.table import ResultsTable
from generator.errors import BuildError
from generator.site import reader
from generator.site.build import build
from generator.site.required import missing_statements

from .conftest import TINY_ROWS, write_results
from .test_build import GOLDEN, quiet, tiny_project
from .test_render import render

COMPLIANCE = "Comparisons in this article identify version, division (Closed)"


def consecutive_placeholders(tmp_path: Path) -> Path:
    """The golden article with ``{{ footnotes() }}`` and ``{{ compliance() }}`` on consecutive lines."""
    content = tmp_path / "content"
    content.mkdir()
    text = (GOLDEN / "content" / "tiny.md").read_text("utf-8")
    assert "{{ footnotes() }}\n\n{{ compliance() }}" in text
    (content / "tiny.md").write_text(text.replace("{{ footnotes() }}\n\n", "{{ footnotes() }}\n"), "utf-8")
    return content


def test_blocks_get_blank_lines_whatever_the_template_writes(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    fig = '{{ per_gpu("6.1-0001", "gpt-oss-120b", "Server") }}'
    out = render(
        tmp_path,
        tiny,
        manifest,
        f"B300 {fig}.{{{{ cite() }}}}\n{{{{ footnotes() }}}}\n{{{{ compliance() }}}}\nEnd.\n",
    )
    paragraphs = out.split("\n\n")
    assert paragraphs[0] == "B300 10,000.[^\\[1\\]](#mlperf-fn-1)"
    assert paragraphs[1].startswith('1. <a id="mlperf-fn-1"></a>MLPerf® Inference v6.1')
    assert paragraphs[2].startswith(COMPLIANCE) and paragraphs[3] == "End."
    # already separated: no more blank lines than the template's
    out2 = render(
        tmp_path,
        tiny,
        manifest,
        f"B300 {fig}.{{{{ cite() }}}}\n\n{{{{ footnotes() }}}}\n\n{{{{ compliance() }}}}\n\nEnd.\n",
    )
    assert out2.split("\n\n")[:4] == paragraphs[:4]
    # a table placed inside a sentence's line is a block of its own, too
    table = '{{ best_table("6.1", [["gpt-oss-120b", "Server"]], ["B300"]) }}'
    out3 = render(tmp_path, tiny, manifest, f"Before: {table} after.\n")
    assert out3.startswith("Before: \n\n| ")
    assert "\n\n after." in out3


def test_compliance_paragraph_on_the_line_after_the_footnotes_reaches_the_reader(tmp_path: Path) -> None:
    project = tiny_project(tmp_path, consecutive_placeholders(tmp_path))
    results = write_results(tmp_path / "results", TINY_ROWS)
    site = build(project=project, results=results, site_dir=tmp_path / "site", log=quiet).site_dir
    assert COMPLIANCE in (site / "tiny.html").read_text("utf-8")


def test_a_page_that_lost_a_statement_fails_the_build_and_keeps_the_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tiny_project(tmp_path)
    results = write_results(tmp_path / "results", TINY_ROWS)
    site = tmp_path / "site"
    build(project=project, results=results, site_dir=site, log=quiet, use_cache=False)
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    note = reader.reader_note

    def lossy(*args: object, **kw: object) -> str:
        text = note(*args, **kw)  # type: ignore[arg-type]
        return text.replace(reader.TRADEMARK, "").replace("Result not verified by MLCommons Association.", "")

    monkeypatch.setattr(reader, "reader_note", lossy)
    with pytest.raises(BuildError) as exc:
        build(project=project, results=results, site_dir=site, log=quiet, use_cache=False)
    article = project.content_dir / "tiny.md"
    assert exc.value.message.splitlines() == [
        "required text missing from reader pages; the previous site is left as it was:",
        f"  {article}: footnote 1 (v6.1 Closed Datacenter) lacks the verification statement "
        "('Result not verified by MLCommons Association.') on its page",
        f"  {article}: footnote 1 (v6.1 Closed Datacenter) lacks the trademark legend on its page",
        f"  {article}: footnote 2 (v6.0 Closed Datacenter) lacks the verification statement "
        "('Result not verified by MLCommons Association.') on its page",
        f"  {article}: footnote 2 (v6.0 Closed Datacenter) lacks the trademark legend on its page",
    ]
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == before


def test_missing_notes_entries_and_derived_statement_are_named(tmp_path: Path) -> None:
    project = tiny_project(tmp_path)
    results = write_results(tmp_path / "results", TINY_ROWS)
    res = build(project=project, results=results, site_dir=tmp_path / "site", log=quiet)
    r = next(x for x in res.rendered if x.article.slug == "tiny")
    page = (res.site_dir / "tiny.html").read_text("utf-8")
    assert missing_statements(r, page, "GPU Insights") == []
    broken = page.replace('<li id="fn:2">', '<li id="fn:9">').replace("6.1-0003", "6.1-0033")
    broken = broken.replace("are derived metrics computed by GPU Insights", "are computed")
    assert missing_statements(r, broken, "GPU Insights") == [
        "footnote 1 (v6.1 Closed Datacenter) does not name entry 6.1-0003",
        "footnote 1 (v6.1 Closed Datacenter) lacks the derived-metrics statement ('Per-GPU values, "
        "medians, and percentage changes are derived metrics computed by GPU Insights and are not "
        "official MLPerf® metrics.')",
        "footnote 2 (v6.0 Closed Datacenter) is missing",
    ]


def test_the_plugins_build_fails_on_a_page_that_lost_a_statement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """``mkdocs build`` with the plugin reads the finished pages as ``gpu-insights build`` does."""
    project = tiny_project(tmp_path)
    results = write_results(tmp_path / "results", TINY_ROWS)
    yml = project.mkdocs_yml
    yml.write_text(
        yml.read_text("utf-8").replace(
            "  - gpu-insights\n", f"  - gpu-insights:\n      results: {results}\n"
        ),
        "utf-8",
    )
    note = reader.reader_note
    monkeypatch.setattr(reader, "reader_note", lambda *a, **kw: note(*a, **kw).replace(reader.TRADEMARK, ""))
    cfg = load_config(str(yml))
    cfg.plugins.on_startup(command="build", dirty=False)  # as `mkdocs build` does
    with pytest.raises(Abort):
        mkdocs_build(cfg)
    article = project.content_dir / "tiny.md"
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == [
        "gpu-insights: required text missing from reader pages:\n"
        f"  {article}: footnote 1 (v6.1 Closed Datacenter) lacks the trademark legend on its page\n"
        f"  {article}: footnote 2 (v6.0 Closed Datacenter) lacks the trademark legend on its page"
    ]
