"""An independent audit of every figure a built site prints.

A second, deliberately small implementation: the standard library only, nothing from the rest
of :mod:`generator` (a test parses this module's imports). It reads the site's figures ledger
(``figures.json``), reads again each official row a figure names, from the round's official file
(``summary_results.json``, the submission checker's ``summary.csv`` or ``summary.xlsx``) at the
place the ledger records, checks that the row is the entry, benchmark and scenario the ledger
says, and re-derives the figure from those rows by its recorded calculation: system results,
per-accelerator values (the result over ``Total Accelerators``, else ``a#`` x ``Nodes``), measured
power (``Power_Result`` in its ``Power_Units``), ratios,
percentages, gaps, shares, scaling, break-even and cost figures (prices from
``data/prices.toml``), medians, spreads, counts (distinct organisations through
``data/submitters.toml``, families through ``data/accelerators.toml``), largest sizes and
ties. Then it prints the re-derived value as the article's formatting asks (rounding,
separators, style) and compares value and text with what the ledger says was printed.
"""

from __future__ import annotations

import csv
import json
import math
import operator
import re
import statistics
import time
import tomllib
import zipfile
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

#: the project data files the audit reads, by name under the publication's data folder
DATA_NAMES = ("prices.toml", "benchmarks.toml", "accelerators.toml", "submitters.toml")


class AuditError(Exception):
    """The audit could not run: a ledger or an official file that cannot be read."""


# --------------------------------------------------------------------------- official files

#: the columns of each shape of official file: the results repositories' and the checker's
RESULTS_COLUMNS = {
    "id": "ID",
    "submitter": "Submitter",
    "benchmark": "Model",
    "scenario": "Scenario",
    "accelerator": "Accelerator",
    "per_node": "a#",
    "nodes": "Nodes",
    "total": "Total Accelerators",
    "result": "Performance_Result",
    "units": "Performance_Units",
    "power": "Power_Result",
    "power_units": "Power_Units",
}
CHECKER_COLUMNS = {
    "id": "",
    "submitter": "Organization",
    "benchmark": "Model",
    "scenario": "Scenario",
    "accelerator": "accelerator_model_name",
    "per_node": "accelerators_per_node",
    "nodes": "number_of_nodes",
    "total": "total_accelerators",
    "result": "Result",
    "units": "Units",
    "power": "",  # none: its design_power_watts is a design figure, not a measured power
    "power_units": "",
}
#: a measured power's unit as the ledger records it, by the official file's ``Power_Units``
POWER_UNITS = {"watts": "W", "w": "W", "millijoules": "mJ", "mj": "mJ"}

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def text(v: Any) -> str:
    """A field as text: tabs and line breaks as spaces, other control characters out, stripped."""
    if v is None or (isinstance(v, float) and v != v):
        return ""
    return _CONTROL.sub(lambda m: " " if m.group(0) in "\t\n\r" else "", str(v)).strip()


def number(v: Any) -> float | None:
    """A numeric field (``"1,234.5"`` too); None when blank."""
    if isinstance(v, int | float) and not isinstance(v, bool):
        return None if v != v else float(v)
    s = text(v).replace(",", "")
    if s.lower() in ("", "none", "nan", "n/a"):
        return None
    return float(s)


def read_json_records(path: Path) -> dict[str, dict[str, Any]]:
    """A JSON file's records by place (``index 12``)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(data, dict):
        lists = [v for v in data.values() if isinstance(v, list)]
        data = lists[0] if len(lists) == 1 else None
    if not isinstance(data, list):
        raise AuditError(f"{path}: expected a JSON array of result records")
    return {f"index {i}": rec for i, rec in enumerate(data) if isinstance(rec, dict)}


def read_csv_records(path: Path) -> dict[str, dict[str, Any]]:
    """A CSV file's records by the line each starts on (``line 5``)."""
    out: dict[str, dict[str, Any]] = {}
    with path.open(newline="", encoding="utf-8-sig") as fh:
        reader = csv.reader(fh)
        header = [h.strip() for h in next(reader, [])]
        start = reader.line_num + 1
        for row in reader:
            line, start = start, reader.line_num + 1
            if row and row != [""]:
                out[f"line {line}"] = dict(zip(header, row, strict=False))
    return out


_XL = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"


def _cell_column(ref: str) -> int:
    n = 0
    for c in ref:
        if not c.isalpha():
            break
        n = n * 26 + ord(c.upper()) - 64
    return n - 1


