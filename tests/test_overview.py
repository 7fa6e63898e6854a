"""Round overviews: the v6.1 article against the published analysis, and `new --kind overview`
for every round against a pandas computation written here, independently of the query API."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pandas as pd
import pytest

from generator.article.functions import Library, Prices
from generator.article.overview import overview
from generator.article.render import Rendered, Renderer, load_article
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable
from generator.project import Project
from generator.site.build import run_checks

from .conftest import ROOT, shared_reference_dir

ARTICLE = ROOT / "content" / "mlperf-inference-v6.1-round-overview.md"


def _render(path: Path, official: ResultsTable, manifest: Manifest) -> Rendered:
    lib = Library(official, manifest, Prices.load(ROOT / "data" / "prices.toml"))
    return Renderer(lib).render(load_article(path))


@pytest.fixture(scope="module")
def rendered(official: ResultsTable, manifest: Manifest) -> Rendered:
    return _render(ARTICLE, official, manifest)


def analysis() -> str:
    return (shared_reference_dir() / "mlcommons-v6.1-results-analysis.txt").read_text("utf-8")


# (what the published analysis says, the figure this article prints for it)
PUBLISHED_AND_PRINTED = [
    ("a record 30 submitters", "30"),
    ("Altogether, 120 systems", "120"),
    ("features 10 Datacenter", "10"),
    ("two of which are new", "2"),
    ("increased by 2.7x in Offline", "2.7×"),
    ("and 5.7x in Server", "5.7×"),
    ("a record of 288 accelerators was set", "288"),
    ("which used 512 accelerators", "512"),
    ("submissions 6.1-0026 and 6.1-0027", "6.1-0026"),
    ("submissions 6.1-0026 and 6.1-0027", "6.1-0027"),
    ("This round contains two such submissions", "two"),
]


@pytest.mark.parametrize(("published", "printed"), PUBLISHED_AND_PRINTED)
def test_figures_the_published_text_also_prints_are_equal(
    rendered: Rendered, published: str, printed: str
) -> None:
    assert published in analysis()
    assert printed in {u.text for u in rendered.uses}
    number = re.sub(r"[×,]", "", printed)
    assert number.replace("two", "2") in re.sub(r"(\d)x\b", r"\1", published.replace("two", "2"))


def test_published_names_are_reproduced(rendered: Rendered) -> None:
    md = rendered.markdown
    assert (
        "joint submissions, where two organizations collaborated: Dell\\_AMD, Dell\\_MangoBoost, RedHat\\_Intel, RedHat\\_Supermicro."
        in md
    )
    assert "Dell_AMD, Dell_MangoBoost, RedHat_Intel, and RedHat_Supermicro" in analysis()
    assert (
        "the benchmark the most systems ran is gpt-oss-120b (54 systems), followed by llama2-70b (40 systems)"
        in md
    )
    assert "the most popular benchmark is gpt-oss-120b, followed by Llama2-70b" in analysis()


def test_reconciliation_table_states_each_difference(rendered: Rendered) -> None:
    md = rendered.markdown
    rows = [ln for ln in md.splitlines() if ln.startswith("| ") and " | " in ln]
    table = {r.split(" | ")[0][2:]: r.split(" | ")[1:3] for r in rows}
    assert table["Edge benchmarks in v6.1"] == ["6", "5"]
    assert table["Llama2-70b median per-accelerator Server gain"] == ["5.58x over 6 runs", "3.14×"]
    assert table["DeepSeek-R1 best per-accelerator Interactive gain"] == ["2.7x", "2.6×"]
    assert table["Multi-node submissions in v6.1"] == ["16", "30"]
    assert table["Record tokens per second"] == ["almost 5.8M", "5,749,440"]
    for published in (
        "6 Edge benchmarks",
        "5.58x over 6 runs",
        "Interactive scenario",
        "record of 16 multi-node",
        "almost 5.8M",
    ):
        assert published in analysis()


def test_the_article_checks_clean(shared_dir: Path) -> None:
    project = Project.discover(config=ROOT / "mkdocs.yml")
    assert [str(f) for f in run_checks(project, [ARTICLE], shared_dir)] == []


# ---------------------------------------------------------------- independent computation
MODEL = re.compile(r"-(99\.9|99|95)$")


def expected(df: pd.DataFrame, version: str) -> dict[str, str]:
    """The overview's figures for *version*, computed with pandas from the normalized rows."""
    subs = tomllib.loads((ROOT / "data" / "submitters.toml").read_text("utf-8"))["submitter"]

    def orgs(name: str) -> list[str]:
        s = subs[name]
        if "members" in s:
            return [o for m in s["members"] for o in orgs(m)]
        return [s.get("organisation", name)]

    d = df[df["round"] == version]
    models = d.assign(
        model=d["benchmark"]
        .str.replace(MODEL, "", regex=True)
        .str.replace(r"^e2e-rag-.*", "e2e-rag", regex=True)
    )
    dc = models[models["suite"] == "datacenter"]
    popular = dc.groupby("model")["result_id"].nunique().sort_values(ascending=False, kind="stable")
    tokens = d[d["units"] == "Tokens/s"]
    return {
        "orgs": f"{len({o for s in d['submitter'].unique() for o in orgs(s)}):,}",
        "names": f"{d['submitter'].nunique():,}",
        "systems": f"{d['result_id'].nunique():,}",
        "dc": str(dc["model"].nunique()),
        "top": f"{popular.index[0]} ({popular.iloc[0]} systems)",
        "multi": f"{d[d['nodes'] > 1]['result_id'].nunique():,} in v{version}",
        "largest": f"{int(d['total_accelerators'].max()):,} accelerators",
        "tokens": f"{tokens['result'].max():,.0f} tokens per second",
        "hybrid": f"holds {d[d['heterogeneous']]['result_id'].nunique()} of them",
    }


