"""The data layer on the official files of v5.1, v6.0 and v6.1."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import openpyxl
import pandas as pd
import pytest

from generator import workers
from generator.data.manifest import Manifest
from generator.data.results import COLUMNS, read_results
from generator.data.table import ResultsTable, Row
from generator.errors import LookupFailed, MissingRound


def test_all_three_rounds_load_with_their_row_counts(official: ResultsTable) -> None:
    counts = official.df.groupby("round").size().to_dict()
    assert counts == {"5.1": 1448, "6.0": 520, "6.1": 492}
    assert list(official.df.columns) == COLUMNS


def test_summary_lines_count_cpu_only_rows_and_waivers(official: ResultsTable) -> None:
    line = official.report("5.1").summary_line()
    assert line.endswith(
        "(summary_results); 877 CPU-only rows (no per-accelerator value); 24 rows with measured power; "
        "waivers applied: 5.1-0387"
    )
    assert line.startswith("v5.1: 1,448 rows from ")


@pytest.mark.parametrize(
    ("entry", "benchmark", "scenario", "per_gpu", "gpus"),
    [
        ("5.1-0072", "deepseek-r1", "Server", 2907, 72),
        ("5.1-0097", "deepseek-r1", "Offline", 6006, 8),
        ("6.0-0002", "gpt-oss-120b", "Server", 10267, 8),
        ("6.1-0003", "gpt-oss-120b", "Server", 14155, 8),
        ("6.1-0052", "gpt-oss-120b", "Server", 14211, 8),
        ("6.1-0027", "gpt-oss-120b", "Offline", 11229, 512),
        ("6.1-0107", "deepseek-r1", "Server", 16427, 36),
        ("6.1-0073", "deepseek-r1", "Offline", 9393, 288),
    ],
)
def test_per_accelerator_values_match_the_reference_article(
    official: ResultsTable, entry: str, benchmark: str, scenario: str, per_gpu: int, gpus: int
) -> None:
    row = official.lookup(entry, benchmark, scenario)
    assert round(row.per_accelerator) == per_gpu
    assert row.gpus == gpus


def test_total_is_per_node_times_nodes_when_total_is_absent(official: ResultsTable) -> None:
    row = official.lookup("5.1-0072", "deepseek-r1", "Server")  # a# 4 x 18 nodes, no total column
    assert (row.nodes, row.gpus, row.result) == (18, 72, 209328.0)


def test_preview_row_keeps_its_category(official: ResultsTable) -> None:
    assert official.lookup("5.1-0097", "deepseek-r1", "Offline").category == "preview"


def test_available_8gpu_b300_gpt_oss_server_rows(official: ResultsTable) -> None:
    sel = official.select(
        round="6.1",
        category="available",
        benchmark="gpt-oss-120b",
        scenario="Server",
        family="B300",
        gpus=8,
    )
    assert len(sel) == 14
    assert round(sel["per_accelerator"].min()) == 12523
    assert round(sel["per_accelerator"].max()) == 14211
    low, high, rows = official.spread(
        round="6.1",
        category="available",
        benchmark="gpt-oss-120b",
        scenario="Server",
        family="B300",
        gpus=8,
    )
    assert (low.result_id, high.result_id, len(rows)) == ("6.1-0091", "6.1-0052", 14)


def test_best_median_and_family_filters(official: ResultsTable) -> None:
    best = official.best(
        round="6.1", category="available", benchmark="gpt-oss-120b", scenario="Server", family="GB300", gpus=8
    )
    assert best.result_id == "6.1-0075"
    med, rows = official.median(
        round="6.1",
        category="available",
        benchmark="gpt-oss-120b",
        scenario="Server",
        family="MI355X",
        gpus=8,
    )
    assert len(rows) == 8
    assert 13604 < med < 14155


def test_latency_results_are_never_divided(official: ResultsTable) -> None:
    lat = official.df[official.df["units"].str.startswith("Latency")]
    assert len(lat) > 0
    assert lat["per_accelerator"].isna().all()
    assert not lat["higher_is_better"].any()


def test_heterogeneous_system_is_marked_and_left_out_by_default(official: ResultsTable) -> None:
    row = official.lookup("6.1-0016", "gpt-oss-120b", "Server")
    assert (row.family, row.heterogeneous) == ("H200+MI350X", True)
    sel = official.select(round="6.1", benchmark="gpt-oss-120b", scenario="Server")
    assert "6.1-0016" not in set(sel["result_id"])


def test_scenario_and_benchmark_spellings_are_normalized(official: ResultsTable) -> None:
    v61 = official.df[official.df["round"] == "6.1"]
    assert set(v61["scenario"]) <= {"Offline", "Server", "Interactive", "SingleStream", "MultiStream"}
    assert "llama3_1-8b" not in set(v61["benchmark"])
    assert "llama3_1-8b" in set(v61["benchmark_raw"])


def test_lookup_errors_say_what_exists(official: ResultsTable) -> None:
    with pytest.raises(LookupFailed) as exc:
        official.lookup("6.1-0052", "gpt-oss-120b", "Interactive")
    assert exc.value.message == (
        "entry 6.1-0052 has no gpt-oss-120b Interactive result; it ran: gpt-oss-120b (Offline, Server)"
    )
    with pytest.raises(LookupFailed) as exc:
        official.lookup("6.1-9999", "gpt-oss-120b", "Server")
    assert exc.value.message.startswith("entry 6.1-9999 is not in round v6.1 (")


def test_lookup_in_a_round_that_is_not_loaded(
    official: ResultsTable, manifest: Manifest, shared_dir: Path
) -> None:
    only = ResultsTable.from_dir(shared_dir, manifest, rounds=["6.1"])
    with pytest.raises(MissingRound) as exc:
        only.lookup("6.0-0002", "gpt-oss-120b", "Server")
    assert exc.value.message == (
        f"entry 6.0-0002 needs round v6.0, which is not loaded in {shared_dir}: pass --results DIR "
        "with a v6.0/ folder, or run `gpu-insights fetch 6.0`"
    )


def test_checker_csv_matches_the_json_rows_without_ids(manifest: Manifest, shared_dir: Path) -> None:
    csv_df, rep = read_results(shared_dir / "v6.1" / "summary.csv", manifest)
    json_df, _ = read_results(shared_dir / "v6.1" / "summary_results.json", manifest)
    assert len(csv_df) == 492 and rep.version == "6.1"
    assert csv_df["id_missing"].all() and (csv_df["result_id"] == "").all()
    assert csv_df["source_row"].iloc[0] == "line 2"
    key = ["submitter", "platform", "system", "division", "benchmark", "scenario", "result"]
    merged = csv_df.merge(json_df, on=key, suffixes=("_csv", "_json"))
    assert len(merged) == 492
    assert (merged["per_accelerator_csv"].fillna(-1) == merged["per_accelerator_json"].fillna(-1)).all()


def test_lookup_on_an_id_less_round_explains_why(
    manifest: Manifest, shared_dir: Path, tmp_path: Path
) -> None:
    (tmp_path / "v6.1").mkdir()
    shutil.copy(shared_dir / "v6.1" / "summary.csv", tmp_path / "v6.1" / "summary.csv")
    table = ResultsTable.from_dir(tmp_path, manifest)
    with pytest.raises(LookupFailed) as exc:
        table.lookup("6.1-0052", "gpt-oss-120b", "Server")
    assert "the submission checker's summary, which carries no result IDs" in exc.value.message


def test_checker_json_twin_loads_like_the_csv(manifest: Manifest, shared_dir: Path, tmp_path: Path) -> None:
    import csv

    with (shared_dir / "v6.1" / "summary.csv").open(newline="", encoding="utf-8") as fh:
        records = list(csv.DictReader(fh))
    twin = tmp_path / "summary.json"
    twin.write_text(json.dumps(records), encoding="utf-8")
    df, rep = read_results(twin, manifest)
    assert len(df) == 492 and rep.shape == "submission checker summary"
    assert df["source_row"].iloc[3] == "index 3"


def test_xlsx_with_the_json_columns_loads(manifest: Manifest, shared_dir: Path, tmp_path: Path) -> None:
    records = json.loads((shared_dir / "v6.1" / "summary_results.json").read_text("utf-8"))
    picked = [r for r in records if r["ID"] in ("6.1-0052", "6.1-0027", "6.1-0016")]
    header = list(picked[0].keys())
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(header)
    for r in picked:
        ws.append([r.get(h) for h in header])
    path = tmp_path / "summary.xlsx"
    wb.save(path)
    df, rep = read_results(path, manifest)
    assert rep.version == "6.1" and len(df) == len(picked)
    table = ResultsTable(df, [rep], manifest=manifest)
    assert round(table.lookup("6.1-0052", "gpt-oss-120b", "Server").per_accelerator) == 14211
    assert round(table.lookup("6.1-0027", "gpt-oss-120b", "Offline").per_accelerator) == 11229
    assert df["source_row"].iloc[0] == "row 2"


def test_division_filter_counts_skipped_rows(manifest: Manifest, shared_dir: Path) -> None:
    df, rep = read_results(shared_dir / "v6.1" / "summary_results.json", manifest, divisions=["closed"])
    assert len(df) == 476
    assert rep.skipped == {"open-division": 16}
    assert "16 open-division rows skipped" in rep.summary_line()


def test_one_job_loads_every_round_in_this_process(
    official: ResultsTable, manifest: Manifest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--jobs 1`` means one process: rounds are not read by a pool of workers then."""

    def refuse(*args: object, **kw: object) -> None:
        raise AssertionError("a worker pool was started with one job")

    monkeypatch.setattr(workers, "_Shared", refuse)
    assert official.results_dir is not None
    one = ResultsTable.from_dir(official.results_dir, manifest, jobs=1)
    assert one.df.equals(official.df)


