"""The results table and the query helpers the article layer uses.

A :class:`ResultsTable` holds the normalized rows of every loaded round plus the
:class:`~generator.data.results.LoadReport` of each file. Lookups fail with a message
that says what is missing and what exists instead.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from generator.data import engine
from generator.data.fields import suites_match
from generator.data.manifest import SUBMITTER_KINDS, UNCLASSIFIED, Manifest, Submitters, normalize_version
from generator.data.results import (
    COLUMNS,
    LoadReport,
    available_rounds,
    read_round,
    round_files,
    version_key,
)
from generator.data.row import Row
from generator.errors import LookupFailed, MissingRound
from generator.workers import default_jobs, forked_map, jobs_worth

T = TypeVar("T")

#: the filters every selection takes: "eq" filters match one value or a list (and can be
#: excluded with ``exclude=``), "range" filters are bounds
FILTERS = {
    "round": "eq",
    "division": "eq",
    "category": "eq",
    "suite": "eq",
    "benchmark": "eq",
    "scenario": "eq",
    "family": "eq",
    "accelerator": "eq",
    "system": "eq",
    "entry": "eq",
    "submitter": "eq",
    "member": "eq",
    "kind": "eq",
    "gpus": "eq",
    "nodes": "eq",
    "units": "eq",
    "has_power": "eq",
    "min_gpus": "range",
    "max_gpus": "range",
    "min_nodes": "range",
    "max_nodes": "range",
}


class _NoKey(Exception):
    """A query argument with no hashable form (the selection is not memoized)."""


def _frozen(value: Any) -> object:
    """A hashable form of a query's arguments; :class:`_NoKey` when one of them has none."""
    if isinstance(value, dict):
        return ("d", tuple(sorted((str(k), _frozen(v)) for k, v in value.items())))
    if isinstance(value, set | frozenset):
        return ("s", tuple(sorted((_frozen(v) for v in value), key=repr)))
    if isinstance(value, list | tuple):
        return ("l", tuple(_frozen(v) for v in value))
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise _NoKey


#: what reading a round costs in one process, to tell whether workers are worth forking (see
#: :func:`~generator.workers.jobs_worth`): seconds per file and per byte (the official v5.1,
#: v6.0 and v6.1 files, 4 MB, took 90 ms in all on a 2-core machine; the sample's, 0.7 ms each)
READ_SECONDS = (0.002, 30e-9)


def _in_parallel(
    read: Callable[[str], T], versions: list[str], jobs: int, meanwhile: Callable[[], object] | None
) -> list[T]:
    """``read`` of every version, shared with *jobs* - 1 forked worker processes, in version
    order (*meanwhile*: see :func:`~generator.workers.forked_map`)."""
    return list(forked_map(lambda i: read(versions[i]), len(versions), jobs, chunk=1, meanwhile=meanwhile))


def _python_values(column: pd.Series) -> np.ndarray:
    """*column*'s values as an array whose ``tolist()`` equals ``column.tolist()``: the column's
    own array for NumPy numbers, booleans and objects, and Python-stored strings; otherwise
    (dates, nullable or Arrow-backed types) an object array of the values ``tolist`` gives."""
    dtype = column.dtype
    if isinstance(dtype, np.dtype) and dtype.kind in "biufO":
        return column.to_numpy()
    if isinstance(dtype, pd.StringDtype) and dtype.storage == "python":
        return column.to_numpy()
    values = column.tolist()
    out = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):  # one by one: a value that is a sequence stays one value
        out[i] = v
    return out


def entry_round(entry: str) -> str:
    """``"6.1-0052"`` → ``"6.1"``."""
    head, sep, _ = entry.partition("-")
    if not sep or not head:
        raise LookupFailed(f"{entry!r} is not an MLPerf result ID (expected e.g. 6.1-0052)")
    return head


