"""Where a publication's pieces live.

A project is the folder that holds ``mkdocs.yml``: found from the current folder
upwards (as ``git`` finds its repository), or named with ``-f/--config``. It is
never the place gpu-insights is installed in.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from generator.errors import BuildError, GpuInsightsError

if TYPE_CHECKING:  # the audit's module is imported where an audit runs (see Project.audit)
    from generator.audit import Report


class _ConfigLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """YAML of a ``mkdocs.yml`` without importing MkDocs (a quarter of a second, which ``check``
    never needs): ``!ENV`` is read as MkDocs reads it, any other tag (``!!python/name:``) as null.
    Safe, and parsed by libyaml where PyYAML has it (a tenth of the time; a build reads the file
    five times)."""


def _env(loader: yaml.SafeLoader, node: yaml.Node) -> object:
    if isinstance(node, yaml.SequenceNode):
        names = loader.construct_sequence(node)
    else:
        names = [loader.construct_scalar(node)]  # type: ignore[arg-type]
    *variables, default = names if len(names) > 1 else [*names, None]
    return next((os.environ[str(v)] for v in variables if str(v) in os.environ), default)


_ConfigLoader.add_constructor("!ENV", _env)
_ConfigLoader.add_multi_constructor("", lambda loader, suffix, node: None)


def read_mkdocs_yml(path: Path) -> dict[str, object]:
    """The settings of a ``mkdocs.yml`` (empty when it cannot be read: MkDocs reports that itself)."""
    try:
        with path.open("rb") as fh:
            cfg = yaml.load(fh, Loader=_ConfigLoader)  # a safe loader, with !ENV
    except (OSError, yaml.YAMLError, ValueError, RecursionError):
        return {}
    return cfg if isinstance(cfg, dict) else {}


#: the installed ``generator`` package
PACKAGE_DIR = Path(__file__).resolve().parent
#: the defaults every publication starts from (accelerator families, benchmark rules, rounds,
#: checker settings, the embedded sample); a publication's ``data/`` overrides them file by file
DEFAULTS_DIR = PACKAGE_DIR / "defaults"
#: the theme overrides every publication gets (a publication's ``templates/`` comes first)
THEME_DIR = PACKAGE_DIR / "theme"
#: what ``gpu-insights init`` writes into a new publication
SCAFFOLD_DIR = PACKAGE_DIR / "scaffold"
CONFIG_NAME = "mkdocs.yml"
#: the data files a publication may override
DATA_FILES = (
    "rounds.toml",
    "accelerators.toml",
    "benchmarks.toml",
    "submitters.toml",
    "compatibility.toml",
    "prices.toml",
    "check.toml",
)
#: the largest article file read (as large as the render output limit, ``Limits.output_bytes``)
MAX_ARTICLE_BYTES = 5_000_000


def data_file(data_dir: Path | None, name: str) -> Path:
    """*name* in the publication's *data_dir* when it has one, else the packaged default.

    >>> data_file(None, "accelerators.toml") == DEFAULTS_DIR / "accelerators.toml"
    True
    """
    if data_dir is not None and (Path(data_dir) / name).exists():
        return Path(data_dir) / name
    return DEFAULTS_DIR / name


@dataclass
class Project:
    """A publication: ``mkdocs.yml`` with ``content/``, ``data/`` and ``templates/`` beside it."""

    root: Path

    @classmethod
    def discover(cls, start: Path | None = None, config: Path | None = None) -> Project:
        """The project of *config*, or of the nearest ``mkdocs.yml`` at or above *start* (default: cwd)."""
        if config is not None:
            if not config.is_file():
                raise GpuInsightsError(f"{config}: no such configuration file")
            return cls(config.resolve().parent)
        here = (start or Path.cwd()).resolve()
        for d in (here, *here.parents):
            if (d / CONFIG_NAME).is_file():
                return cls(d)
        raise GpuInsightsError(
            f"{here}: no {CONFIG_NAME} here or in any parent folder; run the command inside a "
            f"publication, pass -f PATH/{CONFIG_NAME}, or create one with `gpu-insights init DIR`"
        )

    @property
    def content_dir(self) -> Path:
        return self.root / "content"

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    @property
    def cache_dir(self) -> Path:
        """The publication's own caches, ``.cache/`` (render/, table/, check/, docs/, svg/...):
        each safe to delete."""
        return self.root / ".cache"

    @property
    def sample_dir(self) -> Path:
        """The publication's ``data/sample/``, else the packaged sample."""
        return data_file(self.data_dir, "sample")

    def data_file(self, name: str) -> Path:
        """A data file of this publication, or the packaged default it does not override."""
        return data_file(self.data_dir, name)

    def audit(self, site: Path, results: Path | None) -> Report:
        """The independent audit (:mod:`generator.audit`) of the figures *site* prints, against the
        official files in *results* (else the embedded sample) and this publication's data files.
        Raises ``audit.AuditError`` when the site or a file cannot be read."""
        from generator import audit  # 44 ms of imports: only `build` and `audit` need them (start-up)

        files = {name: self.data_file(name) for name in audit.DATA_NAMES}
        return audit.audit_site(site, results if results is not None else self.sample_dir, files)

    @property
    def mkdocs_yml(self) -> Path:
        return self.root / CONFIG_NAME

    @property
    def templates_dir(self) -> Path:
        return self.root / "templates"

    def articles(self) -> list[Path]:
        """``content/*.md`` (hidden files left out), each a bounded regular file of the project
        (:func:`check_article_file`); an article the build would leave out unseen (in a
        sub-folder, ending in ``.MD``) is an error."""
        content = self.content_dir
        if not content.is_dir():
            raise BuildError(f"{content}: no content folder (article templates go there)")
        paths: list[Path] = []
        for p in sorted(content.iterdir()):
            if p.name.startswith("."):
                continue
            if p.is_dir():
                nested = markdown_under(p)
                if nested:
                    raise BuildError(
                        f"{nested[0]}: articles in sub-folders of {content} are not built; move it "
                        f"into {content} (or out of it)"
                    )
            elif p.suffix.lower() == ".md" and p.suffix != ".md":
                raise BuildError(f"{p}: article files end in '.md' (lower case); rename it to {p.stem}.md")
            elif p.suffix == ".md":
                paths.append(p)
        for p in paths:
            check_article_file(p, self)
        return paths

    def site_dir(self) -> Path:
        """Where the site goes: ``site_dir`` of ``mkdocs.yml`` (relative to it), else ``site/``."""
        value = read_mkdocs_yml(self.mkdocs_yml).get("site_dir")  # MkDocs reports a broken file
        return self.root / value if isinstance(value, str) and value.strip() else self.root / "site"

    def clone(self, dest: Path, *, content: Path | None = None, sample: bool = False) -> Project:
        """Copy this project's configuration, data and articles to *dest* (for tests and benchmarks)."""
        ignore = None if sample else shutil.ignore_patterns("sample")
        shutil.copytree(self.data_dir, dest / "data", ignore=ignore)
        shutil.copytree(content or self.content_dir, dest / "content")
        if self.templates_dir.is_dir():
            shutil.copytree(self.templates_dir, dest / "templates")
        shutil.copy(self.mkdocs_yml, dest / "mkdocs.yml")
        if (self.root / ".gitignore").is_file():
            shutil.copy(self.root / ".gitignore", dest / ".gitignore")
        return Project(dest)


