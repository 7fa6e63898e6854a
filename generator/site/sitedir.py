"""The site folder is ours or untouched.

A build writes into a temporary folder beside the site and, only when everything
succeeded, swaps it into place. :class:`SiteDir` makes that safe on a publisher's
machine:

- it refuses, before any work, a folder that is (or is inside, or holds) the
  project or one of its sources, a file, and any non-empty folder that does not
  carry :data:`MARKER` (the file every site we write carries);
- a lock file beside the site serialises concurrent builds;
- the swap is atomic where the kernel offers ``renameat2(RENAME_EXCHANGE)`` and two
  renames elsewhere; a build killed between them leaves the new site staged beside
  the old one, and the next build restores it;
- temporary folders (``.gpu-insights-<name>.tmp-*``) are removed on every exit path,
  and any left by a killed build are removed by the next one.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import json
import os
import secrets
import shutil
import signal
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from generator.errors import BuildError, GpuInsightsError
from generator.project import PACKAGE_DIR, Project

#: the file every site folder written by gpu-insights carries
MARKER = ".gpu-insights-site"
#: how the lock file and temporary folders beside a site begin (``.gpu-insights-<site>.lock``, ...)
SCRATCH_PREFIX = ".gpu-insights-"
#: test hook: ``staged``, ``between-renames`` or ``swapped`` kills the build there
FAILPOINT_ENV = "GPU_INSIGHTS_FAILPOINT"
#: test hook: use the portable two-rename swap even where the atomic exchange exists
NO_EXCHANGE_ENV = "GPU_INSIGHTS_NO_EXCHANGE"

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


@dataclass(frozen=True)
class Guarded:
    """A folder the site must never be, be inside of (unless *inside_ok*), or hold."""

    path: Path
    what: str
    inside_ok: bool = False

    def why_not(self, site: Path) -> str | None:
        """Why *site* (resolved) may not be the site folder, or None."""
        mine = self.path.resolve()
        if site == mine:
            return f"it is {self.what}"
        if not self.inside_ok and site.is_relative_to(mine):
            return f"it is inside {self.what} ({mine})"
        if mine.is_relative_to(site):
            return f"it holds {self.what} ({mine})"
        return None


def _failpoint(name: str) -> None:
    if os.environ.get(FAILPOINT_ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)


def _force_rmtree(path: Path) -> None:
    """Remove *path* even when the old site holds read-only files or folders."""

    def retry(func: Callable[..., object], p: str, _exc: object) -> None:
        parent = os.path.dirname(p)
        with contextlib.suppress(OSError):
            os.chmod(parent, os.stat(parent).st_mode | stat.S_IWUSR | stat.S_IXUSR)
            os.chmod(p, os.stat(p).st_mode | stat.S_IWUSR | stat.S_IRUSR | stat.S_IXUSR)
        if func in (os.rmdir, os.unlink, os.remove):
            func(p)
        else:  # os.scandir/open of an unreadable folder: it is now readable, start over there
            shutil.rmtree(p, onerror=retry)

    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.exists():
        shutil.rmtree(path, onerror=retry)


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths (Linux renameat2); False where the system cannot."""
    if os.environ.get(NO_EXCHANGE_ENV):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return False
    rc = fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if rc == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(b))


