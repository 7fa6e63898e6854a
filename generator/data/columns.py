"""The rows of a results file with no problem at all, made column by column.

Nearly every file a build loads is an official one with no problem: its rows are made here, a
column at a time, each distinct name, label or unit looked at once (a synthetic round's 800 rows,
their DataFrame included: 6 ms, against 13 ms row by row; a cost every round of a site adds).
Whatever is not plainly valid (a problem of any kind, a waiver naming one of its entries, rows
left out by a filter) makes :func:`file_columns` give up, and
:class:`~generator.data.results._RowReader` reads the file record by record: it names the record
and field of every problem. Both give the same rows, a property the tests check on the official
files and on generated ones.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from generator.data.fields import (
    CATEGORIES,
    DIVISIONS,
    MAX_TEXT,
    RESULT_ID,
    flag_of,
    named_counts,
    number_of,
    power_of,
    result_id_of,
    stripped,
    suite_of,
    text_of,
    whole_of,
)
from generator.data.manifest import normalize_version

if TYPE_CHECKING:
    from generator.data.results import _Raw, _RowReader

#: what each column holds, by row: the normalized table's columns, by name
Columns = dict[str, list[Any]]


class _GiveUp(Exception):
    """A record that is not plainly valid: the row reader reads the file."""


def file_columns(records: list[_Raw], reader: _RowReader, version: str) -> Columns | None:
    """The normalized columns of *records* when every one is valid (and no waiver names one of
    their entries); None otherwise. The reader's report and file versions are updated only when
    it succeeds."""
    if not records:
        return None
    try:
        return _Reading(records, reader, version).columns()
    except _GiveUp:
        return None


def _texts(raw: list[Any]) -> list[str]:
    """Each value's :func:`text_of`; each distinct text cleaned once."""
    if set(map(type, raw)) <= {str}:  # not 1 and True, equal as keys of one dict
        once = {v: stripped(v) for v in set(raw)}
        return [once[v] for v in raw]
    return [text_of(v) for v in raw]


def _each(values: list[Any], convert: Callable[[Any], Any]) -> list[Any]:
    """*convert* of each value, each distinct one once when all are of one type (``1`` and
    ``True``, equal as keys, convert differently); an error of *convert* gives up. Equal values
    of one type must convert alike: true of the converters given here (counts, flags, names),
    not of ``str`` on floats (``-0.0`` and ``0.0``)."""
    try:
        if len(set(map(type, values))) == 1:
            once = {v: convert(v) for v in set(values)}
            return [once[v] for v in values]
        return [convert(v) for v in values]
    except (ValueError, TypeError):  # TypeError: a value that is a list or an object
        raise _GiveUp from None


def _check(ok: bool) -> None:
    if not ok:
        raise _GiveUp


def _whole(v: Any) -> int | None:
    try:
        return whole_of(v)
    except ValueError:
        raise _GiveUp from None


