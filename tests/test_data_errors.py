"""Bad input: one corpus file per failure class, each with its exact error text."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.data.manifest import Manifest
from generator.data.results import read_results
from generator.errors import DataError

BAD = Path(__file__).resolve().parent / "corpus" / "bad_results"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("malformed.json", "{p}: line 4 column 4: invalid JSON: Expecting ',' delimiter"),
        ("malformed.csv", "{p}: line 2: malformed CSV: unexpected end of data"),
        ("missing_column.json", "{p}: missing required column(s): 'Performance_Units'"),
        (
            "non_numeric_result.csv",
            "{p}: line 3 (gpt-oss-120b Offline): field 'Result': not a number: 'fast'",
        ),
        (
            "zero_accelerators.json",
            "{p}: index 1 (entry 9.9-0002 gpt-oss-120b Server): field 'a#': "
            "accelerator count is 0 for accelerator 'NVIDIA B300-SXM-270GB'",
        ),
        (
            "missing_accelerators.json",
            "{p}: index 0 (entry 9.9-0003 deepseek-r1 Offline): field 'a#': "
            "accelerator count is missing for accelerator 'AMD Instinct MI355X 288GB HBM3e'",
        ),
        (
            "duplicate.json",
            "{p}: index 1 (entry 9.9-0001 gpt-oss-120b server): duplicate row: "
            "entry 9.9-0001 gpt-oss-120b Server already at index 0",
        ),
        (
            "unknown_units.json",
            "{p}: index 0 (entry 9.9-0001 gpt-oss-120b Server): field 'Performance_Units': "
            "unknown units 'Furlongs/s' (known: Latency (ms), Latency (s), Queries/s, "
            "Samples/s, Tasks/s, Tokens/s)",
        ),
    ],
)
def test_bad_file_gets_an_exact_error(manifest: Manifest, name: str, message: str) -> None:
    path = BAD / name
    with pytest.raises(DataError) as exc:
        read_results(path, manifest, version="9.9")
    assert exc.value.message == message.format(p=path)


def test_several_problems_are_reported_together(manifest: Manifest, tmp_path: Path) -> None:
    path = tmp_path / "summary.csv"
    src = (BAD / "non_numeric_result.csv").read_text()
    path.write_text(src.replace("Tokens/s,v9.9\nExampleCorp", "Pints,v9.9\nExampleCorp", 1))
    with pytest.raises(DataError) as exc:
        read_results(path, manifest, version="9.9")
    assert exc.value.message.splitlines() == [
        f"2 problems in {path}:",
        f"  {path}: line 2 (gpt-oss-120b Server): field 'Units': unknown units 'Pints' "
        "(known: Latency (ms), Latency (s), Queries/s, Samples/s, Tasks/s, Tokens/s)",
        f"  {path}: line 3 (gpt-oss-120b Offline): field 'Result': not a number: 'fast'",
    ]


def test_file_version_must_match_the_round(manifest: Manifest) -> None:
    path = BAD / "unknown_units.json"
    with pytest.raises(DataError) as exc:
        read_results(BAD / "duplicate.json", manifest, version="6.1")
    assert "the file says v9.9 but is loaded as round v6.1" in exc.value.message
    assert path.exists()


def test_unsupported_file_type(manifest: Manifest, tmp_path: Path) -> None:
    p = tmp_path / "results.txt"
    p.write_text("x")
    with pytest.raises(DataError) as exc:
        read_results(p, manifest, version="9.9")
    assert exc.value.message == f"{p}: unsupported file type '.txt' (use .json, .csv or .xlsx)"


@pytest.mark.parametrize(
    ("field", "literal", "message"),
    [
        ("a#", '"inf"', "field 'a#': not a whole number: 'inf'"),
        ("a#", "1e400", "field 'a#': not a whole number: 'inf'"),
        ("a#", "1" + "0" * 400, "field 'a#': not a whole number: '1" + "0" * 400 + "'"),
        ("Nodes", "2.5", "field 'Nodes': not a whole number: '2.5'"),
        (
            "a#",
            "1" + "0" * 200,
            "field 'a#': not a whole number: '1" + "0" * 200 + "'",
        ),  # x Nodes: beyond a float
        ("a#", '"9007199254740993"', "field 'a#': not a whole number: '9007199254740993'"),
        ("a#", "NaN", "field 'a#': accelerator count is missing for accelerator 'NVIDIA B300-SXM-270GB'"),
        (
            "Performance_Result",
            "1e400",
            "field 'Performance_Result': result must be a positive number, got 'inf'",
        ),
        (
            "Performance_Result",
            "1" + "0" * 400,
            "field 'Performance_Result': result must be a positive number, got '1" + "0" * 400 + "'",
        ),
        ("Performance_Result", "NaN", "field 'Performance_Result': missing result"),
    ],
)
def test_an_infinite_huge_or_undefined_number_is_an_error_naming_the_field(
    manifest: Manifest, tmp_path: Path, field: str, literal: str, message: str
) -> None:
    """JSON numbers beyond a float, and the NaN Python's reader accepts: an error, or blank (NaN),
    never a traceback (an infinite count raised OverflowError). The first problem is the number's
    (a bad count is then also a missing one)."""
    path = tmp_path / "summary_results.json"
    src = (BAD / "zero_accelerators.json").read_text()
    first = src.split("},\n", 1)[0] + "}\n]"
    old = {"a#": '"a#": 8', "Nodes": '"Nodes": 1', "Performance_Result": '"Performance_Result": 1000.0'}[
        field
    ]
    path.write_text(first.replace(old, f'"{field}": {literal}'))
    with pytest.raises(DataError) as exc:
        read_results(path, manifest, version="9.9")
    lines = exc.value.message.splitlines()
    first = lines[0] if len(lines) == 1 else lines[1].strip()
    assert first == f"{path}: index 0 (entry 9.9-0001 gpt-oss-120b Server): {message}"
