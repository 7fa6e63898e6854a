"""The scope a reader takes from the whole document, not from one sentence.

An editor reads "the highest per-GPU result" under a heading that names the round, after a lead
sentence that fixes the set ("Among the six MI355X servers of v6.1, Closed, Available,
Interactive ..."), in a table whose caption and columns say the rest. Every sentence, table
cell and caption therefore gets an *effective scope*: what it states itself, completed by what
it inherits, nearest first:

1. the sentence;
2. the earlier sentences of its paragraph;
3. for a table cell: its column's header, its row and the table's caption (the paragraph right
   before or after the table); for a list item: the lead paragraph right before its list;
4. the paragraph before it, when the sentence points back ("these systems", "among them",
   "the same submitter's", "that same slice"), and the caption of a table that paragraph
   refers to ("every row in Table 1 shares ... named in its caption");
5. the caption, and for a comparison the rows, of a table the sentence refers to ("in Table 1",
   "those rows", "from the first row to the last");
6. its section's lead paragraph (the first paragraph under its heading);
7. a scope declaration above it ("Scope of every figure in this memo: ...", "*Applies to every
   line below:* ..."), which holds to the end of the article (to the end of its section when it
   says "in this section");
8. its heading chain (the nearest heading of each level above it);
9. the article's title and description, and the front matter's round when it lists exactly one.

Each part records where it came from, so that a finding that depends on the scope can say so
("scenario: from the heading on line 12"). The rules share this one model
(``generator/check/scope.py``) instead of repeating word lists per rule.

A difference between compared rows counts as disclosed when a reader sees it with the numbers:
in the scope above, or anywhere earlier in the same section. A headline's scope is completed by
its description, or by the lead paragraph when that restates the claim over a set ("Among the
eight-GPU Available systems ..."). A superlative that names the whole round as its domain ("the
highest per-GPU throughput of any system in MLPerf® Inference v6.1") inherits none of this: it
is checked against every row of the round. An error needs complete evidence; where the checker cannot
decide (a scaling efficiency says that the sizes differ but not which), it reports a warning
with its evidence, which ``--strict`` still fails on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from generator.check.document import Block, Sentence
from generator.check.vocabulary import Mentions

if TYPE_CHECKING:  # the context imports this module's users; only types are needed here
    from generator.check.claims import Claim
    from generator.check.context import Context
    from generator.check.notes import Note

#: the attributes a scope carries, with the name a finding gives each
ATTRIBUTES = {
    "rounds": "round",
    "scenarios": "scenario",
    "categories": "category",
    "divisions": "division",
    "strict_chips": "chip count",
    "benchmarks": "benchmark",
    "families": "accelerator family",
}
BACK_REFERENCE = re.compile(
    r"\b(?:these|those|they|them|their|the same|such|both|either|neither|the two|the pair|the rest|"
    r"the others?|this (?:set|group|field|list|round|scenario|category|comparison|slice|selection|population)|"
    r"that (?:same )?(?:set|group|round|slice|selection|population|field))\b",
    re.I,
)
#: a paragraph that declares the scope of what follows it: "Scope of every figure in this memo:",
#: "*Applies to every line below:*", "All results below are ...", "Unless stated otherwise, ..."
DECLARATION = re.compile(
    r"^\W{0,4}(?:scope(?: of (?:every|all|each|the)\b[^:.\n]{0,60})?\s*:|applies to (?:every|all|each)\b|"
    r"(?:every|all|each) (?:figure|result|number|value|row|entry|line|system)s? (?:below|that follows?|in this \w+)\b|"
    r"unless (?:otherwise )?(?:stated|noted)\b|throughout (?:this|the) (?:article|memo|post|piece|page|report|note)\b)",
    re.I,
)
#: a sentence about a table's rows: "in Table 1", "of those rows", "the table above", "the first row"
TABLE_REFERENCE = re.compile(
    r"\btable\s+(\d+)\b|\b(?:the|this|that) table\b|\bth(?:ese|ose) rows\b|\bthe rows (?:above|below)\b|"
    r"\bthe (?:first|top|last|second|third) row\b",
    re.I,
)
SECTION_ONLY = re.compile(r"\bin this (?:section|part|chapter|table|list)\b", re.I)


@dataclass
class Scope:
    """What a sentence is about, once the document around it is read."""

    mentions: Mentions
    origin: dict[str, str] = field(default_factory=dict)  # attribute -> where it came from

    def named(self, attribute: str) -> bool:
        return bool(getattr(self.mentions, attribute))

    def sources(self, attributes: list[str] | None = None) -> str:
        """``round: from the heading on line 12; scenario: from the sentence`` for the inherited
        attributes (those the sentence states itself are not listed)."""
        keys = attributes if attributes is not None else list(ATTRIBUTES)
        parts = [
            f"{ATTRIBUTES[a]}: from {self.origin[a]}"
            for a in keys
            if a in self.origin and self.origin[a] != "the sentence"
        ]
        return "; ".join(parts)


def scope_of(ctx: Context, block: Block, sentence: Sentence | None = None, *, own: bool = False) -> Scope:
    """The effective scope of *sentence* of *block* (of the whole block when ``None``). With
    *own*, a sentence that sets its own domain ("the fastest DeepSeek-R1 system in MLPerf®
    Inference v6.1"): what it states, and the front matter's round, nothing a lead narrowed
    (:func:`domain_scope`)."""
    key = f"scope {id(block)} {sentence.start if sentence else -1} {own}"
    if key not in ctx.memo:
        sources = _sources(ctx, block, sentence)
        if own:
            sources = [(w, m) for w, m in sources if w in ("the sentence", "the front matter's rounds")]
        ctx.memo[key] = _merge(sources)
    scope: Scope = ctx.memo[key]
    return scope


#: the round as a superlative's domain, before it: "posted the round's highest per-GPU rate"
ROUND_BEFORE = re.compile(r"\b(?:the|this|v?\d+\.\d+)\s{1,3}round['’]s\s{1,3}$", re.I)


def domain_end(text: str, start: int, end: int) -> int:
    """Where the phrase of the superlative at ``text[start:end]`` ends when it names the whole
    round as its domain ("the fastest DeepSeek-R1 system in MLPerf® Inference v6.1", "the round's
    highest per-GPU rate"); -1 when it names none."""
    domain = OWN_DOMAIN.match(text, end)
    if domain is not None:
        return domain.end()
    return end + 40 if ROUND_BEFORE.search(text, 0, start) else -1


def domain_scope(ctx: Context, b: Block, s: Sentence, phrase_text: str) -> Scope:
    """The scope of a sentence whose superlative names the whole round as its domain: what the
    sentence states, the system's description (its family, its chip count) being the subject's,
    not the domain's, which is what the phrase says; the whole round holds both divisions unless
    the sentence names one."""
    scope = scope_of(ctx, b, s, own=True)
    phrase = ctx.vocab.read(phrase_text)
    return replace(
        scope,
        mentions=replace(
            scope.mentions,
            families=phrase.families,
            chips=phrase.chips,
            strict_chips=phrase.strict_chips,
            divisions=scope.mentions.divisions or {"closed", "open"},
        ),
    )


#: a superlative's noun followed by the whole round as its domain: "the fastest DeepSeek-R1
#: system in MLPerf® Inference v6.1", "the highest result of the entire round", "the highest
#: per-GPU throughput of any system in the whole MLPerf® Inference v6.1 round"
OWN_DOMAIN = re.compile(
    r"\s{1,3}(?:[\w®.-]{1,40}\s{1,3}){0,3}?(?:systems?|servers?|machines?|results?|entr(?:y|ies)|submissions?|"
    r"accelerators?|GPUs?|chips?)\s{1,3}(?:in|of|across)\s{1,3}(?:the\s{1,3})?(?:whole\s{1,3}|entire\s{1,3})?"
    r"(?:MLPerf®?\s{1,3}Inference\s{1,3})?(?:v?\d+\.\d+\b|round\b)|"
    r"(?:[^.;:]|\.(?=\d)){0,80}?\b(?:of\s{1,3}(?:any|all)\s{1,3}(?:systems?|submissions?|entries|GPUs?|accelerators?)\s{1,3})?"
    r"(?:in|across|of)\s{1,3}the\s{1,3}(?:whole|entire)\s{1,3}(?:[^.;:]|\.(?=\d)){0,40}?round\b|"
    # "the highest per-GPU Server throughput of any system in MLPerf® Inference v6.1"
    r"\s{1,3}(?:[\w®.-]{1,40}\s{1,3}){0,5}?of\s{1,3}(?:any|all|every)\s{1,3}(?:systems?|servers?|submissions?|"
    r"entr(?:y|ies)|GPUs?|accelerators?)\s{1,3}(?:in|of|across)\s{1,3}(?:the\s{1,3})?(?:MLPerf®?\s{1,3}Inference\s{1,3})?"
    r"(?:v?\d+\.\d+\b|round\b)",
    re.I,
)


def _merge(sources: list[tuple[str, Mentions]]) -> Scope:
    out = Mentions()
    origin: dict[str, str] = {}
    for where, m in sources:
        for attr in ATTRIBUTES:
            value = getattr(m, attr)
            if value and not getattr(out, attr):
                setattr(out, attr, set(value))
                origin[attr] = where
                if attr == "strict_chips":
                    out.chips = set(value)
                if attr == "benchmarks":
                    out.variants = set(m.variants)
    return Scope(out, origin)


def _sources(ctx: Context, b: Block, s: Sentence | None) -> list[tuple[str, Mentions]]:
    """Where the scope of a sentence may come from, nearest first."""
    read = ctx.vocab.read
    out: list[tuple[str, Mentions]] = [("the sentence", ctx.mentions(b, s))]
    if s is not None and s.start > 0:
        out.append((f"an earlier sentence of its paragraph (line {line(ctx, b)})", read(b.text[: s.start])))
    out += _container(ctx, b)
    words = b.words(s)
    before = previous(ctx, b)
    if before is not None and BACK_REFERENCE.search(words):
        out.append((f"the paragraph on line {line(ctx, before)}, which it points back to", read(before.text)))
        out += _captions(
            ctx, before, referred_table(ctx, before, before.text), "the paragraph it points back to"
        )
    table = referred_table(ctx, b, words) if b.table < 0 else None
    out += _captions(ctx, b, table, "it")  # "the highest per-GPU figure of those rows", "in Table 1"
    lead, headings = _section(ctx, b)
    if lead is not None and lead is not b:
        out.append((f"its section's lead paragraph on line {line(ctx, lead)}", read(lead.text)))
    out += [
        (f"the scope declared on line {line(ctx, x)}", read(x.text))
        for x in declarations(ctx, b)
        if x is not lead
    ]
    out += [(f"the heading on line {line(ctx, h)}", read(h.text)) for h in headings]
    out += _front_matter(ctx)
    return out


def _captions(ctx: Context, b: Block, table: int | None, who: str) -> list[tuple[str, Mentions]]:
    """The captions of *table* (none when None), which *who* refers to."""
    if table is None or b.table >= 0:
        return []
    return [
        (f"the caption of the table on line {line(ctx, x)}, which {who} refers to", ctx.vocab.read(x.text))
        for x in ctx.doc.beside(table)
        if x.kind == "paragraph"
    ]


def referred_table(ctx: Context, b: Block, words: str) -> int | None:
    """The table a sentence refers to ("Table 1", "those rows", "the table above"): the one
    whose caption numbers it, else the nearest table above it (one a placeholder drew too:
    its caption says what the query chose)."""
    m = TABLE_REFERENCE.search(words)
    if m is None:
        return None
    tables = sorted({x.table for x in ctx.doc.blocks[: ctx.doc.index(b)] if x.table >= 0}, reverse=True)
    if m.group(1):
        named = re.compile(rf"^\W*Table\s+{m.group(1)}\b", re.I)
        for t in tables:
            if any(named.match(x.text) for x in ctx.doc.beside(t)):
                return t
    return tables[0] if tables else None


def declarations(ctx: Context, b: Block) -> list[Block]:
    """The scope declarations that hold at *b*, nearest first: each holds from its paragraph to
    the end of the article, or when it says "in this section" to the next heading of its
    section's level or above."""
    if "declarations" not in ctx.memo:
        ctx.memo["declarations"] = _declared(ctx.doc.blocks)
    held: dict[int, tuple[Block, ...]] = ctx.memo["declarations"]
    return list(reversed(held.get(id(b), ())))


def _declared(blocks: list[Block]) -> dict[int, tuple[Block, ...]]:
    """For every block, the declarations above it that still hold (one pass over the article)."""
    out: dict[int, tuple[Block, ...]] = {}
    active: tuple[tuple[int, Block], ...] = ()  # (level of the section it holds for, 0: all; paragraph)
    level = 0
    for x in blocks:
        if x.kind == "heading":
            active = tuple(d for d in active if d[0] < x.level)
            level = x.level
        out[id(x)] = tuple(d[1] for d in active)
        if x.kind == "paragraph" and not x.generated and DECLARATION.match(x.text):
            active += ((level if SECTION_ONLY.search(x.text) else 0, x),)
    return out


def line(ctx: Context, b: Block) -> int:
    """The line of the article's source (the template's, front matter counted) a block starts on."""
    return ctx.doc.position(b.offsets[0])[0] if b.offsets else b.line


def surroundings(ctx: Context, b: Block) -> list[Block]:
    """The blocks a reader sees with *b* and reads it by: its table's header and caption or its
    list's lead paragraph, the paragraph before it (the whole table, when a table ends right
    above it), a table it refers to ("the first row", "Table 2"), its section's lead paragraph and
    headings, then the rest of its section up to it (what a reader of the section has just read)."""
    out: list[Block] = []
    if b.table >= 0:
        out += [x for x in ctx.doc.cells(b.table) if x.row == 0] + ctx.doc.beside(b.table)
    before = previous(ctx, b)
    lead, headings = _section(ctx, b)
    out += [x for x in (before, lead) if x is not None] + headings
    if before is not None and before.table >= 0 and before.table != b.table:
        out += ctx.doc.cells(before.table)  # "Between the two rounds, ...": the table just read
    table = referred_table(ctx, b, b.text) if b.table < 0 else None
    if table is not None:  # "From the first row to the last ...": the table it reads, rows and caption
        out += ctx.doc.cells(table) + ctx.doc.beside(table)
    out += _read_before(ctx, b)
    unique = list({id(x): x for x in out}.values())
    return [x for x in unique if x is not b and not x.generated]


def _read_before(ctx: Context, b: Block) -> list[Block]:
    """The author's paragraphs and list items of *b*'s section before it, nearest first."""
    out: list[Block] = []
    for x in reversed(ctx.doc.blocks[: ctx.doc.index(b)]):
        if x.kind == "heading":
            break
        if x.kind != "footnote" and id(x) not in ctx.note_blocks and (x.table < 0 or x.table == b.table):
            out.append(x)
    return out


def _container(ctx: Context, b: Block) -> list[tuple[str, Mentions]]:
    """A table cell's header, row and caption; a list item's lead paragraph."""
    read = ctx.vocab.read
    if b.table >= 0:
        cells = ctx.doc.cells(b.table)
        out = [
            (f"its column's header (line {line(ctx, x)})", read(x.text))
            for x in cells
            if x.row == 0 and x.col == b.col and x is not b
        ]
        out.append(
            (f"its table row (line {line(ctx, b)})", read(" ".join(x.text for x in cells if x.row == b.row)))
        )
        out += [
            (f"the table's caption on line {line(ctx, x)}", read(x.text))
            for x in ctx.doc.beside(b.table)
            if x.kind == "paragraph"
        ]
        return out
    lead = ctx.doc.list_lead(b)
    if lead is not None and not lead.generated:
        return [(f"the lead paragraph of its list on line {line(ctx, lead)}", read(lead.text))]
    return []


def previous(ctx: Context, b: Block) -> Block | None:
    """The author's block right before *b* in its section: not generated, not a note, not a cell
    of *b*'s own table; ``None`` at a heading."""
    k = ctx.doc.index(b)
    for x in reversed(ctx.doc.blocks[:k]):
        if x.kind == "heading":
            return None
        if (
            x.generated
            or x.kind == "footnote"
            or id(x) in ctx.note_blocks
            or (b.table >= 0 and x.table == b.table)
        ):
            continue
        return x
    return None


def following(ctx: Context, b: Block) -> Block | None:
    """The author's paragraph right after *b*, if *b* is a paragraph."""
    if b.kind != "paragraph" or b.table >= 0:
        return None
    k = ctx.doc.index(b) + 1
    while k < len(ctx.doc.blocks) and ctx.doc.blocks[k].generated:
        k += 1
    nxt = ctx.doc.blocks[k] if k < len(ctx.doc.blocks) else None
    return nxt if nxt is not None and nxt.kind == "paragraph" and nxt.table < 0 else None


def _section(ctx: Context, b: Block) -> tuple[Block | None, list[Block]]:
    """The lead paragraph of *b*'s section and its heading chain, nearest heading first."""
    k = ctx.doc.index(b)
    headings: list[Block] = []
    lead: Block | None = None
    level = 7
    for i in range(k - 1, -1, -1):
        x = ctx.doc.blocks[i]
        if x.kind != "heading" or x.level >= level:
            continue
        if not headings:
            lead = _first_paragraph(ctx, i + 1, k)
        headings.append(x)
        level = x.level
    if not headings:
        lead = _first_paragraph(ctx, 0, k)
    return lead, headings


def article_lead(ctx: Context) -> Block | None:
    """The article's first paragraph of its own: what a reader reads right under the title."""
    return _first_paragraph(ctx, 0, len(ctx.doc.blocks))


def _first_paragraph(ctx: Context, start: int, stop: int) -> Block | None:
    for x in ctx.doc.blocks[start:stop]:
        if x.kind == "paragraph" and not x.generated and x.table < 0:
            return x
    return None


def _front_matter(ctx: Context) -> list[tuple[str, Mentions]]:
    article = ctx.rendered.article
    out = [("the title", ctx.vocab.read(article.title))]
    description = str(article.meta.get("description", "") or "")
    if description:  # the standfirst under the title: "... between v5.1 and v6.1, Closed Datacenter"
        out.append(("the description", ctx.vocab.read(description)))
    if len(article.rounds) == 1:
        out.append(("the front matter's rounds", Mentions(rounds=set(article.rounds))))
    return out


#: a score the author's own run gave: "we ran / measured", "our own lab", "in-house", "internal tests"
OWN_RUN = re.compile(
    r"\b(?:we|I)\s+(?:\w+\s+){0,2}?(?:ran|measured|tested|benchmarked|recorded|obtained)\b|"
    r"\bour\s+(?:(?:own|internal|in-house|best|latest|fastest|first|last|tuned)\s+)?(?:labs?|runs?|tests?|testing|measurements?|harness|scores?)\b|"
    r"\bin-house\b|\binternal\s+(?:runs?|tests?|testing|measurements?)\b|"
    # "our engineering team measured", "our performance engineers ran"
    r"\bour\s+(?:\w+\s+){0,2}(?:team|engineers?|staff|group|lab)\s+(?:\w+\s+)?(?:ran|measured|tested|benchmarked|recorded|obtained)\b|"
    # "our engineers took one of our hosts and ran the benchmark", "We rented a node, ran the
    # same harness and measured ...": the run, a clause later
    r"\bour\s+(?:\w+\s+){0,2}(?:team|engineers?|staff|group|lab)\b[^.;]{0,80}?\band\s+(?:ran|measured|tested|benchmarked)\b|"
    r"\b(?:we|I)\s+[^.;]{0,100}?,?\s+(?:and\s+)?(?:ran|measured|benchmarked)\b|"
    # "we reached 15,120 tokens per second": a score of ours, as the number right after says
    r"\b(?:we|I)\s+(?:\w+\s+){0,2}?(?:reached|achieved|got|hit|saw|clocked|posted|scored)\s+"
    r"(?:(?:about|around|roughly|nearly|over|just\s+over|some)\s+)?\d",
    re.I,
)
#: a note on the author's run, not on a submission: "run by GridLease engineering on a GridLease
#: host", "measured in-house", "our internal test"
OWN_NOTE = re.compile(
    r"\b(?:run|measured|tested|benchmarked|obtained)\s+(?:\w+\s+)?by\b|\bin-house\b|\binternal(?:ly)?\b|"
    r"\bour\s+(?:own\s+)?(?:lab|runs?|tests?|measurements?)\b|\bnot\s+submitted\b|"
    # "measured in the Parallax lab", "run at our facility"
    r"\b(?:run|measured|tested|benchmarked|obtained)\s+(?:in|at)\s+(?:the\s+|our\s+)?(?:[\w-]+\s+){0,3}?"
    r"(?:labs?|laboratory|facility|data\s?cent(?:er|re))\b",
    re.I,
)
#: the author's own machine as the subject of a result: "Our host delivered", "our test node reached"
OWN_SUBJECT = re.compile(
    r"\bour\s+(?:[\w-]+\s+){0,3}?(?:hosts?|nodes?|rigs?|testbeds?|instances?|boxes|box)\b", re.I
)


def own_run(ctx: Context, c: Claim) -> bool:
    """Whether a typed score is the author's own run: its sentence says so ("we measured", "in our
    own lab"); the note its marker points to is about the author's run, citing no entry ("run by
    GridLease engineering on a GridLease host"); or its sentence's subject is the author's machine
    ("Our host delivered ...") after its paragraph's lead, the paragraph before or its section's
    heading said the author ran the benchmark."""
    text = c.block.words(c.sentence)
    if OWN_RUN.search(text):
        return True
    note = note_of(ctx, c)
    if note is not None and not note.entries and OWN_NOTE.search(note.text):
        return True
    if not OWN_SUBJECT.search(text):
        return False
    if OWN_RUN.search(c.block.text[: c.sentence.start]):  # "**Our run.** ... our node reached 23,900"
        return True
    before = previous(ctx, c.block)
    if before is not None and OWN_RUN.search(before.text):
        return True
    _, headings = _section(ctx, c.block)  # "## Our run" over "Our box reached 14,380 ..."
    return bool(headings) and bool(OWN_RUN.search(headings[0].text))


def note_of(ctx: Context, c: Claim) -> Note | None:
    """The note the first marker after a value in its paragraph points to."""
    after = [m for m in ctx.notes.markers if m.block is c.block and m.index >= c.index]
    return ctx.notes.note(after[0].label) if after else None
