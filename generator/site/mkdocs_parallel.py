"""MkDocs' ``build`` with its two costly per-page steps spread over worker processes.

``mkdocs.commands.build.build`` converts every page's Markdown and renders every page's
theme template one after the other, on one core. Both steps depend only on the page and
on state that exists before they start (files, navigation, config), so here the parent and
forked workers share them, each taking the next batch of pages when it is free
(:func:`~generator.workers.forked_map`):

1. the parent runs the ``pre_page`` and ``page_markdown`` events and reads the sources;
2. workers (and the parent) convert the Markdown (``Page.render``); a worker sends back what it sets;
3. the parent runs ``page_content``, ``env``, copies static files, renders the theme's
   own templates, and makes every page's template context (``page_context`` events);
4. workers (and the parent) render the page templates; a worker sends back the HTML (or,
   when no plugin has a ``post_page`` event, writes the page itself: the parent then receives
   no HTML);
5. the parent runs ``post_page``, writes the pages, validates anchors, ``post_build``.

Every plugin event runs in the parent, in page order, as MkDocs runs them, with one
exception: when Material's search plugin is the only ``page_context`` event, it indexes
each page where its template is rendered (reading entry links as their text: the same
index, a fraction of the parsing), and the parent appends the entries in page order. Log
records emitted while pages are converted or rendered (in a worker or in the parent) are
captured and re-emitted in page order (so ``strict`` counts them). The
output is byte-identical to ``mkdocs build`` (a test builds both). Only full builds are
supported (no ``--dirty``, no ``serve`` drafts): ``mkdocs serve`` keeps MkDocs' own build.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
import re
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import jinja2
import jinja2.bccache
import jinja2.meta
from mkdocs import utils
from mkdocs.commands import build as mk_build
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, BuildError
from mkdocs.structure.files import File, Files, InclusionLevel, get_files, set_exclusions
from mkdocs.structure.nav import Navigation, get_navigation
from mkdocs.structure.pages import Page

from generator.signing import read_signed, user_cache_dir, write_signed
from generator.site.inert_markdown import ENTRY_TEXT
from generator.workers import forked_map, jobs_worth

log = logging.getLogger("mkdocs.commands.build")
T = TypeVar("T")

#: pages per task handed to a worker: small enough to balance, large enough to amortise
CHUNK = 8
#: what a page costs in one process, to tell whether workers are worth forking (see
#: :func:`~generator.workers.jobs_worth`): seconds per page and per character, of its Markdown
#: to convert, and of its HTML to put into the theme and the search index (fitted on the
#: sample's site, 19 pages, and on the official results' site, 44 pages, on a 2-core machine)
MARKDOWN_SECONDS = (0.0019, 0.29e-6)
TEMPLATE_SECONDS = (0.0009, 0.1e-6)

_STATE: dict[str, Any] = {}  # what forked workers read: set by the parent just before forking


@dataclass
class _Record:
    """A log record a worker emitted, to re-emit in the parent."""

    name: str
    level: int
    message: str


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[_Record] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(_Record(record.name, record.levelno, record.getMessage()))


@contextlib.contextmanager
def _captured() -> Iterator[None]:
    """While entered, every log record goes to one capturing handler (none reaches the
    terminal), which :func:`_take_records` empties into each page's result: a worker's records,
    and those of the pages this process makes itself, are then re-emitted in page order."""
    loggers = [logging.getLogger(name) for name in [None, *logging.Logger.manager.loggerDict]]
    loggers = [logger for logger in loggers if isinstance(logger, logging.Logger)]
    saved = [logger.handlers for logger in loggers]
    for logger in loggers:
        logger.handlers = []
    logging.getLogger().handlers = [_Capture()]
    _STATE["capture"] = logging.getLogger().handlers[0]
    try:
        yield
    finally:
        _STATE.pop("capture", None)
        for logger, handlers in zip(loggers, saved, strict=True):
            logger.handlers = handlers


def _replay(records: list[_Record]) -> None:
    for r in records:
        logging.getLogger(r.name).log(r.level, r.message)


def _in_workers(
    task: Callable[[int], T], count: int, jobs: int, state: dict[str, Any]
) -> Generator[T, None, None]:
    """``task(i)`` for i in range(count), shared with forked workers that see *state*, every
    page's log records captured (see :func:`_captured`); in order, each as soon as it is
    there. One job: in this process, logging as MkDocs does; pages still streamed one by one."""
    _STATE.clear()
    _STATE.update(state)
    try:
        yield from forked_map(task, count, jobs, setup=_captured, chunk=CHUNK)
    finally:
        _STATE.clear()


def _take_records() -> list[_Record]:
    capture: _Capture | None = _STATE.get("capture")
    if capture is None:  # one job: records went to their loggers already
        return []
    records, capture.records = capture.records, []
    return records


# ------------------------------------------------------------------ step 2: Markdown in workers


@dataclass
class _Rendered:
    """What ``Page.render`` sets on a page (links keyed by source path, not File objects)."""

    content: str | None = None
    toc: Any = None
    title: str | None = None
    anchors: set[str] | None = None
    links: dict[str, dict[str, str]] | None = None
    error: str = ""
    exc: BaseException | None = None
    records: list[_Record] | None = None


def _render_markdown(i: int) -> _Rendered:
    page: Page = _STATE["pages"][i]
    config: MkDocsConfig = _STATE["config"]
    config._current_page = page
    try:
        page.render(config, _STATE["files"])
        links = getattr(page, "links_to_anchors", None)
        return _Rendered(
            page.content,
            page.toc,
            page._title_from_render,
            page.present_anchor_ids,
            None if links is None else {f.src_uri: v for f, v in links.items()},
            records=_take_records(),
        )
    except Exception as e:  # noqa: BLE001 - raised again in the parent, with MkDocs' message
        return _Rendered(error=_page_error("reading", page, e), exc=_portable(e), records=_take_records())
    finally:
        config._current_page = None


def _portable(e: Exception) -> Exception:
    """The exception itself when it survives pickling (the parent raises it as MkDocs would)."""
    try:
        pickle.loads(pickle.dumps(e))
    except Exception:  # noqa: BLE001 - any exception that cannot cross processes
        return BuildError(str(e))
    return e


def _page_error(doing: str, page: Page, e: Exception) -> str:
    message = f"Error {doing} page '{page.file.src_uri}':"
    return message if isinstance(e, BuildError) else f"{message} {e}"


def _apply(page: Page, r: _Rendered, files: Files) -> None:
    page.content, page.toc, page._title_from_render = r.content, r.toc, r.title
    page.present_anchor_ids = r.anchors
    if r.links is not None:
        page.links_to_anchors = {files.get_file_from_path(k): v for k, v in r.links.items()}  # type: ignore[misc]


# ------------------------------------------------------------------ step 4: templates in workers


@dataclass
class _Built:
    """A page's HTML (or whether the worker wrote it), the search entries indexed for it in
    the worker, or an error."""

    html: str = ""
    entries: list[dict[str, Any]] | None = None
    error: str = ""
    exc: BaseException | None = None
    records: list[_Record] | None = None
    written: bool | None = None  # None: not written by the worker; False: empty, not written


def _render_template(i: int) -> _Built:
    page: Page = _STATE["pages"][i]
    config: MkDocsConfig = _STATE["config"]
    name, context = _STATE["contexts"][i]
    search = _STATE["search"]
    config._current_page = page
    page.active = True
    try:
        entries = None
        if search is not None:  # the search index's page_context event, deferred to the worker
            index = search.search_index
            before = len(index.entries)
            context = _indexed(search, context, page, config, _STATE["nav"])
            entries = index.entries[before:]
            del index.entries[before:]  # appended in page order by the parent (this may be it)
        html = _STATE["env"].get_template(name).render(context)
        if not _STATE["write"]:
            return _Built(html, entries, records=_take_records())
        return _Built("", entries, records=_take_records(), written=_write(page, html))
    except Exception as e:  # noqa: BLE001 - raised again in the parent, with MkDocs' message
        return _Built(error=_page_error("building", page, e), exc=_portable(e), records=_take_records())
    finally:
        page.active = False
        config._current_page = None


def plain_entries(html: str) -> str:
    """*html* with every entry link and entry ID written as its text, where Material's search
    parser reads the same text either way (it keeps the words of links and spans, not their
    tags): not next to text of white space only, which it collapses when it reads it apart, nor
    next to text holding "&" or a stray "<" (an entity such as &nbsp; read as white space)."""

    def text(m: re.Match[str]) -> str:
        words = m.group(1) if m.group(1) is not None else m.group(2)
        before = html[html.rfind(">", 0, m.start()) + 1 : m.start()]
        end = html.find("<", m.end())
        after = html[m.end() : end if end >= 0 else len(html)]
        around = before + after
        if (
            not words.strip()
            or (before and before.isspace())
            or (after and after.isspace())
            or "&" in around  # an entity the parser reads as white space, or one the words complete
            or "<" in around  # a stray "<", where the parser splits the text
        ):
            return m.group(0)
        return words

    return ENTRY_TEXT.sub(text, html)


def _indexed(search: Any, context: Any, page: Page, config: MkDocsConfig, nav: Navigation) -> Any:
    """The search plugin's ``page_context`` event, which indexes the page's HTML with its entries
    as plain text (:func:`plain_entries`: the same index; an article's notes and provenance cite
    a hundred entries and more, whose tags made two thirds of its indexing)."""
    full = page.content
    if full is None or "data-search-" in full:  # the event edits such a page's HTML: as it is
        return search.on_page_context(context, page=page, config=config, nav=nav) or context
    page.content = plain_entries(full)
    try:
        return search.on_page_context(context, page=page, config=config, nav=nav) or context
    finally:
        page.content = full


def deferred_search(config: MkDocsConfig) -> Any:
    """Material's search plugin when it is the only ``page_context`` event (it then runs in the
    workers, which send back the index entries of their pages); else None."""
    events = config.plugins.events["page_context"]
    if len(events) != 1:
        return None
    plugin = getattr(events[0], "__self__", None)
    if type(plugin).__module__ != "material.plugins.search.plugin" or not hasattr(plugin, "search_index"):
        return None
    return plugin


class SignedBytecodeCache(jinja2.BytecodeCache):
    """The theme's compiled templates, kept between builds (a fifth of a second each build), each
    signed: compiled code is loaded only when this user's builds wrote it (:mod:`generator.signing`)."""

    def __init__(self, directory: Path) -> None:
        self.dir = directory

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = read_signed(self.dir / f"{bucket.key}.jinja")
        if data is not None:
            bucket.bytecode_from_string(data)  # reset by jinja itself when the source changed

    def holds(self, bucket: jinja2.bccache.Bucket) -> bool:
        """Whether *bucket*'s compiled template is kept (its file written)."""
        return (self.dir / f"{bucket.key}.jinja").is_file()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with contextlib.suppress(OSError):  # a read-only cache only costs the next build the same
            write_signed(self.dir / f"{bucket.key}.jinja", bucket.bytecode_to_string())


