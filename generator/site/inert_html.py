"""A Python-Markdown extension: the generator's own inline elements read as one piece each.

A rendered article cites every entry as ``<a class="gi-entry" href=… title=…><span
class="gi-id">6.1-0052</span></a>`` (a hundred of them in a footnote is common), and a review
page wraps every figure in ``<mark class="gi-fig" title=…>``. Python-Markdown reads each of
their tags as a separate piece of inline HTML and runs every inline pattern over what lies
between them: three quarters of converting such a page (45 ms of 60 for a footnote of a
hundred entries). This extension stores each such element, when it is exactly what the
generator writes (attribute values without Markdown syntax, text made of digits and
punctuation only), in Markdown's own HTML stash before the blocks are read, as the inline HTML
pattern would have stored its tags, so the page converts to the same HTML (a test compares
them) in a quarter of the time. Anything else is left to Markdown: elements it does not know,
text with letters (an abbreviation or a smart quote could apply), and lines of code (fenced,
indented or with a code span), where the tags must print as text.
"""

from __future__ import annotations

import re

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

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
#: text that some extension reads even without letters (smart dashes and ellipses)
_READ = ("--", "..")


def _text_of(element: str) -> str:
    return re.sub(r"<[^>]*>", "", element)


class InertHtml(Preprocessor):
    """Stashes the generator's inline elements, line by line, outside code."""

    def run(self, lines: list[str]) -> list[str]:
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
                line = ELEMENT.sub(self._stash, line)
            out.append(line)
        return out

    def _stash(self, m: re.Match[str]) -> str:
        element = m.group(0)
        text = _text_of(element)
        if any(s in text for s in _READ):
            return element
        return self.md.htmlStash.store(element)


class InertHtmlExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's name
        # after normalize_whitespace (30), before fenced code (25) and the HTML block reader (20)
        md.preprocessors.register(InertHtml(md), "gi_inert_html", 26)


def makeExtension(**kwargs: object) -> InertHtmlExtension:  # noqa: N802 - Python-Markdown's name
    return InertHtmlExtension(**kwargs)
