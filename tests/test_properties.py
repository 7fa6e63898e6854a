"""Property-based tests (Hypothesis): escaping holds for any text a results file or front
matter can hold, and the loader turns any malformed file into a clear error or a valid table."""

from __future__ import annotations

import csv
import io
import json
import math
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from generator.article.escape import clean, md, md_block
from generator.data.manifest import Manifest, load_manifest
from generator.data.results import CHECKER_FIELDS, RESULTS_FIELDS, read_results
from generator.errors import DataError
from generator.project import Project
from generator.site.build import build

from .conftest import ROOT, tiny_row, write_results

SNIPPETS = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "[x](javascript:alert(1))",
    "![i](x)",
    "<a href='javascript:alert(1)'>a</a>",
    "{: onclick=alert(1) }",
    "| a | b |",
    "`code`",
    "**b** _i_ ~~s~~",
    "&lt;b&gt; &amp;",
    "\\",
    "\n# heading\n",
    "<!-- c -->",
    "javascript:alert(1)",
    "\u202e\u0000\u001b",
]
TEXT = st.lists(
    st.one_of(st.sampled_from(SNIPPETS), st.text(min_size=1, max_size=12)), min_size=1, max_size=4
).map("".join)
settings.register_profile("gi", deadline=None)
settings.load_profile("gi")


