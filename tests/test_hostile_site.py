"""Hostile inputs, second pass (issue 34): the site, its feed, the plugin, `init`, `serve` and the
messages, each against an input a hostile or careless user gives."""

from __future__ import annotations

import errno
import gzip
import html.parser
import http.client
import http.server
import json
import os
import re
import shutil
import threading
import urllib.parse
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import markdown
import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.data.fetch import fetch_validated
from generator.data.manifest import Manifest
from generator.errors import BuildError, FetchError
from generator.project import Project
from generator.site.build import build
from generator.site.diff import diff_builds, format_markdown
from generator.site.serve import RELOAD_PATH, bind, host_name
from generator.site.sitedir import SiteDir, guarded_folders

from . import test_safety_sitedir as _sitedir
from .conftest import ROOT, TINY_ROWS, project_articles, tiny_row, write_results
from .test_build import GOLDEN
from .test_safety_sitedir import _mkdocs_build, _set_site_dir, run_build, snapshot

#: a publication under git, with uncommitted work (the fixture of the site folder's tests)
repo = _sitedir.repo

#: what a page of the site converts Markdown with (see generator/site/plugin.py)
EXTENSIONS = ["tables", "admonition", "md_in_html", "attr_list", "footnotes"]

POISON = "<script>alert(1)</script><img src=x onerror=alert(2)>"


def _ledger(root: Path, rows: list[dict[str, object]], source: str = "") -> Path:
    (root / "sources").mkdir(parents=True)
    (root / "figures.json").write_text(json.dumps(rows), "utf-8")
    (root / "sources" / "a.md").write_text(source, "utf-8")
    return root


def _fig(article: str, text: str, entry: str) -> dict[str, object]:
    return {
        "article": article,
        "file": "content/a.md",
        "line": 3,
        "text": text,
        "value": 1.0,
        "kind": "per_gpu",
        "formula": "",
        "table": "",
        "entries": [{"round": "6.1", "id": entry, "benchmark": "b", "scenario": "Server"}],
    }


def test_a_tampered_baseline_puts_no_markup_into_the_changes_page(tmp_path: Path) -> None:
    """Item 13: every field of a baseline's figures.json and sources is text on changes.html."""
    table = f"*{POISON}*\n\n| Family | x |\n|---|--:|\n| {POISON} | 1 |\n"
    old = _ledger(
        tmp_path / "old",
        [_fig("a", POISON, POISON), _fig(POISON, "2", "6.1-0001")],
        table,
    )
    new = _ledger(tmp_path / "new", [_fig("a", "1", "6.1-0001")], "")
    page = markdown.markdown(format_markdown(diff_builds(old, new)), extensions=EXTENSIONS)
    assert "<script" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def _get(port: int, host: str | None, path: str = "/index.html", method: str = "GET") -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest(method, path, skip_host=True)
        if host is not None:
            conn.putheader("Host", host)
        conn.endheaders()
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def test_serve_answers_only_requests_naming_this_machine(tmp_path: Path) -> None:
    """Item 21: a DNS-rebinding page (Host: attacker.example) reads nothing of the preview."""
    (tmp_path / "index.html").write_text("<html><body>preview</body></html>", "utf-8")
    (tmp_path / "review").mkdir()
    (tmp_path / "review" / "index.html").write_text("<html><body>review</body></html>", "utf-8")
    httpd = bind("127.0.0.1", 0, tmp_path, {"build": 1})
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    port = httpd.server_address[1]
    try:
        for host in ("localhost", f"localhost:{port}", f"127.0.0.1:{port}", "[::1]:8000", "LOCALHOST"):
            status, body = _get(port, host)
            assert (status, b"preview" in body) == (200, True), host
        for host in (
            "attacker.example",
            f"attacker.example:{port}",
            "localhost.attacker.example",
            "127.0.0.1.nip.io",
        ):
            for path in ("/index.html", "/review/", RELOAD_PATH):
                status, body = _get(port, host, path)
                assert status == 421, (host, path)
                assert body == b"Misdirected request: this preview answers only to localhost.\n"
            assert _get(port, host, method="HEAD") == (421, b"")
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_host_header_names_its_host_without_the_port() -> None:
    assert [host_name(h) for h in ("a:1", "[::1]:80", "[::1]", "::1", "A.b")] == [
        "a",
        "::1",
        "::1",
        "::1",
        "a.b",
    ]


