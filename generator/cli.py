"""The ``gpu-insights`` command line: a thin layer over the library.

Each command parses options, calls one library function and prints its result.
Library errors are :class:`~generator.errors.GpuInsightsError` (a ClickException),
so they print as one clean message and exit with status 1.

Each command imports the library it needs inside its function: start-up stays fast
(``--help``, ``diff`` or a no-change ``build`` never load pandas, the renderer or MkDocs,
which together cost more than half a second).
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator import __version__
from generator.errors import DataError, GpuInsightsError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from generator.check import CheckConfig, Finding
    from generator.project import Project
    from generator.site.cache import CheckOutput, CheckOutputs

    CheckPaths = Callable[[list[Path]], list[Finding]]

RESULTS_HELP = (
    "Folder with one sub-folder per round (v6.1/summary_results.json, ...). "
    "Default: the embedded sample in data/sample/."
)
SITE_DIR_HELP = "Where the site is written (default: site_dir of mkdocs.yml, else site/)."
JOBS_HELP = (
    "Worker processes that load rounds, render articles and make pages (default: one per core); "
    "the output is the same for any number."
)
DATA_DIR_HELP = "The project's data folder (rounds.toml, accelerators.toml, ...)."
DATA_DIR_TYPE = click.Path(path_type=Path, exists=True, file_okay=False)
#: a TCP port (0: any free one)
PORT = click.IntRange(0, 65535)


LIST_CHOICES = ["benchmarks", "families", "submitters", "scenarios", "kinds"]
LIST_HELP = "Print the benchmarks, families, submitters, scenarios or submitter kinds of the loaded rows."
CONFIG_HELP = "The publication's mkdocs.yml (default: found from the current folder upwards)."
FIX_HELP = (
    "Fix the mechanical findings in place (the (R) sign, the mark's spelling, the trademark legend and the "
    "not-verified statement of a hand-written article, a template's footnotes() and compliance()), "
    "then report what is left. An article that does not render is never touched."
)
DIFF_HELP = "With or without --fix: print the fixes as a unified diff and write nothing (exit 1 if any)."
STDIN_HELP = "With PATHS '-': the path of the article read from standard input (its rules, configuration and findings)."
WATCH_HELP = "Check again on each save of the articles (Ctrl-C stops, exit 0)."
NO_SERVER_HELP = (
    "Check in this process and start no check server (as GPU_INSIGHTS_NO_SERVER=1); without it, "
    "a check is answered by a background server that has the checker loaded (started by the first check)."
)
STOP_SERVER_HELP = "Stop this user's check server (of this checkout) and exit."


@click.group()
@click.version_option(__version__, prog_name="gpu-insights")
@click.option(
    "-f", "--config", type=click.Path(path_type=Path, dir_okay=False), default=None, help=CONFIG_HELP
)
@click.pass_context
def main(ctx: click.Context, config: Path | None) -> None:
    """Per-GPU benchmark articles from official MLPerf(R) Inference results."""
    ctx.obj = config
    if ctx.invoked_subcommand != "check":  # check turns the collector on after its imports
        gc.enable()


def _project(ctx: click.Context) -> Project:
    """The publication the command works on (``-f`` or the nearest mkdocs.yml)."""
    from generator.project import Project  # imported here: --version and --help do not load YAML

    return Project.discover(config=ctx.find_root().obj)


def _project_or_none(ctx: click.Context) -> Project | None:
    try:
        return _project(ctx)
    except GpuInsightsError:
        return None


def _data_dir(ctx: click.Context, given: Path | None) -> Path | None:
    """``--data-dir``, else the publication's data folder, else (outside any publication) the defaults."""
    if given is not None:
        return given
    project = _project_or_none(ctx)
    return project.data_dir if project is not None else None


@main.command()
@click.argument("directory", type=click.Path(file_okay=False))
def init(directory: str) -> None:
    """Create a new publication in DIRECTORY: mkdocs.yml, a starter article, data/ and templates/ (overrides)."""
    from generator.project import init_publication

    if not directory.strip():  # Path("") is the current folder: never meant
        raise click.BadParameter("an empty name is not a folder; name the new publication's folder")
    written = init_publication(Path(directory))
    click.echo(
        f"wrote {len(written)} files into {directory}; build it with: cd {directory} && gpu-insights build"
    )


