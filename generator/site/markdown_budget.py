"""A budget for the Markdown stage: a page too large, too costly or too deeply nested is refused.

Python-Markdown has no time limit, and some shapes of text cost it time quadratic in their
length (20 KB of ``[`` took 121 s, ``<a `` repeated 33,000 times 233 s) or end in a
RecursionError (deeply nested emphasis, lists or ``<div markdown="1">``). This extension,
one of the site's Markdown extensions (:data:`generator.site.plugin.EXTENSIONS`, so
``gpu-insights build``, ``mkdocs build`` and ``mkdocs serve`` alike), converts each page
under a budget:

* size: at most :data:`MAX_PAGE_CHARS` characters;
* shape, in linear passes before converting: the text the parser scans ahead from each
  ``[`` (to its ``]``, within its paragraph), each ``](`` (to its ``)``) and each ``<tag``
  (to its ``>``) is at most :data:`SCAN_PER_CHAR` times the page's length, blocks nest at
  most :data:`MAX_NESTING` deep (list indentation, ``>`` quotes, ``<div>`` blocks) and
  emphasis at most :data:`MAX_EMPHASIS` deep in a line (deeper across lines is the
  RecursionError's and the time's);
* time: :func:`seconds_for` a page of its size, in CPU time (``ITIMER_PROF`` in the main
  thread, a trace function reading the thread's CPU clock in any other);
* depth: a RecursionError is a refusal, not a traceback.

A page over budget is refused with a :class:`MarkdownBudgetError` naming the page and what
it exceeded (an MkDocs ``PluginError``: MkDocs reports it and stops the build, no traceback).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

from markdown import Markdown
from markdown.extensions import Extension
from mkdocs.exceptions import PluginError

from generator.budget import OverTime, within

MAX_PAGE_CHARS = 10_000_000
#: characters scanned ahead per character of the page (a page's links and tags close within a few)
SCAN_PER_CHAR = 50
SCAN_FREE = 200_000
MAX_NESTING = 40
#: a page's time, in CPU seconds (a loaded machine does not make a page over budget): this
#: much, plus this much per character (the project's pages take 0.6 to 2.3 µs a character:
#: its 1.2 MB round overview about 1 s, and 5 s of wall-clock time on a busy machine)
BASE_SECONDS = 0.5
SECONDS_PER_CHAR = 5e-6

_BRACKETS = re.compile(r"\\.|[\[\]]|\n[ \t]*\n")
_TAGS = re.compile(r"\\.|<(?=[A-Za-z/!?])|>")
_QUOTE_INDENT = re.compile(r"^(?=[ \t>])((?:[ \t]*>)*)([ \t]*)(?=\S)", re.M)
_DIVS = re.compile(r"<(/?)div\b", re.I)
_TARGETS = re.compile(r"\\.|\]\(|\)|\n[ \t]*\n")
#: emphasis that opens (after a space or punctuation, before a word) and that closes, and line ends
#: (counted per line: a table's rows, each its own text, once added up to a false 63 on a changes page)
_EMPHASIS = re.compile(r"\\.|(?<![\w*_\\])([*_]{1,3})(?=[^\s*_])|(?<=[^\s*_\\])([*_]{1,3})(?![\w*_])|\n")
MAX_EMPHASIS = 60


class MarkdownBudgetError(PluginError):
    """A page's Markdown exceeds the conversion budget."""


def seconds_for(chars: int) -> float:
    """How long converting a page of *chars* characters may take."""
    return BASE_SECONDS + chars * SECONDS_PER_CHAR


def scanned(text: str, pattern: re.Pattern[str], opener: str) -> int:
    """How many characters the parser scans ahead from each *opener* to what closes it (or to the
    end of its paragraph, or of the page): counted in one pass, not scanned."""
    total = pending = starts = 0
    for m in pattern.finditer(text):
        tok = m.group(0)
        if tok.startswith("\\"):
            continue
        if tok == opener:
            pending += 1
            starts += m.start()
        else:  # a closer, or a blank line: every pending opener stops here
            total += pending * m.start() - starts
            pending = starts = 0
    return total + pending * len(text) - starts


