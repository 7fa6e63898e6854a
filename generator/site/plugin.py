"""The ``gpu-insights`` MkDocs plugin: ``mkdocs build`` and ``mkdocs serve`` render the same site.

Listed in a publication's ``mkdocs.yml`` (``plugins: [gpu-insights]``), the plugin renders
and checks the articles of ``content/`` with the code ``gpu-insights build`` uses
(:func:`generator.site.build.prepare` and :func:`~generator.site.build.stage_docs`), points
MkDocs at the rendered pages and, under ``mkdocs serve``, watches the articles, the data
and the theme overrides so pages reload when they change. ``gpu-insights build`` renders
first and runs MkDocs itself; the plugin then only adds the site's theme and settings.

MkDocs empties ``site_dir`` before it builds, so the plugin refuses, before anything is written,
every site folder ``gpu-insights build`` refuses (:mod:`generator.site.sitedir`: the project or
one of its sources, a folder holding them, the results, a non-empty folder gpu-insights did not
write), and marks the site it built as its own.
"""

from __future__ import annotations

import contextlib
import contextvars
import filecmp
import logging
import posixpath
import re
import shutil
import tempfile
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

from generator.errors import GpuInsightsError
from generator.project import THEME_DIR, Project
from generator.site.feed import fix_json_feeds, use_feed_template
from generator.site.sitedir import SiteDir, guarded_folders, mark_site

if TYPE_CHECKING:
    from generator.site.build import Prepared

log = logging.getLogger("mkdocs.plugins.gpu-insights")


def _log(message: str) -> None:
    """The build's progress as MkDocs log records: its warnings as warnings (``mkdocs build --strict``)."""
    if message.startswith("warning: "):
        log.warning(message.removeprefix("warning: "))
    else:
        log.info(message)


#: set while ``gpu-insights build`` runs MkDocs on pages it has rendered itself
_PRERENDERED: contextvars.ContextVar[bool] = contextvars.ContextVar("gpu_insights_prerendered", default=False)

#: Markdown extensions every page needs (tables, footnotes, admonitions, HTML blocks; the
#: generator's own inline elements and plain table cells skip the inline step: same HTML, faster)
EXTENSIONS = (
    "tables",
    "admonition",
    "md_in_html",
    "attr_list",
    "footnotes",
    "generator.site.footnote_backlinks",  # one back-link per note (after footnotes: it runs after them)
    "generator.site.inert_markdown",
    "generator.site.markdown_budget",  # every page converted within a time, size and depth budget
)
#: navigation.prune: each page carries only the visible part of the navigation (a site of 200
#: articles otherwise renders all of them into every page: a quarter of the MkDocs build)
FEATURES = ("content.footnote.tooltips", "navigation.prune")
EXTRA_CSS = ("assets/site.css",)
#: the Vega bundle (900 KB) is not among them: assets/charts.js loads it, on a page with a chart,
#: when a chart comes near the screen
EXTRA_JS = ("assets/charts.js", "assets/takeaway.js")  # takeaway: sortable tables, permalinks


@contextmanager
def prerendered() -> Iterator[None]:
    """While inside, the plugin leaves rendering to the caller (``gpu-insights build``)."""
    token = _PRERENDERED.set(True)
    try:
        yield
    finally:
        _PRERENDERED.reset(token)


def apply_site_defaults(config: MkDocsConfig) -> None:
    """The theme overrides, Markdown extensions, theme features and assets of every publication;
    what the publication's ``mkdocs.yml`` sets already is kept."""
    dirs = config.theme.dirs
    if str(THEME_DIR) not in dirs:
        dirs.insert(1 if config.theme.custom_dir else 0, str(THEME_DIR))
    for ext in EXTENSIONS:
        if ext not in config.markdown_extensions:
            config.markdown_extensions.append(ext)
    features = config.theme.get("features") or []
    config.theme["features"] = list(features) + [f for f in FEATURES if f not in features]
    for css in EXTRA_CSS:
        if css not in config.extra_css:
            config.extra_css.append(css)
    have = {str(s) for s in config.extra_javascript}
    for js in EXTRA_JS:
        if js not in have:
            config.extra_javascript.append(js)


class GpuInsightsConfig(Config):
    results = c.Optional(c.Type(str))
    """Folder with one sub-folder per round; relative to ``mkdocs.yml`` (default: the sample)."""
    strict = c.Type(bool, default=False)
    """Stop on warnings of the compliance check, as ``gpu-insights build --strict`` does."""


