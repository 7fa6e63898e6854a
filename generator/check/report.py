"""How findings and rules are shown: the rules reference page (like ruff's rule pages, with
a bad and a good example each) and a per-article report page for the editor's review."""

from __future__ import annotations

import inspect

from generator.article.escape import md
from generator.check import scope
from generator.check.findings import Finding
from generator.check.registry import RULES

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
