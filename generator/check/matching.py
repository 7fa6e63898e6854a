"""Matching numbers typed by hand against the official rows.

For each typed number the matcher looks at what its sentence (then its paragraph) names:
rounds, benchmark, entry IDs. A value with a throughput or per-GPU unit is compared
with each candidate row's system result and per-accelerator value, within half a unit
of the last digit printed ("5.75 million" matches 5,749,440). A ratio or percentage is
compared with every way two rows of one benchmark and scenario relate (ratio, change,
gap, share), per accelerator and in total, preferring rows the same sentence cites.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from generator.check.claims import Claim
from generator.check.vocabulary import Mentions
from generator.data.row import Row
from generator.data.rowtable import RowTable


class EntryRows(Mapping[str, list[Row]]):
    """Entry ID → its rows, each list made on first use (making every row of a large table
    up front costs half a second and tens of megabytes that most checks never read)."""

    def __init__(self, table: RowTable) -> None:
        self.table = table
        self.positions = {k: v for k, v in table.entry_positions().items() if k}
        self.made: dict[str, list[Row]] = {}
        self.rounds: set[str] = set()

    def __getitem__(self, entry: str) -> list[Row]:
        rows = self.made.get(entry)
        if rows is None:  # the entry's rows only: an article cites a few entries of a round
            rows = self.made[entry] = self.table.rows_at(self.positions[entry])
        return rows

    def prepare(self, versions: Iterable[str]) -> None:
        """Make the rows of these rounds now, each round's in one batch (not entry by entry)."""
        for version in versions:
            if version not in self.rounds:
                self.rounds.add(version)
                self.table.rows_at(self.table.round_positions(version))

    def __contains__(self, entry: object) -> bool:
        return entry in self.positions

    def __iter__(self) -> Iterator[str]:
        return iter(self.positions)

    def __len__(self) -> int:
        return len(self.positions)


@dataclass(frozen=True)
class Match:
    rows: tuple[Row, ...]
    kind: str  # result, per_gpu, ratio, pct
    basis: str  # "total" or "per_gpu"
    value: float
    how: str  # human text: "6.1-0052 gpt-oss-120b Server system result"


