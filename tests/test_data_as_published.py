"""Every round's official file as published (issue 33): result IDs with MLCommons' v4.1 ``v``
prefix, a system of both suites (``"Suite": "datacenter,edge"``), ``Model`` beside
``UsedModel``, lower-case scenarios; submitters and accelerators the defaults do not know
counted as unclassified, never dropped. Every input is made here by rewriting the official
files in ../shared/mlperf."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from generator.article.functions import Library, Prices
from generator.article.render import Renderer, load_article
from generator.cli import main
from generator.data.listing import listing
from generator.data.manifest import Manifest, load_manifest
from generator.data.results import read_results
from generator.data.table import ResultsTable
from generator.errors import DataError
from generator.project import Project

from .conftest import ROOT, project_articles


def official_rows(shared_dir: Path, version: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(
        (shared_dir / f"v{version}" / "summary_results.json").read_text("utf-8")
    )
    return rows


def write(root: Path, version: str, rows: list[dict[str, Any]]) -> Path:
    path = root / f"v{version}" / "summary_results.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rows, indent=1), "utf-8")
    return path


def as_published(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """*rows* in every spelling real files use: v-prefixed IDs (MLCommons' v4.1 file), lower-case
    scenarios, and each system of one edge entry that ran Offline submitted to both suites."""
    both = next(r["ID"] for r in rows if r["Suite"] == "edge" and r["Scenario"] == "Offline")
    out = []
    for r in rows:
        r = dict(r, ID="v" + r["ID"], Scenario=r["Scenario"].lower())
        if r["ID"] == "v" + both:
            r["Suite"] = "datacenter,edge"
        out.append(r)
    return out


# ------------------------------------------------------------------ result IDs
@pytest.mark.parametrize("version", ["5.1", "6.1"])
def test_v_prefixed_ids_are_the_same_entries(
    tmp_path: Path, manifest: Manifest, shared_dir: Path, version: str
) -> None:
    """MLCommons' v4.1 summary_results.json writes v4.1-0001: '937 problems ... malformed result
    ID'. Both readers (a file with no problem, and one left to the row reader by a division
    filter) give the entries pages print (4.1-0036)."""
    rows = official_rows(shared_dir, version)
    path = write(tmp_path, version, [dict(r, ID="v" + r["ID"]) for r in rows])
    plain, _ = read_results(shared_dir / f"v{version}" / "summary_results.json", manifest, version=version)
    for divisions in (None, ["closed", "open"]):
        df, rep = read_results(path, manifest, version=version, divisions=divisions)
        assert df["result_id"].tolist() == [r["ID"] for r in rows] == plain["result_id"].tolist()
        assert df.drop(columns="source_file").equals(plain.drop(columns="source_file"))


def test_a_v_prefixed_id_of_another_round_is_an_error_naming_the_entry(
    tmp_path: Path, manifest: Manifest, shared_dir: Path
) -> None:
    rows = official_rows(shared_dir, "6.1")
    rows[4]["ID"] = "v6.0-0001"
    path = write(tmp_path, "6.1", rows)
    with pytest.raises(DataError) as err:
        read_results(path, manifest, version="6.1")
    assert err.value.message == (
        f"{path}: index 4 (entry v6.0-0001 {rows[4]['Model']} {rows[4]['Scenario']}): field 'ID': "
        "result ID v6.0-0001 belongs to round v6.0, not v6.1"
    )


# ------------------------------------------------------------------ suites, models, scenarios
def test_a_system_of_both_suites_is_in_each_where_its_scenario_says_so(
    tmp_path: Path, manifest: Manifest, shared_dir: Path
) -> None:
    """ "Suite": "datacenter,edge" was kept as a third suite no filter matched: such a system
    was missing from every Datacenter and every Edge count. An Offline row is in both suites;
    a row of a scenario one suite alone has (Server, Interactive, MultiStream) in that suite."""
    rows = as_published(official_rows(shared_dir, "5.1"))
    both = next(r["ID"][1:] for r in rows if r["Suite"] == "datacenter,edge")
    table = ResultsTable.from_dir(write(tmp_path, "5.1", rows).parent.parent, manifest)
    mine = table.df[table.df["result_id"] == both]
    assert set(zip(mine["scenario"], mine["suite"], strict=True)) == {
        ("Offline", "datacenter,edge"),
        ("SingleStream", "datacenter,edge"),  # the Datacenter suite has SingleStream since v6.0
        ("MultiStream", "edge"),
    }
    for suite in ("datacenter", "edge"):
        picked = {
            (r.result_id, r.scenario) for r in table.select_rows(round="5.1", suite=suite, division=None)
        }
        assert (both, "Offline") in picked
        assert ((both, "MultiStream") in picked) == (suite == "edge")


def test_a_suite_no_file_uses_is_refused_naming_file_entry_field_and_value(
    tmp_path: Path, manifest: Manifest, shared_dir: Path
) -> None:
    rows = official_rows(shared_dir, "6.1")
    rows[2]["Suite"] = "datacenter,mobile"
    path = write(tmp_path, "6.1", rows)
    with pytest.raises(DataError) as err:
        read_results(path, manifest, version="6.1")
    r = rows[2]
    assert err.value.message == (
        f"{path}: index 2 (entry {r['ID']} {r['Model']} {r['Scenario']}): field 'Suite': "
        "unknown suite 'datacenter,mobile' (expected datacenter, edge or datacenter,edge)"
    )


def test_model_is_the_benchmark_beside_the_used_model_and_scenarios_any_case(
    tmp_path: Path, manifest: Manifest, shared_dir: Path
) -> None:
    """v5.1's Open rows write "Model": "resnet" beside "UsedModel": "resnet50" or a MobileNet:
    the benchmark is Model's; lower-case scenarios (as Location writes them) are the same."""
    rows = as_published(official_rows(shared_dir, "5.1"))
    resnet = [i for i, r in enumerate(rows) if r["Model"] == "resnet" and r["UsedModel"] != "resnet"]
    assert {rows[i]["UsedModel"] for i in resnet} >= {"resnet50", "mobilenet-v1-precision_float-1.0-224"}
    df, _ = read_results(write(tmp_path, "5.1", rows), manifest, version="5.1")
    assert set(df["benchmark"].iloc[resnet]) == {"resnet"}
    plain, _ = read_results(shared_dir / "v5.1" / "summary_results.json", manifest, version="5.1")
    assert df["scenario"].tolist() == plain["scenario"].tolist()


