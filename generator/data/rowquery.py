"""The queries of article templates over the official rows, in plain Python: no pandas.

A :class:`RowQueries` answers what the placeholder library (:mod:`generator.article.queries`,
:mod:`generator.article.functions`) asks of the results: the rows of a selection, ranked, their
best, median and spread, one entry's row, the names that exist (for "did you mean" hints), and a
content hash of the rows a rendering read (the render cache's key). It reads a
:class:`~generator.data.rowtable.RowTable`: a ``check`` reads the rows back from the rows cache
(:mod:`generator.data.rowcache`) and renders a template without importing pandas (0.4 s), and the
build's :class:`~generator.data.table.ResultsTable` is a RowQueries over its own rows, so both
give the same rows in the same order and fail with the same words.

A selection that names a round reads one partition of an index by (round, benchmark, scenario):
tens of rows, tested by the predicates of :mod:`generator.data.engine`; one that names no round
tests every row.
"""

from __future__ import annotations

import difflib
import hashlib
import statistics
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.data import engine
from generator.data.manifest import SUBMITTER_KINDS, UNCLASSIFIED, Submitters, normalize_version
from generator.data.row import Row
from generator.data.rowtable import FIELDS, RowTable
from generator.errors import LookupFailed, MissingRound

if TYPE_CHECKING:
    from generator.data.manifest import Manifest

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

#: the fields a fingerprint covers: every Row field but where the row was read from
HASHED = tuple(f for f in FIELDS if f not in ("source_file", "source_row"))