def theme_cache() -> SignedBytecodeCache:
    """Where the theme's compiled templates are kept: the user's cache, shared by every build."""
    return SignedBytecodeCache(user_cache_dir() / "jinja")


def compile_theme_ahead(config: MkDocsConfig) -> Iterator[str]:
    """Compile into :func:`theme_cache` the theme's templates a build will load (the page
    template, the theme's own pages, and every template they name, transitively), one at a
    time (yielding each one's name), unless it holds them already. Run while the articles
    render, on a core the build leaves idle: with an empty cache (a fresh machine, every CI
    run), MkDocs' own process would compile them one after the other (a tenth of a second),
    and each worker again the ones only articles use. A template that fails to compile is
    left to the build, which reports it where MkDocs does."""
    env = config.theme.get_env()
    cache = theme_cache()
    todo = ["main.html", *config.theme.static_templates]
    seen: set[str] = set()
    while todo:
        name = todo.pop(0)
        if name in seen:
            continue
        seen.add(name)
        try:
            source, filename, _ = env.loader.get_source(env, name)  # type: ignore[union-attr]
            bucket = cache.get_bucket(env, name, filename, source)
            if bucket.code is not None and name == "main.html":
                return  # a warm cache: compiled by an earlier build
            tree = env.parse(source, name, filename)
            if bucket.code is None:
                bucket.code = env.compile(tree, name, filename)
                cache.set_bucket(bucket)
                if not cache.holds(bucket):
                    return  # a cache it cannot write (read-only): MkDocs compiles them all anyway
        except jinja2.TemplateError:
            continue
        todo += [t for t in jinja2.meta.find_referenced_templates(tree) if t is not None]
        yield name


