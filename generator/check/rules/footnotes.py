"""The required footnote (§2): every cited result listed in a complete note, every marker
pointing at a note, every note referenced, every entry ID real and matching its sentence."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from generator.check.claims import Claim
from generator.check.context import Context
from generator.check.document import Block, Document
from generator.check.matching import one_keystroke
from generator.check.notes import Note
from generator.check.registry import Issue, rule
from generator.check.rules.common import LEGEND_CORE, at, at_claim, at_note, label, section_of
from generator.check.scope import OWN_NOTE, TABLE_REFERENCE, following, previous
from generator.check.vocabulary import ENTRY

SUITE = re.compile(  # "MLPerf® Inference", "MLPerf® v6.1 Inference", "Verified MLPerf® score of v6.1 Inference"
    r"MLPerf®?\s{1,3}(?:[a-z]{2,12}\s{1,3}){0,2}(?:v?\d+\.\d+\s{1,3})?(?:Inference|Training|Storage|Tiny|HPC|Client|Mobile|Automotive)\b"
)
VERSION = re.compile(r"(?<![\w.])v?\d+\.\d+(?![\d-])")
DIVISION = re.compile(r"\b(?:Closed|Open)\b", re.I)
DATE = re.compile(
    r"\b\d{1,2}\s+[A-Z][a-z]+\.?\s+\d{4}\b|\b[A-Z][a-z]+\.?\s+\d{1,2},\s+\d{4}\b|\b\d{4}-\d{2}-\d{2}\b|\b[A-Z][a-z]+\s+\d{4}\b"
)
SOURCE = re.compile(r"https?://|www\.|\bmlcommons\.org\b|\bgithub\.com\b", re.I)
SCENARIO_WORD = re.compile(r"\b(?:Server|Offline|Interactive|Single[- ]?Stream|Multi[- ]?Stream)\b", re.I)


def _cited(c: Claim) -> bool:
    return bool(c.rows) and c.kind != "entry" or c.kind == "entry"


@rule(
    "MLP001",
    "cited-without-footnote",
    family="footnotes",
    severity="error",
    guideline="§2 Required Footnote",
    summary="A result printed, or an entry ID cited in the text, that no footnote lists.",
    bad="Entry 6.1-0052 delivers 14,211 tokens/s per GPU.[1]\n\n[1] MLPerf® Inference v6.1 ... entry 6.1-0021.",
    good="Entry 6.1-0052 delivers 14,211 tokens/s per GPU.[1]\n\n[1] MLPerf® Inference v6.1 ... entry 6.1-0052.",
)
def cited_without_footnote(ctx: Context) -> Iterator[Issue]:
    """Reports results the article prints (through placeholders) and entry IDs it types whose
    entry no footnote lists.

    The guidelines require the MLPerf result ID of every result used or referred to in a
    footnote; a printed figure whose entry is missing there cannot be traced."""
    yield from _no_footnote_at_all(ctx)
    listed = ctx.notes.entries()
    wrong = mismatched_entries(ctx) | {(id(x), i) for x, i, _, _ in row_id_mismatches(ctx)}
    for c in ctx.claims:
        if c.typed and c.kind != "entry":
            continue  # typed numbers that match entries are MLP030's
        if (id(c.block), c.index) in wrong:
            continue  # an entry cited for what it did not run is MLP021's: listing it would not help
        for e in sorted(c.entries if c.kind != "entry" else {c.text}):
            if e and e not in listed:
                what = f"entry {e}" if c.kind == "entry" else f"{c.text} ({e})"
                yield at_claim(
                    c, f"{what} is cited but no footnote lists entry {e}", f"list {e} in a footnote"
                )


def _no_footnote_at_all(ctx: Context) -> Iterator[Issue]:
    """A hand-written article that prints MLPerf® results (an entry ID, or a number with a
    results unit) and has no footnote at all: reported once, at the first result."""
    if ctx.notes.notes or ctx.template or not any("MLPerf" in b.text for b in ctx.prose()):
        return
    first = next(
        (
            c
            for c in ctx.claims
            if c.typed
            and not ctx.quoted(c.block, c.index)
            and (c.kind == "entry" or c.rows or c.unit in ("throughput", "per_gpu"))
        ),
        None,
    )
    if first is not None:
        yield at_claim(
            first,
            f"the article prints MLPerf® results ({first.text} is one) and has no footnote",
            "add a footnote per round, division and suite with the benchmark, scenario, source, retrieval date, entry IDs and the trademark legend (§2)",
        )


@rule(
    "MLP002",
    "claim-without-marker",
    family="footnotes",
    severity="warning",
    guideline="§2 Required Footnote",
    summary="A paragraph, table or figure prints results and carries no footnote marker.",
    bad="The B300 row delivers 14,211 tokens/s per GPU.",
    good="The B300 row delivers 14,211 tokens/s per GPU.[1]",
    scoped=(
        "Four MI355X servers ran Llama 3.1 8B.\n\n- MiTAC's posted 136,999 tokens/s.",
        "Four MI355X servers ran Llama 3.1 8B. What they show:[1]\n\n- MiTAC's posted 136,999 tokens/s.  (the list's lead paragraph carries the marker)",
    ),
)
def claim_without_marker(ctx: Context) -> Iterator[Issue]:
    """Reports a block that prints official results without a marker pointing at their note.

    A table or chart counts as marked when its caption or lead-in, or the paragraph right after
    it ("Source:", "Note:", or the paragraph that reads it), carries a marker (a paragraph right
    above it that ends with a marker whose note lists its entries, naming no other, is its
    caption); a list, when the
    paragraph before or after it or its last item does. A table, list or quoted line whose
    entries the marked paragraph just above it names ("Cisco's UCS C880A M8 (entry
    6.1-0014) ...[1]" over that system's table; a block quote's marked first line) is marked by
    it; so is a paragraph's value of the rows the marked paragraph just above it printed, a
    value whose entries the note of a marker further on in its section lists, or
    a note with no marker placed under it in its section (a datasheet's table and its notes). A figure restated from a marked paragraph above (the same
    printed value) needs no second marker, nor does a ratio or percentage of results a marked
    block above printed, nor a value the next paragraph reads again and marks."""
    marked = {id(m.block) for m in ctx.notes.markers}
    earlier: set[str] = set()
    cited: set[str] = set()  # the entries of the marked blocks read so far
    seen: set[int] = set()
    for c in ctx.claims:
        b = c.block
        if not c.rows or c.kind in ("entry", "count") or id(b) in ctx.note_blocks or b.kind == "heading":
            continue  # a title is not where a reader looks for a marker; a chip count is no result
        if any(id(x) in marked for x in _marker_scope(ctx.doc, b)):
            earlier.add(c.text)
            cited |= c.entries
            continue
        if c.text in earlier or id(b) in seen:
            continue
        if _marked_elsewhere(ctx, c, cited, marked):
            earlier.add(c.text)  # marked where a reader meets it: restating it later needs no marker
            cited |= c.entries
            continue
        seen.add(id(b))
        shown = ", ".join(dict.fromkeys(x.text for x in ctx.claims_in(b) if x.rows and x.kind != "entry"))
        yield at_claim(
            c,
            f"{b.kind} prints results ({shown}) without a footnote marker",
            "add a marker to the note that lists these entries",
        )


def _marked_elsewhere(ctx: Context, c: Claim, cited: set[str], marked: set[int]) -> bool:
    """A value whose entries a marker already points to where a reader meets it: a ratio or
    percentage of results printed (and marked) above it ("That is 1.6% more."), or a value the
    next paragraph, which carries the marker, reads again ("👉 v5.1: 30,134" then "That's 6.7%
    more.[1]")."""
    if not c.entries:
        return False
    if _relation(c) and c.entries <= (cited | _marked_entries(ctx, marked)):
        return True  # a ratio of results printed and marked above it, or further on ("TL;DR: 0.4% apart")
    after = following(ctx, c.block)
    if after is not None and id(after) in marked and c.entries <= _named(ctx, after):
        return True
    if any(  # "Cisco's UCS C880A M8 (entry 6.1-0014) ...[1]" above its table
        id(x) in marked and (c.entries <= _named(ctx, x) or _mistyped_note(ctx, c, x))
        for x in _lead_ins(ctx, c.block)
    ):
        return True
    above = previous(ctx, c.block) if c.block.kind == "paragraph" else None
    if above is not None and id(above) in marked and {r.key for r in c.rows} <= _printed_rows(ctx, above):
        return True  # the per-GPU values of the results the marked paragraph just above printed
    return _noted_later_in_section(ctx, c) or _note_below(ctx, c) is not None or _caption_marked(ctx, c)


def _relation(c: Claim) -> bool:
    """A value the article makes of results (a ratio, a gap, a spread), not a result or a per-GPU value."""
    return c.derived and c.kind not in ("per_gpu", "result")


def _marked_entries(ctx: Context, marked: set[int]) -> set[str]:
    """The entries whose results the article prints in marked blocks, anywhere."""
    if "marked entries" not in ctx.memo:
        ctx.memo["marked entries"] = {
            e
            for x in ctx.claims
            if x.rows
            and x.kind in ("result", "per_gpu")
            and any(id(y) in marked for y in _marker_scope(ctx.doc, x.block))
            for e in x.entries
        }
    out: set[str] = ctx.memo["marked entries"]
    return out


def _mistyped_note(ctx: Context, c: Claim, b: Block) -> bool:
    """Whether each entry of *c* is one keystroke from an entry the notes of *b*'s markers list:
    the note cites a mistyped ID (MLP021 reports it, at the note), not no entry at all."""
    notes = [ctx.notes.note(m.label) for m in ctx.notes.markers if m.block is b]
    cited = {e for n in notes if n is not None for e in n.entries}
    return bool(c.entries) and all(
        e not in cited and any(one_keystroke(e, n) for n in cited) for e in c.entries
    )


def _caption_marked(ctx: Context, c: Claim) -> bool:
    """For a table cell: the paragraph right above its table ends with a marker whose note lists
    the cell's entries, and names no entry the table does not print (a caption: "... Whisper
    Offline, Available category, systems with 8 accelerators; per-GPU values derived.[1]")."""
    if c.block.table < 0:
        return False
    cells = ctx.doc.cells(c.block.table)
    above = [x for x in ctx.doc.beside(c.block.table) if ctx.doc.index(x) < ctx.doc.index(cells[0])]
    if not above:
        return False
    printed = {e for x in cells for e in _named(ctx, x)}
    notes = {n.label: n.entries for n in ctx.notes.notes}
    return _named(ctx, above[0]) <= printed and any(
        m.block is above[0]
        and not m.block.text[m.index :].strip(" []^0-9")
        and c.entries <= notes.get(m.label, set())
        for m in ctx.notes.markers
    )


def _note_below(ctx: Context, c: Claim) -> Note | None:
    """For a table cell: the note no marker points to, placed right under its table (at most
    two paragraphs that print no results between them, no heading) and listing the cell's
    entries: a datasheet's table and its notes, read as a figure's note is."""
    if c.block.table < 0:
        return None
    key = f"note below table {c.block.table}"
    if key not in ctx.memo:  # one per table, asked for each of its cells by MLP002 and MLP005
        ctx.memo[key] = _table_note(ctx, c.block.table)
    n: Note | None = ctx.memo[key]
    return n if n is not None and c.entries <= n.entries else None


def _table_note(ctx: Context, table: int) -> Note | None:
    """The results note no marker points to that stands right under table *table*."""
    blocks = ctx.doc.blocks
    k = max(ctx.doc.index(x) for x in ctx.doc.cells(table)) + 1
    between = 0
    while k < len(blocks) and id(blocks[k]) not in ctx.note_blocks:
        b = blocks[k]
        if b.kind == "heading" or (not b.generated and ctx.claims_in(b)):
            return None
        between += not b.generated
        k += 1
    if k == len(blocks) or between > 2:
        return None
    used = {m.label for m in ctx.notes.markers}
    return next(
        (
            n
            for n in ctx.notes.notes
            if any(x is blocks[k] for x in n.blocks) and n.label not in used and n.cites_results
        ),
        None,
    )


def _noted_later_in_section(ctx: Context, c: Claim) -> bool:
    """A value whose entries the note of a marker further on in its section lists ("... 72,445.1
    (entry 6.1-0054) ..." then, closing the section, "... barely moves the number.[1]"), or for a
    ratio, percentage or spread, of a marker anywhere in its section (the note under a table,
    then "The first two rows sit 0.4% apart, less than the 13.5% spread of the B300 rows"); for a
    table ending its section, in the next section when that reads the table ("## How to read the
    table", "The top row (Intel, ...) delivered ...[1]")."""
    notes = {n.label: n.entries for n in ctx.notes.notes}
    section = {id(x) for x in section_of(ctx, c.block)}
    if c.block.table >= 0:
        section |= {id(x) for x in _reading_section(ctx, c.block)}
    at = ctx.doc.index(c.block)
    relation = _relation(c)  # a gap or spread of rows noted above
    return any(
        id(m.block) in section
        and (ctx.doc.index(m.block) > at or relation)
        and c.entries <= notes.get(m.label, set())
        for m in ctx.notes.markers
    )


def _printed_rows(ctx: Context, b: Block) -> set[object]:
    """The rows whose values a block prints (entry IDs left out)."""
    return {r.key for x in ctx.claims_in(b) if x.kind != "entry" for r in x.rows}


def _reading_section(ctx: Context, b: Block) -> list[Block]:
    """The section right after the one a table cell *b* stands in, when it reads the table: its
    heading or first block refers to it ("How to read the table", "the table above")."""
    blocks = ctx.doc.blocks
    k = ctx.doc.index(b)
    nxt = next((i for i in range(k + 1, len(blocks)) if blocks[i].kind == "heading"), None)
    if nxt is None:
        return []
    body = section_of(ctx, blocks[nxt + 1]) if nxt + 1 < len(blocks) else []
    words = blocks[nxt].text + " " + (body[0].text if body else "")
    return body if TABLE_REFERENCE.search(words) else []


def _named(ctx: Context, b: Block) -> set[str]:
    """The entries a block prints or names."""
    return {e for x in ctx.claims_in(b) for e in x.entries}


def _lead_ins(ctx: Context, b: Block) -> list[Block]:
    """What a reader of a table, list or block quote has just read: the author's paragraph right
    before it, and for a quoted line the quote's lines above it (nothing for a paragraph: its own
    marker is what a reader looks for)."""
    doc = ctx.doc
    if b.table >= 0:
        k = doc.index(doc.cells(b.table)[0])
    elif b.kind in ("item", "quote"):
        k = doc.index(b)
        while k > 0 and doc.blocks[k - 1].kind == b.kind:
            k -= 1
    else:
        return []
    out = doc.blocks[k : doc.index(b)] if b.kind == "quote" else []
    while k > 0 and doc.blocks[k - 1].generated:
        k -= 1
    lead = doc.blocks[k - 1] if k > 0 else None
    if lead is not None and lead.kind in ("paragraph", "quote") and lead.table < 0:
        out.append(lead)
    return out


CAPTION = re.compile(r"^\s*(?:Table|Figure|Chart|Source|Sources|Note|Notes)\b", re.I)
EMPHASIZED = re.compile(r"^\s*([*_]{1,2})[^\n]+\1[\s^\[\]\\\d()#a-z-]*$", re.S)


def is_caption(b: Block) -> bool:
    """A paragraph that reads as a caption: "Table 1: ...", or one wholly in italics/bold."""
    return b.kind == "paragraph" and bool(CAPTION.match(b.text) or EMPHASIZED.match(b.raw))


def _marker_scope(doc: Document, b: Block) -> list[Block]:
    """The block; for a table cell, its whole table with the caption or lead-in above it and the
    paragraph right after it (a "Source:" line, or the paragraph that reads the table, marked);
    for a list item, the lead paragraph its list follows ("What they show:[1]") and the paragraph
    right after the list."""
    blocks = doc.blocks
    if b.table < 0:
        i = doc.index(b)
        after = [blocks[i + 1]] if i + 1 < len(blocks) and is_caption(blocks[i + 1]) else []
        around = [x for x in (doc.list_lead(b), doc.list_after(b)) if x is not None]
        return [b, *after, *around, *_list_end(doc, b)]
    cells = doc.cells(b.table)
    first = doc.index(cells[0])
    return cells + [x for x in doc.beside(b.table) if doc.index(x) > first or _leads(x)]


def _list_end(doc: Document, b: Block) -> list[Block]:
    """For a list item, the items after it in its list: a marker further down the list ("-
    Change: 12.3%[1]", then a notes item) points back at the values above it."""
    if b.kind != "item":
        return []
    k, out = doc.index(b), []
    while k + 1 < len(doc.blocks) and doc.blocks[k + 1].kind == "item":
        k += 1
        out.append(doc.blocks[k])
    return out


def _leads(b: Block) -> bool:
    """A caption, or a paragraph that introduces what follows ("... per GPU:")."""
    return is_caption(b) or b.text.rstrip().endswith(":")


UNVERIFIED_NOTE = re.compile(
    r"\bunverified\b|\bnot (?:been )?(?:submitted|reviewed)\b|\brun by\b|\bour own\b", re.I
)


def _missing(n: Note, ctx: Context) -> list[str]:
    """What a results note lacks. A note for an unverified result (the author's own run) has no
    source, retrieval date or entry to give; the guidelines' example for it gives neither."""
    t = n.text
    out = []
    # "Unverified ...", or a run the note says someone measured ("measured by Hanseong Server Co.")
    own = bool(UNVERIFIED_NOTE.search(t) or OWN_NOTE.search(t)) and not ENTRY.search(t)
    if not (SUITE.search(t) and VERSION.search(t) and (DIVISION.search(t) or own)):
        out.append('does not give the suite, version and division (e.g. "MLPerf® Inference v6.1 Closed")')
    benchmarks, _ = ctx.vocab.benchmarks_in(t)
    if not benchmarks or not SCENARIO_WORD.search(t):
        out.append("does not name the benchmark and scenario")
    if not own and not (SOURCE.search(n.raw) and re.search(r"retriev", t, re.I) and DATE.search(t)):
        out.append("does not give the source and retrieval date")
    if not own and not ENTRY.search(t):
        out.append("lists no entry ID")
    if not LEGEND_CORE.search(t) and not _legend_elsewhere(ctx, n):
        out.append("lacks the trademark legend")
    return out


def _legend_elsewhere(ctx: Context, n: Note) -> bool:
    """One legend for all notes is enough when it closes the notes section; a note adding to
    another about the same entries ("[2] Tokens per second per watt is derived ... of entry
    5.1-0061") shares the legend of the note that cites them in full."""
    if any(
        LEGEND_CORE.search(b.text)
        for b in ctx.doc.blocks
        if b not in n.blocks and b.offsets[0] > n.block.offsets[0]
    ):
        return True
    return bool(n.entries) and any(
        o is not n and n.entries <= o.entries and LEGEND_CORE.search(o.text) for o in ctx.notes.notes
    )


@rule(
    "MLP003",
    "footnote-incomplete",
    family="footnotes",
    severity="error",
    guideline="§2 Required Footnote, §11.2 Attribution",
    summary="A footnote lacks suite, version and division; benchmark and scenario; source and retrieval date; entry ID; or the trademark legend.",
    bad="[1] MLPerf® Inference v6.1, entry 6.1-0052.",
    good="[1] MLPerf® Inference v6.1 Closed Datacenter, gpt-oss-120b Server. Retrieved from https://github.com/mlcommons/inference_results_v6.1 on 2 October 2026, entry 6.1-0052. The MLPerf name and logo are ... See www.mlcommons.org for more information.",
)
def footnote_incomplete(ctx: Context) -> Iterator[Issue]:
    """Reports each item a results footnote lacks, once per item.

    §2 lists what every footnote of an MLPerf result gives: the benchmark suite, version and
    division; the benchmark name and scenario; the date and source of retrieval; the result
    ID; and the trademark legend.

    A note on method about entries a complete note already cites ("[2] Tokens per watt is
    computed from the result and measured power of entry 5.1-0061"), or a note on the scope of
    results a complete note cites ("[^scope]: Scope of the list: ..."), adds to that note: it
    needs only the legend, unless one closes the notes or the complete note carries it, and
    lacking it is a warning (§2 asks for it "in a footnote")."""
    notes = [n for n in ctx.notes.notes if not n.generated and n.cites_results]
    missing = {n.label: _missing(n, ctx) for n in notes}
    complete = {
        e for n in ctx.notes.notes for e in n.entries if n.generated or (n in notes and not missing[n.label])
    }
    for n in notes:
        whats = missing[n.label]
        on_method = bool(n.entries) and n.entries <= complete or _beside_complete(ctx, n, complete)
        if on_method and whats:
            whats = [w for w in whats if w == "lacks the trademark legend"]
        for what in whats:
            issue = at_note(
                ctx, n.block, f"footnote {n.label} {what}", "complete the note as §2 of the guidelines lists"
            )
            # the complete note of its entries carries the legend: §2 asks for it "in a footnote"
            yield replace(issue, undecided=True) if on_method else issue


def _beside_complete(ctx: Context, n: Note, complete: set[str]) -> bool:
    """A note citing no entry whose markers stand where a complete note's entries are printed
    ("... two quite different systems:[^scope]" over a list its generated note cites): a note on
    the scope of those results, not a second citation of them."""
    if n.entries:
        return False
    printed = {e for m in ctx.notes.markers if m.label == n.label for e in _named(ctx, m.block)}
    printed |= {
        e
        for m in ctx.notes.markers
        if m.label == n.label
        for x in ctx.doc.blocks
        if x.kind == "item" and ctx.doc.list_lead(x) is m.block
        for e in _named(ctx, x)
    }
    return bool(printed) and printed <= complete


@rule(
    "MLP004",
    "marker-without-note",
    family="footnotes",
    severity="error",
    guideline="§2 Required Footnote",
    summary="A footnote marker points to no note.",
    bad="... 14,211 tokens/s per GPU.[2]  (and only a note [1])",
    good="... 14,211 tokens/s per GPU.[1]",
)
def marker_without_note(ctx: Context) -> Iterator[Issue]:
    """Reports a marker ("[2]", "[^2]", a generated link) whose note does not exist."""
    labels = ctx.notes.labels()
    for m in ctx.notes.markers:
        if m.label not in labels:
            yield at(
                m.block,
                m.index,
                f"marker [{m.label}] points to no footnote",
                f"add footnote {m.label} or fix the marker",
            )


@rule(
    "MLP005",
    "note-never-referenced",
    family="footnotes",
    severity="warning",
    guideline="§2 Required Footnote",
    summary="A footnote that no marker references.",
    bad="[1] MLPerf® Inference v6.1 ... (and no [1] in the text)",
    good="... per GPU.[1]\n\n[1] MLPerf® Inference v6.1 ...",
)
def note_never_referenced(ctx: Context) -> Iterator[Issue]:
    """Reports a footnote no marker points to: the reader cannot tell which claims it backs. A
    note placed right under the results it lists, in their section (a datasheet's table, then
    its notes), backs them as a table's note does and is not reported."""
    used = {m.label for m in ctx.notes.markers}
    under = {id(n) for c in ctx.claims if c.rows and c.entries for n in [_note_below(ctx, c)] if n}
    for n in ctx.notes.notes:
        if n.label not in used and id(n) not in under:  # a note under its table backs it as placed
            yield at_note(
                ctx,
                n.block,
                f"footnote {n.label} is never referenced by a marker",
                f"put [{n.label}] after the claims it backs",
            )


@rule(
    "MLP017",
    "unknown-entry",
    family="footnotes",
    severity="error",
    guideline="§2 Required Footnote",
    summary="An entry ID that the loaded official results do not contain.",
    bad="Entry 6.1-0999 delivers ...",
    good="Entry 6.1-0052 delivers ...",
)
def unknown_entry(ctx: Context) -> Iterator[Issue]:
    """Reports an entry ID, in the text or a footnote, that no loaded round contains: a typo,
    or a round that is not loaded (``--results DIR``). When the value it is cited for is
    another entry's result, the message names that entry (and MLP030 does not report the
    value as uncited too)."""
    if ctx.matcher is None:
        return
    known, rounds = ctx.matcher.by_id, set(ctx.matcher.table.rounds)
    for b in ctx.doc.blocks:
        if b.generated:
            continue
        for m in ENTRY.finditer(b.text):
            e = m.group(0)
            if e in known:
                continue
            rnd = e.split("-")[0]
            why = (
                "is not in the loaded results"
                if rnd in rounds
                else f"is from round v{rnd}, which is not loaded"
            )
            owner = [c for c in ctx.claims if e in c.misattributed and c.rows]
            if owner:  # the value it is cited for names the real entry
                r = owner[0].rows[0]
                why += f"; {owner[0].text} is the {r.benchmark} {r.scenario} result of {r.result_id}"
            yield at(b, m.start(), f"entry {e} {why}", "check the ID against the official results")


@rule(
    "MLP021",
    "entry-mismatch",
    family="footnotes",
    severity="error",
    guideline="§2 Required Footnote, §10 Statements must be clear and correct",
    summary="An entry ID whose benchmark or scenario does not match the sentence or footnote that cites it.",
    bad="On DeepSeek-R1, entry 6.1-0052 ...  (6.1-0052 ran gpt-oss-120b only)",
    good="On gpt-oss-120b, entry 6.1-0052 ...",
    scoped=(
        "HPE's XD690 (entry 6.1-0022) delivered 113,685 tokens/s and CoreWeave's B300 (entry 6.1-0052) 111,247.  (each ID belongs to the value beside it: swapped)",
        "HPE's XD690 (entry 6.1-0052) delivered 113,685 tokens/s and CoreWeave's B300 (entry 6.1-0022) 111,247.",
    ),
)
def entry_mismatch(ctx: Context) -> Iterator[Issue]:
    """Reports an entry ID cited for a benchmark or scenario it has no result for, and an entry
    ID printed beside a value its row does not give when another entry's row does (two IDs
    swapped between two systems; an ID mistyped as another existing entry), naming the entry
    that gives the value; so is a note's one entry a keystroke from the entry that gives the
    values it is cited for ("[1] ... entry 6.1-0068" for 6.1-0069's 104,541), once, at the note
    (a note citing an unrelated entry leaves the value uncited: MLP030).

    The sentence (or footnote) names benchmarks and scenarios; an entry it cites must have
    run at least one of them. In a sentence that types several IDs and several values, each
    ID belongs to the value nearest to it."""
    if ctx.matcher is None:
        return
    done: set[tuple[int, int]] = set()
    for b in ctx.doc.blocks:
        if b.generated:
            continue
        for m in ENTRY.finditer(b.text):
            rows = ctx.matcher.by_id.get(m.group(0), [])
            if not rows:
                continue
            benchmarks, scenarios = entry_context(ctx, b, m.start())
            issue = _mismatch(m.group(0), rows, benchmarks, scenarios)
            if issue:  # the value it is cited for, in its sentence (for a note: anywhere)
                where = ctx.claims if id(b) in ctx.note_blocks else ctx.claims_in(b)
                owner = [c for c in where if m.group(0) in c.misattributed and c.rows]
                if owner:
                    r = owner[0].rows[0]
                    issue += f"; {owner[0].text} is the {r.benchmark} {r.scenario} result of {r.result_id}"
            if issue:
                done.add((id(b), m.start()))
                yield at(b, m.start(), issue, "cite the entry that ran that benchmark and scenario")
    yield from _values_of_other_entries(ctx, done)
    yield from _notes_other_entry(ctx, done)
    for cell, index, e, c in row_id_mismatches(ctx):
        if (id(cell), index) not in done:
            r = c.rows[0]
            yield at(
                cell,
                index,
                f"entry {e} does not give {c.text}, printed in its table row: {c.text} is the {r.benchmark} {r.scenario} result of {r.result_id}",
                "cite each row's own entry",
            )


def _notes_other_entry(ctx: Context, done: set[tuple[int, int]]) -> Iterator[Issue]:
    """The one entry a note cites for values another entry gives ("[1] ... entry 6.1-0068" for
    the 104,541 of 6.1-0069): the ID mistyped as another existing entry, reported once, at it."""
    for n in ctx.notes.notes:
        if n.generated or len(n.entries) != 1:
            continue
        for b in n.blocks:
            for m in ENTRY.finditer(b.text):
                if ctx.matcher is None or m.group(0) not in ctx.matcher.by_id:
                    continue  # an ID no loaded round has is MLP017's
                owner = [
                    c
                    for c in ctx.claims
                    if m.group(0) in c.misattributed
                    and c.rows
                    and not ctx.mentions(c.block, c.sentence).entries
                ]
                if not owner or (id(b), m.start()) in done:
                    continue
                done.add((id(b), m.start()))
                r = owner[0].rows[0]
                yield at(
                    b,
                    m.start(),
                    f"entry {m.group(0)} does not give {owner[0].text}, which its note is cited for: "
                    f"{owner[0].text} is the {r.benchmark} {r.scenario} result of {r.result_id}",
                    "cite each value's own entry",
                )


def row_id_mismatches(ctx: Context) -> list[tuple[Block, int, str, Claim]]:
    """Table rows whose one typed entry ID is not the entry of every value the row prints
    (all of one other entry): "| Google, DGX B200 | 6.0-0041 | {{ g }} |" where g is 6.0-0040's,
    or a typed value only 6.0-0040 gives."""
    if "row ids" in ctx.memo:
        found: list[tuple[Block, int, str, Claim]] = ctx.memo["row ids"]
        return found
    out: list[tuple[Block, int, str, Claim]] = []
    rows: dict[tuple[int, int], list[Block]] = {}
    for b in ctx.doc.blocks:
        if b.table >= 0 and b.row > 0 and not b.generated:
            rows.setdefault((b.table, b.row), []).append(b)
    for cells in rows.values():
        typed = [
            (x, m)
            for x in cells
            for m in ENTRY.finditer(x.text)
            if not ctx.printed(x, m.start()) and ctx.matcher is not None and m.group(0) in ctx.matcher.by_id
        ]
        values = [
            c
            for x in cells
            for c in ctx.claims_in(x)
            if _one_row_figure(c) or (c.typed_value and len({r.result_id for r in c.rows}) == 1)
        ]
        owners = {e for c in values for e in c.entries}
        if len(typed) == 1 and len(owners) == 1 and typed[0][1].group(0) not in owners:
            x, m = typed[0]
            out.append((x, m.start(), m.group(0), values[0]))
    ctx.memo["row ids"] = out
    return out


def _values_of_other_entries(ctx: Context, done: set[tuple[int, int]]) -> Iterator[Issue]:
    """An entry ID printed beside a value that its row does not give, when another entry's
    row does (IDs swapped between two systems, or mistyped as another existing entry)."""
    assert ctx.matcher is not None
    for c in ctx.claims:
        known = [e for e in c.misattributed if e in ctx.matcher.by_id] or _typed_beside_figure(ctx, c)
        if not known or not c.rows or id(c.block) in ctx.note_blocks:
            continue
        s = c.sentence
        values = [x.index for x in ctx.claims_in(c.block, s) if x.typed_value or _one_row_figure(x)]
        for e in known:
            # the ID printed beside this value: no other value of the sentence is nearer to it
            spots = [
                m.start()
                for m in ENTRY.finditer(c.block.text, s.start, s.end)
                if m.group(0) == e
                and min(values, key=lambda v: abs(v - m.start()), default=c.index) == c.index
            ]
            if not spots:
                continue
            at_ = min(spots, key=lambda i: abs(i - c.index))
            if (id(c.block), at_) in done:
                continue
            done.add((id(c.block), at_))
            r = c.rows[0]
            yield at(
                c.block,
                at_,
                f"entry {e} does not give {c.text}, printed beside it: {c.text} is the {r.benchmark} {r.scenario} result of {r.result_id}",
                "cite each value's own entry",
            )


def _one_row_figure(c: Claim) -> bool:
    """A placeholder's result or per-GPU value of one entry."""
    return not c.typed and c.kind in ("result", "per_gpu") and len(c.entries) == 1


def _typed_beside_figure(ctx: Context, c: Claim) -> list[str]:
    """For a placeholder's value of one entry, the other existing entries its sentence types
    ("HPE's XD690 (entry 6.1-0025) delivers {{ hpe }}", where hpe is 6.1-0052's value)."""
    if not _one_row_figure(c) or ctx.matcher is None:
        return []
    s = c.sentence
    typed = {
        m.group(0)
        for m in ENTRY.finditer(c.block.text, s.start, s.end)
        if not ctx.printed(c.block, m.start())
    }
    return sorted(e for e in typed - c.entries if e in ctx.matcher.by_id)


def entry_context(ctx: Context, b: Block, index: int) -> tuple[set[str], set[str]]:
    """The benchmarks and scenarios an entry ID is cited for: its footnote's, else its sentence's
    (completed by the paragraph when the sentence names no benchmark), or for a table cell its
    row, header and caption."""
    if id(b) in ctx.note_blocks:
        named = ctx.vocab.read(b.text)
        return named.benchmarks, named.scenarios
    if b.table >= 0:
        text = "\n".join(
            [x.text for x in ctx.doc.cells(b.table) if x.row in (0, b.row)]
            + [x.text for x in ctx.doc.beside(b.table)]
        )
        named = ctx.vocab.read(text)
        return named.benchmarks, named.scenarios
    sent = b.sentence_at(index)
    s = ctx.mentions(b, sent)
    if s.benchmarks:
        return s.benchmarks, s.scenarios
    # a sentence that names no benchmark is about what its placeholders print, else its paragraph's
    printed = {
        r.benchmark for c in ctx.claims_in(b, sent) if not c.typed and c.kind != "entry" for r in c.rows
    }
    return printed or ctx.mentions(b).benchmarks, s.scenarios


def mismatched_entries(ctx: Context) -> set[tuple[int, int]]:
    """(block, index) of typed entry IDs that did not run what their sentence cites them for."""
    out: set[tuple[int, int]] = set()
    if ctx.matcher is None:
        return out
    for b in ctx.prose():
        for m in ENTRY.finditer(b.text):
            rows = ctx.matcher.by_id.get(m.group(0), [])
            if rows and _mismatch(m.group(0), rows, *entry_context(ctx, b, m.start())):
                out.add((id(b), m.start()))
    return out


def _mismatch(e: str, rows: list, benchmarks: set[str], scenarios: set[str]) -> str:
    ran = sorted({f"{r.benchmark} {r.scenario}" for r in rows})
    if benchmarks and not any(r.benchmark in benchmarks for r in rows):
        return f"entry {e} has no result for {', '.join(sorted(benchmarks))} (it ran {', '.join(ran)})"
    fit = [r for r in rows if not benchmarks or r.benchmark in benchmarks]
    if scenarios and not any(r.scenario in scenarios for r in fit):
        return f"entry {e} has no {'/'.join(sorted(scenarios))} result here (it ran {', '.join(ran)})"
    return ""


__all__ = ["label"]
