"""Stored markup: names from a results file and words a template passes stay text on every page,
the reader's and the editor's review view alike."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

from generator.project import Project
from generator.site.build import build

from .conftest import ROOT, tiny_row, write_results

MODEL_LINK = "deepseek-r1[m](javascript:alert(3))"
MODEL_ATTR = "deepseek-r1[a](y/onmouseover=alert(2)//)"
WORDS = "[w](javascript:alert(4)) [a](x/onmouseover=alert(1)//)"

ARTICLE = (
    '---\ntitle: "Hostile names"\ndate: 2026-10-05\nrounds: ["6.1"]\n---\n\n'
    f'{{% set x = per_gpu("6.1-0001", "{MODEL_LINK}", "Server") %}}'
    f'{{% set y = per_gpu("6.1-0002", "{MODEL_ATTR}", "Server") %}}'
    "One system gives {{ x }} per GPU and another {{ y }}.{{ cite() }}\n\n"
    '{% for s in systems(round="6.1", division=None) %}{{ s }} {% endfor %}{{ cite() }}\n\n'
    f'A vendor says {{{{ stated("2x", by="{WORDS}") }}}}; a price of '
    f'{{{{ constant(3, why="{WORDS}") }}}}.{{{{ cite() }}}}\n\n'
    "{{ footnotes() }}\n"
)


class _Markup(HTMLParser):
    """Elements, event-handler attributes and script links of a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.bad: list[str] = []
        self.titles: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name.startswith("on"):
                self.bad.append(f"<{tag} {name}>")
            if name in ("href", "src") and (value or "").strip().lower().startswith("javascript:"):
                self.bad.append(f"<{tag} {name}={value}>")
            if name == "title" and value:
                self.titles.append(value)
        if tag == "img" and dict(attrs).get("src") == "x":
            self.bad.append("<img src=x>")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("markup")
    project = Project(ROOT).clone(tmp / "p", content=ROOT / "tests" / "golden" / "content")
    for p in project.content_dir.glob("*.md"):
        p.unlink()
    (project.content_dir / "hostile.md").write_text(ARTICLE, "utf-8")
    rows = [
        tiny_row(
            "6.1-0001", MODEL_LINK, "Server", 80000.0
        ),  # Suite: refused unless a suite (test_data_as_published)
        tiny_row("6.1-0002", MODEL_ATTR, "Server", 70000.0),
    ]
    results = write_results(tmp / "r", rows)
    return build(
        project=project, results=results, site_dir=tmp / "site", log=lambda _: None, use_cache=False
    ).site_dir


@pytest.mark.parametrize("page", ["hostile.html", "review/hostile.html"])
def test_stored_markup_names_and_template_words_never_become_elements_attributes_or_links(
    site: Path, page: str
) -> None:
    parser = _Markup()
    parser.feed((site / page).read_text("utf-8"))
    assert parser.bad == []


def test_stored_markup_the_review_views_figure_titles_keep_the_names_as_text(site: Path) -> None:
    parser = _Markup()
    parser.feed((site / "review" / "hostile.html").read_text("utf-8"))
    assert any(MODEL_ATTR in t for t in parser.titles), parser.titles
