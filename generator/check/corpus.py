"""Measuring the checker against a corpus of articles whose intended findings an editor wrote.

A corpus folder holds ``bad/`` (each article breaks one guideline), ``good/`` (compliant, no
finding expected under ``--strict``), ``handwritten/`` (press-release and news style, a list of
expected findings) and ``intent.toml``, which names for each article the rule, line and column
the editor meant, independently of what the checker says::

    ["bad/MLP011_1_tokens-per-joule-from-tgp.md"]
    rule = "MLP011"
    line = 12
    column = 40

    ["handwritten/H1_press-release.md"]
    rules = ["MLP029"]
    [["handwritten/H1_press-release.md".expect]]
    rule = "MLP029"
    line = 13
    column = 52

Recall is the share of intended findings reported by the intended rule on the intended line;
precision is the share of reported findings (errors and warnings) whose rule the article was
meant to break. ``bench/bench.py`` prints both; the tests assert them article by article.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from generator.article.render import Renderer
from generator.check.findings import Finding, by_path
from generator.check.runner import Checker, check_rendered
from generator.errors import DataError


@dataclass(frozen=True)
class Expected:
    """One finding an editor intended: rule, line and (optionally) column."""

    rule: str
    line: int
    column: int = 0


@dataclass
class Intent:
    """What an article of the corpus is meant to produce."""

    path: Path
    kind: str  # bad, good, handwritten
    expected: list[Expected]
    why: str = ""

    @property
    def rules(self) -> set[str]:
        return {e.rule for e in self.expected}


@dataclass
class Outcome:
    """One article checked: what was meant, what was found, and how they compare."""

    intent: Intent
    findings: list[Finding]
    hits: list[Expected] = field(default_factory=list)
    misses: list[Expected] = field(default_factory=list)
    extra: list[Finding] = field(default_factory=list)
    columns_off: list[Expected] = field(default_factory=list)
    #: misses the intended rule reports on another line of the editor's paragraph
    near: list[Expected] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.misses and not self.extra


@dataclass
class Score:
    outcomes: list[Outcome]

    @property
    def expected(self) -> int:
        return sum(len(o.intent.expected) for o in self.outcomes)

    @property
    def recall(self) -> float:
        return sum(len(o.hits) for o in self.outcomes) / max(1, self.expected)

    @property
    def recall_paragraph(self) -> float:
        """Recall counting a finding of the intended rule on another line of the paragraph the
        editor pointed into (the sentence a reader is shown)."""
        found = sum(len(o.hits) + len(o.near) for o in self.outcomes)
        return found / max(1, self.expected)

    @property
    def reported(self) -> int:
        return sum(len(_counted(o.findings)) for o in self.outcomes)

    @property
    def precision(self) -> float:
        wrong = sum(len(o.extra) for o in self.outcomes)
        return 1.0 - wrong / max(1, self.reported)

    def by_kind(self, kind: str) -> list[Outcome]:
        return [o for o in self.outcomes if o.intent.kind == kind]


def _expected(path: str, entry: dict) -> list[Expected]:
    if "expect" in entry:
        return [Expected(e["rule"], int(e["line"]), int(e.get("column", 0))) for e in entry["expect"]]
    if entry.get("rule"):
        return [Expected(entry["rule"], int(entry["line"]), int(entry.get("column", 0)))]
    return []


def load_intent(root: Path) -> list[Intent]:
    """Read ``intent.toml``; every article of the corpus must have an entry, and every entry an article."""
    file = root / "intent.toml"
    try:
        data = tomllib.loads(file.read_text("utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DataError(f"{file}: {exc}") from None
    out: list[Intent] = []
    for rel, entry in data.items():
        path = root / rel
        if not path.is_file():
            raise DataError(f"{file}: [{rel!r}] names no article of the corpus")
        out.append(Intent(path, rel.split("/")[0], _expected(rel, entry), entry.get("why", "")))
    named = {i.path for i in out}
    missing = sorted(str(p.relative_to(root)) for p in root.glob("*/*.md") if p not in named)
    if missing:
        raise DataError(f"{file}: no intended findings for {', '.join(missing)}")
    return sorted(out, key=lambda i: str(i.path))


def _counted(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity in ("error", "warning")]


def compare(intent: Intent, findings: list[Finding]) -> Outcome:
    """Match findings to intended ones: same rule, same line. The column an editor gave is where
    they would point; a finding on that line at another word of the same claim still counts,
    and :attr:`Outcome.columns_off` lists it."""
    out = Outcome(intent, findings)
    counted = _counted(findings)
    lines = intent.path.read_text("utf-8").splitlines() if intent.path.is_file() else []
    for e in intent.expected:
        same = [f for f in counted if f.rule == e.rule and f.line == e.line]
        (out.hits if same else out.misses).append(e)
        if same and e.column and all(f.col != e.column for f in same):
            out.columns_off.append(e)
        if not same and any(f.rule == e.rule and f.line in _paragraph(lines, e.line) for f in counted):
            out.near.append(e)
    out.extra = [f for f in counted if f.rule not in intent.rules]
    return out


def _paragraph(lines: list[str], line: int) -> range:
    """The 1-based lines of the paragraph (a run of non-blank lines) holding *line*."""
    if not 1 <= line <= len(lines) or not lines[line - 1].strip():
        return range(line, line + 1)
    first = last = line
    while first > 1 and lines[first - 2].strip():
        first -= 1
    while last < len(lines) and lines[last].strip():
        last += 1
    return range(first, last + 1)


def evaluate(renderer: Renderer, checker: Checker, root: Path) -> Score:
    """Check every article of the corpus at *root* and score the findings against intent.toml."""
    intents = load_intent(root)
    findings, _ = check_rendered(renderer, checker, [i.path for i in intents])
    mine = by_path(findings)
    return Score([compare(i, mine.get(str(i.path), [])) for i in intents])
