"""The build: load → derive → render → footnote → check → write.

``build()`` gathers everything first (every article rendered and checked), and
only then writes: Markdown into a temporary docs folder, MkDocs into a temporary
site folder, which replaces the previous ``site/`` only when all of it succeeded.
"""

from __future__ import annotations

import calendar
import datetime as dt
import functools
import json
import os
import re
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.article.ahead import CompileAhead
from generator.article.charts import DOWNLOADS, chart_csv, load_altair
from generator.article.figures import ledger_calc, ledger_format, ledger_row
from generator.article.functions import Library, Prices
from generator.article.pool import Outcome, render_articles
from generator.article.render import Rendered, Renderer, load_article
from generator.article.svgdraw import Drawing, new_drawing, spec_json
from generator.check import (
    CheckConfig,
    Checker,
    Finding,
    check_rendered,
    failed,
    report_markdown,
    rules_markdown,
)
from generator.data.manifest import Manifest, load_manifest
from generator.data.table import ResultsTable
from generator.errors import BuildError, TemplateError
from generator.project import DATA_FILES, Project, check_article_file, markdown_under
from generator.site import reuse
from generator.site.cache import (
    ChartCache,
    CheckCache,
    ReadCache,
    RenderCache,
    cached_table,
    code_version,
    files_digest,
    results_digest,
)
from generator.site.checking import CheckRenderer, render_cache_key
from generator.site.mkdocs_build import MkDocsSetup, pinned_epoch, run_mkdocs
from generator.site.pages import (
    REVIEW_META,
    fallback_spec,
    load_publication,
    page_makers,
    published,
    refuse_shared_pages,
    refuse_unpublishing,
    site_nav,
    titled,
)
from generator.site.required import required_text_error, required_text_problems
from generator.site.sitedir import SiteDir, guarded_folders
from generator.workers import default_jobs, forked_map, jobs_worth

Log = Callable[[str], None]


@dataclass
class BuildResult:
    site_dir: Path
    rendered: list[Rendered]
    ledger: list[dict[str, Any]]
    findings: list[Any] = field(default_factory=list)
    seconds: float = 0.0


def load_table(
    project: Project,
    manifest: Manifest,
    results: Path | None,
    *,
    cache_dir: Path | None = None,
    jobs: int | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> tuple[ResultsTable, bool]:
    """The official results under *results*, or the embedded sample when it is None (kept
    in *cache_dir*, keyed by every file it depends on), read by up to *jobs* processes
    (*meanwhile* runs here while they read, when there are workers: :meth:`ResultsTable.from_dir`)."""
    d = results if results is not None else project.sample_dir

    def load() -> ResultsTable:
        return ResultsTable.from_dir(d, manifest, jobs=jobs, meanwhile=meanwhile)

    if cache_dir is not None and d.is_dir():
        table = cached_table(cache_dir, results_digest(d, project.data_dir), load)
    else:
        table = load()
    if not table.rounds:
        raise BuildError(f"{d}: no round folders (v6.1/summary_results.json, ...) found")
    return table, (d / "SAMPLE").exists()


def render_all(
    project: Project,
    renderer: Renderer,
    articles: list[Path],
    log: Log,
    cache: RenderCache | None = None,
    jobs: int | None = None,
    after: Callable[[Rendered], Any] | None = None,
    extras: dict[Path, Any] | None = None,
    meanwhile: Callable[[], Iterator[object] | None] | None = None,
    groups: list[tuple[str, ...]] | None = None,
    on_rendered: Callable[[Rendered], None] | None = None,
) -> list[Rendered]:
    """Render every article (in worker processes, which also run *after* on it: its results go
    into *extras* by path, while this process runs *meanwhile* and, as each article is done,
    *on_rendered* on it; articles of the same *groups*, their rounds, in the same worker where they
    can); all errors together, in article order."""
    out: list[Rendered] = []
    errors: list[str] = []
    total = len(articles)

    def done(o: Outcome) -> None:
        i = len(out) + len(errors) + 1
        if o.error:
            errors.append(o.error)
            return
        r = o.rendered
        assert r is not None
        if r.missing:
            log(f"warning: {o.path}: not built: {r.missing}")
        else:
            how = "cached" if o.cached else f"{o.seconds:.2f}s"
            log(f"[{i}/{total}] {o.path.name}: {len(r.uses)} figures, {len(r.charts)} charts ({how})")
        for e in getattr(r, "errata", []):  # claims of a published text that the data contradicts
            log(f"warning: {o.path}:{e.line}: erratum: {e.message}; contradicted by {e.why}")
        if extras is not None and o.extra is not None:
            extras[o.path] = o.extra
        if on_rendered is not None:
            on_rendered(r)
        out.append(r)

    render_articles(
        renderer,
        articles,
        jobs=jobs,
        cache=cache,
        on_done=done,
        after=after,
        meanwhile=meanwhile,
        groups=groups,
    )
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
            index = {e: i for i, e in enumerate(f.entries)}
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
                    # each row's key, units and place in its round's official file, and how the
                    # value was made of them and printed: what `gpu-insights audit` re-derives
                    "entries": [ledger_row(e) for e in f.entries],
                    "calc": ledger_calc(f.calc, index),
                    "format": ledger_format(f),
                }
            )
    return rows


