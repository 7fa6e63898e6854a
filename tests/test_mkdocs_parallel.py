"""The parallel MkDocs build writes exactly what ``mkdocs build`` writes, warnings included."""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path
from typing import Any

import jinja2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from material.plugins.search.plugin import Parser as SearchParser
from mkdocs.commands import build as mk_build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort
from mkdocs.structure.files import Files

from generator.site import mkdocs_parallel

# these pages are few and short: a build would make them in its own process (jobs_worth)
pytestmark = pytest.mark.usefixtures("every_stage_forks")

PAGES = {
    "index.md": "# Home\n\nSee [the second page](two.md) and [a note](notes/n.md#part).\n",
    "two.md": "---\ntitle: Second\n---\n\n# Two\n\n| A | B |\n|---|--:|\n| x | 1 |\n\nText[^1].\n\n[^1]: A note.\n",
    "notes/n.md": "# Notes\n\n## Part\n\nBody with `code` and *emphasis*.\n",
}


def _config(
    tmp: Path, name: str, *, strict: bool = False, theme: str = "material", extra: str = "", **pages: str
):
    docs = tmp / f"docs-{name}"
    for rel, text in {**PAGES, **pages}.items():
        (docs / rel).parent.mkdir(parents=True, exist_ok=True)
        (docs / rel).write_text(text, "utf-8")
    yml = tmp / f"{name}.yml"
    yml.write_text(
        f"site_name: T\nsite_url: https://example.org/\ntheme: {theme}\nuse_directory_urls: false\n"
        "markdown_extensions: [tables, footnotes, toc]\nplugins: [search]\n"
        "nav: [{Home: index.md}, {Second: two.md}]\n" + extra,
        "utf-8",
    )
    return load_config(str(yml), docs_dir=str(docs), site_dir=str(tmp / f"site-{name}"), strict=strict)


def _files(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("jobs", [1, 2])
def test_parallel_mkdocs_writes_the_same_bytes_as_mkdocs_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setattr(mkdocs_parallel, "CHUNK", 1)  # one page per task: pages cross workers
    mk_build.build(_config(tmp_path, "stock"))
    mkdocs_parallel.build(_config(tmp_path, "parallel"), jobs=jobs)
    stock, parallel = _files(tmp_path / "site-stock"), _files(tmp_path / "site-parallel")
    assert "search/search_index.json" in stock and "notes/n.html" in stock
    assert parallel.keys() == stock.keys()
    assert [k for k in stock if stock[k] != parallel[k]] == []


@pytest.mark.parametrize("jobs", [1, 2])
def test_parallel_mkdocs_counts_a_workers_warning_in_strict_mode(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, jobs: int
) -> None:
    bad = {"two.md": "# Two\n\nA [broken link](missing.md).\n"}
    with caplog.at_level(logging.WARNING, logger="mkdocs"), pytest.raises(Abort) as stock:
        mk_build.build(_config(tmp_path, "stock", strict=True, **bad))
    stock_warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="mkdocs"), pytest.raises(Abort) as parallel:
        mkdocs_parallel.build(_config(tmp_path, "parallel", strict=True, **bad), jobs=jobs)
    parallel_warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert str(parallel.value) == str(stock.value) == "Aborted with 1 warnings in strict mode!"
    assert parallel_warnings == stock_warnings
    assert "contains a link 'missing.md', but the target is not found" in parallel_warnings[0]


@pytest.mark.parametrize("jobs", [1, 2])
def test_parallel_mkdocs_fails_on_a_page_as_mkdocs_build_does(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, jobs: int
) -> None:
    broken = {"two.md": "---\ntemplate: no-such.html\n---\n# Two\n"}
    with caplog.at_level(logging.ERROR, logger="mkdocs"), pytest.raises(Exception) as stock:
        mk_build.build(_config(tmp_path, "stock", **broken))
    stock_errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    caplog.clear()
    with caplog.at_level(logging.ERROR, logger="mkdocs"), pytest.raises(Exception) as parallel:
        mkdocs_parallel.build(_config(tmp_path, "parallel", **broken), jobs=jobs)
    parallel_errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert type(parallel.value) is type(stock.value)  # jinja2's TemplateNotFound, raised again
    assert parallel_errors == stock_errors
    assert parallel_errors[0].startswith(
        "Error building page 'two.md': 'no-such.html' not found in search paths"
    )


