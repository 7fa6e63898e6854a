"""Measured MLPerf® power: loaded per row from the official files, validated, printed by the
``power()`` placeholder (and ``x.power``), re-derived by the audit, accepted by the checker."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from types import SimpleNamespace

import openpyxl
import pytest

from generator import audit
from generator.article.figures import power_figure
from generator.article.functions import Library, Prices
from generator.article.render import Renderer, load_article
from generator.data.manifest import Manifest
from generator.data.results import read_records, read_results
from generator.data.rowcache import cached_rows
from generator.data.rowtable import RowTable
from generator.data.table import ResultsTable
from generator.errors import DataError, LookupFailed, TemplateError
from generator.site.build import ledger_entries

from .conftest import ROOT, tiny_row, write_results
from .test_check import article, check
from .test_data_columns import _both, _same

#: 5.1-0062 (Lenovo, 8x B200) llama3.1-8b Offline: 146,960 tokens/s at 9,436.05 W (v5.1 file)
LLAMA = '"5.1-0062", "llama3.1-8b", "Offline"'


def power_row(rid: str = "6.1-0001", scenario: str = "Offline", **extra: object) -> dict[str, object]:
    """A made-up power submission's row (ExampleCorp: not a result)."""
    fields: dict[str, object] = {"has_power": True, "Power_Result": 1200.5, "Power_Units": "Watts"}
    return tiny_row(rid, "gpt-oss-120b", scenario, 80000.0, **{**fields, **extra})


# ---------------------------------------------------------------------------- loading


def test_a_power_submission_carries_its_measured_power_and_unit(tmp_path: Path) -> None:
    rows = [
        power_row(),
        power_row("6.1-0002", "SingleStream", Power_Result="310.25", Power_Units="millijoules"),
        tiny_row("6.1-0003", "gpt-oss-120b", "Server", 60000.0),
    ]
    path = write_results(tmp_path / "results", rows) / "v6.1" / "summary_results.json"
    records, cols = read_records(path)
    columns, fast, by_row, slow = _both(records, cols, path, "6.1")
    assert columns is not None  # no problem: read column by column, as the row reader reads it
    _same(columns, fast, by_row, slow)
    assert columns["power"][:2] == [1200.5, 310.25] and math.isnan(columns["power"][2])
    assert columns["power_units"] == ["W", "mJ", ""]


def test_the_official_power_round_is_read_column_by_column_as_the_row_reader_reads_it(
    shared_dir: Path,
) -> None:
    path = shared_dir / "v5.1" / "summary_results.json"
    records, cols = read_records(path)
    records = [r for r in records if r.values["ID"] != "5.1-0387"]  # waived: left to the row reader
    columns, fast, by_row, slow = _both(records, cols, path, "5.1")
    assert columns is not None
    _same(columns, fast, by_row, slow)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"Power_Result": "lots"}, "field 'Power_Result': not a number: 'lots'"),
        (
            {"Power_Result": 0},
            "field 'Power_Result': measured power must be a finite positive number, got '0'",
        ),
        (
            {"Power_Result": -5.5},
            "field 'Power_Result': measured power must be a finite positive number, got '-5.5'",
        ),
        ({"Power_Result": "inf"}, "field 'Power_Result': not a number: 'inf'"),
        (
            {"Power_Result": "1e999"},
            "field 'Power_Result': measured power must be a finite positive number, got '1e999'",
        ),
        ({"Power_Units": ""}, "field 'Power_Units': no unit for the measured power 1200.5"),
        (
            {"Power_Units": "kW"},
            "field 'Power_Units': unknown power unit 'kW' (expected Watts or millijoules)",
        ),
        (
            {"Power_Units": "millijoules"},
            "field 'Power_Units': 'millijoules', but the power metric of Offline is system power in Watts",
        ),
        ({"Power_Result": None}, "field 'Power_Result': no measured power, but its unit is 'Watts'"),
        ({"has_power": False}, "field 'has_power': false, but the row has a measured power (1200.5 W)"),
    ],
)
def test_a_bad_measured_power_is_refused_naming_file_record_entry_and_field(
    tmp_path: Path, manifest: Manifest, extra: dict[str, object], message: str
) -> None:
    path = write_results(tmp_path / "results", [power_row(**extra)]) / "v6.1" / "summary_results.json"
    with pytest.raises(DataError) as exc:
        read_results(path, manifest)
    assert exc.value.message == f"{path}: index 0 (entry 6.1-0001 gpt-oss-120b Offline): {message}"