def _write_text(make: Callable[[], str], path: Path) -> None:
    path.write_text(make(), encoding="utf-8")


def _write_str(text: str, path: Path) -> None:
    path.write_text(text, encoding="utf-8")


def _write_ledger(ledger: list[dict[str, Any]], path: Path) -> None:
    with path.open("w", encoding="utf-8") as fh:  # streamed: never whole in memory
        json.dump(ledger, fh, indent=1, ensure_ascii=False, sort_keys=True)
        fh.write("\n")


def site_files(p: Prepared) -> list[tuple[str, Callable[[Path], None]]]:
    """What MkDocs does not write, by name in the site: the rendered sources and the figures
    ledger, each with what writes it."""
    files: list[tuple[str, Callable[[Path], None]]] = [
        (f"sources/{r.article.slug}.md", functools.partial(_write_str, r.markdown)) for r in p.rendered
    ]
    files.append(("figures.json", functools.partial(_write_ledger, p.ledger)))
    return files


def _writes(
    docs: Path, p: Prepared, extra_pages: dict[str, str], staged: Path | None
) -> list[tuple[Path, Callable[[Path], None]]]:
    """Every file :func:`write_docs` writes, with what writes it."""
    extras = {  # titled by the workers that write them
        k: functools.partial(titled, v, **(REVIEW_META if k.startswith("review/") else {}))
        for k, v in extra_pages.items()
    }
    makers = page_makers(p.rendered, p.table, p.manifest, p.sample, p.findings)
    # the figures ledger first: the costliest single write, at the end it left one worker idle
    writes: list[tuple[Path, Callable[[Path], None]]] = (
        [(staged / name, write) for name, write in reversed(site_files(p))] if staged is not None else []
    )
    writes += [
        (docs / name, functools.partial(_write_text, make)) for name, make in makers if name not in extras
    ]
    writes += [(docs / name, functools.partial(_write_text, make)) for name, make in extras.items()]
    writes += [
        (
            docs / "charts" / f"{ch.name}.vl.json",
            functools.partial(_write_text, functools.partial(spec_json, ch.spec)),
        )
        for r in p.rendered
        for ch in r.charts
    ]
    writes += [  # each chart's data, to take away (its SVG and PNG are drawn with its fallback)
        (
            docs / "charts" / DOWNLOADS["csv"].format(name=ch.name),
            functools.partial(_write_text, functools.partial(chart_csv, ch.rows)),
        )
        for r in p.rendered
        for ch in r.charts
    ]
    return writes


#: what writing the site's files costs in one process, to tell whether workers are worth forking
#: (see :func:`~generator.workers.jobs_worth`): seconds per file and per figure the articles cite,
#: which their pages, review pages and the figures ledger grow with (the official results' 54
#: files, 434 figures, took 0.2 s on a 2-core machine; the sample's 24 files, 15 figures, 23 ms)
WRITE_SECONDS = (0.0007, 0.00035)