# ------------------------------------------------------------------ the build


def _chars(texts: Sequence[str | None]) -> int:
    return sum(len(t or "") for t in texts)


def _populate(pages: Sequence[Page], config: MkDocsConfig, files: Files, jobs: int) -> None:
    for page in pages:
        config._current_page = page
        page = config.plugins.on_pre_page(page, config=config, files=files)
        page.read_source(config)
        assert page.markdown is not None
        page.markdown = config.plugins.on_page_markdown(page.markdown, page=page, config=config, files=files)
        config._current_page = None
    state = {"pages": pages, "config": config, "files": files}
    jobs = jobs_worth(jobs, MARKDOWN_SECONDS, len(pages), _chars([p.markdown for p in pages]))

    def content(page: Page, r: _Rendered) -> None:
        _apply(page, r, files)
        assert page.content is not None
        config._current_page = page
        page.content = config.plugins.on_page_content(page.content, page=page, config=config, files=files)
        config._current_page = None

    _each_page(_render_markdown, pages, jobs, state, content)


def _each_page(
    task: Callable[[int], Any],
    pages: Sequence[Page],
    jobs: int,
    state: dict[str, Any],
    use: Callable[[Page, Any], None],
) -> None:
    """*use* on each page and what *task* made of it (:func:`_in_workers`), in page order, after
    the page's log records are re-emitted; a page's error is logged and raised as MkDocs does,
    and the workers stop at once rather than make the pages left."""
    with contextlib.closing(_in_workers(task, len(pages), jobs, state)) as made:
        for page, r in zip(pages, made, strict=True):
            _replay(r.records or [])
            if r.error:
                log.error(r.error)
                raise r.exc or BuildError(r.error)
            use(page, r)


