"""Incremental rebuilds: reuse an article's rendering when none of its inputs changed.

An article's inputs are its template, the project's code and data files, and the
result rows of every (round, benchmark) its placeholders queried. The cache keeps,
per article, a key of the first three and a content hash of those rows; both must
match for the stored rendering to be reused. The cache folder is safe to delete.

Every entry is signed (:mod:`generator.site.signing`): a pickle whose MAC does not verify with
the user's key is ignored and rebuilt, never unpickled.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import pickle
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator import __version__
from generator.signing import read_signed, user_cache_dir, write_signed
from generator.site.digest import hash_file, hash_inputs

if TYPE_CHECKING:  # standard library only at run time: a check whose output is kept imports no more
    from generator.article.render import Rendered, Renderer
    from generator.check.vocabulary import Mentions
    from generator.data.rowquery import RowQueries
    from generator.data.table import ResultsTable

CODE_DIR = Path(__file__).resolve().parents[1]


@functools.cache
def code_version() -> str:
    """A hash of the generator's own source: any code change invalidates every entry."""
    h = hashlib.sha256(__version__.encode())
    for p in sorted(CODE_DIR.rglob("*.py")):
        h.update(str(p.relative_to(CODE_DIR)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def files_digest(paths: list[Path]) -> str:
    h = hashlib.sha256()
    for p in sorted(paths):
        if p.is_file():
            hash_file(h, p, p.name)
    return h.hexdigest()


@dataclass
class Entry:
    key: str
    deps: dict[str, str]
    #: the pickled rendering, unpickled only when the key and the rows match: an edited
    #: article's stale rendering (a quarter of a megabyte for the reference article) is never
    #: rebuilt into objects only to be thrown away
    rendered: bytes


class RenderCache:
    """Pickled renderings under ``<dir>/<slug>.pickle``."""

    def __init__(self, directory: Path, static_key: str) -> None:
        self.dir = directory
        self.static_key = static_key
        self.hits = 0
        self.misses = 0

    def _key(self, path: Path, table: RowQueries) -> str:
        h = hashlib.sha256(self.static_key.encode())
        h.update(",".join(table.rounds).encode())  # which rounds exist decides what can be built
        h.update(str(path).encode())
        h.update(path.read_bytes())
        return h.hexdigest()

    def lookup(self, path: Path, renderer: Renderer) -> Rendered | None:
        """The stored rendering of *path*, if its template, code, data and queried rows are unchanged."""
        table: RowQueries = renderer.lib.table
        entry = _read_pickle(self.dir / f"{path.stem}.pickle")
        entry = entry if isinstance(entry, Entry) and isinstance(entry.rendered, bytes) else None
        try:
            key = self._key(path, table)
        except OSError:
            return None
        if entry is not None and entry.key == key and table.fingerprint(_keys(entry.deps)) == entry.deps:
            rendered = _rendering(entry.rendered)
            if rendered is not None:
                self.hits += 1
                return rendered
        self.misses += 1
        return None

    def store(self, path: Path, renderer: Renderer, rendered: Rendered, deps: dict[str, str]) -> None:
        blob = pickle.dumps(rendered, protocol=pickle.HIGHEST_PROTOCOL)
        _write_pickle(
            self.dir / f"{path.stem}.pickle", Entry(self._key(path, renderer.lib.table), deps, blob)
        )


def _rendering(blob: bytes) -> Rendered | None:
    """The rendering pickled in a verified entry (see :func:`_read_pickle`); None if it does not load."""
    # imported here: the module stays standard-library-only for a check whose output is kept
    from generator.article.render import Rendered

    try:
        rendered = pickle.loads(blob)  # noqa: S301 - inside an entry signed with this user's key
    except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        return None
    return rendered if isinstance(rendered, Rendered) else None


def _keys(deps: dict[str, str]) -> set[tuple[str, str]]:
    out = set()
    for k in deps:
        rnd, _, bench = k.partition("|")
        out.add((rnd, bench))
    return out


def _read_pickle(path: Path) -> Any:
    """The value kept at *path*, only when its signature verifies (else None: rebuilt)."""
    payload = read_signed(path)
    if payload is None:
        return None
    try:
        return pickle.loads(payload)  # noqa: S301 - signed with this user's key, see signing.py
    except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        return None


def _write_pickle(path: Path, value: object) -> None:
    write_signed(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def results_digest(results_dir: Path, data_dir: Path) -> str:
    """A hash of everything a loaded table depends on: the results folder (its real path: the
    table names the files it read) and every file in it (names and contents), the project's
    data files and the generator's code."""
    h = hashlib.sha256(code_version().encode())
    h.update(f"{results_dir.resolve()}\0".encode())
    h.update(files_digest(list(data_dir.glob("*.toml"))).encode())
    hash_inputs(h, results_dir, "results")
    return h.hexdigest()


#: tables a publication's cache keeps: one per results folder it is built or checked with (the
#: official results, the embedded sample, another download), the least recently used removed
#: beyond this many. It kept one, so a check with the sample threw away the official results'
#: table and the next check of an article loaded them again (0.4 s, and pandas in workers).
KEEP_TABLES = 4


def cached_table(cache_dir: Path | None, digest: str, load: Callable[[], ResultsTable]) -> ResultsTable:
    """The table of *digest* from ``<cache_dir>/table-<digest>.pickle``, else *load* it and keep it.

    Parsing and validating the official files takes about 0.4 s; unpickling the result
    takes a few milliseconds. Any change to a results file, a data file or the code, or
    another results folder, makes a new digest (see :func:`results_digest`)."""
    from generator.data.table import ResultsTable  # imported here to keep start-up fast (it imports pandas)

    path = cache_dir / f"table-{digest[:32]}.pickle" if cache_dir else None
    table = _read_pickle(path) if path else None
    if isinstance(table, ResultsTable):
        assert path is not None
        with contextlib.suppress(OSError):
            os.utime(path)  # used now: the last to be removed
    else:
        table = load()
        if path is not None:
            _write_pickle(path, table)
            _keep_newest(path.parent.glob("table-*.pickle"), KEEP_TABLES)
    table.digest = digest
    return table


def _keep_newest(paths: Iterable[Path], count: int) -> None:
    """Remove all but the *count* most recently used of *paths*."""
    dated = []
    for p in paths:
        with contextlib.suppress(OSError):
            dated.append((p.stat().st_mtime_ns, p))
    for _, p in sorted(dated, reverse=True)[count:]:
        p.unlink(missing_ok=True)


class ChartCache:
    """Charts of earlier builds, by their arguments and the data behind them: an article whose
    prose was edited gets its unchanged charts back without importing altair (a third of a second)."""

    def __init__(self, directory: Path, static_key: str) -> None:
        self.dir = directory
        self.static_key = static_key

    def key(
        self, kind: str, args: tuple[Any, ...], kw: dict[str, Any], caption: str | None, table: Any
    ) -> str:
        """A hash of everything a chart is made from; "" when the table carries no digest."""
        digest = getattr(table, "digest", "")
        if not digest:
            return ""
        call = repr((kind, args, sorted(kw.items()), caption))  # figures and groups print their values
        return hashlib.sha256(f"{self.static_key}|{digest}|{call}".encode()).hexdigest()

    def get(self, key: str) -> Any:
        return _read_pickle(self.dir / f"{key[:32]}.pickle") if key else None

    def put(self, key: str, chart: Any) -> None:
        if key:
            _write_pickle(self.dir / f"{key[:32]}.pickle", chart)


class ReadCache:
    """What the checker's vocabulary read while checking each article (text → what it names),
    under ``<dir>/reads-<hash of the article's path>.pickle``, kept by the code, the data files
    and the table (which benchmarks exist): checking an edited article reads only its new
    sentences (a third of checking the reference article)."""

    def __init__(self, directory: Path, static_key: str) -> None:
        self.dir = directory
        self.static_key = static_key

    def _path(self, article: Path) -> Path:
        return self.dir / f"reads-{hashlib.sha256(str(article).encode()).hexdigest()[:32]}.pickle"

    def load(self, paths: list[Path]) -> dict[str, Mentions]:
        out: dict[str, Mentions] = {}
        for p in paths:
            entry = _read_pickle(self._path(p))
            if isinstance(entry, tuple) and len(entry) == 2 and entry[0] == self.static_key:
                out.update(entry[1])
        return out

    def save(self, path: Path, read: dict[str, Mentions]) -> None:
        _write_pickle(self._path(path), (self.static_key, read))


class CheckCache:
    """Findings of an article, kept by a hash of its rendered text, the table it was checked
    against, the checker's configuration and the code: an unchanged article is not checked again."""

    def __init__(self, directory: Path, static_key: str) -> None:
        self.dir = directory
        self.static_key = static_key
        self.hits = 0

    def _key(self, rendered: Rendered) -> str:
        h = hashlib.sha256(self.static_key.encode())
        h.update(str(rendered.article.path).encode())
        try:
            h.update(rendered.article.path.read_bytes())  # suppressions and front matter are read from it
        except OSError:
            h.update(rendered.article.body.encode())
        h.update(rendered.markdown.encode())
        return h.hexdigest()

    def findings(self, rendered: Rendered, check: Callable[[Rendered], list[Any]]) -> list[Any]:
        path = self.dir / f"{rendered.article.slug}.pickle"
        key = self._key(rendered)
        entry = _read_pickle(path)
        if isinstance(entry, tuple) and len(entry) == 2 and entry[0] == key:
            self.hits += 1
            return list(entry[1])
        found = check(rendered)
        _write_pickle(path, (key, found))
        return found


#: the layout of a kept check output; a file of another layout is ignored
OUTPUTS_FORMAT = 1
#: check outputs the user cache keeps (one per command: its folder, articles and options), the
#: least recently written removed beyond this many
KEEP_OUTPUTS = 256


@dataclass(frozen=True)
class CheckOutput:
    """What one ``gpu-insights check`` printed and how it ended."""

    out: str
    err: str
    status: int


def check_output_key(
    root: Path,
    articles: list[Path],
    results: str,
    config: Path | None,
    options: tuple[str, ...],
) -> str:
    """A hash of everything the output of ``check ARTICLES`` depends on: the articles' names (as
    given, from this folder) and bytes, the publication (its folder, mkdocs.yml, and every file of
    its data folder), the results (*results*: their :func:`results_digest`), the checker
    configuration, the options, and the code (the generator's source and packaged defaults, the
    installed packages and the interpreter)."""
    h = hashlib.sha256(f"{OUTPUTS_FORMAT}\0{sys.version}\0{code_version()}\0{results}\0".encode())
    hash_inputs(h, CODE_DIR / "defaults", "defaults")
    h.update("\0".join(_installed()).encode())
    h.update(f"\0{os.getcwd()}\0{root.resolve()}\0{config}\0{options}\0".encode())
    mkdocs = root / "mkdocs.yml"
    hash_file(h, mkdocs, "mkdocs.yml")
    with contextlib.suppress(OSError):
        if b"!ENV" in mkdocs.read_bytes():  # the site's name may come from the environment
            h.update(repr(sorted(os.environ.items())).encode())
    hash_inputs(h, root / "data", "data")
    if config is not None:
        hash_file(h, config, "config")
    for p in articles:
        hash_file(h, p, f"article {p}")
    return h.hexdigest()


def _installed() -> list[str]:
    """The distributions (name and version) installed where this interpreter imports from."""
    names: list[str] = []
    for entry in sys.path:
        with contextlib.suppress(OSError):
            names += sorted(n for n in os.listdir(entry or ".") if n.endswith((".dist-info", ".egg-info")))
    return names


class CheckOutputs:
    """The outputs of ``gpu-insights check`` of article files, in the user cache
    (``outputs/<hash of the command>.json``), each with the key of everything it depends on
    (:func:`check_output_key`): checking an unchanged article again prints what the last check
    printed, byte for byte, without importing the checker. Only an output the inputs decide is
    kept (see :meth:`store`)."""

    def __init__(
        self, command: tuple[str, ...], key: str, results: str, directory: Path | None = None
    ) -> None:
        self.dir = directory or user_cache_dir() / "outputs"
        name = hashlib.sha256(repr((os.getcwd(), command)).encode()).hexdigest()[:32]
        self.path = self.dir / f"{name}.json"
        self.key = key
        #: the results' digest (:func:`results_digest`), made once for the key and the check
        self.results = results

    def lookup(self) -> CheckOutput | None:
        payload = read_signed(self.path)
        try:
            data = json.loads(payload) if payload is not None else None
        except ValueError:
            return None
        if not isinstance(data, dict) or data.get("format") != OUTPUTS_FORMAT or data.get("key") != self.key:
            return None
        out, err, status = data.get("out"), data.get("err"), data.get("status")
        if not (isinstance(out, str) and isinstance(err, str) and status in (0, 1)):
            return None
        return CheckOutput(out, err, status)

    def store(self, output: CheckOutput) -> None:
        """Keep *output* (a check that ended with status 0 or 1: one that failed or ran out of time is
        checked again next time)."""
        if output.status not in (0, 1):
            return
        text = json.dumps(
            {
                "format": OUTPUTS_FORMAT,
                "key": self.key,
                "out": output.out,
                "err": output.err,
                "status": output.status,
            }
        )
        with contextlib.suppress(OSError):  # a read-only cache: checked again next time
            write_signed(self.path, text.encode("utf-8"))
            _keep_newest(self.dir.glob("*.json"), KEEP_OUTPUTS)
