"""Shared fixtures: the project manifest and the official results in ../shared/mlperf."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from generator import audit, workers
from generator.article.render import Article, Rendered, Renderer
from generator.data.manifest import Manifest, load_manifest
from generator.data.table import ResultsTable
from generator.project import Project, data_file
from generator.site.build import ledger_entries

from .browser import CHROMIUM, chromium

ROOT = Path(__file__).resolve().parent.parent

#: no test's command starts a check server (generator/server.py) nor leaves one behind: every
#: command of the suite, and of the processes it starts, runs in its own process, except in
#: tests/test_check_server.py, whose tests start and stop their own in a user cache of their own
os.environ["GPU_INSIGHTS_NO_SERVER"] = "1"

CORPUS = Path(__file__).resolve().parent / "corpus"

#: the project's own articles, by name: tests copy these, never content/ as a whole (an article a
#: user adds to the checkout's content/ must not change what the tests build)
PROJECT_ARTICLES = (
    "demo-per-gpu-sample.md",
    "mlperf-inference-v6.1-per-gpu.md",
    "mlperf-inference-v6.1-round-overview.md",
)


def project_articles(dest: Path) -> Path:
    """A folder *dest* holding copies of :data:`PROJECT_ARTICLES`."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in PROJECT_ARTICLES:
        shutil.copy(ROOT / "content" / name, dest / name)
    return dest


def official_project(dest: Path) -> Project:
    """This checkout's publication copied to *dest* with the project's own articles only
    (:data:`PROJECT_ARTICLES`, copied first beside it, to *dest*-articles)."""
    return Project(ROOT).clone(dest, content=project_articles(dest.with_name(dest.name + "-articles")))


@pytest.fixture(autouse=True, scope="session")
def no_test_builds_the_checkouts_content() -> Iterator[None]:
    """No test builds or copies the checkout's content/ as a whole (use :func:`official_project`):
    two did, and failed as soon as a user added an article there."""
    own = (ROOT / "content").resolve()
    articles, clone = Project.articles, Project.clone

    def guarded_articles(self: Project) -> list[Path]:
        if self.content_dir.resolve() == own:
            raise AssertionError(f"a test builds the checkout's own {own}: build official_project(...)")
        return articles(self)

    def guarded_clone(
        self: Project, dest: Path, *, content: Path | None = None, sample: bool = False
    ) -> Project:
        if content is None and self.content_dir.resolve() == own:
            raise AssertionError(f"a test copies the checkout's own {own}: pass content= (project_articles)")
        return clone(self, dest, content=content, sample=sample)

    patch = pytest.MonkeyPatch()
    patch.setattr(Project, "articles", guarded_articles)
    patch.setattr(Project, "clone", guarded_clone)
    yield
    patch.undo()


# ---------------------------------------------------------------- what the tests need
def missing_needs(items: list[pytest.Item]) -> list[str]:
    """What the collected tests need and this machine lacks, one line each: Debian's chromium
    for the browser tests (without it, each of them errored: 36 errors on a fresh machine)."""
    out = []
    if any(i.path.name.startswith("test_browser") for i in items) and (
        not Path(CHROMIUM).exists() or shutil.which("chromium") is None
    ):
        out.append(
            f"the browser tests need Debian's chromium ({CHROMIUM}), which is missing: install it with "
            "`sudo apt-get install chromium` (or leave them out: -k 'not browser')"
        )
    return out


@pytest.hookimpl(trylast=True)  # after -k and -m deselected what will not run
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Before any test runs: stop with one line per missing need (:func:`missing_needs`)."""
    missing = missing_needs(items)
    if missing:
        pytest.exit("; ".join(missing), returncode=pytest.ExitCode.USAGE_ERROR)


@pytest.fixture()
def every_stage_forks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Worker processes for every stage given jobs, however little work it has (a build forks
    none for a small site: :func:`~generator.workers.jobs_worth`): for tests of the workers."""
    monkeypatch.setattr(workers, "FORK_WORTH_SECONDS", 0.0)


def shared_results_dir() -> Path:
    """Official results: $GPU_INSIGHTS_SHARED or ../shared/mlperf beside the checkout."""
    env = os.environ.get("GPU_INSIGHTS_SHARED")
    return Path(env) if env else ROOT.parent / "shared" / "mlperf"


def shared_reference_dir() -> Path:
    return shared_results_dir().parent / "reference"


@pytest.fixture(scope="session")
def manifest() -> Manifest:
    return load_manifest()


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    d = shared_results_dir()
    if not (d / "v6.1").is_dir():
        pytest.fail(f"official results not found at {d}; set GPU_INSIGHTS_SHARED")
    return d


@pytest.fixture(scope="session")
def official(manifest: Manifest, shared_dir: Path) -> ResultsTable:
    """All three official rounds, loaded once per test session."""
    return ResultsTable.from_dir(shared_dir, manifest)


def tiny_row(
    rid: str,
    benchmark: str,
    scenario: str,
    result: float,
    gpus: int = 8,
    accelerator: str = "NVIDIA B300-SXM-270GB",
    category: str = "available",
    submitter: str = "ExampleCorp",
    **extra: object,
) -> dict[str, object]:
    """One made-up row in summary_results.json shape (submitter ExampleCorp: not a result)."""
    row: dict[str, object] = {
        "ID": rid,
        "Submitter": submitter,
        "Availability": category,
        "Category": "closed",
        "Suite": "datacenter",
        "System": f"Example {gpus}x",
        "Platform": f"{gpus}xEXAMPLE",
        "Model": benchmark,
        "Scenario": scenario,
        "Accelerator": accelerator,
        "a#": gpus,
        "Nodes": 1,
        "Total Accelerators": gpus,
        "Performance_Result": result,
        "Performance_Units": "Tokens/s",
        "version": "v" + rid.split("-")[0],
        "inferred": 0,
        "has_power": False,
    }
    row.update(extra)
    return row