def write_docs(
    docs: Path,
    p: Prepared,
    extra_pages: dict[str, str],
    cache_dir: Path | None = None,
    jobs: int = 1,
    staged: Path | None = None,
) -> None:
    """Every page of the site as Markdown in *docs* (made and written by *jobs* worker
    processes), with the charts' specs and the Vega bundle, and, given *staged*, the
    :func:`site_files` there (not the charts' SVG fallbacks: see :func:`svg_fallbacks`)."""
    from generator.article.charts import vega_bundle  # altair: slow to import

    for d in ("charts", "assets", "data"):
        (docs / d).mkdir(parents=True, exist_ok=True)
    writes = _writes(docs, p, extra_pages, staged)
    for folder in {path.parent for path, _ in writes}:
        folder.mkdir(parents=True, exist_ok=True)

    def write(i: int) -> None:
        path, writer = writes[i]
        writer(path)

    # written in the workers (nothing comes back), when there is enough to write
    figures = sum(len(r.uses) for r in p.rendered)
    for _ in forked_map(write, len(writes), jobs_worth(jobs, WRITE_SECONDS, len(writes), figures)):
        pass
    (docs / "assets" / "vega-bundle.js").write_text(vega_bundle(cache_dir), encoding="utf-8")


def drawing_of(project: Project, rendered: list[Rendered], docs: Path) -> Drawing:
    """The SVG fallbacks of every chart of *rendered* being drawn into *docs* (see
    :func:`svg_fallbacks`)."""
    drawing = new_drawing(project.cache_dir)
    draw = svg_fallbacks(drawing, docs)
    for r in rendered:
        draw(r)
    return drawing


def svg_fallbacks(drawing: Drawing, docs: Path) -> Callable[[Rendered], None]:
    """What hands a rendered article's charts to *drawing*, which draws their SVG fallbacks
    into *docs* while the build goes on."""

    def draw(r: Rendered) -> None:
        for ch in r.charts:
            drawing.add(fallback_spec(ch.spec), docs / "charts" / f"{ch.name}.svg", ch.figure_caption)

    return draw


@dataclass
class Prepared:
    """Everything a build gathered before writing: rendered articles, ledger, checks."""

    manifest: Manifest
    table: ResultsTable
    sample: bool
    rendered: list[Rendered]
    ledger: list[dict[str, Any]]
    findings: list[Any]
    reports: dict[str, str]


#: page names the build generates; an article may not take one
RESERVED = {"index": "the home page", "changes": "the changes page", "404": "the not-found page"}


def article_sources(project: Project) -> list[Path]:
    """The article templates of ``content/``: regular files of the publication (a link may not
    publish a file from elsewhere, a pipe or device may not hang the build), refusing the names
    the build uses for its own pages and articles it would otherwise leave out unseen."""
    paths = project.articles()
    for p in paths:
        if p.stem in RESERVED:
            raise BuildError(
                f"{p}: the name {p.stem!r} is used by {RESERVED[p.stem]}, which the build generates; "
                "rename the article"
            )
    return paths


def published_sources(project: Project, sample: bool, log: Log) -> list[tuple[Path, tuple[str, ...]]]:
    """The articles a build renders, each with the rounds it names (which the workers group by):
    a demo made for the embedded sample (``sample_only: true``) only when the site is built on
    the sample."""
    out: list[tuple[Path, tuple[str, ...]]] = []
    for path in article_sources(project):
        try:
            article = load_article(path)
        except Exception:  # noqa: BLE001 - on the sample, rendering reports it with every other error
            if not sample:
                raise
            out.append((path, ()))
            continue
        if not sample and article.meta.get("sample_only"):
            log(f"{path}: skipped: sample_only (built only on the embedded sample)")
            continue
        out.append((path, tuple(sorted(set(article.rounds)))))  # the rounds whose rows it reads
    return out


