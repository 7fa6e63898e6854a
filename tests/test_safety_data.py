"""Plausible data: what a results file could get wrong is an error naming file, row and field."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.data.manifest import Manifest, Waiver, load_manifest
from generator.data.results import read_results
from generator.data.table import ResultsTable
from generator.errors import DataError, ManifestError

from .conftest import tiny_row, write_results


def load_error(tmp_path: Path, manifest: Manifest, rows: list[dict[str, object]]) -> str:
    path = tmp_path / "v6.1" / "summary_results.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rows), "utf-8")
    with pytest.raises(DataError) as err:
        read_results(path, manifest, version="6.1")
    return err.value.message.replace(str(path), "FILE")


def test_plausible_data_total_accelerators_must_agree_with_a_per_node_times_nodes(
    tmp_path: Path, manifest: Manifest
) -> None:
    row = tiny_row("6.1-0003", "gpt-oss-120b", "Server", 113241.0, **{"Total Accelerators": 1})
    assert load_error(tmp_path, manifest, [row]) == (
        "FILE: index 0 (entry 6.1-0003 gpt-oss-120b Server): field 'Total Accelerators': 1 accelerators, "
        "but a# x Nodes = 8 x 1 = 8; correct the file or add a waiver for 6.1-0003 in data/rounds.toml"
    )


def test_plausible_data_a_waiver_accepts_a_documented_disagreement(
    tmp_path: Path, manifest: Manifest
) -> None:
    row = tiny_row("6.1-0003", "gpt-oss-120b", "Server", 113241.0, **{"Total Accelerators": 1})
    path = write_results(tmp_path / "r", [row]) / "v6.1" / "summary_results.json"
    waiver = Waiver("6.1-0003", "Total Accelerators", "the test's documented disagreement")
    rounds = dict(manifest.rounds)
    rounds["6.1"] = replace(rounds["6.1"], waivers=(waiver,))
    df, rep = read_results(path, replace(manifest, rounds=rounds), version="6.1")
    assert rep.waived == ["6.1-0003"] and df["total_accelerators"].tolist() == [1.0]


def test_plausible_data_a_result_far_beyond_any_system_is_refused(tmp_path: Path, manifest: Manifest) -> None:
    row = tiny_row("6.1-0001", "gpt-oss-120b", "Server", 1e300)
    assert load_error(tmp_path, manifest, [row]) == (
        "FILE: index 0 (entry 6.1-0001 gpt-oss-120b Server): field 'Performance_Result': "
        "result 1e+300 Tokens/s is implausible (at most 1,000,000,000 Tokens/s expected)"
    )


@pytest.mark.parametrize(
    ("rid", "message"),
    [
        ("6.1-52", "malformed result ID '6.1-52' (expected e.g. 6.1-0052)"),
        ("<b>6.1-0001", "malformed result ID '<b>6.1-0001' (expected e.g. 6.1-0052)"),
        ("6.0-0001", "result ID 6.0-0001 belongs to round v6.0, not v6.1"),
    ],
)
def test_plausible_data_result_ids_are_well_formed_and_of_the_round(
    tmp_path: Path, manifest: Manifest, rid: str, message: str
) -> None:
    row = tiny_row("6.1-0001", "gpt-oss-120b", "Server", 1000.0, ID=rid)
    assert load_error(tmp_path, manifest, [row]) == (
        f"FILE: index 0 (entry {rid} gpt-oss-120b Server): field 'ID': {message}"
    )


def test_plausible_data_a_stray_quote_in_a_csv_field_is_malformed_quoting(
    tmp_path: Path, manifest: Manifest, shared_dir: Path
) -> None:
    lines = (shared_dir / "v6.1" / "summary.csv").read_text("utf-8").splitlines(keepends=True)[:3]
    lines[2] = lines[2].replace('"AMD","available"', '"AMD",avail"able', 1)
    path = tmp_path / "summary.csv"
    path.write_text("".join(lines), "utf-8")
    with pytest.raises(DataError) as err:
        read_results(path, manifest, version="6.1")
    assert err.value.message == (
        f"{path}: line 3: malformed CSV: a stray '\"' in field 'Availability' (quote the whole field)"
    )


def test_plausible_data_two_files_of_a_round_must_agree(
    tmp_path: Path, manifest: Manifest, shared_dir: Path
) -> None:
    d = tmp_path / "results" / "v6.1"
    d.mkdir(parents=True)
    shutil.copy(shared_dir / "v6.1" / "summary.csv", d / "summary.csv")
    rows = json.loads((shared_dir / "v6.1" / "summary_results.json").read_text("utf-8"))
    rows[5]["Performance_Result"] = rows[5]["Performance_Result"] * 2
    (d / "summary_results.json").write_text(json.dumps(rows), "utf-8")
    with pytest.raises(DataError) as err:
        ResultsTable.from_dir(tmp_path / "results", manifest)
    r = rows[5]
    first = err.value.message.splitlines()[:2]
    assert first[0] == (
        f"{d}: summary_results.json and summary.csv disagree on 1 row(s); keep only the official file:"
    )
    assert first[1] == (
        f"  {r['Submitter']} / {r['Platform']} {r['Model']} {r['Scenario']}: result is "
        f"{r['Performance_Result']!r} in {d}/summary_results.json (index 5) and "
        f"{r['Performance_Result'] / 2!r} in {d}/summary.csv (line 7)"
    )


def test_plausible_data_files_that_agree_load_and_say_so(shared_dir: Path, official: ResultsTable) -> None:
    rep = official.report("6.1")
    assert rep is not None and rep.agrees_with == ["summary.csv"]
    assert rep.summary_line().endswith("; agrees with summary.csv")


def test_plausible_data_a_results_folder_that_does_not_exist_is_an_error(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["data", "--results", str(tmp_path / "nope")])
    assert res.exit_code == 1
    assert res.output == (
        f"Error: {tmp_path / 'nope'}: no such folder (expected one sub-folder per round: "
        "v6.1/summary_results.json, ...)\n"
    )


def test_plausible_data_control_characters_in_text_fields_are_removed(
    tmp_path: Path, manifest: Manifest
) -> None:
    row = tiny_row("6.1-0001", "gpt-oss-120b", "Server", 1000.0, System="8x B300\x00\x1b[31m\nbox")
    table = ResultsTable.from_dir(write_results(tmp_path / "r", [row]), manifest)
    assert table.df["system"].tolist() == ["8x B300[31m box"]


@pytest.mark.parametrize(
    ("name", "text", "problem"),
    [
        ("rounds.toml", "round = 5\n", "round: expected tables ([[round]]), got int 5"),
        ("rounds.toml", "[[round]]\nwaiver = [1]\n", "round #1: waiver #1: expected a table, got int 1"),
        (
            "rounds.toml",
            '[[round]]\ncompatible_with = "6.1"\n',
            "round #1: compatible_with: expected a list of text [\"...\"], got str '6.1'",
        ),
        (
            "accelerators.toml",
            '[[family]]\nname = "X"\npatterns = "B200"\n',
            "family 'X': patterns: expected a list of text [\"...\"], got str 'B200'",
        ),
        ("benchmarks.toml", "bench = 1\n", "bench: expected tables ([bench.NAME]), got int 1"),
        (
            "benchmarks.toml",
            "[scenarios]\ncanonical = 5\n",
            'scenarios: canonical: expected a list of text ["..."], got int 5',
        ),
        ("submitters.toml", "[submitter]\nx = 1\n", "submitter.x: expected a table, got int 1"),
        ("rounds.toml", "a = " + "[" * 5000, "invalid TOML: arrays or tables nested too deeply"),
        (
            "rounds.toml",
            '[[round]]\nversion = "../../x"\npublished = 2026-01-01\nretrieved = 2026-01-02\nsource = "s"\n'
            'download_url = ""\nfile = "summary.csv"\n',
            "round #1: version '../../x' is not MAJOR.MINOR (e.g. 6.1)",
        ),
    ],
)
def test_data_files_of_the_wrong_shape_are_errors_naming_file_and_key(
    tmp_path: Path, name: str, text: str, problem: str
) -> None:
    (tmp_path / name).write_text(text, "utf-8")
    with pytest.raises(ManifestError) as err:
        load_manifest(tmp_path)
    assert err.value.message == f"{tmp_path / name}: {problem}"