class _Structure(HTMLParser):
    """The elements of a page and the names of their attributes, in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.shape: list[tuple[str, tuple[str, ...]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.shape.append((tag, tuple(sorted(a for a, _ in attrs))))


def structure(html: str) -> list[tuple[str, tuple[str, ...]]]:
    p = _Structure()
    p.feed(html)
    return p.shape


@settings(max_examples=300)
@given(text=TEXT)
def test_escaped_text_never_becomes_an_element_or_attribute(text: str) -> None:
    """In prose, a table cell and an HTML attribute, as Python-Markdown (the site) reads them."""
    e = md(text)
    page = f'Before {e} after.\n\n| A | B |\n|---|---|\n| {e} | x |\n\n<span title="{e}">s</span>\n'
    html = markdown.markdown(page, extensions=["tables", "attr_list", "md_in_html", "admonition"])
    assert structure(html) == [
        ("p", ()),
        ("table", ()),
        ("thead", ()),
        ("tr", ()),
        ("th", ()),
        ("th", ()),
        ("tbody", ()),
        ("tr", ()),
        ("td", ()),
        ("td", ()),
        ("p", ()),
        ("span", ("title",)),
    ], html


@settings(max_examples=300)
@given(text=TEXT)
@example(text="#")
@example(text="    1) x")
@example(text="!!! note")
@example(text="~~~")
@example(text="---")
@example(text="\xa00")
@example(text="0\u2003")
def test_a_paragraph_of_data_text_is_one_paragraph_and_prints_as_itself(text: str) -> None:
    """A description on a line of its own (an article's, in lists of articles), as Python-Markdown
    reads it with the site's extensions: never a heading, list, rule, admonition or code block."""
    page = f"Before.\n\n{md_block(text)}\n\nAfter.\n"
    html = markdown.markdown(
        page, extensions=["tables", "attr_list", "md_in_html", "admonition", "footnotes"]
    )
    expected = [("p", ()), ("p", ()), ("p", ())] if md_block(text).strip() else [("p", ()), ("p", ())]
    assert structure(html) == expected, html
    if md_block(text).strip():
        middle = html.split("<p>")[2].split("</p>")[0]
        assert unescape(middle).strip(" ") == clean(text).strip(" "), html


ARTICLE = (
    "---\ntitle: {title}\ndescription: {title}\nauthor: {title}\ndate: 2026-10-05\n"
    'rounds: ["6.1"]\n---\n\n# {{{{ meta.title }}}}\n\n'
    '{{% set x = per_gpu("6.1-0001", "gpt-oss-120b", "Server") %}}'
    "System {{{{ x.system }}}} by {{{{ x.submitter }}}}, family {{{{ x.family }}}}, "
    '{{{{ software("6.1-0001", "gpt-oss-120b", "Server") }}}}: {{{{ x }}}} per GPU.{{{{ cite() }}}}\n\n'
    "| System | Per GPU |\n|---|--:|\n| {{{{ x.system }}}} | {{{{ x }}}} |\n\n{{{{ footnotes() }}}}\n"
)


def _site(tmp: Path, text: str) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    project = Project(ROOT).clone(tmp / "p", content=ROOT / "tests" / "golden" / "content")
    for p in project.content_dir.glob("*.md"):
        p.unlink()
    title = yaml.safe_dump(text, default_style='"', allow_unicode=False).strip().removesuffix("...").strip()
    (project.content_dir / "hostile.md").write_text(ARTICLE.format(title=title), "utf-8")
    fields = {"System": text, "Submitter": text, "Software": text, "Platform": text}
    rows = [
        tiny_row("6.1-0001", "gpt-oss-120b", "Server", 80000.0, **fields),
        tiny_row(
            "6.1-0002", text, "Offline", 9000.0, Accelerator=text, Platform=text
        ),  # Suite: a suite or refused
    ]
    results = write_results(tmp / "r", rows)
    site = build(project=project, results=results, site_dir=tmp / "site", log=lambda _: None, use_cache=False)
    pages = sorted(site.site_dir.rglob("*.html"))
    return {str(p.relative_to(site.site_dir)): structure(p.read_text("utf-8")) for p in pages}


class Pages(dict[str, list[tuple[str, tuple[str, ...]]]]):
    """The pages' structures, with a short repr: Hypothesis prints a failing example's arguments."""

    def __repr__(self) -> str:
        return f"<{len(self)} pages>"


@pytest.fixture(scope="module")
def plain_site(tmp_path_factory: pytest.TempPathFactory) -> Pages:
    return Pages(_site(tmp_path_factory.mktemp("plain"), "Plain"))


@settings(max_examples=5, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
# text that is only whitespace is no text: a blank description, name or title is left out (no
# paragraph, no listing line, no og:description), so its site has fewer elements by design; text
# that is blank once cleaned (a control character) is no benchmark name either: a results file
# naming none is refused (tests/test_data_as_published.py)
@given(text=TEXT.filter(lambda t: t.strip() and clean(t).strip()))
@example(text="0²")  # a superscript in a system name is data, not a footnote marker
@example(text="[2]")
@example(text="0W")  # a system name that reads like a power figure is data, not the article's claim
@example(text="#")  # an article's description (its title here): a paragraph, not a heading
@example(text=" \xa0x\u2003")  # whitespace around text: kept as text
@example(text="**b** _i_ ~~s~~")  # a heading's anchor from these words: "_i_" in "{#...}" read as emphasis
def test_escaping_random_text_in_every_text_field_builds_a_site_with_no_element_from_the_data(
    tmp_path_factory: pytest.TempPathFactory,
    plain_site: Pages,
    text: str,
) -> None:
    """Built with hostile text in every text field of a results file and of the front matter,
    every page has exactly the elements and attributes of the same site built with plain text."""
    assert _site(tmp_path_factory.mktemp("hostile"), text) == plain_site


# ---------------------------------------------------------------- the loader

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(
        ["closed", "open", "available", "preview", "Server", "offline", "Tokens/s", "6.1-0001", "v6.1"]
    ),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
KEYS = st.sampled_from(sorted({*RESULTS_FIELDS.values(), *CHECKER_FIELDS.values(), "junk"}))
RECORDS = st.lists(st.dictionaries(KEYS, VALUES, max_size=24), max_size=5)
MANIFEST: Manifest = load_manifest(ROOT / "data")


def _load(path: Path) -> None:
    try:
        df, rep = read_results(path, MANIFEST, version="6.1")
    except DataError as exc:
        assert str(path) in exc.message  # every error names the file
        return
    assert rep.rows == len(df)
    assert all(math.isnan(v) or v > 0 for v in df["result"])


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(records=st.one_of(RECORDS, st.just([]), VALUES))
def test_loader_malformed_json_gives_a_clear_error_or_a_valid_table(tmp_path: Path, records: object) -> None:
    path = tmp_path / "summary_results.json"
    path.write_text(json.dumps(records, allow_nan=True), "utf-8")
    _load(path)


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    rows=st.lists(st.lists(st.text(max_size=8), min_size=1, max_size=8), max_size=5),
    raw=st.text(max_size=200),
    as_csv=st.booleans(),
)
def test_loader_malformed_csv_gives_a_clear_error_or_a_valid_table(
    tmp_path: Path, rows: list[list[str]], raw: str, as_csv: bool
) -> None:
    path = tmp_path / "summary.csv"
    if as_csv:
        buf = io.StringIO()
        w = csv.writer(buf)
        w.writerow(list(CHECKER_FIELDS.values()))
        w.writerows(rows)
        path.write_text(buf.getvalue(), "utf-8")
    else:
        path.write_text(",".join(CHECKER_FIELDS.values()) + "\n" + raw, "utf-8")
    _load(path)