def _cell_value(c: ElementTree.Element, shared: list[str]) -> Any:
    kind = c.get("t", "n")
    if kind == "inlineStr":
        return "".join(t.text or "" for t in c.iter(f"{_XL}t"))
    v = c.find(f"{_XL}v")
    if v is None or v.text is None:
        return ""
    if kind == "s":
        return shared[int(v.text)]
    if kind in ("str", "e"):
        return v.text
    if kind == "b":
        return v.text == "1"
    f = float(v.text)
    return int(f) if f.is_integer() and "." not in v.text and "E" not in v.text.upper() else f


def _first_sheet(z: zipfile.ZipFile) -> str:
    book = ElementTree.fromstring(z.read("xl/workbook.xml"))
    sheet = next(book.iter(f"{_XL}sheet"))
    rid = sheet.get(f"{_REL}id")
    rels = ElementTree.fromstring(z.read("xl/_rels/workbook.xml.rels"))
    for rel in rels:
        if rel.get("Id") == rid:
            target = rel.get("Target", "")
            return target.lstrip("/") if target.startswith("/") else "xl/" + target
    raise AuditError("the workbook names no first worksheet")


def read_xlsx_records(path: Path) -> dict[str, dict[str, Any]]:
    """The first worksheet's records by row number (``row 2``), the first row its header."""
    with zipfile.ZipFile(path) as z:
        shared = []
        if "xl/sharedStrings.xml" in z.namelist():
            sst = ElementTree.fromstring(z.read("xl/sharedStrings.xml"))
            shared = ["".join(t.text or "" for t in si.iter(f"{_XL}t")) for si in sst.iter(f"{_XL}si")]
        sheet = ElementTree.fromstring(z.read(_first_sheet(z)))
    rows: dict[int, dict[int, Any]] = {}
    for r in sheet.iter(f"{_XL}row"):
        cells = {_cell_column(c.get("r", "A")): _cell_value(c, shared) for c in r.iter(f"{_XL}c")}
        rows[int(r.get("r", "0"))] = cells
    if not rows:
        return {}
    first = min(rows)
    header = {i: text(v) for i, v in rows.pop(first).items() if text(v)}
    return {
        f"row {n}": {h: cells.get(i, "") for i, h in header.items()}
        for n, cells in sorted(rows.items())
        if any(v not in ("", None) for v in cells.values())
    }


READERS: dict[str, Callable[[Path], dict[str, dict[str, Any]]]] = {
    ".json": read_json_records,
    ".csv": read_csv_records,
    ".xlsx": read_xlsx_records,
}


@dataclass(frozen=True)
class OfficialRow:
    """What the audit reads of one official record."""

    id: str
    submitter: str
    benchmark: str
    scenario: str
    accelerator: str
    units: str
    result: float
    accelerators: float  # Total Accelerators, else a# x Nodes (0 for a CPU-only system)
    nodes: int
    latency: bool
    power: float = math.nan  # the measured MLPerf(R) power, NaN where the file gives none
    power_units: str = ""  # as the file writes it ("Watts", "millijoules")

    @property
    def per_accelerator(self) -> float:
        if self.latency or not self.accelerators > 0:
            return math.nan
        return self.result / self.accelerators

    @property
    def measure(self) -> float:
        """What a median or a spread takes of the row: per accelerator, or a latency as it is."""
        return self.result if self.latency else self.per_accelerator


# --------------------------------------------------------------------------- project data


