"""The ``gpu-insights`` command line: a thin layer over the library.

Each command parses options, calls one library function and prints its result.
Library errors are :class:`~generator.errors.GpuInsightsError` (a ClickException),
so they print as one clean message and exit with status 1.
"""

from __future__ import annotations

from pathlib import Path

import click

from . import __version__

RESULTS_HELP = (
    "Folder with one sub-folder per round (v6.1/summary_results.json, ...). "
    "Default: the embedded sample in data/sample/."
)
SITE_DIR_HELP = "Where the site is written (default: site/)."
DATA_DIR_HELP = "The project's data folder (rounds.toml, accelerators.toml, ...)."


@click.group()
@click.version_option(__version__, prog_name="gpu-insights")
def main() -> None:
    """Per-GPU benchmark articles from official MLPerf(R) Inference results."""


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
@click.option("--data-dir", type=click.Path(path_type=Path), default=None, help=DATA_DIR_HELP)
def fetch(round_version: str, dest: Path, url: str | None, data_dir: Path | None) -> None:
    """Download ROUND's official results file (resumable, checksummed)."""
    from .fetch import fetch_round
    from .manifest import load_manifest
    from .results import read_results

    manifest = load_manifest(data_dir)
    rnd = manifest.round(round_version)
    res = fetch_round(rnd, dest, url=url)
    _, report = read_results(res.path, manifest, version=rnd.version)
    click.echo(f"{res.path}: {res.status}, sha256 {res.sha256}")
    click.echo(report.summary_line())


@main.command()
@click.option(
    "--results",
    type=click.Path(path_type=Path, file_okay=False),
    required=True,
    help="Folder with one sub-folder per round.",
)
@click.option("--data-dir", type=click.Path(path_type=Path), default=None, help=DATA_DIR_HELP)
def data(results: Path, data_dir: Path | None) -> None:
    """Load and validate every round under --results; print one summary line per file."""
    from .manifest import load_manifest
    from .table import ResultsTable

    table = ResultsTable.from_dir(results, load_manifest(data_dir))
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
@click.option("--no-cache", is_flag=True, help="Render every article again (ignore .cache/render).")
def build(
    results: Path | None, site_dir: Path | None, strict: bool, baseline: Path | None, no_cache: bool
) -> None:
    """Render every article in content/ and build the static site."""
    from .site import build as do_build

    do_build(
        results=results,
        site_dir=site_dir,
        strict=strict,
        log=click.echo,
        baseline=baseline,
        use_cache=not no_cache,
    )


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path, exists=True))
@click.option("--results", type=click.Path(path_type=Path, file_okay=False), default=None, help=RESULTS_HELP)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too.")
@click.option("--rules-doc", is_flag=True, help="Print the rules reference (Markdown) and exit.")
def check(paths: tuple[Path, ...], results: Path | None, fmt: str, strict: bool, rules_doc: bool) -> None:
    """Check articles against the MLPerf(R) Results Messaging Guidelines.

    PATHS are article templates or folders of them (default: content/).
    """
    import json

    from .check import failed, rules_markdown
    from .site import Project, run_checks

    if rules_doc:
        click.echo(rules_markdown(), nl=False)
        return
    findings = run_checks(Project(), list(paths), results)
    if fmt == "json":
        click.echo(json.dumps([f.as_dict() for f in findings], indent=1, ensure_ascii=False))
    else:
        for f in findings:
            click.echo(str(f))
        n_err = sum(1 for f in findings if f.severity == "error")
        n_warn = sum(1 for f in findings if f.severity == "warning")
        click.echo(f"{n_err} error(s), {n_warn} warning(s)", err=True)
    if failed(findings, strict=strict):
        raise SystemExit(1)


@main.command()
@click.argument("old", type=click.Path(path_type=Path, exists=True))
@click.argument("new", type=click.Path(path_type=Path, exists=True))
@click.option(
    "--markdown",
    "markdown_out",
    type=click.Path(path_type=Path),
    default=None,
    help="Also write the comparison as a Markdown page.",
)
def diff(old: Path, new: Path, markdown_out: Path | None) -> None:
    """Compare two builds (site folders or figures.json): figures and table rows that changed."""
    from .diff import diff_builds, format_markdown, format_text

    d = diff_builds(old, new)
    click.echo(format_text(d), nl=False)
    if markdown_out is not None:
        markdown_out.write_text(format_markdown(d), encoding="utf-8")


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
@click.option("--data-dir", type=click.Path(path_type=Path), default=None, help=DATA_DIR_HELP)
def add_round_cmd(
    version: str,
    source: str,
    published: str,
    retrieved: str | None,
    results_dir: Path,
    citation: str | None,
    source_label: str | None,
    compatible_with: tuple[str, ...],
    replace: bool,
    data_dir: Path | None,
) -> None:
    """Register round VERSION from an official FILE or URL in data/rounds.toml, after validating it."""
    import datetime as dt

    from .manifest import load_manifest
    from .rounds import add_round

    def day(text: str, opt: str) -> dt.date:
        try:
            return dt.date.fromisoformat(text)
        except ValueError:
            raise click.BadParameter(f"{text!r} is not a date (YYYY-MM-DD)", param_hint=opt) from None

    added = add_round(
        load_manifest(data_dir),
        version,
        source,
        published=day(published, "--published"),
        retrieved=day(retrieved, "--retrieved") if retrieved else None,
        results_dir=results_dir,
        citation=citation,
        source_label=source_label,
        compatible_with=list(compatible_with),
        replace=replace,
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
    help="Where to write the article (default: content/mlperf-inference-v<ROUND>-starter.md).",
)
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
def new(round_version: str, results: Path | None, output: Path | None, force: bool) -> None:
    """Scaffold a starter article for ROUND: best-per-family tables and a cross-round comparison."""
    from .manifest import load_manifest, normalize_version
    from .scaffold import scaffold, write_scaffold
    from .site import Project, load_table

    project = Project()
    manifest = load_manifest(project.data_dir)
    table, _ = load_table(project, manifest, results)
    v = normalize_version(round_version)
    path = output or project.content_dir / f"mlperf-inference-v{v}-starter.md"
    write_scaffold(path, scaffold(table, manifest, v), force=force)
    click.echo(f"wrote {path}; check it with: gpu-insights check {path} --results DIR")


@main.command()
@click.option("--results", type=click.Path(path_type=Path, file_okay=False), default=None, help=RESULTS_HELP)
@click.option(
    "--site-dir", type=click.Path(path_type=Path, file_okay=False), default=None, help=SITE_DIR_HELP
)
@click.option("--port", type=int, default=8000, show_default=True)
def serve(results: Path | None, site_dir: Path | None, port: int) -> None:
    """Live preview on 127.0.0.1: rebuild when an article, data file or results file changes."""
    from .serve import serve as do_serve
    from .site import Project

    project = Project()
    do_serve(project, results, site_dir or project.root / "site", port=port, log=click.echo)


@main.command()
@click.option("--write", is_flag=True, help="Write docs/placeholders.md and docs/compliance-rules.md.")
def docs(write: bool) -> None:
    """Print (or write) the reference pages generated from the code."""
    from .check import rules_markdown
    from .docs import placeholders_markdown
    from .functions import Library
    from .site import Project

    pages = {
        "placeholders.md": placeholders_markdown(Library.namespace_functions()),
        "compliance-rules.md": rules_markdown(),
    }
    for name, text in pages.items():
        if write:
            (Project().root / "docs" / name).write_text(text, encoding="utf-8")
            click.echo(f"wrote docs/{name}")
        else:
            click.echo(text)
