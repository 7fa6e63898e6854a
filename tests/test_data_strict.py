"""One strict reading of a results file (issue 34, items 3, 16, 17 and 22): numbers of one
grammar, no key twice in a record, no lone surrogate, a byte order mark read as the CSV reader
reads it, and a workbook's size checked before openpyxl reads it. Every input is made here by
rewriting the official files in ../shared/mlperf."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from generator.data import results
from generator.data.manifest import Manifest
from generator.data.results import read_results
from generator.errors import DataError


def official_rows(shared_dir: Path, version: str = "6.1") -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(
        (shared_dir / f"v{version}" / "summary_results.json").read_text("utf-8")
    )
    return rows


def context(row: dict[str, Any]) -> str:
    return f"entry {row['ID']} {row['Model']} {row['Scenario']}"


def load_error(path: Path, manifest: Manifest, version: str = "6.1") -> str:
    with pytest.raises(DataError) as err:
        read_results(path, manifest, version=version)
    return err.value.message


def write_json(tmp_path: Path, rows: list[dict[str, Any]], text: str | None = None) -> Path:
    path = tmp_path / "v6.1" / "summary_results.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text if text is not None else json.dumps(rows, indent=1), "utf-8")
    return path


# ------------------------------------------------------------------ item 3: one number grammar
@pytest.mark.parametrize("written", ["113685,0", "113.685,0", "113,685.0", "1_000", "١٢٣"])
def test_a_result_outside_the_number_grammar_is_refused_naming_file_entry_field_and_value(
    tmp_path: Path, manifest: Manifest, shared_dir: Path, written: str
) -> None:
    """A comma was read as a thousands separator: "113685,0" published ten times the result,
    "113.685,0" a thousandth; Python's float() also reads "1_000" and Arabic-Indic digits."""
    rows = official_rows(shared_dir)
    rows[3]["Performance_Result"] = written
    path = write_json(tmp_path, rows)
    hint = " (write digits with one '.' for decimals, no ',')" if "," in written else ""
    assert load_error(path, manifest) == (
        f"{path}: index 3 ({context(rows[3])}): field 'Performance_Result': not a number: {written!r}{hint}"
    )


def test_a_decimal_comma_in_the_checkers_csv_is_refused_naming_the_line(
    tmp_path: Path, manifest: Manifest, shared_dir: Path
) -> None:
    with (shared_dir / "v6.1" / "summary.csv").open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    rows[4]["Result"] = rows[4]["Result"].replace(".", ",")
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path = tmp_path / "summary.csv"
    path.write_text(out.getvalue(), "utf-8")
    r = rows[4]
    assert load_error(path, manifest) == (
        f"{path}: line 6 ({r['Model']} {r['Scenario']}): field 'Result': not a number: "
        f"{r['Result']!r} (write digits with one '.' for decimals, no ',')"
    )


def test_a_count_with_a_comma_is_refused(tmp_path: Path, manifest: Manifest, shared_dir: Path) -> None:
    rows = official_rows(shared_dir)
    rows[0]["a#"] = "1,024"
    path = write_json(tmp_path, rows)
    assert load_error(path, manifest).endswith(
        f"index 0 ({context(rows[0])}): field 'a#': not a whole number: '1,024' "
        "(write digits with one '.' for decimals, no ',')"
    )


def test_numbers_of_the_grammar_still_read_as_before(
    tmp_path: Path, manifest: Manifest, shared_dir: Path
) -> None:
    rows = official_rows(shared_dir)
    want = rows[3]["Performance_Result"]
    rows[3]["Performance_Result"] = f" {want!r} "
    rows[4]["Performance_Result"] = f"{rows[4]['Performance_Result']:e}"
    rows[5]["a#"] = f"+{rows[5]['a#']}"
    df, _ = read_results(write_json(tmp_path, rows), manifest, version="6.1")
    assert df["result"].iloc[3] == want
    assert df["accelerators_per_node"].iloc[5] == int(rows[5]["a#"])


