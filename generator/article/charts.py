"""Charts as Vega-Lite specs (drawn with Altair), rendered offline.

Each chart becomes ``charts/<slug>-<n>.vl.json`` (the spec, drawn in the browser
by the Vega bundle the site serves itself) and ``charts/<slug>-<n>.svg`` (a
static fallback made with vl-convert). The caption and its footnote markers are
Markdown text beside the chart, never only inside the image. Every value label and
tooltip prints the figure as the article's text prints it (``str(figure)``), never a
rounding of its own.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import inspect
import io
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.lazy import lazy

if TYPE_CHECKING:
    import altair as alt
    import pandas as pd
    import vl_convert as vlc
else:  # drawn only when a chart is rendered, not for cached charts, articles or `check`: a
    # template's chart comes back from the chart cache (a Chart of this module) without pandas
    alt = lazy("altair")
    pd = lazy("pandas")
    vlc = lazy("vl_convert")

from generator.article.figures import Figure
from generator.article.functions import Library
from generator.article.queries import Group
from generator.data.rowquery import entry_round
from generator.errors import LookupFailed
from generator.signing import read_signed, user_cache_dir, write_signed


@dataclass
class Chart:
    """A chart waiting to be placed: spec, caption and the figures it plots."""

    spec: dict
    caption: str
    figures: tuple[Figure, ...]
    name: str = ""
    svg: str = field(default="", repr=False)
    #: the plotted values as the page prints them, one row per mark (the chart's CSV download)
    rows: tuple[dict[str, str], ...] = ()


def make_chart(
    lib: Library, kind: str, args: tuple[Any, ...], kw: dict[str, Any], *, caption: str | None = None
) -> Chart:
    """``chart(kind, ...)`` of a template: a peer group stands for its benchmark, scenario and
    filters; arguments a kind does not take are named in the error; ``caption=`` replaces the
    generated caption (and the chart's accessible description)."""
    maker = CHART_KINDS.get(kind)
    if maker is None:
        raise LookupFailed(f"unknown chart kind {kind!r} (known: {', '.join(sorted(CHART_KINDS))})")
    if args and isinstance(args[0], Group):
        g = args[0]
        args = (g.benchmark, g.scenario, *args[1:])
        kw = {**dict(g.filters), **kw}
    params = inspect.signature(maker).parameters
    takes_filters = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    unknown = [k for k in kw if k not in params]
    if unknown and not takes_filters:
        known = ", ".join(f"{n}=" for n, p in params.items() if p.default is not inspect.Parameter.empty)
        raise LookupFailed(
            f"chart {kind!r} takes no {', '.join(f'{k}=' for k in unknown)} (it takes {known} and caption=)"
        )
    cache = lib.chart_cache
    key = cache.key(kind, args, kw, caption, lib.table) if cache is not None else ""
    kept = cache.get(key) if key else None
    if isinstance(kept, Chart):
        return kept
    made = maker(lib, *args, **kw)
    if caption is not None:
        made.spec["description"] = str(caption)
        made = dataclasses.replace(made, caption=str(caption))
    if key:
        cache.put(key, made)
    return made


def load_altair() -> None:
    """Import altair now (a third of a second of one core), before forking the workers that will
    make charts: they then share this process's import instead of each paying for its own."""
    with contextlib.suppress(ImportError):  # a broken install: the first chart says so, as before
        alt.Chart  # noqa: B018 - reading an attribute runs the lazy import


def _spec(chart: alt.TopLevelMixin) -> dict:
    spec = chart.to_dict(validate=False)  # validated against the Vega-Lite schema in the tests
    spec.pop("$schema", None)
    spec["$schema"] = "https://vega.github.io/schema/vega-lite/v6.json"
    return spec


# ---------------------------------------------------------------- captions, as sentences
def _alternatives(values: Any, word: Callable[[Any], str] = str, joiner: str = "or") -> str:
    """``B200, B300 or MI355X``: one value, or a list of them, as the caption says it.

    >>> _alternatives(["B200", "B300", "MI355X"])
    'B200, B300 or MI355X'
    """
    items = (
        [word(v) for v in values] if isinstance(values, list | tuple | set | frozenset) else [word(values)]
    )
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {joiner} {items[-1]}"


def _counted(values: Any, unit: str) -> str:
    """``8-GPU``, ``4- or 8-GPU``: sizes as an adjective."""
    text = _alternatives(values)
    return f"{text.replace(' or ', '- or ').replace(', ', '-, ')}-{unit}"


#: how a caption states a filter after "systems" (``{}``: its values, joined by "or")
QUALIFIERS: dict[str, str] = {
    "min_gpus": "with at least {} GPUs",
    "max_gpus": "with at most {} GPUs",
    "min_nodes": "of at least {} nodes",
    "max_nodes": "of at most {} nodes",
    "kind": "from {} submitters",
    "submitter": "submitted by {}",
    "member": "submitted by or with {}",
    "accelerator": "with the {} accelerator",
    "system": "named {}",
    "suite": "in the {} suite",
    "units": "reported in {}",
    "entry": "of entry {}",
}


def _systems(filters: dict[str, Any]) -> str:
    """The systems a selection of filters keeps, as a caption says it: ``Available Closed 8-GPU
    B300 systems without power measurements`` (never the filters' names and values as written).

    >>> _systems({"gpus": 8, "has_power": False, "category": "available"})
    'Available Closed 8-GPU systems without power measurements'
    """
    f = {k: v for k, v in filters.items() if v is not None and k not in ("benchmark", "scenario", "round")}
    division = filters.get("division", "closed")
    f.pop("division", None)
    words = []
    if "category" in f:
        words.append(_alternatives(f.pop("category"), lambda c: "RDI" if c == "rdi" else str(c).capitalize()))
    words.append("Closed and Open" if division is None else _alternatives(division, str.capitalize))
    for key, unit in (("gpus", "GPU"), ("nodes", "node")):
        if key in f:
            words.append(_counted(f.pop(key), unit))
    if "family" in f:
        words.append(_alternatives(f.pop("family")))
    words.append("systems")
    power = f.pop("has_power", None)
    if power is not None:
        words.append("with power measurements" if power else "without power measurements")
    hetero = f.pop("heterogeneous", False)
    if hetero:
        words.append("heterogeneous ones only" if hetero == "only" else "heterogeneous ones included")
    if f.pop("exclude", None) is not None:
        words.append("except those the article leaves out")
    words += [QUALIFIERS.get(k, k.replace("_", " ") + " {}").format(_alternatives(v)) for k, v in f.items()]
    return " ".join(words)


def _rounds_text(rounds: Sequence[str]) -> str:
    return _alternatives([f"v{r.removeprefix('v')}" for r in rounds], joiner="and")


DERIVED = "Per-GPU values are derived metrics."


# ---------------------------------------------------------------- chart kinds
def per_gpu_by_family(
    lib: Library,
    benchmark: str,
    scenario: str,
    *,
    round: str | Sequence[str],
    families: Sequence[str],
    category: str | None = "available",
    gpus: int | None = None,
    title: str = "",
) -> Chart:
    """Bar chart: best per-GPU value of each family (one bar per family; ``category=None``: any).
    Given several rounds (``round=["6.0", "6.1"]``), grouped bars: a group per family, a bar per
    round, each family in its colour."""
    rounds = [str(r) for r in round] if isinstance(round, list | tuple) else [str(round)]
    figs, data = [], []
    for fam in families:
        for rnd in rounds:
            try:
                f = lib.best(benchmark, scenario, round=rnd, category=category, family=fam, gpus=gpus)
            except LookupFailed:
                continue
            figs.append(f)
            data.append({"family": fam, "round": f"v{rnd}", **_value(f), **_row(f)})
    if not data:
        raise LookupFailed(
            f"no {benchmark} {scenario} rows in {_rounds_text(rounds)} for {', '.join(families)}"
        )
    df = pd.DataFrame(data)
    name = lib.manifest.rules.display_name(benchmark)
    systems = _systems({"category": category, "gpus": gpus})
    one = len(rounds) == 1
    caption = (
        f"Each bar is the best row of an accelerator family among the {systems} in MLPerf® Inference "
        + (
            f"v{rounds[0]} {name} {scenario}. "
            if one
            else f"{name} {scenario}, one bar per round ({_rounds_text(rounds)}, the older outlined). "
        )
        + DERIVED
    )
    order = list(df.sort_values("per_gpu", ascending=False)["family"].drop_duplicates())
    # best first (an explicit order: "-x" is lost when the value labels are layered on the bars)
    y = alt.Y("family:N", sort=order, title=None)
    heading = f"{name} {scenario}: best per-GPU result by family"
    spec = _bars(
        df,
        title or f"{heading} ({_rounds_text(rounds)})",
        y,
        _units(figs),
        lib,
        caption,
        rounds=None if one else [f"v{r}" for r in rounds],
    )
    return Chart(spec, caption, tuple(figs), rows=_csv(data, _units(figs)))


def cross_round(
    lib: Library, pairs: Sequence[Sequence[str]], benchmark: str, scenario: str, title: str = ""
) -> Chart:
    """Grouped bars: per-GPU value of the same system in two rounds, one pair per label (the
    older round's bar outlined, the newer filled, both in the family's colour).

    ``pairs`` are ``(label, old_entry, new_entry)``.
    """
    figs, data = [], []
    for label, old, new in pairs:
        if entry_round(str(old)) == entry_round(str(new)):
            raise LookupFailed(
                f"cross_round compares one system in two rounds: {old} and {new} are both "
                f"v{entry_round(str(old))} ({label})"
            )
        for entry in (old, new):
            f = lib.per_gpu(entry, benchmark, scenario)
            figs.append(f)
            data.append(
                {
                    "label": f"{label} v{f.row.round}",
                    "system_label": label,
                    "round": f"v{f.row.round}",
                    "family": f.row.family,
                    **_value(f),
                    **_row(f),
                    "entry": entry,
                }
            )
    df = pd.DataFrame(data)
    name = lib.manifest.rules.display_name(benchmark)
    rounds = sorted({str(d["round"]) for d in data}, key=lambda r: [int(x) for x in r[1:].split(".")])
    caption = (
        f"{_pairs_are(figs)}: MLPerf® Inference Closed {name} {scenario}, {' and '.join(rounds)}, the "
        f"{rounds[0]} bar outlined and the {rounds[-1]} bar filled. {DERIVED}"
    )
    spec = _bars(
        df,
        title or f"{name} {scenario}: per-GPU result across rounds",
        alt.Y("label:N", sort=None, title=None),
        _units(figs),
        lib,
        caption,
        rounds=rounds,
    )
    return Chart(spec, caption, tuple(figs), rows=_csv(data, _units(figs)))


def _pairs_are(figs: Sequence[Figure]) -> str:
    """What the rows of each pair of a ``cross_round`` chart have in common, as its caption says
    it: "the same system" only when each pair's submitter, system name, accelerator and GPU count
    match (the reference article's pairs, other hosts of one submitter, were captioned so)."""
    pairs = [(figs[i].row, figs[i + 1].row) for i in range(0, len(figs), 2)]
    same = [
        (a.submitter, a.system, a.accelerator, a.gpus) == (b.submitter, b.system, b.accelerator, b.gpus)
        for a, b in pairs
    ]
    if all(same):
        return "Each pair is the same system in two rounds"
    if all((a.accelerator, a.gpus) == (b.accelerator, b.gpus) for a, b in pairs):
        systems = "different systems" if not any(same) else "not always the same system"
        return f"Each pair has the same accelerator and GPU count ({systems})"
    return "Each pair is two systems as labelled (accelerators or GPU counts differ within a pair)"


def available_vs_preview(
    lib: Library, benchmark: str, scenario: str, *, round: str, title: str = ""
) -> Chart:
    """Best per-GPU row of each category (Available, Preview, RDI) in one round."""
    figs, data = [], []
    for cat in ("available", "preview", "rdi"):
        try:
            f = lib.best(benchmark, scenario, round=round, category=cat)
        except LookupFailed:
            continue
        figs.append(f)
        data.append({"category": cat.capitalize(), "family": f.row.family, **_value(f), **_row(f)})
    df = pd.DataFrame(data)
    name = lib.manifest.rules.display_name(benchmark)
    caption = (
        f"Each bar is the best Closed row of a category in MLPerf® Inference v{round} {name} {scenario}, "
        f"in the colour of its accelerator family. Preview systems are not yet generally available. {DERIVED}"
    )
    spec = _bars(
        df,
        title or f"{name} {scenario}: best per-GPU row by category (v{round})",
        alt.Y("category:N", title=None),
        _units(figs),
        lib,
        caption,
    )
    return Chart(spec, caption, tuple(figs), rows=_csv(data, _units(figs)))


def _trend_points(
    lib: Library, benchmark: str, scenario: str, stat: str, until: str | None, filters: dict[str, Any]
) -> list[tuple[str, list[Figure]]]:
    """``series(...)`` of each family named (``family=[...]``: one line per family, not pooled),
    or of the whole selection: ``[(family or "", points)]``, the families without a row left out."""
    families = filters.pop("family", None)
    if not isinstance(families, list | tuple):
        return [
            (
                str(families or ""),
                lib.series(benchmark, scenario, stat=stat, until=until, family=families, **filters),
            )
        ]
    lines, missing = [], None
    for fam in families:
        try:
            lines.append(
                (str(fam), lib.series(benchmark, scenario, stat=stat, until=until, family=fam, **filters))
            )
        except LookupFailed as exc:
            missing = exc
    if not lines:
        raise missing or LookupFailed("trend: family= names no family")
    return lines


def trend(
    lib: Library,
    benchmark: str,
    scenario: str,
    *,
    stat: str = "median",
    until: str | None = None,
    title: str = "",
    **filters: Any,
) -> Chart:
    """Line chart of ``series(...)``: median (or best) per-GPU value per loaded round; with
    ``family=[...]``, one line per family on the same axes, each in its colour and point shape.

    A break in compatibility (the Compatibility Table does not allow comparing a round
    with the one before) starts a new line, so incompatible rounds are never joined.
    """
    lines = _trend_points(lib, benchmark, scenario, stat, until, dict(filters))
    data, breaks = [], False
    for fam, points in lines:
        segment = 0
        for p in points:
            segment += 1 if p.breaks else 0
            ids = sorted({r.result_id for r in p.entries})
            rows = p.entry.text_override if len(ids) == 1 else f"{len(p.entries)} rows"
            data.append(
                {
                    "family": fam,
                    "round": f"v{p.round}",
                    **_value(p),
                    "segment": segment,
                    "line": f"{fam}|{segment}",
                    "rows": rows,
                    "count": len(p.entries),
                    "entries": " ".join(ids),
                }
            )
        breaks = breaks or segment > 0
    families = [fam for fam, _ in lines if fam]
    rounds = [r for r in lib.table.rounds if any(d["round"] == f"v{r}" for d in data)]
    name = lib.manifest.rules.display_name(benchmark)
    units = next((r.units for _, pts in lines for p in pts for r in p.entries), "result")
    marks = _trend_marks(lib, pd.DataFrame(data), [f"v{r}" for r in rounds], units, families)
    sel = {k: v for k, v in filters.items() if k != "family"}
    one = families[0] if len(families) == 1 else None
    caption = (
        f"Each point is the {stat} per-GPU result of the {_systems({**sel, 'family': one})}"
        + (" of an accelerator family" if len(families) > 1 else "")
        + f" in {name} "
        f"{scenario}, in each loaded round of MLPerf® Inference ({_rounds_text(rounds)})."
        + (f" One line per family: {_alternatives(families, joiner='and')}." if len(families) > 1 else "")
        + f" {DERIVED}"
        + (
            f" A gap in {'a' if len(lines) > 1 else 'the'} line marks rounds the Compatibility Table does not allow comparing."
            if breaks
            else ""
        )
    )
    spec = _responsive(marks, title or f"{name} {scenario}: {stat} per-GPU result by round", caption)
    figs = tuple(p for _, pts in lines for p in pts)
    return Chart(spec, caption, figs, rows=_csv(data, units))


def _trend_marks(
    lib: Library, df: pd.DataFrame, rounds: list[str], units: str, families: list[str]
) -> list[Any]:
    """A line per family and compatible span, a point of the family's shape at each round, and
    the value above each point; a legend of colours and shapes when there are several families."""
    tooltip = [alt.Tooltip("round:N", title="Round")]
    tooltip += [alt.Tooltip("family:N", title="Family")] if families else []
    tooltip += [alt.Tooltip("printed:N", title="Per GPU"), alt.Tooltip("rows:N", title="Entries")]
    base = alt.Chart(df).encode(
        x=alt.X(
            "round:O", title=None, sort=rounds, axis=alt.Axis(labelAngle=0), scale=alt.Scale(padding=0.5)
        ),
        y=alt.Y("per_gpu:Q", title=f"{units} per GPU (derived)", axis=_number_axis()),
        tooltip=tooltip,
    )
    if families:
        # rows of at most four short names or three long ones: the legend fits a phone's column
        columns = 4 if all(len(f) <= 6 for f in families) else 3
        legend = (
            alt.Legend(orient="top", title=None, symbolStrokeWidth=2, columns=columns)
            if len(families) > 1
            else None
        )
        color = _family_color(lib, families, legend=legend)
        shape = _family_shape(lib, families, legend=legend)
        line = base.mark_line().encode(color=color, detail="line:N")
        point = base.mark_point(filled=True, size=80, opacity=1).encode(color=color, shape=shape)
    else:
        line = base.mark_line().encode(detail="line:N", color=alt.value(PALETTE[0]))
        point = base.mark_point(filled=True, size=80, opacity=1).encode(color=alt.value(PALETTE[0]))
    if len(families) > 1:  # values of several lines overlap: the tooltip, the tap and the CSV give them
        return [line, point]
    text = base.mark_text(dy=-12, fontSize=FONT["value"]).encode(
        text="printed:N", color=alt.value("currentColor")
    )
    return [line, point, text]


def gains(lib: Library, figures: Sequence[Figure], *, title: str = "") -> Chart:
    """Bars of ``gains(...)``: the change of the best per-GPU value per benchmark and scenario.

    Each bar is labelled on two lines (benchmark, then scenario: never cut short) and with the
    change as the article prints it (``199.1%``); the axis leaves room for the labels of the
    longest bars, negative changes included."""
    if not figures:
        raise LookupFailed("gains chart: no benchmark and scenario to compare")
    name = lib.manifest.rules.display_name
    data = [
        {
            "row": f"{name(f.benchmark)}{LINE_BREAK}{f.scenario}",
            "benchmark": name(f.benchmark),
            "scenario": f.scenario,
            "pct": float(f.value),
            "printed": str(f),
            "entries": " ".join(sorted({r.result_id for r in f.entries})),
        }
        for f in figures
    ]
    new, old = figures[0].new.round, figures[0].old.round
    counts = "; ".join(
        f"{name(f.benchmark)} {f.scenario} on {f.new.row.gpus} and {f.old.row.gpus} GPUs" for f in figures
    )
    values = [float(f.value) for f in figures]
    ticks = _ticks(min(0.0, *values) * HEADROOM, max(0.0, *values) * HEADROOM)
    base = alt.Chart(pd.DataFrame(data)).encode(
        x=alt.X(
            "pct:Q",
            title="Change (%, derived)",
            # the axis ends on a tick, whose label the flush keeps inside the chart on a phone
            scale=alt.Scale(domain=[ticks[0], ticks[-1]], nice=False),
            axis=alt.Axis(values=ticks, labelExpr="datum.label + '%'", labelFlush=True),
        ),
        y=alt.Y(
            "row:N",
            title=None,
            sort=None,
            # two lines centred on their bar: the second line is drawn below the first
            axis=alt.Axis(
                labelExpr=f"split(datum.label, '{LINE_BREAK}')", labelLimit=0, labelOffset=-FONT["label"] / 2
            ),
        ),
        tooltip=[
            alt.Tooltip("benchmark:N", title="Benchmark"),
            alt.Tooltip("scenario:N", title="Scenario"),
            alt.Tooltip("printed:N", title="Change"),
        ],
    )
    negative = "datum.pct < 0"
    marks = [
        base.mark_bar(color=PALETTE[0]),
        base.mark_text(
            align=alt.ExprRef(f"{negative} ? 'right' : 'left'"),
            dx=alt.ExprRef(f"{negative} ? -4 : 4"),
            baseline="middle",
            fontSize=FONT["value"],
        ).encode(text="printed:N", color=alt.value("currentColor")),
    ]
    caption = (
        f"Each bar is the change of the best Closed per-GPU result of a benchmark and scenario from "
        f"MLPerf® Inference v{old} to v{new}. The best rows of the two rounds can differ in category and "
        f"software, and in GPU count: {counts}. Per-GPU values and their changes are derived metrics."
    )
    spec = _responsive(marks, title or f"Best per-GPU result: v{new} against v{old}", caption)
    spec["height"] = {"step": 2 * FONT["label"] + 12}  # room for the labels' two lines
    rows = tuple(
        {
            "Benchmark": str(d["benchmark"]),
            "Scenario": str(d["scenario"]),
            "Change (derived)": str(d["printed"]),
            "Change, unrounded (%)": repr(d["pct"]),
            "Entries": str(d["entries"]),
        }
        for d in data
    )
    return Chart(spec, caption, tuple(figures), rows=rows)


def _ticks(low: float, high: float, count: int = 4) -> list[float]:
    """About *count* round tick values (steps of 1, 2, 2.5 or 5 × 10ⁿ) from *low* to *high* or beyond.

    >>> _ticks(0, 258.8)
    [0.0, 100.0, 200.0, 300.0]
    """
    raw = max(high - low, 1e-9) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first, last = math.floor(low / step), math.ceil(high / step)
    return [float(i * step) for i in range(first, last + 1)]


def counts_by_round(lib: Library, figures: Sequence[Figure], *, what: str, title: str = "") -> Chart:
    """Bars of ``count_by_round(...)``: one count per loaded round, labelled *what*."""
    data = [{"round": f"v{f.round}", "count": int(f.value), "printed": str(f)} for f in figures]
    base = alt.Chart(pd.DataFrame(data)).encode(
        x=alt.X("round:O", title=None, sort=None, axis=alt.Axis(labelAngle=0)),
        y=alt.Y("count:Q", title=what, axis=_number_axis()),
        tooltip=[alt.Tooltip("round:N", title="Round"), alt.Tooltip("printed:N", title=what.capitalize())],
    )
    marks = [
        base.mark_bar(color=PALETTE[0]),
        base.mark_text(dy=-8, fontSize=FONT["value"]).encode(
            text="printed:N", color=alt.value("currentColor")
        ),
    ]
    caption = (
        f"Each bar counts the {what} of a loaded round of MLPerf® Inference "
        f"({_rounds_text([str(d['round']) for d in data])})."
    )
    rows = tuple({"Round": str(d["round"]), what.capitalize(): str(d["printed"])} for d in data)
    return Chart(
        _responsive(marks, title or f"{what.capitalize()} per round", caption),
        caption,
        tuple(figures),
        rows=rows,
    )


#: chart kinds templates can ask for with ``chart(kind, ...)``
CHART_KINDS: dict[str, Callable[..., Chart]] = {
    "per_gpu_by_family": per_gpu_by_family,
    "cross_round": cross_round,
    "available_vs_preview": available_vs_preview,
    "trend": trend,
    "gains": gains,
    "counts_by_round": counts_by_round,
}


# ---------------------------------------------------------------- the site's colours and shapes
#: one colour per accelerator family, by the family's place in accelerators.toml (site-wide, so a
#: family has one colour on every page). Each has a relative luminance of 0.21: a contrast of at
#: least 3.9:1 against the light page (white) and the dark one (#1e2129), where 3:1 is the floor
#: for graphics (WCAG 1.4.11); tests/test_charts_compare.py computes it
PALETTE = (
    "#4281c8",  # blue
    "#c7620a",  # orange
    "#448e3d",  # green
    "#df4949",  # red
    "#2e8b85",  # teal
    "#916ad4",  # violet
    "#d2499f",  # magenta
    "#a17557",  # brown
    "#937d10",  # olive
)
#: a family accelerators.toml does not list (mixed accelerators): grey, at the same contrast
OTHER_COLOR = "#7f7f7f"
#: the second cue beside colour: one point shape per family, by the same place; 7 shapes and 9
#: colours (coprime) give 63 families a pair of their own
SHAPES = ("circle", "square", "diamond", "triangle-up", "triangle-down", "cross", "triangle-right")
OTHER_SHAPE = "stroke"
#: the page's backgrounds the colours are read against (light: white; dark: Material's slate)
BACKGROUNDS = {"light": "#ffffff", "dark": "#1e2129"}
#: text sizes of every chart (pixels): at least 12 px in a 390 px wide phone column
FONT = {"label": 13, "title": 14, "value": 12}
#: the value axis reaches this far beyond the longest bar, for its value label
HEADROOM = 1.3
#: splits an axis label into lines (Vega draws an array of strings on several lines)
LINE_BREAK = "|"
#: the value axis's labels: thousands separated (``15,000``), millions as ``1.5M``, never ``0k``
NUMBER_LABEL = "abs(datum.value) >= 1e6 ? format(datum.value / 1e6, ',~r') + 'M' : format(datum.value, ',~r')"


def family_colors(lib: Library) -> tuple[list[str], list[str]]:
    """The colour scale every chart shares: (families, colours)."""
    names = [f.name for f in lib.manifest.families.families]
    return names, [PALETTE[i % len(PALETTE)] for i in range(len(names))]


def family_shapes(lib: Library) -> tuple[list[str], list[str]]:
    """The shape scale every chart shares: (families, shapes)."""
    names = [f.name for f in lib.manifest.families.families]
    return names, [SHAPES[i % len(SHAPES)] for i in range(len(names))]


def _family_scale(known: tuple[list[str], list[str]], shown: Sequence[str], other: str) -> alt.Scale:
    """The shared scale, narrowed to the families *shown* (in their order): a legend lists only
    those, each in its site-wide colour or shape; a family the site does not list gets *other*."""
    mapping = dict(zip(*known, strict=True))
    domain = list(dict.fromkeys(shown))
    return alt.Scale(domain=domain, range=[mapping.get(f, other) for f in domain])


def _family_color(lib: Library, shown: Sequence[str], legend: Any = None) -> alt.Color:
    return alt.Color("family:N", scale=_family_scale(family_colors(lib), shown, OTHER_COLOR), legend=legend)


def _family_shape(lib: Library, shown: Sequence[str], legend: Any = None) -> alt.Shape:
    return alt.Shape("family:N", scale=_family_scale(family_shapes(lib), shown, OTHER_SHAPE), legend=legend)


def _number_axis() -> alt.Axis:
    return alt.Axis(labelExpr=NUMBER_LABEL, tickCount=4)


def _title_lines(title: str) -> list[str] | str:
    """A title broken after its colon, so that it fits a phone's column on two lines."""
    head, sep, rest = title.partition(": ")
    return [head + ":", rest] if sep and rest else title


def _row(f: Figure) -> dict[str, Any]:
    """The row a bar stands for: entry, submitter, system and GPU count (tooltip and CSV)."""
    return {"entry": str(f.entry), "submitter": f.row.submitter, "system": f.row.system, "gpus": f.row.gpus}


def _tooltip() -> list[Any]:
    """The tooltip of every bar (a function: altair is imported on the first chart, not at start-up)."""
    return [
        alt.Tooltip("entry:N", title="Entry"),
        alt.Tooltip("submitter:N", title="Submitter"),
        alt.Tooltip("system:N", title="System"),
        alt.Tooltip("gpus:Q", title="GPUs"),
        alt.Tooltip("printed:N", title="Per GPU"),
    ]


def _bars(
    df: pd.DataFrame,
    title: str,
    y: alt.Y,
    units: str,
    lib: Library,
    caption: str,
    rounds: list[str] | None = None,
) -> dict:
    """Horizontal bars of ``per_gpu`` with value labels, coloured by family; the width follows the
    page's column, the caption is the chart's accessible description. Given *rounds* (two or
    more), a bar per round beside each other, the older rounds outlined in the family's colour and
    the newest filled: never told apart by transparency alone (and each labelled with its round)."""
    color = _family_color(lib, list(df["family"].unique()))
    top = float(df["per_gpu"].max()) if len(df) else 1.0
    x = alt.X(
        "per_gpu:Q",
        title=f"{units} per GPU (derived)",
        scale=alt.Scale(domain=[0, top * HEADROOM], nice=False),
        axis=_number_axis(),
    )
    enc: dict[str, Any] = {
        "x": x,
        "y": y,
        "tooltip": [alt.Tooltip("round:N", title="Round"), *_tooltip()] if rounds else _tooltip(),
    }
    if rounds and "label" not in df:  # a group per family, a bar per round
        enc["yOffset"] = alt.YOffset("round:N", sort=rounds)
    base = alt.Chart(df).encode(**enc)
    label = "printed:N"
    if not rounds:
        bars = base.mark_bar().encode(color=color)
    else:
        newest = f"datum.round === '{rounds[-1]}'"
        bars = base.mark_bar(strokeWidth=2).encode(
            stroke=color,
            fill=alt.condition(newest, color, alt.value("transparent")),  # type: ignore[no-untyped-call]
        )
        if "label" not in df:
            df["shown"] = df["round"] + ": " + df["printed"]
            base, label = alt.Chart(df).encode(**enc), "shown:N"
    labels = base.mark_text(align="left", baseline="middle", dx=4, fontSize=FONT["value"]).encode(
        text=label, color=alt.value("currentColor")
    )
    return _responsive([bars, labels], title, caption)


def _responsive(marks: list[Any], title: str, caption: str) -> dict:
    """Layered marks as every chart of the site is drawn: the column's width, readable text on a
    phone, the title on two lines, the caption as the accessible description."""
    chart = (
        alt.layer(*marks, title=alt.Title(_title_lines(title), fontSize=FONT["title"], anchor="start"))
        .properties(width="container", description=caption)
        .configure_axis(labelFontSize=FONT["label"], titleFontSize=FONT["label"], labelLimit=160)
        .configure_legend(labelFontSize=FONT["label"], symbolSize=120)
        .configure_view(stroke=None)
    )
    spec = _spec(chart)
    spec["autosize"] = {"type": "fit-x", "contains": "padding"}
    return spec


def _units(figs: list[Figure]) -> str:
    return figs[0].row.units if figs else "result"


def _value(f: Figure) -> dict[str, Any]:
    """A plotted figure: its value (the bar's length) and its text as the article prints it (the
    label and the tooltip), so that a chart never shows 8,847 where the text says 8,846."""
    return {"per_gpu": float(f.value), "printed": str(f)}


#: the columns of a chart's CSV, in this order, from its data (those the chart has)
CSV_COLUMNS = (
    ("family", "Family"),
    ("category", "Category"),
    ("system_label", "Label"),
    ("round", "Round"),
    ("entry", "Entry"),
    ("entries", "Entries"),
    ("count", "Rows"),
    ("submitter", "Submitter"),
    ("system", "System"),
    ("gpus", "GPUs"),
)


def _csv(data: list[dict[str, Any]], units: str) -> tuple[dict[str, str], ...]:
    """The rows of a chart's CSV: who and what each mark is, its value as the page prints it (the
    label) and unrounded (for a spreadsheet), and the units."""
    out = []
    for d in data:
        row = {head: str(d[key]) for key, head in CSV_COLUMNS if key in d and str(d[key]) != ""}
        row["Per GPU (derived)"] = str(d["printed"])
        row["Per GPU, unrounded"] = repr(float(d["per_gpu"]))
        row["Units"] = f"{units} per GPU"
        out.append(row)
    return tuple(out)


def chart_csv(rows: Sequence[dict[str, str]]) -> str:
    """A chart's rows as CSV text (RFC 4180: comma-separated, quoted where needed, CRLF lines)."""
    columns = list(dict.fromkeys(k for r in rows for k in r))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


#: the files of each chart a reader can take away, beside its spec (``charts/<name>.vl.json``)
#: and its SVG fallback (``charts/<name>.svg``): the figure with its caption and notes' numbers
#: as SVG and PNG, and its data as CSV
DOWNLOADS = {"svg": "{name}.figure.svg", "png": "{name}.png", "csv": "{name}.csv"}


def downloads_html(name: str) -> str:
    """The links under a chart's caption to its :data:`DOWNLOADS` (files written by the build)."""
    svg, png, data = (f"charts/{DOWNLOADS[k].format(name=name)}" for k in ("svg", "png", "csv"))
    return (
        f'<p class="gi-chart-files">Download this figure as <a class="gi-chart-file" href="{svg}" download>SVG'
        f'</a> or <a class="gi-chart-file" href="{png}" download>PNG</a>, with its caption and footnote numbers, or '
        f'its data as <a class="gi-chart-file" href="{data}" download>CSV</a>.</p>'
    )


def plain_marker(marker: str) -> str:
    """A caption's footnote markers as plain text, for a figure taken away: ``[1][5]``.

    >>> plain_marker("[^\\[1\\]](#mlperf-fn-1)[\\[5\\]](#mlperf-fn-5)")
    '[1][5]'
    """
    return "".join(f"[{n}]" for n in re.findall(r"(?<=\[)(\d+)(?=\\?\])", marker))


#: bundles shipped with the package, one per vl-convert version (``vega-bundle-<version>.js``)
ASSETS = Path(__file__).resolve().parents[1] / "assets"


def vega_bundle_name() -> str:
    return (
        f"vega-bundle-{vlc.__version__ if hasattr(vlc, '__version__') else vlc.get_vega_embed_version()}.js"
    )


def vega_bundle(cache_dir: Path | None = None) -> str:
    """Vega, Vega-Lite and Vega-Embed in one script, served by the site itself (no CDN).

    The package ships the bundle of its pinned vl-convert; another vl-convert version makes
    its own once (a second or two) into *cache_dir* or the user's cache folder.
    """
    name = vega_bundle_name()
    if (ASSETS / name).is_file():  # shipped in the package
        return (ASSETS / name).read_text("utf-8")
    cached = (cache_dir or user_cache_dir()) / name
    kept = read_signed(cached)  # a script every page runs: only what this user's builds made
    if kept is not None:
        return kept.decode("utf-8")
    text = str(vlc.javascript_bundle(None))  # type: ignore[arg-type]  # the stub omits the default
    with contextlib.suppress(OSError):  # a read-only cache only costs the next build a second or two
        write_signed(cached, text.encode("utf-8"))
    return text
