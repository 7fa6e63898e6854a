"""The independent audit (generator/audit.py): every printed figure re-derived from the official
files, by a second implementation that shares no code with the generator."""

from __future__ import annotations

import ast
import csv
import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner

from generator import audit
from generator.article import functions
from generator.article.figures import Figure, per_gpu_figure
from generator.article.render import Renderer
from generator.cli import main
from generator.data.row import Row
from generator.errors import BuildError
from generator.project import Project
from generator.site.build import build

from .conftest import ROOT, TINY_ROWS, UNAUDITED_RENDER, write_results
from .test_build import tiny_project

#: the project's own articles, copied into a publication of their own (never built in content/)
PROJECT_ARTICLES = ("mlperf-inference-v6.1-per-gpu.md", "mlperf-inference-v6.1-round-overview.md")


def quiet(_: str) -> None:
    pass


@pytest.fixture(scope="module")
def official_site(
    tmp_path_factory: pytest.TempPathFactory, shared_dir: Path
) -> Iterator[tuple[Path, list[str]]]:
    """The project's two articles built from the official results; the build's log."""
    tmp = tmp_path_factory.mktemp("official")
    content = tmp / "articles"
    content.mkdir()
    for name in PROJECT_ARTICLES:
        shutil.copy(ROOT / "content" / name, content / name)
    project = Project(ROOT).clone(tmp / "pub", content=content)
    log: list[str] = []
    build(project=project, results=shared_dir, site_dir=tmp / "site", log=log.append, use_cache=False)
    yield tmp / "site", log


