"""The MLPerf(R) Compatibility Table (Inference), as ``data/compatibility.toml`` records it.

Which results of two rounds may be compared is MLCommons' decision, made per suite and per
benchmark in the Compatibility Table: a row's merged "X" cells are spans of rounds whose results
are comparable, an "N/A" cell a round without the benchmark, and its notes exclude more (the
performance of power submissions, old MultiStream results). One question reaches this module,
:meth:`Compatibility.verdict`, from the query API, the round overview, the reference pages and
the checker alike::

    >>> compat.verdict("whisper", "datacenter", "5.1", "6.0").ok
    True

A round newer than the table's last column continues a span that reaches that column only for
the rounds ``data/rounds.toml`` lists in its ``compatible_with`` (MLCommons' own cross-round
comparisons), as the publisher decides until the table's next edition.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.errors import ManifestError

SUITES = ("datacenter", "edge")
NOTE_KINDS = ("power", "scenario", "none")


@functools.cache  # a few versions, asked for once per span and comparison
def _key(version: str) -> tuple[int, ...]:
    return tuple(int(p) if p.isdigit() else 0 for p in version.strip().lower().removeprefix("v").split("."))


@dataclass(frozen=True)
class Span:
    """One merged "X" cell of a row: results of rounds *first* to *last* may be compared."""

    first: str
    last: str

    def holds(self, version: str) -> bool:
        return _key(self.first) <= _key(version) <= _key(self.last)

    def __str__(self) -> str:
        return f"v{self.first}" if self.first == self.last else f"v{self.first}–v{self.last}"


@dataclass(frozen=True)
class TableRow:
    """A row of one suite's table: its model's name there, its benchmarks, its spans."""

    suite: str
    model: str
    benchmarks: tuple[str, ...]
    spans: tuple[Span, ...]

    def span_of(self, version: str) -> Span | None:
        return next((s for s in self.spans if s.holds(version)), None)

    def quote(self) -> str:
        """The row as a finding quotes it: ``Inference Datacenter row 'Whisper': compatible v5.1–v6.0``."""
        spans = ", ".join(str(s) for s in self.spans) or "none"
        return f"the Compatibility Table's Inference {self.suite.title()} row '{self.model}' (compatible: {spans})"


@dataclass(frozen=True)
class Note:
    text: str
    applies: str
    scenario: str = ""
    until: str = ""
    since: str = ""


@dataclass(frozen=True)
class Verdict:
    """Whether two rounds' results of a benchmark may be compared, and why.

    ``ok`` is ``None`` when the table does not list the benchmark in that suite (nothing shows
    the rounds are comparable, nothing shows they are not)."""

    ok: bool | None
    why: str
    row: TableRow | None = None


@dataclass(frozen=True)
class Compatibility:
    columns: tuple[str, ...]
    rows: tuple[TableRow, ...]
    notes: tuple[Note, ...]

    @property
    def last(self) -> str:
        return self.columns[-1]

    def row(self, benchmark: str, suite: str) -> TableRow | None:
        suite = suite.strip().lower()
        return next((r for r in self.rows if r.suite == suite and benchmark in r.benchmarks), None)

    def listed(self, benchmark: str) -> bool:
        return any(benchmark in r.benchmarks for r in self.rows)

    def verdict(
        self,
        benchmark: str,
        suite: str,
        old: str,
        new: str,
        *,
        scenario: str = "",
        compatible_with: Mapping[str, tuple[str, ...]] | None = None,
    ) -> Verdict:
        """May results of *benchmark* in *suite* from rounds *old* and *new* be compared?

        *compatible_with* maps a round newer than the table's last column to the earlier rounds
        its publisher lists (``data/rounds.toml``)."""
        lo, hi = sorted((old, new), key=_key)
        note = self._scenario_note(scenario, lo, hi)
        if note is not None:
            return Verdict(False, f"the Compatibility Table's note: '{note.text}'")
        if lo == hi:
            return Verdict(True, "the same round")
        row = self.row(benchmark, suite)
        if row is None:
            return Verdict(
                None,
                f"the Compatibility Table lists no {benchmark} row in its Inference {suite.title()} table",
            )
        return self._within(row, lo, hi, compatible_with or {})

    def _within(
        self, row: TableRow, lo: str, hi: str, compatible_with: Mapping[str, tuple[str, ...]]
    ) -> Verdict:
        last = _key(self.last)
        listed = lo in compatible_with.get(hi, ())
        if _key(lo) > last:  # both newer than the table: the publisher's word alone
            if listed:
                return Verdict(True, f"data/rounds.toml lists v{lo} as compatible with v{hi}", row)
            return Verdict(
                False,
                f"v{hi} is newer than the Compatibility Table, and data/rounds.toml does not list v{lo} as compatible with it",
                row,
            )
        span = row.span_of(lo)
        if span is None:
            return Verdict(False, f"{row.quote()} has no v{lo} result", row)
        if _key(hi) <= last:
            if span.holds(hi):
                return Verdict(True, f"{row.quote()} spans both rounds", row)
            return Verdict(False, f"{row.quote()} does not put v{lo} and v{hi} in one span", row)
        if span.last != self.last:
            return Verdict(
                False, f"{row.quote()} ends the span that holds v{lo} at v{span.last}, before v{hi}", row
            )
        if not listed:
            return Verdict(
                False,
                f"v{hi} is newer than the Compatibility Table, and data/rounds.toml does not list v{lo} as compatible with it",
                row,
            )
        return Verdict(
            True,
            f"{row.quote()} reaches the table's last round, and data/rounds.toml lists v{lo} as compatible with v{hi}",
            row,
        )

    def _scenario_note(self, scenario: str, lo: str, hi: str) -> Note | None:
        for n in self.notes:
            same = n.applies == "scenario" and n.scenario.lower() == scenario.strip().lower()
            if same and _key(lo) <= _key(n.until) and _key(hi) >= _key(n.since):
                return n
        return None

    def power_note(self) -> Note | None:
        return next((n for n in self.notes if n.applies == "power"), None)


def load_compatibility(path: Path, data: Mapping[str, Any]) -> Compatibility:
    """``data/compatibility.toml`` read (by :func:`generator.data.manifest.read_toml`) into a
    :class:`Compatibility`; every malformed row is a :class:`ManifestError` naming it."""
    columns = data.get("columns")
    if not isinstance(columns, list) or not columns or not all(isinstance(c, str) for c in columns):
        raise ManifestError(
            f"{path}: columns: expected the table's rounds as a list of text, got {columns!r}"
        )
    cols = tuple(c.strip().removeprefix("v") for c in columns)
    if list(cols) != sorted(cols, key=_key) or len(set(cols)) != len(cols):
        raise ManifestError(f"{path}: columns: the rounds must be in ascending order, each once")
    rows: list[TableRow] = []
    for suite in SUITES:
        items = data.get(suite, [])
        if not isinstance(items, list):
            raise ManifestError(f"{path}: {suite}: expected [[{suite}]] rows")
        rows += [_row(path, suite, i, item, cols) for i, item in enumerate(items, 1)]
    seen: dict[tuple[str, str], str] = {}
    for r in rows:
        for b in r.benchmarks:
            if (r.suite, b) in seen:
                raise ManifestError(
                    f"{path}: {r.suite} row '{r.model}': benchmark {b!r} is already in row '{seen[(r.suite, b)]}'"
                )
            seen[(r.suite, b)] = r.model
    notes = tuple(_note(path, i, n) for i, n in enumerate(data.get("note", []), 1))
    return Compatibility(cols, tuple(rows), notes)


def _row(path: Path, suite: str, i: int, item: Any, cols: tuple[str, ...]) -> TableRow:
    where = f"{path}: {suite} row #{i}"
    if not isinstance(item, dict):
        raise ManifestError(f"{where}: expected a table")
    model, benches, spans = item.get("model"), item.get("benchmarks"), item.get("spans")
    if not isinstance(model, str) or not model.strip():
        raise ManifestError(f"{where}: model: expected the row's name in the table")
    where = f"{path}: {suite} row '{model}'"
    for name, value in (("benchmarks", benches), ("spans", spans)):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ManifestError(f"{where}: {name}: expected a list of text, got {value!r}")
    parsed = tuple(_span(where, s, cols) for s in spans)  # type: ignore[union-attr]
    for a, b in zip(parsed, parsed[1:], strict=False):
        if _key(b.first) <= _key(a.last):
            raise ManifestError(f"{where}: spans: {a} and {b} overlap or are out of order")
    return TableRow(suite, model.strip(), tuple(b.strip() for b in benches), parsed)  # type: ignore[union-attr]


def _span(where: str, text: str, cols: tuple[str, ...]) -> Span:
    first, _, last = text.strip().partition("-")
    last = last or first
    for v in (first, last):
        if v not in cols:
            raise ManifestError(f"{where}: spans: {text!r}: v{v} is not one of the table's columns")
    if _key(last) < _key(first):
        raise ManifestError(f"{where}: spans: {text!r} ends before it starts")
    return Span(first, last)


def _note(path: Path, i: int, item: Any) -> Note:
    where = f"{path}: note #{i}"
    if not isinstance(item, dict) or not isinstance(item.get("text"), str):
        raise ManifestError(f"{where}: expected a table with the note's text")
    applies = item.get("applies", "none")
    if applies not in NOTE_KINDS:
        raise ManifestError(f"{where}: applies: expected one of {', '.join(NOTE_KINDS)}, got {applies!r}")
    note = Note(
        item["text"],
        applies,
        str(item.get("scenario", "")),
        str(item.get("until", "")),
        str(item.get("from", "")),
    )
    if applies == "scenario" and not (note.scenario and note.until and note.since):
        raise ManifestError(f"{where}: a scenario note needs scenario, until and from")
    return note
