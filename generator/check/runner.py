"""Running the rules on articles: severities, inline suppressions, internal errors.

``<!-- gpu-insights: allow MLP019 "model name" -->`` on its own line allows the listed rules
in the block that follows it; at the end of a line, on that line. A suppression needs a
quoted reason, and one that suppresses nothing is reported. An exception inside a rule is
an internal-error finding naming the rule, and every other rule and article still runs.
"""

from __future__ import annotations

import contextlib
import re
import traceback
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from generator.article.frontmatter import load_article
from generator.article.pool import Cache, Outcome, render_articles
from generator.article.render import Rendered, Renderer
from generator.budget import OverTime, within
from generator.check.config import CheckConfig
from generator.check.context import Context
from generator.check.findings import Finding
from generator.check.matching import Matcher
from generator.check.registry import RULES, Issue, declare
from generator.check.vocabulary import Mentions, Vocabulary
from generator.data.manifest import Manifest
from generator.data.rowtable import RowTable
from generator.errors import GpuInsightsError

if TYPE_CHECKING:
    from generator.data.table import ResultsTable

SUPPRESS = re.compile(
    r"<!--\s*gpu-insights:\s*allow\s+([A-Z]{3}\d{3}(?:\s*,\s*[A-Z]{3}\d{3})*)\s*(\"[^\"]*\"|'[^']*')?\s*-->"
)

declare(
    "MLP000",
    "template-error",
    family="template",
    severity="error",
    guideline="§2 Required Information",
    summary="The article does not render (unknown entry, syntax error, undefined name, a limit exceeded).",
    bad='{{ per_gpu("6.1-0999", "gpt-oss-120b", "Server") }}  (no such entry)',
    good='{{ per_gpu("6.1-0052", "gpt-oss-120b", "Server") }}',
)
declare(
    "MLP097",
    "unused-suppression",
    family="checker",
    severity="warning",
    guideline="checker",
    summary="An inline suppression that suppresses no finding.",
    bad='<!-- gpu-insights: allow MLP019 "model name" -->  (on a paragraph with no MLP019 finding)',
    good="(remove the suppression once the finding it silenced is gone)",
)
declare(
    "MLP098",
    "suppression-without-reason",
    family="checker",
    severity="error",
    guideline="checker",
    summary='An inline suppression without a quoted reason: <!-- gpu-insights: allow MLP019 "why" -->.',
    bad="<!-- gpu-insights: allow MLP019 -->",
    good='<!-- gpu-insights: allow MLP019 "Llama 2 70B is a model name" -->',
)
declare(
    "MLP099",
    "internal-error",
    family="checker",
    severity="error",
    guideline="checker",
    summary="A rule failed with an exception; the other rules and articles were still checked.",
    bad="MLP007 failed: KeyError 'scenario'  (exit status 3)",
    good="(report it with the article that triggers it; the finding names the rule)",
)


@dataclass
class Suppression:
    codes: tuple[str, ...]
    reason: str
    line: int
    col: int
    lines: range
    used: bool = False


def suppressions(source: str) -> list[Suppression]:
    lines = source.split("\n")
    out = []
    for m in SUPPRESS.finditer(source):
        line = source.count("\n", 0, m.start()) + 1
        col = m.start() - (source.rfind("\n", 0, m.start()) + 1) + 1
        codes = tuple(c.strip() for c in m.group(1).split(","))
        reason = (m.group(2) or "").strip("\"'")
        alone = not lines[line - 1].replace(m.group(0), "").strip()
        if alone:
            start = line + 1
            while start <= len(lines) and not lines[start - 1].strip():
                start += 1
            end = start
            while end <= len(lines) and lines[end - 1].strip():
                end += 1
            scope = range(start, end)
        else:
            scope = range(line, line + 1)
        out.append(Suppression(codes, reason, line, col, scope))
    return out


class Reads(Protocol):
    """What the vocabulary read while checking each article, kept between checks."""

    def load(self, paths: list[Path]) -> dict[str, Mentions]: ...
    def save(self, path: Path, read: dict[str, Mentions]) -> None: ...


#: the CPU time an article's check may take: a base and a share per character (a real article of
#: the project checks in 0.02 to 0.35 s of CPU; 200 KB of hostile text is refused after 2 s)
CHECK_SECONDS = 1.0
CHECK_SECONDS_PER_CHAR = 5e-6


