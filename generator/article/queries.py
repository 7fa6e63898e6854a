"""Selections of results that read like the question: best, rank, top, largest, count, peers.

Every selection helper takes a benchmark and a scenario (or a peer :class:`Group`
made by ``group(...)``) and any filter of :data:`generator.data.rowquery.FILTERS`, plus
``exclude=`` (a dict of filters, a figure, or a list of figures whose rows to leave
out). The claim helpers (``leader``, ``only``, ``first_round``) compute what prose
asserts, so that a claim fails the build when the data stops supporting it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from generator.article.figures import Figure, total_figure
from generator.data.row import Row
from generator.data.versions import version_key
from generator.errors import ClaimFailed, LookupFailed

if TYPE_CHECKING:
    from generator.data.manifest import Manifest
    from generator.data.rowquery import RowQueries

#: what ``count(..., distinct=)`` can count
DISTINCT = {
    "entry": "result_id",
    "system": "result_id",
    "submitter": "submitter",
    "organisation": "submitter",
    "organization": "submitter",
    "family": "family",
    "accelerator": "accelerator",
    "benchmark": "benchmark",
    "scenario": "scenario",
    "round": "round",
    "model": "benchmark",
}


def model_name(benchmark: str) -> str:
    """A benchmark without its accuracy variant or part: ``llama2-70b-99.9`` → ``llama2-70b``.

    ``e2e-rag-db`` and ``e2e-rag-qna`` are the two parts of ``e2e-rag``. This is how the
    MLCommons results analysis counts benchmarks ("10 Datacenter and 6 Edge benchmarks").
    """
    name = re.sub(r"-(99\.9|99|95)$", "", benchmark)
    return re.sub(r"^(e2e-rag)-(db|qna)$", r"\1", name)


@dataclass(frozen=True)
class Group:
    """A peer group: a benchmark, a scenario and filters, reusable by every selection helper.

    ``{% set peers = group("deepseek-r1", "Server", round="6.1", kind="cloud") %}``, then
    ``best(peers)``, ``rank(peers, n=2)``, ``count(peers)``, ``group(peers, gpus=72)``.
    """

    benchmark: str | None
    scenario: str | None
    filters: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        parts = [p for p in (self.benchmark, self.scenario) if p]
        parts += [f"{k}={v}" for k, v in self.filters]
        return f"group({', '.join(parts)})"


@dataclass(frozen=True)
class Claim:
    """The outcome of a claim helper: whether it holds, and the rows that contradict it."""

    holds: bool
    statement: str
    counter: tuple[Figure, ...] = ()
    figures: tuple[Figure, ...] = field(default=(), compare=False)

    def __bool__(self) -> bool:
        return self.holds

    def why(self) -> str:
        """The rows that contradict the claim, e.g. ``6.1-0003 (AMD, MI355X, 8 GPUs): 14,155``."""
        return "; ".join(_row_text(f) for f in self.counter)


def _row_text(f: Figure) -> str:
    r = f.row
    what = ", ".join(p for p in (r.submitter.replace("_", " "), r.family, f"{r.gpus} GPUs") if p)
    return f"entry {r.result_id} {r.benchmark} {r.scenario} ({what}): {f}{' per GPU' if f.kind == 'per_gpu' else ''}"


def _extreme(which: str, r: Row) -> Figure:
    """The lowest or highest per-GPU value of a spread, with its row."""
    return Figure(
        r.per_accelerator,
        "per_gpu",
        f"{which} per-GPU = {r.result_id}",
        (r,),
        calc={"op": "per_gpu", "row": r},
    )


def _count_calc(rows: Sequence[Row], distinct: str | None = None, kind: Any = None) -> dict[str, Any]:
    """What a count records for the figures ledger's audit: its rows, what it counts of them, and
    for organisations of a kind, the kind (each member of a joint submission counts under its own)."""
    calc: dict[str, Any] = {"op": "count", "rows": tuple(rows), "distinct": distinct}
    if kind is not None and distinct in ("organisation", "organization"):
        calc["kind"] = [kind] if isinstance(kind, str) else list(kind)
    return calc


def _older(fn: str, since: Any, round: Any) -> None:
    """*since* a round before *round*: a gain or a newcomer is counted from an earlier round."""
    if version_key(str(since)) >= version_key(str(round)):
        raise LookupFailed(f"{fn}(): since={since} is not a round before round={round}")


def _threshold(above: Any, row: Row, col: str) -> float:
    """``only(above=...)``'s value, of the kind the rows are compared by (per-GPU or total)."""
    if not isinstance(above, Figure):
        if isinstance(above, bool) or not isinstance(above, int | float):
            raise LookupFailed(f"only(): above= takes a figure or a number, not {above!r}")
        return float(above)
    compared = "per-GPU values" if col == "per_accelerator" else "system results"
    if (
        above.kind == "result"
        and col == "per_accelerator"
        or above.kind in ("per_gpu", "median")
        and col == "result"
    ):
        raise LookupFailed(
            f"only(): above= is {'a system total' if above.kind == 'result' else 'a per-GPU value'} ({above}), and the rows are compared by their {compared}"
        )
    units = {r.units for r in above.entries}
    if units and units != {row.units}:
        raise LookupFailed(f"only(): above= is in {', '.join(sorted(units))} and the rows in {row.units}")
    if above.value != above.value:
        raise LookupFailed(f"only(): above= is {above}, which has no value to compare with")
    return float(above.value)


