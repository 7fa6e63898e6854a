"""Rendering templates: placeholders, formatting, markers and errors with file and line."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from generator.article.figures import LISTED_ROWS, Figure, rows_text
from generator.article.functions import Library, Prices
from generator.article.render import Renderer, load_article
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable
from generator.errors import TemplateError

from .conftest import CHECK_ROWS, ROOT, tiny_row, write_results


def render(tmp_path: Path, table: ResultsTable, manifest: Manifest, body: str, meta: str = "") -> str:
    path = tmp_path / "article.md"
    path.write_text(f"---\ntitle: T\n{meta}---\n{body}", encoding="utf-8")
    lib = Library(table, manifest, Prices.load(ROOT / "data" / "prices.toml"))
    return Renderer(lib).render(load_article(path)).markdown


def render_error(tmp_path: Path, table: ResultsTable, manifest: Manifest, body: str) -> str:
    with pytest.raises(TemplateError) as exc:
        render(tmp_path, table, manifest, body)
    return exc.value.message


@pytest.mark.parametrize(
    ("figure", "text"),
    [
        (Figure(14210.625, "per_gpu"), "14,211"),
        (Figure(13604.5, "per_gpu"), "13,604"),
        (Figure(5.6535, "ratio"), "5.65×"),
        (Figure(1.26026, "ratio", style="plain", digits=3), "1.260"),
        (Figure(37.87, "pct"), "37.9%"),
        (Figure(-2.94, "pct"), "\u22122.9%"),
        (Figure(-0.04, "pct"), "0.0%"),
        (Figure(-1234.5, "per_gpu"), "\u22121,234"),
        (Figure(0.24637, "cost"), "$0.246"),
        (Figure(5749440.0, "result").fmt(digits=2, scale=1e6), "5.75"),
        (Figure(8.0, "count").fmt(style="words"), "eight"),
        (Figure(3000.0, "rule", unit="ms"), "3,000 ms"),
        (Figure(1234.5, "per_gpu").fmt(sep=False, digits=1), "1234.5"),
    ],
)
def test_figure_formatting(figure: Figure, text: str) -> None:
    assert str(figure) == text


def test_placeholders_render_values_markers_and_footnotes(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    out = render(
        tmp_path,
        tiny,
        manifest,
        'B300 {{ per_gpu("6.1-0001", "gpt-oss-120b", "Server") }} vs B200 '
        '{{ per_gpu("6.1-0002", "gpt-oss-120b", "Server") }}: '
        '{{ ratio(per_gpu("6.1-0001", "gpt-oss-120b", "Server"), per_gpu("6.1-0002", "gpt-oss-120b", "Server")) }}.{{ cite() }}\n',
    )
    first = out.splitlines()[0]
    assert first == "B300 10,000 vs B200 7,500: 1.33×.[^\\[1\\]](#mlperf-fn-1)"
    assert (
        '1. <a id="mlperf-fn-1"></a>MLPerf® Inference v6.1 Closed Datacenter; gpt-oss-120b (Server). '
        "Retrieved from https://mlcommons.org/benchmarks/inference-datacenter/ (official results "
        "repository, summary\\_results.json) on 2 October 2026; entries 6.1-0001, 6.1-0002. Per-GPU values and "
        "ratios are derived metrics computed by GPU Insights and are not official MLPerf® metrics. "
        "Result not verified by MLCommons Association."
    ) in out


def test_selections_best_median_spread_count(tmp_path: Path, tiny: ResultsTable, manifest: Manifest) -> None:
    out = render(
        tmp_path,
        tiny,
        manifest,
        '{% set b = best("gpt-oss-120b", "Server", round="6.1", category="available") %}'
        "{{ b }} {{ b.entry }} {{ b.gpus }} {{ b.category }} "
        '{{ median("gpt-oss-120b", "Server", round="6.1", category="available") }} '
        '{% set s = spread("gpt-oss-120b", "Server", round="6.1", category="available") %}'
        "{{ s }} {{ s.low }}-{{ s.high }} of {{ s.count }} "
        '{{ count("gpt-oss-120b", "Server", round="6.1") }}\n',
    )
    assert out.splitlines()[0] == "10,000 6.1-0001 8 Available 9,000 33.3% 7,500-10,000 of 3 4"


def test_money_and_scaling_functions(tmp_path: Path, tiny: ResultsTable, manifest: Manifest) -> None:
    out = render(
        tmp_path,
        tiny,
        manifest,
        '{% set a = per_gpu("6.1-0001", "gpt-oss-120b", "Server") %}'
        '{% set b = per_gpu("6.1-0002", "gpt-oss-120b", "Server") %}'
        '{{ break_even_ratio(a, b) }} {{ break_even_price(price("b200_hour"), a, b) }} '
        '{{ cost_per_million_tokens(price("b200_hour"), b, assumption("utilization")) }} '
        '{{ scaling_efficiency(per_gpu("6.1-0004", "gpt-oss-120b", "Server"), a) }} '
        '{{ pct_gap(b, a) }} {{ pct_change(b, a) }} {{ rule("gpt-oss-120b", "Server", "tpot_ms") }}\n',
    )
    assert out.splitlines()[0] == "1.333 $6.67 $0.370 71.1% 25.0% \u221225.0% 80 ms"


def test_unknown_entry_fails_with_file_and_line(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    msg = render_error(
        tmp_path, tiny, manifest, 'Line one.\n\n{{ per_gpu("6.1-0099", "gpt-oss-120b", "Server") }}\n'
    )
    assert msg.startswith(f"{tmp_path / 'article.md'}:6: entry 6.1-0099 is not in round v6.1 (")


def test_benchmark_the_entry_did_not_run(tmp_path: Path, tiny: ResultsTable, manifest: Manifest) -> None:
    msg = render_error(tmp_path, tiny, manifest, '{{ result("6.1-0002", "deepseek-r1", "Server") }}\n')
    assert msg == (
        f"{tmp_path / 'article.md'}:4: entry 6.1-0002 has no deepseek-r1 Server result; "
        "it ran: gpt-oss-120b (Server)"
    )


def test_ambiguous_lookup(tmp_path: Path, tiny: ResultsTable, manifest: Manifest) -> None:
    import pandas as pd

    first = tiny.df[tiny.df["result_id"] == "6.1-0001"].iloc[[0]]
    doubled = ResultsTable(pd.concat([tiny.df, first]), tiny.reports, manifest=manifest)
    msg = render_error(tmp_path, doubled, manifest, '{{ result("6.1-0001", "gpt-oss-120b", "Server") }}\n')
    assert msg == (
        f"{tmp_path / 'article.md'}:4: entry 6.1-0001 gpt-oss-120b Server is ambiguous: "
        "2 rows (index 0, index 0)"
    )


def test_undefined_name_and_syntax_error(tmp_path: Path, tiny: ResultsTable, manifest: Manifest) -> None:
    assert (
        render_error(tmp_path, tiny, manifest, "ok\n{{ nope }}\n")
        == f"{tmp_path / 'article.md'}:5: 'nope' is undefined"
    )
    assert render_error(tmp_path, tiny, manifest, "ok\n\n{{ per_gpu( }}\n") == (
        f"{tmp_path / 'article.md'}:6: unexpected '}}', expected ')'"
    )


def test_sandbox_refuses_unsafe_attributes(tmp_path: Path, tiny: ResultsTable, manifest: Manifest) -> None:
    msg = render_error(tmp_path, tiny, manifest, "{{ ''.__class__.__mro__ }}\n")
    assert msg.startswith(
        f"{tmp_path / 'article.md'}:4: access to attribute '__class__' of 'str' object is unsafe"
    )


def test_missing_round_page_says_how_to_get_it(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    path = tmp_path / "a.md"
    path.write_text('---\ntitle: Needs v5.1\nrounds: ["5.1", "6.1"]\n---\nx\n', encoding="utf-8")
    lib = Library(tiny, manifest, Prices.load(ROOT / "data" / "prices.toml"))
    r = Renderer(lib).render(load_article(path))
    assert r.missing == (
        "round(s) v5.1 not loaded; build with `gpu-insights build --results DIR` where DIR holds "
        "v5.1/, or run `gpu-insights fetch 5.1`"
    )


def test_figures_record_their_template_line(tmp_path: Path, tiny: ResultsTable, manifest: Manifest) -> None:
    path = tmp_path / "a.md"
    path.write_text(
        '---\ntitle: x\n---\nfirst\n\n{{ per_gpu("6.1-0001", "gpt-oss-120b", "Server") }}\n'
        '{% for e in ["6.1-0002", "6.1-0003"] %}\n{{ per_gpu(e, "gpt-oss-120b", "Server") }}\n{% endfor %}\n',
        encoding="utf-8",
    )
    lib = Library(tiny, manifest, Prices.load(ROOT / "data" / "prices.toml"))
    r = Renderer(lib).render(load_article(path))
    assert [(u.line, u.text) for u in r.uses] == [(6, "10,000"), (8, "7,500"), (8, "9,000")]


def test_a_figure_on_many_rows_is_traced_to_its_entries_each_named_once() -> None:
    def row(entry: str, scenario: str) -> SimpleNamespace:
        return SimpleNamespace(result_id=entry, benchmark="dlrm-v3", scenario=scenario)

    def label(r: SimpleNamespace) -> str:
        return f"{r.result_id} {r.benchmark} {r.scenario}"

    few = [row(f"6.1-{i:04d}", "Server") for i in range(LISTED_ROWS)]
    assert rows_text(few, label) == ", ".join(f"6.1-{i:04d} dlrm-v3 Server" for i in range(LISTED_ROWS))
    many = [row(f"6.1-{i:04d}", s) for i in (2, 1, 3, 4) for s in ("Offline", "Server", "Interactive")]
    many += [row("6.1-0001", "Offline")]  # a row cited twice counts once
    assert rows_text(many, label).startswith("6.1-0001 dlrm-v3 Interactive, 6.1-0001 dlrm-v3 Offline, ")
    many.append(row("6.1-0005", "Server"))
    assert rows_text(many, label) == "13 rows of 5 entries: 6.1-0001, 6.1-0002, 6.1-0003, 6.1-0004, 6.1-0005"


def test_rows_without_an_entry_id_stay_counted_when_a_figure_rests_on_many() -> None:
    """A round loaded from the checker's summary has no IDs: its rows are still accounted for."""
    rows = [SimpleNamespace(result_id="", benchmark="dlrm-v3", scenario=f"S{i}") for i in range(13)]
    rows.append(SimpleNamespace(result_id="6.1-0001", benchmark="dlrm-v3", scenario="Server"))

    def label(r: SimpleNamespace) -> str:
        return f"{r.result_id} {r.benchmark} {r.scenario}".strip()

    assert rows_text(rows[:13], label) == "13 rows, 13 without an entry ID"
    assert rows_text(rows, label) == "14 rows of 1 entry: 6.1-0001; 13 without an entry ID"