def run(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(main, ["-f", str(ROOT / "mkdocs.yml"), *args])
    return res.exit_code, res.output


def test_every_figure_of_both_project_articles_is_re_derived_from_the_official_files(
    official_site: tuple[Path, list[str]], shared_dir: Path
) -> None:
    site, log = official_site
    ledger = json.loads((site / "figures.json").read_text("utf-8"))
    assert {f["article"] for f in ledger} == {
        "mlperf-inference-v6.1-per-gpu",
        "mlperf-inference-v6.1-round-overview",
    }
    code, out = run("audit", str(site), "--results", str(shared_dir))
    assert code == 0, out
    report = audit.audit_site(site, shared_dir, {n: ROOT / "data" / n for n in audit.DATA_NAMES})
    assert report.mismatches == []
    # every figure re-derived, but those printed as the article gives them (a quoted statement,
    # an editorial constant), which are checked against what the ledger says they quote
    assert sum(report.derived.values()) + sum(report.quoted.values()) == report.figures == len(ledger)
    assert set(report.quoted) == {"stated", "constant"}
    kinds = {
        "result",
        "per_gpu",
        "ratio",
        "pct",
        "median",
        "spread",
        "count",
        "scaling",
        "break_even",
        "cost",
    }
    assert kinds <= set(report.derived)
    assert out.startswith(f"audit: {sum(report.derived.values())} of {len(ledger)} figures re-derived")
    assert "; 0 mismatches (" in out
    # the build ran the same audit before it published the site
    assert any(line.startswith(f"audit: {sum(report.derived.values())} of {len(ledger)} ") for line in log)


def _is_5_1_0072(fig: dict[str, Any]) -> bool:
    """Whether *fig* is entry 5.1-0072's per-GPU DeepSeek-R1 Server value."""
    key = [(e["id"], e["benchmark"], e["scenario"]) for e in fig["entries"]]
    return fig["kind"] == "per_gpu" and key == [("5.1-0072", "deepseek-r1", "Server")]


def _corrupt(site: Path, dest: Path, change: dict[str, object]) -> tuple[dict[str, object], int]:
    """A copy of *site*'s ledger at *dest* with *change* made to the figure of entry 5.1-0072's
    per-GPU DeepSeek-R1 Server value (209,328 tokens/s over 72 GB300); that figure and its
    number among the figures of its line."""
    ledger = json.loads((site / "figures.json").read_text("utf-8"))
    i = next(i for i, f in enumerate(ledger) if _is_5_1_0072(f))
    fig = ledger[i]
    n = sum(1 for f in ledger[: i + 1] if (f["article"], f["line"]) == (fig["article"], fig["line"]))
    ledger[i] = {**fig, **change}
    dest.write_text(json.dumps(ledger), "utf-8")
    return fig, n


def test_a_corrupted_value_is_named_by_article_line_and_figure(
    official_site: tuple[Path, list[str]], shared_dir: Path, tmp_path: Path
) -> None:
    fig, n = _corrupt(official_site[0], tmp_path / "figures.json", {"value": 2908.0})
    code, out = run("audit", str(tmp_path / "figures.json"), "--results", str(shared_dir))
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "Error: audit: 1 printed figure(s) disagree with the official results:"
    line = fig["line"]
    assert lines[1] == (
        f"  content/mlperf-inference-v6.1-per-gpu.md:{line}: article mlperf-inference-v6.1-per-gpu, "
        f"line {line}, figure {n} (per_gpu, printed '2,907'): the ledger records 2908.0; the official rows "
        f"give {209328 / 72!r} ({fig['formula']})"
    )
    assert "; 1 mismatches (" in lines[2]


def test_a_corrupted_printed_text_is_named_with_what_the_value_prints(
    official_site: tuple[Path, list[str]], shared_dir: Path, tmp_path: Path
) -> None:
    fig, n = _corrupt(official_site[0], tmp_path / "figures.json", {"text": "2,908"})
    code, out = run("audit", str(tmp_path / "figures.json"), "--results", str(shared_dir))
    assert code == 1
    line = fig["line"]
    assert out.splitlines()[1] == (
        f"  content/mlperf-inference-v6.1-per-gpu.md:{line}: article mlperf-inference-v6.1-per-gpu, "
        f"line {line}, figure {n} (per_gpu, printed '2,908'): prints '2,908'; the official rows give "
        f"{209328 / 72!r}, which prints '2,907' ({fig['formula']})"
    )


def test_a_row_that_is_not_the_entry_the_ledger_names_is_a_mismatch(
    official_site: tuple[Path, list[str]], shared_dir: Path, tmp_path: Path
) -> None:
    ledger = json.loads((official_site[0] / "figures.json").read_text("utf-8"))
    fig = next(f for f in ledger if _is_5_1_0072(f))
    fig["entries"][0]["at"] = "index 0"
    report = audit.audit_ledger([fig], shared_dir, audit.Data.load({}))
    first = json.loads((shared_dir / "v5.1" / "summary_results.json").read_text("utf-8"))[0]
    assert report.mismatches[0].endswith(
        f"v5.1/summary_results.json index 0 is entry {first['ID']} {first['Model']} {first['Scenario']} in "
        f"{first['Performance_Units']}, not 5.1-0072 deepseek-r1 Server in Tokens/s"
    )


def test_a_row_of_another_round_than_the_ledger_says_is_a_mismatch(
    official_site: tuple[Path, list[str]], shared_dir: Path
) -> None:
    ledger = json.loads((official_site[0] / "figures.json").read_text("utf-8"))
    fig = next(f for f in ledger if _is_5_1_0072(f))
    fig["entries"][0]["round"] = "6.0"
    report = audit.audit_ledger([fig], shared_dir, audit.Data.load({}))
    at = fig["entries"][0]["at"]
    assert report.mismatches[0].endswith(
        f": v5.1/summary_results.json {at} (entry 5.1-0072) is not of round v6.0, as the ledger says"
    )


def test_a_missing_official_file_and_a_broken_ledger_are_named(
    official_site: tuple[Path, list[str]], tmp_path: Path
) -> None:
    ledger = json.loads((official_site[0] / "figures.json").read_text("utf-8"))
    first = next(e for f in ledger for e in f["entries"])
    code, out = run("audit", str(official_site[0]), "--results", str(tmp_path))
    assert (code, out) == (
        1,
        f"Error: {tmp_path / first['source']}: the official file the ledger names is not there\n",
    )
    (tmp_path / "figures.json").write_text(
        '[{"article": "a", "line": "x", "entries": [1], "calc": {}}]', "utf-8"
    )
    code, out = run("audit", str(tmp_path / "figures.json"), "--results", str(tmp_path))
    assert code == 1
    assert out.splitlines()[1] == (
        "  a:0: article a, line 0, figure 1 (, printed None): the ledger's entries of it are not objects "
        "(is this a gpu-insights figures.json?)"
    )
    (tmp_path / "figures.json").write_text("{", "utf-8")
    code, out = run("audit", str(tmp_path / "figures.json"), "--results", str(tmp_path))
    assert code == 1
    assert out.startswith(f"Error: {tmp_path / 'figures.json'}: not a readable figures ledger: ")


def test_the_audit_imports_only_the_standard_library_and_nothing_of_generator() -> None:
    tree = ast.parse(Path(audit.__file__).read_text("utf-8"))
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"relative import at line {node.lineno}"
            modules.add(node.module or "")
    assert {m for m in modules if m.split(".")[0] == "generator"} == set()
    assert {m for m in modules if m.split(".")[0] not in sys.stdlib_module_names} == set()
    assert {"json", "csv", "zipfile", "tomllib"} <= modules  # what it reads the files with


# ---------------------------------------------------------------------------- file kinds


def _csv(rows: list[dict[str, object]], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def _xlsx(rows: list[dict[str, object]], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(list(rows[0]))
    for r in rows:
        ws.append([r[k] for k in rows[0]])
    wb.save(path)


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_csv_and_xlsx_rounds_are_read_again_and_a_changed_result_is_named(tmp_path: Path, kind: str) -> None:
    results = tmp_path / "results"
    for v in ("6.0", "6.1"):
        rows = [r for r in TINY_ROWS if str(r["ID"]).startswith(v)]
        (_csv if kind == "csv" else _xlsx)(rows, results / f"v{v}" / f"summary.{kind}")
    project = tiny_project(tmp_path)
    site = tmp_path / "site"
    build(project=project, results=results, site_dir=site, log=quiet, use_cache=False, jobs=1)
    ledger = json.loads((site / "figures.json").read_text("utf-8"))
    assert {e["source"] for f in ledger for e in f["entries"]} == {
        f"v6.0/summary.{kind}",
        f"v6.1/summary.{kind}",
    }
    files = {n: project.data_file(n) for n in audit.DATA_NAMES}
    assert audit.audit_site(site, results, files).mismatches == []
    # 6.1-0001 gpt-oss-120b Server: 80,000 tokens/s on 8 GPUs, 10,000 per GPU; now 80,800
    rows = [dict(r) for r in TINY_ROWS if str(r["ID"]).startswith("6.1")]
    rows[0]["Performance_Result"] = 80800.0
    (_csv if kind == "csv" else _xlsx)(rows, results / "v6.1" / f"summary.{kind}")
    report = audit.audit_site(site, results, files)
    assert report.mismatches[0] == (
        "content/tiny.md:11: article tiny, line 11, figure 1 (per_gpu, printed '10,000'): the ledger records "
        "10000.0; the official rows give 10100.0 (80000 / 8 accelerators (6.1-0001 gpt-oss-120b Server))"
    )


# ---------------------------------------------------------------------------- in the build


def _wrong_per_gpu(r: Row) -> Figure:
    """The generator's per-GPU value, wrong by 1% (a bug the audit has to catch)."""
    f = per_gpu_figure(r)
    return Figure(f.value * 1.01, f.kind, f.formula, f.entries, calc=f.calc)


def test_a_wrong_figure_fails_the_build_and_leaves_the_previous_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = write_results(tmp_path / "results", TINY_ROWS)
    project = tiny_project(tmp_path)
    site = tmp_path / "site"
    build(project=project, results=results, site_dir=site, log=quiet, use_cache=False, jobs=1)
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    monkeypatch.setattr(functions, "per_gpu_figure", _wrong_per_gpu)
    monkeypatch.setattr(Renderer, "render", UNAUDITED_RENDER)  # the build's own audit is to catch it
    with pytest.raises(BuildError) as err:
        build(project=project, results=results, site_dir=site, log=quiet, use_cache=False, jobs=1)
    lines = str(err.value).splitlines()
    assert lines[0] == "audit: 1 printed figure(s) disagree with the official results:"
    assert lines[1] == (
        "  content/tiny.md:11: article tiny, line 11, figure 1 (per_gpu, printed '10,100'): the ledger records "
        "10100.0; the official rows give 10000.0 (80000 / 8 accelerators (6.1-0001 gpt-oss-120b Server))"
    )
    assert lines[-1] == "the previous site is left as it was"
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == before
    # told not to audit, the same build publishes
    code, out = run_build(project, results, site, "--no-audit")
    assert code == 0, out
    assert "audit:" not in out


def run_build(project: Project, results: Path, site: Path, *args: str) -> tuple[int, str]:
    res = CliRunner().invoke(
        main,
        [
            "-f",
            str(project.mkdocs_yml),
            "build",
            "--results",
            str(results),
            "--site-dir",
            str(site),
            "--no-cache",
            *args,
        ],
    )
    return res.exit_code, res.output


def test_the_audit_reads_the_embedded_sample_by_default(tmp_path: Path) -> None:
    pub = tmp_path / "pub"
    assert CliRunner().invoke(main, ["init", str(pub)]).exit_code == 0
    site = tmp_path / "site"
    log: list[str] = []
    build(project=Project(pub), site_dir=site, log=log.append, use_cache=False, jobs=1)
    ledger = json.loads((site / "figures.json").read_text("utf-8"))
    assert any(line.startswith(f"audit: {len(ledger)} of {len(ledger)} figures") for line in log), log
    res = CliRunner().invoke(main, ["-f", str(pub / "mkdocs.yml"), "audit", str(site)])
    assert res.exit_code == 0, res.output
    assert res.output.startswith(f"audit: {len(ledger)} of {len(ledger)} figures re-derived")
    assert "; 0 mismatches (" in res.output