def _plain(value: Any) -> Any:
    """Filter values given as figures (``gpus=x.gpus``) become plain values."""
    if isinstance(value, Figure):
        return value.text_override or (int(value.value) if float(value.value).is_integer() else value.value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _exclusions(exclude: Any) -> dict[str, Any]:
    """``exclude=`` as a dict of filters; figures exclude the entries they come from."""
    if exclude is None:
        return {}
    if isinstance(exclude, Figure):
        exclude = [exclude]
    if isinstance(exclude, list | tuple):
        if not all(isinstance(f, Figure) for f in exclude):
            raise LookupFailed("exclude= takes a dict of filters, a figure or a list of figures")
        return {"entry": sorted({r.result_id for f in exclude for r in f.entries})}
    if isinstance(exclude, dict):
        return {str(k): _plain(v) for k, v in exclude.items()}
    raise LookupFailed(f"exclude= takes a dict of filters, a figure or a list of figures, not {exclude!r}")


def _merge_exclude(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    out = dict(a)
    for k, v in b.items():
        if k in out:
            old = out[k] if isinstance(out[k], list) else [out[k]]
            new = v if isinstance(v, list) else [v]
            out[k] = old + [x for x in new if x not in old]
        else:
            out[k] = v
    return out


def _one_benchmark(fn: str, rows: Sequence[Row], what: str) -> None:
    """A median or a spread summarises rows of one benchmark (the table refuses mixed units):
    the median per-GPU value of gpt-oss-120b and DeepSeek-R1 rows together means nothing."""
    names = sorted({r.benchmark for r in rows})
    if len(names) > 1:
        shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
        raise LookupFailed(f"{fn}(): the selection ({what}) mixes benchmarks ({shown}); name one")


class Queries:
    """Selection and claim helpers of the template library (mixed into ``Library``)."""

    table: RowQueries
    manifest: Manifest

    # ------------------------------------------------------------------ selections
    def _selection(self, args: tuple[Any, ...], filters: dict[str, Any]) -> dict[str, Any]:
        """Table filters from ``(benchmark, scenario, **filters)`` or ``(group, **filters)``."""
        base: dict[str, Any] = {}
        if args and isinstance(args[0], Group):
            g = args[0]
            if len(args) > 1:
                raise LookupFailed(f"{g} already names its benchmark and scenario; pass only filters")
            base = {"benchmark": g.benchmark, "scenario": g.scenario, **dict(g.filters)}
        elif len(args) > 2:
            raise LookupFailed("a selection takes a benchmark and a scenario, then filters by name")
        else:
            base = {"benchmark": args[0] if args else None, "scenario": args[1] if len(args) > 1 else None}
        exclude = _merge_exclude(
            _exclusions(base.pop("exclude", None)), _exclusions(filters.pop("exclude", None))
        )
        merged = {**base, **{k: _plain(v) for k, v in filters.items()}}
        # None means "any"; for division (closed by default) it has to be passed on as such
        merged = {k: v for k, v in merged.items() if v is not None or k == "division"}
        if exclude:
            merged["exclude"] = exclude
        return merged

    @staticmethod
    def _describe(f: dict[str, Any]) -> str:
        return ", ".join(f"{k}={v}" for k, v in f.items() if v is not None)

    def _row_figure(self, r: Row, by: str, what: str) -> Figure:
        """The figure a selection returns for its row: per-GPU value, or total with ``by="total"``."""
        if by == "total" or not r.higher_is_better or r.per_accelerator != r.per_accelerator:
            f = total_figure(r)
            return Figure(f.value, f.kind, f"{what} = {r.result_id}", f.entries, calc=f.calc)
        return Figure(
            r.per_accelerator, "per_gpu", f"{what} = {r.result_id}", (r,), calc={"op": "per_gpu", "row": r}
        )

    def group(self, *args: Any, **filters: Any) -> Group:
        """A peer group reused by best/median/rank/top/count/largest/spread/tables.

        ``{% set peers = group("deepseek-r1", "Server", round="6.1", kind=["cloud", "neocloud"]) %}``;
        ``group(peers, gpus=72)`` narrows it. Printing a group is an error: print what you ask of it.
        (A ``dict(...)`` of filters passed with ``**`` works too, but a group also carries the
        benchmark and scenario, and its ``exclude=`` merges with the caller's.)
        """
        f = self._selection(args, filters)
        bench, scen = f.pop("benchmark", None), f.pop("scenario", None)
        return Group(bench, scen, tuple(f.items()))

    def best(self, *args: Any, by: str = "per_gpu", **filters: Any) -> Figure:
        """Best row of a selection: ``{{ best("gpt-oss-120b", "Server", round="6.1", family="B300", gpus=8) }}`` → ``14,211``.

        ``by="total"`` ranks by system result and returns the total; the figure's ``.entry``,
        ``.gpus``, ``.total``, ``.per_gpu``, ``.submitter`` and ``.family`` name the row.
        """
        return self.rank(*args, n=1, by=by, **filters)

    def rank(self, *args: Any, n: int = 2, by: str = "per_gpu", **filters: Any) -> Figure:
        """The *n*-th best row of a selection (1 is the best): ``{{ rank(peers, n=2) }}`` is the next-highest.

        The figure offers ``.of`` (rows ranked) and ``.tied`` (other rows with the same value).
        """
        f = self._selection(args, filters)
        rows = tuple(self.table.ranked(by=by, **f))
        if n < 1 or n > len(rows):
            raise LookupFailed(f"rank {n} asked of {len(rows)} ranked row(s) ({self._describe(f)})")
        word = "best" if n == 1 else f"rank {n}"
        r = rows[n - 1]
        fig = self._row_figure(
            r, by, f"{word} {'total' if by == 'total' else 'per-GPU'} of {self._describe(f)}"
        )
        col = "result" if (by == "total" or not r.higher_is_better) else "per_accelerator"
        ties = [x for x in rows if getattr(x, col) == getattr(r, col) and x is not r]
        fig.extra.update(
            of=Figure(
                float(len(rows)), "count", f"rows ranked ({self._describe(f)})", rows, calc=_count_calc(rows)
            ),
            tied=Figure(
                float(len(ties)),
                "count",
                "rows tied with it",
                (r,),
                calc={"op": "tied", "row": r, "by": col, "rows": ties},
            ),
        )
        return fig

    def top(self, *args: Any, n: int = 3, by: str = "per_gpu", **filters: Any) -> list[Figure]:
        """The best *n* rows of a selection, best first (fewer when the selection is smaller).

        ``{% for x in top(peers, 3) %}{{ x.submitter }} {{ x }}{% endfor %}``.
        """
        f = self._selection(args, filters)
        ranked = self.table.ranked(by=by, **f)[: max(n, 0)]
        what = f"top {n} {'total' if by == 'total' else 'per-GPU'} of {self._describe(f)}"
        return [self._row_figure(r, by, what) for r in ranked]

    def largest(self, *args: Any, **filters: Any) -> Figure:
        """Accelerator count of the largest systems of a selection: ``{{ largest(round="6.1") }}`` → ``512``.

        Benchmark and scenario may be left out (any benchmark). Cites every row at that
        size; ``.systems`` counts them, ``.rows`` lists each as a total figure, and for a
        single row ``.entry``, ``.total`` and ``.per_gpu`` work directly.
        """
        f = self._selection(args, filters)
        sel = [r for r in self.table.select_rows(**f) if r.total_accelerators > 0]  # NaN is not > 0
        if not sel:
            raise self.table.no_match(f)
        most = max(r.total_accelerators for r in sel)
        top = [r for r in sel if r.total_accelerators == most]
        rows = tuple(sorted(top, key=lambda r: (r.result_id, r.benchmark, r.scenario)))
        ids = sorted({r.result_id for r in rows})
        firsts = [next(r for r in rows if r.result_id == i) for i in ids]
        return Figure(
            float(rows[0].gpus),
            "count",
            f"largest accelerator count of {self._describe(f)} ({', '.join(ids)})",
            rows,
            calc={"op": "largest", "rows": rows},
            extra={
                "systems": Figure(
                    float(len(ids)),
                    "count",
                    "systems of the largest size",
                    rows,
                    calc=_count_calc(rows, "system"),
                ),
                "rows": [total_figure(r) for r in firsts],
            },
        )

    def median(self, *args: Any, **filters: Any) -> Figure:
        """Median per-GPU value of a selection (all its rows are cited); ``.count`` counts them."""
        f = self._selection(args, filters)
        med, rows = self.table.median(**f)
        _one_benchmark("median", rows, self._describe(f))
        return Figure(
            med,
            "median",
            f"median per-GPU of {len(rows)} rows ({self._describe(f)})",
            tuple(rows),
            calc={"op": "median", "rows": rows},
            extra={
                "count": Figure(
                    float(len(rows)), "count", "rows in selection", tuple(rows), calc=_count_calc(rows)
                )
            },
        )

    def spread(self, *args: Any, digits: int = 1, **filters: Any) -> Figure:
        """Max / min − 1 of per-GPU values in a selection: ``13.5%``; ``.low``, ``.high``, ``.count``."""
        f = self._selection(args, filters)
        low, high, rows = self.table.spread(**f)
        _one_benchmark("spread", rows, self._describe(f))
        lo, hi = _extreme("lowest", low), _extreme("highest", high)
        n = Figure(
            float(len(rows)),
            "count",
            f"rows in selection ({self._describe(f)})",
            tuple(rows),
            calc=_count_calc(rows),
        )
        return Figure(
            (high.per_accelerator / low.per_accelerator - 1) * 100,
            "spread",
            f"(max / min - 1) x 100 over {len(rows)} rows ({self._describe(f)})",
            tuple(rows),
            digits=digits,
            calc={"op": "spread", "rows": rows},
            extra={"low": lo, "high": hi, "count": n},
        )

    def count(self, *args: Any, distinct: str | None = None, **filters: Any) -> Figure:
        """Rows of a selection, or distinct values: ``{{ count("gpt-oss-120b", "Server", family="B300", gpus=8) }}`` → ``14``.

        ``distinct="submitter"`` counts submitter names, ``"organisation"`` counts organisations
        (joint submissions count each member once, aliases merge; ``data/submitters.toml``),
        ``"system"`` counts result IDs; also ``family``, ``accelerator``, ``benchmark``,
        ``scenario``, ``round``. ``.names`` lists what was counted. A misspelt name is an error
        with suggestions, not a zero.
        """
        f = self._selection(args, filters)
        rows = tuple(self.table.select_rows(**f))
        if not rows and self.table.suggestions(f):
            raise self.table.no_match(f)
        if distinct is not None and distinct not in DISTINCT:
            raise LookupFailed(f"distinct={distinct!r}: count one of {', '.join(DISTINCT)}")
        names = self._distinct(rows, distinct, f.get("kind"))
        what = f"distinct {distinct}s" if distinct else "rows"
        if distinct in ("organisation", "organization") and f.get("kind") is not None:
            what += f" of kind {f['kind']}"  # each member of a joint submission under its own kind
        return Figure(
            float(len(names) if distinct else len(rows)),
            "count",
            f"{what} in selection ({self._describe(f)})",
            rows,
            calc=_count_calc(rows, distinct, f.get("kind")),
            extra={"names": names},
        )

    def _distinct(self, rows: Sequence[Row], distinct: str | None, kind: Any = None) -> list[str]:
        if distinct is None:
            return []
        col = DISTINCT[distinct]
        values = [v for v in dict.fromkeys(str(getattr(r, col)) for r in rows) if v.strip()]
        if distinct in ("organisation", "organization"):
            subs = self.manifest.submitters
            values = [o for v in values for o in subs.organisations(v)]
            if kind is not None:  # a joint submission's members count each under its own kind
                kinds = {kind} if isinstance(kind, str) else set(kind)
                values = [o for o in values if subs.kind_of(o) in kinds]
        if distinct == "model":
            values = [model_name(v) for v in values]
        return sorted(set(values), key=str.lower)

    def names(self, what: str, *args: Any, joint: bool | None = None, **filters: Any) -> list[str]:
        """The distinct names *what* (as ``count(distinct=)`` takes) of a selection, as text.

        ``{{ names("submitter", round="6.1", division=None, joint=True) | join(", ") }}`` →
        ``Dell_AMD, Dell_MangoBoost, RedHat_Intel, RedHat_Supermicro``. Text, not figures:
        cite the selection with ``count(...)`` where the prose states how many.
        """
        out = self.count(*args, distinct=what, **filters).names
        if joint is not None and what == "submitter":
            out = [n for n in out if (len(self.manifest.submitters.organisations(n)) > 1) == joint]
        return list(out)

    def popular(self, *args: Any, per: str = "model", n: int | None = None, **filters: Any) -> list[Figure]:
        """Benchmarks of a selection by number of systems that ran them, most first; ties by name.

        ``per="model"`` merges accuracy variants (:func:`model_name`), ``per="benchmark"`` does
        not. Each figure counts systems (result IDs) and offers ``.name``.
        """
        f = self._selection(args, filters)
        sel = self.table.select_rows(**f)
        if not sel:
            raise self.table.no_match(f)
        groups: dict[str, list[Row]] = {}
        for r in sel:
            groups.setdefault(model_name(r.benchmark) if per == "model" else r.benchmark, []).append(r)
        out = []
        for name, rows in sorted(groups.items()):
            systems = len({r.result_id for r in rows})
            cited = tuple(rows)
            what = f"systems that ran {name} ({self._describe(f)})"
            calc = _count_calc(cited, "system")
            out.append(Figure(float(systems), "count", what, cited, calc=calc, extra={"name": str(name)}))
        out.sort(key=lambda x: (-x.value, x.name))
        return out[:n] if n else out

    def systems(self, *args: Any, **filters: Any) -> list[Figure]:
        """One figure per system (result ID) of a selection, in entry order: the system's first row.

        Each offers ``.entry``, ``.submitter``, ``.system``, ``.accelerator``, ``.gpus`` and ``.nodes``;
        printing one prints that row's result. Any benchmark, unless the selection names one.
        """
        f = self._selection(args, filters)
        sel = self.table.select_rows(**f)
        if not sel:
            raise self.table.no_match(f)
        firsts: dict[str, Row] = {}
        for r in sorted(sel, key=lambda r: r.result_id):
            firsts.setdefault(r.result_id, r)
        return [total_figure(r) for r in firsts.values()]

    def count_by_round(
        self, *args: Any, distinct: str | None = None, until: str | None = None, **filters: Any
    ) -> list[Figure]:
        """``count(...)`` in every loaded round (up to round *until*), oldest first; each offers ``.round``.

        ``count_by_round(min_nodes=2, distinct="system", division=None)``: multi-node systems per round.
        """
        filters.pop("round", None)
        out = []
        for rnd in self._rounds(until):
            fig = self.count(*args, distinct=distinct, round=rnd, **filters)
            fig.extra["round"] = rnd
            out.append(fig)
        return out

    def newcomers(self, what: str, *args: Any, round: str, since: str, **filters: Any) -> Figure:
        """Count of the names *what* (as ``count(distinct=)`` takes) in round *round* but not in *since*.

        ``{{ newcomers("model", round="6.1", since="6.0", division=None) }}`` → ``2``; ``.names``
        lists them (here ``e2e-rag``, ``qwen3.6-27b``). Cites the rows of the new names.
        """
        _older("newcomers", since, round)
        now = self.count(*args, distinct=what, round=round, **filters)
        before = set(self.count(*args, distinct=what, round=since, **filters).names)
        new = [n for n in now.names if n not in before]
        keep = {self._name_of(what, r) for r in now.entries} & set(new)
        rows = tuple(r for r in now.entries if self._name_of(what, r) in keep)
        return Figure(
            float(len(new)),
            "count",
            f"{what}s in v{round} and not in v{since}",
            rows,
            calc=_count_calc(rows, what),
            extra={"names": new},
        )

    def _name_of(self, what: str, r: Row) -> str:
        value = str(getattr(r, DISTINCT[what]))
        return model_name(value) if what == "model" else value

    def gains(
        self,
        *,
        round: str,
        since: str,
        scenarios: Sequence[str] = ("Offline", "Server"),
        order: str = "benchmark",
        **filters: Any,
    ) -> list[Figure]:
        """Change of the best per-GPU value of each benchmark and scenario from round *since* to *round*.

        Only throughput benchmarks that both rounds ran and that the Compatibility Table lets
        one compare (:meth:`comparable`); the older best row is one with measured power exactly
        when the newer one has it (the Compatibility Table compares them only so). Each figure (a percentage) offers ``.benchmark``,
        ``.scenario``, ``.new`` and ``.old`` (the two best rows). ``order="change"`` lists the
        largest gain first (default: by benchmark, then scenario).
        """
        _older("gains", since, round)
        out = []
        for bench in self.names("benchmark", round=round, **filters):
            for scen in scenarios:
                try:
                    new = self.best(bench, scen, round=round, **filters)
                    if not self.comparable(since, round, bench, suite=new.row.suite, scenario=scen):
                        continue
                    # power submissions' performance compares only with power submissions'
                    same = {"suite": new.row.suite} if "suite" not in filters else {}  # one suite's table
                    old = self.best(bench, scen, round=since, has_power=new.row.has_power, **same, **filters)
                except LookupFailed:
                    continue
                if new.kind != "per_gpu" or old.kind != "per_gpu":
                    continue  # a latency: not a per-GPU gain
                pct = Figure(
                    (new.value / old.value - 1) * 100,
                    "pct",
                    f"(best per-GPU v{round} {new.entry.text_override} / best per-GPU v{since} "
                    f"{old.entry.text_override} - 1) x 100, {bench} {scen}",
                    new.entries + old.entries,
                    basis=("per_gpu",),
                    calc={"op": "pct_change", "args": [new.calc, old.calc]},
                    extra={"benchmark": bench, "scenario": scen, "new": new, "old": old},
                )
                out.append(pct)
        if order == "change":
            out.sort(key=lambda g: -g.value)
        return out

    # ------------------------------------------------------------------ claims
    def leader(
        self, *args: Any, by: str = "per_gpu", expect: dict[str, Any] | None = None, **filters: Any
    ) -> Figure:
        """The best row of a selection, asserting that it leads alone (and, with *expect*, who it is).

        ``{{ leader(peers, expect={"submitter": "Lambda"}).submitter }} leads`` fails the build at
        this line when another row ties or overtakes it.
        """
        fig = self.rank(*args, n=1, by=by, **filters)
        if fig.tied.value > 0:
            raise ClaimFailed(
                f"claim no longer holds: {_row_text(fig)} leads {self._describe(self._selection(args, dict(filters)))} tied with {int(fig.tied.value)} other row(s)"
            )
        for attr, want in (expect or {}).items():
            got = getattr(fig, attr)
            if str(got) != str(want) and str(got).replace(" ", "_") != str(want):
                raise ClaimFailed(
                    f"claim no longer holds: the leader of {self._describe(self._selection(args, dict(filters)))} "
                    f"is {_row_text(fig)}, whose {attr} is {got}, not {want}"
                )
        return fig

    def only(
        self,
        values: Sequence[str] | str,
        *args: Any,
        attr: str = "family",
        above: Figure | float | None = None,
        **filters: Any,
    ) -> Claim:
        """Claim that only rows whose *attr* is one of *values* are in the selection (above a threshold).

        ``{{ holds(only(["GB300", "B300"], peers, above=threshold), "only GB300 and B300 clear it") }}``.
        The claim fails when a row of another *attr* value qualifies (``.counter`` lists those
        rows) or when none of *values* does.
        """
        want = [values] if isinstance(values, str) else [str(v) for v in values]
        f = self._selection(args, filters)
        rows = self.table.ranked(**f)
        if above is not None and rows:
            col = "per_accelerator" if rows[0].higher_is_better else "result"
            limit = _threshold(above, rows[0], col)
            rows = [r for r in rows if getattr(r, col) > limit]
        figs = tuple(self._row_figure(r, "per_gpu", f"row of {self._describe(f)}") for r in rows)
        counter = tuple(x for x, r in zip(figs, rows, strict=True) if str(getattr(r, attr)) not in want)
        statement = f"only {attr} {' or '.join(want)} in {self._describe(f)}" + (
            f" above {above}" if above is not None else ""
        )
        return Claim(bool(rows) and not counter, statement, counter, figs)

    def first_round(self, *args: Any, **filters: Any) -> str:
        """The first loaded round in which a selection has a row: a submitter's first appearance.

        ``{% if first_round("deepseek-r1", submitter="Crusoe") == "6.1" %}first{% endif %}``, or as a
        claim: ``{{ holds(first_round("deepseek-r1", submitter="Crusoe") == "6.1", "Crusoe's first DeepSeek-R1 result") }}``.
        Only loaded rounds count.
        """
        f = self._selection(args, filters)
        f.pop("round", None)
        sel = self.table.select_rows(**f)
        if not sel:
            raise self.table.no_match(f)
        return min((r.round for r in sel), key=version_key)

    # ------------------------------------------------------------------ across rounds
    def _rounds(self, until: str | None) -> list[str]:
        rounds = self.table.rounds
        return [r for r in rounds if until is None or version_key(r) <= version_key(str(until))]

    def series(
        self, benchmark: str, scenario: str, *, stat: str = "median", until: str | None = None, **filters: Any
    ) -> list[Figure]:
        """Median (``stat="best"``: best) per-GPU value of a benchmark and scenario in every loaded round.

        ``until="6.0"`` stops at that round.
        Oldest round first; rounds without a row are skipped. Each point offers ``.round``
        and ``.breaks`` (true when the MLPerf Compatibility Table does not allow comparing
        it with the point before: :meth:`comparable`). ``{% set s = series("llama2-70b-99", "Server") %}{{ ratio(s[-1], s[0]) }}``.
        """
        if stat not in ("median", "best"):
            raise LookupFailed(f'stat={stat!r}: a series is of "median" or "best" values')
        filters.pop("round", None)
        out: list[Figure] = []
        prev: str | None = None
        for rnd in self._rounds(until):
            try:
                if stat == "median":
                    fig = self.median(benchmark, scenario, round=rnd, **filters)
                else:
                    fig = self.best(benchmark, scenario, round=rnd, **filters)
            except LookupFailed:
                continue
            fig.extra["round"] = rnd
            suite = fig.entries[0].suite if fig.entries else "datacenter"
            fig.extra["breaks"] = prev is not None and not self.comparable(
                prev, rnd, benchmark, suite=suite, scenario=scenario
            )
            out.append(fig)
            prev = rnd
        if not out:
            raise self.table.no_match({"benchmark": benchmark, "scenario": scenario, **filters})
        return out

    def comparable(
        self, old: str, new: str, benchmark: str, *, suite: str = "datacenter", scenario: str = ""
    ) -> bool:
        """Whether results of *old* and *new* may be compared (MLPerf® Compatibility Table).

        The table's row for the benchmark in *suite* (``data/compatibility.toml``) must put both
        rounds in one compatible span; a round newer than the table continues a span that reaches
        its last column only for the rounds it lists in ``data/rounds.toml`` ``compatible_with``.
        A benchmark the table does not list is not comparable across rounds.
        """
        return self.manifest.comparable(benchmark, suite, old, new, scenario).ok is True