@pytest.mark.parametrize("hooked", [False, True])
@pytest.mark.parametrize("jobs", [1, 2])
def test_parallel_mkdocs_writes_pages_with_and_without_a_post_page_event(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, jobs: int, hooked: bool
) -> None:
    """Without a post_page event the workers write the pages; with one, the parent does, after it."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setattr(mkdocs_parallel, "CHUNK", 1)
    (tmp_path / "overrides").mkdir()
    (tmp_path / "overrides" / "empty.html").write_text("  \n", "utf-8")
    hooks = tmp_path / "hooks.py"
    hooks.write_text(
        "def on_post_page(output, page, config):\n    return output.replace('</body>', '<!-- hooked --></body>')\n",
        "utf-8",
    )
    kw = {
        "theme": f"{{name: material, custom_dir: {tmp_path / 'overrides'}}}",
        "extra": f"hooks: [{hooks}]\n" if hooked else "",
        "empty.md": "---\ntemplate: empty.html\n---\n# Empty\n",
    }
    with caplog.at_level(logging.INFO, logger="mkdocs"):
        mk_build.build(_config(tmp_path, "stock", **kw))
    stock_skipped = [r.getMessage() for r in caplog.records if r.getMessage().startswith("Page skipped")]
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="mkdocs"):
        mkdocs_parallel.build(_config(tmp_path, "parallel", **kw), jobs=jobs)
    skipped = [r.getMessage() for r in caplog.records if r.getMessage().startswith("Page skipped")]
    stock, parallel = _files(tmp_path / "site-stock"), _files(tmp_path / "site-parallel")
    assert skipped == stock_skipped == ["Page skipped: 'empty.md'. Generated empty output."]
    assert "empty.html" not in parallel and (b"<!-- hooked -->" in parallel["index.html"]) is hooked
    assert parallel.keys() == stock.keys()
    assert [k for k in stock if stock[k] != parallel[k]] == []


def test_the_theme_compiled_ahead_is_what_the_build_loads_not_compiles_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With an empty user cache, the page template, the theme's own pages and every template
    they name are compiled ahead into it (once: a warm cache compiles nothing); the build then
    loads each of them from there, and writes the same bytes as ``mkdocs build``."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    ahead = list(mkdocs_parallel.compile_theme_ahead(_config(tmp_path, "ahead")))
    assert {"main.html", "base.html", "404.html", "partials/header.html"} <= set(ahead)
    assert len(ahead) == len(set(ahead)) == len(list((tmp_path / "xdg" / "gpu-insights" / "jinja").iterdir()))
    assert list(mkdocs_parallel.compile_theme_ahead(_config(tmp_path, "again"))) == []

    compiled: list[str] = []
    compile_ = jinja2.Environment.compile

    def recorded(self: jinja2.Environment, source: Any, name: str | None = None, *a: Any, **k: Any) -> Any:
        # the theme's environment only: plugins make environments of their own
        if isinstance(self.bytecode_cache, mkdocs_parallel.SignedBytecodeCache):
            compiled.append(str(name))
        return compile_(self, source, name, *a, **k)

    monkeypatch.setattr(jinja2.Environment, "compile", recorded)
    mkdocs_parallel.build(_config(tmp_path, "parallel"), jobs=1)
    assert compiled and set(compiled) & set(ahead) == set()  # what is left: icons, named at render time
    monkeypatch.setattr(jinja2.Environment, "compile", compile_)
    mk_build.build(_config(tmp_path, "stock"))
    stock, parallel = _files(tmp_path / "site-stock"), _files(tmp_path / "site-parallel")
    assert [k for k in stock.keys() | parallel.keys() if stock.get(k) != parallel.get(k)] == []


def test_a_theme_template_that_does_not_compile_is_left_to_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    (tmp_path / "overrides").mkdir()
    (tmp_path / "overrides" / "main.html").write_text('{% extends "base.html" %}{% block %}', "utf-8")
    theme = f"{{name: material, custom_dir: {tmp_path / 'overrides'}}}"
    ahead = list(mkdocs_parallel.compile_theme_ahead(_config(tmp_path, "broken", theme=theme)))
    assert "main.html" not in ahead and "404.html" in ahead
    with pytest.raises(
        jinja2.TemplateSyntaxError, match="expected token .name., got .end of statement block."
    ):
        mkdocs_parallel.build(_config(tmp_path, "broken", theme=theme), jobs=1)


def test_a_cache_that_cannot_be_written_stops_the_compiling_ahead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Compiled ahead into a cache that keeps nothing, every template would be compiled twice."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    (tmp_path / "xdg").mkdir()
    (tmp_path / "xdg" / "gpu-insights").write_text("a file where the cache's folder goes", "utf-8")
    assert list(mkdocs_parallel.compile_theme_ahead(_config(tmp_path, "readonly"))) == []


def test_the_theme_s_files_are_those_mkdocs_lists_without_walking_hidden_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MkDocs copies no theme file with a hidden folder in its path: the listing skips those
    folders (Material's 14,000 icons) and finds what MkDocs' own listing finds, in its order."""
    over = tmp_path / "overrides"
    for rel in [
        "assets/x.css", "sub/c.js", "sub/deeper/d.png", ".hidden/a.css", "sub/.hidden/b.js",
        "sub/.dot.css", ".dotfile", "main.html", "README.md", "mkdocs_theme.yml", "404.html",
    ]:  # fmt: skip
        (over / rel).parent.mkdir(parents=True, exist_ok=True)
        (over / rel).write_text("x", "utf-8")
    cfg = _config(tmp_path, "listing", theme=f"{{name: material, custom_dir: {over}}}")
    env = cfg.theme.get_env()
    stock, listed = Files([]), Files([])
    stock.add_files_from_theme(env, cfg)
    walked: list[str] = []
    walk = mkdocs_parallel.os.walk

    def recorded(top: str, **kw: Any) -> Any:
        for folder, subs, names in walk(top, **kw):
            walked.append(os.path.relpath(folder, top))
            yield folder, subs, names

    monkeypatch.setattr(mkdocs_parallel.os, "walk", recorded)
    listed.add_files_from_theme(mkdocs_parallel._listing(env), cfg)
    assert [(f.src_uri, f.abs_src_path) for f in listed] == [(f.src_uri, f.abs_src_path) for f in stock]
    assert {"assets/x.css", "sub/c.js", "sub/deeper/d.png"} <= {f.src_uri for f in listed}
    hidden = [w for w in walked if w != "." and any(part.startswith(".") for part in w.split("/"))]
    assert "sub/deeper" in walked and hidden == []


