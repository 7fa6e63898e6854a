"""Charts as Vega-Lite specs (drawn with Altair), rendered offline.

Each chart becomes ``charts/<slug>-<n>.vl.json`` (the spec, drawn in the browser
by the Vega bundle the site serves itself) and ``charts/<slug>-<n>.svg`` (a
static fallback made with vl-convert). The caption and its footnote markers are
Markdown text beside the chart, never only inside the image.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import altair as alt
import pandas as pd
import vl_convert as vlc

from .errors import LookupFailed
from .figures import Figure
from .functions import Library


@dataclass
class Chart:
    """A chart waiting to be placed: spec, caption and the figures it plots."""

    spec: dict
    caption: str
    figures: tuple[Figure, ...]
    name: str = ""
    svg: str = field(default="", repr=False)


def _spec(chart: alt.TopLevelMixin) -> dict:
    spec = chart.to_dict()
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
    category: str = "available",
    gpus: int | None = None,
    title: str = "",
) -> Chart:
    """Bar chart: best per-GPU value of each family (one bar per family)."""
    figs, data = [], []
    for fam in families:
        try:
            f = lib.best(benchmark, scenario, round=round, category=category, family=fam, gpus=gpus)
        except LookupFailed:
            continue
        figs.append(f)
        data.append({"family": fam, "per_gpu": round_(f.value), "entry": str(f.entry), "gpus": f.row.gpus})
    if not data:
        raise LookupFailed(f"no {benchmark} {scenario} rows in v{round} for {', '.join(families)}")
    df = pd.DataFrame(data)
    name = lib.manifest.rules.display_name(benchmark)
    spec = _bars(
        df,
        title or f"{name} {scenario}: best per-GPU result by family (v{round})",
        alt.Y("family:N", sort="-x", title=None),
        ["family", "per_gpu", "entry", "gpus"],
        _units(figs),
    )
    where = "" if gpus is None else f"{gpus}-GPU "
    caption = (
        f"Best {category.capitalize()} Closed {where}row per family, {name} {scenario}, "
        f"MLPerf® Inference v{round}; per-GPU values are derived metrics."
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
        for entry in (old, new):
            f = lib.per_gpu(entry, benchmark, scenario)
            figs.append(f)
            data.append(
                {"system": label, "round": f"v{f.row.round}", "per_gpu": round_(f.value), "entry": entry}
            )
    df = pd.DataFrame(data)
    name = lib.manifest.rules.display_name(benchmark)
    spec = _bars(
        df,
        title or f"{name} {scenario}: per-GPU result across rounds",
        alt.Y("round:N", title=None),
        ["system", "round", "per_gpu", "entry"],
        _units(figs),
        row=alt.Row("system:N", title=None),
        color=alt.Color("round:N", legend=None),
    )
    rounds = sorted({str(d["round"]) for d in data})
    caption = (
        f"Same system, {' and '.join(rounds)}: MLPerf® Inference Closed {name} {scenario}; "
        f"per-GPU values are derived metrics."
    )
    return Chart(spec, caption, tuple(figs))


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
                "per_gpu": round_(f.value),
                "entry": str(f.entry),
                "family": f.row.family,
                "gpus": f.row.gpus,
            }
        )
    df = pd.DataFrame(data)
    name = lib.manifest.rules.display_name(benchmark)
    spec = _bars(
        df,
        title or f"{name} {scenario}: best per-GPU row by category (v{round})",
        alt.Y("category:N", title=None),
        ["category", "per_gpu", "entry", "family", "gpus"],
        _units(figs),
    )
    caption = (
        f"Best Closed row per category, {name} {scenario}, MLPerf® Inference v{round}; "
        f"Preview systems are not yet generally available; per-GPU values are derived metrics."
    )
    return Chart(spec, caption, tuple(figs))


def _bars(df: pd.DataFrame, title: str, y: alt.Y, tooltip: list[str], units: str, **extra: Any) -> dict:
    """A horizontal bar chart of ``per_gpu`` values; *extra* encodings (row, color) as given."""
    chart = (
        alt.Chart(df, title=title)
        .mark_bar()
        .encode(x=alt.X("per_gpu:Q", title=f"{units} per GPU (derived)"), y=y, tooltip=tooltip, **extra)
        .properties(width=460)
    )
    return _spec(chart)


def _units(figs: list[Figure]) -> str:
    return figs[0].row.units if figs else "result"


def round_(v: float) -> float:
    return float(f"{v:.1f}")


def to_svg(spec: dict) -> str:
    return vlc.vegalite_to_svg(spec)


def spec_json(spec: dict) -> str:
    return json.dumps(spec, indent=1, sort_keys=True)


def vega_bundle(cache_dir: Path | None = None) -> str:
    """Vega, Vega-Lite and Vega-Embed in one script, served by the site itself (no CDN).

    Making it takes a second or two, so it is kept in *cache_dir*, keyed by the
    vl-convert version (safe to delete).
    """
    key = f"vega-bundle-{vlc.__version__ if hasattr(vlc, '__version__') else vlc.get_vega_embed_version()}.js"
    cached = cache_dir / key if cache_dir else None
    if cached is not None and cached.is_file():
        return cached.read_text("utf-8")
    text = str(vlc.javascript_bundle(None))  # type: ignore[arg-type]  # the stub omits the default
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(".tmp")
        tmp.write_text(text, "utf-8")
        tmp.replace(cached)
    return text


CHARTS_JS = """\
// Draw every chart from its Vega-Lite spec with the bundled Vega (no network beyond this site).
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll(".gi-vega[data-spec]").forEach(function (el) {
    fetch(el.getAttribute("data-spec"))
      .then(function (r) { return r.json(); })
      .then(function (spec) { return vegaEmbed(el, spec, {renderer: "svg", actions: false}); })
      .then(function () { el.classList.add("gi-drawn"); })
      .catch(function (err) { el.setAttribute("data-error", String(err)); });
  });
});
"""
