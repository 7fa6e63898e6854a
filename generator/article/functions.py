"""The placeholder library available in article templates.

Every function returns a :class:`~generator.article.figures.Figure` (or a table/chart
object) that carries its value, formatting, formula and source entries.
``docs/placeholders.md`` is generated from these docstrings.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.article.figures import (
    Figure,
    calc_of,
    entry_figure,
    gpus_figure,
    per_gpu_figure,
    power_figure,
    total_figure,
)
from generator.article.queries import Queries
from generator.article.traced import sources_of
from generator.data.manifest import Manifest, load_prices
from generator.data.row import Row
from generator.errors import LookupFailed, ManifestError

if TYPE_CHECKING:
    from generator.data.rowquery import RowQueries

Num = Figure | float | int


def _val(x: Num) -> float:
    return float(x.value) if isinstance(x, Figure) else float(x)


def _rows(*xs: Num) -> tuple[Row, ...]:
    """The rows of the figures behind *xs* (a number made from figures with ``|float`` too)."""
    out: list[Row] = []
    for f in (f for x in xs for f in sources_of(x)):
        out.extend(r for r in f.entries if r not in out)
    return tuple(out)


def _basis(*xs: Num) -> tuple[str, ...]:
    out: list[str] = []
    for f in (f for x in xs for f in sources_of(x)):
        for k in (f.kind, *f.basis):
            if k not in out:
                out.append(k)
    return tuple(out)


def _derive(value: float, kind: str, formula: str, inputs: tuple[Num, ...], op: str, **fmt: Any) -> Figure:
    """A figure computed from *inputs* by *op*: it cites their rows, remembers their kinds and
    records its calculation (for the figures ledger's audit)."""
    calc = {"op": op, "args": [calc_of(x) for x in inputs]}
    return Figure(value, kind, formula, _rows(*inputs), basis=_basis(*inputs), calc=calc, **fmt)


def _label(x: Num) -> str:
    if isinstance(x, Figure):
        if len(x.entries) == 1 and x.kind in ("per_gpu", "result", "power"):
            r = x.entries[0]
            return f"{x.kind}({r.result_id} {r.benchmark} {r.scenario})"
        return f"({x.formula or x})"
    return f"{x:g}"


#: figures of a system's result and of its result per accelerator
TOTAL_KINDS = frozenset({"result"})
PER_GPU_KINDS = frozenset({"per_gpu", "median"})
#: what each kind of figure measures: two figures a function compares must measure the same
#: (a constant, chosen by the author, goes with any)
MEASURES = {
    "result": "throughput",
    "per_gpu": "throughput",
    "median": "throughput",
    "money": "money",
    "cost": "money",
    "break_even": "money",
    "count": "count",
    "ratio": "ratio",
    "pct": "percentage",
    "spread": "percentage",
    "scaling": "percentage",
    "assumption": "percentage",
    "rule": "latency bound",
    "power": "power",
}
KIND_NAMES = {
    "result": "a system total",
    "per_gpu": "a per-GPU value",
    "median": "a median per-GPU value",
    "money": "a price",
    "cost": "a cost",
    "break_even": "a break-even price",
    "count": "a count",
    "ratio": "a ratio",
    "pct": "a percentage",
    "spread": "a spread",
    "scaling": "a scaling efficiency",
    "assumption": "an assumption",
    "rule": "a latency bound",
    "entry": "an entry ID",
    "stated": "a stated figure",
    "constant": "a constant",
    "power": "a measured power",
}
ORDINALS = ("first", "second", "third")


def _what(x: Num) -> str:
    """An argument as an error names it: ``a system total (result(6.1-0001 gpt-oss-120b Server))``."""
    if not isinstance(x, Figure):
        return f"the number {x:g}" if isinstance(x, int | float) else f"{type(x).__name__} {x!r}"[:80]
    label = _label(x) if x.entries else str(x)
    if label.startswith("(") and label.endswith(")"):
        label = label[1:-1]
    return f"{KIND_NAMES.get(x.kind, 'a ' + x.kind)} ({label})"


def _pair(fn: str, a: Num, b: Num) -> None:
    """Two figures a function divides one by the other: values, alike, the divisor not zero."""
    _numbers(fn, (a, b))
    _like(fn, a, b)
    _nonzero(fn, b, 1)


def _throughputs(fn: str, a: Num, b: Num, which: tuple[int, int]) -> None:
    """Two per-GPU throughputs of one benchmark and unit, the second not zero."""
    for x, i in zip((a, b), which, strict=True):
        _per_gpu(fn, x, i)
    _like(fn, a, b, which)
    _nonzero(fn, b, which[1])


def _scaling_inputs(big: Num, small: Num) -> None:
    fn = "scaling_efficiency"
    _throughputs(fn, big, small, (0, 1))
    assert isinstance(big, Figure) and isinstance(small, Figure)  # _per_gpu refused the rest
    sa, sb = {r.scenario for r in big.entries}, {r.scenario for r in small.entries}
    if sa != sb:
        raise _refuse(
            fn, f"the first argument is in {_one(sa, 'scenario')} and the second in {_one(sb, 'scenario')}"
        )
    ga, gb = {r.gpus for r in big.entries}, {r.gpus for r in small.entries}
    if len(ga) == 1 and len(gb) == 1 and min(ga) < min(gb):
        raise _refuse(
            fn,
            f"the first argument ({min(ga)} accelerators) is the smaller system, the second has {min(gb)}: "
            "pass the larger system first",
        )


def _price(fn: str, x: Num, i: int) -> None:
    _numbers(fn, (x,))
    if isinstance(x, Figure) and MEASURES.get(x.kind) != "money" and x.kind != "constant":
        raise _refuse(fn, f"the {ORDINALS[i]} argument is {_what(x)}; it takes a price per hour (price(...))")


def _cost_inputs(price_per_hour: Num, per_gpu: Num, utilization: Num) -> None:
    fn = "cost_per_million_tokens"
    _price(fn, price_per_hour, 0)
    _per_gpu(fn, per_gpu, 1)
    _numbers(fn, (price_per_hour, per_gpu, utilization))
    assert isinstance(per_gpu, Figure)
    units = {r.units for r in per_gpu.entries}
    if not units or not all("token" in u.lower() for u in units):
        raise _refuse(fn, f"the second argument is in {_one(units, 'unit')}; it takes tokens/s per GPU")
    _nonzero(fn, per_gpu, 1)
    u = _val(utilization)
    if not 0 < u <= 1:
        raise _refuse(
            fn,
            f"the third argument (utilization) is {u:g}; it takes a share between 0 and 1 (assumption(...))",
        )


def _refuse(fn: str, why: str) -> LookupFailed:
    return LookupFailed(f"{fn}(): {why}")


def _numbers(fn: str, xs: tuple[Num, ...]) -> None:
    """Each argument a number or a figure with a value."""
    for i, x in enumerate(xs):
        if isinstance(x, bool) or not isinstance(x, Figure | int | float):
            raise _refuse(fn, f"the {ORDINALS[i]} argument is {_what(x)}, not a figure or a number")
        if isinstance(x, Figure) and math.isnan(x.value):
            raise _refuse(fn, f"the {ORDINALS[i]} argument is {_what(x)}, which has no value to compute with")


def _one(values: set[str], what: str) -> str:
    return " and ".join(sorted(values)) or f"no {what}"


def _like(fn: str, a: Num, b: Num, which: tuple[int, int] = (0, 1)) -> None:
    """*a* and *b* measure the same thing: no totals against per-GPU values, one unit, one benchmark."""
    first, second = (ORDINALS[i] for i in which)
    if not (isinstance(a, Figure) and isinstance(b, Figure)):
        return
    ma, mb = MEASURES.get(a.kind), MEASURES.get(b.kind)
    if ma and mb and ma != mb:
        raise _refuse(
            fn, f"the {first} argument is {_what(a)} and the {second} {_what(b)}: compare like with like"
        )
    if ma == mb == "power":
        ua, ub = {r.power_units for r in a.entries}, {r.power_units for r in b.entries}
        if ua != ub:
            raise _refuse(
                fn, f"the {first} argument is in {_one(ua, 'unit')} and the {second} in {_one(ub, 'unit')}"
            )
    if ma != "throughput" or mb != "throughput":
        return
    if (a.kind in TOTAL_KINDS) != (b.kind in TOTAL_KINDS):
        raise _refuse(
            fn,
            f"the {first} argument is {_what(a)} and the {second} {_what(b)}: compare totals with totals "
            "or per-GPU values with per-GPU values (.total, .per_gpu)",
        )
    ua, ub = {r.units for r in a.entries}, {r.units for r in b.entries}
    if ua != ub:
        raise _refuse(
            fn, f"the {first} argument is in {_one(ua, 'unit')} and the {second} in {_one(ub, 'unit')}"
        )
    ba, bb = {r.benchmark for r in a.entries}, {r.benchmark for r in b.entries}
    if ba != bb:
        raise _refuse(
            fn,
            f"the {first} argument is on {_one(ba, 'benchmark')} and the {second} on {_one(bb, 'benchmark')}",
        )


def _per_watt(a: Num, b: Num) -> bool:
    """Whether ``ratio(a, b)`` is a performance per watt: a system result over the measured
    power of the same row, in watts. A power divided into anything else is refused."""
    if not (isinstance(b, Figure) and b.kind == "power" and MEASURES.get(getattr(a, "kind", "")) != "power"):
        return False
    _numbers("ratio", (a, b))
    if not isinstance(a, Figure) or a.kind not in TOTAL_KINDS or len(a.entries) != 1:
        raise _refuse(
            "ratio",
            f"the first argument is {_what(a)} and the second {_what(b)}: performance per watt divides "
            "a system result (result(...), .total) by the same row's measured power",
        )
    if a.entries != b.entries:
        raise _refuse(
            "ratio",
            f"the first argument is {_what(a)} and the second {_what(b)}: performance per watt divides "
            "a row's result by its own measured power",
        )
    if b.unit != "W":
        raise _refuse(
            "ratio",
            f"the second argument is {_what(b)}, an energy per query in {b.unit}: performance per watt "
            "divides a throughput by a system power in watts (Offline, Server, Interactive)",
        )
    _nonzero("ratio", b, 1)
    return True


def _per_gpu(fn: str, x: Num, i: int) -> None:
    """*x* a per-GPU throughput figure (what per-GPU arithmetic needs)."""
    if not isinstance(x, Figure) or x.kind not in PER_GPU_KINDS:
        hint = " (.per_gpu gives its per-GPU value)" if isinstance(x, Figure) and x.kind == "result" else ""
        raise _refuse(fn, f"the {ORDINALS[i]} argument is {_what(x)}; it takes a per-GPU value{hint}")


def _nonzero(fn: str, x: Num, i: int) -> None:
    if _val(x) == 0:
        raise _refuse(fn, f"the {ORDINALS[i]} argument is zero ({_what(x)}): cannot divide by it")


@dataclass(frozen=True)
class Prices:
    prices: dict[str, float]
    assumptions: dict[str, float]
    path: Path

    @classmethod
    def load(cls, path: Path) -> Prices:
        """``data/prices.toml``, validated (a malformed file is an error naming it and the key).

        Every price (US dollars per GPU-hour) is above zero and every assumption (a utilization,
        a share) a fraction in (0, 1]: ``utilization = 50`` printed "5,000% utilization", a
        negative price "$-0.195"."""
        prices, assumptions = load_prices(path)
        for key, v in prices.items():
            if not v > 0:
                raise ManifestError(
                    f"{path}: price.{key} = {v:g} is not a price: write US dollars per GPU-hour, above 0"
                )
        for key, v in assumptions.items():
            if not 0 < v <= 1:
                raise ManifestError(
                    f"{path}: assumption.{key} = {v:g} is not a fraction in (0, 1]: write 50% as 0.50"
                )
        return cls(prices, assumptions, path)


class Library(Queries):
    """Functions bound to one results table; ``namespace()`` is what templates see."""

    def __init__(
        self, table: RowQueries, manifest: Manifest, prices: Prices, chart_cache: Any = None
    ) -> None:
        self.table = table
        self.manifest = manifest
        self.prices = prices
        #: charts of earlier builds (:class:`generator.site.cache.ChartCache`), when the build keeps them
        self.chart_cache = chart_cache

    #: the names templates see
    NAMES = (
        "result",
        "per_gpu",
        "power",
        "gpus",
        "entry",
        "software",
        "ratio",
        "pct_change",
        "pct_gap",
        "share",
        "scaling_efficiency",
        "group",
        "best",
        "rank",
        "top",
        "largest",
        "median",
        "spread",
        "count",
        "leader",
        "only",
        "first_round",
        "series",
        "names",
        "systems",
        "popular",
        "count_by_round",
        "gains",
        "newcomers",
        "comparable",
        "break_even_ratio",
        "break_even_price",
        "cost_per_million_tokens",
        "price",
        "assumption",
        "rule",
        "stated",
        "constant",
        "round_date",
    )

    def namespace(self) -> dict[str, Callable[..., Any]]:
        return {n: getattr(self, n) for n in self.NAMES}

    @classmethod
    def namespace_functions(cls) -> dict[str, Callable[..., Any]]:
        """The unbound functions behind :meth:`namespace`, for documentation."""
        return {n: getattr(cls, n) for n in cls.NAMES}

    # ------------------------------------------------------------------ single rows
    def _lookup(self, entry: Any, benchmark: str, scenario: str) -> Row:
        """The row of an entry given as an ID (``"6.1-0052"``) or as a figure (``x.entry``, ``x``)."""
        if isinstance(entry, Figure):
            ids = sorted({r.result_id for r in entry.entries})
            if len(ids) != 1:
                raise LookupFailed(f"figure {entry} comes from {len(ids)} entries, not one; pass one entry")
            entry = ids[0]
        return self.table.lookup(str(entry), benchmark, scenario)

    def result(self, entry: Any, benchmark: str, scenario: str) -> Figure:
        """The official system result of one entry: ``{{ result("6.1-0027", "gpt-oss-120b", "Offline") }}`` → ``5,749,440``.

        *entry* is an ID or a figure of one row (``result(x.entry, ...)``, ``result(x, ...)``);
        the same row's total is also ``x.total``.
        """
        return total_figure(self._lookup(entry, benchmark, scenario))

    def per_gpu(self, entry: Any, benchmark: str, scenario: str) -> Figure:
        """Result divided by total accelerators: ``{{ per_gpu("6.1-0052", "gpt-oss-120b", "Server") }}`` → ``14,211``."""
        return per_gpu_figure(self._lookup(entry, benchmark, scenario))

    def power(self, entry: Any, benchmark: str, scenario: str) -> Figure:
        """The measured MLPerf® power of one entry: ``{{ power("5.1-0062", "llama3.1-8b", "Offline") }}`` → ``9,436 W``.

        System power in watts (Offline, Server), energy per query or stream in millijoules
        (SingleStream, MultiStream: ``1,241 mJ``), as the official file gives it; a
        performance-only submission has none (an error naming it). The same row's power is
        also ``x.power``; performance per watt is ``ratio(result(...), power(...))``.
        """
        return power_figure(self._lookup(entry, benchmark, scenario))

    def gpus(self, entry: Any, benchmark: str, scenario: str) -> Figure:
        """Total accelerators of an entry: ``{{ gpus("6.1-0027", "gpt-oss-120b", "Offline") }}`` → ``512``."""
        return gpus_figure(self._lookup(entry, benchmark, scenario))

    def entry(self, entry: Any, benchmark: str, scenario: str) -> Figure:
        """Print an entry ID and cite that result: ``(entry {{ entry("6.1-0016", "gpt-oss-120b", "Server") }})``."""
        return entry_figure((self._lookup(entry, benchmark, scenario),))

    def constant(self, value: float, why: str, digits: int | None = None, style: str = "") -> Figure:
        """A number the author chooses (a threshold, a formula constant), with the reason recorded."""
        calc = {"op": "constant", "value": float(value)}
        return Figure(float(value), "constant", f"constant: {why}", digits=digits, style=style, calc=calc)

    def software(self, entry: Any, benchmark: str, scenario: str) -> str:
        """The software stack field of an entry (text, not a figure)."""
        return self._lookup(entry, benchmark, scenario).software

    # ------------------------------------------------------------------ arithmetic
    def ratio(self, a: Num, b: Num, digits: int = 2, style: str = "") -> Figure:
        """``a / b``: ``{{ ratio(x, y) }}`` → ``5.65×``; ``style="plain", digits=3`` → ``1.260``.

        A system result over the same row's measured power (``power(...)``, in watts) is its
        performance per watt, a derived value printed as a plain number:
        ``{{ ratio(result("5.1-0062", "llama3.1-8b", "Offline"), power("5.1-0062", "llama3.1-8b", "Offline")) }}``
        → ``15.57`` (tokens/s per watt).
        """
        per_watt = _per_watt(a, b)
        if not per_watt:
            _pair("ratio", a, b)
        return _derive(
            _val(a) / _val(b),
            "ratio",
            f"{_label(a)} / {_label(b)}",
            (a, b),
            "ratio",
            digits=digits,
            style=style or ("plain" if per_watt else "x"),
        )

    def pct_change(self, new: Num, old: Num, digits: int = 1) -> Figure:
        """``(new / old − 1) × 100``, signed: ``{{ pct_change(per_gpu(v61), per_gpu(v60)) }}`` → ``37.9%``."""
        _pair("pct_change", new, old)
        return _derive(
            (_val(new) / _val(old) - 1) * 100,
            "pct",
            f"({_label(new)} / {_label(old)} - 1) x 100",
            (new, old),
            "pct_change",
            digits=digits,
        )

    def pct_gap(self, a: Num, b: Num, digits: int = 1) -> Figure:
        """``|a / b − 1| × 100``, for "2.9% below" or "0.4% apart"."""
        _pair("pct_gap", a, b)
        return _derive(
            abs(_val(a) / _val(b) - 1) * 100,
            "pct",
            f"|{_label(a)} / {_label(b)} - 1| x 100",
            (a, b),
            "pct_gap",
            digits=digits,
        )

    def share(self, part: Num, whole: Num, digits: int = 1) -> Figure:
        """``part / whole × 100``: "runs at 76.3% of the small system's rate"."""
        _pair("share", part, whole)
        return _derive(
            _val(part) / _val(whole) * 100,
            "pct",
            f"{_label(part)} / {_label(whole)} x 100",
            (part, whole),
            "share",
            digits=digits,
        )

    def scaling_efficiency(self, big: Num, small: Num, digits: int = 1) -> Figure:
        """Per-GPU rate of the larger system as a percentage of the smaller one's: ``99.5%``.

        Both are per-GPU values of one benchmark and scenario (``per_gpu(...)``, ``best(...)``),
        the larger system's first: system totals, other benchmarks or scenarios are refused.
        """
        _scaling_inputs(big, small)
        return _derive(
            _val(big) / _val(small) * 100,
            "scaling",
            f"{_label(big)} / {_label(small)} x 100",
            (big, small),
            "scaling",
            digits=digits,
        )

    # ------------------------------------------------------------------ money
    def break_even_ratio(self, candidate: Num, baseline: Num, digits: int = 3) -> Figure:
        """Highest price ratio worth paying for *candidate* over *baseline*: ``1.260``."""
        _throughputs("break_even_ratio", candidate, baseline, (0, 1))
        return _derive(
            _val(candidate) / _val(baseline),
            "ratio",
            f"break-even ratio {_label(candidate)} / {_label(baseline)}",
            (candidate, baseline),
            "break_even_ratio",
            digits=digits,
            style="plain",
        )

    def break_even_price(self, baseline_price: Num, candidate: Num, baseline: Num, digits: int = 2) -> Figure:
        """Baseline price × throughput ratio: the contract ceiling, ``$6.30``."""
        _price("break_even_price", baseline_price, 0)
        _throughputs("break_even_price", candidate, baseline, (1, 2))
        return _derive(
            _val(baseline_price) * _val(candidate) / _val(baseline),
            "break_even",
            f"{_label(baseline_price)} x {_label(candidate)} / {_label(baseline)}",
            (baseline_price, candidate, baseline),
            "break_even_price",
            digits=digits,
        )

    def cost_per_million_tokens(
        self, price_per_hour: Num, per_gpu: Num, utilization: Num, digits: int = 3
    ) -> Figure:
        """``price × 1,000,000 / (tokens/s per GPU × 3,600 × utilization)``: ``$0.246``."""
        _cost_inputs(price_per_hour, per_gpu, utilization)
        v = _val(price_per_hour) * 1_000_000 / (_val(per_gpu) * 3600 * _val(utilization))
        return _derive(
            v,
            "cost",
            f"{_label(price_per_hour)} x 1e6 / ({_label(per_gpu)} x 3600 x {_label(utilization)})",
            (price_per_hour, per_gpu, utilization),
            "cost",
            digits=digits,
        )

    def price(self, name: str) -> Figure:
        """An illustrative price from ``data/prices.toml``: ``{{ price("b200_hour") }}`` → ``$5.00``."""
        try:
            v = self.prices.prices[name]
        except KeyError:
            raise ManifestError(
                f"{self.prices.path}: no price {name!r} (known: {', '.join(sorted(self.prices.prices))})"
            ) from None
        return Figure(
            v,
            "money",
            f"illustrative price {name}",
            digits=2,
            style="money",
            calc={"op": "price", "name": name},
        )

    def assumption(self, name: str, digits: int = 0) -> Figure:
        """An assumption from ``data/prices.toml``, printed as a percentage: ``50%``."""
        try:
            v = self.prices.assumptions[name]
        except KeyError:
            raise ManifestError(f"{self.prices.path}: no assumption {name!r}") from None
        calc = {"op": "assumption", "name": name}
        return Figure(
            v, "assumption", f"assumption {name}", digits=digits, style="pct", scale=0.01, calc=calc
        )

    # ------------------------------------------------------------------ rules and dates
    def rule(self, benchmark: str, scenario: str, key: str) -> Figure:
        """A latency bound from ``data/benchmarks.toml``: ``{{ rule("gpt-oss-120b", "Server", "ttft_ms") }}`` → ``3,000 ms``."""
        b = self.manifest.rules.benchmarks.get(benchmark)
        try:
            v = b.latency[scenario][key] if b else None
        except KeyError:
            v = None
        if v is None:
            raise ManifestError(
                f"{self.manifest.data_dir / 'benchmarks.toml'}: no rule {key} for {benchmark} {scenario}"
            )
        calc = {"op": "rule", "benchmark": benchmark, "scenario": scenario, "key": key}
        return Figure(
            float(v), "rule", f"inference rules: {benchmark} {scenario} {key}", unit="ms", calc=calc
        )

    def stated(self, text: str, by: str) -> Figure:
        """A number quoted from someone else (a press release, a vendor statement), printed as given."""
        calc = {"op": "stated", "text": text, "by": by}
        return Figure(float("nan"), "stated", f"stated by {by}", text_override=text, stated_by=by, calc=calc)

    def round_date(self, version: str, which: str = "published") -> str:
        """A round's date from the manifest, e.g. ``September 16, 2026``."""
        rnd = self.manifest.round(version)
        d = rnd.published if which == "published" else rnd.retrieved
        return f"{d:%B} {d.day}, {d.year}"


def median_value(values: Sequence[float]) -> float:
    return float(statistics.median(values))