def test_comparisons_of_figures_compare_values(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    """``count(...) != 4`` held when the count was 4 (figures compared as objects, never equal)."""
    four = 'count("gpt-oss-120b", "Server", round="6.1")'
    holds = "".join(
        f'{{{{ holds({four} {op} {n}, "{op} {n}") }}}}'
        for op, n in (("==", 4), ("!=", 5), ("<", 5), ("<=", 4), (">", 3), (">=", 4))
    )
    assert render(tmp_path, tiny, manifest, holds + "Text.\n").splitlines()[0] == "Text."
    assert render(
        tmp_path, tiny, manifest, f"{{{{ {four} == 4.0 }}}} {{{{ {four} == {four} }}}}\n"
    ).startswith("True True")
    msg = render_error(tmp_path, tiny, manifest, f'Line one.\n\n{{{{ holds({four} != 4, "not four") }}}}\n')
    assert msg == f"{tmp_path / 'article.md'}:6: claim no longer holds: not four"
    msg = render_error(tmp_path, tiny, manifest, f'{{{{ holds({four} == 5, "five") }}}}\n')
    assert msg == f"{tmp_path / 'article.md'}:4: claim no longer holds: five"


def test_comparisons_of_figures_without_a_number_are_refused(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    e = 'entry("6.1-0001", "gpt-oss-120b", "Server")'
    msg = render_error(tmp_path, tiny, manifest, f'Text.\n{{{{ {e} == "6.1-0001" }}}}\n')
    assert msg == (
        f"{tmp_path / 'article.md'}:5: cannot compare an entry ID 6.1-0001 with str '6.1-0001' (compare .id, its text)"
    )
    msg = render_error(
        tmp_path, tiny, manifest, '{{ per_gpu("6.1-0001", "gpt-oss-120b", "Server") != "10,000" }}\n'
    )
    assert (
        msg
        == f"{tmp_path / 'article.md'}:4: cannot compare a figure with str '10,000': compare figures or numbers"
    )


WRONG_INPUTS = [
    (
        'scaling_efficiency(result("6.1-0004", G, "Server"), result("6.1-0001", G, "Server"))',
        "scaling_efficiency(): the first argument is a system total (result(6.1-0004 gpt-oss-120b Server)); "
        "it takes a per-GPU value (.per_gpu gives its per-GPU value)",
    ),
    (
        'scaling_efficiency(per_gpu("6.1-0001", G, "Server"), per_gpu("6.1-0004", G, "Server"))',
        "scaling_efficiency(): the first argument (8 accelerators) is the smaller system, the second has 72: "
        "pass the larger system first",
    ),
    (
        'scaling_efficiency(per_gpu("6.1-0004", G, "Server"), per_gpu("6.1-0001", G, "Offline"))',
        "scaling_efficiency(): the first argument is in Server and the second in Offline",
    ),
    (
        'ratio(result("6.1-0001", G, "Server"), per_gpu("6.1-0002", G, "Server"))',
        "ratio(): the first argument is a system total (result(6.1-0001 gpt-oss-120b Server)) and the second "
        "a per-GPU value (per_gpu(6.1-0002 gpt-oss-120b Server)): compare totals with totals or per-GPU values "
        "with per-GPU values (.total, .per_gpu)",
    ),
    (
        'pct_change(per_gpu("6.1-0007", "dlrm-v3", "Offline"), per_gpu("6.1-0001", G, "Offline"))',
        "pct_change(): the first argument is in Samples/s and the second in Tokens/s",
    ),
    (
        'pct_gap(per_gpu("6.1-0008", "deepseek-r1", "Server"), per_gpu("6.1-0001", G, "Server"))',
        "pct_gap(): the first argument is on deepseek-r1 and the second on gpt-oss-120b",
    ),
    (
        'share(count(G, "Server"), per_gpu("6.1-0001", G, "Server"))',
        "share(): the first argument is a count (rows in selection (benchmark=gpt-oss-120b, scenario=Server)) "
        "and the second a per-GPU value (per_gpu(6.1-0001 gpt-oss-120b Server)): compare like with like",
    ),
    (
        'ratio(entry("6.1-0001", G, "Server"), per_gpu("6.1-0001", G, "Server"))',
        "ratio(): the first argument is an entry ID (entry 6.1-0001), which has no value to compute with",
    ),
    (
        'ratio(per_gpu("6.1-0001", G, "Server"), constant(0, "nothing"))',
        "ratio(): the second argument is zero (a constant (0)): cannot divide by it",
    ),
    (
        'cost_per_million_tokens(price("b200_hour"), per_gpu("6.1-0007", "dlrm-v3", "Offline"), 0.5)',
        "cost_per_million_tokens(): the second argument is in Samples/s; it takes tokens/s per GPU",
    ),
    (
        'cost_per_million_tokens(price("b200_hour"), per_gpu("6.1-0001", G, "Server"), 50)',
        "cost_per_million_tokens(): the third argument (utilization) is 50; it takes a share between 0 and 1 "
        "(assumption(...))",
    ),
    (
        'cost_per_million_tokens(per_gpu("6.1-0002", G, "Server"), per_gpu("6.1-0001", G, "Server"), 0.5)',
        "cost_per_million_tokens(): the first argument is a per-GPU value (per_gpu(6.1-0002 gpt-oss-120b Server)); "
        "it takes a price per hour (price(...))",
    ),
    (
        'break_even_price(price("b200_hour"), result("6.1-0001", G, "Server"), per_gpu("6.1-0002", G, "Server"))',
        "break_even_price(): the second argument is a system total (result(6.1-0001 gpt-oss-120b Server)); "
        "it takes a per-GPU value (.per_gpu gives its per-GPU value)",
    ),
]


@pytest.mark.parametrize(("call", "message"), WRONG_INPUTS)
def test_functions_refuse_inputs_of_the_wrong_kind(
    tmp_path: Path, manifest: Manifest, call: str, message: str
) -> None:
    """``scaling_efficiency()`` of two system totals printed 374.5%; units, benchmarks and kinds were never checked."""
    rows = [*CHECK_ROWS, tiny_row("6.1-0008", "deepseek-r1", "Server", 24000.0)]
    table = ResultsTable.from_dir(write_results(tmp_path / "results", rows), manifest)
    body = f'Intro.\n{{% set G = "gpt-oss-120b" %}}\n{{{{ {call} }}}}\n'
    assert render_error(tmp_path, table, manifest, body) == f"{tmp_path / 'article.md'}:6: {message}"


@pytest.mark.parametrize(
    "above",
    [
        '- one: {{ per_gpu("6.1-0001", "gpt-oss-120b", "Server") }}\n'
        '- two: {{ per_gpu("6.1-0002", "gpt-oss-120b", "Server") }}\n',
        '| System | Per GPU |\n|---|--:|\n| one | {{ per_gpu("6.1-0001", "gpt-oss-120b", "Server") }} |\n',
    ],
    ids=["list", "table"],
)
def test_a_marker_in_the_paragraph_after_a_list_or_table_marks_it(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest, above: str
) -> None:
    out = render(tmp_path, tiny, manifest, f"{above}\n\nThese are derived values.{{{{ cite() }}}}\n")
    assert "These are derived values.[^\\[1\\]](#mlperf-fn-1)" in out


def test_a_marker_after_a_paragraph_with_figures_marks_only_its_own(
    tmp_path: Path, tiny: ResultsTable, manifest: Manifest
) -> None:
    body = (
        'v6.0 gives {{ per_gpu("6.0-0001", "gpt-oss-120b", "Server") }}.\n\n'
        'v6.1 gives {{ per_gpu("6.1-0001", "gpt-oss-120b", "Server") }}.{{ cite() }}\n'
    )
    out = render(tmp_path, tiny, manifest, body)
    first, second = out.split("\n\n")[:2]
    assert "mlperf-fn" not in first
    assert second.count("(#mlperf-fn-") == 1


def test_a_footnote_cites_the_page_of_its_suite(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """v6.1's source is one page per suite ("inference-{suite}" in data/rounds.toml): an Edge
    result's note names the Edge page, a Datacenter result's the Datacenter page."""
    out = render(
        tmp_path,
        official,
        manifest,
        '{{ result("6.1-0054", "yolo-95", "Offline") }} and {{ result("6.1-0052", "gpt-oss-120b", "Server") }}'
        ".{{ cite() }}\n\n{{ footnotes() }}\n",
    )
    sources = [
        line.split("Retrieved from ")[1].split(" ")[0] for line in out.splitlines() if "Retrieved" in line
    ]
    assert sorted(sources) == [
        "https://mlcommons.org/benchmarks/inference-datacenter/",
        "https://mlcommons.org/benchmarks/inference-edge/",
    ]


@pytest.mark.parametrize(
    ("date", "says"),
    [
        ("2026-09-20", "This article, dated September 20, 2026, appears within the two-week window"),
        ("2026-10-05", "Results were retrieved after the two-week window"),
    ],
)
def test_the_compliance_paragraph_says_when_an_article_dated_in_the_window_appears(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, date: str, says: str
) -> None:
    body = '{{ result("6.1-0052", "gpt-oss-120b", "Server") }}.{{ cite() }}\n\n{{ footnotes() }}\n\n{{ compliance() }}\n'
    out = render(tmp_path, official, manifest, body, meta=f"date: {date}\n")
    assert says in out
