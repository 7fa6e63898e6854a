"""Findings as a SARIF 2.1.0 log (``gpu-insights check --format sarif``), for GitHub code
scanning (``github/codeql-action/upload-sarif``) and any other SARIF reader.

One run: the tool's driver lists every rule of the registry (its code as ``id``, its name, its
summary and documentation, a link to its section of the rules reference and its default
level); each finding is a result with the rule, the level it was reported at, the message (and
what to write instead) and where: the article's path relative to the publication root (the
folder of ``mkdocs.yml``, ``%SRCROOT%``), its line and column. A file outside the publication
is named by its absolute ``file:`` URI. Columns count characters (``unicodeCodePoints``).
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from generator import __version__
from generator.check.findings import Finding
from generator.check.registry import RULES, Rule

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
#: the publication root, which relative artifact URIs are resolved against
ROOT_ID = "%SRCROOT%"
#: a finding's severity as a SARIF level (a rule configured ``ignore`` reports nothing)
LEVELS = {"error": "error", "warning": "warning", "info": "note", "ignore": "none"}


def sarif_log(findings: list[Finding], root: Path, rules_url: str = "") -> dict[str, object]:
    """The SARIF log of *findings*, paths relative to the publication *root*. Each rule's
    ``helpUri`` is its section of the rules reference (``docs/compliance-rules.md``, ``#mlp012``)
    where the publication serves it (*rules_url*, ``[report] rules_url`` of ``check.toml``);
    without one there is no link (never an address that leads nowhere): the help text each rule
    carries in the log is the same documentation."""
    rules = sorted(RULES.values(), key=lambda r: r.code)
    index = {r.code: i for i, r in enumerate(rules)}
    run: dict[str, object] = {
        "tool": {
            "driver": {
                "name": "gpu-insights",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": [_descriptor(r, rules_url) for r in rules],
            }
        },
        "originalUriBaseIds": {ROOT_ID: {"uri": root.resolve().as_uri().rstrip("/") + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": [_result(f, root, index) for f in findings],
    }
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def help_uri(rule: Rule, rules_url: str) -> str:
    return f"{rules_url}#{rule.code.lower()}"


def _descriptor(rule: Rule, rules_url: str) -> dict[str, object]:
    doc = rule.doc or rule.summary
    markdown = [f"**{rule.code}** `{rule.name}` · {rule.guideline}", "", doc]
    if rule.bad:
        markdown += ["", "Example:", "", "```markdown", rule.bad, "```"]
    if rule.good:
        markdown += ["", "Use instead:", "", "```markdown", rule.good, "```"]
    config: dict[str, object] = {"level": LEVELS[rule.severity]}
    if rule.severity == "ignore":
        config["enabled"] = False
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": doc},
        **({"helpUri": help_uri(rule, rules_url)} if rules_url else {}),
        "help": {"text": doc, "markdown": "\n".join(markdown)},
        "defaultConfiguration": config,
        "properties": {"tags": [rule.family], "guideline": rule.guideline},
    }


def _result(f: Finding, root: Path, index: dict[str, int]) -> dict[str, object]:
    text = f.message + (f"\nhelp: {f.help}" if f.help else "")
    result: dict[str, object] = {"ruleId": f.rule}
    if f.rule in index:
        result["ruleIndex"] = index[f.rule]
    result |= {
        "level": LEVELS.get(f.severity, "warning"),
        "message": {"text": text},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": artifact_location(f.path, root),
                    "region": {"startLine": max(f.line, 1), "startColumn": max(f.col, 1)},
                }
            }
        ],
    }
    return result


def artifact_location(path: str, root: Path) -> dict[str, str]:
    """*path* as a URI relative to the publication *root* (``%SRCROOT%``), percent-encoded; a
    file outside it as its absolute ``file:`` URI (no base id: it would name another file)."""
    rel = relative_path(path, root)
    if rel is None:
        return {"uri": Path(path).resolve().as_uri()}
    return {"uri": quote(rel, safe="/"), "uriBaseId": ROOT_ID}


def relative_path(path: str, root: Path) -> str | None:
    """*path* relative to the publication *root*, with ``/``; None when it lies outside."""
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return None
