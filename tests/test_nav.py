"""The reader's navigation: articles in one list, or, on a larger site, one section per round."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from generator.project import Project
from generator.site.build import build
from generator.site.pages import NAV_ARTICLES, articles_nav

from .conftest import ROOT


def _article(slug: str, date: str, rounds: list[str]) -> Any:
    meta = {"date": date}
    return SimpleNamespace(
        groups={}, article=SimpleNamespace(slug=slug, title=slug.upper(), meta=meta, rounds=rounds)
    )


def test_a_few_articles_are_one_list_newest_first() -> None:
    shown = [_article(f"a{i:02d}", f"2026-01-{i + 1:02d}", ["6.1"]) for i in range(NAV_ARTICLES)]
    nav = articles_nav(shown)
    assert len(nav) == NAV_ARTICLES and nav[0] == {"A19": "a19.md"} and nav[-1] == {"A00": "a00.md"}


def test_more_articles_are_grouped_by_the_newest_round_each_cites() -> None:
    shown = [
        _article(f"a{i:02d}", f"2026-01-{i + 1:02d}", ["6.0"] if i % 2 else ["5.1", "6.1"]) for i in range(20)
    ]
    shown += [_article("old", "2020-01-01", ["10.0"]), _article("none", "2027-01-01", [])]
    nav = articles_nav(shown)
    assert [next(iter(s)) for s in nav] == ["v10.0", "v6.1", "v6.0", "Other articles"]
    assert nav[1]["v6.1"][:2] == [{"A18": "a18.md"}, {"A16": "a16.md"}] and len(nav[1]["v6.1"]) == 10
    assert nav[0] == {"v10.0": [{"OLD": "old.md"}]} and nav[3] == {"Other articles": [{"NONE": "none.md"}]}


def test_an_article_page_of_a_large_site_links_its_own_rounds_articles_only(tmp_path: Path) -> None:
    project = Project(ROOT).clone(tmp_path / "project")
    for i in range(NAV_ARTICLES):
        rnd = "6.0" if i % 2 else "5.1"
        (project.content_dir / f"note-{i:02d}.md").write_text(
            f'---\ntitle: "Note {i:02d}"\ndate: 2026-0{1 + i % 9}-01\nrounds: ["{rnd}"]\n---\n\nA note.\n',
            "utf-8",
        )
    site = tmp_path / "site"
    build(project=project, site_dir=site, log=lambda s: None, use_cache=False, jobs=1)
    page = (site / "note-01.html").read_text("utf-8")  # a v6.0 note
    assert 'href="note-03.html"' in page and 'href="note-02.html"' not in page  # v5.1's are pruned
    assert 'href="note-02.html"' in (site / "note-00.html").read_text("utf-8")
