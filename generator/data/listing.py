"""The names a round's results use: benchmarks, families, submitters, scenarios, kinds.

``gpu-insights data --list WHAT`` prints them, and each round's data page lists them,
so that an author can find ``llama2-70b-99.9`` without guessing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from generator.data.manifest import SUBMITTER_KINDS, UNCLASSIFIED, normalize_version
from generator.data.table import ResultsTable
from generator.errors import LookupFailed

LISTS = ("benchmarks", "families", "submitters", "scenarios", "kinds")


def listing(table: ResultsTable, what: str, round: str | None = None) -> list[tuple[str, str]]:
    """``(name, details)`` of every name of *what* in the loaded rows (of one round)."""
    if what not in LISTS:
        raise LookupFailed(f"--list {what}: list one of {', '.join(LISTS)}")
    df = table.df
    if round is not None:
        v = normalize_version(round)
        if v not in table.rounds:
            raise LookupFailed(f"round v{v} is not loaded (loaded: {', '.join(table.rounds)})")
        df = table.of_round(v)
    subs = table.submitters
    out: list[tuple[str, str]] = []
    if what == "kinds":
        for kind, label in [*SUBMITTER_KINDS.items(), (UNCLASSIFIED, "not in data/submitters.toml")]:
            names = sorted({str(s) for s in df["submitter"].unique() if f"|{kind}|" in subs.kind(str(s))})
            out.append((kind, f"{label}: {', '.join(names) or 'none'}"))
        return out
    col = {
        "benchmarks": "benchmark",
        "families": "family",
        "submitters": "submitter",
        "scenarios": "scenario",
    }[what]
    for name, g in _groups(df, col).items():
        if not name.strip():
            continue
        ids, rows = len(g.ids), g.rows
        if what == "benchmarks":
            scen = ", ".join(sorted(g.scenarios))
            suites = "/".join(sorted(g.suites))
            detail = f"{suites}; {scen}; {_n(rows, 'row')} from {_n(ids, 'system')}"
        elif what == "families":
            vendor = table.manifest.families.vendor(name) if table.manifest else ""
            detail = f"{vendor + '; ' if vendor else ''}{_n(rows, 'row')} from {_n(ids, 'system')}"
        elif what == "submitters":
            kinds = "+".join(subs.kinds(name)) or "unclassified"
            orgs = subs.organisations(name)
            joint = (
                f"; joint: {', '.join(orgs)}"
                if len(orgs) > 1
                else (f"; {orgs[0]}" if orgs[0] != name else "")
            )
            detail = f"{kinds}{joint}; {_n(ids, 'system')}"
        else:
            detail = f"{_n(len(g.benchmarks), 'benchmark')}; {_n(rows, 'row')}"
        out.append((name, detail))
    if what == "families":
        out += _unclassified_accelerators(table, df)
    return sorted(out, key=lambda x: x[0].lower())


def _unclassified_accelerators(table: ResultsTable, df: pd.DataFrame) -> list[tuple[str, str]]:
    """The accelerators no family of data/accelerators.toml names (CPU-only rows aside), as one
    ``unclassified`` line: counted, never left out of the list."""
    fm = table.manifest.families if table.manifest else None
    rows = df[(df["family"] == "") & ~df["accelerator"].map(lambda a: fm is None or fm.is_cpu_only(str(a)))]
    if rows.empty:
        return []
    names = ", ".join(sorted({str(a) for a in rows["accelerator"]}))
    systems = _n(rows["result_id"].nunique(), "system")
    return [(UNCLASSIFIED, f"not in data/accelerators.toml: {names}; {_n(len(rows), 'row')} from {systems}")]


@dataclass
class _Group:
    """What a listing says of one name: its rows, systems, scenarios, suites and benchmarks."""

    rows: int = 0
    ids: set[str] = field(default_factory=set)
    scenarios: set[str] = field(default_factory=set)
    suites: set[str] = field(default_factory=set)
    benchmarks: set[str] = field(default_factory=set)


def _groups(df: pd.DataFrame, col: str) -> dict[str, _Group]:
    """The rows of *df* grouped by *col*, in plain Python (a pandas group costs about a millisecond)."""
    out: dict[str, _Group] = {}
    columns = [df[c].tolist() for c in (col, "result_id", "scenario", "suite", "benchmark")]
    for name, rid, scen, suite, bench in zip(*columns, strict=True):
        if not isinstance(name, str):  # a missing value: no group (as in pandas' groupby)
            continue
        g = out.get(name)
        if g is None:
            g = out[name] = _Group()
        g.rows += 1
        g.ids.add(str(rid))
        g.scenarios.add(str(scen))
        g.suites.add(str(suite))
        g.benchmarks.add(str(bench))
    return out


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def listing_text(table: ResultsTable, what: str, round: str | None = None) -> str:
    rows = listing(table, what, round)
    width = max((len(n) for n, _ in rows), default=0)
    return "".join(f"{n.ljust(width)}  {d}\n" for n, d in rows)


def listing_markdown(table: ResultsTable, round: str) -> list[str]:
    """Markdown sections naming the benchmarks, families, submitters and scenarios of a round."""
    from generator.article.escape import md

    lines: list[str] = []
    for what in ("benchmarks", "families", "submitters", "scenarios"):
        rows = listing(table, what, round)
        lines += [
            f"## {what.capitalize()}",
            "",
            f"| {what[:-1].capitalize() if what != 'families' else 'Family'} | Details |",
            "|---|---|",
        ]
        lines += [f"| {md(n)} | {md(d)} |" for n, d in rows]
        lines.append("")
    return lines
