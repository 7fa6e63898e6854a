"""The editor's review page of an article: figures highlighted, findings at their paragraph.

Made from the rendered Markdown and the figures ledger of the article (the same
:class:`~generator.article.render.FigureUse` records ``figures.json`` is written from):
every printed figure is a ``<mark>`` whose hover text gives its template line, formula
and entries; each finding of the compliance check follows the paragraph its template
line falls in; footnote markers are superscript links to their notes (``¹,³``).
"""

from __future__ import annotations

import re
from pathlib import Path

from generator.article.escape import attr, md, md_attr
from generator.article.figures import rows_text
from generator.article.render import FigureUse, Rendered
from generator.check import Finding
from generator.site.reader import (
    GENERATED_MARKER,
    MARKER_RUN,
    MAX_MARKERS,
    marker_links,
    note_runs,
    notes_said,
)

SEVERITY_BOX = {"error": "failure", "warning": "warning", "info": "info"}


def figure_title(u: FigureUse) -> str:
    """``template line 12 · formula · 6.1-0021 gpt-oss-120b Server (v6.1/summary_results.json index 20), …``"""
    f = u.figure
    if f.stated_by:
        entries = f"stated by {f.stated_by}"
    else:
        entries = (
            rows_text(
                f.entries,
                lambda e: (
                    f"{e.result_id} {e.benchmark} {e.scenario} (v{e.round}/{Path(e.source_file).name} {e.source_row})"
                ),
            )
            or "no entry"
        )
    return f"template line {u.line} · {f.formula} · {entries}"


def highlight(markdown: str, uses: list[FigureUse]) -> str:
    """The rendered Markdown with every located figure wrapped in ``<mark class="gi-fig">``."""
    spans: dict[int, FigureUse] = {}
    for u in uses:
        text = md(u.text)
        if u.offset >= 0 and markdown.startswith(text, u.offset) and u.offset not in spans:
            spans[u.offset] = u
    out, pos = [], 0
    for off in sorted(spans):
        if off < pos:
            continue
        u = spans[off]
        end = off + len(md(u.text))
        out += [
            markdown[pos:off],
            f'<mark class="gi-fig" title="{md_attr(figure_title(u))}">',
            markdown[off:end],
            "</mark>",
        ]
        pos = end
    out.append(markdown[pos:])
    return "".join(out)


def finding_box(f: Finding) -> str:
    kind = SEVERITY_BOX.get(f.severity, "note")
    head = f"{f.rule} {f.severity}, template line {f.line}:{f.col}"
    body = md(f.message) + (f" *{md(f.help)}*" if f.help else "")
    return f'!!! {kind} "{attr(head)}"\n    {body}'


def paragraph_starts(r: Rendered) -> list[tuple[int, int]]:
    """(template line, offset in the rendered Markdown) of every block that follows a blank line."""
    out = []
    for m in re.finditer(r"(?:\A|\n\n)(?=[^\n])", r.markdown):
        off = m.end()
        out.append((r.position(off)[0], off))
    return out


def place_findings(r: Rendered, findings: list[Finding]) -> dict[int, list[Finding]]:
    """Findings by the offset of the block they follow: the last block starting at or before their line."""
    starts = paragraph_starts(r)
    placed: dict[int, list[Finding]] = {}
    for f in sorted(findings, key=lambda f: (f.line, f.col)):
        before = [off for line, off in starts if 0 < line <= f.line]
        at = before[-1] if before else 0
        placed.setdefault(at, []).append(f)
    return placed


def erratum_findings(r: Rendered) -> list[Finding]:
    """The article's errata as findings of the review view: a published claim the data contradict."""
    return [
        Finding(
            str(r.article.path),
            e.line,
            1,
            "erratum",
            "warning",
            f"published claim contradicted by the official results ({e.published}): {e.message}; "
            f"contradicted by {e.why}",
            "the sentence is marked on the reader's page, with the erratum at the end; correct the text "
            "(and remove erratum=) when it can be",
        )
        for e in r.errata
    ]