@dataclass
class Data:
    """The project data files the audit needs (read with tomllib, nothing else of the project)."""

    prices: dict[str, float]
    assumptions: dict[str, float]
    latency_units: set[str]
    aliases: dict[str, str]
    rules: dict[str, Any]
    cpu_only: set[str]
    families: list[tuple[str, list[re.Pattern[str]]]]
    submitters: dict[str, Any]
    _families: dict[str, str] = field(default_factory=dict)  # by accelerator string

    @classmethod
    def load(cls, files: dict[str, Path]) -> Data:
        """From the files of :data:`DATA_NAMES` (any of them may be absent)."""
        t = {n: _toml(files.get(n)) for n in DATA_NAMES}
        bench = t["benchmarks.toml"]
        acc = t["accelerators.toml"]
        return cls(
            prices={str(k): float(v) for k, v in t["prices.toml"].get("price", {}).items()},
            assumptions={str(k): float(v) for k, v in t["prices.toml"].get("assumption", {}).items()},
            latency_units={u for u, v in bench.get("units", {}).items() if v.get("kind") == "latency"},
            aliases={a: k for k, b in bench.get("bench", {}).items() for a in b.get("aliases", [])},
            rules=bench.get("bench", {}),
            cpu_only={str(c) for c in acc.get("cpu_only", [])},
            families=[
                (f["name"], [re.compile(p, re.IGNORECASE) for p in f.get("patterns", [])])
                for f in acc.get("family", [])
            ],
            submitters=t["submitters.toml"].get("submitter", {}),
        )

    def family(self, accelerator: str) -> str:
        if accelerator not in self._families:
            found = [name for name, pats in self.families if any(p.search(accelerator) for p in pats)]
            self._families[accelerator] = "" if accelerator in self.cpu_only else "+".join(found)
        return self._families[accelerator]

    def kind_of(self, organisation: str) -> str:
        """An organisation's kind in ``data/submitters.toml``; "unclassified" when it has none."""
        s = self.submitters.get(organisation)
        return str(s.get("kind") or "unclassified") if s else "unclassified"

    def organisations(self, name: str) -> list[str]:
        s = self.submitters.get(name)
        if s is None:
            return [name]
        if s.get("members"):
            return [o for m in s["members"] for o in self.organisations(m)]
        return [s.get("organisation") or name]


def _toml(path: Path | None) -> dict[str, Any]:
    if path is None or not path.is_file():
        return {}
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise AuditError(f"{path}: {exc}") from None


class Sources:
    """The official files under a results folder, each read once, and the rows the ledger names."""

    def __init__(self, results: Path, data: Data) -> None:
        self.results, self.data = results, data
        self.files: dict[str, tuple[dict[str, dict[str, Any]], dict[str, str]]] = {}
        self.rows: dict[tuple[str, str], OfficialRow] = {}
        self.checked: set[tuple[str, ...]] = set()  # rows found to be the entries the ledger names

    def _file(self, source: str) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
        if source not in self.files:
            path = self.results / source
            reader = READERS.get(path.suffix.lower())
            if not source or reader is None or not path.is_file():
                raise AuditError(f"{path}: the official file the ledger names is not there")
            try:
                records = reader(path)
            except (OSError, ValueError, KeyError, zipfile.BadZipFile, ElementTree.ParseError) as exc:
                raise AuditError(f"{path}: cannot be read: {exc}") from None
            keys = set().union(*(r.keys() for r in list(records.values())[:50]))
            shape = RESULTS_COLUMNS if "Performance_Result" in keys or "ID" in keys else CHECKER_COLUMNS
            self.files[source] = (records, shape)
        return self.files[source]

    def row(self, entry: dict[str, Any]) -> OfficialRow:
        """The official row at the ledger *entry*'s place, checked to be the entry it names."""
        source, at = str(entry.get("source", "")), str(entry.get("at", ""))
        if (source, at) not in self.rows:
            records, cols = self._file(source)
            if at not in records:
                raise Mismatch(f"{source} has no record at {at!r} (entry {_entry_text(entry)})")
            self.rows[(source, at)] = self._official(records[at], cols, f"{source} {at}")
        r = self.rows[(source, at)]
        want = (str(entry.get("id", "")), str(entry.get("benchmark", "")), str(entry.get("scenario", "")))
        rnd = str(entry.get("round", ""))
        if (source, at, rnd, *want) in self.checked:
            return r
        folder = source.split("/")[0]
        if folder != f"v{rnd}" or (r.id and not r.id.startswith(f"{rnd}-")):
            raise Mismatch(
                f"{source} {at} (entry {r.id or '(no ID)'}) is not of round v{rnd}, as the ledger says"
            )
        got = (r.id, r.benchmark, r.scenario.lower())
        if got != (want[0], want[1], want[2].lower()) or r.units != entry.get("units", r.units):
            raise Mismatch(
                f"{source} {at} is entry {r.id or '(no ID)'} {r.benchmark} {r.scenario} in {r.units}, "
                f"not {_entry_text(entry)} in {entry.get('units')}"
            )
        self.checked.add((source, at, rnd, *want))
        return r

    def _official(self, rec: dict[str, Any], cols: dict[str, str], where: str) -> OfficialRow:
        def get(key: str) -> Any:
            return rec.get(cols[key], "") if cols[key] else ""

        try:
            result = number(get("result"))
            per_node, nodes, total = number(get("per_node")), number(get("nodes")), number(get("total"))
            power = number(get("power"))
        except ValueError as exc:
            raise Mismatch(f"{where}: not a number: {exc}") from None
        accelerator, units = text(get("accelerator")), text(get("units"))
        if accelerator in self.data.cpu_only:
            count = 0.0
        elif total is not None:
            count = total
        else:
            count = (per_node or math.nan) * (nodes or math.nan)
        raw_id = text(get("id"))
        bench = text(get("benchmark"))
        return OfficialRow(
            id=raw_id[1:] if raw_id[:1] in ("v", "V") else raw_id,
            submitter=text(get("submitter")),
            benchmark=self.data.aliases.get(bench, bench),
            scenario=text(get("scenario")),
            accelerator=accelerator,
            units=units,
            result=math.nan if result is None else result,
            accelerators=count,
            nodes=int(nodes or 0),
            latency=units in self.data.latency_units,
            power=math.nan if power is None else power,
            power_units=text(get("power_units")),
        )


