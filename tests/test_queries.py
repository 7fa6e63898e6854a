"""The query API on tiny inline tables: groups, ranks, totals, exclusions, counts, claims, series."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.article.functions import Library, Prices
from generator.article.render import Renderer, load_article
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable
from generator.errors import BuildError, ClaimFailed, LookupFailed, TemplateError

from .conftest import ROOT, tiny_row, write_results

GPT = "gpt-oss-120b"
MI355 = "AMD Instinct MI355X 288GB HBM3e"
ROWS = [
    # 6.1 Server: a tie between two 8-GPU B300 rows, a cloud and a neocloud, a 72-GPU rack
    tiny_row("6.1-0001", GPT, "Server", 80000.0, submitter="Azure"),
    tiny_row("6.1-0002", GPT, "Server", 80000.0, submitter="Dell"),
    tiny_row("6.1-0003", GPT, "Server", 72000.0, accelerator=MI355, submitter="Dell_AMD"),
    tiny_row("6.1-0004", GPT, "Server", 792000.0, gpus=72, accelerator="NVIDIA GB300", submitter="CoreWeave"),
    tiny_row("6.1-0005", GPT, "Server", 9000.0, gpus=1, submitter="Lambda"),
    # a heterogeneous system and a CPU-only row
    tiny_row(
        "6.1-0006", GPT, "Server", 99000.0, accelerator="NVIDIA H200-SXM-141GB + " + MI355, submitter="Cisco"
    ),
    tiny_row("6.1-0007", GPT, "Server", 500.0, gpus=0, accelerator="N/A", submitter="Intel"),
    tiny_row("6.1-0001", GPT, "Offline", 88000.0, submitter="Azure"),
    tiny_row("6.0-0001", GPT, "Server", 64000.0, submitter="Dell"),
    tiny_row("6.0-0002", GPT, "Server", 40000.0, submitter="Azure"),
]


@pytest.fixture()
def table(tmp_path: Path, manifest: Manifest) -> ResultsTable:
    return ResultsTable.from_dir(write_results(tmp_path / "results", ROWS), manifest)


@pytest.fixture()
def lib(table: ResultsTable, manifest: Manifest) -> Library:
    return Library(table, manifest, Prices.load(ROOT / "data" / "prices.toml"))


def render(tmp_path: Path, lib: Library, body: str) -> str:
    path = tmp_path / "article.md"
    path.write_text(f"---\ntitle: T\n---\n{body}", encoding="utf-8")
    return Renderer(lib).render(load_article(path)).markdown


def render_error(tmp_path: Path, lib: Library, body: str) -> str:
    with pytest.raises(TemplateError) as exc:
        render(tmp_path, lib, body)
    return exc.value.message


# ---------------------------------------------------------------- best, totals, ranks
def test_best_returns_per_gpu_and_offers_total_and_per_gpu(lib: Library) -> None:
    x = lib.best(GPT, "Server", round="6.1")
    assert (str(x), x.entry.text_override) == ("11,000", "6.1-0004")  # 792,000 / 72
    assert (str(x.total), str(x.per_gpu), str(x.result)) == ("792,000", "11,000", "792,000")
    assert x.total.formula == lib.result("6.1-0004", GPT, "Server").formula


def test_ties_rank_in_entry_order_and_report_the_tie(lib: Library) -> None:
    x = lib.best(GPT, "Server", round="6.1", gpus=8)
    assert x.entry.text_override == "6.1-0001"
    assert x.tied.value == 1
    assert lib.rank(GPT, "Server", round="6.1", gpus=8, n=2).entry.text_override == "6.1-0002"


def test_best_by_total_ranks_by_system_result(lib: Library) -> None:
    x = lib.best(GPT, "Server", round="6.1", by="total", max_gpus=8)
    assert (str(x), x.kind, x.entry.text_override) == ("80,000", "result", "6.1-0001")


def test_rank_beyond_the_selection_is_an_error(lib: Library) -> None:
    with pytest.raises(LookupFailed) as exc:
        lib.rank(GPT, "Server", round="6.1", gpus=8, n=4)
    assert exc.value.message == (
        "rank 4 asked of 3 ranked row(s) (benchmark=gpt-oss-120b, scenario=Server, round=6.1, gpus=8)"
    )


def test_top_lists_best_first_and_stops_at_the_selection(lib: Library) -> None:
    ids = [x.entry.text_override for x in lib.top(GPT, "Server", round="6.1", n=10)]
    assert ids == [
        "6.1-0004",
        "6.1-0001",
        "6.1-0002",
        "6.1-0003",
        "6.1-0005",
    ]  # a tie keeps entry order; no CPU-only, no hybrid


def test_exclude_takes_filters_and_figures(lib: Library) -> None:
    leader = lib.best(GPT, "Server", round="6.1")
    nxt = lib.best(GPT, "Server", round="6.1", exclude=leader)
    assert nxt.entry.text_override == "6.1-0001"
    assert lib.best(
        GPT, "Server", round="6.1", exclude={"submitter": ["CoreWeave", "Azure"]}
    ).entry.text_override == ("6.1-0002")


def test_largest_counts_accelerators_across_benchmarks(lib: Library) -> None:
    x = lib.largest(round="6.1")
    assert (str(x), str(x.systems), x.entry.text_override, str(x.total)) == ("72", "1", "6.1-0004", "792,000")


# ---------------------------------------------------------------- groups and kinds
def test_groups_are_reused_and_narrowed(lib: Library) -> None:
    peers = lib.group(GPT, "Server", round="6.1", kind=["cloud", "neocloud"])
    assert str(lib.count(peers)) == "3"  # Azure, CoreWeave, Lambda
    assert lib.best(peers).entry.text_override == "6.1-0004"
    assert str(lib.count(lib.group(peers, gpus=8))) == "1"
    assert str(lib.median(peers)) == "10,000"  # 11,000, 10,000, 9,000


def test_joint_submissions_have_their_members_kinds(lib: Library) -> None:
    chips = lib.group(GPT, "Server", round="6.1", kind="chip")
    assert [x.entry.text_override for x in lib.top(chips, n=5)] == [
        "6.1-0003"
    ]  # Dell_AMD: AMD is a chip vendor
    assert str(lib.count(GPT, "Server", round="6.1", member="Dell")) == "2"


def test_empty_group_counts_zero_but_best_explains(lib: Library) -> None:
    empty = lib.group(GPT, "Server", round="6.1", family="B300", gpus=2)
    assert str(lib.count(empty)) == "0"
    with pytest.raises(LookupFailed) as exc:
        lib.best(empty)
    assert (
        exc.value.message
        == "no results match benchmark='gpt-oss-120b', scenario='Server', round='6.1', family='B300', gpus=2"
    )


def test_count_distinct(lib: Library) -> None:
    f = {"round": "6.1", "heterogeneous": True}
    assert str(lib.count(GPT, "Server", distinct="submitter", **f)) == "7"
    orgs = lib.count(GPT, "Server", distinct="organisation", **f)  # Dell_AMD: Dell and AMD, Dell once
    assert (str(orgs), orgs.names) == ("7", ["AMD", "Azure", "Cisco", "CoreWeave", "Dell", "Intel", "Lambda"])
    assert str(lib.count(distinct="system", round="6.1")) == "6"  # the hybrid is left out
    assert str(lib.count(GPT, "Server", round="6.1", heterogeneous="only")) == "1"


def test_heterogeneous_and_cpu_only_rows(lib: Library) -> None:
    assert lib.best(GPT, "Server", round="6.1", heterogeneous="only").entry.text_override == "6.1-0006"
    with pytest.raises(LookupFailed) as exc:
        lib.best(GPT, "Server", round="6.1", submitter="Intel")
    assert (
        exc.value.message
        == "no results match benchmark='gpt-oss-120b', scenario='Server', round='6.1', submitter='Intel'"
    )
    assert str(lib.count(GPT, "Server", round="6.1", submitter="Intel")) == "1"


# ---------------------------------------------------------------- suggestions
def test_unknown_names_get_suggestions(lib: Library) -> None:
    with pytest.raises(LookupFailed) as exc:
        lib.best("gpt-oss", "Server", round="6.1")
    assert exc.value.message == (
        "no results match benchmark='gpt-oss', scenario='Server', round='6.1'; "
        "no benchmark 'gpt-oss' in round v6.1: did you mean 'gpt-oss-120b'?"
    )
    with pytest.raises(LookupFailed) as exc:
        lib.count(GPT, "Server", round="6.1", submitter="Azrue")
    assert exc.value.message == (
        "no results match benchmark='gpt-oss-120b', scenario='Server', round='6.1', submitter='Azrue'; "
        "no submitter 'Azrue' in round v6.1: did you mean 'Azure'?"
    )


def test_suggestions_on_the_official_data(official: ResultsTable) -> None:
    with pytest.raises(LookupFailed) as exc:
        official.best(benchmark="llama2-70b", scenario="Server", round="6.1")
    assert exc.value.message == (
        "no results match benchmark='llama2-70b', scenario='Server', round='6.1'; "
        "no benchmark 'llama2-70b' in round v6.1: did you mean 'llama2-70b-99.9'?"
    )


# ---------------------------------------------------------------- claims
def test_leader_fails_on_a_tie_and_on_the_wrong_name(lib: Library) -> None:
    assert lib.leader(GPT, "Server", round="6.1").entry.text_override == "6.1-0004"
    with pytest.raises(ClaimFailed) as exc:
        lib.leader(GPT, "Server", round="6.1", gpus=8)
    assert exc.value.message == (
        "claim no longer holds: entry 6.1-0001 gpt-oss-120b Server (Azure, B300, 8 GPUs): 10,000 per GPU "
        "leads benchmark=gpt-oss-120b, scenario=Server, round=6.1, gpus=8 tied with 1 other row(s)"
    )
    with pytest.raises(ClaimFailed) as exc:
        lib.leader(GPT, "Server", round="6.1", expect={"submitter": "Dell"})
    assert exc.value.message == (
        "claim no longer holds: the leader of benchmark=gpt-oss-120b, scenario=Server, round=6.1 is "
        "entry 6.1-0004 gpt-oss-120b Server (CoreWeave, GB300, 72 GPUs): 11,000 per GPU, whose submitter "
        "is CoreWeave, not Dell"
    )


def test_only_lists_the_rows_that_contradict_it(lib: Library) -> None:
    claim = lib.only(["B300"], GPT, "Server", round="6.1", max_gpus=8, above=9500)
    assert claim.holds and claim.counter == ()
    claim = lib.only(["B300"], GPT, "Server", round="6.1", max_gpus=8, above=8500)
    assert [f.entry.text_override for f in claim.counter] == ["6.1-0003"]
    assert lib.only(["B300"], GPT, "Server", round="6.1", max_gpus=8, above=9500).statement == (
        "only family B300 in benchmark=gpt-oss-120b, scenario=Server, round=6.1, max_gpus=8 above 9500"
    )


def test_first_round(lib: Library) -> None:
    assert lib.first_round(GPT, "Server", submitter="Dell") == "6.0"
    assert lib.first_round(GPT, "Server", submitter="CoreWeave") == "6.1"


def test_holds_fails_the_build_at_its_line(tmp_path: Path, lib: Library) -> None:
    body = 'Intro.\n\n{{ holds(only(["B300"], "gpt-oss-120b", "Server", round="6.1", max_gpus=8, above=8500), "only B300 rows clear 8,500") }}\n'
    msg = render_error(tmp_path, lib, body)
    assert msg == (
        f"{tmp_path / 'article.md'}:6: claim no longer holds: only B300 rows clear 8,500; contradicted by "
        "entry 6.1-0003 gpt-oss-120b Server (Dell AMD, MI355X, 8 GPUs): 9,000 per GPU"
    )


def test_holds_with_erratum_reports_instead_of_failing(tmp_path: Path, lib: Library) -> None:
    body = '{{ holds(only(["B300"], "gpt-oss-120b", "Server", round="6.1", max_gpus=8, above=8500), "only B300 rows clear 8,500", erratum="published text") }}Text.\n'
    out = render(tmp_path, lib, body)
    assert (
        '## Errata\n\n- <a id="erratum-1"></a>**Erratum (published text).** The text says that only B300 rows clear 8,500. The official '
        "results contradict it: entry 6.1-0003 gpt-oss-120b Server (Dell AMD, MI355X, 8 GPUs): 9,000 per GPU."
    ) in out
    body = '{{ holds(only(["B300", "MI355X"], "gpt-oss-120b", "Server", round="6.1", max_gpus=8, above=8500), "m", erratum="published text") }}\n'
    assert render_error(tmp_path, lib, body).endswith(
        "claim marked as an erratum (published text) holds now: m; remove erratum="
    )


# ---------------------------------------------------------------- templates
def test_templates_pass_figures_as_entries_and_read_totals(tmp_path: Path, lib: Library) -> None:
    body = (
        '{% set x = best("gpt-oss-120b", "Server", round="6.1") %}'
        '{{ x.total }} / {{ result(x.entry, "gpt-oss-120b", "Server") }} / {{ result(x, "gpt-oss-120b", "Server") }} '
        '/ {{ rank("gpt-oss-120b", "Server", round="6.1", n=2).submitter }}\n'
    )
    assert render(tmp_path, lib, body).startswith("792,000 / 792,000 / 792,000 / Azure")


def test_tables_take_every_filter(tmp_path: Path, lib: Library) -> None:
    body = (
        '{{ best_table("6.1", [["gpt-oss-120b", "Server"]], ["B300", "GB300"], gpus=8) }}\n\n'
        '{{ top_table(group("gpt-oss-120b", "Server", round="6.1"), n=2, caption="*Top two.*") }}\n'
    )
    out = render(tmp_path, lib, body)
    assert "| B300 | 10,000 (8 GPUs, 6.1-0001) |\n| GB300 | — |" in out
    assert "| 6.1-0004 | CoreWeave | GB300 | 72 | 11,000 | 792,000 |" in out


def test_series_marks_compatibility_breaks(lib: Library) -> None:
    s = lib.series(GPT, "Server")
    assert [(p.round, str(p), p.breaks) for p in s] == [("6.0", "6,500", False), ("6.1", "10,000", False)]
    assert lib.comparable("5.1", "6.1", GPT) is False  # gpt-oss-120b is comparable from v6.0 on


# ---------------------------------------------------------------- finding names
def test_data_list_prints_the_names_of_a_round(shared_dir: Path) -> None:
    from click.testing import CliRunner

    from generator.cli import main

    res = CliRunner().invoke(
        main, ["data", "--list", "benchmarks", "--results", str(shared_dir), "--round", "6.1"]
    )
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert "llama2-70b-99.9     datacenter; Interactive, Offline, Server; 88 rows from 40 systems" in lines
    res = CliRunner().invoke(
        main, ["data", "--list", "submitters", "--results", str(shared_dir), "--round", "6.1"]
    )
    assert "Dell_AMD                 oem+chip; joint: Dell, AMD; 1 system" in res.output.splitlines()


def test_data_round_loads_and_reports_only_that_round(shared_dir: Path) -> None:
    from click.testing import CliRunner

    from generator.cli import main

    res = CliRunner().invoke(main, ["data", "--results", str(shared_dir), "--round", "6.0"])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines() == [
        f"v6.0: 520 rows from {shared_dir}/v6.0/summary_results.json (summary_results); "
        "33 CPU-only rows (no per-accelerator value); waivers applied: 6.0-0079"
    ]


def test_every_official_submitter_is_classified(official: ResultsTable, manifest: Manifest) -> None:
    names = {str(s) for s in official.df["submitter"].unique()}
    assert sorted(n for n in names if not manifest.submitters.kinds(n)) == []
    assert all(s.source for s in manifest.submitters.entries.values())


# ---------------------------------------------------------------- documentation
def test_every_parameter_of_every_helper_is_documented_with_an_example() -> None:
    import inspect

    from generator.docs import EXAMPLES, parameters, placeholders_markdown

    undocumented, no_example = [], []
    for name, fn in Library.namespace_functions().items():
        undocumented += [f"{name}({p})" for p, meaning in parameters(fn) if not meaning]
        doc = inspect.getdoc(fn) or ""
        if "{{" not in doc and "{%" not in doc and name not in EXAMPLES:
            no_example.append(name)
    assert (undocumented, no_example) == ([], [])
    assert (ROOT / "docs" / "placeholders.md").read_text("utf-8") == placeholders_markdown(
        Library.namespace_functions()
    ), "docs/placeholders.md is stale: run `gpu-insights docs --write`"


def test_ascii_x_style() -> None:
    from generator.article.figures import Figure

    assert str(Figure(5.6535, "ratio", style="ascii_x")) == "5.65x"
    assert str(Figure(5749440.0, "result").fmt(digits=2, scale=1e6, unit="million")) == "5.75 million"


# ---------------------------------------------------------------- round-wide helpers
def test_names_popular_and_newcomers(lib: Library) -> None:
    assert lib.names("submitter", round="6.1", joint=True) == ["Dell_AMD"]
    [p] = lib.popular(round="6.1")
    assert (p.name, str(p)) == ("gpt-oss-120b", "6")  # the CPU-only system ran it too; the hybrid is left out
    new = lib.newcomers("submitter", round="6.1", since="6.0")
    assert (str(new), new.names) == ("4", ["CoreWeave", "Dell_AMD", "Intel", "Lambda"])
    assert [x.entry.text_override for x in lib.systems(round="6.1", heterogeneous="only")] == ["6.1-0006"]


def test_count_by_round_and_gains(lib: Library) -> None:
    assert [(c.round, str(c)) for c in lib.count_by_round(GPT, "Server", distinct="system")] == [
        ("6.0", "2"),
        ("6.1", "6"),
    ]
    assert [(c.round, str(c)) for c in lib.count_by_round(GPT, "Server", distinct="system", until="6.0")] == [
        ("6.0", "2")
    ]
    [g] = lib.gains(round="6.1", since="6.0")  # Offline has no v6.0 row
    assert (g.benchmark, g.scenario, str(g), g.new.id, g.old.id) == (
        GPT,
        "Server",
        "37.5%",
        "6.1-0004",
        "6.0-0001",
    )


def test_figures_compare_for_claims(lib: Library) -> None:
    a, b = lib.count(GPT, "Server", round="6.1"), lib.count(GPT, "Server", round="6.0")
    assert a > b and b < a and a >= 6 and not a <= 5


def test_unknown_filters_get_suggestions(lib: Library) -> None:
    with pytest.raises(LookupFailed) as exc:
        lib.best(GPT, "Server", round="6.1", gpu=8)
    assert exc.value.message.startswith(
        "unknown filter(s) gpu (did you mean gpus?); use accelerator, benchmark, "
    )


def test_printing_a_group_is_refused(tmp_path: Path, lib: Library) -> None:
    msg = render_error(tmp_path, lib, '{{ group("gpt-oss-120b", "Server", round="6.1") }}\n')
    assert msg.endswith("prints a Group, not a figure or text; print its figures one by one")


def test_data_page_lists_the_names_of_the_round(table: ResultsTable, manifest: Manifest) -> None:
    from generator.site.pages import data_page

    page = data_page(table, "6.1", manifest)
    assert "## Submitters\n\n| Submitter | Details |\n|---|---|\n| Azure | cloud; 1 system |" in page
    assert "| Dell\\_AMD | oem+chip; joint: Dell, AMD; 1 system |" in page


# ---------------------------------------------------------------- the second analysis
def test_a_cloud_providers_analysis_reads_like_the_question(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """The questions of a cloud provider's DeepSeek-R1 v6.1 analysis, asked without pinning peers by name."""
    body = (
        '{% set inter = group("deepseek-r1", "Interactive", round="6.1", category="available") %}'
        '{% set clouds = group(inter, kind=["cloud", "neocloud"]) %}'
        '{% set top = leader(inter, by="total", expect={"submitter": "Azure"}) %}'
        '{% set srv = group("deepseek-r1", "Server", round="6.1", category="available", gpus=72, kind=["cloud", "neocloud"]) %}'
        "{{ top.submitter }} scaled from {{ gpus(top, 'deepseek-r1', 'Interactive') }} to "
        '{{ largest("deepseek-r1", "Server", round="6.1", submitter="Azure") }} GPUs. '
        "{{ top.total }} is the highest among the {{ count(inter).fmt(style='words') }} Available Interactive "
        "submissions, {{ pct_change(top, rank(clouds, n=2, by='total')) }} above the next-highest cloud "
        "submission ({{ rank(clouds, n=2, by='total').submitter }}); in Server it is within "
        "{{ pct_gap(best(srv, by='total', submitter='Azure'), best(srv, by='total')) }} of the highest 72-GPU "
        "cloud row ({{ best(srv, by='total').submitter }}).\n"
    )
    lib = Library(official, manifest, Prices.load(ROOT / "data" / "prices.toml"))
    out = render(tmp_path, lib, body)
    assert out.startswith(
        "Azure scaled from 72 to 288 GPUs. 260,098 is the highest among the five Available Interactive "
        "submissions, 10.3% above the next-highest cloud submission (Oracle); in Server it is within 2.3% of "
        "the highest 72-GPU cloud row (Nebius)."
    )