def review_page(r: Rendered, findings: list[Finding], *, published: bool = True) -> str:
    """The review view of one article (a page under ``review/``); one not *published* on the
    reader's site (a demo for the embedded sample) says so instead of linking to its page."""
    head = [f"# Review: {md(r.article.title)}", ""]
    if r.missing:
        return "\n".join(head) + f"\nNot built: {md(r.missing)}\n"
    findings = [*findings, *erratum_findings(r)]
    counts = ", ".join(f"{sum(f.severity == s for f in findings)} {s}s" for s in ("error", "warning", "info"))
    page = (
        f"[reader's page](../{r.article.slug}.md)"
        if published
        else "not published: a demo for the embedded sample (`sample_only: true`)"
    )
    head += [
        f"Template `{md(str(r.article.path.name))}` · {len(r.uses)} printed figures (hover a highlighted figure "
        f"for its formula and entries) · findings: {counts} · "
        f"[compliance report](compliance-{r.article.slug}.md) · {page}",
        "",
    ]
    body = highlight(r.markdown, r.uses)
    # the figures' marks shift offsets: place the findings on the original text, then insert from the end
    placed = place_findings(r, findings)
    marked = _insert_findings(r.markdown, body, placed)
    marked = review_markers(re.sub(r"(?m)^# .+$", "", marked, count=1))
    return "\n".join(head) + "\n" + one_folder_down(marked) + "\n"


#: a relative Markdown link target (not a URL, an anchor, an absolute path or one already going up)
RELATIVE_LINK = re.compile(r"\]\((?![a-zA-Z][\w+.-]*:|#|/|\.\./)([^)\s]+)\)")


def one_folder_down(markdown: str) -> str:
    """The article's relative links and charts as seen from ``review/``, one folder down."""
    markdown = RELATIVE_LINK.sub(r"](../\1)", markdown)
    return (
        markdown.replace('data-spec="charts/', 'data-spec="../charts/')
        .replace('src="charts/', 'src="../charts/')
        .replace('class="gi-chart-file" href="charts/', 'class="gi-chart-file" href="../charts/')
    )


def review_markers(markdown: str) -> str:
    """The generated markers ``[^\\[1\\]](#mlperf-fn-1)[\\[3\\]](#mlperf-fn-3)`` (which print
    as ``^[1][3]``) as one superscript of links to the notes: ``¹,³``; three notes or more in a row
    as a range (``¹⁻⁴``), more than three links' worth as one link naming them all."""

    def link(n: int) -> str:
        return f'<a href="#mlperf-fn-{n}" title="Note {n}">{n}</a>'

    def run(m: re.Match[str]) -> str:
        runs = note_runs(int(x.group(2)) for x in GENERATED_MARKER.finditer(m.group(0)))
        if marker_links(runs) > MAX_MARKERS:  # as on the reader's page (reader.citation_markers)
            short, words = notes_said(runs)
            return (
                f'<sup class="gi-fn"><a href="#mlperf-fn-{runs[0][0]}" title="See {words}">{short}</a></sup>'
            )
        said = [f"{link(r[0])}\u2013{link(r[-1])}" if len(r) > 2 else ",".join(map(link, r)) for r in runs]
        return f'<sup class="gi-fn">{",".join(said)}</sup>'

    return MARKER_RUN.sub(run, markdown)


def _insert_findings(original: str, body: str, placed: dict[int, list[Finding]]) -> str:
    """Insert each block's findings before the next block, mapping offsets of *original* into *body*."""
    if not placed:
        return body
    # a block's end in the original is the next blank line after its start
    ends = {}
    for off in placed:
        nxt = original.find("\n\n", off)
        ends[off] = len(original) if nxt == -1 else nxt
    out = body
    for off in sorted(placed, reverse=True):
        # the same block end in the highlighted text: count the blank-line gaps before it
        n = original.count("\n\n", 0, ends[off])
        at = _nth_gap(out, n)
        boxes = "\n\n".join(finding_box(f) for f in placed[off])
        out = out[:at] + "\n\n" + boxes + out[at:]
    return out


def _nth_gap(text: str, n: int) -> int:
    """The offset of the *n*-th (0-based) blank-line gap of *text*, or its end."""
    start = 0
    for _ in range(n + 1):
        pos = text.find("\n\n", start)
        if pos == -1:
            return len(text)
        start = pos + 2
    return start - 2