def markdown_under(folder: Path) -> list[Path]:
    """Markdown files under *folder*, sorted; hidden folders and files left out, links to
    folders not followed."""
    found: list[Path] = []
    for d, dirs, files in os.walk(folder):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        found += [Path(d) / f for f in files if f.lower().endswith(".md") and not f.startswith(".")]
    return sorted(found)


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def file_problem(st: os.stat_result) -> str | None:
    """Why a file of status *st* cannot be an article: not a regular file, or too large."""
    if not stat.S_ISREG(st.st_mode):
        kind = next((what for test, what in _KINDS if test(st.st_mode)), "not a file")
        return f"not a regular file ({kind}); an article is a Markdown file"
    if st.st_size > MAX_ARTICLE_BYTES:
        return f"{st.st_size:,} bytes, over the {MAX_ARTICLE_BYTES:,}-byte limit of an article"
    return None


def source_problem(path: Path) -> str | None:
    """Why *path* (followed if a link) cannot be an article; None when it can be read."""
    try:
        return file_problem(path.stat())
    except OSError as exc:
        return f"cannot read it: {exc.strerror or exc}"


def check_article_file(path: Path, project: Project | None = None) -> None:
    """Refuse an article file that is not a bounded regular file or, for a publication's own
    articles (*project* given), whose real path is outside the project (a link publishing
    ``/etc/passwd``)."""
    if project is not None:
        real = path.resolve()
        if not real.is_relative_to(project.root.resolve()):
            raise BuildError(
                f"{path}: a link to {real}, outside the project; an article must be a file of the "
                "publication (copy it into the project instead)"
            )
    problem = source_problem(path)
    if problem:
        raise BuildError(f"{path}: {problem}")


def _sources(project: Project | None, *, content: bool) -> list[tuple[Path, str]]:
    """The places an output file must never land in: a project's sources, the package."""
    out = [(PACKAGE_DIR, "the gpu-insights package")]
    if project is not None:
        out += [
            (project.mkdocs_yml, "the project's configuration"),
            (project.data_dir, "the project's data folder"),
            (project.templates_dir, "the project's templates folder"),
            (project.root / "docs", "the project's docs folder"),
        ]
        if content:
            out.append((project.content_dir, "the project's content folder"))
    return out


