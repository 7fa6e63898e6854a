"""An article as the checker reads it: blocks of prose with sentences, parsed with markdown-it.

Like Vale, the checker never searches raw text: the rendered Markdown is parsed into
blocks (paragraphs, headings, list items, table cells, footnote definitions, quotes),
each with its *masked* text: the block's characters with markup, code, URLs, HTML
and comments replaced by spaces, so that every index still points at the same
character of the rendered Markdown and, through the source map, at the template's
line and column. Blocks the generator wrote itself (footnotes, the compliance
paragraph, the provenance appendix) and quoted statements are marked, so that they
never count as an article's own disclosure.
"""

from __future__ import annotations

import bisect
import functools
import html
import re
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.common.utils import mdTrim
from markdown_it.rules_block import StateBlock
from markdown_it.rules_block.table import MAX_AUTOCOMPLETED_CELLS, getLine, table
from markdown_it.rules_core import StateCore
from mdit_py_plugins.footnote import footnote_plugin

from generator.article.render import Rendered
from generator.article.sourcemap import GENERATED

PROSE_KINDS = ("paragraph", "heading", "item", "cell", "header", "footnote", "quote")

#: (what a match must contain, pattern): the pattern runs only on text that holds the literal
_MASKS = [
    ("<!--", re.compile(r"<!--.*?-->", re.S)),  # comments
    ("`", re.compile(r"`[^`\n]*`")),  # code spans
    (
        "mlperf-fn-",
        re.compile(r"\[\^\\\[\d+\\\]\]\(#mlperf-fn-\d+\)(?:\[\\\[\d+\\\]\]\(#mlperf-fn-\d+\))*"),
    ),  # generated markers
    ("[^", re.compile(r"\[\^[^\]\s]+\](?!:)")),  # Markdown footnote references
    ("<http", re.compile(r"<https?://[^>\s]+>")),  # autolinks
    ("http", re.compile(r"https?://\S+?(?=[)\]>\s]|[.,;:!?](?:\s|$)|$)")),  # bare URLs
    ("<", re.compile(r"</?[A-Za-z][^<>]*>")),  # inline HTML tags
]
_ESCAPE = re.compile(r"\\(.)")
_EMPHASIS = re.compile(r"(?<![\w*])[*_]{1,3}|[*_]{1,3}(?![\w*])")
_LINK = re.compile(r"(!?)\[([^\[\]\n]*)\]\(([^)\s]*)(?:\s+\"[^\"]*\")?\)")
_ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|[A-Za-z]+);")
#: a sentence's end: its stop, closing quotes or brackets, and the footnote markers a hand-written
#: article puts after it ("... 9,438 W.[1] On performance alone, ...", "... ahead.¹ The ...")
_SENTENCE_END = re.compile(
    r"[.!?][\"”’)\]]*(?:\[\^?[\w-]{1,8}\])*[¹²³⁴⁵⁶⁷⁸⁹⁰]*(?=\s+[\"“‘(\[]*[A-Z0-9$]|\s*$)"
)
_ABBREV = re.compile(
    r"(?:\b(?:e\.g|i\.e|vs|Inc|Corp|Ltd|No|approx|Fig|cf|al|etc|Dr|Mr|Ms|St|U\.S|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)|(?<!\d\s)\b[A-Z])$"  # an initial ("J. Smith"), not a unit ("9,438 W.")
)


def mask(raw: str) -> str:
    """Markup, code, URLs and comments as spaces; link text and entity characters kept in place."""
    out = list(raw)

    def blank(a: int, b: int) -> None:
        for i in range(a, b):
            if out[i] != "\n":
                out[i] = " "

    for literal, pat in _MASKS:
        if literal in raw:
            for m in pat.finditer(raw):
                blank(m.start(), m.end())
    if "](" in raw:
        for m in _LINK.finditer(raw):
            blank(m.start(), m.start(2))  # "![" or "["
            blank(m.end(2), m.end())  # "](url)"
    if "&" in raw:
        for m in _ENTITY.finditer(raw):
            if out[m.start()] == "&":
                out[m.start()] = html.unescape(m.group(0))[:1] or " "
                blank(m.start() + 1, m.end())
    text = "".join(out)
    if "\\" in text:
        text = _ESCAPE.sub(lambda m: " " + m.group(1), text)  # backslash escapes
    if "*" in text or "_" in text:
        text = _EMPHASIS.sub(lambda m: " " * len(m.group(0)), text)
    return text


@dataclass
class Sentence:
    start: int  # offsets into the block's text
    end: int


