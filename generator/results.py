"""Load official MLPerf(R) Inference results files into one validated pandas table.

Three official shapes are read:

* ``summary_results.json`` and the results page's ``summary.xlsx``: the results
  repository's columns (``ID``, ``Submitter``, ``Model``, ``a#``, ``Nodes``, ...);
* the submission checker's ``summary.csv`` and its ``summary.json`` twin: the
  checker's columns (``Organization``, ``accelerators_per_node``, ...), with no
  result IDs. Such rows keep an empty ``result_id`` and ``id_missing=True``.

Every row becomes one row of :data:`COLUMNS`. Validation collects every problem
of a file and raises one :class:`~generator.errors.DataError` naming the file, the
row (``index N`` in JSON, ``line N`` in CSV, ``row N`` in xlsx) and the field.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from .errors import DataError
from .manifest import Manifest, Round, normalize_version

#: The normalized schema, in column order.
COLUMNS = [
    "round",
    "result_id",
    "id_missing",
    "submitter",
    "system",
    "platform",
    "division",
    "category",
    "suite",
    "benchmark",
    "benchmark_raw",
    "scenario",
    "accelerator",
    "family",
    "heterogeneous",
    "nodes",
    "accelerators_per_node",
    "total_accelerators",
    "result",
    "units",
    "higher_is_better",
    "per_accelerator",
    "software",
    "weight_data_types",
    "inferred",
    "has_power",
    "source_file",
    "source_row",
]

#: Official column names of each shape, by normalized field.
RESULTS_FIELDS = {
    "result_id": "ID",
    "submitter": "Submitter",
    "availability": "Availability",
    "division": "Category",
    "suite": "Suite",
    "system": "System",
    "platform": "Platform",
    "benchmark": "Model",
    "scenario": "Scenario",
    "accelerator": "Accelerator",
    "per_node": "a#",
    "nodes": "Nodes",
    "total": "Total Accelerators",
    "result": "Performance_Result",
    "units": "Performance_Units",
    "software": "Software",
    "weights": "weight_data_types",
    "inferred": "inferred",
    "has_power": "has_power",
    "version": "version",
}
CHECKER_FIELDS = {
    "submitter": "Organization",
    "availability": "Availability",
    "division": "Division",
    "suite": "SystemType",
    "system": "SystemName",
    "platform": "Platform",
    "benchmark": "Model",
    "scenario": "Scenario",
    "accelerator": "accelerator_model_name",
    "per_node": "accelerators_per_node",
    "nodes": "number_of_nodes",
    "total": "total_accelerators",
    "result": "Result",
    "units": "Units",
    "software": "framework",
    "weights": "weight_data_types",
    "inferred": "inferred",
    "has_power": "has_power",
    "version": "version",
}
OPTIONAL = {"total", "software", "weights", "inferred", "has_power", "version"}
CATEGORIES = ("available", "preview", "rdi")
DIVISIONS = ("closed", "open")
MAX_LISTED_ERRORS = 20


@dataclass
class LoadReport:
    """What loading one file did: rows kept, rows skipped (and why), waivers applied."""

    path: Path
    version: str
    shape: str
    rows: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    waived: list[str] = field(default_factory=list)
    unmapped_accelerators: set[str] = field(default_factory=set)
    cpu_only_rows: int = 0

    def summary_line(self, path_text: str | None = None) -> str:
        """One line for the build log, e.g. ``v6.1: 492 rows from …/summary.csv``."""
        parts = [f"v{self.version}: {self.rows:,} rows from {path_text or self.path} ({self.shape})"]
        for reason, n in sorted(self.skipped.items()):
            parts.append(f"{n:,} {reason} rows skipped")
        if self.cpu_only_rows:
            parts.append(f"{self.cpu_only_rows:,} CPU-only rows (no per-accelerator value)")
        if self.waived:
            parts.append(f"waivers applied: {', '.join(self.waived)}")
        if self.unmapped_accelerators:
            names = ", ".join(repr(a) for a in sorted(self.unmapped_accelerators))
            parts.append(f"accelerators not in accelerators.toml: {names}")
        return "; ".join(parts)


@dataclass
class _Raw:
    """One record of an official file before validation."""

    loc: str  # "index 12", "line 14", "row 3"
    values: dict[str, Any]


class _Problems:
    """Collects validation problems of one file; raises them together."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.items: list[str] = []

    def add(self, loc: str, context: str, fld: str | None, message: str) -> None:
        where = f"{loc} ({context})" if context else loc
        field_part = f"field {fld!r}: " if fld else ""
        self.items.append(f"{self.path}: {where}: {field_part}{message}")

    def raise_if_any(self) -> None:
        if not self.items:
            return
        if len(self.items) == 1:
            raise DataError(self.items[0])
        shown = self.items[:MAX_LISTED_ERRORS]
        more = len(self.items) - len(shown)
        lines = [f"{len(self.items)} problems in {self.path}:"] + [f"  {p}" for p in shown]
        if more:
            lines.append(f"  … and {more} more")
        raise DataError("\n".join(lines))


