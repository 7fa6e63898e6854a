"""The results table kept between ``check`` processes as plain columns, read back without pandas.

Loading the official files takes pandas (0.4 s to import) and their parsing and validation; a
``check`` of a hand-written article needs neither once the rows are known. After the first
load, the rows of a results folder are kept in the user's cache folder
(``$XDG_CACHE_HOME/gpu-insights/rows/``), one file per results folder, as JSON: every
:class:`~generator.data.row.Row` field's column, the file each round was read from, the
folder's real path and a digest of everything the table depends on (every results file's
bytes, the project's data files and the generator's code:
:func:`generator.site.cache.results_digest`).

The file is signed (:mod:`generator.signing`) and read back only when its signature verifies,
its folder and digest are the ones asked for, and every column holds values of its field's type
and the same number of rows. Anything else (another results folder, a changed file, a corrupt,
truncated, edited or planted cache) is ignored: the table is loaded again and the file
rewritten. JSON, not pickle: reading it runs no code.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from generator.data.row import Row
from generator.data.rowtable import FIELDS, RowTable
from generator.signing import read_signed, user_cache_dir, write_signed

#: the layout of a cache file; a file of another layout is ignored
FORMAT = 1
#: each field's Python type, from the Row annotations ("str", "bool", "int", "float")
TYPES: dict[str, type] = {
    f: {"str": str, "bool": bool, "int": int, "float": float}[str(Row.__dataclass_fields__[f].type)]
    for f in FIELDS
}


def cache_file(results_dir: Path, cache_dir: Path | None = None) -> Path:
    """Where the rows of *results_dir* are kept (one file per folder, by its real path)."""
    name = hashlib.sha256(str(results_dir.resolve()).encode()).hexdigest()[:32]
    return (cache_dir or user_cache_dir() / "rows") / f"rows-{name}.json"


def cached_rows(
    results_dir: Path, digest: str, load: Callable[[], RowTable], *, cache_dir: Path | None = None
) -> tuple[RowTable, bool]:
    """The rows of *results_dir* from the cache when it holds them for *digest*, else *load*-ed
    and kept; and whether they came from the cache."""
    path = cache_file(results_dir, cache_dir)
    payload = read_signed(path)
    kept = _valid(payload, results_dir, digest) if payload is not None else None
    if kept is not None:
        columns, files = kept
        return RowTable.from_columns(columns, files, results_dir=results_dir, digest=digest), True
    table = load()
    table.digest = digest
    text = dumps(table, results_dir, digest)
    if text is not None:
        with contextlib.suppress(OSError):  # a read-only cache only costs the next check a load
            write_signed(path, text.encode("utf-8"))
    return table, False


def dumps(table: RowTable, results_dir: Path, digest: str) -> str | None:
    """The cache file's text for *table*; None when a value is not of its field's type (such a
    table is never kept)."""
    columns = {f: list(table.column(f)) for f in FIELDS}
    if not _typed(columns, len(table)):
        return None
    files = {str(r.version): str(r.path) for r in table.reports}
    return json.dumps(
        {
            "format": FORMAT,
            "results": str(results_dir.resolve()),
            "digest": digest,
            "files": files,
            "columns": columns,
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


def _valid(
    payload: bytes, results_dir: Path, digest: str
) -> tuple[dict[str, list[Any]], dict[str, str]] | None:
    """The columns and files of a cache file's *payload* when it is whole and is the table of
    *results_dir* at *digest*; else None."""
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):  # not UTF-8, not JSON
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("digest") != digest:
        return None
    if data.get("results") != str(results_dir.resolve()):
        return None
    columns, files = data.get("columns"), data.get("files")
    if not isinstance(columns, dict) or set(columns) != set(FIELDS) or not isinstance(files, dict):
        return None
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
        return None
    size = len(columns[FIELDS[0]]) if isinstance(columns[FIELDS[0]], list) else -1
    return (columns, files) if _typed(columns, size) else None


def _typed(columns: dict[str, Any], size: int) -> bool:
    """Whether every column is a list of *size* values of its field's exact type."""
    for f, t in TYPES.items():
        col = columns[f]
        if not isinstance(col, list) or len(col) != size or not set(map(type, col)) <= {t}:
            return False
    return True