def prepare(
    project: Project,
    results: Path | None,
    *,
    strict: bool,
    log: Log,
    cache: RenderCache | None,
    cache_dir: Path | None = None,
    jobs: int | None = None,
    meanwhile: Callable[[], Iterator[object] | None] | None = None,
    on_rendered: Callable[[Rendered], None] | None = None,
) -> Prepared:
    """Load, render and check every article (running *meanwhile* while they render, and
    *on_rendered* on each as it is done); nothing is written yet."""
    manifest = load_manifest(project.data_dir)
    table, sample = load_table(
        project,
        manifest,
        results,
        cache_dir=cache_dir / "table" if cache_dir else None,
        jobs=jobs,
        # results read in workers are new data: the articles' charts will be made again, by
        # several render workers, which then share this import instead of each making its own
        meanwhile=load_altair,
    )
    for rep in table.reports:
        log(rep.summary_line())
    refuse_shared_pages(table)
    charts = ChartCache(cache_dir / "charts", render_cache_key(project, results)) if cache_dir else None
    lib = Library(table, manifest, Prices.load(project.data_file("prices.toml")), chart_cache=charts)
    # made before the workers fork, which share it and check each article they render
    checker = make_checker(project, manifest, table, sample=sample)
    checked: dict[Path, Any] = {}
    sources = published_sources(project, sample, log)
    ledger: list[dict[str, Any]] = []
    rendered = render_all(
        project,
        Renderer(lib, sample=sample, publisher=load_publication(project.mkdocs_yml).name),
        [path for path, _ in sources],
        log,
        groups=[rounds for _, rounds in sources],
        cache=cache,
        jobs=jobs,
        after=checker.check,
        extras=checked,
        meanwhile=meanwhile,
        on_rendered=_as_rendered(project, ledger, on_rendered),
    )
    log(
        f"rendered {sum(1 for r in rendered if not r.missing)} of {len(rendered)} articles, "
        f"{sum(len(r.uses) for r in rendered)} figures, {sum(len(r.charts) for r in rendered)} charts"
    )
    if strict and any(r.missing for r in rendered):
        raise BuildError("strict mode: some articles were not built (see warnings above)")
    checks = None
    if cache_dir is not None:
        cfg = project.data_file("check.toml")
        static = f"{code_version()}|{table.digest}|{sample}|{files_digest([cfg])}"
        checks = CheckCache(cache_dir / "check", static)
    findings, reports = check_all(rendered, checker, cache=checks, checked=checked)
    _report_findings(findings, strict, log, errata=sum(len(getattr(r, "errata", [])) for r in rendered))
    return Prepared(manifest, table, sample, rendered, ledger, findings, reports)


def _as_rendered(
    project: Project, ledger: list[dict[str, Any]], then: Callable[[Rendered], None] | None
) -> Callable[[Rendered], None]:
    """What runs on each article as it is rendered, in article order: its figures added to the
    *ledger* (while the workers render the next articles: at the end, the figures of 200
    articles took a tenth of a second with every worker done), then *then*."""

    def each(r: Rendered) -> None:
        ledger.extend(ledger_entries([r], project))
        if then is not None:
            then(r)

    return each


def _report_findings(findings: list[Any], strict: bool, log: Log, *, errata: int = 0) -> None:
    for f in findings:
        if f.severity == "error" or strict:
            log(str(f))
    n_err = sum(f.severity == "error" for f in findings)
    n_warn = sum(f.severity == "warning" for f in findings)
    # errata are published sentences the data contradicts, kept as published and reported above
    noted = (
        f"; {errata} {'erratum' if errata == 1 else 'errata'} of published text noted above" if errata else ""
    )
    log(
        f"compliance: {n_err} errors, {n_warn} warnings{noted} "
        f"(per-article reports in the site's review/ pages; details: gpu-insights check)"
    )
    if strict and errata:
        raise BuildError(
            f"{errata} {'erratum' if errata == 1 else 'errata'} of published text in strict mode: a published "
            "claim the official results contradict (see the warnings above); the previous site is left as it was"
        )
    if failed(findings, strict=strict):
        raise BuildError(
            f"compliance check failed ({n_err} errors, {n_warn} warnings{' in strict mode' if strict else ''}); "
            "the previous site is left as it was"
        )


def _changes_page(p: Prepared, baseline: Path, work: Path, log: Log) -> str:
    from generator.site.diff import diff_ledgers, format_markdown, load_ledger

    old, old_sources = load_ledger(baseline)
    new_sources = work / "new-sources"
    new_sources.mkdir()
    for r in p.rendered:
        (new_sources / f"{r.article.slug}.md").write_text(r.markdown, encoding="utf-8")
    changes = diff_ledgers(old, p.ledger, old_sources, new_sources)
    summary = ", ".join(
        f"{n}: {len(a.changed)} changed, {len(a.added)} added, {len(a.removed)} removed"
        for n, a in changes.articles.items()
        if not a.empty()
    )
    log(f"changes since {baseline}: {summary or 'none'}")
    return format_markdown(changes)


