"""The queries of templates in plain Python (issue 36, speed): over the rows read back from the
rows cache (what ``check`` reads, without pandas) they give the loaded table's answers, rows,
order, errors and fingerprints; those are the rows DataFrame masks select; and a ``check`` of a
template imports neither pandas nor numpy once the rows are cached."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from generator.data.manifest import Manifest
from generator.data.row import Row
from generator.data.rowcache import _valid, dumps
from generator.data.rowquery import RowQueries
from generator.data.rowtable import FIELDS, RowTable
from generator.data.table import ResultsTable
from generator.errors import GpuInsightsError

from .conftest import ROOT, official_project

GPT = "gpt-oss-120b"
#: selections of every kind: a round's partition, a whole round, no round (every row), lists,
#: exclusions, counts and bounds, kinds and members of joint submissions, suites, no division
SELECTIONS: list[dict[str, Any]] = [
    {"round": "6.1", "benchmark": GPT, "scenario": "Server"},
    {"round": "v6.1", "benchmark": "llama2-70b-99.9", "scenario": "Offline", "gpus": 8},
    {"round": "6.0", "benchmark": "deepseek-r1", "scenario": "Server", "kind": ["cloud", "neocloud"]},
    {"round": "5.1", "benchmark": "llama2-70b-99", "scenario": "Server", "min_gpus": 16, "max_nodes": 4},
    {"round": "6.1", "scenario": "Offline", "division": None, "heterogeneous": True},
    {"round": "6.1", "heterogeneous": "only", "division": None},
    {"round": "5.1", "member": "AMD", "division": None},
    {"round": "6.1", "suite": "edge", "category": "Available"},
    {"round": "6.1", "benchmark": GPT, "exclude": {"submitter": ["Dell", "Nebius"], "family": "B200"}},
    {"round": "6.0", "benchmark": [GPT, "llama2-70b-99"], "scenario": "Server", "has_power": False},
    {"benchmark": GPT, "scenario": "Server"},
    {"submitter": "Dell AMD", "division": None},
    {"entry": ["6.1-0052", "5.1-0062"], "division": None},
    {"family": "B300", "nodes": [1, 2], "units": "Tokens/s"},
    {"division": "open"},
]
#: what fails, and how (the same words whichever rows answer)
FAILURES: list[tuple[str, dict[str, Any]]] = [
    ("ranked", {"round": "6.1", "benchmark": "gpt-oss", "scenario": "Server"}),
    ("ranked", {"round": "6.1", "benchmark": "llama2-70b-99", "submitter": "Nvidai"}),
    ("ranked", {"benchmark": GPT, "family": "B3OO", "kind": "clouds"}),
    ("median", {"round": "6.1", "division": None}),
    ("select_rows", {"round": "7.0"}),
    ("select_rows", {"round": "6.1", "gpu": 8}),
    ("select_rows", {"round": "6.1", "exclude": {"min_gpus": 8}}),
    ("ranked", {"round": "6.1", "benchmark": GPT, "by": "x"}),
]


def cached(table: ResultsTable, manifest: Manifest) -> RowQueries:
    """The queries of *table*'s rows written to the rows cache's text and read back from it."""
    text = dumps(table.row_table, table.results_dir or ROOT, "digest")
    assert text is not None
    kept = _valid(text.encode(), table.results_dir or ROOT, "digest")
    assert kept is not None
    return RowQueries(RowTable.from_columns(*kept, results_dir=table.results_dir), manifest)


@pytest.fixture(scope="module")
def from_cache(official: ResultsTable, manifest: Manifest) -> RowQueries:
    return cached(official, manifest)


def exact(rows: list[Row]) -> list[tuple[str, ...]]:
    """Every field of every row, as repr() prints it (power too, which rows do not compare)."""
    return [tuple(repr(getattr(r, f)) for f in FIELDS) for r in rows]


def outcome(call: Any) -> object:
    try:
        return call()
    except GpuInsightsError as exc:
        return (type(exc).__name__, exc.message)


def test_the_cached_rows_answer_every_selection_as_the_loaded_table(
    official: ResultsTable, from_cache: RowQueries
) -> None:
    for f in SELECTIONS:
        want = official.select_rows(**dict(f))
        assert want, f
        assert exact(from_cache.select_rows(**dict(f))) == exact(want), f
        for by in ("per_gpu", "total", "gpus"):
            fs = {**f, "benchmark": f.get("benchmark", GPT), "scenario": f.get("scenario", "Server")}
            got = outcome(lambda: exact(from_cache.ranked(by=by, **dict(fs))))  # noqa: B023
            assert got == outcome(lambda: exact(official.ranked(by=by, **dict(fs)))), (f, by)  # noqa: B023
    some = {"round": "6.1", "benchmark": GPT, "scenario": "Offline"}
    assert from_cache.median(**some)[0] == official.median(**some)[0] == 13762.15625
    assert exact(list(from_cache.spread(**some))[:2]) == exact(list(official.spread(**some))[:2])
    for entry, bench, scen in [("6.1-0052", GPT, "Server"), ("5.1-0062", "llama3.1-8b", "Offline")]:
        assert exact([from_cache.lookup(entry, bench, scen)]) == exact([official.lookup(entry, bench, scen)])
    assert from_cache.names("submitters", "6.0") == official.names("submitters", "6.0")
    assert from_cache.rounds == official.rounds == ["5.1", "6.0", "6.1"]


def test_a_median_is_numpys_median_of_every_benchmark_and_scenario(official: ResultsTable) -> None:
    """statistics.median, as numpy's median was (the mean of the middle two of an even count)."""
    df = official.df
    parts = df[["round", "benchmark", "scenario"]].drop_duplicates().itertuples(index=False)
    medians = 0
    for rnd, bench, scen in parts:
        try:
            value, rows = official.median(round=rnd, benchmark=bench, scenario=scen)
        except GpuInsightsError:
            continue
        col = "per_accelerator" if rows[0].higher_is_better else "result"
        assert value == float(np.median([getattr(r, col) for r in rows])), (rnd, bench, scen)
        medians += 1
    assert medians > 100


