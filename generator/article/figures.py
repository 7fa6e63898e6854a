"""Value objects for every number an article prints.

A :class:`Figure` knows its value, how to print itself, the formula that made it
and the official rows it came from. Templates get Figures from the functions in
:mod:`generator.article.functions`; printing one records a citation.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.data.row import Row
from generator.errors import GpuInsightsError, LookupFailed

#: kinds of figure that are derived (computed by us), not read from an official row
DERIVED_KINDS = {"per_gpu", "ratio", "pct", "median", "spread", "scaling", "break_even", "cost"}

#: how footnotes name each derived kind
KIND_NOUNS = {
    "per_gpu": "per-GPU values",
    "median": "medians",
    "ratio": "ratios",
    "pct": "percentage changes",
    "spread": "spreads",
    "scaling": "scaling percentages",
    "break_even": "break-even prices",
    "cost": "costs per million tokens",
}


#: a figure resting on more rows than this is traced to its entries, each named once (a count
#: over a round rests on a thousand rows: listing every one made the round overview 2.6 MB)
LISTED_ROWS = 12


def rows_text(rows: Iterable[Row], describe: Callable[[Row], str]) -> str:
    """Each row described, sorted: ``6.1-0021 gpt-oss-120b Server, …``; past :data:`LISTED_ROWS`
    rows, the entries they belong to: ``1,024 rows of 120 entries: 6.1-0001, 6.1-0002, …``."""
    described = {describe(r): r for r in rows}  # a row cited twice is one row
    if len(described) <= LISTED_ROWS:
        return ", ".join(sorted(described))
    entries = sorted({r.result_id for r in described.values() if r.result_id})
    unnamed = sum(1 for r in described.values() if not r.result_id)  # a checker's summary has no IDs
    text = f"{len(described):,} rows"
    if entries:
        text += f" of {len(entries):,} {'entry' if len(entries) == 1 else 'entries'}: {', '.join(entries)}"
    if unnamed:
        text += f"{';' if entries else ','} {unnamed:,} without an entry ID"
    return text


@dataclass(frozen=True)
class Figure:
    """A number with its formatting, formula and source rows.

    >>> str(Figure(14210.625, "per_gpu"))
    '14,211'
    >>> str(Figure(5.6535, "ratio"))
    '5.65×'
    >>> str(Figure(1.2603, "ratio", style="plain", digits=3))
    '1.260'
    >>> str(Figure(37.87, "pct"))
    '37.9%'
    """

    value: float
    kind: str
    formula: str = ""
    entries: tuple[Row, ...] = ()
    digits: int | None = None
    style: str = ""
    scale: float = 1.0
    sep: bool = True
    unit: str = ""
    stated_by: str = ""
    text_override: str = ""
    basis: tuple[str, ...] = ()  # kinds of the figures this one was computed from
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    #: how the value was made, for the figures ledger and its independent audit
    #: (:func:`ledger_calc`): ``{"op": "per_gpu", "row": Row}``, ``{"op": "ratio", "args": [...]}``
    calc: Any = field(default=None, compare=False, hash=False)

    # ------------------------------------------------------------------ printing
    def __str__(self) -> str:
        if self.text_override:
            return self.text_override
        style = self.style or _DEFAULT_STYLE.get(self.kind, "number")
        digits = self.digits if self.digits is not None else _default_digits(self.kind, style, self.value)
        v = self.value / self.scale
        if style == "x":
            return f"{_num(v, digits, self.sep)}×"
        if style == "ascii_x":
            return f"{_num(v, digits, self.sep)}x"
        if style == "pct":
            return f"{_num(v, digits, self.sep)}%"
        if style == "money":
            return f"${_num(v, digits, self.sep)}"
        if style in ("words", "Words") and float(v).is_integer() and 0 <= v < len(WORDS):
            word = WORDS[int(v)]
            return word.capitalize() if style == "Words" else word  # "Words": to open a sentence
        text = _num(v, digits, self.sep)
        return f"{text} {self.unit}" if self.unit else text

    def fmt(
        self,
        digits: int | None = None,
        style: str | None = None,
        scale: float | None = None,
        sep: bool | None = None,
        unit: str | None = None,
    ) -> Figure:
        """The same figure printed differently: ``{{ x.fmt(digits=2, scale=1e6) }}``.

        ``digits``: decimals; ``style``: ``x``, ``ascii_x`` (``5.65x``), ``pct``, ``money``, ``plain``,
        ``words`` (``eight``), ``Words`` (``Eight``, to open a sentence); ``scale``: divide by it before printing:
        ``1e3``, ``1e6``, ``1e9`` or ``1e12``, with its word right after (``million`` or ``M``, or ``unit="million"``),
        or ``0.01`` with ``style="pct"``; any other scale is refused (it would print another number);
        ``sep``: thousands separators; ``unit``: any text printed after the number (``"ms"``,
        ``"million"``): ``{{ x.total.fmt(digits=2, scale=1e6, unit="million") }}`` → ``5.75 million``.
        """
        changes: dict[str, Any] = {}
        if scale is not None or (style is not None and self.scale != 1):  # a new style prints the scale anew
            check_scale(
                self.scale if scale is None else scale,
                style or self.style or _DEFAULT_STYLE.get(self.kind, "number"),
                self,
                f"fmt(scale={scale!r})"
                if scale is not None
                else f"fmt(style={style!r}) of a figure scaled by {self.scale:g}",
            )
        if digits is not None:
            changes["digits"] = digits
        if style is not None:
            changes["style"] = style
        if scale is not None:
            changes["scale"] = scale
        if sep is not None:
            changes["sep"] = sep
        if unit is not None:
            changes["unit"] = unit
        return dataclasses.replace(self, **changes)

    # ------------------------------------------------------------------ facts
    @property
    def derived(self) -> bool:
        return self.kind in DERIVED_KINDS

    @property
    def derived_kinds(self) -> list[str]:
        """This figure's kind and the kinds it was computed from, where derived."""
        return [k for k in (self.kind, *self.basis) if k in DERIVED_KINDS]

    @property
    def entry(self) -> Figure:
        """The single entry ID behind this figure (``entry {{ x.entry }}``); printing it cites it."""
        ids = sorted({r.result_id for r in self.entries})
        if len(ids) != 1:
            raise ValueError(f"figure {self} comes from {len(ids)} entries, not one")
        return entry_figure(self.entries)

    @property
    def category(self) -> str:
        """Availability category of the single row: ``Available``, ``Preview`` or ``RDI``."""
        return CATEGORY_LABELS.get(self.row.category, self.row.category)

    @property
    def submitter(self) -> str:
        return self.row.submitter.replace("_", " ")

    @property
    def family(self) -> str:
        return self.row.family

    @property
    def system(self) -> str:
        return self.row.system

    @property
    def row(self) -> Row:
        if len(self.entries) != 1:
            raise ValueError(f"figure {self} comes from {len(self.entries)} rows, not one")
        return self.entries[0]

    @property
    def gpus(self) -> Figure:
        """Total accelerators of the single row behind this figure."""
        r = self.row
        return gpus_figure(r)

    @property
    def total(self) -> Figure:
        """The official system result of the single row behind this figure: ``{{ x.total }}`` → ``113,682``."""
        return total_figure(self.row)

    @property
    def result(self) -> Figure:
        """The same as :attr:`total`."""
        return total_figure(self.row)

    @property
    def per_gpu(self) -> Figure:
        """The per-GPU value of the single row behind this figure: ``{{ x.per_gpu }}`` → ``14,211``."""
        return per_gpu_figure(self.row)

    @property
    def power(self) -> Figure:
        """The measured MLPerf® power of the single row behind this figure: ``{{ x.power }}`` → ``9,436 W``."""
        return power_figure(self.row)

    @property
    def nodes(self) -> Figure:
        """Number of nodes of the single row behind this figure."""
        r = self.row
        return Figure(
            float(r.nodes), "count", f"nodes of {r.result_id}", (r,), calc={"op": "nodes", "row": r}
        )

    @property
    def round(self) -> str:
        """Round of this figure (a series point) or of the single row behind it, e.g. ``6.1``."""
        if "round" in self.extra:
            return str(self.extra["round"])
        return self.row.round

    @property
    def benchmark(self) -> str:
        """Benchmark of this figure (a gain) or of the single row behind it."""
        return str(self.extra["benchmark"]) if "benchmark" in self.extra else self.row.benchmark

    @property
    def scenario(self) -> str:
        """Scenario of this figure (a gain) or of the single row behind it."""
        return str(self.extra["scenario"]) if "scenario" in self.extra else self.row.scenario

    @property
    def accelerator(self) -> str:
        """The official accelerator string of the single row behind this figure."""
        return self.row.accelerator

    def __getattr__(self, name: str) -> Any:
        extra = self.__dict__.get("extra") or {}
        if name in extra:
            return extra[name]
        raise AttributeError(name)

    def __float__(self) -> float:
        return float(self.value)

    # comparisons, for claims: ``holds(orgs > count(...), "the most organisations")``. They
    # compare values (a dataclass's == compared every field, and a figure with a number was never
    # equal: ``count(peers) != 5`` held when the count was 5); what has no value is refused
    def __eq__(self, other: object) -> bool:
        a, b = self._values(other)
        return a == b

    def __ne__(self, other: object) -> bool:
        a, b = self._values(other)
        return a != b

    def __hash__(self) -> int:  # equal figures (and numbers) hash alike
        return hash(float(self.value))

    def __lt__(self, other: object) -> bool:
        a, b = self._values(other)
        return a < b

    def __le__(self, other: object) -> bool:
        a, b = self._values(other)
        return a <= b

    def __gt__(self, other: object) -> bool:
        a, b = self._values(other)
        return a > b

    def __ge__(self, other: object) -> bool:
        a, b = self._values(other)
        return a >= b

    def _values(self, other: object) -> tuple[float, float]:
        """This figure's value and *other*'s, for a comparison; an error for what has no value."""
        if math.isnan(self.value):
            what = "an entry ID" if self.kind == "entry" else f"a figure without a value ({self.kind})"
            hint = " (compare .id, its text)" if self.kind == "entry" else ""
            raise LookupFailed(f"cannot compare {what} {self} with {_shown(other)}{hint}")
        return float(self.value), _number(other)

    @property
    def id(self) -> str:
        """The single entry ID behind this figure as text (for comparisons; print ``.entry`` to cite it)."""
        return self.row.result_id


