"""The rule registry: every rule has a stable code, a name, a default severity, the
guideline it reads, and its documentation (what, why, a bad and a good example), like
ruff's rule pages. Rule functions take a :class:`~generator.check.context.Context` and
yield :class:`Issue` objects; the runner turns them into findings."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from generator.check.context import Context

SEVERITIES = ("error", "warning", "info", "ignore")


@dataclass(frozen=True)
class Issue:
    """What a rule found: where (a rendered offset, or a template line and column) and what to do."""

    message: str
    offset: int | None = None
    line: int | None = None
    col: int = 1
    help: str = ""
    #: the evidence is incomplete (the checker cannot decide): reported at most as a warning,
    #: which ``--strict`` still fails on
    undecided: bool = False


Check = Callable[["Context"], Iterable[Issue]]


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    family: str
    severity: str
    guideline: str
    summary: str
    bad: str
    good: str
    check: Check | None = None
    #: (bad, good) where the scope comes from outside the sentence (a heading, a lead, a caption)
    scoped: tuple[str, str] = ("", "")

    @property
    def doc(self) -> str:
        """What the rule does and why: its function's docstring."""
        return inspect.getdoc(self.check) or "" if self.check else ""


RULES: dict[str, Rule] = {}


def rule(
    code: str,
    name: str,
    *,
    family: str,
    severity: str,
    guideline: str,
    summary: str,
    bad: str,
    good: str,
    scoped: tuple[str, str] = ("", ""),
) -> Callable[[Check], Check]:
    """Register a rule function under *code*; *scoped* is a bad and a good example whose scope
    comes from outside the sentence, for the rules that read the scope model."""

    def register(fn: Check) -> Check:
        if code in RULES:
            raise ValueError(f"rule {code} registered twice")
        RULES[code] = Rule(
            code, name, family, severity, guideline, summary, bad.strip("\n"), good.strip("\n"), fn, scoped
        )
        return fn

    return register


def declare(
    code: str,
    name: str,
    *,
    family: str,
    severity: str,
    guideline: str,
    summary: str,
    bad: str = "",
    good: str = "",
) -> None:
    """A rule the runner itself reports (template errors, suppressions, internal errors)."""
    RULES[code] = Rule(code, name, family, severity, guideline, summary, bad, good, None)
