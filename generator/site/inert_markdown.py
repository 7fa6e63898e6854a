"""A Python-Markdown extension: what no inline pattern would change is not given to them.

Converting a page, Python-Markdown runs every inline pattern over the text of every element,
which makes most of the time of the generator's pages (the same HTML comes out either way):

* A rendered article cites every entry as ``<a class="gi-entry" href=… title=…><span
  class="gi-id">6.1-0052</span></a>`` (a hundred of them in a footnote is common), and a
  review page wraps every figure in ``<mark class="gi-fig" title=…>``. Markdown's inline HTML
  pattern stores each of their tags apart, and searches the text again from its start after
  each one. An inline pattern just before it (after code spans, escapes, links and autolinks
  had the text, as for any inline HTML) stores each such element, or a comma-separated run
  of them, whole when it is exactly what the generator writes (attribute values without a
  backslash, quote or bracket, text without Markdown syntax) and not inside something that
  pattern would store: the same stash, a fraction of the searches.
* Before any of that, such an element where neither Markdown's HTML block parser nor any
  inline pattern could read it differently (in a paragraph, a list item, a table or a
  footnote, outside code, links, headings, attribute lists and raw HTML lines; and with no
  bracket, parenthesis or backslash of its own) is replaced by a token of two private-use
  characters around a number, which no parser or pattern reads, and put back as written once
  the HTML is made: an article's provenance table and notes (a hundred entries and more) then
  cost their words only, not their tags (a synthetic article's page: 14 ms -> 4 ms). Each
  rule that keeps an element as written answers an input two reviews found converted
  differently; the tests hold them.
* A data or round page is mostly tables of plain words and numbers (a round's data page:
  2,000 cells, 20 ms). A table cell whose text holds no character any inline pattern starts
  with is marked atomic, as Markdown marks code, and the inline step passes over it.

All apply only while every step Markdown runs is one this module knows: an extension that
reads plain words or raw lines (abbreviations, smart quotes, snippets) turns them off; and the
elements' steps only on a page whose every tag is whole (no tag left open, no quoted ">", no
processing instruction or CDATA: Markdown's parsers read on from those, tag by tag).

Tests convert arbitrary arrangements of such text with and without the extension and compare.
"""

from __future__ import annotations

import bisect
import re
import xml.etree.ElementTree as etree
from collections.abc import Sequence

from markdown import Markdown
from markdown.extensions import Extension
from markdown.extensions.tables import TableProcessor
from markdown.inlinepatterns import HTML_RE, HtmlInlineProcessor
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from markdown.util import AtomicString

#: an attribute value as escape.md_attr writes it (no quote, angle bracket or escape)
_VALUE = r'"[^"<>\\`|\n\x02\x03]*"'
#: text none of the known inline patterns reads (:data:`KNOWN`): none of the characters they
#: start with (the module runs only with those patterns)
_TEXT = r"[^\\`*_\[\]!<>&{}^|\n\x02\x03]*"
_LINK = rf"<a href={_VALUE} title={_VALUE}>{_TEXT}</a>"
_ID = rf'<span class="gi-id">{_TEXT}</span>'
_ENTRY = rf'<a class="gi-entry" href={_VALUE} title={_VALUE}>{_ID}</a>'
_ONE = "|".join(
    [
        _ENTRY,
        _ID,
        rf'<mark class="gi-fig" title={_VALUE}>{_TEXT}</mark>',
        rf'<sup class="gi-fn">{_LINK}(?:[,\u2013]{_LINK})*</sup>',
        rf'<span class="gi-sub">{_TEXT}(?:{_ENTRY}|{_ID})?{_TEXT}</span>',
    ]
)
#: an entry's link, or an entry ID, as the finished HTML holds it: its text is group 1 or 2
ENTRY_TEXT = re.compile(
    rf'<a class="gi-entry" href={_VALUE} title={_VALUE}><span class="gi-id">({_TEXT})</span></a>|<span class="gi-id">({_TEXT})</span>'
)
#: one element, or a run of them separated by commas (a note's list of entries: one match, as
#: Markdown searches its text again from the start after every match)
ELEMENT = f"((?:{_ONE})(?:, (?:{_ONE}))*)"
#: what Markdown's inline HTML pattern stores: a tag, a comment, a processing instruction...
_HTML = re.compile(HTML_RE, re.DOTALL | re.UNICODE)
#: cell text that none of the known inline patterns reads
INERT_CELL = re.compile(_TEXT)

