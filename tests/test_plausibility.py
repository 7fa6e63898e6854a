"""Plausible data: counts, values and names a results file gets wrong are errors naming the row."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from generator.data.manifest import Manifest, Waiver
from generator.data.results import read_results
from generator.errors import DataError

from .conftest import tiny_row

ROW = "FILE: index 0 (entry 6.1-0001 gpt-oss-120b Server)"


def load(tmp_path: Path, manifest: Manifest, rows: list[dict[str, object]]) -> Path:
    path = tmp_path / "v6.1" / "summary_results.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rows), "utf-8")
    return path


def load_error(tmp_path: Path, manifest: Manifest, rows: list[dict[str, object]]) -> str:
    path = load(tmp_path, manifest, rows)
    with pytest.raises(DataError) as err:
        read_results(path, manifest, version="6.1")
    return err.value.message.replace(str(path), "FILE")


def test_plausible_data_a_name_that_says_8x_b300_on_a_one_accelerator_row_is_refused(
    tmp_path: Path, manifest: Manifest
) -> None:
    row = tiny_row(
        "6.1-0001", "gpt-oss-120b", "Server", 113688.0, gpus=1, System="HPE Compute XD690 (8x B300)"
    )
    assert load_error(tmp_path, manifest, [row]) == (
        f"{ROW}: field 'System': the name says 8x B300 but the file gives 1 accelerator(s) (a# 1); "
        'correct the count or add a waiver (field = "System") for 6.1-0001 in data/rounds.toml'
    )


@pytest.mark.parametrize(
    ("system", "gpus", "nodes"),
    [
        ("NVIDIA GB300 NVL72 (72x GB300-288GB_aarch64, TensorRT)", 288, 4),  # one rack of four
        ("Example (8x B300)", 8, 1),
        ("Example 8xB300 + 2x EPYC", 16, 2),  # per node
        ("Example B300 cluster", 1, 1),  # no count in the name
    ],
)
def test_plausible_data_names_that_agree_with_the_count_load(
    tmp_path: Path, manifest: Manifest, system: str, gpus: int, nodes: int
) -> None:
    accelerator = "NVIDIA GB300" if "GB300" in system else "NVIDIA B300-SXM-270GB"
    row = tiny_row(
        "6.1-0001", "gpt-oss-120b", "Server", 10000.0 * gpus, accelerator=accelerator, System=system
    )
    row.update({"a#": gpus // nodes, "Nodes": nodes, "Total Accelerators": gpus})
    df, _ = read_results(load(tmp_path, manifest, [row]), manifest, version="6.1")
    assert df["total_accelerators"].tolist() == [float(gpus)]


def test_plausible_data_a_waiver_accepts_a_name_that_disagrees(tmp_path: Path, manifest: Manifest) -> None:
    row = tiny_row("6.1-0001", "gpt-oss-120b", "Server", 15000.0, gpus=1, System="Example (4x B300)")
    rounds = dict(manifest.rounds)
    rounds["6.1"] = replace(rounds["6.1"], waivers=(Waiver("6.1-0001", "System", "platform says x1"),))
    _, rep = read_results(load(tmp_path, manifest, [row]), replace(manifest, rounds=rounds), version="6.1")
    assert rep.waived == ["6.1-0001"]


def test_plausible_data_a_per_accelerator_value_far_beyond_any_accelerator_is_refused(
    tmp_path: Path, manifest: Manifest
) -> None:
    row = tiny_row("6.1-0001", "gpt-oss-120b", "Server", 999999999.0)
    assert load_error(tmp_path, manifest, [row]) == (
        f"{ROW}: field 'Total Accelerators': 125,000,000 Tokens/s per accelerator is implausible "
        "(at most 5,000,000 expected): check the accelerator count (a# 8, Nodes 1, Total Accelerators 8)"
    )


def test_plausible_data_a_vanishing_result_is_refused(tmp_path: Path, manifest: Manifest) -> None:
    row = tiny_row("6.1-0001", "gpt-oss-120b", "Server", 1e-300)
    assert load_error(tmp_path, manifest, [row]) == (
        f"{ROW}: field 'Performance_Result': result 1e-300 Tokens/s is implausible (at least 0.0001 Tokens/s expected)"
    )


def test_plausible_data_zero_nodes_is_refused_even_with_a_total(tmp_path: Path, manifest: Manifest) -> None:
    row = tiny_row("6.1-0001", "gpt-oss-120b", "Server", 80000.0, Nodes=0)
    assert load_error(tmp_path, manifest, [row]) == (
        f"{ROW}: field 'Nodes': node count must be a positive whole number, got '0'"
    )


def test_plausible_data_a_two_million_character_name_is_refused(tmp_path: Path, manifest: Manifest) -> None:
    row = tiny_row("6.1-0001", "gpt-oss-120b", "Server", 80000.0, System="x" * 2_000_000)
    assert load_error(tmp_path, manifest, [row]) == (
        f"{ROW}: field 'System': 2,000,000 characters; a name or description holds at most 1,000"
    )