@dataclass
class Block:
    """One unit of prose with its position in the rendered Markdown."""

    kind: str  # paragraph, heading, item, cell, header, footnote, quote
    raw: str  # the rendered Markdown of the block (line segments joined by "\n")
    text: str  # the same characters, masked
    offsets: list[int]  # rendered offset of the first character of each line segment
    seg_starts: list[int]  # index in text of each line segment
    line: int  # first rendered line (1-based)
    generated: bool = False
    level: int = 0  # heading level
    row: int = -1  # table row (0 = header) and column
    col: int = -1
    table: int = -1  # index of the table the cell belongs to
    label: str = ""  # footnote label
    sentences: list[Sentence] = field(default_factory=list)

    def offset(self, i: int) -> int:
        """Rendered offset of character *i* of the block's text."""
        k = bisect.bisect_right(self.seg_starts, i) - 1
        return self.offsets[k] + (i - self.seg_starts[k])

    def index_of(self, offset: int) -> int | None:
        """Index in the block's text of the rendered character at *offset*, if it is in the block."""
        for k, start in enumerate(self.offsets):
            length = (
                self.seg_starts[k + 1] - 1 if k + 1 < len(self.seg_starts) else len(self.text)
            ) - self.seg_starts[k]
            if start <= offset <= start + length:
                return self.seg_starts[k] + (offset - start)
        return None

    def sentence_at(self, i: int) -> Sentence:
        for s in self.sentences:
            if s.start <= i < s.end:
                return s
        return self.sentences[-1] if self.sentences else Sentence(0, len(self.text))

    def words(self, s: Sentence | None = None) -> str:
        return self.text[s.start : s.end] if s else self.text


#: the longest sentence read as one: a longer run without a sentence end (200 KB of numbers) is
#: cut at a space, so that what rules compare within a sentence stays bounded
MAX_SENTENCE = 3000


def split_sentences(text: str) -> list[Sentence]:
    out: list[Sentence] = []
    for s in _sentences(text):
        while s.end - s.start > MAX_SENTENCE:
            cut = text.rfind(" ", s.start + 1, s.start + MAX_SENTENCE)
            cut = cut if cut > s.start else s.start + MAX_SENTENCE
            out.append(Sentence(s.start, cut))
            s = Sentence(cut, s.end)
        out.append(s)
    return out


def _sentences(text: str) -> list[Sentence]:
    out, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        head = text[start : m.start()].rstrip()
        if _ABBREV.search(head):
            continue
        out.append(Sentence(start, m.end()))
        start = m.end()
        while start < len(text) and text[start].isspace():
            start += 1
    if start < len(text) and text[start:].strip():
        out.append(Sentence(start, len(text)))
    return out or [Sentence(0, len(text))]


@dataclass
class Document:
    """The parsed article: its blocks in order, and the rendering they come from."""

    rendered: Rendered
    blocks: list[Block]
    _index: dict[int, int] | None = field(default=None, repr=False, compare=False)
    _tables: dict[int, list[Block]] | None = field(default=None, repr=False, compare=False)
    _starts: list[tuple[int, int]] | None = field(default=None, repr=False, compare=False)

    @property
    def markdown(self) -> str:
        return self.rendered.markdown

    def index(self, block: Block) -> int:
        """Where *block* stands in :attr:`blocks` (``blocks.index`` compares every field)."""
        if self._index is None:
            self._index = {id(b): i for i, b in enumerate(self.blocks)}
        return self._index[id(block)]

    def cells(self, table: int) -> list[Block]:
        """The header and body cells of table number *table*, in order."""
        if self._tables is None:
            self._tables = {}
            for b in self.blocks:
                if b.table >= 0:
                    self._tables.setdefault(b.table, []).append(b)
        return self._tables.get(table, [])

    def header_of(self, b: Block) -> Block | None:
        """The header cell of table cell *b*'s column (``None`` outside a table)."""
        if b.table < 0:
            return None
        return next((x for x in self.cells(b.table) if x.row == 0 and x.col == b.col), None)

    def beside(self, table: int) -> list[Block]:
        """The blocks right before and right after table number *table* that are not cells of a
        table: where its caption, its lead-in or its "Source:" line stand."""
        cells = self.cells(table)
        if not cells:
            return []
        first, last = self.index(cells[0]), self.index(cells[-1])
        return [
            self.blocks[k]
            for k in (first - 1, last + 1)
            if 0 <= k < len(self.blocks) and self.blocks[k].table < 0
        ]

    def list_lead(self, b: Block) -> Block | None:
        """For a list item, the paragraph right before its list ("What they show:"), if any."""
        if b.kind != "item":
            return None
        k = self.index(b)
        while k > 0 and self.blocks[k - 1].kind == "item":
            k -= 1
        return self.blocks[k - 1] if k > 0 and self.blocks[k - 1].kind == "paragraph" else None

    def list_after(self, b: Block) -> Block | None:
        """For a list item, the paragraph right after its list (a "Source:" line, a marker), if any."""
        if b.kind != "item":
            return None
        k = self.index(b)
        while k + 1 < len(self.blocks) and self.blocks[k + 1].kind == "item":
            k += 1
        after = self.blocks[k + 1] if k + 1 < len(self.blocks) else None
        return after if after is not None and after.kind == "paragraph" else None

    def position(self, offset: int) -> tuple[int, int]:
        line, col = self.rendered.position(offset)
        if line == 0:  # generated text: point at the line of the rendered Markdown
            line = self.markdown.count("\n", 0, offset) + 1
            col = offset - (self.markdown.rfind("\n", 0, offset) + 1) + 1
        return line, col

    def block_at(self, offset: int) -> tuple[Block, int] | None:
        """The block that holds the rendered character at *offset*, and its index there."""
        if self._starts is None:
            self._starts = sorted((b.offsets[0], k) for k, b in enumerate(self.blocks) if b.offsets)
        # the blocks that start at or before the offset, nearest first (blocks never share a
        # character, so the one that holds it is the only one)
        k = bisect.bisect_right(self._starts, (offset, len(self.blocks)))
        for _, n in reversed(self._starts[:k]):
            i = self.blocks[n].index_of(offset)
            if i is not None:
                return self.blocks[n], i
        return None

    def prose(self) -> list[Block]:
        return [b for b in self.blocks if not b.generated]


