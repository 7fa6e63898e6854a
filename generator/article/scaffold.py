"""``gpu-insights new ROUND``: a starter article for a round, every figure a placeholder."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from generator.data.manifest import Manifest, normalize_version
from generator.data.results import version_key
from generator.data.table import ResultsTable
from generator.errors import GpuInsightsError

SCENARIOS = ("Server", "Offline", "Interactive")


def llm_benchmarks(table: ResultsTable, manifest: Manifest, version: str) -> dict[str, list[str]]:
    """LLM benchmarks with Available Closed rows in *version*, and their scenarios."""
    out: dict[str, list[str]] = {}
    for key, rule in manifest.rules.benchmarks.items():
        if rule.kind != "llm":
            continue
        scen = [
            s
            for s in SCENARIOS
            if len(table.select(round=version, category="available", benchmark=key, scenario=s)) > 0
        ]
        if scen:
            out[key] = scen
    return out


def previous_round(manifest: Manifest, table: ResultsTable, version: str, benchmark: str) -> str | None:
    """The newest earlier loaded round whose Datacenter results of *benchmark* the Compatibility
    Table lets one compare with *version*'s, or ``None``."""
    candidates = [
        v
        for v in table.rounds
        if version_key(v) < version_key(version)
        and manifest.comparable(benchmark, "datacenter", v, version).ok is True
    ]
    return max(candidates, key=version_key) if candidates else None


def scaffold(table: ResultsTable, manifest: Manifest, version: str, *, today: dt.date | None = None) -> str:
    v = normalize_version(version)
    rnd = manifest.round(v)
    if v not in table.rounds:
        raise GpuInsightsError(f"round v{v} is not loaded: pass --results DIR with a v{v}/ folder")
    benches = llm_benchmarks(table, manifest, v)
    if not benches:
        raise GpuInsightsError(
            f'round v{v} has no Available Closed rows of an LLM benchmark (kind = "llm" in data/benchmarks.toml)'
        )
    date = max(today or dt.date.today(), rnd.published + dt.timedelta(days=14))
    prevs = {previous_round(manifest, table, v, b) for b in benches} - {None}
    rounds = [v, *sorted((p for p in prevs if p), key=version_key, reverse=True)]
    lines = [
        "---",
        f'title: "MLPerf® Inference v{v} per-GPU results: a first reading"',
        f"date: {date.isoformat()}",
        "rounds: [" + ", ".join(f'"{r}"' for r in rounds) + "]",
        "---",
        "",
        f"# MLPerf® Inference v{v} per-GPU results: a first reading",
        "",
        f"Per-GPU values below divide each official MLPerf® Inference v{v} Closed Datacenter system result",
        "by its total accelerator count; they are derived metrics, not official results.",
        "",
    ]
    for bench, scens in benches.items():
        name = manifest.rules.display_name(bench)
        fams = sorted(
            {
                f
                for s in scens
                for f in table.select(round=v, category="available", benchmark=bench, scenario=s)["family"]
                if f
            }
        )
        units = (
            str(table.select(round=v, benchmark=bench)["units"].iloc[0]).replace("/s", " per second").lower()
        )
        lines += [f"## {name}", ""]
        cols = ", ".join(f'["{bench}", "{s}"]' for s in scens)
        fam_list = ", ".join(f'"{f}"' for f in fams)
        median = f', median_of=["{bench}", "{scens[0]}"]'
        lines += [
            f'{{{{ best_table("{v}", [{cols}], [{fam_list}]{median}, caption="*Best Available Closed {name} row per accelerator family, MLPerf® Inference v{v} ({units} per GPU; GPU count and entry in each cell; median of the family beneath). Derived metrics.*") }}}}',
            "",
        ]
        prev = previous_round(manifest, table, v, bench)
        for s in scens:
            if (
                prev is None
                or table.select(round=prev, category="available", benchmark=bench, scenario=s).empty
            ):
                continue
            sel = {"category": "available", "benchmark": bench, "scenario": s}
            if set(table.select(round=v, **sel)["units"]) != set(table.select(round=prev, **sel)["units"]):
                continue  # results in other units (v5.1's llama3.1-8b Interactive: Queries/s) do not divide
            mixed = table.best(round=v, **sel).has_power != table.best(round=prev, **sel).has_power
            # power and performance submissions are not comparable (Compatibility Table)
            only, kind = (", has_power=False", "performance-only ") if mixed else ("", "")
            lines += [
                f'{{% set new = best("{bench}", "{s}", round="{v}", category="available"{only}) %}}',
                f'{{% set old = best("{bench}", "{s}", round="{prev}", category="available"{only}) %}}',
                f"In the {s} scenario, the best Available {kind}row of MLPerf® Inference v{v} delivers {{{{ new }}}} {units}",
                "per GPU ({{ new.submitter }}, {{ new.gpus }} {{ new.family }} GPUs, entry {{ new.entry }}); the best",
                f"Available {kind}row of v{prev} delivered {{{{ old }}}} ({{{{ old.submitter }}}}, {{{{ old.gpus }}}} {{{{ old.family }}}} GPUs,",
                "entry {{ old.entry }}): {{ ratio(new, old) }} across the two versions, with different systems.{{ cite() }}",
                "",
            ]
    lines += [
        "## MLPerf® result footnotes and entry IDs",
        "",
        "{{ footnotes() }}",
        "",
        "{{ compliance() }}",
        "",
    ]
    return "\n".join(lines)


def write_scaffold(path: Path, text: str, *, force: bool = False) -> None:
    if path.exists() and not force:
        raise GpuInsightsError(f"{path}: already exists; pass --force to overwrite it")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
