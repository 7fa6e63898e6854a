"""End-to-end builds: the default sample build, golden output, safe swap, determinism."""

from __future__ import annotations

import filecmp
import json
import logging
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import BuildError, TemplateError
from generator.project import Project
from generator.site.build import build
from generator.site.mkdocs_build import MkDocsSetup, run_mkdocs

from .conftest import ROOT, TINY_ROWS, official_project, write_results

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("GPU_INSIGHTS_UPDATE_GOLDEN") == "1"


def tiny_project(tmp_path: Path, content: Path = GOLDEN / "content") -> Project:
    return Project(ROOT).clone(tmp_path / "project", content=content)


def quiet(_: str) -> None:
    pass


def test_default_build_uses_the_embedded_sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(official_project(tmp_path / "project").root)  # the project's articles, not content/'s
    result = CliRunner().invoke(main, ["build", "--site-dir", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    assert "v6.1: 17 rows from" in result.output
    assert (
        "warning: " in result.output and "not built: this article needs the official results" in result.output
    )
    site = tmp_path / "site"
    assert (site / "index.html").exists()
    assert (site / "demo-per-gpu-sample.html").exists()
    page = (site / "mlperf-inference-v6.1-per-gpu.html").read_text("utf-8")
    assert "gpu-insights fetch ROUND" in page
    ledger = json.loads((site / "figures.json").read_text("utf-8"))
    assert {row["article"] for row in ledger} == {"demo-per-gpu-sample"}
    legend = "The MLPerf name and logo are registered and unregistered trademarks of MLCommons Association"
    pages = [p for p in site.rglob("*.html") if p.name != "404.html"]
    assert pages and all(legend in p.read_text("utf-8") for p in pages)


def test_golden_build_on_a_tiny_inline_dataset(tmp_path: Path) -> None:
    """Refresh with: GPU_INSIGHTS_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_build.py -k golden"""
    results = write_results(tmp_path / "results", TINY_ROWS)
    docs = tmp_path / "docs"
    res = build(
        project=tiny_project(tmp_path), results=results, site_dir=tmp_path / "site", log=quiet, keep_docs=docs
    )
    md = (res.site_dir / "sources" / "tiny.md").read_text("utf-8")
    ledger = (res.site_dir / "figures.json").read_text("utf-8")
    spec = (res.site_dir / "charts" / "tiny-1.vl.json").read_text("utf-8")
    outputs = {"tiny.expected.md": md, "figures.expected.json": ledger, "tiny-1.expected.vl.json": spec}
    # the reader's page and the review page made from it (footnotes, tables, highlighted figures)
    outputs["tiny.reader.expected.md"] = (docs / "tiny.md").read_text("utf-8")
    outputs["tiny.review.expected.md"] = (docs / "review" / "tiny.md").read_text("utf-8")
    if UPDATE:
        for name, text in outputs.items():
            (GOLDEN / name).write_text(text, encoding="utf-8")
    for name, text in outputs.items():
        assert text == (GOLDEN / name).read_text("utf-8"), f"{name} differs from the golden copy"
    html = (res.site_dir / "tiny.html").read_text("utf-8")
    assert 'data-spec="charts/tiny-1.vl.json"' in html
    assert (res.site_dir / "charts" / "tiny-1.svg").read_text("utf-8").startswith("<svg")
    assert (res.site_dir / "assets" / "vega-bundle.js").stat().st_size > 100_000


def test_two_builds_are_byte_identical(tmp_path: Path) -> None:
    results = write_results(tmp_path / "results", TINY_ROWS)
    project = tiny_project(tmp_path)
    a = build(project=project, results=results, site_dir=tmp_path / "a", log=quiet).site_dir
    b = build(project=project, results=results, site_dir=tmp_path / "b", log=quiet).site_dir
    cmp = filecmp.dircmp(a, b)

    def diffs(c: filecmp.dircmp[str]) -> list[str]:
        out = c.diff_files + c.left_only + c.right_only
        for sub in c.subdirs.values():
            out += diffs(sub)
        return out

    assert diffs(cmp) == []
    # dircmp compares shallowly; compare every file's bytes too
    for f in a.rglob("*"):
        if f.is_file():
            assert f.read_bytes() == (b / f.relative_to(a)).read_bytes(), f


def test_a_failing_article_leaves_the_previous_site_intact(tmp_path: Path) -> None:
    results = write_results(tmp_path / "results", TINY_ROWS)
    project = tiny_project(tmp_path)
    site = tmp_path / "site"
    build(project=project, results=results, site_dir=site, log=quiet)
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    bad = project.content_dir / "broken.md"
    bad.write_text(
        '---\ntitle: Broken\n---\n\nText.\n\n{{ per_gpu("6.1-0999", "gpt-oss-120b", "Server") }}\n', "utf-8"
    )
    with pytest.raises(TemplateError) as exc:
        build(project=project, results=results, site_dir=site, log=quiet)
    assert exc.value.message.startswith(f"{bad}:7: entry 6.1-0999 is not in round v6.1 (")
    after = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    assert after == before
    assert [p.name for p in site.parent.iterdir() if p.name.startswith(".gpu-insights-build")] == []


@pytest.mark.parametrize("results", [False, True])
def test_broken_front_matter_is_reported_with_the_other_articles_errors_on_the_sample(
    tmp_path: Path, results: bool
) -> None:
    """On the sample every broken article is reported together, by rendering; a build on results
    files stops at the first one it reads (deciding which articles it publishes)."""
    project = tiny_project(tmp_path)
    bad_date = project.content_dir / "aa-broken.md"
    bad_date.write_text("---\ndate: notadate\n---\nhi\n", "utf-8")
    deep = project.content_dir / "zz-broken.md"
    deep.write_text("---\ntitle: " + "[" * 3000 + "]" * 3000 + "\n---\nhi\n", "utf-8")
    where = write_results(tmp_path / "results", TINY_ROWS) if results else None
    with pytest.raises(TemplateError) as exc:
        build(project=project, results=where, site_dir=tmp_path / "site", log=quiet, use_cache=False, jobs=2)
    expected = [
        f"{bad_date}:2: date: 'notadate' is not a date (write 2026-10-05 or October 5, 2026)",
        f"{deep}:1: invalid front matter: lists or mappings nested too deeply",
    ]
    assert exc.value.message.splitlines() == (expected[:1] if results else expected)


def test_a_broken_mkdocs_yml_fails_the_build_after_the_articles_and_keeps_the_site(tmp_path: Path) -> None:
    """MkDocs' configuration is loaded while the articles render: its error still comes after
    theirs, names mkdocs.yml, and leaves the previous site as it was."""
    results = write_results(tmp_path / "results", TINY_ROWS)
    project = tiny_project(tmp_path)
    site = tmp_path / "site"
    build(project=project, results=results, site_dir=site, log=quiet)
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    yml = project.mkdocs_yml
    yml.write_text(yml.read_text("utf-8").replace("plugins:\n", "plugins:\n  - no-such-plugin\n"), "utf-8")
    with pytest.raises(BuildError) as exc:
        build(project=project, results=results, site_dir=site, log=quiet)
    assert exc.value.message == f"{yml}: MkDocs failed: Aborted with a configuration error!"
    bad = project.content_dir / "broken.md"
    bad.write_text(
        '---\ntitle: Broken\n---\n\n{{ per_gpu("6.1-0999", "gpt-oss-120b", "Server") }}\n', "utf-8"
    )
    with pytest.raises(TemplateError) as exc2:  # the article's error first, as before
        build(project=project, results=results, site_dir=site, log=quiet)
    assert exc2.value.message.startswith(f"{bad}:5: entry 6.1-0999 is not in round v6.1 (")
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == before


def test_what_mkdocs_logs_while_loaded_ahead_is_logged_where_mkdocs_ran_before(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    project = tiny_project(tmp_path)
    yml = project.mkdocs_yml
    yml.write_text(yml.read_text("utf-8") + "no_such_key: 1\n", "utf-8")
    setup = MkDocsSetup(project, tmp_path / "docs", tmp_path / "site")
    with caplog.at_level(logging.WARNING):
        setup.load()
        assert caplog.messages == []  # not amid the articles' progress lines
        setup.config()
    assert caplog.messages == ["Config value 'no_such_key': Unrecognised configuration name: no_such_key"]


def test_a_malformed_navigation_fails_as_mkdocs_fails_it(tmp_path: Path) -> None:
    project = tiny_project(tmp_path)
    (tmp_path / "docs").mkdir()
    with pytest.raises(BuildError) as exc:
        run_mkdocs(project, tmp_path / "docs", tmp_path / "site", [{"a": "a.md", "b": "b.md"}])
    assert exc.value.message == (
        f"{project.mkdocs_yml}: MkDocs failed: Config value 'nav': Expected nav item to be a dict of "
        "size 1, got dict with keys ('a', 'b')"
    )


def test_bad_results_file_fails_the_build_with_its_location(tmp_path: Path) -> None:
    results = write_results(tmp_path / "results", TINY_ROWS)
    f = results / "v6.1" / "summary_results.json"
    f.write_text(
        f.read_text("utf-8").replace('"Performance_Result": 80000.0', '"Performance_Result": "fast"'), "utf-8"
    )
    result = CliRunner().invoke(main, ["build", "--results", str(results), "--site-dir", str(tmp_path / "s")])
    assert result.exit_code == 1
    assert (
        f"Error: {f}: index 0 (entry 6.1-0001 gpt-oss-120b Server): field 'Performance_Result': not a number: 'fast'"
        in result.output
    )
    assert not (tmp_path / "s").exists()
