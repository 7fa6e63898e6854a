"""Where a publication's pieces live.

A project is the folder that holds ``mkdocs.yml``: found from the current folder
upwards (as ``git`` finds its repository), or named with ``-f/--config``. It is
never the place gpu-insights is installed in.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from generator.errors import GpuInsightsError

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
    "prices.toml",
    "check.toml",
)


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
    def sample_dir(self) -> Path:
        """The publication's ``data/sample/``, else the packaged sample."""
        return data_file(self.data_dir, "sample")

    def data_file(self, name: str) -> Path:
        """A data file of this publication, or the packaged default it does not override."""
        return data_file(self.data_dir, name)

    @property
    def mkdocs_yml(self) -> Path:
        return self.root / CONFIG_NAME

    @property
    def templates_dir(self) -> Path:
        return self.root / "templates"

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


def init_publication(dest: Path) -> list[Path]:
    """Write a new publication into *dest*: ``mkdocs.yml``, a starter article, ``data/``.

    It builds on the packaged sample at once (``gpu-insights build`` or ``mkdocs build``).
    Refuses to overwrite: every file it would write must be absent.
    """
    files = sorted(p for p in SCAFFOLD_DIR.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    targets = [dest / _scaffold_name(p.relative_to(SCAFFOLD_DIR)) for p in files]
    taken = [t for t in targets if t.exists()]
    if taken:
        raise GpuInsightsError(
            f"{dest}: already holds {', '.join(str(t.relative_to(dest)) for t in taken)}; "
            "gpu-insights init writes a new publication into an empty folder"
        )
    for src, t in zip(files, targets, strict=True):
        t.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, t)
    return targets


def _scaffold_name(rel: Path) -> Path:
    """Scaffold files are stored with a ``dot-`` prefix where the real name starts with a dot."""
    return rel.with_name("." + rel.name[4:]) if rel.name.startswith("dot-") else rel
