"""A template's closing blocks: where its generated footnotes and compliance paragraph go.

A template that cites results gets its footnotes even without ``{{ footnotes() }}`` (appended
at the end under a heading of their own), but not the compliance paragraph without
``{{ compliance() }}``. Both are notes (``info``): the page is compliant either way, and
``check --fix`` writes the placeholders where the project's templates have them."""

from __future__ import annotations

import re
from collections.abc import Iterator

from generator.article.render import FOOTNOTES_HEADING
from generator.check.context import Context
from generator.check.findings import Finding
from generator.check.fix import Edit, Source
from generator.check.registry import Issue, rule

#: a placeholder call written in the template's text (comments left out)
_COMMENT = re.compile(r"\{#.*?#\}", re.S)
FOOTNOTES_CALL = re.compile(r"\{\{-?\s*footnotes\(\s*\)\s*-?\}\}")
COMPLIANCE_CALL = re.compile(r"\{\{-?\s*compliance\(\s*\)\s*-?\}\}")


def _last_line(ctx: Context) -> int:
    """The template's last line with text: where the footnotes are appended without a place."""
    return len(ctx.rendered.article.body.rstrip().split("\n"))


def _call_line(source: Source, call: re.Pattern[str]) -> int:
    """The line of the first *call* in the source's text (0: none), comments left out."""
    text = _COMMENT.sub(lambda m: re.sub(r"[^\r\n]", " ", m.group(0)), source.text)
    m = call.search(text, source.body_start)
    return source.position(m.start())[0] if m else 0


def fix_footnotes(source: Source, f: Finding) -> Edit | None:
    """``{{ footnotes() }}`` under the heading the generator gives appended footnotes, before
    ``{{ compliance() }}`` when the template has it, else at its end."""
    nl = source.newline
    if not source.template or _call_line(source, FOOTNOTES_CALL):
        return None
    before = _call_line(source, COMPLIANCE_CALL)
    if before:
        prev = next((n for n in range(before - 1, 0, -1) if source.line_text(n).strip()), 0)
        heading = "" if source.line_text(prev).lstrip().startswith("#") else FOOTNOTES_HEADING + nl * 2
        return Edit.insert(before, 1, heading + "{{ footnotes() }}" + nl * 2)
    return Edit.insert(*source.end(), nl * 2 + FOOTNOTES_HEADING + nl * 2 + "{{ footnotes() }}")


def fix_compliance(source: Source, f: Finding) -> Edit | None:
    """``{{ compliance() }}`` after ``{{ footnotes() }}`` when the template has it, else at its
    end (after the footnotes the fix of MLP034 puts there)."""
    if not source.template or _call_line(source, COMPLIANCE_CALL):
        return None
    after = _call_line(source, FOOTNOTES_CALL)
    line, col = (after, len(source.line_text(after)) + 1) if after else source.end()
    return Edit.insert(line, col, source.newline * 2 + "{{ compliance() }}")


@rule(
    "MLP034",
    "footnotes-not-placed",
    family="template",
    severity="info",
    guideline="§2 Required Footnote (placement)",
    summary="A template that cites results and has no {{ footnotes() }}: its notes are appended at the end.",
    bad="Entry {{ best_8.entry }} delivers {{ best_8 }} tokens/s.{{ cite() }}  (and no {{ footnotes() }})",
    good="## MLPerf® result footnotes and entry IDs\n\n{{ footnotes() }}\n\n{{ compliance() }}",
    fix=fix_footnotes,
)
def footnotes_not_placed(ctx: Context) -> Iterator[Issue]:
    """Reports a template whose placeholders print results but which never places the
    footnotes: the generator appends them after its last line, under a heading of its own,
    where an author's closing text (a biography, a call to action) comes before them."""
    if ctx.template and ctx.rendered.groups and not ctx.rendered.footnotes_line:
        yield Issue(
            "the template cites results but has no {{ footnotes() }}: the notes are appended after its last line",
            line=_last_line(ctx),
            help="write {{ footnotes() }} where the notes belong (check --fix puts it at the end, under a heading)",
        )


@rule(
    "MLP035",
    "compliance-paragraph-missing",
    family="template",
    severity="info",
    guideline="§5 Identify submission differences, §7 Timing for Results Disclosures",
    summary="A template that prints results and has no {{ compliance() }} paragraph.",
    bad="{{ footnotes() }}  (the last line: no {{ compliance() }})",
    good="{{ footnotes() }}\n\n{{ compliance() }}",
    fix=fix_compliance,
)
def compliance_missing(ctx: Context) -> Iterator[Issue]:
    """Reports a template that prints official results but never writes the compliance
    paragraph, the closing statement that its comparisons give version, division, category,
    scenario and GPU count, and when the results were retrieved."""
    if not ctx.template or not any(u.figure.entries for u in ctx.rendered.uses):
        return
    if COMPLIANCE_CALL.search(_COMMENT.sub("", ctx.rendered.article.body)):
        return
    yield Issue(
        "the template prints results but has no {{ compliance() }} paragraph",
        line=_last_line(ctx),
        help="write {{ compliance() }} after {{ footnotes() }}",
    )
