"""The build: load → derive → render → footnote → check → write.

``build()`` gathers everything first (every article rendered and checked), and
only then writes: Markdown into a temporary docs folder, MkDocs into a temporary
site folder, which replaces the previous ``site/`` only when all of it succeeded.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .cache import RenderCache, code_version, files_digest
from .errors import BuildError, GpuInsightsError, TemplateError
from .functions import Library, Prices
from .manifest import Manifest, load_manifest
from .render import Rendered, Renderer, load_article
from .table import ResultsTable

PROJECT_DIR = Path(__file__).resolve().parent.parent
Log = Callable[[str], None]


@dataclass
class Project:
    """Where a project's pieces live (defaults: this checkout)."""

    root: Path = PROJECT_DIR

    @property
    def content_dir(self) -> Path:
        return self.root / "content"

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    @property
    def sample_dir(self) -> Path:
        return self.data_dir / "sample"

    @property
    def mkdocs_yml(self) -> Path:
        return self.root / "mkdocs.yml"

    @property
    def templates_dir(self) -> Path:
        return self.root / "templates"

    def clone(self, dest: Path, *, content: Path | None = None, sample: bool = False) -> Project:
        """Copy this project's configuration, data and articles to *dest* (for tests and benchmarks)."""
        ignore = None if sample else shutil.ignore_patterns("sample")
        shutil.copytree(self.data_dir, dest / "data", ignore=ignore)
        shutil.copytree(content or self.content_dir, dest / "content")
        shutil.copytree(self.templates_dir, dest / "templates")
        shutil.copy(self.mkdocs_yml, dest / "mkdocs.yml")
        return Project(dest)


@dataclass
class BuildResult:
    site_dir: Path
    rendered: list[Rendered]
    ledger: list[dict[str, Any]]
    findings: list[Any] = field(default_factory=list)
    seconds: float = 0.0


def load_table(project: Project, manifest: Manifest, results: Path | None) -> tuple[ResultsTable, bool]:
    """The official results under *results*, or the embedded sample when it is None."""
    d = results if results is not None else project.sample_dir
    table = ResultsTable.from_dir(d, manifest)
    if not table.rounds:
        raise BuildError(f"{d}: no round folders (v6.1/summary_results.json, ...) found")
    return table, (d / "SAMPLE").exists()


def render_all(
    project: Project, renderer: Renderer, articles: list[Path], log: Log, cache: RenderCache | None = None
) -> list[Rendered]:
    out, errors = [], []
    for i, path in enumerate(articles, start=1):
        t0 = time.monotonic()
        try:
            art = load_article(path)
            if cache is not None:
                r, cached = cache.render(renderer, art)
            else:
                r, cached = renderer.render(art), False
        except GpuInsightsError as exc:
            errors.append(exc.message)
            continue
        if r.missing:
            log(f"warning: {path}: not built: {r.missing}")
        else:
            how = "cached" if cached else f"{time.monotonic() - t0:.2f}s"
            log(f"[{i}/{len(articles)}] {path.name}: {len(r.uses)} figures, {len(r.charts)} charts ({how})")
        out.append(r)
    if errors:
        raise TemplateError("\n".join(errors))
    return out


def ledger_entries(rendered: list[Rendered], project: Project) -> list[dict[str, Any]]:
    rows = []
    for r in rendered:
        try:
            rel = r.article.path.resolve().relative_to(project.root.resolve())
        except ValueError:
            rel = r.article.path
        for u in r.uses:
            f = u.figure
            rows.append(
                {
                    "article": r.article.slug,
                    "file": str(rel),
                    "line": u.line,
                    "text": u.text,
                    "value": None if f.value != f.value else round(float(f.value), 9),
                    "kind": f.kind,
                    "formula": f.formula,
                    "table": u.table,
                    "entries": [
                        {
                            "round": e.round,
                            "id": e.result_id,
                            "benchmark": e.benchmark,
                            "scenario": e.scenario,
                        }
                        for e in f.entries
                    ],
                }
            )
    return rows


