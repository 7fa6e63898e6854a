"""Issue 35, what was still open: pages a slow phone can use at once, few markers after a sentence,
an entry ID that search finds as one word.

Timings on the slow-phone profile are printed by ``bench/pages.py`` (with the tab stops and the most
footnote links after one sentence), not asserted here. What makes them is: the search index is not
loaded until the reader opens the search (it was, on every page, as the page started); the blocks of
an article below the screen are not styled or laid out until they come near it; a note has one
back-link, not one per marker; three notes or more in a row are a range (``¹⁻⁴``) and a citation of
more notes one link naming them, so that no sentence is followed by more than three footnote links.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import markdown
import pytest

from generator.site.build import build
from generator.site.plugin import EXTENSIONS
from generator.site.reader import MAX_MARKERS, citation_markers, most_markers
from generator.site.review import review_markers

from .browser import need_chromium, offline_page, serve_dir
from .conftest import official_project

HOME = "index.html"
ARTICLE = "mlperf-inference-v6.1-per-gpu.html"
OVERVIEW = "mlperf-inference-v6.1-round-overview.html"
SEP = '<sup class="gi-fn-sep">,</sup>'
DASH = '<sup class="gi-fn-range">\u2013</sup>'


# ------------------------------------------------------------------------------------- markers
def test_notes_in_a_row_are_a_range_and_many_notes_one_link() -> None:
    assert citation_markers([3, 1]) == f"[^1]{SEP}[^3]"
    assert citation_markers([1, 2, 3, 4]) == f"[^1]{DASH}[^4]"
    assert citation_markers(range(1, 13)) == f"[^1]{DASH}[^12]"
    assert citation_markers([1, 2, 3, 5]) == f"[^1]{DASH}[^3]{SEP}[^5]"
    assert citation_markers([1, 5, 9]) == f"[^1]{SEP}[^5]{SEP}[^9]"
    # more than three links' worth: one link, to the first note, that names them all
    assert citation_markers([1, 2, 3, 4, 5, 7, 9, 11]) == (
        '<sup class="gi-fn-group"><a href="#fn:1" title="See notes 1 to 5, 7, 9 and 11">1\u20135,7,9,11</a></sup>'
    )


def test_the_review_view_says_notes_in_a_row_as_a_range_too() -> None:
    def marks(*notes: int) -> str:
        return "".join(f"[\\[{n}\\]](#mlperf-fn-{n})" for n in notes)

    link = '<a href="#mlperf-fn-{0}" title="Note {0}">{0}</a>'
    assert review_markers(f"Rows.{marks(1, 2, 3, 4)} Next") == (
        f'Rows.<sup class="gi-fn">{link.format(1)}\u2013{link.format(4)}</sup> Next'
    )
    assert review_markers(f"Rows.{marks(1, 3, 5, 7)} Next") == (
        'Rows.<sup class="gi-fn"><a href="#mlperf-fn-1" title="See notes 1, 3, 5 and 7">1,3,5,7</a></sup> Next'
    )


def test_most_markers_counts_the_footnote_links_after_one_sentence() -> None:
    ref = '<sup id="fnref{0}:{1}"><a class="footnote-ref" href="#fn:{1}">{1}</a></sup>'
    html = (
        f"<p>One.{ref.format('', 1)}{SEP}{ref.format('', 2)} Two.{ref.format(2, 1)}{DASH}{ref.format('', 4)}"
        f"{SEP}{ref.format('', 6)} Three.{ref.format(3, 1)}</p>"
    )
    assert most_markers(html) == 3
    assert most_markers("<p>No notes.</p>") == 0


def test_a_note_has_one_back_link_and_none_without_a_reference_of_its_own() -> None:
    assert "generator.site.footnote_backlinks" in EXTENSIONS
    text = "One.[^1] Two.[^1]\n\nThree.[^1][^3]\n\n[^1]: Note one.\n\n[^2]: Note two.\n\n[^3]: Note three.\n"
    html = markdown.markdown(text, extensions=["footnotes", "generator.site.footnote_backlinks"])
    notes = dict(re.findall(r'<li id="fn:(\d)">(.*?)</li>', html, flags=re.S))
    assert [notes[n].count('class="footnote-backref"') for n in "123"] == [1, 0, 1]
    assert 'href="#fnref:1"' in notes["1"] and "Note two." in notes["2"]


# ---------------------------------------------------------------------------- the built site
@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> Path:
    need_chromium()
    out = tmp_path_factory.mktemp("phone") / "site"
    build(
        project=official_project(out.parent / "project"), results=shared_dir, site_dir=out, log=lambda _: None
    )
    return out


def test_no_sentence_on_any_page_is_followed_by_more_than_three_footnote_links(site: Path) -> None:
    pages = {str(p.relative_to(site)): p.read_text("utf-8") for p in site.rglob("*.html")}
    most = {name: most_markers(html) for name, html in pages.items()}
    assert {k: v for k, v in most.items() if v > MAX_MARKERS} == {}
    overview = pages[OVERVIEW]
    # the sentence that carried twelve markers: notes 1 to 12, a range
    assert re.search(r'href="#fn:1">1</a></sup>' + re.escape(DASH) + r'<sup id="fnref\d*:12">', overview)
    for name in (ARTICLE, OVERVIEW):
        notes = re.findall(r'<li id="fn:\d+">.*?</li>', pages[name], flags=re.S)
        ids = set(re.findall(r'id="([^"]+)"', pages[name]))
        backs = [re.findall(r'class="footnote-backref" href="#([^"]+)"', n) for n in notes]
        assert all(len(b) <= 1 for b in backs) and all(b[0] in ids for b in backs if b), name


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    with serve_dir(site) as url:
        yield url


@pytest.mark.browser
@pytest.mark.parametrize("width", [390, 1280])
def test_the_search_index_waits_for_the_search_and_an_entry_id_finds_the_pages_citing_it(
    site: Path, served: str, browser: Any, width: int
) -> None:
    outside: list[str] = []
    page = offline_page(browser, outside, viewport={"width": width, "height": 900})
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto(f"{served}/{HOME}", wait_until="networkidle")
    assert [u for u in requested if "search_index" in u] == []
    if width < 1000:  # a phone: the search button in the header opens the search
        page.locator("label.md-header__button[for='__search']").click()
    field = page.locator("input.md-search__input")
    field.click()
    field.type("6.1-0052")
    items = page.locator(".md-search-result__item > a")
    items.first.wait_for(timeout=30_000)
    assert [u for u in requested if "search_index" in u] != []
    hrefs = [str(items.nth(i).get_attribute("href")) for i in range(items.count())]
    pages = [h.removeprefix(served + "/").split("#")[0] for h in hrefs]
    # the pages citing the entry, not every page that names its round
    assert pages[0] in (ARTICLE, "families/b300.html"), pages
    assert all("6.1-0052" in (site / p).read_text("utf-8") for p in pages), pages
    assert len(set(pages)) <= 5, pages
    assert "6.1-0052" in (items.first.text_content() or "") or pages[0] == ARTICLE
    assert outside == []
    page.close()


@pytest.mark.browser
def test_the_blocks_below_a_phone_screen_are_drawn_when_they_come_near_it(served: str, browser: Any) -> None:
    outside: list[str] = []
    page = offline_page(browser, outside, viewport={"width": 390, "height": 844})
    page.goto(f"{served}/{OVERVIEW}", wait_until="networkidle")
    drawn = """s => document.querySelector(s).checkVisibility({contentVisibilityAuto: true})"""
    # what is inside a block: the first paragraph's text is on the screen, the notes far below it
    assert page.evaluate(drawn, "article > p > *")
    assert not page.evaluate(drawn, "article > div.footnote > ol")
    page.locator("article > div.footnote").scroll_into_view_if_needed()
    page.wait_for_function(f"({drawn})('article > div.footnote > ol')")
    assert outside == []
    page.close()
