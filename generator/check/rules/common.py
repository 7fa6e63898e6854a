"""Helpers the rule families share."""

from __future__ import annotations

import functools
import re

from generator.article.footnotes import NOT_VERIFIED, TRADEMARK
from generator.check.claims import Claim
from generator.check.context import Context
from generator.check.document import Block, Sentence
from generator.check.registry import Issue
from generator.data.row import Row

#: statements the guidelines require word for word; the mark inside them is the guidelines' own
UNVERIFIED_STATEMENT = (
    "Unverified results have not been through an MLPerf® review and may use measurement methodologies "
    "and/or workload implementations that are inconsistent with the MLPerf specification for verified results."
)
LEGEND_CORE = re.compile(
    r"MLPerf\s+name\s+and\s+logo\s+are\s+registered\s+and\s+unregistered\s+trademarks\s+of\s+MLCommons\s+Association",
    re.I,
)
NOT_VERIFIED_RE = re.compile(r"Results?\s+not\s+verified\s+by\s+MLCommons\s+Association", re.I)
UNVERIFIED_STATEMENT_RE = re.compile(
    r"Unverified\s+results\s+have\s+not\s+been\s+through\s+an\s+MLPerf®?\s+review", re.I
)
DERIVED_STATEMENT = re.compile(
    r"\b(?:derived|computed|calculated|divided)\b[^.]{0,200}?\b(?:not\s+(?:an?\s+)?(?:official|verified|MLPerf|results?\s+published)|unofficial)|"
    r"\bnot\s+(?:an?\s+)?(?:official|verified)\s+MLPerf®?\s+(?:metrics?|results?|scores?)|"
    r"\b(?:is|are)\s+not\s+(?:an?\s+)?official\b[^.]{0,80}\b(?:metrics?|scores?|results?)|"
    r"\b(?:derived|computed)\s+(?:metrics?|values?|figures?)\b[^.]{0,80}\bnot\b|"
    r"\b(?:is|are)\s+(?:an?\s+|the\s+)?derived\s+(?:metrics?|values?|figures?)\b",
    re.I,
)
VERBATIM = [
    re.compile(re.escape(t).replace(r"\ ", r"\s+"), re.I)
    for t in (TRADEMARK, UNVERIFIED_STATEMENT, NOT_VERIFIED)
]
VERBATIM.append(LEGEND_CORE)


def in_verbatim(text: str, index: int) -> bool:
    """Whether *index* of *text* is inside a verbatim required statement (the legend, ...)."""
    return any(a <= index < z for a, z in _verbatim_spans(text))


@functools.lru_cache(maxsize=256)
def _verbatim_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where the verbatim statements stand in *text*, found once per text (a rule asks for every
    number of a block: searching the block again each time was quadratic in its numbers)."""
    return tuple((m.start(), m.end()) for pat in VERBATIM for m in pat.finditer(text))


def at_claim(c: Claim, message: str, help: str = "") -> Issue:
    return Issue(message, offset=c.offset(), help=help)


def at(block: Block, index: int, message: str, help: str = "") -> Issue:
    return Issue(message, offset=block.offset(index), help=help)


NOTE_LABEL = re.compile(r"\s*+(?:\[\^?[^\]\s]++\]:?|\d++[.)]|\(\d++\))\s*$")


def at_note(ctx: Context, block: Block, message: str, help: str = "") -> Issue:
    """At a footnote's label ("[^1]:", "[1]", "1."), not at the text after it."""
    off = block.offset(0)
    start = ctx.doc.markdown.rfind("\n", 0, off) + 1
    if NOTE_LABEL.fullmatch(ctx.doc.markdown[start:off]):
        off = start
    return Issue(message, offset=off, help=help)


def at_meta(ctx: Context, key: str, index: int, message: str, help: str = "") -> Issue:
    """At a front-matter value: its line, and the column of *index* inside the value."""
    article = ctx.rendered.article
    line = article.meta_lines.get(key, 1)
    try:
        lines = article.path.read_text("utf-8").splitlines()
    except OSError:
        lines = []
    src = lines[line - 1] if 0 < line <= len(lines) else ""
    m = re.match(rf"\s*{re.escape(key)}\s*:\s*['\"]?", src)
    if key in article.meta and not m:
        return Issue(message, line=line, col=1, help=help)
    start = m.end() if m else 0
    return Issue(message, line=line, col=start + index + 1, help=help)


def everything(ctx: Context) -> str:
    """The whole rendered article's masked text, generated blocks included."""
    return "\n".join(b.text for b in ctx.doc.blocks)


def has_legend(ctx: Context) -> bool:
    return bool(LEGEND_CORE.search(everything(ctx)))


def states_not_verified(ctx: Context) -> bool:
    return bool(NOT_VERIFIED_RE.search(everything(ctx)))


def states_derived(ctx: Context) -> bool:
    return bool(DERIVED_STATEMENT.search(everything(ctx)))


def sentence_text(block: Block, s: Sentence) -> str:
    return block.text[s.start : s.end]


def label(r: Row) -> str:
    return f"{r.result_id} {r.benchmark} {r.scenario}"


def cat(v: str) -> str:
    return {"available": "Available", "preview": "Preview", "rdi": "RDI"}.get(v, v)


def claims_in(ctx: Context, block: Block, s: Sentence | None = None) -> list[Claim]:
    return ctx.claims_in(block, s)


def section_of(ctx: Context, block: Block) -> list[Block]:
    """The prose blocks between the headings around *block* (generated blocks and notes left out)."""
    blocks = ctx.doc.blocks
    i = ctx.doc.index(block)
    start = next((j for j in range(i, -1, -1) if blocks[j].kind == "heading"), 0)
    end = next((j for j in range(i + 1, len(blocks)) if blocks[j].kind == "heading"), len(blocks))
    return [b for b in blocks[start:end] if not b.generated and id(b) not in ctx.note_blocks]
