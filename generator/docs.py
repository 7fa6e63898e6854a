"""Reference pages generated from the code, so that they cannot drift from it."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

from .figures import Figure

#: Functions the renderer adds beside the library's (see ``Renderer._context``).
RENDER_FUNCTIONS: dict[str, str] = {
    "cite(*rounds)": "Footnote markers for the results printed since the previous marker in this paragraph "
    '(or, with rounds such as `cite("6.1", "6.0")`, for those rounds\' notes): `^[1][3]`, each a link to its note.',
    "footnotes()": "The numbered MLPerf® footnotes, generated from what the article cited "
    "(appended at the end when the template does not place them).",
    "compliance()": "The closing compliance paragraph: version, division, category, scenario and GPU count "
    "identified; retrieval after the two-week window.",
    "best_table(round, columns, families, *, category='available', division='closed', median_of=None, "
    "fallback_rounds=(), caption='')": "Markdown table of the best row per family and benchmark/scenario "
    "column, GPU count and entry in each cell, the family median beneath one column.",
    "chart(kind, ...)": "An offline Vega-Lite chart with an SVG fallback and a text caption with its markers. "
    "Kinds: `per_gpu_by_family(benchmark, scenario, round=, families=, gpus=)`, "
    "`available_vs_preview(benchmark, scenario, round=)`, "
    "`cross_round(pairs=[[label, old_entry, new_entry], ...], benchmark, scenario)`.",
    "meta": "The article's front matter (title, date, rounds, ...).",
    "sample": "True when the build uses the embedded sample instead of official files.",
}


def _signature(fn: Callable[..., Any]) -> str:
    sig = inspect.signature(fn)
    params = [p for name, p in sig.parameters.items() if name != "self"]
    text = f"{fn.__name__}{sig.replace(parameters=params)}"
    return re.sub(r"(: |-> )'([^']*)'", r"\1\2", text)  # postponed annotations print quoted


def placeholders_markdown(namespace: dict[str, Callable[..., Any]]) -> str:
    lines = [
        "# Placeholder reference",
        "",
        "Functions available in article templates (`content/*.md`). Each returns a *figure* that knows",
        "its value, its formatting and the official entries it came from; printing one records a",
        "citation for the footnotes, the provenance appendix and the `figures.json` ledger.",
        "This page is generated from the code (`gpu-insights docs`).",
        "",
        "## Data functions",
        "",
    ]
    for name in sorted(namespace):
        fn = namespace[name]
        doc = inspect.getdoc(fn) or ""
        lines += [f"### `{_signature(fn)}`", "", doc, ""]
    lines += ["## Rendering functions", ""]
    for sig, doc in RENDER_FUNCTIONS.items():
        lines += [f"### `{sig}`", "", doc, ""]
    lines += [
        "## Formatting a figure",
        "",
        f"### `{_signature(Figure.fmt)}`",
        "",
        inspect.getdoc(Figure.fmt) or "",
        "",
    ]
    lines += [
        "Styles: `x` (`5.65×`), `pct` (`37.9%`), `money` (`$0.246`), `plain` (`1.260`), `words`",
        "(`eight`, for whole numbers up to ten). Figures from one row also offer `.entry`, `.gpus`,",
        "`.category`, `.submitter`, `.family` and `.system`; `spread()` offers `.low`, `.high` and",
        "`.count`; `median()` offers `.count`.",
        "",
    ]
    return "\n".join(lines)
