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
import dataclasses
import inspect
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from generator.lazy import lazy

if TYPE_CHECKING:
    import altair as alt
    import vl_convert as vlc
else:  # drawn only when a chart is rendered, not for cached articles or `check`
    alt = lazy("altair")
    vlc = lazy("vl_convert")

from generator.article.figures import Figure
from generator.article.functions import Library
from generator.article.queries import Group
from generator.data.table import entry_round
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


def _filters_text(filters: dict[str, Any]) -> str:
    """``family RTX PRO 6000, category available``: the selection a chart's caption states."""
    return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in filters.items() if v is not None)


def _spec(chart: alt.TopLevelMixin) -> dict:
    spec = chart.to_dict(validate=False)  # validated against the Vega-Lite schema in the tests
    spec.pop("$schema", None)
    spec["$schema"] = "https://vega.github.io/schema/vega-lite/v6.json"
    return spec


def per_gpu_by_family(
    lib: Library,
    benchmark: str,
    scenario: str,
    *,
    round: str,
    families: Sequence[str],
    category: str | None = "available",
    gpus: int | None = None,
    title: str = "",
) -> Chart:
    """Bar chart: best per-GPU value of each family (one bar per family; ``category=None``: any)."""
    figs, data = [], []
    for fam in families:
        try:
            f = lib.best(benchmark, scenario, round=round, category=category, family=fam, gpus=gpus)
        except LookupFailed:
            continue
        figs.append(f)
        data.append({"family": fam, **_value(f), "entry": str(f.entry), "gpus": f.row.gpus, **_who(f)})
    if not data:
        raise LookupFailed(f"no {benchmark} {scenario} rows in v{round} for {', '.join(families)}")
    df = pd.DataFrame(data)
    name = lib.manifest.rules.display_name(benchmark)
    where = "" if gpus is None else f"{gpus}-GPU "
    which = f"{category.capitalize()} " if category else ""
    caption = (
        f"Best {which}Closed {where}row per family, {name} {scenario}, "
        f"MLPerf® Inference v{round}; per-GPU values are derived metrics."
    )
    spec = _bars(
        df,
        title or f"{name} {scenario}: best per-GPU result by family (v{round})",
        # best first (an explicit order: "-x" is lost when the value labels are layered on the bars)
        alt.Y("family:N", sort=list(df.sort_values("per_gpu", ascending=False)["family"]), title=None),
        _units(figs),
        lib,
        caption,
    )
    return Chart(spec, caption, tuple(figs))