class _Builder:
    def __init__(self, rendered: Rendered) -> None:
        self.r = rendered
        self.md = rendered.markdown
        self.lines = self.md.split("\n")
        self.line_starts = [0]
        for ln in self.lines[:-1]:
            self.line_starts.append(self.line_starts[-1] + len(ln) + 1)
        self.blocks: list[Block] = []
        self.tables = 0

    def _segments(self, first: int, content: str) -> tuple[list[str], list[int]]:
        """Where each line of an inline *content* sits in the rendered lines from *first* on."""
        segs, offs = [], []
        for k, part in enumerate(content.split("\n")):
            n = min(first + k, len(self.lines) - 1)
            src, want = self.lines[n], part.strip()
            at = src.find(want) if want else 0
            if at < 0:
                at, want = 0, src
            segs.append(src[at : at + len(want)])
            offs.append(self.line_starts[n] + at)
        return segs, offs

    def add(self, kind: str, first: int, last: int, content: str, **kw: object) -> Block:
        segs, offs = self._segments(first, content)
        raw = "\n".join(segs)
        starts, pos = [], 0
        for s in segs:
            starts.append(pos)
            pos += len(s) + 1
        text = mask(raw)
        gen = all(self.r.sourcemap.kind(o) == GENERATED for o in offs if self.r.sourcemap.segments) and bool(
            self.r.sourcemap.segments
        )
        b = Block(kind, raw, text, offs, starts, first + 1, generated=gen, **kw)  # type: ignore[arg-type]
        b.sentences = split_sentences(text)
        self.blocks.append(b)
        return b

    def table_row(self, line: int, row: int) -> None:
        raw = self.lines[line]
        cells = [m for m in re.finditer(r"(?:^|(?<!\\)\|)([^|\\]*(?:\\.[^|\\]*)*)", raw)]
        col = 0
        for m in cells:
            content = m.group(1)
            if not content.strip() and (m.start(1) == 0 or m.end(1) == len(raw)):
                continue
            if set(content.strip()) <= set("-: ") and content.strip():
                return  # the delimiter row
            off = self.line_starts[line] + m.start(1)
            text = mask(content)
            b = Block(
                "header" if row == 0 else "cell",
                content,
                text,
                [off],
                [0],
                line + 1,
                generated=self.r.sourcemap.kind(off) == GENERATED and bool(self.r.sourcemap.segments),
                row=row,
                col=col,
                table=self.tables,
            )
            b.sentences = [Sentence(0, len(text))]
            self.blocks.append(b)
            col += 1


def _footnote_inline(state: StateCore) -> None:
    """markdown-it's core "inline" rule, for the only inline content the checker's parse uses:
    footnote references ("[^1]", "^[...]"), which decide the footnotes markdown-it keeps. Inline
    text without one is not parsed (its tokens would be thrown away)."""
    for token in state.tokens:
        if token.type == "inline" and _holds_reference(token.content):
            if token.children is None:
                token.children = []
            state.md.inline.parse(token.content, state.md, state.env, token.children)


