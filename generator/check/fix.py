"""Fixes for the findings that need no judgement (``gpu-insights check --fix``).

A rule whose findings are mechanical declares its fix beside it (``@rule(..., fix=...)``): a
function of the article's :class:`Source` and one finding that returns an :class:`Edit` (a line
and column range of the file and the text that replaces it), or None where the text found there
is not what the rule can mend. The edits of an article are applied from the end of the file
backwards, so that no edit moves another; an edit overlapping one already taken is left for the
next pass. Nothing else changes: the bytes outside the edits, the line endings and the encoding
stay as they were, and fixing a fixed article changes nothing.

The fixed texts are checked again before anything is written (copies in a private temporary
folder), and fixed again while that check finds more (a title given its ® sign makes the heading
that printed it a finding of its own), up to :data:`PASSES` checks: ``--diff`` shows what
``--fix`` writes, and the findings ``--fix`` reports are those of the articles as written.

An article that does not parse (its front matter, its template syntax: any MLP000 finding) is
never touched. A finding whose fix would need judgement (a possessive "MLPerf's", a mark not
followed by the benchmark's name) gets no edit: it stays for the editor.
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from generator.check.config import CheckConfig
from generator.check.editor import check_texts
from generator.check.findings import Finding, by_path
from generator.check.registry import RULES

JINJA = re.compile(r"\{\{|\{%")
_BREAK = re.compile(r"\r\n|\r|\n")
_FRONT_OPEN = re.compile(r"---\r?\n")
_FRONT_CLOSE = re.compile(r"\r?\n---(?:\r?\n|$)")
_LINES = re.compile(r"[^\n]*\n|[^\n]+$")


@dataclass(frozen=True, order=True)
class Edit:
    """Replace the text from (*line*, *col*) up to (*end_line*, *end_col*) with *text*: 1-based
    lines and columns as the checker counts them, the end excluded (an insertion when both are
    the same place)."""

    line: int
    col: int
    end_line: int
    end_col: int
    text: str

    @classmethod
    def insert(cls, line: int, col: int, text: str) -> Edit:
        return cls(line, col, line, col, text)


class Source:
    """An article's text as its fixes read it: lines and columns counted as the checker counts
    them (a line ends at a line feed, a carriage return or both), mapped to the file's text."""

    def __init__(self, path: Path, text: str, config: CheckConfig | None = None) -> None:
        self.path = path
        self.text = text
        self.config = config if config is not None else CheckConfig()
        self.starts = [0] + [m.end() for m in _BREAK.finditer(text)]

    @cached_property
    def newline(self) -> str:
        """The file's own line break (a line feed when it has none)."""
        m = _BREAK.search(self.text)
        return m.group(0) if m else "\n"

    @cached_property
    def body_start(self) -> int:
        """Where the text after the front matter starts (0 without front matter)."""
        opened = _FRONT_OPEN.match(self.text)
        if opened is None:
            return 0
        closed = _FRONT_CLOSE.search(self.text, opened.end() - 1)
        return closed.end() if closed else 0

    @cached_property
    def template(self) -> bool:
        """Whether the article has placeholders (a template) or is typed by hand."""
        return bool(JINJA.search(self.text, self.body_start))

    def line_text(self, line: int) -> str:
        """Line *line* without its line break ("" past the end)."""
        if not 1 <= line <= len(self.starts):
            return ""
        return self.text[self.starts[line - 1] : self._line_end(line)]

    def _line_end(self, line: int) -> int:
        if line >= len(self.starts):
            return len(self.text)
        nxt = self.starts[line]
        return nxt - (2 if self.text[nxt - 2 : nxt] == "\r\n" else 1)

    def offset(self, line: int, col: int) -> int | None:
        """The offset of (*line*, *col*), or None when the line has no such column."""
        if not 1 <= line <= len(self.starts) or col < 1:
            return None
        off = self.starts[line - 1] + col - 1
        return off if off <= self._line_end(line) else None

    def position(self, offset: int) -> tuple[int, int]:
        """The (line, column) of *offset*."""
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1

    def end(self) -> tuple[int, int]:
        """The place right after the last character that is not white space."""
        return self.position(len(self.text.rstrip()))


