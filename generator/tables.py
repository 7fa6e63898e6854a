"""Derived results tables, rendered as Markdown from template calls."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import LookupFailed
from .figures import Figure
from .functions import Library


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
) -> Table:
    """Best row per accelerator family and benchmark, GPU count in the cell, median beneath.

    ``columns`` are ``(benchmark, scenario)`` pairs. ``median_of`` names one column
    whose cells also show the family's median. A family with no row in ``round``
    takes its best row from the first ``fallback_rounds`` that has one, and the cell
    says which round it came from.
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
                    best = lib.best(bench, scen, round=rnd, category=category, division=division, family=fam)
                except LookupFailed:
                    continue
                figures.append(best)
                tag = "" if rnd == round else f", v{rnd}"
                n = best.row.gpus
                cell = f"{best} ({n} GPU{'s' if n != 1 else ''}, {best.entry}{tag})"
                if median_of and (bench, scen) == tuple(median_of):
                    med = lib.median(bench, scen, round=rnd, category=category, division=division, family=fam)
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
