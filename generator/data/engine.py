"""Row predicates: the filters of :data:`generator.data.rowquery.FILTERS` as plain Python tests.

A query that names a round and a benchmark reads tens of rows (one partition of the
table's index); testing them in Python is about a hundred times faster than a pandas
mask, and costs the same however many rounds are loaded. Every selection goes through them
(:meth:`generator.data.rowquery.RowQueries.select_rows`), the DataFrame ones of the build too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from generator.data.fields import suites_match

if TYPE_CHECKING:
    from generator.data.manifest import Submitters
    from generator.data.row import Row

Predicate = Callable[["Row"], bool]

#: the Row attribute each equality filter reads
ATTRIBUTE = {"entry": "result_id"}


def _values(value: Any) -> list[Any]:
    return [value] if isinstance(value, str | int | float | bool) else list(value)


def _present(x: float) -> bool:
    return x == x  # not NaN


def range_predicate(name: str, bound: Any) -> Predicate:
    """``min_gpus`` / ``max_gpus`` / ``min_nodes`` / ``max_nodes``: a bound on the count (NaN never matches)."""
    attr = "nodes" if name.endswith("_nodes") else "total_accelerators"
    if name.startswith("min_"):
        return lambda r: _present(getattr(r, attr)) and getattr(r, attr) >= bound
    return lambda r: _present(getattr(r, attr)) and getattr(r, attr) <= bound


def eq_predicate(
    name: str, value: Any, canonical: Callable[[str, str], str], submitters: Submitters
) -> Predicate:
    """An equality filter (one value or a list) as a test of one row."""
    values = _values(value)
    if name == "gpus":
        gpus = {float(v) for v in values}
        return lambda r: r.total_accelerators in gpus
    if name == "nodes":
        nodes = {int(v) for v in values}
        return lambda r: r.nodes in nodes
    if name == "has_power":
        power = {bool(v) for v in values}
        return lambda r: bool(r.has_power) in power
    if name in ("kind", "member"):
        text = submitters.kind if name == "kind" else submitters.members_text
        marks = [f"|{v}|" for v in values]
        return lambda r: any(m in text(r.submitter) for m in marks)
    canon = {canonical(name, str(v)) for v in values}
    attr = ATTRIBUTE.get(name, name)
    if name in ("division", "category", "suite"):
        low = {c.lower() for c in canon}
        if name == "suite":  # a row of both suites (datacenter,edge) is in each
            return lambda r: suites_match(r.suite, low)
        return lambda r: getattr(r, attr) in low
    if name == "submitter":
        return lambda r: r.submitter in canon or r.submitter.replace("_", " ") in canon
    return lambda r: getattr(r, attr) in canon


def heterogeneous_predicate(heterogeneous: bool | str) -> Predicate | None:
    if heterogeneous == "only":
        return lambda r: bool(r.heterogeneous)
    if not heterogeneous:
        return lambda r: not r.heterogeneous
    return None


def matching(rows: Iterable[Row], keep: list[Predicate], drop: list[Predicate]) -> list[Row]:
    """The rows every *keep* test accepts and no *drop* test does, in their order."""
    return [r for r in rows if all(p(r) for p in keep) and not any(p(r) for p in drop)]


def measured(rows: list[Row]) -> list[Row]:
    """Rows with a value to rank: per-accelerator for throughputs, the result for latencies."""
    return [r for r in rows if _present(r.per_accelerator if r.higher_is_better else r.result)]


def ranked(rows: list[Row], by: str) -> list[Row]:
    """Rows best first, ties in entry order then table order (as pandas' stable multi-key sort)."""
    hib = bool(rows[0].higher_is_better)
    per = "per_accelerator" if hib else "result"
    sign = -1.0 if hib else 1.0

    def value(r: Row, attr: str, s: float) -> tuple[int, float]:
        v = getattr(r, attr)
        return (1, 0.0) if v != v else (0, s * v)  # NaN last, as pandas sorts

    if by == "gpus":
        return sorted(
            rows, key=lambda r: (value(r, "total_accelerators", -1.0), value(r, per, sign), r.result_id)
        )
    col = per if by == "per_gpu" else "result"
    return sorted(rows, key=lambda r: (value(r, col, sign), r.result_id))
