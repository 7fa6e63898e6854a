"""The .cache folder is not trusted: every entry is signed with a per-user key kept outside the
project; a planted or edited entry is ignored and rebuilt, never unpickled nor republished."""

from __future__ import annotations

import os
import pickle
import stat
from pathlib import Path

import pytest

from generator import signing
from generator.project import Project
from generator.site.build import build
from generator.site.cache import _read_pickle, _write_pickle
from generator.site.reuse import reuse_unchanged

from .conftest import TINY_ROWS, write_results
from .test_build import quiet, tiny_project


class _Planted:
    """What an attacker with write access to .cache/ would plant: unpickling it writes a file."""

    def __init__(self, proof: Path) -> None:
        self.proof = proof

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (str(self.proof), "w"))


@pytest.fixture()
def key_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "user-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home


def test_cache_the_signing_key_is_private_and_outside_the_project(key_home: Path, tmp_path: Path) -> None:
    key = signing.signing_key()
    path = key_home / "gpu-insights" / "cache-key"
    assert key is not None and len(key) == 32 and path.read_bytes() == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert signing.signing_key() == key  # made once, then reused


def test_cache_a_key_others_can_read_is_replaced(key_home: Path) -> None:
    path = key_home / "gpu-insights" / "cache-key"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"k" * 32)
    path.chmod(0o644)
    key = signing.signing_key()
    assert key is not None and key != b"k" * 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_cache_a_planted_pickle_is_never_unpickled(key_home: Path, tmp_path: Path) -> None:
    proof = tmp_path / "pwned"
    entry = tmp_path / ".cache" / "render" / "tiny.pickle"
    entry.parent.mkdir(parents=True)
    entry.write_bytes(pickle.dumps(_Planted(proof)))
    assert _read_pickle(entry) is None
    # a signed entry edited afterwards (the payload swapped, the signature kept) is refused too
    _write_pickle(entry, {"ok": 1})
    assert _read_pickle(entry) == {"ok": 1}
    blob = entry.read_bytes()
    entry.write_bytes(blob[: len(signing.MAGIC) + 32] + pickle.dumps(_Planted(proof)))
    assert _read_pickle(entry) is None
    assert not proof.exists()


def test_cache_planted_render_and_table_caches_are_rebuilt_not_run(key_home: Path, tmp_path: Path) -> None:
    project, site = _built(tmp_path)
    proof = tmp_path / "pwned"
    planted = pickle.dumps(_Planted(proof))
    cache = project.root / ".cache"
    targets = [*cache.glob("render/*.pickle"), *cache.glob("table/*.pickle"), *cache.glob("check/*.pickle")]
    assert targets
    for p in targets:
        p.write_bytes(planted)
    (project.content_dir / "tiny.md").write_text((project.content_dir / "tiny.md").read_text() + "\nMore.\n")
    _build(project, site)
    assert not proof.exists()
    assert "More." in (site / "tiny.html").read_text("utf-8")


def _built(tmp_path: Path) -> tuple[Project, Path]:
    """A tiny publication built on tiny results into tmp_path/site."""
    project = tiny_project(tmp_path)
    write_results(project.root / "results", TINY_ROWS)
    _build(project, tmp_path / "site")
    return project, tmp_path / "site"


def _build(project: Project, site: Path) -> None:
    build(project=project, results=project.root / "results", site_dir=site, log=quiet)


def _reused(project: Project, site: Path) -> bool:
    return reuse_unchanged(project, project.root / "results", site, strict=False, log=quiet) is not None


@pytest.mark.parametrize(
    "tamper",
    [
        lambda p: p.write_text(p.read_text("utf-8") + "\n<script>planted()</script>\n", "utf-8"),
        lambda p: p.write_bytes(p.read_bytes() + b"\xff\xfe not UTF-8\n"),
        lambda p: (p.parent / "planted.md").write_text("# Planted\n", "utf-8"),
        lambda p: (p.unlink(), p.symlink_to("/etc/passwd")),
    ],
    ids=["appended-text", "not-utf8", "added-page", "symlink"],
)
def test_cache_an_edited_page_bundle_is_not_republished(
    key_home: Path, tmp_path: Path, tamper: object
) -> None:
    project, site = _built(tmp_path)
    assert _reused(project, site)  # untouched, the kept pages are reused
    tamper(project.root / ".cache" / "docs" / "docs" / "index.md")  # type: ignore[operator]
    assert not _reused(project, site)
    _build(project, site)  # the full build replaces the bundle
    home = (site / "index.html").read_text("utf-8")
    assert "planted" not in home.lower() and "root:x:0" not in home
    assert not (site / "planted.html").exists()
    assert _reused(project, site)


def test_cache_a_bundle_signed_with_another_users_key_is_not_reused(
    key_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, site = _built(tmp_path)
    assert _reused(project, site)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "someone-else"))
    assert not _reused(project, site)


def test_cache_without_a_place_for_the_key_nothing_is_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert signing.signing_key() is None
    project, _ = _built(tmp_path)
    assert not list((project.root / ".cache").glob("render/*.pickle"))
    assert not (project.root / ".cache" / "docs").exists()
    assert (tmp_path / "site" / "tiny.html").is_file()
    assert os.listdir(tmp_path / "site")
