"""The placeholder library available in article templates.

Every function returns a :class:`~generator.article.figures.Figure` (or a table/chart
object) that carries its value, formatting, formula and source entries.
``docs/placeholders.md`` is generated from these docstrings.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.article.figures import Figure, entry_figure, per_gpu_figure, total_figure
from generator.article.queries import Queries
from generator.data.manifest import Manifest, load_prices
from generator.data.table import ResultsTable, Row
from generator.errors import LookupFailed, ManifestError

Num = Figure | float | int


def _val(x: Num) -> float:
    return float(x.value) if isinstance(x, Figure) else float(x)


def _rows(*xs: Num) -> tuple[Row, ...]:
    out: list[Row] = []
    for x in xs:
        if isinstance(x, Figure):
            out.extend(r for r in x.entries if r not in out)
    return tuple(out)


def _basis(*xs: Num) -> tuple[str, ...]:
    out: list[str] = []
    for x in xs:
        if isinstance(x, Figure):
            for k in (x.kind, *x.basis):
                if k not in out:
                    out.append(k)
    return tuple(out)


def _derive(value: float, kind: str, formula: str, inputs: tuple[Num, ...], **fmt: Any) -> Figure:
    """A figure computed from *inputs*: it cites their rows and remembers their kinds."""
    return Figure(value, kind, formula, _rows(*inputs), basis=_basis(*inputs), **fmt)


def _label(x: Num) -> str:
    if isinstance(x, Figure):
        if len(x.entries) == 1 and x.kind in ("per_gpu", "result"):
            r = x.entries[0]
            return f"{x.kind}({r.result_id} {r.benchmark} {r.scenario})"
        return f"({x.formula or x})"
    return f"{x:g}"


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
        self, table: ResultsTable, manifest: Manifest, prices: Prices, chart_cache: Any = None
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

    def gpus(self, entry: Any, benchmark: str, scenario: str) -> Figure:
        """Total accelerators of an entry: ``{{ gpus("6.1-0027", "gpt-oss-120b", "Offline") }}`` → ``512``."""
        r = self._lookup(entry, benchmark, scenario)
        return Figure(float(r.gpus), "count", f"total accelerators of {r.result_id}", (r,))

    def entry(self, entry: Any, benchmark: str, scenario: str) -> Figure:
        """Print an entry ID and cite that result: ``(entry {{ entry("6.1-0016", "gpt-oss-120b", "Server") }})``."""
        return entry_figure((self._lookup(entry, benchmark, scenario),))

    def constant(self, value: float, why: str, digits: int | None = None, style: str = "") -> Figure:
        """A number the author chooses (a threshold, a formula constant), with the reason recorded."""
        return Figure(float(value), "constant", f"constant: {why}", digits=digits, style=style)

    def software(self, entry: Any, benchmark: str, scenario: str) -> str:
        """The software stack field of an entry (text, not a figure)."""
        return self._lookup(entry, benchmark, scenario).software

    # ------------------------------------------------------------------ arithmetic
    def ratio(self, a: Num, b: Num, digits: int = 2, style: str = "x") -> Figure:
        """``a / b``: ``{{ ratio(x, y) }}`` → ``5.65×``; ``style="plain", digits=3`` → ``1.260``."""
        return _derive(
            _val(a) / _val(b),
            "ratio",
            f"{_label(a)} / {_label(b)}",
            (a, b),
            digits=digits,
            style=style,
        )

    def pct_change(self, new: Num, old: Num, digits: int = 1) -> Figure:
        """``(new / old − 1) × 100``, signed: ``{{ pct_change(per_gpu(v61), per_gpu(v60)) }}`` → ``37.9%``."""
        return _derive(
            (_val(new) / _val(old) - 1) * 100,
            "pct",
            f"({_label(new)} / {_label(old)} - 1) x 100",
            (new, old),
            digits=digits,
        )

    def pct_gap(self, a: Num, b: Num, digits: int = 1) -> Figure:
        """``|a / b − 1| × 100``, for "2.9% below" or "0.4% apart"."""
        return _derive(
            abs(_val(a) / _val(b) - 1) * 100,
            "pct",
            f"|{_label(a)} / {_label(b)} - 1| x 100",
            (a, b),
            digits=digits,
        )

    def share(self, part: Num, whole: Num, digits: int = 1) -> Figure:
        """``part / whole × 100``: "runs at 76.3% of the small system's rate"."""
        return _derive(
            _val(part) / _val(whole) * 100,
            "pct",
            f"{_label(part)} / {_label(whole)} x 100",
            (part, whole),
            digits=digits,
        )

    def scaling_efficiency(self, big: Num, small: Num, digits: int = 1) -> Figure:
        """Per-GPU rate of the larger system as a percentage of the smaller one's: ``99.5%``."""
        return _derive(
            _val(big) / _val(small) * 100,
            "scaling",
            f"{_label(big)} / {_label(small)} x 100",
            (big, small),
            digits=digits,
        )

    # ------------------------------------------------------------------ money
    def break_even_ratio(self, candidate: Num, baseline: Num, digits: int = 3) -> Figure:
        """Highest price ratio worth paying for *candidate* over *baseline*: ``1.260``."""
        return _derive(
            _val(candidate) / _val(baseline),
            "ratio",
            f"break-even ratio {_label(candidate)} / {_label(baseline)}",
            (candidate, baseline),
            digits=digits,
            style="plain",
        )

    def break_even_price(self, baseline_price: Num, candidate: Num, baseline: Num, digits: int = 2) -> Figure:
        """Baseline price × throughput ratio: the contract ceiling, ``$6.30``."""
        return _derive(
            _val(baseline_price) * _val(candidate) / _val(baseline),
            "break_even",
            f"{_label(baseline_price)} x {_label(candidate)} / {_label(baseline)}",
            (baseline_price, candidate, baseline),
            digits=digits,
        )

    def cost_per_million_tokens(
        self, price_per_hour: Num, per_gpu: Num, utilization: Num, digits: int = 3
    ) -> Figure:
        """``price × 1,000,000 / (tokens/s per GPU × 3,600 × utilization)``: ``$0.246``."""
        v = _val(price_per_hour) * 1_000_000 / (_val(per_gpu) * 3600 * _val(utilization))
        return _derive(
            v,
            "cost",
            f"{_label(price_per_hour)} x 1e6 / ({_label(per_gpu)} x 3600 x {_label(utilization)})",
            (price_per_hour, per_gpu, utilization),
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
        return Figure(v, "money", f"illustrative price {name}", digits=2, style="money")

    def assumption(self, name: str, digits: int = 0) -> Figure:
        """An assumption from ``data/prices.toml``, printed as a percentage: ``50%``."""
        try:
            v = self.prices.assumptions[name]
        except KeyError:
            raise ManifestError(f"{self.prices.path}: no assumption {name!r}") from None
        return Figure(v, "assumption", f"assumption {name}", digits=digits, style="pct", scale=0.01)

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
        return Figure(float(v), "rule", f"inference rules: {benchmark} {scenario} {key}", unit="ms")

    def stated(self, text: str, by: str) -> Figure:
        """A number quoted from someone else (a press release, a vendor statement), printed as given."""
        return Figure(float("nan"), "stated", f"stated by {by}", text_override=text, stated_by=by)

    def round_date(self, version: str, which: str = "published") -> str:
        """A round's date from the manifest, e.g. ``September 16, 2026``."""
        rnd = self.manifest.round(version)
        d = rnd.published if which == "published" else rnd.retrieved
        return f"{d:%B} {d.day}, {d.year}"


def median_value(values: Sequence[float]) -> float:
    return float(statistics.median(values))