#: the field ``names(what)`` lists, by the plural a caller may use
NAMED = {
    "benchmarks": "benchmark",
    "scenarios": "scenario",
    "families": "family",
    "submitters": "submitter",
    "accelerators": "accelerator",
    "systems": "system",
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


def entry_round(entry: str) -> str:
    """``"6.1-0052"`` → ``"6.1"``."""
    head, sep, _ = entry.partition("-")
    if not sep or not head:
        raise LookupFailed(f"{entry!r} is not an MLPerf result ID (expected e.g. 6.1-0052)")
    return head


class RowQueries:
    """Lookups, filters and rankings over the rows of a :class:`RowTable` (which never change)."""

    def __init__(self, rows: RowTable, manifest: Manifest | None = None) -> None:
        self.row_table = rows
        self.manifest = manifest if manifest is not None else rows.manifest
        #: (round or "*", benchmark or "*") of every query, when a recorder is attached
        self.touched: set[tuple[str, str]] | None = None
        self._index: dict[tuple[str, ...], list[int]] | None = None
        self._selected_rows: dict[object, list[Row]] = {}
        self._names: dict[tuple[str, str | None], list[str]] = {}
        self._digests: dict[tuple[str, str], str] = {}

    # ------------------------------------------------------------------ the rows
    @property
    def rounds(self) -> list[str]:
        return self.row_table.rounds

    @property
    def reports(self) -> list[Any]:
        """Each loaded round's results file (``.version``, ``.path``): what footnotes name."""
        return self.row_table.reports

    @property
    def results_dir(self) -> Path | None:
        return self.row_table.results_dir

    @property
    def digest(self) -> str:
        """A hash of the files the rows were loaded from (set by the loader that cached them)."""
        return self.row_table.digest

    @digest.setter
    def digest(self, value: str) -> None:
        self.row_table.digest = value

    def __len__(self) -> int:
        return len(self.row_table)

    def report(self, version: str) -> Any:
        v = normalize_version(version)
        return next((r for r in self.reports if r.version == v), None)

    def rows_at(self, positions: Iterable[int]) -> list[Row]:
        """The rows at these positions, each made once (see :meth:`position_of`)."""
        return self.row_table.rows_at(positions)

    def position_of(self, row: object) -> int | None:
        """The position of *row* when it is one of these rows, else None: a process forked from
        the one that loaded the rows sends positions, not rows."""
        return self.row_table.position_of(row)

    def prepare_queries(self) -> None:
        """Build the query index now (before forking workers, which then share it instead of
        each building its own); rows are made per partition, on first use."""
        self._positions("", None, None)

    def _positions(self, round: str, benchmark: str | None, scenario: str | None) -> list[int]:
        """Positions of one round, (round, benchmark) or (round, benchmark, scenario), in table
        order, from an index built once."""
        if self._index is None:
            idx: dict[tuple[str, ...], list[int]] = {}
            t = self.row_table
            keys = zip(t.column("round"), t.column("benchmark"), t.column("scenario"), strict=True)
            for p, (rnd, bench, scen) in enumerate(keys):
                if isinstance(rnd, str) and isinstance(bench, str) and isinstance(scen, str):
                    for sub in ((rnd, bench, scen), (rnd, bench), (rnd,)):  # a missing value: none
                        idx.setdefault(sub, []).append(p)
            self._index = idx
        key: tuple[str, ...] = tuple(k for k in (round, benchmark, scenario) if k is not None)
        if benchmark is None and scenario is not None:
            key = (round,)  # a scenario without a benchmark: the round's rows, filtered
        return self._index.get(key, [])

    # ------------------------------------------------------------------ fingerprints
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
            if (rnd, bench) not in self._digests:  # the rows never change
                self._digests[(rnd, bench)] = self._digest(rnd, bench)
            out[f"{rnd}|{bench}"] = self._digests[(rnd, bench)]
        return out

    def _digest(self, rnd: str, bench: str) -> str:
        """The hash of each :data:`HASHED` field's values (their ``repr``: exact for floats, and
        the same whatever other rows hold) over the rows of *rnd* and *bench*."""
        t = self.row_table
        positions: Sequence[int]
        if rnd != "*":
            positions = self._positions(rnd, None if bench == "*" else bench, None)
        elif bench != "*":
            positions = [p for p, b in enumerate(t.column("benchmark")) if b == bench]
        else:
            positions = range(len(t))
        h = hashlib.sha256()
        for name in HASHED:
            col = t.column(name)
            h.update(f"\x1e{name}\x1f".encode())
            h.update("\x1f".join([repr(col[p]) for p in positions]).encode())
        return h.hexdigest()

    # ------------------------------------------------------------------ lookups
    def _need_round(self, version: str, why: str) -> None:
        if version in self.rounds:
            return
        where = f" in {self.results_dir}" if self.results_dir else ""
        raise MissingRound(
            f"{why} needs round v{version}, which is not loaded{where}: "
            f"pass --results DIR with a v{version}/ folder, or run `gpu-insights fetch {version}`"
        )

    def lookup(self, entry: str, benchmark: str, scenario: str) -> Row:
        """The one row of (*entry*, *benchmark*, *scenario*), or a clear error (found by the
        entry index, never by a scan)."""
        version = entry_round(entry)
        self._touch(version, benchmark)
        self._need_round(version, f"entry {entry}")
        rep = self.report(version)
        t = self.row_table
        rows = [r for r in t.rows_at(t.entry_positions().get(entry, ())) if r.round == version]
        if not rows:
            ids = t.column("result_id")
            if rep is not None and not any(ids[p] for p in t.round_positions(version)):
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

    def select_rows(
        self, *, division: str | None = "closed", heterogeneous: bool | str = False, **filters: Any
    ) -> list[Row]:
        """Rows matching every given filter (``division`` defaults to ``closed``), in table order.

        Filters are the names of :data:`FILTERS`; ``exclude={"submitter": "X"}`` drops the
        rows matching any of its filters (a value may be a list). Heterogeneous systems
        are left out unless ``heterogeneous=True`` (``"only"``: nothing else). A query that
        names a round tests the rows of its partition of the index (one round, benchmark and
        scenario); any other, every row.
        """
        exclude = self._validated(filters)
        try:
            key: object = _frozen((division, heterogeneous, filters, exclude))
        except _NoKey:
            key = None
        if key is not None and key in self._selected_rows:  # articles ask the same question often
            return self._selected_rows[key]
        where = self._partition(filters)
        positions = range(len(self.row_table)) if where is None else self._positions(*where)
        keep = [self._predicate(n, v) for n, v in {"division": division, **filters}.items() if v is not None]
        het = engine.heterogeneous_predicate(heterogeneous)
        keep += [het] if het is not None else []
        drop = [self._predicate(n, v) for n, v in exclude.items() if v is not None]
        out = engine.matching(self.rows_at(positions), keep, drop)
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
        return float(statistics.median([getattr(r, col) for r in rows])), rows

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
        col = NAMED.get(what, what)
        key = (col, None if round is None else normalize_version(round))
        if key not in self._names:  # asked again by every "no results match" message
            if col == "kind":  # a fixed list: a kind no row has is a count of none, not a misspelling
                found = {*SUBMITTER_KINDS, UNCLASSIFIED}
            else:  # the one column, not the round's rows of every column
                values = self.row_table.column(col)
                some = values if key[1] is None else [values[p] for p in self._positions(key[1], None, None)]
                found = {str(x) for x in set(some) if str(x).strip()}
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