def test_exclusions_of_a_group_and_of_a_call_add_up(lib: Library) -> None:
    peers = lib.group(GPT, "Server", round="6.1", exclude={"submitter": "CoreWeave"})
    assert lib.best(peers).id == "6.1-0001"
    assert lib.best(peers, exclude=[lib.per_gpu("6.1-0001", GPT, "Server")]).id == "6.1-0002"
    assert lib.best(peers, exclude={"submitter": "Azure"}).id == "6.1-0002"
    with pytest.raises(LookupFailed) as exc:
        lib.best(peers, exclude=["6.1-0001"])
    assert exc.value.message == "exclude= takes a dict of filters, a figure or a list of figures"


def test_only_without_a_threshold_covers_the_whole_selection(lib: Library) -> None:
    assert lib.only("GB300", GPT, "Server", round="6.1", min_gpus=72).holds
    claim = lib.only("GB300", GPT, "Server", round="6.1")
    assert [f.id for f in claim.counter] == ["6.1-0001", "6.1-0002", "6.1-0003", "6.1-0005"]  # best first


def test_series_and_trend_break_where_compatibility_breaks(tmp_path: Path, manifest: Manifest) -> None:
    from generator.article import charts

    rows = [*ROWS, tiny_row("5.1-0001", GPT, "Server", 16000.0)]  # gpt-oss-120b is comparable from v6.0 on
    table = ResultsTable.from_dir(write_results(tmp_path / "r", rows), manifest)
    lib = Library(table, manifest, Prices.load(ROOT / "data" / "prices.toml"))
    s = lib.series(GPT, "Server", stat="best")
    assert [(p.round, str(p), p.breaks) for p in s] == [
        ("5.1", "2,000", False),
        ("6.0", "8,000", True),
        ("6.1", "11,000", False),
    ]
    chart = charts.trend(lib, GPT, "Server", stat="best")
    assert [d["segment"] for d in chart.spec["datasets"][next(iter(chart.spec["datasets"]))]] == [0, 1, 1]
    assert chart.caption.endswith(
        "A gap in the line marks rounds the Compatibility Table does not allow comparing."
    )


