"""The editor's checker, measured on a corpus of articles written outside it.

``tests/corpus/articles/intent.toml`` says, for each article, which rule an editor meant it to
break and where (written by the corpus authors, not derived from the checker). The tests assert
that intent article by article, the exact findings against a reviewed snapshot, and the
checker's behaviour around the rules: configuration, suppressions, internal errors, exit codes.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.article.functions import Library, Prices
from generator.article.render import Renderer
from generator.article.scaffold import scaffold, write_scaffold
from generator.check import RULES, CheckConfig, Checker, Finding, check_rendered, rules_markdown, vocabulary
from generator.check.corpus import Expected, Intent, Score, compare, evaluate, load_intent
from generator.check.registry import Rule
from generator.check.rules.verification import flagged
from generator.cli import main
from generator.data.manifest import Manifest
from generator.data.table import ResultsTable
from generator.docs import placeholders_markdown
from generator.site.cache import ReadCache

from .conftest import ROOT, shared_results_dir

CORPUS = Path(__file__).resolve().parent / "corpus" / "articles"
SNAPSHOT = CORPUS / "findings.json"
INTENTS = load_intent(CORPUS)
#: intended findings the checker does not report yet, each with the reason
KNOWN_MISSES: dict[tuple[str, str, int], str] = {}
META_RULES = {"MLP000", "MLP097", "MLP098", "MLP099"}  # tested inline below
#: rules no article on the shared official results can break, each with the reason (tested inline)
NO_CORPUS_CASE = {
    "MLP010": (
        "every benchmark the shared rounds hold in two rounds has a row in the Compatibility Table; "
        "tests/test_compatibility.py checks an article against an edition of the table without one"
    ),
    "MLP034": "an info note on a template's layout (the corpus scores errors and warnings); tests/test_check_fix.py reports and fixes it",
    "MLP035": "an info note on a template's layout (the corpus scores errors and warnings); tests/test_check_fix.py reports and fixes it",
}


def rel(i: Intent) -> str:
    return str(i.path.relative_to(CORPUS))


def make_checker(manifest: Manifest, table: ResultsTable, config: CheckConfig | None = None) -> Checker:
    return Checker(manifest, config or CheckConfig.load(ROOT / "data" / "check.toml"), table)


def renderer(manifest: Manifest, table: ResultsTable) -> Renderer:
    return Renderer(Library(table, manifest, Prices.load(ROOT / "data" / "prices.toml")))


def check(
    path: Path, official: ResultsTable, manifest: Manifest, config: CheckConfig | None = None
) -> list[Finding]:
    found, _ = check_rendered(renderer(manifest, official), make_checker(manifest, official, config), [path])
    return found


@pytest.fixture(scope="module")
def score(official: ResultsTable, manifest: Manifest) -> Score:
    return evaluate(renderer(manifest, official), make_checker(manifest, official), CORPUS)


def outcome(score: Score, intent: Intent):  # type: ignore[no-untyped-def]
    return next(o for o in score.outcomes if o.intent.path == intent.path)


# ---------------------------------------------------------------------------- the corpus


def test_the_corpus_has_three_bad_articles_per_rule_twenty_good_and_five_handwritten() -> None:
    bad = [i for i in INTENTS if i.kind == "bad"]
    per_rule = {
        code: sum(code in i.rules for i in bad)
        for code in RULES
        if code not in META_RULES and code not in NO_CORPUS_CASE
    }
    assert {c: n for c, n in per_rule.items() if n < 3} == {}
    assert all(i.path.name.startswith(next(iter(i.rules))) and len(i.rules) == 1 for i in bad)
    assert sum(i.kind == "good" for i in INTENTS) >= 20
    handwritten = [i for i in INTENTS if i.kind == "handwritten"]
    assert len(handwritten) >= 5
    assert all("{{" not in i.path.read_text("utf-8") for i in handwritten)


@pytest.mark.parametrize("intent", [i for i in INTENTS if i.kind != "good"], ids=rel)
def test_each_intended_finding_is_reported_and_nothing_else(score: Score, intent: Intent) -> None:
    o = outcome(score, intent)
    misses = [(e.rule, e.line) for e in o.misses if (rel(intent), e.rule, e.line) not in KNOWN_MISSES]
    assert misses == [], [str(f) for f in o.findings]
    assert [str(f) for f in o.extra] == []


@pytest.mark.parametrize("intent", [i for i in INTENTS if i.kind == "good"], ids=rel)
def test_a_compliant_article_has_no_finding_under_strict(score: Score, intent: Intent) -> None:
    assert [str(f) for f in outcome(score, intent).findings] == []


def test_known_misses_are_still_misses(score: Score) -> None:
    """A known miss that the checker now reports must leave the list."""
    for (path, code, line), why in KNOWN_MISSES.items():
        o = next(o for o in score.outcomes if rel(o.intent) == path)
        assert (code, line) in [(e.rule, e.line) for e in o.misses], why


def test_findings_match_the_reviewed_snapshot(score: Score) -> None:
    """Exact rule, line, column, severity and message of every finding of the corpus.

    After a deliberate change, regenerate with GPU_INSIGHTS_UPDATE_SNAPSHOT=1 and review the diff."""
    got = {
        rel(o.intent): [[f.rule, f.line, f.col, f.severity, f.message] for f in o.findings]
        for o in score.outcomes
    }
    if os.environ.get("GPU_INSIGHTS_UPDATE_SNAPSHOT"):
        SNAPSHOT.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n", "utf-8")
    assert got == json.loads(SNAPSHOT.read_text("utf-8"))


def test_recall_and_precision_of_the_corpus(score: Score) -> None:
    assert score.expected >= 110
    assert score.recall >= (score.expected - len(KNOWN_MISSES)) / score.expected
    assert score.precision == 1.0


def test_a_finding_says_what_it_found_in_a_handwritten_article(score: Score) -> None:
    o = next(o for o in score.outcomes if o.intent.path.name.startswith("H1_"))
    messages = {f.rule: f.message for f in o.findings}
    assert messages["MLP029"].startswith("64,909.3")
    assert "nearest" in messages["MLP029"] and "6.1-0078" in messages["MLP029"]
    assert messages["MLP030"].startswith("89,856.3 matches 6.1-0077")
    assert messages["MLP030"].endswith("which no footnote cites")


# ---------------------------------------------------------------------------- publications


@pytest.mark.parametrize(
    "name", ["mlperf-inference-v6.1-per-gpu.md", "mlperf-inference-v6.1-round-overview.md"]
)
def test_the_project_s_articles_pass_strict(name: str, official: ResultsTable, manifest: Manifest) -> None:
    """The reference article and the round overview (a rule that flags one fails every build of
    the official results, and every test that builds it)."""
    found = check(ROOT / "content" / name, official, manifest)
    assert [str(f) for f in found] == []


@pytest.mark.parametrize("version", ["5.1", "6.0", "6.1"])
def test_every_new_starter_passes_strict(
    version: str, tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    path = tmp_path / f"starter-{version}.md"
    write_scaffold(path, scaffold(official, manifest, version, today=dt.date(2026, 12, 2)))
    assert [str(f) for f in check(path, official, manifest)] == []


# ---------------------------------------------------------------------------- around the rules


def article(tmp_path: Path, body: str, front: str = "title: t\ndate: 2026-10-05\n") -> Path:
    path = tmp_path / "a.md"
    path.write_text(f"---\n{front}---\n{body}", "utf-8")
    return path


def test_severity_is_configurable_per_rule(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    cfg_path = tmp_path / "check.toml"
    cfg_path.write_text('[severity]\nMLP012 = "warning"\nMLP028 = "ignore"\n', encoding="utf-8")
    found = check(
        article(tmp_path, "MLPerf Inference v6.1 is out.\n"), official, manifest, CheckConfig.load(cfg_path)
    )
    assert [(f.rule, f.severity) for f in found] == [("MLP012", "warning")]


def test_bad_severity_config_is_named(tmp_path: Path) -> None:
    cfg_path = tmp_path / "check.toml"
    cfg_path.write_text('[severity]\nMLP999 = "error"\n', encoding="utf-8")
    with pytest.raises(Exception) as exc:
        CheckConfig.load(cfg_path)
    assert str(exc.value) == f"{cfg_path}: severity: unknown rule 'MLP999'"


def test_first_per_section_mark_mode(tmp_path: Path, official: ResultsTable, manifest: Manifest) -> None:
    art = article(
        tmp_path,
        "# One\n\nMLPerf® Inference v6.1 and MLPerf Inference again.\n\n# Two\n\nMLPerf Inference here.\n",
    )
    cfg = CheckConfig.load(ROOT / "data" / "check.toml")
    each = [(f.line, f.col) for f in check(art, official, manifest, cfg) if f.rule == "MLP012"]
    cfg.registered = "first-per-section"
    first = [(f.line, f.col) for f in check(art, official, manifest, cfg) if f.rule == "MLP012"]
    assert each == [(7, 28), (11, 1)]
    assert first == [(11, 1)]


def test_a_heading_of_new_records_and_the_best_platform_are_superlatives_a_best_row_is_not(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        "# Acme sets new records in MLPerf® Inference v6.1\n\n"
        "Acme's B300 cloud is the best platform for gpt-oss-120b in MLPerf® Inference v6.1.\n\n"
        "The best 8-GPU B300 row of MLPerf® Inference v6.1 gpt-oss-120b Server is entry 6.1-0052.\n\n"
        "The rules file records no compatibility for rgat in MLPerf® Inference v6.1.\n"  # the verb
    )
    found = [
        (f.line, f.col, f.message)
        for f in check(article(tmp_path, body), official, manifest)
        if f.rule == "MLP026"
    ]
    assert found == [
        (5, 8, '"sets new records" without its scenario, category, chip count'),
        # every B300 gpt-oss-120b row of v6.1 is Available: the data settle the category
        (7, 22, '"the best platform" without its scenario, chip count'),
    ]


def test_the_nearest_value_a_finding_suggests_is_of_the_benchmark_and_scenario_named(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """Entry 6.1-0075 also ran llama2-70b-99.9 Offline, at 131,464: closer to 131,000 than its
    gpt-oss-120b Offline result, which the sentence is about."""
    body = (
        "NVIDIA's 8-GPU GB300 system (entry 6.1-0075) delivered 131,000 tokens/s on MLPerf® Inference "
        "v6.1 Closed Datacenter gpt-oss-120b Offline in the Available category.\n"
    )
    found = [f.message for f in check(article(tmp_path, body), official, manifest) if f.rule == "MLP029"]
    assert found == [
        "131,000 (system result): no v6.1 entry gives this (nearest: 6.1-0075 gpt-oss-120b Offline 131,619 system result)"
    ]


def test_a_suppression_with_a_reason_silences_its_rule_on_its_paragraph(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        '<!-- gpu-insights: allow MLP012 "quoting the 2019 press release verbatim" -->\n'
        "MLPerf Inference v6.1 is out.\n\n"
        "<!-- gpu-insights: allow MLP012 -->\nMLPerf Inference again.\n\n"
        '<!-- gpu-insights: allow MLP019 "no number here" -->\nNothing to see.\n'
    )
    found = check(article(tmp_path, body), official, manifest)
    assert [(f.rule, f.line, f.col, f.message) for f in found if f.rule != "MLP028"] == [
        ("MLP098", 8, 1, "suppression of MLP012 gives no reason"),
        ("MLP012", 9, 1, '"MLPerf" without the ® sign'),
        ("MLP097", 11, 1, "suppression of MLP019 suppresses nothing"),
    ]


def _broken(ctx: object) -> list[object]:
    raise KeyError("scenario")


def test_a_failing_rule_is_an_internal_error_and_every_article_is_still_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rule = RULES["MLP026"]
    monkeypatch.setitem(RULES, "MLP026", Rule(**{**rule.__dict__, "check": _broken}))
    (tmp_path / "one.md").write_text("---\ntitle: one\ndate: 2026-10-05\n---\nMLPerf Inference.\n", "utf-8")
    (tmp_path / "two.md").write_text("---\ntitle: two\ndate: 2026-10-05\n---\nNo results.\n", "utf-8")
    res = CliRunner().invoke(main, ["check", str(tmp_path), "--results", str(shared_results_dir())])
    assert res.exit_code == 3
    internal = [ln for ln in res.output.splitlines() if " MLP099 " in ln]
    where = f"test_check.py:{_broken.__code__.co_firstlineno + 1}"
    assert internal == [
        f"{tmp_path}/{n}.md:1:1 MLP099 error: rule MLP026 failed: KeyError: 'scenario' ({where}); please report it"
        for n in ("one", "two")
    ]
    assert f"{tmp_path}/one.md:5:1 MLP012 error" in res.output


@pytest.mark.parametrize(
    "date", ["2026-09-25T08:00:00Z", "2026-09-25 08:00:00", "September 25, 2026", "25 September 2026"]
)
def test_dates_in_every_form_are_read(
    tmp_path: Path, date: str, official: ResultsTable, manifest: Manifest
) -> None:
    body = (
        'On gpt-oss-120b Server, entry {{ entry("6.1-0052", "gpt-oss-120b", "Server") }} delivered '
        '{{ result("6.1-0052", "gpt-oss-120b", "Server") }} tokens/s.{{ cite() }}\n\n{{ footnotes() }}\n\n'
        "{{ compliance() }}\n"
    )
    found = check(article(tmp_path, body, f"title: t\ndate: {date}\n"), official, manifest)
    assert [(f.rule, f.line, f.message) for f in found] == [
        (
            "MLP015",
            3,
            "dated 2026-09-25, before 2026-09-30: non-submitters may publish v6.1 results only two "
            "weeks after their 2026-09-16 publication",
        )
    ]


def test_an_article_citing_results_without_a_date_is_an_error(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    body = 'Entry {{ entry("6.1-0052", "gpt-oss-120b", "Server") }}.{{ cite() }}\n\n{{ footnotes() }}\n\n{{ compliance() }}\n'
    found = check(article(tmp_path, body, "title: t\n"), official, manifest)
    assert [(f.rule, f.severity, f.message, f.help) for f in found] == [
        (
            "MLP020",
            "error",
            "the front matter has no date, and the article cites results",
            "add the date it is published to the front matter, as date: YYYY-MM-DD",  # no date of ours
        )
    ]


def test_check_command_text_json_and_exit_codes(tmp_path: Path) -> None:
    runner = CliRunner()
    good = CORPUS / "good" / next(p.name for p in sorted((CORPUS / "good").glob("*.md")))
    res = runner.invoke(main, ["check", str(good), "--strict", "--results", str(shared_results_dir())])
    assert (res.exit_code, res.stdout) == (0, "")
    results = ["--results", str(shared_results_dir())]
    bad = article(tmp_path, "MLPerf Inference v6.1 is out.\n")
    res = runner.invoke(main, ["check", str(bad), *results])
    assert res.exit_code == 1
    assert res.stdout.splitlines()[0] == f'{bad}:5:1 MLP012 error: "MLPerf" without the ® sign'
    res = runner.invoke(main, ["check", str(bad), "--format", "json", *results])
    assert res.exit_code == 1
    assert json.loads(res.stdout)["findings"][0] == {
        "path": str(bad),
        "line": 5,
        "col": 1,
        "rule": "MLP012",
        "name": "mark-without-registered-sign",
        "severity": "error",
        "message": '"MLPerf" without the ® sign',
        "help": 'write "MLPerf®"',
    }
    unused = article(tmp_path, '<!-- gpu-insights: allow MLP019 "x" -->\nNo results.\n')
    assert runner.invoke(main, ["check", str(unused), *results]).exit_code == 0  # a warning
    assert runner.invoke(main, ["check", str(unused), "--strict", *results]).exit_code == 1
    assert runner.invoke(main, ["check", str(tmp_path / "missing.md")]).exit_code == 2


def test_check_of_a_folder_reads_its_sub_folders(tmp_path: Path) -> None:
    nested = tmp_path / "articles" / "2026" / "october"
    nested.mkdir(parents=True)
    (nested / "one.md").write_text("---\ntitle: one\ndate: 2026-10-05\n---\nMLPerf Inference.\n", "utf-8")
    (tmp_path / "articles" / ".drafts").mkdir()
    (tmp_path / "articles" / ".drafts" / "two.md").write_text("MLPerf Inference.\n", "utf-8")
    res = CliRunner().invoke(
        main,
        ["check", str(tmp_path / "articles"), "--format", "json", "--results", str(shared_results_dir())],
    )
    assert res.exit_code == 1
    assert [(f["path"], f["rule"]) for f in json.loads(res.stdout)["findings"]] == [
        (f"{nested}/one.md", "MLP012"),
        (f"{nested}/one.md", "MLP028"),
    ]


def test_check_of_a_folder_without_articles_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "empty" / "sub").mkdir(parents=True)
    res = CliRunner().invoke(main, ["check", str(tmp_path / "empty")])
    assert res.exit_code == 2
    assert res.output.splitlines()[-1] == (
        f"Error: {tmp_path}/empty: no articles (*.md) in this folder or its sub-folders"
    )


def test_check_outside_a_publication_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = article(tmp_path, "No results.\n")
    res = CliRunner().invoke(main, ["check", str(path)])
    assert res.exit_code == 2
    assert res.output.splitlines()[-1] == (
        f"Error: {tmp_path}: no mkdocs.yml here or in any parent folder; run the command inside a "
        "publication, pass -f PATH/mkdocs.yml, or create one with `gpu-insights init DIR`"
    )


def _findings_of(score: Score, name: str) -> list[Finding]:
    return next(o.findings for o in score.outcomes if o.intent.path.name == name)


def test_a_comparison_finding_says_what_it_compares_and_what_to_write(score: Score) -> None:
    scenario = _findings_of(score, "MLP007_8_offline-vs-server-racks.md")
    assert [(f.message, f.help) for f in scenario] == [
        (
            "15.3% compares Offline with Server results, and its sentence does not say so",
            'name each side\'s scenario, e.g. "... in the Offline scenario ... in the Server scenario"',
        )
    ]
    version = _findings_of(score, "MLP007_7_cross-round-earlier-this-year.md")
    assert [(f.line, f.message, f.help) for f in version] == [
        (
            12,
            "37.9% compares v6.1 with v6.0 results, and its sentence does not say so",
            'name v6.0 beside the result it gave, e.g. "... in MLPerf® Inference v6.0"',
        )
    ]
    chips = _findings_of(score, "MLP007_9_nvl72-rack-vs-8gpu-slice.md")
    assert [f.help for f in chips] == [
        'state each side\'s chip count, e.g. "the 72-GPU system ... the 8-GPU one"'
    ]


def test_a_number_is_matched_against_the_entries_its_footnotes_cite(
    tmp_path: Path, official: ResultsTable, manifest: Manifest
) -> None:
    """82,136 is the v6.0 result of 6.0-0002, which footnote [2] cites, though the sentence names
    no round and the article names only v6.1; a typo of it names what the rows do give."""
    source = (CORPUS / "bad" / "MLP007_7_cross-round-earlier-this-year.md").read_text("utf-8")
    typo = tmp_path / "typo.md"
    typo.write_text(source.replace("82,136 tokens/s", "82,163 tokens/s"), "utf-8")
    assert [(f.rule, f.line, f.message) for f in check(typo, official, manifest)] == [
        (
            "MLP029",
            12,
            "82,163 (system result): no v6.1 entry gives this, nor does 6.0-0002, which its footnote "
            "cites (nearest: 6.0-0002 gpt-oss-120b Server 82,136 system result)",
        )
    ]


def test_an_interactive_results_inferred_flag_is_the_scenarios(official: ResultsTable) -> None:
    """Every Interactive row of v6.0 and later carries the flag; the rule reads it only elsewhere."""
    df = official.df
    interactive = df[(df["scenario"] == "Interactive") & df["round"].isin(["6.0", "6.1"])]
    assert len(interactive) > 0 and bool(interactive["inferred"].all())
    rows = official.rows_of(df[df["inferred"]])
    assert not any(flagged(r) for r in rows if r.scenario == "Interactive")
    assert {r.suite for r in rows if flagged(r) and r.round == "5.1"} == {"edge"}


# ---------------------------------------------------------------------------- the rules' docs


def test_every_rule_is_documented_with_a_bad_and_a_good_example() -> None:
    doc = (ROOT / "docs" / "compliance-rules.md").read_text("utf-8")
    assert doc == rules_markdown(), "docs/compliance-rules.md is stale: run `gpu-insights docs --write`"
    for code, r in RULES.items():
        assert re.search(rf"^\| \[{code}\]\(#{code.lower()}\) \| `{r.name}` \| {r.severity} \|", doc, re.M), (
            code
        )
        assert f"## {code}" in doc, code
        assert r.summary and r.guideline and r.bad and r.good, code
        assert code in META_RULES or r.doc, code


def test_every_placeholder_is_documented() -> None:
    doc = (ROOT / "docs" / "placeholders.md").read_text("utf-8")
    assert doc == placeholders_markdown(Library.namespace_functions()), (
        "docs/placeholders.md is stale: run `gpu-insights docs --write`"
    )
    for name, fn in Library.namespace_functions().items():
        assert fn.__doc__, f"{name} has no docstring"
        assert f"### `{name}(" in doc


def test_the_rounds_articles_name_are_prepared_for_checking_while_they_render(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While articles render, the checker makes the rows of the rounds their front matter names
    (what its first check would otherwise do); an article that cannot be read names none, and
    is still reported."""
    (tmp_path / "one").mkdir()
    good = article(tmp_path / "one", "A short note.\n", front='title: t\ndate: 2026-10-05\nrounds: ["6.0"]\n')
    bad = tmp_path / "b.md"
    bad.write_text("---\ntitle: [\n---\nText.\n", "utf-8")
    checker = make_checker(manifest, official)
    assert checker.matcher is not None
    prepared: list[list[str]] = []
    real = checker.prepare
    monkeypatch.setattr(
        checker, "prepare", lambda rounds, known: (prepared.append(sorted(rounds)), real(rounds, known))
    )
    found, _ = check_rendered(renderer(manifest, official), checker, [good, bad])
    assert prepared == [["6.0"]]
    assert checker.matcher.by_id.rounds == {"6.0"}
    assert [(Path(f.path).name, f.rule) for f in found] == [("b.md", "MLP000")]


