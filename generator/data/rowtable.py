"""The official rows as the checker and the queries read them: plain Python lists, no pandas.

A :class:`RowTable` is either the rows of a loaded :class:`~generator.data.table.ResultsTable`
(:meth:`RowTable.of`: the table's own view, made from its columns, so a row the checker finds is
the very row a rendered figure cites), or a table of its own, read back from the results-table
cache (:mod:`generator.data.rowcache`) by a ``check``, which then never imports pandas
(importing pandas alone takes about 0.4 s).

The checker and the queries (:mod:`generator.data.rowquery`) ask few things of the rows: which
rounds, benchmarks and submitters exist, the rows of an entry or of a round, the rows of some
rounds and benchmarks, and a few columns to filter and rank on. Every answer lists rows in
table order, as a DataFrame selection would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.data.row import Row
from generator.data.versions import version_key

if TYPE_CHECKING:
    from generator.data.manifest import Manifest
    from generator.data.rowquery import RowQueries

#: the Row fields, in the order Row takes them
FIELDS: tuple[str, ...] = tuple(Row.__dataclass_fields__)


@dataclass(frozen=True)
class LoadedFile:
    """The results file a round was read from (what footnotes name): a LoadReport's two fields."""

    version: str
    path: Path


class RowTable:
    """Rows by column: ``columns[field][position]`` for every :class:`Row` field."""

    def __init__(
        self,
        column: Callable[[str], Sequence[Any]],
        size: int,
        *,
        reports: Sequence[Any] = (),
        results_dir: Path | None = None,
        manifest: Manifest | None = None,
        digest: str = "",
    ) -> None:
        self._column = column
        self._columns: dict[str, Sequence[Any]] = {}
        self._size = size
        self._records: dict[int, Row] = {}
        self._position: dict[int, int] = {}  # id() of each row made → its position
        self._by_entry: dict[str, list[int]] | None = None
        self._by_round: dict[str, list[int]] | None = None
        self._rounds: list[str] | None = None
        self._values: dict[str, frozenset[Any]] = {}
        self.reports = list(reports)
        self.results_dir = results_dir
        self.manifest = manifest
        self.digest = digest

    @classmethod
    def of(cls, table: RowQueries) -> RowTable:
        """The rows of *table* (a loaded :class:`~generator.data.table.ResultsTable`, or any
        :class:`~generator.data.rowquery.RowQueries`): its own, with its own Row objects."""
        return table.row_table

    @classmethod
    def from_columns(cls, columns: dict[str, list[Any]], files: dict[str, str], **kw: Any) -> RowTable:
        """A table of its own: *columns* holds every field's values, *files* each round's file."""
        size = len(columns[FIELDS[0]]) if FIELDS[0] in columns else 0
        reports = [LoadedFile(v, Path(p)) for v, p in files.items()]
        return cls(columns.__getitem__, size, reports=reports, **kw)

    def __len__(self) -> int:
        return self._size

    def column(self, name: str) -> Sequence[Any]:
        """Every row's value of field *name*, in table order."""
        col = self._columns.get(name)
        if col is None:
            col = self._columns[name] = self._column(name)
        return col

    @property
    def rounds(self) -> list[str]:
        if self._rounds is None:
            self._rounds = sorted({str(r) for r in self.column("round")}, key=version_key)
        return list(self._rounds)

    def values(self, name: str) -> frozenset[Any]:
        """The distinct values of field *name* (the benchmarks, the submitters, ...)."""
        if name not in self._values:
            self._values[name] = frozenset(self.column(name))
        return self._values[name]

    def rows_at(self, positions: Iterable[int]) -> list[Row]:
        """The rows at these positions, each made once (see :meth:`position_of`)."""
        positions = [int(p) for p in positions]
        recs = self._records
        missing = [p for p in positions if p not in recs]
        if missing:
            cols = [self.column(f) for f in FIELDS]
            for p in missing:
                recs[p] = row = Row(*[c[p] for c in cols])
                self._position[id(row)] = p
        return [recs[p] for p in positions]

    def position_of(self, row: object) -> int | None:
        """The position of *row* when it is one of these rows, else None: a process forked from
        the one that made the rows sends positions, not rows."""
        p = self._position.get(id(row))
        return p if p is not None and self._records.get(p) is row else None

    def entry_positions(self) -> dict[str, list[int]]:
        """Entry ID → its rows' positions (in table order); the rows with no ID left out."""
        if self._by_entry is None:
            self._by_entry = _group(self.column("result_id"))
            self._by_entry.pop("", None)
        return self._by_entry

    def round_positions(self, version: str) -> list[int]:
        """The positions of one round's rows (none for a round not loaded)."""
        if self._by_round is None:
            self._by_round = _group(self.column("round"))
        return self._by_round.get(version, [])

    def positions(self, **within: Iterable[Any]) -> list[int]:
        """The positions of the rows whose field is one of the values given for it
        (``positions(round={"6.1"}, benchmark={"llama2-70b"})``), in table order."""
        if "round" in within:  # from the round index: no scan of the other rounds
            rounds = set(within["round"])
            found = sorted(p for v in rounds for p in self.round_positions(v))
        else:
            found = list(range(self._size))
        for name, allowed in within.items():
            if name != "round":
                keep, col = set(allowed), self.column(name)
                found = [p for p in found if col[p] in keep]
        return found

    def rows(self, **within: Iterable[Any]) -> list[Row]:
        """The rows of :meth:`positions`."""
        return self.rows_at(self.positions(**within))


def _group(values: Sequence[Any]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for p, v in enumerate(values):
        if v == v and v is not None:  # a missing value (NaN, None) groups nothing, as in pandas
            out.setdefault(str(v), []).append(p)
    return out