def _contexts(
    pages: Sequence[Page], doc_files: Sequence[File], config: MkDocsConfig, nav: Navigation, *, search: Any
) -> list[tuple[str, Any]]:
    out = []
    for page in pages:
        config._current_page = page
        page.active = True
        context = mk_build.get_context(nav, doc_files, config, page)
        name = page.meta.get("template", "main.html")
        if search is None:
            context = config.plugins.on_page_context(context, page=page, config=config, nav=nav)
        if page.file.inclusion.is_excluded():
            page.content = (
                '<div class="mkdocs-draft-marker" title="This page will not be included into the built site.">'
                "DRAFT"
                "</div>" + (page.content or "")
            )
        page.active = False
        config._current_page = None
        out.append((name, context))
    return out


def _write_pages(pages: Sequence[Page], config: MkDocsConfig, state: dict[str, Any], jobs: int) -> None:
    """Templates rendered (and, with no ``post_page`` event, pages written) in workers;
    ``post_page`` events and writing the rest here, in page order."""
    search = state["search"]

    def write(page: Page, built: _Built) -> None:
        if search is not None:
            search.search_index.entries.extend(built.entries or [])
        written = built.written  # None: a post_page event reads the HTML first, here
        if written is None:
            config._current_page = page
            output = config.plugins.on_post_page(built.html, page=page, config=config)
            config._current_page = None
            written = _write(page, output)
        if not written:
            log.info(f"Page skipped: '{page.file.src_uri}'. Generated empty output.")

    _each_page(_render_template, pages, jobs, state, write)


def _write(page: Page, output: str) -> bool:
    """Write a page's output as MkDocs does; False when it is empty (and so not written)."""
    if not output.strip():
        return False
    utils.write_file(output.encode("utf-8", errors="xmlcharrefreplace"), page.file.abs_dest_path)
    return True


class _VisibleFiles(jinja2.FileSystemLoader):
    """The theme's loader, listing its files without walking hidden folders: MkDocs copies no
    file with a hidden folder in its path (its filter drops ``.*`` and ``*/.*``), and Material
    keeps its 14,000 icons in ``.icons/``, whose listing took 40 ms of every build."""

    def list_templates(self) -> list[str]:
        found: set[str] = set()
        for top in self.searchpath:
            for folder, subs, names in os.walk(top, followlinks=self.followlinks):
                subs[:] = [d for d in subs if not d.startswith(".")]
                rel = os.path.relpath(folder, top).replace(os.path.sep, "/")
                found.update(n if rel == "." else f"{rel}/{n}" for n in names)
        return sorted(found)