def test_watts_for_a_single_stream_row_is_refused(tmp_path: Path, manifest: Manifest) -> None:
    path = (
        write_results(tmp_path / "results", [power_row(scenario="SingleStream")])
        / "v6.1"
        / "summary_results.json"
    )
    with pytest.raises(DataError) as exc:
        read_results(path, manifest)
    assert exc.value.message == (
        f"{path}: index 0 (entry 6.1-0001 gpt-oss-120b SingleStream): field 'Power_Units': 'Watts', "
        "but the power metric of SingleStream is energy per query in millijoules"
    )


def test_the_official_files_give_measured_power_only_from_power_results(official: ResultsTable) -> None:
    df = official.df
    measured = df[df["power"].notna()]
    assert len(measured) == 24 and set(measured["round"]) == {"5.1"} and measured["has_power"].all()
    assert set(zip(measured["scenario"], measured["power_units"], strict=True)) == {
        ("Offline", "W"),
        ("Server", "W"),
        ("SingleStream", "mJ"),
        ("MultiStream", "mJ"),
    }


def test_design_power_of_the_checkers_summary_is_never_measured_power(
    shared_dir: Path, manifest: Manifest
) -> None:
    path = shared_dir / "v6.1" / "summary.csv"
    assert "design_power_watts" in path.read_text("utf-8").splitlines()[0].split(",")
    df, _ = read_results(path, manifest, version="6.1")
    assert len(df) and df["power"].isna().all() and set(df["power_units"]) == {""}


def test_two_files_of_a_round_must_agree_on_the_measured_power(tmp_path: Path, manifest: Manifest) -> None:
    folder = write_results(tmp_path / "results", [power_row()])
    wb = openpyxl.Workbook()
    ws = wb.active
    row = power_row(Power_Result=1250.5)
    ws.append(list(row))
    ws.append(list(row.values()))
    wb.save(folder / "v6.1" / "summary.xlsx")
    with pytest.raises(DataError) as exc:
        ResultsTable.from_dir(folder, manifest)
    d = folder / "v6.1"
    assert exc.value.message == (
        f"{d}: summary_results.json and summary.xlsx disagree on 1 row(s); keep only the official file:\n"
        f"  ExampleCorp / 8xEXAMPLE gpt-oss-120b Offline: power is 1200.5 in {d}/summary_results.json "
        f"(index 0) and 1250.5 in {d}/summary.xlsx (row 2)"
    )


def test_the_rows_cache_keeps_the_measured_power(tmp_path: Path, manifest: Manifest) -> None:
    folder = write_results(
        tmp_path / "results", [power_row(), tiny_row("6.1-0002", "gpt-oss-120b", "Server", 1.0)]
    )
    load_rows = lambda: RowTable.of(ResultsTable.from_dir(folder, manifest))  # noqa: E731
    cold, hit = cached_rows(folder, "d", load_rows, cache_dir=tmp_path / "cache")
    warm, hit = cached_rows(folder, "d", load_rows, cache_dir=tmp_path / "cache")
    assert hit
    for table in (cold, warm):
        first, second = table.rows_at([0, 1])
        assert (first.power, first.power_units, second.power_units) == (1200.5, "W", "")
        assert math.isnan(second.power)


# ---------------------------------------------------------------------------- the placeholder


