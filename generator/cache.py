"""Incremental rebuilds: reuse an article's rendering when none of its inputs changed.

An article's inputs are its template, the project's code and data files, and the
result rows of every (round, benchmark) its placeholders queried. The cache keeps,
per article, a key of the first three and a content hash of those rows; both must
match for the stored rendering to be reused. The cache folder is safe to delete.
"""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import dataclass
from pathlib import Path

from . import __version__
from .render import Article, Rendered, Renderer
from .table import ResultsTable

CODE_DIR = Path(__file__).resolve().parent


def code_version() -> str:
    """A hash of the generator's own source: any code change invalidates every entry."""
    h = hashlib.sha256(__version__.encode())
    for p in sorted(CODE_DIR.glob("*.py")):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def files_digest(paths: list[Path]) -> str:
    h = hashlib.sha256()
    for p in sorted(paths):
        if p.is_file():
            h.update(p.name.encode())
            h.update(p.read_bytes())
    return h.hexdigest()


@dataclass
class Entry:
    key: str
    deps: dict[str, str]
    rendered: Rendered


class RenderCache:
    """Pickled renderings under ``<dir>/<slug>.pickle``."""

    def __init__(self, directory: Path, static_key: str) -> None:
        self.dir = directory
        self.static_key = static_key
        self.hits = 0
        self.misses = 0

    def _key(self, article: Article, table: ResultsTable) -> str:
        h = hashlib.sha256(self.static_key.encode())
        h.update(",".join(table.rounds).encode())  # which rounds exist decides what can be built
        h.update(str(article.path).encode())
        h.update(article.path.read_bytes())
        return h.hexdigest()

    def render(self, renderer: Renderer, article: Article) -> tuple[Rendered, bool]:
        """Render *article*, or reuse the cached rendering; returns (rendered, from_cache)."""
        table: ResultsTable = renderer.lib.table
        key = self._key(article, table)
        path = self.dir / f"{article.slug}.pickle"
        entry = self._load(path)
        if entry is not None and entry.key == key and table.fingerprint(_keys(entry.deps)) == entry.deps:
            self.hits += 1
            return entry.rendered, True
        table.touched = set()
        try:
            rendered = renderer.render(article)
            deps = table.fingerprint(table.touched)
        finally:
            table.touched = None
        self.misses += 1
        if rendered.missing:
            return rendered, False
        self.dir.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(pickle.dumps(Entry(key, deps, rendered), protocol=pickle.HIGHEST_PROTOCOL))
        tmp.replace(path)
        return rendered, False

    @staticmethod
    def _load(path: Path) -> Entry | None:
        try:
            entry = pickle.loads(path.read_bytes())
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError):
            return None
        return entry if isinstance(entry, Entry) else None


def _keys(deps: dict[str, str]) -> set[tuple[str, str]]:
    out = set()
    for k in deps:
        rnd, _, bench = k.partition("|")
        out.add((rnd, bench))
    return out
