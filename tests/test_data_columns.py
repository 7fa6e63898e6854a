"""The column reader (generator.data.columns) gives the row reader's rows, or gives up."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.data.columns import file_columns
from generator.data.manifest import Manifest, load_manifest
from generator.data.results import (
    CHECKER_FIELDS,
    COLUMNS,
    RESULTS_FIELDS,
    LoadReport,
    _Raw,
    _RowReader,
    read_records,
)
from tests.conftest import shared_results_dir

MANIFEST: Manifest = load_manifest()
JSON = shared_results_dir() / "v6.1" / "summary_results.json"
CSV = shared_results_dir() / "v6.1" / "summary.csv"


def _reader(cols: dict[str, str], path: Path, version: str) -> _RowReader:
    report = LoadReport(path=path, version=version, shape="test")
    return _RowReader(cols, path, MANIFEST, MANIFEST.rounds.get(version), report)


def _both(records: list[_Raw], cols: dict[str, str], path: Path, version: str) -> tuple[Any, ...]:
    """(columns or None, its reader, the row reader's rows, the row reader)."""
    fast = _reader(cols, path, version)
    columns = file_columns(records, fast, version)
    slow = _reader(cols, path, version)
    rows = [row for raw in records if (row := slow.row(raw, version, None, None)) is not None]
    return columns, fast, rows, slow


def _same(
    columns: dict[str, list[Any]], fast: _RowReader, rows: list[dict[str, Any]], slow: _RowReader
) -> None:
    assert not slow.problems.items
    pd.testing.assert_frame_equal(
        pd.DataFrame(columns, columns=COLUMNS), pd.DataFrame(rows, columns=COLUMNS), check_exact=True
    )
    assert fast.report == slow.report
    assert fast.file_versions == slow.file_versions


@pytest.mark.parametrize("path", [JSON, CSV], ids=["summary_results.json", "summary.csv"])
def test_an_official_file_with_no_problem_is_read_column_by_column_into_the_row_readers_rows(
    path: Path,
) -> None:
    records, cols = read_records(path)
    columns, fast, rows, slow = _both(records, cols, path, "6.1")
    assert columns is not None  # the file has no problem: not left to the row reader
    _same(columns, fast, rows, slow)
    assert len(rows) == 492


def test_a_file_with_a_problem_or_a_waiver_is_left_to_the_row_reader(manifest: Manifest) -> None:
    records, cols = read_records(JSON)
    broken = copy.deepcopy(records)
    broken[7].values["Performance_Result"] = -1.0
    assert file_columns(broken, _reader(cols, JSON, "6.1"), "6.1") is None
    waived = shared_results_dir() / "v6.0" / "summary_results.json"  # rounds.toml waives two of its rows
    records, cols = read_records(waived)
    assert MANIFEST.rounds["6.0"].waivers
    assert file_columns(records, _reader(cols, waived, "6.0"), "6.0") is None


#: values a field may hold in a file: valid ones of other spellings, and hostile ones
VALUES = st.one_of(
    st.sampled_from(
        [
            "",
            " ",
            None,
            True,
            False,
            0,
            1,
            8,
            8.0,
            "8",
            " 8 ",
            "8.0",
            "2.5",
            "1,024",
            "113685,0",
            "113.685,0",
            "1_000",
            "\u0663",
            "+8",
            "1e3",
            "-1",
            "inf",
            "NaN",
            "n/a",
            1e400,
            float("nan"),
            10**400,
            "x" * 1001,
            "closed",
            "Open",
            "preview",
            "RDI",
            "edge",
            "datacenter,edge",
            " Edge, Datacenter ",
            "datacenter,mobile",
            "resnet50",
            "mobilenet-v1-precision_float-1.0-224",
            "server",
            "Offline",
            "Tokens/s",
            "Latency (ms)",
            "Watts",
            "millijoules",
            " MJ ",
            "6.1-0001",
            "6.0-0001",
            "6.1-01",
            "v6.1-0001",
            "v6.0-0001",
            "v6.1",
            "v6.0",
            "8x B300",
            "NVIDIA B300-SXM-270GB",
            "AMD Instinct MI355X 288GB HBM3e",
            "CPU only",
            "a\tb\x00",
            [1],
            {"a": 1},
        ]
    ),
    st.integers(min_value=-5, max_value=100_000),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)
EDITS = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=11),
        st.sampled_from(sorted({*RESULTS_FIELDS.values(), *CHECKER_FIELDS.values(), "UsedModel"})),
        st.one_of(VALUES, st.just(KeyError)),  # KeyError: the field taken out of the record
    ),
    max_size=4,
)


