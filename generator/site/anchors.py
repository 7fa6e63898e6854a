"""Stable heading anchors: written from a heading's words, without the numbers it computes.

Python-Markdown's ``toc`` extension names a heading after its whole text, so a heading that
prints a figure (``## Software moved the MI355X {{ amd_gain }} in six months``) was named after
the figure (``...mi355x-379-in-six-months``): a data correction changed the anchor and broke every
link shared to it. Here each heading of a rendered article gets an explicit ``{#id}`` made from
what the template types (and the words a placeholder prints), with the numbers placeholders
print left out: ``software-moved-the-mi355x-in-six-months``.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

from generator.article.sourcemap import EXPR

if TYPE_CHECKING:
    from generator.article.render import Rendered

#: the heading of the notes the generator writes (generator.article.render.FOOTNOTES_HEADING)
FOOTNOTES_HEADING = "## MLPerf® result footnotes and entry IDs"

HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
#: a heading that names its id already (attr_list): kept as it is
HAS_ID = re.compile(r"\{[^{}]*#[\w\-:.]+[^{}]*\}\s*$")
#: a number a placeholder printed, with its sign, currency, separators and suffix
#: (``5.7×``, ``−14.5%``, ``$6.30``, ``14,211``), not the digits of a word (``MI355X``, ``B300``)
PRINTED_NUMBER = re.compile(r"(?<![\w.])[\u2212+\-]?\$?\d[\d,.]*(?:[%×]|x\b)?(?![\w])")
_MARKER = re.compile(r"\[\^?\\\[\d+\\\]\]\(#[^)]*\)|\[\^[^\]]*\]")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_TAG = re.compile(r"<[^<>]*>")


def slugify(text: str) -> str:
    """A heading's text as an anchor, the way Python-Markdown's ``toc`` makes one:
    ``"Why the  DeepSeek-R1 headline in MLPerf® Inference v6.1"`` → ``why-the-deepseek-r1-headline-in-mlperf-inference-v61``."""
    plain = _TAG.sub("", _LINK.sub(r"\1", _MARKER.sub("", text)))
    plain = re.sub(r"\\(.)", r"\1", plain).replace("*", "").replace("`", "")
    ascii_text = unicodedata.normalize("NFKD", plain).encode("ascii", "ignore").decode("ascii")
    words = re.sub(r"[^\w\s-]", "", ascii_text).strip().lower()
    # no underscore from the text: "{#a-_i_-b}" would read as emphasis and the id be lost
    return re.sub(r"[-\s_]+", "-", words).strip("-")


def stable_text(r: Rendered, start: int, end: int) -> str:
    """The rendered text between *start* and *end* with the numbers placeholders printed left out
    (what the template types, and generated headings, are kept whole)."""
    if not r.sourcemap.segments:  # a hand-written article: every character is typed
        return r.markdown[start:end]
    out: list[str] = []
    pos = start
    while pos < end:
        seg = r.sourcemap.segment(pos)
        if seg is None:  # between segments: generated text, up to the next segment
            stop = min((s.start for s in r.sourcemap.segments if s.start > pos), default=end)
        else:
            stop = seg.end
        stop = min(stop, end)
        piece = r.markdown[pos:stop]
        out.append(PRINTED_NUMBER.sub(" ", piece) if seg is not None and seg.kind == EXPR else piece)
        pos = stop
    return "".join(out)


def heading_ids(r: Rendered) -> dict[int, str]:
    """The anchor of each heading of *r*'s rendered Markdown, by its line (0-based), unique in the
    page (a repeated heading gets ``_1``, ``_2``, as ``toc`` names them); not for a heading that
    names its own id, nor one left with no words."""
    used: set[str] = set()
    out: dict[int, str] = {}
    offset, in_fence = 0, False
    for i, line in enumerate(r.markdown.split("\n")):
        if line.startswith("```"):
            in_fence = not in_fence
        m = None if in_fence else HEADING.match(line)
        if m and not HAS_ID.search(line):
            start = offset + m.start(2)
            base = slugify(stable_text(r, start, offset + m.end(2)))
            if base:
                slug, n = base, 0
                while slug in used:
                    n += 1
                    slug = f"{base}_{n}"
                used.add(slug)
                out[i] = slug
        offset += len(line) + 1
    return out


def with_heading_ids(r: Rendered) -> str:
    """*r*'s rendered Markdown with each heading's stable anchor (:func:`heading_ids`) written
    after it, ``## Heading {#heading}`` (the ``attr_list`` extension makes it the heading's id)."""
    ids = heading_ids(r)
    lines = r.markdown.split("\n")
    for i, slug in ids.items():
        # the notes list every entry ID the article cites: left out of search, whose answer to an
        # entry ID was that wall, every "6.1" of it highlighted
        unsearched = " data-search-exclude" if lines[i].startswith(FOOTNOTES_HEADING) else ""
        lines[i] = f"{lines[i].rstrip()} {{#{slug}{unsearched}}}"
    return "\n".join(lines)


#: a chart's caption as the renderer writes it (generator.article.render): ``*Figure 2: ...*``
FIGURE_CAPTION = re.compile(r"^\*Figure (\d+): .*$")


def permalink(anchor: str, what: str) -> str:
    """The link a reader copies to a heading or a figure: ``toc``'s ``headerlink``, titled."""
    return f'<a class="headerlink" href="#{anchor}" title="Link to this {what}">¶</a>'


def with_figure_ids(markdown: str) -> str:
    """Each chart's caption anchored as ``figure-N`` (its number in the article, which no data
    correction changes), with a permalink at its end."""
    lines = markdown.split("\n")
    in_fence = False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            in_fence = not in_fence
        m = None if in_fence else FIGURE_CAPTION.match(line)
        if m:
            anchor = f"figure-{m.group(1)}"
            lines[i] = f"{line} {permalink(anchor, 'figure')}\n{{: #{anchor} .gi-figure-caption }}"
    return "\n".join(lines)
