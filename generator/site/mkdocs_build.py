"""MkDocs, run on a folder of rendered pages (the last step of every build)."""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from generator.errors import BuildError
from generator.project import Project


@contextlib.contextmanager
def pinned_epoch(epoch: int) -> Iterator[None]:
    """``SOURCE_DATE_EPOCH`` for the duration of a build: pages are dated by the data, not the clock."""
    before = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = str(epoch)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = before


class MkDocsSetup:
    """MkDocs' configuration of a build, loaded ahead: :meth:`load` runs while the articles
    render in worker processes (MkDocs, its theme and plugins take a quarter of a second to
    import and validate, which the build's main process would otherwise spend waiting); with
    :meth:`ahead`, it also compiles the theme's templates when the user's cache lacks them."""

    def __init__(self, project: Project, docs: Path, site: Path) -> None:
        self.project, self.docs, self.site = project, docs, site
        self._config: Any = None
        self._error: Exception | None = None
        self._records: list[logging.LogRecord] | None = None

    def load(self) -> None:
        """Load the configuration; never raises, never logs: an error is raised, and what MkDocs
        logged is logged, by :meth:`config`, at the point of the build where MkDocs ran before."""
        if self._records is not None:
            return
        self._records = []
        with _held(self._records):
            try:
                self._config = _load_config(self.project, self.docs, self.site)
            except Exception as exc:  # noqa: BLE001 - raised again by config()
                self._error = exc

    def ahead(self) -> Iterator[None]:
        """:meth:`load`, then the theme's templates compiled into the user's cache when it does
        not hold them yet, one a step (see :func:`~generator.site.mkdocs_parallel.compile_theme_ahead`)."""
        self.load()
        if self._error is not None:
            return
        yield
        # imported here: MkDocs (see _load_config)
        from generator.site.mkdocs_parallel import compile_theme_ahead

        with contextlib.suppress(Exception):  # only ahead of time: MkDocs compiles what is left
            for _ in compile_theme_ahead(self._config):
                yield

    def config(self) -> Any:
        self.load()
        for record in self._records or []:
            logging.getLogger(record.name).handle(record)
        self._records = []
        if self._error is not None:
            raise self._error
        return self._config


class _Keep(logging.Handler):
    def __init__(self, records: list[logging.LogRecord]) -> None:
        super().__init__(logging.DEBUG)
        self.records = records

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def _held(records: list[logging.LogRecord]) -> Iterator[None]:
    """What MkDocs logs meanwhile goes into *records*, not to its handlers."""
    logger = logging.getLogger("mkdocs")
    handlers, propagate = logger.handlers, logger.propagate
    logger.handlers, logger.propagate = [_Keep(records)], False
    try:
        yield
    finally:
        logger.handlers, logger.propagate = handlers, propagate


def _load_config(project: Project, docs: Path, site: Path) -> Any:
    # imported here: MkDocs, its theme and the plugin cost ~0.15 s, which `check`, `data` and
    # `diff` never need
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    from generator.site.plugin import apply_site_defaults, prerendered

    docs.mkdir(parents=True, exist_ok=True)  # MkDocs wants the folder; the pages come later
    try:
        with prerendered():
            # nav=[]: the build's own navigation replaces the file's, which MkDocs then never checks
            cfg = load_config(
                config_file=str(project.mkdocs_yml), docs_dir=str(docs), site_dir=str(site), nav=[]
            )
    except MkDocsException as exc:
        raise _failed(project, str(exc)) from None
    if "gpu-insights" not in cfg.plugins:
        apply_site_defaults(cfg)
    return cfg


def _checked_nav(project: Project, nav: list[dict[str, Any]], *, strict: bool) -> Any:
    """*nav* as ``load_config(nav=...)`` checks it: an error fails, a warning is logged (and
    fails in strict mode)."""
    from mkdocs.config.base import ValidationError
    from mkdocs.config.config_options import Nav

    option = Nav()
    try:
        value = option.validate(nav)
    except ValidationError as exc:
        raise _failed(project, f"Config value 'nav': {exc}") from None
    for warning in option.warnings:
        logging.getLogger("mkdocs.config").warning(f"Config value 'nav': {warning}")
    if strict and option.warnings:
        raise _failed(
            project, f"Aborted with {len(option.warnings)} configuration warnings in 'strict' mode!"
        )
    return value


def run_mkdocs(
    project: Project,
    docs: Path,
    site: Path,
    nav: list[dict[str, Any]],
    *,
    jobs: int = 1,
    setup: MkDocsSetup | None = None,
) -> None:
    """MkDocs on pages already rendered (*docs*) with the project's ``mkdocs.yml`` (loaded
    ahead by *setup*, or now) and *nav*: the ``gpu-insights`` plugin only adds the site's
    settings. Pages are converted and written by *jobs* worker processes (the same bytes as
    MkDocs' own build)."""
    from mkdocs.exceptions import MkDocsException

    from generator.site import mkdocs_parallel
    from generator.site.plugin import prerendered

    cfg = (setup or MkDocsSetup(project, docs, site)).config()
    try:
        cfg["nav"] = _checked_nav(project, nav, strict=bool(cfg.strict))
        with prerendered():
            cfg.plugins.on_startup(command="build", dirty=False)  # as `mkdocs build` does
            try:
                mkdocs_parallel.build(cfg, jobs=jobs)
            finally:
                cfg.plugins.on_shutdown()
    except MkDocsException as exc:
        raise _failed(project, str(exc)) from None


def _failed(project: Project, why: str) -> BuildError:
    return BuildError(f"{project.mkdocs_yml}: MkDocs failed: {why}")