def test_the_cached_rows_fail_with_the_loaded_tables_words(
    official: ResultsTable, from_cache: RowQueries, shared_dir: Path
) -> None:
    for name, f in FAILURES:
        want = outcome(lambda: getattr(official, name)(**dict(f)))  # noqa: B023
        assert isinstance(want, tuple), (name, f)
        assert outcome(lambda: getattr(from_cache, name)(**dict(f))) == want, (name, f)  # noqa: B023
    assert outcome(lambda: from_cache.ranked(round="6.1", benchmark="llama2-70b-99", submitter="Nvidai")) == (
        "LookupFailed",
        "no results match round='6.1', benchmark='llama2-70b-99', submitter='Nvidai'; no benchmark "
        "'llama2-70b-99' in round v6.1: did you mean 'llama2-70b-99.9'?; no submitter 'Nvidai' in round "
        "v6.1 (list them: `gpu-insights data --list submitters`)",
    )
    assert outcome(lambda: from_cache.lookup("6.1-9999", GPT, "Server")) == (
        "LookupFailed",
        f"entry 6.1-9999 is not in round v6.1 ({shared_dir}/v6.1/summary_results.json)",
    )
    assert outcome(lambda: from_cache.lookup("6.1-0052", "llama2-70b-99", "Server")) == outcome(
        lambda: official.lookup("6.1-0052", "llama2-70b-99", "Server")
    )


def test_an_entry_of_a_round_read_from_the_checkers_summary_is_refused_in_the_same_words(
    tmp_path: Path, shared_dir: Path, manifest: Manifest
) -> None:
    (tmp_path / "v6.1").mkdir()
    (tmp_path / "v6.1" / "summary.csv").symlink_to(shared_dir / "v6.1" / "summary.csv")
    table = ResultsTable.from_dir(tmp_path, manifest)
    want = (
        "LookupFailed",
        f"entry 6.1-0052: round v6.1 was loaded from {tmp_path}/v6.1/summary.csv, the submission "
        "checker's summary, which carries no result IDs; use the round's summary_results.json or "
        "summary.xlsx to cite entries",
    )
    assert outcome(lambda: table.lookup("6.1-0052", GPT, "Server")) == want
    assert outcome(lambda: cached(table, manifest).lookup("6.1-0052", GPT, "Server")) == want