def write_results(root: Path, rows: list[dict[str, object]]) -> Path:
    """Write rows into ROOT/v<round>/summary_results.json, one file per round."""
    import json

    by_round: dict[str, list[dict[str, object]]] = {}
    for r in rows:
        by_round.setdefault(str(r["ID"]).split("-")[0], []).append(r)
    for v, rs in by_round.items():
        (root / f"v{v}").mkdir(parents=True, exist_ok=True)
        (root / f"v{v}" / "summary_results.json").write_text(json.dumps(rs, indent=1), "utf-8")
    return root


TINY_ROWS = [
    tiny_row("6.1-0001", "gpt-oss-120b", "Server", 80000.0),
    tiny_row("6.1-0001", "gpt-oss-120b", "Offline", 88000.0),
    tiny_row("6.1-0002", "gpt-oss-120b", "Server", 60000.0, accelerator="NVIDIA B200-SXM-180GB"),
    tiny_row("6.1-0003", "gpt-oss-120b", "Server", 72000.0, accelerator="AMD Instinct MI355X 288GB HBM3e"),
    tiny_row(
        "6.1-0004",
        "gpt-oss-120b",
        "Server",
        512000.0,
        gpus=72,
        accelerator="NVIDIA GB300",
        category="preview",
    ),
    tiny_row("6.0-0001", "gpt-oss-120b", "Server", 64000.0),
]


@pytest.fixture()
def tiny(tmp_path: Path, manifest: Manifest) -> ResultsTable:
    return ResultsTable.from_dir(write_results(tmp_path / "results", TINY_ROWS), manifest)


#: TINY_ROWS plus rows that the compliance corpus needs: an Open row, an inferred row,
#: a v5.1 gpt-oss-120b row (before the benchmark's compatible rounds), and dlrm-v3 rows
#: (a benchmark whose compatibility data/benchmarks.toml does not record).
CHECK_ROWS = [
    *TINY_ROWS,
    tiny_row("6.1-0005", "gpt-oss-120b", "Server", 96000.0, Category="open"),
    tiny_row("6.1-0006", "gpt-oss-120b", "Server", 40000.0, accelerator="NVIDIA H200-SXM-141GB", inferred=1),
    tiny_row("5.1-0001", "gpt-oss-120b", "Server", 30000.0),
    tiny_row("6.0-0002", "dlrm-v3", "Offline", 8000.0, Performance_Units="Samples/s"),
    tiny_row("6.1-0007", "dlrm-v3", "Offline", 9600.0, Performance_Units="Samples/s"),
]


@pytest.fixture()
def check_table(tmp_path: Path, manifest: Manifest) -> ResultsTable:
    return ResultsTable.from_dir(write_results(tmp_path / "check-results", CHECK_ROWS), manifest)


# ---------------------------------------------------------------------------- the audit hook

#: rendering without the audit, for a test that makes the generator wrong on purpose to see the
#: build's own audit fail: ``monkeypatch.setattr(Renderer, "render", UNAUDITED_RENDER)``
UNAUDITED_RENDER = Renderer.render

#: the official files read by the audit, kept for the session (they are read-only)
_OFFICIAL_SOURCES: dict[Path, audit.Sources] = {}


def audit_rendered(renderer: Renderer, rendered: Rendered) -> audit.Report | None:
    """Audit the figures of one rendered article as the build audits a site (:mod:`generator.audit`):
    each re-derived from the official file its rows come from; a mismatch is an AssertionError."""
    if rendered.missing or not rendered.uses:
        return None
    rows = [e for u in rendered.uses for e in u.figure.entries]
    folders = {Path(e.source_file).parent.parent for e in rows if e.source_file}
    if len(folders) > 1:
        raise AssertionError(
            f"{rendered.article.path}: figures from several results folders: {sorted(folders)}"
        )
    results = folders.pop() if folders else ROOT
    files = {n: data_file(renderer.lib.manifest.data_dir, n) for n in audit.DATA_NAMES}
    files["prices.toml"] = renderer.lib.prices.path
    data = audit.Data.load(files)
    sources = None
    if results == shared_results_dir():
        sources = _OFFICIAL_SOURCES.setdefault(results, audit.Sources(results, data))
    ledger = json.loads(json.dumps(ledger_entries([rendered], SimpleNamespace(root=ROOT))))  # type: ignore[arg-type]
    report = audit.audit_ledger(ledger, results, data, sources)
    if report.mismatches:
        raise AssertionError(audit.failure_message(report))
    return report


@pytest.fixture(autouse=True)
def audit_every_rendering(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every article a test renders (the project's articles, the checker's corpus, articles on
    synthetic rounds) has its figures audited; a site a test builds is audited by the build."""

    def audited(self: Renderer, article: Article) -> Rendered:
        rendered = UNAUDITED_RENDER(self, article)
        audit_rendered(self, rendered)
        return rendered

    monkeypatch.setattr(Renderer, "render", audited)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium, one per test module that asks for it (skipped where it is missing)."""
    with chromium() as b:
        yield b