def _lean_table(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """markdown-it's table rule, for the checker: the same tables, of the same rows and lines,
    without the tokens of their cells, which the checker never reads (it splits a row's line
    itself): a table_open and a tr_open per row, with their lines. A row holding a footnote
    reference keeps one inline token of its text, so that the reference keeps its note. Four
    thousand tokens fewer in the reference article (a fifth of a check's parse)."""
    if not table(state, start, end, True):  # markdown-it decides what a table is
        return False
    if silent:
        return True
    count = _cells(mdTrim(getLine(state, start)))
    old, state.parentType = state.parentType, "table"
    terminators = state.md.block.ruler.getRules("blockquote")
    opened = state.push("table_open", "table", 1)
    _lean_row(state, start, getLine(state, start))
    line, autocompleted = start + 2, 0
    while line < end and state.sCount[line] >= state.blkIndent:  # the rule's own ends of a table
        if any(rule(state, line, end, True) for rule in terminators):
            break
        text = mdTrim(getLine(state, line))
        if not text or state.is_code_block(line):
            break
        autocompleted += count - _cells(text)
        if autocompleted > MAX_AUTOCOMPLETED_CELLS:
            break
        _lean_row(state, line, text)
        line += 1
    state.push("table_close", "table", -1)
    opened.map = [start, line]
    state.parentType = old
    state.line = line
    return True


def _lean_row(state: StateBlock, line: int, text: str) -> None:
    state.push("tr_open", "tr", 1).map = [line, line + 1]
    if _holds_reference(text):
        inline = state.push("inline", "", 0)
        inline.map, inline.content, inline.children = [line, line + 1], text, []
    state.push("tr_close", "tr", -1)


#: a pipe that separates cells: not escaped ("\|" is a pipe in a cell)
CELL_PIPE = re.compile(r"(?<!\\)\|")


def _cells(text: str) -> int:
    """How many cells markdown-it's table rule splits a trimmed row's text into."""
    pipes = len(CELL_PIPE.findall(text))
    return pipes + 1 - text.startswith("|") - (pipes > 0 and bool(CELL_PIPE.search(text, len(text) - 1)))


def _holds_reference(text: str) -> bool:
    """Whether *text* may hold a footnote reference ("[^1]", "^[...]"), which decides the notes
    markdown-it keeps: only such text is parsed inline."""
    return "[^" in text or "^[" in text


@functools.cache
def _markdown() -> MarkdownIt:
    """The parser, made once. The checker reads blocks and the inline source of each, never the
    inline tokens themselves: of the inline rules it keeps those that decide what a footnote
    reference is (code spans, escapes, links, HTML hide one), runs them only on text that holds
    one, and drops emphasis, line breaks, entities and the joining of text tokens."""
    md = MarkdownIt("commonmark").enable("table").use(footnote_plugin)
    md.block.ruler.at("table", _lean_table, {"alt": ["paragraph", "reference"]})
    md.core.ruler.at("inline", _footnote_inline)
    return md.disable(["emphasis", "newline", "entity", "text_join"])


def parse(rendered: Rendered) -> Document:
    """Blocks of prose of a rendered article."""
    tokens = _markdown().parse(rendered.markdown)
    b = _Builder(rendered)
    stack: list[str] = []
    label = ""
    row = 0
    for i, tok in enumerate(tokens):
        if tok.type.endswith("_open") and tok.type not in ("paragraph_open", "heading_open"):
            stack.append(tok.type)
        if tok.type.endswith("_close") and tok.type not in ("paragraph_close", "heading_close") and stack:
            stack.pop()
        if tok.type == "footnote_open":
            label = str(tok.meta.get("label", ""))
        elif tok.type == "table_open":
            b.tables += 1
            row = 0
        elif tok.type == "tr_open" and tok.map:
            b.table_row(tok.map[0], row)
            row += 1
        elif tok.type == "inline" and tok.map and tokens[i - 1].type in ("paragraph_open", "heading_open"):
            opener = tokens[i - 1]
            first, last = tok.map
            if opener.type == "heading_open":
                b.add("heading", first, last, tok.content, level=int(opener.tag[1:]))
            elif "footnote_open" in stack:
                b.add("footnote", first, last, tok.content, label=label)
            elif "blockquote_open" in stack:
                b.add("quote", first, last, tok.content)
            elif "list_item_open" in stack:
                b.add("item", first, last, tok.content)
            else:
                b.add("paragraph", first, last, tok.content)
    _orphan_definitions(b)
    return Document(rendered, b.blocks)


def _orphan_definitions(b: _Builder) -> None:
    """Footnote definitions no marker references: markdown-it drops them, the checker reports them."""
    seen = {x.label for x in b.blocks if x.kind == "footnote"}
    lines = b.lines
    for i, ln in enumerate(lines):
        m = re.match(r"\[\^([^\]\s]+)\]:\s*(.*)$", ln)
        if not m or m.group(1) in seen:
            continue
        parts, j = [m.group(2)], i + 1
        while (
            j < len(lines)
            and lines[j].strip()
            and (lines[j].startswith("    ") or not re.match(r"\[\^", lines[j]))
        ):
            parts.append(lines[j].strip())
            j += 1
        b.add("footnote", i, j, "\n".join(parts), label=m.group(1))