@pytest.mark.parametrize(
    ("site", "why"),
    [
        (".cache", "it is the build's cache folder"),
        (".cache/site", "it is inside the build's cache folder ({repo}/.cache)"),
        (
            ".gpu-insights-site.tmp-1234",
            "its name is one of the build's own temporary folders and lock files (.gpu-insights-*), "
            "which a build removes; choose another name",
        ),
    ],
)
def test_a_site_folder_among_the_builds_scratch_folders_is_refused_by_build_and_mkdocs_build(
    repo: Path, site: str, why: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 10: `site_dir: .cache` gave `mkdocs build` a site with no index (MkDocs emptied the
    pages the plugin had put there); both builds now refuse it, by the same guard."""
    code, out = run_build(repo, site, monkeypatch)
    assert (code, out) == (
        1,
        f"Error: refusing to write the site into {site}: {why.format(repo=repo)}; nothing was changed\n",
    )
    _set_site_dir(repo, site)
    before = snapshot(repo)
    res = _mkdocs_build(repo)
    assert res.returncode == 1, res.stderr
    target = (repo / site).resolve()
    assert (
        f"ERROR   -  gpu-insights: refusing to write the site into {target}: {why.format(repo=repo)}; "
        "nothing was changed"
    ) in res.stderr.splitlines()
    assert snapshot(repo) == before


def test_mkdocs_build_takes_the_lock_gpu_insights_build_takes(repo: Path) -> None:
    """Item 9: `mkdocs build` beside a running `gpu-insights build` mixed their pages; it now takes
    the same lock beside the site, and leaves none behind."""
    site = SiteDir(repo / "site", guarded_folders(Project(repo), None), lambda _: None)
    with site.locked():
        res = _mkdocs_build(repo)
        assert not (repo / "site").exists()
    assert res.returncode == 1, res.stderr
    assert (
        f"ERROR   -  gpu-insights: another gpu-insights build is writing {repo / 'site'} (process "
        f"{os.getpid()} holds {repo / '.gpu-insights-site.lock'}); wait for it to finish"
    ) in res.stderr.splitlines()
    res = _mkdocs_build(repo)
    assert res.returncode == 0, res.stderr
    assert (repo / "site" / "index.html").is_file()
    assert not (repo / ".gpu-insights-site.lock").exists()
    with site.locked():  # free again
        pass


@pytest.mark.parametrize(
    ("link", "to", "shown"),
    [
        ("mkdocs.yml", "../outside/mkdocs.yml", "mkdocs.yml"),  # dangling: init wrote its target
        ("content", "../outside", "content"),
        (".gitignore", "../outside/gitignore", ".gitignore"),
    ],
)
def test_init_never_writes_through_a_link_out_of_its_folder(
    tmp_path: Path, link: str, to: str, shown: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 19: a dangling `mkdocs.yml` link or `content -> ../elsewhere` put init's files elsewhere."""
    (tmp_path / "outside").mkdir()
    pub = tmp_path / "pub"
    pub.mkdir()
    (pub / link).symlink_to(to)
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(main, ["init", "pub"])
    assert (res.exit_code, res.output) == (
        1,
        f"Error: pub: {shown} is a symbolic link (to {to}); gpu-insights init writes only into the new "
        "publication's folder, never through a link: remove the link or choose another folder; nothing "
        "was written\n",
    )
    assert list((tmp_path / "outside").iterdir()) == []
    assert sorted(p.name for p in pub.iterdir()) == [link]


def test_init_still_writes_into_a_folder_that_is_itself_a_link(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "pub").symlink_to("real")
    res = CliRunner().invoke(main, ["init", str(tmp_path / "pub")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "real" / "mkdocs.yml").is_file() and (tmp_path / "real" / "content").is_dir()


def test_check_of_plain_markdown_on_the_sample_says_how_to_check_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 22: `check` of hand-written Markdown without --results spoke of front matter and `build`."""
    Project(ROOT).clone(tmp_path / "pub", content=project_articles(tmp_path / "articles"))
    (tmp_path / "plain.md").write_text("The B200 reached 14,211 tokens/s per GPU.\n", "utf-8")
    (tmp_path / "named.md").write_text('---\nrounds: ["6.0"]\n---\n\nThe B200 reached 14,211.\n', "utf-8")
    monkeypatch.chdir(tmp_path / "pub")
    res = CliRunner().invoke(main, ["check", "../plain.md", "../named.md", "--jobs", "1"])
    assert res.exit_code == 1
    need = "checking it needs the official results, and only the embedded sample (a few rows of one published article) was loaded"
    assert res.output.splitlines()[:2] == [
        f"../plain.md:1:1 MLP000 error: cannot check the article: {need}: run `gpu-insights check --results DIR "
        "../plain.md`, where DIR holds a folder per round (v6.1/, ...; `gpu-insights fetch ROUND` downloads one)",
        f"../named.md:1:1 MLP000 error: cannot check the article: {need}: run `gpu-insights check --results DIR "
        "../named.md`, where DIR holds a folder per round (v6.0/; `gpu-insights fetch 6.0` downloads one)",
    ]


def test_check_of_an_article_citing_a_round_the_results_lack_names_the_results_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Project(ROOT).clone(tmp_path / "pub", content=project_articles(tmp_path / "articles"))
    write_results(tmp_path / "pub" / "results", TINY_ROWS)
    (tmp_path / "named.md").write_text('---\nrounds: ["5.0"]\n---\n\nThe B200 reached 14,211.\n', "utf-8")
    monkeypatch.chdir(tmp_path / "pub")
    res = CliRunner().invoke(main, ["check", "--results", "results", "../named.md", "--jobs", "1"])
    assert res.output.splitlines()[0] == (
        "../named.md:1:1 MLP000 error: cannot check the article: round(s) v5.0 not in results: give --results "
        "a folder holding v5.0/, or download them with `gpu-insights fetch 5.0`"
    )


def test_a_full_disk_while_keeping_the_pages_is_one_line_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 22: the warning was the 6 KB Python repr of every file copytree could not copy."""
    project = Project(ROOT).clone(tmp_path / "pub", content=project_articles(tmp_path / "articles"))
    real = shutil.copytree

    def no_space(a: str, b: str) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), b)

    def full(src: Any, dst: Any, *args: Any, **kw: Any) -> Any:
        # a folder's copy calls copytree again for each sub-folder, its arguments given
        return real(src, dst, *args, **kw) if args else real(src, dst, copy_function=no_space, **kw)

    monkeypatch.setattr(shutil, "copytree", full)
    lines: list[str] = []
    build(project=project, site_dir=tmp_path / "site", log=lines.append, jobs=1)
    warned = [line for line in lines if "could not keep" in line]
    assert len(warned) == 1 and "\n" not in warned[0]
    assert re.fullmatch(
        rf"warning: could not keep the rendered pages for the next build: {re.escape(str(project.cache_dir))}/\S+: "
        r"No space left on device \(and \d+ more files\)",
        warned[0],
    ), warned[0]


