"""The rule registry: every rule has a stable code, a name, a default severity, the
guideline it reads, and its documentation (what, why, a bad and a good example), like
ruff's rule pages. Rule functions take a :class:`~generator.check.context.Context` and
yield :class:`Issue` objects; the runner turns them into findings. A rule whose findings need
no judgement declares its fix beside it (``@rule(..., fix=...)``): a function of the article's
source and one finding that returns the edit which removes it, or None where it cannot tell
(``gpu-insights check --fix``, :mod:`generator.check.fix`)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from generator.check.context import Context
    from generator.check.findings import Finding
    from generator.check.fix import Edit, Source

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
#: the edit that removes one finding from an article's source, or None where the fix would need
#: judgement (the text found there is not what the rule can mend)
Fix = Callable[["Source", "Finding"], "Edit | None"]


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
    fix: Fix | None = None

    @property
    def fixable(self) -> bool:
        """Whether ``check --fix`` mends this rule's findings (the mechanical ones)."""
        return self.fix is not None

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
    fix: Fix | None = None,
) -> Callable[[Check], Check]:
    """Register a rule function under *code*; *scoped* is a bad and a good example whose scope
    comes from outside the sentence, for the rules that read the scope model; *fix* makes the
    edit that removes one of its findings, for the rules whose findings need no judgement."""

    def register(fn: Check) -> Check:
        if code in RULES:
            raise ValueError(f"rule {code} registered twice")
        RULES[code] = Rule(
            code,
            name,
            family,
            severity,
            guideline,
            summary,
            bad.strip("\n"),
            good.strip("\n"),
            fn,
            scoped,
            fix,
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