def cross_round(
    lib: Library, pairs: Sequence[Sequence[str]], benchmark: str, scenario: str, title: str = ""
) -> Chart:
    """Grouped bars: per-GPU value of the same system in two rounds, one pair per label.

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
                    **_value(f),
                    "entry": entry,
                    "family": f.row.family,
                    "gpus": f.row.gpus,
                    **_who(f),
                }
            )
    df = pd.DataFrame(data)
    name = lib.manifest.rules.display_name(benchmark)
    rounds = sorted({str(d["round"]) for d in data})
    caption = (
        f"{_pairs_are(figs)}, {' and '.join(rounds)}: MLPerf® Inference Closed {name} {scenario}; "
        f"per-GPU values are derived metrics."
    )
    spec = _bars(
        df,
        title or f"{name} {scenario}: per-GPU result across rounds",
        alt.Y("label:N", sort=None, title=None),
        _units(figs),
        lib,
        caption,
        opacity=alt.Opacity("round:N", sort=rounds, scale=alt.Scale(range=[0.55, 1.0]), legend=None),
    )
    return Chart(spec, caption, tuple(figs))


def _pairs_are(figs: Sequence[Figure]) -> str:
    """What the rows of each pair of a ``cross_round`` chart have in common, as its caption says
    it: "Same system" only when each pair's submitter, system name, accelerator and GPU count match
    (the reference article's pairs, other hosts of one submitter, were captioned "Same system")."""
    pairs = [(figs[i].row, figs[i + 1].row) for i in range(0, len(figs), 2)]
    same = [
        (a.submitter, a.system, a.accelerator, a.gpus) == (b.submitter, b.system, b.accelerator, b.gpus)
        for a, b in pairs
    ]
    if all(same):
        return "Same system"
    if all((a.accelerator, a.gpus) == (b.accelerator, b.gpus) for a, b in pairs):
        systems = "different systems" if not any(same) else "not always the same system"
        return f"Same accelerator and GPU count in each pair ({systems})"
    return "Pairs of systems as labelled (accelerators or GPU counts differ within a pair)"


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
        data.append(
            {
                "category": cat.capitalize(),
                **_value(f),
                "entry": str(f.entry),
                "family": f.row.family,
                "gpus": f.row.gpus,
                **_who(f),
            }
        )
    df = pd.DataFrame(data)
    name = lib.manifest.rules.display_name(benchmark)
    caption = (
        f"Best Closed row per category, {name} {scenario}, MLPerf® Inference v{round}; "
        f"Preview systems are not yet generally available; per-GPU values are derived metrics."
    )
    spec = _bars(
        df,
        title or f"{name} {scenario}: best per-GPU row by category (v{round})",
        alt.Y("category:N", title=None),
        _units(figs),
        lib,
        caption,
    )
    return Chart(spec, caption, tuple(figs))


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
    """Line chart of ``series(...)``: median (or best) per-GPU value per loaded round.

    A break in compatibility (the Compatibility Table does not allow comparing a round
    with the one before) starts a new line, so incompatible rounds are never joined.
    """
    points = lib.series(benchmark, scenario, stat=stat, until=until, **filters)
    data, segment = [], 0
    for p in points:
        segment += 1 if p.breaks else 0
        entry = (
            p.entry.text_override if len({r.result_id for r in p.entries}) == 1 else f"{len(p.entries)} rows"
        )
        data.append({"round": f"v{p.round}", **_value(p), "segment": segment, "rows": entry})
    name = lib.manifest.rules.display_name(benchmark)
    units = next((r.units for p in points for r in p.entries), "result")
    base = alt.Chart(pd.DataFrame(data)).encode(
        x=alt.X("round:O", title=None, sort=None),
        y=alt.Y("per_gpu:Q", title=f"{units} per GPU (derived)", axis=alt.Axis(format="~s", tickCount=4)),
        tooltip=[
            alt.Tooltip("round:N", title="Round"),
            alt.Tooltip("printed:N", title="Per GPU"),
            alt.Tooltip("rows:N", title="Entries"),
        ],
    )
    marks = [
        base.mark_line(point=True).encode(detail="segment:N"),
        base.mark_text(dy=-10, fontSize=FONT["value"]).encode(
            text="printed:N", color=alt.value("currentColor")
        ),
    ]
    breaks = (
        " A gap in the line marks rounds the Compatibility Table does not allow comparing." if segment else ""
    )
    only = f" ({_filters_text(filters)})" if _filters_text(filters) else ""
    caption = (
        f"{stat.capitalize()} per-GPU value of Closed {name} {scenario} rows{only} in each loaded round of "
        f"MLPerf® Inference ({', '.join(str(d['round']) for d in data)}); per-GPU values are derived metrics.{breaks}"
    )
    spec = _responsive(marks, title or f"{name} {scenario}: {stat} per-GPU result by round", caption)
    return Chart(spec, caption, tuple(points))


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
        base.mark_bar(),
        base.mark_text(
            align=alt.ExprRef(f"{negative} ? 'right' : 'left'"),
            dx=alt.ExprRef(f"{negative} ? -4 : 4"),
            baseline="middle",
            fontSize=FONT["value"],
        ).encode(text="printed:N", color=alt.value("currentColor")),
    ]
    caption = (
        f"Change of the best Closed per-GPU result of each benchmark and scenario, MLPerf® Inference "
        f"v{new} against v{old}; the best rows of the two rounds can differ in category and software, "
        f"and in GPU count: {counts}; per-GPU values and their changes are derived metrics."
    )
    spec = _responsive(marks, title or f"Best per-GPU result: v{new} against v{old}", caption)
    spec["height"] = {"step": 2 * FONT["label"] + 12}  # room for the labels' two lines
    return Chart(spec, caption, tuple(figures))


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
    data = [{"round": f"v{f.round}", "count": int(f.value)} for f in figures]
    base = alt.Chart(pd.DataFrame(data)).encode(
        x=alt.X("round:O", title=None, sort=None),
        y=alt.Y("count:Q", title=what, axis=alt.Axis(tickCount=4)),
        tooltip=[alt.Tooltip("round:N", title="Round"), alt.Tooltip("count:Q", title=what.capitalize())],
    )
    marks = [
        base.mark_bar(),
        base.mark_text(dy=-8, fontSize=FONT["value"]).encode(text="count:Q", color=alt.value("currentColor")),
    ]
    caption = f"{what.capitalize()} in each loaded round of MLPerf® Inference ({', '.join(str(d['round']) for d in data)})."
    return Chart(
        _responsive(marks, title or f"{what.capitalize()} per round", caption), caption, tuple(figures)
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


#: one colour per accelerator family, in the order of the families in accelerators.toml (site-wide)
PALETTE = (
    "#4c78a8",
    "#f58518",
    "#54a24b",
    "#e45756",
    "#72b7b2",
    "#b279a2",
    "#ff9da6",
    "#9d755d",
    "#bab0ac",
    "#eeca3b",
    "#1f77b4",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#bcbd22",
    "#393b79",
    "#637939",
    "#8c6d31",
    "#843c39",
    "#7b4173",
    "#3182bd",
    "#e6550d",
    "#31a354",
)
OTHER_COLOR = "#888888"
#: text sizes of every chart (pixels): at least 12 px in a 390 px wide phone column
FONT = {"label": 13, "title": 14, "value": 12}
#: the value axis reaches this far beyond the longest bar, for its value label
HEADROOM = 1.3
#: splits an axis label into lines (Vega draws an array of strings on several lines)
LINE_BREAK = "|"


def family_colors(lib: Library) -> tuple[list[str], list[str]]:
    """The colour scale every chart shares: (families, colours)."""
    names = [f.name for f in lib.manifest.families.families]
    return names, [PALETTE[i % len(PALETTE)] for i in range(len(names))]


def _title_lines(title: str) -> list[str] | str:
    """A title broken after its colon, so that it fits a phone's column on two lines."""
    head, sep, rest = title.partition(": ")
    return [head + ":", rest] if sep and rest else title


def _who(f: Figure) -> dict[str, Any]:
    return {"submitter": f.row.submitter, "system": f.row.system}


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
    df: pd.DataFrame, title: str, y: alt.Y, units: str, lib: Library, caption: str, **extra: Any
) -> dict:
    """Horizontal bars of ``per_gpu`` with value labels, coloured by family; the width follows the
    page's column, the caption is the chart's accessible description."""
    domain, colours = family_colors(lib)
    known = [f for f in df["family"].unique() if f not in domain]
    color = alt.Color(
        "family:N",
        scale=alt.Scale(domain=domain + known, range=colours + [OTHER_COLOR] * len(known)),
        legend=None,
    )
    top = float(df["per_gpu"].max()) if len(df) else 1.0
    x = alt.X(
        "per_gpu:Q",
        title=f"{units} per GPU (derived)",
        scale=alt.Scale(domain=[0, top * HEADROOM], nice=False),
        axis=alt.Axis(format="~s", tickCount=4),
    )
    base = alt.Chart(df).encode(x=x, y=y, tooltip=_tooltip())
    bars = base.mark_bar().encode(color=color, **extra)
    labels = base.mark_text(align="left", baseline="middle", dx=4, fontSize=FONT["value"]).encode(
        text="printed:N", color=alt.value("currentColor")
    )
    return _responsive([bars, labels], title, caption)


def _responsive(marks: list[Any], title: str, caption: str) -> dict:
    """Layered marks as every chart of the site is drawn: the column's width, readable text on a
    phone, the title on two lines, the caption as the accessible description."""
    chart = (
        alt.layer(*marks, title=alt.Title(_title_lines(title), fontSize=FONT["title"], anchor="start"))
        .properties(width="container", description=caption)
        .configure_axis(labelFontSize=FONT["label"], titleFontSize=FONT["label"], labelLimit=160)
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