def test_a_gzip_encoded_download_is_refused_naming_its_encoding(manifest: Manifest, tmp_path: Path) -> None:
    """Item 22: a body sent with Content-Encoding: gzip was stored and reported as "not UTF-8"."""
    body = gzip.compress(b'[{"ID": "6.0-0001"}]')

    class Gzipped(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Gzipped)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/v6.0/summary_results.json"
    try:
        with pytest.raises(FetchError) as err:
            fetch_validated(manifest, "6.0", tmp_path, url=url)
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert err.value.message == (
        f"{url}: the server sent the file encoded (gzip, its Content-Encoding), which was not asked for "
        "and is not decoded here; nothing was stored: ask for the file at another URL, or download and "
        "decompress it yourself and pass its folder as --results"
    )
    assert not (tmp_path / "v6.0" / "summary_results.json").exists()


NO_IDS = """---
title: "No IDs"
date: 2026-10-05
rounds: ["6.1"]
---

# No IDs

{{ best_table("6.1", [["gpt-oss-120b", "Server"]], ["B200", "MI355X"], caption="*Table 1: best Available rows.*") }}

## MLPerf® result footnotes and entry IDs

{{ footnotes() }}

{{ compliance() }}
"""


def test_footnotes_name_rows_without_an_entry_id_by_what_identifies_them(
    tmp_path: Path, shared_dir: Path
) -> None:
    """Item 8: a build on the checker's summary.csv (no IDs) printed "gpt-oss-120b Server (entry )"."""
    (tmp_path / "results" / "v6.1").mkdir(parents=True)
    shutil.copy(shared_dir / "v6.1" / "summary.csv", tmp_path / "results" / "v6.1" / "summary.csv")
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "no-ids.md").write_text(NO_IDS, "utf-8")
    project = Project(ROOT).clone(tmp_path / "pub", content=tmp_path / "content")
    site = tmp_path / "site"
    build(
        project=project,
        results=tmp_path / "results",
        site_dir=site,
        log=lambda _: None,
        use_cache=False,
        jobs=1,
    )
    page = (site / "no-ids.html").read_text("utf-8")
    source = (site / "sources" / "no-ids.md").read_text("utf-8")
    assert '<span class="gi-id"></span>' not in page and "(entry )" not in page
    assert "entry ." not in source and "entries , " not in source
    # the reader's note, and the rendered source's, name each row by submitter, system and line
    assert "AMD smci355-ccs-aus-m13-13 (AS -4126GS-NMR-LCC), summary.csv line 9, no entry ID" in page
    assert "AMD smci355-ccs-aus-m13-13 (AS -4126GS-NMR-LCC) (summary.csv line 9, no entry ID)" in source


