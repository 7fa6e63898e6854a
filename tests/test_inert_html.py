"""The inert-HTML extension changes how fast a page converts, never what it converts to."""

from __future__ import annotations

import markdown
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.site.inert_html import InertHtml, InertHtmlExtension

EXTENSIONS = ["tables", "admonition", "md_in_html", "attr_list", "footnotes", "toc", "fenced_code", "abbr"]

ENTRY = (
    '<a class="gi-entry" href="https://github.com/mlcommons/x/tree/main/closed/A_B" '
    'title="Official result 6.1-0052"><span class="gi-id">6.1-0052</span></a>'
)
FIGURE = '<mark class="gi-fig" title="template line 3 · 6.1-0052 gpt-oss-120b Server">12,782</mark>'
MARKERS = '<sup class="gi-fn"><a href="#mlperf-fn-1" title="Note 1">1</a>,<a href="#mlperf-fn-3" title="Note 3">3</a></sup>'


def convert(text: str, *, inert: bool) -> str:
    extensions: list[object] = list(EXTENSIONS)
    if inert:
        extensions.append(InertHtmlExtension())
    return markdown.Markdown(extensions=extensions).convert(text)  # type: ignore[arg-type]


def stashed(text: str) -> int:
    md = markdown.Markdown(extensions=[InertHtmlExtension()])
    InertHtml(md).run(text.split("\n"))
    return md.htmlStash.html_counter


def test_a_footnote_of_entries_and_a_review_paragraph_convert_to_the_same_html() -> None:
    text = (
        f"# Title {FIGURE}\n\nThe best row {FIGURE} per GPU (entry {ENTRY}).{MARKERS}\n\n"
        f"| Family | Value |\n|---|--:|\n| B200 | 12,782<span class=\"gi-sub\">8 GPUs · {ENTRY}</span> |\n\n"
        f"Text.[^1]\n\n[^1]: MLPerf® Inference v6.1 Closed. <br>**gpt-oss-120b** Server (entries {ENTRY}, {ENTRY}).\n"
    )
    assert stashed(text) == 7
    assert convert(text, inert=True) == convert(text, inert=False)


def test_code_keeps_the_tags_as_text() -> None:
    text = f"Inline `{ENTRY}` code.\n\n```\n{FIGURE}\n```\n\n    {ENTRY}\n\n~~~~\n{MARKERS}\n~~~~\n"
    assert stashed(text) == 0
    html = convert(text, inert=True)
    assert html == convert(text, inert=False)
    assert html.count("&lt;mark") == 1 and html.count("&lt;a class") == 2 and "<mark" not in html


def test_elements_with_letters_or_markup_in_their_text_are_left_to_markdown() -> None:
    texts = [
        '<mark class="gi-fig" title="t">B300</mark>',  # an abbreviation could apply
        '<mark class="gi-fig" title="t">1--2</mark>',  # a smart dash could
        '<mark class="gi-fig" title="t">8x\\_B300</mark>',  # an escape
        '<mark class="gi-fig" title="a `b` c">1</mark>',  # a code span's backtick
        '<mark class="gi-fig" title="a|b">1</mark>',  # a table cell's pipe
        '<mark class="other" title="t">1</mark>',
    ]
    for text in texts:
        assert stashed(text) == 0, text
    doc = "*[B300]: Blackwell Ultra\n\n" + "\n\n".join(f"| a |\n|---|\n| {t} |" for t in texts)
    assert convert(doc, inert=True) == convert(doc, inert=False)


def test_an_html_block_holding_figures_converts_to_the_same_html() -> None:
    text = f'<details markdown="1">\n<summary>Figures</summary>\n\n| A |\n|---|\n| {FIGURE} |\n\n</details>\n\n<div class="x">{ENTRY}</div>\n'
    assert stashed(text) == 2
    assert convert(text, inert=True) == convert(text, inert=False)


PIECES = [
    ENTRY,
    FIGURE,
    MARKERS,
    '<span class="gi-id">5.1-0001</span>',
    "`",
    "```",
    "    ",
    "\n",
    "\n\n",
    "| ",
    "|---|\n",
    "*",
    "_",
    "[^1]",
    "\n[^1]: ",
    "# ",
    "!!! note\n    ",
    '<div markdown="1">\n',
    "\n</div>\n",
    "text ",
    "1,234",
    "<",
    "&amp;",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), max_size=25))
def test_any_arrangement_of_elements_and_markup_converts_to_the_same_html(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert convert(text, inert=True) == convert(text, inert=False)
