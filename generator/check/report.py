"""How findings and rules are shown: the rules reference page (like ruff's rule pages, with
a bad and a good example each), a per-article report page for the editor's review, and the
findings of ``gpu-insights check`` in each ``--format``: text, JSON (versioned), SARIF 2.1.0
(:mod:`generator.check.sarif`) and GitHub Actions workflow commands."""

from __future__ import annotations

import inspect
import json
from pathlib import Path

from generator.article.escape import md
from generator.check import scope
from generator.check.findings import Finding
from generator.check.registry import RULES
from generator.check.sarif import relative_path, sarif_log

#: the ``--format`` choices of ``gpu-insights check``
FORMATS = ("text", "json", "sarif", "github")
#: the version of ``--format json``'s document: raised when a field is removed or changes
#: meaning (a new field keeps it). 1: ``{"schema_version": 1, "findings": [...]}``; before it
#: the output was the bare list of findings
JSON_SCHEMA_VERSION = 1
#: a finding's severity as a workflow command (GitHub has error, warning and notice)
COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}

FAMILIES = [
    "template",
    "footnotes",
    "verification",
    "comparisons",
    "superlatives",
    "power",
    "mark",
    "timing",
    "numbers",
    "checker",
]


def rules_markdown() -> str:
    """The rules reference page, generated from the registry."""
    lines = [
        "# Compliance rules",
        "",
        "`gpu-insights check` reports these rules, each with a stable code. Change a rule's severity",
        "(`error`, `warning`, `info`, `ignore`) in `data/check.toml` under `[severity]`, or with",
        "`--config FILE`. Allow one finding where it is deliberate with an inline comment that gives",
        'the reason: `<!-- gpu-insights: allow MLP019 "model name" -->`. Exit status: 0 clean, 1 findings,',
        "2 usage error, 3 internal error. This page is generated from the rules' code (`gpu-insights check --rules-doc`).",
        "",
        *_fixable(),
        "",
        "## How the checker reads an article: the scope model",
        "",
        *_scope_model(),
        "",
        "## Rules",
        "",
        "| Code | Name | Default | Guideline | What it reports |",
        "|---|---|---|---|---|",
    ]
    ordered = sorted(
        RULES.values(), key=lambda r: (FAMILIES.index(r.family) if r.family in FAMILIES else 99, r.code)
    )
    for r in ordered:
        lines.append(
            f"| [{r.code}](#{r.code.lower()}) | `{r.name}` | {r.severity} | {r.guideline} | {md(r.summary)} |"
        )
    lines.append("")
    for r in ordered:
        lines += [
            f"## {r.code}",
            "",
            f"`{r.name}` · {r.family} · default **{r.severity}** · {r.guideline}"
            + (" · fixable" if r.fixable else ""),
            "",
        ]
        lines += [r.doc or r.summary, ""]
        if r.fix is not None:
            lines += ["**Fix** (`check --fix`): " + (inspect.getdoc(r.fix) or "").replace("\n", " "), ""]
        if r.bad:
            lines += ["**Example**", "", "```markdown", r.bad, "```", ""]
        if r.good:
            lines += ["**Use instead**", "", "```markdown", r.good, "```", ""]
        bad, good = r.scoped
        if bad:
            lines += ["**Example, with the scope outside the sentence**", "", "```markdown", bad, "```", ""]
        if good:
            lines += ["**Use instead**", "", "```markdown", good, "```", ""]
    return "\n".join(lines)


def _fixable() -> list[str]:
    """The paragraph that names the rules ``check --fix`` mends."""
    codes = ", ".join(
        f"[{r.code}](#{r.code.lower()})" for r in sorted(RULES.values(), key=lambda r: r.code) if r.fixable
    )
    return [
        f"`gpu-insights check --fix` mends the findings that need no judgement, of the rules marked *fixable*: {codes}.",
        "It changes nothing else of an article, never touches one that does not render (MLP000), and a",
        "finding whose fix would need judgement (a possessive \"MLPerf's\", a mark not followed by the benchmark's",
        "name) is left as it is. `--diff` prints the fixes as a unified diff instead of writing them.",
    ]


def _scope_model() -> list[str]:
    """The scope model's own documentation (generator/check/scope.py), as the page explains it."""
    text = inspect.getdoc(scope) or ""
    return text.split("\n\n", 1)[1].splitlines() if "\n\n" in text else text.splitlines()


def report_markdown(title: str, findings: list[Finding]) -> str:
    lines = [f"# Compliance report: {md(title)}", ""]
    if not findings:
        return "\n".join(lines + ["No findings: the article follows every checked rule.", ""])
    counts = {s: sum(1 for f in findings if f.severity == s) for s in ("error", "warning", "info")}
    lines += [
        f"{counts['error']} errors, {counts['warning']} warnings, {counts['info']} notes.",
        "",
        "| Line | Rule | Severity | Finding |",
        "|--:|---|---|---|",
    ]
    for f in findings:
        name = RULES[f.rule].name if f.rule in RULES else ""
        help_ = f" *{md(f.help)}*" if f.help else ""
        lines.append(f"| {f.line}:{f.col} | {f.rule} `{name}` | {f.severity} | {md(f.message)}{help_} |")
    return "\n".join(lines) + "\n"


def format_findings(findings: list[Finding], fmt: str, root: Path, rules_url: str = "") -> str:
    """*findings* as ``gpu-insights check --format FMT`` prints them (each line ends in a newline;
    nothing for no findings in text and github); SARIF and GitHub paths are relative to the
    publication *root*."""
    if fmt == "json":
        doc = {"schema_version": JSON_SCHEMA_VERSION, "findings": [f.as_dict() for f in findings]}
        return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    if fmt == "sarif":
        return json.dumps(sarif_log(findings, root, rules_url), indent=1, ensure_ascii=False) + "\n"
    if fmt == "github":
        return "".join(workflow_command(f, root) + "\n" for f in findings)
    return "".join(f"{f}\n" for f in findings)


def workflow_command(f: Finding, root: Path) -> str:
    """A GitHub Actions workflow command that annotates *f*'s line in a pull request:
    ``::error file=content/x.md,line=5,col=1,title=MLP012::message``. The file is relative to the
    publication *root* (the repository root in the workflow ``init`` writes); the message carries
    the help on a second line."""
    path = relative_path(f.path, root) or f.path
    props = f"file={_property(path)},line={f.line},col={f.col},title={_property(f.rule)}"
    text = f.message + (f"\nhelp: {f.help}" if f.help else "")
    return f"::{COMMANDS.get(f.severity, 'warning')} {props}::{_data(text)}"


def _data(text: str) -> str:
    """A workflow command's message, escaped as GitHub's runner reads it (``%``, CR, LF)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """A workflow command's property value: the message's escapes and ``:`` and ``,``."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")
