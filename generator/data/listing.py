"""The names a round's results use: benchmarks, families, submitters, scenarios, kinds.

``gpu-insights data --list WHAT`` prints them, and each round's data page lists them,
so that an author can find ``llama2-70b-99.9`` without guessing.
"""

from __future__ import annotations

from generator.data.manifest import SUBMITTER_KINDS, normalize_version
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
        for kind, label in SUBMITTER_KINDS.items():
            names = sorted({str(s) for s in df["submitter"].unique() if kind in subs.kinds(str(s))})
            out.append((kind, f"{label}: {', '.join(names) or 'none'}"))
        return out
    col = {
        "benchmarks": "benchmark",
        "families": "family",
        "submitters": "submitter",
        "scenarios": "scenario",
    }[what]
    for name, rows in df.groupby(col, sort=False):
        name = str(name)
        if not name.strip():
            continue
        ids = rows["result_id"].nunique()
        if what == "benchmarks":
            scen = ", ".join(sorted(rows["scenario"].unique()))
            suites = "/".join(sorted(rows["suite"].unique()))
            detail = f"{suites}; {scen}; {_n(len(rows), 'row')} from {_n(ids, 'system')}"
        elif what == "families":
            vendor = table.manifest.families.vendor(name) if table.manifest else ""
            detail = f"{vendor + '; ' if vendor else ''}{_n(len(rows), 'row')} from {_n(ids, 'system')}"
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
            detail = f"{_n(rows['benchmark'].nunique(), 'benchmark')}; {_n(len(rows), 'row')}"
        out.append((name, detail))
    return sorted(out, key=lambda x: x[0].lower())


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
