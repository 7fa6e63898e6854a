"""The results table and the query helpers the article layer uses.

A :class:`ResultsTable` holds the normalized rows of every loaded round plus the
:class:`~generator.results.LoadReport` of each file. Lookups fail with a message
that says what is missing and what exists instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from .errors import LookupFailed, MissingRound
from .manifest import Manifest, normalize_version
from .results import COLUMNS, LoadReport, available_rounds, read_results, round_file, version_key


@dataclass(frozen=True)
class Row:
    """One official result row, normalized (see :data:`generator.results.COLUMNS`)."""

    round: str
    result_id: str
    submitter: str
    system: str
    platform: str
    division: str
    category: str
    suite: str
    benchmark: str
    scenario: str
    accelerator: str
    family: str
    heterogeneous: bool
    nodes: int
    total_accelerators: float
    result: float
    units: str
    higher_is_better: bool
    per_accelerator: float
    software: str
    weight_data_types: str
    inferred: bool
    has_power: bool
    source_file: str
    source_row: str

    @classmethod
    def from_series(cls, s: pd.Series) -> Row:
        fields = cls.__dataclass_fields__
        return cls(**{k: _py(s[k]) for k in fields})

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.round, self.result_id, self.benchmark, self.scenario)

    @property
    def gpus(self) -> int:
        return int(self.total_accelerators) if self.total_accelerators == self.total_accelerators else 0


def _py(v: Any) -> Any:
    if hasattr(v, "item"):
        return v.item()
    return v


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
    ) -> ResultsTable:
        """Load every round found under *results_dir* (``v6.1/summary_results.json`` ...)."""
        d = Path(results_dir)
        versions = [normalize_version(v) for v in rounds] if rounds else available_rounds(d)
        frames, reports = [], []
        for v in versions:
            f = round_file(d, v, manifest)
            if f is None:
                raise MissingRound(
                    f"{d}: no results file for round v{v} (expected v{v}/summary_results.json, "
                    f"summary.xlsx, summary.json or summary.csv); run `gpu-insights fetch {v}`"
                )
            df, rep = read_results(f, manifest, version=v, divisions=divisions, suites=suites)
            frames.append(df)
            reports.append(rep)
        df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=COLUMNS)
        return cls(df, reports, results_dir=d, manifest=manifest)

    @property
    def rounds(self) -> list[str]:
        return sorted({str(r) for r in self.df["round"].unique()}, key=version_key)

    def report(self, version: str) -> LoadReport | None:
        v = normalize_version(version)
        return next((r for r in self.reports if r.version == v), None)

    def __len__(self) -> int:
        return len(self.df)

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
        import hashlib

        out = {}
        for rnd, bench in sorted(keys):
            m = pd.Series(True, index=self.df.index)
            if rnd != "*":
                m &= self.df["round"] == rnd
            if bench != "*":
                m &= self.df["benchmark"] == bench
            rows = self.df[m].drop(columns=["source_file", "source_row"])
            digest = hashlib.sha256(pd.util.hash_pandas_object(rows, index=False).to_numpy().tobytes())
            digest.update(str(len(rows)).encode())
            out[f"{rnd}|{bench}"] = digest.hexdigest()
        return out

    def _need_round(self, version: str, why: str) -> None:
        if version in self.rounds:
            return
        where = f" in {self.results_dir}" if self.results_dir else ""
        raise MissingRound(
            f"{why} needs round v{version}, which is not loaded{where}: "
            f"pass --results DIR with a v{version}/ folder, or run `gpu-insights fetch {version}`"
        )

    def lookup(self, entry: str, benchmark: str, scenario: str) -> Row:
        """The one row of (*entry*, *benchmark*, *scenario*), or a clear error."""
        version = entry_round(entry)
        self._touch(version, benchmark)
        self._need_round(version, f"entry {entry}")
        rep = self.report(version)
        sel = self.df[(self.df["round"] == version) & (self.df["result_id"] == entry)]
        if sel.empty:
            if rep is not None and sel.empty and self.df[self.df["round"] == version]["id_missing"].all():
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
        hit = sel[(sel["benchmark"] == benchmark) & (sel["scenario"] == scenario)]
        if hit.empty:
            ran = sel.groupby("benchmark")["scenario"].apply(lambda s: ", ".join(sorted(s))).to_dict()
            listing = "; ".join(f"{b} ({s})" for b, s in sorted(ran.items()))
            raise LookupFailed(f"entry {entry} has no {benchmark} {scenario} result; it ran: {listing}")
        if len(hit) > 1:
            places = ", ".join(str(x) for x in hit["source_row"])
            raise LookupFailed(
                f"entry {entry} {benchmark} {scenario} is ambiguous: {len(hit)} rows ({places})"
            )
        return Row.from_series(hit.iloc[0])

    # ------------------------------------------------------------------ filters
    def select(
        self,
        *,
        round: str | None = None,
        division: str | None = "closed",
        category: str | Iterable[str] | None = None,
        suite: str | None = None,
        benchmark: str | None = None,
        scenario: str | None = None,
        family: str | None = None,
        gpus: int | None = None,
        min_gpus: int | None = None,
        max_gpus: int | None = None,
        submitter: str | None = None,
        heterogeneous: bool = False,
    ) -> pd.DataFrame:
        """Rows matching every given filter (``division`` defaults to ``closed``).

        Heterogeneous systems are left out unless ``heterogeneous=True``.
        """
        self._touch(round, benchmark)
        df = self.df
        m = pd.Series(True, index=df.index)
        if round is not None:
            v = normalize_version(round)
            self._need_round(v, f"a selection of round v{v}")
            m &= df["round"] == v
        if division is not None:
            m &= df["division"] == division.lower()
        if category is not None:
            cats = [category] if isinstance(category, str) else list(category)
            m &= df["category"].isin([c.lower() for c in cats])
        if suite is not None:
            m &= df["suite"] == suite.lower()
        if benchmark is not None:
            b = self.manifest.rules.canonical_benchmark(benchmark) if self.manifest else benchmark
            m &= df["benchmark"] == b
        if scenario is not None:
            s = (self.manifest.rules.canonical_scenario(scenario) if self.manifest else None) or scenario
            m &= df["scenario"] == s
        if family is not None:
            m &= df["family"] == family
        if gpus is not None:
            m &= df["total_accelerators"] == gpus
        if min_gpus is not None:
            m &= df["total_accelerators"] >= min_gpus
        if max_gpus is not None:
            m &= df["total_accelerators"] <= max_gpus
        if submitter is not None:
            m &= df["submitter"] == submitter
        if not heterogeneous:
            m &= ~df["heterogeneous"].astype(bool)
        return df[m]

    def rows(self, **filters: Any) -> list[Row]:
        return [Row.from_series(s) for _, s in self.select(**filters).iterrows()]

    def best(self, **filters: Any) -> Row:
        """The row with the best per-accelerator value (lowest latency for latency units)."""
        sel = self._measured(filters)
        hib = bool(sel["higher_is_better"].iloc[0])
        col = "per_accelerator" if hib else "result"
        ordered = sel.sort_values([col, "result_id"], ascending=[not hib, True], kind="stable")
        return Row.from_series(ordered.iloc[0])

    def median(self, **filters: Any) -> tuple[float, list[Row]]:
        """Median per-accelerator value of the matching rows, and the rows."""
        sel = self._measured(filters)
        col = "per_accelerator" if bool(sel["higher_is_better"].iloc[0]) else "result"
        return float(sel[col].median()), [Row.from_series(s) for _, s in sel.iterrows()]

    def spread(self, **filters: Any) -> tuple[Row, Row, list[Row]]:
        """Lowest and highest per-accelerator rows of the selection, and all its rows."""
        sel = self._measured(filters)
        col = "per_accelerator" if bool(sel["higher_is_better"].iloc[0]) else "result"
        ordered = sel.sort_values([col, "result_id"], kind="stable")
        rows = [Row.from_series(s) for _, s in ordered.iterrows()]
        return rows[0], rows[-1], rows

    def _measured(self, filters: dict[str, Any]) -> pd.DataFrame:
        sel = self.select(**filters)
        hib = sel["higher_is_better"].astype(bool)
        usable = sel[(hib & sel["per_accelerator"].notna()) | (~hib & sel["result"].notna())]
        if usable.empty:
            shown = ", ".join(f"{k}={v!r}" for k, v in filters.items() if v is not None)
            raise LookupFailed(f"no results match {shown}")
        units = set(usable["units"])
        if len(units) > 1:
            shown = ", ".join(f"{k}={v!r}" for k, v in filters.items() if v is not None)
            raise LookupFailed(
                f"results matching {shown} mix units ({', '.join(sorted(units))}); narrow the selection by benchmark and scenario"
            )
        return usable
