"""The reader's navigation: articles in one list, or, on a larger site, one section per round."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from generator.project import Project
from generator.site.build import build
from generator.site.pages import NAV_ARTICLES, NAV_ROUNDS, articles_nav, rounds_nav

from .conftest import official_project, tiny_row, write_results


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
    project = official_project(tmp_path / "project")
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


def test_many_rounds_group_the_older_rounds_articles_in_one_section() -> None:
    versions = [f"{7 + i // 2}.{i % 2}" for i in range(NAV_ROUNDS + 2)]  # 7.0 ... 11.1, oldest first
    shown = [
        _article(f"a{i:02d}", "2030-01-01", [versions[i % len(versions)]]) for i in range(NAV_ARTICLES + 1)
    ]
    nav = articles_nav(shown)
    newest = [f"v{v}" for v in reversed(versions)]
    assert [next(iter(s)) for s in nav] == newest[: NAV_ROUNDS - 1] + ["Earlier rounds"]
    earlier = nav[-1]["Earlier rounds"]
    assert [next(iter(s)) for s in earlier] == newest[NAV_ROUNDS - 1 :]
    assert earlier[-1] == {"v7.0": [{"A16": "a16.md"}, {"A08": "a08.md"}, {"A00": "a00.md"}]}


def test_rounds_sections_name_every_round_or_the_newest_and_an_index() -> None:
    def item(v: str) -> dict[str, str]:
        return {f"v{v}": f"rounds/v{v}.md"}

    index = {"All rounds": "rounds/index.md"}
    few = [f"6.{i}" for i in range(NAV_ROUNDS)]
    assert rounds_nav(few, item, index) == [item(v) for v in reversed(few)]
    many = [f"{i}.0" for i in range(1, NAV_ROUNDS + 5)]
    assert rounds_nav(many, item, index) == [index] + [item(f"{i}.0") for i in range(NAV_ROUNDS + 4, 5, -1)]
    assert len(rounds_nav(many, item, index)) == NAV_ROUNDS


def _rounds_project(tmp_path: Path, versions: list[str]) -> tuple[Project, Path]:
    """A project whose data has one small made-up round per version (rounds.toml lists them)."""
    project = official_project(tmp_path / "project")
    rows = [tiny_row(f"{v}-0001", "gpt-oss-120b", "Server", 80000.0 + k) for k, v in enumerate(versions)]
    results = write_results(tmp_path / "results", rows)
    rounds = [
        f'[[round]]\nversion = "{v}"\npublished = "20{30 + k}-04-01"\nretrieved = "20{30 + k}-04-02"\n'
        f'source = "made up"\nsource_label = "test rows"\ndownload_url = ""\nfile = "summary_results.json"\n'
        for k, v in enumerate(versions)
    ]
    (project.data_dir / "rounds.toml").write_text("\n".join(rounds), "utf-8")
    for p in project.content_dir.glob("*.md"):
        p.unlink()
    (project.content_dir / "note.md").write_text(
        f'---\ntitle: "Note"\ndate: 2040-01-01\nrounds: ["{versions[-1]}"]\n---\n\nA note.\n', "utf-8"
    )
    return project, results


def test_a_site_of_many_rounds_links_the_newest_and_an_index_of_all(tmp_path: Path) -> None:
    versions = [f"{7 + i // 2}.{i % 2}" for i in range(NAV_ROUNDS + 1)]  # 7.0 ... 10.0
    project, results = _rounds_project(tmp_path, versions)
    site = tmp_path / "site"
    build(project=project, results=results, site_dir=site, log=lambda s: None, use_cache=False, jobs=1)
    page = (site / "note.html").read_text("utf-8")  # each section pruned to its first page
    assert 'href="rounds/index.html"' in page and 'href="data/index.html"' in page
    page = (site / "rounds" / "v9.0.html").read_text("utf-8")  # its section: the newest rounds
    assert 'href="v10.0.html"' in page and 'href="v8.0.html"' in page and 'href="v7.0.html"' not in page
    page = (site / "data" / "v9.0.html").read_text("utf-8")
    assert 'href="v10.0.html"' in page and 'href="v8.0.html"' in page and 'href="v7.0.html"' not in page
    every = (site / "rounds" / "index.html").read_text("utf-8")
    assert all(f'href="v{v}.html"' in every for v in versions)
    assert "April 1, 2030" in every and "All rounds" in every
    loaded = (site / "data" / "index.html").read_text("utf-8")
    assert all(f'href="v{v}.html"' in loaded for v in versions) and "April 2, 2036" in loaded


def test_a_site_of_few_rounds_links_each_and_has_no_index(tmp_path: Path) -> None:
    versions = [f"{7 + i // 2}.{i % 2}" for i in range(NAV_ROUNDS)]
    project, results = _rounds_project(tmp_path, versions)
    site = tmp_path / "site"
    build(project=project, results=results, site_dir=site, log=lambda s: None, use_cache=False, jobs=1)
    rounds, data = ((site / d / "v8.0.html").read_text("utf-8") for d in ("rounds", "data"))
    assert all(f'href="v{v}.html"' in rounds and f'href="v{v}.html"' in data for v in versions)
    assert f'href="rounds/v{versions[-1]}.html"' in (site / "note.html").read_text(
        "utf-8"
    )  # the newest first
    assert not (site / "rounds" / "index.html").exists() and not (site / "data" / "index.html").exists()