# --------------------------------------------------------------------------- readers


def _read_json(path: Path) -> list[_Raw]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: line {exc.lineno} column {exc.colno}: invalid JSON: {exc.msg}") from None
    if isinstance(data, dict):
        # some exports wrap the list: {"results": [...]}
        lists = [v for v in data.values() if isinstance(v, list)]
        if len(lists) != 1:
            raise DataError(f"{path}: expected a JSON array of result records")
        data = lists[0]
    if not isinstance(data, list):
        raise DataError(f"{path}: expected a JSON array of result records")
    out = []
    for i, rec in enumerate(data):
        if not isinstance(rec, dict):
            raise DataError(f"{path}: index {i}: expected a JSON object, got {type(rec).__name__}")
        out.append(_Raw(f"index {i}", rec))
    return out


def _read_csv(path: Path) -> list[_Raw]:
    out = []
    try:
        with path.open(newline="", encoding="utf-8-sig") as fh:
            reader = csv.reader(fh, strict=True)
            try:
                header = next(reader)
            except StopIteration:
                raise DataError(f"{path}: empty file (no header line)") from None
            header = [h.strip() for h in header]
            start = reader.line_num + 1
            for row in reader:
                line = start
                start = reader.line_num + 1
                if not row or row == [""]:
                    continue
                if len(row) != len(header):
                    raise DataError(
                        f"{path}: line {line}: malformed CSV: {len(row)} fields, the header has {len(header)}"
                    )
                out.append(_Raw(f"line {line}", dict(zip(header, row, strict=True))))
    except csv.Error as exc:
        raise DataError(f"{path}: line {reader.line_num}: malformed CSV: {exc}") from None
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text: {exc}") from None
    return out


def _read_xlsx(path: Path) -> list[_Raw]:
    import openpyxl

    try:
        wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for broken files
        raise DataError(f"{path}: not a readable xlsx workbook: {exc}") from None
    try:
        ws = wb.worksheets[0]
        rows = ws.iter_rows(values_only=True)
        try:
            header = [str(h).strip() if h is not None else "" for h in next(rows)]
        except StopIteration:
            raise DataError(f"{path}: empty worksheet (no header row)") from None
        out = []
        for n, row in enumerate(rows, start=2):
            if all(v is None for v in row):
                continue
            values = {h: ("" if v is None else v) for h, v in zip(header, row, strict=False) if h}
            out.append(_Raw(f"row {n}", values))
        return out
    finally:
        wb.close()


def detect_shape(records: list[_Raw], path: Path) -> dict[str, str]:
    """Pick the column mapping: the results repository's or the checker's."""
    keys: set[str] = set()
    for r in records[:50]:
        keys.update(r.values)
    if "Submitter" in keys or "ID" in keys or "Performance_Result" in keys:
        return RESULTS_FIELDS
    if "Organization" in keys or "Result" in keys:
        return CHECKER_FIELDS
    if not records:
        raise DataError(f"{path}: no result records")
    raise DataError(
        f"{path}: unrecognized columns: neither summary_results.json columns "
        f"(ID, Submitter, Performance_Result, ...) nor the submission checker's "
        f"(Organization, Result, ...)"
    )


