"""Compare two builds: which published figures and table rows changed.

A build's ledger (``figures.json``) lists every printed figure with its article,
template line, text, value, formula and entries. Figures are matched by
(article, line, n-th figure on that line); tables by their caption or header and
the first cell of each row (``sources/<slug>.md`` holds the rendered Markdown).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.article.escape import md
from generator.data.manifest import read_json
from generator.errors import GpuInsightsError

Key = tuple[str, int, int]


@dataclass
class ArticleDiff:
    changed: list[tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    added: list[dict[str, Any]] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)
    table_rows: list[tuple[str, str, str, str]] = field(default_factory=list)  # table, row, old, new

    def empty(self) -> bool:
        return not (self.changed or self.added or self.removed or self.table_rows)


@dataclass
class Diff:
    articles: dict[str, ArticleDiff]

    def empty(self) -> bool:
        return all(a.empty() for a in self.articles.values())


def load_ledger(path: Path) -> tuple[list[dict[str, Any]], Path | None]:
    """A ledger from ``figures.json`` or a site folder holding one; also its sources folder."""
    p = Path(path)
    f = p / "figures.json" if p.is_dir() else p
    if not f.is_file():
        raise GpuInsightsError(f"{p}: no figures.json (give a built site folder or its figures.json)")
    data = read_json(f, GpuInsightsError)
    if not isinstance(data, list):
        raise GpuInsightsError(f"{f}: expected a list of figures")
    for i, row in enumerate(data):
        problem = _row_problem(row)
        if problem:
            raise GpuInsightsError(f"{f}: figure {i}: {problem} (is this a gpu-insights figures.json?)")
    sources = f.parent / "sources"
    return data, sources if sources.is_dir() else None


_FIELDS: dict[str, tuple[type, ...]] = {
    "article": (str,),
    "file": (str,),
    "line": (int,),
    "text": (str,),
    "value": (int, float, type(None)),
    "entries": (list,),
}


def _row_problem(row: object) -> str:
    """What is wrong with one ledger row, or an empty string."""
    if not isinstance(row, dict):
        return f"expected an object, got {type(row).__name__}"
    for key, types in _FIELDS.items():
        if key not in row:
            return f"missing {key!r}"
        if not isinstance(row[key], types) or isinstance(row[key], bool):
            return f"{key!r} is {type(row[key]).__name__}, not {' or '.join(t.__name__ for t in types)}"
    for e in row["entries"]:
        if not isinstance(e, dict) or any(
            not isinstance(e.get(k), str) for k in ("round", "id", "benchmark", "scenario")
        ):
            return "an entry lacks round, id, benchmark or scenario"
    return ""


def _keyed(ledger: list[dict[str, Any]]) -> dict[Key, dict[str, Any]]:
    out: dict[Key, dict[str, Any]] = {}
    seen: dict[tuple[str, int], int] = {}
    for row in ledger:
        k = (str(row["article"]), int(row["line"]))
        n = seen.get(k, 0)
        seen[k] = n + 1
        out[(k[0], k[1], n)] = row
    return out


def _entries(row: dict[str, Any]) -> list[tuple[str, ...]]:
    return sorted(
        tuple(str(e[k]) for k in ("round", "id", "benchmark", "scenario")) for e in row.get("entries", [])
    )


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    va, vb = a.get("value"), b.get("value")
    same_value = va == vb or (
        isinstance(va, float) and isinstance(vb, float) and math.isclose(va, vb, rel_tol=1e-12)
    )
    return a.get("text") == b.get("text") and same_value and _entries(a) == _entries(b)


def tables_of(markdown: str) -> dict[str, dict[str, str]]:
    """Tables of a rendered article: name (caption or header) → first cell → row line."""
    tables: dict[str, dict[str, str]] = {}
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        if (
            lines[i].startswith("|")
            and i + 1 < len(lines)
            and set(lines[i + 1].replace("|", "").strip()) <= set("-: ")
        ):
            name = lines[i]
            j = i - 1
            while j >= 0 and not lines[j].strip():
                j -= 1
            if j >= 0 and lines[j].startswith("*"):
                name = lines[j].split("*")[1] if lines[j].count("*") >= 2 else lines[j]
            if "Provenance" in name or name.startswith("| Line | Figure"):
                i += 2
                continue
            rows: dict[str, str] = {}
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                first = lines[i].strip("|").split("|")[0].strip()
                rows[first] = lines[i]
                i += 1
            tables[name] = rows
        else:
            i += 1
    return tables


def diff_builds(old: Path, new: Path) -> Diff:
    old_ledger, old_src = load_ledger(old)
    new_ledger, new_src = load_ledger(new)
    return diff_ledgers(old_ledger, new_ledger, old_src, new_src)


def diff_ledgers(
    old: list[dict[str, Any]],
    new: list[dict[str, Any]],
    old_sources: Path | None = None,
    new_sources: Path | None = None,
) -> Diff:
    a, b = _keyed(old), _keyed(new)
    articles: dict[str, ArticleDiff] = {}

    def art(name: str) -> ArticleDiff:
        return articles.setdefault(name, ArticleDiff())

    for k in sorted(set(a) | set(b)):
        if k in a and k in b:
            if not _same(a[k], b[k]):
                art(k[0]).changed.append((a[k], b[k]))
        elif k in b:
            art(k[0]).added.append(b[k])
        else:
            art(k[0]).removed.append(a[k])
    if old_sources and new_sources:
        names = {p.stem for p in old_sources.glob("*.md")} | {p.stem for p in new_sources.glob("*.md")}
        for slug in sorted(names):
            ta = tables_of(_source_text(old_sources / f"{slug}.md"))
            tb = tables_of(_source_text(new_sources / f"{slug}.md"))
            for t in sorted(set(ta) | set(tb)):
                ra, rb = ta.get(t, {}), tb.get(t, {})
                for r in sorted(set(ra) | set(rb)):
                    if ra.get(r) != rb.get(r):
                        art(slug).table_rows.append((t, r, ra.get(r, ""), rb.get(r, "")))
    return Diff(dict(sorted(articles.items())))


def _source_text(path: Path) -> str:
    """A build's rendered article (``sources/<slug>.md``); absent: empty."""
    if not path.exists():
        return ""
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GpuInsightsError(f"{path}: not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    except OSError as exc:
        raise GpuInsightsError(f"{path}: cannot read it: {exc.strerror or exc}") from None


def _ids(row: dict[str, Any]) -> str:
    return ", ".join(sorted({str(e["id"]) for e in row.get("entries", [])})) or "—"


def format_text(d: Diff) -> str:
    if d.empty():
        return "no figures changed\n"
    out = []
    for name, a in d.articles.items():
        if a.empty():
            continue
        out.append(
            f"{name}: {len(a.changed)} changed, {len(a.added)} added, {len(a.removed)} removed, "
            f"{len(a.table_rows)} table rows changed"
        )
        for old, new in a.changed:
            what = "value" if old.get("text") != new.get("text") else "entries"
            out.append(
                f"  ~ {new['file']}:{new['line']}: {old['text']} -> {new['text']} ({what}; entries {_ids(old)} -> {_ids(new)})"
            )
        for row in a.added:
            out.append(f"  + {row['file']}:{row['line']}: {row['text']} (entries {_ids(row)})")
        for row in a.removed:
            out.append(f"  - {row['file']}:{row['line']}: {row['text']} (entries {_ids(row)})")
        for table, first, old_row, new_row in a.table_rows:
            out.append(f"  table {table!r} row {first!r}:")
            out.append(f"    - {old_row or '(none)'}")
            out.append(f"    + {new_row or '(none)'}")
    return "\n".join(out) + "\n"


def format_markdown(d: Diff, title: str = "Changes since the baseline build") -> str:
    """The changes page: every name, printed figure, entry ID and table row from either build's
    ledger or sources is text (:func:`md`), never markup: a baseline is read from a folder
    anybody may have written to."""
    lines = [f"# {md(title)}", ""]
    if d.empty():
        return "\n".join(lines + ["No published figure changed.", ""])
    for name, a in d.articles.items():
        if a.empty():
            continue
        lines += [
            f"## {md(name)}",
            "",
            f"{len(a.changed)} changed, {len(a.added)} added, {len(a.removed)} removed, "
            f"{len(a.table_rows)} table rows changed.",
            "",
        ]
        if a.changed or a.added or a.removed:
            lines += ["| Line | Before | After | Entries before | Entries after |", "|--:|--:|--:|---|---|"]
            for old, new in a.changed:
                lines.append(
                    f"| {_cell(new['line'])} | {_cell(old['text'])} | {_cell(new['text'])} | "
                    f"{_cell(_ids(old))} | {_cell(_ids(new))} |"
                )
            for row in a.added:
                lines.append(f"| {_cell(row['line'])} | — | {_cell(row['text'])} | — | {_cell(_ids(row))} |")
            for row in a.removed:
                lines.append(f"| {_cell(row['line'])} | {_cell(row['text'])} | — | {_cell(_ids(row))} | — |")
            lines.append("")
        for table, first, _, new_row in a.table_rows:
            lines.append(
                f"- Table *{md(table.strip('*'))}*, row **{md(first)}** changed"
                + ("" if new_row else " (removed)")
            )
        lines.append("")
    return "\n".join(lines)


def _cell(value: object) -> str:
    """A value of a ledger row as the text of a table cell."""
    return md(str(value))