@main.command()
@click.argument("round_version", metavar="ROUND")
@click.option(
    "--dest",
    type=click.Path(path_type=Path),
    default=Path("results"),
    show_default=True,
    help="Results folder to download into (DEST/v<ROUND>/<file>).",
)
@click.option("--url", default=None, help="Download from this URL instead of the manifest's.")
@click.option("--allow-file", is_flag=True, help="Accept a file:// URL (copy a local file on purpose).")
@click.option("--data-dir", type=DATA_DIR_TYPE, default=None, help=DATA_DIR_HELP)
@click.pass_context
def fetch(
    ctx: click.Context,
    round_version: str,
    dest: Path,
    url: str | None,
    allow_file: bool,
    data_dir: Path | None,
) -> None:
    """Download ROUND's official results file (resumable, checksummed, validated)."""
    from generator.data.fetch import fetch_validated
    from generator.data.manifest import load_manifest

    manifest = load_manifest(_data_dir(ctx, data_dir))
    res, report = fetch_validated(manifest, round_version, dest, url=url, allow_file=allow_file)
    click.echo(f"{res.path}: {res.status}, sha256 {res.sha256}")
    click.echo(report.summary_line())


@main.command()
@click.option(
    "--results",
    type=click.Path(path_type=Path, file_okay=False),
    required=True,
    help="Folder with one sub-folder per round.",
)
@click.option("--data-dir", type=DATA_DIR_TYPE, default=None, help=DATA_DIR_HELP)
@click.option("--list", "what", type=click.Choice(LIST_CHOICES), default=None, help=LIST_HELP)
@click.option("--round", "round_version", default=None, help="Load (and list) only this round.")
@click.pass_context
def data(
    ctx: click.Context, results: Path, data_dir: Path | None, what: str | None, round_version: str | None
) -> None:
    """Load and validate every round under --results (or only --round); print one summary line per file.

    With --list, print the names templates use instead (benchmarks, families, submitters,
    scenarios or submitter kinds), one a line with what the rows say about it.
    """
    from generator.data.listing import listing_text
    from generator.data.manifest import load_manifest
    from generator.data.table import ResultsTable

    rounds = [round_version] if round_version else None
    table = ResultsTable.from_dir(results, load_manifest(_data_dir(ctx, data_dir)), rounds=rounds)
    if not table.rounds:
        raise DataError(f"{results}: no round folders (v6.1/summary_results.json, ...) found")
    if what is not None:
        click.echo(listing_text(table, what, round_version), nl=False)
        return
    for rep in table.reports:
        click.echo(rep.summary_line())