#: the scales ``fmt`` accepts, with the words that must follow the number they print: the text
#: then states the figure's own value ("5.75 million"), never another number under its citation
MAGNITUDES = {
    1e3: ("thousand", "k"),
    1e6: ("million", "M"),
    1e9: ("billion", "bn", "B"),
    1e12: ("trillion", "T"),
}


class ScaleRefused(GpuInsightsError):
    """``fmt(scale=...)`` would print another number than the figure's under its citation."""


def check_scale(scale: object, style: str, figure: Figure, call: str) -> None:
    """A ``fmt(scale=...)`` that prints the figure's own value, or a :class:`ScaleRefused`:
    ``scale=0.5`` printed 28,422 and ``scale=-1`` -14,211 under the citation of 14,211."""
    if isinstance(scale, bool) or not isinstance(scale, int | float):
        raise ScaleRefused(f"figure {figure}: fmt(scale={scale!r}): a scale is a number (1e6 for millions)")
    if scale == 1 or float(scale) in MAGNITUDES or (scale == 0.01 and style == "pct"):
        return
    raise ScaleRefused(
        f"figure {figure}: {call} would print another number under its citation; "
        "scale by 1e3, 1e6, 1e9 or 1e12 with the word after it ({{ x.fmt(scale=1e6) }} million), "
        'or a fraction by 0.01 with style="pct"'
    )