def stage_docs(
    project: Project,
    p: Prepared,
    work: Path,
    *,
    baseline: Path | None,
    log: Log,
    drawing: Drawing | None = None,
    jobs: int = 1,
    staged: Path | None = None,
) -> list[dict[str, Any]]:
    """Write every page into ``work/docs`` (and, given *staged*, the :func:`site_files` there);
    return the site's navigation. The charts' SVGs are drawn before it returns, or, given the
    *drawing* the rendered articles' charts went to (:func:`svg_fallbacks`), while the caller
    goes on (it finishes it)."""
    from generator.docs import placeholders_markdown  # imports the whole placeholder library

    pages = dict(p.reports)
    pages["review/placeholders.md"] = placeholders_markdown(Library.namespace_functions())
    if baseline is not None:
        pages["changes.md"] = _changes_page(p, baseline, work, log)
    own = drawing is None  # nobody draws the charts yet: drawn here, before it returns
    drawing = drawing or drawing_of(project, p.rendered, work / "docs")
    try:
        write_docs(work / "docs", p, pages, project.cache_dir, jobs, staged)
        if own:
            drawing.finish()
    finally:
        if own:
            drawing.cancel()
    return site_nav(p.rendered, p.table, p.manifest, changes=baseline is not None)


def finish_site(p: Prepared, site: Path, staged: Path | None = None) -> None:
    """What MkDocs does not write (:func:`site_files`): written now, or moved from *staged*,
    where :func:`write_docs` wrote them."""
    for name, write in site_files(p):
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        if staged is None:
            write(site / name)
        else:
            os.replace(staged / name, site / name)


def write_site(
    project: Project,
    p: Prepared,
    work: Path,
    *,
    baseline: Path | None,
    keep_docs: Path | None,
    log: Log,
    jobs: int | None = None,
    setup: MkDocsSetup | None = None,
    drawing: Drawing,
) -> list[dict[str, Any]]:
    """Write the rendered Markdown into ``work/docs`` and the MkDocs site into ``work/site``
    (with MkDocs' configuration loaded ahead by *setup*, or now, and the charts' SVGs drawn by
    the *drawing* the rendered articles' charts went to); return the site's navigation."""
    docs, new_site, staged = work / "docs", work / "site", work / "site-files"
    jobs = default_jobs(jobs)
    try:
        nav = stage_docs(
            project, p, work, baseline=baseline, log=log, drawing=drawing, jobs=jobs, staged=staged
        )
        with pinned_epoch(_pinned_epoch(p.manifest, p.table, p.rendered)):
            run_mkdocs(project, docs, new_site, nav, jobs=jobs, setup=setup)
        drawing.finish()  # the SVGs, drawn meanwhile: MkDocs copied the rest of docs/charts/
    finally:
        drawing.cancel()
    charts = docs / "charts"
    drawn = [*charts.glob("*.svg"), *charts.glob("*.png")] if charts.is_dir() else []
    for svg in sorted(drawn):  # the fallbacks and the figures to take away
        shutil.copy2(svg, new_site / "charts" / svg.name)
    if keep_docs is not None:
        shutil.copytree(docs, keep_docs, dirs_exist_ok=True)
    finish_site(p, new_site, staged)
    check_pages(project, p, new_site)
    return nav


def check_pages(project: Project, p: Prepared, site: Path) -> None:
    """The statements each published article needs, read on its finished page
    (:mod:`generator.site.required`): a build that lost one fails, the old site stays."""
    problems = required_text_problems(
        site, published(p.rendered, p.sample), load_publication(project.mkdocs_yml).name
    )
    if problems:
        raise required_text_error(problems, "; the previous site is left as it was")