def organisations_by_kind(markdown: str) -> dict[str, str]:
    """Table 1 of an overview: organisations by kind, as {label: count}."""
    at = markdown.index("| Kind of organisation | Organisations |")
    lines = markdown[at:].split("\n\n", 1)[0].splitlines()[2:]
    return {ln.split(" | ")[0][2:]: ln.split(" | ")[1].rstrip(" |") for ln in lines}


@pytest.mark.parametrize("version", ["5.1", "6.0", "6.1"])
def test_new_overview_matches_pandas_and_checks_clean(
    version: str, official: ResultsTable, manifest: Manifest, shared_dir: Path, tmp_path: Path
) -> None:
    path = tmp_path / f"overview-{version}.md"
    path.write_text(overview(official, manifest, version), encoding="utf-8")
    md = _render(path, official, manifest).markdown
    want = expected(official.df, version)
    assert f"{want['orgs']} organisations submitted results under {want['names']} submitter names" in md
    assert f"hold {want['systems']} systems across the Datacenter and Edge suites" in md
    assert f"cover {want['dc']} Datacenter" in md
    assert f"the benchmark that the most systems ran is {want['top']}" in md
    assert want["multi"] in md
    assert f"systems used {want['largest']}" in md
    assert f"the largest system result is {want['tokens']}" in md
    assert want["hybrid"] in md
    kinds = organisations_by_kind(md)
    assert kinds["All organisations"] == want["orgs"]
    assert sum(int(n) for label, n in kinds.items() if label != "All organisations") == int(want["orgs"])
    assert (
        "Unclassified (not in the list of submitters this site keeps)" not in kinds
    )  # every official submitter has a kind
    project = Project.discover(config=ROOT / "mkdocs.yml")
    assert [str(f) for f in run_checks(project, [path], shared_dir)] == []


def test_new_kind_overview_writes_the_article(shared_dir: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from generator.cli import main

    out = tmp_path / "ov.md"
    args = ["-f", str(ROOT / "mkdocs.yml"), "new", "6.0", "--kind", "overview", "--results", str(shared_dir)]
    res = CliRunner().invoke(main, [*args, "--output", str(out)])
    assert res.exit_code == 0, res.output
    assert res.output == f"wrote {out}; check it with: gpu-insights check {out} --results {shared_dir}\n"
    text = out.read_text("utf-8")
    assert text.startswith('---\ntitle: "MLPerf® Inference v6.0: a round overview"\n')
    assert (
        '{%- set R = "6.0" -%}' in text
        and "## Per-accelerator results against MLPerf® Inference v5.1" in text
    )