def index_page(rendered: list[Rendered], table: ResultsTable, sample: bool) -> str:
    lines = ["# GPU Insights", "", "Per-GPU readings of official MLPerf® Inference results.", ""]
    if sample:
        lines += [
            '!!! note "Built from the embedded sample"',
            "    This site was built from `data/sample/`, a few rows transcribed from a published "
            "article, not from official results files. Build with `--results DIR` for publication.",
            "",
        ]
    lines += ["## Articles", ""]
    for r in rendered:
        note = " *(not built: official results needed)*" if r.missing else ""
        lines.append(f"- [{r.article.title}]({r.article.slug}.md){note}")
    lines += ["", "## Data", ""]
    for v in table.rounds:
        lines.append(f"- [MLPerf® Inference v{v} results as loaded](data/v{v}.md)")
    return "\n".join(lines) + "\n"


def data_page(table: ResultsTable, version: str, manifest: Manifest) -> str:
    rep = table.report(version)
    df = table.df[table.df["round"] == version]
    rnd = manifest.rounds.get(version)
    lines = [f"# MLPerf® Inference v{version} results as loaded", ""]
    if rep:
        lines += [f"`{rep.summary_line(f'v{version}/{rep.path.name}')}`", ""]
    if rnd:
        lines += [
            f"Published {rnd.published:%B} {rnd.published.day}, {rnd.published.year}; "
            f"retrieved from {rnd.source} ({rnd.source_label}) on "
            f"{rnd.retrieved:%B} {rnd.retrieved.day}, {rnd.retrieved.year}.",
            "",
        ]
    counts = df.groupby(["division", "suite", "benchmark", "scenario"]).size().reset_index(name="rows")
    lines += ["| Division | Suite | Benchmark | Scenario | Rows |", "|---|---|---|---|--:|"]
    for _, c in counts.iterrows():
        lines.append(f"| {c['division']} | {c['suite']} | {c['benchmark']} | {c['scenario']} | {c['rows']} |")
    lines += [
        "",
        "The MLPerf name and logo are registered and unregistered trademarks of MLCommons "
        "Association in the United States and other countries. All rights reserved. "
        "Unauthorized use strictly prohibited. See www.mlcommons.org for more information.",
    ]
    return "\n".join(lines) + "\n"


def write_docs(
    docs: Path,
    rendered: list[Rendered],
    table: ResultsTable,
    manifest: Manifest,
    sample: bool,
    extra_pages: dict[str, str],
    cache_dir: Path | None = None,
) -> None:
    from .charts import CHARTS_JS, spec_json, vega_bundle

    (docs / "charts").mkdir(parents=True, exist_ok=True)
    (docs / "assets").mkdir(parents=True, exist_ok=True)
    (docs / "data").mkdir(parents=True, exist_ok=True)
    (docs / "index.md").write_text(index_page(rendered, table, sample), encoding="utf-8")
    for r in rendered:
        (docs / f"{r.article.slug}.md").write_text(_page(r), encoding="utf-8")
        for ch in r.charts:
            (docs / "charts" / f"{ch.name}.vl.json").write_text(spec_json(ch.spec), encoding="utf-8")
            (docs / "charts" / f"{ch.name}.svg").write_text(ch.svg, encoding="utf-8")
    for v in table.rounds:
        (docs / "data" / f"v{v}.md").write_text(data_page(table, v, manifest), encoding="utf-8")
    for name, text in extra_pages.items():
        p = docs / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    (docs / "assets" / "vega-bundle.js").write_text(vega_bundle(cache_dir), encoding="utf-8")
    (docs / "assets" / "charts.js").write_text(CHARTS_JS, encoding="utf-8")
    (docs / "assets" / "site.css").write_text(SITE_CSS, encoding="utf-8")


SITE_CSS = """\
.gi-chart img, .gi-chart svg { max-width: 100%; height: auto; }
.gi-provenance summary { cursor: pointer; font-weight: bold; }
.gi-provenance table { font-size: 0.75em; }
"""


def _page(r: Rendered) -> str:
    meta = {k: r.article.meta[k] for k in ("title", "description", "date", "author") if k in r.article.meta}
    head = (
        "---\n"
        + yaml.safe_dump(meta, sort_keys=True, allow_unicode=True, default_flow_style=False)
        + "---\n\n"
        if meta
        else ""
    )
    return head + r.markdown