#: the steps of every kind whose effect on text this module knows: Markdown's own, those of
#: tables, footnotes, admonitions, attribute lists, tables of contents, md_in_html and fenced
#: code, and those MkDocs adds to every page (anchors and title read from the tree, links made
#: relative in it: the stash holds no id, name or relative link; raw HTML scanned for ids), and the
#: site's one back-link per footnote (generator.site.footnote_backlinks: drops elements, reads no text)
KNOWN = {
    "preprocessors": "normalize_whitespace html_block fenced_code_block mkdocs_raw_html gi_inert gi_hide",
    "blockprocessors": "empty indent code hashheader setextheader hr olist ulist quote reference "
    "paragraph admonition markdown_block footnote table",
    "inlinePatterns": "backtick escape reference link image_link image_reference short_reference "
    "short_image_ref autolink automail linebreak html entity em_strong em_strong2 not_strong footnote "
    "gi_inert_html",
    "treeprocessors": "inline prettify unescape attr_list footnote footnote-duplicate toc "
    "mkdocs_extract_anchors relpath mkdocs_extract_title gi-one-backlink",
    "postprocessors": "amp_substitute raw_html footnote gi_restore",
}


def only_known_steps(md: Markdown) -> bool:
    """Whether every step *md* runs is one this module knows (an extension that reads plain
    words, or raw lines, turns the module off)."""
    return all(
        # the names of each registry (Markdown keeps them in _data)
        set((md.parser if kind == "blockprocessors" else md).__dict__[kind]._data) <= set(names.split())
        for kind, names in KNOWN.items()
    )


class _Guard(Preprocessor):
    """Decides, as each conversion starts, whether the inert steps run (:func:`only_known_steps`)."""

    def __init__(self, md: Markdown, ext: InertMarkdownExtension) -> None:
        super().__init__(md)
        self.ext = ext

    def run(self, lines: list[str]) -> list[str]:
        self.ext.active = only_known_steps(self.md)
        self.ext.whole = self.ext.active and _plain_html(lines)
        return lines


#: a page whose elements Markdown reads tag by tag: one holding a token's characters itself
#: (read before fenced code is set aside), a processing instruction or CDATA (after one left
#: open, Markdown's HTML parser copies raw text by position), or "&#" that starts no character
#: reference (Markdown's parser then eats part of the next tag)
_UNHIDEABLE = re.compile("[\ue000\ue001]|<[?]|<!\\[|&#(?![0-9]|[xX][0-9a-fA-F])")


def _plain_html(lines: list[str]) -> bool:
    """Whether the page's HTML is plain enough for the element steps: every tag it starts is
    whole (no quoted ">" or tag left open that Markdown's parsers read on from), and
    :data:`_UNHIDEABLE` finds nothing."""
    page = "\n".join(lines)
    if _UNHIDEABLE.search(page):
        return False
    return _first_unclosed(page, [(h.start(), h.end()) for h in _HTML.finditer(page)]) == len(page)


#: where a tag, comment, processing instruction or declaration may start
_TAG_START = re.compile(r"<[a-zA-Z/!?]")


def _first_unclosed(text: str, tags: list[tuple[int, int]]) -> int:
    """Where the first tag (comment, instruction) of *text* starts that is none of *tags*, the
    whole tags found in it (in order), or the end: a quoted ">" in an attribute, say, which
    Markdown reads on from."""
    starts = [a for a, _ in tags]
    for u in _TAG_START.finditer(text):
        k = bisect.bisect_right(starts, u.start()) - 1
        if k < 0 or tags[k][1] <= u.start():
            return u.start()
    return len(text)


class InertElements(HtmlInlineProcessor):
    """Markdown's inline HTML pattern for the generator's whole elements (module docstring)."""

    def __init__(self, md: Markdown, ext: InertMarkdownExtension) -> None:
        super().__init__(ELEMENT, md)
        self.ext = ext
        self._memo = ("", 0)  # text up to where no tag is left open, as last found

    def handleMatch(self, m: re.Match[str], data: str) -> tuple[str | None, int | None, int | None]:  # type: ignore[override]  # noqa: N802
        # after an unclosed "<", or inside (or after) a tag, comment or instruction Markdown's
        # own pattern stores as one piece or reads on from, the element is left to that pattern:
        # stored whole, it would change what that pattern reads there. The text up to the last
        # element found clean is not read again (a long line of elements: linear, not quadratic)
        at = m.start()
        if not self.ext.whole or (at and data[at - 1] in "*_"):
            return None, None, None  # (after "*" or "_": emphasis may read on into the element)
        prefix, clean = self._memo
        p = clean if clean <= at and data.startswith(prefix) else 0
        if data.rfind("<", 0, at) > data.rfind(">", 0, at):
            return None, None, None
        if (
            _first_unclosed(data[p:at], [(h.start() - p, h.end() - p) for h in _HTML.finditer(data, p, at)])
            < at - p
        ):
            return None, None, None
        self._memo = (data[:at], at)
        return super().handleMatch(m, data)