# ------------------------------------------------------------------ unclassified, never dropped
def test_accelerators_of_earlier_rounds_have_families(manifest: Manifest) -> None:
    """Names MLCommons' v4.0 to v4.1 files give (seven had no family in a v4.1 overview)."""
    names = {
        "Tesla T4": "T4",
        "TPU v5e": "TPU v5e",
        "TPU v6": "TPU v6",
        "NVIDIA RTX A5000": "RTX A-series",
        "NVIDIA Jetson AGX Orin 64G": "Jetson Orin",
        "UntetherAI speedAI240 Slim": "speedAI240",
        "UntetherAI speedAI240 Preview": "speedAI240",
        "NVIDIA H200-SXM-141GB-CTS": "H200",
        "NVIDIA GH200 Grace Hopper Superchip 96GB": "GH200",
        "AMD Instinct MI300X-NPS1-SPX-192GB-750W": "MI300X",
        "NVIDIA H100-PCIe-80GB": "H100",
        "NVIDIA L4": "L4",
        "NVIDIA L40S": "L40S",
        "Intel Gaudi 2": "Gaudi2",
        "Intel Gaudi 3": "Gaudi3",
        "QUALCOMM Cloud AI 100 Ultra": "Cloud AI 100",
        "NVIDIA A100-SXM-80GB": "A100",
    }
    assert {a: manifest.families.classify(a)[0] for a in names} == names