def read_records(path: Path) -> tuple[list[_Raw], dict[str, str]]:
    """Read any official file into raw records plus the column mapping its shape uses."""
    if not path.exists():
        raise DataError(f"{path}: file not found")
    suffix = path.suffix.lower()
    if suffix == ".json":
        records = _read_json(path)
    elif suffix == ".csv":
        records = _read_csv(path)
    elif suffix == ".xlsx":
        records = _read_xlsx(path)
    else:
        raise DataError(f"{path}: unsupported file type {suffix!r} (use .json, .csv or .xlsx)")
    return records, detect_shape(records, path)


# --------------------------------------------------------------------------- validation


def _text(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float) and math.isnan(v):
        return ""
    return str(v).strip()


def _number(v: Any) -> float | None:
    """Parse a number; ``None`` for blank, raise ValueError for text that is not one."""
    if isinstance(v, bool):
        raise ValueError(v)
    if isinstance(v, int | float):
        return float(v)
    s = _text(v)
    if s == "" or s.lower() in ("none", "nan", "n/a"):
        return None
    return float(s.replace(",", ""))


def _flag(v: Any) -> bool:
    return _text(v).lower() in ("1", "true", "yes")


def _whole(problems: _Problems, raw: _Raw, ctx: str, col: str) -> int | None:
    v = raw.values.get(col)
    try:
        n = _number(v)
    except ValueError:
        problems.add(raw.loc, ctx, col, f"not a whole number: {_text(v)!r}")
        return None
    if n is None:
        return None
    if n != int(n):
        problems.add(raw.loc, ctx, col, f"not a whole number: {_text(v)!r}")
        return None
    return int(n)


