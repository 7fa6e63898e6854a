"""Derived results tables, rendered as Markdown from template calls."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from generator.article.escape import md
from generator.article.figures import Figure
from generator.article.functions import Library
from generator.errors import LookupFailed


@dataclass(frozen=True)
class Table:
    """A Markdown table plus the figures in its cells (all of them are cited)."""

    markdown: str
    figures: tuple[Figure, ...]
    rows: tuple[tuple[str, ...], ...]

    def __str__(self) -> str:
        return self.markdown


def best_table(
    lib: Library,
    round: str,
    columns: Sequence[Sequence[str]],
    families: Sequence[str],
    *,
    category: str = "available",
    division: str = "closed",
    median_of: Sequence[str] | None = None,
    fallback_rounds: Sequence[str] = (),
    caption: str = "",
    **filters: Any,
) -> Table:
    """Best row per accelerator family and benchmark, GPU count in the cell, median beneath.

    ``columns`` are ``(benchmark, scenario)`` pairs. ``median_of`` names one column
    whose cells also show the family's median. A family with no row in ``round``
    takes its best row from the first ``fallback_rounds`` that has one, and the cell
    says which round it came from. Any other selection filter (``gpus=8``,
    ``max_gpus=8``, ``kind="cloud"``, ``exclude={...}``) applies to every cell.
    """
    header = ["Family"] + [f"{lib.manifest.rules.display_name(b)} {s}" for b, s in columns]
    figures: list[Figure] = []
    body: list[tuple[str, ...]] = []
    for fam in families:
        cells = [fam]
        for bench, scen in columns:
            cell = "—"
            for rnd in (round, *fallback_rounds):
                try:
                    best = lib.best(
                        bench, scen, round=rnd, category=category, division=division, family=fam, **filters
                    )
                except LookupFailed:
                    continue
                figures.append(best)
                tag = "" if rnd == round else f", v{rnd}"
                n = best.row.gpus
                cell = f"{best} ({n} GPU{'s' if n != 1 else ''}, {best.entry}{tag})"
                if median_of and (bench, scen) == tuple(median_of):
                    med = lib.median(
                        bench, scen, round=rnd, category=category, division=division, family=fam, **filters
                    )
                    figures.append(med)
                    cell += f"<br>median {med} of {int(med.count.value)}"
                break
            cells.append(cell)
        body.append(tuple(cells))
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["--:"] * len(columns)) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in body]
    if caption:
        lines = [caption, ""] + lines
    return Table("\n".join(lines), tuple(figures), tuple(body))


#: columns ``top_table`` can show
TOP_COLUMNS = ("entry", "submitter", "system", "family", "gpus", "nodes", "per_gpu", "total", "category")


def top_table(
    lib: Library,
    *args: Any,
    n: int = 10,
    by: str = "per_gpu",
    columns: Sequence[str] = ("entry", "submitter", "family", "gpus", "per_gpu", "total"),
    caption: str = "",
    **filters: Any,
) -> Table:
    """The best *n* rows of a selection (``top(...)``) as a table, one row per result.

    Takes what ``top`` takes: a benchmark and scenario or a group, every filter, ``by=``.
    """
    unknown = [c for c in columns if c not in TOP_COLUMNS]
    if unknown:
        raise LookupFailed(f"top_table: unknown column(s) {', '.join(unknown)}; use {', '.join(TOP_COLUMNS)}")
    titles = {"per_gpu": "Per GPU", "total": "System result", "gpus": "GPUs", "entry": "Entry"}
    header = [titles.get(c, c.capitalize()) for c in columns]
    figures: list[Figure] = []
    body: list[tuple[str, ...]] = []
    for x in lib.top(*args, n=n, by=by, **filters):
        cells = []
        for c in columns:
            if c in ("entry", "gpus", "nodes", "per_gpu", "total"):
                f = x if c == by and c in ("per_gpu", "total") else getattr(x, c)
                figures.append(f)
                cells.append(str(f))
            else:
                cells.append(md(str(getattr(x, c))))
        body.append(tuple(cells))
    align = ["--:" if c in ("gpus", "nodes", "per_gpu", "total") else "---" for c in columns]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in body]
    if caption:
        lines = [caption, ""] + lines
    return Table("\n".join(lines), tuple(figures), tuple(body))
