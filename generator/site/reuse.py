"""A rebuild whose inputs did not change reuses the pages the last build rendered.

Every successful build keeps its rendered Markdown (the folder MkDocs read), its navigation,
the files it adds to the site (``figures.json``, ``sources/``) and its compliance summary in
``.cache/docs/``, under a digest of everything the pages depend on: the generator's own files,
the installed MkDocs and theme, ``mkdocs.yml``, ``content/``, ``data/``, ``templates/``, every
file of the results folder, and the options of the build. When ``gpu-insights build`` finds
the same digest, it runs MkDocs on the kept pages into a new site and swaps it in as a full
build does, without loading the results, rendering or checking again (nothing they produce
could differ). ``--no-cache`` always builds from scratch.

This module imports neither pandas nor the renderer: a no-change rebuild costs MkDocs and
little more.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

from generator.project import PACKAGE_DIR, Project
from generator.site.digest import hash_tree
from generator.site.mkdocs_build import pinned_epoch, run_mkdocs
from generator.site.sitedir import SiteDir, guarded_folders

Log = Callable[[str], None]
FORMAT = 1


def inputs_digest(project: Project, results: Path | None, *, strict: bool) -> str:
    """A hash of everything a build's pages depend on."""
    h = hashlib.sha256(f"{FORMAT}|strict={strict}|results={results.resolve() if results else ''}".encode())
    for dist in ("mkdocs", "mkdocs-material", "markdown"):
        try:
            h.update(f"{dist}={metadata.version(dist)}".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{dist}=none".encode())
    hash_tree(h, PACKAGE_DIR, "package")
    hash_tree(h, project.mkdocs_yml, "mkdocs.yml")
    for d in (project.content_dir, project.data_dir, project.templates_dir):
        if d.exists():
            hash_tree(h, d, d.name)
    if results is not None and results.exists():
        hash_tree(h, results, "results")
    return h.hexdigest()


def bundle_dir(cache_dir: Path) -> Path:
    return cache_dir / "docs"


def save(
    cache_dir: Path,
    digest: str,
    docs: Path,
    site: Path,
    nav: list[dict[str, Any]],
    epoch: int,
    log: list[str],
) -> None:
    """Keep a successful build's pages, for the next build with the same inputs."""
    out = bundle_dir(cache_dir)
    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(docs, tmp / "docs")
    (tmp / "extra").mkdir()
    shutil.copytree(site / "sources", tmp / "extra" / "sources")
    shutil.copy2(site / "figures.json", tmp / "extra" / "figures.json")
    meta = {"digest": digest, "nav": nav, "epoch": epoch, "log": log}
    (tmp / "bundle.json").write_text(json.dumps(meta, ensure_ascii=False), "utf-8")
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)


def _meta(cache_dir: Path, digest: str) -> dict[str, Any] | None:
    try:
        meta = json.loads((bundle_dir(cache_dir) / "bundle.json").read_text("utf-8"))
    except (OSError, ValueError):
        return None
    ok = isinstance(meta, dict) and meta.get("digest") == digest and (bundle_dir(cache_dir) / "docs").is_dir()
    return meta if ok else None


def reuse_unchanged(
    project: Project,
    results: Path | None,
    site_dir: Path | None,
    *,
    strict: bool,
    log: Log,
    cache_dir: Path | None = None,
    jobs: int = 1,
) -> Path | None:
    """Rebuild the site from the last build's pages when no input changed; None when one did."""
    cache = cache_dir or project.root / ".cache"
    digest = inputs_digest(project, results, strict=strict)
    meta = _meta(cache, digest)
    if meta is None:
        return None
    target = SiteDir(
        Path(site_dir) if site_dir else project.root / "site", guarded_folders(project, results), log
    )
    bundle = bundle_dir(cache)
    with target.publish() as work:
        with pinned_epoch(int(meta["epoch"])):
            run_mkdocs(project, bundle / "docs", work / "site", meta["nav"], jobs=jobs)
        shutil.copytree(bundle / "extra", work / "site", dirs_exist_ok=True)
    for line in meta["log"]:
        log(line)
    log(
        f"nothing changed since the last build: its rendered pages were reused; site written to {target.path}"
    )
    return target.path
