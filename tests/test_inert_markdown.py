"""The inert-Markdown extension changes how fast a page converts, never what it converts to."""

from __future__ import annotations

from pathlib import Path

import markdown
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown.util import AtomicString
from mkdocs.config import load_config
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from generator.site import inert_markdown, plugin
from generator.site.inert_markdown import InertHtml, InertMarkdownExtension, only_known_steps

EXTENSIONS = ["tables", "admonition", "md_in_html", "attr_list", "footnotes", "toc", "fenced_code"]

ENTRY = (
    '<a class="gi-entry" href="https://github.com/mlcommons/x/tree/main/closed/A_B" '
    'title="Official result 6.1-0052"><span class="gi-id">6.1-0052</span></a>'
)
FIGURE = '<mark class="gi-fig" title="template line 3 · 6.1-0052 gpt-oss-120b Server">12,782</mark>'
MARKERS = '<sup class="gi-fn"><a href="#mlperf-fn-1" title="Note 1">1</a>,<a href="#mlperf-fn-3" title="Note 3">3</a></sup>'


def convert(text: str, *, inert: bool, more: tuple[str, ...] = ()) -> str:
    extensions: list[object] = [*EXTENSIONS, *more]
    if inert:
        extensions.append(InertMarkdownExtension())
    return markdown.Markdown(extensions=extensions).convert(text)  # type: ignore[arg-type]


def stashed(text: str) -> int:
    md = markdown.Markdown(extensions=[InertMarkdownExtension()])
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
        '<mark class="gi-fig" title="t">8x\\_B300</mark>',  # an escape
        '<mark class="gi-fig" title="a `b` c">1</mark>',  # a code span's backtick
        '<mark class="gi-fig" title="a|b">1</mark>',  # a table cell's pipe
        '<mark class="other" title="t">1</mark>',
    ]
    for text in texts:
        assert stashed(text) == 0, text
    doc = "*[B300]: Blackwell Ultra\n\n" + "\n\n".join(f"| a |\n|---|\n| {t} |" for t in texts)
    assert convert(doc, inert=True, more=("abbr",)) == convert(doc, inert=False, more=("abbr",))


def test_an_html_block_holding_figures_converts_to_the_same_html() -> None:
    text = f'<details markdown="1">\n<summary>Figures</summary>\n\n| A |\n|---|\n| {FIGURE} |\n\n</details>\n\n<div class="x">{ENTRY}</div>\n'
    assert stashed(text) == 2
    assert convert(text, inert=True) == convert(text, inert=False)


def atomic_cells(text: str, *more: str) -> list[str]:
    """The table cells the extension marks atomic (the inline step passes over them)."""
    md = markdown.Markdown(extensions=[*EXTENSIONS, *more, InertMarkdownExtension()])  # type: ignore[list-item]
    root = md.parser.parseDocument(text.split("\n")).getroot()
    return [str(c.text) for c in root.iter() if c.tag in ("td", "th") and isinstance(c.text, AtomicString)]


def test_table_cells_of_plain_text_are_atomic_and_convert_to_the_same_html() -> None:
    text = "| Division | Rows | Note |\n|---|--:|---|\n| closed | 1,234 | see *this* |\n| open | 5 | a\\_b |\n| edge |\n"
    assert atomic_cells(text) == ["Division", "Rows", "Note", "closed", "1,234", "open", "5", "edge"]
    assert convert(text, inert=True) == convert(text, inert=False)
    assert "<td>see <em>this</em></td>" in convert(text, inert=True)


def test_an_extension_that_reads_plain_words_turns_atomic_cells_off() -> None:
    text = "*[GPU]: Graphics processing unit\n\n| Family | Kind |\n|---|---|\n| B300 | GPU |\n"
    assert atomic_cells(text, "abbr") == []
    html = convert(text, inert=True, more=("abbr",))
    assert html == convert(text, inert=False, more=("abbr",)) and '<abbr title="Graphics processing unit">GPU</abbr>' in html


INLINE = [
    ENTRY,
    FIGURE,
    MARKERS,
    '<span class="gi-id">5.1-0001</span>',
    "`",
    "*",
    "_",
    "[^1]",
    "text ",
    "GPU",
    "1,234",
    "<",
    "&amp;",
    "\\|",
    "\\_",
    "{: .c}",
    "'quoted' -- ",
    "  ",
]
inline = st.lists(st.sampled_from(INLINE), max_size=6).map("".join)


def _table(cells: list[list[str]]) -> str:
    width = max(len(r) for r in cells)
    head = "| " + " | ".join(f"h{i}" for i in range(width)) + " |\n|" + "---|--:|" * width
    return head[: head.rindex("|") + 1] + "\n" + "".join("| " + " | ".join(r) + " |\n" for r in cells)


BLOCK = st.one_of(
    inline,
    inline.map(lambda t: "# " + t),
    inline.map(lambda t: "[^1]: " + t),
    inline.map(lambda t: "    " + t),
    inline.map(lambda t: "```\n" + t + "\n```"),
    inline.map(lambda t: '<div markdown="1">\n\n' + t + "\n\n</div>"),
    inline.map(lambda t: "<div>\n" + t + "\n</div>"),
    inline.map(lambda t: "!!! note\n    " + t),
    inline.map(lambda t: "*[GPU]: " + t),
    st.lists(st.lists(inline, min_size=1, max_size=3), min_size=1, max_size=3).map(_table),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(BLOCK, max_size=6), st.sampled_from(["\n\n", "\n"]), st.sampled_from([(), ("abbr",), ("smarty",)]))
def test_any_arrangement_of_elements_and_markup_converts_to_the_same_html(
    blocks: list[str], sep: str, more: tuple[str, ...]
) -> None:
    text = sep.join(blocks)
    assert convert(text, inert=True, more=more) == convert(text, inert=False, more=more)


def test_mkdocs_pages_of_the_site_convert_through_both_steps_to_the_same_html(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under MkDocs (which adds steps of its own) with the site's extensions, both steps run."""
    text = (
        f"# Title\n\nThe best row {FIGURE} per GPU (entry {ENTRY}).{MARKERS} See [two](two.md).\n\n"
        "| Division | Rows |\n|---|--:|\n| closed | 1,234 |\n\nText.[^1]\n\n"
        f"[^1]: Entries {ENTRY}, {ENTRY}.\n"
    )
    guards: list[bool] = []

    def guard(md: markdown.Markdown) -> bool:
        guards.append(only_known_steps(md))
        return guards[-1]

    monkeypatch.setattr(inert_markdown, "only_known_steps", guard)
    html = {}
    for inert in (True, False):
        extensions = [e for e in plugin.EXTENSIONS if inert or e != "generator.site.inert_markdown"]
        yml = tmp_path / f"{inert}.yml"
        yml.write_text(f"site_name: T\nuse_directory_urls: false\nmarkdown_extensions: {extensions + ['toc']}\n")
        (tmp_path / "docs").mkdir(exist_ok=True)
        config = load_config(str(yml), docs_dir=str(tmp_path / "docs"))
        files = Files([File(n, config.docs_dir, config.site_dir, False) for n in ("one.md", "two.md")])
        page = Page(None, files.get_file_from_path("one.md"), config)  # type: ignore[arg-type]
        page.markdown = text
        page.render(config, files)
        html[inert] = page.content
    assert guards == [True, True]  # the stash and the one table, under MkDocs' own steps
    assert html[True] == html[False] and 'href="two.html"' in html[True]