class Mismatch(Exception):
    """What the official rows say against one figure of the ledger."""


def _entry_text(e: dict[str, Any]) -> str:
    return f"{e.get('id') or '(no ID)'} {e.get('benchmark')} {e.get('scenario')}"


# --------------------------------------------------------------------------- calculations


def model_name(benchmark: str) -> str:
    """A benchmark without its accuracy variant or part (``llama2-70b-99.9`` -> ``llama2-70b``)."""
    name = re.sub(r"-(99\.9|99|95)$", "", benchmark)
    return re.sub(r"^(e2e-rag)-(db|qna)$", r"\1", name)


class Evaluator:
    """Re-derives one ledger figure's value from its calculation and the official rows."""

    def __init__(self, sources: Sources, entries: list[dict[str, Any]]) -> None:
        self.sources, self.entries = sources, entries
        self.data = sources.data

    def row(self, ref: Any) -> OfficialRow:
        if isinstance(ref, int) and not isinstance(ref, bool) and 0 <= ref < len(self.entries):
            return self.sources.row(self.entries[ref])
        if isinstance(ref, dict):
            return self.sources.row(ref)
        raise Mismatch(f"the calculation names a row the ledger does not hold: {ref!r}")

    def rows(self, refs: Any) -> list[OfficialRow]:
        if not isinstance(refs, list) or not refs:
            raise Mismatch("the calculation names no rows")
        return [self.row(r) for r in refs]

    def value(self, calc: Any) -> float:
        if not isinstance(calc, dict) or not isinstance(calc.get("op"), str):
            raise Mismatch("no calculation recorded")
        op = calc["op"]
        if op in ARITHMETIC:
            args = [self.value(a) for a in calc.get("args", [])]
            if len(args) != ARITHMETIC[op][0]:
                raise Mismatch(f"{op} of {len(args)} operands")
            try:
                return ARITHMETIC[op][1](*args)
            except ZeroDivisionError:
                return math.nan
        method = getattr(self, f"op_{op}", None)
        if method is None:
            raise Mismatch(f"unknown calculation {op!r}")
        return float(method(calc))

    # one method per calculation the ledger records
    def op_result(self, c: dict[str, Any]) -> float:
        return self.row(c.get("row")).result

    def op_per_gpu(self, c: dict[str, Any]) -> float:
        return self.row(c.get("row")).per_accelerator

    def op_gpus(self, c: dict[str, Any]) -> float:
        return self.row(c.get("row")).accelerators

    def op_power(self, c: dict[str, Any]) -> float:
        """The measured power of a row, in the unit the ledger says the figure printed."""
        r = self.row(c.get("row"))
        where = f"entry {r.id or '(no ID)'} {r.benchmark} {r.scenario}"
        if r.power != r.power:
            raise Mismatch(f"the official file gives no measured power for {where}")
        unit = POWER_UNITS.get(r.power_units.lower())
        if unit != c.get("unit"):
            given = repr(r.power_units) if r.power_units else "no unit"
            raise Mismatch(
                f"the official file gives the power of {where} in {given}, not in {c.get('unit')!r}"
            )
        return r.power

    def op_nodes(self, c: dict[str, Any]) -> float:
        return self.row(c.get("row")).nodes

    def op_entry(self, c: dict[str, Any]) -> float:
        self.row(c.get("row"))
        return math.nan

    def op_stated(self, c: dict[str, Any]) -> float:
        return math.nan

    def op_number(self, c: dict[str, Any]) -> float:
        return float(c["value"])

    # numbers a template made from figures (``x|float``, ``x|int``, arithmetic on them)
    def op_float(self, c: dict[str, Any]) -> float:
        return self.value(self._one(c))

    def op_int(self, c: dict[str, Any]) -> float:
        return float(int(self.value(self._one(c))))

    def op_arith(self, c: dict[str, Any]) -> float:
        fn = TEMPLATE_ARITHMETIC.get(str(c.get("operator")))
        args = c.get("args")
        if fn is None or not isinstance(args, list) or len(args) != 2:
            raise Mismatch(f"unknown arithmetic {c.get('operator')!r}")
        try:
            return float(fn(self.value(args[0]), self.value(args[1])))
        except ZeroDivisionError:
            return math.nan

    @staticmethod
    def _one(c: dict[str, Any]) -> Any:
        args = c.get("args")
        if not isinstance(args, list) or len(args) != 1:
            raise Mismatch(f"{c.get('op')} of {len(args) if isinstance(args, list) else 0} operands")
        return args[0]

    op_constant = op_number

    def op_price(self, c: dict[str, Any]) -> float:
        return self._named(self.data.prices, "price", c.get("name"))

    def op_assumption(self, c: dict[str, Any]) -> float:
        return self._named(self.data.assumptions, "assumption", c.get("name"))

    @staticmethod
    def _named(table: dict[str, float], what: str, name: Any) -> float:
        if name not in table:
            raise Mismatch(f"data/prices.toml has no {what} {name!r}")
        return table[name]

    def op_rule(self, c: dict[str, Any]) -> float:
        try:
            return float(self.data.rules[c["benchmark"]]["latency"][c["scenario"]][c["key"]])
        except (KeyError, TypeError, ValueError):
            raise Mismatch(
                f"data/benchmarks.toml has no rule {c.get('key')} for {c.get('benchmark')}"
            ) from None

    def op_median(self, c: dict[str, Any]) -> float:
        return float(statistics.median(r.measure for r in self.rows(c.get("rows"))))

    def op_spread(self, c: dict[str, Any]) -> float:
        values = [r.measure for r in self.rows(c.get("rows"))]
        return (max(values) / min(values) - 1) * 100

    def op_largest(self, c: dict[str, Any]) -> float:
        return max(r.accelerators for r in self.rows(c.get("rows")))

    def op_tied(self, c: dict[str, Any]) -> float:
        r = self.row(c.get("row"))
        of = (lambda x: x.result) if c.get("by") == "result" else (lambda x: x.per_accelerator)
        others = [self.row(x) for x in c.get("rows", [])]
        return float(sum(1 for x in others if of(x) == of(r)))

    def op_count(self, c: dict[str, Any]) -> float:
        refs = c.get("rows")
        if not isinstance(refs, list):
            raise Mismatch("the calculation names no rows")
        if not refs:
            return 0.0  # a count of an empty selection
        distinct = c.get("distinct")
        if distinct is None:
            return float(len(self.rows(refs)))
        names: set[str] = set()
        for ref in refs:
            names.update(n for n in self.names(distinct, ref) if n.strip())
        kinds = c.get("kind")
        if isinstance(kinds, list):  # organisations of a kind: each member under its own kind
            names = {n for n in names if self.data.kind_of(n) in kinds}
        return float(len(names))

    def names(self, distinct: str, ref: Any) -> list[str]:
        """What a distinct count counts of one row."""
        r = self.row(ref)
        if distinct in ("organisation", "organization"):
            return self.data.organisations(r.submitter)
        if distinct in ("round", "scenario"):  # the ledger's, checked against the file's by row()
            entry = self.entries[ref] if isinstance(ref, int) else ref
            return [str(entry.get(distinct, ""))]
        of = NAMES.get(distinct)
        if of is None:
            raise Mismatch(f"a count of distinct {distinct!r}, which the audit does not know")
        return [of(r, self.data)]


