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
import math
import re
import zipfile
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from generator.data.columns import file_columns
from generator.data.fields import (
    CATEGORIES,
    DIVISIONS,
    MAX_TEXT,
    RESULT_ID,
    PowerProblem,
    flag_of,
    named_counts,
    not_a_number,
    number_of,
    power_of,
    result_id_of,
    suite_of,
    suites_match,
    text_of,
    whole_of,
)
from generator.data.manifest import Manifest, Round, normalize_version, read_json
from generator.data.versions import ROUND_FILES, version_key  # noqa: F401 - also imported from here
from generator.errors import DataError

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
    "power",
    "power_units",
    "source_file",
    "source_row",
    "details",
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
    "power": "Power_Result",
    "power_units": "Power_Units",
    "version": "version",
    "details": "Details",
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
    # no measured power: the checker's summary.csv has none. Its design_power_watts (v6.1) is
    # the system's DESIGN power, a rating, not an MLPerf(R) Power measurement: never loaded as
    # measured power (§6 of the guidelines allows only measured power as a power metric)
}
OPTIONAL = {
    "total",
    "software",
    "weights",
    "inferred",
    "has_power",
    "power",
    "power_units",
    "version",
    "details",
}
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
    power_rows: int = 0  # rows with a measured MLPerf(R) power (what power(...) prints)
    agrees_with: list[str] = field(default_factory=list)  # other files of the round, checked

    def summary_line(self, path_text: str | None = None) -> str:
        """One line for the build log, e.g. ``v6.1: 492 rows from …/summary.csv``."""
        parts = [f"v{self.version}: {self.rows:,} rows from {path_text or self.path} ({self.shape})"]
        for reason, n in sorted(self.skipped.items()):
            parts.append(f"{n:,} {reason} rows skipped")
        if self.cpu_only_rows:
            parts.append(f"{self.cpu_only_rows:,} CPU-only rows (no per-accelerator value)")
        if self.power_rows:
            parts.append(f"{self.power_rows:,} rows with measured power")
        if self.waived:
            parts.append(f"waivers applied: {', '.join(self.waived)}")
        if self.agrees_with:
            parts.append(f"agrees with {', '.join(self.agrees_with)}")
        if self.unmapped_accelerators:
            names = ", ".join(repr(a) for a in sorted(self.unmapped_accelerators))
            parts.append(f"accelerators not in accelerators.toml: {names}")
        return "; ".join(parts)


@dataclass
class _Raw:
    """One record of an official file before validation."""

    loc: str  # "index 12", "line 14", "row 3"
    values: dict[str, Any]


#: the most of a record's context (entry, benchmark, scenario) and of a message a problem shows:
#: the values it echoes come from the file, and a 200 MB ID made a 200 MB message
MAX_CONTEXT, MAX_MESSAGE = 200, 600