def _number(x: object) -> float:
    if isinstance(x, Figure):
        if math.isnan(x.value):
            what = "an entry ID" if x.kind == "entry" else f"a figure without a value ({x.kind})"
            raise LookupFailed(f"cannot compare a figure with {what} {x}")
        return float(x.value)
    if isinstance(x, int | float) and not isinstance(x, bool):
        return float(x)
    raise LookupFailed(f"cannot compare a figure with {_shown(x)}: compare figures or numbers")


def _shown(x: object) -> str:
    if isinstance(x, Figure):
        return f"the figure {x}"
    return f"{type(x).__name__} {x!r}"[:80]


WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
CATEGORY_LABELS = {"available": "Available", "preview": "Preview", "rdi": "RDI"}


def total_figure(r: Row) -> Figure:
    """The official system result of one row, as ``result(...)`` returns it."""
    return Figure(
        r.result,
        "result",
        f"result({r.result_id} {r.benchmark} {r.scenario})",
        (r,),
        calc={"op": "result", "row": r},
    )


def gpus_figure(r: Row) -> Figure:
    """Total accelerators of one row, as ``gpus(...)`` returns it."""
    return Figure(
        float(r.gpus), "count", f"total accelerators of {r.result_id}", (r,), calc={"op": "gpus", "row": r}
    )


def per_gpu_figure(r: Row) -> Figure:
    """Result divided by total accelerators, as ``per_gpu(...)`` returns it."""
    if r.per_accelerator != r.per_accelerator:
        why = "a latency result" if not r.higher_is_better else "a row without an accelerator count"
        raise LookupFailed(
            f"entry {r.result_id} {r.benchmark} {r.scenario} has no per-GPU value: it is {why}"
        )
    return Figure(
        r.per_accelerator,
        "per_gpu",
        f"{r.result:g} / {r.gpus} accelerators ({r.result_id} {r.benchmark} {r.scenario})",
        (r,),
        calc={"op": "per_gpu", "row": r},
    )