#: what a distinct count counts of an official row, by what ``count(distinct=...)`` names
NAMES: dict[str, Callable[[OfficialRow, Data], str]] = {
    "entry": lambda r, d: r.id,
    "system": lambda r, d: r.id,
    "submitter": lambda r, d: r.submitter,
    "family": lambda r, d: d.family(r.accelerator),
    "accelerator": lambda r, d: r.accelerator,
    "benchmark": lambda r, d: r.benchmark,
    "model": lambda r, d: model_name(r.benchmark),
}


#: operands and arithmetic of each calculation made of other figures
ARITHMETIC: dict[str, tuple[int, Callable[..., float]]] = {
    "ratio": (2, lambda a, b: a / b),
    "break_even_ratio": (2, lambda a, b: a / b),
    "pct_change": (2, lambda new, old: (new / old - 1) * 100),
    "pct_gap": (2, lambda a, b: abs(a / b - 1) * 100),
    "share": (2, lambda part, whole: part / whole * 100),
    "scaling": (2, lambda big, small: big / small * 100),
    "break_even_price": (3, lambda price, cand, base: price * cand / base),
    "cost": (3, lambda price, per_gpu, util: price * 1_000_000 / (per_gpu * 3600 * util)),
}


#: the arithmetic a template does on numbers made from figures (written here again: the audit
#: does not import the generator it checks)
TEMPLATE_ARITHMETIC: dict[str, Callable[[float, float], float]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
}