@dataclass
class FileFix:
    """One article: its text before and after its fixes, the findings they remove, or why it
    was left as it was."""

    path: Path
    before: str
    after: str
    fixed: list[Finding] = field(default_factory=list)
    refused: str = ""

    @property
    def changed(self) -> bool:
        return self.after != self.before

    def diff(self) -> str:
        """The change as a unified diff (``--- a/PATH``, ``+++ b/PATH`` for a relative path; an
        absolute one as it is), a last line without a line break marked as ``diff`` marks it."""
        name = self.path.as_posix()
        old, new = (name, name) if self.path.is_absolute() else (f"a/{name}", f"b/{name}")
        lines = difflib.unified_diff(_LINES.findall(self.before), _LINES.findall(self.after), old, new)
        return "".join(ln if ln.endswith("\n") else ln + "\n\\ No newline at end of file\n" for ln in lines)


def edits_for(source: Source, findings: Iterable[Finding]) -> list[tuple[Finding, Edit]]:
    """The edit of each fixable finding whose fix applies, in the findings' order."""
    out = []
    for f in findings:
        r = RULES.get(f.rule)
        edit = r.fix(source, f) if r is not None and r.fix is not None else None
        if edit is not None:
            out.append((f, edit))
    return out


def apply(source: Source, edits: list[tuple[Finding, Edit]]) -> tuple[str, list[Finding]]:
    """*source* with *edits* made, from the end backwards, and the findings they fixed. An edit
    that overlaps one before it is left out (the next run makes it); insertions at the same
    place keep the order of their findings; the same edit asked twice is made once."""
    spans = []
    for k, (f, e) in enumerate(edits):
        a, z = source.offset(e.line, e.col), source.offset(e.end_line, e.end_col)
        if a is not None and z is not None and a <= z:
            spans.append((a, z, k, e.text, f))
    spans.sort(key=lambda s: (s[0], s[1], s[2]))
    kept: list[tuple[int, int, str]] = []
    fixed: list[Finding] = []
    end = -1
    for a, z, _, text, f in spans:
        if kept and (a, z, text) == kept[-1]:
            fixed.append(f)  # two findings, one edit
            continue
        if a < end:
            continue  # inside the edit before it
        kept.append((a, z, text))
        fixed.append(f)
        end = max(end, z)
    out = source.text
    for a, z, text in reversed(kept):
        out = out[:a] + text + out[z:]
    return out, fixed


def fix_text(source: Source, findings: Iterable[Finding]) -> tuple[str, list[Finding]]:
    """The article's text with the fixes of *findings* made, and the findings they fixed."""
    return apply(source, edits_for(source, findings))


def fix_files(paths: Iterable[Path], findings: list[Finding], config: CheckConfig) -> list[FileFix]:
    """The fixes of every article of *paths* that has findings (none written here). An article
    that does not parse (an MLP000 finding) or cannot be read as UTF-8 is refused, unchanged."""
    mine = by_path(findings)
    out = []
    for path in paths:
        found = mine.get(str(path), [])
        if not found:
            continue
        try:
            text = path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            out.append(FileFix(path, "", "", refused=f"not fixed: cannot read it ({exc})"))
            continue
        if any(f.rule == "MLP000" for f in found):
            out.append(FileFix(path, text, text, refused="not fixed: the article does not render (MLP000)"))
            continue
        after, fixed = fix_text(Source(path, text, config), found)
        out.append(FileFix(path, text, after, fixed))
    return out


def write(fixes: Iterable[FileFix]) -> list[FileFix]:
    """Write each changed article, unless it changed on disk since it was read (then it is left
    as it is, and refused); the fixes written."""
    done = []
    for fx in fixes:
        if not fx.changed or fx.refused:
            continue
        try:
            now = fx.path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            now = None
        if now != fx.before:
            fx.refused = "not fixed: the file changed while it was checked"
            continue
        fx.path.write_bytes(fx.after.encode("utf-8"))
        done.append(fx)
    return done


