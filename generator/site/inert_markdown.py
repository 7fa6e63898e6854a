"""A Python-Markdown extension: what no inline pattern would change is not given to them.

Converting a page, Python-Markdown runs every inline pattern over the text of every element,
which makes most of the time of the generator's pages (the same HTML comes out either way):

* A rendered article cites every entry as ``<a class="gi-entry" href=… title=…><span
  class="gi-id">6.1-0052</span></a>`` (a hundred of them in a footnote is common), and a
  review page wraps every figure in ``<mark class="gi-fig" title=…>``. Markdown reads each of
  their tags as a separate piece of inline HTML and runs the patterns over what lies between
  them: three quarters of converting such a page. Each such element that is exactly what the
  generator writes (attribute values without Markdown syntax, text of digits and punctuation
  only) is stored whole in Markdown's own HTML stash before the blocks are read, as the inline
  HTML pattern would have stored its tags. Lines of code (fenced, indented or with a code span)
  are left alone: there the tags print as text.
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
from markdown.preprocessors import Preprocessor
from markdown.util import AtomicString

#: an attribute value as escape.md_attr writes it (no Markdown syntax, no quote or bracket)
_VALUE = r'"[^"<>\\`|\n\x02\x03]*"'
#: text no inline pattern reads: digits, spaces and number punctuation, no letters
_TEXT = r"[0-9 .,%()+/×−–-]*"
_LINK = rf"<a href={_VALUE} title={_VALUE}>{_TEXT}</a>"
_ID = rf'<span class="gi-id">{_TEXT}</span>'
ELEMENT = re.compile(
    "|".join(
        [
            rf'<a class="gi-entry" href={_VALUE} title={_VALUE}>{_ID}</a>',
            _ID,
            rf'<mark class="gi-fig" title={_VALUE}>{_TEXT}</mark>',
            rf'<sup class="gi-fn">{_LINK}(?:,{_LINK})*</sup>',
        ]
    )
)
#: a line that starts or ends a fenced code block
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


#: the steps of every kind whose effect on text this module knows: Markdown's own, those of
#: tables, footnotes, admonitions, attribute lists, tables of contents, md_in_html and fenced
#: code, and those MkDocs adds to every page (anchors and title read from the tree, links made
#: relative in it: the stash holds no id, name or relative link; raw HTML scanned for ids)
KNOWN = {
    "preprocessors": "normalize_whitespace html_block fenced_code_block gi_inert_html mkdocs_raw_html",
    "blockprocessors": "empty indent code hashheader setextheader hr olist ulist quote reference "
    "paragraph admonition markdown_block footnote table",
    "inlinePatterns": "backtick escape reference link image_link image_reference short_reference "
    "short_image_ref autolink automail linebreak html entity em_strong em_strong2 not_strong footnote",
    "treeprocessors": "inline prettify unescape attr_list footnote footnote-duplicate toc "
    "mkdocs_extract_anchors relpath mkdocs_extract_title",
    "postprocessors": "amp_substitute raw_html footnote",
}
#: cell text that none of the known inline patterns reads: none of the characters they start with
INERT_CELL = re.compile(r"[^\\`*_\[\]!<>&{}^\x02\x03]*")


def only_known_steps(md: Markdown) -> bool:
    """Whether every step *md* runs is one this module knows (an extension that reads plain
    words, or raw lines, turns the module off)."""
    return all(
        # the names of each registry (Markdown keeps them in _data)
        set((md.parser if kind == "blockprocessors" else md).__dict__[kind]._data) <= set(names.split())
        for kind, names in KNOWN.items()
    )


class InertHtml(Preprocessor):
    """Stashes the generator's inline elements, line by line, outside code."""

    def run(self, lines: list[str]) -> list[str]:
        if not only_known_steps(self.md):
            return lines
        out = []
        fence = ""
        for line in lines:
            m = _FENCE.match(line)
            if fence:
                if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                    fence = ""
            elif m:
                fence = m.group(1)
            elif "<" in line and "`" not in line and not line.startswith(("    ", "\t")):
                line = ELEMENT.sub(lambda m: self.md.htmlStash.store(m.group(0)), line)
            out.append(line)
        return out


class InertTableProcessor(TableProcessor):
    """Markdown's table reader; cells of plain text are atomic (see the module's docstring)."""

    def __init__(self, md: Markdown, table: TableProcessor) -> None:
        super().__init__(md.parser, table.config)
        self.md = md

    def run(self, parent: etree.Element, blocks: list[str]) -> None:
        self.inert = only_known_steps(self.md)
        super().run(parent, blocks)

    def _build_row(self, row: str, parent: etree.Element, align: Sequence[str | None]) -> None:
        super()._build_row(row, parent, align)
        if self.inert:
            for cell in parent[-1]:
                if cell.text and INERT_CELL.fullmatch(cell.text):
                    cell.text = AtomicString(cell.text)


class InertMarkdownExtension(Extension):
    """Registers both steps (see the module's docstring)."""

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's name
        # after normalize_whitespace (30), before fenced code (25) and the HTML block reader (20)
        md.preprocessors.register(InertHtml(md), "gi_inert_html", 26)
        if "table" in md.parser.blockprocessors:  # the tables extension, loaded before this one
            table = md.parser.blockprocessors["table"]
            md.parser.blockprocessors.register(InertTableProcessor(md, table), "table", 75)


def makeExtension(**kwargs: object) -> InertMarkdownExtension:  # noqa: N802 - Python-Markdown's name
    return InertMarkdownExtension(**kwargs)