class Checker:
    """Checks rendered articles against the guidelines, with the data they cite."""

    def __init__(
        self,
        manifest: Manifest,
        config: CheckConfig,
        table: ResultsTable | RowTable,
        *,
        sample: bool = False,
    ) -> None:
        self.manifest = manifest
        self.config = config
        self.table = table
        #: the rows as plain lists: the rules never need pandas (a loaded table's own rows)
        self.rows = table if isinstance(table, RowTable) else RowTable.of(table)
        self.vocab = Vocabulary(manifest, self.rows.values("benchmark"))
        self.matcher = None if sample else Matcher(self.rows)

    def prepare(self, rounds: Iterable[str], known: Mapping[str, Mentions] | None = None) -> None:
        """Do now what the first check would otherwise do (the vocabulary's patterns, the rows of
        *rounds*, what the *known* texts name), while articles render elsewhere."""
        self.vocab.prepare()
        if known:
            self.vocab.seed(known)
        if self.matcher is not None:
            self.matcher.by_id.prepare(r for r in rounds if r in self.table.rounds)

    def _finding(self, ctx: Context, code: str, issue: Issue) -> Finding:
        if issue.line is not None:
            line, col = issue.line, issue.col
        elif issue.offset is not None:
            line, col = ctx.doc.position(issue.offset)
        else:
            line, col = 1, 1
        severity = self.config.severity(code)
        if issue.undecided and severity == "error":
            severity = "warning"
        return Finding(ctx.path, line, col, code, severity, issue.message, issue.help)

    def check(self, rendered: Rendered) -> list[Finding]:
        """Every rule's findings on *rendered*, within a budget of CPU time: an article that would
        take longer (a hostile or machine-made one of hundreds of KB) is refused with one MLP000
        finding that says so, never checked for minutes."""
        seconds = CHECK_SECONDS + CHECK_SECONDS_PER_CHAR * len(rendered.markdown)
        try:
            return within(seconds, lambda: self._check(rendered))
        except OverTime:
            return [
                Finding(
                    str(rendered.article.path),
                    1,
                    1,
                    "MLP000",
                    self.config.severity("MLP000"),
                    f"the article was not checked: checking it took more than {seconds:.1f} s of CPU time, "
                    f"the budget of an article of {len(rendered.markdown):,} characters",
                    "split it into shorter articles, or shorten its runs of numbers",
                )
            ]

    def _check(self, rendered: Rendered) -> list[Finding]:
        ctx = Context(rendered, self.manifest, self.config, self.vocab, self.matcher)
        out: list[Finding] = []
        for code, r in RULES.items():
            if r.check is None or self.config.severity(code) == "ignore":
                continue
            try:
                out.extend(self._finding(ctx, code, i) for i in r.check(ctx))
            except Exception as exc:  # noqa: BLE001 - one failing rule never stops the others
                where = traceback.extract_tb(exc.__traceback__)[-1]
                out.append(
                    Finding(
                        ctx.path,
                        1,
                        1,
                        "MLP099",
                        self.config.severity("MLP099"),
                        f"rule {code} failed: {type(exc).__name__}: {exc} "
                        f"({Path(where.filename).name}:{where.lineno}); please report it",
                    )
                )
        return sorted(set(self._suppress(ctx, out)))

    def _suppress(self, ctx: Context, findings: list[Finding]) -> list[Finding]:
        sups = suppressions(rendered_source(ctx))
        kept = []
        for f in findings:
            hit = next((s for s in sups if f.rule in s.codes and f.line in s.lines and s.reason), None)
            if hit is None:
                kept.append(f)
            else:
                hit.used = True
        for s in sups:
            if not s.reason:
                kept.append(
                    Finding(
                        ctx.path,
                        s.line,
                        s.col,
                        "MLP098",
                        self.config.severity("MLP098"),
                        f"suppression of {', '.join(s.codes)} gives no reason",
                        'write the reason in quotes: <!-- gpu-insights: allow MLP019 "model name" -->',
                    )
                )
            elif not s.used and self.config.severity("MLP097") != "ignore":
                kept.append(
                    Finding(
                        ctx.path,
                        s.line,
                        s.col,
                        "MLP097",
                        self.config.severity("MLP097"),
                        f"suppression of {', '.join(s.codes)} suppresses nothing",
                        "remove it",
                    )
                )
        return kept


def rendered_source(ctx: Context) -> str:
    return ctx.rendered.article.body


def check_rendered(
    renderer: Renderer,
    checker: Checker,
    paths: Iterable[Path],
    *,
    jobs: int | None = None,
    cache: Cache | None = None,
    reads: Reads | None = None,
    render: Callable[..., list[Outcome]] = render_articles,
) -> tuple[list[Finding], list[Rendered]]:
    """Render (with *render*: in workers, by default) and check each article; one that fails to
    render, or needs data that is not loaded, is an MLP000 finding. *reads* keeps what the
    vocabulary read in each article's check, for the next check of it."""
    findings: list[Finding] = []
    rendered: list[Rendered] = []
    sev = checker.config.severity("MLP000")
    paths = list(paths)
    known: dict[str, Mentions] = {}

    def meanwhile() -> None:
        if reads is not None:
            known.update(reads.load(paths))
        checker.prepare(_front_matter_rounds(paths), known)

    for o in render(renderer, paths, jobs=jobs, cache=cache, meanwhile=meanwhile):
        if o.rendered is None:
            m = re.match(r"(.*?):(\d+)(?::(\d+))?: (.*)", o.error, re.S)
            line, col, msg = (int(m.group(2)), int(m.group(3) or 1), m.group(4)) if m else (1, 1, o.error)
            findings.append(Finding(str(o.path), line, col, "MLP000", sev, msg))
            continue
        if o.rendered.missing:
            findings.append(
                Finding(str(o.path), 1, 1, "MLP000", sev, f"cannot check the article: {o.rendered.missing}")
            )
            continue
        rendered.append(o.rendered)
        read = checker.vocab.record()
        findings.extend(checker.check(o.rendered))
        if reads is not None and not read.keys() <= known.keys():  # something new was read
            reads.save(o.path, read)
    return findings, rendered


def _front_matter_rounds(paths: list[Path]) -> set[str]:
    """The rounds the articles' front matter names (an article that cannot be read names none:
    rendering reports it)."""
    rounds: set[str] = set()
    for p in paths:
        with contextlib.suppress(GpuInsightsError):
            rounds.update(load_article(p).rounds)
    return rounds