class GpuInsightsPlugin(BasePlugin[GpuInsightsConfig]):
    """Render the publication's articles into the pages MkDocs builds."""

    def __init__(self) -> None:
        self.prepared: Prepared | None = None
        self.project: Project | None = None
        #: the site folder's lock, held from on_config to the end of the build (see :meth:`_lock`)
        self.held = contextlib.ExitStack()

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        apply_site_defaults(config)
        if _PRERENDERED.get():
            self.prepared = None
            return config
        # imported here: the build pulls in pandas and the renderer, which a rebuild from kept
        # pages (the no-change `gpu-insights build`) runs MkDocs without
        from generator.site.build import prepare, render_cache, stage_docs
        from generator.site.pages import refuse_unpublishing

        project = Project(Path(config.config_file_path).resolve().parent)
        results = project.root / self.config.results if self.config.results else None
        docs = project.cache_dir / "mkdocs-docs"
        try:
            # MkDocs empties site_dir once this returns: refuse what `gpu-insights build` refuses
            target = SiteDir(Path(config.site_dir), guarded_folders(project, results), _log)
            target.validate()
            self._lock(target)
            p = prepare(
                project,
                results,
                strict=self.config.strict,
                log=_log,
                cache=render_cache(project, results),
            )
            refuse_unpublishing(p.rendered, p.sample, target.path)
            project.cache_dir.mkdir(exist_ok=True)
            with tempfile.TemporaryDirectory(dir=project.cache_dir, prefix="docs-") as tmp:
                nav = stage_docs(project, p, Path(tmp), baseline=None, log=_log)
                sync_tree(Path(tmp) / "docs", docs)
        except GpuInsightsError as exc:
            self.held.close()
            raise PluginError(f"gpu-insights: {exc.message}") from None
        except BaseException:
            self.held.close()
            raise
        config.docs_dir = str(docs)
        config.nav = nav
        self.prepared, self.project = p, project
        return config

    def _lock(self, target: SiteDir) -> None:
        """Take the lock ``gpu-insights build`` takes beside the site folder, until the build ends
        (:meth:`on_post_build`, :meth:`on_build_error`): two builds writing one site mixed their
        pages (the sample's with the official results')."""
        self.held.close()  # `mkdocs serve`: the previous build's, should it have been left
        self.held.enter_context(target.locked())

    def on_build_error(self, *, error: Exception) -> None:
        self.held.close()

    def on_shutdown(self) -> None:
        self.held.close()

    def on_env(self, env: Any, /, *, config: MkDocsConfig, files: Any) -> Any:
        use_feed_template(config)  # after every plugin's on_config: the rss plugin's template is set
        return env

    def on_page_content(self, html: str, /, *, page: Page, config: MkDocsConfig, files: Any) -> str:
        return chart_urls(html, page.file.src_uri, page.url) if config.use_directory_urls else html

    def on_serve(self, server: Any, /, *, config: MkDocsConfig, builder: Any) -> Any:
        if self.project is not None:
            for d in (self.project.content_dir, self.project.data_dir, self.project.templates_dir):
                if d.is_dir():
                    server.watch(str(d))
        return server

    @event_priority(-100)  # last: the site is marked with every file written, the feeds' among them
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        try:
            fix_json_feeds(config)  # written by the rss plugin's on_post_build, which ran before
            if self.prepared is not None and self.project is not None:
                from generator.site.build import finish_site  # see on_config
                from generator.site.pages import load_publication, published
                from generator.site.required import required_text_error, required_text_problems

                site, p = Path(config.site_dir), self.prepared
                finish_site(p, site)
                # the statements each article needs, on the pages MkDocs wrote (in place: no old site kept)
                name = load_publication(self.project.mkdocs_yml).name
                problems = required_text_problems(site, published(p.rendered, p.sample), name)
                if problems:
                    raise PluginError(f"gpu-insights: {required_text_error(problems).message}")
            if not _PRERENDERED.get():  # `gpu-insights build` marks the site it swaps in itself
                mark_site(Path(config.site_dir))
        finally:
            self.held.close()


#: the charts the generator writes as raw HTML (generator.article.render), which MkDocs leaves as
#: they are: their spec and SVG fallback named relative to the page's Markdown file
_CHART = re.compile(r'(<div class="gi-vega" data-spec=")([^"]+)(">\s*<img src=")([^"]+)(")')
#: the links to a chart's files to take away (generator.article.charts.downloads_html)
_CHART_FILE = re.compile(r'(<a class="gi-chart-file" href=")([^"]+)(")')


def chart_urls(html: str, src_uri: str, url: str) -> str:
    """*html* with each chart's spec and image named relative to the page's URL (*url*), where
    they were named relative to its Markdown file (*src_uri*): under ``use_directory_urls``,
    ``tiny.md`` is ``tiny/``, and ``charts/tiny-1.svg`` from there named nothing."""
    base = posixpath.dirname(src_uri)

    def moved(ref: str) -> str:
        parts = urllib.parse.urlsplit(ref)
        if parts.scheme or parts.netloc or ref.startswith(("/", "#")):
            return ref
        target = posixpath.normpath(posixpath.join(base, parts.path))
        return get_relative_url(target, url) + (f"?{parts.query}" if parts.query else "")

    html = _CHART.sub(lambda m: f"{m[1]}{moved(m[2])}{m[3]}{moved(m[4])}{m[5]}", html)
    return _CHART_FILE.sub(lambda m: f"{m[1]}{moved(m[2])}{m[3]}", html)


def sync_tree(src: Path, dest: Path) -> None:
    """Make *dest* a copy of *src*, writing only files that changed (``mkdocs serve`` watches it)."""
    dest.mkdir(parents=True, exist_ok=True)
    for old in sorted(dest.rglob("*"), reverse=True):
        rel = old.relative_to(dest)
        if not (src / rel).exists():
            if old.is_dir() and not old.is_symlink():
                shutil.rmtree(old)
            else:
                old.unlink()
    for new in sorted(src.rglob("*")):
        target = dest / new.relative_to(src)
        if new.is_dir():
            target.mkdir(exist_ok=True)
        elif not target.is_file() or not filecmp.cmp(new, target, shallow=False):
            shutil.copyfile(new, target)
