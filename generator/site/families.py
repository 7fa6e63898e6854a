"""A page per accelerator family: its rows in every round loaded, and the articles citing it.

``families/<slug>.md`` lists every official result whose accelerators are of the family
(``data/accelerators.toml``), newest round first, one table per division and suite; search
lands on it (an entry ID, a family name, a submitter). ``families/index.md`` lists the families.
A system of several families (``MI325X+MI300X``) is a family of its own, with its own page.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

from generator.article.escape import md
from generator.article.footnotes import SUITE_NAMES, scenario_key
from generator.data.results import version_key

if TYPE_CHECKING:
    from generator.article.render import Rendered
    from generator.data.manifest import Manifest
    from generator.data.table import ResultsTable

#: the columns of a family's table of one benchmark and scenario (five: a phone shows them without
#: scrolling sideways; the benchmark, scenario and units are in the table's heading)
HEADER = "| Entry | Submitter | GPUs | Result | Per GPU |"
ALIGN = "|---|---|--:|--:|--:|"


def family_slug(family: str) -> str:
    """A family's page name: ``RTX PRO 6000`` → ``rtx-pro-6000``, ``MI325X+MI300X`` → ``mi325x-mi300x``."""
    return re.sub(r"[^a-z0-9]+", "-", family.lower()).strip("-") or "family"


def families_of(table: ResultsTable) -> list[str]:
    """The families with rows in *table* (CPU-only rows have none), by name."""
    return sorted({str(f) for f in table.df["family"].tolist() if isinstance(f, str) and f}, key=str.lower)


def citing(rendered: Iterable[Rendered]) -> dict[str, list[Rendered]]:
    """The articles citing a row of each family (through any figure they print)."""
    out: dict[str, list[Rendered]] = {}
    for r in rendered:
        fams = {row.family for u in r.uses for row in u.figure.entries if row.family}
        for f in fams:
            out.setdefault(f, []).append(r)
    return out


def _count(n: int, noun: str) -> str:
    """``1`` → ``1 submitter``, ``14`` → ``14 submitters``."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _value(v: Any) -> str:
    """A result as the site prints one: ``14210.6`` → ``14,211``, ``0.23`` → ``0.23``; none → ``—``."""
    if not isinstance(v, int | float) or math.isnan(v):
        return "—"
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:,.2f}"


Record = dict[str, Any]


def _rows(recs: list[Record]) -> list[str]:
    """One table line per row, the highest per-GPU value first (a category other than Available
    said under the entry)."""
    ordered = sorted(
        recs,
        key=lambda x: (
            -_or(x["per_accelerator"], -math.inf),
            -_or(x["result"], -math.inf),
            str(x["result_id"]),
        ),
    )
    lines = []
    for x in ordered:
        gpus = x["total_accelerators"]
        per = x["per_accelerator"] if not x["heterogeneous"] else float("nan")
        category = str(x["category"])
        entry = f'<span class="gi-id">{md(str(x["result_id"]))}</span>'
        if category != "available":
            entry += (
                f' <span class="gi-sub">{md(category.capitalize() if category != "rdi" else "RDI")}</span>'
            )
        cells = [
            entry,
            md(str(x["submitter"])),
            f"{int(gpus):,}" if gpus == gpus else "—",
            _value(x["result"]),
            _value(per),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _or(v: Any, default: float) -> float:
    return float(v) if isinstance(v, int | float) and v == v else default


def _grouped(recs: list[Record], *keys: str) -> dict[tuple[str, ...], list[Record]]:
    """*recs* by the values of *keys*, in first-seen order (in plain Python: a pandas selection
    per table cost 6 s for the official results' 29 families)."""
    out: dict[tuple[str, ...], list[Record]] = {}
    for x in recs:
        out.setdefault(tuple(str(x[k]) for k in keys), []).append(x)
    return out


def _tables(recs: list[Record], anchor: str) -> list[str]:
    """One table per benchmark and scenario of *recs* (one round, division and suite), its heading
    naming them and the units, its anchor stable: made of the names, *anchor* first (the round,
    division and suite), not of a count (``v6-1-closed-datacenter-gpt-oss-120b-server``)."""
    out: list[str] = []
    groups = _grouped(recs, "benchmark", "scenario")
    for bench, scen in sorted(groups, key=lambda k: (k[0].lower(), scenario_key(k[1]))):
        part = groups[(bench, scen)]
        units = ", ".join(md(u) for u in sorted({str(x["units"]) for x in part}))
        slug = re.sub(r"[^a-z0-9]+", "-", f"{anchor} {bench} {scen}".lower()).strip("-")
        out += ["", f"#### {md(bench)} {md(scen)} ({units}) {{#{slug}}}", "", HEADER, ALIGN, *_rows(part)]
    return out


def family_sections(family: str, table: ResultsTable, manifest: Manifest, publisher: str) -> list[str]:
    """A family page's text up to its articles: what it lists, then its rows in each round loaded
    (newest first), one table per division and suite."""
    df = table.df
    recs = cast(list[Record], df[df["family"] == family].to_dict("records"))
    vendor = manifest.families.vendor(family) if "+" not in family else ""
    by_round = _grouped(recs, "round")
    rounds = sorted((v for (v,) in by_round), key=version_key, reverse=True)
    who = f"{md(vendor)} " if vendor else ""
    systems = len({x["result_id"] for x in recs})
    submitters = len({x["submitter"] for x in recs})
    lines = [
        f"# {md(family)} in MLPerf® Inference",
        "",
        f"Every official MLPerf® Inference result of {who}{md(family)} systems in the rounds this site "
        f"loaded ({', '.join(f'[v{v}](../rounds/v{v}.md)' for v in rounds)}): {_count(len(recs), 'result')} of "
        f"{_count(systems, 'system')} from {_count(submitters, 'submitter')}, newest round first.",
        "",
        "Per-GPU values divide a system's result by its accelerators: they are derived metrics "
        f"computed by {md(publisher)}, not official MLPerf® results, and are given for systems of one "
        "family only. Latency results are not divided. Results not verified by MLCommons Association.",
    ]
    for v in rounds:
        lines += ["", f"## v{v}"]
        parts = _grouped(by_round[(v,)], "division", "suite")
        for division, suite in sorted(parts):
            title = f"{division.capitalize()} {SUITE_NAMES.get(suite, suite.capitalize())}"
            lines += ["", f"### {md(title)}, v{v}", *_tables(parts[(division, suite)], f"v{v} {title}")]
    return lines


def families_index(table: ResultsTable, manifest: Manifest, cited: dict[str, list[Rendered]]) -> str:
    """Every family with rows in the results: its vendor, rounds, results, systems and articles."""
    lines = [
        "# Accelerator families",
        "",
        "The accelerator families of the official MLPerf® Inference results this site loaded, each "
        "with a page listing its results in every round (systems without accelerators are not listed).",
        "",
        "| Family | Vendor | Rounds | Results | Systems | Articles |",
        "|---|---|---|--:|--:|--:|",
    ]
    df = table.df
    for fam in families_of(table):
        mine = df[df["family"] == fam]
        rounds = ", ".join(
            f"v{v}" for v in sorted(set(mine["round"].tolist()), key=version_key, reverse=True)
        )
        vendor = manifest.families.vendor(fam) if "+" not in fam else "several"
        lines.append(
            f"| [{md(fam)}]({family_slug(fam)}.md) | {md(vendor)} | {rounds} | {len(mine):,} | "
            f"{mine['result_id'].nunique():,} | {len(cited.get(fam, [])):,} |"
        )
    return "\n".join(lines) + "\n"