def render_cache(project: Project, results: Path | None, cache_dir: Path | None = None) -> RenderCache:
    """The render cache of a publication (see :func:`render_cache_key`)."""
    return RenderCache(cache_dir or project.cache_dir / "render", render_cache_key(project, results))


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
    jobs: int | None = None,
    drawing: Drawing | None = None,
    audit: bool = True,
) -> BuildResult:
    """Build the whole site; the previous site stays in place unless every step succeeds.

    Articles render in up to *jobs* processes (default: one per core), the site byte-identical
    whatever their number; charts' SVG fallbacks are drawn by *drawing* (:func:`new_drawing`).
    With *audit*, every printed figure of the new site is re-derived from the official files
    (:func:`audit_new_site`) before it replaces the previous one."""
    start = time.monotonic()
    project = project or Project.discover()
    target = SiteDir(
        Path(site_dir) if site_dir else project.site_dir(), guarded_folders(project, results), log
    )
    base = cache_dir or project.cache_dir  # render/, table/, check/, docs/: each safe to delete
    cache = render_cache(project, results, base / "render") if use_cache else None
    reusable = use_cache and baseline is None and keep_docs is None
    digest = reuse.inputs_digest(project, results, strict=strict) if reusable else ""
    kept: list[str] = []

    def keep(line: str) -> None:
        if not line.startswith("["):  # progress lines say nothing about a reused build
            kept.append(line)
        log(line)

    with target.publish() as work:
        setup = MkDocsSetup(project, work / "docs", work / "site")  # loaded while articles render
        # draws each article's charts as it is done
        drawing = drawing or new_drawing(base if use_cache else None)
        try:
            p = prepare(
                project,
                results,
                strict=strict,
                log=keep,
                cache=cache,
                cache_dir=base if use_cache else None,
                jobs=jobs,
                meanwhile=setup.ahead,
                on_rendered=svg_fallbacks(drawing, work / "docs"),
            )
            refuse_unpublishing(p.rendered, p.sample, target.path)
            nav = write_site(
                project,
                p,
                work,
                baseline=baseline,
                keep_docs=keep_docs,
                log=log,
                jobs=jobs,
                setup=setup,
                drawing=drawing,
            )
        finally:
            drawing.cancel()  # before the work folder goes, after a failure (after success: nothing)
        if audit:
            audit_new_site(project, results, work / "site", log)
        # the inputs again: pages of an article edited during this build must not be kept under
        # the digest of what it was before
        if digest and digest == reuse.inputs_digest(project, results, strict=strict):
            epoch = _pinned_epoch(p.manifest, p.table, p.rendered)
            try:
                reuse.save(base, digest, work / "docs", work / "site", nav, epoch, kept)
            except OSError as exc:
                log(f"warning: could not keep the rendered pages for the next build: {os_error_line(exc)}")
    secs = time.monotonic() - start
    log(f"site written to {target.path} in {secs:.1f}s")
    return BuildResult(target.path, p.rendered, p.ledger, findings=p.findings, seconds=secs)


def os_error_line(exc: OSError) -> str:
    """An error of the file system as one line: the file and the system's reason (``No space
    left on device``), where a failed copy of a folder (:class:`shutil.Error`) printed the Python
    repr of every file it could not copy (6 KB on a full disk)."""
    if isinstance(exc, shutil.Error) and exc.args and isinstance(exc.args[0], list) and exc.args[0]:
        failures = exc.args[0]
        first = failures[0]
        dest, why = (
            (str(first[1]), str(first[2]))
            if isinstance(first, tuple) and len(first) == 3
            else ("", str(first))
        )
        why = re.sub(r"^\[Errno \d+\] ([^:]*)(?::.*)?$", r"\1", why, flags=re.S)
        more = f" (and {len(failures) - 1} more files)" if len(failures) > 1 else ""
        return f"{dest}: {why}{more}" if dest else f"{why}{more}"
    where = exc.filename2 or exc.filename
    reason = exc.strerror or str(exc)
    return f"{where}: {reason}" if where else reason


def audit_new_site(project: Project, results: Path | None, site: Path, log: Log) -> None:
    """Re-derive every figure of the built *site* from the official files (*results*, else the
    embedded sample) by the independent :mod:`generator.audit`; a mismatch fails the build."""
    from generator import audit  # its error and message; imported by Project.audit (start-up)

    try:
        report = project.audit(site, results)
    except audit.AuditError as exc:
        raise BuildError(f"audit: {exc}; the previous site is left as it was") from None
    log(report.summary())
    if report.mismatches:
        raise BuildError(f"{audit.failure_message(report)}\nthe previous site is left as it was")


