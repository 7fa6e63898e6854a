"""MkDocs, run on a folder of rendered pages (the last step of every build)."""

from __future__ import annotations

import contextlib
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


def run_mkdocs(
    project: Project, docs: Path, site: Path, nav: list[dict[str, Any]], *, jobs: int = 1
) -> None:
    """MkDocs on pages already rendered (*docs*) with the project's ``mkdocs.yml`` and *nav*: the
    ``gpu-insights`` plugin only adds the site's settings. Pages are converted and written by
    *jobs* worker processes (the same bytes as MkDocs' own build)."""
    # imported here: MkDocs, its theme and the plugin cost ~0.15 s, which `check`, `data` and
    # `diff` never need
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    from generator.site import mkdocs_parallel
    from generator.site.plugin import apply_site_defaults, prerendered

    try:
        with prerendered():
            cfg = load_config(
                config_file=str(project.mkdocs_yml), docs_dir=str(docs), site_dir=str(site), nav=nav
            )
            if "gpu-insights" not in cfg.plugins:
                apply_site_defaults(cfg)
            cfg.plugins.on_startup(command="build", dirty=False)  # as `mkdocs build` does
            try:
                mkdocs_parallel.build(cfg, jobs=jobs)
            finally:
                cfg.plugins.on_shutdown()
    except MkDocsException as exc:
        raise BuildError(f"{project.mkdocs_yml}: MkDocs failed: {exc}") from None
