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
* A data or round page is mostly tables of plain words and numbers (a round's data page:
  2,000 cells, 20 ms). A table cell whose text holds no character any inline pattern starts
  with is marked atomic, as Markdown marks code, and the inline step passes over it.

Both apply only while every step Markdown runs is one this module knows: an extension that
reads plain words or raw lines (abbreviations, smart quotes, snippets) turns them off.

Tests convert arbitrary arrangements of such text with and without the extension and compare.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Sequence

from markdown import Markdown
from markdown.extensions import Extension
from markdown.extensions.tables import TableProcessor
from markdown.inlinepatterns import HTML_RE, HtmlInlineProcessor
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
        rf'<sup class="gi-fn">{_LINK}(?:,{_LINK})*</sup>',
        rf'<span class="gi-sub">{_TEXT}(?:{_ENTRY}|{_ID})?{_TEXT}</span>',
    ]
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
#: relative in it: the stash holds no id, name or relative link; raw HTML scanned for ids)
KNOWN = {
    "preprocessors": "normalize_whitespace html_block fenced_code_block mkdocs_raw_html gi_inert",
    "blockprocessors": "empty indent code hashheader setextheader hr olist ulist quote reference "
    "paragraph admonition markdown_block footnote table",
    "inlinePatterns": "backtick escape reference link image_link image_reference short_reference "
    "short_image_ref autolink automail linebreak html entity em_strong em_strong2 not_strong footnote "
    "gi_inert_html",
    "treeprocessors": "inline prettify unescape attr_list footnote footnote-duplicate toc "
    "mkdocs_extract_anchors relpath mkdocs_extract_title",
    "postprocessors": "amp_substitute raw_html footnote",
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
        return lines


def _inside_tag(text: str, at: int) -> bool:
    """Whether *at* is inside what Markdown's inline HTML pattern would store as one piece (a
    tag, comment, processing instruction), or after a "<" that no ">" closed: stored first,
    the element would change what that pattern reads there."""
    if text.rfind("<", 0, at) > text.rfind(">", 0, at):
        return True
    for h in _HTML.finditer(text):
        if h.start() >= at:
            return False
        if h.end() > at:
            return True
    return False


class InertElements(HtmlInlineProcessor):
    """Markdown's inline HTML pattern for the generator's whole elements (module docstring)."""

    def __init__(self, md: Markdown, ext: InertMarkdownExtension) -> None:
        super().__init__(ELEMENT, md)
        self.ext = ext

    def handleMatch(self, m: re.Match[str], data: str) -> tuple[str | None, int | None, int | None]:  # type: ignore[override]  # noqa: N802
        # after an unclosed "<" the element is left to the tags' pattern: stored whole, it would
        # let that "<" and a ">" after it read as one tag
        if not self.ext.active or _inside_tag(data, m.start()):
            return None, None, None
        return super().handleMatch(m, data)


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

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's name
        md.preprocessors.register(_Guard(md, self), "gi_inert", 100)  # before every other step
        md.inlinePatterns.register(InertElements(md, self), "gi_inert_html", 91)  # just before "html"
        if "table" in md.parser.blockprocessors:  # the tables extension, loaded before this one
            table = md.parser.blockprocessors["table"]
            md.parser.blockprocessors.register(InertTableProcessor(md, table, self), "table", 75)


def makeExtension(**kwargs: object) -> InertMarkdownExtension:  # noqa: N802 - Python-Markdown's name
    return InertMarkdownExtension(**kwargs)