def article_paths(project: Project, paths: list[Path]) -> list[Path]:
    """The articles to check: *paths*, each folder among them searched through its sub-folders
    (hidden ones left out); with no paths, the publication's content/. Each must be a regular
    file of bounded size (a pipe or a device would hang the check)."""
    if not paths:
        return project.articles()
    out: list[Path] = []
    for p in paths:
        out.extend(markdown_under(p) if p.is_dir() else [p])
    for p in out:
        check_article_file(p)
    return out


def make_checker(
    project: Project, manifest: Manifest, table: ResultsTable, *, sample: bool, config: Path | None = None
) -> Checker:
    """The checker of a publication: its data/check.toml (or *config*) and the loaded results."""
    cfg = CheckConfig.load(config or project.data_file("check.toml"))
    return Checker(manifest, cfg, table, sample=sample)


def check_all(
    rendered: list[Rendered],
    checker: Checker,
    *,
    cache: CheckCache | None = None,
    checked: dict[Path, Any] | None = None,
) -> tuple[list[Finding], dict[str, str]]:
    """Check every built article: its findings from the worker that rendered it (*checked*),
    else from *cache* when unchanged, else here; return the findings and one report page per
    article."""

    def check(r: Rendered) -> list[Finding]:
        if checked and r.article.path in checked:
            return list(checked[r.article.path])
        return checker.check(r)

    findings: list[Finding] = []
    pages = {"review/rules.md": rules_markdown()}
    for r in rendered:
        if r.missing:
            continue
        fs = cache.findings(r, check) if cache is not None else check(r)
        findings.extend(fs)
        pages[f"review/compliance-{r.article.slug}.md"] = report_markdown(r.article.title, fs)
    return findings, pages


def run_checks(
    project: Project,
    paths: list[Path],
    results: Path | None,
    *,
    config: Path | None = None,
    jobs: int | None = None,
    ahead: CompileAhead | None = None,
    cached: bool = True,
) -> list[Finding]:
    """Render and check articles (``gpu-insights check``), with the build's table and render
    caches when the project folder is writable: the checks themselves always run. Templates
    *ahead* compiled are rendered from that code. Not *cached*: nothing is kept of these
    articles (temporary copies: ``check -``, the passes of ``check --fix``)."""
    manifest = load_manifest(project.data_dir)
    base = project.cache_dir
    writable = os.access(project.root, os.W_OK)
    table, sample = load_table(
        project, manifest, results, cache_dir=base / "table" if writable else None, jobs=jobs
    )
    # the build's chart cache: an edited article whose charts did not change imports no chart library
    charts = ChartCache(base / "charts", render_cache_key(project, results)) if writable else None
    lib = Library(table, manifest, Prices.load(project.data_file("prices.toml")), chart_cache=charts)
    checker = make_checker(project, manifest, table, sample=sample, config=config)
    cache = render_cache(project, results, base / "render") if writable and cached else None
    renderer = CheckRenderer(lib, sample=sample, publisher=load_publication(project.mkdocs_yml).name)
    renderer.results = results
    if ahead is not None:
        renderer.compiled = ahead.collect(renderer.limits.seconds)
    reads = None
    if writable and cached:
        data = files_digest([project.data_file(n) for n in DATA_FILES])
        reads = ReadCache(base / "check", f"{code_version()}|{data}|{table.digest}")
    findings, _ = check_rendered(
        renderer, checker, article_paths(project, paths), jobs=jobs, cache=cache, reads=reads
    )
    return findings


def _pinned_epoch(manifest: Manifest, table: ResultsTable, rendered: list[Rendered]) -> int:
    """Builds are dated by their inputs, never by the clock: the newest of the loaded rounds'
    retrieval dates and the articles' dates (so the feed is never older than its items)."""
    dates = [manifest.rounds[v].retrieved for v in table.rounds if v in manifest.rounds]
    dates += [r.article.date for r in rendered if r.article.date is not None]
    days = [d.date() if isinstance(d, dt.datetime) else d for d in dates]
    return calendar.timegm(max(days).timetuple()) if days else 0
