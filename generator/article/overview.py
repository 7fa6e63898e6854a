"""``gpu-insights new ROUND --kind overview``: a round-overview article, every figure a placeholder.

The overview follows the shape of the MLCommons results analysis: submitters and
systems, benchmarks per suite and their popularity, the best per-accelerator change
since the previous compatible round, a per-accelerator series over the loaded rounds,
multi-node systems per round, the largest systems and heterogeneous submissions.
Every number is a placeholder; every sentence is written so that it stays true for
any round the data holds.
"""

from __future__ import annotations

import datetime as dt

from generator.data.manifest import Manifest, normalize_version
from generator.data.results import version_key
from generator.data.table import ResultsTable
from generator.errors import GpuInsightsError

#: the series benchmark, by preference: the longest-running LLM benchmarks first
SERIES_BENCHMARKS = ("llama2-70b-99.9", "llama2-70b-99", "llama3.1-8b", "gpt-oss-120b", "deepseek-r1")


def overview(table: ResultsTable, manifest: Manifest, version: str, *, today: dt.date | None = None) -> str:
    """The template text of an overview of round *version*."""
    v = normalize_version(version)
    rnd = manifest.round(v)
    if v not in table.rounds:
        raise GpuInsightsError(f"round v{v} is not loaded: pass --results DIR with a v{v}/ folder")
    earlier = [r for r in table.rounds if version_key(r) <= version_key(v)]
    prev = _previous(manifest, table, v)
    date = max(today or dt.date.today(), rnd.published + dt.timedelta(days=14))
    parts = [
        _front(v, earlier, date),
        _submitters(),
        _benchmarks(),
        _gains(v, prev) if prev else "",
        _series(table, v),
        _scale(),
        _closing(),
    ]
    return "\n".join(p for p in parts if p)


def _previous(manifest: Manifest, table: ResultsTable, v: str) -> str | None:
    rnd = manifest.rounds.get(v)
    candidates = [r for r in (rnd.compatible_with if rnd else ()) if r in table.rounds]
    return max(candidates, key=version_key) if candidates else None


def _front(v: str, rounds: list[str], date: dt.date) -> str:
    listed = ", ".join(f'"{r}"' for r in sorted(rounds, key=version_key, reverse=True))
    return f"""---
title: "MLPerf® Inference v{v}: a round overview"
description: Submitters, systems, benchmarks, per-accelerator changes and scale in the official MLPerf® Inference v{v} results.
date: {date.isoformat()}
rounds: [{listed}]
---
{{%- set R = "{v}" -%}}
{{%- set everything = group(round=R, division=None, heterogeneous=True) -%}}
{{%- set closed_dc = group(round=R, suite="datacenter", heterogeneous=True) -%}}

# MLPerf® Inference v{{{{ R }}}}: a round overview

The official MLPerf® Inference v{{{{ R }}}} results were published on {{{{ round_date(R) }}}}. This overview counts what the official results file holds: who submitted, which benchmarks they ran, how the best per-accelerator results moved, and how large the submitted systems were. Per-accelerator values divide a system result by its accelerator count; they are derived metrics, not official results.{{{{ cite(R) }}}}
"""


def _submitters() -> str:
    return """## Submitters and submissions

{% set orgs = count(everything, distinct="organisation") -%}
{% set joint = names("submitter", everything, joint=True) -%}
In MLPerf® Inference v{{ R }}, {{ orgs }} organisations submitted results under {{ count(everything, distinct="submitter") }} submitter names: a joint submission, where organisations collaborated, has one name that joins its members, and this overview counts each member once (the list of submitters this site keeps maps names to organisations).{% if joint %} The joint submissions of this round are {{ joint | join(", ") }}.{% endif %}{{ cite(R) }}

Altogether, the MLPerf® Inference v{{ R }} results hold {{ count(everything, distinct="system") }} systems across the Datacenter and Edge suites, in both the Closed and Open divisions.{{ cite(R) }}

{% set unclassified = count(everything, kind="unclassified", distinct="organisation") -%}
| Kind of organisation | Organisations |
|---|--:|
{% for kind, label in [("chip", "Chip vendors"), ("oem", "System builders (OEM/ODM)"), ("cloud", "Cloud providers"), ("neocloud", "Neocloud providers"), ("software", "Software and other")] -%}
| {{ label }} | {{ count(everything, kind=kind, distinct="organisation") }} |
{% endfor -%}
{% if unclassified.names %}| Unclassified (not in the list of submitters this site keeps) | {{ unclassified }} |
{% endif -%}
| All organisations | {{ orgs }} |

*Table 1: organisations per kind in MLPerf® Inference v{{ R }}, as the list of submitters this site keeps classifies them (each member of a joint submission counts once, under its own kind{% if unclassified.names %}; unclassified: {{ unclassified.names | join(", ") }}{% endif %}).*{{ cite(R) }}
"""


