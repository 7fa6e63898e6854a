"""Derived results tables, rendered as Markdown from template calls."""

from __future__ import annotations

import csv
import html
import io
import re
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


# ------------------------------------------------------------------ tables to take away
#: a Markdown table's line (a pipe table: ``| a | b |``) and its delimiter row (``|---|--:|``)
_ROW = re.compile(r"^\s*\|")
_DELIMITER = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
_CAPTION = re.compile(r"^\*(Table \d+)[:.]")
_MARKER = re.compile(r"\[\^?\\\[\d+\\\]\]\(#[^)]*\)|\[\^[^\]]*\]")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


@dataclass(frozen=True)
class DerivedTable:
    """A table of a rendered article that prints figures, as a reader downloads it: its cells as
    printed and, in a last column, the entry IDs each row's figures cite (the footnotes' IDs)."""

    number: int  # its place among the article's derived tables, from 1
    end: int  # its last line in the rendered Markdown (from 0)
    title: str  # "Table 1" when a caption names it, else ""
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def csv(self) -> str:
        """The table as CSV (RFC 4180, UTF-8): a header, then one line per row."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(self.header)
        writer.writerows(self.rows)
        return out.getvalue()


def cell_text(cell: str) -> str:
    """A Markdown cell as plain text: ``**14,211**<br>median 13,604 of 9[^1]`` → ``14,211; median 13,604 of 9``."""
    text = _MARKER.sub("", cell)
    text = re.sub(r"<br\s*/?>", "; ", text)
    text = _LINK.sub(r"\1", re.sub(r"<[^<>]*>", "", text))
    text = re.sub(r"\\(.)", r"\1", text).replace("**", "").replace("`", "")
    text = re.sub(r"(?<!\w)\*(\S(?:.*?\S)?)\*(?!\w)", r"\1", text)
    return html.unescape(" ".join(text.split()))


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [cell_text(c) for c in re.split(r"(?<!\\)\|", inner)]


def table_blocks(lines: Sequence[str]) -> list[tuple[int, int]]:
    """The first and last line of each pipe table in *lines*, outside code fences and ``<details>``
    (the provenance appendix is the figures' record, not a table of the article)."""
    out: list[tuple[int, int]] = []
    fence = details = False
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = fence != line.startswith("```")
        details = (details or line.startswith("<details")) and not line.startswith("</details>")
        if (
            not fence
            and not details
            and _ROW.match(line)
            and i + 1 < len(lines)
            and _DELIMITER.match(lines[i + 1])
        ):
            end = i + 1
            while end + 1 < len(lines) and _ROW.match(lines[end + 1]):
                end += 1
            out.append((i, end))
            i = end
        i += 1
    return out


def derived_tables(markdown: str, uses: Sequence[Any]) -> list[DerivedTable]:
    """Every table of a rendered article whose rows print figures (*uses*: the article's
    ``FigureUse``s, each with its ``out_line``, from 1), in order, with the entry IDs of each row."""
    lines = markdown.split("\n")
    by_line: dict[int, set[str]] = {}
    for u in uses:
        ids = by_line.setdefault(u.out_line - 1, set())
        ids.update(r.result_id for r in u.figure.entries)
    out: list[DerivedTable] = []
    for start, end in table_blocks(lines):
        body = range(start + 2, end + 1)
        if not any(i in by_line for i in body):
            continue
        header = (*_cells(lines[start]), "Entry IDs")
        rows = tuple(
            (*_cells(lines[i]), " ".join(sorted(by_line.get(i, ()), key=_entry_order))) for i in body
        )
        out.append(DerivedTable(len(out) + 1, end, _caption(lines, start), header, rows))
    return out


def _entry_order(rid: str) -> tuple[int, ...]:
    """``6.1-0052`` → ``(6, 1, 52)``: IDs in round, then number order."""
    return tuple(int(x) for x in re.findall(r"\d+", rid))


def _caption(lines: Sequence[str], start: int) -> str:
    """``Table 1`` when the paragraph right above the table is its caption (``*Table 1: ...*``)."""
    above = next((ln for ln in reversed(lines[:start]) if ln.strip()), "")
    m = _CAPTION.match(above.strip())
    return m.group(1) if m else ""