def test_every_official_accelerator_keeps_its_family(official: ResultsTable) -> None:
    """The families added for earlier rounds take no accelerator of v5.1 to v6.1 from its family."""
    fams = official.df.drop_duplicates("accelerator").set_index("accelerator")["family"].to_dict()
    assert not {a: f for a, f in fams.items() if f in {"T4", "A10", "A30", "A100", "RTX A-series"}}
    assert fams["NVIDIA RTX 4000 Ada-PCIe-20GB"] == "RTX Ada"


def unclassify(project: Project, names: list[str]) -> None:
    """Take *names* out of the project's data/submitters.toml."""
    path = project.data_dir / "submitters.toml"
    text = path.read_text("utf-8")
    for name in names:
        text = re.sub(rf'\[submitter\."{name}"\]\n(?:[^\[\n][^\n]*\n)*\n?', "", text)
    path.write_text(text, "utf-8")


def table_one(markdown: str) -> dict[str, str]:
    at = markdown.index("| Kind of organisation | Organisations |")
    lines = markdown[at:].split("\n\n", 1)[0].splitlines()[2:]
    return {ln.split(" | ")[0][2:]: ln.split(" | ")[1].rstrip(" |") for ln in lines}


def test_unknown_submitters_are_listed_as_unclassified(tmp_path: Path, shared_dir: Path) -> None:
    project = Project(ROOT).clone(tmp_path / "project", content=project_articles(tmp_path / "articles"))
    unclassify(project, ["Vultr", "Krai"])
    manifest = load_manifest(project.data_dir)
    table = ResultsTable.from_dir(
        write(tmp_path, "5.1", official_rows(shared_dir, "5.1")).parent.parent, manifest
    )
    kinds = dict(listing(table, "kinds"))
    assert kinds["unclassified"] == "not in data/submitters.toml: Krai, Vultr"


def test_add_round_of_a_file_as_published_then_an_overview_whose_organisations_add_up(
    tmp_path: Path, shared_dir: Path
) -> None:
    """End to end: `add-round` of a file in every spelling MLCommons' files use, then `new
    --kind overview`: its table of organisations by kind counts every organisation once (a
    joint submission's members each under its own kind, where Dell counted as a chip vendor
    through Dell_AMD) and has an unclassified line for those data/submitters.toml does not
    name (they were dropped: 16 of 22 organisations)."""
    project = Project(ROOT).clone(tmp_path / "project", content=project_articles(tmp_path / "articles"))
    unclassify(project, ["Vultr", "Krai"])
    source = write(tmp_path / "download", "5.1", as_published(official_rows(shared_dir, "5.1")))
    results = tmp_path / "results"
    args = [
        "add-round",
        "5.1",
        str(source),
        "--published",
        "2025-09-09",
        "--results",
        str(results),
        "--replace",
    ]
    res = CliRunner().invoke(main, [*args, "--data-dir", str(project.data_dir)])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[0].startswith(f"v5.1: 1,448 rows from {results}/v5.1/summary_results.json")

    out = tmp_path / "overview.md"
    args = ["-f", str(project.mkdocs_yml), "new", "5.1", "--kind", "overview", "--results", str(results)]
    res = CliRunner().invoke(main, [*args, "--output", str(out)])
    assert res.exit_code == 0, res.output
    manifest = load_manifest(project.data_dir)
    table = ResultsTable.from_dir(results, manifest)
    lib = Library(table, manifest, Prices.load(project.data_dir / "prices.toml"))
    md = Renderer(lib).render(load_article(out)).markdown

    subs = manifest.submitters
    orgs = {o for s in table.df["submitter"].unique() for o in subs.organisations(str(s))}
    assert {o for o in orgs if subs.kind_of(o) == "unclassified"} == {"Krai", "Vultr"}
    rows = table_one(md)
    assert rows["Unclassified (not in the list of submitters this site keeps)"] == "2"
    assert rows["All organisations"] == str(len(orgs)) == "28"
    assert sum(int(n) for label, n in rows.items() if label != "All organisations") == len(orgs)
    assert rows["Chip vendors"] == str(sum(subs.kind_of(o) == "chip" for o in orgs))
    assert "unclassified: Krai, Vultr" in md
    assert re.search(r"\b5\.1-\d{4}\b", md) and not re.search(r"v5\.1-\d{4}", md)