class SiteDir:
    """The folder a build publishes into, guarded, locked and swapped whole."""

    def __init__(self, given: Path, guarded: list[Guarded], log: Callable[[str], None]) -> None:
        self.given = given
        self.path = given.resolve()
        self.guarded = guarded
        self.log = log
        self.prefix = f"{SCRATCH_PREFIX}{self.path.name}"
        self.lock_path = self.path.parent / f"{self.prefix}.lock"

    def write_error(self, exc: OSError) -> BuildError:
        """The error of a failed write, naming the place that could not be written (a failed
        copy names its source first, the destination second)."""
        dest = getattr(exc, "filename2", None) or exc.filename
        where = f" ({dest})" if dest else ""
        return BuildError(f"could not write the site: {exc.strerror or exc}{where}; {self.path} is unchanged")

    def refuse(self, why: str) -> BuildError:
        return BuildError(f"refusing to write the site into {self.given}: {why}; nothing was changed")

    def validate(self) -> None:
        """Refuse, before any work, every folder a build must not replace."""
        if self.path.name.startswith(SCRATCH_PREFIX):
            raise self.refuse(
                f"its name is one of the build's own temporary folders and lock files "
                f"({SCRATCH_PREFIX}*), which a build removes; choose another name"
            )
        for g in self.guarded:
            why = g.why_not(self.path)
            if why:
                raise self.refuse(why)
        if self.path.exists() and not self.path.is_dir():
            raise self.refuse("it is a file, not a folder")
        if not self.path.is_dir() or not any(self.path.iterdir()):
            return
        if not (self.path / MARKER).is_file():
            raise self.refuse(
                f"it is not empty and was not written by gpu-insights (it has no {MARKER} file); "
                "choose a new or empty folder, or empty this one yourself"
            )
        added = not_written(self.path)
        if added:
            shown = ", ".join(added[:5]) + (f" and {len(added) - 5} more" if len(added) > 5 else "")
            raise self.refuse(
                f"it holds what gpu-insights did not write there ({shown}), which replacing it "
                "would delete; move that out of it, or choose another site folder"
            )

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the lock file beside the site (every build takes it: ``gpu-insights build``, and the
        plugin under ``mkdocs build``); it is removed again on every exit."""
        while True:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
            except OSError as exc:
                raise self.write_error(exc) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
                os.close(fd)
                raise BuildError(
                    f"another gpu-insights build is writing {self.path} (process {holder} holds "
                    f"{self.lock_path}); wait for it to finish"
                ) from None
            # the build that held it may have removed the file since we opened it: lock the one in place
            try:
                current = os.stat(self.lock_path, follow_symlinks=False).st_ino
            except FileNotFoundError:
                current = None
            if current == os.fstat(fd).st_ino:
                break
            os.close(fd)
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            yield
        finally:
            with contextlib.suppress(OSError):
                self.lock_path.unlink()  # while still holding it (see the inode check above)
            os.close(fd)

    def _leftovers(self) -> list[Path]:
        return sorted(self.path.parent.glob(f"{self.prefix}.tmp-*"))

    def _remove(self, path: Path) -> None:
        """Remove a temporary folder; one that cannot be removed is a warning, not a failed build."""
        try:
            _force_rmtree(path)
        except OSError as exc:
            what = f" ({exc.filename})" if exc.filename and exc.filename != str(path) else ""
            self.log(
                f"warning: could not remove {path}: {exc.strerror or exc}{what}; the site is fine, "
                "remove that folder yourself (a file marked immutable needs `chattr -i FILE` first)"
            )

    def recover(self) -> None:
        """Finish a swap a killed build left half done, and remove its temporary folders."""
        left = self._leftovers()
        if not self.path.exists():
            staged = [p for p in left if p.name.endswith(("-new", "-old")) and (p / MARKER).is_file()]
            staged.sort(key=lambda p: (p.name.endswith("-new"), p.stat().st_mtime))
            if staged:
                staged[-1].rename(self.path)
                self.log(f"restored {self.path} left by an interrupted build")
                left.remove(staged[-1])
        for p in left:
            self._remove(p)

    @contextlib.contextmanager
    def publish(self) -> Iterator[Path]:
        """Yield a work folder; its ``site/`` replaces the site when the block succeeds."""
        self.validate()
        with self.locked():
            work = self.path.parent / f"{self.prefix}.tmp-{secrets.token_hex(4)}"
            try:
                self.recover()
                work.mkdir()
                yield work
                self._swap_in(work)
            except GpuInsightsError:
                raise
            except OSError as exc:
                raise self.write_error(exc) from None
            finally:
                for p in self._leftovers():
                    self._remove(p)

    def _swap_in(self, work: Path) -> None:
        new_site = work / "site"
        mark_site(new_site)
        staged = work.with_name(work.name + "-new")
        new_site.rename(staged)
        _failpoint("staged")
        if not self.path.exists():
            staged.rename(self.path)
            return
        if _exchange(staged, self.path):
            _failpoint("between-renames")
            _failpoint("swapped")
            return
        old = staged.with_name(staged.name + "-old")
        self.path.rename(old)
        _failpoint("between-renames")
        staged.rename(self.path)
        _failpoint("swapped")


#: the marker's text, then one line per file the build wrote (JSON strings: any name fits a line)
MARKER_TEXT = (
    "This folder was written by gpu-insights; every build replaces it whole, and refuses to when it\n"
    "holds anything but the files below (what you add here would otherwise be deleted).\n"
)


def mark_site(site: Path) -> None:
    """Mark *site* as written by gpu-insights, listing every file in it now: the next build may
    replace it, unless it then holds anything else (:func:`not_written`)."""
    listed = "".join(json.dumps(name) + "\n" for name in _entries(site) if name != MARKER)
    (site / MARKER).write_text(MARKER_TEXT + listed, encoding="utf-8")


def not_written(site: Path) -> list[str]:
    """What in the marked *site* its marker does not list, each by the outermost folder the build
    wrote nothing in (``.git``, not each file in it; ``assets/mine.css`` in the build's own
    ``assets``); a marker of a version that listed nothing: only a git repository (a deployed
    branch's checkout, say)."""
    listed = _listed(site / MARKER)
    if listed is None:
        return [".git"] if os.path.lexists(site / ".git") else []
    listed.add(MARKER)
    folders = {name.rsplit("/", i)[0] for name in listed for i in range(1, name.count("/") + 1)}
    extra = (name for name in _entries(site) if name not in listed and name not in folders)
    return sorted({_outermost_new(name, folders) for name in extra})


def _outermost_new(name: str, folders: set[str]) -> str:
    """The outermost folder on *name*'s path that the build wrote nothing in, else *name*
    (a folder of the build's that the build left empty is its own: never asked about)."""
    parts = name.split("/")
    for i in range(1, len(parts)):
        if "/".join(parts[:i]) not in folders:
            return "/".join(parts[:i])
    return name


def _entries(site: Path) -> list[str]:
    """Every file, link and empty folder under *site*, by its path there ('/'-separated)."""
    out = []

    def unreadable(exc: OSError) -> None:  # a folder that cannot be listed is not the build's
        if exc.filename and Path(exc.filename) != site:
            out.append(Path(exc.filename).relative_to(site).as_posix())

    for top, dirs, files in os.walk(site, onerror=unreadable):
        here = Path(top).relative_to(site).as_posix()
        prefix = "" if here == "." else here + "/"
        links = [d for d in dirs if os.path.islink(os.path.join(top, d))]  # not walked into
        dirs[:] = sorted(d for d in dirs if d not in links)
        out += [prefix + name for name in sorted(files + links)]
        if not files and not links and not dirs and prefix:
            out.append(prefix.rstrip("/"))
    return out


def _listed(marker: Path) -> set[str] | None:
    """The files a marker lists; None for a marker that lists none (written before they were)."""
    try:
        lines = marker.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    names = set()
    for line in lines:
        if line.startswith('"'):
            with contextlib.suppress(ValueError):
                names.add(str(json.loads(line)))
    return names if names else None


def guarded_folders(project: Project, results: Path | None) -> list[Guarded]:
    """Folders a site folder must never be, be inside of, or hold."""
    out = [
        Guarded(project.root, "the project folder", inside_ok=True),
        Guarded(project.content_dir, "the project's content folder"),
        Guarded(project.data_dir, "the project's data folder"),
        Guarded(project.templates_dir, "the project's templates folder"),
        Guarded(project.root / "docs", "the project's docs folder"),
        Guarded(project.root / ".git", "the project's git repository"),
        # the caches, and MkDocs' pages under `mkdocs build` (.cache/mkdocs-docs), which MkDocs
        # would empty with the site folder: a site there had no index and no articles
        Guarded(project.cache_dir, "the build's cache folder"),
        Guarded(PACKAGE_DIR, "the gpu-insights package"),
    ]
    if results is not None:
        out.append(Guarded(results, "the results folder"))
    return out