def summary(fixes: list[FileFix], *, written: bool) -> list[str]:
    """What ``--fix`` tells on standard error: each article refused, then the count."""
    lines = [f"{fx.path}: {fx.refused}" for fx in fixes if fx.refused]
    changed = [fx for fx in fixes if fx.changed and not fx.refused]
    n = sum(len(fx.fixed) for fx in changed)
    verb = "fixed" if written else "would fix"
    lines.append(f"{verb} {n} finding(s) in {len(changed)} file(s)")
    return lines


#: how many times ``--fix`` fixes an article again when its fixes bring up other fixable findings
#: (a title given its ® sign: the heading that printed it is now a finding of its own)
PASSES = 3


def fix_paths(
    paths: list[Path],
    check: Callable[[list[Path]], list[Finding]],
    config: CheckConfig,
    *,
    write_files: bool,
    check_copies: Callable[[list[Path]], list[Finding]] | None = None,
) -> tuple[list[FileFix], list[Finding]]:
    """Check *paths*, fix what is mechanical (again, while the fixed texts bring up more:
    :func:`_passes`) and, when *write_files*, write the fixed articles: the fixes, and the
    findings of the articles as fixed. *check_copies* checks the temporary copies of the fixed
    texts (default: *check*; the CLI's keeps nothing of them in the publication's caches)."""
    findings = check(paths)
    fixes = fix_files([Path(p) for p in by_path(findings)], findings, config)
    findings = _passes(fixes, findings, check_copies or check, config)
    if write_files:
        write(fixes)
    return fixes, findings


def fix_source(
    text: str, name: Path | None, check: Callable[[list[Path]], list[Finding]], config: CheckConfig
) -> tuple[FileFix, list[Finding]]:
    """An article's *text* (standard input) fixed as :func:`fix_paths` fixes a file, checked as
    the article *name*: the fix, and the findings of the fixed text."""
    found = check_texts([(text, name)], check)
    fx = FileFix(name or Path("-"), text, text)
    if any(f.rule == "MLP000" for f in found):
        fx.refused = "not fixed: the article does not render (MLP000)"
        return fx, found
    fx.after, fx.fixed = fix_text(Source(fx.path, text, config), found)
    return fx, _passes([fx], found, check, config)


def _passes(
    fixes: list[FileFix],
    findings: list[Finding],
    check: Callable[[list[Path]], list[Finding]],
    config: CheckConfig,
) -> list[Finding]:
    """Check the fixed texts (not written) and fix again what that check finds, up to
    :data:`PASSES` checks; the findings of the texts as fixed. A fixed text that would not
    render (which no fix should make) is refused, and its article kept as it was."""
    pending, passes = [fx for fx in fixes if fx.changed and not fx.refused], 1
    while pending:
        again = by_path(check_texts([(fx.after, fx.path) for fx in pending], check))
        for fx in pending:
            if any(f.rule == "MLP000" for f in again.get(str(fx.path), [])):
                fx.after, fx.fixed, fx.refused = (
                    fx.before,
                    [],
                    "not fixed: the fixed article would not render",
                )
                again.pop(str(fx.path))
        findings = _replaced(findings, again, {str(fx.path) for fx in pending if not fx.refused})
        if passes == PASSES:
            break
        pending, passes = [fx for fx in pending if _fix_again(fx, again, config)], passes + 1
    return findings


def _fix_again(fx: FileFix, found: dict[str, list[Finding]], config: CheckConfig) -> bool:
    """Fix *fx* again with the findings of its fixed text; whether that changed it."""
    if fx.refused:
        return False
    after, fixed = fix_text(Source(fx.path, fx.after, config), found.get(str(fx.path), []))
    if after == fx.after:
        return False
    fx.after, fx.fixed = after, fx.fixed + fixed
    return True


def _replaced(findings: list[Finding], new: dict[str, list[Finding]], paths: set[str]) -> list[Finding]:
    """*findings* with those of *paths* replaced by *new*'s, the files in their order."""
    return [f for p, fs in by_path(findings).items() for f in (new.get(p, []) if p in paths else fs)]
