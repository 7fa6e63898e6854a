"""The compliance checker: one bad article per rule, each with its exact finding."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.check import RULES, CheckConfig, Checker, Finding, check_rendered, rules_markdown
from generator.cli import main
from generator.functions import Library, Prices
from generator.manifest import Manifest
from generator.render import Renderer
from generator.table import ResultsTable

from .conftest import ROOT

BAD = Path(__file__).resolve().parent / "corpus" / "bad_articles"
TRADEMARK_NOTE = "lacks the trademark legend"

# (rule, line, col, message) expected in each corpus article, for the rule it is named after.
EXPECTED: dict[str, list[tuple[str, int, int, str]]] = {
    "MLP000_template_error.md": [
        ("MLP000", 6, 1, "entry 6.1-0099 is not in round v6.1 ({results}/v6.1/summary_results.json)")
    ],
    "MLP001_cited_without_footnote.md": [
        ("MLP001", 6, 32, "entry 6.0-0001 is cited but no footnote lists it")
    ],
    "MLP002_figure_without_marker.md": [
        ("MLP002", 6, 1, "paragraph prints results (10,000) without a footnote marker: add {{ cite() }}")
    ],
    "MLP003_footnote_incomplete.md": [
        ("MLP003", 9, 1, "footnote 7 does not give the source and retrieval date"),
        ("MLP003", 9, 1, "footnote 7 lacks the trademark legend"),
        ("MLP003", 9, 1, "footnote 7 lists no entry ID"),
    ],
    "MLP004_marker_without_note.md": [("MLP004", 6, 1, "marker ^[4] points to no footnote")],
    "MLP005_note_never_referenced.md": [("MLP005", 10, 1, "footnote 1 is never referenced by a marker")],
    "MLP006_derived_without_disclaimer.md": [
        (
            "MLP006",
            8,
            1,
            'footnote 2 lacks "Result not verified by MLCommons Association." or the statement that derived metrics are not official MLPerf® metrics',
        )
    ],
    "MLP007_comparison_undisclosed.md": [
        (
            "MLP007",
            6,
            1,
            "1.41× compares rows that differ in category (Available, Preview; state Available, Preview); chip count (8, 72; state 8, 72), and no section printing it says so",
        )
    ],
    "MLP008_open_closed.md": [
        (
            "MLP008",
            6,
            1,
            "-16.7% compares Open and Closed results without saying how the Open result would not qualify as Closed",
        )
    ],
    "MLP009_incompatible_rounds.md": [
        (
            "MLP009",
            6,
            1,
            "166.7% compares gpt-oss-120b across v5.1, v6.1; the Compatibility Table makes gpt-oss-120b comparable only from v6.0 on",
        )
    ],
    "MLP010_compatibility_unknown.md": [
        (
            "MLP010",
            6,
            1,
            "20.0% compares dlrm-v3 across v6.0, v6.1, and data/benchmarks.toml records no compatibility for it",
        )
    ],
    "MLP011_power_without_measurement.md": [
        (
            "MLP011",
            6,
            1,
            "10,000 sits beside a TDP figure: TDP is not an MLPerf® power metric; use only measured MLPerf® system power",
        ),
        (
            "MLP011",
            6,
            1,
            "power-normalized claim (per watt) on results without measured MLPerf® power: 6.1-0001",
        ),
    ],
    "MLP012_mark_without_sign.md": [("MLP012", 6, 5, '"MLPerf" without the ® sign')],
    "MLP013_mark_altered.md": [
        ("MLP013", 6, 38, 'altered mark "MLPerfs": write "MLPerf®" followed by the benchmark name'),
        ("MLP013", 6, 47, 'altered mark "ML-Perf": write "MLPerf®" followed by the benchmark name'),
    ],
    "MLP014_mark_without_benchmark_name.md": [
        (
            "MLP014",
            6,
            5,
            '"MLPerf®" is followed by "benchmark", not a full benchmark name such as "MLPerf® Inference v6.1"',
        )
    ],
    "MLP015_published_too_early.md": [
        (
            "MLP015",
            1,
            1,
            "published 2026-09-20, before 2026-09-30: non-submitters may publish v6.1 results only two weeks after their 2026-09-16 publication",
        )
    ],
    "MLP016_inferred_result.md": [
        ("MLP016", 6, 1, "entry 6.1-0006 gpt-oss-120b Server is marked inferred in the official file")
    ],
    "MLP017_unknown_entry.md": [("MLP017", 6, 34, "entry 6.1-0042 is not in the loaded results")],
    "MLP018_entry_typed_by_hand.md": [
        (
            "MLP018",
            6,
            43,
            "entry 6.1-0001 is typed by hand: print it with {{ entry(...) }} so that it is cited",
        )
    ],
    "MLP019_hand_typed_number.md": [
        ("MLP019", 6, 45, 'number "10,000" typed by hand: produce it with a placeholder'),
        ("MLP019", 6, 71, 'number "33%" typed by hand: produce it with a placeholder'),
    ],
    "MLP020_missing_date.md": [
        ("MLP020", 1, 1, "front matter has no date: add the publication date (date: YYYY-MM-DD)")
    ],
}


def checker_for(table: ResultsTable, manifest: Manifest, config: CheckConfig | None = None) -> Checker:
    cfg = config or CheckConfig.load(ROOT / "data" / "check.toml")
    return Checker(manifest, cfg, set(table.df["result_id"]), set(table.df["benchmark"]))


def findings_for(
    path: Path, table: ResultsTable, manifest: Manifest, config: CheckConfig | None = None
) -> list[Finding]:
    lib = Library(table, manifest, Prices.load(ROOT / "data" / "prices.toml"))
    found, _ = check_rendered(Renderer(lib), checker_for(table, manifest, config), [path])
    return found


def test_the_corpus_covers_every_rule() -> None:
    assert sorted(n.split("_")[0] for n in EXPECTED) == sorted(RULES)
    assert sorted(p.name for p in BAD.glob("*.md")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_article_gets_its_exact_finding(name: str, check_table: ResultsTable, manifest: Manifest) -> None:
    rule = name.split("_")[0]
    found = findings_for(BAD / name, check_table, manifest)
    results = Path(check_table.reports[0].path).parent.parent
    got = [(f.rule, f.line, f.col, f.message) for f in found if f.rule == rule]
    want = [(r, ln, c, m.replace("{results}", str(results))) for r, ln, c, m in EXPECTED[name]]
    assert got == want
    assert all(f.path == str(BAD / name) for f in found)
    assert {f.severity for f in found if f.rule == rule} == {RULES[rule].severity}


def test_reference_article_passes_with_zero_errors(official: ResultsTable, manifest: Manifest) -> None:
    found = findings_for(ROOT / "content" / "mlperf-inference-v6.1-per-gpu.md", official, manifest)
    assert [str(f) for f in found if f.severity == "error"] == []
    # what it does warn about: unmarked paragraphs and the inferred VR200/GB300 rows
    assert {f.rule for f in found} <= {"MLP002", "MLP016"}


def test_severity_is_configurable_per_rule(
    tmp_path: Path, check_table: ResultsTable, manifest: Manifest
) -> None:
    cfg_path = tmp_path / "check.toml"
    cfg_path.write_text('[severity]\nMLP019 = "warning"\nMLP012 = "ignore"\n', encoding="utf-8")
    cfg = CheckConfig.load(cfg_path)
    found = findings_for(BAD / "MLP019_hand_typed_number.md", check_table, manifest, cfg)
    assert {f.severity for f in found if f.rule == "MLP019"} == {"warning"}
    found = findings_for(BAD / "MLP012_mark_without_sign.md", check_table, manifest, cfg)
    assert [f for f in found if f.rule == "MLP012"] == []


def test_bad_severity_config_is_named(tmp_path: Path) -> None:
    cfg_path = tmp_path / "check.toml"
    cfg_path.write_text('[severity]\nMLP999 = "error"\n', encoding="utf-8")
    with pytest.raises(Exception) as exc:
        CheckConfig.load(cfg_path)
    assert str(exc.value) == f"{cfg_path}: severity: unknown rule 'MLP999'"


def test_first_per_section_mark_mode(tmp_path: Path, check_table: ResultsTable, manifest: Manifest) -> None:
    art = tmp_path / "a.md"
    art.write_text(
        "---\ntitle: t\ndate: 2026-10-05\n---\n# One\n\nMLPerf® Inference v6.1 and MLPerf Inference again.\n\n# Two\n\nMLPerf Inference here.\n",
        "utf-8",
    )
    cfg = CheckConfig.load(ROOT / "data" / "check.toml")
    each = [(f.line, f.col) for f in findings_for(art, check_table, manifest, cfg) if f.rule == "MLP012"]
    cfg.registered = "first-per-section"
    first = [(f.line, f.col) for f in findings_for(art, check_table, manifest, cfg) if f.rule == "MLP012"]
    assert each == [(7, 28), (11, 1)]
    assert first == [(11, 1)]


def test_every_rule_is_documented() -> None:
    doc = (ROOT / "docs" / "compliance-rules.md").read_text("utf-8")
    assert doc == rules_markdown(), "docs/compliance-rules.md is stale: run `gpu-insights docs --write`"
    for code, rule in RULES.items():
        assert re.search(rf"^\| {code} \| `{rule.name}` \| {rule.severity} \|", doc, re.M), code
        assert rule.description and rule.guideline


def test_check_command_text_and_json(tmp_path: Path) -> None:
    runner = CliRunner()
    bad = BAD / "MLP012_mark_without_sign.md"
    res = runner.invoke(main, ["check", str(bad)])
    assert res.exit_code == 1
    assert f'{bad}:6:5 MLP012 error: "MLPerf" without the ® sign' in res.output
    res = runner.invoke(main, ["check", str(bad), "--format", "json"])
    assert res.exit_code == 1
    data = json.loads(res.stdout)
    assert data[0] == {
        "path": str(bad),
        "line": 6,
        "col": 5,
        "rule": "MLP012",
        "name": "mark-without-registered-sign",
        "severity": "error",
        "message": '"MLPerf" without the ® sign',
    }


def test_check_exit_codes_with_warnings_and_strict(tmp_path: Path) -> None:
    runner = CliRunner()
    warn_only = tmp_path / "undated.md"
    warn_only.write_text('---\ntitle: Undated\nrounds: ["6.1"]\n---\n\nNo results here.\n', "utf-8")
    res = runner.invoke(main, ["check", str(warn_only)])
    assert f"{warn_only}:1:1 MLP020 warning: front matter has no date" in res.output
    assert runner.invoke(main, ["check", str(warn_only)]).exit_code == 0
    assert runner.invoke(main, ["check", str(warn_only), "--strict"]).exit_code == 1


def test_every_placeholder_is_documented() -> None:
    from generator.docs import placeholders_markdown
    from generator.functions import Library

    doc = (ROOT / "docs" / "placeholders.md").read_text("utf-8")
    assert doc == placeholders_markdown(Library.namespace_functions()), (
        "docs/placeholders.md is stale: run `gpu-insights docs --write`"
    )
    for name, fn in Library.namespace_functions().items():
        assert fn.__doc__, f"{name} has no docstring"
        assert f"### `{name}(" in doc
