"""Article files: YAML front matter read safely and checked, the body kept line for line.

Front matter is parsed with PyYAML's safe loader, with aliases bounded (no
"billion laughs") and every value checked against what an article may declare.
Dates may be YAML dates, datetimes or written dates ("October 5, 2026"). Every
problem is a :class:`~generator.errors.TemplateError` naming ``path:line``.

An article is a regular file of bounded size (:data:`MAX_ARTICLE_BYTES`): a named pipe, a
device or a link to one is refused before it is opened, and no read goes past the bound.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from generator.article.escape import DataText
from generator.errors import TemplateError
from generator.project import MAX_ARTICLE_BYTES, file_problem, source_problem

MAX_ALIASES = 20
MAX_FRONT_MATTER = 64_000  # characters
SLUG = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
DATE_FORMATS = ("%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%d %b %Y", "%Y-%m-%d", "%B %d %Y")
TEXT_KEYS = ("title", "description", "author", "summary")


class _TooManyAliases(yaml.YAMLError):
    def __init__(self, line: int) -> None:
        super().__init__(f"more than {MAX_ALIASES} aliases")
        self.line = line


class _BoundedLoader(yaml.SafeLoader):
    """The safe loader, refusing documents with more than :data:`MAX_ALIASES` aliases."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.aliases = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise _TooManyAliases(self.peek_event().start_mark.line + 2)  # the head starts on line 2
        return super().compose_node(parent, index)


@dataclass
class Article:
    """An article template: ``content/<slug>.md`` with YAML front matter."""

    path: Path
    slug: str
    meta: dict[str, Any]
    body: str  # the source with front matter blanked out, so line numbers match the file
    meta_lines: dict[str, int]  # line of each front-matter key in the file

    @property
    def title(self) -> str:
        return str(self.meta.get("title", self.slug))

    @property
    def rounds(self) -> list[str]:
        return list(self.meta.get("rounds", []))

    @property
    def date(self) -> dt.date | None:
        d = self.meta.get("date")
        return d if isinstance(d, dt.date) else None


def parse_date(value: Any) -> dt.date | None:
    """A date from YAML (date, datetime) or text ("2026-10-05", "October 5, 2026"); None if not one."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if not isinstance(value, str):
        return None
    text = value.strip()
    try:
        return dt.datetime.fromisoformat(text.replace("Z", "+00:00")).date()
    except ValueError:
        pass
    for fmt in DATE_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


def _fail(path: Path, line: int, message: str) -> TemplateError:
    return TemplateError(f"{path}:{line}: {message}")


def _yaml_problem(exc: yaml.YAMLError) -> tuple[int, str]:
    """(file line, message) of a YAML error: the problem and its place in the article's own lines
    (YAML counts from 0 inside the front matter), with what to do about the usual mistake."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    if mark is None:
        return 1, f"invalid front matter: {problem}"
    line = mark.line + 2  # the "---" line, and 1-based
    advice = ""
    if "mapping values are not allowed" in problem:
        advice = ' (a value holding ": " must be quoted: key: "value: more")'
    return line, f"invalid front matter: {problem} at line {line}, column {mark.column + 1}{advice}"