#: a hidden element's token: its number between two private-use characters
TOKEN = re.compile("\ue000(\\d+)\ue001")
_ELEMENT = re.compile(ELEMENT)
#: what an element may not hold to be hidden: what a pattern before Markdown's inline HTML
#: pattern reads (links, images, code spans, escapes) or an attribute list opens
_READ_EARLY = re.compile(r"[\[\]()!{}\\`]")
#: a group of lines (between blank lines) left as written: code spans and attribute lists
#: anywhere; a heading (ATX, or a setext underline), a line an HTML block may start or hold
#: (Markdown's HTML parsers read tags in it; after any white space, which its HTML parser
#: counts as the line's start), indented code, a block quote, an admonition, a link reference
#: definition anywhere (whose title is an attribute); not a footnote definition
_KEEP = re.compile(
    r"[`{]|\[(?!\^)[^\]]*\]:|^(?: {0,3}(?:[#<>]|!!!|\?\?\?|=+\s*$|-+\s*$)|[^\S\n]{0,3}<| {4}|\t)", re.M
)
#: what pairs a link's brackets and parentheses: escapes (skipped), brackets, parentheses, and
#: a title's quotes or an angled address (after which the parenthesized part runs to the end)
_BRACKETS = re.compile(r"\\.|[\[\]()\"'<]", re.S)
#: an HTML element of the span kind that md_in_html reads as one text, blank lines and all (a
#: markdown attribute written any other way than 1, block or 0 may mean span: spaces, entities)
_SPAN_OPEN = re.compile(
    r"""<(?:address|dd|dt|h[1-6]|legend|li|p|summary|td|th)\b[^>]*\bmarkdown|<[a-zA-Z][^>]*\bmarkdown\s*=\s*(?:"(?!(?:1|block|0)")|'(?!(?:1|block|0)')|(?!["']|(?:1|block|0)[\s/>]))""",
    re.I,
)


def _link_spans(text: str) -> list[tuple[int, int]]:
    """Where *text* may hold a link's or an image's text, target or title: every bracketed part,
    with the parenthesized part right after it (to the end when it is not closed); merged, in order."""
    spans: list[tuple[int, int]] = []
    opened: list[int] = []
    tokens = [(m.start(), m.group()) for m in _BRACKETS.finditer(text) if m.group() in "[]()\"'<"]
    for k, (at, c) in enumerate(tokens):
        if c == "[":
            opened.append(at)
        elif c == "]" and opened:
            start, end = opened.pop(), at + 1
            if text.startswith("(", end):
                depth, end = 0, len(text)
                for pos, p in tokens[k + 1 :]:
                    if p in "\"'<":
                        break  # a title or an angled address: to the end
                    depth += 1 if p == "(" else -1 if p == ")" else 0
                    if depth == 0:
                        end = pos + 1
                        break
            spans.append((start, end))
    merged: list[tuple[int, int]] = []  # in order, none overlapping (for a search by halves)
    for a, b in sorted(spans):
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def _overlaps(spans: list[tuple[int, int]], starts: list[int], at: int, end: int) -> bool:
    """Whether [*at*, *end*) overlaps one of *spans* (in order, none overlapping; *starts* theirs)."""
    k = bisect.bisect_left(starts, end) - 1  # the last span starting before *end*
    return k >= 0 and spans[k][1] > at


def _hidden(text: str, tags: list[tuple[int, int]], kept: list[str]) -> str:
    """*text* (a group of lines, whose whole *tags* are given) with each element nothing could
    read differently replaced by its token (kept in *kept*)."""
    if not _ELEMENT.search(text) or _KEEP.search(text):
        return text
    links = _link_spans(text)
    link_starts = [a for a, _ in links]
    starts = [a for a, _ in tags]
    unclosed = _first_unclosed(text, tags)

    def hide(m: re.Match[str]) -> str:
        at, end = m.start(), m.end()
        k = bisect.bisect_left(starts, at) - 1  # the last tag starting before the element
        if (
            _READ_EARLY.search(m.group(0))
            or (at and text[at - 1] in "\\*_")  # an escape; emphasis may read on into it
            or text.rfind("<", 0, at) > text.rfind(">", 0, at)
            or (k >= 0 and tags[k][1] > at)
            or unclosed < at
            or _overlaps(links, link_starts, at, end)
        ):
            return m.group(0)
        kept.append(m.group(0))
        return f"\ue000{len(kept) - 1}\ue001"

    return _ELEMENT.sub(hide, text)