def test_the_build_summary_counts_errata_beside_findings() -> None:
    from generator.site.build import _report_findings

    lines: list[str] = []
    _report_findings([], False, lines.append, errata=1)
    summary = (
        "compliance: 0 errors, 0 warnings; 1 erratum of published text noted above "
        "(per-article reports in the site's review/ pages; details: gpu-insights check)"
    )
    assert lines == [summary]
    # in strict mode, a published claim the data contradict fails the build (it passed before)
    lines.clear()
    with pytest.raises(BuildError) as exc:
        _report_findings([], True, lines.append, errata=2)
    assert lines == [summary.replace("1 erratum", "2 errata")]
    assert exc.value.message == (
        "2 errata of published text in strict mode: a published claim the official results contradict "
        "(see the warnings above); the previous site is left as it was"
    )


# ---------------------------------------------------------------- charts in templates
def test_chart_takes_a_peer_group_and_a_caption_of_the_authors(tmp_path: Path, lib: Library) -> None:
    body = (
        '{% set peers = group("gpt-oss-120b", "Server", round="6.1", gpus=8) %}'
        '{{ chart("per_gpu_by_family", peers, families=["B300", "B200"], category=None, caption="Peers, 8 GPUs.") }}\n'
    )
    out = render(tmp_path, lib, body)
    assert "*Figure 1: Peers, 8 GPUs.*" in out
    assert 'alt="Peers, 8 GPUs."' in out