def no_power(r: Row) -> str:
    """Why a row has no measured power to print: a performance-only submission, or a power
    submission loaded from a file that carries no measured power."""
    what = f"{r.result_id or r.system} {r.benchmark} {r.scenario} has no measured power"
    if not r.has_power:
        return f"{what}: it is a performance-only submission"
    src = Path(r.source_file).name if r.source_file else "its results file"
    return (
        f"{what}: it is a power submission, but {src} carries no measured power; "
        "load the round's summary_results.json"
    )


def power_figure(r: Row) -> Figure:
    """The measured power of one row, as ``power(...)`` returns it: system power in watts
    (``9,436 W``) or energy per query or stream in millijoules (``1,241 mJ``)."""
    if r.power != r.power:
        raise LookupFailed(no_power(r))
    return Figure(
        r.power,
        "power",
        f"power({r.result_id} {r.benchmark} {r.scenario})",
        (r,),
        unit=r.power_units,
        calc={"op": "power", "row": r, "unit": r.power_units},
    )


def calc_of(x: Any) -> dict[str, Any]:
    """What a computed figure records of one of its inputs: the input's own calc, or a plain number."""
    if isinstance(x, Figure):
        return x.calc if x.calc is not None else {"op": "unrecorded", "kind": x.kind, "formula": x.formula}
    traced = getattr(x, "calc", None)  # a number a template made from figures (generator.article.traced)
    return traced if isinstance(traced, dict) else {"op": "number", "value": float(x)}


def ledger_row(r: Row) -> dict[str, Any]:
    """A row as the figures ledger names it: its key, units and place in its round's official
    file (``v6.1/summary_results.json``, ``index 12``), for the audit to read it again."""
    src = Path(r.source_file) if r.source_file else None
    return {
        "round": r.round,
        "id": r.result_id,
        "benchmark": r.benchmark,
        "scenario": r.scenario,
        "units": r.units,
        "source": f"{src.parent.name}/{src.name}" if src else "",
        "at": r.source_row,
    }


def ledger_calc(calc: Any, index: dict[Row, int]) -> Any:
    """A figure's :attr:`Figure.calc` as JSON: each row it names as its index among the figure's
    ledger entries (*index*), or, for a row the figure does not cite, as :func:`ledger_row`."""
    if isinstance(calc, Row):
        i = index.get(calc)
        return i if i is not None else ledger_row(calc)
    if isinstance(calc, dict):
        return {k: ledger_calc(v, index) for k, v in calc.items()}
    if isinstance(calc, list | tuple):
        return [ledger_calc(v, index) for v in calc]
    if isinstance(calc, float) and calc != calc:
        return None
    return calc


def ledger_format(f: Figure) -> dict[str, Any]:
    """How a figure prints, for the audit to print its re-derived value the same way."""
    return {
        "digits": f.digits,
        "style": f.style,
        "scale": f.scale,
        "sep": f.sep,
        "unit": f.unit,
        "text_override": f.text_override,
    }


def entry_figure(rows: tuple[Row, ...]) -> Figure:
    """A printed entry ID, e.g. ``6.1-0052``: not a number, but a citation."""
    rid = rows[0].result_id
    return Figure(
        float("nan"), "entry", f"entry {rid}", rows, text_override=rid, calc={"op": "entry", "row": rows[0]}
    )


_DEFAULT_STYLE = {
    "ratio": "x",
    "pct": "pct",
    "scaling": "pct",
    "spread": "pct",
    "money": "money",
    "cost": "money",
    "break_even": "money",
}


def _default_digits(kind: str, style: str, value: float) -> int:
    if style in ("x", "ascii_x"):
        return 2
    if style in ("pct",):
        return 1
    if style == "money":
        return 3 if kind == "cost" else 2
    if kind in ("count", "rule", "constant") and float(value).is_integer():
        return 0
    return 0 if abs(value) >= 100 else 2


#: the sign of a printed negative number: the typographic minus (U+2212), not a hyphen
MINUS = "\u2212"


def _num(v: float, digits: int, sep: bool) -> str:
    """A number as printed: ``-14.46`` with one digit → ``−14.5`` (the minus sign, U+2212, never
    a hyphen), ``-0.04`` → ``0.0`` (no negative zero)."""
    if math.isnan(v):
        return "n/a"
    # Python's rounding of the exact binary value (13,604.5 prints as 13,604): how the
    # published articles' figures were produced
    text = f"{v:,.{digits}f}" if sep else f"{v:.{digits}f}"
    if text.startswith("-"):
        # no "-0.0%"; a hyphen before a number reads as a dash, and a line may break after it
        text = text[1:] if not any(c in "123456789" for c in text) else MINUS + text[1:]
    return text