class Matcher:
    """Candidate rows and value matching over one results table (plain lists: no pandas)."""

    def __init__(self, table: RowTable) -> None:
        self.table = table
        self.by_id = EntryRows(table)
        #: candidates by what selects them: a long article asks the same question for most of
        #: its numbers (476 numbers of one 20 KB article: 3.7 s of DataFrame selections)
        self._candidates: dict[tuple[frozenset[str], ...], list[Row]] = {}

    def candidates(self, m: Mentions, rounds: Iterable[str]) -> list[Row]:
        """Rows a text may refer to: its entries, else its rounds and benchmarks."""
        key = (frozenset(m.entries), frozenset(m.rounds), frozenset(rounds), frozenset(m.benchmarks))
        if key not in self._candidates:
            if len(self._candidates) >= 1024:
                self._candidates.clear()
            self._candidates[key] = self._select(m, rounds)
        return self._candidates[key]

    def _select(self, m: Mentions, rounds: Iterable[str]) -> list[Row]:
        if m.entries:
            rows = [r for e in sorted(m.entries) for r in self.by_id.get(e, [])]
            if rows:
                return rows
        within: dict[str, set[str]] = {}
        rs = set(m.rounds) or set(rounds)
        if rs:
            within["round"] = rs
        if m.benchmarks:
            within["benchmark"] = set(m.benchmarks)
        found = self.table.positions(**within)
        if len(found) > 4000:
            return []
        return self.table.rows_at(found)

    @staticmethod
    def values(rows: list[Row], value: float, tol: float, unit: str) -> list[Match]:
        """Rows whose system result or per-accelerator value prints as *value*."""
        out = []
        for r in rows:
            if unit.startswith("latency"):
                scale = _seconds(unit) / _seconds(r.units)  # a claim in seconds, a row in ms: x 1000
                if not r.higher_is_better and _close(r.result, value * scale, tol * scale):
                    out.append(Match((r,), "result", "total", r.result, f"{_label(r)} latency"))
                continue
            if unit != "per_gpu" and _close(r.result, value, tol):
                out.append(Match((r,), "result", "total", r.result, f"{_label(r)} system result"))
            if r.per_accelerator == r.per_accelerator and _close(r.per_accelerator, value, tol):
                out.append(
                    Match((r,), "per_gpu", "per_gpu", r.per_accelerator, f"{_label(r)} per-accelerator value")
                )
        return out

    @staticmethod
    def relations(
        rows: list[Row], value: float, tol: float, suffix: str, *, same_scenario: bool = False
    ) -> list[Match]:
        """Pairs of *rows* whose ratio or percentage prints as *value* (of one benchmark and
        scenario when *same_scenario*; rows the text itself cites may differ in anything)."""
        out = []
        uniq = list({r.key: r for r in rows}.values())
        for i, a in enumerate(uniq):
            for b in uniq[i + 1 :]:
                if a.units != b.units or (
                    same_scenario and (a.benchmark != b.benchmark or a.scenario != b.scenario)
                ):
                    continue
                for basis in ("per_gpu", "total"):
                    x, y = _metric(a, basis), _metric(b, basis)
                    if not (x and y):
                        continue
                    for kind, v in relation_values(x, y, suffix):
                        if _close(v, value, tol):
                            out.append(
                                Match(
                                    (a, b), kind, basis, v, f"{kind} of {_label(a)} and {_label(b)} ({basis})"
                                )
                            )
        return out

    @staticmethod
    def closest_relation(rows: list[Row], c: Claim) -> str:
        """What two of *rows* do give, nearest the ratio or percentage *c* prints:
        "0.4% (113,685 against 113,241 tokens/s)"."""
        best: tuple[float, str] | None = None
        uniq = list({r.key: r for r in rows}.values())
        decimals = max(1, round(-math.log10(2 * c.tol))) if c.tol > 0 else 1
        sign = "%" if c.suffix in ("%", "percent") else "×"
        for a in uniq:
            for b in uniq:
                if a is b or a.units != b.units:
                    continue
                for basis in ("total", "per_gpu"):
                    x, y = _metric(a, basis), _metric(b, basis)
                    if not (x and y):
                        continue
                    for v in _one_way(x, y, c.suffix):
                        if best is None or abs(v - c.value) < best[0]:
                            per = " per GPU" if basis == "per_gpu" else ""
                            said = f"{v:,.{decimals}f}{sign} ({fmt_value(x)} against {fmt_value(y)} {a.units.lower()}{per})"
                            best = (abs(v - c.value), said)
        return best[1] if best else ""

    def nearest(self, rows: list[Row], value: float, unit: str) -> tuple[str, float]:
        """The closest official value to a number that matched none: (what the finding's message
        says of it, the value itself); ("", NaN) when no row has one."""
        best: tuple[float, str, float] | None = None
        for r in rows:
            for v, what in ((r.result, "system result"), (r.per_accelerator, "per accelerator")):
                if unit == "per_gpu" and what == "system result":
                    continue
                if v == v and v > 0:
                    d = abs(math.log(abs(value) / v)) if value else math.inf
                    if best is None or d < best[0]:
                        best = (d, f"{_label(r)} {fmt_value(v)} {what}", v)
        return (best[1], best[2]) if best else ("", math.nan)


def one_keystroke(a: str, b: str) -> bool:
    """Whether two strings of one length differ by one character or two swapped neighbours (a
    digit mistyped: "52,212.8" for 52,221.8, entry "6.1-0068" for 6.1-0069)."""
    if len(a) != len(b) or a == b:
        return False
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    if len(diff) != 2:
        return len(diff) == 1
    i, j = diff
    return j == i + 1 and a[i] == b[j] and a[j] == b[i]


def _metric(r: Row, basis: str) -> float:
    v = r.per_accelerator if basis == "per_gpu" else r.result
    return v if v == v and v > 0 else 0.0


def relation_values(x: float, y: float, suffix: str) -> list[tuple[str, float]]:
    if suffix in ("×", "x", "times", "-fold"):
        return [("ratio", x / y), ("ratio", y / x)]
    if suffix in ("%", "percent"):
        return [
            ("pct", (x / y - 1) * 100),
            ("pct", (y / x - 1) * 100),
            ("pct", abs(x / y - 1) * 100),
            ("pct", abs(y / x - 1) * 100),
            ("pct", x / y * 100),
            ("pct", y / x * 100),
        ]
    return []


def _one_way(x: float, y: float, suffix: str) -> list[float]:
    """How *x* relates to *y*: its ratio, or its change from and share of *y* in percent."""
    if suffix in ("%", "percent"):
        return [(x / y - 1) * 100, x / y * 100]
    return [x / y]


def _close(v: float, target: float, tol: float) -> bool:
    return v == v and abs(v - target) <= tol * (1 + 1e-9) + 1e-12


def _label(r: Row) -> str:
    return f"{r.result_id or r.submitter} {r.benchmark} {r.scenario}"


def fmt_value(v: float) -> str:
    """An official value as findings print it: whole above 100, two decimals below."""
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:,.2f}"


def _seconds(unit: str) -> float:
    """Seconds per unit of a latency: a claim's ``latency_ms``/``latency_s`` or a row's
    "Latency (ms)"/"Latency (s)"."""
    return 0.001 if re.search(r"ms\b|\(ms\)|_ms$", unit) else 1.0