def nesting(text: str) -> int:
    """How deep the page's blocks nest: quotes and indentation (a list level is four spaces) per
    line, and ``<div>`` blocks."""
    deepest = 0
    for m in _QUOTE_INDENT.finditer(text):
        quotes, indent = m.group(1), m.group(2).expandtabs(4)
        deepest = max(deepest, quotes.count(">") + len(indent) // 4)
    depth = 0
    for m in _DIVS.finditer(text):
        depth += -1 if m.group(1) else 1
        deepest = max(deepest, depth)
    return deepest


def shape_problem(text: str) -> str:
    """Why *text* is over the budget before converting it, or ""."""
    if len(text) > MAX_PAGE_CHARS:
        return f"{len(text):,} characters, over the limit of {MAX_PAGE_CHARS:,}"
    limit = SCAN_PER_CHAR * len(text) + SCAN_FREE
    for pattern, opener, what in (
        (_BRACKETS, "[", "'['"),
        (_TAGS, "<", "'<' tags"),
        (_TARGETS, "](", "'](' link targets"),
    ):
        if scanned(text, pattern, opener) > limit:
            return f"too many {what} left open (Markdown would take a time quadratic in the page's length)"
    deep = nesting(text)
    if deep > MAX_NESTING:
        return f"blocks nested {deep} deep (lists, quotes or <div>s), over the limit of {MAX_NESTING}"
    deep = emphasis_depth(text)
    if deep > MAX_EMPHASIS:
        return f"emphasis nested {deep} deep in one line, over the limit of {MAX_EMPHASIS}"
    return ""


def emphasis_depth(text: str) -> int:
    """The most ``*``/``_`` emphasis left open at once within one line."""
    depth = deepest = 0
    for m in _EMPHASIS.finditer(text):
        if m.group(1):
            depth += 1
            deepest = max(deepest, depth)
        elif m.group(2):
            depth = max(0, depth - 1)
        elif not m.group(0).startswith("\\"):
            depth = 0  # a line's end
    return deepest


def convert(md: Markdown, original: Callable[[str], str], source: str, page: str) -> str:
    """*source* converted by *original* (``md.convert``) within the budget, or refused."""
    problem = shape_problem(source)
    if problem:
        raise MarkdownBudgetError(f"{page}: the page's Markdown is refused: {problem}")
    seconds = seconds_for(len(source))
    try:
        return within(seconds, lambda: original(source))
    except OverTime:
        raise MarkdownBudgetError(
            f"{page}: the page's Markdown is refused: converting it took more than {seconds:.1f} s "
            f"of CPU time (the budget of a page of {len(source):,} characters)"
        ) from None
    except RecursionError:
        raise MarkdownBudgetError(
            f"{page}: the page's Markdown is refused: it nests too deeply to convert (emphasis, "
            "links, lists or HTML blocks inside one another)"
        ) from None


def _page_name() -> str:
    """The page MkDocs converts (``Page.render`` calls ``md.convert``), as its source path."""
    frame = sys._getframe(2)
    for _ in range(3):
        if frame is None:
            break
        src = getattr(getattr(frame.f_locals.get("self"), "file", None), "src_uri", None)
        if isinstance(src, str):
            return src
        frame = frame.f_back  # type: ignore[assignment]
    return "a page"


class MarkdownBudget(Extension):
    """Each conversion of the Markdown instance it extends runs within the budget."""

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's name
        original = md.convert

        def budgeted(source: str) -> str:
            return convert(md, original, source, _page_name())

        md.convert = budgeted  # type: ignore[method-assign]


def makeExtension(**kwargs: Any) -> MarkdownBudget:  # noqa: N802 - Python-Markdown's name
    return MarkdownBudget(**kwargs)