def _key_lines(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for i, ln in enumerate(text.splitlines(), start=2):  # the front matter starts on line 2
        m = re.match(r"([A-Za-z_][\w-]*)\s*:", ln)
        if m:
            out[m.group(1)] = i  # the last one counts, as in YAML
    return out


def _rounds(path: Path, line: int, value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    out = []
    for v in items:
        if isinstance(v, bool) or not isinstance(v, str | int | float):
            raise _fail(path, line, f'rounds: {v!r} is not a round version; write rounds: ["6.1"]')
        if not isinstance(v, str):
            raise _fail(
                path,
                line,
                f'rounds: write round versions as quoted text, rounds: ["{v}"] (YAML reads a bare '
                "6.10 as the number 6.1)",
            )
        version = v.strip().lower().removeprefix("v")
        if not re.fullmatch(r"\d+\.\d+", version):
            raise _fail(path, line, f"rounds: {v!r} is not a round version like 6.1")
        out.append(version)
    return out


def check_meta(path: Path, meta: dict[str, Any], lines: dict[str, int]) -> dict[str, Any]:
    """Front matter with checked types: text as :class:`DataText`, dates as dates, rounds as versions."""
    out: dict[str, Any] = {}
    for key, value in meta.items():
        line = lines.get(str(key), 1)
        if not isinstance(key, str):
            raise _fail(path, line, f"front matter key {key!r} is not text")
        if key in TEXT_KEYS:
            if not isinstance(value, str | int | float) or isinstance(value, bool):
                raise _fail(path, line, f"{key}: expected text, got {type(value).__name__}")
            out[key] = DataText(str(value))
        elif key == "date":
            if value is None or value == "":
                continue  # "date:" left empty: no date (the checker asks for one)
            d = parse_date(value)
            if d is None:
                raise _fail(
                    path, line, f"date: {value!r} is not a date (write 2026-10-05 or October 5, 2026)"
                )
            out[key] = d
        elif key == "rounds":
            out[key] = _rounds(path, line, value)
        elif key == "sample":
            if not isinstance(value, bool):
                raise _fail(path, line, "sample: expected true or false")
            out[key] = value
        else:
            out[key] = value
    return out


def read_source(path: Path) -> str:
    """The text of an article file (newlines as text mode reads them), read without blocking on
    a pipe and never past :data:`MAX_ARTICLE_BYTES`."""
    problem = source_problem(path)
    if problem is None:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        except OSError as exc:
            raise _fail(path, 1, f"cannot read it: {exc.strerror or exc}") from None
        with os.fdopen(fd, "rb") as fh:
            problem = file_problem(os.fstat(fd))  # the file opened, not the one looked at before
            data = b"" if problem else fh.read(MAX_ARTICLE_BYTES + 1)
        if len(data) > MAX_ARTICLE_BYTES:
            problem = f"over the {MAX_ARTICLE_BYTES:,}-byte limit of an article"
    if problem:
        raise _fail(path, 1, problem)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _fail(path, 1, f"not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")  # universal newlines, as text mode reads


def load_article(path: Path) -> Article:
    """Read an article file; the body keeps the file's line numbers."""
    if not SLUG.fullmatch(path.stem):
        raise _fail(path, 1, "file name must be letters, digits, '.', '_' or '-' (it becomes the page URL)")
    text = read_source(path)
    bad = _CONTROL.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        col = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        raise TemplateError(
            f"{path}:{line}:{col}: control character U+{ord(bad.group(0)):04X} in the article"
        )
    text = text.replace("\r\n", "\n")
    if not text.startswith("---\n"):
        return Article(path, path.stem, {}, text, {})
    end = text.find("\n---\n", 4)
    if end == -1:
        if text.endswith("\n---"):
            end = len(text) - 4
        else:
            raise _fail(path, 1, "front matter opened with '---' is never closed")
    head = text[4:end]
    if len(head) > MAX_FRONT_MATTER:
        raise _fail(path, 1, f"front matter is longer than {MAX_FRONT_MATTER:,} characters")
    try:
        meta = yaml.load(head, Loader=_BoundedLoader) or {}  # noqa: S506 - a SafeLoader subclass
    except _TooManyAliases as exc:
        raise _fail(
            path,
            exc.line,
            f"front matter uses more than {MAX_ALIASES} YAML aliases (refused: expansion is bounded)",
        ) from None
    except yaml.YAMLError as exc:
        raise _fail(path, *_yaml_problem(exc)) from None
    except RecursionError:
        raise _fail(path, 1, "invalid front matter: lists or mappings nested too deeply") from None
    except ValueError as exc:  # a whole number longer than Python converts, say (its advice cut)
        raise _fail(path, 1, f"invalid front matter: {str(exc).split(';')[0]}") from None
    if not isinstance(meta, dict):
        raise _fail(path, 2, "front matter must be a mapping of keys to values")
    lines = _key_lines(head)
    n = text[: end + 5].count("\n")
    body = "\n" * n + text[end + 5 :]
    return Article(path, path.stem, check_meta(path, meta, lines), body, lines)
