"""The results table: every loaded round in one DataFrame, for the build's pages.

A :class:`ResultsTable` holds the normalized rows of every loaded round plus the
:class:`~generator.data.results.LoadReport` of each file. Its queries (lookups, selections,
rankings) are those of :class:`~generator.data.rowquery.RowQueries` over its own rows, in plain
Python: a ``check`` asks them of the cached rows without pandas, with the same answers. Lookups
fail with a message that says what is missing and what exists instead.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

import pandas as pd

from generator.data.manifest import Manifest, normalize_version
from generator.data.results import (
    COLUMNS,
    LoadReport,
    available_rounds,
    read_round,
    round_files,
)
from generator.data.row import Row
from generator.data.rowquery import FILTERS, RowQueries, entry_round
from generator.data.rowtable import RowTable
from generator.errors import MissingRound
from generator.workers import default_jobs, forked_map, jobs_worth

T = TypeVar("T")

__all__ = ["FILTERS", "ResultsTable", "Row", "entry_round"]


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


class ResultsTable(RowQueries):
    """All loaded rounds in one DataFrame, with the lookups and filters of :class:`RowQueries`
    over its own rows (made from its columns, each on first use)."""

    def __init__(
        self,
        df: pd.DataFrame,
        reports: Iterable[LoadReport] = (),
        *,
        results_dir: Path | None = None,
        manifest: Manifest | None = None,
    ) -> None:
        self.df = df.reset_index(drop=True)
        # each Row field's values as ``Series.tolist`` gives them, read once, on first use
        rows = RowTable(
            lambda f: self.df[f].tolist(),
            len(self.df),
            reports=list(reports),
            results_dir=results_dir,
            manifest=manifest,
        )
        super().__init__(rows, manifest)

    def __getstate__(self) -> dict[str, Any]:
        """What the table cache keeps: the rows and where they come from (their views, indexes
        and memoized selections are made again, on first use)."""
        return {
            "df": self.df,
            "reports": self.reports,
            "results_dir": self.results_dir,
            "manifest": self.manifest,
            "digest": self.digest,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(  # type: ignore[misc]
            state["df"], state["reports"], results_dir=state["results_dir"], manifest=state["manifest"]
        )
        self.digest = state["digest"]

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

    def report(self, version: str) -> LoadReport | None:
        rep: LoadReport | None = super().report(version)
        return rep

    # ------------------------------------------------------------------ as DataFrames
    def rows_of(self, df: pd.DataFrame) -> list[Row]:
        """The :class:`Row` of each row of *df*, a selection of this table (each made once)."""
        return self.rows_at(df.index)

    def of_round(self, version: str) -> pd.DataFrame:
        """The rows of one round (from the index: no scan of the whole table)."""
        return self.df.iloc[self._positions(normalize_version(version), None, None)]

    def select(
        self, *, division: str | None = "closed", heterogeneous: bool | str = False, **filters: Any
    ) -> pd.DataFrame:
        """The rows of :meth:`~RowQueries.select_rows` (the same filters) as a DataFrame."""
        rows = self.select_rows(division=division, heterogeneous=heterogeneous, **filters)
        return self.df.iloc[[self._own(r) for r in rows]]

    def _own(self, row: Row) -> int:
        p = self.position_of(row)
        assert p is not None  # a selection's rows are the table's own
        return p
