"""The MLPerf® Compatibility Table, whole: ``data/compatibility.toml`` agrees with MLCommons' table
cell for cell, and the query API, the reference pages and the checker read its spans."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from generator.article.functions import Library, Prices
from generator.article.render import Renderer
from generator.check import CheckConfig, Checker, check_rendered
from generator.data.compat import Compatibility, load_compatibility
from generator.data.manifest import Manifest, load_manifest, load_rules, read_toml
from generator.data.table import ResultsTable
from generator.errors import ManifestError

from .conftest import ROOT, shared_reference_dir

DATA = ROOT / "data" / "compatibility.toml"


# ---------------------------------------------------------------- the table as MLCommons writes it
def parse_adoc_tables(text: str) -> dict[str, dict[str, list[str]]]:
    """The Inference section's tables of the AsciiDoc Compatibility Table: suite -> model -> one
    cell per column, each "N/A" or "X<k>" (k numbers the row's merged X cells: one span each).
    Written here independently of the project's loader. A row with more cells than the table has
    columns keeps only cells that fall inside it (the Edge DLRM row has 14 for 13 rounds)."""
    inference = text.split("== Inference", 1)[1].split("\n== ", 1)[0]
    out: dict[str, dict[str, list[str]]] = {}
    for suite, body in re.findall(r"^(Datacenter|Edge)\s*\n\|===\n(.*?)\n\|===", inference, re.M | re.S):
        lines = [line for line in body.splitlines() if line.strip()]
        columns = [c.strip() for c in lines[0].split("|")[1:]][1:]
        rows: dict[str, list[str]] = {}
        for line in lines[1:]:
            pieces = line.strip().split("|")[1:]
            model, cells, span, spans = "", [], 1, 0
            for i, piece in enumerate(pieces):
                m = re.fullmatch(r"\s*(.*?)\s*(?:(\d+)\+)?\s*", piece)
                assert m, line
                if i == 0:
                    model = m.group(1)
                else:
                    spans += m.group(1) == "X"
                    cells += [f"X{spans}" if m.group(1) == "X" else m.group(1)] * span
                span = int(m.group(2) or 1)
            assert all(c == "N/A" for c in cells[len(columns) :]), (suite, model)
            rows[model] = cells[: len(columns)]
        out[suite.lower()] = {"columns": columns, **rows}
    return out


def project_cells(compat: Compatibility, suite: str) -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {"columns": list(compat.columns)}
    for r in compat.rows:
        if r.suite == suite:
            rows[r.model] = [
                next((f"X{k}" for k, s in enumerate(r.spans, 1) if s.holds(v)), "N/A") for v in compat.columns
            ]
    return rows


def table_text() -> str:
    return (shared_reference_dir() / "MLPerf_Compatibility_Table.adoc").read_text("utf-8")


@pytest.mark.parametrize("suite", ["datacenter", "edge"])
def test_the_project_data_agree_with_the_compatibility_table_cell_for_cell(suite: str) -> None:
    table = parse_adoc_tables(table_text())
    compat = load_compatibility(DATA, read_toml(DATA))
    assert project_cells(compat, suite) == table[suite]


def test_the_project_data_hold_the_inference_notes_of_the_table() -> None:
    inference = table_text().split("== Inference", 1)[1].split("\n== ", 1)[0]
    notes = [n.strip() for n in re.findall(r"^Note:(.*)$", inference, re.M)]
    compat = load_compatibility(DATA, read_toml(DATA))
    assert sorted(n.text for n in compat.notes) == sorted(notes)


def test_every_benchmark_of_the_shared_results_in_two_rounds_has_a_row(official: ResultsTable) -> None:
    compat = load_compatibility(DATA, read_toml(DATA))
    df = official.df
    rounds = df.groupby(["suite", "benchmark"])["round"].nunique()
    assert [k for k, n in rounds.items() if n > 1 and compat.row(k[1], k[0]) is None] == []


# ---------------------------------------------------------------- verdicts
@pytest.mark.parametrize(
    ("benchmark", "suite", "old", "new", "scenario", "ok"),
    [
        ("whisper", "datacenter", "5.1", "6.0", "", True),  # one span
        ("whisper", "datacenter", "5.1", "6.1", "", True),  # continued by v6.1's compatible_with
        ("retinanet", "datacenter", "5.1", "6.1", "", False),  # its span ends at v5.1
        ("stable-diffusion-xl", "datacenter", "5.1", "6.1", "", False),  # Datacenter: v4.0-v5.1
        ("stable-diffusion-xl", "edge", "5.1", "6.1", "", True),  # Edge: v4.0-v6.0
        ("gpt-oss-120b", "datacenter", "5.1", "6.1", "", False),  # not run before v6.0
        ("resnet", "edge", "1.1", "2.0", "MultiStream", False),  # the MultiStream note
        ("resnet", "edge", "1.1", "2.0", "Offline", True),
        ("resnet", "datacenter", "5.0", "5.1", "", False),  # N/A in v5.1's Datacenter column
        ("e2e-rag-db", "datacenter", "6.0", "6.1", "", None),  # not in the table
    ],
)
def test_verdicts(
    manifest: Manifest, benchmark: str, suite: str, old: str, new: str, scenario: str, ok: bool | None
) -> None:
    assert manifest.comparable(benchmark, suite, old, new, scenario).ok is ok


def test_a_verdict_quotes_the_row(manifest: Manifest) -> None:
    assert manifest.comparable("retinanet", "datacenter", "5.1", "6.1").why == (
        "the Compatibility Table's Inference Datacenter row 'RetinaNet-ResNeXt50' (compatible: v2.1–v5.1) "
        "ends the span that holds v5.1 at v5.1, before v6.1"
    )


def test_a_round_newer_than_the_table_needs_the_publishers_word(manifest: Manifest) -> None:
    rounds = {**manifest.rounds, "6.1": dataclasses.replace(manifest.rounds["6.1"], compatible_with=("6.0",))}
    m = dataclasses.replace(manifest, rounds=rounds)
    assert m.comparable("whisper", "datacenter", "6.0", "6.1").ok is True
    assert m.comparable("whisper", "datacenter", "5.1", "6.1").why == (
        "v6.1 is newer than the Compatibility Table, and data/rounds.toml does not list v5.1 as compatible with it"
    )


# ---------------------------------------------------------------- the loader
def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "compatibility.toml"
    p.write_text(text, "utf-8")
    return p


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('columns = ["5.0", "4.1"]', "columns: the rounds must be in ascending order, each once"),
        (
            'columns = ["5.1", "6.0"]\n[[edge]]\nmodel = "W"\nbenchmarks = ["whisper"]\nspans = ["5.1-6.1"]',
            "edge row 'W': spans: '5.1-6.1': v6.1 is not one of the table's columns",
        ),
        (
            'columns = ["5.1", "6.0"]\n[[edge]]\nmodel = "W"\nbenchmarks = ["whisper"]\nspans = ["5.1-6.0", "6.0"]',
            "edge row 'W': spans: v5.1–v6.0 and v6.0 overlap or are out of order",
        ),
        (
            'columns = ["6.0"]\n[[datacenter]]\nmodel = "A"\nbenchmarks = ["x"]\nspans = []\n'
            '[[datacenter]]\nmodel = "B"\nbenchmarks = ["x"]\nspans = []',
            "datacenter row 'B': benchmark 'x' is already in row 'A'",
        ),
        (
            'columns = ["6.0"]\n[[note]]\ntext = "t"\napplies = "scenario"',
            "note #1: a scenario note needs scenario, until and from",
        ),
    ],
)
def test_a_malformed_table_is_refused_naming_the_row(tmp_path: Path, body: str, message: str) -> None:
    p = write(tmp_path, body)
    with pytest.raises(ManifestError) as exc:
        load_compatibility(p, read_toml(p))
    assert exc.value.message == f"{p}: {message}"


def test_compatible_since_in_benchmarks_toml_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "benchmarks.toml"
    p.write_text('[bench.whisper]\ncompatible_since = "5.1"\n', "utf-8")
    with pytest.raises(ManifestError) as exc:
        load_rules(p)
    assert exc.value.message == (
        f"{p}: bench.whisper: compatible_since is no longer read: which rounds may be compared is "
        "recorded per suite in compatibility.toml (the MLPerf® Compatibility Table)"
    )


# ---------------------------------------------------------------- the query API and the checker
def library(manifest: Manifest, table: ResultsTable) -> Library:
    return Library(table, manifest, Prices.load(ROOT / "data" / "prices.toml"))


def test_series_and_gains_follow_the_spans(manifest: Manifest, official: ResultsTable) -> None:
    lib = library(manifest, official)
    s = lib.series("whisper", "Offline", suite="datacenter", category="available")
    assert [(p.round, p.breaks) for p in s] == [("5.1", False), ("6.0", False), ("6.1", False)]
    gains = lib.gains(round="6.1", since="5.1", suite="datacenter", category="available")
    assert {g.benchmark for g in gains} >= {"whisper", "llama2-70b-99.9", "deepseek-r1", "llama3.1-8b"}


ARTICLE = """---
title: "Whisper, two rounds"
date: 2026-10-20
rounds: ["5.1", "6.1"]
---

Among eight-GPU Available systems of the Closed Datacenter suite, Whisper Offline went from
{{ per_gpu("5.1-0069", "whisper", "Offline") }} samples per second per GPU in MLPerf® Inference v5.1
(entry {{ entry("5.1-0069", "whisper", "Offline") }}) to {{ per_gpu("6.1-0104", "whisper", "Offline") }}
in v6.1 (entry {{ entry("6.1-0104", "whisper", "Offline") }}), {{ pct_change(per_gpu("6.1-0104", "whisper", "Offline"), per_gpu("5.1-0069", "whisper", "Offline")) }}.{{ cite() }}

{{ footnotes() }}

{{ compliance() }}
"""


def check_with(tmp_path: Path, manifest: Manifest, official: ResultsTable) -> list[str]:
    art = tmp_path / "whisper.md"
    art.write_text(ARTICLE, "utf-8")
    checker = Checker(manifest, CheckConfig.load(ROOT / "data" / "check.toml"), official)
    found, _ = check_rendered(Renderer(library(manifest, official)), checker, [art])
    return [f"{f.rule} {f.message}" for f in found]


def edited(manifest: Manifest, tmp_path: Path, old: str, new: str) -> Manifest:
    """The manifest with a publication's own edition of the table (*old* replaced by *new*)."""
    text = DATA.read_text("utf-8")
    assert old in text
    p = write(tmp_path, text.replace(old, new))
    return dataclasses.replace(manifest, compat=load_compatibility(p, read_toml(p)))


def test_a_comparison_inside_one_span_has_no_finding(
    tmp_path: Path, manifest: Manifest, official: ResultsTable
) -> None:
    assert check_with(tmp_path, manifest, official) == []


def test_a_comparison_across_a_spans_end_is_mlp009_quoting_the_row(
    tmp_path: Path, manifest: Manifest, official: ResultsTable
) -> None:
    m = edited(
        manifest,
        tmp_path,
        'model = "Whisper"\nbenchmarks = ["whisper"]\nspans = ["5.1-6.0"]\n\n[[datacenter]]',
        'model = "Whisper"\nbenchmarks = ["whisper"]\nspans = ["5.1", "6.0"]\n\n[[datacenter]]',
    )
    assert check_with(tmp_path, m, official) == [
        "MLP009 17.5% compares whisper across v5.1, v6.1; the Compatibility Table's Inference Datacenter "
        "row 'Whisper' (compatible: v5.1, v6.0) ends the span that holds v5.1 at v5.1, before v6.1"
    ]


def test_a_benchmark_the_table_does_not_list_is_mlp010(
    tmp_path: Path, manifest: Manifest, official: ResultsTable
) -> None:
    m = edited(
        manifest,
        tmp_path,
        'benchmarks = ["whisper"]\nspans = ["5.1-6.0"]\n\n[[datacenter]]',
        'benchmarks = []\nspans = ["5.1-6.0"]\n\n[[datacenter]]',
    )
    assert check_with(tmp_path, m, official) == [
        "MLP010 17.5% compares whisper across v5.1, v6.1, and the Compatibility Table lists no whisper row "
        "in its Inference Datacenter table"
    ]


def test_the_default_manifest_reads_the_packaged_table() -> None:
    assert load_manifest().compat.row("deepseek-r1", "datacenter") is not None