def _edited(path: Path, edits: list[tuple[int, str, object]]) -> tuple[list[_Raw], dict[str, str]]:
    records, cols = read_records(path)
    records = copy.deepcopy(records[:12])
    for i, key, value in edits:
        if value is KeyError:
            records[i].values.pop(key, None)
        else:
            records[i].values[key] = value
    return records, cols


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=EDITS, as_csv=st.booleans())
def test_edited_records_are_read_column_by_column_as_the_row_reader_reads_them_or_left_to_it(
    edits: list[tuple[int, str, object]], as_csv: bool
) -> None:
    """Whatever a few fields of twelve official records hold: the column reader gives exactly the
    row reader's rows, report and file versions, or gives up; it never gives rows the row reader
    finds a problem in."""
    path = CSV if as_csv else JSON
    records, cols = _edited(path, edits)
    columns, fast, rows, slow = _both(records, cols, path, "6.1")
    if columns is not None:
        _same(columns, fast, rows, slow)
    elif not edits:
        pytest.fail("twelve official records, unedited, were left to the row reader")


def test_a_hostile_edit_the_row_reader_accepts_can_still_be_read_column_by_column() -> None:
    """Not only unedited files: other spellings of valid values go through the column reader."""
    records, cols = _edited(
        JSON, [(0, "a#", "8"), (1, "Nodes", 1.0), (2, "Category", " Closed "), (3, "inferred", "yes")]
    )
    columns, fast, rows, slow = _both(records, cols, JSON, "6.1")
    assert columns is not None
    _same(columns, fast, rows, slow)
    assert columns["accelerators_per_node"][0] == 8
    assert columns["division"][2] == "closed"
    assert columns["inferred"][3] is True


@pytest.mark.parametrize(
    ("index", "key", "value"),
    [
        *[(0, k, "x" * 1001) for k in ("Submitter", "System", "Platform", "Accelerator", "Software")],
        (0, "Scenario", "Server"),  # then the same entry, benchmark and scenario as the next record
        (0, "Performance_Result", 1e-5),
        (0, "Performance_Result", 2e9),
        (6, "Performance_Result", 5e7),  # 6.25 million tokens/s per accelerator
        (0, "Performance_Result", "fast"),
        (0, "ID", "6.0-0001"),
        (0, "ID", "6.1-01"),
        (0, "ID", ""),
        (0, "Category", "edge"),
        (0, "Availability", "soon"),
        (0, "Scenario", "Sideways"),
        (0, "Performance_Units", "Pints"),
        (0, "Total Accelerators", 16),
        (0, "Total Accelerators", 0),
        (0, "Nodes", 0),
        (0, "a#", 2.5),
        (0, "a#", 10**200),
        (0, "System", "16x MI350X"),
        (0, "Model", KeyError),
    ],
)
def test_a_record_the_row_reader_finds_a_problem_in_makes_the_column_reader_give_up(
    index: int, key: str, value: object
) -> None:
    records, cols = _edited(JSON, [(index, key, value)])
    columns, _, _, slow = _both(records, cols, JSON, "6.1")
    assert slow.problems.items
    assert columns is None


def test_every_spelling_of_the_published_files_is_read_column_by_column_as_the_row_reader_reads_it() -> None:
    """v-prefixed IDs, a system of both suites, lower-case scenarios: not problems, so the column
    reader reads them, giving the row reader's rows (the Offline row of both suites in each)."""
    records, cols = read_records(JSON)
    records = copy.deepcopy(records)
    for r in records:
        v = r.values
        v.update(ID="v" + v["ID"], Scenario=v["Scenario"].lower(), Suite="datacenter,edge")
    columns, fast, rows, slow = _both(records, cols, JSON, "6.1")
    assert columns is not None
    _same(columns, fast, rows, slow)
    assert {(s, u) for s, u in zip(columns["scenario"], columns["suite"], strict=True)} >= {
        ("Offline", "datacenter,edge"),
        ("Server", "datacenter"),
    }
    assert all(not rid.startswith("v") for rid in columns["result_id"])