def test_benchmark_ids_that_would_share_a_page_are_refused_at_load(tmp_path: Path) -> None:
    """Item 12: IDs differing only in case shared one page, and the index linked one to the other."""
    rows = [*TINY_ROWS, tiny_row("6.1-0009", "GPT-OSS-120B", "Server", 1000.0)]
    write_results(tmp_path / "results", rows)
    project = Project(ROOT).clone(tmp_path / "pub", content=GOLDEN / "content")
    with pytest.raises(BuildError) as err:
        build(
            project=project,
            results=tmp_path / "results",
            site_dir=tmp_path / "site2",
            log=lambda _: None,
            jobs=1,
        )
    assert err.value.message == (
        "the benchmark IDs 'GPT-OSS-120B' (v6.1/summary_results.json) and 'gpt-oss-120b' "
        "(v6.0/summary_results.json, v6.1/summary_results.json) differ only in case or punctuation and would "
        "share the page benchmarks/gpt-oss-120b.html; correct the benchmark ID in the results file"
    )
    assert not (tmp_path / "site2").exists()


class _Links(html.parser.HTMLParser):
    """Every relative href, src and data-spec of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src", "data-spec") and value:
                self.found.append(value)


def broken_links(site: Path) -> list[str]:
    """A link checker: each relative link of each page of *site* that names no file of it."""
    out = []
    for page in sorted(site.rglob("*.html")):
        parser = _Links()
        parser.feed(page.read_text("utf-8"))
        for link in parser.found:
            parts = urllib.parse.urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("#", "/")) or not parts.path:
                continue
            target = (page.parent / urllib.parse.unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                out.append(f"{page.relative_to(site)}: {link}")
    return out


@pytest.mark.parametrize("directory_urls", [False, True])
def test_every_link_chart_and_spec_resolves_under_either_url_style(
    tmp_path: Path, directory_urls: bool
) -> None:
    """Item 7: `use_directory_urls: true` (MkDocs' default) broke every chart image and spec of
    article and review pages; a link checker over the built site, under both settings."""
    project = Project(ROOT).clone(tmp_path / "pub", content=GOLDEN / "content")
    yml = project.mkdocs_yml
    yml.write_text(
        re.sub(
            r"(?m)^use_directory_urls: .*$",
            f"use_directory_urls: {str(directory_urls).lower()}",
            yml.read_text("utf-8"),
        ),
        "utf-8",
    )
    write_results(tmp_path / "results", TINY_ROWS)
    site = tmp_path / "site"
    build(
        project=project,
        results=tmp_path / "results",
        site_dir=site,
        log=lambda _: None,
        use_cache=False,
        jobs=1,
    )
    article = site / ("tiny/index.html" if directory_urls else "tiny.html")
    review = site / ("review/tiny/index.html" if directory_urls else "review/tiny.html")
    for page in (article, review):
        assert 'data-spec="' in page.read_text("utf-8") and "<img src=" in page.read_text("utf-8")
    assert broken_links(site) == []


def _article(title: str, extra: str, body: str) -> str:
    golden = (GOLDEN / "content" / "tiny.md").read_text("utf-8")
    head, _, rest = golden.partition("\n---\n")
    head = re.sub(r"(?m)^title: .*$", lambda _: f"title: {title}", head) + extra
    return f"{head}\n---\n{rest.replace('# Tiny golden article', body, 1)}"


def test_the_feed_escapes_each_text_once_is_well_formed_and_gives_plain_excerpts(tmp_path: Path) -> None:
    """Item 11: titles, descriptions and authors were escaped twice (AT&amp;amp;T); a "\\uFFFF" YAML
    escape made the feed ill-formed XML; an article without description got raw Markdown links and
    an "In M..." excerpt."""
    content = tmp_path / "content"
    content.mkdir()
    (content / "att.md").write_text(
        _article(
            '"AT&T vs. Nvidia\'s <b>B300</b>\\uFFFF"',
            '\nauthor: "Q&A Team"\ndescription: "Q&A: <script>x</script> & more\\uFFFE"',
            "# AT&T",
        ),
        "utf-8",
    )
    (content / "plain.md").write_text(
        _article(
            '"No description"',
            "\ndate: 2026-10-04",
            "# No description\n\nIn [MLPerf® Inference](https://mlcommons.org) *v6.1*, <b>this</b> holds.",
        ),
        "utf-8",
    )
    (content / "plain.md").write_text(
        (content / "plain.md").read_text("utf-8").replace("date: 2026-10-05\n", "", 1), "utf-8"
    )
    project = Project(ROOT).clone(tmp_path / "pub", content=content)
    write_results(tmp_path / "results", TINY_ROWS)
    site = tmp_path / "site"
    build(
        project=project,
        results=tmp_path / "results",
        site_dir=site,
        log=lambda _: None,
        use_cache=False,
        jobs=1,
    )
    feed = ElementTree.parse(site / "feed_rss_created.xml")  # well-formed XML
    items = {i.findtext("title"): i for i in feed.iter("item")}
    assert sorted(items) == ["AT&T vs. Nvidia's <b>B300</b>", "No description"]
    att = items["AT&T vs. Nvidia's <b>B300</b>"]
    assert att.findtext("author") == "editors@gpu-insights.example.org (Q&A Team)"
    assert att.findtext("description") == "Q&A: <script>x</script> & more"
    text = items["No description"].findtext("description")
    assert text is not None and text.startswith(
        "In MLPerf® Inference v6.1, this holds. On gpt-oss-120b Server in MLPerf® Inference v6.1, the 8-GPU B300 row"
    )
    assert len(text) <= 300 and text.endswith("…") and "](" not in text and "<" not in text
    # the JSON feed: titles, authors and tags are text, content_html the text as HTML
    items_json = {
        i["title"]: i for i in json.loads((site / "feed_json_created.json").read_text("utf-8"))["items"]
    }
    assert sorted(items_json) == ["AT&T vs. Nvidia's <b>B300</b>", "No description"]
    att_json = items_json["AT&T vs. Nvidia's <b>B300</b>"]
    assert att_json["authors"] == [{"name": "editors@gpu-insights.example.org (Q&A Team)"}]
    assert att_json["content_html"] == "Q&amp;A: &lt;script&gt;x&lt;/script&gt; &amp; more"
    raw = (site / "feed_rss_created.xml").read_text("utf-8")
    assert "&amp;amp;" not in raw and "&amp;#" not in raw
    # the page's own title, escaped once for HTML as before
    assert "<title>AT&amp;T vs. Nvidia&#x27;s &lt;b&gt;B300&lt;/b&gt; - GPU Insights</title>" in (
        site / "att.html"
    ).read_text("utf-8")


def test_an_article_that_cannot_be_built_is_out_of_the_feed_and_sitemap_and_never_unpublishes_one(
    tmp_path: Path,
) -> None:
    """Item 6: a round missing from --results turned a published article into a "not built" page
    that stayed in the feed and the sitemap. Such a page is now neither in the feed, the sitemap
    nor search; and a build that would take back an article the site publishes fails instead."""
    project = Project(ROOT).clone(tmp_path / "pub", content=GOLDEN / "content")
    full = write_results(tmp_path / "full", TINY_ROWS)
    partial = write_results(tmp_path / "partial", [r for r in TINY_ROWS if str(r["ID"]).startswith("6.1")])
    site, fresh = tmp_path / "site", tmp_path / "fresh"
    build(project=project, results=full, site_dir=site, log=lambda _: None, use_cache=False, jobs=1)
    assert "tiny.html</loc>" in (site / "sitemap.xml").read_text("utf-8")
    before = snapshot(site)
    with pytest.raises(BuildError) as err:
        build(project=project, results=partial, site_dir=site, log=lambda _: None, use_cache=False, jobs=1)
    assert err.value.message == (
        f"{project.content_dir / 'tiny.md'}: published in {site} (its sitemap lists it) and not built now: "
        "round(s) v6.0 not loaded; build with `gpu-insights build --results DIR` where DIR holds v6.0/, or run "
        "`gpu-insights fetch 6.0`; the previous site is left as it was (to take the article back, remove it "
        "from content/)"
    )
    assert snapshot(site) == before
    # never published: built as a page saying what it needs, which no feed, sitemap or search lists
    build(project=project, results=partial, site_dir=fresh, log=lambda _: None, use_cache=False, jobs=1)
    page = (fresh / "tiny.html").read_text("utf-8")
    assert "This article was not built" in page and '<meta name="robots" content="noindex">' in page
    assert "tiny.html" not in (fresh / "sitemap.xml").read_text("utf-8")
    assert "<loc>" in (fresh / "sitemap.xml").read_text("utf-8")  # the other pages are in it
    assert [i.findtext("link") for i in ElementTree.parse(fresh / "feed_rss_created.xml").iter("item")] == []
    index = json.loads((fresh / "search" / "search_index.json").read_text("utf-8"))
    assert not [d for d in index["docs"] if d["location"].startswith("tiny.html")]
