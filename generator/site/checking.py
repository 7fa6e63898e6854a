"""What ``gpu-insights check`` needs beyond the checker, without pandas: the check's renderer,
and the check of article files from the cached rows.

The checker reads the rows only as plain lists (:class:`~generator.data.rowtable.RowTable`), and
a template's placeholders query them in plain Python (:class:`~generator.data.rowquery.RowQueries`).
So :func:`check_files` checks articles named one by one with the rows of the results-table cache
(:mod:`generator.data.rowcache`) and never imports pandas or the site builder (a chart the chart
cache does not hold imports its drawing libraries, pandas among them). A hand-written article
(no ``{{``, ``{%`` or ``{#``: nothing for the template engine to run) renders to its own text
whatever the results hold, in this process. It gives the same findings as
:func:`generator.site.build.run_checks`, which checks folders and the whole content/.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

from generator.article.ahead import CompileAhead, templated
from generator.article.frontmatter import Article, load_article
from generator.article.functions import Library, Prices
from generator.article.pool import Cache, Outcome, render_articles
from generator.article.render import Renderer
from generator.check import CheckConfig, Checker, Finding, check_rendered
from generator.data.manifest import Manifest, load_manifest
from generator.data.rowcache import cached_rows
from generator.data.rowquery import RowQueries
from generator.data.rowtable import RowTable
from generator.errors import GpuInsightsError
from generator.project import DATA_FILES, Project, check_article_file, read_mkdocs_yml
from generator.site.cache import (
    ChartCache,
    ReadCache,
    RenderCache,
    code_version,
    files_digest,
    results_digest,
)


class CheckRenderer(Renderer):
    """The renderer of ``gpu-insights check``: an article the loaded results cannot render is
    reported in the check's terms (its ``--results``), not the build's, and a hand-written
    article without front matter is not told about front matter."""

    results: Path | None = None

    def missing_data(self, article: Article) -> str:
        if not super().missing_data(article):
            return ""
        need = [r for r in article.rounds if r not in self.lib.table.rounds] or list(article.rounds)
        folders = ", ".join(f"v{r}/" for r in need) or "v6.1/, ..."
        fetch = " and ".join(f"`gpu-insights fetch {r}`" for r in need) or "`gpu-insights fetch ROUND`"
        if self.results is None:
            return (
                "checking it needs the official results, and only the embedded sample (a few rows of one "
                f"published article) was loaded: run `gpu-insights check --results DIR {article.path}`, "
                f"where DIR holds a folder per round ({folders}; {fetch} downloads one)"
            )
        return (
            f"round(s) {', '.join('v' + r for r in need)} not in {self.results}: give --results a folder "
            f"holding {folders}, or download them with {fetch}"
        )


def publisher(project: Project) -> str:
    """The publication's name, as its pages print it: mkdocs.yml's site_name (see
    :func:`generator.site.pages.load_publication`, which imports pandas)."""
    name = read_mkdocs_yml(project.mkdocs_yml).get("site_name")
    text = str(name).strip() if isinstance(name, str | int | float) else ""
    return text or "GPU Insights"


def render_cache_key(project: Project, results: Path | None) -> str:
    """What every rendering depends on: the code, the data files, the results kind and the
    publication's name (footnotes say who derived the metrics)."""
    data = files_digest([project.data_file(n) for n in DATA_FILES])
    return f"{code_version()}|{data}|{results is None}|{publisher(project)}"


def check_files(
    project: Project,
    paths: list[Path],
    results: Path | None,
    *,
    config: Path | None = None,
    jobs: int | None = None,
    ahead: CompileAhead | None = None,
    cached: bool = True,
    digest: str | None = None,
) -> list[Finding] | None:
    """The findings of articles *paths* (files, not folders: templates or hand-written), checked
    without pandas, from the rows cache; None when any of them is a folder (or no path is given,
    or the results folder is not there): then :func:`generator.site.build.run_checks` checks
    them. Templates render as run_checks renders them (in workers, with the build's render and
    chart caches, from the code *ahead* compiled); hand-written text renders here. Not *cached*:
    nothing is kept of these articles (temporary copies: ``check -``, the passes of ``check --fix``).
    *digest*: the results' :func:`~generator.site.cache.results_digest`, when the caller made it."""
    folder = results if results is not None else project.sample_dir
    if not paths or not folder.is_dir() or any(p.is_dir() for p in paths):
        return None
    for p in paths:
        check_article_file(p)
    manifest = load_manifest(project.data_dir)
    digest = digest or results_digest(folder, project.data_dir)
    table, _ = cached_rows(folder, digest, lambda: _load(project, manifest, results))
    if not table.rounds:
        return None  # the full check says why
    sample = (folder / "SAMPLE").exists()
    writable = os.access(project.root, os.W_OK)
    templates = any(templated(p) for p in paths)  # else nothing to render, chart or cache
    key = render_cache_key(project, results) if writable and templates else ""
    charts = ChartCache(project.cache_dir / "charts", key) if key else None
    lib = Library(
        RowQueries(table, manifest), manifest, Prices.load(project.data_file("prices.toml")), charts
    )
    config_file = CheckConfig.load(config or project.data_file("check.toml"))
    checker = Checker(manifest, config_file, table, sample=sample)
    renderer = CheckRenderer(lib, sample=sample, publisher=publisher(project))
    renderer.results = results
    if ahead is not None:
        renderer.compiled = ahead.collect(renderer.limits.seconds)
    reads = cache = None
    if cached and writable:  # the caches of run_checks, by the same keys
        data = files_digest([project.data_file(n) for n in DATA_FILES])
        reads = ReadCache(project.cache_dir / "check", f"{code_version()}|{data}|{table.digest}")
        cache = RenderCache(project.cache_dir / "render", key) if key else None
    render = render_articles if templates else render_here
    findings, _ = check_rendered(renderer, checker, paths, jobs=jobs, cache=cache, reads=reads, render=render)
    return findings


def _load(project: Project, manifest: Manifest, results: Path | None) -> RowTable:
    """The rows loaded from the official files (the first check on a machine, or after a change)."""
    from generator.site.build import load_table  # imported only on a cache miss: it imports pandas

    writable = os.access(project.root, os.W_OK)  # the build's table cache, as run_checks reads it
    table, _ = load_table(
        project, manifest, results, cache_dir=project.cache_dir / "table" if writable else None
    )
    return RowTable.of(table)


def render_here(
    renderer: Renderer,
    paths: list[Path],
    *,
    jobs: int | None = None,
    cache: Cache | None = None,
    meanwhile: Callable[[], Iterator[object] | None] | None = None,
) -> list[Outcome]:
    """Render hand-written articles in this process, as :func:`~generator.article.pool.render_articles`
    renders them in workers (text with no markup runs nothing: no limits to enforce)."""
    if meanwhile is not None:
        for _ in meanwhile() or ():
            pass
    out = []
    for p in paths:
        try:
            out.append(Outcome(p, renderer.render(load_article(p))))
        except GpuInsightsError as exc:
            out.append(Outcome(p, error=exc.message))
    return out