def test_a_key_written_twice_in_a_record_is_refused_naming_the_entry_and_key(
    tmp_path: Path, manifest: Manifest, shared_dir: Path
) -> None:
    """Python's JSON reader silently kept the last of two Performance_Result values."""
    rows = official_rows(shared_dir)
    text = json.dumps(rows, indent=1)
    first = f'"Performance_Result": {json.dumps(rows[2]["Performance_Result"])}'
    at = text.index(first, text.index(f'"ID": "{rows[2]["ID"]}"'))
    text = text[:at] + f'"Performance_Result": 1.0, {first}' + text[at + len(first) :]
    path = write_json(tmp_path, rows, text)
    assert json.loads(text)[2] == rows[2]  # what Python's reader makes of it: no sign of the first
    assert load_error(path, manifest) == (
        f"{path}: index 2 ({context(rows[2])}): key 'Performance_Result' appears twice in one record"
    )


# ------------------------------------------------------------------ item 17: lone surrogates
@pytest.mark.parametrize("key", ["System", "Accelerator", "Notes"])
def test_a_lone_surrogate_in_a_results_file_is_refused_at_load_naming_entry_and_field(
    tmp_path: Path, manifest: Manifest, shared_dir: Path, key: str
) -> None:
    """It passed `data` and `check`, and `build` ended in a UnicodeEncodeError traceback."""
    rows = official_rows(shared_dir)
    rows[1][key] = "8x B300 \ud800 box"
    text = json.dumps(rows, indent=1)  # ensure_ascii: the file holds the escape \ud800
    assert "\\ud800" in text
    path = write_json(tmp_path, rows, text)
    message = load_error(path, manifest)
    assert message == (
        f"{path}: index 1 ({context(rows[1])}): field {key!r}: a lone surrogate '\\ud800' in "
        "'8x B300 \\ud800 box': not text; correct the file"
    )
    message.encode("utf-8")  # printable: no surrogate in the message itself


def test_a_surrogate_pair_is_text(tmp_path: Path, manifest: Manifest, shared_dir: Path) -> None:
    rows = official_rows(shared_dir)
    rows[1]["System"] = "8x B300 \U0001f680"
    df, _ = read_results(write_json(tmp_path, rows, json.dumps(rows)), manifest, version="6.1")
    assert df["system"].iloc[1] == "8x B300 \U0001f680"


# ------------------------------------------------------------------ item 22: a byte order mark
def test_a_json_file_with_a_byte_order_mark_is_read_as_the_csv_one_is(
    tmp_path: Path, manifest: Manifest, shared_dir: Path
) -> None:
    source = shared_dir / "v6.1" / "summary_results.json"
    path = tmp_path / "v6.1" / "summary_results.json"
    path.parent.mkdir()
    path.write_bytes(b"\xef\xbb\xbf" + source.read_bytes())
    csv_path = tmp_path / "summary.csv"
    csv_path.write_bytes(b"\xef\xbb\xbf" + (shared_dir / "v6.1" / "summary.csv").read_bytes())
    df, _ = read_results(path, manifest, version="6.1")
    plain, _ = read_results(source, manifest, version="6.1")
    checker, _ = read_results(csv_path, manifest, version="6.1")
    assert df.drop(columns="source_file").equals(plain.drop(columns="source_file"))
    assert len(df) == len(checker) == 492


# ------------------------------------------------------------------ item 16: a huge workbook cell
def official_workbook(path: Path, rows: list[dict[str, Any]]) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    header = list(rows[0])
    ws.append(header)
    for r in rows:
        ws.append([r.get(h) for h in header])
    wb.save(path)
    return path


SHEET = "xl/worksheets/sheet1.xml"