def test_chart_names_the_arguments_a_kind_does_not_take(tmp_path: Path, lib: Library) -> None:
    body = '{{ chart("per_gpu_by_family", "gpt-oss-120b", "Server", round="6.1", families=["B300"], kind="cloud") }}\n'
    assert render_error(tmp_path, lib, body).endswith(
        "chart 'per_gpu_by_family' takes no kind= (it takes category=, gpus=, title= and caption=)"
    )
    assert render_error(tmp_path, lib, '{{ chart("pie") }}\n').endswith(
        "unknown chart kind 'pie' (known: available_vs_preview, counts_by_round, cross_round, gains, "
        "per_gpu_by_family, trend)"
    )


def test_cross_round_refuses_two_entries_of_one_round(tmp_path: Path, lib: Library) -> None:
    body = '{{ chart("cross_round", [["Same", "6.1-0001", "6.1-0002"]], "gpt-oss-120b", "Server") }}\n'
    assert render_error(tmp_path, lib, body).endswith(
        "cross_round compares one system in two rounds: 6.1-0001 and 6.1-0002 are both v6.1 (Same)"
    )


def test_trend_caption_states_the_selection_it_plots(tmp_path: Path, lib: Library) -> None:
    out = render(
        tmp_path, lib, '{{ chart("trend", "gpt-oss-120b", "Server", stat="best", submitter="Azure") }}\n'
    )
    assert (
        "*Figure 1: Each point is the best per-GPU result of the Closed systems submitted by Azure in "
        "gpt-oss-120b Server, in each loaded round of MLPerf® Inference (v6.0 and v6.1)." in out
    )