class ResultsTable:
    """All loaded rounds in one DataFrame, with lookups and filters."""

    def __init__(
        self,
        df: pd.DataFrame,
        reports: Iterable[LoadReport] = (),
        *,
        results_dir: Path | None = None,
        manifest: Manifest | None = None,
    ) -> None:
        self.df = df.reset_index(drop=True)
        self._records: dict[int, Row] = {}  # Row of each table position, made on first use
        self._position: dict[int, int] = {}  # id() of each of those rows → its position
        self._columns: list[np.ndarray] | None = None  # each Row field's values, in table order
        self._rounds: list[str] | None = None
        self._by_entry: dict[str, np.ndarray] | None = None
        self._selected: dict[object, pd.DataFrame] = {}  # the table never changes after loading
        self._selected_rows: dict[object, list[Row]] = {}
        self._names: dict[tuple[str, str | None], list[str]] = {}
        self._digests: dict[tuple[str, str], str] = {}
        self._hashed: list[tuple[str, str, np.ndarray]] | None = None
        self._frames: dict[tuple[str, ...], pd.DataFrame] = {}
        #: a hash of the files the table was loaded from (set by the loader that cached it)
        self.digest = ""
        self._index: dict[tuple[str, ...], np.ndarray] | None = None
        self.reports = list(reports)
        self.results_dir = results_dir
        self.manifest = manifest
        #: (round or "*", benchmark or "*") of every query, when a recorder is attached
        self.touched: set[tuple[str, str]] | None = None

    # ------------------------------------------------------------------ loading
    @classmethod
    def from_dir(
        cls,
        results_dir: Path | str,
        manifest: Manifest,
        *,
        rounds: Iterable[str] | None = None,
        divisions: Iterable[str] | None = None,
        suites: Iterable[str] | None = None,
        jobs: int | None = None,
        meanwhile: Callable[[], object] | None = None,
    ) -> ResultsTable:
        """Load every round found under *results_dir* (``v6.1/summary_results.json`` ...), in up
        to *jobs* worker processes (default: one per core); *meanwhile* runs in this process
        while workers read, when there are any (see :func:`~generator.workers.forked_map`)."""
        d = Path(results_dir)
        versions = [normalize_version(v) for v in rounds] if rounds else available_rounds(d)
        files = [round_files(d, v, manifest) for v in versions]
        for v, found in zip(versions, files, strict=True):
            if not found:
                raise MissingRound(
                    f"{d}: no results file for round v{v} (expected v{v}/summary_results.json, "
                    f"summary.xlsx, summary.json or summary.csv); run `gpu-insights fetch {v}`"
                )
        read = functools.partial(read_round, d, manifest=manifest, divisions=divisions, suites=suites)
        size = sum(f.stat().st_size for found in files for f in found)
        count = sum(len(found) for found in files)
        jobs = jobs_worth(default_jobs(jobs), READ_SECONDS, count, size)
        loaded = _in_parallel(read, versions, jobs, meanwhile)
        frames, reports = [], []
        for df, rep in loaded:  # in version order: the first bad round is the one reported
            frames.append(df)
            reports.append(rep)
        df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=COLUMNS)
        return cls(df, reports, results_dir=d, manifest=manifest)

    @property
    def rounds(self) -> list[str]:
        if self._rounds is None:  # asked by every query: computed once per load
            self._rounds = sorted({str(r) for r in self.df["round"].unique()}, key=version_key)
        return list(self._rounds)

    def report(self, version: str) -> LoadReport | None:
        v = normalize_version(version)
        return next((r for r in self.reports if r.version == v), None)

    def __len__(self) -> int:
        return len(self.df)

    # ------------------------------------------------------------------ indexes
    def rows_of(self, df: pd.DataFrame) -> list[Row]:
        """The :class:`Row` of each row of *df*, a selection of this table (each made once per load)."""
        return self.rows_at(df.index)

    def rows_at(self, positions: Iterable[int]) -> list[Row]:
        """The rows at these table positions, each made once (see :meth:`position_of`)."""
        positions = [int(p) for p in positions]
        recs = self._records
        missing = [p for p in positions if p not in recs]
        if missing:
            # column by column (tolist gives Python values), from arrays taken once: an order of
            # magnitude faster than selecting the rows as a DataFrame first
            columns = [c[missing].tolist() for c in self._field_arrays()]
            for p, values in zip(missing, zip(*columns, strict=True), strict=True):
                recs[p] = row = Row(*values)
                self._position[id(row)] = p
        return [recs[p] for p in positions]

    def _field_arrays(self) -> list[np.ndarray]:
        """Each :class:`Row` field's column as an array of what ``Series.tolist`` gives (views of
        the table's own columns where they hold such values: numbers, booleans, Python strings)."""
        if self._columns is None:
            self._columns = [_python_values(self.df[f]) for f in Row.__dataclass_fields__]
        return self._columns

    def entry_positions(self) -> dict[str, np.ndarray]:
        """Entry ID → its rows' table positions (in table order), built once per load."""
        if self._by_entry is None:
            self._by_entry = {
                str(k): np.asarray(v) for k, v in self.df.groupby("result_id", sort=False).indices.items()
            }
        return self._by_entry

    def round_positions(self, version: str) -> np.ndarray:
        """The table positions of one round's rows (none for a round not loaded)."""
        return self._positions(version, None, None)

    def position_of(self, row: object) -> int | None:
        """The table position of *row* when it is one of this table's own rows, else None: a
        process forked from the one that loaded the table sends positions, not rows."""
        p = self._position.get(id(row))
        return p if p is not None and self._records.get(p) is row else None

    def prepare_queries(self) -> None:
        """Build the query index now (before forking workers, which then share it instead of
        each building its own); rows are made per partition, on first use."""
        if len(self.df):
            first = self.df.iloc[0]
            self._part(str(first["round"]), str(first["benchmark"]), None)

    def _positions(self, round: str, benchmark: str | None, scenario: str | None) -> np.ndarray:
        """Table positions of one round, (round, benchmark) or (round, benchmark, scenario), from
        an index built once per load."""
        if self._index is None:
            idx: dict[tuple[str, ...], list[np.ndarray]] = {}
            groups = self.df.groupby(["round", "benchmark", "scenario"], sort=False).indices
            for k, p in groups.items():
                key, pos = tuple(str(x) for x in k), np.asarray(p)  # type: ignore[attr-defined]
                for sub in (key, key[:2], key[:1]):
                    idx.setdefault(sub, []).append(pos)
            self._index = {k: np.sort(np.concatenate(v)) for k, v in idx.items()}
        key = tuple(k for k in (round, benchmark, scenario) if k is not None)
        if benchmark is None and scenario is not None:
            key = (round,)  # a scenario without a benchmark: the round's rows, filtered
        return self._index.get(key, np.empty(0, dtype=np.intp))

    def of_round(self, version: str) -> pd.DataFrame:
        """The rows of one round (from the index: no scan of the whole table)."""
        return self._part(normalize_version(version), None, None)

    def _part(self, round: str | None, benchmark: str | None, scenario: str | None) -> pd.DataFrame:
        """The rows of one (round[, benchmark[, scenario]]), from the index; a query then
        filters tens of rows, not the whole table."""
        if round is None:
            return self.df
        key = (round, benchmark or "", scenario or "")
        if key not in self._frames:  # made on first use: only what articles query is copied
            self._frames[key] = self.df.iloc[self._positions(round, benchmark, scenario)]
        return self._frames[key]

    # ------------------------------------------------------------------ lookups
    def _touch(self, round: str | None, benchmark: str | None) -> None:
        if self.touched is not None:
            b = (
                self.manifest.rules.canonical_benchmark(benchmark)
                if (benchmark and self.manifest)
                else benchmark
            )
            self.touched.add((normalize_version(round) if round else "*", b or "*"))

    def fingerprint(self, keys: Iterable[tuple[str, str]]) -> dict[str, str]:
        """A content hash of the rows behind each (round, benchmark) key; ``*`` matches all."""
        out = {}
        for rnd, bench in sorted(keys):
            if (rnd, bench) not in self._digests:  # the table never changes after loading
                self._digests[(rnd, bench)] = self._digest(rnd, bench)
            out[f"{rnd}|{bench}"] = self._digests[(rnd, bench)]
        return out

    def _digest(self, rnd: str, bench: str) -> str:
        if rnd != "*":
            positions = self._positions(rnd, None if bench == "*" else bench, None)
        elif bench != "*":
            positions = np.flatnonzero((self.df["benchmark"] == bench).to_numpy())
        else:
            positions = np.arange(len(self.df))
        # column by column from arrays taken once (selecting the rows as a DataFrame first cost
        # three quarters of the time); repr() of Python values is exact for floats
        h = hashlib.sha256()
        for name, dtype, values in self._digest_arrays():
            h.update(f"\x1e{name}\x1f{dtype}\x1f".encode())
            part = values[positions]
            if part.dtype != object:
                h.update(np.ascontiguousarray(part).tobytes())
            else:
                h.update("\x1f".join(map(repr, part.tolist())).encode())
        return h.hexdigest()

    def _digest_arrays(self) -> list[tuple[str, str, np.ndarray]]:
        """Each column a fingerprint covers (all but where a row was read from), as an array."""
        if self._hashed is None:
            self._hashed = [
                (str(c), str(self.df[c].dtype), _hashable(self.df[c]))
                for c in self.df.columns
                if c not in ("source_file", "source_row")
            ]
        return self._hashed

    def _need_round(self, version: str, why: str) -> None:
        if version in self.rounds:
            return
        where = f" in {self.results_dir}" if self.results_dir else ""
        raise MissingRound(
            f"{why} needs round v{version}, which is not loaded{where}: "
            f"pass --results DIR with a v{version}/ folder, or run `gpu-insights fetch {version}`"
        )

    def lookup(self, entry: str, benchmark: str, scenario: str) -> Row:
        """The one row of (*entry*, *benchmark*, *scenario*), or a clear error (the table's own
        row: made once per load, found by the entry index, never by a scan)."""
        version = entry_round(entry)
        self._touch(version, benchmark)
        self._need_round(version, f"entry {entry}")
        rep = self.report(version)
        rows = [r for r in self.rows_at(self.entry_positions().get(entry, ())) if r.round == version]
        if not rows:
            if rep is not None and self.df[self.df["round"] == version]["id_missing"].all():
                raise LookupFailed(
                    f"entry {entry}: round v{version} was loaded from {rep.path}, the submission "
                    f"checker's summary, which carries no result IDs; use the round's "
                    f"summary_results.json or summary.xlsx to cite entries"
                )
            src = f" ({rep.path})" if rep else ""
            raise LookupFailed(f"entry {entry} is not in round v{version}{src}")
        if self.manifest is not None:
            benchmark = self.manifest.rules.canonical_benchmark(benchmark)
            scenario = self.manifest.rules.canonical_scenario(scenario) or scenario
        hit = [r for r in rows if r.benchmark == benchmark and r.scenario == scenario]
        if not hit:
            ran: dict[str, list[str]] = {}
            for r in rows:
                ran.setdefault(r.benchmark, []).append(r.scenario)
            listing = "; ".join(f"{b} ({', '.join(sorted(s))})" for b, s in sorted(ran.items()))
            raise LookupFailed(f"entry {entry} has no {benchmark} {scenario} result; it ran: {listing}")
        if len(hit) > 1:
            places = ", ".join(str(r.source_row) for r in hit)
            raise LookupFailed(
                f"entry {entry} {benchmark} {scenario} is ambiguous: {len(hit)} rows ({places})"
            )
        return hit[0]

    # ------------------------------------------------------------------ filters
    def _validated(self, filters: dict[str, Any]) -> dict[str, Any]:
        """Pop and return ``exclude``; refuse unknown filters; note what the query touches."""
        exclude = filters.pop("exclude", None) or {}
        unknown = sorted(set(filters) - set(FILTERS))
        if unknown:
            close = [c for u in unknown for c in difflib.get_close_matches(u, list(FILTERS), n=1, cutoff=0.6)]
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise LookupFailed(
                f"unknown filter(s) {', '.join(unknown)}{hint}; use {', '.join(sorted(FILTERS))}, "
                "heterogeneous or exclude"
            )
        for name in exclude:
            if name not in FILTERS or FILTERS[name] != "eq":
                raise LookupFailed(
                    f"exclude= takes {', '.join(n for n, k in FILTERS.items() if k == 'eq')}, not {name}"
                )
        self._touch(filters.get("round"), filters.get("benchmark"))
        if filters.get("round") is not None:
            v = normalize_version(str(filters["round"]))
            self._need_round(v, f"a selection of round v{v}")
        return dict(exclude)

    def select(
        self, *, division: str | None = "closed", heterogeneous: bool | str = False, **filters: Any
    ) -> pd.DataFrame:
        """Rows matching every given filter (``division`` defaults to ``closed``), as a DataFrame.

        Filters are the names of :data:`FILTERS`; ``exclude={"submitter": "X"}`` drops the
        rows matching any of its filters (a value may be a list). Heterogeneous systems
        are left out unless ``heterogeneous=True`` (``"only"``: nothing else).
        """
        exclude = self._validated(filters)
        try:
            key: object = _frozen((division, heterogeneous, filters, exclude))
        except _NoKey:
            key = None
        if key is not None and key in self._selected:  # articles ask the same question often
            return self._selected[key]
        df = self._subset(filters)
        m = pd.Series(True, index=df.index)
        for name, value in {"division": division, **filters}.items():
            if value is not None:
                m &= self._match(name, value, df)
        for name, value in exclude.items():
            if value is not None:
                m &= ~self._match(name, value, df)
        het = df["heterogeneous"].astype(bool)
        if heterogeneous == "only":
            m &= het
        elif not heterogeneous:
            m &= ~het
        out = df[m]
        if key is not None:
            self._selected[key] = out
        return out

    def select_rows(
        self, *, division: str | None = "closed", heterogeneous: bool | str = False, **filters: Any
    ) -> list[Row]:
        """:meth:`select` as rows, in table order: the same filters, tested in Python on the rows
        of the query's partition of the index (one round, benchmark and scenario)."""
        exclude = self._validated(filters)
        try:
            key: object = _frozen((division, heterogeneous, filters, exclude))
        except _NoKey:
            key = None
        if key is not None and key in self._selected_rows:
            return self._selected_rows[key]
        where = self._partition(filters)
        if where is None:  # no round named: the whole table, through pandas
            out = self.rows_of(
                self.select(division=division, heterogeneous=heterogeneous, exclude=exclude, **filters)
            )
        else:
            keep = [
                self._predicate(n, v) for n, v in {"division": division, **filters}.items() if v is not None
            ]
            het = engine.heterogeneous_predicate(heterogeneous)
            keep += [het] if het is not None else []
            drop = [self._predicate(n, v) for n, v in exclude.items() if v is not None]
            out = engine.matching(self.rows_at(self._positions(*where)), keep, drop)
        if key is not None:
            self._selected_rows[key] = out
        return out

    def _predicate(self, name: str, value: Any) -> engine.Predicate:
        if FILTERS[name] == "range":
            return engine.range_predicate(name, value)
        return engine.eq_predicate(name, value, self._canonical, self.submitters)

    def _partition(self, filters: dict[str, Any]) -> tuple[str, str | None, str | None] | None:
        """The (round, benchmark, scenario) part of the index a query reads (None: any round)."""
        rnd, bench, scen = (filters.get(k) for k in ("round", "benchmark", "scenario"))
        if not isinstance(rnd, str):
            return None
        return (
            self._canonical("round", rnd),
            self._canonical("benchmark", bench) if isinstance(bench, str) else None,
            self._canonical("scenario", scen) if isinstance(scen, str) and isinstance(bench, str) else None,
        )

    def _subset(self, filters: dict[str, Any]) -> pd.DataFrame:
        """The rows a query can match: its partition of the index when it names a round; else
        the whole table."""
        where = self._partition(filters)
        return self.df if where is None else self._part(*where)

    def _match(self, name: str, value: Any, df: pd.DataFrame | None = None) -> pd.Series:
        """The rows of *df* (default: the table) whose *name* attribute matches *value*."""
        df = self.df if df is None else df
        if FILTERS.get(name) == "range":
            col = "nodes" if name.endswith("_nodes") else "total_accelerators"
            return df[col] >= value if name.startswith("min_") else df[col] <= value
        values = [value] if isinstance(value, str | int | float | bool) else list(value)
        if name == "gpus":
            return df["total_accelerators"].isin([float(v) for v in values])
        if name == "nodes":
            return df["nodes"].isin([int(v) for v in values])
        if name == "has_power":
            return df["has_power"].astype(bool).isin([bool(v) for v in values])
        if name in ("kind", "member"):
            subs = self.submitters
            texts = df["submitter"].map(subs.kind if name == "kind" else subs.members_text)
            return texts.apply(lambda text: any(f"|{v}|" in text for v in values)).astype(bool)
        canon = [self._canonical(name, str(v)) for v in values]
        col = {"round": "round", "entry": "result_id"}.get(name, name)
        if name == "suite":  # a row of both suites (datacenter,edge) is in each
            wanted = {c.lower() for c in canon}
            return df[col].isin([x for x in df[col].unique() if suites_match(str(x), wanted)])
        if name in ("division", "category"):
            return df[col].isin([c.lower() for c in canon])
        if name == "submitter":
            return df[col].isin(canon) | df[col].str.replace("_", " ").isin(canon)
        return df[col].isin(canon)

    def _canonical(self, name: str, value: str) -> str:
        rules = self.manifest.rules if self.manifest else None
        if name == "round":
            return normalize_version(value)
        if name == "benchmark" and rules:
            return rules.canonical_benchmark(value)
        if name == "scenario" and rules:
            return rules.canonical_scenario(value) or value
        return value

    @property
    def submitters(self) -> Submitters:
        return self.manifest.submitters if self.manifest else Submitters({})

    def rows(self, **filters: Any) -> list[Row]:
        return self.select_rows(**filters)

    def ranked(self, *, by: str = "per_gpu", **filters: Any) -> list[Row]:
        """Measured rows of the selection, best first; ties keep entry order.

        ``by="per_gpu"`` ranks by the per-accelerator value, ``"total"`` by the system
        result, ``"gpus"`` by accelerator count (largest first, then per-GPU value).
        Latency results rank lowest first, whatever *by* says.
        """
        if by not in ("per_gpu", "total", "gpus"):
            raise LookupFailed(f'by={by!r}: rank by "per_gpu", "total" or "gpus"')
        return engine.ranked(self._measured(filters), by)

    def best(self, **filters: Any) -> Row:
        """The row with the best per-accelerator value (lowest latency for latency units)."""
        return self.ranked(**filters)[0]

    def median(self, **filters: Any) -> tuple[float, list[Row]]:
        """Median per-accelerator value of the matching rows, and the rows."""
        rows = self._measured(filters)
        col = "per_accelerator" if rows[0].higher_is_better else "result"
        return float(np.median([getattr(r, col) for r in rows])), rows

    def spread(self, **filters: Any) -> tuple[Row, Row, list[Row]]:
        """Lowest and highest per-accelerator rows of the selection, and all its rows."""
        rows = self._measured(filters)
        col = "per_accelerator" if rows[0].higher_is_better else "result"
        ordered = sorted(rows, key=lambda r: (getattr(r, col), r.result_id))
        return ordered[0], ordered[-1], ordered

    def _measured(self, filters: dict[str, Any]) -> list[Row]:
        usable = engine.measured(self.select_rows(**dict(filters)))
        if not usable:
            raise self.no_match(filters)
        units = {r.units for r in usable}
        if len(units) > 1:
            raise LookupFailed(
                f"results matching {_shown(filters)} mix units ({', '.join(sorted(units))}); "
                "narrow the selection by benchmark and scenario"
            )
        return usable

    # ------------------------------------------------------------------ finding names
    def no_match(self, filters: dict[str, Any]) -> LookupFailed:
        """The "no results match" error, with did-you-mean suggestions for unknown names."""
        hints = self.suggestions(filters)
        return LookupFailed(f"no results match {_shown(filters)}" + "".join(f"; {h}" for h in hints))

    def names(self, what: str, round: str | None = None) -> list[str]:
        """Every benchmark, scenario, family, submitter ... of the loaded rows (of one round)."""
        col = {
            "benchmarks": "benchmark",
            "scenarios": "scenario",
            "families": "family",
            "submitters": "submitter",
            "accelerators": "accelerator",
            "systems": "system",
        }.get(what, what)
        key = (col, None if round is None else normalize_version(round))
        if key not in self._names:  # asked again by every "no results match" message
            if col == "kind":  # a fixed list: a kind no row has is a count of none, not a misspelling
                found = {*SUBMITTER_KINDS, UNCLASSIFIED}
            else:  # the one column, not the round's rows of every column
                values = self.df[col].to_numpy()
                values = values if key[1] is None else values[self._positions(key[1], None, None)]
                found = {str(x) for x in set(values.tolist()) if str(x).strip()}
            self._names[key] = sorted(found)
        return list(self._names[key])

    def suggestions(self, filters: dict[str, Any]) -> list[str]:
        rnd = filters.get("round")
        where = f" in round v{normalize_version(str(rnd))}" if rnd is not None else ""
        out = []
        for name in ("benchmark", "scenario", "family", "submitter", "accelerator", "system", "kind"):
            value = filters.get(name)
            if not isinstance(value, str):
                continue
            known = self.names(name, None if name == "kind" else rnd)
            canon = self._canonical(name, value)
            if canon in known or (name == "submitter" and canon in {k.replace("_", " ") for k in known}):
                continue
            close = _close(value, known)
            plural = {"family": "families", "kind": "kinds"}.get(name, name + "s")
            if close:
                out.append(f"no {name} {value!r}{where}: did you mean {', '.join(repr(c) for c in close)}?")
            else:
                out.append(f"no {name} {value!r}{where} (list them: `gpu-insights data --list {plural}`)")
        return out


def _hashable(column: pd.Series) -> np.ndarray:
    """A column as NumPy numbers (hashed as bytes) or as Python objects (hashed by repr): by
    the column's type, so a missing value in one round does not change another round's hash."""
    if isinstance(column.dtype, np.dtype) and column.dtype.kind in "biufcmM":
        return column.to_numpy()
    return column.to_numpy(dtype=object)


def _shown(filters: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in filters.items() if v is not None)


def _close(value: str, known: list[str]) -> list[str]:
    """Names that start with *value* (``llama2-70b`` -> ``llama2-70b-99``), then close spellings."""
    low = value.lower()
    starts = [k for k in known if k.lower().startswith(low) or low.startswith(k.lower())]
    if starts:
        return starts[:5]
    near = difflib.get_close_matches(value, known, n=3, cutoff=0.6)
    near += [k for k in known if k.lower() == low]
    return list(dict.fromkeys(starts + near))[:5]