def with_huge_cell(source: Path, path: Path, megabytes: int) -> Path:
    """*source* with *megabytes* MB more in the first text cell of its second row (the zip
    stores them in a fraction of a megabyte)."""
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            data = src.read(info)
            if info.filename != SHEET:
                out.writestr(info, data)
                continue
            at = data.index(b"<t>", data.index(b'<row r="2"')) + 3
            with out.open(info.filename, "w") as fh:
                fh.write(data[:at])
                chunk = b"A" * 2**20
                for _ in range(megabytes):
                    fh.write(chunk)
                fh.write(data[at:])
    return path


def test_a_workbook_of_official_rows_still_loads(
    tmp_path: Path, manifest: Manifest, shared_dir: Path
) -> None:
    rows = official_rows(shared_dir)[:40]
    df, _ = read_results(official_workbook(tmp_path / "summary.xlsx", rows), manifest, version="6.1")
    assert len(df) == 40


#: loads one file in a fresh process: its message, then its peak memory (kB) and seconds
MEASURE = """
import resource, sys, time
from generator.data.manifest import load_manifest
from generator.data.results import read_results
from generator.errors import DataError
manifest = load_manifest()
start = time.perf_counter()
try:
    read_results(sys.argv[1], manifest, version="6.1")
    print("loaded")
except DataError as exc:
    print(exc.message)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, time.perf_counter() - start)
"""


def measured(path: Path) -> tuple[str, int, float]:
    """Load *path* in a fresh process: (its message or "loaded", peak memory in kB, seconds)."""
    run = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path)], capture_output=True, text=True, timeout=120, check=True
    )
    message, numbers = run.stdout.rstrip("\n").rsplit("\n", 1)
    peak_kb, seconds = numbers.split()
    return message, int(peak_kb), float(seconds)


def test_a_workbook_holding_a_huge_cell_is_refused_quickly_in_bounded_memory_naming_the_file(
    tmp_path: Path, shared_dir: Path
) -> None:
    """A 1.6 MB summary.xlsx holding one 1.5 GB cell cost 54 s and 3.2 GB before it was refused;
    here a 200 MB cell, stored in a fraction of a megabyte, read by a process of its own: no
    more memory than the process reading the same workbook without it."""
    source = official_workbook(tmp_path / "official.xlsx", official_rows(shared_dir)[:40])
    path = with_huge_cell(source, tmp_path / "summary.xlsx", 200)
    assert path.stat().st_size < 2**20
    with zipfile.ZipFile(path) as z:
        size = z.getinfo(SHEET).file_size
        total = sum(i.file_size for i in z.infolist())
    loaded, baseline_kb, _ = measured(source)
    message, peak_kb, seconds = measured(path)
    assert loaded == "loaded"
    assert message == (
        f"{path}: the workbook unpacks to {total:,} bytes ({SHEET}: {size:,}); a results "
        f"workbook unpacks to a few megabytes, at most {results.MAX_XLSX_UNPACKED:,} are read"
    )
    assert seconds < 1.0
    assert peak_kb - baseline_kb < 20 * 1024  # kB: without the check, 200 MB more and over a minute


def test_a_file_that_is_not_a_zip_is_not_a_workbook(tmp_path: Path, manifest: Manifest) -> None:
    path = tmp_path / "summary.xlsx"
    path.write_text("ID,Submitter\n", "utf-8")
    assert load_error(path, manifest) == f"{path}: not a readable xlsx workbook: File is not a zip file"


def test_a_huge_value_echoed_in_a_problem_is_clipped(
    tmp_path: Path, manifest: Manifest, shared_dir: Path
) -> None:
    """Values a message echoes come from the file: a megabyte ID made a megabyte message."""
    rows = official_rows(shared_dir)
    rows[0]["ID"] = "6.1-" + "9" * 2**20
    path = write_json(tmp_path, rows)
    message = load_error(path, manifest)
    entry = f"entry 6.1-{'9' * (200 - len('entry 6.1-') - 1)}…"
    malformed = f"malformed result ID '6.1-{'9' * (600 - len('malformed result ID ') - 6)}…"
    assert message == f"{path}: index 0 ({entry}): field 'ID': {malformed}"
