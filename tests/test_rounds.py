"""Every round: add a round, rebuild, see exactly what changed; incremental rebuilds."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.data.manifest import load_manifest
from generator.data.rounds import add_round
from generator.errors import DataError, ManifestError
from generator.project import Project
from generator.site.build import build
from generator.site.diff import diff_builds, format_text

from .conftest import ROOT, official_project

REF = "mlperf-inference-v6.1-per-gpu"


def quiet(_: str) -> None:
    pass


def project_without_v61(tmp_path: Path) -> Project:
    project = official_project(tmp_path / "project")
    rounds = project.data_dir / "rounds.toml"
    text = rounds.read_text("utf-8")
    rounds.write_text(text[: text.index('[[round]]\nversion = "6.1"')], "utf-8")
    return project


def copy_rounds(shared: Path, dest: Path, versions: list[str]) -> Path:
    for v in versions:
        (dest / f"v{v}").mkdir(parents=True)
        shutil.copy(shared / f"v{v}" / "summary_results.json", dest / f"v{v}" / "summary_results.json")
    return dest


def site_files(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def test_add_v61_rebuild_reports_new_figures_and_rebuilds_identically(
    tmp_path: Path, shared_dir: Path
) -> None:
    project = project_without_v61(tmp_path)
    results = copy_rounds(shared_dir, tmp_path / "results", ["5.1", "6.0"])
    old = build(project=project, results=results, site_dir=tmp_path / "old", log=quiet)
    assert [r.article.slug for r in old.rendered if not r.missing] == []

    res = CliRunner().invoke(
        main,
        [
            "add-round",
            "6.1",
            str(shared_dir / "v6.1" / "summary_results.json"),
            "--published",
            "2026-09-16",
            "--retrieved",
            "2026-10-02",
            "--results",
            str(results),
            "--cite",
            "https://mlcommons.org/benchmarks/inference-datacenter/",
            "--label",
            "official results repository, summary.xlsx",
            "--compatible-with",
            "6.0",
            "--compatible-with",
            "5.1",
            "--data-dir",
            str(project.data_dir),
        ],
    )
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[0].startswith(f"v6.1: 492 rows from {results}/v6.1/summary_results.json")
    manifest = load_manifest(project.data_dir)
    assert manifest.rounds["6.1"].published.isoformat() == "2026-09-16"
    assert manifest.rounds["6.1"].compatible_with == ("6.0", "5.1")
    assert "# Round manifest" in (project.data_dir / "rounds.toml").read_text("utf-8")  # comments kept

    lines: list[str] = []
    new = build(
        project=project,
        results=results,
        site_dir=tmp_path / "new",
        log=lines.append,
        baseline=tmp_path / "old",
    )
    d = diff_builds(tmp_path / "old", tmp_path / "new")
    ref = d.articles[REF]
    assert (len(ref.changed), len(ref.removed)) == (0, 0)
    assert len(ref.added) == len([row for row in new.ledger if row["article"] == REF]) > 200
    assert {row["text"] for row in ref.added} >= {"5.65×", "14,211", "26.0%", "1.260", "$0.246"}
    assert any(line.startswith(f"changes since {tmp_path / 'old'}: ") for line in lines)
    assert "Changes since the baseline build" in (tmp_path / "new" / "changes.html").read_text("utf-8")

    again = build(
        project=project,
        results=results,
        site_dir=tmp_path / "again",
        log=quiet,
        baseline=tmp_path / "old",
        use_cache=False,
    )
    assert site_files(again.site_dir) == site_files(new.site_dir)


def test_editing_one_result_changes_exactly_the_figures_that_use_it(tmp_path: Path, shared_dir: Path) -> None:
    results = copy_rounds(shared_dir, tmp_path / "results", ["5.1", "6.0", "6.1"])
    project = official_project(tmp_path / "project")
    build(
        project=project,
        results=results,
        site_dir=tmp_path / "before",
        log=quiet,
        cache_dir=tmp_path / "cache",
    )
    f = results / "v6.1" / "summary_results.json"
    rows = json.loads(f.read_text("utf-8"))
    hits = [r for r in rows if (r["ID"], r["Model"], r["Scenario"]) == ("6.1-0065", "gpt-oss-120b", "Server")]
    assert len(hits) == 1 and hits[0]["Performance_Result"] == 58195.8
    hits[0]["Performance_Result"] = 60000.0
    f.write_text(json.dumps(rows), "utf-8")
    build(
        project=project, results=results, site_dir=tmp_path / "after", log=quiet, cache_dir=tmp_path / "cache"
    )
    d = diff_builds(tmp_path / "before", tmp_path / "after")
    ref = d.articles[REF]
    assert (ref.added, ref.removed) == ([], [])
    changed = [(old["line"], old["text"], new["text"]) for old, new in ref.changed]
    assert all(any(e["id"] == "6.1-0065" for e in new["entries"]) for _, new in ref.changed), (
        "only figures computed from 6.1-0065 may change"
    )
    texts = {(o, n) for _, o, n in changed}
    assert texts == {
        ("58,196", "60,000"),
        ("8.85%", "12.23%"),
        ("9%", "12%"),
        ("8.9%", "12.2%"),
        ("14,549", "15,000"),
    }
    assert "demo-per-gpu-sample" not in d.articles or d.articles["demo-per-gpu-sample"].empty()
    out = format_text(d)
    assert re.search(
        r"~ content/mlperf-inference-v6\.1-per-gpu\.md:\d+: 58,196 -> 60,000 \(value; entries 6\.1-0065 -> 6\.1-0065\)",
        out,
    )


def test_incremental_rebuild_reuses_unchanged_articles(tmp_path: Path, shared_dir: Path) -> None:
    project = official_project(tmp_path / "project")
    root = project.root
    results = copy_rounds(shared_dir, tmp_path / "results", ["5.1", "6.0", "6.1"])
    # the demo is made for the sample (sample_only): a copy of it that builds on the official files
    demo = project.content_dir / "demo-per-gpu-sample.md"
    text = demo.read_text("utf-8").replace("sample_only: true\n", "")
    demo.unlink()
    demo = project.content_dir / "demo-on-official.md"
    demo.write_text(text, "utf-8")

    def run() -> list[str]:
        lines: list[str] = []
        build(project=project, results=results, site_dir=tmp_path / "site", log=lines.append)
        # the round overview counts every row of its round, so any data change re-renders it
        return [ln for ln in lines if ln.startswith("[") and "round-overview" not in ln]

    first = run()
    assert all("(cached)" not in ln for ln in first) and len(first) == 2
    assert all(ln.endswith("(cached)") for ln in run())
    demo.write_text(demo.read_text("utf-8") + "\nOne more sentence.\n", "utf-8")
    third = run()
    assert not third[0].endswith("(cached)") and third[1].endswith("(cached)")
    # a change to rows of a benchmark no article queries leaves both cached
    f = results / "v6.1" / "summary_results.json"
    rows = json.loads(f.read_text("utf-8"))
    whisper = next(r for r in rows if r["Model"] == "whisper")
    whisper["Performance_Result"] += 1
    f.write_text(json.dumps(rows), "utf-8")
    assert all(ln.endswith("(cached)") for ln in run())
    # a change to a gpt-oss-120b row re-renders both articles
    gpt = next(r for r in rows if r["Model"] == "gpt-oss-120b" and r["ID"] == "6.1-0099")
    gpt["Performance_Result"] += 1
    f.write_text(json.dumps(rows), "utf-8")
    assert all(not ln.endswith("(cached)") for ln in run())
    shutil.rmtree(root / ".cache")  # safe to delete
    assert all(not ln.endswith("(cached)") for ln in run())


def test_add_round_refuses_a_registered_round_and_a_bad_file(tmp_path: Path, shared_dir: Path) -> None:
    project = project_without_v61(tmp_path)
    manifest = load_manifest(project.data_dir)
    import datetime as dt

    with pytest.raises(ManifestError) as exc:
        add_round(
            manifest,
            "6.0",
            str(shared_dir / "v6.0" / "summary_results.json"),
            published=dt.date(2026, 4, 1),
            results_dir=tmp_path / "r",
        )
    assert (
        exc.value.message
        == f"{project.data_dir / 'rounds.toml'}: round 6.0 is already registered; pass --replace to update it"
    )
    before = (project.data_dir / "rounds.toml").read_text("utf-8")
    bad = Path(__file__).resolve().parent / "corpus" / "bad_results" / "unknown_units.json"
    with pytest.raises(DataError):
        add_round(manifest, "9.9", str(bad), published=dt.date(2026, 1, 1), results_dir=tmp_path / "r")
    assert (project.data_dir / "rounds.toml").read_text("utf-8") == before


def test_new_scaffolds_a_starter_article_that_renders_and_passes_the_checks(
    tmp_path: Path, official: object, manifest: object
) -> None:
    import datetime as dt

    from generator.article.functions import Library, Prices
    from generator.article.render import Renderer, load_article
    from generator.article.scaffold import scaffold, write_scaffold
    from generator.check import CheckConfig, Checker

    text = scaffold(official, manifest, "6.1", today=dt.date(2026, 12, 2))  # type: ignore[arg-type]
    path = tmp_path / "starter.md"
    write_scaffold(path, text)
    assert 'best_table("6.1", [["gpt-oss-120b", "Server"], ["gpt-oss-120b", "Offline"]' in text
    assert 'old = best("gpt-oss-120b", "Server", round="6.0", category="available")' in text
    lib = Library(official, manifest, Prices.load(ROOT / "data" / "prices.toml"))  # type: ignore[arg-type]
    r = Renderer(lib).render(load_article(path))
    checker = Checker(manifest, CheckConfig.load(ROOT / "data" / "check.toml"), official)  # type: ignore[arg-type]
    assert [str(f) for f in checker.check(r)] == []  # --strict: no warnings either
    assert "| B300 | 14,211 (8 GPUs, 6.1-0052)<br>median 13,417 of 16 |" in r.markdown
    with pytest.raises(Exception, match="already exists; pass --force to overwrite it"):
        write_scaffold(path, text)


def test_serve_rebuilds_when_an_article_changes(tmp_path: Path) -> None:
    import threading
    import time
    import urllib.request

    from generator.site.serve import serve

    from .conftest import TINY_ROWS, write_results
    from .test_build import tiny_project

    project = tiny_project(tmp_path)
    results = write_results(tmp_path / "results", TINY_ROWS)
    stop = threading.Event()
    ready: list[str] = []
    t = threading.Thread(
        target=serve,
        args=(project, results, tmp_path / "site"),
        kwargs={"port": 0, "log": quiet, "stop": stop, "on_ready": ready.append},
        daemon=True,
    )
    t.start()
    deadline = time.monotonic() + 60
    while not ready and time.monotonic() < deadline:
        time.sleep(0.1)
    assert ready, "serve did not start"
    page = ready[0] + "tiny.html"
    assert "Tiny golden article" in urllib.request.urlopen(page, timeout=10).read().decode()
    art = project.content_dir / "tiny.md"
    art.write_text(
        art.read_text("utf-8").replace("# Tiny golden article", "# Tiny golden article, edited"), "utf-8"
    )
    body = ""
    while time.monotonic() < deadline and "edited" not in body:
        time.sleep(0.3)
        body = urllib.request.urlopen(page, timeout=10).read().decode()
    stop.set()
    t.join(timeout=10)
    assert "Tiny golden article, edited" in body