class _Reading:
    """One file's records, read column by column (see :func:`file_columns`)."""

    def __init__(self, records: list[_Raw], reader: _RowReader, version: str) -> None:
        self.records, self.reader, self.version = records, reader, version
        self.values = [r.values for r in records]
        self.fields: dict[str, list[Any]] = {}
        self.rules, self.families = reader.rules, reader.families
        self.cpu_only = 0  # rows of CPU-only systems (see :meth:`totals`)
        need = reader.required_set | ({"ID"} if reader.results_shape else set())
        _check(all(v.keys() >= need for v in self.values))

    def raw(self, key: str) -> list[Any]:
        """The values of field *key*, as the row reader gets them ("" when a record has none)."""
        if key not in self.fields:
            col = self.reader.cols[key]
            self.fields[key] = [v.get(col, "") for v in self.values]
        return self.fields[key]

    def text(self, key: str) -> list[str]:
        return _texts(self.raw(key))

    def columns(self) -> Columns:
        n = len(self.values)
        ids = self.ids()
        files = {normalize_version(v) for v in set(self.text("version")) if v}
        division = _each(self.text("division"), str.lower)
        category = _each(self.text("availability"), str.lower)
        _check(set(division) <= set(DIVISIONS) and set(category) <= set(CATEGORIES))
        bench_raw, scen_raw = self.text("benchmark"), self.text("scenario")
        _check("" not in bench_raw)  # the row reader reads UsedModel, or names the record
        benchmark = _each(bench_raw, self.rules.canonical_benchmark)
        scenario = _each(scen_raw, self.rules.canonical_scenario)
        _check(None not in scenario)
        units = self.text("units")
        _check(set(units) <= self.rules.units.keys())
        results = self.results(units)
        accelerator = self.text("accelerator")
        counts = self.counts()
        total = self.totals(accelerator, counts)
        submitter, platform, system = self.text("submitter"), self.text("platform"), self.text("system")
        keys = [
            (rid, b, s) if rid else (sub, plat, d, b, s)
            for rid, b, s, sub, plat, d in zip(
                ids, benchmark, scenario, submitter, platform, division, strict=True
            )
        ]
        _check(len(set(keys)) == n)
        latency = _each(units, self.rules.is_latency)
        per_acc = [
            r / t if not lat and t > 0 else math.nan
            for r, t, lat in zip(results, total, latency, strict=True)
        ]
        self.plausible(units, per_acc)
        family = self.families_of(accelerator, (system, platform), counts[0], total)
        self.lengths()
        self.note(files, accelerator, family)
        return {
            "round": [self.version] * n,
            "result_id": ids,
            "id_missing": [not rid for rid in ids],
            "submitter": submitter,
            "system": system,
            "platform": platform,
            "division": division,
            "category": category,
            "suite": self.suites(scenario),
            "benchmark": benchmark,
            "benchmark_raw": bench_raw,
            "scenario": scenario,
            "accelerator": accelerator,
            "family": [f for f, _ in family],
            "heterogeneous": [h for _, h in family],
            "nodes": [c or 0 for c in counts[1]],
            "accelerators_per_node": [c or 0 for c in counts[0]],
            "total_accelerators": total,
            "result": results,
            "units": units,
            "higher_is_better": [not lat for lat in latency],
            "per_accelerator": per_acc,
            "software": self.text("software"),
            "weight_data_types": self.text("weights"),
            "inferred": _each(self.raw("inferred"), flag_of),
            **self.power(scenario),
            "source_file": [str(self.reader.path)] * n,
            "source_row": [r.loc for r in self.records],
            "details": self.text("details") if "details" in self.reader.cols else [""] * n,
        }

    def power(self, scenario: list[str]) -> Columns:
        """Each record's ``has_power`` flag and measured power with its unit (NaN and "" where
        it has none; see :func:`~generator.data.fields.power_of`): a power that is not plainly
        valid, or on a record whose ``has_power`` is false, gives up."""
        has_power = _each(self.raw("has_power"), flag_of)
        n, cols = len(self.values), self.reader.cols
        if "power" not in cols:  # the checker's shape: no measured power (see CHECKER_FIELDS)
            return {"has_power": has_power, "power": [math.nan] * n, "power_units": [""] * n}
        power: list[float] = []
        units: list[str] = []
        flag_col, blank = cols["has_power"], (None, "")
        for v, scen, flag in zip(self.values, scenario, has_power, strict=True):
            value, unit = v.get(cols["power"]), v.get(cols["power_units"])
            if value in blank and unit in blank:  # nearly every row: a performance-only one
                power.append(math.nan)
                units.append("")
                continue
            try:
                p, u = power_of(value, unit, scen)
            except ValueError:
                raise _GiveUp from None
            _check(p != p or flag or flag_col not in v)
            power.append(p)
            units.append(u)
        return {"has_power": has_power, "power": power, "power_units": units}

    def suites(self, scenario: list[str]) -> list[str]:
        """Each record's suite (see :func:`suite_of`): each distinct spelling and scenario once."""
        suite = [suite_of(t, s) for t, s in zip(self.text("suite"), scenario, strict=True)]
        _check(None not in suite)
        return suite  # type: ignore[return-value]  # no None: checked

    def ids(self) -> list[str]:
        """Result IDs: every one well formed and of this round (none in the checker's files)."""
        if not self.reader.results_shape:
            return [""] * len(self.values)
        texts = _texts([v["ID"] for v in self.values])
        once: dict[str, str] = {}
        for text in set(texts):
            m = RESULT_ID.fullmatch(text)
            _check(m is not None and (not self.version or m.group(1) == self.version))
            once[text] = result_id_of(text)
        ids = [once[t] for t in texts]
        _check(not {entry for entry, _ in self.reader.waivers} & set(ids))  # the row reader applies it
        return ids

    def results(self, units: list[str]) -> list[float]:
        """Each result: a positive number within the plausible range of its units."""
        bounds = {u: (self.rules.plausible_min(u), self.rules.plausible_max(u)) for u in set(units)}
        out: list[float] = []
        for value, unit in zip(self.raw("result"), units, strict=True):
            try:
                r = value if type(value) is float else number_of(value)
            except ValueError:
                raise _GiveUp from None
            low, top = bounds[unit]
            if r is None or not (0 < r < math.inf) or (top is not None and r > top):
                raise _GiveUp
            _check(low is None or r >= low)
            out.append(r)
        return out

    def counts(self) -> tuple[list[int | None], list[int | None], list[int | None]]:
        """(a#, Nodes, Total Accelerators) of each record; the total None where a record has none."""
        col = self.reader.cols["total"]
        totals = [_whole(v[col]) if col in v else None for v in self.values]
        return _each(self.raw("per_node"), _whole), _each(self.raw("nodes"), _whole), totals

    def totals(
        self, accelerator: list[str], counts: tuple[list[int | None], list[int | None], list[int | None]]
    ) -> list[float]:
        """Each record's total accelerators (0 for a CPU-only system): the total given, which
        a# x Nodes must then equal where both are given, else a# x Nodes."""
        cpu = _each(accelerator, self.families.is_cpu_only)
        out = []
        for is_cpu, per_node, nodes, total in zip(cpu, *counts, strict=True):
            if is_cpu:
                out.append(0.0)
                continue
            _check(total is None or total > 0)
            product = None
            if per_node is not None and per_node > 0:
                _check(nodes is None and total is not None or nodes is not None and nodes > 0)
                product = per_node * nodes if nodes is not None else None
            else:
                _check(total is not None)
            _check(total is None or product is None or product == total)
            out.append(float(total if total is not None else product))  # type: ignore[arg-type]
        self.cpu_only = sum(cpu)
        return out

    def plausible(self, units: list[str], per_acc: list[float]) -> None:
        """No per-accelerator value above what its units make plausible."""
        tops = {u: self.rules.plausible_max_per_accelerator(u) for u in set(units)}
        for unit, value in zip(units, per_acc, strict=True):
            top = tops[unit]
            _check(top is None or not value > top)

    def families_of(
        self,
        accelerator: list[str],
        names: tuple[list[str], list[str]],
        per_node: list[int | None],
        total: list[float],
    ) -> list[tuple[str, bool]]:
        """Each record's accelerator family; a system or platform name stating a count of that
        family agrees with the count per node, the total, or equal parts of the total."""
        family = _each(accelerator, self.families.classify)
        for (fam, _), system, platform, node, t in zip(family, *names, per_node, total, strict=True):
            if not fam or not t > 0:
                continue
            for name in (system, platform):
                for k in named_counts(name, fam):
                    _check(k in (node, int(t)) or (k > 1 and int(t) % k == 0))
        return family

    def lengths(self) -> None:
        """No name or description longer than :data:`MAX_TEXT` characters."""
        for key, _ in self.reader.length_cols:
            raw = self.raw(key)
            lengths = map(len, set(raw)) if set(map(type, raw)) <= {str} else (len(str(x or "")) for x in raw)
            _check(max(lengths, default=0) <= MAX_TEXT)

    def note(self, files: set[str], accelerator: list[str], family: list[tuple[str, bool]]) -> None:
        """What the row reader would have noted of the file: its versions, CPU-only rows and
        accelerators no family names."""
        self.reader.file_versions |= files
        report = self.reader.report
        report.cpu_only_rows += self.cpu_only
        for (fam, _), acc in set(zip(family, accelerator, strict=True)):
            if not fam and not self.families.is_cpu_only(acc):
                report.unmapped_accelerators.add(acc)