# --------------------------------------------------------------------------- printing

#: how each kind of figure prints unless the article says otherwise
STYLES = {
    "ratio": "x",
    "pct": "pct",
    "scaling": "pct",
    "spread": "pct",
    "money": "money",
    "cost": "money",
    "break_even": "money",
}
WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def printed(value: float, kind: str, fmt: dict[str, Any]) -> str:
    """The text of a figure of *kind* with *value*, formatted as *fmt* (the ledger's ``format``)."""
    style = fmt.get("style") or STYLES.get(kind, "number")
    digits = fmt.get("digits")
    if digits is None:
        digits = _digits(kind, style, value)
    sep = bool(fmt.get("sep", True))
    v = value / float(fmt.get("scale") or 1.0)
    suffix = {"x": "×", "ascii_x": "x", "pct": "%"}
    if style in suffix:
        return _number(v, digits, sep) + suffix[style]
    if style == "money":
        return "$" + _number(v, digits, sep)
    if style in ("words", "Words") and v == v and float(v).is_integer() and 0 <= v < len(WORDS):
        word = WORDS[int(v)]
        return word.capitalize() if style == "Words" else word
    out = _number(v, digits, sep)
    return f"{out} {fmt['unit']}" if fmt.get("unit") else out


def _digits(kind: str, style: str, value: float) -> int:
    if style in ("x", "ascii_x"):
        return 2
    if style == "pct":
        return 1
    if style == "money":
        return 3 if kind == "cost" else 2
    if kind in ("count", "rule", "constant") and value == value and float(value).is_integer():
        return 0
    return 0 if abs(value) >= 100 else 2


def _number(v: float, digits: int, sep: bool) -> str:
    if v != v:
        return "n/a"
    out = format(v, f"{',' if sep else ''}.{digits}f")
    if not out.startswith("-"):
        return out
    return out[1:] if not re.search("[1-9]", out) else "\u2212" + out[1:]  # the minus sign, U+2212


# --------------------------------------------------------------------------- the audit


@dataclass
class Report:
    """What an audit found: figures re-derived by kind, mismatches, time taken."""

    figures: int = 0
    derived: Counter[str] = field(default_factory=Counter)
    quoted: Counter[str] = field(default_factory=Counter)  # printed as given: stated, constants
    mismatches: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> str:
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(self.derived.items(), key=lambda kv: (-kv[1], kv[0])))
        quoted = sum(self.quoted.values())
        return (
            f"audit: {sum(self.derived.values())} of {self.figures} figures re-derived from the official "
            f"files ({kinds or 'none'}); {quoted} printed as given (stated, constants); "
            f"{len(self.mismatches)} mismatches ({self.seconds:.2f}s)"
        )


#: kinds whose value is the article's own (checked against their recorded source, not re-derived)
QUOTED = {"stated", "constant"}


