"""Reference pages generated from the code, so that they cannot drift from it."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

from generator.article.figures import Figure

#: Functions the renderer adds beside the library's (see ``Renderer._context``).
RENDER_FUNCTIONS: dict[str, str] = {
    "cite(*rounds)": "Footnote markers for the results printed since the previous marker in this paragraph "
    '(or, with rounds such as `cite("6.1", "6.0")`, for those rounds\' notes): `^[1][3]`, each a link to its note.',
    "footnotes()": "The numbered MLPerf® footnotes, generated from what the article cited "
    "(appended at the end when the template does not place them).",
    "compliance()": "The closing compliance paragraph: version, division, category, scenario and GPU count "
    "identified; retrieval after the two-week window.",
    "best_table(round, columns, families, *, category='available', division='closed', median_of=None, "
    "fallback_rounds=(), caption='', **filters)": "Markdown table of the best row per family and benchmark/scenario "
    "column, GPU count and entry in each cell, the family median beneath one column. `round`: the round; "
    "`columns`: `[[benchmark, scenario], ...]`; `families`: the rows; `category`, `division`: as in every "
    "selection; `median_of`: one `[benchmark, scenario]` column whose cells also show the family median; "
    "`fallback_rounds`: rounds to take a family's best row from when `round` has none (the cell names the round); "
    "`caption`: a line above the table (start it with *Table n:* so the checker finds its marker); "
    "`**filters`: any selection filter, applied to every cell. "
    'Example: `{{ best_table("6.1", [["gpt-oss-120b", "Server"]], ["B300", "MI355X"], gpus=8, '
    'caption="*Table 1: best 8-GPU rows.*") }}`.',
    "top_table(*args, n=10, by='per_gpu', columns=('entry', 'submitter', 'family', 'gpus', 'per_gpu', 'total'), "
    "caption='', **filters)": "The best `n` rows of a selection (`top(...)`) as a table, one row per result. "
    "`*args`, `by`, `**filters`: as `top`; `columns`: any of entry, submitter, system, family, gpus, nodes, "
    "per_gpu, total, category; `caption`: a line above the table. "
    'Example: `{{ top_table(group("deepseek-r1", "Server", round="6.1", kind="cloud"), n=5, by="total", '
    'caption="*Table 2: cloud submissions.*") }}`.',
    "holds(condition, message, erratum='')": "Assert a claim the prose makes; prints nothing. `condition`: a "
    "claim from `only(...)`, or any true/false expression (`count(a) > count(b)`, "
    '`first_round(...) == "6.1"`); `message`: the claim as the text states it; `erratum`: the published text '
    "that made a claim the data contradicts: instead of failing the build at this line, the claim and the rows "
    "that contradict it go to the article's Errata section (and a claim marked so that holds again fails). "
    'Example: `{{ holds(only(["GB300", "B300"], peers, above=threshold), "only GB300 and B300 clear 14,000", '
    'erratum="published text of October 5, 2026") }}`.',
    "chart(kind, ...)": "An offline Vega-Lite chart with an SVG fallback, a caption written as sentences with "
    "its footnote markers, and links under it to the figure as SVG and PNG (caption and footnote numbers "
    "included) and to its data as CSV (values as the page prints them, with their entry IDs). "
    "Every family has one colour and one point shape across the site (readable at 3:1 or more on the light "
    "and the dark theme); a tap on a mark shows its details under the chart. "
    'A peer group may stand for the benchmark, scenario and filters (`chart("trend", peers)`); '
    "`caption=` replaces the generated caption (and the chart's accessible description); "
    "every kind takes `title=`. "
    "Kinds: `per_gpu_by_family(benchmark, scenario, round=, families=, category='available' (None: any), gpus=)` "
    '(`round=["6.0", "6.1"]`: grouped bars, a group per family and a bar per round, the older outlined), '
    "`available_vs_preview(benchmark, scenario, round=)`, "
    "`cross_round(pairs=[[label, old_entry, new_entry], ...], benchmark, scenario)` (two rounds per pair, the "
    "older outlined), "
    "`trend(benchmark, scenario, stat='median', until=None, **filters)` (the `series(...)` as a line that "
    "breaks where the Compatibility Table does; `family=[...]`: one line per family on the same axes, not "
    "one pooled line), `gains(figures)` (the list `gains(...)` returns), "
    "`counts_by_round(figures, what=)` (the list `count_by_round(...)` returns). "
    'Example: `{{ chart("trend", "llama2-70b-99.9", "Server", gpus=8, family=["B200", "B300", "MI355X"]) }}`.',
    "meta": "The article's front matter (title, date, rounds, ...).",
    "sample": "True when the build uses the embedded sample instead of official files.",
}


#: what each parameter of the data functions means, where its docstring does not say it
PARAMETERS: dict[str, str] = {
    "entry": 'an entry ID (`"6.1-0052"`) or a figure of one row (`x`, `x.entry`)',
    "benchmark": 'a benchmark as the official file names it, or an alias (`"gpt-oss-120b"`, '
    '`"llama2-70b-99.9"`); `gpu-insights data --list benchmarks` lists them',
    "scenario": '`"Server"`, `"Offline"`, `"Interactive"`, `"SingleStream"` or `"MultiStream"` (any case)',
    "args": "`benchmark, scenario` (left out: any benchmark or scenario), or a peer group made by `group(...)`",
    "filters": 'any selection filter: `round`, `division` (default `"closed"`; `None`: both), `category`, '
    "`suite`, `benchmark`, `scenario`, `family`, `accelerator`, `system`, `entry`, `submitter`, `member` "
    "(an organisation, also inside joint submissions), `kind` (`cloud`, `neocloud`, `oem`, `chip`, `software`: "
    "data/submitters.toml), `gpus`, `nodes`, `units`, `has_power`, `min_gpus`, `max_gpus`, `min_nodes`, "
    "`max_nodes` (a value or a list of values), `heterogeneous` (`False` by default; `True`: include; "
    '`"only"`), and `exclude` (a dict of filters, a figure or a list of figures whose rows to leave out)',
    "digits": "decimals to print (default: by kind of figure)",
    "style": '`"x"` (`5.65×`), `"pct"`, `"money"`, `"plain"` or `"words"`',
    "by": '`"per_gpu"` (default: rank by per-GPU value), `"total"` (by system result, and return it) or '
    '`"gpus"` (by accelerator count)',
    "n": "how many (``rank``: the position, 1 being the best)",
    "a": "the numerator (a figure or a number)",
    "b": "the denominator (a figure or a number)",
    "new": "the newer value",
    "old": "the older value",
    "part": "the part",
    "whole": "the whole",
    "big": "the larger system's per-GPU value",
    "small": "the smaller system's per-GPU value",
    "candidate": "the candidate's throughput",
    "baseline": "the baseline's throughput",
    "baseline_price": "the baseline's hourly price (`price(...)`)",
    "price_per_hour": "an hourly GPU price (`price(...)`)",
    "per_gpu": "tokens per second per GPU",
    "utilization": "the share of the hour the GPU serves (`assumption(...)`)",
    "name": "the name of an entry in data/prices.toml",
    "key": "the bound in data/benchmarks.toml (`ttft_ms`, `tpot_ms`)",
    "text": "the number as the source prints it",
    "value": "the number",
    "why": "the reason the number is chosen (recorded in the provenance appendix)",
    "version": 'a round (`"6.1"`)',
    "which": '`"published"` (default) or `"retrieved"`',
    "distinct": "count distinct values instead of rows: `submitter`, `organisation`, `system` (result IDs), "
    "`entry`, `family`, `accelerator`, `benchmark`, `model` (accuracy variants merged), `scenario`, `round`",
    "expect": 'a dict of what the leader must be (`{"submitter": "Lambda"}`)',
    "values": "the values the claim allows (one or a list)",
    "attr": 'the row attribute the claim is about (`"family"`, `"submitter"`)',
    "above": "only rows above this value (a figure or a number) count",
    "stat": '`"median"` (default) or `"best"`',
    "until": "the last round to include (default: every loaded round)",
    "joint": "with `True`, only joint submissions; with `False`, none",
    "per": '`"model"` (default: accuracy variants merged) or `"benchmark"`',
    "what": "what to name or count, as `count(distinct=)` takes",
    "round": "the newer round",
    "since": "the older round",
    "scenarios": "the scenarios to compare",
    "order": '`"benchmark"` (default) or `"change"` (largest first)',
    "old_round": "the older round",
}

#: an example for each function whose docstring shows none
EXAMPLES: dict[str, str] = {
    "software": '`{{ software("6.1-0003", "gpt-oss-120b", "Server") }}` prints the stack field of the entry.',
    "pct_gap": "`{{ pct_gap(mi355, b300) }}` → `0.4%`.",
    "share": "`{{ share(part, whole) }}` → `76.3%`.",
    "scaling_efficiency": '`{{ scaling_efficiency(per_gpu("6.1-0073", "deepseek-r1", "Offline"), '
    'per_gpu("6.1-0074", "deepseek-r1", "Offline")) }}` → `99.5%`.',
    "median": '`{{ median("gpt-oss-120b", "Server", round="6.1", family="B300") }}` → `13,417`; '
    "`{{ median(peers).count }}` rows.",
    "spread": '`{{ spread("gpt-oss-120b", "Server", round="6.1", family="B300", gpus=8) }}` → `13.5%`.',
    "systems": '`{% for x in systems(round="6.1", heterogeneous="only", division=None) %}{{ x.entry }} '
    "{% endfor %}`.",
    "popular": '`{% for p in popular(round="6.1", suite="datacenter", division=None) %}{{ p.name }}: {{ p }} '
    "{% endfor %}` → `gpt-oss-120b: 54 …`.",
    "count_by_round": '`{% for c in count_by_round(min_nodes=2, distinct="system", division=None) %}{{ c }} in '
    "v{{ c.round }} {% endfor %}`.",
    "gains": '`{% for g in gains(round="6.1", since="6.0") %}{{ g.benchmark }} {{ g.scenario }}: {{ g }} '
    "{% endfor %}`.",
    "comparable": '`{% if comparable("6.0", "6.1", "gpt-oss-120b") %}…{% endif %}`.',
    "break_even_ratio": "`{{ break_even_ratio(b300, b200) }}` → `1.260`.",
    "break_even_price": '`{{ break_even_price(price("b200_hour"), b300, b200) }}` → `$6.30`.',
    "cost_per_million_tokens": '`{{ cost_per_million_tokens(price("b200_hour"), b200, assumption("utilization")) }}` '
    "→ `$0.246`.",
    "assumption": '`{{ assumption("utilization") }}` → `50%`.',
    "stated": '`{{ stated("2.5×", by="NVIDIA") }}` prints `2.5×` and records who stated it.',
    "constant": '`{{ constant(14000, "editorial threshold") }}` → `14,000`.',
    "round_date": '`{{ round_date("6.1", "retrieved") }}` → `October 2, 2026`.',
}


#: meanings that differ from the glossary for one function: (function, parameter) -> meaning
OWN_PARAMETERS: dict[tuple[str, str], str] = {
    ("stated", "by"): 'who states the number: the source\'s name, cited beside it (e.g. `"NVIDIA"`)',
    (
        "comparable",
        "suite",
    ): '`"datacenter"` (default) or `"edge"`: the Compatibility Table has a table per suite',
}


def parameters(fn: Callable[..., Any]) -> list[tuple[str, str]]:
    """``(parameter, meaning)`` of each parameter of *fn* (its own meaning, else the glossary)."""
    out = []
    for name in inspect.signature(fn).parameters:
        if name == "self":
            continue
        out.append((name, OWN_PARAMETERS.get((fn.__name__, name), PARAMETERS.get(name, ""))))
    return out


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
        if name in EXAMPLES:
            lines += [f"Example: {EXAMPLES[name]}", ""]
        params = parameters(fn)
        if params:
            lines += [
                f"- `{'**' if p == 'filters' else '*' if p == 'args' else ''}{p}`: {what}"
                for p, what in params
            ]
            lines.append("")
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
        "Styles: `x` (`5.65×`), `ascii_x` (`5.65x`), `pct` (`37.9%`), `money` (`$0.246`), `plain` (`1.260`), `words`",
        "(`eight`, for whole numbers up to ten). Figures from one row also offer `.entry` (printing it",
        "cites it), `.id` (the entry ID as text, for comparisons), `.total` (the system result, also",
        "`.result`), `.per_gpu`, `.power` (its measured MLPerf® power, where it has one), `.gpus`,",
        "`.nodes`, `.round`, `.benchmark`, `.scenario`, `.category`,",
        "`.submitter`, `.family`, `.accelerator` and `.system`; `rank()`/`best()` offer `.of` (rows",
        "ranked) and `.tied` (rows with the same value); `spread()` offers `.low`, `.high` and `.count`;",
        "`median()` offers `.count`; `count()` offers `.names`; `largest()` offers `.systems` and `.rows`;",
        "series points offer `.round`, `.breaks` and `.count` (rows behind a median). Figures compare with `<`, `>`, `<=`, `>=` (with",
        'figures or numbers), for claims: `{{ holds(orgs > count(round="6.0", distinct="organisation"),',
        '"the broadest field") }}`.',
        "",
    ]
    return "\n".join(lines)