def test_an_edited_article_is_checked_reading_only_its_new_sentences(
    tmp_path: Path, official: ResultsTable, manifest: Manifest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the vocabulary read in the last check of an article is kept (by the code, data and
    table): checking it again after an edit reads only what changed, and finds the same."""
    reference = (ROOT / "content" / "mlperf-inference-v6.1-per-gpu.md").read_text("utf-8")
    path = tmp_path / "edited.md"
    read: list[str] = []
    real = vocabulary.Vocabulary._read_uncached
    monkeypatch.setattr(vocabulary.Vocabulary, "_read_uncached", lambda v, t: (read.append(t), real(v, t))[1])

    def check_with(cache: ReadCache) -> list[Finding]:
        found, _ = check_rendered(
            renderer(manifest, official), make_checker(manifest, official), [path], reads=cache
        )
        return found

    path.write_text(reference, "utf-8")
    first = check_with(ReadCache(tmp_path / "reads", "key"))
    assert len(read) > 200
    path.write_text(reference + "\nThe B300 leads at eight GPUs per node.\n", "utf-8")
    read.clear()
    again = check_with(ReadCache(tmp_path / "reads", "key"))
    assert read == ["The B300 leads at eight GPUs per node."]
    read.clear()
    assert check_with(ReadCache(tmp_path / "reads", "other code or data")) == again
    assert len(read) > 200
    assert [f for f in again if f.line <= len(reference.splitlines())] == first


def test_a_finding_on_another_line_of_the_editors_paragraph_is_near_not_a_hit(tmp_path: Path) -> None:
    """Strict recall asks for the editor's line; the paragraph recall takes the paragraph a
    reader is shown (a comparison reported at its percentage, two lines below the word the editor
    pointed at)."""
    path = tmp_path / "a.md"
    path.write_text("---\ntitle: t\n---\n\nOne\ntwo\nthree\n\nfour\n", "utf-8")
    intent = Intent(path, "bad", [Expected("MLP007", 5, 1), Expected("MLP007", 9, 1)])
    found = [Finding(str(path), 7, 3, "MLP007", "error", "m")]
    out = compare(intent, found)
    assert (out.hits, out.near, [e.line for e in out.misses]) == ([], [Expected("MLP007", 5, 1)], [5, 9])
    assert Score([out]).recall == 0.0 and Score([out]).recall_paragraph == 0.5