def test_selections_are_the_rows_dataframe_masks_select_in_table_order(
    official: ResultsTable, manifest: Manifest
) -> None:
    df = official.df
    kinds = df["submitter"].map(manifest.submitters.kind)
    closed, alone = df["division"] == "closed", ~df["heterogeneous"]
    masks = {
        0: (df["round"] == "6.1") & (df["benchmark"] == GPT) & (df["scenario"] == "Server") & closed & alone,
        2: (df["round"] == "6.0")
        & (df["benchmark"] == "deepseek-r1")
        & (df["scenario"] == "Server")
        & (kinds.str.contains("|cloud|", regex=False) | kinds.str.contains("|neocloud|", regex=False))
        & closed
        & alone,
        3: (df["round"] == "5.1")
        & (df["benchmark"] == "llama2-70b-99")
        & (df["scenario"] == "Server")
        & (df["total_accelerators"] >= 16)
        & (df["nodes"] <= 4)
        & closed
        & alone,
        5: (df["round"] == "6.1") & df["heterogeneous"],
        10: (df["benchmark"] == GPT) & (df["scenario"] == "Server") & closed & alone,
        11: df["submitter"] == "Dell_AMD",
        14: (df["division"] == "open") & alone,
    }
    for i, mask in masks.items():
        want = df[mask].index.tolist()
        assert want, SELECTIONS[i]
        assert [official.position_of(r) for r in official.select_rows(**dict(SELECTIONS[i]))] == want
        pd.testing.assert_frame_equal(official.select(**dict(SELECTIONS[i])), df[mask])


def test_the_loaded_table_and_the_cached_rows_have_the_same_fingerprints(
    official: ResultsTable, from_cache: RowQueries
) -> None:
    """A rendering cached by ``build`` is reused by ``check`` (and the other way round)."""
    keys = [("6.1", GPT), ("6.1", "*"), ("*", GPT), ("*", "*"), ("5.1", "nothing")]
    assert from_cache.fingerprint(keys) == official.fingerprint(keys)
    assert len(set(official.fingerprint(keys).values())) == len(keys)


def test_a_pickled_table_keeps_its_rows_not_its_views(official: ResultsTable) -> None:
    """What the table cache keeps: the DataFrame and where it came from (the views of its rows
    are made again); the same answers after."""
    official.digest = "d1"
    again = pickle.loads(pickle.dumps(official))
    assert again.digest == "d1" and again.reports == official.reports and again.manifest == official.manifest
    f = SELECTIONS[0]
    assert again.select_rows(**dict(f)) == official.select_rows(**dict(f))
    assert (
        again.rows_at([3]) == official.rows_at([3]) and again.rows_at([3])[0] is not official.rows_at([3])[0]
    )
    assert RowTable.of(again) is again.row_table


def test_a_check_of_a_template_imports_neither_pandas_nor_numpy(tmp_path: Path, shared_dir: Path) -> None:
    """Once the rows are cached (the first check), a check of the reference article (its charts
    from the chart cache) imports no pandas, numpy, altair nor the site builder, and finds what
    the first found; so does a check of it edited (rendered again)."""
    project = official_project(tmp_path / "pub")
    article = project.content_dir / "mlperf-inference-v6.1-per-gpu.md"
    code = (
        "import sys; from generator.cli import main\n"
        "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
        "ran = [m for m in ('pandas', 'numpy', 'altair', 'mkdocs', 'generator.site.build') if m in sys.modules\n"
        "       and type(sys.modules[m]).__name__ != '_LazyModule']  # a lazy module not yet run\n"
        "print(ran, code)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    cmd = [sys.executable, "-c", code, "check", str(article), "--results", str(shared_dir)]

    def check() -> list[str]:
        done = subprocess.run(cmd, cwd=project.root, env=env, capture_output=True, text=True)
        assert done.returncode in (0, 1), done.stderr
        return done.stdout.splitlines()

    first = check()
    assert "'pandas'" in first[-1]  # the rows loaded from the files, the charts drawn
    second = check()
    assert second[-1].startswith("[] ")
    assert second[:-1] == first[:-1]
    article.write_text(article.read_text("utf-8") + "\nEdited.\n", "utf-8")
    edited = check()
    assert edited[-1] == second[-1] and edited[:-1] == first[:-1]