def test_scenarios_are_listed_in_one_order_everywhere_then_others_by_name() -> None:
    from generator.article.footnotes import scenario_key

    got = sorted(["Zeta", "MultiStream", "Offline", "Alpha", "Server"], key=scenario_key)
    assert got == ["Server", "Offline", "MultiStream", "Alpha", "Zeta"]
    assert sorted({"Zeta", "Alpha", "Offline"}, key=scenario_key) == ["Offline", "Alpha", "Zeta"]


def test_data_page_counts_a_benchmarks_rows_per_scenario_on_one_line(
    official: ResultsTable, manifest: Manifest
) -> None:
    """A table per division and suite, one line per benchmark, a column per scenario the suite
    has (in the order the footnotes and the benchmark pages list them) and the total; the totals
    add up to the rows loaded."""
    from generator.site.pages import data_page

    page = data_page(official, "5.1", manifest)
    datacenter = "### Closed Datacenter\n\n| Benchmark | Server | Offline | Interactive | Rows |\n|---|--:|--:|--:|--:|\n"
    assert datacenter + "| deepseek-r1 | 8 | 8 |  | 16 |\n" in page
    assert "| llama2-70b-99 | 45 | 47 | 22 | 114 |" in page
    assert "### Open Edge\n\n| Benchmark | Offline | SingleStream | MultiStream | Rows |" in page
    assert "| pointpainting |  | 2 |  | 2 |" in page
    section = page.split("## Rows per benchmark and scenario\n")[1].split("\n## ")[0]
    totals = [
        int(line.rsplit("| ", 1)[1].rstrip(" |").replace(",", ""))
        for line in section.splitlines()
        if line.startswith("| ") and not line.startswith("| Benchmark")
    ]
    assert sum(totals) == len(official.of_round("5.1")) == 1448


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            'median(round="6.1", units="Tokens/s", scenario="Server")',
            "median(): the selection (scenario=Server, round=6.1, units=Tokens/s) mixes benchmarks (deepseek-r1, "
            "gpt-oss-120b); name one",
        ),
        (
            'spread(round="6.1", units="Tokens/s")',
            "spread(): the selection (round=6.1, units=Tokens/s) mixes benchmarks (deepseek-r1, gpt-oss-120b); name one",
        ),
        (
            'holds(only(["B300"], GPT, "Server", round="6.1", above=result("6.1-0002", GPT, "Server")), "m")',
            "only(): above= is a system total (80,000), and the rows are compared by their per-GPU values",
        ),
        (
            'holds(only(["B300"], GPT, "Server", round="6.1", above=per_gpu("6.1-0008", "dlrm-v3", "Offline")), "m")',
            "only(): above= is in Samples/s and the rows in Tokens/s",
        ),
    ],
)
def test_selections_refuse_what_does_not_rank_or_summarise(
    tmp_path: Path, manifest: Manifest, call: str, message: str
) -> None:
    """A median or spread over benchmarks, a threshold of another kind were computed silently."""
    rows = [
        *ROWS,
        tiny_row("6.1-0008", "dlrm-v3", "Offline", 8000.0, Performance_Units="Samples/s"),
        tiny_row("6.1-0009", "deepseek-r1", "Server", 24000.0),
    ]
    table = ResultsTable.from_dir(write_results(tmp_path / "results", rows), manifest)
    lib = Library(table, manifest, Prices.load(ROOT / "data" / "prices.toml"))
    body = f'{{% set GPT = "gpt-oss-120b" %}}\n{{{{ {call} }}}}\n'
    assert render_error(tmp_path, lib, body) == f"{tmp_path / 'article.md'}:5: {message}"