@main.command()
@click.option("--results", type=click.Path(path_type=Path, file_okay=False), default=None, help=RESULTS_HELP)
@click.option(
    "--site-dir", type=click.Path(path_type=Path, file_okay=False), default=None, help=SITE_DIR_HELP
)
@click.option("--strict", is_flag=True, help="Fail when an article cannot be built or checks warn.")
@click.option(
    "--baseline",
    type=click.Path(path_type=Path, exists=True),
    default=None,
    help="A previous site (or its figures.json): add a page listing what changed since it.",
)
@click.option("--no-cache", is_flag=True, help="Render and check every article again (ignore .cache/).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help=JOBS_HELP)
@click.option(
    "--no-audit",
    is_flag=True,
    help="Do not re-derive every printed figure from the official files (gpu-insights audit).",
)
@click.pass_context
def build(
    ctx: click.Context,
    results: Path | None,
    site_dir: Path | None,
    strict: bool,
    baseline: Path | None,
    no_cache: bool,
    jobs: int | None,
    no_audit: bool,
) -> None:
    """Render every article in content/ and build the static site."""
    from generator.site.reuse import reuse_unchanged
    from generator.workers import default_jobs  # imported here: --version does not load multiprocessing

    project = _project(ctx)
    site_dir = site_dir or project.site_dir()  # --site-dir, else mkdocs.yml's site_dir, else site/
    if (
        not no_cache
        and baseline is None
        and reuse_unchanged(
            project, results, site_dir, strict=strict, log=click.echo, jobs=default_jobs(jobs)
        )
    ):
        return
    from generator.article.svgdraw import new_drawing

    # with no SVG kept, vl-convert starts now, on the core the next import leaves idle
    drawing = new_drawing(None if no_cache else project.cache_dir, warm=True)
    try:
        # imported only when something changed: loading pandas and the renderer costs ~0.5 s
        from generator.site.build import build as do_build

        do_build(
            project=project,
            results=results,
            site_dir=site_dir,
            strict=strict,
            log=click.echo,
            baseline=baseline,
            use_cache=not no_cache,
            jobs=jobs,
            drawing=drawing,
            audit=not no_audit,
        )
    finally:
        drawing.cancel()  # a build that failed before it drew (after success: nothing)


@main.command()
@click.argument("site", type=click.Path(path_type=Path, exists=True))
@click.option("--results", type=click.Path(path_type=Path, file_okay=False), default=None, help=RESULTS_HELP)
@click.pass_context
def audit(ctx: click.Context, site: Path, results: Path | None) -> None:
    """Re-derive every figure SITE prints (its figures.json) from the official files, independently.

    Exits non-zero naming each figure, by article and template line, whose value or text the
    official rows do not give.
    """
    from generator import audit as auditing

    try:
        report = _project(ctx).audit(site, results)
    except auditing.AuditError as exc:
        raise GpuInsightsError(str(exc)) from None
    if report.mismatches:
        raise GpuInsightsError(auditing.failure_message(report))
    click.echo(report.summary())


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path, exists=True, allow_dash=True))
@click.option("--results", type=click.Path(path_type=Path, file_okay=False), default=None, help=RESULTS_HELP)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "sarif", "github"]),
    default="text",
    show_default=True,
    help="text; json (versioned: schema_version); sarif (SARIF 2.1.0, for code scanning); "
    "github (workflow commands that annotate a pull request).",
)
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too.")
@click.option(
    "--config",
    "check_config",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    default=None,
    help="Checker configuration (default: the publication's data/check.toml).",
)
@click.option("--rules-doc", is_flag=True, help="Print the rules reference (Markdown) and exit.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help=JOBS_HELP)
@click.option("--fix", is_flag=True, help=FIX_HELP)
@click.option("--diff", is_flag=True, help=DIFF_HELP)
@click.option(
    "--stdin-filename", type=click.Path(path_type=Path, dir_okay=False), default=None, help=STDIN_HELP
)
@click.option("--watch", is_flag=True, help=WATCH_HELP)
@click.option("--no-server", is_flag=True, help=NO_SERVER_HELP)
@click.option("--stop-server", is_flag=True, help=STOP_SERVER_HELP)
@click.pass_context
def check(
    ctx: click.Context,
    paths: tuple[Path, ...],
    results: Path | None,
    fmt: str,
    strict: bool,
    check_config: Path | None,
    rules_doc: bool,
    jobs: int | None,
    fix: bool,
    diff: bool,
    stdin_filename: Path | None,
    watch: bool,
    no_server: bool,
    stop_server: bool,
) -> None:
    """Check articles against the MLPerf(R) Results Messaging Guidelines.

    PATHS are articles (templates or hand-written Markdown) or folders of them (default:
    content/); - reads one article from standard input. Exit status: 0 clean, 1 findings,
    2 usage error, 3 internal error.
    """
    if stop_server:
        from generator.server import stop_server as stop  # standard library only

        click.echo(stop())
        return
    # --no-server: this is the command's own process already (generator.server.run saw it)
    if rules_doc:
        from generator.check import rules_markdown  # imported only now: see below

        click.echo(rules_markdown(), nl=False)
        return
    # imported here (see below); the checker's ~500 regular expressions (and YAML's) made from the
    # programs an earlier check kept (a tenth of a second of every check), before anything compiles them
    from generator.lazy import keep_patterns

    keep_patterns()
    editing = _EditorUse(ctx, paths, results, check_config, jobs, stdin_filename)
    if editing.stdin or fix or diff or watch:
        gc.enable()
        editing.run(fmt, strict, fix=fix, diff=diff, watch=watch)
        return
    project = _check_paths(ctx, paths)
    kept = _kept_output(project, paths, results, check_config, fmt, strict)
    if kept is not None and (hit := kept.lookup()) is not None:
        _emit(hit)  # an unchanged article: what its last check printed, the checker not imported
        return
    findings, folders = _checked(project, paths, results, check_config, jobs, kept)
    if folders:
        kept = None  # folders: checked by the site builder, nothing kept
    rules_url = ""
    if fmt == "sarif":  # the rules' links (read only here: a text check needs no configuration)
        from generator.check import CheckConfig

        rules_url = CheckConfig.load(check_config or project.data_file("check.toml")).rules_url
    output = _report(findings, fmt, strict, project.root, rules_url)
    if kept is not None and not any(f.rule in UNSETTLED for f in findings):
        kept.store(output)
    _emit(output)


def _checked(
    project: Project,
    paths: tuple[Path, ...],
    results: Path | None,
    check_config: Path | None,
    jobs: int | None,
    kept: CheckOutputs | None,
) -> tuple[list[Finding], bool]:
    """The findings of ``check PATHS``, and whether a folder was among them (checked by the site
    builder)."""
    # imported here: --version and --help do not load multiprocessing
    from generator.article.ahead import CompileAhead
    from generator.workers import default_jobs

    files = [p for p in paths if p.suffix == ".md" and p.is_file()]
    # the named articles' templates compiled in another process while this one imports (a
    # check server's child has everything imported already: no head start to gain there)
    ahead = CompileAhead(files) if files and not _SERVED and default_jobs(jobs) > 1 else None
    try:
        # imported only now: --help and --version do not load the checker; article files are
        # checked without pandas, folders with the site builder's run_checks
        from generator.site.checking import check_files

        _collect_from_now()
        digest = kept.results if kept is not None else None
        findings = check_files(
            project, list(paths), results, config=check_config, jobs=jobs, ahead=ahead, digest=digest
        )
        if findings is not None:
            return findings, False
        from generator.site.build import run_checks

        return run_checks(project, list(paths), results, config=check_config, jobs=jobs, ahead=ahead), True
    finally:
        if ahead is not None:
            ahead.close()


def _collect_from_now() -> None:
    """In a process that is this check alone (started by :func:`run`, the collector off until
    the imports are done), collect again from now on, leaving out for good what exists now (the
    modules imported, their classes and functions): no pass over the check's own objects goes
    over them too."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


#: findings a check of the same inputs may not give again (an article that ran out of time or
#: memory, a rule that failed): the output of a check with any is never kept
UNSETTLED = ("MLP000", "MLP099")


def _kept_output(
    project: Project,
    paths: tuple[Path, ...],
    results: Path | None,
    config: Path | None,
    fmt: str,
    strict: bool,
) -> CheckOutputs | None:
    """Where the output of ``check PATHS`` is kept, by everything it depends on; None for folders
    (and no paths) or a results folder that is not there (the check says why)."""
    from generator.site.cache import CheckOutputs, check_output_key, results_digest  # standard library only

    folder = results if results is not None else project.sample_dir
    if not paths or not folder.is_dir() or not all(p.is_file() for p in paths):
        return None
    options = (fmt, "strict" if strict else "")
    digest = results_digest(folder, project.data_dir)
    key = check_output_key(project.root, list(paths), digest, config, options)
    command = (str(project.root), *map(str, paths), str(results), str(config), *options)
    return CheckOutputs(command, key, digest)


def _check_paths(ctx: click.Context, paths: tuple[Path, ...]) -> Project:
    """The publication to check in; a usage error (exit 2) when there is none, or when a path
    is an empty folder, a pipe or a device."""
    from generator.project import source_problem  # imported here: see _project

    try:
        project = _project(ctx)
    except GpuInsightsError as exc:
        raise click.UsageError(exc.format_message(), ctx) from None
    empty = [p for p in paths if p.is_dir() and not any(p.rglob("*.md"))]
    if empty:
        raise click.UsageError(f"{empty[0]}: no articles (*.md) in this folder or its sub-folders", ctx)
    for p in paths:  # a pipe or a device (/dev/zero) would hang the check
        problem = None if p.is_dir() else source_problem(p)
        if problem:
            raise click.UsageError(f"{p}: {problem}", ctx)
    return project


class _EditorUse:
    """The options of ``check`` for editors: ``-`` (an article on standard input), ``--fix``,
    ``--diff`` and ``--watch``, over :mod:`generator.check.fix` and :mod:`generator.check.editor`."""

    def __init__(
        self,
        ctx: click.Context,
        paths: tuple[Path, ...],
        results: Path | None,
        config: Path | None,
        jobs: int | None,
        stdin_filename: Path | None,
    ) -> None:
        self.ctx, self.paths, self.results, self.config, self.jobs = ctx, paths, results, config, jobs
        self.name = stdin_filename
        self.rules_url = ""  # [report] rules_url of the configuration, once it is read
        self.stdin = Path("-") in paths
        if self.stdin and len(paths) > 1:
            raise click.UsageError(
                "'-' (an article on standard input) is checked alone: give no other PATHS", ctx
            )
        if stdin_filename is not None and not self.stdin:
            raise click.UsageError(
                "--stdin-filename names the article read from standard input: give PATHS -", ctx
            )

    def run(self, fmt: str, strict: bool, *, fix: bool, diff: bool, watch: bool) -> None:
        if watch and (fix or diff or self.stdin):
            raise click.UsageError(
                "--watch checks files again on each save: without -, --fix or --diff", self.ctx
            )
        project = self._stdin_project() if self.stdin else _check_paths(self.ctx, self.paths)
        self.root = project.root
        # imported only now: --help and --version do not load the checker
        from generator.check import CheckConfig

        def check_paths(ps: list[Path], *, cached: bool = True) -> list[Finding]:
            # article files without pandas (as check PATH), folders with run_checks
            from generator.site.checking import check_files

            found = check_files(project, ps, self.results, config=self.config, jobs=self.jobs, cached=cached)
            if found is not None:
                return found
            from generator.site.build import run_checks

            return run_checks(project, ps, self.results, config=self.config, jobs=self.jobs, cached=cached)

        def check_copies(ps: list[Path]) -> list[Finding]:  # temporary copies: nothing of them cached
            return check_paths(ps, cached=False)

        config = CheckConfig.load(self.config or project.data_file("check.toml"))
        self.rules_url = config.rules_url
        if self.stdin:
            self._stdin(check_copies, config, fmt, strict, fix=fix, diff=diff)
        elif watch:
            self._watch(check_paths, [*self.paths] or [project.content_dir], fmt, strict)
        else:
            self._fix(check_paths, check_copies, config, fmt, strict, diff=diff)

    def _stdin_project(self) -> Project:
        """The publication of --stdin-filename (its nearest mkdocs.yml), else of the current
        folder (an article named outside any publication, like ``check PATH`` of one)."""
        found = None
        if self.name is not None and self.ctx.find_root().obj is None:
            from generator.project import Project  # imported here: see _project

            with contextlib.suppress(GpuInsightsError):
                found = Project.discover(self.name.absolute().parent)
        return found or _check_paths(self.ctx, ())

    def _fix(
        self,
        check_paths: CheckPaths,
        check_copies: CheckPaths,
        config: CheckConfig,
        fmt: str,
        strict: bool,
        *,
        diff: bool,
    ) -> None:
        from generator.check.fix import fix_paths, summary

        fixes, left = fix_paths(
            list(self.paths), check_paths, config, write_files=not diff, check_copies=check_copies
        )
        if diff:
            for fx in fixes:
                click.echo(fx.diff(), nl=False)
        for line in summary(fixes, written=not diff):
            click.echo(line, err=True)
        if diff:
            raise SystemExit(1 if any(fx.changed for fx in fixes) else 0)
        _print_findings(left, fmt, strict, self.root, self.rules_url)

    def _stdin(
        self, check_paths: CheckPaths, config: CheckConfig, fmt: str, strict: bool, *, fix: bool, diff: bool
    ) -> None:
        from generator.check.editor import check_text
        from generator.check.fix import fix_source, summary

        try:
            text = sys.stdin.buffer.read().decode("utf-8")
        except UnicodeDecodeError as exc:
            raise click.UsageError(
                f"standard input is not UTF-8 text: {exc.reason} at byte {exc.start}"
            ) from None
        if not (fix or diff):
            _print_findings(check_text(text, self.name, check_paths), fmt, strict, self.root, self.rules_url)
            return
        fx, left = fix_source(text, self.name, check_paths, config)
        click.echo(fx.diff() if diff else fx.after, nl=False)
        for f in [] if diff else left:
            click.echo(str(f), err=True)
        for line in summary([fx], written=not diff):
            click.echo(line, err=True)
        raise SystemExit((1 if fx.changed else 0) if diff else _status(left, strict))

    def _watch(self, check_paths: CheckPaths, paths: list[Path], fmt: str, strict: bool) -> None:
        from generator.check.editor import watch

        def once() -> None:
            try:
                _print_findings(check_paths(list(self.paths)), fmt, strict, self.root, self.rules_url)
            except GpuInsightsError as exc:
                click.echo(f"Error: {exc.format_message()}", err=True)
            except SystemExit:
                pass  # the status of this check: the watch goes on
            click.echo("watching for changes (Ctrl-C to stop)", err=True)

        try:
            watch(paths, once)
        except KeyboardInterrupt:
            raise SystemExit(0) from None


def _status(findings: list[Finding], strict: bool) -> int:
    """The exit status of a check: 3 on an internal error, 1 when the findings fail it, else 0."""
    from generator.check import failed  # see check()

    if any(f.rule == "MLP099" for f in findings):
        return 3
    return 1 if failed(findings, strict=strict) else 0


def _print_findings(findings: list[Finding], fmt: str, strict: bool, root: Path, rules_url: str = "") -> None:
    """The findings in *fmt* (paths of SARIF and GitHub relative to the publication *root*, its
    rules linked at *rules_url*); exit 3 on an internal error, 1 when they fail the check."""
    _emit(_report(findings, fmt, strict, root, rules_url))


def _report(findings: list[Finding], fmt: str, strict: bool, root: Path, rules_url: str = "") -> CheckOutput:
    """What :func:`_print_findings` prints, and its exit status."""
    from generator.check import failed  # see check()
    from generator.check.report import format_findings
    from generator.site.cache import CheckOutput  # standard library only

    err = ""
    if fmt == "text":
        n_err = sum(1 for f in findings if f.severity == "error")
        n_warn = sum(1 for f in findings if f.severity == "warning")
        err = f"{n_err} error(s), {n_warn} warning(s)\n"
    status = 3 if any(f.rule == "MLP099" for f in findings) else 1 if failed(findings, strict=strict) else 0
    return CheckOutput(format_findings(findings, fmt, root, rules_url), err, status)


def _emit(output: CheckOutput) -> None:
    click.echo(output.out, nl=False)
    if output.err:
        click.echo(output.err, nl=False, err=True)
    if output.status:
        raise SystemExit(output.status)


@main.command()
@click.argument("old", type=click.Path(path_type=Path, exists=True))
@click.argument("new", type=click.Path(path_type=Path, exists=True))
@click.option(
    "--markdown",
    "markdown_out",
    type=click.Path(path_type=Path),
    default=None,
    help="Also write the comparison as a Markdown page (a new file; never inside the project's sources).",
)
@click.option("--force", is_flag=True, help="Overwrite the --markdown file if it exists.")
@click.pass_context
def diff(ctx: click.Context, old: Path, new: Path, markdown_out: Path | None, force: bool) -> None:
    """Compare two builds (site folders or figures.json): figures and table rows that changed."""
    from generator.project import check_output, write_output
    from generator.site.diff import diff_builds, format_markdown, format_text

    if markdown_out is not None:  # refused before any work
        check_output(markdown_out, force=force, project=_project_or_none(ctx))
    d = diff_builds(old, new)
    click.echo(format_text(d), nl=False)
    if markdown_out is not None:
        write_output(markdown_out, format_markdown(d))


@main.command("add-round")
@click.argument("version")
@click.argument("source", metavar="FILE|URL")
@click.option("--published", required=True, help="Official publication date of the round (YYYY-MM-DD).")
@click.option("--retrieved", default=None, help="Retrieval date (YYYY-MM-DD; default: today).")
@click.option(
    "--results",
    "results_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=Path("results"),
    show_default=True,
    help="Results folder to store the file in.",
)
@click.option("--cite", "citation", default=None, help="Source URL that footnotes cite.")
@click.option("--label", "source_label", default=None, help="How footnotes name the file at that source.")
@click.option("--compatible-with", multiple=True, help="An earlier round comparable with this one.")
@click.option("--replace", is_flag=True, help="Update a round that is already registered.")
@click.option("--allow-file", is_flag=True, help="Accept a file:// URL as the source.")
@click.option("--data-dir", type=DATA_DIR_TYPE, default=None, help=DATA_DIR_HELP)
@click.pass_context
def add_round_cmd(
    ctx: click.Context,
    version: str,
    source: str,
    published: str,
    retrieved: str | None,
    results_dir: Path,
    citation: str | None,
    source_label: str | None,
    compatible_with: tuple[str, ...],
    replace: bool,
    allow_file: bool,
    data_dir: Path | None,
) -> None:
    """Register round VERSION from an official FILE or URL in data/rounds.toml, after validating it."""
    import datetime as dt

    from generator.data.manifest import load_manifest
    from generator.data.rounds import add_round

    def day(text: str, opt: str) -> dt.date:
        try:
            return dt.date.fromisoformat(text)
        except ValueError:
            raise click.BadParameter(f"{text!r} is not a date (YYYY-MM-DD)", param_hint=opt) from None

    added = add_round(
        load_manifest(_data_dir(ctx, data_dir)),
        version,
        source,
        published=day(published, "--published"),
        retrieved=day(retrieved, "--retrieved") if retrieved else None,
        results_dir=results_dir,
        citation=citation,
        source_label=source_label,
        compatible_with=list(compatible_with),
        replace_existing=replace,
        allow_file=allow_file,
    )
    click.echo(added.report.summary_line())
    click.echo(
        f"{'updated' if added.replaced else 'registered'} round v{added.round.version} in "
        f"data/rounds.toml (sha256 {added.round.sha256}); file at {added.path}"
    )


@main.command()
@click.argument("round_version", metavar="ROUND")
@click.option("--results", type=click.Path(path_type=Path, file_okay=False), default=None, help=RESULTS_HELP)
@click.option(
    "--output",
    type=click.Path(path_type=Path),
    default=None,
    help="Where to write the article (default: content/mlperf-inference-v<ROUND>-<starter|round-overview>.md).",
)
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
@click.option(
    "--kind",
    type=click.Choice(["starter", "overview"]),
    default="starter",
    show_default=True,
    help="starter: best-per-family tables; overview: a round overview (submitters, benchmarks, scale).",
)
@click.pass_context
def new(
    ctx: click.Context, round_version: str, results: Path | None, output: Path | None, force: bool, kind: str
) -> None:
    """Scaffold an article for ROUND: a starter (best-per-family tables) or a round overview."""
    from generator.article.overview import overview
    from generator.article.scaffold import scaffold
    from generator.data.manifest import load_manifest, normalize_version
    from generator.project import check_output, write_output
    from generator.site.build import load_table

    project = _project(ctx)
    if output is not None:  # refused before the results are loaded
        check_output(output, force=force, project=project, content_ok=True, new_folder_ok=True)
    manifest = load_manifest(project.data_dir)
    table, _ = load_table(project, manifest, results)
    v = normalize_version(round_version)
    make = overview if kind == "overview" else scaffold
    path = (
        output
        or project.content_dir
        / f"mlperf-inference-v{v}-{'round-overview' if kind == 'overview' else 'starter'}.md"
    )
    check_output(path, force=force, project=project, content_ok=True, new_folder_ok=True)
    write_output(path, make(table, manifest, v))
    given = f" --results {results}" if results is not None else ""
    click.echo(f"wrote {path}; check it with: gpu-insights check {path}{given}")


@main.command()
@click.option("--results", type=click.Path(path_type=Path, file_okay=False), default=None, help=RESULTS_HELP)
@click.option(
    "--site-dir", type=click.Path(path_type=Path, file_okay=False), default=None, help=SITE_DIR_HELP
)
@click.option("--port", type=PORT, default=8000, show_default=True)
@click.pass_context
def serve(ctx: click.Context, results: Path | None, site_dir: Path | None, port: int) -> None:
    """Live preview on 127.0.0.1: rebuild when an article, data file or results file changes."""
    from generator.site.serve import serve as do_serve

    project = _project(ctx)
    do_serve(project, results, site_dir or project.site_dir(), port=port, log=click.echo)


@main.command()
@click.option("--write", is_flag=True, help="Write docs/placeholders.md and docs/compliance-rules.md.")
@click.pass_context
def docs(ctx: click.Context, write: bool) -> None:
    """Print (or write) the reference pages generated from the code."""
    from generator.article.functions import Library
    from generator.check import rules_markdown
    from generator.docs import placeholders_markdown

    pages = {
        "placeholders.md": placeholders_markdown(Library.namespace_functions()),
        "compliance-rules.md": rules_markdown(),
    }
    for name, text in pages.items():
        if write:
            (_project(ctx).root / "docs" / name).write_text(text, encoding="utf-8")
            click.echo(f"wrote docs/{name}")
        else:
            click.echo(text)


def run(inherited: Sequence[Callable[[], object]] | None = None) -> None:
    """The ``gpu-insights`` command in this process (:func:`generator.server.run`, the console
    script, calls it when the check server does not take the command). Its process ends with
    the command (see :func:`_at_exit`). The collector is off while the command line and the
    modules load (all they make lives as long as the process: ~130 passes found nothing, 20-30
    ms of a ``check``); each command turns it on before its own work (``check`` after its
    imports: see :func:`_collect_from_now`).

    *inherited*: given in a check server's child (:mod:`generator.daemon`), which has every
    module a check imports imported already: the exit handlers those modules registered in the
    server, registered after :func:`_at_exit`, where they would be had this process imported
    those modules itself (so they run before it)."""
    atexit.register(_at_exit)  # registered first: run last, after every other exit handler
    if inherited is not None:
        _SERVED.append(True)
        for handler in inherited:
            atexit.register(handler)
    gc.disable()
    try:
        main()
    except SystemExit as exc:
        _STATUS.append(exc.code)
        raise


#: the status the command ended with (its SystemExit's code), once it has
_STATUS: list[object] = []
#: not empty in a check server's child (see :func:`run`)
_SERVED: list[bool] = []


def _at_exit() -> None:
    """The last exit handler: every other one has run (workers joined, caches saved, logs
    flushed), and every resource a command holds is closed by the command itself (files in
    ``with`` blocks, workers stopped and joined). So the process ends here with the command's
    status, its output flushed, without the interpreter's teardown of its modules one by one
    (10-15 ms once the checker is loaded) nor its last full pass of the collector (a fifth of a
    second once pandas is loaded). Where the output cannot be flushed (a closed pipe), or the
    command ended otherwise, the interpreter ends the process as always, after a pass over the
    young generations only."""
    code = _STATUS[0] if _STATUS else "not ended by SystemExit"
    if code is None or isinstance(code, int):
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        else:
            os._exit(code or 0)
    gc.collect(1)
    gc.freeze()