def test_rows_hold_the_values_a_data_frame_gives_whatever_each_columns_type(official: ResultsTable) -> None:
    """Rows are made from column arrays taken once; each field holds what ``Series.tolist``
    gives, for NumPy, Python-string, nullable, categorical and date columns alike."""
    df = official.df.head(6).copy()
    df["nodes"] = df["nodes"].astype("Int64")
    df["units"] = df["units"].astype("category")
    df["software"] = pd.to_datetime(["2026-01-0" + str(i) for i in range(1, 7)])
    df.loc[2, "nodes"] = pd.NA
    table = ResultsTable(df)
    rows = table.rows_at([4, 2, 0])
    for row, i in zip(rows, [4, 2, 0], strict=True):
        want = {f: df[f].tolist()[i] for f in Row.__dataclass_fields__}
        got = {f: getattr(row, f) for f in Row.__dataclass_fields__}
        assert {f: (type(v), repr(v)) for f, v in got.items()} == {
            f: (type(v), repr(v)) for f, v in want.items()
        }
    assert rows[1].nodes is pd.NA and isinstance(rows[0].software, pd.Timestamp)
    assert table.rows_at([2]) == [rows[1]] and table.rows_at([2])[0] is rows[1]  # made once


def test_a_fingerprint_follows_exactly_the_rows_behind_its_key(official: ResultsTable) -> None:
    """A cached article is rendered again when a value it could have read changes (even in
    the last digit of a float, or a missing count), and only then; where a row was read from
    is not part of it."""
    df = official.df.copy()
    df["nodes"] = df["nodes"].astype("Int64")
    keys = [("6.1", "gpt-oss-120b"), ("6.1", "*"), ("*", "gpt-oss-120b"), ("6.0", "gpt-oss-120b")]
    before = ResultsTable(df, manifest=official.manifest).fingerprint(keys)
    assert len(set(before.values())) == len(keys)
    assert ResultsTable(df.copy(), manifest=official.manifest).fingerprint(keys) == before

    i = int(df.index[(df["round"] == "6.1") & (df["benchmark"] == "gpt-oss-120b")][0])
    moved = df.copy()
    moved["source_row"] = moved["source_row"].astype(str) + "x"
    assert ResultsTable(moved, manifest=official.manifest).fingerprint(keys) == before
    edits = [("result", np.nextafter(df.at[i, "result"], np.inf)), ("nodes", pd.NA), ("system", "X")]
    for column, value in edits:
        changed = df.copy()
        changed.at[i, column] = value
        after = ResultsTable(changed, manifest=official.manifest).fingerprint(keys)
        changed_keys = {k for k in before if after[k] != before[k]}
        assert changed_keys == {"6.1|gpt-oss-120b", "6.1|*", "*|gpt-oss-120b"}, column