@pytest.mark.parametrize(
    ("pairs", "caption"),
    [
        (
            '[["Dell", "6.0-0001", "6.1-0002"], ["Azure", "6.0-0002", "6.1-0001"]]',
            "Each pair is the same system in two rounds",
        ),
        (
            '[["Dell", "6.0-0001", "6.1-0002"], ["8x B300", "6.0-0001", "6.1-0001"]]',
            "Each pair has the same accelerator and GPU count (not always the same system)",
        ),
        (
            '[["8x B300", "6.0-0001", "6.1-0001"]]',
            "Each pair has the same accelerator and GPU count (different systems)",
        ),
        (
            '[["Dell", "6.0-0001", "6.1-0002"], ["To a rack", "6.0-0002", "6.1-0004"]]',
            "Each pair is two systems as labelled (accelerators or GPU counts differ within a pair)",
        ),
    ],
)
def test_cross_round_caption_says_same_system_only_of_the_same_system(
    tmp_path: Path, lib: Library, pairs: str, caption: str
) -> None:
    """The caption said "Same system" of every pair, of other systems too."""
    out = render(tmp_path, lib, f'{{{{ chart("cross_round", {pairs}, "gpt-oss-120b", "Server") }}}}\n')
    assert (
        f"*Figure 1: {caption}: MLPerf® Inference Closed gpt-oss-120b Server, v6.0 and v6.1, the v6.0 " in out
    )


@pytest.mark.parametrize(
    "fn", ['gains(round="6.0", since="6.1")', 'newcomers("submitter", round="6.1", since="6.1")']
)
def test_gains_and_newcomers_count_from_an_earlier_round(tmp_path: Path, lib: Library, fn: str) -> None:
    """gains(round="6.0", since="6.1") printed the losses from v6.1 to v6.0 as gains."""
    name = fn.split("(")[0]
    since, rnd = ("6.1", "6.0") if name == "gains" else ("6.1", "6.1")
    assert render_error(tmp_path, lib, f"{{{{ {fn} | length }}}}\n") == (
        f"{tmp_path / 'article.md'}:4: {name}(): since={since} is not a round before round={rnd}"
    )