def _clipped(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


class _Problems:
    """Collects validation problems of one file; raises them together."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.items: list[str] = []

    def add(self, loc: str, context: str, fld: str | None, message: str) -> None:
        where = f"{loc} ({_clipped(context, MAX_CONTEXT)})" if context else loc
        field_part = f"field {_clipped(fld, MAX_CONTEXT)!r}: " if fld else ""
        self.items.append(f"{self.path}: {where}: {field_part}{_clipped(message, MAX_MESSAGE)}")

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


class _Repeated(dict[str, Any]):
    """A JSON object that names a key more than once (Python's reader keeps the last value)."""

    repeated: tuple[str, ...] = ()


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object as a dict; one naming a key twice is a :class:`_Repeated` saying which."""
    d = dict(pairs)
    if len(d) == len(pairs):
        return d
    out = _Repeated(pairs)
    out.repeated = tuple(k for k, n in Counter(k for k, _ in pairs).items() if n > 1)
    return out


#: a JSON escape of a UTF-16 surrogate: only such a file can give text holding a lone one
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _shown(text: str) -> str:
    """*text* printable: a lone surrogate as its escape (it cannot be written as UTF-8)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _record_context(rec: dict[str, Any]) -> str:
    """What names a record in a message, as the row reader does: entry, benchmark, scenario."""
    rid, bench, scen = (_shown(text_of(rec.get(k))) for k in ("ID", "Model", "Scenario"))
    return " ".join(p for p in (f"entry {rid}" if rid else "", bench, scen) if p)


def _json_problems(path: Path, records: list[_Raw], surrogates: bool) -> None:
    """Records naming a key twice, and (where the file escapes a surrogate) text holding a lone
    surrogate, which no page can print: one error naming file, record, entry, key or field."""
    problems = _Problems(path)
    for raw in records:
        rec = raw.values
        for key in rec.repeated if isinstance(rec, _Repeated) else ():
            problems.add(raw.loc, _record_context(rec), None, f"key {key!r} appears twice in one record")
        if not surrogates:
            continue
        for key, value in rec.items():
            for text in (key, value if type(value) is str else ""):
                m = _SURROGATE.search(text)
                if m is not None:
                    shown = f"{text[:80]!r}{'...' if len(text) > 80 else ''}"
                    message = f"a lone surrogate {m.group(0)!r} in {shown}: not text; correct the file"
                    problems.add(raw.loc, _record_context(rec), key, message)
                    break
    problems.raise_if_any()


def _read_json(path: Path) -> list[_Raw]:
    escapes: list[bool] = []
    data = read_json(
        path, DataError, _json_object, seen=lambda text: escapes.append(bool(_ESCAPED_SURROGATE.search(text)))
    )
    if isinstance(data, dict):
        # some exports wrap the list: {"results": [...]}
        if isinstance(data, _Repeated):
            raise DataError(f"{path}: key {data.repeated[0]!r} appears twice in the file's object")
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
    _json_problems(path, out, any(escapes))
    return out


def _stray_quote(text: str) -> tuple[int, int] | None:
    """(line, field index) of the first double quote outside a properly quoted field, if any.

    Python's csv module reads ``8x "B300" box`` as text with quotes in it; in a file the
    submission checker wrote, such a quote means the row's quoting is broken.
    """
    line, field, quoted, start, i, n = 1, 0, False, True, 0, len(text)
    while i < n:
        c = text[i]
        if quoted:
            if c == '"' and text[i + 1 : i + 2] == '"':
                i += 2
                continue
            if c == '"':
                quoted = False
                if text[i + 1 : i + 2] not in (",", "\n", "\r", ""):
                    return line, field
            elif c == "\n":
                line += 1
        elif c == '"':
            if not start:
                return line, field
            quoted = True
        elif c in ",\n":
            field, line = (field + 1, line) if c == "," else (0, line + 1)
            start = True
            i += 1
            continue
        start = False
        i += 1
    return None


def _read_csv(path: Path) -> list[_Raw]:
    out = []
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text: {exc}") from None
    stray = _stray_quote(text)
    if stray is not None:
        line, field = stray
        names = next(csv.reader([text.split("\n", 1)[0]]), [])
        name = f" in field {names[field].strip()!r}" if field < len(names) else ""
        raise DataError(f"{path}: line {line}: malformed CSV: a stray '\"'{name} (quote the whole field)")
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


#: the most a summary.xlsx may unpack to: the results page's workbooks unpack to a few
#: megabytes; openpyxl holds the shared strings in memory, so a larger one is refused before
#: it reads them (a 1.6 MB file holding one 1.5 GB cell cost 54 s and 3.2 GB)
MAX_XLSX_UNPACKED = 64 * 2**20


def _xlsx_size(path: Path) -> None:
    """Refuse a workbook whose parts unpack to more than :data:`MAX_XLSX_UNPACKED` bytes. The
    sizes are the zip's own; Python's zip reader reads no part past its stated size."""
    try:
        with zipfile.ZipFile(path) as z:
            parts = [(i.file_size, i.filename) for i in z.infolist()]
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise DataError(f"{path}: not a readable xlsx workbook: {exc}") from None
    total = sum(size for size, _ in parts)
    if total > MAX_XLSX_UNPACKED:
        size, name = max(parts)
        raise DataError(
            f"{path}: the workbook unpacks to {total:,} bytes ({name}: {size:,}); a results "
            f"workbook unpacks to a few megabytes, at most {MAX_XLSX_UNPACKED:,} are read"
        )


def _read_xlsx(path: Path) -> list[_Raw]:
    import openpyxl  # here: the JSON and CSV files most builds read need none of it

    _xlsx_size(path)
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


def read_records(path: Path, fmt: str | None = None) -> tuple[list[_Raw], dict[str, str]]:
    """Read any official file into raw records plus the column mapping its shape uses.

    *fmt* (``json``, ``csv``, ``xlsx``) overrides the file name's suffix.
    """
    if not path.exists():
        raise DataError(f"{path}: file not found")
    suffix = f".{fmt}" if fmt else path.suffix.lower()
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


def _whole(problems: _Problems, raw: _Raw, ctx: str, col: str) -> int | None:
    v = raw.values.get(col)
    try:
        return whole_of(v)
    except ValueError:
        problems.add(raw.loc, ctx, col, not_a_number("whole number", text_of(v)))
        return None


class _RowReader:
    """Validates the records of one file and turns them into rows of :data:`COLUMNS`."""

    def __init__(
        self, cols: dict[str, str], path: Path, manifest: Manifest, rnd: Round | None, report: LoadReport
    ) -> None:
        self.cols, self.path, self.report = cols, path, report
        self.rules, self.families = manifest.rules, manifest.families
        self.problems = _Problems(path)
        self.waivers = {(w.entry, w.field): w for w in (rnd.waivers if rnd else ())}
        self.seen: dict[tuple[str, ...], str] = {}
        self.file_versions: set[str] = set()
        self.results_shape = cols is RESULTS_FIELDS
        self.required = [cols[k] for k in cols if k not in OPTIONAL and k != "result_id"]
        self.required_set = frozenset(self.required)
        #: the text fields whose length is checked, with their column names
        self.length_cols = [
            (k, cols[k]) for k in ("submitter", "system", "platform", "accelerator", "software")
        ]

    def get(self, raw: _Raw, key: str) -> Any:
        return raw.values.get(self.cols[key], "")

    def add(self, raw: _Raw, ctx: str, key: str | None, message: str) -> None:
        self.problems.add(raw.loc, ctx, self.cols.get(key, key) if key else None, message)

    def _result_id(self, raw: _Raw, ctx: str, version: str) -> str:
        rid = text_of(raw.values.get("ID")) if self.results_shape else ""
        if self.results_shape and not rid:
            self.add(raw, ctx, "ID", "empty result ID")
        elif rid:
            m = RESULT_ID.fullmatch(rid)
            if m is None:
                self.add(
                    raw, ctx, "ID", f"malformed result ID {rid!r} (expected e.g. {version or '6.1'}-0052)"
                )
            elif version and m.group(1) != version:
                self.add(raw, ctx, "ID", f"result ID {rid} belongs to round v{m.group(1)}, not v{version}")
            else:
                return result_id_of(rid)
        return rid

    def _labels(self, raw: _Raw, ctx: str, scenario: str | None) -> tuple[str, str, str]:
        get, cols = raw.values.get, self.cols
        division = text_of(get(cols["division"], "")).lower()
        if division not in DIVISIONS:
            self.add(raw, ctx, "division", f"unknown division {division!r} (expected closed or open)")
        category = text_of(get(cols["availability"], "")).lower()
        if category not in CATEGORIES:
            self.add(
                raw,
                ctx,
                "availability",
                f"unknown category {category!r} (expected available, preview or rdi)",
            )
        text = text_of(get(cols["suite"], ""))
        suite = suite_of(text, scenario)
        if suite is None:
            self.add(
                raw, ctx, "suite", f"unknown suite {text!r} (expected datacenter, edge or datacenter,edge)"
            )
        return division, category, suite or text.lower()

    def _power(self, raw: _Raw, ctx: str, scenario: str | None) -> dict[str, Any]:
        """The row's ``has_power`` flag and measured power (NaN and no unit where it has none,
        see :func:`~generator.data.fields.power_of`); a measured power on a row the file says
        has none is refused."""
        get = raw.values.get
        has_power = flag_of(get(self.cols["has_power"], ""))
        if "power" not in self.cols:  # the checker's shape: no measured power
            return {"has_power": has_power, "power": math.nan, "power_units": ""}
        try:
            power, unit = power_of(get(self.cols["power"]), get(self.cols["power_units"]), scenario)
        except PowerProblem as exc:
            self.add(raw, ctx, exc.field, str(exc))
            power, unit = math.nan, ""
        if power == power and not has_power and self.cols["has_power"] in raw.values:
            message = f"false, but the row has a measured power ({power:g} {unit})"
            self.add(raw, ctx, "has_power", message)
        return {"has_power": has_power, "power": power, "power_units": unit}

    def _result(self, raw: _Raw, ctx: str, units: str) -> float | None:
        if units not in self.rules.units:
            known = ", ".join(sorted(self.rules.units))
            self.add(raw, ctx, "units", f"unknown units {units!r} (known: {known})")
        value = self.get(raw, "result")  # as text only in a message
        try:
            result = number_of(value)
        except ValueError:
            self.add(raw, ctx, "result", not_a_number("number", text_of(value)))
            return None
        if result is None:
            self.add(raw, ctx, "result", "missing result")
            return None
        if not math.isfinite(result) or result <= 0:
            self.add(raw, ctx, "result", f"result must be a positive number, got {text_of(value)!r}")
            return None
        top, low = self.rules.plausible_max(units), self.rules.plausible_min(units)
        if top is not None and result > top:
            self.add(
                raw,
                ctx,
                "result",
                f"result {result:.6g} {units} is implausible (at most {top:,.0f} {units} expected)",
            )
            return None
        if low is not None and result < low:
            self.add(
                raw,
                ctx,
                "result",
                f"result {result:.6g} {units} is implausible (at least {low:g} {units} expected)",
            )
            return None
        return result

    def _plausible(
        self,
        raw: _Raw,
        ctx: str,
        rid: str,
        units: str,
        family: str,
        counts: tuple[int | None, int | None, int | None],
        derived: tuple[float, float],
    ) -> None:
        """Counts, values and names that cannot all be true: the per-accelerator value, the count
        a name states, the length of every text field."""
        total, per_acc = derived
        self._plausible_per_accelerator(raw, ctx, units, per_acc, counts)
        self._named_count(raw, ctx, rid, family, counts, total)
        self._lengths(raw, ctx)

    def _plausible_per_accelerator(
        self,
        raw: _Raw,
        ctx: str,
        units: str,
        per_acc: float,
        counts: tuple[int | None, int | None, int | None],
    ) -> None:
        top = self.rules.plausible_max_per_accelerator(units)
        if top is not None and per_acc == per_acc and per_acc > top:
            per_node, nodes, total = counts
            self.add(
                raw,
                ctx,
                "total" if total is not None else "per_node",
                f"{per_acc:,.0f} {units} per accelerator is implausible (at most {top:,.0f} expected): "
                f"check the accelerator count ({self.cols['per_node']} {per_node}, {self.cols['nodes']} {nodes}"
                + (f", {self.cols['total']} {total}" if total is not None else "")
                + ")",
            )

    def _named_count(
        self,
        raw: _Raw,
        ctx: str,
        rid: str,
        family: str,
        counts: tuple[int | None, int | None, int | None],
        total: float,
    ) -> None:
        """A system or platform name that says "8x B300" must agree with the accelerator count: the
        count per node, the total, or one of equal parts of the total (a rack of a multi-rack system)."""
        if not family or total != total or total <= 0:
            return
        per_node = counts[0]
        for key in ("system", "platform"):
            for n in named_counts(text_of(self.get(raw, key)), family):
                if n in (per_node, int(total)) or (n > 1 and int(total) % n == 0):
                    continue
                if (rid, "System") in self.waivers:
                    if rid not in self.report.waived:
                        self.report.waived.append(rid)
                    return
                self.add(
                    raw,
                    ctx,
                    key,
                    f"the name says {n}x {family} but the file gives {int(total)} accelerator(s) "
                    f"({self.cols['per_node']} {per_node}); correct the count or add a waiver "
                    f'(field = "System") for {rid or "this row"} in data/rounds.toml',
                )
                return

    def _lengths(self, raw: _Raw, ctx: str) -> None:
        get = raw.values.get
        for key, col in self.length_cols:
            x = get(col, "")
            n = len(x) if type(x) is str else len(str(x or ""))
            if n > MAX_TEXT:
                self.add(raw, ctx, key, f"{n:,} characters; a name or description holds at most {MAX_TEXT:,}")

    def _counts(self, raw: _Raw, ctx: str) -> tuple[int | None, int | None, int | None]:
        """(a#, Nodes, Total Accelerators) as whole numbers, None where blank or broken."""
        per_node = _whole(self.problems, raw, ctx, self.cols["per_node"])
        nodes = _whole(self.problems, raw, ctx, self.cols["nodes"])
        has_total = self.cols["total"] in raw.values
        total = _whole(self.problems, raw, ctx, self.cols["total"]) if has_total else None
        return per_node, nodes, total

    def _accelerators(
        self,
        raw: _Raw,
        ctx: str,
        rid: str,
        accelerator: str,
        counts: tuple[int | None, int | None, int | None],
    ) -> float:
        """Total accelerators of the row: ``Total Accelerators``, checked against a# x Nodes."""
        per_node, nodes, total = counts
        if self.families.is_cpu_only(accelerator):
            self.report.cpu_only_rows += 1
            return 0.0
        waived = (rid, self.cols["per_node"]) in self.waivers
        if total is None and (per_node is None or per_node <= 0) and waived:
            if rid not in self.report.waived:
                self.report.waived.append(rid)
            return math.nan
        if total is not None and total <= 0:
            self.add(raw, ctx, "total", f"accelerator count is {total} for accelerator {accelerator!r}")
            return math.nan
        product = self._product(raw, ctx, accelerator, per_node, nodes, need=total is None)
        if total is not None and product is not None and product != total:
            if (rid, self.cols["total"]) in self.waivers:
                if rid not in self.report.waived:
                    self.report.waived.append(rid)
            else:
                self.add(
                    raw,
                    ctx,
                    "total",
                    f"{total} accelerators, but {self.cols['per_node']} x {self.cols['nodes']} = "
                    f"{per_node} x {nodes} = {product}; correct the file or add a waiver for "
                    f"{rid or 'this row'} in data/rounds.toml",
                )
                return math.nan
        return float(total if total is not None else product or math.nan)

    def _product(
        self, raw: _Raw, ctx: str, accelerator: str, per_node: int | None, nodes: int | None, *, need: bool
    ) -> int | None:
        """a# x Nodes, or None; when *need* (no total given), a missing or bad count is an error."""
        if per_node is None or per_node <= 0:
            if need:
                what = "missing" if per_node is None else str(per_node)
                self.add(raw, ctx, "per_node", f"accelerator count is {what} for accelerator {accelerator!r}")
            return None
        if nodes is None or nodes <= 0:
            if need or nodes is not None:  # a node count that is given must make sense
                got = text_of(self.get(raw, "nodes"))
                self.add(raw, ctx, "nodes", f"node count must be a positive whole number, got {got!r}")
            return None
        return per_node * nodes

    def _duplicate(
        self, raw: _Raw, ctx: str, rid: str, key: tuple[str, ...], benchmark: str, scenario: str
    ) -> None:
        if key in self.seen:
            what = f"entry {rid}" if rid else f"system {key[0]} / {key[1]}"
            self.add(
                raw, ctx, None, f"duplicate row: {what} {benchmark} {scenario} already at {self.seen[key]}"
            )
        else:
            self.seen[key] = raw.loc

    def _skipped(
        self, division: str, suite: str, keep_div: set[str] | None, keep_suite: set[str] | None
    ) -> bool:
        """Whether a row is outside the divisions and suites asked for (counted in the report)."""
        if keep_div is not None and division not in keep_div:
            reason = f"{division}-division"
        elif keep_suite is not None and not suites_match(suite, keep_suite):
            reason = f"{suite}-suite"
        else:
            return False
        self.report.skipped[reason] = self.report.skipped.get(reason, 0) + 1
        return True

    def _model(self, raw: _Raw) -> str:
        """The benchmark as the file names it: ``Model`` (``UsedModel`` beside it is the model an
        Open entry ran, a MobileNet for ``resnet``); where ``Model`` is blank, ``UsedModel`` when
        it names a benchmark of data/benchmarks.toml (``resnet50``), else blank."""
        model = text_of(raw.values.get(self.cols["benchmark"], ""))
        if model or not self.results_shape:
            return model
        used = text_of(raw.values.get("UsedModel", ""))
        return used if self.rules.canonical_benchmark(used) in self.rules.benchmarks else ""

    def row(
        self, raw: _Raw, version: str, keep_div: set[str] | None, keep_suite: set[str] | None
    ) -> dict[str, Any] | None:
        """One normalized row, or None when the record is skipped or broken."""
        v, cols = raw.values, self.cols
        get = v.get
        bench_raw, scen_raw = self._model(raw), text_of(get(cols["scenario"], ""))
        rid_text = text_of(get("ID")) if self.results_shape else ""
        ctx = " ".join(p for p in (f"entry {rid_text}" if rid_text else "", bench_raw, scen_raw) if p)
        if not bench_raw and cols["benchmark"] in v:
            used = f" (UsedModel {text_of(get('UsedModel', ''))!r} names none of data/benchmarks.toml)"
            self.add(raw, ctx, "benchmark", "no benchmark" + (used if self.results_shape else ""))
        if not v.keys() >= self.required_set or (self.results_shape and "ID" not in v):
            empty = [c for c in self.required if c not in v]
            if self.results_shape and "ID" not in v:
                empty.insert(0, "ID")
            self.add(raw, ctx, None, f"missing field(s): {', '.join(repr(e) for e in empty)}")
            return None
        rid = self._result_id(raw, ctx, version)
        fv = text_of(get(cols["version"], ""))
        if fv:
            self.file_versions.add(normalize_version(fv))
        scenario = self.rules.canonical_scenario(scen_raw)
        division, category, suite = self._labels(raw, ctx, scenario)
        if self._skipped(division, suite, keep_div, keep_suite):
            return None
        if scenario is None:
            self.add(raw, ctx, "scenario", f"unknown scenario {scen_raw!r}")
        units = text_of(get(cols["units"], ""))
        result = self._result(raw, ctx, units)
        accelerator = text_of(get(cols["accelerator"], ""))
        family, hetero = self.families.classify(accelerator)
        if not family and not self.families.is_cpu_only(accelerator):
            self.report.unmapped_accelerators.add(accelerator)
        counts = self._counts(raw, ctx)
        total_acc = self._accelerators(raw, ctx, rid, accelerator, counts)
        benchmark = self.rules.canonical_benchmark(bench_raw)
        submitter, platform = text_of(get(cols["submitter"], "")), text_of(get(cols["platform"], ""))
        key = (
            (rid, benchmark, scenario or scen_raw)
            if rid
            else (submitter, platform, division, benchmark, scenario or scen_raw)
        )
        self._duplicate(raw, ctx, rid, key, benchmark, scenario or scen_raw)
        latency = self.rules.is_latency(units)
        per_acc = result / total_acc if result is not None and not latency and total_acc > 0 else math.nan
        self._plausible(raw, ctx, rid, units, family, counts, (total_acc, per_acc))
        return {
            "round": version or "",
            "result_id": rid,
            "id_missing": not rid,
            "submitter": submitter,
            "system": text_of(get(cols["system"], "")),
            "platform": platform,
            "division": division,
            "category": category,
            "suite": suite,
            "benchmark": benchmark,
            "benchmark_raw": bench_raw,
            "scenario": scenario or scen_raw,
            "accelerator": accelerator,
            "family": family,
            "heterogeneous": hetero,
            "nodes": counts[1] or 0,
            "accelerators_per_node": counts[0] or 0,
            "total_accelerators": total_acc,
            "result": result if result is not None else math.nan,
            "units": units,
            "higher_is_better": not latency,
            "per_accelerator": per_acc,
            "software": text_of(get(cols["software"], "")),
            "weight_data_types": text_of(get(cols["weights"], "")),
            "inferred": flag_of(get(cols["inferred"], "")),
            **self._power(raw, ctx, scenario),
            "source_file": str(self.path),
            "source_row": raw.loc,
            "details": text_of(get(cols["details"], "")) if "details" in cols else "",
        }


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
    report = LoadReport(path=path, version=version or "?", shape=shape)
    reader = _RowReader(cols, path, manifest, rnd, report)
    # a file with no problem, column by column; else record by record, naming every problem
    rows: dict[str, list[Any]] | list[dict[str, Any]] | None = (
        file_columns(records, reader, version or "") if keep_div is keep_suite is None else None
    )
    if rows is None:
        rows = [one for raw in records if (one := reader.row(raw, version or "", keep_div, keep_suite))]
    df = pd.DataFrame(rows, columns=COLUMNS)
    if version and reader.file_versions and reader.file_versions != {version}:
        found = ", ".join(f"v{f}" for f in sorted(reader.file_versions))
        reader.problems.add("version", "", None, f"the file says {found} but is loaded as round v{version}")
    reader.problems.raise_if_any()
    report.rows = len(df)
    report.power_rows = int(df["power"].notna().sum())
    return df, report


def read_results(
    path: Path | str,
    manifest: Manifest,
    *,
    version: str | None = None,
    divisions: Iterable[str] | None = None,
    suites: Iterable[str] | None = None,
    fmt: str | None = None,
) -> tuple[pd.DataFrame, LoadReport]:
    """Read one official results file (any shape) into the normalized table.

    *version* names the round; without it the file's own ``version`` column decides.
    """
    p = Path(path)
    records, cols = read_records(p, fmt)
    if version is None:
        found = {normalize_version(text_of(r.values.get(cols["version"]))) for r in records} - {""}
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


def round_files(results_dir: Path, version: str, manifest: Manifest | None = None) -> list[Path]:
    """Every results file of round *version* under ``results_dir/v<version>/``, preferred first."""
    first = round_file(results_dir, version, manifest)
    if first is None:
        return []
    d = first.parent
    return [first] + [d / n for n in ROUND_FILES if (d / n).is_file() and d / n != first]


def read_round(
    results_dir: Path,
    version: str,
    manifest: Manifest,
    *,
    divisions: Iterable[str] | None = None,
    suites: Iterable[str] | None = None,
) -> tuple[pd.DataFrame, LoadReport]:
    """Read a round's preferred file; any other file of the round must agree with it row by row."""
    files = round_files(results_dir, version, manifest)
    if not files:
        raise DataError(f"{Path(results_dir) / ('v' + normalize_version(version))}: no results file")
    df, report = read_results(files[0], manifest, version=version, divisions=divisions, suites=suites)
    for other in files[1:]:
        df2, _ = read_results(other, manifest, version=version, divisions=divisions, suites=suites)
        check_agreement(df, df2, files[0], other)
        report.agrees_with.append(other.name)
    return df, report


#: fields two files of one round must agree on, row by row
AGREE_ON = ("category", "suite", "accelerator", "total_accelerators", "result", "units")
AGREE_ON_MEASURED = ("power", "power_units")


def check_agreement(a: pd.DataFrame, b: pd.DataFrame, pa: Path, pb: Path) -> None:
    """Raise a :class:`DataError` listing the rows where two files of one round disagree."""
    key = ["submitter", "platform", "division", "benchmark", "scenario"]
    m = a.merge(b, on=key, how="outer", suffixes=("_a", "_b"), indicator=True)
    problems: list[str] = []
    for _, r in m.iterrows():
        what = f"{r['submitter']} / {r['platform']} {r['benchmark']} {r['scenario']}"
        if r["_merge"] != "both":
            side, other = (pa, pb) if r["_merge"] == "left_only" else (pb, pa)
            loc = r["source_row_a"] if r["_merge"] == "left_only" else r["source_row_b"]
            problems.append(f"{what}: in {side} ({loc}) but not in {other}")
            continue
        # the measured power too, where both files give one (the checker's summary.csv gives none)
        measured = r["power_a"] == r["power_a"] and r["power_b"] == r["power_b"]
        for f in AGREE_ON + AGREE_ON_MEASURED if measured else AGREE_ON:
            x, y = r[f"{f}_a"], r[f"{f}_b"]
            same = (x == y) or (
                isinstance(x, float)
                and isinstance(y, float)
                and (math.isclose(x, y, rel_tol=1e-9) or (math.isnan(x) and math.isnan(y)))
            )
            if not same:
                problems.append(
                    f"{what}: {f} is {x!r} in {pa} ({r['source_row_a']}) and {y!r} in {pb} ({r['source_row_b']})"
                )
    if problems:
        shown = problems[:MAX_LISTED_ERRORS]
        more = f"\n  … and {len(problems) - len(shown)} more" if len(problems) > len(shown) else ""
        raise DataError(
            f"{pa.parent}: {pa.name} and {pb.name} disagree on {len(problems)} row(s); keep only the "
            "official file:\n  " + "\n  ".join(shown) + more
        )


def available_rounds(results_dir: Path) -> list[str]:
    """Round versions that have a results file under *results_dir*, oldest first."""
    d = Path(results_dir)
    if not d.is_dir():
        raise DataError(
            f"{d}: no such folder (expected one sub-folder per round: v6.1/summary_results.json, ...)"
        )
    found = []
    for sub in d.iterdir():
        if sub.is_dir() and sub.name.startswith("v") and round_file(d, sub.name):
            found.append(normalize_version(sub.name))
    return sorted(found, key=version_key)


def iter_round_files(results_dir: Path, versions: Iterable[str]) -> Iterator[tuple[str, Path]]:
    for v in versions:
        f = round_file(results_dir, v)
        if f is not None:
            yield normalize_version(v), f