def test_accelerators_no_family_names_are_listed_as_unclassified(
    tmp_path: Path, manifest: Manifest, shared_dir: Path
) -> None:
    rows = official_rows(shared_dir, "6.1")
    for r in rows[:3]:
        r["Accelerator"] = "Example NPU 9000"
    table = ResultsTable.from_dir(write(tmp_path, "6.1", rows).parent.parent, manifest)
    ids = {r["ID"] for r in rows[:3]}
    assert dict(listing(table, "families"))["unclassified"] == (
        f"not in data/accelerators.toml: Example NPU 9000; 3 rows from {len(ids)} system"
        + ("s" if len(ids) > 1 else "")
    )
    assert "unclassified" not in dict(listing(ResultsTable.from_dir(shared_dir, manifest), "families"))


def test_a_blank_model_is_read_from_used_model_only_where_it_names_a_benchmark(
    tmp_path: Path, manifest: Manifest, shared_dir: Path
) -> None:
    """A blank Model was a benchmark named '' (no error); UsedModel stands in where its meaning
    is certain (resnet50 is the resnet benchmark), else the record is refused naming it."""
    rows = official_rows(shared_dir, "5.1")
    closed = next(i for i, r in enumerate(rows) if r["UsedModel"] == "resnet50")
    open_ = next(i for i, r in enumerate(rows) if r["UsedModel"].startswith("mobilenet"))
    rows[closed]["Model"] = ""
    df, _ = read_results(write(tmp_path, "5.1", rows), manifest, version="5.1")
    assert (df["benchmark"].iloc[closed], df["benchmark_raw"].iloc[closed]) == ("resnet", "resnet50")
    rows[open_]["Model"] = " "
    path = write(tmp_path, "5.1", rows)
    with pytest.raises(DataError) as err:
        read_results(path, manifest, version="5.1")
    r = rows[open_]
    assert err.value.message == (
        f"{path}: index {open_} (entry {r['ID']} {r['Scenario']}): field 'Model': no benchmark "
        f"(UsedModel {r['UsedModel']!r} names none of data/benchmarks.toml)"
    )


def test_a_count_of_organisations_by_kind_counts_members_under_their_own_kind(
    official: ResultsTable, manifest: Manifest
) -> None:
    """Dell_AMD is a chip vendor's and a system builder's submission: AMD counts as a chip
    vendor, Dell as a system builder, and the figure's formula says so."""
    lib = Library(official, manifest, Prices.load(ROOT / "data" / "prices.toml"))
    chips = lib.count(round="6.1", division=None, kind="chip", distinct="organisation")
    assert "Dell" not in chips.names and "AMD" in chips.names
    assert "Dell" in lib.count(round="6.1", division=None, kind="oem", distinct="organisation").names
    assert chips.formula.startswith("distinct organisations of kind chip in selection (")


def test_markup_in_the_suite_field_is_refused_before_any_page(
    tmp_path: Path, manifest: Manifest, shared_dir: Path
) -> None:
    """A suite is one of a closed list, as a division and a category are: markup there never
    reaches a footnote or a data page (the hostile-markup tests put it there before)."""
    rows = official_rows(shared_dir, "6.1")
    rows[0]["Suite"] = "<img src=x onerror=alert(document.domain)>"
    path = write(tmp_path, "6.1", rows)
    with pytest.raises(DataError) as err:
        read_results(path, manifest, version="6.1")
    assert err.value.message.endswith(
        "field 'Suite': unknown suite '<img src=x onerror=alert(document.domain)>' "
        "(expected datacenter, edge or datacenter,edge)"
    )
