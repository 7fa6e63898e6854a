"""Findings: rule, severity, file, line and column, message, and what to write instead."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from generator.check.registry import RULES


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int
    col: int
    rule: str
    severity: str
    message: str
    help: str = ""

    def __str__(self) -> str:
        head = f"{self.path}:{self.line}:{self.col} {self.rule} {self.severity}: {self.message}"
        return head + (f"\n    help: {self.help}" if self.help else "")

    def as_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "rule": self.rule,
            "name": RULES[self.rule].name if self.rule in RULES else "",
            "severity": self.severity,
            "message": self.message,
            "help": self.help,
        }


def by_path(findings: Iterable[Finding]) -> dict[str, list[Finding]]:
    """*findings* grouped by the file they are in, each file's in their order."""
    out: dict[str, list[Finding]] = {}
    for f in findings:
        out.setdefault(f.path, []).append(f)
    return out


def failed(findings: list[Finding] | tuple[Finding, ...], *, strict: bool) -> bool:
    levels = {"error", "warning"} if strict else {"error"}
    return any(f.severity in levels for f in findings)