def render(tmp_path: Path, table: ResultsTable, manifest: Manifest, body: str):  # type: ignore[no-untyped-def]
    """The rendering of *body* (every rendering a test makes is audited: conftest.py)."""
    path = tmp_path / "article.md"
    path.write_text(f"---\ntitle: T\n---\n{body}", encoding="utf-8")
    return Renderer(Library(table, manifest, Prices.load(ROOT / "data" / "prices.toml"))).render(
        load_article(path)
    )


def test_power_prints_the_measured_system_power_of_the_official_row(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        f"{{{{ result({LLAMA}) }}}} tokens/s at {{{{ power({LLAMA}) }}}}, "
        f"{{{{ ratio(result({LLAMA}), power({LLAMA})) }}}} tokens/s per watt; "
        '{% set x = best("llama3.1-8b", "Offline", round="5.1", entry="5.1-0062") %}{{ x.power }}; '
        '{{ power("5.1-0370", "resnet", "MultiStream") }} per stream.{{ cite() }}\n'
    )
    rendered = render(tmp_path, official, manifest, body)
    first = rendered.markdown.splitlines()[0]
    assert first.startswith(
        "146,960 tokens/s at 9,436 W, 15.57 tokens/s per watt; 9,436 W; 1,241 mJ per stream."
    )
    power = next(u.figure for u in rendered.uses if u.text == "9,436 W")
    assert (power.kind, power.value, power.derived) == ("power", 9436.05296875, False)
    assert power.calc == {"op": "power", "row": power.row, "unit": "W"}
    per_watt = next(u.figure for u in rendered.uses if u.text == "15.57")
    assert per_watt.derived and per_watt.calc["args"][1]["op"] == "power"
    # cite() lists the entries of the measured powers, as of any figure
    assert (
        "(summary\\_results.json) on 2 October 2026; entry 5.1-0062. Ratios are derived" in rendered.markdown
    )
    assert "MLPerf® Inference v5.1 Open Edge; ResNet-50 (MultiStream)." in rendered.markdown
    assert "on 2 October 2026; entry 5.1-0370." in rendered.markdown


def test_power_of_a_performance_only_submission_fails_naming_the_entry(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    with pytest.raises(TemplateError) as exc:
        render(tmp_path, official, manifest, 'At {{ power("6.1-0052", "gpt-oss-120b", "Server") }}.\n')
    assert exc.value.message == (
        f"{tmp_path / 'article.md'}:4: 6.1-0052 gpt-oss-120b Server has no measured power: "
        "it is a performance-only submission"
    )


def test_a_power_submission_read_from_a_file_without_measured_power_says_which_file_to_load(
    official: ResultsTable,
) -> None:
    row = official.lookup("5.1-0062", "llama3.1-8b", "Offline")
    from_csv = dataclasses.replace(row, power=math.nan, power_units="", source_file="/r/v5.1/summary.csv")
    with pytest.raises(LookupFailed) as exc:
        power_figure(from_csv)
    assert exc.value.message == (
        "5.1-0062 llama3.1-8b Offline has no measured power: it is a power submission, but summary.csv "
        "carries no measured power; load the round's summary_results.json"
    )


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            f"ratio(per_gpu({LLAMA}), power({LLAMA}))",
            "ratio(): the first argument is a per-GPU value (per_gpu(5.1-0062 llama3.1-8b Offline)) and the "
            "second a measured power (power(5.1-0062 llama3.1-8b Offline)): performance per watt divides a "
            "system result (result(...), .total) by the same row's measured power",
        ),
        (
            f'ratio(result("5.1-0062", "llama3.1-8b", "Server"), power({LLAMA}))',
            "ratio(): the first argument is a system total (result(5.1-0062 llama3.1-8b Server)) and the "
            "second a measured power (power(5.1-0062 llama3.1-8b Offline)): performance per watt divides a "
            "row's result by its own measured power",
        ),
        (
            f'ratio(power({LLAMA}), power("5.1-0370", "resnet", "MultiStream"))',
            "ratio(): the first argument is in W and the second in mJ",
        ),
        (
            f"pct_change(result({LLAMA}), power({LLAMA}))",
            "pct_change(): the first argument is a system total (result(5.1-0062 llama3.1-8b Offline)) and "
            "the second a measured power (power(5.1-0062 llama3.1-8b Offline)): compare like with like",
        ),
    ],
)
def test_arithmetic_on_power_takes_only_what_makes_sense(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, call: str, message: str
) -> None:
    with pytest.raises(TemplateError) as exc:
        render(tmp_path, official, manifest, f"{{{{ {call} }}}}\n")
    assert exc.value.message == f"{tmp_path / 'article.md'}:4: {message}"