def _benchmarks() -> str:
    return """## Benchmarks

{% set dc = count(round=R, suite="datacenter", division=None, heterogeneous=True, distinct="model") -%}
{% set edge = count(round=R, suite="edge", division=None, heterogeneous=True, distinct="model") -%}
The MLPerf® Inference v{{ R }} results cover {{ dc }} Datacenter and {{ edge }} Edge benchmarks, counting the accuracy variants of one model as one benchmark. Submitters choose which benchmarks to run, so the number of systems that ran each benchmark measures its popularity.{{ cite(R) }}

*Table 2: systems per benchmark, MLPerf® Inference v{{ R }} Datacenter suite, Closed and Open divisions.*{{ cite(R) }}

| Benchmark | Systems |
|---|--:|
{% for p in popular(round=R, suite="datacenter", division=None, heterogeneous=True) -%}
| {{ p.name }} | {{ p }} |
{% endfor %}
{% if edge.names %}*Table 3: systems per benchmark, MLPerf® Inference v{{ R }} Edge suite, Closed and Open divisions.*{{ cite(R) }}

| Benchmark | Systems |
|---|--:|
{% for p in popular(round=R, suite="edge", division=None, heterogeneous=True) -%}
| {{ p.name }} | {{ p }} |
{% endfor %}
{% endif -%}
{% set dc_top = popular(round=R, suite="datacenter", division=None, heterogeneous=True) -%}
In the Datacenter suite of MLPerf® Inference v{{ R }}, the benchmark that the most systems ran is {{ dc_top[0].name }} ({{ dc_top[0] }} systems){% if dc_top | length > 1 %}, followed by {{ dc_top[1].name }} ({{ dc_top[1] }} systems){% endif %}.{{ cite(R) }}
"""


def _gains(v: str, prev: str) -> str:
    return f"""## Per-accelerator results against MLPerf® Inference v{prev}

{{% set P = "{prev}" -%}}
{{% set moved = gains(round=R, since=P) -%}}
To gauge the change since the previous round, this section compares the best per-accelerator Closed Offline and Server results of MLPerf® Inference v{{{{ R }}}} with those of v{{{{ P }}}}, for every benchmark both rounds ran and the Compatibility Table lets one compare. The best rows of the two rounds are different systems, with different accelerator counts, categories and software; the change is a derived metric.{{{{ cite(R, P) }}}}

*Table 4: best per-GPU Closed result per benchmark and scenario, MLPerf® Inference v{{{{ R }}}} against v{{{{ P }}}} (GPU count, category and entry of each best row; all categories; rows with measured power compared only with rows with measured power). Derived metrics.*{{{{ cite(R, P) }}}}

| Benchmark | Scenario | v{{{{ R }}}} best per GPU | v{{{{ P }}}} best per GPU | Change |
|---|---|--:|--:|--:|
{{% for g in moved -%}}
| {{{{ g.benchmark }}}} | {{{{ g.scenario }}}} | {{{{ g.new }}}} (GPU count {{{{ g.new.gpus }}}}, {{{{ g.new.category }}}}, {{{{ g.new.entry }}}}) | {{{{ g.old }}}} (GPU count {{{{ g.old.gpus }}}}, {{{{ g.old.category }}}}, {{{{ g.old.entry }}}}) | {{{{ g }}}} |
{{% endfor %}}
{{% if moved %}}{{{{ chart("gains", moved) }}}}{{% endif %}}
"""


def _series(table: ResultsTable, v: str) -> str:
    rows = table.df[(table.df["round"] == v) & (table.df["scenario"] == "Server")]
    bench = next((b for b in SERIES_BENCHMARKS if b in set(rows["benchmark"])), None)
    if bench is None:
        return ""
    return f"""## {bench} over the loaded rounds

{{% set B = "{bench}" -%}}
{{% set s = series(B, "Server", until=R) -%}}
The median per-accelerator result of the Closed {{{{ B }}}} Server rows in each loaded round up to MLPerf® Inference v{{{{ R }}}} shows how per-device performance moves across rounds: {{% for p in s %}}{{{{ p }}}} in v{{{{ p.round }}}} (median of {{{{ p.count }}}} rows){{{{ "; " if not loop.last else "" }}}}{{% endfor %}}. Medians are derived metrics over different systems in each round.{{{{ cite() }}}}

{{{{ chart("trend", B, "Server", until=R) }}}}
"""


def _scale() -> str:
    return """## Scale and heterogeneous systems

{% set multi = count_by_round(min_nodes=2, distinct="system", division=None, heterogeneous=True, until=R) -%}
Systems of more than one node, per loaded round up to MLPerf® Inference v{{ R }}: {% for c in multi %}{{ c }} in v{{ c.round }}{{ "; " if not loop.last else "" }}{% endfor %}.{{ cite() }}

{{ chart("counts_by_round", multi, what="multi-node systems") }}

{% set big = largest(everything) -%}
The largest MLPerf® Inference v{{ R }} systems used {{ big }} accelerators: {% for x in big.rows %}entry {{ x.entry }} ({{ x.submitter }}, {{ x.nodes }} nodes){{ ", " if not loop.last else "" }}{% endfor %}.{{ cite(R) }}

{% set top_tokens = best(round=R, units="Tokens/s", division=None, heterogeneous=True, by="total") -%}
Among the MLPerf® Inference v{{ R }} results measured in tokens per second, the largest system result is {{ top_tokens }} tokens per second: {{ top_tokens.benchmark }} {{ top_tokens.scenario }}, {{ top_tokens.category }}, {{ top_tokens.gpus }} accelerators, entry {{ top_tokens.entry }} by {{ top_tokens.submitter }}.{{ cite(R) }}

{% set hybrid = group(round=R, division=None, heterogeneous="only") -%}
{% set hcount = count(everything, heterogeneous="only", distinct="system") -%}
Heterogeneous systems combine different types of accelerators in one system; MLPerf® Inference v{{ R }} holds {{ hcount }} of them.{% if hcount.names %} They are {% for x in systems(hybrid) %}entry {{ x.entry }} ({{ x.submitter }}: {{ x.accelerator }}){{ "; " if not loop.last else "" }}{% endfor %}.{% endif %}{{ cite(R) }}
"""


def _closing() -> str:
    return """## MLPerf® result footnotes and entry IDs

{{ footnotes() }}

{{ compliance() }}
"""