def normalize_records(
    records: list[_Raw],
    cols: dict[str, str],
    path: Path,
    manifest: Manifest,
    rnd: Round | None,
    *,
    version: str | None = None,
    divisions: Iterable[str] | None = None,
    suites: Iterable[str] | None = None,
) -> tuple[pd.DataFrame, LoadReport]:
    """Validate raw records and turn them into rows of :data:`COLUMNS`."""
    rules, families = manifest.rules, manifest.families
    problems = _Problems(path)
    shape = "summary_results" if cols is RESULTS_FIELDS else "submission checker summary"
    present: set[str] = set()
    for r in records:
        present.update(r.values)
    missing = [cols[k] for k in cols if k not in OPTIONAL and k != "result_id" and cols[k] not in present]
    if cols is RESULTS_FIELDS and "ID" not in present:
        missing.insert(0, "ID")
    if missing and records:
        raise DataError(f"{path}: missing required column(s): {', '.join(repr(m) for m in missing)}")
    keep_div = {d.lower() for d in divisions} if divisions else None
    keep_suite = {s.lower() for s in suites} if suites else None
    waivers = {(w.entry, w.field): w for w in (rnd.waivers if rnd else ())}
    report = LoadReport(path=path, version=version or "?", shape=shape)
    out: list[dict[str, Any]] = []
    seen: dict[tuple[str, ...], str] = {}
    file_versions: set[str] = set()

    for raw in records:
        v = raw.values

        def get(k: str, v: dict[str, Any] = v) -> Any:
            return v.get(cols[k], "")

        rid = _text(v.get("ID")) if "result_id" in cols else ""
        bench_raw = _text(get("benchmark"))
        benchmark = rules.canonical_benchmark(bench_raw)
        scen_raw = _text(get("scenario"))
        ctx = " ".join(p for p in (f"entry {rid}" if rid else "", bench_raw, scen_raw) if p)
        # required record-level fields
        empty = [cols[k] for k in cols if k not in OPTIONAL and k != "result_id" and cols[k] not in v]
        if cols is RESULTS_FIELDS and "ID" not in v:
            empty.insert(0, "ID")
        if empty:
            problems.add(raw.loc, ctx, None, f"missing field(s): {', '.join(repr(e) for e in empty)}")
            continue
        if cols is RESULTS_FIELDS and not rid:
            problems.add(raw.loc, ctx, "ID", "empty result ID")
        fv = _text(get("version"))
        if fv:
            file_versions.add(normalize_version(fv))
        division = _text(get("division")).lower()
        if division not in DIVISIONS:
            problems.add(
                raw.loc, ctx, cols["division"], f"unknown division {division!r} (expected closed or open)"
            )
        category = _text(get("availability")).lower()
        if category not in CATEGORIES:
            problems.add(
                raw.loc,
                ctx,
                cols["availability"],
                f"unknown category {category!r} (expected available, preview or rdi)",
            )
        suite = _text(get("suite")).lower()
        if keep_div is not None and division not in keep_div:
            report.skipped[f"{division}-division"] = report.skipped.get(f"{division}-division", 0) + 1
            continue
        if keep_suite is not None and suite not in keep_suite:
            report.skipped[f"{suite}-suite"] = report.skipped.get(f"{suite}-suite", 0) + 1
            continue
        scenario = rules.canonical_scenario(scen_raw)
        if scenario is None:
            problems.add(raw.loc, ctx, cols["scenario"], f"unknown scenario {scen_raw!r}")
        units = _text(get("units"))
        if units not in rules.units:
            known = ", ".join(sorted(rules.units))
            problems.add(raw.loc, ctx, cols["units"], f"unknown units {units!r} (known: {known})")
        try:
            result = _number(get("result"))
        except ValueError:
            problems.add(raw.loc, ctx, cols["result"], f"not a number: {_text(get('result'))!r}")
            result = None
        else:
            if result is None:
                problems.add(raw.loc, ctx, cols["result"], "missing result")
            elif not math.isfinite(result) or result <= 0:
                problems.add(
                    raw.loc,
                    ctx,
                    cols["result"],
                    f"result must be a positive number, got {_text(get('result'))!r}",
                )
                result = None
        accelerator = _text(get("accelerator"))
        family, hetero = families.classify(accelerator)
        cpu_only = families.is_cpu_only(accelerator)
        per_node = _whole(problems, raw, ctx, cols["per_node"])
        nodes = _whole(problems, raw, ctx, cols["nodes"])
        total = _whole(problems, raw, ctx, cols["total"]) if cols["total"] in v else None
        total_acc: float = math.nan
        if cpu_only:
            report.cpu_only_rows += 1
            total_acc = 0.0
        else:
            if not family:
                report.unmapped_accelerators.add(accelerator)
            waiver = waivers.get((rid, cols["per_node"]))
            if total is None and (per_node is None or per_node <= 0) and waiver:
                if rid not in report.waived:
                    report.waived.append(rid)
            elif total is not None:
                if total <= 0:
                    problems.add(
                        raw.loc,
                        ctx,
                        cols["total"],
                        f"accelerator count is {total} for accelerator {accelerator!r}",
                    )
                else:
                    total_acc = float(total)
            elif per_node is None:
                problems.add(
                    raw.loc,
                    ctx,
                    cols["per_node"],
                    f"accelerator count is missing for accelerator {accelerator!r}",
                )
            elif per_node <= 0:
                problems.add(
                    raw.loc,
                    ctx,
                    cols["per_node"],
                    f"accelerator count is {per_node} for accelerator {accelerator!r}",
                )
            elif nodes is None or nodes <= 0:
                problems.add(
                    raw.loc,
                    ctx,
                    cols["nodes"],
                    f"node count must be a positive whole number, got {_text(get('nodes'))!r}",
                )
            else:
                total_acc = float(per_node * nodes)
        key = (
            (rid, benchmark, scenario or scen_raw)
            if rid
            else (_text(get("submitter")), _text(get("platform")), division, benchmark, scenario or scen_raw)
        )
        if key in seen:
            what = f"entry {rid}" if rid else f"system {key[0]} / {key[1]}"
            problems.add(
                raw.loc,
                ctx,
                None,
                f"duplicate row: {what} {benchmark} {scenario or scen_raw} already at {seen[key]}",
            )
        else:
            seen[key] = raw.loc
        latency = rules.is_latency(units)
        per_acc = math.nan
        if result is not None and not latency and total_acc > 0:
            per_acc = result / total_acc
        out.append(
            {
                "round": version or "",
                "result_id": rid,
                "id_missing": not rid,
                "submitter": _text(get("submitter")),
                "system": _text(get("system")),
                "platform": _text(get("platform")),
                "division": division,
                "category": category,
                "suite": suite,
                "benchmark": benchmark,
                "benchmark_raw": bench_raw,
                "scenario": scenario or scen_raw,
                "accelerator": accelerator,
                "family": family,
                "heterogeneous": hetero,
                "nodes": nodes if nodes is not None else 0,
                "accelerators_per_node": per_node if per_node is not None else 0,
                "total_accelerators": total_acc,
                "result": result if result is not None else math.nan,
                "units": units,
                "higher_is_better": not latency,
                "per_accelerator": per_acc,
                "software": _text(get("software")),
                "weight_data_types": _text(get("weights")),
                "inferred": _flag(get("inferred")),
                "has_power": _flag(get("has_power")),
                "source_file": str(path),
                "source_row": raw.loc,
            }
        )
    if version and file_versions and file_versions != {version}:
        found = ", ".join(f"v{f}" for f in sorted(file_versions))
        problems.add("version", "", None, f"the file says {found} but is loaded as round v{version}")
    problems.raise_if_any()
    report.rows = len(out)
    df = pd.DataFrame(out, columns=COLUMNS)
    return df, report