def check_output(
    path: Path, *, force: bool, project: Project | None, content_ok: bool = False, new_folder_ok: bool = False
) -> None:
    """Refuse a file a command was asked to write (``diff --markdown``, ``new --output``) where
    writing it would destroy something: inside a ``.git`` folder or the project's sources (its
    articles too unless *content_ok*), a folder, a device or pipe, an existing file without
    *force*, or (unless *new_folder_ok*) a file whose folder does not exist."""
    real = path.resolve()
    if ".git" in real.parts:
        raise GpuInsightsError(f"refusing to write {path}: it is inside a git repository's .git folder")
    for place, what in _sources(project, content=not content_ok):
        mine = place.resolve()
        if real == mine or real.is_relative_to(mine):
            where = "it is" if real == mine else "it is inside"
            raise GpuInsightsError(f"refusing to write {path}: {where} {what} ({mine})")
    if path.is_dir():
        raise GpuInsightsError(f"{path}: is a folder; give the name of a file to write")
    if path.exists() and not path.is_file():
        raise GpuInsightsError(f"{path}: is not a regular file (a device or a pipe); refusing to write it")
    if path.exists() and not force:
        raise GpuInsightsError(f"{path}: already exists; pass --force to overwrite it")
    if not new_folder_ok and not path.parent.is_dir():
        raise GpuInsightsError(f"{path}: the folder {path.parent} does not exist")


def write_output(path: Path, text: str) -> None:
    """Write a file :func:`check_output` accepted (its folder made when missing)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename and exc.filename != str(path) else ""
        raise GpuInsightsError(f"{path}: cannot write it: {exc.strerror or exc}{where}") from None


def init_publication(dest: Path) -> list[Path]:
    """Write a new publication into *dest*: ``mkdocs.yml``, a starter article, ``data/`` and
    ``templates/`` (its theme overrides, ``theme.custom_dir``), each with a README, and a CI
    workflow (``.github/workflows/gpu-insights.yml``: fetch, check with SARIF, build).

    It builds on the packaged sample at once (``gpu-insights build`` or ``mkdocs build``).
    Refuses to overwrite: every file it would write must be absent; and to write through a
    symbolic link inside *dest* (a link ``mkdocs.yml``, even dangling, or ``content`` to another
    folder would put the files elsewhere).
    """
    files = sorted(p for p in SCAFFOLD_DIR.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    targets = [dest / _scaffold_name(p.relative_to(SCAFFOLD_DIR)) for p in files]
    _refuse_links(dest, targets)
    taken = [t for t in targets if os.path.lexists(t)]
    if taken:
        raise GpuInsightsError(
            f"{dest}: already holds {', '.join(str(t.relative_to(dest)) for t in taken)}; "
            "gpu-insights init writes a new publication into an empty folder"
        )
    made: list[Path] = []  # what this call created, removed again if a later step fails
    try:
        for src, t in zip(files, targets, strict=True):
            missing = [d for d in (t.parent, *t.parent.parents) if not d.exists()]
            t.parent.mkdir(parents=True, exist_ok=True)
            made.extend(reversed(missing))
            _write_new(t, src.read_bytes())
            made.append(t)
    except OSError as exc:
        for p in reversed(made):
            with contextlib.suppress(OSError):
                p.rmdir() if p.is_dir() else p.unlink()
        where = f" ({exc.filename})" if exc.filename and exc.filename != str(dest) else ""
        raise GpuInsightsError(
            f"{dest}: cannot write a publication there: {exc.strerror or exc}{where}; nothing was written"
        ) from None
    return targets


def _refuse_links(dest: Path, targets: list[Path]) -> None:
    """Refuse when a file *init* would write, or a folder on its way below *dest*, is a symbolic link."""
    below = sorted({q for t in targets for q in (t, *t.parents) if q != dest and q.is_relative_to(dest)})
    for q in below:
        if q.is_symlink():
            raise GpuInsightsError(
                f"{dest}: {q.relative_to(dest)} is a symbolic link (to {os.readlink(q)}); gpu-insights init "
                "writes only into the new publication's folder, never through a link: remove the link "
                "or choose another folder; nothing was written"
            )


def _write_new(path: Path, data: bytes) -> None:
    """Create *path* with *data*: never an existing file, never through a link (made meanwhile)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def _scaffold_name(rel: Path) -> Path:
    """Scaffold files and folders are stored with a ``dot-`` prefix where the real name starts
    with a dot (``dot-github/workflows/`` is ``.github/workflows/``)."""
    return Path(*("." + part[4:] if part.startswith("dot-") else part for part in rel.parts))
