"""A publication outside the checkout: init, discovery, packaged defaults, the MkDocs plugin,
the feed, metadata and the review view kept out of the reader's site."""

from __future__ import annotations

import json
import logging
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import feedparser
import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.data.manifest import load_manifest
from generator.project import DEFAULTS_DIR, Project, data_file
from generator.site.build import build
from generator.site.plugin import sync_tree

from .conftest import ROOT


def init(tmp_path: Path) -> Path:
    pub = tmp_path / "pub"
    res = CliRunner().invoke(main, ["init", str(pub)])
    assert res.exit_code == 0, res.output
    assert res.output == f"wrote 6 files into {pub}; build it with: cd {pub} && gpu-insights build\n"
    return pub


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new publication, built with ``gpu-insights build`` from a folder inside it."""
    pub = init(tmp_path_factory.mktemp("publication"))
    (pub / "content" / "notes").mkdir()
    res = subprocess.run(
        [sys.executable, "-c", "from generator.cli import main; main()", "build"],
        cwd=pub / "content" / "notes",
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    return pub


def test_init_writes_a_publication_and_refuses_to_overwrite(tmp_path: Path) -> None:
    pub = init(tmp_path)
    assert sorted(str(p.relative_to(pub)) for p in pub.rglob("*") if p.is_file()) == [
        ".github/workflows/gpu-insights.yml",
        ".gitignore",
        "content/first-article.md",
        "data/README.md",
        "mkdocs.yml",
        "templates/README.md",
    ]
    # the build's lock file and temporary folders beside the site are never committed
    assert (pub / ".gitignore").read_text("utf-8").splitlines()[-1] == ".gpu-insights-*"
    res = CliRunner().invoke(main, ["init", str(pub)])
    assert res.exit_code == 1
    assert res.output == (
        f"Error: {pub}: already holds content/first-article.md, data/README.md, "
        ".github/workflows/gpu-insights.yml, .gitignore, mkdocs.yml, "
        "templates/README.md; "
        "gpu-insights init writes a new publication into an empty folder\n"
    )


def test_the_project_is_found_upwards_or_named_never_the_install_location(tmp_path: Path) -> None:
    pub = init(tmp_path)
    deep = pub / "content" / "a" / "b"
    deep.mkdir(parents=True)
    assert Project.discover(start=deep).root == pub
    assert Project.discover(config=pub / "mkdocs.yml").root == pub
    with pytest.raises(Exception) as exc:
        Project.discover(start=tmp_path)
    assert str(exc.value.message).startswith(f"{tmp_path}: no mkdocs.yml here or in any parent folder")


def test_dash_f_names_the_publication_from_anywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pub = init(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    res = CliRunner().invoke(
        main, ["-f", str(pub / "mkdocs.yml"), "build", "--site-dir", str(tmp_path / "s")]
    )
    assert res.exit_code == 0, res.output
    assert (tmp_path / "s" / "first-article.html").is_file()
    res = CliRunner().invoke(main, ["build"])
    assert res.exit_code == 1
    assert res.output.startswith(f"Error: {elsewhere}: no mkdocs.yml here or in any parent folder")


def test_packaged_defaults_are_overridden_file_by_file(tmp_path: Path) -> None:
    pub = init(tmp_path)
    data = pub / "data"
    assert data_file(data, "accelerators.toml") == DEFAULTS_DIR / "accelerators.toml"
    assert Project(pub).sample_dir == DEFAULTS_DIR / "sample"
    (data / "accelerators.toml").write_text(
        'cpu_only = [""]\n\n[[family]]\nname = "ZZ9"\nvendor = "Example"\npatterns = [\'ZZ9\']\n',
        encoding="utf-8",
    )
    m = load_manifest(data)
    assert [f.name for f in m.families.families] == ["ZZ9"]
    assert m.rules.display_name("gpt-oss-120b") == load_manifest().rules.display_name("gpt-oss-120b")


def test_a_new_publication_builds_on_the_packaged_sample(built: Path) -> None:
    site = built / "site"
    assert (site / "first-article.html").is_file()
    ledger = json.loads((site / "figures.json").read_text("utf-8"))
    assert {row["article"] for row in ledger} == {"first-article"}
    assert (site / "review" / "first-article.html").is_file()
    assert (site / "rounds" / "v6.1.html").is_file()
    assert (site / "benchmarks" / "gpt-oss-120b.html").is_file()


def test_the_feed_lists_every_article_with_its_date(built: Path) -> None:
    xml = (built / "site" / "feed_rss_created.xml").read_text("utf-8")
    feed = feedparser.parse(xml.encode())
    assert feed.bozo == 0
    assert [(e.title, e.published_parsed[:3]) for e in feed.entries] == [
        ("Per-GPU gpt-oss-120b Server results in MLPerf® Inference v6.1", (2026, 10, 5))
    ]
    assert all("/review/" not in e.link for e in feed.entries)
    # the channel is dated by its newest input (the build is pinned to it): never older than an item
    assert feed.feed.updated_parsed[:3] >= max(e.published_parsed[:3] for e in feed.entries)
    # RSS 2.0: authors and the managing editor are e-mail addresses; the channel's image exists
    assert re.findall(r"<author>(.*?)</author>", xml) == ["editors@example.org (Your Name)"]
    assert re.findall(r"<managingEditor>(.*?)</managingEditor>", xml) == [
        "editors@example.org (My GPU publication)"
    ]
    assert re.findall(r"<image>\s*<url>(.*?)</url>", xml) == [
        "https://example.org/my-gpu-publication/assets/logo.png"
    ]
    assert (built / "site" / "assets" / "logo.png").read_bytes().startswith(b"\x89PNG")


def test_a_new_publication_carries_its_own_name_not_the_projects(built: Path) -> None:
    site = built / "site"
    home = (site / "index.html").read_text("utf-8")
    assert "<title>My GPU publication</title>" in home
    assert '<meta property="og:title" content="My GPU publication">' in home
    assert re.search(r'<h1 id="[^"]*">My GPU publication<a class="headerlink" [^>]*>&para;</a></h1>', home)
    article = (site / "first-article.html").read_text("utf-8")
    assert (
        "are derived metrics computed by My GPU publication and are not official MLPerf® metrics." in article
    )
    # every page, the review view and the rendered sources included (the renderer writes the notes)
    for page in [*site.rglob("*.html"), *(site / "sources").glob("*.md")]:
        assert "GPU Insights" not in page.read_text("utf-8"), page


def test_pages_carry_canonical_description_and_opengraph(built: Path) -> None:
    page = (built / "site" / "first-article.html").read_text("utf-8")
    assert '<link rel="canonical" href="https://example.org/my-gpu-publication/first-article.html">' in page
    assert (
        '<meta name="description" content="A short demo article that the embedded sample can build.">' in page
    )
    assert (
        '<meta property="og:url" content="https://example.org/my-gpu-publication/first-article.html">' in page
    )
    assert '<meta property="og:type" content="article">' in page
    assert '<meta property="article:published_time" content="2026-10-05">' in page
    assert '<meta property="article:author" content="Your Name">' in page
    assert '<meta name="twitter:card" content="summary">' in page
    assert (
        '<meta property="og:image" content="https://example.org/my-gpu-publication/assets/logo.png">' in page
    )
    assert 'class="footnote-ref"' in page and 'class="footnote-backref"' in page


def test_every_generated_page_has_a_description_of_its_own(built: Path) -> None:
    site = built / "site"

    def description(name: str) -> str:
        m = re.search(r'<meta name="description" content="([^"]*)">', (site / name).read_text("utf-8"))
        assert m, name
        return m.group(1)

    assert description("index.html") == "Per-GPU readings of official MLPerf® Inference results"
    assert description("rounds/v6.1.html") == (
        "MLPerf® Inference v6.1: 17 results of 14 systems from 12 submitters in 2 benchmarks, and the articles citing them."
    )
    assert description("benchmarks/gpt-oss-120b.html") == (
        "MLPerf® Inference gpt-oss-120b: the rounds with results, their scenarios and units, and the articles citing it."
    )
    assert description("data/v6.1.html") == (
        "The MLPerf® Inference v6.1 results as loaded: rows per division, suite, benchmark and scenario, "
        "and the names articles use."
    )
    assert description("review/index.html") == (
        "The editor&#x27;s review view of the publication: not part of the published site."
    )


def test_no_page_has_an_empty_heading(built: Path) -> None:
    for html in (built / "site").rglob("*.html"):
        text = html.read_text("utf-8")
        article = text[text.find('<article class="md-content__inner') :]
        for m in re.finditer(r"<h([1-6])[^>]*>.*?</h\1>\s*(<h([1-6]))?", article, re.S):
            assert not (m.group(3) and int(m.group(3)) <= int(m.group(1))), (html, m.group(0)[:120])


def test_the_review_view_is_out_of_the_nav_feed_sitemap_and_search(built: Path) -> None:
    site = built / "site"
    home = (site / "index.html").read_text("utf-8")
    assert "review/" not in home
    sitemap = (site / "sitemap.xml").read_text("utf-8")
    assert "first-article.html</loc>" in sitemap and "review/" not in sitemap
    index = json.loads((site / "search" / "search_index.json").read_text("utf-8"))
    assert not [d["location"] for d in index["docs"] if d["location"].startswith("review/")]
    review = (site / "review" / "first-article.html").read_text("utf-8")
    assert '<meta name="robots" content="noindex">' in review
    assert '<mark class="gi-fig" title="template line ' in review


def test_plain_mkdocs_build_with_the_plugin_renders_the_same_site(built: Path, tmp_path: Path) -> None:
    res = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(tmp_path / "plain")],
        cwd=built,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    same_pages(built / "site", tmp_path / "plain")


def same_pages(a: Path, b: Path) -> None:
    """Both sites hold the same pages, the same figures ledger and the same article bodies."""
    pages = sorted(str(p.relative_to(a)) for p in a.rglob("*.html"))
    assert pages == sorted(str(p.relative_to(b)) for p in b.rglob("*.html"))
    assert (a / "figures.json").read_text("utf-8") == (b / "figures.json").read_text("utf-8")
    for name in pages:
        if (
            name.startswith(("review/", "404"))
            or "/" in name
            and not name.startswith(("rounds/", "benchmarks/"))
        ):
            continue
        assert _body(a / name) == _body(b / name), name


def _body(path: Path) -> str:
    text = path.read_text("utf-8")
    return text[text.find('<article class="md-content__inner') : text.find("</article>")]


def test_the_checkout_and_new_publications_use_the_plugin_feed_and_footnote_previews() -> None:
    for yml in (ROOT / "mkdocs.yml", ROOT / "generator" / "scaffold" / "mkdocs.yml"):
        text = yml.read_text("utf-8")
        for needed in ("  - gpu-insights\n", "  - rss:\n", "content.footnote.tooltips", "site_url: https://"):
            assert needed in text, (yml, needed)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fetch_until(url: str, wanted: str, seconds: float = 30.0) -> str:
    """The page at *url* once it contains *wanted* (polled, bounded in time)."""
    deadline, text = time.monotonic() + seconds, ""
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as resp:  # noqa: S310 - 127.0.0.1 only
                text = resp.read().decode("utf-8")
        except OSError:
            text = ""
        if wanted in text:
            return text
        time.sleep(0.3)
    raise AssertionError(f"{url} never showed {wanted!r}; last page:\n{text[:500]}")


def test_mkdocs_serve_rebuilds_and_reloads_when_an_article_changes(tmp_path: Path) -> None:
    pub = init(tmp_path)
    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"], cwd=pub, stdout=log, stderr=log
    )
    try:
        url = f"http://127.0.0.1:{port}/my-gpu-publication/first-article.html"
        page = fetch_until(url, "<h1 id=")
        assert "livereload" in page
        article = pub / "content" / "first-article.md"
        text = article.read_text("utf-8")
        article.write_text(text.replace("\n# Per-GPU", "\n# Changed: per-GPU", 1), encoding="utf-8")
        fetch_until(url, ">Changed: per-GPU gpt-oss-120b Server results")
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()


def test_add_round_outside_a_publication_never_writes_the_packaged_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    before = (DEFAULTS_DIR / "rounds.toml").read_bytes()
    res = CliRunner().invoke(
        main, ["add-round", "9.9", str(tmp_path / "x.json"), "--published", "2027-01-01"]
    )
    assert res.exit_code == 1
    assert res.output == (
        f"Error: {DEFAULTS_DIR / 'rounds.toml'}: the packaged defaults are never changed; run add-round inside "
        "a publication (one with mkdocs.yml; `gpu-insights init DIR` makes one) or pass --data-dir\n"
    )
    assert (DEFAULTS_DIR / "rounds.toml").read_bytes() == before


def test_sync_tree_writes_only_what_changed(tmp_path: Path) -> None:
    src, dest = tmp_path / "src", tmp_path / "dest"
    (src / "a").mkdir(parents=True)
    (src / "a" / "same.md").write_text("same", "utf-8")
    (src / "new.md").write_text("new", "utf-8")
    (dest / "a").mkdir(parents=True)
    (dest / "a" / "same.md").write_text("same", "utf-8")
    (dest / "gone.md").write_text("old", "utf-8")
    os.utime(dest / "a" / "same.md", (1, 1))
    sync_tree(src, dest)
    assert sorted(str(p.relative_to(dest)) for p in dest.rglob("*")) == ["a", "a/same.md", "new.md"]
    assert (dest / "a" / "same.md").stat().st_mtime == 1  # untouched: mkdocs serve sees no change


def test_the_plugin_builds_on_the_results_named_in_mkdocs_yml(tmp_path: Path, shared_dir: Path) -> None:
    pub = init(tmp_path)
    yml = pub / "mkdocs.yml"
    yml.write_text(
        yml.read_text("utf-8").replace(
            "  - gpu-insights\n", f"  - gpu-insights:\n      results: {shared_dir}\n"
        ),
        encoding="utf-8",
    )
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q"], cwd=pub, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stdout + run.stderr
    ledger = json.loads((pub / "site" / "figures.json").read_text("utf-8"))
    assert {e["id"] for row in ledger for e in row["entries"]} >= {"6.1-0052", "6.1-0021", "6.0-0002"}
    page = (pub / "site" / "first-article.html").read_text("utf-8")
    assert 'href="https://github.com/mlcommons/inference_results_v6.1/tree/main/closed/' in page


def test_home_round_and_benchmark_pages_list_the_articles(built: Path) -> None:
    site = built / "site"
    home = (site / "index.html").read_text("utf-8")
    item = re.search(
        r'<h3 id="[^"]*"><a href="first-article.html">(.*?)</a><a class="headerlink" [^>]*>&para;</a></h3>\s*<p class="gi-byline">(.*?)</p>\s*<p>(.*?)</p>',
        home,
        re.S,
    )
    assert item is not None, home
    assert item.group(1) == "Per-GPU gpt-oss-120b Server results in MLPerf® Inference v6.1"
    assert item.group(2).startswith("October 5, 2026 · Your Name · MLPerf® Inference ")
    assert '<a href="rounds/v6.1.html">v6.1</a>' in item.group(2)
    assert '<a href="benchmarks/gpt-oss-120b.html">gpt-oss-120b</a>' in item.group(2)
    assert item.group(3) == "A short demo article that the embedded sample can build."
    for page in ("rounds/v6.1.html", "rounds/v6.0.html", "benchmarks/gpt-oss-120b.html"):
        assert '<a href="../first-article.html">' in (site / page).read_text("utf-8"), page
    assert "No article cites this round yet." in (site / "rounds" / "v5.1.html").read_text("utf-8")


def test_round_and_benchmark_pages_give_facts_from_the_data(built: Path) -> None:
    site = built / "site"
    rnd = (site / "rounds" / "v6.1.html").read_text("utf-8")
    assert "<th>Division, suite</th>" in rnd and "<td>Closed Datacenter</td>" in rnd
    assert '<a href="../data/v6.1.html">the page of v6.1 as loaded</a>' in rnd
    assert (
        "The table ends at v6.0; for a benchmark whose compatible span reaches v6.0, this publication "
        'compares v6.1 with <a href="v6.0.html">v6.0</a>, <a href="v5.1.html">v5.1</a>.' in rnd
    )
    bench = (site / "benchmarks" / "gpt-oss-120b.html").read_text("utf-8")
    assert (
        "Rounds whose results may be compared with one another (MLPerf® Compatibility Table): "
        "Datacenter: v6.0 (continued by v6.1) (row 'GPT-OSS-20B')." in bench
    )
    assert '<td><a href="../rounds/v6.1.html">v6.1</a></td>' in bench
    assert "<td>Tokens/s</td>" in bench
    assert "Latency bounds of the inference rules: Server: TTFT 3,000 ms, TPOT 80 ms." in bench


def test_an_article_needing_a_round_not_loaded_is_listed_without_broken_links(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    pub = init(tmp_path)
    article = pub / "content" / "first-article.md"
    article.write_text(
        article.read_text("utf-8").replace('rounds: ["6.1", "6.0"]', 'rounds: ["7.0"]'), "utf-8"
    )
    with caplog.at_level(logging.INFO, logger="mkdocs"):
        build(project=Project(pub), site_dir=tmp_path / "site", log=lambda _: None)
    assert "Documentation built" in caplog.text  # MkDocs' own log is captured
    assert "not found among documentation files" not in caplog.text
    home = (tmp_path / "site" / "index.html").read_text("utf-8")
    assert "MLPerf® Inference v7.0" in home and "rounds/v7.0" not in home
    assert "(not built: official results needed)" in home


def test_search_finds_articles_rounds_and_benchmarks_but_not_the_data_as_loaded(built: Path) -> None:
    """The pages of each round as loaded list the same names round after round: in search they
    would answer a name once per round; they stay in the navigation and the sitemap."""
    site = built / "site"
    pages = {
        d["location"].split("#")[0]
        for d in json.loads((site / "search" / "search_index.json").read_text("utf-8"))["docs"]
    }
    assert {"first-article.html", "rounds/v6.1.html", "benchmarks/gpt-oss-120b.html"} <= pages
    assert not [p for p in pages if p.startswith("data/")]
    assert "data/v6.1.html</loc>" in (site / "sitemap.xml").read_text("utf-8")
    assert '<meta name="robots"' not in (site / "data" / "v6.1.html").read_text("utf-8")