def read_results(
    path: Path | str,
    manifest: Manifest,
    *,
    version: str | None = None,
    divisions: Iterable[str] | None = None,
    suites: Iterable[str] | None = None,
) -> tuple[pd.DataFrame, LoadReport]:
    """Read one official results file (any shape) into the normalized table.

    *version* names the round; without it the file's own ``version`` column decides.
    """
    p = Path(path)
    records, cols = read_records(p)
    if version is None:
        found = {normalize_version(_text(r.values.get(cols["version"]))) for r in records} - {""}
        if len(found) != 1:
            raise DataError(
                f"{p}: cannot tell which round this file holds (version column: "
                f"{', '.join(sorted(found)) or 'empty'}); name the round explicitly"
            )
        version = found.pop()
    version = normalize_version(version)
    rnd = manifest.rounds.get(version)
    return normalize_records(
        records, cols, p, manifest, rnd, version=version, divisions=divisions, suites=suites
    )


#: File names a round directory may hold, most preferred first.
ROUND_FILES = ("summary_results.json", "summary.xlsx", "summary.json", "summary.csv")


def round_file(results_dir: Path, version: str, manifest: Manifest | None = None) -> Path | None:
    """The file holding round *version* under ``results_dir/v<version>/``, if any."""
    d = Path(results_dir) / f"v{normalize_version(version)}"
    names: list[str] = []
    if manifest and normalize_version(version) in manifest.rounds:
        names.append(manifest.rounds[normalize_version(version)].file)
    names.extend(n for n in ROUND_FILES if n not in names)
    for n in names:
        if (d / n).is_file():
            return d / n
    return None


def available_rounds(results_dir: Path) -> list[str]:
    """Round versions that have a results file under *results_dir*, oldest first."""
    d = Path(results_dir)
    if not d.is_dir():
        return []
    found = []
    for sub in d.iterdir():
        if sub.is_dir() and sub.name.startswith("v") and round_file(d, sub.name):
            found.append(normalize_version(sub.name))
    return sorted(found, key=version_key)


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) if p.isdigit() else 0 for p in normalize_version(version).split("."))


def iter_round_files(results_dir: Path, versions: Iterable[str]) -> Iterator[tuple[str, Path]]:
    for v in versions:
        f = round_file(results_dir, v)
        if f is not None:
            yield normalize_version(v), f