def test_environments_plugins_make_load_the_theme_compiled_by_an_earlier_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Material's search plugin makes environments of its own and compiled its language
    templates in each, every build; they now load them from the theme's cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    mkdocs_parallel.build(_config(tmp_path, "first"), jobs=1)
    compiled: list[str] = []
    compile_ = jinja2.Environment.compile

    def recorded(self: jinja2.Environment, source: Any, name: str | None = None, *a: Any, **k: Any) -> Any:
        compiled.append(str(name))
        return compile_(self, source, name, *a, **k)

    monkeypatch.setattr(jinja2.Environment, "compile", recorded)
    mkdocs_parallel.build(_config(tmp_path, "second"), jobs=1)
    assert [n for n in compiled if n.startswith("partials/language")] == []
    monkeypatch.setattr(jinja2.Environment, "compile", compile_)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty"))
    mkdocs_parallel.build(_config(tmp_path, "third"), jobs=1)
    assert _files(tmp_path / "site-third") == _files(tmp_path / "site-second")


def test_warnings_of_pages_the_parent_and_a_worker_convert_come_out_in_page_order(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build's process converts pages too (its own batches): their records are captured and
    re-emitted in page order with the worker's, as ``mkdocs build`` emits them."""
    pages = {f"p{i:02d}.md": f"# P{i}\n\nA [link](missing-{i:02d}.md).\n" for i in range(24)}
    converted_by = tmp_path / "pids.txt"
    real = mkdocs_parallel._render_markdown

    def render(i: int) -> Any:
        with converted_by.open("a") as f:
            f.write(f"{os.getpid()}\n")
        time.sleep(0.01)  # long enough that both processes take pages
        return real(i)

    monkeypatch.setattr(mkdocs_parallel, "CHUNK", 2)
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        mk_build.build(_config(tmp_path, "stock", **pages))
    stock = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    caplog.clear()
    monkeypatch.setattr(mkdocs_parallel, "_render_markdown", render)
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        mkdocs_parallel.build(_config(tmp_path, "parallel", **pages), jobs=2)
    parallel = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(set(converted_by.read_text().split())) == 2
    assert str(os.getpid()) in converted_by.read_text().split()
    assert parallel == stock
    assert sum("missing-" in m for m in parallel) == 24


ENTRY = (
    '<a class="gi-entry" href="https://github.com/mlcommons/x/tree/main/closed/A_B" '
    'title="Official result 6.1-0052"><span class="gi-id">6.1-0052</span></a>'
)
CITING = (
    f"# Entries {ENTRY}\n\nBest row (entry {ENTRY}), and {ENTRY} {ENTRY}  {ENTRY}\n{ENTRY}.\n\n"
    f'| A | B |\n|---|---|\n| {ENTRY} | 8 GPUs<span class="gi-sub">{ENTRY}</span> |\n\n'
    f'<pre>{ENTRY}  {ENTRY}</pre>\n\n<div data-search-exclude markdown="1">\n\nHidden {ENTRY}\n\n</div>\n\n'
    f"## Notes\n\nText.[^1]\n\n[^1]: Entries {ENTRY}, {ENTRY}.\n"
)


@pytest.mark.parametrize("jobs", [1, 2])
def test_pages_citing_entries_are_indexed_and_written_as_mkdocs_build_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    """The search index reads entry links as their text (plain_entries): the same index."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setattr(mkdocs_parallel, "CHUNK", 1)
    nbsp = f"See&nbsp;*row*&nbsp;{ENTRY} here, and {ENTRY}&nbsp;\n"  # entities read as white space
    pages = {"cites.md": CITING, "plain.md": CITING.replace("data-search-exclude ", ""), "nbsp.md": nbsp}
    mk_build.build(_config(tmp_path, "stock", **pages))
    mkdocs_parallel.build(_config(tmp_path, "parallel", **pages), jobs=jobs)
    stock, parallel = _files(tmp_path / "site-stock"), _files(tmp_path / "site-parallel")
    docs = {d["location"]: d["text"] for d in json.loads(stock["search/search_index.json"])["docs"]}
    assert "and 6.1-0052 6.1-0052 6.1-0052 6.1-0052.</p>" in docs["cites.html"]
    assert "<pre>6.1-0052  6.1-0052</pre>" in docs["cites.html"] and "Hidden" not in docs["cites.html"]
    assert "Hidden 6.1-0052" in docs["plain.html"]
    assert [k for k in stock if stock[k] != parallel[k]] == []


def _sections(html: str) -> list[tuple[str, str, str | None]]:
    parser = SearchParser()
    parser.feed(html)
    parser.close()
    return [("".join(s.title), "".join(s.text), s.id) for s in parser.data]


_PIECES = [
    ENTRY,
    '<span class="gi-id">5.1-0001</span>',
    " ",
    "  ",
    "\n",
    " \n ",
    "a",
    "word, ",
    "&amp;",
    "<p>",
    "</p>",
]
_PIECES += ["&nbsp;", "&#160;", "&#1", "&sup", "a < ", '<span class="gi-id">23</span>']  # a review's finds
_PIECES += [
    '<h2 id="x">',
    "</h2>",
    "<pre>",
    "</pre>",
    "<sup>",
    "</sup>",
    "<li>",
    "</li>",
    "<script>",
    "</script>",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=14).map("".join))
def test_entries_as_plain_text_index_as_the_links_do(html: str) -> None:
    assert _sections(mkdocs_parallel.plain_entries(html)) == _sections(html)


def test_entries_next_to_white_space_only_keep_their_tags() -> None:
    html = f"<p>a {ENTRY}  <br>{ENTRY},{ENTRY}</p><p>\n{ENTRY}</p>"
    plain = f"<p>a {ENTRY}  <br>6.1-0052,6.1-0052</p><p>\n{ENTRY}</p>"
    assert mkdocs_parallel.plain_entries(html) == plain