def _listing(env: jinja2.Environment) -> jinja2.Environment:
    """*env* as MkDocs lists the theme's static files from it (see :class:`_VisibleFiles`)."""
    loader = env.loader
    if type(loader) is not jinja2.FileSystemLoader:  # a plugin's own loader: listed as it lists
        return env
    return env.overlay(loader=_VisibleFiles(loader.searchpath, loader.encoding, loader.followlinks))


def _cached_envs(config: MkDocsConfig) -> None:
    """Every template environment the theme makes, the build's and those plugins make for
    themselves, loads its compiled templates from :func:`theme_cache` (the theme, compiled once;
    Material's search plugin alone compiled its language templates three times, 12 ms)."""
    theme = config.theme
    make, cache = theme.get_env, theme_cache()

    def get_env() -> jinja2.Environment:
        env = make()
        env.bytecode_cache = cache
        return env

    theme.get_env = get_env  # type: ignore[method-assign]


def _gather(config: MkDocsConfig) -> tuple[MkDocsConfig, Files, jinja2.Environment, Navigation]:
    """MkDocs' build up to the navigation: config events, clean site, files, nav."""
    _cached_envs(config)
    config = config.plugins.on_config(config)
    config.plugins.on_pre_build(config=config)
    log.info("Cleaning site directory")
    utils.clean_directory(config.site_dir)
    log.info(f"Building documentation to directory: {config.site_dir}")
    files = get_files(config)
    env = config.theme.get_env()
    files.add_files_from_theme(_listing(env), config)
    files = config.plugins.on_files(files, config=config)
    set_exclusions(files, config)
    nav = get_navigation(files, config)
    nav = config.plugins.on_nav(nav, config=config, files=files)
    return config, files, env, nav


def _pages(files: Files, config: MkDocsConfig) -> list[Page]:
    out = []
    for file in files.documentation_pages(inclusion=InclusionLevel.is_included):
        if file.page is None and file.inclusion.is_not_in_nav():
            Page(None, file, config)
        assert file.page is not None
        out.append(file.page)
    return out


def build(config: MkDocsConfig, *, jobs: int) -> None:
    """``mkdocs build`` (a full build) with page conversion and templates in *jobs* workers (one
    job: in this process); each page is written as soon as it is made, not held to the end."""
    warning_counter = utils.CountHandler()
    warning_counter.setLevel(logging.WARNING)
    if config.strict:
        logging.getLogger("mkdocs").addHandler(warning_counter)
    try:
        start = time.monotonic()
        _build(config, jobs)
        if counts := warning_counter.get_counts():
            msg = ", ".join(f"{v} {k.lower()}s" for k, v in counts)
            raise Abort(f"Aborted with {msg} in strict mode!")
        log.info(f"Documentation built in {time.monotonic() - start:.2f} seconds")
    except Exception as e:
        config.plugins.on_build_error(error=e)
        if isinstance(e, BuildError):
            log.error(str(e))
            raise Abort("Aborted with a BuildError!") from None
        raise
    finally:
        logging.getLogger("mkdocs").removeHandler(warning_counter)


def _build(config: MkDocsConfig, jobs: int) -> None:
    config, files, env, nav = _gather(config)
    pages = _pages(files, config)
    _populate(pages, config, files, jobs)
    env = config.plugins.on_env(env, config=config, files=files)
    files.copy_static_files(dirty=False, inclusion=InclusionLevel.is_included)
    for template in config.theme.static_templates:
        mk_build._build_theme_template(template, env, files, config, nav)
    for template in config.extra_templates:
        mk_build._build_extra_template(template, files, config, nav)
    doc_files = files.documentation_pages(inclusion=InclusionLevel.is_included)
    jobs = jobs_worth(jobs, TEMPLATE_SECONDS, len(pages), _chars([p.content for p in pages]))
    search = deferred_search(config)  # with the templates (in the workers, if any)
    contexts = _contexts(pages, doc_files, config, nav, search=search)
    state = {
        "pages": pages,
        "config": config,
        "env": env,
        "contexts": contexts,
        "search": search,
        "nav": nav,
        # no plugin reads the HTML: workers write their pages, the parent receives none of it
        "write": not config.plugins.events["post_page"],
    }
    _write_pages(pages, config, state, jobs)
    for page in pages:
        page.validate_anchor_links(files=files, log_level=config.validation.links.anchors)
    config.plugins.on_post_build(config=config)
