"""The editor's compliance checker, rebuilt on claims.

``document`` parses an article into blocks and sentences; ``claims`` and ``matching`` turn
every printed or typed number into a claim with the official rows it rests on; ``notes``
reads footnotes in every style; the rule families in ``rules/`` read those, never raw
text; ``runner`` applies severities and suppressions; ``report`` writes the reference.
"""

from generator.check import rules as _rules  # noqa: F401 - registers every rule
from generator.check.config import CheckConfig
from generator.check.findings import Finding, by_path, failed
from generator.check.registry import RULES, Rule
from generator.check.report import report_markdown, rules_markdown
from generator.check.runner import Checker, check_rendered

__all__ = [
    "RULES",
    "CheckConfig",
    "Checker",
    "Finding",
    "Rule",
    "by_path",
    "check_rendered",
    "failed",
    "report_markdown",
    "rules_markdown",
]