def audit_ledger(ledger: list[Any], results: Path, data: Data, sources: Sources | None = None) -> Report:
    """Re-derive every figure of *ledger* (``figures.json``'s list) from the official files
    under *results* (read by *sources*, which keeps them for the next audit, or read anew);
    each mismatch names the article, its template line and the figure."""
    start = time.monotonic()
    report = Report(figures=len(ledger))
    sources = sources or Sources(results, data)
    seen: Counter[tuple[str, int]] = Counter()
    for i, fig in enumerate(ledger):
        if not isinstance(fig, dict):
            raise AuditError(f"figure {i}: expected an object (is this a gpu-insights figures.json?)")
        line = fig.get("line")
        where = (str(fig.get("article", "")), line if isinstance(line, int) else 0)
        seen[where] += 1
        problem = _audit_figure(fig, sources)
        kind = str(fig.get("kind", ""))
        if problem:
            report.mismatches.append(
                f"{fig.get('file', where[0])}:{where[1]}: article {where[0]}, line {where[1]}, "
                f"figure {seen[where]} ({kind}, printed {fig.get('text')!r}): {problem}"
            )
        elif kind in QUOTED:
            report.quoted[kind] += 1
        else:
            report.derived[kind] += 1
    report.seconds = time.monotonic() - start
    return report


def _audit_figure(fig: dict[str, Any], sources: Sources) -> str:
    """What is wrong with one figure, or an empty string."""
    entries = fig.get("entries")
    calc = fig.get("calc")
    if not isinstance(entries, list) or not isinstance(calc, dict):
        return "the ledger records no calculation for it (built by an older gpu-insights?)"
    if not all(isinstance(e, dict) for e in entries):
        return "the ledger's entries of it are not objects (is this a gpu-insights figures.json?)"
    ev = Evaluator(sources, entries)
    try:
        value = ev.value(calc)
        for e in entries:  # every row it cites is in the official file, as the ledger says
            sources.row(e)
    except Mismatch as exc:
        return str(exc)
    kind, shown = str(fig.get("kind", "")), fig.get("text")
    if calc["op"] == "entry":
        want = ev.row(calc.get("row")).id
        return "" if shown == want else f"prints {shown!r}; the official row's ID is {want!r}"
    if calc["op"] == "stated":
        want = str(calc.get("text", ""))
        return "" if shown == want else f"prints {shown!r}; the statement quoted is {want!r}"
    recorded = fig.get("value")
    if not _same(recorded, value):
        return f"the ledger records {recorded!r}; the official rows give {value!r} ({_formula(fig)})"
    fmt = fig.get("format")
    want = printed(value, kind, fmt if isinstance(fmt, dict) else {})
    if shown != want:
        return f"prints {shown!r}; the official rows give {value!r}, which prints {want!r} ({_formula(fig)})"
    return ""


def _same(recorded: Any, value: float) -> bool:
    if value != value:
        return recorded is None
    if isinstance(recorded, bool) or not isinstance(recorded, int | float):
        return False
    return math.isclose(float(recorded), value, rel_tol=1e-9, abs_tol=1e-9)


def _formula(fig: dict[str, Any]) -> str:
    return str(fig.get("formula") or "no formula")


def load_ledger(site: Path) -> list[Any]:
    """``figures.json`` of a built site folder (or the file itself)."""
    path = site / "figures.json" if site.is_dir() else site
    if not path.is_file():
        raise AuditError(f"{site}: no figures.json (give a built site folder or its figures.json)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise AuditError(f"{path}: not a readable figures ledger: {exc}") from None
    if not isinstance(data, list):
        raise AuditError(f"{path}: expected a list of figures")
    return data


def audit_site(site: Path, results: Path, data_files: dict[str, Path]) -> Report:
    """Audit the site folder *site* (or its ``figures.json``) against the official files under
    *results*, with the project data files *data_files* (by name: :data:`DATA_NAMES`)."""
    return audit_ledger(load_ledger(site), results, Data.load(data_files))


def failure_message(report: Report, limit: int = 20) -> str:
    """The mismatches of a failed audit, at most *limit* listed, then the summary."""
    lines = [f"audit: {len(report.mismatches)} printed figure(s) disagree with the official results:"]
    lines += [f"  {m}" for m in report.mismatches[:limit]]
    if len(report.mismatches) > limit:
        lines.append(f"  … and {len(report.mismatches) - limit} more")
    lines.append(report.summary())
    return "\n".join(lines)


def data_files_in(folders: Iterable[Path]) -> dict[str, Path]:
    """Each of :data:`DATA_NAMES` from the first of *folders* that holds it."""
    out: dict[str, Path] = {}
    for name in DATA_NAMES:
        for d in folders:
            if (d / name).is_file():
                out[name] = d / name
                break
    return out