# ---------------------------------------------------------------------------- the audit


def _ledger(tmp_path: Path, official: ResultsTable, manifest: Manifest) -> list[dict[str, object]]:
    rendered = render(tmp_path, official, manifest, f"{{{{ power({LLAMA}) }}}}\n")
    ledger = json.loads(json.dumps(ledger_entries([rendered], SimpleNamespace(root=tmp_path))))  # type: ignore[arg-type]
    assert [(f["kind"], f["text"], f["calc"]) for f in ledger] == [
        ("power", "9,436 W", {"op": "power", "row": 0, "unit": "W"})
    ]
    return ledger


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (
            {"Power_Result": 9536.05296875},
            "the ledger records 9436.05296875; the official rows give 9536.05296875 "
            "(power(5.1-0062 llama3.1-8b Offline))",
        ),
        (
            {"Power_Units": "millijoules"},
            "the official file gives the power of entry 5.1-0062 llama3.1-8b Offline in 'millijoules', not in 'W'",
        ),
        (
            {"Power_Result": None},
            "the official file gives no measured power for entry 5.1-0062 llama3.1-8b Offline",
        ),
    ],
)
def test_the_audit_catches_a_tampered_power_value(
    tmp_path: Path,
    official: ResultsTable,
    manifest: Manifest,
    shared_dir: Path,
    change: dict[str, object],
    problem: str,
) -> None:
    ledger = _ledger(tmp_path, official, manifest)
    data = audit.Data.load({})
    assert audit.audit_ledger(ledger, shared_dir, data).mismatches == []
    records = json.loads((shared_dir / "v5.1" / "summary_results.json").read_text("utf-8"))
    at = int(str(ledger[0]["entries"][0]["at"]).removeprefix("index "))  # type: ignore[index]
    records[at].update(change)
    (tmp_path / "tampered" / "v5.1").mkdir(parents=True)
    (tmp_path / "tampered" / "v5.1" / "summary_results.json").write_text(json.dumps(records), "utf-8")
    report = audit.audit_ledger(ledger, tmp_path / "tampered", data)
    assert report.mismatches == [
        f"article.md:4: article article, line 4, figure 1 (power, printed '9,436 W'): {problem}"
    ]


# ---------------------------------------------------------------------------- the checker


def test_the_checker_takes_measured_power_printed_by_the_placeholder(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    text = (
        "In MLPerf® Inference v5.1 (Closed, Available, Offline), the 8-GPU Lenovo ThinkSystem SR780a V3 "
        f"(entry {{{{ entry({LLAMA}) }}}}) delivered {{{{ result({LLAMA}) }}}} tokens per second on "
        "llama3.1-8b at a measured system power of POWER, or "
        f"{{{{ ratio(result({LLAMA}), power({LLAMA})) }}}} tokens per second per watt.{{{{ cite() }}}}\n\n"
        "{{ footnotes() }}\n"
    )
    placeholder = article(tmp_path, text.replace("POWER", f"{{{{ power({LLAMA}) }}}}"))
    found = check(placeholder, official, manifest)
    assert [str(f) for f in found if f.rule in ("MLP011", "MLP019")] == []
    typed = article(tmp_path, text.replace("POWER", "9,436 W"))  # what an analyst had to write
    assert [f.rule for f in check(typed, official, manifest) if f.rule in ("MLP011", "MLP019")] == ["MLP019"]