def run_mkdocs(project: Project, docs: Path, site: Path, nav: list[dict[str, Any]]) -> None:
    from mkdocs.commands import build as mk_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    try:
        cfg = load_config(
            config_file=str(project.mkdocs_yml), docs_dir=str(docs), site_dir=str(site), nav=nav
        )
        mk_build.build(cfg)
    except MkDocsException as exc:
        raise BuildError(f"{project.mkdocs_yml}: MkDocs failed: {exc}") from None


def build(
    *,
    project: Project | None = None,
    results: Path | None = None,
    site_dir: Path | None = None,
    strict: bool = False,
    log: Log = print,
    use_cache: bool = True,
    cache_dir: Path | None = None,
    baseline: Path | None = None,
    keep_docs: Path | None = None,
) -> BuildResult:
    """Build the whole site; the previous site stays in place unless every step succeeds."""
    start = time.monotonic()
    project = project or Project()
    site = Path(site_dir) if site_dir else project.root / "site"
    manifest = load_manifest(project.data_dir)
    table, sample = load_table(project, manifest, results)
    for rep in table.reports:
        log(rep.summary_line())
    lib = Library(table, manifest, Prices.load(project.data_dir / "prices.toml"))
    renderer = Renderer(lib, sample=sample)
    articles = sorted(project.content_dir.glob("*.md"))
    cache = None
    if use_cache:
        static = f"{code_version()}|{files_digest(list(project.data_dir.glob('*.toml')))}|{sample}"
        cache = RenderCache(cache_dir or project.root / ".cache" / "render", static)
    rendered = render_all(project, renderer, articles, log, cache)
    n_charts = sum(len(r.charts) for r in rendered)
    log(
        f"rendered {sum(1 for r in rendered if not r.missing)} of {len(rendered)} articles, "
        f"{sum(len(r.uses) for r in rendered)} figures, {n_charts} charts"
    )
    if strict and any(r.missing for r in rendered):
        raise BuildError("strict mode: some articles were not built (see warnings above)")
    ledger = ledger_entries(rendered, project)
    findings, reports = check_all(project, manifest, table, rendered)
    for f in findings:
        if f.severity == "error" or strict:
            log(str(f))
    n_warn = sum(f.severity == "warning" for f in findings)
    log(
        f"compliance: {sum(f.severity == 'error' for f in findings)} errors, {n_warn} warnings "
        f"(per-article reports in the site's compliance/ pages; details: gpu-insights check)"
    )
    from .check import failed

    if failed(findings, strict=strict):
        raise BuildError(
            f"compliance check failed ({sum(f.severity == 'error' for f in findings)} errors, "
            f"{sum(f.severity == 'warning' for f in findings)} warnings{' in strict mode' if strict else ''}); "
            "the previous site is left as it was"
        )

    site.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".gpu-insights-build-", dir=site.parent))
    try:
        docs, new_site = work / "docs", work / "site"
        pages = dict(reports)
        from .docs import placeholders_markdown

        pages["reference/placeholders.md"] = placeholders_markdown(Library.namespace_functions())
        if baseline is not None:
            from .diff import diff_ledgers, format_markdown, load_ledger

            old, old_sources = load_ledger(baseline)
            new_sources = work / "new-sources"
            new_sources.mkdir()
            for r in rendered:
                (new_sources / f"{r.article.slug}.md").write_text(r.markdown, encoding="utf-8")
            changes = diff_ledgers(old, ledger, old_sources, new_sources)
            pages["changes.md"] = format_markdown(changes)
            log(
                f"changes since {baseline}: "
                + (
                    "none"
                    if changes.empty()
                    else ", ".join(
                        f"{n}: {len(a.changed)} changed, {len(a.added)} added, {len(a.removed)} removed"
                        for n, a in changes.articles.items()
                        if not a.empty()
                    )
                )
            )
        write_docs(docs, rendered, table, manifest, sample, pages, project.root / ".cache")
        nav = site_nav(rendered, table, changes=baseline is not None)
        if keep_docs is not None:
            shutil.copytree(docs, keep_docs, dirs_exist_ok=True)
        env_before = os.environ.get("SOURCE_DATE_EPOCH")
        os.environ["SOURCE_DATE_EPOCH"] = str(_pinned_epoch(manifest, table))
        try:
            run_mkdocs(project, docs, new_site, nav)
        finally:
            if env_before is None:
                os.environ.pop("SOURCE_DATE_EPOCH", None)
            else:
                os.environ["SOURCE_DATE_EPOCH"] = env_before
        sources = new_site / "sources"
        sources.mkdir()
        for r in rendered:
            (sources / f"{r.article.slug}.md").write_text(r.markdown, encoding="utf-8")
        (new_site / "figures.json").write_text(
            json.dumps(ledger, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8"
        )
        _swap(new_site, site)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    secs = time.monotonic() - start
    log(f"site written to {site} in {secs:.1f}s")
    return BuildResult(site, rendered, ledger, findings=findings, seconds=secs)


def article_paths(project: Project, paths: list[Path]) -> list[Path]:
    if not paths:
        return sorted(project.content_dir.glob("*.md"))
    out: list[Path] = []
    for p in paths:
        out.extend(sorted(p.glob("*.md")) if p.is_dir() else [p])
    return out


def make_checker(project: Project, manifest: Manifest, table: ResultsTable) -> Any:
    from .check import CheckConfig, Checker

    config = CheckConfig.load(project.data_dir / "check.toml")
    return Checker(manifest, config, set(table.df["result_id"]) - {""}, set(table.df["benchmark"]))


def check_all(
    project: Project, manifest: Manifest, table: ResultsTable, rendered: list[Rendered]
) -> tuple[list[Any], dict[str, str]]:
    """Check every rendered article; return the findings and one report page per article."""
    from .check import report_markdown, rules_markdown

    checker = make_checker(project, manifest, table)
    findings: list[Any] = []
    pages = {"compliance/rules.md": rules_markdown()}
    for r in rendered:
        fs = checker.check(r)
        findings.extend(fs)
        pages[f"compliance/{r.article.slug}.md"] = report_markdown(r.article.title, fs)
    return findings, pages


def run_checks(project: Project, paths: list[Path], results: Path | None) -> list[Any]:
    """Render and check articles (``gpu-insights check``)."""
    from .check import check_rendered

    manifest = load_manifest(project.data_dir)
    table, sample = load_table(project, manifest, results)
    lib = Library(table, manifest, Prices.load(project.data_dir / "prices.toml"))
    findings, _ = check_rendered(
        Renderer(lib, sample=sample), make_checker(project, manifest, table), article_paths(project, paths)
    )
    return findings


def site_nav(rendered: list[Rendered], table: ResultsTable, *, changes: bool) -> list[dict[str, Any]]:
    """The site's navigation: home, articles, data pages, changes, compliance reports."""
    nav: list[dict[str, Any]] = [{"Home": "index.md"}]
    nav += [{r.article.title: f"{r.article.slug}.md"} for r in rendered]
    nav += [{f"Data v{v}": f"data/v{v}.md"} for v in table.rounds]
    if changes:
        nav.append({"Changes": "changes.md"})
    nav.append({"Placeholders": "reference/placeholders.md"})
    compliance = [{"Rules": "compliance/rules.md"}]
    compliance += [{r.article.title: f"compliance/{r.article.slug}.md"} for r in rendered]
    return nav + [{"Compliance": compliance}]


def _pinned_epoch(manifest: Manifest, table: ResultsTable) -> int:
    """Builds are dated by the newest loaded round's retrieval date, never by the clock."""
    import calendar

    dates = [manifest.rounds[v].retrieved for v in table.rounds if v in manifest.rounds]
    d = max(dates) if dates else None
    return calendar.timegm(d.timetuple()) if d else 0


def _swap(new_site: Path, site: Path) -> None:
    old = site.with_name(site.name + ".old")
    if old.exists():
        shutil.rmtree(old)
    if site.exists():
        site.rename(old)
    new_site.rename(site)
    if old.exists():
        shutil.rmtree(old)
