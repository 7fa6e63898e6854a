"""A rebuild whose inputs did not change reuses the pages the last build rendered.

Every successful build keeps its rendered Markdown (the folder MkDocs read), its navigation,
the files it adds to the site (``figures.json``, ``sources/``) and its compliance summary in
``.cache/docs/``, under a digest of everything the pages depend on: the generator's own files,
the installed MkDocs and theme, ``mkdocs.yml``, ``content/``, ``data/``, ``templates/``, every
file of the results folder, and the options of the build. When ``gpu-insights build`` finds
the same digest, it runs MkDocs on the kept pages into a new site and swaps it in as a full
build does, without loading the results, rendering or checking again (nothing they produce
could differ). ``--no-cache`` always builds from scratch.

``bundle.json`` is signed with the user's key (:mod:`generator.site.signing`) and records the
SHA-256 of every kept file: a bundle whose signature or any file does not match (an edited page,
a planted one, a byte that is not UTF-8) is not reused; the full build runs and replaces it.

This module imports neither pandas nor the renderer: a no-change rebuild costs MkDocs and
little more.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

from generator.project import PACKAGE_DIR, Project
from generator.signing import read_signed, write_signed
from generator.site.digest import hash_inputs, hash_tree
from generator.site.mkdocs_build import pinned_epoch, run_mkdocs
from generator.site.sitedir import SiteDir, guarded_folders

Log = Callable[[str], None]
FORMAT = 2


def inputs_digest(project: Project, results: Path | None, *, strict: bool) -> str:
    """A hash of everything a build's pages depend on."""
    h = hashlib.sha256(f"{FORMAT}|strict={strict}|results={results.resolve() if results else ''}".encode())
    for dist in ("mkdocs", "mkdocs-material", "markdown"):
        try:
            h.update(f"{dist}={metadata.version(dist)}".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{dist}=none".encode())
    hash_tree(h, PACKAGE_DIR, "package")
    hash_inputs(h, project.mkdocs_yml, "mkdocs.yml")
    for d in (project.content_dir, project.data_dir, project.templates_dir):
        if d.exists():
            hash_inputs(h, d, d.name)
    if results is not None and results.exists():
        hash_inputs(h, results, "results")
    return h.hexdigest()


def bundle_dir(cache_dir: Path) -> Path:
    return cache_dir / "docs"


def kept_files(root: Path) -> dict[str, str] | None:
    """SHA-256 of every file under *root* by relative path; None if anything there is not a
    plain file or folder (a link, a pipe) or cannot be read."""
    out: dict[str, str] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            p = Path(folder) / name
            try:
                mode = p.lstat().st_mode
                if stat.S_ISDIR(mode):
                    continue
                if not stat.S_ISREG(mode):
                    return None
                out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
            except OSError:
                return None
    return out


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
    files = kept_files(tmp)
    meta = {"digest": digest, "nav": nav, "epoch": epoch, "log": log, "files": files}
    shutil.rmtree(out, ignore_errors=True)
    if files is None or not write_signed(tmp / "bundle.json", json.dumps(meta, ensure_ascii=False).encode()):
        shutil.rmtree(tmp, ignore_errors=True)  # nothing to sign with: nothing is kept
        return
    tmp.rename(out)


def _meta(cache_dir: Path, digest: str) -> dict[str, Any] | None:
    """The kept bundle's metadata when it is for *digest*, signed with this user's key and
    every kept file is the one the build wrote; else None."""
    bundle = bundle_dir(cache_dir)
    payload = read_signed(bundle / "bundle.json")
    if payload is None:
        return None
    try:
        meta = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    if not isinstance(meta, dict) or meta.get("digest") != digest or not (bundle / "docs").is_dir():
        return None
    files = {k: v for k, v in (kept_files(bundle) or {}).items() if k != "bundle.json"}
    return meta if files and files == meta.get("files") else None


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
    cache = cache_dir or project.cache_dir
    digest = inputs_digest(project, results, strict=strict)
    meta = _meta(cache, digest)
    if meta is None:
        return None
    target = SiteDir(
        Path(site_dir) if site_dir else project.site_dir(), guarded_folders(project, results), log
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
