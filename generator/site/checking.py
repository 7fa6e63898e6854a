"""What ``gpu-insights check`` needs beyond the checker, without pandas: the check's renderer,
and the check of hand-written articles from the cached rows.

A hand-written article (no ``{{``, ``{%`` or ``{#``: nothing for the template engine to run)
renders to its own text whatever the results hold, and its check reads the rows only as plain
lists (:class:`~generator.data.rowtable.RowTable`). So :func:`check_handwritten` checks such
articles with the rows of the results-table cache (:mod:`generator.data.rowcache`), rendered in
this process (no worker pool for text that runs nothing), and never imports pandas or the
site builder: a whole ``check`` process of one press release takes a few tenths of a second.
It gives the same findings as :func:`generator.site.build.run_checks`, which checks everything
else (templates, folders, the whole content/).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

from generator.article.ahead import templated
from generator.article.frontmatter import Article, load_article
from generator.article.functions import Library, Prices
from generator.article.pool import Cache, Outcome
from generator.article.render import Renderer
from generator.check import CheckConfig, Checker, Finding, check_rendered
from generator.data.manifest import Manifest, load_manifest
from generator.data.rowcache import cached_rows
from generator.data.rowtable import RowTable
from generator.errors import GpuInsightsError
from generator.project import DATA_FILES, Project, check_article_file, read_mkdocs_yml
from generator.site.cache import ReadCache, code_version, files_digest, results_digest


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


def check_handwritten(
    project: Project,
    paths: list[Path],
    results: Path | None,
    *,
    config: Path | None = None,
    cached: bool = True,
) -> list[Finding] | None:
    """The findings of hand-written articles *paths* (files, not folders), checked without
    pandas; None when any of them is not one (or the results folder is not there): then
    :func:`generator.site.build.run_checks` checks them. Not *cached*: nothing is kept of
    these articles (temporary copies: ``check -``, the passes of ``check --fix``)."""
    folder = results if results is not None else project.sample_dir
    if not paths or not folder.is_dir() or any(p.is_dir() or templated(p) for p in paths):
        return None
    for p in paths:
        check_article_file(p)
    manifest = load_manifest(project.data_dir)
    table, _ = cached_rows(
        folder, results_digest(folder, project.data_dir), lambda: _load(project, manifest, results)
    )
    if not table.rounds:
        return None  # the full check says why
    sample = (folder / "SAMPLE").exists()
    lib = Library(table, manifest, Prices.load(project.data_file("prices.toml")))  # type: ignore[arg-type]  # the renderer reads only the rows' rounds and files of a text that queries nothing
    checker = Checker(
        manifest, CheckConfig.load(config or project.data_file("check.toml")), table, sample=sample
    )
    renderer = CheckRenderer(lib, sample=sample, publisher=publisher(project))
    renderer.results = results
    reads = None
    if cached and os.access(project.root, os.W_OK):  # the ReadCache of run_checks, by the same key
        data = files_digest([project.data_file(n) for n in DATA_FILES])
        reads = ReadCache(project.cache_dir / "check", f"{code_version()}|{data}|{table.digest}")
    findings, _ = check_rendered(renderer, checker, paths, reads=reads, render=render_here)
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