class _Hide(Preprocessor):
    """Replaces the elements no parser or pattern could read differently by tokens (module
    docstring), before Markdown's HTML block parser reads the page."""

    def __init__(self, md: Markdown, ext: InertMarkdownExtension) -> None:
        super().__init__(md)
        self.ext = ext

    def run(self, lines: list[str]) -> list[str]:
        kept = self.ext.kept  # kept until Markdown is reset: notes it repeats on a page it
        # converts without a reset hold tokens of the pages before
        if not self.ext.whole:
            return lines
        out: list[str] = []
        group: list[str] = []
        hiding = True
        for ln in [*lines, ""]:
            if ln:  # Markdown's blocks are split at empty lines only
                group.append(ln)
                continue
            if group:
                text = "\n".join(group)
                if hiding:
                    tags = [(h.start(), h.end()) for h in _HTML.finditer(text)]
                    out += _hidden(text, tags, kept).split("\n")
                    # an HTML construct left open, or text md_in_html reads as one (blank lines
                    # and all): what follows may belong to it, so nothing more is hidden
                    hiding = not _open_html(text, tags)
                else:
                    out += group
                group = []
            out.append(ln)
        return out[:-1]


def _open_html(text: str, tags: list[tuple[int, int]]) -> bool:
    """Whether *text* (a group of lines, whose whole *tags* are given) starts a tag it does not
    close, an element of the span kind that md_in_html reads on across blank lines, or an
    indented one with a markdown attribute."""
    return _first_unclosed(text, tags) < len(text) or bool(
        _SPAN_OPEN.search(text) or _INDENTED_MD.search(text)
    )


#: an indented HTML start tag with a markdown attribute: Markdown puts such a block back as
#: serialized text, escaped (a placeholder not at the start of its line)
_INDENTED_MD = re.compile(r"^[^\S\n]+<[a-zA-Z][^>]*\bmarkdown", re.M | re.I)


class _Restore(Postprocessor):
    """Puts the hidden elements back, as written, into the finished HTML."""

    def __init__(self, md: Markdown, ext: InertMarkdownExtension) -> None:
        super().__init__(md)
        self.ext = ext

    def run(self, text: str) -> str:
        kept = self.ext.kept
        return TOKEN.sub(lambda m: kept[int(m.group(1))], text) if kept else text


class InertTableProcessor(TableProcessor):
    """Markdown's table reader; cells of plain text are atomic (see the module's docstring)."""

    def __init__(self, md: Markdown, table: TableProcessor, ext: InertMarkdownExtension) -> None:
        super().__init__(md.parser, table.config)
        self.ext = ext

    def _build_row(self, row: str, parent: etree.Element, align: Sequence[str | None]) -> None:
        super()._build_row(row, parent, align)
        if self.ext.active:
            for cell in parent[-1]:
                if cell.text and INERT_CELL.fullmatch(cell.text):
                    cell.text = AtomicString(cell.text)


class InertMarkdownExtension(Extension):
    """Registers both steps (see the module's docstring)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.active = False  # set as each conversion starts
        self.kept: list[str] = []  # the elements hidden since Markdown was last reset
        self.whole = False  # set as each conversion starts: whether elements are hidden or stored whole

    def reset(self) -> None:
        self.kept.clear()

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's name
        md.registerExtension(self)  # reset with Markdown (md.reset())
        md.preprocessors.register(_Guard(md, self), "gi_inert", 100)  # before every other step
        md.inlinePatterns.register(InertElements(md, self), "gi_inert_html", 91)  # just before "html"
        # after fenced code is set aside, before the HTML block parser; back after every other step
        md.preprocessors.register(_Hide(md, self), "gi_hide", 21)
        md.postprocessors.register(_Restore(md, self), "gi_restore", 1)
        if "table" in md.parser.blockprocessors:  # the tables extension, loaded before this one
            table = md.parser.blockprocessors["table"]
            md.parser.blockprocessors.register(InertTableProcessor(md, table, self), "table", 75)


def makeExtension(**kwargs: object) -> InertMarkdownExtension:  # noqa: N802 - Python-Markdown's name
    return InertMarkdownExtension(**kwargs)
